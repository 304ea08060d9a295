"""The scanner compiled at install time (``setup.py``, :mod:`missions.lean.native`).

The compiled copy must scan exactly as the pure modules do, and be used only when it was
built from the sources on disk. The equivalence tests run where the install compiled the
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

from missions import lint
from missions.lean import lexer, native, scan, workspace

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
    monkeypatch: pytest.MonkeyPatch, built_from: str, scan_source: Callable[[str], Any]
) -> None:
    scan_module = types.ModuleType("missions.lean._native.scan")
    scan_module.BUILT_FROM = built_from  # type: ignore[attr-defined]
    scan_module.scan_source = scan_source  # type: ignore[attr-defined]
    lexer_module = types.ModuleType("missions.lean._native.lexer")
    lexer_module.lex = lambda text: lexer.Source(text=text)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "missions.lean._native.scan", scan_module)
    monkeypatch.setitem(sys.modules, "missions.lean._native.lexer", lexer_module)
    monkeypatch.delenv(native.PURE_PYTHON_ENV, raising=False)


def test_the_build_compiles_copies_of_the_sources_on_disk(tmp_path: Path) -> None:
    """What ``setup.py`` hands mypyc: the lexer as it is, the scanner importing the compiled
    lexer and recording the digest :mod:`missions.lean.native` checks at run time."""
    paths = [Path(p) for p in _setup_module()._copies(tmp_path / "src")]
    lean = Path(scan.__file__).parent
    copied = {p.name: p.read_text(encoding="utf-8") for p in paths}
    assert set(copied) == {"lexer.py", "scan.py"}
    assert all(p.parent == tmp_path / "src" / "missions" / "lean" / "_native" for p in paths)
    assert copied["lexer.py"] == (lean / "lexer.py").read_text(encoding="utf-8")
    original = (lean / "scan.py").read_text(encoding="utf-8")
    body, _, tail = copied["scan.py"].rpartition("\n#: sha256 of the sources")
    assert body == original.replace(
        "from missions.lean.lexer import", "from missions.lean._native.lexer import"
    )
    assert "missions.lean.lexer" not in body
    assert tail.strip().endswith(f'BUILT_FROM = "{native.sources_digest()}"')


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
        None if native._compiled() is None else native._compiled()[1].scan_source
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
    assert chosen is (lexer.lex if modules is None else modules[0].lex)
    assert chosen(text).tokens == lexer.lex(text).tokens


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
def _compiled_modules() -> tuple[Any, Any]:
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


def _assert_same(compiled: tuple[Any, Any], text: str) -> None:
    compiled_lexer, compiled_scan = compiled
    assert _lexed(compiled_lexer, text) == _lexed(lexer, text), text[:200]
    assert compiled_scan.scan_source(text).to_json() == scan.scan_source(text).to_json(), text[:200]


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
