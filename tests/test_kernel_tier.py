"""The kernel tier on a constructed workspace: fingerprints, true dependencies, Comparator
configurations and verdicts, the frontier, and the manifest pins.

No Lean runs here. Audit answers come from the stand-in `lake` (tests/fake_lake.py) with
per-test overrides; Comparator logs are constructed from the lines Comparator v4.30.0 prints
(its `Main.lean`); all of it is labelled constructed, none of it is a transcript.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import xmlschema
from typer.testing import CliRunner

from conftest import REPO
from missions.catalog import load_catalog
from missions.cli import app
from missions.kernel import compare_dependencies
from missions.toolchain import INHERITED_PACKAGES, check_manifest

FAKE_LAKE = Path(__file__).parent / "fake_lake.py"
runner = CliRunner()

FILES = {
    "Formal/Demo/Defs.lean": """\
        import Mathlib

        /-! Model. -/
        namespace Formal.Demo

        def two : ℕ := 2

        end Formal.Demo
        """,
    "Formal/Demo/Statements.lean": """\
        import Formal.Demo.Defs

        /-! Statements. -/
        namespace Formal.Demo

        /-- Two and two. -/
        def Goal : Prop := two + two = 4

        /-- Two is two. -/
        def A : Prop := two = 2

        /-- Two is not three. -/
        def B : Prop := two ≠ 3

        end Formal.Demo
        """,
    "Formal/Demo/Proofs.lean": """\
        import Formal.Demo.Statements

        /-! Proofs. -/
        namespace Formal.Demo

        theorem a : A := by
          unfold A two
          rfl

        theorem b : B := by
          sorry

        theorem goal : Goal := by
          sorry

        end Formal.Demo
        """,
}

YAML = """\
id: demo
title: "Demo"
category: example
summary: >
  A constructed mission.
sources:
  - key: src
    citation: "A. Author. A paper. 2024."
    locators: ["Thm. 1, p. 2"]
lean:
  module: Formal.Demo
targets:
  - id: goal
    kind: goal
    title: "The goal"
    informal: >
      Two and two make four.
    source: src
    statement: Formal.Demo.Goal
    proof: Formal.Demo.goal
    depends_on: [a]
    provenance: {statement: literature-sourced, proof: none}
  - id: a
    kind: milestone
    title: "Two is two"
    informal: >
      Two is two.
    statement: Formal.Demo.A
    proof: Formal.Demo.a
    depends_on: []
    provenance: {statement: literature-sourced, proof: none}
  - id: b
    kind: milestone
    title: "Two is not three"
    informal: >
      Two is not three.
    statement: Formal.Demo.B
    proof: Formal.Demo.b
    depends_on: []
    provenance: {statement: literature-sourced, proof: none}
"""


@pytest.fixture
def demo(make_workspace: Callable[..., Path]) -> Path:
    """A pinned, synced three-target mission in a git repository (constructed)."""
    root = make_workspace({**FILES, "missions/demo.yaml": YAML})
    shutil.copy(REPO / "lake-manifest.json", root / "lake-manifest.json")
    assert runner.invoke(app, ["pin", "--root", str(root)]).exit_code == 0
    assert runner.invoke(app, ["sync", "--root", str(root)]).exit_code == 0
    return root


def fake_lake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scenario: dict[str, object]) -> None:
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir(exist_ok=True)
    lake = bin_dir / "lake"
    lake.write_text(f"#!{sys.executable}\n" + FAKE_LAKE.read_text(encoding="utf-8"))
    lake.chmod(lake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_AUDIT", json.dumps(scenario))


def violations(root: Path, *args: str) -> list[dict[str, object]]:
    result = runner.invoke(app, ["check", "--json", "--root", str(root), *args])
    assert result.exit_code in (0, 1), result.stderr
    found: list[dict[str, object]] = json.loads(result.stdout)["violations"]
    return found


def rule(found: list[dict[str, object]], name: str) -> list[dict[str, object]]:
    return [v for v in found if v["rule"] == name]


# --- the frontier -------------------------------------------------------------------------


def test_frontier_is_open_targets_with_proved_dependencies_goal_last(demo: Path) -> None:
    result = runner.invoke(app, ["next", "--json", "--root", str(demo)])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    # a is proved; goal (first in the YAML) depends only on a: it is open, but comes last
    assert [(i["target"], i["kind"]) for i in data["frontier"]] == [
        ("b", "milestone"),
        ("goal", "goal"),
    ]
    b = data["frontier"][0]
    assert (b["file"], b["line"], b["status"]) == ("Formal/Demo/Proofs.lean", 10, "stated")
    assert any("sorry" in r for r in b["reasons"])
    assert data["summary"] == {"frontier": 2, "open": 2, "blocked": 0}


def test_a_target_waits_for_an_unproved_dependency(demo: Path) -> None:
    path = demo / "missions/demo.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("depends_on: [a]", "depends_on: [a, b]"),
        encoding="utf-8",
    )
    data = json.loads(runner.invoke(app, ["next", "--json", "--root", str(demo)]).stdout)
    assert [i["target"] for i in data["frontier"]] == ["b"]
    assert data["summary"] == {"frontier": 1, "open": 2, "blocked": 1}
    text = runner.invoke(app, ["next", "--root", str(demo)]).stdout
    assert "demo/b" in text and "Formal/Demo/Proofs.lean:10" in text and "goal" not in text


def test_dashboard_index_shows_the_frontier(demo: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert (
        runner.invoke(
            app, ["report", "--format", "html", "-o", str(out), "--root", str(demo)]
        ).exit_code
        == 0
    )
    index = (out / "index.html").read_text(encoding="utf-8")
    section = index[index.index('id="frontier"') : index.index('id="gate"')]
    assert "demo / b" in section and "demo / goal" in section and "demo / a<" not in section
    assert section.index("demo / b") < section.index("demo / goal")


# --- dependencies that are true -------------------------------------------------------------


def test_compare_dependencies_both_directions_and_externals() -> None:
    result = compare_dependencies(["a", "ext", "c"], ["b", "c"], external=["ext"])
    assert result.declared_unused == ["a"]
    assert result.used_undeclared == ["b"]
    assert not result.ok
    assert compare_dependencies(["a"], ["a"]).ok


def test_dependency_mismatch_names_both_lists(
    demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # constructed audit: goal is a clean theorem that uses b's proof, not a's
    fake_lake(
        tmp_path, monkeypatch, {"Formal.Demo.goal": {"uses": ["Formal.Demo.Goal", "Formal.Demo.b"]}}
    )
    found = rule(violations(demo, "--lean"), "dependency-mismatch")
    assert [(v["mission"], v["target"]) for v in found] == [("demo", "goal")]
    message = str(found[0]["message"])
    assert "declares [a]" in message and "uses [b]" in message
    assert "declared but unused: a" in message and "used but undeclared: b" in message


def test_an_unfinished_proof_is_held_only_to_what_it_already_uses(
    demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario: dict[str, object] = {
        "Formal.Demo.goal": {"axioms": ["sorryAx"], "uses": ["Formal.Demo.Goal"]}
    }
    fake_lake(tmp_path, monkeypatch, scenario)
    assert rule(violations(demo, "--lean"), "dependency-mismatch") == []
    scenario["Formal.Demo.goal"] = {"axioms": ["sorryAx"], "uses": ["Formal.Demo.b"]}
    fake_lake(tmp_path, monkeypatch, scenario)
    found = rule(violations(demo, "--lean"), "dependency-mismatch")
    assert len(found) == 1 and "used but undeclared: b" in str(found[0]["message"])
    assert "declared but unused" not in str(found[0]["message"])


# --- statement fingerprints -----------------------------------------------------------------


def test_sync_lean_records_fingerprints_and_check_lean_catches_a_move(
    demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_lake(
        tmp_path, monkeypatch, {"Formal.Demo.Goal": {"definitions": {"Formal.Demo.two": "7"}}}
    )
    assert runner.invoke(app, ["sync", "--lean", "--root", str(demo)]).exit_code == 0
    goal = load_catalog(demo, use_cache=False).get("demo").mission.target("goal")
    assert goal.fingerprints is not None
    pin = load_catalog(demo, use_cache=False).get("demo").mission.lean.statement_pin
    assert goal.fingerprints.statement_pin == pin
    assert (goal.fingerprints.value, goal.fingerprints.closure) == ("3", "4")
    assert goal.fingerprints.definitions == {"Formal.Demo.two": "7"}
    assert rule(violations(demo, "--lean"), "kernel-fingerprint") == []

    # a Mathlib bump: the closure moves, nothing in the workspace source did (constructed)
    fake_lake(
        tmp_path,
        monkeypatch,
        {
            "Formal.Demo.Goal": {
                "definitions": {"Formal.Demo.two": "7"},
                "closure_fingerprint": "99",
            }
        },
    )
    found = rule(violations(demo, "--lean"), "kernel-fingerprint")
    assert [(v["target"]) for v in found] == ["goal"]
    assert "outside the workspace" in str(found[0]["message"])
    # an elaboration change inside the workspace names the definition
    fake_lake(
        tmp_path, monkeypatch, {"Formal.Demo.Goal": {"definitions": {"Formal.Demo.two": "8"}}}
    )
    message = str(rule(violations(demo, "--lean"), "kernel-fingerprint")[0]["message"])
    assert "workspace definitions Formal.Demo.two" in message


def test_without_lean_fingerprints_are_shown_and_left_alone(
    demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_lake(tmp_path, monkeypatch, {})
    assert runner.invoke(app, ["sync", "--lean", "--root", str(demo)]).exit_code == 0
    yaml_before = (demo / "missions/demo.yaml").read_text(encoding="utf-8")
    assert "fingerprints:" in yaml_before
    monkeypatch.setenv("PATH", str(tmp_path / "nolean"))
    runner.invoke(app, ["sync", "--root", str(demo)])
    after = (demo / "missions/demo.yaml").read_text(encoding="utf-8")
    assert after.count("fingerprints:") == yaml_before.count("fingerprints:") == 3
    shown = runner.invoke(app, ["show", "demo", "--root", str(demo)]).stdout
    assert "kernel fingerprint" in shown


def test_a_moved_statement_pin_makes_the_record_stale_not_a_violation(
    demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_lake(tmp_path, monkeypatch, {})
    assert runner.invoke(app, ["sync", "--lean", "--root", str(demo)]).exit_code == 0
    path = demo / "Formal/Demo/Statements.lean"
    path.write_text(
        path.read_text(encoding="utf-8").replace("two ≠ 3", "two ≠ 5"), encoding="utf-8"
    )
    result = runner.invoke(app, ["pin", "--reason", "fix B", "--root", str(demo)])
    assert result.exit_code == 0, result.stderr
    fake_lake(tmp_path, monkeypatch, {"Formal.Demo.B": {"value_fingerprint": "30"}})
    assert rule(violations(demo, "--lean"), "kernel-fingerprint") == []


# --- Comparator ------------------------------------------------------------------------------

SUCCESS_LOG = """\
Building Challenge.Formal.Demo
Exporting #[Formal.Demo.a] from Challenge.Formal.Demo
Building Formal.Demo.Proofs
Exporting #[Formal.Demo.a] from Formal.Demo.Proofs
Running nanoda kernel on solution
Nanoda kernel accepts the solution
Running Lean default kernel on solution.
Lean default kernel accepts the solution
Your solution is okay!
"""


def export(root: Path, out: Path) -> None:
    result = runner.invoke(
        app, ["export", "--format", "comparator", "-o", str(out), "--root", str(root)]
    )
    assert result.exit_code == 0, result.stderr


def test_comparator_export_is_comparators_own_format(demo: Path) -> None:
    out = demo / "comparator"
    export(demo, out)
    config = json.loads((out / "demo/config.json").read_text(encoding="utf-8"))
    # exactly the keys of Comparator's README/tests at v4.30.0, nothing else
    assert config == {
        "challenge_module": "Challenge.Formal.Demo",
        "solution_module": "Formal.Demo.Proofs",
        "theorem_names": ["Formal.Demo.a"],  # only what the YAML claims proved
        "permitted_axioms": ["propext", "Quot.sound", "Classical.choice"],
        "enable_nanoda": True,
    }
    challenge = (out / "Challenge/Formal/Demo.lean").read_text(encoding="utf-8")
    assert challenge.startswith("import Formal.Demo.Statements\n")
    assert "theorem Formal.Demo.a : Formal.Demo.A := sorry" in challenge
    assert "Formal.Demo.goal" not in challenge
    described = json.loads((out / "demo/mission.json").read_text(encoding="utf-8"))
    assert described["comparator"]["tag"] == "v4.30.0"
    assert {s["target"] for s in described["skipped"]} == {"goal", "b"}
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["runnable"] == ["demo"]
    # the generated challenges are not workspace modules: the gate still passes
    assert violations(demo) == []


def test_check_gates_on_comparator_verdicts_and_junit_has_a_case(
    demo: Path, tmp_path: Path
) -> None:
    out = demo / "comparator"
    export(demo, out)
    junit = tmp_path / "junit.xml"
    schema = xmlschema.XMLSchema(str(Path(__file__).parent / "fixtures/junit.xsd"))

    def run(code: str | None, log: str) -> list[dict[str, object]]:
        for name in ("exit-code", "comparator.log"):
            (out / "demo" / name).unlink(missing_ok=True)
        if code is not None:
            (out / "demo/exit-code").write_text(code + "\n", encoding="utf-8")
            (out / "demo/comparator.log").write_text(log, encoding="utf-8")
        return rule(violations(demo, "--comparator", str(out), "--junit", str(junit)), "comparator")

    assert run("0", SUCCESS_LOG) == []
    schema.validate(str(junit))
    assert 'classname="comparator" name="demo"' in junit.read_text(encoding="utf-8")
    # exit 0 without the nanoda line is not acceptance
    found = run("0", SUCCESS_LOG.replace("Nanoda kernel accepts the solution\n", ""))
    assert len(found) == 1
    rejected = (
        "Building Challenge.Formal.Demo\n"
        "uncaught exception: Challenge and solution theorem statement do not match: "
        "'Formal.Demo.a'\n"
    )
    found = run("1", rejected)
    assert "statement do not match" in str(found[0]["message"])
    text = junit.read_text(encoding="utf-8")
    assert "<failure" in text and "statement do not match" in text
    assert "no Comparator verdict" in str(run(None, "")[0]["message"])
    # a verdict for other claims does not count
    config = out / "demo/config.json"
    data = json.loads(config.read_text(encoding="utf-8"))
    config.write_text(json.dumps({**data, "theorem_names": []}), encoding="utf-8")
    assert "another configuration" in str(run("0", SUCCESS_LOG)[0]["message"])
    # nor a verdict on another commit's export (the proofs it built may differ)
    config.write_text(json.dumps(data), encoding="utf-8")
    described = out / "demo/mission.json"
    data = json.loads(described.read_text(encoding="utf-8"))
    described.write_text(json.dumps({**data, "workspace_commit": "f" * 40}), encoding="utf-8")
    assert "re-run it on this commit" in str(run("0", SUCCESS_LOG)[0]["message"])


def _record(checks: Path, checker: str, commit: str, code: int = 0) -> None:
    """What .github/scripts/record-check.sh leaves for one checker."""
    record = {
        "format": "missions-check/1",
        "checker": checker,
        "modules": ["Formal"],
        "tool": checker,
        "workspace_commit": commit,
        "command": f"{checker} Formal",
        "exit_code": code,
    }
    (checks / f"{checker}.json").write_text(json.dumps(record), encoding="utf-8")


def test_the_gate_reads_every_checker_and_the_project_decides_what_proved_needs(
    demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """End to end as the workflow runs it: records and Comparator results in one directory,
    ``missions.yaml`` requiring them all. Each missing piece costs the claimed target its
    kernel ``proved``; with all of them it stands."""
    checks = tmp_path / "kernel-checks"
    checks.mkdir()
    export(demo, checks / "comparator")
    (checks / "comparator/demo/exit-code").write_text("0\n", encoding="utf-8")
    (checks / "comparator/demo/comparator.log").write_text(SUCCESS_LOG, encoding="utf-8")
    head = json.loads((checks / "comparator/demo/mission.json").read_text())["workspace_commit"]
    assert head
    (demo / "missions.yaml").write_text(
        "kernel:\n  require: [audit, leanchecker, comparator, nanoda]\n", encoding="utf-8"
    )
    fake_lake(tmp_path, monkeypatch, {})

    def verdicts() -> tuple[str, dict[str, str], list[str]]:
        args = ["--lean", "--checks", str(checks)]
        result = runner.invoke(app, ["status", "--json", "--root", str(demo), *args])
        assert result.exit_code == 0, result.stderr
        target = next(
            t for m in json.loads(result.stdout)["missions"] for t in m["targets"] if t["id"] == "a"
        )
        checked = {k: v["verdict"] for k, v in target["checks"].items()}
        return target["status"], checked, [v["rule"] for v in violations(demo, *args)]

    status, checked, rules = verdicts()
    assert (status, checked["leanchecker"], checked["nanoda"]) == ("stated", "not run", "not run")
    assert "evidence-disagreement" in rules
    _record(checks, "leanchecker", head)
    _record(checks, "nanoda", head)
    status, checked, rules = verdicts()
    assert status == "proved" and set(checked.values()) == {"passed"}, checked
    assert "evidence-disagreement" not in rules
    _record(checks, "nanoda", head, code=1)
    status, checked, rules = verdicts()
    assert (status, checked["nanoda"]) == ("stated", "failed")
    _record(checks, "nanoda", "0" * 40)
    status, checked, _ = verdicts()
    assert (status, checked["nanoda"]) == ("stated", "not run")


def test_junit_skips_comparator_cases_without_results(demo: Path, tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    violations(demo, "--junit", str(junit))
    text = junit.read_text(encoding="utf-8")
    assert "Comparator results not given" in text


# --- the manifest -----------------------------------------------------------------------------


def manifest_root(tmp_path: Path, edit: Callable[[dict[str, object]], None]) -> Path:
    root = tmp_path / "m"
    root.mkdir()
    shutil.copy(REPO / "lakefile.lean", root / "lakefile.lean")
    data = json.loads((REPO / "lake-manifest.json").read_text(encoding="utf-8"))
    edit(data)
    (root / "lake-manifest.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    return root


def packages(data: dict[str, object]) -> list[dict[str, object]]:
    found = data["packages"]
    assert isinstance(found, list)
    return found


def test_committed_manifest_matches_lakefile_and_mathlibs_own_pins(tmp_path: Path) -> None:
    checks = check_manifest(REPO)
    assert checks and all(c.ok for c in checks), [c.message for c in checks]
    data = json.loads((REPO / "lake-manifest.json").read_text(encoding="utf-8"))
    names = {p["name"] for p in data["packages"]}
    assert names == {"mathlib", *INHERITED_PACKAGES}


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda d: packages(d)[1].update(rev="0" * 40), "Mathlib c5ea00351c28 pins"),
        (lambda d: packages(d)[1].update(url="https://github.com/someone/plausible"), "pins"),
        (lambda d: packages(d)[0].update(rev="1" * 40), "lakefile.lean requires"),
        (
            lambda d: packages(d).append({"name": "evil", "type": "path", "dir": "x"}),
            "not one Mathlib pins",
        ),
        (lambda d: packages(d).pop(), "lacks Cli"),
    ],
)
def test_manifest_drift_is_a_toolchain_pin_failure(
    tmp_path: Path, edit: Callable[[dict[str, object]], None], expected: str
) -> None:
    checks = check_manifest(manifest_root(tmp_path, edit))
    assert any(not c.ok and expected in c.message for c in checks), [c.message for c in checks]


def test_audit_request_names_the_workspace_and_old_reports_are_refused(demo: Path) -> None:
    from missions.errors import InputError
    from missions.kernel import build_request, parse_report
    from missions.lean.workspace import load_workspace
    from missions.status import analyze

    request = build_request(analyze(load_catalog(demo), load_workspace(demo)))
    assert request["workspace"] == ["Formal", "Challenge"]  # the lakefile's libraries
    with pytest.raises(InputError, match="invalid audit report at format"):
        parse_report(
            '{"format": "missions-audit/1", "lean_version": "4.30.0", "modules": [], '
            '"declarations": []}'
        )
