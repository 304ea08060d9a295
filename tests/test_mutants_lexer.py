"""Lexer behaviour that mutation testing found unguarded (``benchmarks/mutation.py``).

Where Lean's grammar decides whether braces in a string are code, a lexer that guesses wrong
hides a ``sorry``: these tests fix which syntax makes a string interpolated, plain, or
undecidable (reported, never guessed), with a contrasting input each.
"""

from __future__ import annotations

import pytest

from missions.lean.lexer import CHAR, DOC, IDENT, STRING, SYMBOL, ident_name, ident_parts, lex


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
    # where Mathlib's `''` is not active, `' '` would be a character: two readings, a fault
    assert lex("'' 'b'").error is not None
    assert [(k, v) for k, v, _ in lex("'' ('b')").tokens][:2] == [(SYMBOL, "''"), (SYMBOL, "(")]


def pairs(text: str) -> list[tuple[int, str]]:
    return [(kind, value) for kind, value, _ in lex(text).tokens]


def test_the_first_character_is_on_line_one() -> None:
    source = lex("sorry\nx")
    assert (source.line(0), source.line(5), source.line(6)) == (1, 1, 2)


@pytest.mark.parametrize(
    ("text", "message", "at"),
    [
        ("/- open", "unterminated comment", "/-"),
        ('"open', "unterminated string literal", '"'),
        ('r#"open"', "unterminated raw string literal", "r#"),
        ('s!"abc', "unterminated interpolated string", '"'),
        ('s!"{x', "unterminated interpolated string", '"'),
        ("def «abc", "unterminated identifier escape «", "«"),
        ('foo! "abc', "unterminated string literal", '"'),
        (
            'foo! "a{" ++ "}"',
            "this string reads differently as a plain and as an interpolated string, and the "
            'syntax before it is unknown (write s!"…" or avoid braces)',
            '"',
        ),
    ],
)
def test_each_lexical_error_says_what_and_where(text: str, message: str, at: str) -> None:
    source = lex("def a := 1\n" + text)
    assert source.error is not None
    assert source.error.message == message
    assert source.error.offset == len("def a := 1\n") + text.index(at)


def test_an_unterminated_hole_is_reported_at_the_innermost_open_string() -> None:
    text = 's!"a{s!"b{s!"c{x'
    source = lex(text)
    assert source.error is not None
    assert source.error.offset == text.rindex('"')


def test_braces_inside_a_hole_nest() -> None:
    """A structure instance inside a hole does not close it: the string ends where Lean's
    does, and what follows is code."""
    tokens = pairs('def f := s!"a{ {x := {y := 1}}.x.y }b" ++ sorry')
    assert [v for k, v in tokens if k == STRING] == ['"a{', '}b"']
    assert tokens[-1] == (IDENT, "sorry")


@pytest.mark.parametrize(
    "text",
    [
        'throwErrorAt ref "a{"}"}"',  # one argument, at the start of the text
        'def a := 1\nthrowErrorAt ref "a{"}"}"',
        'logNamedErrorAt ref name "a{"}"}"',  # two arguments
    ],
)
def test_a_head_with_arguments_makes_the_string_interpolated_not_ambiguous(text: str) -> None:
    """Read plainly this string ends at its second quote, read interpolated at its last: a
    head known to interpolate decides, where an unknown one would be an error."""
    source = lex(text)
    assert source.error is None
    assert [v for k, v, _ in source.tokens if k == STRING] == ['"a{', '"}"', '}"']


@pytest.mark.parametrize(
    ("between", "newline", "ambiguous"), [(11, False, True), (60, False, True), (3, True, False)]
)
def test_an_unknown_bang_head_stays_pending_until_the_next_command(
    between: int, newline: bool, ambiguous: bool
) -> None:
    """However many arguments come between, a message-like head makes a later string of the
    same command read both ways; a token in column 0 (a new command) ends it."""
    names = " ".join(f"a{i}" for i in range(between))
    gap = "\ndef x :=" if newline else ""
    source = lex(f'foo! {names}{gap} "a{{" ++ "}}"')
    assert (source.error is not None) is ambiguous


def test_an_empty_doc_comment_closes_right_after_its_opening() -> None:
    assert pairs("/---/ def a := 1")[:2] == [(DOC, "/---/"), (IDENT, "def")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a symbol token of the pinned sources that ends in a quote is read whole
        ("∑' x, f x", [(SYMBOL, "∑'"), (IDENT, "x")]),
        ("∑' a'", [(SYMBOL, "∑'"), (IDENT, "a'")]),
        ("a ⊕' b' c", [(IDENT, "a"), (SYMBOL, "⊕'"), (IDENT, "b'"), (IDENT, "c")]),
        ("x ' y", [(IDENT, "x"), (SYMBOL, "'"), (IDENT, "y")]),
        ("x 'y z", [(IDENT, "x"), (SYMBOL, "'"), (IDENT, "y")]),  # nothing after it is skipped
        ("∑'x", [(SYMBOL, "∑'"), (IDENT, "x")]),
        ("''x", [(SYMBOL, "''"), (IDENT, "x")]),
        ("'a' = x ∑", [(CHAR, "'a'"), (SYMBOL, "=")]),  # nothing before the first quote
    ],
)
def test_quotes_after_big_operators_and_alone(text: str, expected: list[tuple[int, str]]) -> None:
    assert pairs(text)[: len(expected)] == expected


@pytest.mark.parametrize("text", ["∑'a'", "a ⊕'b' c", "x D/-- y", "a //-b"])
def test_a_token_whose_pieces_read_a_char_comment_or_string_is_a_fault(text: str) -> None:
    """Where the package that declares the token is not imported (or its notation not
    open) Lean reads the pieces: ``'a'`` a character, ``/--`` a comment. Two readings that
    disagree on that are a fault, whichever the file means."""
    assert lex(text).error is not None


@pytest.mark.parametrize(
    ("head", "closes"),
    [
        ("trace[cls]", True),  # the opener at index 1, the name at 0
        ("trace[a @[b]]", True),  # an attribute bracket inside the class
        ("trace[a %[b]]", True),
        ("trace[f (x)]", True),  # parentheses are not brackets
        ("trace[" + " ".join(["a"] * 198) + "]", True),  # the opener 200 tokens back
        ("x]", False),  # a `]` that opens nothing
        ("[x]", False),  # an opener with no name before it
        ("trace[" + " ".join(["a"] * 199) + "]", False),  # one more is too far
    ],
)
def test_which_closing_bracket_closes_a_trace_class(head: str, closes: bool) -> None:
    """After ``trace[cls]`` a string is interpolated, whichever way it would read plainly;
    after any other ``]`` it is plain (or, near a message-like name, read both ways)."""
    if closes:
        source = lex(head + ' "a{"}"}"')  # plain, it would end at its second quote
        assert source.error is None
        assert [v for k, v, _ in source.tokens if k == STRING] == ['"a{', '"}"', '}"']
    elif head.startswith("trace"):
        # too far to pair, but `trace` takes a message: read both ways, the hole is code
        assert "sorry" in code_in(head + ' "{sorry}"')
    else:
        assert "sorry" not in code_in(head + ' "{sorry}"')


def test_identifier_parts_split_at_dots_outside_guillemets() -> None:
    assert ident_parts("A.B.c") == ["A", "B", "c"]
    assert ident_parts("«a.b c».d") == ["a.b c", "d"]
    assert ident_name("«a b».«c»") == "a b.c"
