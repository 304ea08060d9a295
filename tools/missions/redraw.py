"""Incremental dashboard: after an edit, make afresh only what the edit can change.

A plain ``report --format html -o DIR`` is stored (:mod:`missions.stored`), but any edit
computed the whole dashboard again: at 2,000 missions the analysis, the gate, every
mission's report entry and page key, for one mission changed. So a dashboard run that was
stored leaves a *state* beside its answer: the incremental ``check``'s state for the same
stamps (:mod:`missions.recheck`), and what it made of each mission: its statuses, its
lint counts and findings (as indexes into one shared list), what the front page and the
errata show of it (:func:`missions.html.index_parts`) and its page's key; and the progress
chart, which git, the Lake file and the missions' ids and files decide.

The next run into the same folder asks :func:`missions.recheck.regate` for the gate. By
the rules that make the incremental ``check`` answer what the whole gate answers, it
analyses again exactly the missions whose answer an edit can change; their report
entries, front-page parts and pages are made afresh from that analysis. Every other
mission's are kept: by the same rules nothing they are made from moved (their modules and
YAML, git, the witness results, the tool; any other change runs the whole dashboard).
Those rules also keep every lint finding as it was, so lint counts and findings are kept
for every mission, and a mission made afresh takes its statements' counts from before
(its lint key, the statements the lint read, is unchanged or the whole dashboard runs).
A kept mission whose page is no longer as written (deleted, edited) runs the whole
dashboard: only it renders every page.

``tests/test_redraw.py`` checks, edit by edit, that the site written is the one the whole
dashboard writes.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from missions import gitinfo
from missions.cache import dashboard_state_path, write_state
from missions.incremental import statuses_of
from missions.inputs import Recording
from missions.recheck import STATE_FORMAT, keep_state, regate, state_of, state_version
from missions.stored import site_answer

if TYPE_CHECKING:
    from missions.gate import GateResult
    from missions.html import Site
    from missions.status import Analysis

#: What a dashboard's state holds changes with this (the check state's format too).
SITE_STATE_FORMAT = [STATE_FORMAT, 2]


def _version() -> list[Any]:
    return [*state_version(), SITE_STATE_FORMAT]


class _KeptLint:
    """The lint counts of the entries before (:class:`missions.report.LintCounts`)."""

    def __init__(self, records: list[dict[str, Any]]) -> None:
        self.missions = {r["id"]: r["lint"]["mission"] for r in records}
        self.statements = {s: c for r in records for s, c in r["lint"]["statements"].items()}

    def mission_counts(self, mission_id: str) -> dict[str, int]:
        return cast(dict[str, int], self.missions[mission_id])

    def statement_counts(self, statement: str | None) -> dict[str, int]:
        if statement is None:
            return {"unaccepted": 0, "accepted": 0, "warnings": 0}
        return cast(dict[str, int], self.statements[statement])


# ----------------------------------------------------------------------- remembering
def remember_site(
    recording: Recording, analysis: Analysis, gate: GateResult, site: Site, out_dir: Path
) -> None:
    """Keep the state the next dashboard run into ``out_dir`` starts from, once
    ``recording`` stored the answer of a whole dashboard (``site``) of every mission."""
    if recording.kept is None or gate.parts is None or gate.lint is None:
        return
    check = state_of(analysis, gate.parts, gate.lint, *recording.kept)
    if check is None:
        return
    write_state(
        dashboard_state_path(str(analysis.root), out_dir), _state(out_dir, check, site, [], [])
    )


def _record(entry: dict[str, Any], number: Callable[[dict[str, Any]], int]) -> dict[str, Any]:
    """What the state keeps of a mission's report entry."""
    found = entry.get("lint_findings")
    lint = None
    if "lint" in entry:
        statements = {t["statement"]: t["lint"] for t in entry["targets"] if t["statement"]}
        lint = {"mission": entry["lint"], "statements": statements}
    return {
        "id": entry["id"],
        "statuses": statuses_of(entry),
        "lint": lint,
        "findings": None if found is None else [number(f) for f in found],
    }


def _state(
    out_dir: Path,
    check: dict[str, Any],
    site: Site,
    records: list[dict[str, Any]],
    kept_findings: list[dict[str, Any]],
) -> dict[str, Any]:
    """The state of ``site``: ``records`` (the state's before) stand for the missions
    ``site`` did not make afresh, their findings numbered in ``kept_findings``."""
    findings: list[dict[str, Any]] = []
    numbered: dict[int, int] = {}  # a shared finding's dict -> its index

    def number(finding: dict[str, Any]) -> int:
        index = numbered.get(id(finding))
        if index is None:
            index = numbered[id(finding)] = len(findings)
            findings.append(finding)
        return index

    missions = []
    for index, (part, key) in enumerate(zip(site.parts, site.keys, strict=True)):
        entry = site.entries.get(index)
        if entry is not None:
            record = _record(entry, number)
        else:
            record = dict(records[index])
            if record["findings"] is not None:
                record["findings"] = [number(kept_findings[n]) for n in record["findings"]]
        missions.append({**record, "parts": part, "key": key})
    return {
        "version": _version(),
        "folder": os.path.realpath(out_dir),
        "check": check,
        "lint": site.head.get("lint"),
        "progress": site.head["progress"],
        "findings": findings,
        "missions": missions,
    }


def _read(path: str, out_dir: Path) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as handle:
            state = json.load(handle)
    except (OSError, ValueError, RecursionError):
        return None
    if (
        not isinstance(state, dict)
        or state.get("version") != _version()
        or state.get("folder") != os.path.realpath(out_dir)
    ):
        return None
    return cast(dict[str, Any], state)


# -------------------------------------------------------------------------- the path
def redraw(root: Path, recording: Recording, out_dir: Path) -> list[Path] | None:
    """Write the dashboard of the tree ``recording`` stamped into ``out_dir`` from the
    state the run before left, and store it; the files written, or None (nothing written)
    when the whole dashboard must run. A write that fails raises ``OSError``."""
    top = str(root)
    path = dashboard_state_path(top, out_dir)
    state = _read(path, out_dir)
    if state is None:
        return None
    try:
        site = _site(root, recording, state)
    except Exception:  # a damaged state: an optimization never fails
        if os.environ.get("MISSIONS_DEBUG"):
            raise
        return None
    if site is None:
        return None
    from missions.html import write_site

    written = write_site(site, out_dir)
    if written is None:
        return None
    if keep_state(recording, site_answer(written), state["check"]):
        records, findings = state["missions"], state["findings"]
        write_state(path, _state(out_dir, state["check"], site, records, findings))
    return written


def _site(root: Path, recording: Recording, state: dict[str, Any]) -> Site | None:
    from missions.html import Site, site_model
    from missions.placeholders import mission_placeholders
    from missions.report import add_report_fields, gate_json, mission_json
    from missions.status import summary_of
    from missions.witness import load_results

    regated = regate(root, recording, state["check"])
    if regated is None:
        return None
    records: list[dict[str, Any]] = state["missions"]
    if [r["id"] for r in records] != [m["id"] for m in state["check"]["missions"]]:
        return None  # not the missions the check state holds, in its order
    findings = state["findings"]
    lint = None if state["lint"] is None else _KeptLint(records)
    witnesses = load_results(str(root))
    entries, missions, models = {}, {}, {}
    if regated.analysis is not None:
        analysis = regated.analysis
        for index, mission in zip(regated.affected, analysis.missions, strict=True):
            placeholders = mission_placeholders(analysis.workspace, mission.file)
            entry = mission_json(mission, witnesses, placeholders, root, lint)
            shared = records[index]["findings"]
            listed = None if shared is None else [findings[n] for n in shared]
            add_report_fields(analysis, entry, mission, listed)
            entries[index], missions[index] = entry, mission
            models[index] = site_model(analysis, mission)
    statuses = [
        statuses_of(entries[index]) if index in entries else record["statuses"]
        for index, record in enumerate(records)
    ]
    head: dict[str, Any] = {"summary": summary_of(statuses)}
    if state["lint"] is not None:
        head["lint"] = state["lint"]
    head["generated"] = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    head["commit"] = gitinfo.head_commit(root)
    head["gate"] = gate_json(regated.gate)
    # from git, the Lake file and the missions' ids and files: as before, or regate says so
    head["progress"] = state["progress"]
    ids = [record["id"] for record in records]
    yamls = [Path(record["yaml"]) for record in state["check"]["missions"]]
    return Site(
        root=root,
        head=head,
        ids=ids,
        yamls=yamls,
        entries=entries,
        missions=missions,
        models=models,
        parts=[None if index in entries else r["parts"] for index, r in enumerate(records)],
        keys=[None if index in entries else r["key"] for index, r in enumerate(records)],
    )
