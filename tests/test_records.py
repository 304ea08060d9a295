"""The record store (:func:`missions.cache.read_records`): what a run keeps of the lint's
results, read back exactly, and never trusted when damaged or of another version."""

from __future__ import annotations

from pathlib import Path

import pytest

from missions.cache import read_records, record_entry, record_line, write_records

ENTRIES = [
    ("missions", "m-1", "k1", {"raw": [], "reached": [["A.lean", "x", ["t"]]]}),
    ("modules", "Formal.\tOdd\nName", "k2", {"raw": [{"rule": "r", "text": "a\tb\nc\u2028d"}]}),
    ("files", "Formal.Ünïcode", "k3", {"allows": [], "malformed": []}),
]


def _write(path: Path, version: str = "v1") -> None:
    write_records(path, version, [record_line(*e) for e in ENTRIES])


def test_every_record_reads_back_with_its_key_and_entry(tmp_path: Path) -> None:
    path = tmp_path / "store.tsv"
    _write(path)
    found = read_records(path, "v1")
    assert set(found) == {(kind, name) for kind, name, _, _ in ENTRIES}
    for kind, name, key, entry in ENTRIES:
        stored_key, line = found[(kind, name)]
        assert stored_key == key and record_entry(line) == entry
        assert line == record_line(kind, name, key, entry)  # handed on as it was read


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text.replace('"v1"', '"v0"', 1),  # another version
        lambda text: text.replace('["modules"', '["modules', 1),  # a broken header
        lambda text: text.replace('["files", "Formal.Ünïcode", "k3"]', '["files", 3, "k3"]'),
        lambda text: "not json\n" + text,
        lambda text: text + '["a", "b", "c"],["d", "e", "f"]\n',  # two headers, no entry
        lambda text: "",
    ],
)
def test_a_damaged_or_foreign_store_reads_as_empty(tmp_path: Path, damage: object) -> None:
    path = tmp_path / "store.tsv"
    _write(path)
    assert callable(damage)
    path.write_text(damage(path.read_text(encoding="utf-8")), encoding="utf-8")
    assert read_records(path, "v1") == {}


def test_a_damaged_entry_is_none_and_a_missing_store_is_empty(tmp_path: Path) -> None:
    line = record_line(*ENTRIES[0])
    assert record_entry(line[:-3]) is None
    assert record_entry(line.partition("\t")[0] + "\t" + "[" * 100_000) is None  # too deep
    deep = tmp_path / "deep.tsv"
    deep.write_text('"v1"\n' + "[" * 100_000 + "\t{}\n", encoding="utf-8")
    assert read_records(deep, "v1") == {}
    assert read_records(tmp_path / "absent.tsv", "v1") == {}
    (tmp_path / "bytes.tsv").write_bytes(b'"v1"\n\xff\xfe\n')
    assert read_records(tmp_path / "bytes.tsv", "v1") == {}
