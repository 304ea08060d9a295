"""Kernel evidence: what the Lean audit executable says about every named declaration.

The audit (``Audit.lean``, built as ``lake build audit``) imports the workspace once and
reports, per declaration, whether it exists, its kind, type fingerprints, the axioms it
reaches and whether a proof's type is exactly its statement constant (format:
``docs/audit-format.md``). This module writes its request, runs it, validates its answer and
turns it into statuses with evidence ``kernel``: a target is ``proved`` only if its proof is a
theorem whose type is exactly the statement and whose axioms are within the standard three,
compared by exact name. Where the source scan and the kernel disagree, the kernel wins and
the disagreement is reported.

Two further checks need the kernel's view and live here: statement fingerprints recorded by
``sync --lean`` must not move while the statement pin did not (``kernel-fingerprint``), and
each proof's ``depends_on`` must be the targets whose proofs it actually uses
(``dependency-mismatch``; the comparison itself, :func:`compare_dependencies`, takes any
"used" set, so a source-level reachability can feed it too).
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr, ValidationError

from missions.catalog import KernelFingerprints, MissionFile
from missions.errors import InputError
from missions.lean.lake import build_targets, lake_executable, run_lake
from missions.status import STANDARD_AXIOMS, Analysis, MissionStatus, TargetStatus, Violation

AUDIT_FORMAT = "missions-audit/2"
AUDIT_BINARY = Path(".lake/build/bin/audit")


class AuditDecl(BaseModel):
    model_config = ConfigDict(extra="allow")

    name: str
    exists: bool
    kind: str | None = None
    level_params: list[str] = []
    type_hash: str | None = None
    type_fingerprint: str | None = None
    type_is_prop: bool | None = None
    value_fingerprint: str | None = None
    #: None when the audit did not say: never read as "no axioms" or "safe" (fail closed)
    axioms: list[str] | None = None
    unsafe: bool | None = None
    partial: bool | None = None
    statement: str | None = None
    type_is_statement: bool | None = None
    closure_fingerprint: str | None = None
    definitions: dict[str, str] | None = None
    uses: list[str] | None = None


class AuditReport(BaseModel):
    model_config = ConfigDict(extra="allow")

    format: Literal["missions-audit/2"]
    lean_version: str
    lean_githash: str | None = None
    modules: list[str]
    declarations: list[AuditDecl]

    _answers: dict[str, set[str]] | None = PrivateAttr(default=None)

    def get(self, name: str) -> AuditDecl | None:
        return next((d for d in self.declarations if d.name == name), None)

    def answers(self, name: str) -> int:
        """How many different answers the audit gives for ``name`` (0 if none)."""
        if self._answers is None:
            self._answers = {}
            for decl in self.declarations:
                self._answers.setdefault(decl.name, set()).add(decl.model_dump_json())
        return len(self._answers.get(name, ()))


def parse_report(text: str, source: str = "audit output") -> AuditReport:
    """Validate the audit's JSON; anything malformed is bad input, reported on one line."""
    try:
        return AuditReport.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "document"
        raise InputError.single(
            source, 1, f"invalid audit report at {where}: {first['msg']}"
        ) from None


def build_request(analysis: Analysis) -> dict[str, object]:
    """Modules to import once, and every statement and proof the catalog names."""
    modules: list[str] = []
    declarations: list[dict[str, str | None]] = []
    for mission in analysis.missions:
        module = mission.file.mission.lean.module
        if module not in modules:
            modules.append(module)
        for status in mission.targets:
            target = status.target
            if target.statement:
                declarations.append({"name": target.statement, "statement": None})
            if target.proof:
                declarations.append({"name": target.proof, "statement": target.statement})
    return {
        "modules": modules,
        "declarations": declarations,
        "workspace": list(analysis.workspace.libraries),
    }


def non_standard_axioms(axioms: list[str]) -> list[str]:
    """Every axiom outside the three standard ones, by exact name (``._native.`` included)."""
    return [a for a in axioms if a not in STANDARD_AXIOMS]


@dataclass
class KernelVerdict:
    status: str
    reasons: list[str] = field(default_factory=list)


def kernel_verdict(status: TargetStatus, report: AuditReport) -> KernelVerdict | None:
    """The kernel's status for one target (None for external targets).

    It fails closed: ``proved`` needs every fact positively reported (a theorem, its type
    exactly the statement, not unsafe, not partial, its axioms listed and standard); a fact
    the audit left out, a field this tool does not know, or a name reported twice is a
    reason, never a pass.
    """
    target = status.target
    if target.kind == "external" or target.statement is None:
        return None
    statement = report.get(target.statement)
    if statement is None or not statement.exists:
        return KernelVerdict("missing", [f"kernel: {target.statement} does not exist"])
    reasons = _unread(report, statement)
    if statement.kind != "def" or statement.type_is_prop is not True:
        reasons.append(f"kernel: {target.statement} is not a Prop-valued definition")
    if statement.unsafe is not False or statement.partial is not False:
        reasons.append(f"kernel: {target.statement} is unsafe or partial, or not said not to be")
    if target.proof is None:
        return KernelVerdict("stated", [*reasons, "no proof named"])
    proof = report.get(target.proof)
    if proof is None or not proof.exists:
        return KernelVerdict("stated", [*reasons, f"kernel: {target.proof} does not exist"])
    reasons.extend(_unread(report, proof))
    if proof.kind != "theorem":
        reasons.append(f"kernel: {target.proof} is a {proof.kind}, not a theorem")
    if proof.type_is_statement is not True:
        reasons.append(
            f"kernel: the type of {target.proof} is not exactly {target.statement}"
            + (" (the audit could not compare them)" if proof.type_is_statement is None else "")
        )
    if proof.unsafe is not False or proof.partial is not False:
        reasons.append(f"kernel: {target.proof} is unsafe or partial, or not said not to be")
    if proof.axioms is None:
        reasons.append(f"kernel: the audit did not list the axioms of {target.proof}")
    elif extra := non_standard_axioms(proof.axioms):
        reasons.append(f"kernel: {target.proof} depends on {', '.join(extra)}")
    return KernelVerdict("stated" if reasons else "proved", reasons)


def _unread(report: AuditReport, decl: AuditDecl) -> list[str]:
    """What in the audit's answer about ``decl`` this tool cannot read: fields it does not
    know (in the declaration or the report) and two different answers for the name (two
    targets naming one statement get it reported twice, alike)."""
    reasons: list[str] = []
    unknown = sorted({*(decl.model_extra or {}), *(report.model_extra or {})})
    if unknown:
        reasons.append(
            f"kernel: the audit reports {', '.join(unknown)} for {decl.name}, which this tool "
            "does not understand"
        )
    if report.answers(decl.name) > 1:
        reasons.append(f"kernel: the audit gives two different answers for {decl.name}")
    return reasons


def recorded_fingerprints(
    decl: AuditDecl, report: AuditReport, statement_pin: str | None, mathlib: str | None
) -> dict[str, object] | None:
    """What ``sync --lean`` records for a statement (``None`` if it is not a statement)."""
    if not decl.exists or decl.value_fingerprint is None or decl.closure_fingerprint is None:
        return None
    return {
        "statement_pin": statement_pin,
        "lean": report.lean_version,
        "mathlib": mathlib,
        "value": decl.value_fingerprint,
        "closure": decl.closure_fingerprint,
        "definitions": dict(sorted((decl.definitions or {}).items())),
    }


def fingerprints_by_target(
    mission: MissionStatus, report: AuditReport, mathlib: str | None
) -> dict[str, dict[str, object]]:
    """Fresh fingerprints for every target of a mission whose statement the kernel has."""
    found: dict[str, dict[str, object]] = {}
    for status in mission.targets:
        statement = status.target.statement
        decl = report.get(statement) if statement else None
        if decl is None:
            continue
        fresh = recorded_fingerprints(decl, report, mission.pin.digest, mathlib)
        if fresh is not None:
            found[status.target.id] = fresh
    return found


def fingerprint_moves(recorded: KernelFingerprints, decl: AuditDecl) -> list[str]:
    """What moved between a recorded and a fresh statement fingerprint, in words."""
    moved: list[str] = []
    if decl.value_fingerprint != recorded.value:
        moved.append("its value")
    now = decl.definitions or {}
    before = recorded.definitions
    changed = sorted(n for n in set(now) & set(before) if now[n] != before[n])
    added = sorted(set(now) - set(recorded.definitions))
    removed = sorted(set(recorded.definitions) - set(now))
    if changed:
        moved.append("workspace definitions " + ", ".join(changed))
    if added:
        moved.append("newly reached " + ", ".join(added))
    if removed:
        moved.append("no longer reached " + ", ".join(removed))
    if decl.closure_fingerprint != recorded.closure and not moved:
        moved.append("its closure outside the workspace (Mathlib or Lean core)")
    return moved


def fingerprint_violations(
    analysis: Analysis, report: AuditReport, mathlib: str | None
) -> list[Violation]:
    """``kernel-fingerprint``: a recorded fingerprint moved while the statement pin did not.

    A record taken at another statement pin is stale, not a violation: the source moved and
    ``statement-pin`` speaks for that; ``sync --lean`` records the new meaning.
    """
    violations: list[Violation] = []
    for mission in analysis.missions:
        yaml_path = str(mission.file.path.relative_to(analysis.root))
        for status in mission.targets:
            target = status.target
            recorded = target.fingerprints
            decl = report.get(target.statement) if target.statement else None
            if recorded is None or decl is None or not decl.exists:
                continue
            if recorded.statement_pin is None or recorded.statement_pin != mission.pin.digest:
                status.reasons.append(
                    "kernel fingerprints were recorded at another statement pin; "
                    "`missions sync --lean` records the current ones"
                )
                continue
            moved = fingerprint_moves(recorded, decl)
            if not moved:
                continue
            then = f"Lean {recorded.lean}, Mathlib {(recorded.mathlib or '?')[:12]}"
            now = f"Lean {report.lean_version}, Mathlib {(mathlib or '?')[:12]}"
            violations.append(
                Violation(
                    "kernel-fingerprint",
                    f"what {target.statement} means to the kernel moved while its statement "
                    f"pin did not: {'; '.join(moved)} (recorded with {then}, now {now}); "
                    "review the change, then record it with `missions sync --lean`",
                    yaml_path,
                    mission.file.target_line(target.id, "fingerprints"),
                    mission.id,
                    target.id,
                )
            )
    return violations


@dataclass(frozen=True)
class DependencyMismatch:
    """``depends_on`` against what a proof uses: both directions, sorted."""

    declared_unused: list[str]
    used_undeclared: list[str]

    @property
    def ok(self) -> bool:
        return not self.declared_unused and not self.used_undeclared


def compare_dependencies(
    declared: Iterable[str], used: Iterable[str], external: Iterable[str] = ()
) -> DependencyMismatch:
    """Compare declared dependencies with used ones (target ids of one mission).

    External targets cannot be used by a workspace proof, so declaring one is never "unused".
    The ``used`` set may come from the kernel (exact) or from the source reach, a superset of
    the truth: then ``declared_unused`` is certain and ``used_undeclared`` only possible.
    """
    declared_set, used_set, external_set = set(declared), set(used), set(external)
    return DependencyMismatch(
        declared_unused=sorted(declared_set - used_set - external_set),
        used_undeclared=sorted(used_set - declared_set),
    )


def used_targets(mission_file: MissionFile, target_id: str, uses: Iterable[str]) -> list[str]:
    """Ids of the mission's other targets whose proof is among ``uses`` (constant names)."""
    proofs = {t.proof: t.id for t in mission_file.mission.targets if t.proof and t.id != target_id}
    return sorted({proofs[name] for name in uses if name in proofs})


def dependency_violations(analysis: Analysis, report: AuditReport) -> list[Violation]:
    """``dependency-mismatch``: ``depends_on`` is not what the proof uses.

    For a proof the kernel calls proved, both directions count. For an unfinished proof only
    a used but undeclared target counts: what it will use is not known yet. Call after
    :func:`apply_kernel` (it reads the kernel's statuses).
    """
    violations: list[Violation] = []
    for mission in analysis.missions:
        info = mission.file.mission
        external = [t.id for t in info.targets if t.kind == "external"]
        yaml_path = str(mission.file.path.relative_to(analysis.root))
        for status in mission.targets:
            target = status.target
            decl = report.get(target.proof) if target.proof else None
            if decl is None or not decl.exists or decl.uses is None:
                continue
            used = used_targets(mission.file, target.id, decl.uses)
            result = compare_dependencies(target.depends_on, used, external)
            finished = status.evidence == "kernel" and status.status == "proved"
            if result.used_undeclared or (finished and result.declared_unused):
                declared = ", ".join(target.depends_on) or "nothing"
                uses_text = ", ".join(used) or "no other target"
                problems = []
                if finished and result.declared_unused:
                    problems.append(f"declared but unused: {', '.join(result.declared_unused)}")
                if result.used_undeclared:
                    problems.append(f"used but undeclared: {', '.join(result.used_undeclared)}")
                violations.append(
                    Violation(
                        "dependency-mismatch",
                        f"depends_on declares [{declared}]; the proof {target.proof} uses "
                        f"[{uses_text}] ({'; '.join(problems)})",
                        yaml_path,
                        mission.file.target_line(target.id, "depends_on"),
                        mission.id,
                        target.id,
                    )
                )
    return violations


def kernel_checks(analysis: Analysis, report: AuditReport, mathlib: str | None) -> list[Violation]:
    """The gate rules that need the kernel besides the verdicts (after :func:`apply_kernel`)."""
    return [
        *fingerprint_violations(analysis, report, mathlib),
        *dependency_violations(analysis, report),
    ]


def audit_binary(root: Path) -> Path:
    return root / AUDIT_BINARY


def run_audit(root: Path, request: dict[str, object]) -> AuditReport:
    """Build the audit if needed and run it once for the whole request."""
    lake = lake_executable()
    if lake is None:
        raise InputError.single(
            root / "lakefile.lean", 1, "--lean needs lake on PATH (see `missions doctor`)"
        )
    modules = [str(m) for m in request["modules"]]  # type: ignore[attr-defined]
    code, lines = run_lake(root, ["build", "--no-ansi", *build_targets(modules), "audit"])
    if code != 0:
        tail = " ".join(line.strip() for line in lines[-3:])
        raise InputError.single(
            root / "lakefile.lean", 1, f"building the workspace and the audit failed: {tail}"
        )
    with tempfile.TemporaryDirectory(prefix="missions-audit-") as tmp:
        request_path = Path(tmp) / "request.json"
        out_path = Path(tmp) / "report.json"
        request_path.write_text(json.dumps(request), encoding="utf-8")
        done = subprocess.run(
            [
                lake,
                "env",
                str(audit_binary(root)),
                "--request",
                str(request_path),
                "--out",
                str(out_path),
            ],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0 or not out_path.exists():
            message = (done.stderr or done.stdout).strip().splitlines()
            raise InputError.single(
                root / "Audit.lean", 1, "audit failed: " + (message[-1] if message else "no output")
            )
        return parse_report(out_path.read_text(encoding="utf-8"), str(out_path))
