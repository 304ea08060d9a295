"""Finding the workspace root: the nearest directory with ``lakefile.lean`` and ``missions/``.

Kept free of heavy imports because the start-up fast path (:mod:`missions.fastpath`) needs it.
"""

from __future__ import annotations

import os
from pathlib import Path

from missions.errors import InputError


def library_roots(root: Path) -> list[str]:
    """The ``lean_lib`` names declared in ``lakefile.lean`` (default ``Formal``)."""
    try:
        text = (root / "lakefile.lean").read_text(encoding="utf-8")
    except OSError:
        return ["Formal"]
    names = []
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "lean_lib":
            names.append(words[1].strip("«»"))
    return names or ["Formal"]


def iter_lean_files(root: str, libraries: list[str]) -> list[str]:
    """Every ``.lean`` file of the libraries, as paths, in a stable order."""
    found: list[str] = []
    for library in libraries:
        top = os.path.join(root, f"{library}.lean")
        if os.path.isfile(top):
            found.append(top)
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, library)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            found.extend(os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith(".lean"))
    return found


def find_root(start: Path) -> Path:
    """The nearest ancestor of ``start`` holding both ``lakefile.lean`` and ``missions/``."""
    start = start.resolve()
    for candidate in (start, *start.parents):
        if (candidate / "lakefile.lean").is_file() and (candidate / "missions").is_dir():
            return candidate
    raise InputError.single(
        start, 1, "no workspace root (a directory with lakefile.lean and missions/) here or above"
    )


def check_root(root: Path) -> Path:
    """Validate an explicit ``--root``."""
    root = root.resolve()
    if not root.is_dir():
        raise InputError.single(root, 1, "workspace root does not exist")
    if not (root / "lakefile.lean").is_file():
        raise InputError.single(root / "lakefile.lean", 1, "workspace root has no lakefile.lean")
    if not (root / "missions").is_dir():
        raise InputError.single(root / "missions", 1, "workspace root has no missions/ directory")
    return root
