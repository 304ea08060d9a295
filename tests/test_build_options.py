"""Options that switch off checking make every target unproved wherever they are written:
in a source file in any «» spelling, in lakefile.lean, or in lakefile.toml; in comments they
are text."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from missions.cli import app
from missions.lean import lakefile as lakefile_module
from missions.lean.lakefile import LakefileReader, unsafe_settings
from missions.lean.lexer import lex

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
    assert unsafe_settings(workspace) == []
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


# --------------------------------------------------------- code the lakefile can run
# An allow-list, not a deny-list: each of these is a different way for the build to run code
# or pass Lean an argument the scanner never sees in a source file. The controls show that
# what the reader's grammar holds (options, targets, literal settings) stays clean.
LAKEFILE_CODE = [
    ('  moreLeanArgs := #["--plugin=evil.so"]', "build argument `--plugin=evil.so`"),
    ('  weakLeanArgs := #["--load-dynlib", "evil.so"]', "build argument `--load-dynlib`"),
    ('  moreServerArgs := #["-DautoImplicit=false", "stray"]', "build argument `stray`"),
    ('  moreLeanArgs := #["-Dweak.debug.skipKernelTC=true"]', "switches off"),
    ("  leanOptions := #[⟨`weak.debug.skipKernelTC, true⟩]", "switches off"),
    ('#eval IO.FS.writeFile "Formal/Case/Proofs.lean" ""', "when Lake loads"),
    ("initialize IO.println 1", "when Lake loads"),
    ("target evil pkg : Unit := do\n  return .nil", "`target` may run code"),
    ("post_update pkg do\n  pure ()", "`post_update` may run code"),
    ('macro "evil" : command => `(#print axioms)', "`macro` changes how Lake"),
    # settings that load native code into Lean or build something first, and any setting
    # the scanner does not know: only known-inert ones pass
    ("  plugins := #[evilPlugin]", "`plugins` is a Lake setting the scanner does not know"),
    ("  dynlibs := #[evilLib]", "`dynlibs` is a Lake setting"),
    ("  extraDepTargets := #[`evil]", "`extraDepTargets` is a Lake setting"),
    ("  needs := #[evil]", "`needs` is a Lake setting"),
    ("  bootstrap := true", "`bootstrap` is a Lake setting"),
    ("  someFutureSetting := true", "`someFutureSetting` is a Lake setting"),
    ("lean_lib Other where\n  moreLinkObjs := #[evil]", "`moreLinkObjs` is a Lake setting"),
    ("lean_lib Other { needs := #[evil] }", "`needs` is a Lake setting"),
    # Lake's own grammar: what the reader does not know is not read past
    ("meta if false then\nlean_lib Other", "`meta` is outside the lakefile grammar"),
    ('  description := run_io do\n    return "x"', "`run_io` in the value of `description`"),
    ('  description := "a" ++ "b"', "in the value of `description` is not a literal"),
    ('script hello do\n  IO.println "hi"\n  return 0', "`script` may run code"),
    ("def unused : Nat := 1", "`def` is outside the lakefile grammar"),
    ("open Lake DSL meta if false then lean_lib Other", "`meta` is outside"),
    ("@[extern_attr]\nlean_lib Other", "attribute `extern_attr` is not one Lake reads"),
    (
        'require mathlib from git\n  "https://github.com/leanprover-community/mathlib4.git" @ '
        '"c5ea00351c28e24afc9f0f84379aa41082b1188f" with {}',
        "`require … with` clause",
    ),
    ("  testDriver := __dir__", "`__dir__` in the value of `testDriver`"),
]


@pytest.mark.parametrize(("setting", "reason"), LAKEFILE_CODE)
def test_lakefile_code_or_argument_makes_every_target_unproved(
    workspace: Path, setting: str, reason: str
) -> None:
    assert _goal(workspace)[0] == "proved"
    lakefile = workspace / "lakefile.lean"
    lakefile.write_text(lakefile.read_text(encoding="utf-8") + setting + "\n", encoding="utf-8")
    status, reasons = _goal(workspace)
    assert status == "stated"
    assert any(r.startswith("lakefile.lean:") and reason in r for r in reasons), reasons
    assert ("toolchain-pin", "lakefile.lean") in _check_rules(workspace)


def test_lakefile_import_beyond_lake_runs_code(workspace: Path) -> None:
    lakefile = workspace / "lakefile.lean"
    text = lakefile.read_text(encoding="utf-8")
    lakefile.write_text(text.replace("import Lake", "import Lake\nimport Formal.Case.Proofs"))
    status, reasons = _goal(workspace)
    assert status == "stated" and any("`import Formal.Case.Proofs`" in r for r in reasons)


@pytest.mark.parametrize(
    "setting",
    [
        '  moreLeanArgs := #["-DmaxHeartbeats=400000", "-D", "pp.all=true", "--threads=2"]',
        '  weakLeanArgs := #["-Dweak.linter.style.multiGoal=false", "-E", "warning"]',
        "lean_exe tool where\n  root := `Main",
        "lean_lib Other where\n  globs := #[.submodules `Other, .one `Other.Main]",
        "@[test_driver]\nlean_exe tests where\n  root := `Tests",
        '  version := v!"1.0.0"\n  description := "ML theory"\n  buildDir := "out"',
        '  testDriver := "tests"\n  libName := "formal"\n  buildType := .debug',
        'lean_lib Other {\n  srcDir := "other",\n  roots := #[`Other]\n}',
    ],
)
def test_lakefile_declarations_and_harmless_arguments_stay_clean(
    workspace: Path, setting: str
) -> None:
    lakefile = workspace / "lakefile.lean"
    lakefile.write_text(lakefile.read_text(encoding="utf-8") + setting + "\n", encoding="utf-8")
    assert unsafe_settings(workspace) == []
    assert _goal(workspace)[0] == "proved"


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ('name = "x"\nmoreLeanArgs = ["--plugin=evil.so"]\n', 2, "`--plugin=evil.so`"),
        ('name = "x"\n[[lean_lib]]\nname = "Formal"\nsrcDir = "elsewhere"\n', 4, "`srcDir`"),
        ('name = "x"\n[leanOptions]\n"\\u0064ebug.skipKernelTC" = true\n', 3, "switches off"),
        ('name = "x\n', 1, "cannot be parsed"),
        ('name = "x"\nplugins = ["evil"]\n', 2, "`plugins` is a Lake setting"),
        ('name = "x"\n[[lean_lib]]\nname = "Formal"\ndynlibs = ["e"]\n', 4, "`dynlibs`"),
    ],
)
def test_lakefile_toml_is_parsed_not_grepped(
    workspace: Path, text: str, line: int, reason: str
) -> None:
    (workspace / "lakefile.toml").write_text(text, encoding="utf-8")
    found = unsafe_settings(workspace)
    assert [(s.file, s.line) for s in found] == [("lakefile.toml", line)], found
    assert reason in found[0].message
    assert _goal(workspace)[0] == "stated"


@pytest.mark.parametrize(
    "require",
    [
        'require "someone" / "mathlib-extras" @ git "main"',  # Reservoir form
        'require extras from git "https://example.org/extras.git" @ "main"',
        'require mathlib from git "https://example.org/mathlib4.git" @ "main"',
        # a comment with the pinned text does not make the require on its line pinned
        'require "x" / "y" @ git "main" -- require mathlib from git "u" @ "'
        + "c5ea00351c28e24afc9f0f84379aa41082b1188f"
        + '"',
    ],
)
def test_a_dependency_other_than_pinned_mathlib_makes_every_target_unproved(
    workspace: Path, require: str
) -> None:
    """Imports of `Mathlib.…` are trusted by name; another package could provide one."""
    lakefile = workspace / "lakefile.lean"
    lakefile.write_text(lakefile.read_text(encoding="utf-8") + require + "\n", encoding="utf-8")
    status, reasons = _goal(workspace)
    assert status == "stated"
    line = lakefile.read_text(encoding="utf-8").count("\n")  # the require is the last line
    assert any(r.startswith(f"lakefile.lean:{line}: ") for r in reasons), reasons
    assert ("toolchain-pin", "lakefile.lean") in _check_rules(workspace)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("lean-toolchain", "leanprover/lean4:v4.29.0\n"),
        ("lean-toolchain", "someone/lean4-patched:v4.30.0\n"),
        (
            "lake-manifest.json",
            '{"version": "1.1.0", "packages": [{"name": "mathlib", "type": "git", '
            '"url": "https://example.org/mathlib4.git", "rev": "' + "0" * 40 + '"}]}\n',
        ),
    ],
)
def test_a_toolchain_or_lock_off_the_pins_makes_every_target_unproved(
    workspace: Path, name: str, text: str
) -> None:
    """The scanner trusts Lean and Mathlib by version: a patched Lean or another Mathlib
    commit in Lake's lock file could accept anything."""
    (workspace / name).write_text(text, encoding="utf-8")
    status, reasons = _goal(workspace)
    assert status == "stated"
    assert any(r.startswith(f"{name}:") for r in reasons), reasons
    assert ("toolchain-pin", name) in _check_rules(workspace)


# ------------------------------------------------- imports of modules the pins do not have
def _dependency_roots() -> dict[str, Any]:
    text = (Path(lakefile_module.__file__).with_name("modules.json")).read_text("utf-8")
    roots: dict[str, Any] = json.loads(text)["roots"]
    return roots


@pytest.mark.parametrize("root_name", sorted(_dependency_roots()))
def test_an_import_the_pinned_package_does_not_have_leaves_the_target_unproved(
    workspace: Path, root_name: str
) -> None:
    """Every package read at its pin has its module list: an import it lists is trusted, one
    it does not (a typo, a module added after the pin) stops ``lake build``, so the proof
    behind it is never elaborated."""
    modules = _dependency_roots()[root_name]["modules"]
    existing = modules[len(modules) // 2]
    proofs = workspace / "Formal/Case/Proofs.lean"
    text = proofs.read_text(encoding="utf-8")
    proofs.write_text(text.replace("\n\n", f"\nimport {existing}\n\n", 1), encoding="utf-8")
    assert _goal(workspace)[0] == "proved"
    proofs.write_text(text.replace("\n\n", f"\nimport {existing}Typo\n\n", 1), encoding="utf-8")
    status, reasons = _goal(workspace)
    assert status == "stated"
    assert any(f"import {existing}Typo is not a module of" in r for r in reasons), reasons


# -------------------------------------------------------- the lakefile grammar, mutated
_LITERAL_VALUES = ['"text"', "`Name", "#[`A, `B.C]", "true", "42", ".release", 'v!"1.0"']
_CODE_WORDS = ["run_io", "IO.println", "id", "__dir__", "if", "meta", "fun", "do", "s!"]


@pytest.mark.parametrize("value", _LITERAL_VALUES)
def test_a_literal_setting_value_is_read(value: str) -> None:
    source = lex(f"package P where\n  description := {value}\n")
    assert LakefileReader(source).unread() == []


@pytest.mark.parametrize("word", _CODE_WORDS)
@pytest.mark.parametrize("position", range(4))
def test_a_word_anywhere_in_a_setting_value_is_not_read_past(word: str, position: int) -> None:
    """A setting's value is a term Lake evaluates: any word that is not a literal, at any
    position of it, is a finding (the reader never guesses what a word does)."""
    pieces = ["#[", "`A", ",", "`B", "]"]
    pieces.insert(position + 1, word)
    source = lex("package P where\n  roots := " + " ".join(pieces) + "\n")
    assert LakefileReader(source).unread(), pieces


@pytest.mark.parametrize(
    "command",
    ["meta if true then", "target t : Unit := pure ()", "extern_lib l := pure", "set_option a b"],
)
@pytest.mark.parametrize("indent", ["", "  "])
def test_a_command_the_reader_does_not_know_is_a_finding_wherever_it_starts(
    command: str, indent: str
) -> None:
    text = (Path(lakefile_module.__file__).parents[3] / "lakefile.lean").read_text("utf-8")
    assert LakefileReader(lex(text)).unread() == []
    mutated = text.replace("\n@[default_target]", f"\n{indent}{command}\n@[default_target]")
    assert LakefileReader(lex(mutated)).unread(), mutated
