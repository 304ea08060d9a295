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
