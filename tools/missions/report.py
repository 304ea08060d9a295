"""Machine- and human-readable reports of the catalog's state.

``status_json`` is the contract of ``missions status --json`` (DESIGN.md's keys, plus a few
more); ``report_json`` adds sources, dependencies, pins and the gate for dashboards;
``report_markdown`` is meant for a pull-request comment.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from missions import gitinfo
from missions.gate import GateResult
from missions.status import Analysis, MissionStatus, TargetStatus, Violation
from missions.witness import witness_entry

STATUS_MARK = {"proved": "✅", "stated": "📝", "missing": "❌", "external": "🔗"}


def _lean_statement(analysis: Analysis, status: TargetStatus) -> str | None:
    if status.statement_decl is None:
        return None
    module, decl = status.statement_decl
    try:
        text = module.path.read_text(encoding="utf-8")
    except OSError:
        return None
    return text[decl.start : decl.end]


def target_json(status: TargetStatus, witness: dict[str, Any] | None = None) -> dict[str, Any]:
    target = status.target
    return {
        "witness": witness,
        "id": target.id,
        "kind": target.kind,
        "title": target.title,
        "statement": target.statement,
        "proof": target.proof,
        "status": status.status,
        "evidence": status.evidence,
        "reasons": status.reasons,
        "depends_on": target.depends_on,
        "provenance": target.provenance.model_dump(exclude_none=True),
    }


def mission_json(
    mission: MissionStatus, witnesses: dict[str, dict[str, Any]] | None = None
) -> dict[str, Any]:
    info = mission.file.mission
    witnesses = witnesses or {}
    return {
        "id": info.id,
        "title": info.title,
        "category": info.category,
        "status": mission.status,
        "module": info.lean.module,
        "pin": {
            "recorded": mission.pin.recorded,
            "current": mission.pin.digest,
            "matches": mission.pin.matches,
            "pinned_at": info.lean.pinned_at,
        },
        "targets": [
            target_json(t, witness_entry(info, t.target, witnesses.get(f"{info.id}/{t.target.id}")))
            for t in mission.targets
        ],
    }


def status_json(
    analysis: Analysis,
    evidence: str = "source",
    witnesses: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The ``status --json`` contract; ``witnesses`` are the last witness results per target
    (each linked target's ``witness`` object adds ``stale`` and ``nonvacuous`` to them)."""
    return {
        "root": str(analysis.root),
        "evidence": evidence,
        "missions": [mission_json(m, witnesses) for m in analysis.missions],
        "summary": analysis.summary(),
    }


def violation_json(violation: Violation) -> dict[str, Any]:
    return {
        "rule": violation.rule,
        "mission": violation.mission,
        "target": violation.target,
        "file": violation.file,
        "line": violation.line,
        "message": violation.message,
    }


def gate_json(gate: GateResult) -> dict[str, Any]:
    return {"ok": gate.ok, "violations": [violation_json(v) for v in gate.violations]}


def report_json(
    analysis: Analysis,
    gate: GateResult,
    witnesses: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    data = status_json(analysis, witnesses=witnesses)
    data["generated"] = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    data["commit"] = gitinfo.head_commit(analysis.root)
    for entry, mission in zip(data["missions"], analysis.missions, strict=True):
        info = mission.file.mission
        entry["summary"] = info.summary.strip()
        entry["sources"] = [s.model_dump(exclude_none=True) for s in info.sources]
        entry["conventions"] = info.conventions
        entry["statement_history"] = [r.model_dump(mode="json") for r in info.statement_history]
        for target_entry, status in zip(entry["targets"], mission.targets, strict=True):
            target_entry["informal"] = status.target.informal.strip()
            target_entry["lean"] = _lean_statement(analysis, status)
    data["gate"] = gate_json(gate)
    return data


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def report_markdown(analysis: Analysis, gate: GateResult) -> str:
    summary = analysis.summary()
    lines = [
        "# Missions report",
        "",
        f"{summary['missions']} missions ({summary['complete']} complete), "
        f"{summary['targets']} targets: {summary['proved']} proved, {summary['stated']} stated, "
        f"{summary['missing']} missing, {summary['external']} external. "
        "Evidence: source scan (no Lean run).",
        "",
        "| mission | category | status | proved | stated | missing | pin |",
        "|---|---|---|---:|---:|---:|---|",
    ]
    for mission in analysis.missions:
        counts = {k: sum(t.status == k for t in mission.targets) for k in STATUS_MARK}
        pin = "ok" if mission.pin.matches else ("unpinned" if not mission.pin.pinned else "CHANGED")
        lines.append(
            f"| {mission.id} | {mission.file.mission.category} | {mission.status} | "
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
