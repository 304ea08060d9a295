"""Lexer edge cases: each one is a place where a regex over raw text goes wrong."""

from __future__ import annotations

import pytest

from missions.lean.lexer import (
    CHAR,
    DOC,
    HASH,
    IDENT,
    MODDOC,
    NUMBER,
    STRING,
    SYMBOL,
    ident_name,
    lex,
)


def kinds(text: str) -> list[tuple[int, str]]:
    return [(kind, value) for kind, value, _ in lex(text).tokens]


def idents(text: str) -> list[str]:
    return [value for kind, value, _ in lex(text).tokens if kind == IDENT]


def test_nested_block_comment_hides_everything_inside() -> None:
    assert idents("a /- b /- sorry -/ still comment -/ c") == ["a", "c"]


def test_line_comment_ends_at_newline() -> None:
    assert idents("a -- sorry here\nb") == ["a", "b"]


def test_doc_and_module_comments_are_tokens_not_code() -> None:
    source = "/-! module doc with sorry -/\n/-- doc /- nested -/ sorry -/\ndef x := 1"
    tokens = kinds(source)
    assert tokens[0][0] == MODDOC and tokens[1][0] == DOC
    assert "sorry" not in idents(source)


def test_comment_markers_inside_strings_are_text() -> None:
    assert idents('def s := "-- not a comment /- nor this" \nsorry') == ["def", "s", "sorry"]


def test_string_escapes_do_not_end_the_string() -> None:
    tokens = kinds(r'x "a \" sorry \\" y')
    assert tokens == [(IDENT, "x"), (STRING, r'"a \" sorry \\"'), (IDENT, "y")]


def test_interpolated_string_holes_are_code() -> None:
    assert "sorry" in idents('s!"value {sorry} here"')
    assert "sorry" not in idents('"value {sorry} here"')


def test_interpolation_with_nested_braces_and_strings() -> None:
    tokens = idents('s!"a {f {x := 1} "}"} b" after')
    assert tokens == ["s!", "f", "x", "after"]


def test_raw_strings_with_hashes() -> None:
    tokens = kinds('r#"a "quoted" sorry"# rest')
    assert tokens == [(STRING, 'r#"a "quoted" sorry"#'), (IDENT, "rest")]
    assert kinds('r"x\\"') == [(STRING, 'r"x\\"')]


def test_char_literals_versus_primes_in_names() -> None:
    tokens = kinds("x' = 'a' ∧ f'' '\\n' '\\'' h'.1")
    assert (IDENT, "x'") in tokens
    assert (IDENT, "f''") in tokens
    assert (CHAR, "'a'") in tokens
    assert (CHAR, "'\\n'") in tokens
    assert (CHAR, "'\\''") in tokens
    assert (IDENT, "h'") in tokens


def test_guillemet_names() -> None:
    tokens = idents("theorem «my sorry lemma».«x y» : True")
    assert tokens[1] == "«my sorry lemma».«x y»"
    assert ident_name(tokens[1]) == "my sorry lemma.x y"
    assert "sorry" not in tokens


def test_unicode_identifiers_follow_lean_rules() -> None:
    assert idents("α₁ ℝ β' 𝔼 x_1") == ["α₁", "ℝ", "β'", "𝔼", "x_1"]
    # λ, Π and Σ are not letters in Lean
    assert (SYMBOL, "λ") in kinds("λ x")


def test_dotted_names_and_projections() -> None:
    assert kinds("Foo.bar.baz h.1") == [
        (IDENT, "Foo.bar.baz"),
        (IDENT, "h"),
        (SYMBOL, "."),
        (NUMBER, "1"),
    ]


def test_numbers() -> None:
    assert [v for k, v in kinds("0x1F 0b101 3.14 2e10 1_000") if k == NUMBER] == [
        "0x1F",
        "0b101",
        "3.14",
        "2e10",
        "1_000",
    ]


def test_exit_cuts_the_file() -> None:
    source = lex("theorem a : True := trivial\n#exit\ntheorem b : False := sorry")
    assert source.exit_offset is not None
    assert "sorry" not in [v for _, v, _ in source.tokens]
    assert source.line(source.exit_offset) == 2


def test_exit_inside_comment_or_string_does_not_cut() -> None:
    source = lex('/- #exit -/ "#exit" -- #exit\ntheorem b : False := sorry')
    assert source.exit_offset is None
    assert "sorry" in [v for _, v, _ in source.tokens]


def test_hash_commands_and_array_literals() -> None:
    assert kinds("#eval 1 #[1]")[:2] == [(HASH, "#eval"), (NUMBER, "1")]
    assert (SYMBOL, "#") in kinds("#[1]")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("/- open", "unterminated comment"),
        ('"open', "unterminated string literal"),
        ('r#"open"', "unterminated raw string literal"),
        ('s!"{x"', "unterminated"),
    ],
)
def test_lexical_errors_are_recorded_with_position(text: str, message: str) -> None:
    source = lex("def a := 1\n" + text)
    assert source.error is not None
    assert message in source.error.message
    assert source.line(source.error.offset) == 2


def test_lines_and_columns() -> None:
    source = lex("a\n  bc\n")
    offset = source.tokens[1][2]
    assert source.line(offset) == 2
    assert source.column(offset) == 2


def test_column_before_any_line_lookup() -> None:
    source = lex("ab\n  cd")
    assert source.column(source.tokens[1][2]) == 2


@pytest.mark.parametrize("char", ["\u00a0", "\u200b", "\u202e", "\ufeff", "\x0c", "\u3000"])
def test_a_character_lean_rejects_outside_strings_and_comments_is_a_fault(char: str) -> None:
    """Lean separates tokens by ASCII spaces, tabs and line breaks only; a no-break or
    zero-width space or a bidirectional override in code stops its tokenizer, so the file is
    never checked (and may not read as it looks)."""
    source = lex(f"theorem t : True := by{char}trivial\n")
    assert source.error is not None and f"U+{ord(char):04X}" in source.error.message
    assert lex(f'def s := "a{char}b" -- {char}\n/- {char} -/').error is None
