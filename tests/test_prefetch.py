"""A cold command's scan starts before its command line is parsed
(:func:`missions.lean.workspace.prefetch`): the command takes the running scan over.

What a run stores stays keyed by what it read: the stamps are the ones the scan took before
reading, however long before the command began, and the content key is made of the bytes
the scan read. The tests make the race that matters happen every time: the workers read
every file, then a file is edited before the command runs.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import invoke
from missions import answers, fastpath, roots, stored
from missions.cache import dashboard_state_path
from missions.lean import workspace
from missions.roots import lean_file_stats, library_roots

pytestmark = pytest.mark.skipif(
    (os.cpu_count() or 1) < 2, reason="the scan starts workers only with two cores or more"
)

PROOFS = "Formal/Demo/Proofs.lean"
PROVED = "  norm_num [Step, two]\n"


@pytest.fixture
def root(
    demo_workspace: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    built = demo_workspace()
    monkeypatch.setenv("MISSIONS_CACHE_DIR", str(tmp_path / "cold"))  # nothing scanned yet
    monkeypatch.setattr(workspace, "PARALLEL_THRESHOLD", 1)  # workers for a few files too
    yield built
    workspace._stop_prefetched()


class _ReadAlready:
    """The workers' results, every one taken now: the files were read before what follows."""

    parallel = True

    def __init__(self, scanning: Any) -> None:
        self.results = list(scanning)
        scanning.__exit__()

    def __iter__(self) -> Iterator[workspace.ScannedFile]:
        return iter(self.results)

    def __exit__(self, *_: object) -> None:
        pass


def _status(root: Path, *args: str) -> dict[str, Any]:
    result = invoke("status", "--json", "--root", root, *args)
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _targets(data: dict[str, Any]) -> dict[str, str]:
    return {t["id"]: t["status"] for m in data["missions"] for t in m["targets"]}


def _prefetch_then_edit(root: Path) -> None:
    workspace.prefetch(str(root))
    early = workspace._prefetched
    assert early is not None and early.scanning.parallel, "no workers started"
    early.scanning = _ReadAlready(early.scanning)  # type: ignore[assignment]
    proofs = root / PROOFS
    proofs.write_text(proofs.read_text().replace(PROVED, "  sorry\n"))


def test_the_command_takes_over_the_scan_and_keys_its_answer_by_what_it_read(
    root: Path,
) -> None:
    before = _targets(_status(root, "--no-cache"))
    assert set(before.values()) == {"proved"}
    _prefetch_then_edit(root)
    taken = _status(root)
    assert workspace._prefetched is None
    # the command answered from the scan that read the proofs before the edit ...
    assert _targets(taken) == before
    # ... and filed it under the stamps and bytes of that reading: nothing is found under
    # the bytes on disk now, and the edit is seen next
    stats = lean_file_stats(str(root), library_roots(root))
    assert answers.lookup(root, answers.fingerprint(root, [], stats)) is None
    assert answers.lookup_content(root, answers.content_fingerprint(root, stats)) is None
    after = _targets(_status(root))
    assert after == _targets(_status(root, "--no-cache"))
    assert after != before


def test_a_scan_of_another_root_is_stopped_not_taken(root: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(root, other)
    other.joinpath(PROOFS).write_text(
        other.joinpath(PROOFS).read_text().replace(PROVED, "  sorry\n")
    )
    workspace.prefetch(str(root))
    assert workspace._prefetched is not None
    targets = _targets(_status(other))
    assert workspace._prefetched is None
    assert targets == _targets(_status(other, "--no-cache"))
    assert "stated" in targets.values()  # the other root's own files, not the scan of root


@pytest.mark.parametrize(
    ("argv", "handed", "started"),
    [
        (["status", "--json"], False, True),
        (["status", "--no-cache"], False, False),
        (["status", "--help"], False, False),
        (["check"], False, False),  # no stamps were taken before: they would follow reads
        (["check"], True, True),
        (["report", "--format", "html", "-o", "site"], True, True),
        (["pin", "demo"], False, False),
    ],
)
def test_only_commands_keyed_before_the_scan_start_it(
    root: Path, argv: list[str], handed: bool, started: bool
) -> None:
    if handed:
        _, recording = stored.consult_check(root)
        stored.hand_over(recording)
    fastpath.prefetch([*argv, "--root", str(root)])
    assert (workspace._prefetched is not None) is started


def test_check_with_a_state_to_start_from_scans_nothing_early(root: Path) -> None:
    """The incremental gate may answer without loading the workspace: workers would only
    compete with it."""
    assert invoke("check", "--root", root).exit_code == 0
    _, recording = stored.consult_check(root)
    stored.hand_over(recording)
    fastpath.prefetch(["check", "--root", str(root)])
    assert workspace._prefetched is None


def test_a_dashboard_with_a_state_to_start_from_scans_nothing_early(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The incremental dashboard may answer without loading the workspace; another folder
    has no state yet: its dashboard is the whole one."""
    monkeypatch.setattr(roots, "RACY_NS", 0)  # a tree just written: stored all the same
    site = tmp_path / "site"
    assert invoke("report", "--format", "html", "-o", site, "--root", root).exit_code == 0
    assert os.path.exists(dashboard_state_path(str(root), site))
    for folder, started in ((site, False), (tmp_path / "other", True)):
        _, recording = stored.consult_check(root)
        stored.hand_over(recording)
        fastpath.prefetch(["report", "--format", "html", "-o", str(folder), "--root", str(root)])
        assert (workspace._prefetched is not None) is started
        workspace._stop_prefetched()


def test_the_command_started_early_prints_what_a_run_without_cache_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """End to end, through the console entry point: a tree with enough files for workers,
    a cold cache, ``status`` and ``check`` as processes of their own."""
    import subprocess
    import sys

    from conftest import REPO, init_repo

    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import generate_tree
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    tree = tmp_path / "tree"
    generate_tree.generate(
        tree, missions=12, files=2 * workspace.PARALLEL_THRESHOLD, lines=6000, seed=11
    )
    init_repo(tree, "generated")
    monkeypatch.setenv("MISSIONS_CACHE_DIR", str(tmp_path / "cold"))
    for command in (["status", "--json"], ["check", "--json"]):
        argv = [*command, "--root", str(tree)]
        done = subprocess.run(
            [sys.executable, "-m", "missions", *argv],
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, "COLUMNS": "80"},
        )
        full = invoke(*argv, "--no-cache")
        assert done.returncode == full.exit_code, done.stderr
        assert json.loads(done.stdout) == json.loads(full.stdout)
