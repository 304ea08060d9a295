"""Plain output strips exactly what rich strips, at any text size and alphabet."""

from __future__ import annotations

import random

from rich.control import STRIP_CONTROL_CODES, strip_control_codes

from missions.plain import STRIPPED, plain_text, strip_controls


def test_the_stripped_code_points_are_richs() -> None:
    assert sorted(STRIPPED) == sorted(STRIP_CONTROL_CODES)


def test_strip_controls_agrees_with_rich_on_every_low_code_point_and_beyond() -> None:
    rng = random.Random(7)
    alphabet = [chr(c) for c in range(0, 0x250)] + ["ℕ", "—", "∀", "𝔼", "\u2028", "\x85"]
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 80)))
        assert strip_controls(text) == strip_control_codes(text)


def test_plain_text_ends_every_line_and_strips_inside_lines() -> None:
    assert plain_text([]) == ""
    assert plain_text(["a\x07b", "c\rd"]) == "ab\ncd\n"
    assert plain_text([""]) == "\n"
