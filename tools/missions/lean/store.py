"""Scans of Lean files, kept by content hash, and the stat index that finds them again.

A file's scan depends only on its bytes and the scanner version, so it is stored once per
content (``scans/<sha>.json`` in the workspace's cache folder, see :mod:`missions.cache`),
written by whichever process scanned it, and read back only when needed: the incremental
``status`` (:mod:`missions.incremental`) loads the few scans an edit touches, never the
whole workspace.

The index maps each file to its size, modification time and content hash, plus what can be
decided without loading any scan: the file's imports (the module graph), its pin digest
and whether it is faulty.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from missions import SCANNER_VERSION
from missions.lean.scan import FileScan

INDEX_FILE = "scan-index.json"
STORE_DIR = f"scans-{SCANNER_VERSION}"

#: One index row: size, modification time (ns), sha256, imports, pin digest, fault or None.
IndexRow = list[Any]


def store_path(directory: str, sha: str) -> str:
    return os.path.join(directory, STORE_DIR, sha[:2], f"{sha}.json")


def write_scan(directory: str, sha: str, text: str) -> None:
    """Store a scan's JSON under its content hash, atomically (a reader never sees half)."""
    path = store_path(directory, sha)
    if os.path.exists(path):
        return
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError:
        pass  # a lost cache entry only costs a rescan


def read_scan(directory: str, sha: str) -> FileScan | None:
    try:
        with open(store_path(directory, sha), encoding="utf-8") as handle:
            return FileScan.from_json(json.load(handle))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def index_row(size: int, mtime: int, sha: str, scan: FileScan) -> IndexRow:
    return [size, mtime, sha, scan.imports, scan.digest, scan.error]


def read_index(directory: str) -> dict[str, IndexRow]:
    try:
        with open(os.path.join(directory, INDEX_FILE), encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != SCANNER_VERSION:
        return {}
    files = data.get("files")
    return files if isinstance(files, dict) else {}


def write_index(directory: str, files: dict[str, IndexRow]) -> None:
    try:
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, INDEX_FILE)
        tmp = f"{path}.{os.getpid()}.tmp"
        text = json.dumps({"version": SCANNER_VERSION, "files": files}, separators=(",", ":"))
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError:
        pass


@dataclass
class ScanStore:
    """The stat index of one workspace's files and the content-addressed scans behind it."""

    directory: str | None
    index: dict[str, IndexRow] = field(default_factory=dict)
    dirty: bool = False

    @classmethod
    def open(cls, directory: Path | None) -> ScanStore:
        if directory is None:
            return cls(None)
        return cls(str(directory), read_index(str(directory)))

    def cached(self, path: str, stat: os.stat_result) -> tuple[FileScan, str] | None:
        """The stored scan of ``path`` and its content hash, if the file's size and
        modification time are unchanged."""
        row = self.index.get(path)
        if row is None or self.directory is None:
            return None
        if row[0] != stat.st_size or row[1] != stat.st_mtime_ns:
            return None
        scan = read_scan(self.directory, row[2])
        return None if scan is None else (scan, row[2])

    def known(self, sha: str) -> FileScan | None:
        """A scan stored for this content, whatever file it came from (a touched file)."""
        return None if self.directory is None else read_scan(self.directory, sha)

    def record(self, path: str, size: int, mtime: int, sha: str, scan: FileScan) -> None:
        if not sha:
            self.index.pop(path, None)  # unreadable: nothing worth remembering
        else:
            self.index[path] = index_row(size, mtime, sha, scan)
        self.dirty = True

    def save(self, live: set[str]) -> None:
        if self.directory is None:
            return
        if set(self.index) - live:
            self.index = {k: v for k, v in self.index.items() if k in live}
            self.dirty = True
        if self.dirty:
            write_index(self.directory, self.index)
