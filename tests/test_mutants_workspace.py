"""Lake configuration checks that mutation testing found unguarded (``benchmarks/mutation.py``):
what :func:`missions.lean.lakefile.unsafe_settings` reports, with file, line and kind, and
what it leaves alone."""

from __future__ import annotations

from pathlib import Path

from missions.lean.lakefile import UnsafeSetting, unsafe_settings

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
    assert unsafe_settings(tmp_path) == [computed]  # a literal list of safe options is fine
    assert unsafe_settings(tmp_path, links=True) == [
        computed,
        UnsafeSetting(
            "lakefile.lean",
            7,
            "`moreLinkArgs` links foreign or precompiled code into the build",
            "link",
        ),
    ]
    assert computed.reason() == f"lakefile.lean:6: {computed.message}"


def test_a_debug_option_in_lakefile_lean(tmp_path: Path) -> None:
    (tmp_path / "lakefile.lean").write_text(
        LAKEFILE.replace("computedArgs", '#["-Ddebug.skipKernelTC=true"]'), encoding="utf-8"
    )
    assert unsafe_settings(tmp_path) == [
        UnsafeSetting(
            "lakefile.lean",
            6,
            'build option `"-Ddebug.skipKernelTC=true"` switches off what Lean checks',
        )
    ]


def settings_for(tmp_path: Path, name: str, text: str, links: bool = False) -> list[tuple]:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return [(s.file, s.line, s.kind) for s in unsafe_settings(tmp_path, links=links)]


def test_lakefile_toml_options_comments_and_links(tmp_path: Path) -> None:
    text = (
        'name = "formal"\n'
        "# debug.skipKernelTC is only mentioned in this comment\n"
        'moreLinkArgs = ["-lfoo"]\n'
        'weakLeanArgs = ["-Ddebug.skipKernelTC=true"] # note\n'
    )
    assert settings_for(tmp_path, "lakefile.toml", text) == [("lakefile.toml", 4, "option")]
    (found_link,) = [s for s in unsafe_settings(tmp_path, links=True) if s.kind == "link"]
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
    # a mention that assigns nothing is not a setting
    text = "import Lake\nopen Lake DSL\n\ndef f := moreLeanArgs\n"
    assert settings_for(tmp_path, "lakefile.lean", text) == []
