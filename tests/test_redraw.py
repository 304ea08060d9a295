"""The incremental dashboard writes exactly the site the whole dashboard writes, edit after
edit, and hands over to the whole dashboard for every change it does not bound."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import missions.cli
from conftest import copy_repo_workspace, git, init_repo
from missions import redraw
from missions.cache import cache_dir_for, dashboard_state_path
from missions.cli import app
from missions.html import page_name
from missions.stored import start_site
from test_incremental_fuzz import SEED, STEPS
from test_recheck import Clock, RandomEdits, generated_workspace
from test_recheck import clock as clock  # fixture: edits with rising times
from test_recheck import root as root  # fixture: a workspace of three missions

#: When a page was generated: a page kept because nothing it shows changed keeps its time.
GENERATED = re.compile(r"Generated \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d")


def _report(root: Path, out: Path) -> None:
    """``report --format html -o OUT`` through the CLI."""
    args = ["report", "--format", "html", "-o", str(out), "--root", str(root)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output


def _read_site(out: Path) -> dict[str, str]:
    return {
        path.name: GENERATED.sub("Generated -", path.read_text(encoding="utf-8"))
        for path in sorted(out.iterdir())
    }


def _full(root: Path, out: Path) -> dict[str, str]:
    """The whole dashboard, written afresh into an empty folder beside ``out``."""
    fresh = out.with_name(out.name + "-full")
    if fresh.exists():
        for path in fresh.iterdir():
            path.unlink()
        fresh.rmdir()
    state = Path(dashboard_state_path(str(root), fresh))
    state.unlink(missing_ok=True)  # no state for this folder: the whole dashboard runs
    _report(root, fresh)
    return _read_site(fresh)


def _redrawn(root: Path, out: Path) -> dict[str, str] | None:
    written = redraw.redraw(root, start_site(root, "html", out), out)
    return None if written is None else _read_site(out)


def _same_as_full(root: Path, out: Path) -> dict[str, str]:
    site = _redrawn(root, out)
    assert site is not None, "the incremental dashboard should have answered"
    assert site == _full(root, out)
    return site


@pytest.fixture
def out(root: Path, tmp_path: Path) -> Path:
    """A dashboard folder outside the workspace, written once by the whole dashboard."""
    site = tmp_path / "site"
    _report(root, site)
    assert Path(dashboard_state_path(str(root), site)).exists()
    return site


def _status_on_index(site: dict[str, str], mission: str) -> str:
    card = re.search(rf'<a href="{page_name(mission)}">.*?</li>', site["index.html"], re.S)
    assert card is not None
    return card.group(0)


def test_a_proof_edit_redraws_the_site_the_whole_dashboard_writes(
    root: Path, out: Path, clock: Clock
) -> None:
    before = _read_site(out)
    clock.replace(root / "Formal/Alpha/Proofs.lean", "nlinarith [Nat.zero_le n]", "sorry")
    after = _same_as_full(root, out)
    assert after[page_name("alpha")] != before[page_name("alpha")]
    assert _status_on_index(after, "alpha") != _status_on_index(before, "alpha")
    assert after[page_name("gamma")] == before[page_name("gamma")]


def test_sorry_anywhere_a_proof_reaches_flips_its_page(root: Path, out: Path, clock: Clock) -> None:
    """Mutation: a sorry in the helper alpha's proof uses, in every lemma-shaped place."""
    helper = root / "Formal/Shared/Helper.lean"
    original = helper.read_text(encoding="utf-8")
    before = _read_site(out)[page_name("alpha")]
    clock.write(helper, original.replace(":= trivial", ":= sorry"))
    assert _same_as_full(root, out)[page_name("alpha")] != before
    clock.write(helper, original)
    assert _same_as_full(root, out)[page_name("alpha")] == before


def test_a_statement_edit_and_its_pin_are_redrawn(root: Path, out: Path, clock: Clock) -> None:
    statements = root / "Formal/Beta/Statements.lean"
    clock.write(statements, statements.read_text(encoding="utf-8") + "\ndef betaExtra : ℕ := 1\n")
    _same_as_full(root, out)
    pinned = CliRunner().invoke(app, ["pin", "beta", "--reason", "test", "--root", str(root)])
    assert pinned.exit_code == 0, pinned.output
    clock.touch(root / "missions/beta.yaml")
    _same_as_full(root, out)


def test_yaml_edits_are_redrawn_in_their_mission(root: Path, out: Path, clock: Clock) -> None:
    path = root / "missions/gamma.yaml"
    text = path.read_text(encoding="utf-8")
    title = re.search(r"^title: (.*)$", text, re.M)
    assert title is not None
    clock.write(path, text.replace(title.group(0), "title: A gamma retitled"))
    site = _same_as_full(root, out)
    assert "A gamma retitled" in site["index.html"]
    assert "A gamma retitled" in site[page_name("gamma")]


@pytest.mark.parametrize("damage", ["delete", "edit"])
def test_a_kept_page_not_as_written_runs_the_whole_dashboard(
    root: Path, out: Path, clock: Clock, damage: str
) -> None:
    clock.replace(root / "Formal/Alpha/Proofs.lean", "nlinarith [Nat.zero_le n]", "sorry")
    page = out / page_name("gamma")  # gamma is not reached by the edit
    if damage == "delete":
        page.unlink()
    else:
        page.write_text("defaced", encoding="utf-8")
    assert _redrawn(root, out) is None
    _report(root, out)  # the whole dashboard: every page as it should be
    assert _read_site(out) == _full(root, out)


def test_the_cli_redraws_without_loading_the_workspace(
    root: Path, out: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock.replace(root / "Formal/Alpha/Proofs.lean", "nlinarith [Nat.zero_le n]", "sorry")
    expected = _full(root, out)

    def whole(*args: object, **kwargs: object) -> None:
        raise AssertionError("the whole dashboard ran")

    monkeypatch.setattr(missions.cli, "analyse_and_lint", whole)
    _report(root, out)
    assert _read_site(out) == expected


@pytest.mark.parametrize(
    "change",
    ["readme", "witness results", "git commit", "new mission file", "lake manifest"],
)
def test_what_it_cannot_bound_runs_the_whole_dashboard(
    root: Path, out: Path, clock: Clock, change: str
) -> None:
    if change == "readme":
        clock.write(root / "README.md", "# changed\n")
    elif change == "witness results":
        results = Path(cache_dir_for(str(root))) / "witness-results.json"
        clock.write(results, json.dumps({"alpha/goal": {"ok": True}}))
    elif change == "git commit":
        clock.write(root / "NOTES.txt", "note\n")
        git(root, "add", "-A")
        git(root, "commit", "-qm", "a note")
    elif change == "new mission file":
        source = root / "missions/gamma.yaml"
        clock.write(root / "missions/delta.yaml", source.read_text(encoding="utf-8"))
    else:
        clock.write(root / "lake-manifest.json", '{"version": 7, "packages": []}\n')
    assert _redrawn(root, out) is None


@pytest.mark.parametrize("damage", ["version", "folder", "missions", "check", "truncated"])
def test_a_damaged_or_foreign_state_runs_the_whole_dashboard(
    root: Path, out: Path, clock: Clock, damage: str
) -> None:
    path = Path(dashboard_state_path(str(root), out))
    text = path.read_text(encoding="utf-8")
    state = json.loads(text)
    if damage == "version":
        state["version"] = ["other"]
    elif damage == "folder":
        state["folder"] = "/elsewhere"
    elif damage == "missions":
        state["missions"] = state["missions"][:1]
    elif damage == "check":
        state["check"]["missions"] = "damaged"
    path.write_text(text[: len(text) // 2] if damage == "truncated" else json.dumps(state))
    clock.replace(root / "Formal/Alpha/Proofs.lean", "nlinarith [Nat.zero_le n]", "sorry")
    assert _redrawn(root, out) is None
    _report(root, out)
    assert _read_site(out) == _full(root, out)


def test_nothing_is_kept_while_a_file_is_racy(
    root: Path, out: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run that stores no answer leaves the state as it was: it still matches its
    stamps, and the next run compares with those."""
    path = Path(dashboard_state_path(str(root), out))
    before = path.read_bytes()
    keep_state = redraw.keep_state
    monkeypatch.setattr(redraw, "keep_state", lambda *args: False)
    clock.replace(root / "Formal/Alpha/Proofs.lean", "nlinarith [Nat.zero_le n]", "sorry")
    assert _redrawn(root, out) is not None
    assert path.read_bytes() == before
    monkeypatch.setattr(redraw, "keep_state", keep_state)
    assert _same_as_full(root, out)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [51])
def test_random_edits_of_the_bundled_missions(tmp_path: Path, clock: Clock, seed: int) -> None:
    root = copy_repo_workspace(tmp_path)
    init_repo(root)
    _fuzz(root, tmp_path / "site", clock, random.Random(seed + SEED), STEPS)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [61])
def test_random_edits_of_a_generated_tree(tmp_path: Path, clock: Clock, seed: int) -> None:
    root = generated_workspace(tmp_path / "tree", seed)
    _fuzz(root, tmp_path / "site", clock, random.Random(seed + SEED), STEPS)


def _fuzz(root: Path, out: Path, clock: Clock, rng: random.Random, steps: int) -> None:
    """Random edits of Lean files and of the missions' YAML, the site compared with the
    whole dashboard's after each; at least one must be answered incrementally."""
    edits = RandomEdits(root, clock, rng)
    _report(root, out)
    answered = 0
    for step in range(steps):
        path = edits.edit()
        site = _redrawn(root, out)
        full = _full(root, out)
        if site is None:
            _report(root, out)
            assert _read_site(out) == full
            continue
        answered += 1
        assert site == full, f"edit {step} of {path.relative_to(root)} drawn differently"
    print(f"{answered} of {steps} edits answered incrementally")  # shown with -s
    assert answered, "no edit was answered incrementally"
