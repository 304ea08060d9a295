"""A lexer for Lean 4 source, faithful where it matters for finding proofs and tricks.

It follows Lean's own tokenizer on the points a regular expression over raw text gets
wrong: nested block comments, doc and module comments, string escapes and ``s!``
interpolation (whose ``{...}`` holes are code), raw strings ``r#"..."#``, character literals
versus primes in names (``x'``), ``«guillemet»`` name parts, and ``#exit`` (after which
nothing exists). Identifier characters follow ``Lean.isIdFirst``/``isIdRest``.

Tokens are plain tuples ``(kind, text, offset)`` because a workspace has millions of them;
lines are computed on demand with :meth:`Source.line`.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Final

IDENT: Final = 1
NUMBER: Final = 2
STRING: Final = 3
CHAR: Final = 4
SYMBOL: Final = 5
DOC: Final = 6  # /-- ... -/  (attaches to the next declaration)
MODDOC: Final = 7  # /-! ... -/
HASH: Final = 8  # #exit, #eval, #check, ...

KIND_NAMES: Final = {
    IDENT: "ident",
    NUMBER: "number",
    STRING: "string",
    CHAR: "char",
    SYMBOL: "symbol",
    DOC: "doc",
    MODDOC: "moddoc",
    HASH: "hash",
}

Token = tuple[int, str, int]


def _letter_like_class() -> str:
    # Lean.isLetterLike: Greek (without λ, Π, Σ), Coptic, polytonic Greek,
    # letterlike symbols (ℝ, ℕ, ...) and mathematical alphanumerics.
    return (
        "\u03b1-\u03ba\u03bc-\u03c9"
        "\u0391-\u039f\u03a1\u03a2\u03a4-\u03a9"
        "\u03ca-\u03fb"
        "\u1f00-\u1ffe"
        "\u2100-\u214f"
        "\U0001d49c-\U0001d59f"
    )


_LETTER = _letter_like_class()
_SUBSCRIPT = "\u2080-\u2089\u2090-\u209c\u1d62-\u1d6a"
_ID_FIRST = f"A-Za-z_{_LETTER}"
_ID_REST = f"A-Za-z0-9_'!?{_LETTER}{_SUBSCRIPT}"
_ATOM = f"(?:[{_ID_FIRST}][{_ID_REST}]*|«[^»]*»)"

_SIMPLE = re.compile(
    rf"""
    (?P<ws>\s+)
  | (?P<line>--[^\n]*)
  | (?P<ident>{_ATOM}(?:\.{_ATOM})*)
  | (?P<number>0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+
       |[0-9][0-9_]*(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)
  | (?P<hash>\#[A-Za-z_][A-Za-z0-9_!?]*)
  | (?P<symbol>:=|=>|<;>|<\|>|\|>\.|\|>|<\||\.\.\.|\.\.|::|@\[|←|→|↔|≤|≥|≠|\S)
    """,
    re.VERBOSE,
)
_CHAR = re.compile(r"'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\'\n])'")
_RAW_START = re.compile(r'r(#*)"')
_BLOCK = re.compile(r"/-|-/")
_STRING_BODY = re.compile(r'[^"\\{]+|\\.|\{|"', re.DOTALL)

#: Heads whose string argument is an interpolated string: its ``{...}`` holes are code.
INTERPOLATION_HEADS: Final = frozenset(
    {
        "throwError",
        "throwErrorAt",
        "logInfo",
        "logInfoAt",
        "logWarning",
        "logWarningAt",
        "logError",
        "logErrorAt",
        "dbg_trace",
    }
)


class LexError(Exception):
    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


@dataclass
class Source:
    """Lean source text with its tokens and where ``#exit`` cut it off."""

    text: str
    tokens: list[Token] = field(default_factory=list)
    exit_offset: int | None = None
    error: LexError | None = None
    _line_starts: list[int] = field(default_factory=list, repr=False)

    def line(self, offset: int) -> int:
        """1-based line number of a character offset."""
        if not self._line_starts:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        return bisect.bisect_right(self._line_starts, offset)

    def column(self, offset: int) -> int:
        line = self.line(offset)
        return offset - self._line_starts[line - 1]


def _skip_block_comment(text: str, start: int) -> int:
    """Offset just past the ``-/`` closing the (nested) block comment opened at ``start``."""
    depth = 1
    pos = start + 2
    while True:
        match = _BLOCK.search(text, pos)
        if match is None:
            raise LexError(start, "unterminated comment")
        depth += 1 if match.group() == "/-" else -1
        pos = match.end()
        if depth == 0:
            return pos


class _Lexer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[Token] = []
        self.exit_offset: int | None = None

    def run(self) -> None:
        end = self._lex(0, closing_brace=False)
        if end < len(self.text) and self.exit_offset is None:
            raise LexError(end, "unexpected '}'")

    def _lex(self, pos: int, *, closing_brace: bool) -> int:
        """Lex from ``pos``; inside an interpolation hole stop at its closing brace."""
        text, tokens = self.text, self.tokens
        n = len(text)
        depth = 0
        simple = _SIMPLE.match
        while pos < n:
            c = text[pos]
            if c == "/" and text.startswith("/-", pos):
                end = _skip_block_comment(text, pos)
                if text.startswith("/--", pos) and not text.startswith("/--/", pos):
                    tokens.append((DOC, text[pos:end], pos))
                elif text.startswith("/-!", pos):
                    tokens.append((MODDOC, text[pos:end], pos))
                pos = end
                continue
            if c == '"':
                pos = self._string(pos, interpolated=self._interpolating())
                continue
            if c == "r":
                raw = _RAW_START.match(text, pos)
                if raw is not None:
                    pos = self._raw_string(pos, raw)
                    continue
            if c == "'":
                char = _CHAR.match(text, pos)
                if char is not None:
                    tokens.append((CHAR, char.group(), pos))
                    pos = char.end()
                    continue
            match = simple(text, pos)
            assert match is not None  # \S always matches
            kind = match.lastgroup
            if kind == "ws" or kind == "line":
                pos = match.end()
                continue
            value = match.group()
            if kind == "ident":
                tokens.append((IDENT, value, pos))
            elif kind == "number":
                tokens.append((NUMBER, value, pos))
            elif kind == "hash":
                if value == "#exit":
                    self.exit_offset = pos
                    return n
                tokens.append((HASH, value, pos))
            else:
                if closing_brace:
                    if value == "{":
                        depth += 1
                    elif value == "}":
                        if depth == 0:
                            return match.end()
                        depth -= 1
                tokens.append((SYMBOL, value, pos))
            pos = match.end()
        if closing_brace:
            raise LexError(pos, "unterminated interpolation in string")
        return pos

    def _interpolating(self) -> bool:
        if not self.tokens:
            return False
        kind, value, _ = self.tokens[-1]
        return kind == IDENT and (value.endswith("!") or value in INTERPOLATION_HEADS)

    def _string(self, start: int, *, interpolated: bool) -> int:
        text = self.text
        pos = start + 1
        piece_start = start
        while True:
            match = _STRING_BODY.match(text, pos)
            if match is None:
                raise LexError(start, "unterminated string literal")
            part = match.group()
            pos = match.end()
            if part == '"':
                self.tokens.append((STRING, text[piece_start:pos], piece_start))
                return pos
            if part == "{" and interpolated:
                self.tokens.append((STRING, text[piece_start:pos], piece_start))
                pos = self._lex(pos, closing_brace=True)
                if self.exit_offset is not None:
                    return len(text)
                piece_start = pos - 1

    def _raw_string(self, start: int, match: re.Match[str]) -> int:
        closing = '"' + match.group(1)
        end = self.text.find(closing, match.end())
        if end < 0:
            raise LexError(start, "unterminated raw string literal")
        end += len(closing)
        self.tokens.append((STRING, self.text[start:end], start))
        return end


def lex(text: str) -> Source:
    """Tokenize Lean source. Lexical errors are recorded on the result, never raised."""
    lexer = _Lexer(text)
    source = Source(text=text)
    try:
        lexer.run()
    except LexError as error:
        source.error = error
    source.tokens = lexer.tokens
    source.exit_offset = lexer.exit_offset
    return source


def ident_parts(name: str) -> list[str]:
    """Split a lexed identifier into its components, removing «» escapes."""
    if "«" not in name:
        return name.split(".")
    parts: list[str] = []
    current = ""
    inside = False
    for c in name:
        if inside:
            if c == "»":
                inside = False
            else:
                current += c
        elif c == "«":
            inside = True
        elif c == ".":
            parts.append(current)
            current = ""
        else:
            current += c
    parts.append(current)
    return parts


def ident_name(name: str) -> str:
    """The dotted name an identifier denotes, with «» escapes removed."""
    return name if "«" not in name else ".".join(ident_parts(name))
