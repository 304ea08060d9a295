"""The incremental ``status`` prints exactly what the full command prints, edit after edit,
and hands over to the full command whenever it cannot bound an edit."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import copy_repo_workspace
from missions import incremental
from missions.cache import STATUS_STATE_FILE
from missions.cli import app
from missions.roots import lean_file_stats, library_roots

STATEMENTS = """\
import Mathlib

namespace Formal.{name}

/-- The claim of mission {name}. -/
def Goal : Prop := ∀ n : ℕ, n ≤ n ^ 2

end Formal.{name}
"""
PROOFS = """\
import Formal.{name}.Statements
{imports}
namespace Formal.{name}

theorem goal : Goal := by
  intro n
  {tactic}

end Formal.{name}
"""
ROOT = "import Formal.{name}.Statements\nimport Formal.{name}.Proofs\n"


def _files(name: str, tactic: str = "nlinarith [Nat.zero_le n]", imports: str = "") -> dict:
    return {
        f"Formal/{name}/Statements.lean": STATEMENTS.format(name=name),
        f"Formal/{name}/Proofs.lean": PROOFS.format(name=name, tactic=tactic, imports=imports),
        f"Formal/{name}.lean": ROOT.format(name=name),
    }


@pytest.fixture
def root(make_workspace: Callable[..., Path]) -> Path:
    files = {
        **_files("Alpha", imports="import Formal.Shared.Helper"),
        **_files("Beta", tactic="sorry"),
        "Formal/Shared/Helper.lean": "import Mathlib\n\ntheorem shared_fact : True := trivial\n",
        "Formal.lean": "import Formal.Alpha\nimport Formal.Beta\n",
    }
    built = make_workspace(files, {"alpha": "Formal.Alpha", "beta": "Formal.Beta"})
    for command in (["pin"], ["sync"]):
        assert CliRunner().invoke(app, [*command, "--root", str(built)]).exit_code == 0
    _status(built)  # a full run leaves the state the incremental path starts from
    return built


def _status(root: Path, *options: str) -> str:
    result = CliRunner().invoke(app, ["status", "--json", *options, "--root", str(root)])
    assert result.exit_code == 0, result.output
    return result.stdout


def _incremental(root: Path) -> str | None:
    libraries = library_roots(root)
    return incremental.status_text(str(root), libraries, lean_file_stats(str(root), libraries))


def _same_as_full(root: Path) -> str:
    text = _incremental(root)
    assert text is not None, "the incremental path should have answered"
    assert text == _status(root, "--no-cache")
    return text


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    stat = path.stat()  # a new mtime even within the file system's time resolution
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))


def _targets(text: str) -> dict[str, str]:
    return {m["id"]: m["targets"][0]["status"] for m in json.loads(text)["missions"]}


def test_a_proof_edit_recomputes_only_what_it_touches(root: Path) -> None:
    proofs = root / "Formal/Alpha/Proofs.lean"
    _write(proofs, proofs.read_text(encoding="utf-8").replace("nlinarith [Nat.zero_le n]", "sorry"))
    assert _targets(_same_as_full(root)) == {"alpha": "stated", "beta": "stated"}
    _write(proofs, proofs.read_text(encoding="utf-8").replace("sorry", "nlinarith [Nat.zero_le n]"))
    assert _targets(_same_as_full(root)) == {"alpha": "proved", "beta": "stated"}
    beta = root / "Formal/Beta/Proofs.lean"
    _write(beta, beta.read_text(encoding="utf-8").replace("sorry", "nlinarith [Nat.zero_le n]"))
    assert _targets(_same_as_full(root)) == {"alpha": "proved", "beta": "proved"}


def test_a_helper_edit_reaches_the_missions_that_import_it(root: Path) -> None:
    helper = root / "Formal/Shared/Helper.lean"
    _write(helper, "import Mathlib\n\n@[simp] theorem shared_fact : True := sorry\n")
    assert _targets(_same_as_full(root))["alpha"] == "stated"


def _handed_over(root: Path) -> str:
    """The incremental path declines; the full command answers (and leaves a new state)."""
    assert _incremental(root) is None, "the incremental path should have handed over"
    return _status(root)


def test_new_and_removed_modules(root: Path) -> None:
    extra = root / "Formal/Shared/Extra.lean"
    _write(extra, "import Mathlib\n\ninstance broken : Inhabited Nat := sorry\n")
    _same_as_full(root)  # nothing imports it yet
    helper = root / "Formal/Shared/Helper.lean"
    _write(
        helper,
        "import Mathlib\nimport Formal.Shared.Extra\n\ntheorem shared_fact : True := trivial\n",
    )
    # what `lake build` reaches may move with any import: the full command answers
    assert _targets(_handed_over(root))["alpha"] == "stated"  # the instance is reachable
    extra.unlink()
    assert _targets(_handed_over(root))["alpha"] == "stated"  # now an unresolved import
    _write(helper, "import Mathlib\n\ntheorem shared_fact : True := trivial\n")
    assert _targets(_handed_over(root))["alpha"] == "proved"
    proofs = root / "Formal/Alpha/Proofs.lean"
    _write(proofs, proofs.read_text(encoding="utf-8").replace("nlinarith [Nat.zero_le n]", "sorry"))
    assert _targets(_same_as_full(root))["alpha"] == "stated"  # answered again


def test_a_new_module_that_something_already_imports_is_handed_over(root: Path) -> None:
    """`Formal.Alpha` imports a module that does not exist yet: creating it changes what
    `lake build` elaborates, which only the full command computes."""
    mission_root = root / "Formal/Alpha.lean"
    _write(mission_root, ROOT.format(name="Alpha") + "import Formal.Alpha.Later\n")
    assert _targets(_handed_over(root))["alpha"] == "stated"  # an unresolved import
    _write(root / "Formal/Alpha/Later.lean", "import Mathlib\n")
    assert _targets(_handed_over(root))["alpha"] == "proved"


def test_a_proof_the_mission_root_stops_importing(root: Path) -> None:
    mission_root = root / "Formal/Alpha.lean"
    _write(mission_root, "import Formal.Alpha.Statements\n")
    text = _handed_over(root)
    assert _targets(text)["alpha"] == "stated"
    reasons = json.loads(text)["missions"][0]["targets"][0]["reasons"]
    assert any("does not import Formal.Alpha.Proofs" in r for r in reasons), reasons


def test_a_scratch_copy_of_a_proof_name(root: Path) -> None:
    scratch = root / "Formal/Scratch.lean"
    _write(scratch, "import Mathlib\n\ntheorem Formal.Beta.goal : True := trivial\n")
    _same_as_full(root)


def test_a_missing_proof_names_every_exit(root: Path) -> None:
    """The reason for a missing proof names each `#exit` of the workspace, also one in a
    file no mission imports; a name declared nowhere the root imports is looked up among
    every module, so the full command answers."""
    _write(root / "Formal/Scratch.lean", "import Mathlib\n\n#exit\n")
    _write(root / "Formal/Scratch/Inner.lean", "import Mathlib\n#exit\n")
    _status(root)  # a new `#exit`: the full command
    proofs = root / "Formal/Alpha/Proofs.lean"
    _write(proofs, proofs.read_text(encoding="utf-8").replace("theorem goal", "theorem goal'"))
    assert _incremental(root) is None
    reasons = json.loads(_status(root))["missions"][0]["targets"][0]["reasons"]
    assert "at Formal/Scratch.lean:3, Formal/Scratch/Inner.lean:2 cuts" in reasons[0]


def test_an_index_rewritten_by_another_run_is_not_trusted(root: Path) -> None:
    """Another process scanned the edit (the index knows it) but never answered status: the
    recorded answer predates the edit, so it must not be served."""
    from missions.lean.workspace import load_workspace

    proofs = root / "Formal/Alpha/Proofs.lean"
    _write(proofs, proofs.read_text(encoding="utf-8").replace("nlinarith [Nat.zero_le n]", "sorry"))
    load_workspace(root)  # updates the scan index, not the status state
    assert _targets(_same_as_full(root))["alpha"] == "stated"


def test_a_touched_file_changes_nothing(root: Path) -> None:
    before = _status(root)
    proofs = root / "Formal/Alpha/Proofs.lean"
    _write(proofs, proofs.read_text(encoding="utf-8"))
    assert _same_as_full(root) == before


@pytest.mark.parametrize(
    "edit",
    ["statement", "yaml", "yaml-and-statements", "exit", "lakefile"],
)
def test_edits_it_cannot_bound_go_to_the_full_command(root: Path, edit: str) -> None:
    if edit == "statement":
        path = root / "Formal/Alpha/Statements.lean"
        _write(path, path.read_text(encoding="utf-8").replace("n ≤ n ^ 2", "n ≤ n ^ 3"))
    elif edit == "yaml":  # what the lint read of the mission: a statement it names
        path = root / "missions/alpha.yaml"
        text = path.read_text(encoding="utf-8")
        _write(path, text.replace("statement: Formal.Alpha.Goal", "statement: Formal.Beta.Goal"))
    elif edit == "yaml-and-statements":  # a YAML and a statement closure at once
        path = root / "missions/alpha.yaml"
        _write(path, path.read_text(encoding="utf-8").replace("The goal holds.", "It holds."))
        path = root / "Formal/Beta/Statements.lean"
        _write(path, path.read_text(encoding="utf-8") + "\ndef added : ℕ := 1\n")
    elif edit == "exit":
        path = root / "Formal/Beta/Proofs.lean"
        _write(path, path.read_text(encoding="utf-8") + "\n#exit\n")
    else:
        path = root / "lakefile.lean"
        _write(path, path.read_text(encoding="utf-8") + "\n-- a comment\n")
    assert _incremental(root) is None
    # the command itself still answers, through the full path
    assert _status(root) == _status(root, "--no-cache")


def test_the_command_answers_an_edit_incrementally(root: Path) -> None:
    """Through the console entry point, not only the function: same text as the full run."""
    proofs = root / "Formal/Alpha/Proofs.lean"
    _write(proofs, proofs.read_text(encoding="utf-8").replace("nlinarith [Nat.zero_le n]", "sorry"))
    from missions import fastpath

    argv = ["status", "--json", "--root", str(root)]
    full = _status(root, "--no-cache")
    assert fastpath.try_status(argv) is True  # answered without the full command
    assert _targets(full)["alpha"] == "stated"


def test_a_failing_incremental_path_hands_over_to_the_full_command(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The incremental path is an optimization: its failure must never fail ``status``."""
    proofs = root / "Formal/Alpha/Proofs.lean"
    _write(proofs, proofs.read_text(encoding="utf-8") + "\n-- edited\n")
    from missions import fastpath

    def broken(*_: object) -> str:
        raise AttributeError("a bug in the incremental path")

    monkeypatch.setattr(incremental, "status_text", broken)
    argv = ["status", "--json", "--root", str(root)]
    monkeypatch.delenv("MISSIONS_DEBUG", raising=False)
    assert fastpath.try_status(argv) is False  # the full command answers instead
    monkeypatch.setenv("MISSIONS_DEBUG", "1")
    with pytest.raises(AttributeError):
        fastpath.try_status(argv)


def test_the_assembled_text_is_json_dumps(tmp_path: Path) -> None:
    repo = copy_repo_workspace(tmp_path)
    data = json.loads(_status(repo, "--no-cache"))
    assert data["missions"]
    expected = json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n"
    assert incremental.render(data) == expected
    empty = {"root": "/r", "evidence": "source", "missions": [], "summary": {"missions": 0}}
    assert incremental.render(empty) == json.dumps(empty, indent=2) + "\n"
    one = data["missions"][0]
    for missions in ([], [one], [one, {"id": "x\ny", "targets": [[], {}]}], [{}]):
        for extra in ({}, {"summary": {"a": [1, {"b": "é"}]}}, {"lint": None, "z": "\n"}):
            shaped = {"root": "/r ü", "evidence": "kernel", "missions": missions, **extra}
            encoded = json.dumps(shaped, indent=2, ensure_ascii=False) + "\n"
            assert incremental.render(shaped) == encoded


def test_the_state_written_a_mission_at_a_time_reads_back_whole(tmp_path: Path) -> None:
    """The state is JSON of everything but the missions' answer texts, then each text after
    a NUL: it reads back to what was written, each text exactly the mission's entry of the
    answer; a state cut short or with a text too few or too many is not read."""
    from missions.cache import cache_dir_for

    repo = copy_repo_workspace(tmp_path)
    answer = json.loads(_status(repo))
    path = Path(cache_dir_for(str(repo))) / STATUS_STATE_FILE
    text = path.read_text(encoding="utf-8")
    state = incremental._read_state(str(path))
    assert state is not None and len(state["missions"]) == len(answer["missions"]) > 1
    for mission, entry in zip(state["missions"], answer["missions"], strict=True):
        assert json.loads(mission["text"]) == entry
    assert "".join(incremental._state_pieces(state)) == text
    head = text.partition("\x00")[0]
    assert all("text" not in record for record in json.loads(head)["missions"])
    for damaged in (text[: len(head) - 1], text + "\x00{}", text.rsplit("\x00", 1)[0], ""):
        path.write_text(damaged, encoding="utf-8")
        assert incremental._read_state(str(path)) is None


def test_an_answer_written_in_pieces_is_the_whole_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer goes to stdout and to the store a piece at a time; pieces of any size
    (here a few characters, splitting multi-byte ones' neighbours) make the same bytes."""
    from missions import answers

    repo = copy_repo_workspace(tmp_path)
    whole = _status(repo, "--no-cache")
    monkeypatch.setattr(answers, "PIECE", 7)
    assert _status(repo) == whole  # the full command, written in pieces, and stored
    assert answers.lookup(repo, answers.fingerprint(repo, [], _stats(repo))) == whole.encode()
    text = "é∀x" * 5 + "\n"
    answers.store(repo, "k", text)
    assert answers.lookup(repo, "k") == text.encode()


def _stats(root: Path) -> list[tuple[str, os.stat_result]]:
    return lean_file_stats(str(root), library_roots(root))


def test_proof_edits_in_the_bundled_missions(tmp_path: Path) -> None:
    """Multi-target missions with dependencies, as users write them: after editing a proof
    module, the incremental answer equals the full command's (missions taken from the YAML)."""
    repo = copy_repo_workspace(tmp_path)
    _status(repo)
    from missions.catalog import load_catalog
    from missions.lean.workspace import load_workspace
    from missions.status import analyze

    analysis = analyze(load_catalog(repo), load_workspace(repo))
    proof_files = sorted(
        {
            status.proof_decl[0].path
            for mission in analysis.missions
            if sum(t.proof_decl is not None for t in mission.targets) > 1
            for status in mission.targets
            if status.proof_decl is not None
        }
    )
    assert proof_files, "the catalogue has a mission with several proofs"
    for path in proof_files[:3]:
        _write(path, path.read_text(encoding="utf-8") + "\n-- edited\n")
        _same_as_full(repo)


def test_a_proof_renamed_away_is_looked_up_among_every_module(root: Path) -> None:
    """A copy of the proof's name outside the root's imports (a scratch file) is the
    mission's once the copy inside is gone: the full command, which sees every module,
    answers that."""
    scratch = "theorem Formal.Alpha.goal : Formal.Alpha.Goal := by\n  sorry\n"
    _write(root / "Formal/Scratch.lean", scratch)
    _status(root)
    proofs = root / "Formal/Alpha/Proofs.lean"
    _write(proofs, proofs.read_text(encoding="utf-8").replace("theorem goal", "theorem goal'"))
    assert _incremental(root) is None
    assert "Formal/Scratch.lean" in _status(root)


def test_yaml_edits_recompute_their_mission(root: Path) -> None:
    """A mission YAML edited (its text, a recorded status, its title) is loaded alone and its
    entry recomputed; the lint counts, which read none of that, are kept."""
    alpha = root / "missions/alpha.yaml"
    _write(alpha, alpha.read_text(encoding="utf-8").replace("The goal holds.", "It holds."))
    _same_as_full(root)
    beta = root / "missions/beta.yaml"
    _write(beta, beta.read_text(encoding="utf-8").replace('"Test mission beta"', '"Renamed"'))
    assert '"title": "Renamed"' in _same_as_full(root)
    proofs = root / "Formal/Beta/Proofs.lean"
    _write(proofs, proofs.read_text(encoding="utf-8").replace("sorry", "nlinarith [Nat.zero_le n]"))
    assert _targets(_same_as_full(root))["beta"] == "proved"
    # a proof edited and then synced, status not run in between: both at once
    _write(proofs, proofs.read_text(encoding="utf-8").replace("nlinarith", "simp; nlinarith"))
    synced = CliRunner().invoke(app, ["sync", "--root", str(root)])
    assert synced.exit_code == 0, synced.output
    _write(beta, beta.read_text(encoding="utf-8"))  # a distinct stamp for the sync's write
    assert json.loads(_same_as_full(root))["missions"][1]["targets"][0]["status"] == "proved"


def test_the_importers_of_touched_modules_are_those_whose_closure_holds_one() -> None:
    """The edit path finds the missions a change reaches backwards, from the touched modules
    (:func:`incremental._importers`); it must agree with each module's own import closure
    (:func:`incremental._closure`) on random graphs with cycles, imports of modules outside
    the graph and touched modules that no longer exist."""
    import random

    rng = random.Random(25)
    for _ in range(300):
        names = [f"M{i}" for i in range(rng.randint(1, 14))]
        outside = ["Gone", "Mathlib.X"]
        graph = {
            name: rng.sample(names + outside, rng.randint(0, min(4, len(names))))
            for name in names
            if rng.random() < 0.9  # a module the index no longer holds
        }
        touched = set(rng.sample(names + outside, rng.randint(0, 3)))
        reaching = incremental._importers(graph, touched)
        memo: dict[str, set[str]] = {}
        for start in names + outside:
            holds = bool(touched & incremental._closure(graph, start, memo))
            assert (start in reaching) == holds, (graph, touched, start)
