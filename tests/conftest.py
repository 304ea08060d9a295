"""Shared fixtures: small throwaway workspaces built from dictionaries of files."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# LeanDojo (the `dojo` extra) reads these when imported: never reach for its remote cache of
# traced repositories, and keep its repository cache out of the user's home.
os.environ.setdefault("DISABLE_REMOTE_CACHE", "1")
os.environ.setdefault("CACHE_DIR", tempfile.mkdtemp(prefix="missions-lean-dojo-"))

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
        if use_git:
            init_repo(root, "initial")
        return root

    return build


def copy_repo_workspace(tmp_path: Path) -> Path:
    """A copy of this repository's workspace (Lean, missions, lakefile) for CLI tests."""
    root = tmp_path / "repo"
    root.mkdir()
    for name in ("lakefile.lean", "lean-toolchain", "Formal.lean"):
        shutil.copy(REPO / name, root / name)
    shutil.copytree(REPO / "Formal", root / "Formal")
    shutil.copytree(REPO / "missions", root / "missions")
    return root
