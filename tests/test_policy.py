"""Project policies are gate rules (``witness-missing``, ``readme-row``), read from
``missions.yaml``, and ``missions new`` scaffolds what they ask for.

Fixtures are copies of this repository's workspace; which target or row is changed is taken
from its files, never named here.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO, copy_repo_workspace, invoke


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return copy_repo_workspace(tmp_path)


def violations(root: Path, *args: str) -> list[dict[str, Any]]:
    result = invoke("check", "--json", "--root", root, *args)
    assert result.exit_code in (0, 1), result.stderr
    found: list[dict[str, Any]] = json.loads(result.stdout)["violations"]
    return found


def of_rule(found: list[dict[str, Any]], rule: str) -> list[dict[str, Any]]:
    return [v for v in found if v["rule"] == rule]


def _unlink_first_witness(root: Path) -> tuple[str, str, int]:
    """Remove the first ``witness:`` line of the first mission file that has one; returns
    (mission file, mission id, the line the target's entry starts on)."""
    for path in sorted((root / "missions").glob("*.yaml")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        for index, line in enumerate(lines):
            if re.match(r"^\s+witness: ", line):
                del lines[index]
                path.write_text("".join(lines), encoding="utf-8")
                start = max(i for i in range(index) if re.match(r"^\s+- id: ", lines[i]))
                mission = re.search(r"^id: (\S+)", "".join(lines), re.M)
                assert mission is not None
                return f"missions/{path.name}", mission[1], start + 1
    pytest.skip("no mission links a witness")


REQUIRED = "policy:\n  witnesses: required\n"


def test_a_target_without_a_witness_fails_the_gate_where_it_is(repo: Path) -> None:
    (repo / "missions.yaml").write_text(REQUIRED, encoding="utf-8")
    assert of_rule(violations(repo), "witness-missing") == []
    file, mission, line = _unlink_first_witness(repo)
    found = of_rule(violations(repo), "witness-missing")
    assert [(v["file"], v["mission"], v["line"]) for v in found] == [(file, mission, line)]
    assert "missions.yaml" in found[0]["message"]  # the message says how to opt out


@pytest.mark.parametrize("settings", ["policy:\n  witnesses: optional\n", None])
def test_witnesses_optional_turns_the_rule_off(repo: Path, settings: str | None) -> None:
    _unlink_first_witness(repo)
    if settings is not None:
        (repo / "missions.yaml").write_text(settings, encoding="utf-8")
    assert of_rule(violations(repo), "witness-missing") == []  # optional is the default


def test_a_witness_module_that_does_not_exist_is_named(repo: Path) -> None:
    (repo / "missions.yaml").write_text(REQUIRED, encoding="utf-8")
    path = next(
        p for p in sorted((repo / "missions").glob("*.yaml")) if "witness:" in p.read_text()
    )
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"witness: (\S+)", r"witness: \1_gone", text, count=1), encoding="utf-8")
    found = of_rule(violations(repo), "witness-missing")
    assert len(found) == 1 and "_gone, which does not exist" in found[0]["message"]


# ------------------------------------------------------------------------- README rows


@pytest.fixture
def with_readme(repo: Path) -> Path:
    shutil.copy(REPO / "README.md", repo / "README.md")
    (repo / "missions.yaml").write_text(REQUIRED + "  readme_table: README.md\n", encoding="utf-8")
    return repo


def _rows(root: Path) -> list[str]:
    return [
        line
        for line in (root / "README.md").read_text(encoding="utf-8").splitlines()
        if re.match(r"^\| `[^`]+` \| [^|]+ \| `[^`]+` \|$", line)
    ]


def test_the_readme_table_is_a_gate_rule(with_readme: Path) -> None:
    readme = with_readme / "README.md"
    assert of_rule(violations(with_readme), "readme-row") == []
    row = _rows(with_readme)[0]
    mission = row.split("`")[1]
    text = readme.read_text(encoding="utf-8")
    readme.write_text(text.replace(row + "\n", ""), encoding="utf-8")
    found = of_rule(violations(with_readme), "readme-row")
    assert [v["mission"] for v in found] == [mission] and "no row" in found[0]["message"]
    wrong_module = re.sub(r"`([^`]+)` \|$", "`Formal.Elsewhere` |", row)
    readme.write_text(text.replace(row, wrong_module), encoding="utf-8")
    found = of_rule(violations(with_readme), "readme-row")
    assert len(found) == 1 and "Formal.Elsewhere" in found[0]["message"]
    stale = "| `no-such-mission` | gone | `Formal.Gone` |"
    readme.write_text(text.replace(row, row + "\n" + stale), encoding="utf-8")
    found = of_rule(violations(with_readme), "readme-row")
    assert len(found) == 1 and "no-such-mission" in found[0]["message"]
    # a selection of missions cannot tell a stale row from an unselected mission
    assert of_rule(violations(with_readme, mission), "readme-row") == []


def test_new_scaffolds_what_the_policy_asks_for(with_readme: Path) -> None:
    before = _rows(with_readme)
    result = invoke("new", "fresh-result", "--root", with_readme)
    assert result.exit_code == 0, result.stderr
    assert _rows(with_readme) == [
        *before,
        "| `fresh-result` | Fresh result | `Formal.FreshResult` |",
    ]
    stub = with_readme / "witnesses" / "fresh_result.py"
    assert stub.is_file()
    yaml = (with_readme / "missions" / "fresh-result.yaml").read_text(encoding="utf-8")
    assert "witness: missions.witnesses.fresh_result" in yaml
    assert "missions witness --stamp fresh-result" in result.stdout
    # the gate knows the new mission's witness module, and no policy rule fires for it
    found = violations(with_readme)
    assert of_rule(found, "witness-missing") == [] and of_rule(found, "readme-row") == []
    # the stub fails until it is written: stamping refuses it and records nothing
    pin = invoke("pin", "fresh-result", "--root", with_readme)
    assert pin.exit_code == 0, pin.stderr
    stamp = invoke("witness", "--stamp", "fresh-result", "--root", with_readme)
    assert stamp.exit_code == 1
    yaml = (with_readme / "missions" / "fresh-result.yaml").read_text(encoding="utf-8")
    assert "witness_stamp" not in yaml
    assert "witness-stale" in {v["rule"] for v in violations(with_readme)}


def test_new_without_a_policy_file_scaffolds_no_witness(repo: Path) -> None:
    result = invoke("new", "plain-result", "--root", repo)
    assert result.exit_code == 0, result.stderr
    assert not (repo / "witnesses").exists()
    assert "witness" not in result.stdout
    assert not (repo / "README.md").exists()


def test_new_with_witnesses_optional_scaffolds_none(repo: Path) -> None:
    (repo / "missions.yaml").write_text("policy:\n  witnesses: optional\n", encoding="utf-8")
    result = invoke("new", "bare-result", "--root", repo)
    assert result.exit_code == 0, result.stderr
    assert not (repo / "witnesses").exists()
    assert "witness:" not in (repo / "missions" / "bare-result.yaml").read_text(encoding="utf-8")
