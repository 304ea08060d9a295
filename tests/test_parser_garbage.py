"""Reading YAML without the cycle collector (as the analysis commands run) leaves nothing
behind: ruamel builds a loader class per document, a reference cycle only the collector
frees, and a cold catalogue of 2,000 missions kept every one (about 260 MB)."""

from __future__ import annotations

import gc
from pathlib import Path

from conftest import copy_repo_workspace, init_repo
from missions.catalog import load_catalog
from missions.versions import committed_versions
from missions.yamlio import collecting_parser_garbage, fast_load


def _garbage_after(action: object) -> int:
    """Objects the collector frees after ``action`` ran with the collector off."""
    gc.collect()
    gc.disable()
    try:
        action()  # type: ignore[operator]
        return gc.collect()
    finally:
        gc.enable()


def test_reading_the_catalogue_and_its_history_leaves_no_parser_cycles(tmp_path: Path) -> None:
    root = copy_repo_workspace(tmp_path)
    init_repo(root)
    catalog = load_catalog(root, use_cache=False)
    assert _garbage_after(lambda: load_catalog(root, use_cache=False)) < 100
    paths = [f.path for f in catalog.files]
    assert _garbage_after(lambda: committed_versions(root, paths)) < 100


def test_the_guard_frees_what_a_parse_leaves_and_keeps_what_existed() -> None:
    text = "a: [1, 2]\nb: {c: d}\n"
    assert _garbage_after(lambda: [fast_load(text) for _ in range(20)]) > 100  # the hazard

    def guarded() -> None:
        kept = [[]]  # a cycle made before the guard: not the guard's to collect
        kept[0].append(kept)
        with collecting_parser_garbage():
            for _ in range(20):
                fast_load(text)
        assert gc.get_referrers(kept[0])  # still alive and still tracked

    assert _garbage_after(guarded) < 10
    assert gc.isenabled()
