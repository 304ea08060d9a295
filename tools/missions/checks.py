"""One verdict record per target: which checkers ran and what each said.

Kernel evidence comes from several checkers that catch different cheats: the audit executable
(the proof's type is exactly the statement; its axioms), leanchecker (the compiled
environment replays in the kernel), Comparator (a fresh build of the claimed proofs against a
challenge, in a sandbox) and nanoda (a second, independent kernel). The source scan is the
fast tier beside them. Each target carries one :class:`Check` per checker, and every part fails
closed:

- a checker that did not run, ran on another commit (or cannot be matched to one: no git
  checkout), or did not cover the target's modules is ``not run``, never ``passed``;
- a kernel checker that ran and failed blocks kernel ``proved`` whether or not it is required;
- the checkers the project requires (``missions.yaml``, :mod:`missions.settings`) must each
  have ``passed``.

Whole-environment checkers (leanchecker, nanoda) run in CI and leave one record each
(``<checker>.json``, format ``missions-check/1``, written by ``.github/scripts/record-check.sh``);
Comparator leaves its own results (:mod:`missions.comparator`) in the same directory.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from missions import gitinfo
from missions.comparator import ComparatorResult, plan_mission, read_results
from missions.errors import InputError
from missions.kernel import AuditReport, KernelVerdict, kernel_verdict
from missions.lean.workspace import Workspace
from missions.settings import KernelSettings, load_settings
from missions.status import Analysis, MissionStatus, TargetStatus, Violation
from missions.verdicts import Check, Checker, not_asked, source_check

RECORD_FORMAT = "missions-check/1"
#: Checkers that leave a ``missions-check/1`` record over module prefixes.
RECORDED: tuple[Checker, ...] = ("leanchecker", "nanoda")
#: Checkers whose failure blocks kernel ``proved`` (the source scan may be conservative).
KERNEL_CHECKERS: tuple[Checker, ...] = ("audit", "leanchecker", "comparator", "nanoda")


class CheckRecord(BaseModel):
    """What one whole-environment checker said, as the workflow recorded it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["missions-check/1"]
    checker: Literal["leanchecker", "nanoda"]
    modules: list[str] = Field(min_length=1)
    tool: str
    workspace_commit: str
    command: str
    exit_code: int


@dataclass
class KernelEvidence:
    """Everything besides the audit that kernel statuses are decided from."""

    settings: KernelSettings = field(default_factory=KernelSettings)
    records: dict[str, CheckRecord] = field(default_factory=dict)
    comparator: dict[str, ComparatorResult] | None = None
    #: the commit being checked: records from another commit, or from anywhere when this is
    #: not a git checkout (None), do not count
    head: str | None = None


def read_records(directory: Path) -> dict[str, CheckRecord]:
    """Every ``<checker>.json`` record directly in ``directory`` (other files are ignored)."""
    records: dict[str, CheckRecord] = {}
    for path in sorted(directory.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise InputError.single(path, 1, f"unreadable check record: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            continue  # not a record (Comparator's files sit in the same tree)
        try:
            record = CheckRecord.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "record"
            raise InputError.single(
                path, 1, f"not a {RECORD_FORMAT} record: {where}: {first['msg']}"
            ) from None
        if record.checker in records:
            raise InputError.single(path, 1, f"a second record for {record.checker}")
        records[record.checker] = record
    return records


def load_evidence(root: Path, checks: Path | None, comparator: Path | None) -> KernelEvidence:
    """The project's requirements and whatever the checkers left in ``checks``/``comparator``."""
    for directory in (checks, comparator):
        if directory is not None and not directory.is_dir():
            raise InputError.single(directory, 1, "no such directory of checker results")
    results: dict[str, ComparatorResult] | None = None
    for directory in (checks, comparator):
        if directory is not None:
            results = {**(results or {}), **read_results(directory)}
    return KernelEvidence(
        settings=load_settings(root).kernel,
        records=read_records(checks) if checks is not None else {},
        comparator=results,
        head=gitinfo.head_commit(root),
    )


def _covered(module: str, prefixes: Iterable[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def target_modules(workspace: Workspace, status: TargetStatus) -> list[str]:
    """The workspace modules a checker must have checked to speak for this target."""
    starts = [d[0].name for d in (status.statement_decl, status.proof_decl) if d is not None]
    modules: set[str] = set()
    for start in starts:
        modules.update(workspace.closure(start))
    return sorted(modules)


def record_check(
    record: CheckRecord | None, checker: str, modules: list[str], head: str | None
) -> Check:
    if record is None:
        return Check("not run", f"no {checker} record")
    if head is None:  # nothing to match the record against: it cannot speak for this tree
        return Check("not run", f"{checker}'s record cannot be matched: no commit checked out")
    if record.workspace_commit != head:
        return Check(
            "not run", f"{checker} ran on {record.workspace_commit[:12]}, not on {head[:12]}"
        )
    if not modules:
        return Check("not run", "no workspace module to check")
    missing = [m for m in modules if not _covered(m, record.modules)]
    if missing:
        return Check("not run", f"{checker} did not check {missing[0]}")
    over = ", ".join(record.modules)
    if record.exit_code == 0:
        return Check("passed", f"{record.tool}: accepted {over}")
    return Check("failed", f"{record.tool}: exit code {record.exit_code} over {over}")


def comparator_check(
    mission: MissionStatus,
    status: TargetStatus,
    analysis: Analysis,
    results: Mapping[str, ComparatorResult] | None,
    head: str | None,
) -> Check:
    plan = plan_mission(analysis, mission)
    target = status.target.id
    skipped = dict(plan.skipped)
    if target in skipped:
        return Check("not run", f"not given to Comparator: {skipped[target]}")
    if results is None:
        return Check("not run", "no Comparator results (--checks DIR)")
    result = results.get(mission.id)
    if result is None or not result.ran:
        return Check("not run", f"no Comparator verdict for {mission.id}")
    if result.config != plan.config:
        return Check("not run", "Comparator checked another configuration than today's claims")
    if head is None:
        return Check("not run", "Comparator's result cannot be matched: no commit checked out")
    if result.workspace_commit != head:
        ran_on = (result.workspace_commit or "an uncommitted tree")[:12]
        return Check("not run", f"Comparator ran on {ran_on}, not on {head[:12]}")
    if result.accepted:
        return Check("passed", f"Comparator accepted {status.target.proof}")
    return Check("failed", f"Comparator {result.summary}")


def audit_check(verdict: KernelVerdict) -> Check:
    if verdict.status == "proved":
        return Check("passed", "type is exactly the statement; standard axioms only")
    return Check("failed", "; ".join(verdict.reasons) or verdict.status)


def blocking(checks: Mapping[str, Check], settings: KernelSettings) -> list[str]:
    """Why the checks do not let the kernel say ``proved`` (empty: they do)."""
    reasons = [
        f"kernel: {c} failed: {checks[c].detail}"
        for c in KERNEL_CHECKERS
        if c in checks and checks[c].verdict == "failed"
    ]
    for checker in settings.require:
        check = checks.get(checker, Check("not run", not_asked(checker)))
        if check.verdict == "not run":
            reasons.append(f"kernel: {checker} not run ({check.detail}); missions.yaml requires it")
        elif check.verdict == "failed" and checker not in KERNEL_CHECKERS:
            reasons.append(f"{checker} failed: {check.detail}; missions.yaml requires it")
    return reasons


def apply_kernel(
    analysis: Analysis, report: AuditReport, evidence: KernelEvidence | None = None
) -> list[Violation]:
    """Replace source statuses by kernel ones, recording every checker's verdict per target;
    return a violation per unsafe disagreement.

    A target the source scan called ``proved`` but the kernel does not is a gate violation
    (``evidence-disagreement``): the proof does not compile, a checker rejected it or did not
    run where the project requires it, or the scanner missed something. The reverse (a
    conservative scan) is only reported in the reasons.
    """
    evidence = evidence or KernelEvidence()
    violations: list[Violation] = []
    root = analysis.root
    for mission in analysis.missions:
        yaml_path = str(mission.file.path.relative_to(root))
        for status in mission.targets:
            verdict = kernel_verdict(status, report)
            if verdict is None:
                continue
            modules = target_modules(analysis.workspace, status)
            checks: dict[str, Check] = {
                "source": source_check(status),
                "audit": audit_check(verdict),
            }
            for checker in RECORDED:
                checks[checker] = record_check(
                    evidence.records.get(checker), checker, modules, evidence.head
                )
            checks["comparator"] = comparator_check(
                mission, status, analysis, evidence.comparator, evidence.head
            )
            reasons = list(verdict.reasons)
            kernel_status = verdict.status
            if kernel_status == "proved" and (blocked := blocking(checks, evidence.settings)):
                kernel_status, reasons = "stated", blocked
            before = status.status
            if before == "proved" and kernel_status != "proved":
                violations.append(
                    Violation(
                        "evidence-disagreement",
                        "source scan says proved, the kernel does not: " + "; ".join(reasons),
                        yaml_path,
                        mission.file.target_line(status.target.id),
                        mission.id,
                        status.target.id,
                    )
                )
            if before != kernel_status:
                reasons.append(f"source scan said {before}; the kernel decides")
            status.status = kernel_status  # type: ignore[assignment]
            status.evidence = "kernel"
            status.reasons = reasons
            status.checks = checks
    return violations
