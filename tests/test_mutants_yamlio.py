"""YAML reading that mutation testing found unguarded (``benchmarks/mutation.py``): where a
too-deep file is reported, in block style, flow style and both, with comments and closed
brackets that must not count."""

from __future__ import annotations

from pathlib import Path

import pytest

from missions.errors import InputError
from missions.yamlio import MAX_DEPTH, load_document

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
