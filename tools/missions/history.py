"""A mission's history from git: when its statement pin and its targets' statuses changed.

Every committed version of the mission YAML is read from git (oldest first) and parsed with
the safe loader; versions that do not parse are skipped, so one broken commit never hides the
rest. Consecutive parsed versions are compared on ``lean.statement_pin`` and on each target's
recorded ``status``. The first parsed version counts as a change from nothing, so the history
says when a pin or a status was first recorded. Outside a repository, or for a file git has
never seen, the history is empty.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from missions.catalog import MissionFile
from missions.yamlio import fast_load

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


def _open_repo(root: Path) -> Any:
    try:
        import git

        return git.Repo(root, search_parent_directories=True)
    except Exception:  # gitpython raises several unrelated types for "no repository"
        return None


def _version(text: str) -> _Version | None:
    data = fast_load(text)
    if not isinstance(data, dict):
        return None
    lean = data.get("lean")
    pin = lean.get("statement_pin") if isinstance(lean, dict) else None
    statuses: dict[str, str | None] = {}
    targets = data.get("targets")
    if isinstance(targets, list):
        for target in targets:
            if isinstance(target, dict) and isinstance(target.get("id"), str):
                status = target.get("status")
                statuses[target["id"]] = status if isinstance(status, str) else None
    return _Version(pin if isinstance(pin, str) else None, statuses)


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


def mission_history(root: Path, mission_file: MissionFile | Path) -> list[HistoryEvent]:
    """Pin and status changes of one mission file, oldest first; empty without git history."""
    path = mission_file.path if isinstance(mission_file, MissionFile) else Path(mission_file)
    if not path.is_absolute():
        path = root / path
    repo = _open_repo(root)
    if repo is None or repo.working_tree_dir is None:
        return []
    try:
        rel = path.resolve().relative_to(Path(repo.working_tree_dir).resolve()).as_posix()
        commits = list(repo.iter_commits("HEAD", paths=[rel]))
    except Exception:  # outside the work tree, an empty repository, an unknown path
        return []
    events: list[HistoryEvent] = []
    previous: _Version | None = None
    for commit in reversed(commits):
        try:
            blob = commit.tree / rel
            text = blob.data_stream.read().decode("utf-8")
        except (KeyError, UnicodeDecodeError):
            continue  # deleted in this commit, or not text
        version = _version(text)
        if version is None:
            continue
        for kind, target, before, after in _diff(previous, version):
            events.append(
                HistoryEvent(
                    sha=str(commit.hexsha),
                    author=str(commit.author.name),
                    date=commit.committed_datetime,
                    summary=str(commit.summary),
                    kind=kind,
                    target=target,
                    before=before,
                    after=after,
                )
            )
        previous = version
    return events
