"""Work in forked children: every item in exactly one part, in order; a failed or missing
child hands back nothing (the caller then does the part itself)."""

from __future__ import annotations

import os

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
