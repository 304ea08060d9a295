"""The start-up fast path, where mutation testing found it unguarded (``benchmarks/mutation.py``):
which inputs its fingerprint covers, where the stored answer lives, which command lines it
answers, and what it does when it cannot answer. Everything runs in this process."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import demo_sources
from missions import answers, fastpath, incremental
from test_fastpath import fast_status, full_status

Build = Callable[..., Path]


@pytest.fixture
def repo(demo_workspace: Build) -> Path:
    return demo_workspace()


@pytest.mark.parametrize(
    "change",
    [
        lambda root: (root / "lakefile.toml").write_text('name = "x"\n', encoding="utf-8"),
        lambda root: (root / "missions" / "other.yml").write_text("id: other\n", encoding="utf-8"),
    ],
    ids=["lakefile.toml", "a .yml mission file"],
)
def test_the_fingerprint_covers_every_configuration_file(
    repo: Path, change: Callable[[Path], object]
) -> None:
    before = answers.fingerprint(repo, [])
    change(repo)
    assert answers.fingerprint(repo, []) != before


def test_the_fingerprint_covers_the_witness_results_file(repo: Path) -> None:
    """The results file sits in the cache directory, not in the workspace."""
    results = Path(answers.cache_dir_for(str(repo))) / "witness-results.json"
    results.parent.mkdir(parents=True, exist_ok=True)
    before = answers.fingerprint(repo, [])
    results.write_text("{}", encoding="utf-8")
    assert answers.fingerprint(repo, []) != before


def test_an_answer_is_stored_in_the_cache_and_found_only_under_its_key(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # nothing may be written relative to where we stand
    renames: list[tuple[Path, Path]] = []
    replace = os.replace

    def spy(source: str, target: str) -> None:
        renames.append((Path(source), Path(target)))
        replace(source, target)

    monkeypatch.setattr(answers.os, "replace", spy)
    answer = '{"missions": [\n]}\n'
    for text in ("first\n", answer):  # the second store finds the directory in place
        answers.store(repo, "key", text, "content")
    # the temporary file sits next to the answer: the rename is atomic on one file system
    assert all(source.parent == target.parent for source, target in renames) and renames
    assert answers.lookup(repo, "key") == answer.encode()
    assert answers.lookup(repo, "other") is None
    assert answers.lookup(repo, "content") is None  # the keys are never mistaken
    assert answers.lookup_content(repo, "content") == answer.encode()
    assert answers.lookup_content(repo, "key") is None
    assert list(elsewhere.iterdir()) == []
    stored = Path(answers.cache_dir_for(str(repo))) / answers.RESULT_FILE
    digest = answers._inputs_digest(str(repo)).encode()
    assert stored.read_bytes() == b"key\ncontent\n" + digest + b"\n" + answer.encode()


@pytest.mark.parametrize(
    ("argv", "parsed"),
    [
        (["status"], (None, [], False, False)),
        (["status", "--why", "--json", "demo"], (None, ["demo"], True, True)),
        (["status", "--root=/w"], ("/w", [], False, False)),
        (["status", "--root", "/w"], ("/w", [], False, False)),
        (["status", "--root"], None),  # no value: let the full command say so
        (["status", "--all"], None),  # an option it does not know
        (["check"], None),
        ([], None),
    ],
)
def test_which_command_lines_the_fast_path_takes(
    argv: list[str], parsed: tuple[str | None, list[str], bool, bool] | None
) -> None:
    assert fastpath._parse(argv) == parsed


def test_what_is_not_a_workspace_is_left_to_the_full_command(tmp_path: Path) -> None:
    assert fastpath.try_status(["status", "--root", str(tmp_path)]) is False


def test_an_unreadable_tree_is_left_to_the_full_command(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(root: str) -> None:
        raise PermissionError(13, "Permission denied", root)

    monkeypatch.setattr(fastpath, "library_roots", refuse)
    assert fastpath.try_status(["status", "--root", str(repo)]) is False


def test_an_answer_for_some_missions_is_served_from_the_store(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command naming one mission is served from the whole workspace's answer, never
    from nothing: before any whole answer or incremental state exists, the full command runs."""
    slow = full_status(repo, "--json", "demo")
    assert fast_status(repo, capsys, "--json", "demo") is None
    full_status(repo, "--json")
    assert fast_status(repo, capsys, "--json", "demo") == slow


def test_a_failing_incremental_path_falls_back_unless_debugging(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    full_status(repo, "--json")
    (repo / "Formal/Demo/Extra.lean").write_text("-- new\n", encoding="utf-8")

    def broken(*_: object) -> None:
        raise RuntimeError("broken")

    monkeypatch.setattr(incremental, "status_text", broken)
    monkeypatch.delenv("MISSIONS_DEBUG", raising=False)
    assert fastpath.try_status(["status", "--root", str(repo)]) is False
    monkeypatch.setenv("MISSIONS_DEBUG", "1")
    with pytest.raises(RuntimeError, match="broken"):
        fastpath.try_status(["status", "--root", str(repo)])


def test_the_reasons_view_is_rendered_from_the_stored_answer(
    demo_workspace: Build, capsys: pytest.CaptureFixture[str]
) -> None:
    """Unpinned, with a sorry in the milestone: each target has more than one reason, which
    only ``--why`` lists in full."""
    proofs = demo_sources()["Formal/Demo/Proofs.lean"].replace("norm_num [Step, two]", "sorry")
    root = demo_workspace(files={"Formal/Demo/Proofs.lean": proofs}, settled=False)
    slow = full_status(root, "--why")
    assert slow != full_status(root) and "sorry in" in slow
    assert fast_status(root, capsys, "--why") == slow


def test_the_entry_point_answers_from_the_store_without_the_full_command(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = full_status(repo, "--json")
    import missions.cli

    def full(*_: object) -> None:
        raise AssertionError("the full command ran")

    monkeypatch.setattr(missions.cli, "main", full)
    monkeypatch.setattr(sys, "argv", ["missions", "status", "--json", "--root", str(repo)])
    capsys.readouterr()
    fastpath.main()
    assert capsys.readouterr().out == slow


def test_output_streams_become_utf8_and_only_text_wrappers_are_touched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    utf8_err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="replace")
    monkeypatch.setattr(sys, "stdout", ascii_out)
    monkeypatch.setattr(sys, "stderr", utf8_err)
    fastpath.utf8_output()
    assert (sys.stdout.encoding, sys.stderr.encoding) == ("utf-8", "utf-8")
    assert sys.stderr.errors == "replace"  # left as it was (reconfiguring resets it)
    sys.stdout.write("— ∀")
    sys.stdout.flush()
    assert ascii_out.buffer.getvalue() == "— ∀".encode()
    plain = io.StringIO()  # not a wrapper over bytes: nothing to reconfigure
    monkeypatch.setattr(sys, "stdout", plain)
    fastpath.utf8_output()
    assert sys.stdout is plain
