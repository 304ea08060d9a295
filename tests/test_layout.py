"""Which files Lake builds: ``srcDir``, ``roots`` and ``globs`` in ``lakefile.lean``.

The scanner must read the files Lake compiles. A layout it reads wrongly would let clean
decoys stand in for the real sources, so every form it cannot follow makes every target
``stated``. Constructed fixtures throughout.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import DEMO_YAML, LAKEFILE, demo_sources, invoke, settle
from missions import roots
from missions.lean.lakefile import unsafe_settings
from missions.roots import lake_layout, lean_file_stats, module_file, module_namer

HEAD = 'package Formal\n\nrequire mathlib from git\n  "https://x/mathlib4.git" @ "abc"\n\n'


def layout(tmp_path: Path, text: str) -> tuple[list[tuple[str, str]], list[int]]:
    (tmp_path / "lakefile.lean").write_text(text, encoding="utf-8")
    sources, problems = lake_layout(tmp_path)
    return sources, [line for line, _ in problems]


@pytest.mark.parametrize(
    ("text", "sources"),
    [
        (HEAD + "lean_lib Formal\n", [("", "Formal")]),
        (HEAD, [("", "Formal")]),
        (HEAD + "@[default_target]\nlean_lib «Formal» where\n", [("", "Formal")]),
        (
            HEAD + 'lean_lib Challenge where\n  srcDir := "comparator"\n',
            [("comparator", "Challenge")],
        ),
        (
            'package P where\n  srcDir := "src"\nlean_lib A\nlean_lib B where\n  srcDir := "b"\n',
            [("src", "A"), ("src/b", "B")],
        ),
        ("lean_lib A where\n  roots := #[`X.Y, `Z]\n", [("", "X.Y"), ("", "Z")]),
        (
            "lean_lib A where\n  globs := #[.submodules `A, Glob.one `B, `C]\n",
            [("", "A"), ("", "B"), ("", "C")],
        ),
        ('lean_lib A { srcDir := "s", roots := #[`X] }\n', [("s", "X")]),
        # settings in comments and strings are not settings
        ('-- srcDir := "x"\n/- lean_lib Q where\n  srcDir := "q" -/\nlean_lib A\n', [("", "A")]),
        ('def s := "srcDir := \\"x\\""\nlean_lib A\n', [("", "A")]),
        # a character literal holding a quote does not open a string
        ("def x := '\"'\nlean_lib A where\n  srcDir := \"src\"\ndef y := '\"'\n", [("src", "A")]),
        ('lean_lib A where\n  srcDir := r#"s"rc"#\n', [('s"rc', "A")]),
    ],
)
def test_layouts_it_reads(tmp_path: Path, text: str, sources: list[tuple[str, str]]) -> None:
    assert layout(tmp_path, text) == (sources, [])


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('lean_lib A where\n  srcDir := "src" / "x"\n', 2),
        ("lean_lib A where\n  srcDir := mySrc\n", 2),
        ("lean_lib A where\n  roots := myRoots\n", 2),
        ("lean_lib A where\n  globs := #[.submodules A]\n", 2),
        ('lean_exe a where\n  srcDir := "x"\n', 2),
        ("package P where\n  roots := #[`X]\nlean_lib A\n", 2),
        ('lean_lib A where\n  srcDir := "../elsewhere"\n', 2),
        ('package P where\n  srcDir := "/abs"\nlean_lib A\n', 2),
        ('lean_lib A where\n  srcDir := s!"src{1}"\n', 1),
        ('lean_lib A where\n  srcDir := "src\n', 1),
        ("/- unterminated\nlean_lib A\n", 1),
    ],
)
def test_layouts_it_cannot_follow_are_problems(tmp_path: Path, text: str, line: int) -> None:
    _, problems = layout(tmp_path, text)
    assert problems and problems[0] == line
    assert {s.line for s in unsafe_settings(tmp_path)} >= {line}


def test_the_lexer_cross_checks_the_layout_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the start-up reader and the Lean lexer disagree on a layout word, the setting
    is not trusted (simulated: the small reader drops every token from line 2 on)."""
    text = 'lean_lib A where\n  srcDir := "src"\n'
    (tmp_path / "lakefile.lean").write_text(text, encoding="utf-8")
    assert unsafe_settings(tmp_path) == []
    reader = roots._lake_tokens

    def blind(source: str) -> list[tuple[int, str, str]] | None:
        tokens = reader(source)
        return [t for t in tokens or [] if t[0] < 2]

    monkeypatch.setattr(roots, "_lake_tokens", blind)
    [setting] = unsafe_settings(tmp_path)
    assert setting.line == 2 and "read differently" in setting.message


def test_files_and_module_names_follow_the_source_directories(tmp_path: Path) -> None:
    for rel in ("src/A.lean", "src/A/B.lean", "src/b/X/Y.lean", "A/Decoy.lean", "src/Other.lean"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("", encoding="utf-8")
    sources = [("src", "A"), ("src/b", "X.Y")]
    root = str(tmp_path)
    paths = [p for p, _ in lean_file_stats(root, sources)]
    name_of = module_namer(root, sources)
    assert sorted(name_of(p) for p in paths) == ["A", "A.B", "X.Y"]
    assert module_file(root, "A.New", sources) == str(tmp_path / "src/A/New.lean")


def _src_workspace(make_workspace: Callable[..., Path], proofs_in_src: str | None) -> Path:
    """The demo mission built from ``src/`` (``package … srcDir := "src"``); with
    ``proofs_in_src``, that text replaces the real Proofs module while a clean copy sits,
    unbuilt, at the old place."""
    assert "package Formal where\n" in LAKEFILE
    lakefile = LAKEFILE.replace(
        "package Formal where\n", 'package Formal where\n  srcDir := "src"\n'
    )
    files = {f"src/{path}": text for path, text in demo_sources().items()}
    files["lakefile.lean"] = lakefile
    files["missions/demo.yaml"] = DEMO_YAML
    root = make_workspace(files, use_git=False)
    settle(root)
    if proofs_in_src is not None:
        real = root / "src/Formal/Demo/Proofs.lean"
        decoy = root / "Formal/Demo/Proofs.lean"
        decoy.parent.mkdir(parents=True)
        decoy.write_text(real.read_text(encoding="utf-8"), encoding="utf-8")
        real.write_text(proofs_in_src, encoding="utf-8")
    return root


def _statuses(root: Path) -> dict[str, str]:
    result = invoke("status", "--json", "--root", root)
    assert result.exit_code == 0, result.stderr
    [mission] = json.loads(result.stdout)["missions"]
    return {t["id"]: t["status"] for t in mission["targets"]}


def test_a_src_layout_is_scanned_where_lake_builds_it(make_workspace: Callable[..., Path]) -> None:
    root = _src_workspace(make_workspace, None)
    assert _statuses(root) == {"step": "proved", "goal": "proved"}
    assert invoke("check", "--root", root).exit_code == 0


def test_decoys_outside_the_source_directory_are_not_read(
    make_workspace: Callable[..., Path],
) -> None:
    clean = demo_sources()["Formal/Demo/Proofs.lean"]
    root = _src_workspace(make_workspace, clean.replace("  simp [Goal, h]\n", "  sorry\n"))
    assert _statuses(root)["goal"] == "stated"


def test_an_unreadable_layout_proves_nothing(make_workspace: Callable[..., Path]) -> None:
    root = _src_workspace(make_workspace, None)
    lakefile = root / "lakefile.lean"
    text = lakefile.read_text(encoding="utf-8")
    assert "\nlean_lib Formal\n" in text
    lakefile.write_text(
        text.replace("\nlean_lib Formal\n", "\nlean_lib Formal where\n  globs := extra\n"),
        encoding="utf-8",
    )
    result = invoke("status", "--json", "--root", root)
    [mission] = json.loads(result.stdout)["missions"]
    for target in mission["targets"]:
        assert target["status"] == "stated"
        assert any("`globs` is set in a form" in reason for reason in target["reasons"])
    result = invoke("check", "--json", "--root", root)
    assert result.exit_code == 1
    found = [v for v in json.loads(result.stdout)["violations"] if v["rule"] == "toolchain-pin"]
    assert [(v["file"], v["line"]) for v in found] == [
        ("lakefile.lean", text.count("\n", 0, text.index("\nlean_lib Formal\n")) + 3)
    ]


def test_the_incremental_path_names_modules_by_source_directory(
    make_workspace: Callable[..., Path],
) -> None:
    from missions import incremental

    root = _src_workspace(make_workspace, None)
    invoke("status", "--json", "--root", root)  # the state the incremental path starts from
    proofs = root / "src/Formal/Demo/Proofs.lean"
    proofs.write_text(
        proofs.read_text(encoding="utf-8").replace("  simp [Goal, h]\n", "  sorry\n"),
        encoding="utf-8",
    )
    sources = roots.library_roots(root)
    text = incremental.status_text(str(root), sources, lean_file_stats(str(root), sources))
    assert text is not None, "an edit outside the statement closure is answered incrementally"
    full = invoke("status", "--json", "--no-cache", "--root", root)
    assert text == full.stdout
    assert '"status": "stated"' in text


def test_two_files_for_one_module_are_a_fault(make_workspace: Callable[..., Path]) -> None:
    """A second library may provide a module the first one has: Lake reads one file for the
    name, and which one is not the scanner's to guess. The clean copy must not vouch for a
    sorry'd one (or the other way round)."""
    root = _src_workspace(make_workspace, None)
    lakefile = root / "lakefile.lean"
    lakefile.write_text(
        lakefile.read_text(encoding="utf-8")
        + '\nlean_lib Extra where\n  srcDir := "extra"\n  roots := #[`Formal.Demo.Proofs]\n',
        encoding="utf-8",
    )
    real = root / "src/Formal/Demo/Proofs.lean"
    copy = root / "src/extra/Formal/Demo/Proofs.lean"  # under the package's srcDir
    copy.parent.mkdir(parents=True)
    copy.write_text(real.read_text(encoding="utf-8").replace("simp [Goal, h]", "sorry"), "utf-8")
    result = invoke("status", "--json", "--root", root)
    [mission] = json.loads(result.stdout)["missions"]
    goal = next(t for t in mission["targets"] if t["id"] == "goal")
    assert goal["status"] == "stated"
    assert any(
        "module Formal.Demo.Proofs is also provided by src/extra/Formal/Demo/Proofs.lean" in r
        for r in goal["reasons"]
    ), goal["reasons"]
