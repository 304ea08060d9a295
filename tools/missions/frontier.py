"""The frontier: what a person or a prover can work on now.

A target is on the frontier when it is not yet proved and every target it ``depends_on`` is
proved (or external, which lives elsewhere and is never proved here). "Proved" is the status
the gate accepts today: the computed one, or a recorded kernel verdict that still stands
against the source scan. Within a mission milestones come first and the goal last, in YAML
order; missions keep catalog order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from missions.gate import standing_status
from missions.status import Analysis, MissionStatus, TargetStatus


@dataclass(frozen=True)
class FrontierItem:
    mission: str
    target: str
    kind: str
    title: str
    status: str
    statement: str | None
    proof: str | None
    file: str
    line: int
    depends_on: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "mission": self.mission,
            "target": self.target,
            "kind": self.kind,
            "title": self.title,
            "status": self.status,
            "statement": self.statement,
            "proof": self.proof,
            "file": self.file,
            "line": self.line,
            "depends_on": self.depends_on,
            "reasons": self.reasons,
        }


def _where(analysis: Analysis, mission: MissionStatus, status: TargetStatus) -> tuple[str, int]:
    """The proof if it exists, else the statement, else the target's YAML entry."""
    for found in (status.proof_decl, status.statement_decl):
        if found is not None:
            module, decl = found
            return module.rel(analysis.root), decl.line
    path = str(mission.file.path.relative_to(analysis.root))
    return path, mission.file.target_line(status.target.id)


def frontier(analysis: Analysis) -> list[FrontierItem]:
    """Every open target whose dependencies are all proved or external, goal last."""
    return [item for mission in analysis.missions for item in mission_frontier(analysis, mission)]


def mission_frontier(analysis: Analysis, mission: MissionStatus) -> list[FrontierItem]:
    """:func:`frontier`'s items of one mission (they depend on nothing outside it)."""
    items: list[FrontierItem] = []
    standing = {s.target.id: standing_status(analysis, s) for s in mission.targets}
    ready = []
    for index, status in enumerate(mission.targets):
        target = status.target
        if standing[target.id] in ("proved", "external"):
            continue
        if any(standing.get(dep) not in ("proved", "external") for dep in target.depends_on):
            continue
        ready.append((target.kind == "goal", index, status))
    for _, _, status in sorted(ready, key=lambda item: (item[0], item[1])):
        target = status.target
        file, line = _where(analysis, mission, status)
        items.append(
            FrontierItem(
                mission=mission.id,
                target=target.id,
                kind=target.kind,
                title=target.title,
                status=standing[target.id],
                statement=target.statement,
                proof=target.proof,
                file=file,
                line=line,
                depends_on=list(target.depends_on),
                reasons=list(status.reasons),
            )
        )
    return items


def frontier_json(analysis: Analysis, items: list[FrontierItem]) -> dict[str, Any]:
    """The ``missions next --json`` contract (documented in the README)."""
    open_targets = sum(
        1
        for mission in analysis.missions
        for status in mission.targets
        if standing_status(analysis, status) not in ("proved", "external")
    )
    return {
        "root": str(analysis.root),
        "frontier": [item.as_json() for item in items],
        "summary": {
            "frontier": len(items),
            "open": open_targets,
            "blocked": open_targets - len(items),
        },
    }
