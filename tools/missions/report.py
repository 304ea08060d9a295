"""Machine- and human-readable reports of the catalog's state.

``status_json`` is the contract of ``missions status --json`` (DESIGN.md's keys, plus a few
more); ``report_json`` adds sources, dependencies, pins and the gate for dashboards;
``report_markdown`` is meant for a pull-request comment.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, Protocol

from missions import gitinfo
from missions.gate import GateResult
from missions.lint import Finding as LintFinding
from missions.lint import LintResult
from missions.placeholders import Placeholder, mission_placeholders
from missions.render import plural
from missions.roots import read_lean_text
from missions.status import Analysis, MissionStatus, TargetStatus, summary_of
from missions.stored import finding_json
from missions.verdicts import target_checks
from missions.witness import witness_entry

STATUS_MARK = {"proved": "✅", "stated": "📝", "missing": "❌", "external": "🔗"}


def _lean_statement(analysis: Analysis, status: TargetStatus) -> str | None:
    if status.statement_decl is None:
        return None
    module, decl = status.statement_decl
    try:
        text = read_lean_text(str(module.path))
    except (OSError, UnicodeDecodeError):
        return None
    return text[decl.start : decl.end]


class LintCounts(Protocol):
    """The lint counts an entry shows: a :class:`missions.lint.LintResult`, or the counts a
    dashboard's state kept of one (:mod:`missions.redraw`)."""

    def mission_counts(self, mission_id: str) -> dict[str, int]: ...

    def statement_counts(self, statement: str | None) -> dict[str, int]: ...


def target_json(
    status: TargetStatus,
    witness: dict[str, Any] | None = None,
    lint: dict[str, int] | None = None,
) -> dict[str, Any]:
    """One target; ``lint`` counts the lint findings its statement reaches (if linted)."""
    target = status.target
    data: dict[str, Any] = {
        "witness": witness,
        "id": target.id,
        "kind": target.kind,
        "title": target.title,
        "statement": target.statement,
        "proof": target.proof,
        "status": status.status,
        "evidence": status.evidence,
        "reasons": status.reasons,
        "checks": target_checks(status),
        "depends_on": target.depends_on,
        "provenance": target.provenance.model_dump(exclude_none=True),
    }
    if lint is not None:
        data["lint"] = lint
    return data


def mission_json(
    mission: MissionStatus,
    witnesses: dict[str, dict[str, Any]] | None = None,
    placeholders: list[Placeholder] | None = None,
    root: Path | None = None,
    lint: LintCounts | None = None,
) -> dict[str, Any]:
    """One mission; with ``placeholders`` left from ``missions new`` its status is ``draft``."""
    info = mission.file.mission
    witnesses = witnesses or {}
    placeholders = placeholders or []
    data: dict[str, Any] = {
        "id": info.id,
        "title": info.title,
        "category": info.category,
        "status": "draft" if placeholders else mission.status,
        "placeholders": [
            {"file": _rel(p.path, root), "line": p.line, "text": p.text} for p in placeholders
        ],
        "regressions": [r.model_dump(mode="json", by_alias=True) for r in info.regressions],
        "module": info.lean.module,
        "pin": {
            "recorded": mission.pin.recorded,
            "current": mission.pin.digest,
            "matches": mission.pin.matches,
            "pinned_at": info.lean.pinned_at,
        },
        "targets": [
            target_json(
                t,
                witness_entry(info, t.target, witnesses.get(f"{info.id}/{t.target.id}")),
                None if lint is None else lint.statement_counts(t.target.statement),
            )
            for t in mission.targets
        ],
    }
    if lint is not None:
        data["lint"] = lint.mission_counts(info.id)
    return data


def status_json(
    analysis: Analysis,
    evidence: str = "source",
    witnesses: dict[str, dict[str, Any]] | None = None,
    lint: LintResult | None = None,
) -> dict[str, Any]:
    """The ``status --json`` contract; ``witnesses`` are the last witness results per target
    (each linked target's ``witness`` object adds ``stale`` and ``nonvacuous`` to them),
    ``lint`` adds lint counts (``unaccepted``, ``accepted``, ``warnings``) per mission and
    target and in total.

    A mission with placeholders is a ``draft``: the summary counts it there, never as
    ``complete``.
    """
    missions = [
        mission_json(
            mission,
            witnesses,
            mission_placeholders(analysis.workspace, mission.file),
            analysis.root,
            lint,
        )
        for mission in analysis.missions
    ]
    summary = summary_of(missions)
    data: dict[str, Any] = {
        "root": str(analysis.root),
        "evidence": evidence,
        "missions": missions,
        "summary": summary,
    }
    if lint is not None:
        data["lint"] = lint.counts()
    return data


def _rel(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return str(path.relative_to(root))
        except ValueError:
            pass
    return str(path)


def gate_json(gate: GateResult) -> dict[str, Any]:
    return {
        "ok": gate.ok,
        "violations": [finding_json(v) for v in gate.violations],
        "warnings": [finding_json(v) for v in gate.warnings],
    }


def report_json(
    analysis: Analysis,
    gate: GateResult,
    witnesses: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    kernel = any(t.evidence == "kernel" for m in analysis.missions for t in m.targets)
    data = status_json(
        analysis, evidence="kernel" if kernel else "source", witnesses=witnesses, lint=gate.lint
    )
    data["generated"] = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    data["commit"] = gitinfo.head_commit(analysis.root)
    # a finding in a closure many missions share is each one's: its JSON is made once and
    # shared by their entries (it names every mission: at 2,000 missions with shared
    # definitions, one copy per mission was 300 KB an entry)
    findings: dict[int, dict[str, object]] = {}

    def shared(finding: LintFinding) -> dict[str, object]:
        found = findings.get(id(finding))  # the findings live in gate.lint throughout
        if found is None:
            found = findings[id(finding)] = finding.to_json()
        return found

    for entry, mission in zip(data["missions"], analysis.missions, strict=True):
        lint = (
            None if gate.lint is None else [shared(f) for f in gate.lint.for_mission(entry["id"])]
        )
        add_report_fields(analysis, entry, mission, lint)
    data["gate"] = gate_json(gate)
    return data


def add_report_fields(
    analysis: Analysis,
    entry: dict[str, Any],
    mission: MissionStatus,
    lint_findings: list[dict[str, object]] | None,
) -> None:
    """What a mission's entry in :func:`report_json` adds to its ``status --json`` entry."""
    info = mission.file.mission
    entry["summary"] = info.summary.strip()
    entry["sources"] = [s.model_dump(exclude_none=True) for s in info.sources]
    entry["conventions"] = info.conventions
    entry["statement_history"] = [r.model_dump(mode="json") for r in info.statement_history]
    entry["facts"] = [f.model_dump(exclude_none=True) for f in info.facts]
    for target_entry, status in zip(entry["targets"], mission.targets, strict=True):
        target = status.target
        target_entry["informal"] = target.informal.strip()
        target_entry["lean"] = _lean_statement(analysis, status)
        target_entry["source"] = target.source
        target_entry["locator"] = target.locator
        target_entry["external"] = (
            target.external.model_dump(exclude_none=True) if target.external else None
        )
        if target.fingerprints is not None:
            target_entry["fingerprints"] = target.fingerprints.model_dump(mode="json")
    if lint_findings is not None:
        entry["lint_findings"] = lint_findings


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def report_markdown(analysis: Analysis, gate: GateResult) -> str:
    data = status_json(analysis)
    summary = data["summary"]
    drafts = f", {summary['draft']} draft" if summary["draft"] else ""
    lines = [
        "# Missions report",
        "",
        f"{plural(summary['missions'], 'mission')} ({summary['complete']} complete{drafts}), "
        f"{plural(summary['targets'], 'target')}: {summary['proved']} proved, "
        f"{summary['stated']} stated, {summary['missing']} missing, "
        f"{summary['external']} external. Evidence: source scan (no Lean run).",
        "",
        "| mission | category | status | proved | stated | missing | pin |",
        "|---|---|---|---:|---:|---:|---|",
    ]
    for entry, mission in zip(data["missions"], analysis.missions, strict=True):
        counts = {k: sum(t.status == k for t in mission.targets) for k in STATUS_MARK}
        pin = "ok" if mission.pin.matches else ("unpinned" if not mission.pin.pinned else "CHANGED")
        lines.append(
            f"| {mission.id} | {mission.file.mission.category} | {entry['status']} | "
            f"{counts['proved']} | {counts['stated']} | {counts['missing']} | {pin} |"
        )
    lines += ["", "## Gate", ""]
    if gate.ok:
        lines.append("All gate rules pass.")
    else:
        lines += ["| rule | where | message |", "|---|---|---|"]
        for violation in gate.violations:
            lines.append(
                f"| `{violation.rule}` | `{violation.location()}` | {_cell(violation.message)} |"
            )
    if gate.warnings:
        lines += ["", "Warnings (they do not fail the gate):", ""]
        lines += ["| rule | where | message |", "|---|---|---|"]
        for warning in gate.warnings:
            lines.append(
                f"| `{warning.rule}` | `{warning.location()}` | {_cell(warning.message)} |"
            )
    lines += _regressions_markdown(data, gate)
    lines += _lint_markdown(gate.lint)
    for mission in analysis.missions:
        info = mission.file.mission
        lines += ["", f"## {info.title} (`{info.id}`)", "", info.summary.strip(), ""]
        lines += ["| target | kind | status | evidence | Lean statement | why not proved |"]
        lines += ["|---|---|---|---|---|---|"]
        for status in mission.targets:
            target = status.target
            why = "; ".join(status.reasons[:3]) + (" …" if len(status.reasons) > 3 else "")
            lines.append(
                f"| {STATUS_MARK[status.status]} {target.id} | {target.kind} | {status.status} | "
                f"{status.evidence or '-'} | `{target.statement or '-'}` | {_cell(why)} |"
            )
    return "\n".join(lines) + "\n"


def _regressions_markdown(data: dict[str, Any], gate: GateResult) -> list[str]:
    """Losses of ``proved``: the unrecorded ones (gate) and the recorded ones (YAML)."""
    unrecorded = [v for v in gate.violations if v.rule == "status-regression"]
    recorded = [(m["id"], r) for m in data["missions"] for r in m["regressions"]]
    if not unrecorded and not recorded:
        return []
    lines = ["", "## Regressions", ""]
    if unrecorded:
        lines.append("Not recorded (the gate fails):")
        lines.append("")
        lines += [f"- **{v.mission}/{v.target}**: {_cell(v.message)}" for v in unrecorded]
        lines.append("")
    if recorded:
        lines += ["| target | from | to | date | reason | commit |", "|---|---|---|---|---|---|"]
        for mission_id, r in recorded:
            commit = (r.get("commit") or "-")[:10]
            lines.append(
                f"| {mission_id}/{r['target']} | {r['from']} | {r['to'] or 'not recorded'} | "
                f"{r['date']} | {_cell(r['reason'])} | {commit} |"
            )
    return lines


def _lint_markdown(lint: LintResult | None) -> list[str]:
    """The lint section: every finding, accepted ones with the reason they were accepted."""
    if lint is None:
        return []
    counts = lint.counts()
    lines = [
        "",
        "## Lint",
        "",
        f"{counts['unaccepted']} unaccepted, {counts['accepted']} accepted, "
        f"{counts['warnings']} warning(s) in the statement closures (`missions lint`).",
    ]
    if lint.findings:
        lines += ["", "| rule | where | message | accepted because |", "|---|---|---|---|"]
        for f in lint.findings:
            verdict = (
                _cell(f.reason)
                if f.accepted and f.reason
                else ("warning" if f.level == "warning" else "**not accepted**")
            )
            lines.append(f"| `{f.rule}` | `{f.path}:{f.line}` | {_cell(f.message)} | {verdict} |")
    return lines
