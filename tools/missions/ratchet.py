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

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from missions.status import Analysis, MissionStatus, TargetStatus
from missions.versions import committed_versions

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


def status_timelines(root: Path, paths: Iterable[Path]) -> dict[Path, Timeline]:
    """Every committed version of the mission files that lists targets, along HEAD's
    first-parent line (:func:`missions.versions.committed_versions`)."""
    return {
        path: [(v.commit.sha, v.statuses) for v in versions if v.statuses is not None]
        for path, versions in committed_versions(root, paths).items()
    }


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
