"""Faithfulness reviews: printed without the informal text, recorded at the pin they read,
stale once it moves, and only ever advisory on their own."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import committed_demo
from missions.cli import app
from missions.lean.lexer import DOC, MODDOC, LexError, lex
from missions.load import analyse
from missions.reviews import closure_listing, formal_text

runner = CliRunner()


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _gate(root: Path) -> dict[str, Any]:
    code, stdout, _ = _run("check", "--json", "--root", str(root))
    data = json.loads(stdout)
    assert code == (0 if data["ok"] else 1)
    return data


def _review_rules(found: list[dict[str, Any]]) -> list[str]:
    return [v["rule"] for v in found if v["rule"].startswith("review")]


def _yaml_line(root: Path, text: str) -> int:
    lines = (root / "missions/demo.yaml").read_text("utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_a_review_holds_for_the_pin_it_read(demo_workspace: Callable[..., Path]) -> None:
    demo = committed_demo(demo_workspace)
    gate = _gate(demo)
    assert gate["ok"] and _review_rules(gate["warnings"]) == ["review-missing"]
    code, _, stderr = _run(
        "review", "demo", "--verdict", "pass", "--reviewer", "Ada", "--root", str(demo)
    )
    assert code == 0, stderr
    gate = _gate(demo)
    assert gate["ok"] and _review_rules(gate["warnings"]) == []
    pin = json.loads(_run("status", "--json", "--root", str(demo))[1])["missions"][0]["pin"]
    assert f"pin: {pin['current']}" in (demo / "missions/demo.yaml").read_text("utf-8")
    # the statements change and are re-pinned: the review no longer holds
    statements = demo / "Formal/Demo/Statements.lean"
    statements.write_text(
        statements.read_text("utf-8") + "\n/-- New. -/\ndef extraConstant : Nat := 3\n",
        encoding="utf-8",
    )
    code, _, stderr = _run("pin", "demo", "--reason", "an extra constant", "--root", str(demo))
    assert code == 0, stderr
    gate = _gate(demo)
    [stale] = [v for v in gate["warnings"] if v["rule"] == "review-stale"]
    assert gate["ok"] and stale["line"] == _yaml_line(demo, "  pin: ")
    (demo / "missions.yaml").write_text("policy:\n  reviews: required\n", encoding="utf-8")
    gate = _gate(demo)
    assert not gate["ok"] and _review_rules(gate["violations"]) == ["review-stale"]
    (demo / "missions.yaml").write_text("policy:\n  reviews: 'off'\n", encoding="utf-8")
    gate = _gate(demo)
    assert _review_rules(gate["violations"] + gate["warnings"]) == []


def test_a_blocking_verdict_is_advisory_and_findings_are_kept(
    demo_workspace: Callable[..., Path],
) -> None:
    demo = committed_demo(demo_workspace)
    (demo / "missions.yaml").write_text("policy:\n  reviews: required\n", encoding="utf-8")
    code, _, stderr = _run(
        "review", "demo", "--verdict", "block", "--reviewer", "Ben", "--notes", "too weak",
        "--finding", "the bound is not the paper's",
        "--dismiss", "n could be 0", "--because", "n ≥ 1 is a hypothesis",
        "--root", str(demo),
    )  # fmt: skip
    assert code == 0, stderr
    gate = _gate(demo)
    assert gate["ok"]  # prose never fails the gate on its own
    [verdict] = [v for v in gate["warnings"] if v["rule"] == "review-verdict"]
    assert "block" in verdict["message"] and "too weak" in verdict["message"]
    code, listing, _ = _run("review", "demo", "--root", str(demo))
    assert code == 0
    assert "the bound is not the paper's" in listing
    assert "n could be 0 (dismissed: n ≥ 1 is a hypothesis)" in listing


def test_the_listing_has_the_statements_and_none_of_the_informal_text(
    demo_workspace: Callable[..., Path],
) -> None:
    demo = committed_demo(demo_workspace)
    code, listing, _ = _run("review", "demo", "--root", str(demo))
    assert code == 0
    statements = (demo / "Formal/Demo/Statements.lean").read_text("utf-8")
    docs = [text for kind, text, _ in lex(statements).tokens if kind in (DOC, MODDOC)]
    assert docs  # the fixture documents its statements
    for doc in docs:
        assert doc not in listing
    for kind, text, _ in lex(statements).tokens:
        if kind not in (DOC, MODDOC):
            assert text in listing
    assert "Formal.Demo.Goal" in listing


def test_recording_needs_the_statements_pinned_where_they_are(
    demo_workspace: Callable[..., Path],
) -> None:
    demo = committed_demo(demo_workspace)
    statements = demo / "Formal/Demo/Statements.lean"
    statements.write_text(
        statements.read_text("utf-8") + "\ndef extraConstant : Nat := 3\n", encoding="utf-8"
    )
    before = (demo / "missions/demo.yaml").read_bytes()
    code, _, stderr = _run(
        "review", "demo", "--verdict", "pass", "--reviewer", "Ada", "--root", str(demo)
    )
    assert (code, stderr.count("\n")) == (2, 1) and "pin" in stderr
    assert (demo / "missions/demo.yaml").read_bytes() == before
    for args in (
        ["--reviewer", "Ada"],  # no verdict
        ["--verdict", "pass"],  # no reviewer
        ["--verdict", "maybe", "--reviewer", "Ada"],
        ["--verdict", "pass", "--reviewer", "Ada", "--dismiss", "x"],  # no --because
    ):
        code, _, stderr = _run("review", "demo", *args, "--root", str(demo))
        assert (code, stderr.count("\n")) == (2, 1), args
    assert (demo / "missions/demo.yaml").read_bytes() == before


fragments = st.sampled_from(
    [
        "theorem", " ", "\n", "  ", "x", ":", "=", ":=", "by", "(", ")", "sorry", "1",
        "-- a comment", "/- block -/", "/-- doc -/", "/-! module doc -/", '"str -- no"',
        "'c'", "«odd name»", "\n\n", "ℝ", "∀", ",",
    ]
)  # fmt: skip


@given(st.lists(fragments, max_size=40).map("".join))
def test_the_formal_text_is_the_same_tokens_without_the_docs(source: str) -> None:
    lexed = lex(source)
    if lexed.error is not None:  # text Lean cannot read to its end is never shown in part
        with pytest.raises(LexError):
            formal_text(source)
        return
    expected = [(k, t) for k, t, _ in lexed.tokens if k not in (DOC, MODDOC)]
    assert [(k, t) for k, t, _ in lex(formal_text(source)).tokens] == expected


def test_a_module_lean_cannot_read_is_named_not_a_traceback(
    demo_workspace: Callable[..., Path],
) -> None:
    demo = committed_demo(demo_workspace)
    defs = demo / "Formal/Demo/Defs.lean"
    defs.write_text(defs.read_text("utf-8") + "\n/- never closed\n", encoding="utf-8")
    code, listing, stderr = _run("review", "demo", "--root", str(demo))
    assert code == 0, stderr
    assert listing.startswith("-- Statement closure of demo: it cannot be pinned")
    code, _, stderr = _run(
        "review", "demo", "--verdict", "pass", "--reviewer", "Ada", "--root", str(demo)
    )
    assert (code, stderr.count("\n")) == (2, 1) and "not pinned" in stderr


def test_a_file_that_breaks_after_the_analysis_is_named_in_the_listing(
    demo_workspace: Callable[..., Path],
) -> None:
    demo = committed_demo(demo_workspace)
    analysis = analyse(demo, ["demo"])
    defs = demo / "Formal/Demo/Defs.lean"
    defs.write_text(defs.read_text("utf-8") + "\n/- never closed\n", encoding="utf-8")
    listing = closure_listing(analysis, analysis.missions[0])
    assert "-- (not shown: the file cannot be read as Lean: unterminated comment)" in listing
    assert "def Goal" in listing  # the other modules are still shown
