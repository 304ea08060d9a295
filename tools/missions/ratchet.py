"""The regression ratchet: a target recorded ``proved`` loses that status only on the record.

A proof that falls back to ``sorry`` is a regression, not drift to be synced away. Every
loss of ``proved`` needs an entry in the mission's ``regressions:`` list (target, from, to,
date, reason, commit), which ``missions sync --allow-regression MISSION/TARGET --reason ...``
writes. Losses are counted wherever they can be seen:

* in the sources: the YAML records ``proved`` and the scan now computes less (unless a
  recorded kernel verdict still stands, see :func:`missions.gate.kernel_record_stands`);
* in the working tree: HEAD's mission file records ``proved`` and the edited one does not;
* in git history: a commit of the mission file changed ``proved`` to something else.

A target owes a record while it counts more losses than recorded regressions, so hand
edits of ``status:`` are caught as well as lost proofs, and a target that is proved again
and lost again needs a second record. Only targets that are not proved now can owe one.
Without git, only losses in the sources are seen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from missions.history import HistoryEvent, mission_history
from missions.status import Analysis, MissionStatus, TargetStatus

#: Where a loss of ``proved`` was seen (besides a commit's short sha).
IN_SOURCES = "sources"
IN_WORKING_TREE = "working tree"


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


def ledgers(
    analysis: Analysis,
    mission: MissionStatus,
    stands: Callable[[TargetStatus], bool],
    *,
    history: list[HistoryEvent] | None = None,
) -> list[Ledger]:
    """One ledger per target that is not proved now (recorded or computed).

    ``stands`` says whether a recorded kernel verdict outranks today's source scan;
    ``history`` defaults to the mission file's git history (read only when needed).
    """
    candidates = [
        s
        for s in mission.targets
        if s.target.kind != "external"
        and (s.target.status != "proved" or (s.status != "proved" and not stands(s)))
    ]
    if not candidates:
        return []
    if history is None:
        history = mission_history(analysis.root, mission.file)
    recorded_entries: dict[str, int] = {}
    for regression in mission.file.mission.regressions:
        if regression.from_ == "proved":
            recorded_entries[regression.target] = recorded_entries.get(regression.target, 0) + 1
    result: list[Ledger] = []
    for status in candidates:
        target = status.target
        losses: list[Loss] = []
        events = [e for e in history if e.kind == "status" and e.target == target.id]
        for event in events:
            if event.before == "proved" and event.after != "proved":
                losses.append(Loss(target.id, event.after or "not recorded", event.short))
        head = events[-1].after if events else None
        if head == "proved" and target.status != "proved":
            losses.append(Loss(target.id, target.status or "not recorded", IN_WORKING_TREE))
        if target.status == "proved" and status.status != "proved" and not stands(status):
            losses.append(Loss(target.id, status.status, IN_SOURCES))
        if losses:
            result.append(Ledger(status, tuple(losses), recorded_entries.get(target.id, 0)))
    return result


def target_ref(mission: MissionStatus, status: TargetStatus) -> str:
    """How ``--allow-regression`` names a target: ``MISSION/TARGET``."""
    return f"{mission.id}/{status.target.id}"
