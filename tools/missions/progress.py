"""Progress over time: a weekly series per mission, reconstructed from git history.

What a team asks at a review ("how far did we get this quarter?") is in the history of the
mission files: ``missions sync`` records every target's status and evidence there, ``pin``
every statement pin, and the gate keeps both equal to what the sources give. Each week's
point is the last committed version of each mission file on HEAD's first-parent line at the
week's end (ISO weeks, ending Sunday 24:00 UTC): its targets by recorded status, ``proved``
split by evidence tier (never merged), and the pin moves committed that week. The workspace's
line adds the ``-- lint: allow`` comments (accepted lint findings) in its libraries' Lean
files at the week's last commit. Recorded, not recomputed: a week is what was committed then.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from missions.cache import default_cache_dir, read_store, write_store
from missions.gitinfo import run_git
from missions.roots import library_roots
from missions.versions import Version, committed_versions

#: The counts of one point; ``proved`` by evidence tier.
STATES = ("missing", "stated", "external", "unrecorded")
TIERS = ("kernel", "source")
#: git grep's (POSIX) pattern, and the exact one each line it finds must match
ALLOW = "--[[:space:]]*lint:[[:space:]]*allow"
_ALLOW = re.compile(r"--\s*lint:\s*allow\b")
CACHE_FILE = "progress-allows.json"
CACHE_VERSION = "1"


def week_of(moment: dt.datetime) -> tuple[str, dt.datetime]:
    """The ISO week holding ``moment`` (as ``2026-W48``) and the week's end, in UTC."""
    utc = moment.astimezone(dt.UTC)
    year, week, weekday = utc.isocalendar()
    monday = (utc - dt.timedelta(days=weekday - 1)).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    return f"{year}-W{week:02d}", monday + dt.timedelta(days=7)


def _weeks(first: dt.datetime, last: dt.datetime) -> list[tuple[str, dt.datetime]]:
    weeks = []
    label, end = week_of(first)
    _, final = week_of(last)
    while end <= final:
        weeks.append((label, end))
        label, end = week_of(end)
    return weeks


def _point(version: Version | None) -> dict[str, Any]:
    point: dict[str, Any] = {"proved": dict.fromkeys(TIERS, 0), **dict.fromkeys(STATES, 0)}
    if version is None or version.statuses is None:
        return point
    evidence = version.evidence or {}
    for target, status in version.statuses.items():
        if status == "proved":
            tier = evidence.get(target) or "source"
            point["proved"][tier] = point["proved"].get(tier, 0) + 1
        elif status in STATES:
            point[status] += 1
        else:
            point["unrecorded"] += 1
    return point


def mission_series(
    versions: list[Version], weeks: list[tuple[str, dt.datetime]]
) -> list[dict[str, Any]]:
    """One point per week: the last version committed before the week ended, and the pin
    moves of the week (a pin that differs from the previous version's). History order
    counts: a version is in once it and every version before it were committed (a rebased
    commit can carry an older date than its parent)."""
    series = []
    index = 0
    current: Version | None = None
    dates = [v.commit.date for v in versions]
    for label, end in weeks:
        moves = 0
        while index < len(versions) and dates[index] < end:
            version = versions[index]
            if current is not None and version.pin != current.pin and version.pin is not None:
                moves += 1
            current = version
            index += 1
        point = _point(current)
        point["week"] = label
        point["pin_moves"] = moves
        series.append(point)
    return series


def _allow_counts(root: Path, commits: Mapping[str, str]) -> dict[str, int]:
    """Allow comments in the Lean files of each commit (by sha; cached: a commit never
    changes)."""
    top_out = run_git(root, "rev-parse", "--show-toplevel")
    if top_out is None:
        return {}
    top = Path(top_out.decode().strip())
    pathspecs = []  # the libraries' files, as lean_file_stats lists them (`*` crosses `/`)
    for src, module in library_roots(root):
        stem = (root / src).joinpath(*module.split(".")).resolve()
        try:
            rel = stem.relative_to(top.resolve()).as_posix()
        except ValueError:
            continue
        pathspecs += [f"{rel}.lean", f"{rel}/*.lean"]
    if not pathspecs:
        return {}
    store_path = default_cache_dir(root) / CACHE_FILE
    stored = read_store(store_path, CACHE_VERSION)
    known = {k: v for k, v in stored.items() if isinstance(v, int)}
    where = "\0".join(pathspecs)  # a count holds for one commit and one library layout
    for sha in sorted(set(commits.values())):
        if f"{sha}\0{where}" not in known:
            out = run_git(top, "grep", "-h", "-E", "-e", ALLOW, sha, "--", *pathspecs)
            lines = (out or b"").decode("utf-8", "replace").splitlines()
            known[f"{sha}\0{where}"] = sum(1 for line in lines if _ALLOW.search(line))
    if known != stored:
        write_store(store_path, CACHE_VERSION, known)
    return {week: known[f"{sha}\0{where}"] for week, sha in commits.items()}


def _history(root: Path) -> list[tuple[str, dt.datetime]]:
    """HEAD's first-parent commits, oldest first, with their dates."""
    log = run_git(root, "log", "--first-parent", "--reverse", "--format=%H %cI", "HEAD")
    commits: list[tuple[str, dt.datetime]] = []
    for line in (log or b"").decode().splitlines():
        sha, _, date = line.partition(" ")
        try:
            commits.append((sha, dt.datetime.fromisoformat(date)))
        except ValueError:
            continue
    return commits


def _week_commits(
    commits: list[tuple[str, dt.datetime]], weeks: list[tuple[str, dt.datetime]]
) -> dict[str, str]:
    """The last commit of ``commits`` (in history order) committed before each week's end."""
    found: dict[str, str] = {}
    index = 0
    last: str | None = None
    for label, end in weeks:
        while index < len(commits) and commits[index][1] < end:
            last = commits[index][0]
            index += 1
        if last is not None:
            found[label] = last
    return found


def weekly_progress(root: Path, missions: Mapping[str, Path]) -> dict[str, Any]:
    """``{"weeks": [...], "workspace": [...], "missions": {id: [...]}}``: empty lists
    without git history."""
    versions = committed_versions(root, list(missions.values()))
    dates = [v.commit.date for found in versions.values() for v in found]
    if not dates:
        return {"weeks": [], "workspace": [], "missions": {m: [] for m in missions}}
    commits = _history(root)  # from the first mission file to HEAD, whatever it touched
    weeks = _weeks(min(dates), max([*dates, *(date for _, date in commits)]))
    series = {m: mission_series(versions[path], weeks) for m, path in missions.items()}
    allows = _allow_counts(root, _week_commits(commits, weeks))
    workspace = []
    for index, (label, _) in enumerate(weeks):
        total: dict[str, Any] = {"proved": dict.fromkeys(TIERS, 0), **dict.fromkeys(STATES, 0)}
        total["week"], total["pin_moves"] = label, 0
        for points in series.values():
            point = points[index]
            for tier, count in point["proved"].items():
                total["proved"][tier] = total["proved"].get(tier, 0) + count
            for key in (*STATES, "pin_moves"):
                total[key] += point[key]
        total["lint_allows"] = allows.get(label, 0)
        workspace.append(total)
    return {"weeks": [label for label, _ in weeks], "workspace": workspace, "missions": series}


def progress_lines(progress: Mapping[str, Any], last: int = 12) -> list[str]:
    """The workspace's last weeks as a plain table for the terminal (80 columns)."""
    points = progress["workspace"][-last:]
    if not points:
        return ["progress: no committed history of the mission files"]
    lines = [f"{'week':<9} {'proved':>14} {'stated':>7} {'missing':>8} {'pins':>5} {'allows':>7}"]
    for point in points:
        proved = point["proved"]
        tiers = f"{proved.get('kernel', 0)}k+{proved.get('source', 0)}s"
        lines.append(
            f"{point['week']:<9} {tiers:>14} {point['stated']:>7} {point['missing']:>8} "
            f"{point['pin_moves']:>5} {point['lint_allows']:>7}"
        )
    lines.append("proved: k = kernel evidence, s = source evidence (as recorded by sync)")
    return lines
