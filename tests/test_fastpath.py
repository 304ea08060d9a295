"""The start-up fast path: a stored status answer is used only while no input changed."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import copy_repo_workspace, link_witnesses
from missions import answers, fastpath
from missions.cli import app
from missions.render import evidence_line, summary_line
from missions.witness import save_results


@pytest.fixture
def repo(demo_workspace: Callable[..., Path]) -> Path:
    return demo_workspace()


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


def test_a_cold_cache_is_not_even_stamped(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With nothing stored, no stored answer or state can answer: the start-up path leaves
    at once, before stating every Lean file, so the command's scan starts sooner."""
    stamped: list[str] = []
    original = fastpath.lean_file_stats

    def counting(root: str, libraries: Any) -> Any:
        stamped.append(root)
        return original(root, libraries)

    monkeypatch.setattr(fastpath, "lean_file_stats", counting)
    assert fast_status(repo, capsys, "--json") is None
    assert stamped == []
    slow = full_status(repo, "--json")
    assert fast_status(repo, capsys, "--json") == slow
    assert stamped  # once something is stored, the tree is stamped to find it


CHANGES = [
    "touch lean",
    "edit yaml",
    "new lean file",
    "remove lean file",
    "lakefile",
    "lean-toolchain",
    "new lake-manifest",
    "first witness results",
    "changed witness results",
]


def change_input(root: Path, change: str) -> None:
    proofs = root / "Formal/Demo/Proofs.lean"
    if change == "touch lean":
        stat = proofs.stat()
        os.utime(proofs, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    elif change == "edit yaml":
        path = root / "missions/demo.yaml"
        path.write_text(path.read_text(encoding="utf-8") + "# note\n", encoding="utf-8")
    elif change == "new lean file":
        (root / "Formal/Demo/Extra.lean").write_text("-- extra\n", encoding="utf-8")
    elif change == "remove lean file":
        (root / "Formal/Demo.lean").unlink()
    elif change in ("lakefile", "lean-toolchain"):
        path = root / ("lakefile.lean" if change == "lakefile" else "lean-toolchain")
        path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    elif change == "new lake-manifest":
        (root / "lake-manifest.json").write_text('{"version": "1.1.0"}\n', encoding="utf-8")
    elif change == "first witness results":
        save_results(str(root), {"demo/goal": {"ok": True}})
    elif change == "changed witness results":
        save_results(str(root), {"demo/goal": {"ok": False, "extra": "x" * 40}})
    else:
        raise ValueError(change)


@pytest.mark.parametrize("command", [False, True])
def test_the_collector_is_back_on_unless_the_command_leaves_now(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: bool
) -> None:
    """The start-up path answers without the cycle collector. Turned back on before the
    command leaves, it first walked everything still held (9 ms of an edit's answer at 500
    missions); a program that imports the library, or a command the start-up path hands to
    the full CLI, gets it back."""
    import gc

    monkeypatch.setattr(fastpath, "IS_THE_COMMAND", command)
    try:
        assert fast_status(repo, capsys, "--json") is None  # nothing stored: handed on
        assert gc.isenabled()
        full_status(repo, "--json")
        assert fast_status(repo, capsys, "--json") is not None
        assert gc.isenabled() is not command
    finally:
        gc.enable()


def test_a_stored_answer_is_read_only_when_its_key_matches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edit misses the stored answer: the keys are read, not the megabytes after them; a
    hit gives the answer exactly, and a file cut inside its keys is no answer."""
    root = tmp_path / "ws"
    root.mkdir()
    body = "é" * 50_000 + "\n{}\n"
    answers.store(root, "stat-key", body, "content-key")
    read: list[int] = []

    class Counting:
        def __init__(self, handle: Any) -> None:
            self.handle = handle

        def __enter__(self) -> Counting:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def readline(self) -> bytes:
            line: bytes = self.handle.readline()
            read.append(len(line))
            return line

        def read(self) -> bytes:
            data: bytes = self.handle.read()
            read.append(len(data))
            return data

    def counting_open(path: str, mode: str) -> Counting:
        return Counting(open(path, mode))  # Counting closes it on exit

    monkeypatch.setattr(answers, "open", counting_open, raising=False)
    assert answers.lookup(root, "other-key") is None
    assert answers.lookup_content(root, "other-content") is None
    assert not answers.inputs_moved(str(root))
    assert max(read) < 100  # only key lines
    assert answers.lookup(root, "stat-key") == body.encode()
    assert answers.lookup_content(root, "content-key") == body.encode()
    assert max(read) == len(body.encode())

    result = answers.cache_dir_for(str(root)) + "/" + answers.RESULT_FILE
    with open(result, "rb") as handle:
        keys = handle.read().split(b"\n", 3)[:3]
    with open(result, "wb") as handle:  # cut inside the keys: no third line ends
        handle.write(b"\n".join(keys))
    assert answers.lookup(root, "stat-key") is None
    assert not answers.inputs_moved(str(root))


@pytest.mark.parametrize("change", CHANGES)
def test_any_input_change_changes_the_fingerprint_and_falls_back(
    repo: Path, capsys: pytest.CaptureFixture[str], change: str
) -> None:
    link_witnesses(repo)
    if change == "changed witness results":
        save_results(str(repo), {"demo/goal": {"ok": True}})
    before = answers.fingerprint(repo, [])
    full_status(repo, "--json")
    assert fast_status(repo, capsys, "--json") is not None  # served while nothing changed
    change_input(repo, change)
    assert answers.fingerprint(repo, []) != before
    served = fast_status(repo, capsys, "--json")
    if change in ("touch lean", "new lean file", "edit yaml"):
        # Lean-only edits and a YAML edited alone, which the incremental path can bound:
        # answered, exactly as in full
        assert served is not None and served == full_status(repo, "--json", "--no-cache")
        return
    assert served is None  # nothing stale is served: the full command runs
    fresh = full_status(repo, "--json")
    assert fast_status(repo, capsys, "--json") == fresh  # and the new answer is stored


@pytest.mark.parametrize("change", ["first witness results", "changed witness results"])
def test_the_stored_answer_shows_the_latest_witness_results(
    repo: Path, capsys: pytest.CaptureFixture[str], change: str
) -> None:
    link_witnesses(repo)
    if change == "changed witness results":
        save_results(str(repo), {"demo/goal": {"ok": True}})
    full_status(repo, "--json")
    change_input(repo, change)
    full_status(repo, "--json")
    served = fast_status(repo, capsys, "--json")
    assert served is not None
    goal = next(t for t in json.loads(served)["missions"][0]["targets"] if t["id"] == "goal")
    assert goal["witness"]["ok"] is (change == "first witness results")


def test_options_it_does_not_know_fall_through(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full_status(repo, "--json")
    assert fast_status(repo, capsys, "--json", "--no-cache") is None
    assert fast_status(repo, capsys, "--json", "no-such-mission") is None  # the CLI says so
    assert fastpath.try_status(["check", "--root", str(repo)]) is False


def test_one_mission_is_answered_from_the_whole_workspace_exactly_as_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``status ID`` comes from the stored (or incrementally patched) answer for every
    mission; it must print what the full command prints for that mission alone, lint
    counts and summary included, before and after an edit the incremental path answers."""
    root = copy_repo_workspace(tmp_path)
    ids = sorted(p.stem for p in (root / "missions").glob("*.yaml"))
    assert len(ids) > 1
    for edit in (False, True):
        if edit:  # a proof file touched: answered incrementally, then filtered
            proofs = sorted(root.rglob("Proofs.lean"))[0]
            proofs.write_text(proofs.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        else:
            full_status(root, "--json")
        for mission_id in ids:
            served = fast_status(root, capsys, "--json", mission_id)
            assert served is not None, mission_id
            assert served == full_status(root, "--json", "--no-cache", mission_id), mission_id
    assert fast_status(root, capsys, "--json", ids[0], ids[1]) is None  # lint totals overlap
    assert fast_status(root, capsys, "--json", ids[0]) is not None  # full runs with IDs
    full_status(root, "--json", ids[0])  # never evict the whole workspace's answer
    assert fast_status(root, capsys, "--json", ids[1]) is not None


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
    heavy = {"pathlib", "typing", "collections", "json", "re", "typer", "pydantic", "rich"}
    assert loaded.isdisjoint(heavy), loaded & heavy


@pytest.mark.parametrize(
    ("code", "status", "err"),
    [("None", 0, ""), ("3", 3, ""), ("'bad input'", 1, "bad input\n"), ("True", 1, "")],
)
def test_the_command_leaves_as_system_exit_would(code: str, status: int, err: str) -> None:
    """``leave`` skips the interpreter's teardown, not the exit code, the exit handlers or
    buffered output."""
    import subprocess
    import sys

    program = (
        "import sys, atexit\nfrom missions.fastpath import leave\n"
        "atexit.register(lambda: sys.stdout.write(' and the exit handler'))\n"
        "class Dropped:\n    def __del__(self): print('teardown ran')\nkept = Dropped()\n"
        f"sys.stdout.write('buffered, no newline')\nleave({code})\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60
    )
    out = "buffered, no newline and the exit handler"
    assert (done.returncode, done.stdout, done.stderr) == (status, out, err)


@pytest.mark.slow
def test_the_command_and_the_library_answer_alike(tmp_path: Path) -> None:
    """``python -m missions`` is the command (it leaves without teardown); its output and exit
    code are those of the CLI run in-process."""
    import subprocess
    import sys
    import time

    root = copy_repo_workspace(tmp_path)
    argv = ["check", "--json", "--root", str(root)]
    inside = CliRunner().invoke(app, argv)
    done = subprocess.run(
        [sys.executable, "-m", "missions", *argv],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "COLUMNS": "80"},
    )
    assert done.returncode == inside.exit_code
    assert json.loads(done.stdout) == json.loads(inside.stdout)
    status = ["status", "--json", "--root", str(root)]
    full = CliRunner().invoke(app, status).stdout
    time.sleep(2.1)  # no file racy (missions.roots.RACY_NS): the second answer is stored
    for _ in range(2):  # the second answer comes from the start-up path
        done = subprocess.run(
            [sys.executable, "-m", "missions", *status],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert (done.returncode, done.stdout) == (0, full)
