"""Lake configuration checks that mutation testing found unguarded (``benchmarks/mutation.py``):
what :func:`missions.lean.lakefile.unsafe_settings` reports, with file, line and kind, and
what it leaves alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from missions.lean.lakefile import UnsafeSetting, unknown_arguments, unsafe_settings

LAKEFILE = """\
import Lake
open Lake DSL

package formal where
  leanOptions := #[⟨`autoImplicit, false⟩]
  moreLeanArgs := computedArgs
  moreLinkArgs := #["-lfoo"]

lean_lib Formal
"""


def test_a_computed_option_list_and_foreign_code_in_lakefile_lean(tmp_path: Path) -> None:
    (tmp_path / "lakefile.lean").write_text(LAKEFILE, encoding="utf-8")
    computed = UnsafeSetting(
        "lakefile.lean",
        6,
        "`moreLeanArgs` is not a literal list, so the options it sets (perhaps `debug.*`) "
        "cannot be read from the source",
    )
    # the literal list of safe options on line 5 is fine
    assert unsafe_settings(tmp_path) == [
        computed,
        UnsafeSetting(
            "lakefile.lean",
            7,
            "`moreLinkArgs` links foreign or precompiled code into the build",
            "link",
        ),
    ]


def test_a_debug_option_in_lakefile_lean(tmp_path: Path) -> None:
    (tmp_path / "lakefile.lean").write_text(
        LAKEFILE.replace("computedArgs", '#["-Ddebug.skipKernelTC=true"]'), encoding="utf-8"
    )
    assert unsafe_settings(tmp_path)[0] == UnsafeSetting(
        "lakefile.lean",
        6,
        'build option `"-Ddebug.skipKernelTC=true"` switches off what Lean checks',
    )


def settings_for(tmp_path: Path, name: str, text: str) -> list[tuple]:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return [(s.file, s.line, s.kind) for s in unsafe_settings(tmp_path)]


def test_lakefile_toml_options_comments_and_links(tmp_path: Path) -> None:
    text = (
        'name = "formal"\n'
        "# debug.skipKernelTC is only mentioned in this comment\n"
        'moreLinkArgs = ["-lfoo"]\n'
        'weakLeanArgs = ["-Ddebug.skipKernelTC=true"] # note\n'
    )
    assert settings_for(tmp_path, "lakefile.toml", text) == [
        ("lakefile.toml", 3, "link"),
        ("lakefile.toml", 4, "option"),
    ]
    (found_link,) = [s for s in unsafe_settings(tmp_path) if s.kind == "link"]
    assert found_link == UnsafeSetting(
        "lakefile.toml",
        3,
        '`moreLinkArgs = ["-lfoo"]` links foreign or precompiled code into the build',
        "link",
    )


def lean_settings(tmp_path: Path, value: str) -> list[tuple]:
    text = f"import Lake\nopen Lake DSL\n\npackage formal where\n  moreLeanArgs := {value}\n"
    return settings_for(tmp_path, "lakefile.lean", text)


def test_only_literal_option_lists_can_be_read(tmp_path: Path) -> None:
    computed = [("lakefile.lean", 5, "option")]
    assert lean_settings(tmp_path, '#["-DautoImplicit=false", "-D", "x=1", "-j2"]') == []
    assert lean_settings(tmp_path, "#[⟨`autoImplicit, false⟩, (`x, 1)]") == []
    assert lean_settings(tmp_path, '#["-Dx=1", extra]') == computed  # a name, not a literal
    assert lean_settings(tmp_path, "#[⟨autoImplicit, false⟩]") == computed  # not `name
    assert lean_settings(tmp_path, "someArgs") == computed
    assert lean_settings(tmp_path, "#[") == computed  # unfinished: cannot be read either
    # a mention that assigns nothing is not a setting (the `def` is outside the grammar)
    text = "import Lake\nopen Lake DSL\n\ndef f := moreLeanArgs\n"
    assert settings_for(tmp_path, "lakefile.lean", text) == [("lakefile.lean", 4, "option")]
    assert "`def`" in unsafe_settings(tmp_path)[0].message


# ------------------------------------------------------ arguments, code and TOML (allow-list)
@pytest.mark.parametrize(
    ("arguments", "unknown"),
    [
        (["-DautoImplicit=false", "-D", "pp.all=true", "-j4", "--threads=2"], []),
        (["x"], ["x"]),  # a positional argument: a file Lean would also read
        (["-j", "4", "y"], ["y"]),  # one value per flag
        (["-j4", "z"], ["z"]),  # the value is attached
        (["-j", "4", "--plugin"], ["--plugin"]),
        (["x", "--plugin=evil.so"], ["x", "--plugin=evil.so"]),
        (["-D", "--load-dynlib=evil.so"], ["--load-dynlib=evil.so"]),  # a flag, not a value
        (["-D", "\\u0064ebug.x=1"], ["\\u0064ebug.x=1"]),  # escapes are not decoded
        (["-D\\x64ebug.skipKernelTC=true"], ["-D\\x64ebug.skipKernelTC=true"]),
        (["--json=1", "--json", "--error=a=b", "-q", "-qx"], ["--json=1", "-qx"]),
        # -D is harmless only with an option that does not weaken checking
        (
            ["-Ddebug.skipKernelTC=true", "-D", "weak.debug.x=1", "-D«debug».y=1", "-Dpp.all=1"],
            ["-Ddebug.skipKernelTC=true", "weak.debug.x=1", "-D«debug».y=1"],
        ),
    ],
)
def test_lean_arguments_off_the_list_are_unknown(arguments: list[str], unknown: list[str]) -> None:
    assert unknown_arguments(arguments) == unknown


def lakefile_findings(tmp_path: Path, text: str) -> list[tuple[int, str]]:
    (tmp_path / "lakefile.lean").write_text(text, encoding="utf-8")
    return [(s.line, s.message) for s in unsafe_settings(tmp_path)]


def test_what_lakefile_lean_runs_is_reported_once_with_its_line(tmp_path: Path) -> None:
    text = (
        "import Lake\nimport Lean.Elab.Command\nimport LakeExtra\nopen Lake DSL\n"
        "set_option debug.skipKernelTC true\n"
        "package x where\n"
        "target t pkg : Unit := do\n  return .nil\n"
        'macro "m" : command => `(#print axioms)\n'
    )
    assert lakefile_findings(tmp_path, text) == [
        (5, "build option `debug.skipKernelTC` switches off what Lean checks"),
        (3, "`import LakeExtra` runs that module's code when Lake loads the configuration"),
        (
            7,
            "`target` may run code of its own when Lake configures or builds the package; "
            "the scanner cannot follow it",
        ),
        (
            9,
            "`macro` changes how Lake reads the configuration; the scanner cannot follow it",
        ),
    ]


@pytest.mark.parametrize(
    "value",
    [
        '#["-DautoImplicit=false"] ++ #["-Dde" ++ "bug.skipKernelTC=true"]',
        '#["-DautoImplicit=false"]\n    ++ extra',
        "#[⟨`autoImplicit, false⟩, ⟨x, 1⟩]",  # a name, not a literal, in a later element
        '#["-D«debug».skipKernelTC=true"]',
        '#["-Da=1", "-Db=1"] ++ more',  # after a list of two
        '(#["-DautoImplicit=false"])',  # not a list: a term around one
        '#["-DautoImplicit=false"] extra',  # a name on the same line continues the term
    ],
)
def test_a_value_must_be_one_literal_list(tmp_path: Path, value: str) -> None:
    found = lean_settings(tmp_path, value)
    assert found[0] == ("lakefile.lean", 5, "option")
    assert {kind for _, _, kind in found} == {"option"}  # a continued value: its line too


@pytest.mark.parametrize(
    "text",
    [
        'package x where\n  moreLeanArgs := ["-DautoImplicit=false"]\n  leanOptions := #[]\n',
        'package x {\n  moreLeanArgs := #["-Dx=1"], leanOptions := #[⟨`x, 1⟩] }\nlean_lib A\n',
        'package x where\n  moreLeanArgs := #["-Dx=1"]\n@[default_target]\nlean_lib A\n',
    ],
)
def test_a_literal_list_ends_where_the_next_field_or_command_starts(
    tmp_path: Path, text: str
) -> None:
    assert lakefile_findings(tmp_path, "import Lake\nopen Lake DSL\n" + text) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # the line of the setting, not of a comment mentioning it
        ('# moreLeanArgs are fine\nmoreLeanArgs = ["--plugin=x"]\n', [(2, "`--plugin=x`")]),
        ('moreLeanArgs = "-DautoImplicit=false"\n', []),  # one string is one argument
        ('moreServerOptions = {"\\u0064ebug.skipKernelTC" = true}\n', [(1, "switches off")]),
        ("[leanOptions.debug]\nskipKernelTC = true\n", [(2, "`debug.skipKernelTC`")]),
        ('"\\u006DoreLeanArgs" = ["--plugin"]\n', [(1, "`--plugin`")]),  # no line names it
        ('[[lean_lib]]\nname = "A"\nroots = ["A"]\n', [(3, "`roots` in lakefile.toml")]),
    ],
)
def test_lakefile_toml_findings_and_lines(
    tmp_path: Path, text: str, found: list[tuple[int, str]]
) -> None:
    (tmp_path / "lakefile.toml").write_text(text, encoding="utf-8")
    settings = unsafe_settings(tmp_path)
    assert [s.line for s in settings] == [line for line, _ in found], settings
    for setting, (_, words) in zip(settings, found, strict=True):
        assert words in setting.message and setting.file == "lakefile.toml"


def test_layout_problems_name_lakefile_lean(tmp_path: Path) -> None:
    found = lakefile_findings(tmp_path, "lean_lib A where\n  roots := #[`A]\n    ++ #[`B]\n")
    assert found[0] == (
        2,
        "`roots` is set in a form the scanner cannot follow; Lake may build files it never reads",
    )
    assert [line for line, _ in found[1:]] == [3]  # `++` is no literal either
    assert unsafe_settings(tmp_path)[0].file == "lakefile.lean"


def test_a_value_may_end_the_file_or_precede_one_last_word(tmp_path: Path) -> None:
    text = 'import Lake\nopen Lake DSL\npackage x where\n  moreLeanArgs := #["-Dx=1"]\nfoo\n'
    assert lakefile_findings(tmp_path, text) == [
        (
            5,
            "`foo` may run code of its own when Lake configures or builds the package; the "
            "scanner cannot follow it",
        )
    ]
    assert lakefile_findings(tmp_path, text.replace("\nfoo\n", "")) == []


def test_messages_say_what_to_remove_and_why(tmp_path: Path) -> None:
    text = (
        'import Lake\nopen Lake DSL\npackage x where\n  moreLeanArgs := #["--plugin=p.so"]\n'
        'require "a" / "b" @ git "main"\n'
    )
    assert lakefile_findings(tmp_path, text) == [
        (
            4,
            "build argument `--plugin=p.so` is not one the scanner knows to be harmless (a "
            "plugin or dynamic library runs native code inside Lean)",
        ),
        (
            5,
            "this `require` is not mathlib from git at the pinned revision; the scanner trusts "
            "imports of Mathlib and its dependencies by name, so no other package may provide "
            "them",
        ),
    ]
    (tmp_path / "lakefile.lean").unlink()
    (tmp_path / "lakefile.toml").write_text('srcDir = "src"\n', encoding="utf-8")
    assert [s.message for s in unsafe_settings(tmp_path)] == [
        "`srcDir` in lakefile.toml is not followed by the scanner (only lakefile.lean's "
        "layout is); Lake may build files it never reads"
    ]


def test_the_layout_cross_check_names_the_file_and_the_risk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "lakefile.lean").write_text('lean_lib A where\n  srcDir := "s"\n', "utf-8")
    # the start-up reader is made blind to the setting the lexer sees
    monkeypatch.setattr("missions.lean.lakefile.layout_lines", lambda root: set())
    assert [(s.file, s.line, s.message) for s in unsafe_settings(tmp_path)] == [
        (
            "lakefile.lean",
            2,
            "`srcDir` here is read differently by the layout reader; Lake may build files the "
            "scanner never reads",
        )
    ]


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        # the option's line, found by its last component: `debug.skipKernelTC` nests in two
        ("[leanOptions.weak.debug]\nskipKernelTC = true\n", [2]),
        # no line spells it: the table's line
        ('name = "p"\n[leanOptions]\n"\\u0064ebug.\\u0071" = true\n', [2]),
        # only option tables hold options, and their keys are options, not settings; an
        # unknown table is a setting the scanner does not know to be inert
        ('[other]\n"\\u0064ebug.x" = 1\n', [1]),
        ("[leanOptions]\nglobs = true\nroots = 1\n", []),
        ("[moreServerOptions]\nsrcDir = 1\n", []),
        # a `#` inside a string does not start a comment that would hide the option's line
        ('[leanOptions]\nweak = { note = "a#", debug.skipKernelTC = true }\n', [2]),
        # a comment naming the option is not where it is set
        ("[leanOptions]\nmaxX = 1 # not skipKernelTC\nweak.debug.skipKernelTC = true\n", [3]),
    ],
)
def test_lakefile_toml_option_tables(tmp_path: Path, text: str, lines: list[int]) -> None:
    (tmp_path / "lakefile.toml").write_text(text, encoding="utf-8")
    assert [s.line for s in unsafe_settings(tmp_path)] == lines


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        # a `#` inside a string is text; a comment, with or without quotes, is not code
        ('# see "moreLeanArgs"\nmoreLeanArgs = ["--plugin=#1"] # "x"\n', 2, "`--plugin=#1`"),
        # a multi-line string cannot hide the next element from the parsed reading
        ('moreLeanArgs = ["""\n#""", "-Ddebug.skipKernelTC=true"]\n', 1, "build argument"),
        ("moreLeanArgs = [1]\n", 1, "build argument `1` is not"),
    ],
)
def test_lakefile_toml_arguments_are_read_from_the_parsed_file(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    (tmp_path / "lakefile.toml").write_text(text, encoding="utf-8")
    found = unsafe_settings(tmp_path)
    assert [s.line for s in found] == [line], found
    assert message in found[0].message


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        # `#` in a string is text; the comment after it is cut, with what it mentions
        ('name = "a#b" # debug.skipKernelTC\n', []),
        ('name = "" # debug.skipKernelTC\n', []),
        ('name = "\\\\" # debug.skipKernelTC\n', []),
        # an escaped quote does not end a basic string; a literal string has no escapes
        ('name = "a\\"# debug.skipKernelTC"\n', [1]),
        ("name = 'a\\' # debug.skipKernelTC\n", []),
    ],
)
def test_lakefile_toml_comments_end_where_toml_says(
    tmp_path: Path, text: str, lines: list[int]
) -> None:
    (tmp_path / "lakefile.toml").write_text(text, encoding="utf-8")
    assert [s.line for s in unsafe_settings(tmp_path)] == lines


def test_a_guillemet_debug_definition_anywhere_in_lakefile_lean_counts(tmp_path: Path) -> None:
    text = 'import Lake\nopen Lake DSL\ndef d := "-D«debug».skipKernelTC=true"\npackage x\n'
    assert [line for line, _ in lakefile_findings(tmp_path, text)] == [3]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"import Lake\n\xff\n", "not UTF-8"),
        (None, "Is a directory"),  # an OSError names itself
    ],
)
def test_a_lakefile_that_cannot_be_read_is_one_unsafe_setting(
    tmp_path: Path, content: bytes | None, reason: str
) -> None:
    lakefile = tmp_path / "lakefile.lean"
    if content is None:
        lakefile.mkdir()
    else:
        lakefile.write_bytes(content)
    assert unsafe_settings(tmp_path) == [
        UnsafeSetting("lakefile.lean", 1, f"lakefile.lean cannot be read ({reason})")
    ]
