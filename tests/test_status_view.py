"""The terminal views: ``status`` and ``show`` at 80 and 120 columns and piped, and the help.

Expectations come from the ``status --json`` data of a copy of this repository's workspace
(plus a target whose reasons hold a token longer than any line), never from a hard-coded
catalogue.
"""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from conftest import copy_repo_workspace
from missions.cli import CHECK_FORMATS, EXPORT_FORMATS, REPORT_FORMATS, app
from missions.render import (
    advice_lines,
    frontier_lines,
    ordinary,
    print_status,
    show_lines,
    status_lines,
    summary_line,
)

runner = CliRunner()
LONG_TOKEN = "Formal/" + "VeryLongDirectoryName/" * 6 + "Proofs.lean:12"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_repo_workspace(tmp_path_factory.mktemp("view"))


@pytest.fixture(scope="module")
def data(repo: Path) -> dict[str, Any]:
    result = runner.invoke(app, ["status", "--json", "--root", str(repo)])
    assert result.exit_code == 0, result.stderr
    loaded: dict[str, Any] = json.loads(result.stdout)
    # one more target whose reasons are long and hold an unbreakable token
    mission = copy.deepcopy(loaded["missions"][0])
    mission["id"] = "zz-synthetic"
    mission["targets"] = [
        {
            "id": "a-target-with-a-rather-long-identifier-indeed",
            "kind": "milestone",
            "statement": "X.Y",
            "proof": "X.y",
            "status": "stated",
            "evidence": "source",
            "witness": {"ok": False},
            "reasons": [
                "sorry in Formal.Something.quite_long_name at " + LONG_TOKEN + " (used by x)",
                "a second reason that only --why shows",
            ],
        }
    ]
    loaded["missions"].append(mission)
    return loaded


def render(data: dict[str, Any], *, width: int, tty: bool, why: bool = False) -> str:
    buffer = io.StringIO()
    console = Console(
        file=buffer, width=width, force_terminal=tty, color_system=None, highlight=False
    )
    print_status(console, data, why=why)
    return buffer.getvalue()


def words(text: str) -> str:
    return " ".join(text.split())


def open_targets(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        t
        for m in data["missions"]
        for t in m["targets"]
        if t["reasons"] and t["status"] not in ("proved", "external")
    ]


@pytest.mark.parametrize("width", [80, 120])
def test_terminal_view_fits_the_width_and_never_splits_a_word(
    data: dict[str, Any], width: int
) -> None:
    text = render(data, width=width, tty=True)
    lines = text.splitlines()
    for line in lines:
        if len(line) > width:  # only a word that cannot fit anywhere may stick out
            assert LONG_TOKEN in line.split(), line
    tokens = set(text.split())
    for mission in data["missions"]:
        assert mission["id"] in tokens
        for target in mission["targets"]:
            assert target["id"] in tokens  # whole, never broken across lines
    # wrapping only turned spaces into line breaks: the words are those of the piped view
    assert words(text) == words(render(data, width=width, tty=False))


@pytest.mark.parametrize("width", [80, 120])
def test_the_overview_is_last_and_the_view_fits_a_screen_budget(
    data: dict[str, Any], width: int
) -> None:
    """At most one line per target, two per mission and ten more; the overview last."""
    lines = render(data, width=width, tty=True).splitlines()
    assert lines[-1] == summary_line(data)
    targets = sum(len(m["targets"]) for m in data["missions"])
    unusual = sum(1 for t in open_targets(data) if not ordinary(t))
    long_lines = sum(1 for line in lines if len(line) > width)  # the unbreakable token
    assert len(lines) <= targets + 2 * len(data["missions"]) + 10 + unusual + long_lines


@pytest.mark.parametrize("width", [80, 120])
def test_unusual_reasons_appear_under_their_target_and_why_shows_all(
    data: dict[str, Any], width: int
) -> None:
    lines = render(data, width=width, tty=False).splitlines()  # one line per reason
    position = 0
    for mission in data["missions"]:
        position = lines.index(next(x for x in lines[position:] if x.startswith(mission["id"])))
        for target in mission["targets"]:
            position = next(
                i for i in range(position + 1, len(lines)) if lines[i].split()[:1] == [target["id"]]
            )
            below = lines[position + 1].strip()
            shown = below.startswith("↳ ")
            is_open = target in open_targets(data)
            assert shown == (is_open and not ordinary(target)), (target["id"], below)
            if shown:
                assert below.startswith("↳ " + target["reasons"][0])
    text = words(render(data, width=width, tty=True))
    collapsed = [t for t in open_targets(data) if ordinary(t)]
    for target in open_targets(data):
        for extra in target["reasons"][1:]:
            assert words(extra) not in text
    if collapsed:
        assert f"{len(collapsed)} open target" in text
    full = words(render(data, width=width, tty=True, why=True))
    for target in open_targets(data):
        for reason in target["reasons"]:
            assert words(reason) in full


def test_a_code_is_explained_where_it_is_shown(data: dict[str, Any]) -> None:
    shown = copy.deepcopy(data)
    target = shown["missions"][0]["targets"][0]
    target["witness"] = {"ok": None, "nonvacuous": "unknown"}
    text = render(shown, width=80, tty=False)
    assert "nv?: no instance shown to meet every hypothesis" in text
    assert "-: not run" in text
    for mission in shown["missions"]:
        for each in mission["targets"]:
            each["witness"] = {"ok": True, "nonvacuous": True}
    assert "witness:" not in render(shown, width=80, tty=False).splitlines()[-4:][0]


def test_piped_output_has_no_inserted_line_breaks(data: dict[str, Any]) -> None:
    text = render(data, width=80, tty=False)  # a console that is not a terminal
    lines = text.splitlines()
    assert lines == [line.plain for line in status_lines(data)]
    for target in open_targets(data):
        if not ordinary(target):
            first = target["reasons"][0]
            assert any(first in line for line in lines)
    assert max(len(line) for line in lines) > 80  # long lines stay long
    assert "\x1b[" not in text


def test_the_command_is_piped_in_tests_and_matches_the_renderer(
    repo: Path, data: dict[str, Any]
) -> None:
    result = runner.invoke(app, ["status", "--root", str(repo)])
    assert result.exit_code == 0
    real = copy.deepcopy(data)
    real["missions"] = [m for m in real["missions"] if m["id"] != "zz-synthetic"]
    assert result.stdout.splitlines() == [line.plain for line in status_lines(real)]


def test_colour_only_on_a_terminal_and_never_with_no_color(
    data: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def coloured(tty: bool) -> bool:
        """Whether any SGR sequence sets a colour (bold and dim are not colours)."""
        buffer = io.StringIO()
        print_status(Console(file=buffer, width=80, force_terminal=tty), data)
        for params in re.findall(r"\x1b\[([0-9;]*)m", buffer.getvalue()):
            codes = {int(p) for p in params.split(";") if p}
            if any(30 <= c <= 49 or 90 <= c <= 107 for c in codes):
                return True
        return False

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert coloured(True) and not coloured(False)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not coloured(True)


@pytest.fixture(scope="module")
def frontier(repo: Path) -> dict[str, Any]:
    """``next --json`` of the repository's copy, plus an item whose heading and reason are
    too long for any terminal line."""
    result = runner.invoke(app, ["next", "--json", "--root", str(repo)])
    assert result.exit_code == 0, result.stderr
    loaded: dict[str, Any] = json.loads(result.stdout)
    loaded["frontier"].append(
        {
            "mission": "zz-synthetic",
            "target": "a-target-with-a-rather-long-identifier-indeed",
            "kind": "milestone",
            "status": "stated",
            "file": LONG_TOKEN.rsplit(":", 1)[0],
            "line": 12,
            "reasons": ["sorry in Formal.Something.quite_long_name at " + LONG_TOKEN],
        }
    )
    return loaded


def plain(lines: list[Any]) -> list[str]:
    return [line.plain for line in lines]


@pytest.mark.parametrize("width", [80, 120])
def test_the_frontier_fits_the_terminal_and_pipes_whole(
    frontier: dict[str, Any], width: int
) -> None:
    fitted = plain(frontier_lines(frontier, width=width))
    for line in fitted:
        if len(line) > width:  # only a word that cannot fit anywhere may stick out
            assert any(len(word) > width - 6 for word in line.split()), line
    piped = plain(frontier_lines(frontier))
    assert words(" ".join(fitted)) == words(" ".join(piped))
    with_reasons = sum(1 for item in frontier["frontier"] if item["reasons"])
    assert len(piped) == len(frontier["frontier"]) + with_reasons
    headings = [line for line in piped if not line.startswith(" ")]
    for item, heading in zip(frontier["frontier"], headings, strict=True):
        assert heading.startswith(f"{item['mission']}/{item['target']} ({item['kind']}) ")
        assert heading.endswith(f"  {item['file']}:{item['line']}")
    assert any(len(line) > 120 for line in piped)  # long lines stay long


def test_next_prints_the_renderer_s_lines(repo: Path, frontier: dict[str, Any]) -> None:
    result = runner.invoke(app, ["next", "--root", str(repo)])
    assert result.exit_code == 0
    real = {**frontier, "frontier": frontier["frontier"][:-1]}
    count = len(real["frontier"])
    expected = plain(frontier_lines(real))
    assert result.stdout.splitlines() == [
        *expected,
        f"{count} target{'s' if count != 1 else ''} on the frontier",
    ]


def test_doctor_advice_wraps_under_its_arrow() -> None:
    advice = ["install elan " + "word " * 30 + "done", "short"]
    fitted = plain(advice_lines(advice, width=40))
    assert fitted[0].startswith("→ install elan ") and fitted[-1] == "→ short"
    assert all(len(line) <= 40 for line in fitted)
    assert all(line.startswith("  ") for line in fitted[1:-1])
    assert plain(advice_lines(advice)) == [f"→ {' '.join(advice[0].split())}", "→ short"]


def test_summary_line_counts_and_plurals() -> None:
    one = {
        "summary": {
            "missions": 1,
            "complete": 0,
            "targets": 1,
            "proved": 0,
            "stated": 1,
            "missing": 0,
            "external": 0,
        }
    }
    assert summary_line(one) == "1 mission, 0 complete · 1 target: 0 proved, 1 stated"
    many = {"summary": {**one["summary"], "missions": 2, "targets": 3, "external": 2}}
    assert summary_line(many) == (
        "2 missions, 0 complete · 3 targets: 0 proved, 1 stated, 2 external"
    )


# ---------------------------------------------------------------- show


@pytest.fixture(scope="module")
def show_data(repo: Path) -> dict[str, Any]:
    result = runner.invoke(app, ["status", "--json", "--root", str(repo)])
    mission_id = json.loads(result.stdout)["missions"][0]["id"]
    result = runner.invoke(app, ["show", mission_id, "--json", "--root", str(repo)])
    assert result.exit_code == 0
    loaded: dict[str, Any] = json.loads(result.stdout)
    target = next(t for t in loaded["targets"] if t.get("lean"))
    target["lean"] += "\n  theorem_like_line_that_is_far_too_wide " + "(h : x = y) " * 12
    target["title"] = "A title long enough to need more than one line at eighty columns " * 2
    return loaded


@pytest.mark.parametrize("width", [80, 120, None])
def test_show_keeps_lean_code_verbatim_and_titles_whole(
    show_data: dict[str, Any], width: int | None
) -> None:
    lines = [line.plain for line in show_lines(show_data, width=width)]
    text = words("\n".join(lines))
    for target in show_data["targets"]:
        for code_line in (target.get("lean") or "").splitlines():
            assert "    " + code_line in lines  # indentation intact, never re-flowed
        assert words(target["title"]) in text
    assert words(show_data["title"]) in text
    if width is not None:
        code = {"    " + c for t in show_data["targets"] for c in (t.get("lean") or "").split("\n")}
        for line in lines:
            assert len(line) <= width or line in code or len(line.split()) <= 2, line


def test_show_through_the_cli_prints_code_lines_whole(repo: Path) -> None:
    result = runner.invoke(app, ["show", "mae-normalized-pixel", "--root", str(repo)])
    assert result.exit_code == 0
    data = json.loads(
        runner.invoke(app, ["show", "mae-normalized-pixel", "--json", "--root", str(repo)]).stdout
    )
    for target in data["targets"]:
        for code_line in (target.get("lean") or "").splitlines():
            assert "    " + code_line in result.stdout.splitlines()


# ---------------------------------------------------------------- help


COMMANDS = [
    "status",
    "show",
    "validate",
    "check",
    "pin",
    "sync",
    "report",
    "new",
    "doctor",
    "build",
    "export",
    "witness",
]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_metavars_and_choices_not_internal_types(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], terminal_width=80)
    assert result.exit_code == 0
    text = result.stdout
    assert not re.search(r"<(list\[|str|path|int|bool)", text), text
    assert "{ID}" not in text and "[ids]" not in text
    for line in text.splitlines():
        assert not re.search(r"\w-$", line), line  # no word broken at a hyphen
    usage = text.splitlines()[0]
    if command in ("status", "check", "pin", "sync", "report", "build", "export", "witness"):
        assert usage.endswith("[OPTIONS] [IDS]...")
    if command in ("show", "new"):
        assert usage.endswith("[OPTIONS] ID")


@pytest.mark.parametrize(
    ("command", "choices"),
    [
        ("report", f"--format [{'|'.join(REPORT_FORMATS)}]"),
        ("export", f"--format [{'|'.join(EXPORT_FORMATS)}]"),
        ("check", f"--format [{'|'.join(CHECK_FORMATS)}]"),
        ("witness", "--budget [quick|full]"),
    ],
)
def test_help_lists_the_choices(command: str, choices: str) -> None:
    assert choices in runner.invoke(app, [command, "--help"]).stdout


def test_wrong_choice_names_the_choices(repo: Path) -> None:
    result = runner.invoke(app, ["report", "--format", "pdf", "--root", str(repo)])
    assert result.exit_code == 2
    assert f"unknown format 'pdf'; choose one of {', '.join(REPORT_FORMATS)}" in result.stderr
