"""Workspace scanning: worker processes give the same results, and the cache is reused."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from conftest import copy_repo_workspace
from missions.lean import workspace as ws


def summary(workspace: ws.Workspace) -> dict[str, object]:
    return {name: module.scan.to_json() for name, module in workspace.modules.items()}


def test_parallel_scan_matches_sequential(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_repo_workspace(tmp_path)
    sequential = summary(ws.load_workspace(root, use_cache=False))
    pools: list[bool] = []
    real_init = ws._Scanning.__init__

    def recording(self: ws._Scanning, paths: list[str]) -> None:
        real_init(self, paths)
        pools.append(self._pool is not None)

    # force the worker pool even on a one-core machine, for every file
    monkeypatch.setattr(ws, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(ws._Scanning, "__init__", recording)
    parallel = summary(ws.load_workspace(root, use_cache=False))
    assert pools == [True]
    assert parallel == sequential
    assert len(parallel) >= 4


#: the file a worker dies on, this process's id and the files it scanned itself
_DYING: dict[str, Any] = {}


def _dying_scan(path: str) -> ws.ScannedFile:
    if os.getpid() != _DYING["parent"]:
        if path == _DYING["fatal"]:
            os._exit(1)
    else:
        _DYING["here"].append(path)
    return _DYING["scan"](path)


def test_workers_that_die_midway_leave_the_rest_to_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Results are used as they arrive; when a worker dies, what was delivered stands and
    the files not yet delivered are scanned here: the same workspace, every file once."""
    root = copy_repo_workspace(tmp_path)
    paths: list[str] = []
    _DYING.update(parent=os.getpid(), fatal=None, here=paths, scan=ws.scan_file)
    monkeypatch.setattr(ws, "scan_file", _dying_scan)
    sequential = summary(ws.load_workspace(root, use_cache=False))  # no workers: all here
    # a worker dies on a file in the middle; the files before it are delivered
    here: list[str] = []
    fatal = paths[len(paths) // 2]
    _DYING.update(fatal=fatal, here=here)
    monkeypatch.setattr(ws, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(ws, "CHUNK", 1)
    assert summary(ws.load_workspace(root, use_cache=False)) == sequential
    assert fatal in here and len(set(here)) == len(here)
    assert 0 < len(here) < len(paths)  # the workers delivered the others


def test_warm_scan_reads_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_repo_workspace(tmp_path)
    cold = summary(ws.load_workspace(root, use_cache=False))
    ws.load_workspace(root)
    calls: list[str] = []
    original = ws.scan_file

    def counting(path: str) -> ws.ScannedFile:
        calls.append(path)
        return original(path)

    monkeypatch.setattr(ws, "scan_file", counting)
    warm = ws.load_workspace(root)
    assert calls == []
    assert summary(warm) == cold
    proofs = root / "Formal/MAE/Proofs.lean"
    proofs.write_text(proofs.read_text(encoding="utf-8") + "\n-- edited\n", encoding="utf-8")
    ws.load_workspace(root)
    assert calls == [str(proofs)]


def test_a_lost_or_broken_cache_only_costs_a_rescan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_repo_workspace(tmp_path)
    first = summary(ws.load_workspace(root))
    cache = Path(os.environ["MISSIONS_CACHE_DIR"])
    [database] = list(cache.rglob("scans-*.sqlite"))
    connection = sqlite3.connect(database)
    with connection:
        connection.execute("UPDATE scans SET scan = '{not json' WHERE rowid % 2 = 0")
    connection.close()
    assert summary(ws.load_workspace(root)) == first
    database.write_bytes(b"this is not a database")
    assert summary(ws.load_workspace(root)) == first
    # the damaged file was replaced: the next run reads everything from the cache again
    calls: list[str] = []
    original = ws.scan_file
    monkeypatch.setattr(ws, "scan_file", lambda path: calls.append(path) or original(path))
    assert summary(ws.load_workspace(root)) == first
    assert calls == []
