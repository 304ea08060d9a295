"""The README's recipes, followed in a copy of this repository, keep every catalogue check green.

A user adds a mission the way the README says (``missions new``, write the files, fill in the
YAML, ``missions pin``, ``missions sync``, ``missions check``) or proves an open target and
syncs. Afterwards the gate passes and so do the checks ``test_missions.py`` runs on the bundled
catalogue (``catalog_checks``), because those derive every expectation from the YAML and the
sources rather than from a list of missions and statuses.
"""

from __future__ import annotations

import copy
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml.comments import CommentedMap, CommentedSeq

import catalog_checks as checks
from conftest import REPO, copy_repo_workspace, init_repo, invoke, status_json, target_of
from missions.yamlio import atomic_write_text, dump_document, load_document

#: Left out of the edit loop (pytest -m 'not slow'): the README's recipes end to end in a copy.
pytestmark = pytest.mark.slow


#: What a user writes in place of each scaffolded ``TODO``, by YAML key.
FILLED = {
    "summary": "Twice the square of two is eight: a worked example of adding a mission.\n",
    "citation": "A. Author. Notes on squares. 2026.",
    "locators": "Thm. 1, p. 1",
    "conventions": "Natural numbers, as in Mathlib.",
    "title": "Twice two squared is eight",
    "informal": "$2^2 + 2^2 = 8$ in the natural numbers.\n",
    "locator": "Thm. 1, p. 1",
}


def readme_recipe() -> list[list[str]]:
    """The ``missions ...`` commands of the README's "Adding a mission" block, in order."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Adding a mission", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block is not None, "README: no shell block under 'Adding a mission'"
    commands = [
        shlex.split(part, comments=True)
        for line in block.group(1).splitlines()
        if not line.lstrip().startswith("#")
        for part in line.split("&&")
        if part.strip()
    ]
    assert commands and commands[0][:2] == ["missions", "new"], commands
    return commands


def fill_placeholders(node: Any, key: str = "") -> Any:
    """Every scaffolded ``TODO`` string replaced by what a user would write there."""
    if isinstance(node, CommentedMap):
        for k in list(node):
            node[k] = fill_placeholders(node[k], str(k))
        return node
    if isinstance(node, CommentedSeq):
        for i, item in enumerate(node):
            node[i] = fill_placeholders(item, key)
        return node
    if isinstance(node, str) and "TODO" in node:
        return FILLED.get(key, "Filled in by hand.")
    return node


def write_lean(root: Path, module: str, part: str, text: str) -> None:
    path = root.joinpath(*module.split(".")) / f"{part}.lean"
    assert path.is_file(), f"the scaffold did not create {path}"
    path.write_text(text, encoding="utf-8")


#: The witness a user writes for the squares mission: exact claims of a closed statement.
WITNESS = '''"""Witness for the squares example: exact arithmetic on the two closed claims."""

from __future__ import annotations

from collections.abc import Iterator

from missions.witness import Check, Claim, Constant, Context, NonVacuity


def square(n: int) -> int:
    return n * n


def step(ctx: Context, four: int = 4) -> Iterator[Check]:
    yield Check("square 2 = 4", square(2), "==", four)


def goal(ctx: Context, eight: int = 8) -> Iterator[Check]:
    yield Check("square 2 + square 2 = 8", square(2) + square(2), "==", eight)


CLOSED = NonVacuity(reason="a closed statement about 2, 4 and 8")
CLAIMS = [
    Claim("step", "square 2 = 4", step, {"4 -> 5": {"four": 5}}, CLOSED,
          (Constant("four", 4, "the 4 of square 2 = 4"),)),
    Claim("goal", "square 2 + square 2 = 8", goal, {"8 -> 9": {"eight": 9}}, CLOSED,
          (Constant("eight", 8, "the 8 of the goal"),)),
]
'''


def write_witness(root: Path, module: str) -> None:
    """Replace the witness stub ``missions new`` wrote (it must exist: the policy asks for it)."""
    from missions.scaffold import witness_location

    name = module.rsplit(".", 1)[-1]
    path = witness_location(root) / f"{name}.py"
    assert path.is_file(), f"the scaffold did not create {path}"
    assert "placeholder" in path.read_text(encoding="utf-8")
    path.write_text(WITNESS, encoding="utf-8")


def run(root: Path, argv: list[str]) -> None:
    assert argv[0] == "missions", argv
    result = invoke(*argv[1:], "--root", root)
    assert result.exit_code == 0, (argv, result.stdout, result.stderr)


def add_mission_as_the_readme_says(root: Path, *, milestone_proved: bool) -> tuple[str, str]:
    """Follow the README: scaffold, write the Lean files and the YAML, then its commands.

    The mission has a milestone (proved or ``sorry``) and a goal built on it. Returns the
    mission id and module.
    """
    recipe = readme_recipe()
    readme_id = recipe[0][2]
    mission_id = readme_id
    while (root / "missions" / f"{mission_id}.yaml").exists():  # someone followed it already
        mission_id += "-again"
    recipe = [[mission_id if word == readme_id else word for word in argv] for argv in recipe]
    new = recipe[0]
    module = new[new.index("--module") + 1] if "--module" in new else None
    if module is not None and mission_id != readme_id:
        module += "Again" * mission_id.count("-again")
        new[new.index("--module") + 1] = module
    run(root, new)
    yaml = root / "missions" / f"{mission_id}.yaml"
    doc = load_document(yaml)
    module = module or str(doc["lean"]["module"])
    ns = module
    write_lean(
        root,
        module,
        "Defs",
        f"import Mathlib\n\n/-!\n# Squares: the model\n-/\n\nnamespace {ns}\n\n"
        "/-- The square of a natural number. -/\ndef square (n : ℕ) : ℕ := n * n\n\n"
        f"end {ns}\n",
    )
    write_lean(
        root,
        module,
        "Statements",
        f"import {module}.Defs\n\n/-!\n# Squares: statements\n-/\n\nnamespace {ns}\n\n"
        "/-- Two squared is four (Notes on squares, Lemma 1, p. 1). -/\n"
        "def Step : Prop := square 2 = 4\n\n"
        "/-- Twice the square of two is eight (Notes on squares, Thm. 1, p. 1). -/\n"
        "def Goal : Prop := square 2 + square 2 = 8\n\n"
        f"end {ns}\n",
    )
    proofs = root.joinpath(*module.split(".")) / "Proofs.lean"
    scaffolded = proofs.read_text(encoding="utf-8")
    placeholder = "theorem goal : Goal := by\n  sorry\n"
    assert placeholder in scaffolded, scaffolded
    step_body = "norm_num [Step, square]" if milestone_proved else "sorry"
    proofs.write_text(
        scaffolded.replace(
            placeholder,
            f"/-- The milestone. -/\ntheorem step : Step := by\n  {step_body}\n\n"
            "/-- The goal, from the milestone. -/\ntheorem goal : Goal := by\n"
            "  have h : square 2 = 4 := step\n  simp [Goal, h]\n",
        ),
        encoding="utf-8",
    )
    fill_placeholders(doc)
    goal = doc["targets"][0]
    write_witness(root, str(goal["witness"]))
    goal["depends_on"] = CommentedSeq(["step"])
    step = copy.deepcopy(goal)  # a copy, not a YAML alias of the goal's mappings
    step["id"], step["kind"] = "step", "milestone"
    step["title"], step["informal"] = "Two squared is four", "$2^2 = 4$.\n"
    step["locator"] = "Lemma 1, p. 1"
    step["statement"], step["proof"] = f"{ns}.Step", f"{ns}.step"
    step["depends_on"] = CommentedSeq()
    doc["targets"].insert(0, step)
    atomic_write_text(yaml, dump_document(doc))
    assert "TODO" not in yaml.read_text(encoding="utf-8")
    for part in ("Defs", "Statements", "Proofs"):
        lean = (root.joinpath(*module.split(".")) / f"{part}.lean").read_text(encoding="utf-8")
        assert "TODO" not in lean and "Placeholder" not in lean, part
    for argv in recipe[1:]:
        if argv[1] != "check":  # the check comes after sync, below
            run(root, argv)
    run(root, ["missions", "sync"])
    run(root, ["missions", "check"])
    return mission_id, module


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = copy_repo_workspace(tmp_path, project=True)  # a fresh clone: its policies too
    init_repo(root, "the bundled workspace")
    return root


def test_the_copy_passes_before_anything_changes(repo: Path) -> None:
    assert checks.all_problems(repo) == []


def test_adding_a_mission_as_the_readme_says(repo: Path) -> None:
    before = {m["id"] for m in status_json(repo)["missions"]}
    mission_id, _ = add_mission_as_the_readme_says(repo, milestone_proved=True)
    data = status_json(repo)
    assert {m["id"] for m in data["missions"]} == before | {mission_id}
    for target in ("step", "goal"):
        found = target_of(data, mission_id, target)
        assert (found["status"], found["evidence"]) == ("proved", "source"), found["reasons"]
    assert checks.all_problems(repo) == []


def _trivially_provable_open_targets(root: Path) -> list[tuple[Path, str]]:
    """Targets whose statement is literally ``True`` and whose proof is literally ``sorry``:
    (proof file, proof declaration text). Nothing else is provable without Lean here."""
    found: list[tuple[Path, str]] = []
    for mission in checks.analysis_of(root).missions:
        for status in mission.targets:
            if status.statement_decl is None or status.proof_decl is None:
                continue
            module, decl = status.statement_decl
            statement = module.path.read_text(encoding="utf-8")[decl.start : decl.end]
            proof_module, proof = status.proof_decl
            proof_text = proof_module.path.read_text(encoding="utf-8")[proof.start : proof.end]
            if re.search(r":=\s*True\s*$", statement) and re.search(
                r":=\s*(by\s+)?sorry\s*$", proof_text
            ):
                found.append((proof_module.path, proof_text))
    return found


def test_proving_a_target_then_syncing(repo: Path) -> None:
    """Prove an open target, sync: the gate and every catalogue check stay green. The target is
    a bundled one if any is provable without Lean (statement ``True``, proof ``sorry``), else
    the milestone of a mission added as the README says."""
    candidates = _trivially_provable_open_targets(repo)
    if candidates:
        path, proof = candidates[0]
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(proof, re.sub(r"sorry\s*$", "trivial", proof)), "utf-8")
        proved = None
    else:
        mission_id, module = add_mission_as_the_readme_says(repo, milestone_proved=False)
        assert target_of(status_json(repo), mission_id, "step")["status"] == "stated"
        assert target_of(status_json(repo), mission_id, "goal")["status"] == "stated"
        assert checks.all_problems(repo) == []
        path = repo.joinpath(*module.split(".")) / "Proofs.lean"
        text = path.read_text(encoding="utf-8")
        assert "theorem step : Step := by\n  sorry\n" in text
        path.write_text(
            text.replace("  sorry\n", "  norm_num [Step, square]\n", 1), encoding="utf-8"
        )
        proved = mission_id
    drifted = invoke("check", "--root", repo)
    assert drifted.exit_code == 1 and "[status-drift]" in drifted.stdout
    run(repo, ["missions", "sync"])
    run(repo, ["missions", "check"])
    if proved is not None:
        data = status_json(repo)
        assert target_of(data, proved, "step")["status"] == "proved"
        assert target_of(data, proved, "goal")["status"] == "proved"
    assert checks.all_problems(repo) == []


def test_an_edited_witness_is_stale_until_stamped_again(repo: Path) -> None:
    """The stamp records the witness sources it reviewed: the recipe's mission passes, an
    edit to its witness fails the gate (``witness-stale``), and stamping again clears it."""
    mission_id, _ = add_mission_as_the_readme_says(repo, milestone_proved=True)
    from missions.scaffold import witness_location

    path = witness_location(repo) / f"{mission_id.replace('-', '_')}.py"
    path.write_text(path.read_text(encoding="utf-8") + "\n# reviewed again\n", encoding="utf-8")
    result = invoke("check", "--json", "--root", repo)
    rules = {(v["rule"], v["mission"]) for v in json.loads(result.stdout)["violations"]}
    assert rules == {("witness-stale", mission_id)}, rules
    run(repo, ["missions", "witness", "--stamp", mission_id])
    run(repo, ["missions", "check"])
