"""The start-up fast path: a stored status answer is used only while no input changed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import copy_repo_workspace
from missions import fastpath
from missions.cli import app
from missions.render import evidence_line, summary_line


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return copy_repo_workspace(tmp_path)


def full_status(root: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["status", *args, "--root", str(root)])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def fast_status(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str | None:
    capsys.readouterr()
    served = fastpath.try_status(["status", *args, "--root", str(root)])
    out = capsys.readouterr().out
    return out if served else None


def test_second_run_is_served_from_the_stored_answer(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert fast_status(repo, capsys, "--json") is None
    slow = full_status(repo, "--json")
    assert fast_status(repo, capsys, "--json") == slow


@pytest.mark.parametrize(
    "change",
    ["touch lean", "edit yaml", "new lean file", "remove lean file", "lakefile"],
)
def test_any_input_change_falls_back(
    repo: Path, capsys: pytest.CaptureFixture[str], change: str
) -> None:
    full_status(repo, "--json")
    proofs = repo / "Formal/MAE/Proofs.lean"
    if change == "touch lean":
        stat = proofs.stat()
        os.utime(proofs, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    elif change == "edit yaml":
        path = repo / "missions/mae-normalized-pixel.yaml"
        path.write_text(path.read_text(encoding="utf-8") + "# note\n", encoding="utf-8")
    elif change == "new lean file":
        (repo / "Formal/MAE/Extra.lean").write_text("-- extra\n", encoding="utf-8")
    elif change == "remove lean file":
        (repo / "Formal/MAE.lean").unlink()
    else:
        lakefile = repo / "lakefile.lean"
        lakefile.write_text(lakefile.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert fast_status(repo, capsys, "--json") is None


def test_options_it_does_not_know_fall_through(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full_status(repo, "--json")
    assert fast_status(repo, capsys, "--json", "--no-cache") is None
    assert fast_status(repo, capsys, "--json", "mae-normalized-pixel") is None  # other key
    assert fastpath.try_status(["check", "--root", str(repo)]) is False


def test_the_table_is_rendered_from_the_stored_answer(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(full_status(repo, "--json"))
    table = fast_status(repo, capsys, "--why")
    assert table is not None
    assert evidence_line(data) in table.splitlines()
    assert summary_line(data) in table.splitlines()


def test_fast_path_imports_nothing_heavy() -> None:
    import subprocess
    import sys

    code = (
        "import sys; before = set(sys.modules); import missions.fastpath; "
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(done.stdout.split())
    assert loaded.isdisjoint({"pathlib", "typing", "json", "re", "typer", "pydantic", "rich"})
