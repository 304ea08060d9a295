"""The README stays true: its tables match the missions, the commands and the gate rules.

Everything is read from the repository (mission YAML, the CLI, the gate), never listed here,
so adding a mission, a command or a rule without documenting it fails this test.
"""

from __future__ import annotations

import re

from ruamel.yaml import YAML

from conftest import REPO
from missions.cli import app
from missions.gate import RULES

README = (REPO / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert match is not None, title
    return match.group(1)


def missions_table() -> dict[str, str]:
    """``id -> Lean module`` from the README's table of bundled missions."""
    rows = re.findall(r"^\| `([^`]+)` \| [^|]+ \| `([^`]+)` \|$", README, re.M)
    return dict(rows)


def test_the_missions_table_lists_exactly_the_missions_in_the_repository() -> None:
    loader = YAML(typ="safe")
    expected = {}
    for path in sorted((REPO / "missions").glob("*.yaml")):
        data = loader.load(path.read_text(encoding="utf-8"))
        expected[data["id"]] = data["lean"]["module"]
    table = missions_table()
    missing = sorted(set(expected) - set(table))
    stale = sorted(set(table) - set(expected))
    assert not missing, f"missions without a README row: {missing}"
    assert not stale, f"README rows without a mission: {stale}"
    assert table == expected  # and each row names the mission's Lean module


def test_every_command_is_in_the_commands_table() -> None:
    commands = section("Commands")
    names = [c.name or c.callback.__name__ for c in app.registered_commands if c.callback]
    assert names
    for name in names:
        assert f"`missions {name}" in commands, name


def test_every_gate_rule_is_documented() -> None:
    for rule in RULES:
        assert f"`{rule}`" in README, rule


def test_adding_a_mission_covers_the_whole_cycle() -> None:
    adding = section("Adding a mission")
    for step in ("missions new", "missions pin", "missions sync", "missions check", "TODO"):
        assert step in adding, step


def test_the_readme_says_how_to_run_the_installed_command() -> None:
    assert ".venv/bin/missions" in README
    assert ". .venv/bin/activate" in README


def test_ci_runs_the_readme_s_test_command() -> None:
    """The README's test command is what `.ci/run` runs, word for word."""
    block = re.search(r"Run the tests.*?```sh\n(.*?)\n```", README, re.S)
    assert block is not None
    command = block.group(1).strip()
    assert "pytest" in command
    assert command in (REPO / ".ci" / "run").read_text(encoding="utf-8")
