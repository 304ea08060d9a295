"""Placeholders left by ``missions new``: the gate fails and no view calls the mission complete."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import copy_repo_workspace
from missions.cli import app

runner = CliRunner()


def run(root: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, [*args, "--root", str(root)])
    return result.exit_code, result.stdout, result.stderr


def status_data(root: Path) -> dict[str, Any]:
    code, stdout, _ = run(root, "status", "--json")
    assert code == 0
    data: dict[str, Any] = json.loads(stdout)
    return data


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return copy_repo_workspace(tmp_path)


def complete_mission(root: Path) -> tuple[str, Path]:
    data = status_data(root)
    mission = next(m for m in data["missions"] if m["status"] == "complete")
    return mission["id"], root / "missions" / f"{mission['id']}.yaml"


def test_a_todo_in_a_complete_mission_makes_it_a_draft_and_fails_the_gate(
    repo: Path, tmp_path: Path
) -> None:
    before = status_data(repo)["summary"]
    mission_id, path = complete_mission(repo)
    lines = path.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("summary:"))
    lines.insert(index + 1, "  TODO: explain why this matters.")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    data = status_data(repo)
    mission = next(m for m in data["missions"] if m["id"] == mission_id)
    assert mission["status"] == "draft"
    assert mission["placeholders"] == [
        {
            "file": f"missions/{mission_id}.yaml",
            "line": index + 2,
            "text": "TODO: explain why this matters.",
        }
    ]
    assert data["summary"]["complete"] == before["complete"] - 1
    assert data["summary"]["draft"] == before.get("draft", 0) + 1

    code, stdout, _ = run(repo, "check", "--json")
    assert code == 1
    found = [v for v in json.loads(stdout)["violations"] if v["rule"] == "placeholder"]
    assert [(v["file"], v["line"], v["mission"]) for v in found] == [
        (f"missions/{mission_id}.yaml", index + 2, mission_id)
    ]

    code, stdout, _ = run(repo, "status")
    header = next(line for line in stdout.splitlines() if line.startswith(mission_id + " "))
    assert "draft" in header and "complete" not in header

    site = tmp_path / "site"
    assert run(repo, "report", "--format", "html", "-o", str(site))[0] == 0
    index_html = (site / "index.html").read_text(encoding="utf-8")
    cards = re.findall(r'<li class="card">.*?</dl></li>', index_html, re.DOTALL)
    card = next(c for c in cards if f"<code>{mission_id}</code>" in c)
    assert '<span class="chip neutral">draft</span>' in card
    assert ">complete<" not in card
    page = (site / f"{mission_id}.html").read_text(encoding="utf-8")
    assert "Draft:" in page and f"missions/{mission_id}.yaml:{index + 2}" in page


def test_comments_are_work_notes_not_placeholders(repo: Path) -> None:
    mission_id, path = complete_mission(repo)
    path.write_text(
        "# TODO: ask the authors about Lemma 2\n" + path.read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    module = next(m for m in status_data(repo)["missions"] if m["id"] == mission_id)["module"]
    statements = repo / (module.replace(".", "/") + "/Statements.lean")
    statements.write_text(
        statements.read_text(encoding="utf-8") + "\n-- TODO: tidy the names\n", encoding="utf-8"
    )
    code, stdout, _ = run(repo, "check", "--json")
    assert code == 0, stdout
    mission = next(m for m in status_data(repo)["missions"] if m["id"] == mission_id)
    assert mission["status"] == "complete" and mission["placeholders"] == []


def test_a_todo_in_a_statement_docstring_is_a_placeholder(repo: Path) -> None:
    mission_id, _ = complete_mission(repo)
    module = next(m for m in status_data(repo)["missions"] if m["id"] == mission_id)["module"]
    statements = repo / (module.replace(".", "/") + "/Statements.lean")
    text = statements.read_text(encoding="utf-8")
    marker = text.index("/--")
    statements.write_text(
        text[: marker + 3] + " TODO: cite the locator." + text[marker + 3 :], encoding="utf-8"
    )
    line = text.count("\n", 0, marker) + 1
    code, stdout, _ = run(repo, "check", "--json")
    assert code == 1
    found = [v for v in json.loads(stdout)["violations"] if v["rule"] == "placeholder"]
    assert [(v["file"], v["line"]) for v in found] == [(str(statements.relative_to(repo)), line)]


def test_a_scaffolded_mission_is_a_draft_until_filled_in(repo: Path) -> None:
    assert run(repo, "new", "toy-result")[0] == 0
    mission = next(m for m in status_data(repo)["missions"] if m["id"] == "toy-result")
    assert mission["status"] == "draft"
    files = {p["file"] for p in mission["placeholders"]}
    assert files == {"missions/toy-result.yaml", "Formal/ToyResult/Statements.lean"}
    _, stdout, _ = run(repo, "check", "--json")
    placeholder_lines = {
        (v["file"], v["line"])
        for v in json.loads(stdout)["violations"]
        if v["rule"] == "placeholder"
    }
    assert placeholder_lines == {(p["file"], p["line"]) for p in mission["placeholders"]}
    yaml_text = (repo / "missions/toy-result.yaml").read_text(encoding="utf-8").splitlines()
    for file, line in placeholder_lines:
        if file.endswith(".yaml"):
            assert "TODO" in yaml_text[line - 1]
