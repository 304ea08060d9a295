"""Where cached results live, and small JSON stores keyed by file stat.

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

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up cost)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any


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
    except (OSError, ValueError):
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
