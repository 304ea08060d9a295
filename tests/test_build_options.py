"""Options that switch off checking make every target unproved wherever they are written:
in a source file in any «» spelling, in lakefile.lean, or in lakefile.toml; in comments they
are text."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from missions.cli import app
from missions.lean.lakefile import unsafe_settings

FILES = {
    "Formal/Case/Statements.lean": (
        "import Mathlib\n\nnamespace Formal.Case\n\ndef Goal : Prop := 2 + 2 = 4\n\n"
        "end Formal.Case\n"
    ),
    "Formal/Case/Proofs.lean": (
        "import Formal.Case.Statements\n\nnamespace Formal.Case\n\n"
        "theorem goal : Goal := by\n  unfold Goal\n  norm_num\n\nend Formal.Case\n"
    ),
}


@pytest.fixture
def workspace(make_workspace: Callable[..., Path]) -> Path:
    root = make_workspace(FILES, {"case": "Formal.Case"})
    runner = CliRunner()
    assert runner.invoke(app, ["pin", "--root", str(root)]).exit_code == 0
    assert runner.invoke(app, ["sync", "--root", str(root)]).exit_code == 0
    return root


def _goal(root: Path) -> tuple[str, list[str]]:
    result = CliRunner().invoke(app, ["status", "--json", "--no-cache", "--root", str(root)])
    target = json.loads(result.stdout)["missions"][0]["targets"][0]
    return target["status"], target["reasons"]


def _check_rules(root: Path) -> set[tuple[str, str | None]]:
    result = CliRunner().invoke(app, ["check", "--json", "--no-cache", "--root", str(root)])
    return {(v["rule"], v["file"]) for v in json.loads(result.stdout)["violations"]}


LAKEFILE_LEAN = [
    "  leanOptions := #[⟨`debug.skipKernelTC, true⟩]",
    "  leanOptions := #[⟨`«debug».skipKernelTC, true⟩]",
    "  leanOptions := #[⟨`«debug.byAsSorry», true⟩]",
    '  moreLeanArgs := #["-Ddebug.skipKernelTC=true"]',
    '  weakLeanArgs := #["-Dbootstrap.inductiveCheckResultingUniverse=false"]',
]


@pytest.mark.parametrize("setting", LAKEFILE_LEAN)
def test_lakefile_option_makes_every_target_unproved(workspace: Path, setting: str) -> None:
    assert _goal(workspace)[0] == "proved"
    lakefile = workspace / "lakefile.lean"
    text = lakefile.read_text(encoding="utf-8")
    lakefile.write_text(text.replace("package", "package", 1) + setting + "\n", encoding="utf-8")
    status, reasons = _goal(workspace)
    assert status == "stated"
    assert any(r.startswith("lakefile.lean:") and "switches off" in r for r in reasons), reasons
    assert ("toolchain-pin", "lakefile.lean") in _check_rules(workspace)


def test_lakefile_comment_mentioning_an_option_is_text(workspace: Path) -> None:
    lakefile = workspace / "lakefile.lean"
    lakefile.write_text(
        lakefile.read_text(encoding="utf-8")
        + "-- never set debug.skipKernelTC here\n/- nor «debug».byAsSorry -/\n",
        encoding="utf-8",
    )
    assert unsafe_settings(workspace, links=True) == []
    assert _goal(workspace)[0] == "proved"


def test_lakefile_toml_option(workspace: Path) -> None:
    (workspace / "lakefile.toml").write_text(
        '# debug.skipKernelTC is mentioned in a comment only\nname = "x"\n\n'
        '[leanOptions]\n"debug.skipKernelTC" = true\n',
        encoding="utf-8",
    )
    found = unsafe_settings(workspace)
    assert [(s.file, s.line) for s in found] == [("lakefile.toml", 5)]
    assert _goal(workspace)[0] == "stated"


@pytest.mark.parametrize(
    "spelling",
    ["debug.skipKernelTC", "«debug».skipKernelTC", "«debug.skipKernelTC»", "debug.«byAsSorry»"],
)
def test_source_option_in_any_spelling_is_forbidden(workspace: Path, spelling: str) -> None:
    proofs = workspace / "Formal/Case/Proofs.lean"
    text = proofs.read_text(encoding="utf-8")
    proofs.write_text(
        text.replace("theorem goal", f"set_option {spelling} true in\ntheorem goal"),
        encoding="utf-8",
    )
    status, reasons = _goal(workspace)
    assert status == "stated" and any("weakens checking" in r for r in reasons), reasons
    assert ("forbidden-construct", "Formal/Case/Proofs.lean") in _check_rules(workspace)
