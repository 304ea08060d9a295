"""Workspace scanning: worker processes give the same results, and the cache is reused."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import copy_repo_workspace
from missions.lean import workspace as ws


def summary(workspace: ws.Workspace) -> dict[str, object]:
    return {name: module.scan.to_json() for name, module in workspace.modules.items()}


def test_parallel_scan_matches_sequential(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_repo_workspace(tmp_path)
    sequential = summary(ws.load_workspace(root, use_cache=False))
    monkeypatch.setattr(ws, "PARALLEL_THRESHOLD", 1)
    parallel = summary(ws.load_workspace(root, use_cache=False))
    assert parallel == sequential
    assert len(parallel) >= 4


def test_warm_scan_reads_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_repo_workspace(tmp_path)
    ws.load_workspace(root)
    calls: list[str] = []
    original = ws.scan_file

    def counting(path: str) -> ws.ScannedFile:
        calls.append(path)
        return original(path)

    monkeypatch.setattr(ws, "scan_file", counting)
    ws.load_workspace(root)
    assert calls == []
    proofs = root / "Formal/MAE/Proofs.lean"
    proofs.write_text(proofs.read_text(encoding="utf-8") + "\n-- edited\n", encoding="utf-8")
    ws.load_workspace(root)
    assert calls == [str(proofs)]
