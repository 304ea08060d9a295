"""Walks kept by the content they walked (:mod:`missions.walks`): an analysis that reads them
must be the analysis that walks afresh, after any edit, with any store on disk."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from missions import status as status_module
from missions import walks
from missions.cache import cache_dir_for
from missions.cli import app
from missions.gate import dependency_warnings
from missions.load import analyse
from missions.status import Analysis
from test_incremental import _write
from test_incremental_closure import GAMMA, SHARED_AND_ALPHA
from test_incremental_fuzz import DECLARED, MUTATIONS

SUM = """\
import Formal.Shared.Defs

namespace Formal.Sum

/-- A sum. -/
def total (n : ℕ) : ℕ := Formal.Shared.bound n + n

theorem total_le (n : ℕ) : n ≤ total n := by
  unfold total
  omega

/-- The claim. -/
def Goal : Prop := ∀ n : ℕ, n ≤ total n

/-- A second claim, proved from the first. -/
def Goal₂ : Prop := ∀ n : ℕ, n ≤ total n + 1

end Formal.Sum
"""
SUM_PROOFS = """\
import Formal.Sum.Statements

namespace Formal.Sum

theorem goal : Goal := fun n => total_le n

theorem goal₂ : Goal₂ := fun n => Nat.le_succ_of_le (goal n)

end Formal.Sum
"""
SUM_YAML_TARGET = """\
  - id: second
    kind: milestone
    title: "The second claim"
    informal: >
      The second claim holds.
    source: src
    statement: Formal.Sum.Goal₂
    proof: Formal.Sum.goal₂
    depends_on: [goal]
    provenance: {statement: literature-sourced, proof: none}
    status: stated
    evidence: source
"""


@pytest.fixture
def root(make_workspace: Callable[..., Path]) -> Path:
    """Missions whose proofs reach shared definitions, one with two targets where the second's
    proof uses the first's (so the gate's dependency walk has something to find)."""
    files = {
        **SHARED_AND_ALPHA,
        **GAMMA,
        "Formal/Sum/Statements.lean": SUM,
        "Formal/Sum/Proofs.lean": SUM_PROOFS,
        "Formal/Sum.lean": "import Formal.Sum.Statements\nimport Formal.Sum.Proofs\n",
        "Formal.lean": "import Formal.Alpha\nimport Formal.Gamma\nimport Formal.Sum\n",
    }
    missions = {"alpha": "Formal.Alpha", "gamma": "Formal.Gamma", "sum": "Formal.Sum"}
    built = make_workspace(files, missions, use_git=False)
    path = built / "missions" / "sum.yaml"
    path.write_text(path.read_text(encoding="utf-8") + SUM_YAML_TARGET, encoding="utf-8")
    assert CliRunner().invoke(app, ["pin", "--root", str(built)]).exit_code == 0
    return built


def _view(analysis: Analysis) -> list[Any]:
    """Everything a walk decides, target by target, and the gate's dependency warnings."""
    rows: list[Any] = []
    for mission in analysis.missions:
        for s in mission.targets:
            rows.append([mission.id, s.target.id, s.status, s.reasons, s.reached])
            rows.append([s.unbounded, s.violations])
        rows.append(dependency_warnings(analysis, mission))
    return rows


def _agree(root: Path) -> Analysis:
    """The analysis with the store (read and written) equals the one without it."""
    stored = analyse(root)
    assert _view(stored) == _view(analyse(root, use_cache=False))
    stored.memo.keep()
    return stored


def _store_file(root: Path) -> Path:
    return Path(cache_dir_for(str(root))) / walks.WALKS_FILE


def _walking_forbidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def walk(*_: object) -> None:
        raise AssertionError("walked although the store holds this walk")

    monkeypatch.setattr(status_module._Reach, "walk", walk)
    monkeypatch.setattr(status_module._Reach, "targets_used", walk)


def test_a_second_run_reads_every_walk_from_the_store(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = _view(analyse(root, use_cache=False))
    first = analyse(root)
    assert _view(first) == fresh
    first.memo.keep()  # as the gate does once its dependency warnings walked
    second = next(s for m in first.missions for s in m.targets if s.target.id == "second")
    assert "Formal.Sum.goal" in second.reached  # the dependency walk has a stop to find
    assert _store_file(root).exists()
    _walking_forbidden(monkeypatch)
    assert _view(analyse(root)) == fresh


def _reached(analysis: Analysis) -> list[tuple[str, str, str]]:
    """(mission, target, declaration name) for every declaration a proved target reaches."""
    return [
        (m.id, s.target.id, name)
        for m in analysis.missions
        for s in m.targets
        if s.status == "proved"
        for name in s.reached
    ]


def _with_sorry(text: str, line: int) -> str:
    """``sorry`` inserted right after the first ``:=`` at or below ``line`` (1-based)."""
    lines = text.split("\n")
    for i in range(line - 1, len(lines)):
        if ":=" in lines[i]:
            lines[i] = lines[i].replace(":=", ":= sorry", 1)
            return "\n".join(lines)
    raise AssertionError(f"no `:=` below line {line}")


def test_sorry_anywhere_a_proof_reaches_flips_it_with_a_warm_store(root: Path) -> None:
    """The mutation test of the store: every declaration a proved target reaches, given a
    ``sorry`` while the store holds the proof's walk, makes the target unproved; undone, the
    verdict comes back (from the store)."""
    warm = _agree(root)
    reached = _reached(warm)
    assert {t for _, t, _ in reached} >= {"goal", "second"}, "the fixture proves its targets"
    tried = 0
    for mission, target, name in reached:
        found = warm.workspace.lookup(name)
        if len(found) != 1:
            continue
        module, decl = found[0]
        original = module.path.read_text(encoding="utf-8")
        _write(module.path, _with_sorry(original, decl.line))
        after = _agree(root)
        verdict = next(
            s.status
            for m in after.missions
            if m.id == mission
            for s in m.targets
            if s.target.id == target
        )
        assert verdict != "proved", f"sorry in {name} left {mission}/{target} proved"
        _write(module.path, original)
        assert _view(_agree(root)) == _view(warm)
        tried += 1
    assert tried >= 6


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_edits_agree_with_walking_afresh(root: Path, seed: int) -> None:
    rng = random.Random(seed)
    files = sorted(root.glob("Formal/**/*.lean"))
    names = sorted(
        {
            m.group(1).rsplit(".", 1)[-1]
            for path in files
            for m in DECLARED.finditer(path.read_text(encoding="utf-8"))
        }
    )
    _agree(root)
    for _ in range(10):
        path = rng.choice(files)
        _write(path, rng.choice(MUTATIONS)(rng, path.read_text(encoding="utf-8"), names))
        _agree(root)


def _entries(root: Path) -> dict[str, Any]:
    data = json.loads(_store_file(root).read_text(encoding="utf-8"))
    assert data["version"] == walks.code_digest()
    entries: dict[str, Any] = data["files"]
    return entries


@pytest.mark.parametrize(
    "damage",
    [
        lambda value: ["not", "a", "walk"],
        lambda value: [value[0], "zz", value[2]] if len(value) == 3 else [["nobody"]],
        lambda value: [value[0], value[1] + "00", value[2]] if len(value) == 3 else [None, None],
        lambda value: [[1, 2], value[1], value[2]] if len(value) == 3 else ["goal"],
        lambda value: [value[0], value[1], "yes"] if len(value) == 3 else [[7]],
    ],
)
def test_damaged_entries_are_walked_again(root: Path, damage: Callable[[list[Any]], Any]) -> None:
    fresh = _view(analyse(root, use_cache=False))
    _agree(root)  # the gate's dependency walks are stored too
    entries = _entries(root)
    assert any(len(value) == 1 for value in entries.values())
    damaged = {key: damage(value) for key, value in entries.items()}
    _store_file(root).write_text(
        json.dumps({"version": walks.code_digest(), "files": damaged}), encoding="utf-8"
    )
    assert _view(_agree(root)) == fresh
    repaired = _entries(root)
    assert set(repaired) == set(entries)
    for key, value in repaired.items():  # what replaced a damaged entry is a real walk
        if damaged[key] != entries[key]:
            assert value == entries[key]


@pytest.mark.parametrize("text", ["", "{", "[]", '{"version": "other", "files": {}}'])
def test_an_unreadable_or_foreign_store_is_ignored(root: Path, text: str) -> None:
    fresh = _view(analyse(root, use_cache=False))
    _store_file(root).parent.mkdir(parents=True, exist_ok=True)
    _store_file(root).write_text(text, encoding="utf-8")
    assert _view(analyse(root)) == fresh
    assert _entries(root)  # written afresh


def test_an_entry_under_another_closure_is_not_found(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key covers every module of the closure: a change to a file the proof never
    mentions, but imports, still walks again (a new instance there would be reached)."""
    analyse(root)
    defs = root / "Formal/Shared/Defs.lean"
    _write(defs, defs.read_text(encoding="utf-8") + "\n-- a comment\n")
    walked: list[str] = []
    original = status_module._Reach.walk

    def walk(self: Any, start: Any) -> Any:
        walked.append(start[1].name)
        return original(self, start)

    monkeypatch.setattr(status_module._Reach, "walk", walk)
    stored = _view(analyse(root))
    monkeypatch.setattr(status_module._Reach, "walk", original)
    assert stored == _view(analyse(root, use_cache=False))
    assert "Formal.Alpha.goal" in walked  # imports the shared file
    assert "Formal.Gamma.goal" not in walked  # does not


def test_without_caches_there_is_no_store(root: Path) -> None:
    analyse(root, use_cache=False)
    assert not _store_file(root).exists()


def test_unused_entries_give_way_first(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    analyse(root)
    everything = set(_entries(root))
    monkeypatch.setattr(walks, "KEEP_UNUSED", 0)
    gamma = root / "Formal/Gamma/Proofs.lean"
    _write(gamma, gamma.read_text(encoding="utf-8") + "\n-- edited\n")
    analyse(root, ["gamma"])
    kept = set(_entries(root))
    assert len(kept) == 1 and not kept <= everything  # only the walk this run made


@pytest.mark.parametrize(
    ("body", "refers"),
    [
        ("goal", True),  # its own body names it
        ("trivial\ngoal", False),  # only a word after it, which may start a command, does
        ("helper\n\ntheorem helper : True := goal", True),  # through a lemma
    ],
)
def test_a_proof_refers_to_itself_only_through_what_it_surely_mentions(
    make_workspace: Callable[..., Path], body: str, refers: bool
) -> None:
    """Decided within the proof's import closure, from its own mentions (not those of an
    uncertain tail): what a walk stores is a function of that closure alone."""
    files = {
        "Formal/Case/Statements.lean": (
            "import Mathlib\n\nnamespace Formal.Case\n\n/-- The claim. -/\n"
            "def Goal : Prop := True\n\nend Formal.Case\n"
        ),
        "Formal/Case/Proofs.lean": (
            "import Formal.Case.Statements\n\nnamespace Formal.Case\n\n"
            f"theorem goal : Goal := {body}\n\nend Formal.Case\n"
        ),
    }
    root = make_workspace(files, {"case": "Formal.Case"}, use_git=False)
    stored = _agree(root)
    [target] = stored.missions[0].targets
    assert any("refers to itself" in r for r in target.reasons) == refers, target.reasons


def test_the_dependency_walk_answers_with_the_ids_it_is_asked_about(root: Path) -> None:
    """A stored dependency answer is found again only for the same other proofs under the
    same ids (targets renamed in the YAML ask a different question)."""

    def ask(analysis: Analysis, first: str, other: str) -> list[str] | None:
        sum_ = next(m for m in analysis.missions if m.id == "sum")
        goal, second = sum_.targets
        assert goal.proof_decl is not None
        [lemma] = analysis.workspace.lookup("Formal.Sum.total_le")
        return analysis.memo.dependencies(second, [(goal.proof_decl, first), (lemma, other)])

    warm = _agree(root)
    assert ask(warm, "a", "b") == ["a"]  # the lemma is reached only through the first proof
    warm.memo.keep()
    assert ask(analyse(root), "b", "a") == ["b"]
