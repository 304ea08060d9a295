"""The incremental ``check`` answers exactly what the whole gate answers, edit after edit, and
hands over to the whole gate for every change it does not bound."""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import missions.cli
from conftest import copy_repo_workspace, generated_tree, git, init_repo
from missions import recheck, roots
from missions.cache import CHECK_STATE_FILE, cache_dir_for
from missions.cli import app
from missions.stored import check_json, start_check
from test_incremental import _files
from test_incremental_fuzz import DECLARED, MUTATIONS, SEED, STEPS, yaml_edit

HELPER = "import Mathlib\n\ntheorem shared_fact : True := trivial\n"
#: Alpha's proof uses the helper: a sorry there reaches it
ALPHA_TACTIC = "have _h := shared_fact\n  nlinarith [Nat.zero_le n]"


class Clock:
    """Edits with strictly increasing modification times (the racy-file rule is off here)."""

    def __init__(self) -> None:
        self.now = time.time_ns() - 10_000_000_000

    def write(self, path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        self.touch(path)

    def touch(self, path: Path) -> None:
        self.now += 1_000_000
        os.utime(path, ns=(self.now, self.now))

    def replace(self, path: Path, old: str, new: str) -> None:
        text = path.read_text(encoding="utf-8")
        assert old in text, (path, old)
        self.write(path, text.replace(old, new, 1))


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    monkeypatch.setattr(roots, "RACY_NS", 0)
    return Clock()


@pytest.fixture
def root(make_workspace: Callable[..., Path], clock: Clock) -> Path:
    files = {
        **_files("Alpha", tactic=ALPHA_TACTIC, imports="import Formal.Shared.Helper"),
        **_files("Beta", tactic="sorry"),
        **_files("Gamma"),
        "Formal/Shared/Helper.lean": HELPER,
        "Formal.lean": "import Formal.Alpha\nimport Formal.Beta\nimport Formal.Gamma\n",
    }
    missions = {"alpha": "Formal.Alpha", "beta": "Formal.Beta", "gamma": "Formal.Gamma"}
    built = make_workspace(files, missions)
    for command in (["pin"], ["sync"]):
        assert CliRunner().invoke(app, [*command, "--root", str(built)]).exit_code == 0
    git(built, "add", "-A")
    git(built, "commit", "-qm", "pinned and synced")
    _check(built)  # the whole gate: it leaves the state the next check starts from
    return built


def _check(root: Path, *options: str) -> tuple[dict, str]:
    """``check --json`` and the last line of ``check``, through the CLI."""
    runner = CliRunner()
    result = runner.invoke(app, ["check", "--json", *options, "--root", str(root)])
    assert result.exit_code in (0, 1), result.output
    text = runner.invoke(app, ["check", *options, "--root", str(root)])
    return json.loads(result.stdout), text.stdout.rstrip("\n").rsplit("\n", 1)[-1]


def _full(root: Path) -> tuple[dict, str]:
    return _check(root, "--no-cache")  # not a plain run: nothing stored, nothing read


def _rechecked(root: Path) -> tuple[dict, str] | None:
    answer = recheck.recheck(root, start_check(root))
    return None if answer is None else (check_json(answer), answer["headline"])


def _same_as_full(root: Path) -> dict:
    answer = _rechecked(root)
    assert answer is not None, "the incremental path should have answered"
    assert answer == _full(root)
    return answer[0]


def _rules(answer: dict, mission: str) -> set[str]:
    return {v["rule"] for v in answer["violations"] if v["mission"] == mission}


def test_a_proof_edit_is_gated_again_only_where_it_reaches(root: Path, clock: Clock) -> None:
    alpha = root / "Formal/Alpha/Proofs.lean"
    before = _full(root)[0]
    assert "status-drift" not in _rules(before, "alpha")
    clock.replace(alpha, "nlinarith [Nat.zero_le n]", "sorry")
    lost = _same_as_full(root)
    assert "status-regression" in _rules(lost, "alpha")  # recorded proved, now stated
    clock.replace(alpha, "sorry", "nlinarith [Nat.zero_le n]")
    assert _same_as_full(root) == before
    beta = root / "Formal/Beta/Proofs.lean"
    clock.replace(beta, "sorry", "nlinarith [Nat.zero_le n]")
    assert "status-drift" in _rules(_same_as_full(root), "beta")  # proved, YAML says stated


def test_an_edit_to_a_helper_a_proof_imports_reaches_that_proof(root: Path, clock: Clock) -> None:
    helper = root / "Formal/Shared/Helper.lean"
    clock.write(helper, HELPER + "\naxiom cheat : False\n")
    answer = _same_as_full(root)
    assert any(v["rule"] == "forbidden-construct" for v in answer["violations"])
    clock.write(helper, HELPER)
    assert not any(v["rule"] == "forbidden-construct" for v in _same_as_full(root)["violations"])


def test_sorry_anywhere_a_proof_reaches_flips_the_gate(root: Path, clock: Clock) -> None:
    """Mutation: a ``sorry`` on any line of a proof or a helper it imports is found."""
    for rel in ("Formal/Alpha/Proofs.lean", "Formal/Shared/Helper.lean"):
        path = root / rel
        original = path.read_text(encoding="utf-8")
        lines = original.split("\n")
        spots = [i for i, line in enumerate(lines) if ":=" in line or line.startswith("  ")]
        assert spots
        for i in spots:
            mutated = [*lines]
            if ":=" in lines[i]:
                mutated[i] = lines[i].split(":=", 1)[0] + ":= sorry"
            else:
                mutated[i] = "  sorry"
            clock.write(path, "\n".join(mutated))
            answer = _same_as_full(root)
            assert not answer["ok"] and "alpha" in {v["mission"] for v in answer["violations"]}, (
                rel,
                i,
            )
            clock.write(path, original)
            _same_as_full(root)


def test_the_cli_answers_a_proof_edit_without_the_whole_gate(
    root: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock.replace(root / "Formal/Gamma/Proofs.lean", "nlinarith [Nat.zero_le n]", "sorry")
    full = CliRunner().invoke(app, ["check", "--no-cache", "--root", str(root)])

    def whole_gate(*args: object, **kwargs: object) -> None:
        raise AssertionError("the whole gate ran")

    monkeypatch.setattr(missions.cli, "analyse_and_lint", whole_gate)
    result = CliRunner().invoke(app, ["check", "--root", str(root)])
    assert (result.exit_code, result.stdout) == (full.exit_code, full.stdout)
    assert "gamma" in result.stdout
    # and the answer was stored under the tree as it is: the next run reads it
    again = CliRunner().invoke(app, ["check", "--root", str(root)])
    assert again.stdout == full.stdout


def test_a_statement_edit_and_its_pin_are_gated_again(root: Path, clock: Clock) -> None:
    """The benchmark's change: a definition added to a statements file (the pin moves; no
    lint rule starts in it), then the pin recorded (the YAML moves)."""
    statements = root / "Formal/Alpha/Statements.lean"
    clock.write(statements, statements.read_text(encoding="utf-8") + "\ndef added : ℕ := 1\n")
    assert "statement-pin" in _rules(_same_as_full(root), "alpha")
    pinned = CliRunner().invoke(app, ["pin", "alpha", "--reason", "a test", "--root", str(root)])
    assert pinned.exit_code == 0, pinned.output
    clock.touch(root / "missions/alpha.yaml")
    assert "statement-pin" not in _rules(_same_as_full(root), "alpha")


def test_yaml_edits_are_gated_again_in_their_mission(root: Path, clock: Clock) -> None:
    beta = root / "missions/beta.yaml"
    clock.replace(beta, "status: stated", "status: proved")  # a hand-made claim
    assert "status-drift" in _rules(_same_as_full(root), "beta")
    clock.replace(beta, "status: proved", "status: stated")
    clock.replace(beta, 'title: "Test mission beta"', 'title: "Renamed"')
    assert "status-drift" not in _rules(_same_as_full(root), "beta")
    clock.touch(root / "missions/gamma.yaml")  # moved, not changed
    _same_as_full(root)


def test_the_policies_of_a_mission_gated_again_are_applied_again(root: Path, clock: Clock) -> None:
    readme = "| Mission | Title | Module |\n|---|---|---|\n| `alpha` | A | `Formal.Alpha` |\n"
    clock.write(root / "README.md", readme)
    clock.write(root / "missions.yaml", "policy:\n  readme_table: README.md\n")
    _check(root)  # a README: the whole gate
    rows = {v["mission"] for v in _full(root)[0]["violations"] if v["rule"] == "readme-row"}
    assert rows == {"beta", "gamma"}
    clock.replace(root / "missions/gamma.yaml", 'title: "Test mission gamma"', 'title: "New"')
    answer = _same_as_full(root)
    assert any("| New |" in v["message"] for v in answer["violations"])


def test_a_witness_module_a_yaml_now_links_keys_the_stored_answer(root: Path, clock: Clock) -> None:
    """A witness module outside the tree (one the tool ships) that an edited YAML links is
    an input of the answer: the stored answer is keyed by its source too."""
    from missions.inputs import _record_path
    from missions.stored import CHECK_PURPOSE
    from missions.witness import witness_sources

    beta = root / "missions/beta.yaml"
    module = "missions.witnesses.sgd_bottou"
    clock.replace(beta, "    depends_on:", f"    witness: {module}\n    depends_on:")
    answer = _same_as_full(root)
    assert "witness-stale" in _rules(answer, "beta")  # linked, never stamped
    from missions.catalog import load_catalog

    mission = load_catalog(root, only=["beta"]).files[0].mission
    sources = witness_sources(mission)
    assert sources and not any(s.startswith(str(root)) for s in sources)
    record = json.loads(Path(_record_path(str(root), CHECK_PURPOSE)).read_text(encoding="utf-8"))
    assert set(sources) <= set(record["extra"])


@pytest.mark.parametrize(
    "edit",
    [
        ("statement: Formal.Beta.Goal", "statement: Formal.Beta.Other"),  # what the lint reads
        ("module: Formal.Beta", "module: Formal.Gamma"),  # where its names are found
        ("targets:", "targets: 5\nothers:"),  # bad input: the whole gate reports it
    ],
)
def test_yaml_edits_it_cannot_bound_run_the_whole_gate(
    root: Path, clock: Clock, edit: tuple[str, str]
) -> None:
    clock.replace(root / "missions/beta.yaml", *edit)
    assert _rechecked(root) is None
    runner = CliRunner()
    whole = runner.invoke(app, ["check", "--no-cache", "--root", str(root)])
    plain = runner.invoke(app, ["check", "--root", str(root)])
    assert (plain.exit_code, plain.stdout, plain.stderr) == (
        whole.exit_code,
        whole.stdout,
        whole.stderr,
    )


@pytest.mark.parametrize(
    "change",
    [
        "statement",
        "readme",
        "new-file",
        "removed-file",
        "imports",
        "exit",
        "commit",
        "damaged-state",
    ],
)
def test_whatever_it_cannot_bound_runs_the_whole_gate(
    root: Path, clock: Clock, change: str
) -> None:
    alpha = root / "Formal/Alpha/Proofs.lean"
    if change == "statement":  # a target's statement: lint rules start there
        clock.replace(root / "Formal/Alpha/Statements.lean", "n ≤ n ^ 2", "n ≤ n ^ 2 + 0")
    elif change == "readme":
        clock.write(root / "README.md", "# A workspace\n")
    elif change == "new-file":
        clock.write(root / "Formal/Shared/New.lean", "theorem fresh : True := trivial\n")
    elif change == "removed-file":
        (root / "Formal/Shared/Helper.lean").unlink()
    elif change == "imports":
        clock.replace(alpha, "import Formal.Shared.Helper", "")
    elif change == "exit":
        clock.write(alpha, alpha.read_text(encoding="utf-8") + "\n#exit\n")
    elif change == "commit":
        clock.replace(alpha, "nlinarith [Nat.zero_le n]", "sorry")
        git(root, "commit", "-qam", "a sorry")
        # the working tree's edit alone would be answered; the commit is what moved
    elif change == "damaged-state":
        clock.replace(alpha, "nlinarith [Nat.zero_le n]", "sorry")
        state = Path(cache_dir_for(str(root))) / CHECK_STATE_FILE
        state.write_text(state.read_text(encoding="utf-8")[:-40], encoding="utf-8")
    assert _rechecked(root) is None
    assert _check(root) == _full(root)  # the whole gate answers, and renews the state
    # then an edit it bounds is answered again, from the state the whole gate renewed
    clock.replace(root / "Formal/Gamma/Proofs.lean", "nlinarith", "simp; nlinarith")
    _same_as_full(root)


def test_a_proof_renamed_away_is_looked_up_among_every_module(root: Path, clock: Clock) -> None:
    """A copy of the proof's name outside the root's imports (a scratch file) is the
    mission's once the copy inside is gone: only the whole workspace knows of it."""
    clock.write(
        root / "Formal/Scratch.lean",
        "theorem Formal.Alpha.goal : Formal.Alpha.Goal := by\n  sorry\n",
    )
    _check(root)
    _same_as_full(root)  # an edit elsewhere is answered
    clock.replace(root / "Formal/Alpha/Proofs.lean", "theorem goal", "theorem goal'")
    assert _rechecked(root) is None
    assert _check(root) == _full(root)


@pytest.mark.parametrize("damage", ["modules", "missions", "parts", "files"])
def test_a_state_of_the_wrong_shape_runs_the_whole_gate(
    root: Path, clock: Clock, damage: str
) -> None:
    """A state is the tool's own file, but a cache folder is anyone's: any shape of it that
    is not the tool's hands over to the whole gate, which writes a good one."""
    state = Path(cache_dir_for(str(root))) / CHECK_STATE_FILE
    data = json.loads(state.read_text(encoding="utf-8"))
    data[damage] = [] if isinstance(data[damage], dict) else {"x": 1}
    state.write_text(json.dumps(data), encoding="utf-8")
    clock.replace(root / "Formal/Alpha/Proofs.lean", "nlinarith [Nat.zero_le n]", "sorry")
    assert _rechecked(root) is None
    assert _check(root) == _full(root)
    clock.replace(root / "Formal/Gamma/Proofs.lean", "nlinarith", "simp; nlinarith")
    _same_as_full(root)


def test_no_state_is_kept_while_an_answer_is_not(
    root: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A check that stores no answer (a file changed within the racy window) keeps no state
    either: the state's stamps are always those of a stored answer."""
    state = Path(cache_dir_for(str(root))) / CHECK_STATE_FILE
    state.unlink()
    clock.replace(root / "Formal/Alpha/Proofs.lean", "nlinarith [Nat.zero_le n]", "sorry")
    monkeypatch.setattr(roots, "RACY_NS", 3600 * 10**9)  # every file counts as just changed
    _check(root)
    assert not state.exists()
    monkeypatch.setattr(roots, "RACY_NS", 0)
    _check(root)
    assert state.exists()


def test_a_state_from_other_stamps_is_not_used(root: Path, clock: Clock) -> None:
    """The stamps name the tree: a state kept for another tree layout never answers."""
    state = Path(cache_dir_for(str(root))) / CHECK_STATE_FILE
    data = json.loads(state.read_text(encoding="utf-8"))
    data["parts"] = [p.replace(str(root), "/elsewhere") for p in data["parts"]]
    state.write_text(json.dumps(data), encoding="utf-8")
    clock.replace(root / "Formal/Alpha/Proofs.lean", "nlinarith [Nat.zero_le n]", "sorry")
    assert _rechecked(root) is None


# ---------------------------------------------------------------- random edit sequences
# (MISSIONS_FUZZ_STEPS and MISSIONS_FUZZ_SEED as for tests/test_incremental_fuzz.py)
@pytest.mark.slow
@pytest.mark.parametrize("seed", [31, 32])
def test_random_edits_of_the_bundled_missions(tmp_path: Path, clock: Clock, seed: int) -> None:
    root = copy_repo_workspace(tmp_path)
    _fuzz(root, clock, random.Random(seed + SEED), STEPS)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [41, 42])
def test_random_edits_of_a_generated_tree(tmp_path: Path, clock: Clock, seed: int) -> None:
    root = generated_workspace(tmp_path / "tree", seed)
    _fuzz(root, clock, random.Random(seed + SEED), STEPS)


def generated_workspace(root: Path, seed: int) -> Path:
    """A committed workspace of 12 missions from ``benchmarks/generate_tree.py``."""
    generated_tree(root, seed)
    init_repo(root, "generated")
    return root


class RandomEdits:
    """Random edits of a workspace's Lean files (:data:`MUTATIONS`) and, one in five, of
    its missions' YAML (:func:`yaml_edit`), with rising times."""

    def __init__(self, root: Path, clock: Clock, rng: random.Random) -> None:
        self.clock, self.rng = clock, rng
        self.files = sorted(root.glob("Formal/**/*.lean"))
        self.yamls = sorted((root / "missions").glob("*.yaml"))
        texts = [path.read_text(encoding="utf-8") for path in self.files]
        self.names = sorted(
            {m.group(1).rsplit(".", 1)[-1] for t in texts for m in DECLARED.finditer(t)}
        )

    def edit(self) -> Path:
        """Make one edit; the file edited."""
        rng = self.rng
        if rng.random() < 0.2:
            path = rng.choice(self.yamls)
            self.clock.write(path, yaml_edit(rng, path.read_text(encoding="utf-8")))
        else:
            path = rng.choice(self.files)
            edited = rng.choice(MUTATIONS)(rng, path.read_text(encoding="utf-8"), self.names)
            self.clock.write(path, edited)
        return path


def _fuzz(root: Path, clock: Clock, rng: random.Random, steps: int) -> None:
    """Random edits of Lean files and of the missions' YAML, compared with the whole gate
    after each; at least one must be answered incrementally."""
    edits = RandomEdits(root, clock, rng)
    _check(root)
    answered = 0
    for step in range(steps):
        path = edits.edit()
        answer = _rechecked(root)
        full = _full(root)
        if answer is None:
            assert _check(root) == full
            continue
        answered += 1
        assert answer == full, f"edit {step} of {path.relative_to(root)} answered differently"
    print(f"{answered} of {steps} edits answered incrementally")  # shown with -s
    assert answered, "no edit was answered incrementally"
