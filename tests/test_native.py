"""The scanner and the lint compiled at install time (``setup.py``, :mod:`missions.lean.native`).

The compiled copy must scan and lint exactly as the pure modules do, and be used only when
it was built from the sources on disk. The equivalence tests run where the install compiled the
scanner (CI's fresh machine has a C compiler) and skip with the reason elsewhere; the
selection and the build's copies are tested everywhere.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import shutil
import sys
import sysconfig
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import LAKEFILE, MISSION_YAML, copy_repo_workspace, generated_tree, write_files
from missions import lint
from missions.catalog import load_catalog
from missions.lean import lexer, native, scan, workspace
from missions.lean.workspace import load_workspace

REPO = Path(__file__).resolve().parent.parent
NATIVE_DIR = Path(native.__file__).with_name("_native")


def _setup_module() -> Any:
    """``setup.py`` as a module (it calls ``setup()`` only when run as a script)."""
    spec = importlib.util.spec_from_file_location("missions_setup", REPO / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def fresh_choice(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The compiled copy is chosen once per process: decide again around the test, and
    prefer it as a scan of many files does."""
    native._compiled.cache_clear()
    monkeypatch.setattr(native, "_preferred", True)
    yield
    native._compiled.cache_clear()


def _fake_native(
    monkeypatch: pytest.MonkeyPatch,
    built_from: str,
    scan_source: Callable[[str], Any],
    run: type | None = None,
    lex: Callable[[str], lexer.Source] = lambda text: lexer.Source(text=text),
) -> None:
    scan_module = types.ModuleType("missions.lean._native.scan")
    scan_module.BUILT_FROM = built_from  # type: ignore[attr-defined]
    scan_module.scan_source = scan_source  # type: ignore[attr-defined]
    lexer_module = types.ModuleType("missions.lean._native.lexer")
    lexer_module.lex = lex  # type: ignore[attr-defined]
    lint_module = types.ModuleType("missions.lean._native.lint")
    lint_module._Run = run or lint._Run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "missions.lean._native.scan", scan_module)
    monkeypatch.setitem(sys.modules, "missions.lean._native.lexer", lexer_module)
    monkeypatch.setitem(sys.modules, "missions.lean._native.lint", lint_module)
    monkeypatch.delenv(native.PURE_PYTHON_ENV, raising=False)


def test_the_build_compiles_copies_of_the_sources_on_disk(tmp_path: Path) -> None:
    """What ``setup.py`` hands mypyc: the lexer and the lint as they are, the scanner
    importing the compiled lexer and recording the digest :mod:`missions.lean.native` checks
    at run time."""
    paths = [Path(p) for p in _setup_module()._copies(tmp_path / "src")]
    package = Path(lint.__file__).parent
    copied = {p.name: p.read_text(encoding="utf-8") for p in paths}
    assert set(copied) == {"lexer.py", "scan.py", "lint.py"}
    assert all(p.parent == tmp_path / "src" / "missions" / "lean" / "_native" for p in paths)
    assert copied["lexer.py"] == (package / "lean" / "lexer.py").read_text(encoding="utf-8")
    assert copied["lint.py"] == (package / "lint.py").read_text(encoding="utf-8")
    original = (package / "lean" / "scan.py").read_text(encoding="utf-8")
    body, _, tail = copied["scan.py"].rpartition("\n#: sha256 of the sources")
    assert body == original.replace(
        "from missions.lean.lexer import", "from missions.lean._native.lexer import"
    )
    assert "missions.lean.lexer" not in body
    assert tail.strip().endswith(f'BUILT_FROM = "{native.sources_digest()}"')


def test_an_edit_to_any_compiled_module_changes_the_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copy is trusted only while every module it was built from is unchanged."""
    package = Path(lint.__file__).parent
    fake = tmp_path / "missions"
    for name in native.COMPILED:
        (fake / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(package / name, fake / name)
    monkeypatch.setattr(native, "__file__", str(fake / "lean" / "native.py"))
    built = native.sources_digest()
    assert built == _setup_module()._sources_digest()
    for name in native.COMPILED:
        original = (fake / name).read_bytes()
        (fake / name).write_bytes(original + b"\n")
        assert native.sources_digest() != built, name
        (fake / name).write_bytes(original)
    assert native.sources_digest() == built


def test_a_compiled_copy_is_used_only_when_built_from_the_sources_on_disk(
    monkeypatch: pytest.MonkeyPatch, fresh_choice: None
) -> None:
    def compiled(text: str) -> scan.FileScan:
        return scan.FileScan(error=(1, "from the compiled copy"))

    _fake_native(monkeypatch, native.sources_digest(), compiled)
    assert native.compiled_scanner() is compiled
    assert native.scanner_kind() == "compiled with mypyc"

    native._compiled.cache_clear()
    _fake_native(monkeypatch, "0" * 64, compiled)  # built before an edit
    assert native.compiled_scanner() is None
    assert native.compiled_lexer() is None
    assert native.scanner_kind() == "pure Python"

    native._compiled.cache_clear()
    _fake_native(monkeypatch, native.sources_digest(), compiled)
    monkeypatch.setenv(native.PURE_PYTHON_ENV, "1")
    assert native.compiled_scanner() is None


def test_the_scan_and_the_lint_read_with_the_chosen_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_choice: None
) -> None:
    path = tmp_path / "A.lean"
    path.write_text("theorem a : True := sorry\n", encoding="utf-8")
    _fake_native(
        monkeypatch,
        native.sources_digest(),
        lambda text: scan.FileScan(error=(1, "from the compiled copy")),
    )
    assert "from the compiled copy" in workspace.scan_file(str(path)).text
    # the fake compiled lexer finds no tokens: the lint reads what it gives
    assert lint._file_of("A.lean", path.read_text(encoding="utf-8")).tokens == []

    native._compiled.cache_clear()
    monkeypatch.setenv(native.PURE_PYTHON_ENV, "1")
    pure = json.loads(workspace.scan_file(str(path)).text)
    expected = scan.scan_source(path.read_text(encoding="utf-8")).to_json()
    assert pure == json.loads(json.dumps(expected))
    assert lint._file_of("A.lean", path.read_text(encoding="utf-8")).tokens


def test_only_a_scan_of_many_files_loads_the_compiled_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loading the copy costs about one file's scan: an edit's rescan of a file or two
    stays pure, a scan of many files (and what lexes after it) uses the copy."""
    monkeypatch.setattr(native, "_preferred", False)
    monkeypatch.setattr(workspace, "PARALLEL_THRESHOLD", 3)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)  # no workers: the choice is this process's
    paths = []
    for name in "abc":
        path = tmp_path / f"{name}.lean"
        path.write_text(f"theorem {name} : True := trivial\n", encoding="utf-8")
        paths.append(str(path))
    with workspace._Scanning(paths[:2]) as scanning:
        assert len(list(scanning)) == 2
    assert not native._preferred and native.compiled_scanner() is None
    with workspace._Scanning(paths) as scanning:
        assert len(list(scanning)) == 3
    assert native._preferred
    assert native.compiled_scanner() is (
        None if native._compiled() is None else native._compiled().scan.scan_source
    )


def test_a_process_lexing_many_files_switches_to_the_copy(
    monkeypatch: pytest.MonkeyPatch, fresh_choice: None
) -> None:
    """The lint lexes files one by one: the first few with the pure lexer, the rest with
    the copy (where there is one), and every reading gives the same tokens."""
    monkeypatch.setattr(native, "_preferred", False)
    monkeypatch.setattr(native, "_lexes", 0)
    text = "theorem t : True := by\n  trivial\n"
    for _ in range(native.PURE_LEXES):
        assert native.lexer() is lexer.lex
    assert not native._preferred
    chosen = native.lexer()
    assert native._preferred
    modules = native._compiled()
    assert chosen is (lexer.lex if modules is None else modules.lexer.lex)
    assert chosen(text).tokens == lexer.lex(text).tokens


def _workspace(root: Path, statements: dict[str, str]) -> Path:
    """A workspace of one-target missions ``m0``, ``m1``, …: per mission, the body of its
    ``Statements.lean`` (a ``Goal``), and a proof that is ``sorry``."""
    files = {"Formal.lean": "".join(f"import Formal.M{i}.Proofs\n" for i in range(len(statements)))}
    for i, body in enumerate(statements.values()):
        files[f"Formal/M{i}/Statements.lean"] = (
            f"import Mathlib\n\nnamespace Formal.M{i}\n\n{body}\nend Formal.M{i}\n"
        )
        files[f"Formal/M{i}/Proofs.lean"] = (
            f"import Formal.M{i}.Statements\n\nnamespace Formal.M{i}\n\n"
            f"theorem goal : Goal := sorry\n\nend Formal.M{i}\n"
        )
    (root / "missions").mkdir(parents=True)
    (root / "lakefile.lean").write_text(LAKEFILE, encoding="utf-8")
    (root / "lean-toolchain").write_text("leanprover/lean4:v4.30.0\n", encoding="utf-8")
    write_files(root, files)
    for i in range(len(statements)):
        (root / "missions" / f"m{i}.yaml").write_text(
            MISSION_YAML.format(id=f"m{i}", module=f"Formal.M{i}"), encoding="utf-8"
        )
    return root


def _lint_tree(root: Path, missions: int) -> Path:
    """``missions`` missions, each statement one the lint flags."""
    trap = "def Goal : Prop := ∀ x y : ℝ, x / y ≤ x\n"
    return _workspace(root, {f"m{i}": trap for i in range(missions)})


def test_linting_many_missions_runs_the_rules_with_the_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_choice: None
) -> None:
    """The lint's rules run in the copy's runner once a command lints many missions; a few
    missions (an edit's re-lint) and a switched-off copy keep the pure runner. Either way the
    findings are the same."""
    used: list[str] = []

    class Recording(lint._Run):
        def mission(self, mission: Any, closure: Any) -> dict[str, Any]:
            used.append(mission.id)
            return super().mission(mission, closure)

    _fake_native(monkeypatch, native.sources_digest(), scan.scan_source, Recording, lexer.lex)
    monkeypatch.setattr(native, "_preferred", False)
    monkeypatch.setattr(native, "_lexes", 0)  # nor has it lexed many files yet
    monkeypatch.setattr(lint, "PARALLEL_MISSIONS", 2)
    root = _lint_tree(tmp_path / "ws", 2)
    catalog = load_catalog(root)
    missions = [m.mission for m in catalog.files]
    found = load_workspace(root, use_cache=False)

    few = lint.lint_missions(root, found, missions[:1], use_cache=False)
    assert used == [] and not native._preferred
    many = lint.lint_missions(root, found, missions, use_cache=False)
    assert sorted(used) == ["m0", "m1"] and native._preferred
    assert {f.rule for f in few.findings} == {f.rule for f in many.findings} == {"junk-div"}

    used.clear()
    native._compiled.cache_clear()
    monkeypatch.setenv(native.PURE_PYTHON_ENV, "1")
    assert lint.lint_missions(root, found, missions, use_cache=False) == many
    assert used == []


def _worker_uses_the_copy() -> bool:
    return native.compiled_scanner() is not None


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_scan_workers_use_the_copy_however_they_start(method: str) -> None:
    """Python 3.14 starts workers afresh by default: what a forked worker inherits, a new
    one must choose itself."""
    if native._compiled() is None:
        pytest.skip(f"no compiled scanner for these sources ({native.scanner_kind()})")
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(1, mp_context=context, initializer=workspace._start_worker) as pool:
        assert pool.submit(_worker_uses_the_copy).result(timeout=120)


def _can_compile() -> bool:
    """A C compiler and the Python headers: what building an extension needs."""
    command = (sysconfig.get_config_var("CC") or "cc").split()
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return bool(command) and shutil.which(command[0]) is not None and headers.is_file()


def test_the_install_compiled_the_scanner() -> None:
    """Where a C compiler is, the README's install compiles the scanner: a build that
    silently fell back to pure Python would cost every cold run a third more CPU."""
    if os.environ.get("MISSIONS_NO_COMPILE"):
        pytest.skip("MISSIONS_NO_COMPILE is set: the install was asked not to compile")
    if sys.implementation.name != "cpython" or not _can_compile():
        pytest.skip("no C compiler or Python headers (or not CPython): the scanner is pure here")
    built = sorted(p.name for p in NATIVE_DIR.glob("*.so"))
    assert built, (
        f"no compiled scanner in {NATIVE_DIR}: reinstall (pip install -e .) and read what "
        "setup.py printed"
    )
    native._compiled.cache_clear()
    if native._compiled() is None and not os.environ.get(native.PURE_PYTHON_ENV):
        pytest.skip("the compiled scanner was built from other sources: reinstall to test it")


# ----------------------------------------------------------------- equivalence
def _compiled_modules() -> native.Compiled:
    native._compiled.cache_clear()
    modules = native._compiled()
    if modules is None:
        pytest.skip(
            f"no compiled scanner for these sources ({native.scanner_kind()}): "
            "pip install -e . with a C compiler builds it"
        )
    return modules


def _corpus() -> list[str]:
    """Every Lean file the repository has: the missions and the test fixtures."""
    paths = sorted((REPO / "Formal").rglob("*.lean")) + sorted(
        (REPO / "tests" / "fixtures").rglob("*.lean")
    )
    return [p.read_bytes().decode("utf-8", errors="replace") for p in paths]


#: Text that changes how everything after it is read: an opener without its closer.
_HOSTILE = [
    '"',
    "/-",
    "-/",
    "/--",
    "'",
    "«",
    "»",
    '{"',
    's!"{',
    "}",
    "#exit\n",
    "\nsorry\n",
    "--",
    'r#"',
    "\r",
    "\t",
    "é",
    "\u200b",
    "`",
    "⟨",
    "∑'",
    "D/",
    "\ntheorem t : True := by\n  sorry\n",
    "\nset_option debug.skipKernelTC true in\n",
    '\nmacro "x" : term => `(sorry)\n',
]


def _variants(texts: list[str], count: int, seed: int) -> Iterator[str]:
    """Texts cut, spliced and salted with hostile fragments, reproducibly."""
    rng = random.Random(seed)
    for _ in range(count):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 4)):
            at = rng.randint(0, len(text))
            move = rng.random()
            if move < 0.5:
                text = text[:at] + rng.choice(_HOSTILE) + text[at:]
            elif move < 0.7:
                text = text[:at]
            else:
                other = rng.choice(texts)
                start = rng.randint(0, len(other))
                text = text[:at] + other[start : start + rng.randint(0, 400)] + text[at:]
        yield text


def _lexed(module: Any, text: str) -> tuple[Any, ...]:
    source = module.lex(text)
    error = None if source.error is None else (source.error.offset, source.error.message)
    return source.tokens, source.exit_offset, error


def _assert_same(compiled: native.Compiled, text: str) -> None:
    assert _lexed(compiled.lexer, text) == _lexed(lexer, text), text[:200]
    assert compiled.scan.scan_source(text).to_json() == scan.scan_source(text).to_json(), text[:200]


def test_the_compiled_scanner_scans_every_corpus_file_alike() -> None:
    compiled = _compiled_modules()
    texts = _corpus()
    assert len(texts) > 100
    for text in texts:
        _assert_same(compiled, text)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_the_compiled_scanner_scans_damaged_and_hostile_text_alike(seed: int) -> None:
    """Faults, cut-off files and hostile fragments: where the two could part (an exception
    one raises and the other records, a branch only broken text takes)."""
    compiled = _compiled_modules()
    seed = int(os.environ.get("MISSIONS_FUZZ_SEED", "0")) * 100 + seed
    for text in _variants(_corpus(), 1500, seed):
        _assert_same(compiled, text)


# ------------------------------------------------------------ the lint, alike
def _lint_with(root: Path, runner: type, found: workspace.Workspace) -> Any:
    """One pass of the lint's rules over every mission of ``root``, run by ``runner``, with
    no cache: every entry is made."""
    missions = [m.mission for m in load_catalog(root).files]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lint, "_runner", lambda: runner)
        chosen = frozenset(m.id for m in missions)
        return lint._lint_part(root, found, missions, missions, chosen, {})


def _assert_lints_alike(compiled: native.Compiled, root: Path) -> Any:
    """The copy's runner makes every cache entry, as text, and every finding, allow and
    reach the pure one does; the pure result, to check the input meant something."""
    found = load_workspace(root, use_cache=False)
    pure = _lint_with(root, lint._Run, found)
    other = _lint_with(root, compiled.lint._Run, found)
    assert other.fresh == pure.fresh
    assert other == pure
    return pure


def _cases_tree(root: Path) -> Path:
    """Every rule's trap and near miss (``tests/test_lint.py``), each its own mission; some
    traps accepted by an allow comment, some allows malformed or unused."""
    from test_lint import CASES

    allows = ("", "-- lint: allow {rule} because the case says so\n", "-- lint: allow\n")
    statements: dict[str, str] = {}
    for rule, fires, near_miss in CASES:
        for kind, statement in (("fires", fires), ("near", near_miss)):
            allow = allows[len(statements) % 3].format(rule=rule)
            statements[f"{rule} ({kind})"] = allow + statement
    return _workspace(root, statements)


def test_the_compiled_lint_finds_what_the_pure_one_does(tmp_path: Path) -> None:
    """The bundled missions and every rule's trap and near miss, with allow comments."""
    compiled = _compiled_modules()
    _assert_lints_alike(compiled, copy_repo_workspace(tmp_path))
    found = _assert_lints_alike(compiled, _cases_tree(tmp_path / "cases"))
    rules = {r.rule for r in found.raw} | {r.rule for rs in found.local.values() for r in rs}
    assert len(rules) > 10, rules
    assert any(found.allows.values()) and any(found.malformed.values())


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_the_compiled_lint_finds_what_the_pure_one_does_in_damaged_trees(
    tmp_path: Path, seed: int
) -> None:
    """A generated workspace whose Lean files are cut, spliced and salted with hostile
    fragments (the scanner's fuzzing, :func:`_variants`), several files at a time."""
    compiled = _compiled_modules()
    root = generated_tree(tmp_path / "tree", 700 + seed)
    paths = sorted((root / "Formal").rglob("*.lean"))
    texts = [p.read_text(encoding="utf-8") for p in paths]
    rng = random.Random(seed)
    _assert_lints_alike(compiled, root)
    for round_ in range(6):
        chosen = rng.sample(range(len(paths)), 8)
        for index, text in zip(chosen, _variants(texts, 8, seed * 100 + round_), strict=True):
            paths[index].write_text(text, encoding="utf-8")
        _assert_lints_alike(compiled, root)
