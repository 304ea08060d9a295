"""A mission's history from git: when its statement pin and its targets' statuses changed.

Every committed version of the mission YAML along HEAD's first-parent line is read from git
(oldest first, :mod:`missions.versions`: a few git processes for the whole catalogue) and
parsed with the safe loader; versions that do not parse are skipped, so one broken commit
never hides the rest. Consecutive parsed versions are compared on ``lean.statement_pin`` and
on each target's recorded ``status``. The first parsed version counts as a change from
nothing, so the history says when a pin or a status was first recorded. Outside a
repository, or for a file git has never seen, the history is empty.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from missions.catalog import MissionFile
from missions.versions import committed_versions

EventKind = Literal["pin", "status"]


@dataclass(frozen=True)
class HistoryEvent:
    """One change: ``what`` moved from ``before`` to ``after`` in commit ``sha``."""

    sha: str
    author: str
    date: dt.datetime
    summary: str
    kind: EventKind
    target: str | None
    before: str | None
    after: str | None

    @property
    def short(self) -> str:
        return self.sha[:10]

    def describe(self) -> str:
        before = self.before or "none"
        after = self.after or "none"
        if self.kind == "pin":
            return f"statement pin {_short_digest(before)} → {_short_digest(after)}"
        return f"target {self.target}: {before} → {after}"


def _short_digest(value: str) -> str:
    if value.startswith("sha256:"):
        return "sha256:" + value[len("sha256:") :][:12]
    return value


@dataclass(frozen=True)
class _Version:
    pin: str | None
    statuses: dict[str, str | None]


_Change = tuple[EventKind, str | None, str | None, str | None]  # kind, target, before, after


def _diff(previous: _Version | None, current: _Version) -> list[_Change]:
    changes: list[_Change] = []
    before_pin = previous.pin if previous else None
    if current.pin != before_pin:
        changes.append(("pin", None, before_pin, current.pin))
    before = previous.statuses if previous else {}
    for target_id, status in current.statuses.items():
        old = before.get(target_id)
        if status != old:
            changes.append(("status", target_id, old, status))
    return changes


def mission_histories(root: Path, paths: list[Path]) -> dict[Path, list[HistoryEvent]]:
    """Pin and status changes of each mission file, oldest first (empty without git)."""
    found: dict[Path, list[HistoryEvent]] = {}
    for path, versions in committed_versions(root, paths).items():
        events: list[HistoryEvent] = []
        previous: _Version | None = None
        for committed in versions:
            version = _Version(committed.pin, committed.statuses or {})
            commit = committed.commit
            for kind, target, before, after in _diff(previous, version):
                events.append(
                    HistoryEvent(
                        sha=commit.sha,
                        author=commit.author,
                        date=commit.date,
                        summary=commit.summary,
                        kind=kind,
                        target=target,
                        before=before,
                        after=after,
                    )
                )
            previous = version
        found[path] = events
    return found


def mission_history(root: Path, mission_file: MissionFile | Path) -> list[HistoryEvent]:
    """:func:`mission_histories` of one mission file."""
    path = mission_file.path if isinstance(mission_file, MissionFile) else Path(mission_file)
    if not path.is_absolute():
        path = root / path
    return mission_histories(root, [path])[path]
