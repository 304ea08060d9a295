"""The verdict record per target, and kernel ``proved`` decided from every checker.

The audit is answered here by a constructed report (no Lean); leanchecker and nanoda records
and Comparator results are written as the workflow writes them. Expectations come from the
workspace itself (which targets the source scan proves), never from a list of ids. The core
property, killed by mutation below: a checker that did not run, ran elsewhere or failed never
lets a target be kernel ``proved`` when the project requires it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import audit_answer, copy_repo_workspace
from missions.catalog import load_catalog
from missions.checks import (
    CheckRecord,
    KernelEvidence,
    apply_kernel,
    load_evidence,
    read_records,
)
from missions.cli import app
from missions.comparator import ACCEPTED, KERNEL_ACCEPTS, NANODA_ACCEPTS, read_results, write_export
from missions.errors import InputError
from missions.kernel import AuditReport, build_request, parse_report
from missions.lean.workspace import load_workspace
from missions.settings import KernelSettings, load_settings
from missions.status import Analysis, TargetStatus, analyze
from missions.verdicts import CHECKERS

ALL = KernelSettings(require=("audit", "leanchecker", "comparator", "nanoda"))
HEAD = "a" * 40


def _analysis(root: Path) -> Analysis:
    return analyze(load_catalog(root), load_workspace(root))


def _clean_audit(analysis: Analysis) -> AuditReport:
    return parse_report(audit_answer(build_request(analysis)))


def _record(checker: str, code: int = 0, modules: list[str] | None = None) -> CheckRecord:
    return CheckRecord(
        format="missions-check/1",
        checker=checker,  # type: ignore[arg-type]
        modules=modules or ["Formal"],
        tool=f"{checker} (test)",
        workspace_commit=HEAD,
        command=f"{checker} Formal",
        exit_code=code,
    )


def _accepted_comparator(analysis: Analysis, out: Path) -> Path:
    """Comparator's results as the workflow leaves them: every runnable mission accepted."""
    write_export(analysis, out)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["runnable"], "the workspace claims no proved target: nothing to compare"
    for mission in manifest["runnable"]:
        described = out / mission / "mission.json"
        data = json.loads(described.read_text(encoding="utf-8"))
        described.write_text(json.dumps({**data, "workspace_commit": HEAD}), encoding="utf-8")
        (out / mission / "exit-code").write_text("0\n", encoding="utf-8")
        lines = [KERNEL_ACCEPTS, NANODA_ACCEPTS, ACCEPTED]
        (out / mission / "comparator.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def _claimed(analysis: Analysis) -> list[TargetStatus]:
    """Targets the source scan proves and the YAML claims proved: the ones Comparator gets."""
    return [
        t
        for m in analysis.missions
        for t in m.targets
        if t.status == "proved" and t.target.status == "proved" and t.target.kind != "external"
    ]


def _full_evidence(analysis: Analysis, tmp_path: Path) -> KernelEvidence:
    return KernelEvidence(
        settings=ALL,
        records={"leanchecker": _record("leanchecker"), "nanoda": _record("nanoda")},
        comparator=read_results(_accepted_comparator(analysis, tmp_path / "cmp")),
        head=HEAD,
    )


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_repo_workspace(tmp_path)


def test_every_checker_passing_gives_kernel_proved(root: Path, tmp_path: Path) -> None:
    analysis = _analysis(root)
    claimed = _claimed(analysis)
    assert claimed
    evidence = _full_evidence(analysis, tmp_path)
    violations = apply_kernel(analysis, _clean_audit(analysis), evidence)
    assert [v for v in violations if v.rule == "evidence-disagreement"] == []
    for status in claimed:
        assert status.status == "proved" and status.evidence == "kernel"
        assert status.checks is not None
        assert {c: status.checks[c].verdict for c in CHECKERS} == dict.fromkeys(CHECKERS, "passed")


@pytest.mark.parametrize("checker", ["leanchecker", "nanoda", "comparator"])
@pytest.mark.parametrize(
    "how", ["missing", "other commit", "not covering", "failed", "no checkout"]
)
def test_a_required_checker_that_did_not_pass_blocks_proved(
    root: Path, tmp_path: Path, checker: str, how: str
) -> None:
    """The mutation: take one checker's evidence away (or spoil it); every claimed target
    loses ``proved`` and the gate reports the disagreement with the source scan."""
    analysis = _analysis(root)
    claimed = _claimed(analysis)
    evidence = _full_evidence(analysis, tmp_path)
    expected = "failed" if how == "failed" else "not run"
    if how == "no checkout":  # nothing to match a record or a result against
        evidence.head = None
    elif checker == "comparator":
        assert evidence.comparator is not None
        if how == "missing":
            evidence.comparator = None
        else:
            for result in evidence.comparator.values():
                if how == "other commit":
                    result.workspace_commit = "b" * 40
                elif how == "not covering":  # another configuration than today's claims
                    result.config = {**(result.config or {}), "theorem_names": []}
                else:
                    result.log = "uncaught exception: kernel rejected the solution"
                    result.exit_code = 1
    elif how == "missing":
        del evidence.records[checker]
    elif how == "other commit":
        evidence.head = "b" * 40
        expected = "not run"
    elif how == "not covering":
        evidence.records[checker] = _record(checker, modules=["Formal.Common"])
    else:
        evidence.records[checker] = _record(checker, code=1)
    violations = apply_kernel(analysis, _clean_audit(analysis), evidence)
    disagreements = {(v.mission, v.target) for v in violations if v.rule == "evidence-disagreement"}
    for status in claimed:
        assert status.checks is not None
        assert status.checks[checker].verdict == expected, status.checks[checker]
        assert status.status != "proved", status.target.id
        assert any(checker in reason for reason in status.reasons), status.reasons
        assert (status.mission, status.target.id) in disagreements


def test_a_failed_checker_blocks_proved_even_when_not_required(root: Path, tmp_path: Path) -> None:
    analysis = _analysis(root)
    evidence = _full_evidence(analysis, tmp_path)
    evidence.settings = KernelSettings()  # the audit only
    evidence.records["nanoda"] = _record("nanoda", code=101)
    apply_kernel(analysis, _clean_audit(analysis), evidence)
    for status in _claimed(analysis):
        assert status.status == "stated"
        assert any("nanoda failed" in r for r in status.reasons)


def test_the_audit_alone_decides_when_only_the_audit_is_required(root: Path) -> None:
    analysis = _analysis(root)
    apply_kernel(analysis, _clean_audit(analysis), KernelEvidence())
    for status in _claimed(analysis):
        assert status.status == "proved"
        assert status.checks is not None
        assert status.checks["leanchecker"].verdict == "not run"  # never "passed"


def test_an_uncomparable_proof_type_is_a_failed_audit(root: Path, tmp_path: Path) -> None:
    analysis = _analysis(root)
    audit = _clean_audit(analysis)
    target = _claimed(analysis)[0]
    data = audit.model_dump(mode="json", by_alias=True)
    for decl in data["declarations"]:
        if decl["name"] == target.target.proof:
            decl["type_is_statement"] = None
    apply_kernel(analysis, parse_report(json.dumps(data)), _full_evidence(analysis, tmp_path))
    assert target.checks is not None and target.checks["audit"].verdict == "failed"
    assert target.status == "stated"


def test_no_record_is_passed_by_default(root: Path) -> None:
    """Source-only answers carry the whole record: the source's verdict, the rest not run."""
    result = CliRunner().invoke(app, ["status", "--json", "--root", str(root)])
    assert result.exit_code == 0, result.output
    targets = [t for m in json.loads(result.stdout)["missions"] for t in m["targets"]]
    for target in targets:
        assert list(target["checks"]) == list(CHECKERS)
        for checker in CHECKERS[1:]:
            assert target["checks"][checker]["verdict"] == "not run"
        if target["kind"] != "external":
            assert (target["checks"]["source"]["verdict"] == "passed") == (
                target["status"] == "proved"
            )


# ---------------------------------------------------------------- records and settings


def _write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


def test_records_are_read_and_other_files_ignored(tmp_path: Path) -> None:
    _write(tmp_path / "leanchecker.json", _record("leanchecker").model_dump())
    _write(tmp_path / "manifest.json", {"format": "missions-comparator/1"})
    assert set(read_records(tmp_path)) == {"leanchecker"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"verdict": "passed"}, "extra"),  # a field the tool does not know
        ({"exit_code": "zero"}, "exit_code"),
        ({"modules": []}, "modules"),
        ({"checker": "audit"}, "checker"),
    ],
)
def test_a_record_the_tool_cannot_read_is_an_input_error(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    _write(tmp_path / "x.json", {**_record("nanoda").model_dump(), **change})
    with pytest.raises(InputError) as caught:
        read_records(tmp_path)
    (problem,) = caught.value.problems
    assert problem.path.endswith("x.json") and message in problem.message.lower()


def test_two_records_for_one_checker_are_an_input_error(tmp_path: Path) -> None:
    _write(tmp_path / "a.json", _record("nanoda").model_dump())
    _write(tmp_path / "b.json", _record("nanoda", code=1).model_dump())
    with pytest.raises(InputError, match="second record"):
        read_records(tmp_path)


def test_settings_default_to_the_audit(tmp_path: Path) -> None:
    assert load_settings(tmp_path).kernel.require == ("audit",)
    _write(tmp_path / "missions.yaml", "kernel:\n  require: [nanoda]\n")
    assert load_settings(tmp_path).kernel.require == ("audit", "nanoda")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("kernel:\n  require: [audit, lean-checker]\n", 2),
        ("kernel:\n  requires: [audit]\n", 2),
        ("kernel:\n  require: [audit, audit]\n", 2),
        ("colour: true\n", 1),
    ],
)
def test_bad_settings_name_their_line(tmp_path: Path, text: str, line: int) -> None:
    _write(tmp_path / "missions.yaml", text)
    with pytest.raises(InputError) as caught:
        load_settings(tmp_path)
    assert {p.line for p in caught.value.problems} == {line}
    assert all(p.path.endswith("missions.yaml") for p in caught.value.problems)


def test_check_names_a_bad_settings_file_and_exits_2(root: Path) -> None:
    (root / "missions.yaml").write_text("kernel:\n  require: [everything]\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["check", "--root", str(root)])
    assert result.exit_code == 2
    assert "missions.yaml:2:" in result.stderr


def test_checks_without_lean_is_a_usage_error(root: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["status", "--checks", str(tmp_path), "--root", str(root)])
    assert result.exit_code == 2
    assert "--lean" in result.stderr


def test_load_evidence_reads_records_and_comparator_from_one_directory(
    root: Path, tmp_path: Path
) -> None:
    checks = tmp_path / "kernel-checks"
    _accepted_comparator(_analysis(root), checks / "comparator")
    _write(checks / "nanoda.json", _record("nanoda").model_dump())
    (root / "missions.yaml").write_text("kernel:\n  require: [comparator]\n", encoding="utf-8")
    evidence = load_evidence(root, checks, None)
    assert set(evidence.records) == {"nanoda"}
    assert evidence.comparator
    assert evidence.settings.require == ("audit", "comparator")


def test_the_dashboard_shows_every_checker_and_never_colours_not_run_as_passed(
    root: Path, tmp_path: Path
) -> None:
    from missions.gate import run_gate
    from missions.html import write_dashboard

    analysis = _analysis(root)
    mission = _claimed(analysis)[0].mission
    evidence = _full_evidence(analysis, tmp_path)
    del evidence.records["nanoda"]
    apply_kernel(analysis, _clean_audit(analysis), evidence)
    out = tmp_path / "site"
    write_dashboard(analysis, run_gate(analysis), out, witnesses={})
    page = next(p for p in out.rglob("*.html") if mission in p.name).read_text(encoding="utf-8")
    found = re.findall(r'<span class="chip (\w+)"[^>]*>([a-z]+: [a-z ]+)</span>', page)
    by_text = {text: cls for cls, text in found}
    assert by_text.get("nanoda: not run") == "neutral", found
    assert by_text.get("leanchecker: passed") == "pass", found
    assert by_text.get("comparator: passed") == "pass", found


def test_a_bad_settings_file_is_reported_even_after_a_cached_answer(root: Path) -> None:
    """The fast path answers only what a full run would: a full run refuses a bad
    missions.yaml, so the stored answer must not outlive a change to it."""
    import subprocess
    import sys

    def status() -> subprocess.CompletedProcess[str]:
        entry = "from missions.fastpath import main; main()"
        return subprocess.run(
            [sys.executable, "-c", entry, "status", "--json", "--root", str(root)],
            capture_output=True,
            text=True,
            timeout=300,
        )

    assert status().returncode == 0
    assert status().returncode == 0  # answered from the store
    (root / "missions.yaml").write_text("kernel:\n  require: [all]\n", encoding="utf-8")
    done = status()
    assert done.returncode == 2 and "missions.yaml:2:" in done.stderr, done.stderr
