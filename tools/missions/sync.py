"""Write computed statuses back into mission YAML, keeping comments and key order.

``sync`` never lowers a recorded ``proved`` silently: that is a regression, and it needs
``--allow-regression MISSION/TARGET --reason ...``, which appends the loss to the mission's
``regressions:`` list (see :mod:`missions.ratchet`). Without it nothing is written and every
refused target is named. Run it holding the workspace write lock.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from missions.catalog import STATUSES
from missions.errors import Problem
from missions.gate import kernel_record_stands, regression_ledgers
from missions.pins import proof_closure_digest
from missions.ratchet import Loss, status_timelines, target_ref
from missions.status import Analysis, MissionStatus, TargetStatus
from missions.yamlio import atomic_write_text, dump_document, set_key


@dataclass
class RegressionPlan:
    """What ``sync`` may record: losses per mission id, and why it must refuse otherwise."""

    record: dict[str, list[Loss]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def resolve_targets(
    missions: Sequence[MissionStatus], refs: Sequence[str]
) -> tuple[set[str], list[Problem]]:
    """``MISSION/TARGET`` (or a ``TARGET`` id unique among ``missions``) to full references."""
    resolved: set[str] = set()
    problems: list[Problem] = []
    known = {target_ref(m, s): (m, s) for m in missions for s in m.targets}
    for ref in refs:
        if ref in known:
            resolved.add(ref)
            continue
        matches = sorted(k for k in known if k.split("/", 1)[1] == ref) if "/" not in ref else []
        if len(matches) == 1:
            resolved.add(matches[0])
            continue
        where = missions[0].file.path.parent if missions else "missions"
        if matches:
            message = f"--allow-regression {ref} is ambiguous; name one of {', '.join(matches)}"
        else:
            message = f"--allow-regression {ref}: no such target (write MISSION/TARGET)"
        problems.append(Problem(str(where), 1, message))
    return resolved, problems


def plan_regressions(
    analysis: Analysis, allowed: set[str], *, reason: str | None
) -> RegressionPlan:
    """Which losses of ``proved`` to record, and the refusals for those not allowed."""
    plan = RegressionPlan()
    wanted = set(allowed)
    timelines = status_timelines(analysis.root, [m.file.path for m in analysis.missions])
    for mission in analysis.missions:
        yaml_path = str(mission.file.path)
        for ledger in regression_ledgers(analysis, mission, timelines[mission.file.path]):
            if not ledger.owed:
                continue
            ref = target_ref(mission, ledger.status)
            line = mission.file.target_line(ledger.status.target.id, "status")
            if ref in wanted:
                wanted.discard(ref)
                plan.record.setdefault(mission.id, []).extend(ledger.owed)
            elif ledger.lowered_now:
                status = ledger.status
                why = f" ({status.reasons[0]})" if status.reasons else ""
                plan.problems.append(
                    Problem(
                        yaml_path,
                        line,
                        f"{ref} is recorded proved but the sources now give {status.status}"
                        f"{why}; not lowering it. Restore the proof, or record the loss: "
                        f'missions sync --allow-regression {ref} --reason "..."',
                    )
                )
    for ref in sorted(wanted):
        mission_id = ref.split("/", 1)[0]
        mission = next(m for m in analysis.missions if m.id == mission_id)
        target_id = ref.split("/", 1)[1]
        plan.problems.append(
            Problem(
                str(mission.file.path),
                mission.file.target_line(target_id, "status"),
                f"--allow-regression {ref}: {target_id} has no loss of proved to record",
            )
        )
    if plan.record and (reason is None or not reason.strip()):
        first = next(iter(plan.record))
        mission = next(m for m in analysis.missions if m.id == first)
        plan.problems.append(
            Problem(
                str(mission.file.path),
                mission.file.line("targets"),
                "--allow-regression needs --reason saying why the target is no longer proved",
            )
        )
    return plan


def sync_mission(
    mission: MissionStatus,
    *,
    dry_run: bool = False,
    checked: dict[str, object] | None = None,
    fingerprints: dict[str, dict[str, object]] | None = None,
    stands: Callable[[TargetStatus], bool] | None = None,
    closure_of: Callable[[TargetStatus], str | None] | None = None,
    regressions: Sequence[Loss] = (),
    reason: str | None = None,
    today: dt.date | None = None,
    commit: str | None = None,
) -> list[str]:
    """Update each target's ``status``/``evidence``; return the ids that changed.

    External targets carry no evidence, so their ``evidence`` key is removed. Kernel
    statuses also record what checked them (``checked``: Lean version, Mathlib revision,
    commit, and per target the digest ``closure_of`` gives of the proof's import closure)
    and, given ``fingerprints`` (by target id), what each statement meant to the kernel;
    recorded fingerprints are never touched otherwise. A recorded kernel verdict that still
    ``stands`` is left alone; one that no longer does gives way to the source scan, even when
    the two agree on the status. ``regressions`` are the losses of
    ``proved`` to record (see :func:`plan_regressions`); a lowering of ``proved`` not among
    them must have been refused before this is called.
    """
    doc = mission.file.doc
    changed: list[str] = []
    for index, status in enumerate(mission.targets):
        node = doc["targets"][index]
        recorded = (fingerprints or {}).get(status.target.id)
        if recorded is not None and not _same_fingerprints(node.get("fingerprints"), recorded):
            mapping = CommentedMap()
            for key, value in recorded.items():
                mapping[key] = value
            set_key(node, "fingerprints", mapping)
            changed.append(status.target.id)
        before = (node.get("status"), node.get("evidence"))
        after = (status.status, status.evidence)
        if stands is not None and stands(status):
            continue
        stamp = checked if status.evidence == "kernel" else None
        if stamp is not None and closure_of is not None:
            stamp = {**stamp, "closure": closure_of(status)}
        if before == after and (stamp is None or _same_check(node.get("checked"), stamp)):
            continue
        if status.target.id not in changed:
            changed.append(status.target.id)
        set_key(node, "status", status.status)
        if status.evidence is None:
            node.pop("evidence", None)
        else:
            set_key(node, "evidence", status.evidence, after="status")
        if stamp is not None:
            mapping = CommentedMap()
            for key, value in stamp.items():
                mapping[key] = value
            set_key(node, "checked", mapping, after="evidence")
        else:
            node.pop("checked", None)
    if regressions:
        _record_regressions(doc, regressions, reason, today, commit)
        changed.extend(loss.target for loss in regressions if loss.target not in changed)
    if changed and not dry_run:
        atomic_write_text(mission.file.path, dump_document(doc))
    return changed


def _record_regressions(
    doc: CommentedMap,
    losses: Sequence[Loss],
    reason: str | None,
    today: dt.date | None,
    commit: str | None,
) -> None:
    entries = doc.get("regressions")
    if entries is None:
        entries = CommentedSeq()
        after = "statement_history" if "statement_history" in doc else "lean"
        set_key(doc, "regressions", entries, after=after)
    for loss in losses:
        entry = CommentedMap()
        entry["target"] = loss.target
        entry["from"] = "proved"
        entry["to"] = loss.to if loss.to in STATUSES else None
        entry["date"] = today or dt.date.today()
        entry["reason"] = (reason or "").strip()
        entry["commit"] = commit
        entries.append(entry)


def kernel_stands(analysis: Analysis) -> Callable[[TargetStatus], bool]:
    """The gate's rule for when a recorded kernel verdict outranks the source scan."""
    return lambda status: kernel_record_stands(analysis, status)


def _same_check(recorded: object, stamp: dict[str, object]) -> bool:
    if not isinstance(recorded, dict):
        return False
    return all(str(recorded.get(k)) == str(v) for k, v in stamp.items() if k != "date")


def _same_fingerprints(recorded: object, fresh: dict[str, object]) -> bool:
    """Whether the YAML already holds exactly these fingerprints (key order aside)."""
    return json.dumps(recorded, sort_keys=True, default=str) == json.dumps(
        fresh, sort_keys=True, default=str
    )


def kernel_closures(analysis: Analysis) -> Callable[[TargetStatus], str | None]:
    """What ``sync --lean`` records a kernel verdict against: the digest of the proof's
    import closure (:func:`missions.pins.proof_closure_digest`)."""

    def closure_of(status: TargetStatus) -> str | None:
        if status.proof_decl is None:
            return None
        return proof_closure_digest(analysis.workspace, status.proof_decl[0].name)

    return closure_of
