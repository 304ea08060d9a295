"""YAML reading that mutation testing found unguarded (``benchmarks/mutation.py``): where a
too-deep file is reported, in block style, flow style and both, with comments and closed
brackets that must not count."""

from __future__ import annotations

from pathlib import Path

import pytest

from missions.errors import InputError
from missions.yamlio import MAX_DEPTH, load_document, node_line

MESSAGE = f"YAML nested deeper than {MAX_DEPTH} levels"


def block(levels: int) -> str:
    return "".join(" " * i + f"k{i}:\n" for i in range(levels)) + " " * levels + "v: 1\n"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("a: " + "[" * 70 + "]" * 70 + "\n", 1),  # flow: the first line already too deep
        (block(70), MAX_DEPTH),  # block: the line that opens one level too many
        ("x: 1\ny:\n  z: " + "{a: " * 66 + "1" + "}" * 66 + "\n", 3),  # flow inside block
        # comments and blank lines do not nest, closed brackets no longer count
        ("# " + "[" * 80 + "\n\n" + "a: [[1]]\nb: " + "[" * 70 + "]" * 70 + "\n", 4),
    ],
)
def test_a_too_deep_file_is_refused_at_the_line_that_goes_too_deep(
    tmp_path: Path, text: str, line: int
) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as refused:
        load_document(path)
    assert [(p.line, p.message) for p in refused.value.problems] == [(line, MESSAGE)]


def test_nesting_up_to_the_limit_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n", encoding="utf-8")
    assert list(load_document(path)) == ["a"]


def test_lines_of_keys_and_items_are_where_the_file_has_them(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text("a: 1\nb:\n  - x\n  - y\n", encoding="utf-8")
    doc = load_document(path)
    assert (node_line(doc, "a"), node_line(doc, "b"), node_line(doc["b"], 1)) == (1, 2, 4)
    assert node_line({"a": 1}, "a") == 1  # a plain mapping knows no lines


def test_an_alias_bomb_is_refused_at_the_line_where_it_outgrows_the_budget(
    tmp_path: Path,
) -> None:
    levels = ["b: &a [x,x,x,x,x,x,x,x,x,x]"] + [
        f"{key}: &{name} [{', '.join([f'*{prev}'] * 10)}]"
        for key, name, prev in (("c", "b", "a"), ("d", "c", "b"), ("e", "d", "c"), ("f", "e", "d"))
    ]
    path = tmp_path / "bomb.yaml"
    path.write_text("a: 1\n" + "\n".join(levels) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as refused:
        load_document(path)
    assert [(p.line, p.message) for p in refused.value.problems] == [
        (5, "document expands to more than 50000 nodes (alias bomb?)")
    ]
