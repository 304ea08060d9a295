"""Kernel evidence: what the Lean audit executable says about every named declaration.

The audit (``Audit.lean``, built as ``lake build audit``) imports the workspace once and
reports, per declaration, whether it exists, its kind, type fingerprints, the axioms it
reaches and whether a proof's type is exactly its statement constant (format:
``docs/audit-format.md``). This module writes its request, runs it, validates its answer and
turns it into statuses with evidence ``kernel``: a target is ``proved`` only if its proof is a
theorem whose type is exactly the statement and whose axioms are within the standard three,
compared by exact name. Where the source scan and the kernel disagree, the kernel wins and
the disagreement is reported.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from missions.errors import InputError
from missions.lean.lake import build_targets, lake_executable, run_lake
from missions.status import STANDARD_AXIOMS, Analysis, TargetStatus, Violation

AUDIT_FORMAT = "missions-audit/1"
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
    axioms: list[str] = []
    unsafe: bool = False
    partial: bool = False
    statement: str | None = None
    type_is_statement: bool | None = None


class AuditReport(BaseModel):
    model_config = ConfigDict(extra="allow")

    format: Literal["missions-audit/1"]
    lean_version: str
    lean_githash: str | None = None
    modules: list[str]
    declarations: list[AuditDecl]

    def get(self, name: str) -> AuditDecl | None:
        return next((d for d in self.declarations if d.name == name), None)


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
    return {"modules": modules, "declarations": declarations}


def non_standard_axioms(axioms: list[str]) -> list[str]:
    """Every axiom outside the three standard ones, by exact name (``._native.`` included)."""
    return [a for a in axioms if a not in STANDARD_AXIOMS]


@dataclass
class KernelVerdict:
    status: str
    reasons: list[str] = field(default_factory=list)


def kernel_verdict(status: TargetStatus, report: AuditReport) -> KernelVerdict | None:
    """The kernel's status for one target (None for external targets)."""
    target = status.target
    if target.kind == "external" or target.statement is None:
        return None
    statement = report.get(target.statement)
    if statement is None or not statement.exists:
        return KernelVerdict("missing", [f"kernel: {target.statement} does not exist"])
    reasons: list[str] = []
    if statement.kind != "def" or statement.type_is_prop is not True:
        reasons.append(f"kernel: {target.statement} is not a Prop-valued definition")
    if statement.unsafe or statement.partial:
        reasons.append(f"kernel: {target.statement} is unsafe or partial")
    if target.proof is None:
        return KernelVerdict("stated", [*reasons, "no proof named"])
    proof = report.get(target.proof)
    if proof is None or not proof.exists:
        return KernelVerdict("stated", [*reasons, f"kernel: {target.proof} does not exist"])
    if proof.kind != "theorem":
        reasons.append(f"kernel: {target.proof} is a {proof.kind}, not a theorem")
    if proof.type_is_statement is not True:
        reasons.append(f"kernel: the type of {target.proof} is not exactly {target.statement}")
    if proof.unsafe or proof.partial:
        reasons.append(f"kernel: {target.proof} is unsafe or partial")
    extra = non_standard_axioms(proof.axioms)
    if extra:
        reasons.append(f"kernel: {target.proof} depends on {', '.join(extra)}")
    return KernelVerdict("stated" if reasons else "proved", reasons)


def apply_kernel(analysis: Analysis, report: AuditReport) -> list[Violation]:
    """Replace source statuses by kernel ones; return a violation per unsafe disagreement.

    A target the source scan called ``proved`` but the kernel does not is a gate violation
    (``evidence-disagreement``): either the proof does not compile or the scanner missed
    something. The reverse (a conservative scan) is only reported in the reasons.
    """
    violations: list[Violation] = []
    root = analysis.root
    for mission in analysis.missions:
        yaml_path = str(mission.file.path.relative_to(root))
        for status in mission.targets:
            verdict = kernel_verdict(status, report)
            if verdict is None:
                continue
            before = status.status
            if before == "proved" and verdict.status != "proved":
                violations.append(
                    Violation(
                        "evidence-disagreement",
                        "source scan says proved, the kernel does not: "
                        + "; ".join(verdict.reasons),
                        yaml_path,
                        mission.file.target_line(status.target.id),
                        mission.id,
                        status.target.id,
                    )
                )
            notes = []
            if before != verdict.status:
                notes.append(f"source scan said {before}; the kernel decides")
            status.status = verdict.status  # type: ignore[assignment]
            status.evidence = "kernel"
            status.reasons = [*verdict.reasons, *notes]
    return violations


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
