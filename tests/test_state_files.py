"""The states incremental paths start from (:func:`missions.cache.write_state`) are written
part by part: the file must be exactly the JSON of the whole, or nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from missions.cache import write_state


def _value(rng: random.Random, depth: int) -> Any:
    kind = rng.randrange(6 if depth < 4 else 3)
    if kind == 0:
        return rng.choice([None, True, False, 0, -7, 2.5, 10**20])
    if kind == 1:
        return "".join(rng.choice('aé"\\\n\tℕ𝔼<>/ ') for _ in range(rng.randrange(8)))
    if kind == 2:
        return rng.randrange(1000)
    if kind in (3, 4):
        keys = ["".join(rng.choice('ab"é') for _ in range(3)) for _ in range(rng.randrange(4))]
        return {k: _value(rng, depth + 1) for k in keys}
    return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]


@pytest.mark.parametrize("seed", range(40))
def test_the_file_is_the_json_of_the_whole(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    state = {f"k{i}": _value(rng, 0) for i in range(rng.randrange(1, 5))}
    path = tmp_path / "cache" / "state.json"
    write_state(str(path), state)
    text = path.read_text(encoding="ascii")
    assert text == json.dumps(state, separators=(",", ":"))
    assert json.loads(text) == state


def test_a_state_that_cannot_be_written_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.mkdir()  # a directory in the way
    write_state(str(path), {"new": 2})
    assert path.is_dir() and not any(path.iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.json"]


def test_a_value_that_cannot_be_encoded_leaves_the_old_state(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    write_state(str(path), {"old": 1})
    with pytest.raises(TypeError):
        write_state(str(path), {"ok": 1, "bad": {"x": object()}})
    assert json.loads(path.read_text()) == {"old": 1}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.json"]
