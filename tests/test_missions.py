"""The bundled catalogue agrees with its sources: statuses, dependencies, declarations.

Nothing here names a mission, a target or a status: the missions are whatever
``missions/*.yaml`` holds, and every expectation comes from the YAML and the Lean files
(through ``catalog_checks``, which ``test_recipes.py`` also runs on copies where a user added a
mission or proved a target). What a reviewer establishes by hand belongs in the YAML.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import catalog_checks as checks
from conftest import REPO, settle
from missions.status import Analysis

MISSION_IDS = sorted(p.stem for p in checks.mission_files(REPO))


@pytest.fixture(scope="module")
def analysis() -> Analysis:
    return checks.analysis_of(REPO)


def test_the_catalogue_is_what_the_yaml_files_hold(analysis: Analysis) -> None:
    assert MISSION_IDS, "no mission YAML: every per-mission check below would be vacuous"
    assert sorted(m.id for m in analysis.missions) == MISSION_IDS
    workspace_targets = [t for m in analysis.missions for t in m.targets if t.target.statement]
    assert workspace_targets, "no target names a Lean statement"
    for mission in analysis.missions:
        assert [t.target.kind for t in mission.targets].count("goal") == 1, mission.id


@pytest.mark.parametrize("mission_id", MISSION_IDS)
def test_recorded_statuses_are_the_computed_ones(analysis: Analysis, mission_id: str) -> None:
    assert checks.status_problems(analysis, mission_id) == []


@pytest.mark.parametrize("mission_id", MISSION_IDS)
def test_dependencies_name_targets_of_the_same_mission(mission_id: str) -> None:
    assert checks.dependency_problems(REPO, mission_id) == []


@pytest.mark.parametrize("mission_id", MISSION_IDS)
def test_statements_and_proofs_exist_with_their_shape(analysis: Analysis, mission_id: str) -> None:
    assert checks.declaration_problems(analysis, mission_id) == []


@pytest.mark.parametrize("mission_id", MISSION_IDS)
def test_proved_targets_use_their_dependencies_by_name(analysis: Analysis, mission_id: str) -> None:
    assert checks.citation_problems(analysis, mission_id) == []


@pytest.mark.parametrize("mission_id", MISSION_IDS)
def test_the_gate_passes(analysis: Analysis, mission_id: str) -> None:
    assert checks.gate_problems(analysis, mission_id) == []


def test_the_root_module_imports_every_mission() -> None:
    assert checks.module_problems(REPO) == []


# ---------------------------------------------------------------- the checks can fail

GOAL_PROOF = "  have h : two = 2 := by\n    have := step\n    unfold Step at this\n    omega\n"

BREAKAGES = {
    # name: (file, old text, new text, check, expected problems)
    "status": (
        "missions/demo.yaml",
        "status: proved\n    evidence: source\n  - id: goal",
        "status: stated\n    evidence: source\n  - id: goal",
        "status",
        ["demo/step: YAML says ('stated', 'source'), sources give ('proved', 'source')"],
    ),
    "shape": (
        "Formal/Demo/Statements.lean",
        "def Goal : Prop",
        "def Goal (n : ℕ) : Prop",
        "declaration",
        ["demo/goal: Formal.Demo.Goal is not `def Goal : Prop := ...`"],
    ),
    "docstring": (
        "Formal/Demo/Statements.lean",
        "/-- Two times two is four (Demo paper, Thm. 2, p. 3). -/\n",
        "",
        "declaration",
        ["demo/goal: Formal.Demo.Goal has no docstring citing its source"],
    ),
    "proof-type": (
        "Formal/Demo/Proofs.lean",
        "theorem goal : Goal",
        "theorem goal : Step",
        "declaration",
        ["demo/goal: Formal.Demo.goal is not `theorem _ : Goal := ...`"],
    ),
    "dangling": (
        "missions/demo.yaml",
        "depends_on: []",
        "depends_on: [nowhere]",
        "dependency",
        ["demo.yaml: step depends on unknown nowhere"],
    ),
    "cycle": (
        "missions/demo.yaml",
        "depends_on: []",
        "depends_on: [goal]",
        "dependency",
        ["demo.yaml: cycle through step", "demo.yaml: cycle through goal"],
    ),
    "root-module": ("Formal.lean", "import Formal.Demo\n", "", "module", None),
    "citation": (
        "Formal/Demo/Proofs.lean",
        GOAL_PROOF + "  simp [Goal, h]\n",
        "  norm_num [Goal, two]\n",
        "citation",
        ["demo/goal: proved without naming Formal.Demo.step, although it depends on step"],
    ),
}


def test_the_checks_pass_on_the_demo_workspace(demo_workspace: Callable[..., Path]) -> None:
    assert checks.all_problems(demo_workspace()) == []


@pytest.mark.parametrize("name", sorted(BREAKAGES))
def test_each_check_reports_what_it_is_for(demo_workspace: Callable[..., Path], name: str) -> None:
    """Each check reports a deliberate breakage of the demo workspace (none is vacuous)."""
    file, old, new, check, expected = BREAKAGES[name]
    lean_change = file.endswith(".lean") and check != "module"
    root = demo_workspace(settled=not lean_change)
    path = root / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    if lean_change:
        settle(root)
    if check == "dependency":
        problems = checks.dependency_problems(root)
    elif check == "module":
        problems = checks.module_problems(root)
        expected = ["demo.yaml: Formal.Demo is not imported by Formal.lean"]
    else:
        problems = getattr(checks, f"{check}_problems")(checks.analysis_of(root))
    assert problems == expected
