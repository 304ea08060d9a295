"""The regression ratchet: a target recorded ``proved`` loses that status only on the record.

A proof that falls back to ``sorry`` is a regression, not drift to be synced away. Every
loss of ``proved`` needs an entry in the mission's ``regressions:`` list (target, from, to,
date, reason, commit), which ``missions sync --allow-regression MISSION/TARGET --reason ...``
writes. Losses are counted wherever they can be seen:

* in the sources: the YAML records ``proved`` and the scan now computes less (unless a
  recorded kernel verdict still stands, see :func:`missions.gate.kernel_record_stands`);
* in the working tree: HEAD's mission file records ``proved`` and the edited one does not;
* in git history: a commit on HEAD's first-parent line changed ``proved`` to something
  else in the mission file.

A target owes a record while it counts more losses than recorded regressions, so hand
edits of ``status:`` are caught as well as lost proofs, and a target that is proved again
and lost again needs a second record. Only targets that are not proved now can owe one.
Without git, only losses in the sources are seen; a shallow clone sees only its commits.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from missions.cache import default_cache_dir, read_store, write_store
from missions.status import Analysis, MissionStatus, TargetStatus
from missions.yamlio import fast_load

#: Where a loss of ``proved`` was seen (besides a commit's short sha).
IN_SOURCES = "sources"
IN_WORKING_TREE = "working tree"

#: The committed versions of one mission file, oldest first: (commit, status per target).
Timeline = list[tuple[str, dict[str, str | None]]]


@dataclass(frozen=True)
class Loss:
    """A target went from ``proved`` to ``to``; ``where`` is a commit, or one of the above."""

    target: str
    to: str
    where: str


@dataclass(frozen=True)
class Ledger:
    """The losses of ``proved`` of one target against its recorded regressions."""

    status: TargetStatus
    losses: tuple[Loss, ...]
    recorded: int

    @property
    def owed(self) -> tuple[Loss, ...]:
        """The losses no record covers (the latest ones: records are matched oldest first)."""
        return self.losses[self.recorded :]

    @property
    def lowered_now(self) -> bool:
        """The YAML still records ``proved`` and the sources no longer give it."""
        return any(loss.where == IN_SOURCES for loss in self.losses)


def _git(cwd: Path, *args: str, stdin: bytes | None = None) -> bytes | None:
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, input=stdin, capture_output=True, check=False, timeout=300
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def _statuses(text: str) -> dict[str, str | None] | None:
    data = fast_load(text)
    if not isinstance(data, dict) or not isinstance(data.get("targets"), list):
        return None
    statuses: dict[str, str | None] = {}
    for target in data["targets"]:
        if isinstance(target, dict) and isinstance(target.get("id"), str):
            status = target.get("status")
            statuses[target["id"]] = status if isinstance(status, str) else None
    return statuses


def status_timelines(root: Path, paths: Iterable[Path]) -> dict[Path, Timeline]:
    """Every committed version of the mission files along HEAD's first-parent line.

    First parents are the branch's own history (a merged pull request counts as one change
    against the line it was merged into), so versions from side branches never interleave.
    Three git processes serve all files (``log``, then ``cat-file`` for object ids and for
    the contents not seen before); the statuses of each blob are cached by its object id,
    which never changes, so a long history is parsed once. Without git, or outside a
    repository, every timeline is empty. Versions that do not parse are skipped.
    """
    wanted = list(paths)
    timelines: dict[Path, Timeline] = {path: [] for path in wanted}
    top_out = _git(root, "rev-parse", "--show-toplevel")
    if top_out is None or not wanted:
        return timelines
    top = Path(top_out.decode().strip()).resolve()
    by_rel: dict[str, Path] = {}
    for path in wanted:
        try:
            by_rel[path.resolve().relative_to(top).as_posix()] = path
        except ValueError:
            continue
    directories = sorted({rel.rsplit("/", 1)[0] if "/" in rel else "." for rel in by_rel})
    log = _git(
        top,
        "log",
        "--first-parent",
        "-m",
        "--reverse",
        "--name-only",
        "--format=%x01%H",
        "HEAD",
        "--",
        *directories,
    )
    if log is None:
        return timelines
    versions: list[tuple[str, str]] = []  # (commit, rel) in history order
    commit = ""
    for line in log.decode("utf-8", "replace").splitlines():
        if line.startswith("\x01"):
            commit = line[1:].strip()
        elif line in by_rel and commit:
            versions.append((commit, line))
    if not versions:
        return timelines
    request = "".join(f"{c}:{rel}\n" for c, rel in versions).encode()
    checked = _git(top, "cat-file", "--batch-check", stdin=request)
    if checked is None:
        return timelines
    blobs: list[str | None] = []
    for line in checked.decode().splitlines():
        fields = line.split()
        blobs.append(fields[0] if len(fields) == 3 and fields[1] == "blob" else None)
    if len(blobs) != len(versions):
        return timelines
    store_path = default_cache_dir(root) / "ratchet-versions.json"
    known = read_store(store_path, TIMELINE_CACHE_VERSION)
    unseen = sorted({b for b in blobs if b is not None and b not in known})
    if unseen:
        known.update(_read_blobs(top, unseen))
        write_store(store_path, TIMELINE_CACHE_VERSION, known)
    for (sha, rel), blob in zip(versions, blobs, strict=True):
        statuses = known.get(blob) if blob is not None else None
        if isinstance(statuses, dict):
            timelines[by_rel[rel]].append((sha, statuses))
    return timelines


TIMELINE_CACHE_VERSION = "1"


def _read_blobs(top: Path, blobs: list[str]) -> dict[str, dict[str, str | None] | None]:
    """Statuses per target of each blob (None: not a mission document)."""
    out = _git(top, "cat-file", "--batch", stdin="".join(f"{b}\n" for b in blobs).encode())
    found: dict[str, dict[str, str | None] | None] = {}
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
            found[blob] = _statuses(data.decode("utf-8"))
        except UnicodeDecodeError:
            found[blob] = None
    return found


def ledgers(
    analysis: Analysis,
    mission: MissionStatus,
    stands: Callable[[TargetStatus], bool],
    *,
    timeline: Timeline | None = None,
) -> list[Ledger]:
    """One ledger per target that is not proved now (recorded or computed) and lost it.

    ``stands`` says whether a recorded kernel verdict outranks today's source scan;
    ``timeline`` defaults to the mission file's committed versions (read only when needed).
    """
    candidates = [
        s
        for s in mission.targets
        if s.target.kind != "external"
        and (s.target.status != "proved" or (s.status != "proved" and not stands(s)))
    ]
    if not candidates:
        return []
    if timeline is None:
        timeline = status_timelines(analysis.root, [mission.file.path])[mission.file.path]
    recorded_entries: dict[str, int] = {}
    for regression in mission.file.mission.regressions:
        if regression.from_ == "proved":
            recorded_entries[regression.target] = recorded_entries.get(regression.target, 0) + 1
    result: list[Ledger] = []
    for status in candidates:
        target = status.target
        losses: list[Loss] = []
        previous: str | None = None
        for sha, statuses in timeline:
            if target.id not in statuses:
                continue
            current = statuses[target.id]
            if previous == "proved" and current != "proved":
                losses.append(Loss(target.id, current or "not recorded", sha[:10]))
            previous = current
        if previous == "proved" and target.status != "proved":
            losses.append(Loss(target.id, target.status or "not recorded", IN_WORKING_TREE))
        if target.status == "proved" and status.status != "proved" and not stands(status):
            losses.append(Loss(target.id, status.status, IN_SOURCES))
        if losses:
            result.append(Ledger(status, tuple(losses), recorded_entries.get(target.id, 0)))
    return result


def target_ref(mission: MissionStatus, status: TargetStatus) -> str:
    """How ``--allow-regression`` names a target: ``MISSION/TARGET``."""
    return f"{mission.id}/{status.target.id}"
