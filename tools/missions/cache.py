"""Where cached results live, small JSON stores keyed by file stat, and record stores.

The cache sits outside the repository (``$MISSIONS_CACHE_DIR``, else the user's cache
directory, one folder per workspace) so that nobody can commit a forged result into a
pull request. A lost or corrupt cache only costs time.
"""

from __future__ import annotations

import hashlib
import os

#: The last witness results per ``mission/target`` (:mod:`missions.witness`), an input of
#: ``status``, ``check`` and the dashboard that lives in the cache folder.
WITNESS_RESULTS_FILE = "witness-results.json"
#: What the last stored plain ``check`` found, part by part, for the next one to start from
#: (:mod:`missions.recheck`).
CHECK_STATE_FILE = "check-state.json"
#: What the last full ``status`` computed, mission by mission, for the next one to patch
#: (:mod:`missions.incremental`).
STATUS_STATE_FILE = "status-state"
#: What the last stored dashboard made of each mission, for the next run into the same
#: folder (:mod:`missions.redraw`): this prefix, a digest of the folder's path, ``.json``
#: (:func:`dashboard_state_path`).
DASHBOARD_STATE_PREFIX = "dashboard-state-"

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up cost)
if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path
    from typing import IO, Any


def cache_dir_for(root: str) -> str:
    """The cache folder of the workspace at ``root`` (no pathlib: see :mod:`missions.roots`)."""
    base = os.environ.get("MISSIONS_CACHE_DIR")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(xdg, "missions")
    key = hashlib.sha256(os.path.realpath(root).encode()).hexdigest()[:16]
    return os.path.join(base, key)


def default_cache_dir(root: Path) -> Path:
    from pathlib import Path

    return Path(cache_dir_for(str(root)))


def read_store(path: Path, version: str) -> dict[str, Any]:
    import json  # kept out of module import: the start-up fast path imports this module

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # nested past the parser's depth: damaged
        return {}
    if isinstance(data, dict) and data.get("version") == version:
        files = data.get("files", {})
        return files if isinstance(files, dict) else {}
    return {}


def write_store(path: Path, version: str, files: dict[str, Any]) -> None:
    import json

    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(
            json.dumps({"version": version, "files": files}, separators=(",", ":")),
            encoding="utf-8",
        )
        os.replace(tmp, path)
    except OSError:
        import contextlib

        with contextlib.suppress(OSError):
            tmp.unlink()  # a full disk leaves no half-written file behind


def write_state(path: str, state: dict[str, Any]) -> None:
    """Replace the JSON file at ``path`` with ``state``, a state an incremental path starts
    from next time (:mod:`missions.recheck`, :mod:`missions.redraw`; tens of MB at 2,000
    missions). Written value by value, two levels deep, each as ASCII (one byte a
    character: a text with one non-ASCII character takes two or four) in slices, so the
    run's peak grows by its largest part, not by the whole text twice over. A state that
    cannot be written is not: it only costs the whole computation next time."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "w", encoding="ascii") as handle:
            _write_json(handle, state, 2)
        os.replace(tmp, path)
    except BaseException as exc:
        import contextlib

        with contextlib.suppress(OSError):
            os.unlink(tmp)  # no half-written file is left behind
        if not isinstance(exc, OSError):
            raise


def _write_json(handle: IO[str], value: Any, depth: int) -> None:
    """``json.dumps(value, separators=(",", ":"))`` into ``handle``, a part at a time."""
    import json

    if depth and isinstance(value, dict):
        handle.write("{")
        for index, (key, item) in enumerate(value.items()):
            handle.write(f"{',' if index else ''}{json.dumps(key)}:")
            _write_json(handle, item, depth - 1)
        handle.write("}")
        return
    text = json.dumps(value, separators=(",", ":"))
    for start in range(0, len(text), _SLICE):
        handle.write(text[start : start + _SLICE])


_SLICE = 1 << 20


def record_line(kind: str, name: str, key: str, entry: Any) -> str:
    """One line of a record store: ``[kind, name, key]`` and the entry, each as JSON, a tab
    between (JSON escapes every tab and newline inside them)."""
    import json

    head = json.dumps([kind, name, key], ensure_ascii=False)
    return head + "\t" + json.dumps(entry, ensure_ascii=False, separators=(",", ":"))


def record_entry(line: str) -> Any:
    """The entry of a :func:`record_line`, or None if it is damaged (it is made again)."""
    import json

    try:
        return json.loads(line.partition("\t")[2])
    except (ValueError, RecursionError):  # RecursionError: nested past the parser's depth
        return None


def read_records(path: Path, version: str) -> dict[tuple[str, str], tuple[str, str]]:
    """Per record of the store at ``path``: its key and its line, the entry still encoded.

    A record store is a version line and one :func:`record_line` per record. A run decodes
    only the entries it uses, and hands the lines it keeps on as they are (the lint's
    forked parts send the lines back, not decoded entries). A store of another version, or
    any damaged header, reads as empty: everything is computed again."""
    import json

    try:
        with open(path, encoding="utf-8", newline="\n") as handle:
            text = handle.read()
    except (OSError, ValueError):
        return {}
    head, _, body = text.partition("\n")
    lines = body.split("\n") if body else []
    if lines and not lines[-1]:
        lines.pop()
    try:
        if json.loads(head) != version:
            return {}
        # one decode for every header: thousands of small ones cost far more
        headers = json.loads("[" + ",".join(line.partition("\t")[0] for line in lines) + "]")
    except (ValueError, RecursionError):
        return {}
    if len(headers) != len(lines):  # a line holding two headers, no tab between
        return {}
    found: dict[tuple[str, str], tuple[str, str]] = {}
    for header, line in zip(headers, lines, strict=True):
        if not (
            isinstance(header, list) and len(header) == 3 and all(type(h) is str for h in header)
        ):
            return {}
        found[(header[0], header[1])] = (header[2], line)
    return found


def write_records(path: Path, version: str, lines: Iterable[str]) -> None:
    """Replace the record store at ``path`` (see :func:`read_records`); a failed write
    leaves the old store or none, never half of one."""
    import json

    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(json.dumps(version) + "\n")
            for line in lines:
                handle.write(line + "\n")
        os.replace(tmp, path)
    except OSError:
        import contextlib

        with contextlib.suppress(OSError):
            tmp.unlink()


#: The witness modules' sources (and folders) the missions linked when the last full
#: ``status`` ran: the witness column reads them (is a witness stale?), so every key of a
#: stored ``status`` answer stamps them too.
WITNESS_LIST = "status-witnesses.json"


def witness_inputs(top: str) -> list[str]:
    """The paths :data:`WITNESS_LIST` names (none if it is missing or damaged)."""
    import json

    try:
        with open(os.path.join(cache_dir_for(top), WITNESS_LIST), encoding="utf-8") as handle:
            paths = json.load(handle)
    except (OSError, ValueError, RecursionError):
        return []
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        return []
    return sorted(set(paths))


def name_witnesses(top: str, paths: list[str]) -> None:
    """Write :data:`WITNESS_LIST` (a lost write only costs the next run its stored answer)."""
    import json

    directory = cache_dir_for(top)
    try:
        os.makedirs(directory, exist_ok=True)
        tmp = os.path.join(directory, f"{WITNESS_LIST}.{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(paths, handle)
        os.replace(tmp, os.path.join(directory, WITNESS_LIST))
    except OSError:
        pass


def dashboard_state_path(root: str, out_dir: str | os.PathLike[str]) -> str:
    """Where the state of the dashboard written into ``out_dir`` is kept."""
    name = hashlib.sha256(os.path.realpath(out_dir).encode()).hexdigest()[:16]
    return os.path.join(cache_dir_for(root), f"{DASHBOARD_STATE_PREFIX}{name}.json")
