"""The stored ``status`` answer and the keys it is found under.

The answer of ``status`` depends only on the files of the workspace (mission YAML, Lean
sources, Lake files) and the tool's version, so a fingerprint of their paths, sizes and
modification times keys a stored result. A fresh clone gives every file new times: then a
second key, of the files' contents, finds the answer if no byte changed (CI restores the cache
into a new checkout). The start-up fast path (:mod:`missions.fastpath`) reads it; the full
command (:mod:`missions.cli`) and the incremental path write it. Only ``hashlib`` and the
standard library are imported at module level: this runs before any heavy import.
"""

from __future__ import annotations

import hashlib
import os
import time

from missions import SCANNER_VERSION, SETTINGS_FILE, __version__, code_fingerprint
from missions.cache import WITNESS_RESULTS_FILE, cache_dir_for, name_witnesses, witness_inputs
from missions.roots import content_hash, file_stamp, is_racy, lean_file_stats, library_roots

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up cost)
if TYPE_CHECKING:
    from collections.abc import Iterable  # collections alone is a twentieth of a warm answer

#: The stored answer: its fingerprint on the first line, then the exact ``--json`` output.
RESULT_FILE = "status-result.txt"


def _inputs(top: str, witnesses: list[str] | None = None) -> list[str]:
    """Every input of ``status`` besides the Lean sources (``witnesses``: the witness
    sources to stamp, default the ones :data:`missions.cache.WITNESS_LIST` names)."""
    lake_files = (
        "lakefile.lean",
        "lakefile.toml",
        "lean-toolchain",
        "lake-manifest.json",
        SETTINGS_FILE,
    )
    paths = [os.path.join(top, name) for name in lake_files]
    paths.append(os.path.join(cache_dir_for(top), WITNESS_RESULTS_FILE))  # witness column
    with os.scandir(os.path.join(top, "missions")) as entries:
        paths += sorted(e.path for e in entries if e.name.endswith((".yaml", ".yml")))
    return paths + (witness_inputs(top) if witnesses is None else witnesses)


def rekey(
    root: str | os.PathLike[str], key: str, listed: list[str], linked: list[str]
) -> tuple[str | None, str | None, list[str]]:
    """The keys to store a whole-workspace answer under once the run found which witness
    sources it read (``linked``), and the witness sources they stamp.

    ``key`` was taken before the run, stamping the ``listed`` sources. Sources the run read
    beyond those are named for every later key and stamped now; the base of the key is taken
    again, and if anything it covers moved during the run there is no key (None): the answer
    may mix the states before and after. A source changed during the run and read before
    the change would go unseen, except that a file changed within the racy window makes no
    key at all (:func:`fingerprint`); :meth:`missions.inputs.Recording.store` accepts the
    same for the gate's witness modules.
    """
    top = os.fspath(root)
    wanted = sorted(set(listed) | set(linked))
    if wanted == listed:
        return key, None, listed
    name_witnesses(top, wanted)
    stats = lean_file_stats(top, library_roots(top))
    if fingerprint(top, [], stats, listed) != key:
        return None, None, wanted
    return fingerprint(top, [], stats, wanted), content_fingerprint(top, stats, wanted), wanted


def _head(top: str, ids: list[str]) -> str:
    return f"{__version__}\0{SCANNER_VERSION}\0{code_fingerprint()}\0{top}\0{ids}"


def _input_stats(
    top: str, witnesses: list[str] | None = None
) -> list[tuple[str, os.stat_result | None]]:
    found: list[tuple[str, os.stat_result | None]] = []
    for path in _inputs(top, witnesses):
        try:
            found.append((path, os.stat(path)))
        except OSError:
            found.append((path, None))
    return found


def _input_stamps(
    top: str, stats: list[tuple[str, os.stat_result | None]] | None = None
) -> list[str]:
    # ctime too: `chmod` changes only it, and an unreadable YAML must not be answered
    return [
        f"{path}\0-" if s is None else f"{path}\0{s.st_size}\0{s.st_mtime_ns}\0{s.st_ctime_ns}"
        for path, s in (_input_stats(top) if stats is None else stats)
    ]


def _inputs_digest(top: str) -> str:
    try:
        return hashlib.sha256("\n".join(_input_stamps(top)).encode()).hexdigest()
    except OSError:
        return "-"


def fingerprint(
    root: str | os.PathLike[str],
    ids: list[str],
    stats: list[tuple[str, os.stat_result]] | None = None,
    witnesses: list[str] | None = None,
    taken_ns: int | None = None,
) -> str:
    """A key that changes whenever anything ``status`` reads changes (``stats``: the Lean
    files with their stat results, when the caller already has them, taken at ``taken_ns``
    if that was before now; ``witnesses`` as for :func:`_inputs`)."""
    top = os.fspath(root)
    inputs = _input_stats(top, witnesses)
    parts = [_head(top, ids), *_input_stamps(top, inputs)]
    if stats is None:
        stats = lean_file_stats(top, library_roots(top))
    for path, stat in stats:
        parts.append(f"{path}\0{file_stamp(stat)}")
    racy_lean = any(is_racy(s, taken_ns) for _, s in stats)
    if racy_lean or any(s is not None and is_racy(s) for _, s in inputs):
        # a file changed too recently for its times to show its next change: a key that no
        # later run computes, so nothing is answered or kept by times now
        parts.append(f"racy\0{time.time_ns()}\0{os.getpid()}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def content_fingerprint(
    root: str | os.PathLike[str],
    stats: list[tuple[str, os.stat_result]],
    witnesses: list[str] | None = None,
) -> str:
    """The whole workspace's :func:`fingerprint` by content instead of times: equal on a
    fresh clone (every file has new times) when no byte differs, so a restored cache still
    answers. A Lean file's hash comes from the scan index while its stamp is the indexed one
    (the index was written from what was read); any other file is read and hashed."""
    from missions.lean.store import ScanStore

    top = os.fspath(root)
    directory = cache_dir_for(top)
    index = ScanStore.open(directory if os.path.isdir(directory) else None)
    digests = []
    for path, stat in stats:
        row = index.index.get(path)
        known = row[2] if row is not None and row[1] == file_stamp(stat) else None
        digests.append((path, known or content_hash(path)))
    index.close()
    return content_key(content_inputs(top, witnesses), digests)


def content_inputs(root: str | os.PathLike[str], witnesses: list[str] | None = None) -> list[str]:
    """The part of :func:`content_fingerprint` besides the Lean files: every other input,
    hashed now (so before a run reads it)."""
    top = os.fspath(root)
    hashed = [f"{path}\0{content_hash(path)}" for path in _inputs(top, witnesses)]
    return [_head(top, []), "content", *hashed]


def content_key(inputs: list[str], digests: Iterable[tuple[str, str]]) -> str:
    """:func:`content_fingerprint` from :func:`content_inputs` and each Lean file's sha256.

    A run that scanned the files gives the hashes of exactly the bytes it read
    (:meth:`missions.lean.workspace.WorkspaceLoading.digests`): its answer is filed under
    the content it was computed from, however the files moved meanwhile."""
    parts = [*inputs, *(f"{path}\0{digest}" for path, digest in digests)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


#: Characters encoded at a time when a large answer is written out.
PIECE = 1 << 20


def store(
    root: str | os.PathLike[str],
    key: str,
    text: str | Iterable[str],
    content_key: str | None = None,
) -> None:
    """Keep the answer (a text, or its pieces in order) under its stat key and, if given,
    its content key (and what the non-Lean inputs' times were, see :func:`try_status`)."""
    top = os.fspath(root)
    directory = cache_dir_for(top)
    try:
        os.makedirs(directory, exist_ok=True)
        tmp = os.path.join(directory, f"{RESULT_FILE}.{os.getpid()}.tmp")
        with open(tmp, "wb") as handle:
            handle.write(f"{key}\n{content_key or '-'}\n{_inputs_digest(top)}\n".encode())
            for piece in _pieces(text):  # no whole encoded copy of a large answer
                handle.write(piece.encode())
        os.replace(tmp, os.path.join(directory, RESULT_FILE))  # keys and answer never mix
    except OSError:
        pass


def _pieces(text: str | Iterable[str]) -> Iterable[str]:
    if isinstance(text, str):
        return (text[start : start + PIECE] for start in range(0, len(text), PIECE))
    return text


def _stored(
    root: str | os.PathLike[str], at: int, key: bytes | None
) -> tuple[bytes, bytes | None] | None:
    """The stored line ``at`` of the three keys (stat key, content key, inputs' digest) and,
    if it is ``key``, the answer; None where nothing is stored. A miss reads only the keys
    (the answer is megabytes: an edit reads it for nothing otherwise); the file is replaced
    whole, never rewritten, so the keys and the answer read from one handle belong together."""
    try:
        with open(os.path.join(cache_dir_for(os.fspath(root)), RESULT_FILE), "rb") as handle:
            lines = [handle.readline() for _ in range(3)]
            if not all(line.endswith(b"\n") for line in lines):
                return None
            found = lines[at][:-1]
            return found, handle.read() if key is not None and found == key else None
    except OSError:
        return None


def lookup(root: str | os.PathLike[str], key: str) -> bytes | None:
    """The stored ``--json`` output (UTF-8) if it was made for exactly this fingerprint."""
    stored = _stored(root, 0, key.encode())
    return None if stored is None else stored[1]


def lookup_content(root: str | os.PathLike[str], content_key: str) -> bytes | None:
    """The stored answer if it was made from exactly this content (see
    :func:`content_fingerprint`)."""
    stored = _stored(root, 1, content_key.encode())
    return None if stored is None else stored[1]


def inputs_moved(root: str) -> bool:
    """Whether the times of the YAML and Lake files moved since the stored answer: after a
    fresh clone they all have; after an edit of Lean files, none has. Only then is the
    content key worth its read of every input (both ways give the same answer)."""
    stored = _stored(root, 2, None)
    return stored is not None and stored[0] != _inputs_digest(root).encode()


def one_mission(whole: bytes, mission_id: str) -> bytes | None:
    """``status ID --json`` from the whole workspace's answer, or None for an unknown id.

    A mission's entry does not depend on which others are analysed with it, and with one
    mission chosen, the lint total is that mission's own count.
    """
    import json

    from missions.incremental import assemble, mission_text
    from missions.status import summary_of

    data = json.loads(whole.decode())
    entry = next((m for m in data["missions"] if m["id"] == mission_id), None)
    if entry is None:
        return None  # the full command says so, with a suggestion
    fields = {"root": data["root"], "evidence": data["evidence"], "summary": summary_of([entry])}
    if "lint" in data:
        fields["lint"] = entry["lint"]
    return assemble(fields, [mission_text(entry)]).encode()
