"""Shared fixtures: small throwaway workspaces built from dictionaries of files."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from missions import roots, stored
from missions.cli import app as cli_app

REPO = Path(__file__).resolve().parents[1]

# LeanDojo (the `dojo` extra) reads these when imported: never reach for its remote cache of
# traced repositories, and keep its repository cache out of the user's home.
os.environ.setdefault("DISABLE_REMOTE_CACHE", "1")
os.environ.setdefault("CACHE_DIR", tempfile.mkdtemp(prefix="missions-lean-dojo-"))
# Hypothesis keeps its example database and constants under .hypothesis/ in the working
# directory: keep them out of the repository (the suite must leave no trace).
os.environ.setdefault(
    "HYPOTHESIS_STORAGE_DIRECTORY", tempfile.mkdtemp(prefix="missions-hypothesis-")
)

LAKEFILE = (REPO / "lakefile.lean").read_text(encoding="utf-8")

MISSION_YAML = """\
id: {id}
title: "Test mission {id}"
category: example
summary: >
  A test mission.
sources:
  - key: src
    citation: "A. Author. A paper. 2024."
    locators: ["Thm. 1, p. 2"]
lean:
  module: {module}
targets:
  - id: goal
    kind: goal
    title: "The goal"
    informal: >
      The goal holds.
    source: src
    statement: {module}.Goal
    proof: {module}.goal
    depends_on: []
    provenance: {{statement: literature-sourced, proof: none}}
    status: stated
    evidence: source
"""


def as_lists(value: Any) -> Any:
    """``value`` with every tuple a list, recursively: a declaration keeps its sequences as
    tuples, and a test states what it expects as lists."""
    if isinstance(value, tuple | list):
        return [as_lists(item) for item in value]
    if isinstance(value, dict):
        return {key: as_lists(item) for key, item in value.items()}
    return value


def write_files(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
        env={
            "GIT_AUTHOR_NAME": "Test Author",
            "GIT_AUTHOR_EMAIL": "test@example.com",
            "GIT_COMMITTER_NAME": "Test Author",
            "GIT_COMMITTER_EMAIL": "test@example.com",
            "PATH": "/usr/bin:/bin:/usr/local/bin",
            "HOME": str(root),
        },
    )
    return done.stdout.strip()


def init_repo(root: Path, message: str = "workspace") -> None:
    """Turn ``root`` into a git repository with everything in one commit."""
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


@pytest.fixture(autouse=True)
def _trusted_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests write files and read them back within milliseconds, where the racy-file rule
    (:data:`missions.roots.RACY_NS`) would keep every cache from remembering anything by its
    times; in this process the rule is off unless a test turns it on (``test_racy.py``).
    Commands run as subprocesses keep it."""
    monkeypatch.setattr(roots, "RACY_NS", 0)


@pytest.fixture(autouse=True)
def _nothing_handed_over() -> Iterator[None]:
    """A test that stops after the start-up path handed a recording over (a miss) leaves
    it to no later test (see :func:`missions.stored.hand_over`)."""
    yield
    stored._handed.clear()


@pytest.fixture(autouse=True)
def _isolated_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MISSIONS_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.fixture
def make_workspace(tmp_path: Path) -> Callable[..., Path]:
    """Build a workspace with lakefile, toolchain, one mission per module and git history."""

    def build(
        files: dict[str, str] | None = None,
        missions: dict[str, str] | None = None,
        *,
        use_git: bool = True,
        roots: bool = True,
    ) -> Path:
        root = tmp_path / "ws"
        root.mkdir()
        (root / "lakefile.lean").write_text(LAKEFILE, encoding="utf-8")
        (root / "lean-toolchain").write_text("leanprover/lean4:v4.30.0\n", encoding="utf-8")
        (root / "missions").mkdir()
        write_files(root, files or {})
        for mission_id, module in (missions or {}).items():
            (root / "missions" / f"{mission_id}.yaml").write_text(
                MISSION_YAML.format(id=mission_id, module=module), encoding="utf-8"
            )
        if roots:
            add_roots(root)
        if use_git:
            init_repo(root, "initial")
        return root

    return build


_MODULE_LINE = re.compile(r"^  module:\s*(\S+)", re.MULTILINE)


def add_roots(root: Path) -> None:
    """Give a fixture workspace the root files ``missions new`` writes, where it has none: a
    mission root importing the mission's ``Defs``, ``Statements`` and ``Proofs`` (those that
    exist) and ``Formal.lean`` importing every mission root, so that ``lake build`` (the
    repository's lakefile: ``@[default_target] lean_lib Formal``) elaborates the proofs."""
    modules: list[str] = []
    for path in sorted((root / "missions").glob("*.yaml")):
        found = _MODULE_LINE.search(path.read_text(encoding="utf-8"))
        if found:
            modules.append(found.group(1))
    for module in dict.fromkeys(modules):
        file = root.joinpath(*module.split(".")).with_suffix(".lean")
        parts = [f"{module}.{p}" for p in ("Defs", "Statements", "Proofs")]
        present = [m for m in parts if root.joinpath(*m.split(".")).with_suffix(".lean").exists()]
        if not file.exists() and present:
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text("".join(f"import {m}\n" for m in present), encoding="utf-8")
    library = root / "Formal.lean"
    if not library.exists():
        own = [m for m in dict.fromkeys(modules) if m.split(".", 1)[0] == "Formal"]
        library.write_text("".join(f"import {m}\n" for m in own), encoding="utf-8")


def audit_answer(request: dict[str, Any], axioms: dict[str, list[str]] | None = None) -> str:
    """The audit's JSON answer to ``request`` when everything exists and compiles: proofs
    typed exactly by their statements, each with ``axioms[name]`` (default ``["propext"]``)."""
    axioms = axioms or {}
    return json.dumps(
        {
            "format": "missions-audit/2",
            "lean_version": "4.30.0",
            "modules": request["modules"],
            "declarations": [
                {
                    "name": d["name"],
                    "exists": True,
                    "kind": "theorem" if d["statement"] else "def",
                    "type_is_prop": d["statement"] is None,
                    "axioms": axioms.get(d["name"], ["propext"]) if d["statement"] else [],
                    "unsafe": False,
                    "partial": False,
                    "statement": d["statement"],
                    "type_is_statement": True if d["statement"] else None,
                }
                for d in request["declarations"]
            ],
        }
    )


def generated_tree(root: Path, seed: int) -> Path:
    """A workspace of 12 missions from ``benchmarks/generate_tree.py`` (not committed)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import generate_tree
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    generate_tree.generate(root, missions=12, files=60, lines=4000, seed=seed)
    return root


def copy_repo_workspace(tmp_path: Path, *, project: bool = False) -> Path:
    """A copy of this repository's workspace (Lean, missions, lakefile) for CLI tests; with
    ``project``, also its settings (``missions.yaml``) and the README they refer to, as a
    fresh clone has them (without, the tool's defaults apply)."""
    root = tmp_path / "repo"
    root.mkdir()
    names = ["lakefile.lean", "lean-toolchain", "Formal.lean"]
    if project:
        names += ["missions.yaml", "README.md"]
    for name in names:
        shutil.copy(REPO / name, root / name)
    shutil.copytree(REPO / "Formal", root / "Formal")
    shutil.copytree(REPO / "missions", root / "missions")
    return root


# ---------------------------------------------------------------- a session leaves no trace

#: Paths Python, pytest, the linters and Lake create by themselves; anything else a test
#: session adds to the repository (untracked or ignored) is a test writing where it must not.
_OWN_CACHES = ("__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".venv", ".lake")
#: Beyond this many files an untracked or ignored directory is compared by its listing only.
_WALK_LIMIT = 2000


def _is_tool_cache(path: str) -> bool:
    parts = path.rstrip("/").split("/")
    return any(p in _OWN_CACHES or p.endswith(".egg-info") for p in parts)


def repository_trace() -> set[str] | None:
    """What ``git status`` sees in this repository, with every untracked or ignored file's size
    and modification time (so a file rewritten inside an already-listed directory counts).

    None when this is not a git work tree or git is unavailable: then nothing is compared.
    """
    try:
        done = subprocess.run(
            ["git", "status", "--porcelain", "--ignored"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    trace: set[str] = set()
    for line in done.stdout.splitlines():
        code, path = line[:2], line[3:]
        if _is_tool_cache(path):
            continue
        trace.add(line)
        if code in ("??", "!!"):
            where = REPO / path
            files = (
                [where]
                if where.is_file()
                else list(itertools.islice(where.rglob("*"), _WALK_LIMIT))
            )
            for file in files:
                rel = file.relative_to(REPO).as_posix()
                if file.is_file() and not _is_tool_cache(rel):
                    stat = file.stat()
                    trace.add(f"{code} {rel} {stat.st_size} {stat.st_mtime_ns}")
    return trace


_TRACE_KEY = pytest.StashKey[set[str] | None]()


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_TRACE_KEY] = repository_trace()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run if the tests wrote into the repository (set MISSIONS_ALLOW_REPO_WRITES=1
    to only warn, e.g. while editing files during a run)."""
    before = session.config.stash.get(_TRACE_KEY, None)
    if before is None:
        return
    after = repository_trace()
    if after is None or after == before:
        return
    changed = sorted(after - before) + [f"gone: {line}" for line in sorted(before - after)]
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = [
        "the test session changed the repository (tests must write under tmp_path only):",
        *(f"  {line}" for line in changed[:20]),
    ]
    if reporter is not None:
        reporter.write("\n")
        reporter.section("repository changed by the tests", sep="=", red=True)
        for line in lines:
            reporter.write_line(line, red=True)
    if os.environ.get("MISSIONS_ALLOW_REPO_WRITES") != "1" and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Caches of module- and session-scoped fixtures go to a temporary directory too (the
    per-test ``_isolated_cache`` only starts after wider-scoped fixtures have run)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MISSIONS_CACHE_DIR", str(tmp_path_factory.mktemp("session-cache")))
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
        yield


# ---------------------------------------------------------------- the demo fixture workspace
#
# A small mission (a milestone and a goal, both proved) whose Lean files can be written in
# several layouts real files use, so that a test cannot pass only because every fixture looks
# the same: with and without module docstrings, a copyright header, nested namespaces and
# commands in a different order.

DEMO_YAML = """\
id: demo
title: "Demo mission"
category: example
summary: >
  Two small facts about two.
sources:
  - key: demo2024
    citation: "A. Author. Demo paper. 2024."
    arxiv: 2401.00001v1
    locators: ["Thm. 1, p. 2", "Thm. 2, p. 3"]
lean:
  module: Formal.Demo
targets:
  - id: step
    kind: milestone
    title: "Two plus two"
    informal: >
      $2 + 2 = 4$.
    source: demo2024
    locator: "Thm. 1, p. 2"
    statement: Formal.Demo.Step
    proof: Formal.Demo.step
    depends_on: []
    provenance: {statement: literature-sourced, proof: ai-generated}
    status: stated
    evidence: source
  - id: goal
    kind: goal
    title: "Two times two"
    informal: >
      $2 \\cdot 2 = 4$, from the milestone.
    source: demo2024
    locator: "Thm. 2, p. 3"
    statement: Formal.Demo.Goal
    proof: Formal.Demo.goal
    depends_on: [step]
    provenance: {statement: ai-adapted, proof: ai-generated}
    status: stated
    evidence: source
"""

DEMO_BODIES = {
    "Defs": (
        ["Mathlib"],
        "The demo model",
        "/-- Two, as a natural number. -/\ndef two : ℕ := 2\n",
    ),
    "Statements": (
        ["Formal.Demo.Defs"],
        "The demo statements",
        "/-- Two plus two is four (Demo paper, Thm. 1, p. 2). -/\n"
        "def Step : Prop := two + two = 4\n"
        "\n"
        "/-- Two times two is four (Demo paper, Thm. 2, p. 3). -/\n"
        "def Goal : Prop := two * two = 4\n",
    ),
    "Proofs": (
        ["Formal.Demo.Statements"],
        "The demo proofs",
        "/-- The milestone. -/\n"
        "theorem step : Step := by\n"
        "  norm_num [Step, two]\n"
        "\n"
        "/-- The goal, through the milestone. -/\n"
        "theorem goal : Goal := by\n"
        "  have h : two = 2 := by\n"
        "    have := step\n"
        "    unfold Step at this\n"
        "    omega\n"
        "  simp [Goal, h]\n",
    ),
}

#: Layouts of a Lean file. ``bare`` and ``doc-inside`` put a command right after the imports.
DEMO_STYLES = ("mathlib", "copyright", "nested", "bare", "doc-inside")

#: ``DEMO_STYLES`` for ``pytest.mark.parametrize``.
DEMO_LAYOUTS = list(DEMO_STYLES)


def demo_lean(
    imports: list[str], doc: str, body: str, style: str = "mathlib", *, reorder: bool = False
) -> str:
    """One Lean file of the demo workspace in the given layout (``body`` inside the namespace);
    ``reorder``: the layout may reverse the order of independent declarations."""
    head = "".join(f"import {m}\n" for m in imports)
    if style == "mathlib":
        return f"{head}\n/-! # {doc} -/\n\nnamespace Formal.Demo\n\n{body}\nend Formal.Demo\n"
    if style == "copyright":
        return (
            "/-\nCopyright (c) 2026 Demo Authors. All rights reserved.\n-/\n"
            f"{head}\n/-!\n# {doc}\n\nSee the mission YAML.\n-/\n\n"
            "set_option autoImplicit false\n\nopen Nat\n\n"
            f"namespace Formal.Demo\n\n{body}\nend Formal.Demo\n"
        )
    if style == "nested":
        blocks = body.strip("\n").split("\n\n")
        return (
            f"{head}\n/-! # {doc} -/\n\nnamespace Formal\n\nnamespace Demo\n\nsection\n\n"
            + "\n\n".join(reversed(blocks) if reorder else blocks)
            + "\n\nend\n\nend Demo\n\nend Formal\n"
        )
    if style == "bare":
        return f"{head}\nnamespace Formal.Demo\n\n{body}\nend Formal.Demo\n"
    if style == "doc-inside":
        return f"{head}namespace Formal.Demo\n\n/-! # {doc} -/\n\n{body}\nend Formal.Demo\n"
    raise ValueError(style)


def demo_sources(style: str = "mathlib", extra: dict[str, str] | None = None) -> dict[str, str]:
    """Files of the demo workspace; ``extra`` maps a part (Defs, Statements, Proofs) to Lean
    text added at the end of its namespace."""
    files = {}
    for part, (imports, doc, body) in DEMO_BODIES.items():
        more = (extra or {}).get(part)
        files[f"Formal/Demo/{part}.lean"] = demo_lean(
            imports,
            doc,
            body + (f"\n{more}\n" if more else ""),
            style,
            reorder=part == "Statements",
        )
    files["Formal/Demo.lean"] = (
        "import Formal.Demo.Defs\nimport Formal.Demo.Statements\nimport Formal.Demo.Proofs\n"
    )
    files["Formal.lean"] = "import Formal.Demo\n"
    return files


def invoke(*args: str | Path) -> Result:
    """Run the ``missions`` command line in-process (exit code, stdout, stderr)."""
    return CliRunner().invoke(cli_app, [str(a) for a in args])


def settle(root: Path, *, commit: bool = False) -> None:
    """What a contributor does before pushing: pin the statements, sync the statuses."""
    for command in ("pin", "sync"):
        result = invoke(command, "--root", root)
        assert result.exit_code == 0, (command, result.stdout, result.stderr)
    if commit:
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "pin and sync")


def link_witnesses(
    root: Path, mission: str = "demo", module: str = "missions.witnesses.demo"
) -> None:
    """Link every target of ``mission`` to a witness module and stamp the witnesses at the
    current statement pin with their sources (what ``missions witness --stamp`` records after
    a review). A module the package lacks is written into the workspace's ``witnesses/``."""
    from types import SimpleNamespace

    from missions.witness import source_digest
    from missions.witnesses import WORKSPACE_FOLDER, add_workspace

    name = module.rsplit(".", 1)[-1]
    folder = root / WORKSPACE_FOLDER
    if not (Path(__file__).parents[1] / "tools/missions/witnesses" / f"{name}.py").exists():
        folder.mkdir(exist_ok=True)
        (folder / f"{name}.py").write_text('"""A test witness."""\n\nCLAIMS: list[object] = []\n')
    add_workspace(root)
    yaml = root / "missions" / f"{mission}.yaml"
    text = yaml.read_text(encoding="utf-8").replace(
        "    depends_on:", f"    witness: {module}\n    depends_on:"
    )
    pin = re.search(r"^  statement_pin: (\S+)$", text, re.MULTILINE)
    if pin is not None:
        sources = source_digest(
            SimpleNamespace(targets=[SimpleNamespace(witness=module, kind="goal")])
        )
        text = text.replace(
            pin.group(0),
            f"{pin.group(0)}\n  witness_stamp: {pin.group(1)}\n  witness_source: {sources}",
        )
    yaml.write_text(text, encoding="utf-8")


def committed_demo(demo_workspace: Callable[..., Path]) -> Path:
    """The demo workspace, pinned and synced, all of it committed: the base of a change."""
    demo = demo_workspace(use_git=True)
    git(demo, "add", "-A")
    git(demo, "commit", "-qm", "settled")
    return demo


def gate_json(root: Path) -> tuple[int, list[dict[str, Any]]]:
    """``missions check --json``: exit code and violations."""
    result = invoke("check", "--json", "--root", root)
    assert result.exit_code in (0, 1), (result.stdout, result.stderr)
    return result.exit_code, json.loads(result.stdout)["violations"]


def status_json(root: Path) -> dict[str, Any]:
    result = invoke("status", "--json", "--root", root)
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def target_of(data: dict[str, Any], mission: str, target: str) -> dict[str, Any]:
    """One target of ``status --json`` output."""
    entry = next(m for m in data["missions"] if m["id"] == mission)
    found: dict[str, Any] = next(t for t in entry["targets"] if t["id"] == target)
    return found


def line_of(path: Path, needle: str) -> int:
    """The 1-based line of the first occurrence of ``needle`` in a file (for expected
    ``path:line`` locations computed independently of the tool)."""
    text = path.read_text(encoding="utf-8")
    index = text.index(needle)
    return text.count("\n", 0, index) + 1


@pytest.fixture
def demo_workspace(make_workspace: Callable[..., Path]) -> Callable[..., Path]:
    """Build the demo workspace in a layout, optionally with extra Lean text or files; by
    default pinned and synced, so ``missions check`` passes unless the extras break a rule."""

    def build(
        style: str = "mathlib",
        *,
        extra: dict[str, str] | None = None,
        files: dict[str, str] | None = None,
        settled: bool = True,
        use_git: bool = False,
    ) -> Path:
        sources = demo_sources(style, extra)
        sources["missions/demo.yaml"] = DEMO_YAML
        sources.update(files or {})
        root = make_workspace(sources, use_git=use_git)
        if settled:
            settle(root)
        return root

    return build


def declaration_lines(path: Path, needle: str) -> set[int]:
    """Lines a report may name for the declaration on ``needle``'s line: that line, and the
    first line of a doc comment written directly above it (where the command starts)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    at = line_of(path, needle)
    found = {at}
    above = at - 1
    if above >= 1 and lines[above - 1].rstrip().endswith("-/"):
        start = above
        while start >= 1 and "/--" not in lines[start - 1]:
            start -= 1
        if start >= 1:
            found.add(start)
    return found
