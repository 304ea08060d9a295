"""Statement pins, drift reports with git history, and round-trip YAML rewrites."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import DEMO_LAYOUTS, git
from missions.catalog import load_catalog
from missions.errors import InputError
from missions.gate import run_gate
from missions.lean.workspace import load_workspace
from missions.pins import apply_pin, pin_state
from missions.status import analyze
from missions.sync import sync_mission
from missions.yamlio import atomic_write_text, dump_document

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

        end Formal.Demo
        """,
    "Formal/Demo/Proofs.lean": """\
        import Formal.Demo.Statements

        /-! Proofs. -/
        namespace Formal.Demo

        theorem goal : Goal := by
          unfold Goal two
          rfl

        end Formal.Demo
        """,
}


def pin(root: Path, reason: str | None = None) -> None:
    catalog = load_catalog(root)
    workspace = load_workspace(root)
    for mission_file in catalog.files:
        state = pin_state(workspace, mission_file.mission)
        head = git(root, "rev-parse", "HEAD") if (root / ".git").exists() else None
        if apply_pin(mission_file, state, commit=head, reason=reason, today=dt.date(2026, 11, 30)):
            atomic_write_text(mission_file.path, dump_document(mission_file.doc))


def gate_rules(root: Path) -> dict[str, list[str]]:
    analysis = analyze(load_catalog(root), load_workspace(root))
    rules: dict[str, list[str]] = {}
    for violation in run_gate(analysis).violations:
        rules.setdefault(violation.rule, []).append(violation.message)
    return rules


@pytest.fixture
def demo(make_workspace: Callable[..., Path]) -> Path:
    return make_workspace(FILES, {"demo": "Formal.Demo"})


def test_pin_records_digest_commit_and_history(demo: Path) -> None:
    head = git(demo, "rev-parse", "HEAD")
    pin(demo)
    mission = load_catalog(demo).get("demo").mission
    assert mission.lean.statement_pin is not None
    assert mission.lean.statement_pin.startswith("sha256:")
    assert mission.lean.pinned_at == head
    assert [(r.revision, r.reason, r.digest) for r in mission.statement_history] == [
        (1, "initial", mission.lean.statement_pin)
    ]
    assert "statement-pin" not in gate_rules(demo)


def test_comments_and_blank_lines_do_not_move_the_pin(demo: Path) -> None:
    pin(demo)
    path = demo / "Formal/Demo/Statements.lean"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace(
            "def Goal : Prop := two + two = 4",
            "\n-- a note\n\n/- a block -/\ndef Goal : Prop := two + two = 4 -- note /- -/",
        ),
        encoding="utf-8",
    )
    assert "statement-pin" not in gate_rules(demo)


def test_spacing_inside_a_line_moves_the_pin(demo: Path) -> None:
    """Every token's column is pinned: Lean reads whitespace inside a line in more places
    than any list of them (``(x) .f``, ``a [i]``, ``noWs`` in notation), so a pin that moves
    on harmless respacing is preferred to one that misses a change of meaning."""
    pin(demo)
    path = demo / "Formal/Demo/Statements.lean"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("two + two = 4", "two +  two = 4"), encoding="utf-8")
    assert "statement-pin" in gate_rules(demo)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # Lean reads adjacency: `(x).f` projects, `(x) .f` applies; `a[i]` indexes, `a [i]`
        # applies `a` to a list
        ("two + two = 4", "two + two =4"),
        ("two + two = 4", "two + two = 4 ∧ (two).succ = 3"),
        # and columns at the start of a line (tactic blocks, `match` arms, `where` helpers)
        ("two + two = 4", "\n  two + two = 4"),
    ],
)
def test_layout_lean_reads_moves_the_pin(demo: Path, before: str, after: str) -> None:
    path = demo / "Formal/Demo/Statements.lean"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(before, after), encoding="utf-8")
    pin(demo)
    assert "statement-pin" not in gate_rules(demo)
    moved = after.replace("=4", "= 4").replace("(two).succ", "(two) .succ")
    moved = moved.replace("\n  two", "\n    two")
    assert moved != after
    path.write_text(text.replace(before, moved), encoding="utf-8")
    assert "statement-pin" in gate_rules(demo)


def test_pointing_a_target_at_another_statement_moves_the_pin(demo: Path) -> None:
    """Which statement and proof a target names is part of the pin: repointing the goal at
    an easier statement changes no Lean file, and must not pass unnoticed."""
    path = demo / "Formal/Demo/Statements.lean"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("end Formal.Demo", "def Easy : Prop := True\n\nend Formal.Demo"), "utf-8"
    )
    git(demo, "commit", "-qam", "an easy statement")
    pin(demo)
    assert "statement-pin" not in gate_rules(demo)
    yaml = demo / "missions/demo.yaml"
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace(
            "statement: Formal.Demo.Goal", "statement: Formal.Demo.Easy"
        ),
        encoding="utf-8",
    )
    git(demo, "add", "-A")
    git(demo, "commit", "-qm", "easier")
    [message] = gate_rules(demo)["statement-pin"]
    assert "a target's `statement:` or `proof:` did" in message
    analysis = analyze(load_catalog(demo), load_workspace(demo))
    [status] = analysis.missions[0].targets
    assert status.status == "stated"
    assert "statement closure changed since it was pinned" in status.reasons


def test_proof_changes_do_not_move_the_pin(demo: Path) -> None:
    pin(demo)
    path = demo / "Formal/Demo/Proofs.lean"
    path.write_text(path.read_text(encoding="utf-8").replace("rfl", "norm_num"), encoding="utf-8")
    assert "statement-pin" not in gate_rules(demo)


def test_model_change_is_reported_with_file_and_commit(demo: Path) -> None:
    pin(demo)
    git(demo, "add", "-A")
    git(demo, "commit", "-q", "-m", "pin demo")
    defs = demo / "Formal/Demo/Defs.lean"
    defs.write_text(defs.read_text(encoding="utf-8").replace(":= 2", ":= 3"), encoding="utf-8")
    git(demo, "add", "-A")
    git(demo, "commit", "-q", "-m", "weaken the model")
    messages = gate_rules(demo)["statement-pin"]
    assert len(messages) == 1
    assert "Formal/Demo/Defs.lean" in messages[0]
    assert "Formal/Demo/Statements.lean" not in messages[0]
    assert "weaken the model" in messages[0]
    status = analyze(load_catalog(demo), load_workspace(demo)).missions[0].targets[0]
    assert status.status == "stated"
    assert "statement closure changed since it was pinned" in status.reasons


def test_uncommitted_change_is_reported_too(demo: Path) -> None:
    pin(demo)
    statements = demo / "Formal/Demo/Statements.lean"
    statements.write_text(
        statements.read_text(encoding="utf-8").replace("= 4", "≤ 4"), encoding="utf-8"
    )
    message = gate_rules(demo)["statement-pin"][0]
    assert "Formal/Demo/Statements.lean" in message
    assert "not committed" in message


def test_repin_needs_a_reason_and_revisions_increase(demo: Path) -> None:
    pin(demo)
    statements = demo / "Formal/Demo/Statements.lean"
    statements.write_text(
        statements.read_text(encoding="utf-8").replace("= 4", "≤ 4"), encoding="utf-8"
    )
    with pytest.raises(InputError, match="re-pin with --reason"):
        pin(demo)
    pin(demo, reason="correct the inequality")
    history = load_catalog(demo).get("demo").mission.statement_history
    assert [(r.revision, r.reason) for r in history] == [
        (1, "initial"),
        (2, "correct the inequality"),
    ]
    assert "statement-pin" not in gate_rules(demo)


def test_current_pin_is_not_rewritten(demo: Path) -> None:
    pin(demo)
    path = demo / "missions/demo.yaml"
    before = path.read_bytes()
    stamp = path.stat().st_mtime_ns
    pin(demo)
    assert path.read_bytes() == before
    assert path.stat().st_mtime_ns == stamp


def test_round_trip_keeps_comments_order_and_is_atomic(demo: Path) -> None:
    path = demo / "missions/demo.yaml"
    text = path.read_text(encoding="utf-8")
    text = "# Mission header comment\n" + text.replace(
        "category: example", "category: example  # why this category"
    ).replace("    status: stated", "    # status is written by sync\n    status: stated")
    path.write_text(text, encoding="utf-8")
    pin(demo)
    analysis = analyze(load_catalog(demo), load_workspace(demo))
    assert sync_mission(analysis.missions[0]) == ["goal"]
    after = path.read_text(encoding="utf-8")
    assert after.startswith("# Mission header comment\n")
    assert "category: example  # why this category" in after
    assert "    # status is written by sync\n    status: proved" in after
    keys = [line.split(":")[0] for line in after.splitlines() if line and line[0].isalpha()]
    assert keys[:7] == [
        "id",
        "title",
        "category",
        "summary",
        "sources",
        "lean",
        "statement_history",
    ]
    assert not list(path.parent.glob("*.tmp"))
    # a second sync has nothing to do and leaves the bytes alone
    analysis = analyze(load_catalog(demo), load_workspace(demo))
    assert sync_mission(analysis.missions[0]) == []
    assert path.read_text(encoding="utf-8") == after


def test_failed_write_leaves_the_old_file(demo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = demo / "missions/demo.yaml"
    before = path.read_bytes()

    def boom(*_: object, **__: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("os.replace", boom)
    with pytest.raises(InputError, match="cannot write: disk full"):
        atomic_write_text(path, "garbage")
    assert path.read_bytes() == before
    assert not list(path.parent.glob(".*.tmp"))


def test_statement_closure_never_contains_proofs(make_workspace: Callable[..., Path]) -> None:
    files = dict(FILES)
    files["Formal/Demo/Statements.lean"] = FILES["Formal/Demo/Statements.lean"].replace(
        "import Formal.Demo.Defs", "import Formal.Demo.Defs\n        import Formal.Demo.Proofs"
    )
    root = make_workspace(files, {"demo": "Formal.Demo"})
    rules = gate_rules(root)
    assert any("imports proof module Formal.Demo.Proofs" in m for m in rules["statement-closure"])


@pytest.mark.parametrize("style", DEMO_LAYOUTS)
def test_pins_in_every_file_layout(demo_workspace: Callable[..., Path], style: str) -> None:
    """Whatever the layout (module docstring or not, nested namespaces, a copyright header),
    comments and docstrings never move the pin and a change of meaning always does."""
    root = demo_workspace(style, use_git=True)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "pin")
    assert gate_rules(root) == {}
    statements = root / "Formal/Demo/Statements.lean"
    text = statements.read_text(encoding="utf-8")
    reworded = text.replace("(Demo paper, Thm. 2, p. 3)", "(Demo paper, Theorem 2, page 3)")
    reworded = reworded.replace("# The demo statements", "# Statements of the demo") + "-- end\n"
    assert reworded != text
    statements.write_text(reworded, encoding="utf-8")
    assert gate_rules(root) == {}
    defs = root / "Formal/Demo/Defs.lean"
    defs.write_text(defs.read_text(encoding="utf-8").replace(":= 2", ":= 3"), encoding="utf-8")
    messages = gate_rules(root)["statement-pin"]
    assert len(messages) == 1 and "Formal/Demo/Defs.lean" in messages[0]
