"""Kernel evidence: audit reports (constructed) turned into statuses, and --lean end to end.

Without a Lean toolchain the audit executable cannot run here; `fake_lake.py` stands in for
`lake` and answers audit requests from a scenario, so the whole path from request to gate is
exercised. Tests that need a real `lake` are marked and skip with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import audit_answer, copy_repo_workspace
from missions.catalog import load_catalog
from missions.checks import apply_kernel
from missions.cli import app
from missions.errors import InputError
from missions.kernel import (
    AuditReport,
    build_request,
    kernel_verdict,
    non_standard_axioms,
    parse_report,
)
from missions.lean.workspace import load_workspace
from missions.pins import proof_closure_digest
from missions.status import analyze

FAKE_LAKE = Path(__file__).parent / "fake_lake.py"


#: an override that leaves the field out of the audit's answer
_OMIT = object()


def report(**overrides: dict[str, object]) -> AuditReport:
    declarations = []
    for name, statement in (("Formal.X.Goal", None), ("Formal.X.goal", "Formal.X.Goal")):
        decl: dict[str, object] = {
            "name": name,
            "exists": True,
            "kind": "theorem" if statement else "def",
            "type_is_prop": statement is None,
            "axioms": ["propext", "Quot.sound"] if statement else [],
            "unsafe": False,
            "partial": False,
            "statement": statement,
            "type_is_statement": True if statement else None,
        }
        decl.update(overrides.get(name, {}))
        declarations.append({k: v for k, v in decl.items() if v is not _OMIT})
    return parse_report(
        json.dumps(
            {
                "format": "missions-audit/2",
                "lean_version": "4.30.0",
                "modules": ["Formal.X"],
                "declarations": declarations,
            }
        )
    )


class _Target:
    kind = "goal"
    statement = "Formal.X.Goal"
    proof = "Formal.X.goal"


class _Status:
    target = _Target()


def verdict(**overrides: dict[str, object]) -> tuple[str, list[str]]:
    result = kernel_verdict(_Status(), report(**overrides))  # type: ignore[arg-type]
    assert result is not None
    return result.status, result.reasons


def test_standard_axioms_only_is_proved() -> None:
    assert verdict() == ("proved", [])


@pytest.mark.parametrize(
    ("axioms", "culprit"),
    [
        (["propext", "sorryAx"], "sorryAx"),
        (["Lean.ofReduceBool", "Lean.trustCompiler"], "Lean.ofReduceBool"),
        (["Formal.X.goal._native.native_decide.ax_1_1"], "._native."),
        (["Formal.X.cheat"], "Formal.X.cheat"),
        (["Classical.choice.spoof"], "Classical.choice.spoof"),  # exact names, no prefixes
    ],
)
def test_any_non_standard_axiom_blocks(axioms: list[str], culprit: str) -> None:
    status, reasons = verdict(**{"Formal.X.goal": {"axioms": axioms}})
    assert status == "stated"
    assert any(culprit in r for r in reasons)
    assert non_standard_axioms(["propext", "Classical.choice", "Quot.sound"]) == []


def test_type_mismatch_kind_and_missing() -> None:
    assert verdict(**{"Formal.X.goal": {"type_is_statement": False}})[0] == "stated"
    status, reasons = verdict(**{"Formal.X.goal": {"kind": "axiom", "axioms": ["Formal.X.goal"]}})
    assert status == "stated" and any("is a axiom" in r for r in reasons)
    assert verdict(**{"Formal.X.goal": {"exists": False}})[0] == "stated"
    assert verdict(**{"Formal.X.Goal": {"exists": False}})[0] == "missing"
    assert verdict(**{"Formal.X.Goal": {"type_is_prop": False}})[0] == "stated"
    assert verdict(**{"Formal.X.goal": {"unsafe": True}})[0] == "stated"


@pytest.mark.parametrize(
    ("name", "fields", "why"),
    [
        # the kernel tier fails closed: what the audit did not say is never a pass
        ("Formal.X.goal", {"type_is_statement": None}, "could not compare"),
        ("Formal.X.goal", {"partial": True}, "unsafe or partial"),
        ("Formal.X.Goal", {"partial": True}, "unsafe or partial"),
        ("Formal.X.Goal", {"unsafe": True}, "unsafe or partial"),
        ("Formal.X.goal", {"unsafe": _OMIT}, "not said not to be"),
        ("Formal.X.goal", {"partial": _OMIT}, "not said not to be"),
        ("Formal.X.Goal", {"unsafe": _OMIT}, "not said not to be"),
        ("Formal.X.goal", {"axioms": _OMIT}, "did not list the axioms"),
        ("Formal.X.goal", {"kind": _OMIT}, "not a theorem"),
        ("Formal.X.goal", {"type_is_statement": _OMIT}, "could not compare"),
        ("Formal.X.Goal", {"type_is_prop": _OMIT}, "not a Prop-valued definition"),
        ("Formal.X.goal", {"uses_sorry": True}, "does not understand"),
        ("Formal.X.Goal", {"opaque_to_kernel": True}, "does not understand"),
    ],
)
def test_what_the_audit_leaves_out_or_cannot_say_is_never_proved(
    name: str, fields: dict[str, object], why: str
) -> None:
    status, reasons = verdict(**{name: fields})
    assert status == "stated"
    assert any(why in r for r in reasons), reasons


def test_a_name_reported_twice_or_an_unknown_report_field_is_never_proved() -> None:
    """Two targets naming one statement get it reported twice, alike: that is fine. Two
    different answers for one name are not."""
    base = json.loads(report().model_dump_json(exclude_none=True))
    alike = {**base, "declarations": [*base["declarations"], base["declarations"][0]]}
    result = kernel_verdict(_Status(), parse_report(json.dumps(alike)))  # type: ignore[arg-type]
    assert result is not None and result.status == "proved"
    again = {**base["declarations"][1], "axioms": ["sorryAx"]}
    twice = {**base, "declarations": [*base["declarations"], again]}
    unknown = {**base, "checked_by": "somebody"}
    for document, why in ((twice, "two different answers"), (unknown, "checked_by")):
        result = kernel_verdict(_Status(), parse_report(json.dumps(document)))  # type: ignore[arg-type]
        assert result is not None and result.status == "stated"
        assert any(why in r for r in result.reasons), result.reasons


def test_malformed_report_is_one_line_of_bad_input() -> None:
    with pytest.raises(InputError, match="invalid audit report at format"):
        parse_report('{"format": "other", "lean_version": "4", "modules": [], "declarations": []}')
    with pytest.raises(InputError, match="invalid audit report"):
        parse_report("not json")


def test_disagreement_kernel_wins_and_is_reported(tmp_path: Path) -> None:
    root = copy_repo_workspace(tmp_path)
    analysis = analyze(load_catalog(root), load_workspace(root))
    request = build_request(analysis)
    assert "Formal.MAE" in request["modules"]  # type: ignore[operator]
    mae = next(m for m in analysis.missions if m.id == "mae-normalized-pixel")
    assert {t.status for t in mae.targets} == {"proved"}
    audit = parse_report(audit_answer(request, {"Formal.MAE.goal": ["sorryAx"]}))
    violations = apply_kernel(analysis, audit)
    assert [(v.rule, v.mission, v.target) for v in violations] == [
        ("evidence-disagreement", "mae-normalized-pixel", "goal")
    ]
    goal = next(t for t in mae.targets if t.target.id == "goal")
    assert (goal.status, goal.evidence) == ("stated", "kernel")
    assert any("source scan said proved" in r for r in goal.reasons)
    # the conservative direction (source stated, kernel proved) is no violation
    lpft = next(m for m in analysis.missions if m.id == "lp-ft")
    assert lpft.targets
    assert all(t.evidence == "kernel" and t.status == "proved" for t in lpft.targets)


def _fake_lake_path(tmp_path: Path) -> str:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    lake = bin_dir / "lake"
    lake.write_text(f"#!{sys.executable}\n" + FAKE_LAKE.read_text(encoding="utf-8"))
    lake.chmod(lake.stat().st_mode | stat.S_IEXEC)
    return f"{bin_dir}{os.pathsep}{os.environ['PATH']}"


def test_check_lean_end_to_end_with_a_stand_in_lake(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_repo_workspace(tmp_path)
    monkeypatch.setenv("PATH", _fake_lake_path(tmp_path))
    monkeypatch.setenv("FAKE_AUDIT", json.dumps({"Formal.MAE.goal": {"axioms": ["sorryAx"]}}))
    runner = CliRunner()
    result = runner.invoke(app, ["check", "--lean", "--json", "--root", str(root)])
    assert result.exit_code == 1, result.stderr
    rules = {(v["rule"], v["target"]) for v in json.loads(result.stdout)["violations"]}
    assert ("evidence-disagreement", "goal") in rules
    result = runner.invoke(app, ["status", "--lean", "--json", "--root", str(root)])
    data = json.loads(result.stdout)
    assert data["evidence"] == "kernel"
    targets = [t for m in data["missions"] for t in m["targets"]]
    assert targets
    for target in targets:  # every workspace target is decided by the kernel
        assert target["evidence"] == (None if target["status"] == "external" else "kernel")


def test_sync_lean_records_what_checked_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_repo_workspace(tmp_path)
    monkeypatch.setenv("PATH", _fake_lake_path(tmp_path))
    monkeypatch.setenv("FAKE_AUDIT", "{}")
    runner = CliRunner()
    assert runner.invoke(app, ["sync", "--lean", "--root", str(root)]).exit_code == 0
    mission = load_catalog(root, use_cache=False).get("lp-ft").mission
    goal = mission.target("goal")
    assert (goal.status, goal.evidence) == ("proved", "kernel")
    assert goal.checked is not None and goal.checked.lean == "4.30.0"
    assert goal.checked.mathlib == "c5ea00351c28e24afc9f0f84379aa41082b1188f"
    # the verdict covers the proof's import closure as the kernel saw it
    workspace = load_workspace(root, use_cache=False)
    assert goal.checked.closure == proof_closure_digest(workspace, "Formal.LPFT.Proofs")

    def drifting() -> set[str]:
        result = runner.invoke(app, ["check", "--json", "--root", str(root)])
        violations = json.loads(result.stdout)["violations"]
        return {v["mission"] for v in violations if v["rule"] == "status-drift"}

    # a later source-only check accepts the recorded kernel verdicts, even where the source
    # scan says stated (sorry proofs the stand-in audit called proved): nothing moved
    assert drifting() == set()
    proofs = root / "Formal/LPFT/Proofs.lean"
    proofs.write_text(
        proofs.read_text(encoding="utf-8") + "\ntheorem edited_later : True := trivial\n",
        encoding="utf-8",
    )
    assert drifting() == {"lp-ft"}  # the kernel never saw this closure


def test_build_groups_diagnostics_and_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_repo_workspace(tmp_path)
    monkeypatch.setenv("PATH", _fake_lake_path(tmp_path))
    monkeypatch.setenv(
        "FAKE_LAKE_OUTPUT", str(Path(__file__).parent / "fixtures/lake/build-failed.txt")
    )
    monkeypatch.setenv("FAKE_LAKE_RC", "1")
    result = CliRunner().invoke(
        app, ["build", "mae-normalized-pixel", "lp-ft", "--root", str(root)]
    )
    assert result.exit_code == 1
    out = result.stdout
    assert out.index("lp-ft") < out.index("mae-normalized-pixel")
    assert "57:5 error: unsolved goals" in out
    assert "FAILED (lake exit code 1)" in out


def test_build_without_lake_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_repo_workspace(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    result = CliRunner().invoke(app, ["build", "--root", str(root)])
    assert result.exit_code == 2 and "lake is not on PATH" in result.stderr


@pytest.mark.lake
@pytest.mark.skipif(shutil.which("lake") is None, reason="needs a Lean toolchain (lake on PATH)")
def test_real_audit_on_the_workspace() -> None:
    from conftest import REPO

    analysis = analyze(load_catalog(REPO), load_workspace(REPO))
    from missions.kernel import run_audit

    audit = run_audit(REPO, build_request(analysis))
    assert audit.lean_version.startswith("4.30")
    assert audit.declarations and all(d.exists for d in audit.declarations)


def test_kernel_record_stands_until_its_proof_closure_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from conftest import git, init_repo

    root = copy_repo_workspace(tmp_path)
    init_repo(root, "workspace")
    monkeypatch.setenv("PATH", _fake_lake_path(tmp_path))
    monkeypatch.setenv("FAKE_AUDIT", "{}")
    runner = CliRunner()
    assert runner.invoke(app, ["sync", "--lean", "lp-ft", "--root", str(root)]).exit_code == 0
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "record the kernel check")

    def drifting() -> set[str]:
        result = runner.invoke(app, ["check", "--json", "lp-ft", "--root", str(root)])
        violations = json.loads(result.stdout)["violations"]
        return {v["target"] for v in violations if v["rule"] == "status-drift"}

    assert drifting() == set()  # the scan says stated, but nothing the kernel saw moved
    proofs = root / "Formal/LPFT/Proofs.lean"
    text = proofs.read_text(encoding="utf-8")
    proofs.write_text(text + "\n-- a comment changes nothing the kernel checks\n", "utf-8")
    assert drifting() == set()
    proofs.write_text(text + "\ntheorem edited_later : True := trivial\n", encoding="utf-8")
    assert "goal" in drifting()  # an edit invalidates the record
    bumped = {"version": "1.1.0", "packages": [{"name": "mathlib", "rev": "0" * 40}]}
    (root / "lake-manifest.json").write_text(json.dumps(bumped), encoding="utf-8")
    proofs.write_text(text, encoding="utf-8")
    # the same files against another Mathlib are not what the kernel checked either
    result = runner.invoke(app, ["check", "--json", "lp-ft", "--root", str(root)])
    stale = [v["message"] for v in json.loads(result.stdout)["violations"] if v["target"] == "goal"]
    assert any("checked against Mathlib c5ea00351c28" in m for m in stale), stale
