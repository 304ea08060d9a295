"""Lexer behaviour that mutation testing found unguarded (``benchmarks/mutation.py``).

Where Lean's grammar decides whether braces in a string are code, a lexer that guesses wrong
hides a ``sorry``: these tests fix which syntax makes a string interpolated, plain, or
undecidable (reported, never guessed), with a contrasting input each.
"""

from __future__ import annotations

import pytest

from missions.lean.lexer import CHAR, IDENT, STRING, SYMBOL, lex


def code_in(text: str) -> list[str]:
    return [value for kind, value, _ in lex(text).tokens if kind == IDENT]


@pytest.mark.parametrize(
    ("text", "interpolated"),
    [
        ('throwErrorAt ref "{sorry}"', True),  # one argument before the message
        ('logNamedErrorAt ref name "{sorry}"', True),  # two arguments
        ('throwNamedError n "{sorry}"', True),
        ('trace[cls] "{sorry}"', True),
        ('panic! "{sorry}"', True),  # an unknown `name!` macro: read both ways, same extent
        ('xs[0] "{sorry}"', False),  # an index, not `trace[cls]`
        ('mytrace[cls] "{sorry}"', False),
        ('x "{sorry}"', False),
    ],
)
def test_braces_are_code_exactly_where_lean_interpolates(text: str, interpolated: bool) -> None:
    assert ("sorry" in code_in("def a := 1\n" + text)) is interpolated


def test_a_string_that_reads_differently_both_ways_is_an_error_not_a_guess() -> None:
    source = lex('def a := 1\nfoo! "a{" ++ "}"')
    assert source.error is not None
    assert source.error.message.startswith(
        "this string reads differently as a plain and as an interpolated string"
    )
    assert source.line(source.error.offset) == 2


def test_an_impossible_interpolated_reading_leaves_a_plain_string() -> None:
    tokens = lex('foo! "a{"').tokens
    assert [(k, v) for k, v, _ in tokens] == [(IDENT, "foo!"), (STRING, '"a{"')]


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ('trace[cls] "{ "}" }"', "interpolated"),
        ('trace[x[0]] "{ "}" }"', "interpolated"),  # nested brackets in the class
        ('xs[0] "{ "}" }"', "plain"),
        ('trace [cls] "{ "}" }"', "undecidable"),  # `trace [` is not the `trace[` syntax
        ('trace[cls] (f) "{ "}" }"', "undecidable"),  # the string does not follow `]`
    ],
)
def test_only_trace_class_syntax_right_before_a_string_interpolates_it(
    text: str, reading: str
) -> None:
    """A string whose plain and interpolated readings end at different places tells the
    readings apart: after ``trace[cls]`` it is interpolated (the inner ``"}"`` is a string
    inside a hole), elsewhere plain, and next to an unknown ``trace…`` word undecidable."""
    source = lex("def a := 1\n" + text)
    strings = [value for kind, value, _ in source.tokens if kind == STRING]
    if reading == "interpolated":
        assert (source.error, strings) == (None, ['"{', '"}"', '}"'])
    elif reading == "plain":
        assert (source.error, strings) == (None, ['"{ "', '" }"'])
    else:
        assert source.error is not None
        assert source.error.message.startswith("this string reads differently")


def test_a_raw_string_ends_at_its_own_closing_quote_and_hashes() -> None:
    """``r#"…"#`` ends at the first ``"#`` after its opening, even when the body starts with
    ``#`` or another raw string follows."""
    strings = [v for k, v, _ in lex('r#"#x"# ++ r#""# ++ r##"a"#b"##').tokens if k == STRING]
    assert strings == ['r#"#x"#', 'r#""#', 'r##"a"#b"##']


def test_the_image_symbol_is_one_token_wherever_it_stands() -> None:
    """``''`` (``f '' s``) is a symbol, not two apostrophes, also after a char literal and at
    the very start of the text; a lone ``'`` after it still opens a char literal."""
    text = "example : Char := 'a'\ntheorem t : f '' s = s := by simp\n"
    assert [(k, v) for k, v, _ in lex(text).tokens if v in ("''", "'a'")] == [
        (CHAR, "'a'"),
        (SYMBOL, "''"),
    ]
    assert [(k, v) for k, v, _ in lex("'' 'b'").tokens] == [(SYMBOL, "''"), (CHAR, "'b'")]
