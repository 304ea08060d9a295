"""Workspace scanning: worker processes give the same results, and the cache is reused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import copy_repo_workspace
from missions.lean import workspace as ws


def summary(workspace: ws.Workspace) -> dict[str, object]:
    return {name: module.scan.to_json() for name, module in workspace.modules.items()}


def test_parallel_scan_matches_sequential(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_repo_workspace(tmp_path)
    sequential = summary(ws.load_workspace(root, use_cache=False))
    pools: list[int] = []
    real_map = ws.scan_files

    def through_a_pool(paths: list[str], store: str | None = None) -> list[ws.ScannedFile]:
        pools.append(len(paths))
        return real_map(paths, store)

    # force the worker pool even on a one-core machine, for every file
    monkeypatch.setattr(ws, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(ws, "scan_files", through_a_pool)
    parallel = summary(ws.load_workspace(root, use_cache=False))
    assert pools and pools[0] == len(sequential)
    assert parallel == sequential
    assert len(parallel) >= 4


def test_warm_scan_reads_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_repo_workspace(tmp_path)
    cold = summary(ws.load_workspace(root, use_cache=False))
    ws.load_workspace(root)
    calls: list[str] = []
    original = ws.scan_file

    def counting(path: str, store: str | None = None) -> ws.ScannedFile:
        calls.append(path)
        return original(path, store)

    monkeypatch.setattr(ws, "scan_file", counting)
    warm = ws.load_workspace(root)
    assert calls == []
    assert summary(warm) == cold
    proofs = root / "Formal/MAE/Proofs.lean"
    proofs.write_text(proofs.read_text(encoding="utf-8") + "\n-- edited\n", encoding="utf-8")
    ws.load_workspace(root)
    assert calls == [str(proofs)]


def test_a_lost_store_entry_is_rescanned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_repo_workspace(tmp_path)
    first = summary(ws.load_workspace(root))
    store = Path(os.environ["MISSIONS_CACHE_DIR"])
    entries = sorted(store.rglob("scans-*/*/*.json"))
    assert entries
    for entry in entries[::2]:
        entry.write_text("{not json", encoding="utf-8")
    assert summary(ws.load_workspace(root)) == first
