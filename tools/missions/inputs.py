"""Everything a whole-workspace answer can read, stamped into one key.

The stored ``status`` answer (:mod:`missions.answers`) is keyed by the files ``status``
reads, named one by one. The gate and the dashboard read more: the git history of the
mission files (the regression ratchet, pins, the dashboard's history), a README table,
witness results and witness modules, whatever a project policy points at. A hand-kept list
of those is how a stored answer goes stale when a rule learns to read something new, so
this key names nothing: it stamps every file of the workspace tree (size, times, inode,
mode) and leaves out only what stands for itself elsewhere:

* ``.git``: the git state below stands for it (HEAD and what git reads to answer about it);
* Lake's ``.lake`` folders (build outputs and fetched packages: no rule without ``--lean``
  reads them, and ``--lean`` answers are never stored);
* Python virtual environments (a folder with ``pyvenv.cfg``) and byte-code caches: the
  tool's own code is in :func:`missions.code_fingerprint`, and a witness module anywhere
  on the import path is stamped by the caller (``extra``) together with the import path;
* the tool's cache folder, of which the caller names the files that are inputs.

``tests/test_stored_answers.py`` runs ``check`` and the dashboard under an audit hook and fails if
either opens a file this key does not cover, so a new rule that reads a new file cannot
silently be answered from before it existed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable
from typing import Any

from missions import SCANNER_VERSION, __version__, code_fingerprint, roots
from missions.cache import cache_dir_for

#: Folders whose files no stored answer reads (see the module docstring).
SKIPPED_FOLDERS = frozenset({".git", ".lake", "__pycache__"})

#: Files of a git directory that decide what ``log``, ``diff`` and ``cat-file`` answer,
#: besides HEAD's commit: shallow and graft boundaries, configuration, alternates, the
#: index (which files are tracked), replacement refs (below).
_GIT_FILES = (
    "HEAD",
    "index",
    "shallow",
    "packed-refs",
    "config",
    "config.worktree",
    "commondir",
    "info/grafts",
    "info/attributes",
    "objects",
    "objects/pack",
    "objects/info/alternates",
)


def _describe(s: os.stat_result) -> str:
    return f"{s.st_mode}:{s.st_size}:{s.st_mtime_ns}:{s.st_ctime_ns}:{s.st_ino}"


def path_stamp(path: str) -> str:
    """What tells that a file changed: its kind and permissions, size, times and inode."""
    try:
        return _describe(os.stat(path))
    except OSError as exc:
        return f"-{exc.errno}"


class _Stamps:
    """The stamps of a key, and the newest time among the files stamped."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.newest = 0

    def file(self, path: str) -> None:
        try:
            s = os.stat(path)
        except OSError as exc:
            self.parts.append(f"{path}\0-{exc.errno}")
            return
        self.parts.append(f"{path}\0{_describe(s)}")
        self.newest = max(self.newest, s.st_mtime_ns, s.st_ctime_ns)

    def tree(self, top: str, skip: Iterable[str] = ()) -> None:
        """Every file below ``top`` (symbolic links followed, each folder once), in a stable
        order; ``skip`` holds folders left out."""
        seen: set[tuple[int, int]] = set()  # skipped folders count as seen
        for folder in skip:
            try:
                info = os.stat(folder)
            except OSError:
                continue
            seen.add((info.st_dev, info.st_ino))

        folders = [top]  # a stack, not recursion: a hostile tree may nest thousands deep
        while folders:
            folder = folders.pop()
            try:
                info = os.stat(folder)
                if (info.st_dev, info.st_ino) in seen:  # skipped, or walked by another name
                    self.parts.append(f"{folder}/\0={info.st_dev}:{info.st_ino}")
                    continue
                seen.add((info.st_dev, info.st_ino))
                with os.scandir(folder) as scan:
                    entries = sorted(scan, key=lambda e: e.name)
            except OSError as exc:
                self.parts.append(f"{folder}/\0-{exc.errno}")
                continue
            if any(e.name == "pyvenv.cfg" for e in entries):
                continue  # a virtual environment: code, stamped by its own rules
            self.parts.append(f"{folder}/\0{info.st_mode}")
            below = []
            for entry in entries:
                try:
                    is_folder = entry.is_dir()
                except OSError:
                    is_folder = False
                if not is_folder:
                    self.file(entry.path)
                elif entry.name not in SKIPPED_FOLDERS:
                    below.append(entry.path)
            folders.extend(reversed(below))

    def git(self, top: str) -> None:
        """What git answers from: its own answer to where the repository is and which
        commit HEAD is (or its refusal), every ``GIT_*`` variable, the git directory's
        deciding files, every object folder (a fetch adds objects; a pin may name a commit
        that only then exists) and replacement ref, and the configuration files."""
        git = shutil.which("git")
        self.parts.append(f"git\0{git}")
        self.parts += (f"{k}={v}" for k, v in sorted(os.environ.items()) if k[:4] == "GIT_")
        if git is None:
            return
        try:
            done = subprocess.run(
                [git, "rev-parse", "--absolute-git-dir", "--git-common-dir", "HEAD"],
                cwd=top,
                capture_output=True,
                check=False,
                timeout=60,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            self.parts.append(f"rev-parse\0{exc}")
            return
        self.parts.append(f"rev-parse\0{done.returncode}\0{done.stdout!r}\0{done.stderr!r}")
        lines = done.stdout.decode(errors="replace").splitlines()
        if done.returncode == 0 and len(lines) >= 2:
            common = os.path.normpath(os.path.join(top, lines[1]))
            for folder in dict.fromkeys((lines[0], common)):
                for name in _GIT_FILES:
                    self.file(os.path.join(folder, name))
                try:
                    with os.scandir(os.path.join(folder, "objects")) as scan:
                        objects = sorted(e.path for e in scan if e.is_dir())
                except OSError:
                    objects = []
                for path in objects:
                    self.file(path)
                self.tree(os.path.join(folder, "refs", "replace"))
        home = os.path.expanduser("~")
        config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
        for path in (
            os.path.join(home, ".gitconfig"),
            os.path.join(config, "git", "config"),
            os.path.join(config, "git", "attributes"),
            "/etc/gitconfig",
        ):
            self.file(path)


def _stamps(top: str, purpose: str, extra: Iterable[str]) -> _Stamps:
    stamps = _Stamps()
    stamps.parts.append(f"{__version__}\0{SCANNER_VERSION}\0{code_fingerprint()}\0{top}\0{purpose}")
    stamps.parts += (f"{k}={v}" for k, v in sorted(os.environ.items()) if k[:9] == "MISSIONS_")
    stamps.tree(top, skip=[cache_dir_for(top)])
    stamps.git(top)
    # the import path and its folders' times: a module added in front of a witness
    # module's package changes which file ``import`` finds
    for entry in sys.path:
        stamps.file(entry or os.getcwd())
    for path in extra:
        stamps.file(os.path.abspath(path))
    return stamps


def workspace_key(root: str | os.PathLike[str], purpose: str, extra: Iterable[str] = ()) -> str:
    """A key that changes whenever anything a whole-workspace answer may read changes:
    the tool's code and version, the workspace tree, git, the import path, the environment
    variables the tool reads, and the ``extra`` files (inputs that live elsewhere, such as
    the saved witness results). ``purpose`` names the answer (and its options)."""
    return _digest(_stamps(os.path.realpath(root), purpose, extra).parts)


def _digest(parts: list[str]) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _record_path(root: str, purpose: str) -> str:
    name = hashlib.sha256(purpose.encode()).hexdigest()[:16]
    return os.path.join(cache_dir_for(root), f"answer-{name}.json")


def lookup(root: str | os.PathLike[str], purpose: str) -> Any:
    """The answer stored for ``purpose`` if nothing it may have read changed since, else
    None (also for a missing, damaged or foreign record: the caller computes afresh)."""
    return _consult(os.path.realpath(root), purpose, None)[0]


def consult(
    root: str | os.PathLike[str], purpose: str, extra: Iterable[str]
) -> tuple[Any, Recording]:
    """:func:`lookup`, and the :class:`Recording` (with ``extra`` as its inputs) to store a
    fresh answer under: taken from the same stamps of the tree where the stored record's
    inputs begin with ``extra`` (the usual case), so a miss costs one stamp, not two."""
    top = os.path.realpath(root)
    known = list(extra)
    answer, recording = _consult(top, purpose, known)
    return answer, recording if recording is not None else Recording(top, purpose, known)


def _consult(top: str, purpose: str, known: list[str] | None) -> tuple[Any, Recording | None]:
    started = time.time_ns()
    try:
        with open(_record_path(top, purpose), encoding="utf-8") as handle:
            record = json.load(handle)
        if record["purpose"] != purpose or not isinstance(record["extra"], list):
            return None, None
        extra = [str(path) for path in record["extra"]]
        stamps = _stamps(top, purpose, extra)
        answer = record["answer"] if _digest(stamps.parts) == record["key"] else None
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None, None
    if known is None or extra[: len(known)] != known:
        return answer, None
    # each extra file is the last part of its own: without the later ones, these are the
    # parts a Recording of ``known`` takes
    parts = stamps.parts[: len(stamps.parts) - (len(extra) - len(known))]
    return answer, Recording(top, purpose, known, taken=(started, parts, stamps.newest))


class Recording:
    """The key taken before an answer is computed, to store the answer under afterwards.

    If anything the key covers moved while the answer was computed (an edit, or the
    answer's own output inside the workspace), nothing is stored: the answer may mix the
    states before and after. Nor is anything stored while a stamped file is racy
    (:data:`missions.roots.RACY_NS`): its next change might not move the key.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        purpose: str,
        extra: Iterable[str] = (),
        *,
        taken: tuple[int, list[str], int] | None = None,
    ):
        """``taken``: (when, parts, newest time) of stamps already taken (:func:`consult`);
        else the tree is stamped now. The newest time may cover more files than the parts
        (then more counts as racy: the safe direction)."""
        self.top = os.path.realpath(root)
        self.purpose = purpose
        self.extra = list(extra)
        if taken is None:
            self.started = time.time_ns()
            stamps = _stamps(self.top, purpose, self.extra)
            taken = (self.started, stamps.parts, stamps.newest)
        self.started, parts, newest = taken
        #: the stamps the key is the digest of (the incremental ``check`` compares them)
        self.parts = parts
        self.before = _digest(parts)
        self.racy = newest > self.started - roots.RACY_NS
        #: once :meth:`store` kept an answer: the stamps and extra files it is keyed by
        self.kept: tuple[list[str], list[str]] | None = None

    def store(self, answer: Any, found: Iterable[str] = ()) -> bool:
        """Keep ``answer``; ``found`` are inputs that became known while computing it (the
        witness modules the YAML names). Says whether it was kept."""
        if self.racy:
            return False
        new = sorted(set(found) - set(self.extra))
        extra = [*self.extra, *new]
        final = _stamps(self.top, self.purpose, extra)
        # one stamp of the tree serves both: each extra file is the last part of its own,
        # so without the new ones the parts are the key taken before
        before = final.parts[: len(final.parts) - len(new)]
        if _digest(before) != self.before:
            return False
        if final.newest > self.started - roots.RACY_NS:
            return False
        record = {
            "purpose": self.purpose,
            "key": _digest(final.parts),
            "extra": extra,
            "answer": answer,
        }
        path = _record_path(self.top, self.purpose)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            tmp = f"{path}.{os.getpid()}.tmp"
            with open(tmp, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(record))  # the C encoder: json.dump is pure Python
            os.replace(tmp, path)
        except OSError:
            return False
        self.kept = (final.parts, extra)
        return True

    def parts_with(self, extra: list[str]) -> list[str] | None:
        """The stamps a key with ``extra`` files (those of this recording first) would take
        now, from this recording's stamps of the tree; None if ``extra`` does not begin
        with this recording's."""
        if extra[: len(self.extra)] != self.extra:
            return None
        stamps = _Stamps()
        for path in extra[len(self.extra) :]:
            stamps.file(os.path.abspath(path))
        return [*self.parts, *stamps.parts]
