"""The dashboard's mission pages are written side by side (:mod:`missions.forked`): the
site is the one a single process writes, a share whose child dies is written by the parent,
and a page that cannot be written is reported by the parent."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conftest import REPO
from missions import html as html_module
from missions.catalog import load_catalog
from missions.errors import InputError
from missions.gate import GateResult, run_gate
from missions.html import page_name, write_dashboard
from missions.lean.workspace import load_workspace
from missions.status import Analysis, analyze


@pytest.fixture(scope="module")
def analysed() -> tuple[Analysis, GateResult]:
    analysis = analyze(load_catalog(REPO, use_cache=False), load_workspace(REPO))
    return analysis, run_gate(analysis)


def site(out: Path) -> dict[str, str]:
    """Every file's text, the generation time taken out (each run has its own)."""
    return {
        path.name: re.sub(r"Generated [0-9T:+-]+", "Generated", path.read_text("utf-8"))
        for path in sorted(out.iterdir())
    }


def write(analysed: tuple[Analysis, GateResult], out: Path) -> list[str]:
    return [p.name for p in write_dashboard(*analysed, out, witnesses={})]


@pytest.mark.parametrize("cores", [2, 3, 4])
def test_pages_written_side_by_side_are_the_pages_one_process_writes(
    analysed: tuple[Analysis, GateResult],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    cores: int,
) -> None:
    alone = write(analysed, tmp_path / "alone")
    monkeypatch.setattr(html_module, "PARALLEL_PAGES", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    parent = os.getpid()
    real = html_module.mission_page
    here: list[str] = []

    def recording(entry: dict[str, object], *args: object) -> str:
        if os.getpid() == parent:
            here.append(str(entry["id"]))
        return real(entry, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(html_module, "mission_page", recording)
    assert write(analysed, tmp_path / "shared") == alone
    assert site(tmp_path / "shared") == site(tmp_path / "alone")
    missions = len(analysed[0].missions)
    assert 0 < len(here) < missions  # the children wrote the other shares


def test_a_share_whose_child_dies_is_written_by_the_parent(
    analysed: tuple[Analysis, GateResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = write(analysed, tmp_path / "alone")
    monkeypatch.setattr(html_module, "PARALLEL_PAGES", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    parent = os.getpid()
    real = html_module.mission_page

    def dying(*args: object) -> str:
        if os.getpid() != parent:
            os._exit(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(html_module, "mission_page", dying)
    assert write(analysed, tmp_path / "shared") == alone
    assert site(tmp_path / "shared") == site(tmp_path / "alone")


def test_a_page_that_cannot_be_written_is_reported_by_the_parent(
    analysed: tuple[Analysis, GateResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(html_module, "PARALLEL_PAGES", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    out = tmp_path / "site"
    last = page_name(analysed[0].missions[-1].id)  # in the child's share
    (out / last).mkdir(parents=True)
    with pytest.raises(InputError) as raised:
        write(analysed, out)
    [problem] = raised.value.problems
    assert problem.path == str(out / last) and "a directory is in the way" in problem.message
