"""``missions.indented.dumps`` is ``json.dumps(indent=2, ensure_ascii=False, default=str)``."""

from __future__ import annotations

import datetime as dt
import enum
import json
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from missions import indented
from missions.load import analyse_and_lint
from missions.report import status_json
from missions.witness import load_results


class Colour(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


class Word(str):
    pass


def reference(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**200), max_value=2**200)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
    | st.sampled_from(
        [
            "",
            '"\\\n\t\r\x00\x1f\u2028\u2029\ud800',
            "é ∑ 𝒜 ✓",
            Colour.RED,
            Level.HIGH,
            Word("sub"),
            PurePosixPath("a/b"),
            dt.date(2026, 12, 3),
        ]
    )
)
keys = st.text() | st.integers() | st.floats(allow_nan=True) | st.booleans() | st.none()
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.lists(inner, max_size=5).map(tuple)
        | st.dictionaries(keys, inner, max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=600, deadline=None)
@given(values)
def test_it_writes_what_json_dumps_writes(value: Any) -> None:
    assert indented.dumps(value) == reference(value)


def test_it_writes_a_real_answer_alike() -> None:
    """The bundled missions' ``status`` data as the command has it before writing (tuples,
    enums and all), and as a reader gets it back."""
    root = Path(__file__).resolve().parent.parent
    analysis, lint = analyse_and_lint(root, use_cache=False)
    data = status_json(analysis, evidence="source", witnesses=load_results(str(root)), lint=lint())
    assert data["missions"]
    for entry in data["missions"]:
        assert indented.dumps(entry) == reference(entry)
    assert indented.dumps(data) == reference(data)
    decoded = json.loads(reference(data))
    assert indented.dumps(decoded) == reference(decoded)


@pytest.mark.parametrize("key", [(1, 2), b"bytes", frozenset()])
def test_a_key_json_refuses_is_refused(key: Any) -> None:
    with pytest.raises(TypeError):
        reference({key: 1})
    with pytest.raises(TypeError):
        indented.dumps({key: 1})
