"""The committed versions of mission files along HEAD's first-parent line.

The regression ratchet (:mod:`missions.ratchet`) and the dashboard's history
(:mod:`missions.history`) both read every committed version of every mission file. Asked
file by file, that is one ``git log`` per mission and a tree walk per version, which grows
with the catalogue squared (every tree lookup parses the whole ``missions/`` directory).
Here three git processes serve all files: ``log`` (commits and the files each changed),
``cat-file --batch-check`` (the blob of each version) and ``cat-file --batch`` (contents not
seen before). What a blob says is cached by its object id, which never changes, so a long
history is parsed once.

First parents are the branch's own history (a merged pull request counts as one change
against the line it was merged into), so versions from side branches never interleave.
Without git, or outside a repository, there are no versions. A version that is not a YAML
mapping is skipped.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from missions.cache import default_cache_dir, read_store, write_store
from missions.gitinfo import run_git
from missions.yamlio import collecting_parser_garbage, fast_load

#: What the cache holds per blob changes with this.
CACHE_VERSION = "3"
CACHE_FILE = "ratchet-versions.json"


@dataclass(frozen=True)
class Commit:
    sha: str
    author: str
    date: dt.datetime
    summary: str


@dataclass(frozen=True)
class Version:
    """One committed mission file: its statement pin and, when it lists targets, the status
    and evidence it records per target (None where a target records none)."""

    commit: Commit
    pin: str | None
    statuses: dict[str, str | None] | None
    evidence: dict[str, str | None] | None = None


def read_version(text: str) -> list[object] | None:
    """``[pin, statuses, evidence]`` of one mission document (the cached form), None if no
    mapping."""
    data = fast_load(text)
    if not isinstance(data, dict):
        return None
    lean = data.get("lean")
    pin = lean.get("statement_pin") if isinstance(lean, dict) else None
    statuses: dict[str, str | None] | None = None
    evidence: dict[str, str | None] | None = None
    if isinstance(data.get("targets"), list):
        statuses, evidence = {}, {}
        for target in data["targets"]:
            if isinstance(target, dict) and isinstance(target.get("id"), str):
                status, tier = target.get("status"), target.get("evidence")
                statuses[target["id"]] = status if isinstance(status, str) else None
                evidence[target["id"]] = tier if isinstance(tier, str) else None
    return [pin if isinstance(pin, str) else None, statuses, evidence]


def _by_target(value: object) -> bool:
    return value is None or (
        isinstance(value, dict) and all(v is None or isinstance(v, str) for v in value.values())
    )


Cached = tuple[str | None, dict[str, str | None] | None, dict[str, str | None] | None]


def _cached(entry: object) -> Cached | None:
    """A cache entry as it must be, else None (a damaged entry is read again)."""
    if not isinstance(entry, list) or len(entry) != 3:
        return None
    pin, statuses, evidence = entry
    if pin is not None and not isinstance(pin, str):
        return None
    if not _by_target(statuses) or not _by_target(evidence):
        return None
    return pin, statuses, evidence


#: The last answer, by the repository, its ``HEAD`` and the files asked about: the ratchet,
#: the dashboard's history and its progress chart ask about the same files in one command.
#: History is fixed by ``HEAD`` within one command; a process that answers several (the MCP
#: server) calls :func:`forget` before each, since a fetch may deepen a shallow clone.
_last: tuple[tuple[Path, str], dict[str, list[Version]]] | None = None


def forget() -> None:
    global _last
    _last = None


def committed_versions(root: Path, paths: Iterable[Path]) -> dict[Path, list[Version]]:
    """Every committed version of each of ``paths``, oldest first."""
    global _last
    wanted = list(paths)
    found: dict[Path, list[Version]] = {path: [] for path in wanted}
    out = run_git(root, "rev-parse", "--show-toplevel", "HEAD")
    if out is None or not wanted:
        return found
    top_line, _, head = out.decode().strip().partition("\n")
    top = Path(top_line).resolve()
    by_rel: dict[str, Path] = {}
    folders: dict[Path, Path] = {}  # each folder resolved once (not each of its files)
    for path in wanted:
        folder = folders.get(path.parent)
        if folder is None:
            folder = folders[path.parent] = path.parent.resolve()
        try:  # the file's own name: git's history is of the path, not what a link names
            by_rel[(folder / path.name).relative_to(top).as_posix()] = path
        except ValueError:
            continue
    if _last is not None and _last[0] == (top, head) and _last[1].keys() >= by_rel.keys():
        for rel, path in by_rel.items():
            found[path] = list(_last[1][rel])
        return found
    answer = _versions(root, top, by_rel, found)
    _last = ((top, head), {rel: list(answer[path]) for rel, path in by_rel.items()})
    return answer


def _versions(
    root: Path, top: Path, by_rel: dict[str, Path], found: dict[Path, list[Version]]
) -> dict[Path, list[Version]]:
    directories = sorted({rel.rsplit("/", 1)[0] if "/" in rel else "." for rel in by_rel})
    log = run_git(
        top,
        "log",
        "--first-parent",
        "-m",
        "--reverse",
        "--raw",
        "--no-abbrev",
        "--no-renames",
        "-z",
        "--format=%x01%H%x00%an%x00%cI%x00%s",
        "HEAD",
        "--",
        *directories,
    )
    if log is None:
        return found
    versions = _changes(log.decode("utf-8", "replace"), by_rel)
    if not versions:
        return found
    blobs = [blob for _, _, blob in versions]
    store_path = default_cache_dir(root) / CACHE_FILE
    stored = read_store(store_path, CACHE_VERSION)
    known = {b: e for b, e in stored.items() if e is None or _cached(e) is not None}
    unseen = sorted({b for b in blobs if b is not None and b not in known})
    if unseen:
        known.update(_read_blobs(top, unseen))
    if known != stored:
        write_store(store_path, CACHE_VERSION, known)
    for commit, rel, blob in versions:
        parsed = _cached(known.get(blob)) if blob is not None else None
        if parsed is not None:
            found[by_rel[rel]].append(Version(commit, *parsed))
    return found


#: Modes of a file whose object is a blob (a submodule's is a commit; a deletion's is zeros).
BLOB_MODES = frozenset({"100644", "100755", "120000"})


def _changes(log: str, wanted: dict[str, Path]) -> list[tuple[Commit, str, str | None]]:
    """Each commit's new blob of each wanted file it changed, in history order, from ``git
    log --raw -z``: the object ids come with the log, where asking ``commit:path`` for each
    would parse the whole folder's tree once per file (quadratic in the catalogue).

    The output is read token by token (NUL-separated): a commit is four tokens (the first
    marked ``\x01``), each change a ``:modes ids status`` token and a path token. Subjects
    and names are taken by position, so no text in them can pass for a change."""
    tokens = log.split("\0")
    changes: list[tuple[Commit, str, str | None]] = []
    commit: Commit | None = None
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.startswith("\x01") and i + 3 < len(tokens):
            sha, author, date, summary = token[1:], tokens[i + 1], tokens[i + 2], tokens[i + 3]
            try:
                commit = Commit(sha.strip(), author, dt.datetime.fromisoformat(date), summary)
            except ValueError:
                commit = None
            i += 4
            continue
        change = token.lstrip("\n")
        if change.startswith(":") and i + 1 < len(tokens):
            path = tokens[i + 1]
            fields = change[1:].split()
            if commit is not None and path in wanted and len(fields) == 5:
                new_mode, new_blob = fields[1], fields[3]
                changes.append((commit, path, new_blob if new_mode in BLOB_MODES else None))
            i += 2
            continue
        i += 1
    return changes


def _read_blobs(top: Path, blobs: list[str]) -> dict[str, list[object] | None]:
    """What each blob says (None: not a mission document)."""
    out = run_git(top, "cat-file", "--batch", stdin="".join(f"{b}\n" for b in blobs).encode())
    found: dict[str, list[object] | None] = {}
    if out is None:
        return found
    position = 0
    for blob in blobs:
        end = out.index(b"\n", position)
        header = out[position:end].split()
        position = end + 1
        if len(header) != 3:
            continue
        size = int(header[2])
        data = out[position : position + size]
        position += size + 1
        try:
            with collecting_parser_garbage():  # one version's parser cycles, freed now
                found[blob] = read_version(data.decode("utf-8"))
        except UnicodeDecodeError:
            found[blob] = None
    return found
