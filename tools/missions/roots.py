"""Finding the workspace root and its Lean files.

The primitives work on plain string paths and import nothing beyond ``os``: the start-up
fast path (:mod:`missions.fastpath`) runs them before any heavy module, so even ``pathlib``
stays unloaded there. :func:`find_root` and :func:`check_root` wrap them for the rest of the
tool, with ``Path`` results and ``path:line: message`` errors.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up cost)
if TYPE_CHECKING:
    from pathlib import Path

NO_ROOT = "no workspace root (a directory with lakefile.lean and missions/) here or above"


def is_root(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "lakefile.lean")) and os.path.isdir(
        os.path.join(directory, "missions")
    )


def locate_root(start: str) -> str | None:
    """The nearest ancestor of ``start`` (resolved) that is a workspace root."""
    current = os.path.realpath(start)
    while True:
        if is_root(current):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def root_problem(root: str) -> tuple[str, str] | None:
    """Why ``root`` (resolved) is not a workspace root, as (path, message); None if it is."""
    if not os.path.isdir(root):
        return root, "workspace root does not exist"
    if not os.path.isfile(os.path.join(root, "lakefile.lean")):
        return os.path.join(root, "lakefile.lean"), "workspace root has no lakefile.lean"
    if not os.path.isdir(os.path.join(root, "missions")):
        return os.path.join(root, "missions"), "workspace root has no missions/ directory"
    return None


def library_roots(root: str | os.PathLike[str]) -> list[str]:
    """The ``lean_lib`` names declared in ``lakefile.lean`` (default ``Formal``)."""
    try:
        with open(os.path.join(root, "lakefile.lean"), encoding="utf-8") as handle:
            text = handle.read()
    except OSError:
        return ["Formal"]
    names = []
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "lean_lib":
            names.append(words[1].strip("«»"))
    return names or ["Formal"]


def lean_file_stats(root: str, libraries: list[str]) -> list[tuple[str, os.stat_result]]:
    """Every ``.lean`` file of the libraries with its stat, in a stable (sorted) order."""
    found: list[tuple[str, os.stat_result]] = []
    for library in libraries:
        top = os.path.join(root, f"{library}.lean")
        try:
            stat = os.stat(top)
        except OSError:
            stat = None
        if stat is not None:
            found.append((top, stat))
        _walk_lean(os.path.join(root, library), found)
    return found


def _walk_lean(directory: str, found: list[tuple[str, os.stat_result]]) -> None:
    """Collect ``.lean`` files below ``directory``.

    Hidden entries (``.#Proofs.lean`` editor lock files, ``.lake``) are not modules, and a
    symbolic link whose target is gone is nothing to scan: both are skipped. A directory that
    cannot be listed contributes nothing; imports of its modules then fail to resolve, which
    the status layer reports.
    """
    try:
        with os.scandir(directory) as scan:
            entries = sorted(scan, key=lambda entry: entry.name)
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                _walk_lean(entry.path, found)
            elif entry.name.endswith(".lean"):
                found.append((entry.path, entry.stat()))
        except OSError:  # a dangling or looping symbolic link
            continue


def iter_lean_files(root: str, libraries: list[str]) -> list[str]:
    """Every ``.lean`` file of the libraries, as paths, in a stable order."""
    return [path for path, _ in lean_file_stats(root, libraries)]


def find_root(start: Path) -> Path:
    """The nearest ancestor of ``start`` holding both ``lakefile.lean`` and ``missions/``."""
    from pathlib import Path

    from missions.errors import InputError

    found = locate_root(str(start))
    if found is None:
        raise InputError.single(start.resolve(), 1, NO_ROOT)
    return Path(found)


def check_root(root: Path) -> Path:
    """Validate an explicit ``--root``."""
    from pathlib import Path

    from missions.errors import InputError

    resolved = os.path.realpath(root)
    problem = root_problem(resolved)
    if problem is not None:
        path, message = problem
        raise InputError.single(path, 1, message)
    return Path(resolved)
