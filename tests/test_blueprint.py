"""``export --format blueprint``: every target named, exactly the proved ones marked, and the
``\\uses`` edges equal to the recorded dependencies, all read back from the LaTeX."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import copy_repo_workspace
from missions.blueprint import latex_text
from missions.catalog import load_catalog
from missions.cli import app

runner = CliRunner()

_NODE = re.compile(
    r"\\begin\{(?P<env>theorem|lemma)\}\[\{.*?\}\]\n"
    r"(?P<statement>.*?)\\end\{(?P=env)\}\n\n"
    r"\\begin\{proof\}\n(?P<proof>.*?)\\end\{proof\}",
    re.S,
)


def _macro(name: str, body: str) -> list[str] | None:
    found = re.findall(rf"^  \\{name}\{{(.*)\}}$", body, re.M)
    assert len(found) <= 1, body
    return [part.strip() for part in found[0].split(",")] if found else None


def read_blueprint(directory: Path) -> dict[str, dict[str, object]]:
    """Every node of the export: label -> its Lean names, marks and uses."""
    nodes: dict[str, dict[str, object]] = {}
    index = (directory / "missions.tex").read_text(encoding="utf-8")
    for name in re.findall(r"^\\input\{(.*)\}$", index, re.M):
        folder, _, stem = name.partition("/")
        assert folder == directory.name
        text = (directory / f"{stem}.tex").read_text(encoding="utf-8")
        for node in _NODE.finditer(text):
            [label] = _macro("label", node["statement"]) or []
            assert label not in nodes
            nodes[label] = {
                "lean": _macro("lean", node["statement"]) or [],
                "stated": "\n  \\leanok\n" in node["statement"],
                "proved": "\n  \\leanok\n" in "\n" + node["proof"],
                "uses": _macro("uses", node["proof"]) or [],
                "statement_uses": _macro("uses", node["statement"]),
            }
    return nodes


@pytest.mark.parametrize("which", ["demo", "bundled"])
def test_the_blueprint_marks_what_status_computes(
    which: str, demo_workspace: Callable[..., Path], tmp_path: Path
) -> None:
    root = demo_workspace() if which == "demo" else copy_repo_workspace(tmp_path)
    if which == "demo":  # one target open, so both marks are seen both ways
        proofs = root / "Formal/Demo/Proofs.lean"
        text = proofs.read_text(encoding="utf-8")
        proofs.write_text(text.replace("  simp [Goal, h]\n", "  sorry\n"), encoding="utf-8")
    out = tmp_path / "blueprint" / "src" / "missions"
    out.parent.mkdir(parents=True)
    result = runner.invoke(
        app, ["export", "--format", "blueprint", "-o", str(out), "--root", str(root)]
    )
    assert result.exit_code == 0, result.stderr
    assert "\\input{missions/missions}" in result.stderr
    nodes = read_blueprint(out)
    status = json.loads(runner.invoke(app, ["status", "--json", "--root", str(root)]).stdout)
    catalog = {m.id: m for m in load_catalog(root).missions}
    expected = {}
    for mission in status["missions"]:
        targets = {t.id: t for t in catalog[mission["id"]].targets}
        for entry in mission["targets"]:
            target = targets[entry["id"]]
            expected[f"{mission['id']}:{entry['id']}"] = {
                "lean": [n for n in (target.statement, target.proof) if n],
                "stated": entry["status"] in ("stated", "proved"),
                "proved": entry["status"] == "proved",
                "uses": [f"{mission['id']}:{d}" for d in target.depends_on],
                "statement_uses": None,
            }
    assert nodes == expected
    proved = [label for label, node in nodes.items() if node["proved"]]
    assert proved and len(proved) < len(nodes)


def test_the_blueprint_needs_a_directory(demo_workspace: Callable[..., Path]) -> None:
    demo = demo_workspace()
    result = runner.invoke(app, ["export", "--format", "blueprint", "--root", str(demo)])
    assert (result.exit_code, result.stderr.count("\n")) == (2, 1)


_ESCAPES = re.compile(r"\\textbackslash\{\}|\\textasciicircum\{\}|\\textasciitilde\{\}|\\[{}$&#_%]")


@given(st.text())
def test_prose_never_reaches_latex_as_markup(text: str) -> None:
    escaped = latex_text(text)
    assert not set(_ESCAPES.sub("", escaped)) & set("\\{}$&#^_%~")
    assert "\n" not in escaped
