"""A fresh clone with the cache restored: every file has new times but the same bytes, so
the stored scans and the stored answer still serve, and the answer is always the one a run
without any cache gives."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import copy_repo_workspace, git, init_repo
from missions import answers, fastpath, incremental
from missions.cache import cache_dir_for
from missions.cli import app
from missions.lean import workspace as ws


def full_status(root: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["status", "--json", *args, "--root", str(root)])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def fast_status(root: Path, capsys: pytest.CaptureFixture[str]) -> str | None:
    capsys.readouterr()
    served = fastpath.try_status(["status", "--json", "--root", str(root)])
    out = capsys.readouterr().out
    return out if served else None


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A workspace that ran once, then cloned afresh to the same path (as CI checks out)."""
    origin = copy_repo_workspace(tmp_path)
    init_repo(origin, "workspace")
    root = tmp_path / "ws"
    git(tmp_path, "clone", "-q", str(origin), str(root))
    full_status(root)  # fills the cache
    shutil.rmtree(root)
    git(tmp_path, "clone", "-q", str(origin), str(root))
    return root


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    original = ws.scan_file

    def counting(path: str) -> ws.ScannedFile:
        calls.append(path)
        return original(path)

    monkeypatch.setattr(ws, "scan_file", counting)
    monkeypatch.setattr(incremental, "scan_file", counting)
    return calls


def test_the_stored_answer_serves_a_fresh_clone(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    served = fast_status(clone, capsys)
    assert served is not None
    assert served == full_status(clone, "--no-cache")
    # and, stored again under the clone's times, the next run is an ordinary warm one
    assert answers.lookup(clone, answers.fingerprint(clone, [])) == served.encode()


def test_a_fresh_clone_rescans_only_what_differs(
    clone: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = _counting(monkeypatch)
    ws.load_workspace(clone)
    assert calls == []
    proofs = sorted(clone.glob("Formal/*/Proofs.lean"))[0]
    proofs.write_text(proofs.read_text(encoding="utf-8") + "\n-- edited\n", encoding="utf-8")
    shutil.rmtree(clone / "Formal" / "Common", ignore_errors=True)  # many files gone at once
    assert fast_status(clone, capsys) in (None, full_status(clone, "--no-cache"))
    full_status(clone)
    calls.clear()
    ws.load_workspace(clone)
    assert calls == []  # the edited file's scan was stored under its new content


def test_a_changed_byte_is_never_answered_from_the_cache(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    proofs = sorted(clone.glob("Formal/*/Proofs.lean"))
    target = next(p for p in proofs if "sorry" not in p.read_text(encoding="utf-8"))
    text = target.read_text(encoding="utf-8")
    assert ":= by\n" in text
    target.write_text(text.replace(":= by\n", ":= by\n  sorry\n", 1), encoding="utf-8")
    served = fast_status(clone, capsys)
    expected = full_status(clone, "--no-cache")
    assert served in (None, expected)
    assert full_status(clone) == expected
    target.write_text(text, encoding="utf-8")  # back to the committed bytes, new times
    assert fast_status(clone, capsys) != expected


def test_a_damaged_stored_scan_is_scanned_again(
    clone: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    [database] = Path(cache_dir_for(str(clone))).glob("scans-*.sqlite")
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE scans SET scan = '{not json'")
    calls = _counting(monkeypatch)
    loaded = ws.load_workspace(clone)
    assert len(calls) == len(loaded.modules)
    fresh = ws.load_workspace(clone, use_cache=False)
    assert {n: m.scan.to_json() for n, m in loaded.modules.items()} == {
        n: m.scan.to_json() for n, m in fresh.modules.items()
    }


def test_caches_nested_past_the_parsers_depth_are_computed_again(clone: Path) -> None:
    """Every cache file, and every stored scan and index row, replaced by JSON nested far
    past the decoder's recursion limit (a damaged or hostile cache): the commands answer
    as a run without any cache does, never with a traceback."""
    expected = full_status(clone, "--no-cache")
    full_status(clone)  # every cache written for this clone
    deep = "[" * 100_000
    cache = Path(cache_dir_for(str(clone)))
    damaged = 0
    for path in cache.iterdir():
        if path.name.startswith("scans-") and path.suffix == ".sqlite":
            with sqlite3.connect(path) as connection:
                connection.execute("UPDATE scans SET scan = ?", (deep,))
                connection.execute("UPDATE files SET row = ?", (deep,))
        elif path.is_file():
            path.write_text(deep, encoding="utf-8")
        damaged += 1
    assert damaged >= 5
    assert full_status(clone) == expected
    result = CliRunner().invoke(app, ["check", "--root", str(clone)])
    assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output


def test_the_catalogue_cache_serves_a_fresh_clone_by_content(
    clone: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from missions import catalog as catalog_module

    parsed: list[Path] = []
    original = catalog_module.load_mission_file

    def counting(path: Path, text: str | None = None) -> catalog_module.MissionFile:
        parsed.append(path)
        return original(path, text)

    monkeypatch.setattr(catalog_module, "load_mission_file", counting)
    warm = catalog_module.load_catalog(clone)
    assert parsed == []
    yaml = sorted((clone / "missions").glob("*.yaml"))[0]
    text = yaml.read_text(encoding="utf-8")
    title = next(line for line in text.splitlines() if line.startswith("title: "))
    value = title.removeprefix("title: ")
    quote = value[0] if value[0] in "'\"" else ""
    edited = text.replace(title, f"title: {quote}Edited {value.removeprefix(quote)}", 1)
    yaml.write_text(edited, encoding="utf-8")
    again = catalog_module.load_catalog(clone)
    assert parsed == [yaml]
    fresh = catalog_module.load_catalog(clone, use_cache=False)
    dump = [f.mission.model_dump() for f in fresh.files]
    assert [f.mission.model_dump() for f in again.files] == dump
    assert [f.mission.model_dump() for f in warm.files] != dump
    assert [f.lines for f in again.files] == [f.lines for f in fresh.files]


def test_a_proof_edit_on_a_fresh_clone_is_answered_incrementally(
    clone: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counting(monkeypatch)
    proofs = sorted(clone.glob("Formal/*/Proofs.lean"))[-1]
    proofs.write_text(proofs.read_text(encoding="utf-8") + "\n-- edited\n", encoding="utf-8")
    served = fast_status(clone, capsys)
    assert served is not None  # new times everywhere, one file's content changed
    assert calls == [str(proofs)]
    assert served == full_status(clone, "--no-cache")


def test_the_content_key_is_read_only_when_every_input_moved(
    clone: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an edit of Lean files the YAML and Lake files keep their times, and hashing
    every input would only cost time; after a clone they all moved."""
    computed: list[Path] = []
    original = answers.content_fingerprint

    def counting(root: Path, stats: list[tuple[str, os.stat_result]]) -> str:
        computed.append(root)
        return original(root, stats)

    monkeypatch.setattr(fastpath, "content_fingerprint", counting)
    assert fast_status(clone, capsys) is not None
    assert len(computed) == 1
    proofs = sorted(clone.glob("Formal/*/Proofs.lean"))[-1]
    proofs.write_text(proofs.read_text(encoding="utf-8") + "\n-- edited\n", encoding="utf-8")
    served = fast_status(clone, capsys)
    assert len(computed) == 1
    assert served == full_status(clone, "--no-cache")
