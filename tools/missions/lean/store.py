"""Scans of Lean files, kept by content hash, and the stat index that finds them again.

A file's scan depends only on its bytes and the scanner version, so it is stored once per
content, and read back only when needed: the incremental ``status``
(:mod:`missions.incremental`) loads the few scans an edit touches, never the whole
workspace. The index maps each file to its size, modification time and content hash, plus
what can be decided without loading any scan: the file's imports (the module graph), its pin
digest and its fault, if any.

Both live in one SQLite database in the workspace's cache folder (see :mod:`missions.cache`
for where and why): thousands of small scans are one file and one transaction to write,
any one of them is a keyed read, and SQLite's own locking keeps concurrent runs consistent.
A database that cannot be opened or read is treated as empty: a lost cache only costs time.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from missions import SCANNER_VERSION
from missions.lean.scan import FileScan
from missions.roots import file_stamp


def _scanner_fingerprint() -> str:
    """A digest of the code and tables a scan depends on: a scanner edited without a bump of
    ``SCANNER_VERSION`` (a development checkout, a patched install) never reads scans the
    old code wrote, so no answer depends on whether a cache exists."""
    import hashlib

    here = Path(__file__).parent
    digest = hashlib.sha256(SCANNER_VERSION.encode())
    for name in sorted(
        [*(p.name for p in here.glob("*.py")), *(p.name for p in here.glob("*.json"))]
    ):
        digest.update(name.encode() + b"\0" + (here / name).read_bytes())
    return digest.hexdigest()[:16]


DATABASE = f"scans-{SCANNER_VERSION}-{_scanner_fingerprint()}.sqlite"

#: The scan texts a store holds before it writes them (:meth:`ScanStore.record`).
FLUSH_BYTES = 4 << 20

#: One index row: size, file stamp (:func:`missions.roots.file_stamp`), sha256, imports, pin
#: digest, fault or None.
IndexRow = list[Any]

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS scans (sha TEXT PRIMARY KEY, scan TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, row TEXT NOT NULL)",
)


def index_row(size: int, stamp: str, sha: str, scan: FileScan) -> IndexRow:
    return [size, stamp, sha, scan.imports, scan.digest, scan.error]


def _connect(directory: str) -> sqlite3.Connection | None:
    """The database, created if missing; one that is not a database is replaced."""
    path = os.path.join(directory, DATABASE)
    for attempt in range(2):
        try:
            os.makedirs(directory, exist_ok=True)
            if not os.path.exists(path):
                _remove_other_versions(directory)
            connection = sqlite3.connect(path, timeout=30)
            for statement in _SCHEMA:
                connection.execute(statement)
            return connection
        except sqlite3.DatabaseError:
            if attempt == 0:
                try:
                    os.remove(path)  # damaged: start afresh (it only holds cached scans)
                except OSError:
                    return None
        except (OSError, sqlite3.Error):
            return None
    return None


def _remove_other_versions(directory: str) -> None:
    """Databases of other scanner versions: never read again, so not kept (best effort; a
    concurrent run of another version recreates its own)."""
    for name in os.listdir(directory):
        if name.startswith("scans-") and name.endswith(".sqlite") and name != DATABASE:
            with contextlib.suppress(OSError):
                os.remove(os.path.join(directory, name))


@dataclass
class ScanStore:
    """The stat index of one workspace's files and the content-addressed scans behind it."""

    directory: str | None
    index: dict[str, IndexRow] = field(default_factory=dict)
    dirty: bool = False
    _connection: sqlite3.Connection | None = field(default=None, repr=False)
    _new_scans: dict[str, str] = field(default_factory=dict, repr=False)
    _new_bytes: int = field(default=0, repr=False)
    _changed_rows: set[str] = field(default_factory=set, repr=False)
    #: the sequences the scans this store decoded share (see :meth:`FileScan.from_json`)
    shared: dict[tuple[Any, ...], tuple[Any, ...]] = field(default_factory=dict, repr=False)

    @classmethod
    def open(cls, directory: str | os.PathLike[str] | None) -> ScanStore:
        if directory is None:
            return cls(None)
        store = cls(str(directory))
        store._connection = _connect(str(directory))
        if store._connection is not None:
            try:
                rows = store._connection.execute("SELECT path, row FROM files").fetchall()
                # one decode for every row: thousands of small ones cost ten times more
                decoded = json.loads("[" + ",".join(row for _, row in rows) + "]")
                store.index = {path: row for (path, _), row in zip(rows, decoded, strict=True)}
            except (sqlite3.Error, ValueError, RecursionError):
                store.index = {}
        return store

    def close(self) -> None:
        """Let go of the database without writing (for readers of the index only)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def cached(self, path: str, stat: os.stat_result) -> tuple[FileScan, str] | None:
        """The stored scan of ``path`` and its content hash, if the file's stamp (size,
        modification and change time) is unchanged."""
        row = self.index.get(path)
        if row is None or row[1] != file_stamp(stat):
            return None
        scan = self.known(row[2])
        return None if scan is None else (scan, row[2])

    def known(self, sha: str) -> FileScan | None:
        """A scan stored for this content, whatever file it came from (a touched file)."""
        text = self._new_scans.get(sha)
        if text is None and self._connection is not None:
            try:
                found = self._connection.execute(
                    "SELECT scan FROM scans WHERE sha = ?", (sha,)
                ).fetchone()
            except sqlite3.Error:
                found = None
            text = found[0] if found else None
        if text is None:
            return None
        try:
            return FileScan.from_json(json.loads(text), self.shared)
        except (ValueError, KeyError, TypeError, RecursionError):
            return None

    def record(
        self, path: str, size: int, stamp: str, sha: str, scan: FileScan, text: str | None = None
    ) -> None:
        """Note a file's scan (``text``: its JSON, stored once per content) and index row."""
        if not sha:
            self.index.pop(path, None)  # unreadable: nothing worth remembering
        else:
            self.index[path] = index_row(size, stamp, sha, scan)
            if text is not None and sha not in self._new_scans:
                self._new_scans[sha] = text
                self._new_bytes += len(text)
                if self._new_bytes > FLUSH_BYTES:
                    self._write_scans()
        self._changed_rows.add(path)
        self.dirty = True

    def _write_scans(self) -> None:
        """Store the scans noted so far (each is its content's: a run that stops before
        :meth:`save` leaves only scans no index row names yet) and let go of their texts,
        so that a cold run holds a few megabytes of them, not every file's."""
        if self._connection is not None and self._new_scans:
            try:
                with self._connection:
                    self._connection.executemany(
                        "INSERT OR IGNORE INTO scans (sha, scan) VALUES (?, ?)",
                        self._new_scans.items(),
                    )
            except sqlite3.Error:
                pass  # a lost cache entry only costs a rescan
        self._new_scans.clear()
        self._new_bytes = 0

    def touch(self, path: str, size: int, stamp: str) -> None:
        """The file's bytes are as indexed; only its stamp moved."""
        row = self.index[path]
        self.index[path] = [size, stamp, *row[2:]]
        self._changed_rows.add(path)
        self.dirty = True

    def _collect(self, connection: sqlite3.Connection) -> None:
        """Drop scans no indexed file holds any more."""
        held = {row[2] for row in self.index.values()}
        try:
            with connection:
                stored = [sha for (sha,) in connection.execute("SELECT sha FROM scans")]
                connection.executemany(
                    "DELETE FROM scans WHERE sha = ?", [(s,) for s in stored if s not in held]
                )
        except sqlite3.Error:
            pass

    def save(self, live: set[str]) -> None:
        """Write the scans not yet written, then the index rows in one transaction (a row
        never names a scan not stored); forget files that no longer exist."""
        connection = self._connection
        if connection is None:
            return
        gone = set(self.index) - live
        for path in gone:
            del self.index[path]
        if not (self.dirty or gone):
            return
        self._write_scans()
        try:
            with connection:
                rows = [
                    (path, json.dumps(self.index[path]))
                    for path in self._changed_rows
                    if path in self.index
                ]
                connection.executemany("INSERT OR REPLACE INTO files VALUES (?, ?)", rows)
                connection.executemany(
                    "DELETE FROM files WHERE path = ?",
                    [(p,) for p in gone | {p for p in self._changed_rows if p not in self.index}],
                )
        except sqlite3.Error:
            pass  # a lost cache entry only costs a rescan
        if gone:
            self._collect(connection)
        self._changed_rows.clear()
        self.dirty = False
