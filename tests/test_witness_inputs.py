"""The stored ``status`` answer shows whether each witness is stale, which reads the witness
modules' sources: every key it is found under stamps them, so an edit of a witness module
is never answered from before it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import committed_demo, git, invoke, link_witnesses
from missions import fastpath, roots
from missions.cache import WITNESS_LIST, cache_dir_for, witness_inputs
from missions.witnesses import WORKSPACE_FOLDER
from test_stored_answers import Editor


@pytest.fixture
def linked(demo_workspace: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> Path:
    """The demo mission, its targets linked to a witness module in the workspace."""
    monkeypatch.setattr(roots, "RACY_NS", 0)
    root = committed_demo(demo_workspace)
    link_witnesses(root)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "witnesses")
    return root


def _fast_status(root: Path, capfd: pytest.CaptureFixture[bytes]) -> dict | None:
    capfd.readouterr()
    if not fastpath.try_status(["status", "--json", "--root", str(root)]):
        return None
    return json.loads(capfd.readouterr().out)


def _full(root: Path) -> dict:
    return json.loads(invoke("status", "--json", "--no-cache", "--root", root).stdout)


def _stale(data: dict) -> list[bool]:
    return [t["witness"]["stale"] for m in data["missions"] for t in m["targets"] if t["witness"]]


def test_an_edited_witness_module_is_never_answered_from_before(
    linked: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    root = linked
    invoke("status", "--json", "--root", root)  # names the witness sources for the keys
    invoke("status", "--json", "--root", root)  # stored under keys that stamp them
    before = _fast_status(root, capfdbinary)
    assert before is not None and _stale(before) == [False] * len(_stale(before)) != []
    module = next((root / WORKSPACE_FOLDER).glob("*.py"))
    Editor(root).write(str(module.relative_to(root)), module.read_text() + "\n# edited\n")
    after = _fast_status(root, capfdbinary)
    full = _full(root)
    assert all(_stale(full))
    assert after is None or after == full


def test_a_run_that_meets_a_new_witness_source_keys_its_answer_by_it(
    linked: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    """The keys of a run are taken before it reads the YAML: a witness source it was not
    told of is stamped once it is known, and the answer stored under keys that stamp it."""
    root = linked
    (Path(cache_dir_for(str(root))) / WITNESS_LIST).unlink(missing_ok=True)
    invoke("status", "--json", "--root", root)
    sources = witness_inputs(str(root))
    assert sources and all(Path(p).exists() for p in sources)
    assert _fast_status(root, capfdbinary) == _full(root)  # stored by that first run
    module = next((root / WORKSPACE_FOLDER).glob("*.py"))
    Editor(root).write(str(module.relative_to(root)), module.read_text() + "\n# edited\n")
    after = _fast_status(root, capfdbinary)
    assert after is None or after == _full(root)
