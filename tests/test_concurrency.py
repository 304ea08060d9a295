"""Writers that run at once lose nothing; interrupted writes leave nothing behind.

The concurrent rounds fork the test process (the CLI is already imported there, so each
command takes a fraction of a second) and start ``pin --reason`` and ``sync`` on the same
mission file at the same instant.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import git
from missions.catalog import load_catalog
from missions.errors import InputError
from missions.writelock import workspace_lock
from missions.yamlio import atomic_write_text
from test_pins import FILES

ROUNDS = 20
fork = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="needs os.fork"
)


def _command(args: list[str], barrier: Any) -> None:
    from missions.cli import app

    barrier.wait()
    try:
        code = app(args, standalone_mode=False)
    except BaseException:
        os._exit(3)
    os._exit(int(code or 0))


@pytest.fixture
def racing(make_workspace: Callable[..., Path]) -> tuple[Path, bytes, str]:
    """Demo with two independent pending writes: ``pin`` records the commit that now holds
    the pinned files (``pinned_at: uncommitted`` before), ``sync`` records ``proved``."""
    root = make_workspace(FILES, {"demo": "Formal.Demo"}, use_git=False)
    from missions.cli import app

    assert app(["pin", "--root", str(root)], standalone_mode=False) in (None, 0)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "workspace")
    head = git(root, "rev-parse", "HEAD")
    yaml = root / "missions" / "demo.yaml"
    start = yaml.read_bytes()
    mission = load_catalog(root, use_cache=False).get("demo").mission
    assert mission.lean.pinned_at == "uncommitted" and mission.target("goal").status == "stated"
    return root, start, head


@fork
def test_concurrent_pin_and_sync_lose_no_write(racing: tuple[Path, bytes, str]) -> None:
    root, start, head = racing
    yaml = root / "missions" / "demo.yaml"
    context = multiprocessing.get_context("fork")
    lost = []
    for round_ in range(ROUNDS):
        yaml.write_bytes(start)
        barrier = context.Barrier(2)
        procs = [
            context.Process(
                target=_command,
                args=(["pin", "--reason", "concurrent", "--root", str(root)], barrier),
            ),
            context.Process(target=_command, args=(["sync", "--root", str(root)], barrier)),
        ]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join(120)
        assert [p.exitcode for p in procs] == [0, 0], round_
        mission = load_catalog(root, use_cache=False).get("demo").mission
        if mission.lean.pinned_at != head or mission.target("goal").status != "proved":
            lost.append(round_)
        assert not list(yaml.parent.glob(".*.tmp"))
    assert lost == [], f"writes lost in rounds {lost} of {ROUNDS}"


def test_a_second_writer_waits_for_the_first(tmp_path: Path) -> None:
    (tmp_path / "missions").mkdir()
    with workspace_lock(tmp_path):
        started = time.monotonic()
        with (
            pytest.raises(InputError, match="another missions command"),
            workspace_lock(tmp_path, timeout=0.3, notice=lambda _: None),
        ):
            pass
        assert time.monotonic() - started >= 0.3
    with workspace_lock(tmp_path, timeout=0.3):
        pass  # free again


def test_a_killed_writer_does_not_leave_the_lock_stuck(tmp_path: Path) -> None:
    (tmp_path / "missions").mkdir()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from pathlib import Path\n"
            "from missions.writelock import workspace_lock\n"
            "with workspace_lock(Path(sys.argv[1])):\n"
            "    print('held', flush=True)\n"
            "    time.sleep(120)\n",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with (
            pytest.raises(InputError),
            workspace_lock(tmp_path, timeout=0.2, notice=lambda _: None),
        ):
            pass
        holder.kill()  # SIGKILL: no chance to clean up
        holder.wait(30)
        with workspace_lock(tmp_path, timeout=5):
            pass
    finally:
        if holder.poll() is None:
            holder.kill()
        if holder.stdout is not None:
            holder.stdout.close()


# ---------------------------------------------------------------- interrupted writes


def test_interrupted_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "demo.yaml"
    path.write_text("old\n", encoding="utf-8")

    def interrupt(_: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        atomic_write_text(path, "new\n")
    assert path.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.yaml"]


def test_a_signal_during_a_write_waits_for_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "demo.yaml"
    path.write_text("old\n", encoding="utf-8")
    fsync = os.fsync

    def signal_then_sync(fd: int) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C in the middle of the write
        fsync(fd)

    monkeypatch.setattr(os, "fsync", signal_then_sync)
    # a shell starts background jobs with SIGINT ignored; Ctrl-C must raise here
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            atomic_write_text(path, "new\n")
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)
    assert path.read_text(encoding="utf-8") == "new\n"  # finished, then interrupted
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.yaml"]


def test_writers_remove_temporaries_a_killed_writer_left(
    make_workspace: Callable[..., Path],
) -> None:
    root = make_workspace(FILES, {"demo": "Formal.Demo"})
    stale = root / "missions" / ".demo.yaml.k1ll3d_x.tmp"
    stale.write_text("half a file", encoding="utf-8")
    other = root / "missions" / "notes.tmp"  # not one of ours: left alone
    other.write_text("keep", encoding="utf-8")
    from missions.cli import app

    assert app(["sync", "--root", str(root)], standalone_mode=False) in (None, 0)
    assert not stale.exists() and other.exists()
