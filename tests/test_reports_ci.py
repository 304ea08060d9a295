"""JUnit output against its schema, doctor with stand-in tools, and the prover export."""

from __future__ import annotations

import json
import os
import stat
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
import xmlschema
from ruamel.yaml import YAML
from typer.testing import CliRunner

from conftest import REPO, copy_repo_workspace, demo_lean, git, init_repo, line_of, settle
from missions.cli import app

SCHEMA = xmlschema.XMLSchema(str(Path(__file__).parent / "fixtures" / "junit.xsd"))
runner = CliRunner()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return copy_repo_workspace(tmp_path)


#: The gate's rule ids as DESIGN.md and the README document them (the JUnit output must have a
#: case for each; a new rule may add a case, but must be documented too).
DOCUMENTED_RULES = (
    "missing-declaration",
    "statement-shape",
    "statement-closure",
    "statement-pin",
    "forbidden-construct",
    "proof-type",
    "status-drift",
    "toolchain-pin",
    "evidence-disagreement",
)


def junit(root: Path, out: Path) -> tuple[int, ET.Element]:
    result = runner.invoke(app, ["check", "--junit", str(out), "--root", str(root)])
    SCHEMA.validate(str(out))
    return result.exit_code, ET.parse(out).getroot()


def test_junit_passes_schema_with_one_case_per_target_and_rule(repo: Path, tmp_path: Path) -> None:
    code, tree = junit(repo, tmp_path / "junit.xml")
    assert code == 0
    suites = {s.get("name"): s for s in tree}
    rules = [c.get("name") for c in suites.pop("gate rules")]
    # Comparator: one case per mission, skipped when no Comparator results were given
    comparator = suites.pop("comparator")
    mission_ids = sorted(p.stem for p in (repo / "missions").glob("*.yaml"))
    assert sorted(c.get("name") for c in comparator) == mission_ids
    assert all(c.find("skipped") is not None for c in comparator)
    assert len(rules) == len(set(rules))
    assert set(rules) >= set(DOCUMENTED_RULES)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert [r for r in rules if f"`{r}`" not in readme] == [], "rule ids missing from README"
    # one suite per mission file, one case per target in YAML order, externals skipped
    expected = {}
    for path in sorted((repo / "missions").glob("*.yaml")):
        data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
        kinds = [(t["id"], t["kind"]) for t in data["targets"]]
        expected[f"mission {data['id']}"] = kinds
    assert expected and set(suites) == set(expected)
    for name, kinds in expected.items():
        suite = suites[name]
        assert [c.get("name") for c in suite] == [t for t, _ in kinds]
        skipped = [c.get("name") for c in suite if c.find("skipped") is not None]
        assert skipped == [t for t, kind in kinds if kind == "external"]
        assert suite.get("skipped") == str(len(skipped))
        assert suite.get("tests") == str(len(kinds)) and suite.get("failures") == "0"
    assert tree.get("failures") == "0"
    assert tree.get("tests") == str(
        sum(len(k) for k in expected.values()) + len(rules) + len(mission_ids)
    )


@pytest.mark.parametrize("breakage", ["sorry", "axiom"])
def test_junit_failures_point_at_targets_and_rules(
    demo_workspace: Callable[..., Path], tmp_path: Path, breakage: str
) -> None:
    root = demo_workspace()
    if breakage == "sorry":  # the goal's proof is unfinished, the YAML still says proved
        proofs = root / "Formal/Demo/Proofs.lean"
        text = proofs.read_text(encoding="utf-8")
        proofs.write_text(text.replace("  simp [Goal, h]\n", "  sorry\n"), encoding="utf-8")
        yaml = root / "missions/demo.yaml"
        where = f"missions/demo.yaml:{_status_line(yaml, 'goal')}"
        # drift, and a regression of its own (a recorded proof fell back to sorry)
        failing = {("demo", "goal"), ("gate", "status-drift"), ("gate", "status-regression")}
    else:  # an axiom in a module nothing imports: a workspace finding, no target fails
        scratch = root / "Formal/Scratch.lean"
        scratch.write_text(demo_lean(["Mathlib"], "Scratch", "axiom junk : False\n"), "utf-8")
        where = f"Formal/Scratch.lean:{line_of(scratch, 'axiom junk')}"
        failing = {("gate", "forbidden-construct")}
    code, tree = junit(root, tmp_path / "junit.xml")
    assert code == 1
    failures = [
        (c.get("classname"), c.get("name"), f)
        for s in tree
        for c in s
        for f in c.findall("failure")
    ]
    assert {(classname, name) for classname, name, _ in failures} == failing
    for _, _, failure in failures:
        assert failure.text is not None and failure.text.startswith(f"{where}: [")
    assert tree.get("failures") == str(len(failing))


def _status_line(yaml: Path, target: str) -> int:
    lines = yaml.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"  - id: {target}")
    return next(i for i, line in enumerate(lines, 1) if i > start and "status:" in line)


def _tool(bin_dir: Path, name: str, output: str) -> None:
    path = bin_dir / name
    path.write_text(f"#!/bin/sh\necho '{output}'\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def test_doctor_finds_tools_and_versions(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _tool(bin_dir, "elan", "elan 4.1.2 (58e8d545e 2025-05-26)")
    _tool(bin_dir, "lake", "Lake version 5.0.0-c5ea003 (Lean version 4.30.0)")
    _tool(bin_dir, "lean", "Lean (version 4.30.0, x86_64-unknown-linux-gnu, commit abc, Release)")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin:/bin")
    result = runner.invoke(app, ["doctor", "--json", "--root", str(repo)])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert {t["name"]: t["version"] for t in data["tools"]} == {
        "elan": "4.1.2",
        "lake": "5.0.0-c5ea003",
        "lean": "4.30.0",
    }
    assert any("git checkout -- lake-manifest.json" in a for a in data["advice"])
    assert any("lake exe cache get" in a for a in data["advice"])


def test_doctor_flags_a_wrong_lean_and_a_drifted_manifest(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _tool(bin_dir, "lean", "Lean (version 4.29.0, x86_64-unknown-linux-gnu, Release)")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin:/bin")
    (repo / "lake-manifest.json").write_text(
        json.dumps({"version": "1.1.0", "packages": [{"name": "mathlib", "rev": "deadbeef"}]}),
        encoding="utf-8",
    )
    result = runner.invoke(app, ["doctor", "--json", "--root", str(repo)])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert any("pinned is 4.30.0" in a for a in data["advice"])
    assert any(p["file"] == "lake-manifest.json" and not p["ok"] for p in data["pins"])


def test_export_json_lists_open_targets(demo_workspace: Callable[..., Path]) -> None:
    root = demo_workspace(settled=False, use_git=True)
    proofs = root / "Formal/Demo/Proofs.lean"
    text = proofs.read_text(encoding="utf-8")
    proofs.write_text(text.replace("  simp [Goal, h]\n", "  sorry\n"), encoding="utf-8")
    settle(root, commit=True)
    result = runner.invoke(app, ["export", "--format", "json", "--root", str(root)])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["commit"] == git(root, "rev-parse", "HEAD")
    # the goal is open; the proved milestone is no task
    assert [(t["full_name"], t["file_path"]) for t in data["theorems"]] == [
        ("Formal.Demo.goal", "Formal/Demo/Proofs.lean")
    ]


def test_export_of_the_bundled_catalogue_is_its_stated_targets(repo: Path) -> None:
    init_repo(repo, "workspace")
    result = runner.invoke(app, ["export", "--format", "json", "--root", str(repo)])
    assert result.exit_code == 0, result.stderr
    exported = {t["full_name"] for t in json.loads(result.stdout)["theorems"]}
    status = json.loads(runner.invoke(app, ["status", "--json", "--root", str(repo)]).stdout)
    stated = {
        t["proof"]
        for m in status["missions"]
        for t in m["targets"]
        if t["status"] == "stated" and t["proof"]
    }
    assert exported == stated


def test_export_needs_a_commit(repo: Path) -> None:
    result = runner.invoke(app, ["export", "--root", str(repo)])
    assert result.exit_code == 2 and "needs a git repository" in result.stderr


def test_dojo_export_uses_lean_dojo_classes(repo: Path) -> None:
    lean_dojo = pytest.importorskip("lean_dojo", reason="LeanDojo (the dojo extra) not installed")
    init_repo(repo, "workspace")
    from missions.catalog import load_catalog
    from missions.export import export_dojo
    from missions.lean.workspace import load_workspace
    from missions.status import analyze

    theorems = export_dojo(analyze(load_catalog(repo), load_workspace(repo)))
    assert theorems and all(isinstance(t, lean_dojo.Theorem) for t in theorems)


def test_dojo_export_without_lean_dojo_is_a_clear_error(repo: Path) -> None:
    try:
        import lean_dojo  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("LeanDojo is installed")
    init_repo(repo, "workspace")
    result = runner.invoke(app, ["export", "--format", "dojo", "--root", str(repo)])
    assert result.exit_code == 2 and "pip install 'missions[dojo]'" in result.stderr


def test_doctor_flags_the_lean_that_lake_runs(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _tool(bin_dir, "lake", "Lake version 5.0.0-abc (Lean version 4.31.0)")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin:/bin")
    data = json.loads(runner.invoke(app, ["doctor", "--json", "--root", str(repo)]).stdout)
    assert any("lake runs Lean 4.31.0, pinned is 4.30.0" in a for a in data["advice"])
