"""Walks of a proof's reach, kept by the content they walked.

Most of an analysis is walking: from each proof over the declarations of its module's
import closure (:class:`missions.status._Reach`). A walk reads nothing but that closure —
the scans of its modules, their paths and which modules it holds — so its result is a
function of the closure's content, and after an edit every proof whose closure did not
change walks exactly as before. This store keeps each walk under a digest of that content
(:func:`closure_token` for every module of the closure, the start, the code that walks),
so a full ``status``, ``check`` or dashboard after an edit walks only the closures the edit
touched.

The store is a cache, never evidence: it lives in the workspace's cache folder
(:mod:`missions.cache`), a value is used only for the key it was written under and only in
the shape a walk produces, and anything else (a damaged file, another version's, an entry
that does not fit the closure it names) is walked again. Nothing an answer says depends on
whether the store exists; ``tests/test_walks.py`` checks answers with it, without it and
after random edits against each other.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path
from typing import Any

from missions.cache import cache_dir_for, read_store, write_store

WALKS_FILE = "walks.json"
#: What a stored walk holds changes with this.
FORMAT = 1
#: Entries kept that this run did not use (older ones go first): enough for a workspace of
#: several thousand proofs, whatever subset a run analysed.
KEEP_UNUSED = 20_000


@functools.cache
def code_digest() -> str:
    """The walking code and the scanner whose scans it walks, by content: a checkout with
    other code never reads another's walks (the scan store's name digests the scanner)."""
    from missions.lean.store import DATABASE

    here = Path(__file__).parent
    digest = hashlib.sha256(f"{FORMAT}\0{DATABASE}\0".encode())
    digest.update((here / "status.py").read_bytes())
    return digest.hexdigest()[:24]


class WalkStore:
    """Walk results by key: read once per run, written back (if anything was walked) when
    the analysis is done and again when the gate's dependency questions are."""

    def __init__(self, path: str | None, entries: dict[str, Any]) -> None:
        self.path = path
        self._entries = entries
        self._used: dict[str, Any] = {}
        self._dirty = False

    @classmethod
    def open(cls, root: str | os.PathLike[str]) -> WalkStore:
        path = os.path.join(cache_dir_for(os.fspath(root)), WALKS_FILE)
        return cls(path, read_store(Path(path), code_digest()))

    def get(self, key: str) -> Any | None:
        value = self._used.get(key)
        if value is None:
            value = self._entries.get(key)
            if value is not None:
                self._used[key] = value
        return value

    def put(self, key: str, value: Any) -> None:
        self._used[key] = value
        self._dirty = True

    def discard(self, key: str) -> None:
        """Forget an entry that did not fit (it is not written back)."""
        self._used.pop(key, None)
        if self._entries.pop(key, None) is not None:
            self._dirty = True

    def save(self) -> None:
        """Write what this run used or walked, then older entries up to :data:`KEEP_UNUSED`
        (best effort: a cache that cannot be written only costs the next run time)."""
        if not self._dirty or self.path is None:
            return
        kept = dict(self._used)
        for key, value in self._entries.items():
            if len(kept) >= len(self._used) + KEEP_UNUSED:
                break
            kept.setdefault(key, value)
        write_store(Path(self.path), code_digest(), kept)
        self._entries = kept
        self._dirty = False


def closure_token(name: str, rel: str, sha: str, error: object) -> str:
    """What a module contributes to a walk's key: its name, path, content hash and the fault
    its scan was replaced by, if any (a module two libraries provide, a dot in a folder
    name): together they decide its scan."""
    return f"{name}\0{rel}\0{sha}\0{error!r}"


def key_of(*parts: str) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()
