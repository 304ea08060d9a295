"""Mutation testing of the core modules with mutmut, sharded per module, within a time budget.

A green suite only says the code passed the tests; mutation testing says which tests would
notice if the code were wrong. mutmut rewrites each function of a module into many variants
that differ in one place (an operator, a constant, a condition, a string), runs the tests that
call that function against each variant, and counts a variant *killed* when a test fails.

Each module is a shard with its own mutmut work directory outside the repository (default
``~/.cache/missions-mutation/<shard>``), so one module can run on its own and a later run is
incremental: mutmut keeps every verdict whose function did not change, and this script
re-checks the survivors (and the mutants without tests) whenever the tests changed. A run
interrupted by the budget keeps what it decided; the next run continues with the rest.

Per shard, only the test files that exercise the module run (``MODULES`` below), and within
them mutmut runs, per mutant, only the tests that called the mutated function in a recorded
run. Survivors listed in ``benchmarks/mutation-equivalent.md`` (they cannot change
behaviour) count as equivalent, not as survivors.

    python benchmarks/mutation.py --module gate --budget 20
    python benchmarks/mutation.py --budget 240 --fresh --json /tmp/mutation.json

Needs the ``mutation`` extra (``pip install -e '.[mutation]'``). Nothing is written into the
repository; ``--clean`` deletes the work directories afterwards.
"""

from __future__ import annotations

import argparse
import ast
import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "tools" / "missions"
EQUIVALENT_FILE = REPO / "benchmarks" / "mutation-equivalent.md"

#: Test files that always run with a shard: the suite's shared fixtures live in conftest.
_SCANNER_TESTS = [
    "tests/test_lexer.py",
    "tests/test_scan_cases.py",
    "tests/test_workspace_scan.py",
]

#: Core module (path under tools/missions, without .py) -> the test files that exercise it, in
#: the order the shards run by default. Derived from a coverage run with one context per test
#: (which test files execute lines of the module) and trimmed to the files that reach the
#: module's logic directly rather than through the whole CLI; ``tests/test_mutants_*.py`` are
#: the tests written to kill this tool's survivors.
MODULES: dict[str, list[str]] = {
    "lean/scan": [*_SCANNER_TESTS, "tests/test_mutants_scan.py"],
    "gate": [
        "tests/test_gate_rules.py",
        "tests/test_cli.py",
        "tests/test_placeholders.py",
        "tests/test_pins.py",
        "tests/test_ratchet.py",
        "tests/test_lint.py",
        "tests/test_dependencies.py",
        "tests/test_kernel.py",
        "tests/test_mutants_gate.py",
    ],
    "lean/lexer": [*_SCANNER_TESTS, "tests/test_mutants_lexer.py"],
    "yamlio": [
        "tests/test_missions.py",
        "tests/test_faults.py",
        "tests/test_cli_faults.py",
        "tests/test_catalog.py",
        "tests/test_concurrency.py",
        "tests/test_ratchet.py",
        "tests/test_mutants_yamlio.py",
        "tests/test_locale.py",
    ],
    "catalog": [
        "tests/test_catalog.py",
        "tests/test_missions.py",
        "tests/test_faults.py",
        "tests/test_mutants_catalog.py",
    ],
    "witness": [
        "tests/test_witnesses.py",
        "tests/test_mutants_witness.py",
    ],
    "lean/vocabulary": [*_SCANNER_TESTS, "tests/test_mutants_scan.py"],
    "lean/lakefile": [
        "tests/test_workspace_scan.py",
        "tests/test_build_options.py",
        "tests/test_lake.py",
        "tests/test_layout.py",
        "tests/test_mutants_workspace.py",
    ],
    "status": [
        "tests/test_status_view.py",
        "tests/test_gate_rules.py",
        "tests/test_scan_cases.py",
        "tests/test_kernel_tier.py",
        "tests/test_dependencies.py",
        "tests/test_placeholders.py",
        "tests/test_layout.py",
        "tests/test_mutants_status.py",
    ],
    "pins": [
        "tests/test_pins.py",
        "tests/test_gate_rules.py",
        "tests/test_ratchet.py",
        "tests/test_mutants_pins.py",
    ],
    "fastpath": ["tests/test_fastpath.py", "tests/test_mutants_fastpath.py"],
    "answers": [
        "tests/test_fastpath.py",
        "tests/test_mutants_fastpath.py",
        "tests/test_fresh_clone.py",
    ],
    "lean/workspace": [
        *_SCANNER_TESTS,
        "tests/test_gate_rules.py",
        "tests/test_mutants_workspace.py",
        "tests/test_mutants_names.py",
    ],
}

#: Tests left out of every shard. The harmless-commands property re-runs the whole scanner
#: corpus six times with commands inserted, three quarters of the scanner tests' time, and every
#: surviving mutant would pay for it in full; the corpus verdicts (clean cases must stay
#: proved) run in every scanner shard.
#: The fast path's import test fails on any mutated copy: mutmut's trampolines import
#: `typing` and more into every module, which the test forbids the fast path.
DESELECTED = [
    "tests/test_scan_cases.py::test_harmless_commands_never_change_a_verdict",
    "tests/test_fastpath.py::test_fast_path_imports_nothing_heavy",
]

#: mutmut exit codes (``mutmut.stats.status_by_exit_code``) grouped into this report's columns.
_KILLED = {1, 3}
_TIMEOUT = {24, -24, 152, 255, 36, -9, -11}
_SURVIVED = {0}
_NO_TESTS = {5, 33}
#: Rejected by mypy (the project's ``mypy`` configuration, strict) before any test ran.
_MYPY = {37}
#: Runs stopped by the budget (pytest's "interrupted"): always run again.
_INTERRUPTED = {2}
#: Verdicts re-checked whenever the tests change (a new test may kill them).
_RECHECK = {0, 5, 33, 35, *_INTERRUPTED}

#: A pytest plugin for the shard that orders each mutant's tests: first those that killed other
#: mutants of the same function (recorded by this plugin as it goes), then the fastest (by the
#: durations mutmut recorded). A killed mutant then costs about one test, not all of them.
ORDER_PLUGIN = textwrap.dedent(
    """
    import json
    import os
    from pathlib import Path

    KILLERS = Path(".mutation-killers.jsonl")


    def _function(mutant):
        return mutant.partition("__mutmut_")[0]


    def _mutant():
        mutant = os.environ.get("MUTANT_UNDER_TEST", "")
        return mutant if "__mutmut_" in mutant else None


    def pytest_collection_modifyitems(items):
        try:
            stats = json.loads(Path("mutmut-stats.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            stats = {}
        durations = stats.get("duration_by_test", {})
        kills = {}
        mutant = _mutant()
        if mutant is not None and KILLERS.exists():
            function = _function(mutant)
            for line in KILLERS.read_text(encoding="utf-8").splitlines():
                try:
                    killed, test = json.loads(line)
                except ValueError:
                    continue
                if killed == function:
                    kills[test] = kills.get(test, 0) + 1
        items.sort(key=lambda item: (-kills.get(item.nodeid, 0), durations.get(item.nodeid, 0.0)))


    def pytest_runtest_logreport(report):
        mutant = _mutant()
        if report.failed and mutant is not None:
            with KILLERS.open("a", encoding="utf-8") as out:
                out.write(json.dumps([_function(mutant), report.nodeid]) + "\\n")
    """
)

#: A test that hangs on a mutant (an index that no longer advances) fails after this long.
TEST_TIMEOUT_S = 60


@dataclass
class Mutant:
    name: str
    status: str
    function: str = ""
    line: int = 0
    before: str = ""
    after: str = ""
    equivalent_reason: str = ""


@dataclass
class ShardResult:
    module: str
    mutants: int = 0
    killed: int = 0
    timeout: int = 0
    survived: int = 0
    no_tests: int = 0
    mypy: int = 0
    equivalent: int = 0
    suspicious: int = 0
    not_checked: int = 0
    score: float | None = None
    #: the tests alone: killed among the mutants mypy accepts
    test_score: float | None = None
    complete: bool = False
    wall_s: float = 0.0
    #: wall time of every run of the shard since it was created (or ``--fresh``)
    wall_total_s: float = 0.0
    note: str = ""
    survivors: list[Mutant] = field(default_factory=list)


def canonical(name: str) -> str:
    """``lean.scan``, ``lean/scan.py``, ``scan`` -> ``lean/scan``."""
    stem = name.removesuffix(".py").replace(".", "/").removeprefix("missions/")
    if stem in MODULES:
        return stem
    matches = [m for m in MODULES if m.rsplit("/", 1)[-1] == stem]
    if len(matches) == 1:
        return matches[0]
    raise SystemExit(f"unknown module {name!r}; one of: {', '.join(MODULES)}")


def dotted(module: str) -> str:
    return "missions." + module.replace("/", ".")


# ---------------------------------------------------------------- the work directory


def tracked_files() -> list[str]:
    """The repository's files as the working tree has them (untracked new tests included)."""
    done = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO,
        capture_output=True,
        check=True,
    )
    return sorted({p for p in done.stdout.decode().split("\0") if p})


def mirror(work: Path) -> list[str]:
    """Copy the working tree into ``work`` (the package under ``src/``, where mutmut expects
    it) keeping modification times, so that mutmut regenerates only mutants of changed files.
    Returns the top-level entries other than the package, for mutmut's ``also_copy``."""
    wanted: dict[Path, Path] = {}
    for rel in tracked_files():
        source = REPO / rel
        if not source.is_file():
            continue
        if rel.startswith("tools/"):
            if not rel.startswith("tools/missions/"):
                continue
            wanted[work / "src" / rel.removeprefix("tools/")] = source
        else:
            wanted[work / rel] = source
    for target, source in wanted.items():
        if target.exists() and (target.stat().st_mtime_ns, target.stat().st_size) == (
            source.stat().st_mtime_ns,
            source.stat().st_size,
        ):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    for top in ("src", "tests", "Formal", "missions", "docs", "benchmarks"):
        root = work / top
        for path in root.rglob("*") if root.is_dir() else []:
            if path.is_file() and path not in wanted:
                path.unlink()
    return sorted({rel.split("/", 1)[0] for rel in tracked_files() if not rel.startswith("tools/")})


def mutmut_config(module: str, also_copy: list[str], jobs: int) -> str:
    """The ``[tool.mutmut]`` table appended to the shard's copy of pyproject.toml."""
    skip = {"tests", "pyproject.toml"}
    config = {
        "source_paths": ["src"],
        "only_mutate": [f"src/missions/{module}.py"],
        # The selection lives in an argument file (pytest's ``@file``), so that adding a test
        # file does not change mutmut's configuration and throw away every verdict.
        "pytest_add_cli_args_test_selection": ["@selection.args"],
        "pytest_add_cli_args": [
            "-p",
            "no:cacheprovider",
            "-p",
            "_mutation_order",
            f"--timeout={TEST_TIMEOUT_S}",
            "-o",
            "addopts=",
        ],
        "also_copy": [p for p in also_copy if p not in skip],
        # mutants mypy rejects (a None where a str must be, a dropped argument) cannot be
        # committed under the project's standards; they are counted apart and never run
        "type_check_command": [
            sys.executable,
            "-m",
            "mypy",
            "-O",
            "json",
            "--explicit-package-bases",
            "--follow-imports=silent",
            "--no-warn-unused-ignores",  # mutmut's generated lines carry `type: ignore`
            "--cache-dir",
            ".mypy-mutants",
            f"src/missions/{module}.py",
        ],
        "timeout_multiplier": 3.0,
        "timeout_constant": 10.0,
        "use_git_change_detection": False,
        "on_dependency_change": "ignore",
        "use_setproctitle": False,
    }
    lines = ["", "[tool.mutmut]"]
    for key, value in config.items():
        lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def tests_digest(work: Path, selection: list[str]) -> str:
    digest = hashlib.sha256("\n".join(selection).encode())
    for path in sorted((work / "tests").rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(work).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def meta_path(work: Path, module: str) -> Path:
    return work / "mutants" / "src" / "missions" / f"{module}.py.meta"


def read_meta(work: Path, module: str) -> dict[str, Any]:
    path = meta_path(work, module)
    if not path.is_file():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def reset_verdicts(
    work: Path, module: str, tests_changed: bool, keep: frozenset[str] = frozenset()
) -> int:
    """Forget runs the budget interrupted and, when the tests changed, the verdicts a new test
    could change (survivors, mutants without tests), except those in ``keep`` (survivors
    listed as equivalent, which no test can change)."""
    path = meta_path(work, module)
    meta = read_meta(work, module)
    codes = meta.get("exit_code_by_key", {})
    again = _RECHECK if tests_changed else _INTERRUPTED
    reset = [k for k, v in codes.items() if v in again and v is not None and k not in keep]
    for key in reset:
        codes[key] = None
    if reset:
        path.write_text(json.dumps(meta, indent=4), encoding="utf-8")
    return len(reset)


def prepare(work: Path, module: str, jobs: int) -> tuple[list[str], str]:
    """Mirror the repository into the shard and write its configuration; returns the selected
    test files and the digest of the tests."""
    work.mkdir(parents=True, exist_ok=True)
    also_copy = mirror(work)
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    (work / "pyproject.toml").write_text(
        pyproject + mutmut_config(module, also_copy, jobs), encoding="utf-8"
    )
    mutants = work / "mutants"
    # The mutated package's directory must exist before mutmut starts: Python remembers a
    # PYTHONPATH entry that did not exist at start-up as "nothing to import here".
    (mutants / "src").mkdir(parents=True, exist_ok=True)
    # mutmut copies tests and data files over the old ones: start them afresh so that a deleted
    # test or fixture does not live on in the shard.
    for top in ["tests", *also_copy]:
        stale = mutants / top
        if top == "src":
            continue
        if stale.is_dir():
            shutil.rmtree(stale)
        elif stale.exists():
            stale.unlink()
    (mutants / "_mutation_order.py").write_text(ORDER_PLUGIN, encoding="utf-8")
    selection = [t for t in MODULES[module] if (REPO / t).is_file()]
    deselect = [f"--deselect={t}" for t in DESELECTED if t.split("::")[0] in selection]
    (mutants / "selection.args").write_text(
        "\n".join(selection + deselect) + "\n", encoding="utf-8"
    )
    return selection, tests_digest(work, selection)


# ---------------------------------------------------------------- running mutmut


def mutmut_command() -> list[str]:
    script = Path(sys.executable).with_name("mutmut")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "from mutmut.__main__ import cli; cli()"]


def run_mutmut(
    work: Path, jobs: int, deadline: float, log: Path, names: list[str] | None = None
) -> tuple[int | None, str]:
    """``mutmut run`` in the shard until it ends or the deadline passes (then it is stopped
    with SIGINT, which makes mutmut record what it finished)."""
    env = dict(os.environ)
    # Tests that start ``missions`` in a child process must import the mutated package too.
    env["PYTHONPATH"] = os.pathsep.join(
        [str(work / "mutants" / "src"), *filter(None, [env.get("PYTHONPATH")])]
    )
    env.pop("MUTANT_UNDER_TEST", None)
    env["MYPYPATH"] = "src"  # mypy runs in the shard's mutants/ directory
    with log.open("a", encoding="utf-8") as out:
        out.write(f"\n=== mutmut run at {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
        out.flush()
        process = subprocess.Popen(
            [*mutmut_command(), "run", "--max-children", str(jobs), *(names or [])],
            cwd=work,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            return process.wait(timeout=max(1.0, deadline - time.monotonic())), ""
        except subprocess.TimeoutExpired:
            note = "budget exhausted"
        except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (see main): stop mutmut, keep its work
            note = "interrupted"
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        return None, note


_DIFF_HELPER = textwrap.dedent(
    """
    import json, sys
    from mutmut.mutation.diff_apply import get_diff_for_mutant
    path, names = sys.argv[1], json.loads(sys.stdin.read())
    print(json.dumps({n: get_diff_for_mutant(n, path=path) for n in names}))
    """
)


def diffs(work: Path, module: str, names: list[str]) -> dict[str, str]:
    if not names:
        return {}
    done = subprocess.run(
        [sys.executable, "-c", _DIFF_HELPER, f"src/missions/{module}.py"],
        cwd=work,
        input=json.dumps(names),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        return {}
    found: dict[str, str] = json.loads(done.stdout)
    return found


# ---------------------------------------------------------------- locating and judging survivors


def function_spans(source: str) -> dict[str, tuple[int, int]]:
    """``Class.method`` or ``function`` -> (first, last) line in the original source."""
    spans: dict[str, tuple[int, int]] = {}
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            spans[node.name] = (node.lineno, node.end_lineno or node.lineno)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    spans[f"{node.name}.{item.name}"] = (
                        item.lineno,
                        item.end_lineno or item.lineno,
                    )
    return spans


def function_of(name: str) -> str:
    """``missions.gate.xǁGate ǁrun__mutmut_3`` -> ``Gate.run``; ``x_check__mutmut_1`` -> check."""
    mangled = name.rpartition(".")[2].partition("__mutmut_")[0]
    if mangled.startswith("xǁ"):
        _, cls, method = mangled.split("ǁ")
        return f"{cls}.{method}"
    return mangled.removeprefix("x_")


def changed_lines(diff: str) -> tuple[str, str]:
    """The original and the mutated text of a one-point mutation (joined when it spans lines)."""
    before = [
        ln[1:].strip()
        for ln in diff.splitlines()
        if ln.startswith("-") and not ln.startswith("---")
    ]
    after = [
        ln[1:].strip()
        for ln in diff.splitlines()
        if ln.startswith("+") and not ln.startswith("+++")
    ]
    return " ".join(before), " ".join(after)


_HUNK = re.compile(r"^@@ -(\d+)")


def locate(
    source_lines: list[str], span: tuple[int, int] | None, before: str, diff: str = ""
) -> int:
    """The source line a mutation changed: from the diff's hunk (relative to the function's
    ``def`` line) when it points at the changed text, else the first line of the function
    that reads like it."""
    if span is None or not before:
        return 0
    for text in diff.splitlines():
        hunk = _HUNK.match(text)
        if hunk is None:
            continue
        offset = int(hunk.group(1))
        for body in diff.splitlines()[diff.splitlines().index(text) + 1 :]:
            if body.startswith("-"):
                number = span[0] + offset - 1
                inside = 0 < number <= len(source_lines)
                if inside and source_lines[number - 1].strip() == body[1:].strip():
                    return number
                break
            if not body.startswith("+"):
                offset += 1
        break
    for number in range(span[0], span[1] + 1):
        if source_lines[number - 1].strip() == before:
            return number
    head = before[:40]
    for number in range(span[0], span[1] + 1):
        if source_lines[number - 1].strip().startswith(head):
            return number
    return span[0]


_ROW = re.compile(r"^\|\s*`?([\w/.]+)`?\s*\|\s*`?([\w.]+)`?\s*\|\s*(\d*)\s*\|(.*)\|(.*)\|\s*$")
_CODE = re.compile(r"`((?:[^`]|``)+)`")


def equivalents() -> dict[tuple[str, str, str, str], str]:
    """(module, function, original line, mutated line) -> the reason the mutant is equivalent.

    Rows of the table in ``benchmarks/mutation-equivalent.md``: ``| module | function | line |
    `original` → `mutated` | why |``. Lines are matched by text, so they survive line shifts.
    """
    table: dict[tuple[str, str, str, str], str] = {}
    if not EQUIVALENT_FILE.is_file():
        return table
    for line in EQUIVALENT_FILE.read_text(encoding="utf-8").splitlines():
        match = _ROW.match(line)
        if match is None:
            continue
        module, function, _line, mutation, why = match.groups()
        code = [c.replace("``", "`") for c in _CODE.findall(mutation)]
        if len(code) != 2:
            continue
        table[(canonical(module), function, code[0].strip(), code[1].strip())] = why.strip()
    return table


# ---------------------------------------------------------------- one shard


def summarize(work: Path, module: str, note: str, wall: float) -> ShardResult:
    meta = read_meta(work, module)
    codes: dict[str, int | None] = meta.get("exit_code_by_key", {})
    result = ShardResult(module=module, mutants=len(codes), wall_s=round(wall, 1), note=note)
    open_names = sorted(k for k, v in codes.items() if v in _SURVIVED | _NO_TESTS)
    texts = diffs(work, module, open_names)
    source = (PACKAGE / f"{module}.py").read_text(encoding="utf-8")
    spans = function_spans(source)
    lines = source.splitlines()
    known = equivalents()
    for name, code in codes.items():
        if code in _KILLED:
            result.killed += 1
        elif code in _TIMEOUT:
            result.timeout += 1
        elif code in _MYPY:
            result.mypy += 1
        elif code is None:
            result.not_checked += 1
        elif code in _SURVIVED | _NO_TESTS:
            function = function_of(name)
            before, after = changed_lines(texts.get(name, ""))
            mutant = Mutant(
                name=name,
                status="survived" if code in _SURVIVED else "no tests",
                function=function,
                line=locate(lines, spans.get(function), before, texts.get(name, "")),
                before=before,
                after=after,
            )
            why = known.get((module, function, before, after))
            if why is not None:
                mutant.equivalent_reason = why
                result.equivalent += 1
            elif code in _SURVIVED:
                result.survived += 1
            else:
                result.no_tests += 1
            result.survivors.append(mutant)
        else:
            result.suspicious += 1
    scores(result)
    result.complete = result.not_checked == 0 and result.mutants > 0
    result.survivors.sort(key=lambda m: (m.line, m.name))
    return result


def run_shard(
    module: str,
    base: Path,
    jobs: int,
    deadline: float,
    fresh: bool,
    report_only: bool = False,
    recheck: bool = False,
) -> ShardResult:
    source = (PACKAGE / f"{module}.py").read_text(encoding="utf-8")
    if not any(
        isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) for n in ast.walk(ast.parse(source))
    ):
        return ShardResult(module=module, complete=True, note="no functions: nothing to mutate")
    work = base / module.replace("/", ".")
    state_file = work / "state.json"
    if report_only:
        result = summarize(work, module, "", 0.0)
        if state_file.is_file():
            result.wall_total_s = json.loads(state_file.read_text()).get("wall_s", 0.0)
        return result
    work.mkdir(parents=True, exist_ok=True)
    lock = (work / ".lock").open("w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return ShardResult(module=module, note="skipped: another run holds this shard")
    if fresh:
        for child in work.iterdir():
            if child.name != ".lock":
                shutil.rmtree(child) if child.is_dir() else child.unlink()
    started = time.monotonic()
    selection, digest = prepare(work, module, jobs)
    state = json.loads(state_file.read_text()) if state_file.is_file() else {}
    names = None
    equivalent: frozenset[str] = frozenset()
    source_digest = hashlib.sha256(source.encode()).hexdigest()
    if recheck and state.get("source") == source_digest:
        # only the mutants no test killed yet (survivors, and those never run), named to
        # mutmut, which then runs just those; after a change of the module the names are
        # mutmut's to make anew, so the whole shard runs (still keeping every verdict of an
        # unchanged function)
        codes = read_meta(work, module).get("exit_code_by_key", {})
        candidates = sorted(k for k, v in codes.items() if v is None or v in _RECHECK)
        names = _without_equivalents(work, module, candidates, codes)
        equivalent = frozenset(candidates) - frozenset(names)
        if not names:
            return summarize(work, module, "nothing to re-check", 0.0)
    changed = state.get("tests") != digest or state.get("source") != source_digest
    reset_verdicts(work, module, tests_changed=changed, keep=equivalent)
    if changed:
        # which tests call which function was recorded for other code or tests: a renamed or
        # new function would have no tests, and a new test no functions (mutmut records anew)
        (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    print(f"[{module}] tests: {' '.join(selection)}", flush=True)
    code, note = run_mutmut(work, jobs, deadline, work / "mutmut.log", names)
    if code not in (0, None):
        note = f"mutmut exited {code}; see {work / 'mutmut.log'}"
    result = summarize(work, module, note, time.monotonic() - started)
    # every run since the shard was created, so that an incremental measurement adds up
    state["wall_s"] = round(state.get("wall_s", 0.0) + result.wall_s, 1)
    result.wall_total_s = state["wall_s"]
    if code in (0, None):  # the verdicts on record were reached with these tests and code
        state["tests"] = digest
        state["source"] = source_digest
    state_file.write_text(json.dumps(state), encoding="utf-8")
    return result


def _without_equivalents(
    work: Path, module: str, names: list[str], codes: dict[str, int | None]
) -> list[str]:
    """``names`` less the survivors listed as equivalent: no test can kill them, and each
    would run every test of its function again."""
    known = equivalents()
    texts = diffs(work, module, [n for n in names if codes.get(n) is not None])
    return [
        n
        for n in names
        if n not in texts or (module, function_of(n), *changed_lines(texts[n])) not in known
    ]


# ---------------------------------------------------------------- report


_COLUMNS = (
    ("mutants", 7),
    ("killed", 6),
    ("timeout", 7),
    ("mypy", 5),
    ("survived", 8),
    ("no_tests", 8),
    ("equivalent", 5),
    ("not_checked", 9),
)


def scores(r: ShardResult) -> None:
    """Fill in the score (tests, timeouts and mypy) and the tests' own score."""
    judged = r.mutants - r.equivalent - r.not_checked
    r.score = round(100.0 * (r.killed + r.timeout + r.mypy) / judged, 1) if judged > 0 else None
    tested = judged - r.mypy
    r.test_score = round(100.0 * (r.killed + r.timeout) / tested, 1) if tested > 0 else None


def table(results: list[ShardResult]) -> str:
    """The per-module table, and a total row."""
    labels = {"no_tests": "no tests", "equivalent": "equiv", "not_checked": "unchecked"}
    head = f"{'module':<16} " + " ".join(
        f"{labels.get(name, name):>{width}}" for name, width in _COLUMNS
    )
    total = ShardResult(module="total")
    for r in results:
        for name, _ in _COLUMNS:
            setattr(total, name, getattr(total, name) + getattr(r, name))
        total.wall_s += r.wall_s
    scores(total)
    rows = [head + f" {'score':>6} {'tests':>6} {'wall s':>7}"]
    for r in [*results, total]:
        cells = " ".join(f"{getattr(r, name):>{width}}" for name, width in _COLUMNS)
        score = "-" if r.score is None else f"{r.score:.1f}%"
        tests = "-" if r.test_score is None else f"{r.test_score:.1f}%"
        rows.append(
            f"{r.module:<16} {cells} {score:>6} {tests:>6} {r.wall_s:>7.0f}"
            + (f"  ({r.note})" if r.note else "")
        )
    return "\n".join(rows)


def markdown(results: list[ShardResult]) -> str:
    """The table as Markdown (the README's), one row per module and the total."""
    total = ShardResult(module="total")
    for r in results:
        for name, _ in _COLUMNS:
            setattr(total, name, getattr(total, name) + getattr(r, name))
        total.wall_s += r.wall_s
    scores(total)
    head = (
        "| module | mutants | killed | timeout | mypy | survived | no tests | equivalent "
        "| unchecked | score | tests alone | wall min |"
    )
    rows = [head, "|---|" + "---:|" * 11]
    for r in [*results, total]:
        cells = " | ".join(str(getattr(r, name)) for name, _ in _COLUMNS)
        score = "–" if r.score is None else f"{r.score:.1f}%"
        tests = "–" if r.test_score is None else f"{r.test_score:.1f}%"
        name = f"`{r.module}`" if r is not total else "total"
        wall = r.wall_total_s if r is not total else sum(x.wall_total_s for x in results)
        rows.append(f"| {name} | {cells} | {score} | {tests} | {wall / 60:.0f} |")
    return "\n".join(rows)


def survivor_rows(results: list[ShardResult]) -> str:
    """Survivors as rows for benchmarks/mutation-equivalent.md (fill in why, or kill them)."""
    rows = []
    for r in results:
        for m in r.survivors:
            if m.equivalent_reason:
                continue
            before, after = (s.replace("`", "``") for s in (m.before, m.after))
            rows.append(
                f"| {r.module} | {m.function} | {m.line} | `{before}` → `{after}` | ({m.status}) |"
            )
    return "\n".join(rows)


def _terminated(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--module",
        action="append",
        help="a core module (repeatable; default: all, in the order of MODULES)",
    )
    parser.add_argument("--budget", type=float, default=60.0, help="minutes for the whole run")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="mutants at once")
    parser.add_argument(
        "--workdir",
        type=Path,
        default=Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        / "missions-mutation",
        help="where the shards live (outside the repository)",
    )
    parser.add_argument("--fresh", action="store_true", help="discard earlier verdicts")
    parser.add_argument(
        "--recheck",
        action="store_true",
        help="run only the mutants no test has killed yet (after adding tests)",
    )
    parser.add_argument(
        "--report-only", action="store_true", help="summarize the last run without running"
    )
    parser.add_argument("--clean", action="store_true", help="delete the shards afterwards")
    parser.add_argument("--json", type=Path, help="write the summary here (default: WORKDIR)")
    parser.add_argument("--markdown", action="store_true", help="also print the table as Markdown")
    parser.add_argument(
        "--survivors", action="store_true", help="print the survivors as equivalence-table rows"
    )
    args = parser.parse_args(argv)
    # a terminated run stops its mutmut too (it runs in a session of its own)
    signal.signal(signal.SIGTERM, _terminated)
    try:
        import mutmut  # noqa: F401
    except ImportError:
        print("mutmut is not installed: pip install -e '.[mutation]'", file=sys.stderr)
        return 2
    base: Path = args.workdir.expanduser().resolve()
    if base == REPO or REPO in base.parents:
        print("--workdir must be outside the repository", file=sys.stderr)
        return 2
    modules = [canonical(m) for m in args.module] if args.module else list(MODULES)
    deadline = time.monotonic() + args.budget * 60
    results: list[ShardResult] = []
    for module in modules:
        if time.monotonic() >= deadline:
            results.append(ShardResult(module=module, note="not run: budget exhausted"))
            continue
        result = run_shard(
            module, base, args.jobs, deadline, args.fresh, args.report_only, args.recheck
        )
        results.append(result)
        print(table([result]).splitlines()[1], flush=True)
    print()
    print(table(results))
    if args.markdown:
        print()
        print(markdown(results))
    if args.survivors:
        print()
        print(survivor_rows(results))
    summary = {
        "tool": "mutmut",
        "jobs": args.jobs,
        "budget_min": args.budget,
        "modules": [asdict(r) for r in results],
    }
    target = args.json or base / "summary.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nsummary: {target}")
    if args.clean:
        for module in modules:
            shutil.rmtree(base / module.replace("/", "."), ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
