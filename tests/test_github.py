"""``check --format github``: annotations the runner reads back exactly, and the job summary."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from missions.cli import app
from missions.gate import GateResult
from missions.github import annotation, gate_summary
from missions.status import Violation

runner = CliRunner()

_COMMAND = re.compile(r"^::(?P<kind>[a-z]+)(?: (?P<props>[^:]*))?::(?P<message>.*)$")


def _unescape_data(text: str) -> str:
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def _unescape_property(text: str) -> str:
    return _unescape_data(text.replace("%3A", ":").replace("%2C", ","))


def parse_command(line: str) -> dict[str, str]:
    """A workflow command as the runner reads it (actions/runner ActionCommand.TryParseV2):
    the command, ``key=value`` properties split at commas, the message after the next ``::``."""
    assert "\n" not in line and "\r" not in line, "one command is one line"
    found = _COMMAND.match(line)
    assert found is not None, line
    parsed = {"kind": found["kind"], "message": _unescape_data(found["message"])}
    for prop in (found["props"] or "").split(","):
        if prop:
            key, _, value = prop.partition("=")
            parsed[key] = _unescape_property(value)
    return parsed


hostile = st.lists(st.sampled_from([*"ab:,%\n\r= 0AD5", "::error::", "%0A", "::"])).map("".join)


@given(message=hostile, file=hostile, title=hostile, line=st.integers(1, 10**6))
def test_an_annotation_reads_back_exactly_whatever_it_carries(
    message: str, file: str, title: str, line: int
) -> None:
    parsed = parse_command(annotation("error", message, file=file, line=line, title=title))
    expected = {"kind": "error", "message": message, "file": file, "line": str(line)}
    if title:
        expected["title"] = title
    assert parsed == expected


def _broken_proof(demo: Path) -> None:
    proofs = demo / "Formal/Demo/Proofs.lean"
    text = proofs.read_text(encoding="utf-8")
    assert "  simp [Goal, h]\n" in text
    proofs.write_text(text.replace("  simp [Goal, h]\n", "  sorry\n"), encoding="utf-8")


def test_check_annotates_every_violation_at_its_file_and_line(
    demo_workspace: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    demo = demo_workspace()
    _broken_proof(demo)
    result = runner.invoke(app, ["check", "--json", "--root", str(demo)])
    assert result.exit_code == 1
    gate = json.loads(result.stdout)
    found = gate["violations"] + gate["warnings"]
    assert found
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    # the workspace is a folder of the repository: paths are the repository's
    monkeypatch.setenv("GITHUB_WORKSPACE", str(demo.parent))
    result = runner.invoke(app, ["check", "--format", "github", "--root", str(demo)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    commands = [parse_command(line) for line in lines if line.startswith("::")]
    kinds = ["error"] * len(gate["violations"]) + ["warning"] * len(gate["warnings"])
    assert [(c["kind"], c["file"], int(c["line"]), c["message"]) for c in commands] == [
        (kind, f"{demo.name}/{v['file']}", v["line"], v["message"])
        for kind, v in zip(kinds, found, strict=True)
    ]
    assert all(c["title"].startswith(v["rule"]) for c, v in zip(commands, found, strict=True))
    assert lines[-1].startswith(f"gate: {len(gate['violations'])} violation")
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n")  # appended, as every step's summary is
    assert lines[-1] in text
    rows = [row for row in text.splitlines() if row.startswith(("| violation", "| warning"))]
    assert len(rows) == len(found)
    for row, violation in zip(rows, found, strict=True):
        assert f"{demo.name}/{violation['file']}:{violation['line']}" in row


def test_a_clean_gate_annotates_nothing_and_says_ok(
    demo_workspace: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    demo = demo_workspace()
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = runner.invoke(app, ["check", "--format", "github", "--root", str(demo)])
    assert result.exit_code == 0, result.stdout
    assert not [line for line in result.stdout.splitlines() if line.startswith("::error")]
    assert "gate: ok" in summary.read_text(encoding="utf-8")
    assert "| violation" not in summary.read_text(encoding="utf-8")


def test_bad_input_is_annotated_at_the_faulty_line_and_exits_2(
    demo_workspace: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    demo = demo_workspace()
    monkeypatch.setenv("GITHUB_WORKSPACE", str(demo))
    path = demo / "missions/demo.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("kind: goal", "kind: gaol"), encoding="utf-8")
    line = next(i for i, row in enumerate(path.read_text("utf-8").splitlines(), 1) if "gaol" in row)
    result = runner.invoke(app, ["check", "--format", "github", "--root", str(demo)])
    assert result.exit_code == 2
    [command] = [parse_command(row) for row in result.stdout.splitlines() if row.startswith("::")]
    assert (command["kind"], command["file"], command["line"]) == (
        "error",
        "missions/demo.yaml",
        str(line),
    )
    assert f"demo.yaml:{line}: {command['message']}" in result.stderr


def test_format_choices_and_conflicts_are_usage_errors(demo_workspace: Callable[..., Path]) -> None:
    demo = demo_workspace()
    result = runner.invoke(app, ["check", "--format", "gitlab", "--root", str(demo)])
    assert (result.exit_code, result.stderr.count("\n")) == (2, 1)
    assert "--format:1:" in result.stderr
    result = runner.invoke(app, ["check", "--json", "--format", "github", "--root", str(demo)])
    assert (result.exit_code, result.stderr.count("\n")) == (2, 1)
    result = runner.invoke(app, ["check", "--format", "json", "--root", str(demo)])
    assert result.exit_code == 0 and json.loads(result.stdout)["ok"] is True


def test_an_unwritable_summary_is_one_line_and_exit_2(
    demo_workspace: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    demo = demo_workspace()
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path))  # a directory in the way
    result = runner.invoke(app, ["check", "--format", "github", "--root", str(demo)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "job summary" in result.stderr


@given(count=st.integers(0, 60), budget=st.integers(400, 6000), size=st.integers(0, 300))
def test_the_summary_keeps_to_its_budget_and_counts_what_it_left_out(
    count: int, budget: int, size: int
) -> None:
    gate = GateResult()
    gate.violations = [
        Violation("lint", "x|<b>" * size + f" {i}", f"F{i}.lean", i + 1, "m", None)
        for i in range(count)
    ]
    text = gate_summary(gate, "gate: headline", Path("/ws"), budget=budget)
    shown = sum(1 for row in text.splitlines() if row.startswith("| violation"))
    assert len(text.encode()) <= budget or shown == 0
    if shown < count:
        assert f"… and {count - shown} more" in text
    else:
        assert "more (see the job log)" not in text
    assert "<b>" not in text  # workspace text is never markup
