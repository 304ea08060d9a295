"""Git's "racily clean" rule: a file changed within ``RACY_NS`` of being stamped may change
again inside the same tick of a coarse file-system clock, its size and times unmoved. No
cache may then remember it by its times: the scan store, the parsed catalogue, the stored
``status`` answer and the incremental state all fall back to its content until it is older.

The suite turns the rule off (``conftest._trusted_times``); these tests turn it on.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import invoke
from missions import answers, incremental, roots
from missions.cache import cache_dir_for, read_records
from missions.catalog import CATALOG_CACHE_VERSION, CATALOG_FILE
from missions.lean.store import ScanStore
from missions.roots import RACY_STAMP, file_stamp, lean_file_stats, library_roots

NOW = 3600 * 10**9  # every file of a test counts as changed just now


def _index(root: Path) -> dict[str, list[object]]:
    store = ScanStore.open(cache_dir_for(str(root)))
    rows = dict(store.index)
    store.close()
    return rows


def _status(root: Path) -> str:
    result = invoke("status", "--json", "--root", root)
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture
def root(demo_workspace: Callable[..., Path]) -> Path:
    return demo_workspace()


def test_a_file_changed_just_now_is_indexed_by_no_stamp(
    root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("MISSIONS_CACHE_DIR", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(roots, "RACY_NS", NOW)
    _status(root)
    rows = _index(root)
    assert rows and all(row[1] == RACY_STAMP for row in rows.values())
    monkeypatch.setattr(roots, "RACY_NS", 0)  # the same files, now old enough
    before = _status(root)
    stats = dict(lean_file_stats(str(root), library_roots(str(root))))
    assert {path: row[1] for path, row in _index(root).items()} == {
        path: file_stamp(stat) for path, stat in stats.items()
    }
    assert _status(root) == before  # the content decided, so nothing else changed


def test_a_racy_workspace_is_never_answered_by_its_times(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(roots, "RACY_NS", NOW)
    assert answers.fingerprint(root, []) != answers.fingerprint(root, [])
    _status(root)
    assert answers.lookup(root, answers.fingerprint(root, [])) is None
    monkeypatch.setattr(roots, "RACY_NS", 0)
    assert answers.fingerprint(root, []) == answers.fingerprint(root, [])


def test_a_racy_mission_file_is_parsed_and_not_cached(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog = Path(cache_dir_for(str(root))) / CATALOG_FILE
    catalog.unlink(missing_ok=True)
    monkeypatch.setattr(roots, "RACY_NS", NOW)
    _status(root)
    files = [path for _, path in read_records(catalog, CATALOG_CACHE_VERSION)]
    assert not any(path.endswith("demo.yaml") for path in files)
    monkeypatch.setattr(roots, "RACY_NS", 0)
    _status(root)
    files = [path for _, path in read_records(catalog, CATALOG_CACHE_VERSION)]
    assert any(path.endswith("demo.yaml") for path in files)


def test_the_incremental_state_remembers_a_racy_input_by_its_content(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(roots, "RACY_NS", NOW)
    recorded = incremental.global_inputs(str(root))
    yaml = str(root / "missions" / "demo.yaml")
    entry = recorded[yaml]
    assert entry is not None and entry[:3] == [-1, -1, -1] and len(entry[3]) == 64
    assert incremental.same_inputs(str(root), recorded)  # the content still matches


def test_a_racy_statement_file_is_still_patched_declaration_by_declaration(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The incremental path reads an edited file by its bytes where its stamp is not trusted:
    a racy index must not send every edit to the full command."""
    monkeypatch.setattr(roots, "RACY_NS", NOW)
    _status(root)
    statements = root / "Formal" / "Demo" / "Statements.lean"
    statements.write_text(statements.read_text() + "\n-- a note\n", encoding="utf-8")
    top = str(root)
    libraries = library_roots(top)
    patched = incremental.status_text(top, libraries, lean_file_stats(top, libraries))
    full = invoke("status", "--json", "--no-cache", "--root", root)
    assert patched is not None and patched == full.stdout


def test_stats_taken_before_a_scan_are_judged_as_of_when_they_were_taken(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scan started early (:func:`missions.lean.workspace.prefetch`) read files right
    after stamping them; the key made later from those stamps must call a file racy if it
    was when stamped, however old it is by the time the key is made."""
    stats = lean_file_stats(str(root), library_roots(str(root)))
    newest = max(max(s.st_mtime_ns, s.st_ctime_ns) for _, s in stats)
    monkeypatch.setattr(roots, "RACY_NS", 10**6)  # a millisecond: every file is older now
    taken = newest + roots.RACY_NS // 2  # stamped half a millisecond after the last change
    assert answers.fingerprint(root, [], stats, None, taken) != answers.fingerprint(
        root, [], stats, None, taken
    )
    later = newest + 2 * roots.RACY_NS
    assert answers.fingerprint(root, [], stats, None, later) == answers.fingerprint(
        root, [], stats, None, later
    )
