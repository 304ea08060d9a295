"""JUnit output against its schema, doctor with stand-in tools, and the prover export."""

from __future__ import annotations

import json
import os
import stat
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import xmlschema
from typer.testing import CliRunner

from conftest import copy_repo_workspace, git, init_repo
from missions.cli import app
from missions.gate import RULES

SCHEMA = xmlschema.XMLSchema(str(Path(__file__).parent / "fixtures" / "junit.xsd"))
runner = CliRunner()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return copy_repo_workspace(tmp_path)


def test_junit_passes_schema_with_one_case_per_target_and_rule(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "junit.xml"
    result = runner.invoke(app, ["check", "--junit", str(out), "--root", str(repo)])
    assert result.exit_code == 0
    SCHEMA.validate(str(out))
    tree = ET.parse(out).getroot()
    suites = {s.get("name"): s for s in tree}
    assert set(RULES) == {c.get("name") for c in suites["gate rules"]}
    mae = suites["mission mae-normalized-pixel"]
    assert [c.get("name") for c in mae] == [
        "normalized-targets-agree",
        "masked-loss-zero",
        "no-separating-classifier",
        "goal",
    ]
    checksum = suites["mission alethean-checksum"]
    assert checksum.get("skipped") == "5"


def test_junit_failures_point_at_targets_and_rules(repo: Path, tmp_path: Path) -> None:
    proofs = repo / "Formal/MAE/Proofs.lean"
    proofs.write_text(
        proofs.read_text(encoding="utf-8").replace(
            "exact ⟨hexp, no_separating_classifier⟩", "exact ⟨hexp, sorry⟩"
        ),
        encoding="utf-8",
    )
    out = tmp_path / "junit.xml"
    result = runner.invoke(app, ["check", "--junit", str(out), "--root", str(repo)])
    assert result.exit_code == 1
    SCHEMA.validate(str(out))
    tree = ET.parse(out).getroot()
    failed = {
        (c.get("classname"), c.get("name"))
        for s in tree
        for c in s
        if c.find("failure") is not None
    }
    assert failed == {
        ("mae-normalized-pixel", "goal"),
        ("gate", "status-drift"),
        ("gate", "status-regression"),  # a recorded proof fell back to sorry
    }
    assert tree.get("failures") == "3"


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


def test_export_json_lists_open_targets(repo: Path) -> None:
    init_repo(repo, "workspace")
    result = runner.invoke(app, ["export", "--format", "json", "--root", str(repo)])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["commit"] == git(repo, "rev-parse", "HEAD")
    names = {t["full_name"] for t in data["theorems"]}
    assert "Formal.LPFT.goal" in names
    assert "Formal.MAE.goal" not in names  # proved targets are not tasks
    lpft = next(t for t in data["theorems"] if t["full_name"] == "Formal.LPFT.goal")
    assert lpft["file_path"] == "Formal/LPFT/Proofs.lean"


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
