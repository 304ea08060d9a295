"""Freed memory goes back to the system between the phases of a large run
(:mod:`missions.heap`): what glibc keeps in its heap after a phase's garbage is freed no
longer counts towards the peak of the phases after it."""

from __future__ import annotations

import pytest

from missions import heap


def _resident_kib() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


@pytest.mark.skipif(heap._trim() is None, reason="needs glibc's malloc_trim (Linux)")
def test_the_pages_a_phase_freed_leave_the_resident_set() -> None:
    # a phase's garbage: many blocks from malloc (larger than Python's small-object pools),
    # freed with every hundredth kept, so that the heap's top cannot simply shrink
    blocks = [bytes(4096) for _ in range(40_000)]  # about 160 MB
    kept = blocks[::100]
    del blocks
    before = _resident_kib()
    heap.release_free_memory()
    after = _resident_kib()
    assert len(kept) == 400
    assert before - after > 50_000, (before, after)  # most of what was freed, in KiB


def test_only_the_command_leaves_its_analysis_unfreed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command leaves with ``os._exit``: what it keeps costs nothing, what it frees one
    object at a time costs a large run a fifth of a second. A program that imports the
    library gets its memory back."""
    import weakref

    import missions

    class Analysis:
        pass

    monkeypatch.setattr(heap, "_outliving", [])
    monkeypatch.setattr(missions, "IS_THE_COMMAND", False)
    freed = Analysis()
    watch = weakref.ref(freed)
    heap.outlive(freed)
    del freed
    assert watch() is None

    monkeypatch.setattr(missions, "IS_THE_COMMAND", True)
    kept = Analysis()
    watch = weakref.ref(kept)
    heap.outlive(kept)
    del kept
    assert watch() is not None
