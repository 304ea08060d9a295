"""Work in forked children: every item in exactly one part, in order; a failed or missing
child hands back nothing (the caller then does the part itself)."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from missions import forked


@pytest.mark.parametrize("count", [0, 1, 2, 5, 16, 17])
@pytest.mark.parametrize("parts", [1, 2, 3, 4])
def test_split_keeps_every_item_once_in_order_in_at_most_the_parts(count: int, parts: int) -> None:
    items = list(range(count))
    runs = forked.split(items, parts)
    assert [x for run in runs for x in run] == items
    assert 1 <= len(runs) <= parts
    assert all(runs) or runs == [[]]
    # equal runs, the last one no longer than the others: no core gets more than its share
    assert len({len(run) for run in runs[:-1]}) <= 1 and len(runs[-1]) <= len(runs[0])
    assert len(runs[0]) == -(-count // parts) if count else True


def test_a_child_hands_back_its_result_and_a_failed_child_nothing() -> None:
    if not hasattr(os, "fork"):
        pytest.skip("needs os.fork")
    parent = os.getpid()
    assert forked.start(lambda: (os.getpid() != parent, [1, 2]))() == (True, [1, 2])
    assert forked.start(lambda: 1 // 0)() is None

    def dying() -> int:
        os._exit(0)  # no result written: a success code without data is a failure too

    assert forked.start(dying)() is None


def test_without_fork_nothing_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[int] = []
    monkeypatch.delattr(os, "fork", raising=False)
    assert forked.start(lambda: ran.append(1))() is None
    assert ran == []


def test_commands_split_across_cores_answer_what_one_process_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a generated catalogue large enough to be split (lint parts, dashboard shares):
    `status --json`, `lint --json`, `check --json` and the dashboard, with every part in
    its own child, print and write what one process does."""
    if not hasattr(os, "fork"):
        pytest.skip("needs os.fork")
    from typer.testing import CliRunner

    from conftest import REPO, init_repo
    from missions import html, lint
    from missions.cli import app

    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import generate_tree
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    root = tmp_path / "tree"
    count = max(lint.PARALLEL_MISSIONS, html.PARALLEL_PAGES) + 4
    generate_tree.generate(root, missions=count, files=count * 5, lines=count * 400, seed=7)
    init_repo(root, "generated")

    def answers(tag: str) -> list[str]:
        runner = CliRunner()
        printed = [
            runner.invoke(app, [*command, "--root", str(root)]).stdout
            for command in (
                ["status", "--json", "--no-cache"],
                ["lint", "--json"],
                ["check", "--json", "--no-cache"],
            )
        ]
        site = tmp_path / f"site-{tag}"
        runner.invoke(app, ["report", "--format", "html", "-o", str(site), "--root", str(root)])
        pages = sorted(site.iterdir())
        assert len(pages) == count + 3
        return printed + [
            re.sub(r"Generated [0-9T:+-]+", "", page.read_text("utf-8")) for page in pages
        ]

    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    alone = answers("alone")
    assert json.loads(alone[1])["findings"], "the lint finds nothing: the comparison is idle"
    monkeypatch.setenv("MISSIONS_CACHE_DIR", str(tmp_path / "cache-split"))  # no lint cache
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    assert answers("split") == alone
