"""A lexer for Lean 4.30 source that reads comments, strings and names as Lean's tokenizer does.

Lean has no separate lexer: ``Lean.Parser.Basic`` (``whitespace``, ``finishCommentBlock``,
``tokenFnAux``, ``strLitFnAux``, ``charLitFnAux``, ``identFnAux``) tokenizes on demand while
parsing. This module reproduces those functions on every point that decides what is code and
what is not, because a scanner that reads a comment or a string differently from Lean can be
made to miss a ``sorry``:

* ``--`` starts a line comment wherever whitespace may start; ``/-`` starts a block comment
  whose *next character is consumed unread* (so ``/-/ -/`` is a complete comment), except that
  ``/--`` and ``/-!`` are doc and module-doc tokens whose bodies start right after the three
  characters; bodies nest on ``/-`` and end on ``-/``.
* a string literal ends at the first unescaped ``"``; an *interpolated* string (only where
  Lean's grammar puts one: after ``s!``, ``m!``, ``f!``, ``println!``, ``dbg_trace``,
  ``throwError``, ``throwErrorAt term``, ``trace[cls]``) also has ``{...}`` holes that are code
  and may hold further strings. When the syntax before a string is unknown but could take an
  interpolated string (an unknown ``name!`` macro, a ``throw…`` head), the string is read both
  ways: if both readings end at the same place, its holes are kept as code (the unsafer
  reading); if they end at different places the file is reported as undecidable.
* ``'`` starts a character literal unless the next character is ``'`` or the quote is the tail
  of a symbol such as ``∑'`` or ``⁻¹'``; a prime inside a name (``x'``) belongs to the name.
* ``«…»`` name parts, raw strings ``r#"…"#``, ``#exit`` (after which nothing exists).

Nothing here recurses: interpolation holes use an explicit stack, so hostile nesting costs
linear time, never a ``RecursionError``. Tokens are plain tuples ``(kind, text, offset)``
because a workspace has millions of them; lines are computed on demand.
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Final

from missions.lean.vocabulary import INTERPOLATING_WORDS, TABLE

IDENT: Final = 1
NUMBER: Final = 2
STRING: Final = 3
CHAR: Final = 4
SYMBOL: Final = 5
DOC: Final = 6  # /-- ... -/  (attaches to the next declaration)
MODDOC: Final = 7  # /-! ... -/
HASH: Final = 8  # #exit, #eval, #check, ...
NAME: Final = 9  # `name, ``name: a name literal (data, never a keyword)

KIND_NAMES: Final = {
    IDENT: "ident",
    NUMBER: "number",
    STRING: "string",
    CHAR: "char",
    SYMBOL: "symbol",
    DOC: "doc",
    MODDOC: "moddoc",
    HASH: "hash",
    NAME: "name",
}

Token = tuple[int, str, int]

# Lean.isLetterLike (core's Init/Meta.lean): Greek without λ, Π, Σ; Coptic; polytonic
# Greek; the letterlike block (ℝ, ℕ, ...); the mathematical alphanumerics; Latin-1 letters
# (without × and ÷) and Latin Extended-A (`borné` is an identifier).
_LETTER = (
    "\u03b1-\u03ba\u03bc-\u03c9"
    "\u0391-\u039f\u03a1\u03a2\u03a4-\u03a9"
    "\u03ca-\u03fb"
    "\u1f00-\u1ffe"
    "\u2100-\u214f"
    "\U0001d49c-\U0001d59f"
    "\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff"
    "\u0100-\u017f"
)
# Lean.isSubScriptAlnum
_SUBSCRIPT = "\u2080-\u2089\u2090-\u209c\u1d62-\u1d6a\u2c7c"
_ID_FIRST = f"A-Za-z_{_LETTER}"
_ID_REST = f"A-Za-z0-9_'!?{_LETTER}{_SUBSCRIPT}"
_ATOM = f"(?:[{_ID_FIRST}][{_ID_REST}]*|«[^»]*»)"

#: Whitespace as Lean's ``whitespace`` parser takes it (spaces, line breaks, a carriage return
#: only before a line feed: a tab or a lone carriage return is an error there), and line
#: comments; skipped before a token. Spaces and line feeds first, by the regular expression
#: engine's fast single-character loop: most tokens follow a space, and a group around them
#: cost the engine a loop of its own per token.
_SKIP = r"[ \n]*(?:(?:\r\n|--[^\n]*)[ \n]*)*"
_IDENT_START = re.compile(f"[{_ID_FIRST}«]")
_HASH_WORD = re.compile(r"\#[A-Za-z_][A-Za-z0-9_!?]*")


def _lexical(token: str) -> bool:
    """Whether Lean reading ``token`` whole (its tokenizer takes the longest token of its
    table) changes what this lexer sees as a comment, string or character: ``//`` before
    ``-`` is no comment, ``⊕'`` no character literal, ``#check'`` one command. Identifier-like
    tokens are read whole by the identifier pattern already, and a comment opener wins over
    any token in Lean's tokenizer too."""
    if len(token) < 2 or token.startswith(("--", "/-")) or _IDENT_START.match(token):
        return False
    if token[0] == "#":
        return _HASH_WORD.fullmatch(token) is None
    return token[0] == "/" or any(c in token[1:] for c in "'\"-/«")


_OPENERS: Final = frozenset("([{⟨⦃")
_CLOSERS: Final = frozenset(")]}⟩⦄")
#: Every character of every token of the pinned sources' syntax (a letter among them, `ᶠ` in
#: `∀ᶠ`, may be read as a symbol of its own here).
_TOKEN_CHARS: Final = frozenset("".join(TABLE["tokens"]))
#: Tokens that start like a name but go on with a character no name has (``D/``, ``D-``):
#: where one follows a name, the two readings are compared (see ``_Lexer._split_reading``).
_WORD_TOKENS: Final = tuple(
    sorted(
        (
            t
            for t in TABLE["tokens"]
            if _IDENT_START.match(t) and any(c in t for c in '"-/«') and len(t) > 1
        ),
        key=lambda t: (-len(t), t),
    )
)
_WORD_TOKEN_STARTS: Final = frozenset(t[0] for t in _WORD_TOKENS)
#: The symbol tokens of the pinned sources' syntax (the generated vocabulary) that this
#: lexer must read whole, longest first, as Lean's tokenizer does.
LEXICAL_TOKENS: Final = tuple(
    sorted((t for t in TABLE["tokens"] if _lexical(t)), key=lambda t: (-len(t), t))
)

#: One token after what is skipped. Names come before the table of symbol tokens (no token
#: of the table starts like a name: see `_lexical`), as they are the commonest tokens;
#: raw strings come before names (`r#"…"#` starts like one).
_TOKEN = re.compile(
    rf"""(?>{_SKIP})(?:
      (?P<raw>r\#*")
    | (?P<ident>{_ATOM}(?:\.{_ATOM})*)
    | (?P<table>{"|".join(re.escape(t) for t in LEXICAL_TOKENS)})
    | (?P<name>``?{_ATOM}(?:\.{_ATOM})*)
    | (?P<number>0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+
         |[0-9][0-9_]*(?:\.(?:[0-9]+|(?![.0-9])))?(?:[eE][+-]?[0-9]+)?)
    | (?P<hash>\#[A-Za-z_][A-Za-z0-9_!?]*)
    | (?P<block>/-)
    | (?P<quote>")
    | (?P<apos>')
    | (?P<guillemet>«)
    | (?P<symbol>:=|=>|->|<-|<;>|<\|>|\|>\.|\|>|<\||\.\.\.|\.\.|::|@\[|%\[|.)
    )""",
    re.VERBOSE | re.DOTALL,
)
_GROUPS: Final = _TOKEN.groupindex
_TABLE_GROUP: Final = _GROUPS["table"]
_RAW_GROUP: Final = _GROUPS["raw"]
_IDENT_GROUP: Final = _GROUPS["ident"]
_NAME_GROUP: Final = _GROUPS["name"]
_NUMBER_GROUP: Final = _GROUPS["number"]
_HASH_GROUP: Final = _GROUPS["hash"]
_BLOCK_GROUP: Final = _GROUPS["block"]
_QUOTE_GROUP: Final = _GROUPS["quote"]
_APOS_GROUP: Final = _GROUPS["apos"]
_SYMBOL_GROUP: Final = _GROUPS["symbol"]
#: Characters Lean's tokenizer rejects outside comments and strings, and that a reader may
#: not see: controls (a tab and a lone carriage return among them), format characters
#: (zero-width spaces, bidirectional overrides), surrogates, private use and every space but
#: the ASCII one.
_INVISIBLE = re.compile(
    "[\x00-\x0d\x0e-\x1f\x7f-\x9f\xa0\xad\u034f\u061c\u115f\u1160\u1680"
    "\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff\uffa0"
    "\ufff0-\ufffb\ue000-\uf8ff\U000e0000-\U000e0fff]"
)
_CHAR = re.compile(r"'(?:\\(?:[\\\"'rnt]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})|[^\\'])'", re.DOTALL)
_BLOCK_MARK = re.compile(r"/-|-/")
_PLAIN_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_PIECE = re.compile(r'(?:[^"\\{]|\\.)*', re.DOTALL)


#: Syntax that Lean parses with ``interpolatedStr(term)`` right before the string.
INTERPOLATION_HEADS: Final = frozenset({"s!", "m!", "f!", "println!", "dbg_trace", "throwError"})
#: Syntax with interpolated messages after some arguments, by how many come first
#: (``throwErrorAt ref "…"``, ``throwNamedError name "…"``, ``throwNamedErrorAt ref name "…"``).
INTERPOLATION_HEADS_WITH_ARGUMENTS: Final = {
    "throwErrorAt": 1,
    "throwNamedError": 1,
    "logNamedError": 1,
    "logNamedWarning": 1,
    "throwNamedErrorAt": 2,
    "logNamedErrorAt": 2,
    "logNamedWarningAt": 2,
}
#: Prefixes of names after which an unknown syntax could take an interpolated string: a
#: string shortly after one is read both ways.
_MESSAGE_PREFIXES: Final = ("throw", "log", "trace", "dbg", "panic", "println", "assert")
#: Words whose syntax in the pinned sources takes an interpolated string somewhere after them
#: (``aesop_trace[…] "…"``): a string shortly after one is read both ways too.
_INTERPOLATING: Final = frozenset(head.rstrip("[(") for head in INTERPOLATING_WORDS) | frozenset(
    INTERPOLATING_WORDS
)


class LexError(Exception):
    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


@dataclass
class Source:
    """Lean source text with its tokens, where ``#exit`` cut it off, and what went wrong."""

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


def skip_block_comment(text: str, body: int, start: int) -> int:
    """Offset just past the ``-/`` that closes a comment whose body starts at ``body``."""
    depth = 1
    search = _BLOCK_MARK.search
    pos = body
    while True:
        match = search(text, pos)
        if match is None:
            raise LexError(start, "unterminated comment")
        pos = match.end()
        if match.group() == "/-":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return pos


class _Lexer:
    """Tokenizes ``text``; one instance per reading (a string read both ways uses two, the
    second starting at that string)."""

    def __init__(
        self, text: str, *, stop_at_string_end: bool = False, lenient: bool = False
    ) -> None:
        self.text = text
        #: The generator's reading: a letter no table token holds is a one-character
        #: symbol, and a string that reads two ways is read as plain, not a fault.
        self.lenient = lenient
        self.pos = 0
        self.tokens: list[Token] = []
        self.exit_offset: int | None = None
        #: For a trial reading of one string: stop once the outermost string has ended.
        self.stop_at_string_end = stop_at_string_end
        #: Brace depth inside each open interpolation hole, innermost last.
        self.holes: list[int] = []
        #: Offsets of the strings that are still open around the current hole.
        self.open_strings: list[int] = []
        #: How many brackets are open (a `#exit` inside them is no command).
        self.depth = 0
        #: A word that may take an interpolated message came earlier in this command: a
        #: string after it, however far, is read both ways.
        self.message_head = False

    def run(self) -> int:
        """Lex to the end (or ``#exit``); return the offset where lexing stopped."""
        text, tokens, holes = self.text, self.tokens, self.holes
        n = len(text)
        match_token = _TOKEN.match
        append = tokens.append
        pos = self.pos
        while True:
            m = match_token(text, pos)
            if m is None:  # only whitespace and comments remain
                if holes:
                    raise LexError(self.open_strings[-1], "unterminated interpolated string")
                return n
            # the alternatives are the pattern's only capturing groups: the one that
            # matched is the last, and it ends the match
            group = m.lastindex
            assert group is not None  # every alternative is a group
            start, end = m.span(group)
            if start == 0 or text[start - 1] == "\n":
                self.message_head = False  # a new command: no message head is pending
            if group == _IDENT_GROUP:
                value = text[start:end]
                if value[0] in _WORD_TOKEN_STARTS:
                    for token in _WORD_TOKENS:  # `D/`: a token longer than the name
                        if text.startswith(token, start) and len(token) > len(value):
                            self._split_reading(start, len(value), token)
                append((IDENT, value, start))
                if _is_message_head(value):
                    self.message_head = True
            elif group == _SYMBOL_GROUP:
                value = text[start:end]
                if (
                    len(value) == 1
                    and not "!" <= value <= "~"  # printable ASCII: never in doubt
                    and (
                        _INVISIBLE.match(value)
                        or (
                            not self.lenient
                            and unicodedata.category(value)[0] == "L"
                            and value not in _TOKEN_CHARS
                        )
                    )
                ):
                    # a letter Lean's identifiers do not take (`é`) and no token holds
                    raise LexError(start, f"character U+{ord(value):04X} is not Lean syntax")
                if holes:
                    if value == "{":
                        holes[-1] += 1
                    elif value == "}":
                        if holes[-1] == 0:
                            holes.pop()
                            self.pos = start
                            if self._string_piece(start):
                                return self.pos
                            pos = self.pos
                            continue
                        holes[-1] -= 1
                if value in _OPENERS:
                    self.depth += 1
                elif value in _CLOSERS and self.depth:
                    self.depth -= 1
                append((SYMBOL, value, start))
            elif group == _NUMBER_GROUP:
                value = text[start:end]
                if start > 0 and text[start - 1] == "." and "." in value:
                    # after a dot a number is a field index (`h.1.2`), digits only
                    value = value[: value.index(".")]
                    end = start + len(value)
                append((NUMBER, value, start))
            elif group == _TABLE_GROUP:
                value = text[start:end]
                self._split_reading(start, 1, value)
                append((HASH if value[0] == "#" else SYMBOL, value, start))
                if value[-1] in _OPENERS:  # `∑'[`
                    self.depth += 1
            elif group == _NAME_GROUP:
                # `` `theorem `` and `` `Formal.goal ``: one token, a name, never a keyword
                append((NAME, text[start:end], start))
            elif group == _HASH_GROUP:
                value = text[start:end]
                after_in = bool(tokens) and tokens[-1][:2] == (IDENT, "in")
                if value == "#exit" and not holes and not self.depth and not after_in:
                    # the end only as a whole command: inside brackets (a quotation
                    # `(command| #exit)`) it is data, after `open Foo in` a command that
                    # only warns, and Lean reads on
                    self.exit_offset = start
                    return n
                append((HASH, value, start))
            elif group == _BLOCK_GROUP:
                end = self._comment(start)
            elif group == _QUOTE_GROUP:
                self.pos = start
                if self._string(start):
                    return self.pos
                pos = self.pos
                continue
            elif group == _APOS_GROUP:
                end = self._apostrophe(start)
            elif group == _RAW_GROUP:
                end = self._raw_string(start, end - start - 2)
            else:  # an unterminated guillemet
                raise LexError(start, "unterminated identifier escape «")
            if end >= n and not holes:
                return n
            pos = self.pos = end

    def _split_reading(self, start: int, first: int, token: str) -> None:
        """A token of the pinned sources' syntax is active only where its package is
        imported and its notation open (``D/`` is scoped to ``Dioph``, ``∑'`` is Mathlib's),
        and the token table read here is older than 4.30 for core. Where reading ``token``
        whole and reading it in pieces disagree about what is a comment, a string or a
        character literal (``D/--``, ``//-x``, ``⊕'"'``), the file means two things: a
        fault, never a guess."""
        text = self.text
        for k in range(first, len(token)):
            at = start + k
            if text.startswith(("--", "/-", '"'), at) or _CHAR.match(text, at):
                raise LexError(
                    start,
                    f"`{token}` here is one token where its syntax is active and pieces "
                    "where it is not, and the two readings differ on what is a comment, a "
                    "string or a character: add a space",
                )

    # ------------------------------------------------------------- comments
    def _comment(self, start: int) -> int:
        text = self.text
        after = text[start + 2 : start + 3]
        if after in ("-", "!"):
            end = skip_block_comment(text, start + 3, start)
            self.tokens.append((DOC if after == "-" else MODDOC, text[start:end], start))
            return end
        # `whitespace` consumes the character after `/-` without looking at it
        return skip_block_comment(text, start + 3, start)

    # -------------------------------------------------------------- strings
    def _string(self, start: int) -> bool:
        """Lex the string at ``start``; True when a trial reading has reached its end."""
        mode = self._string_mode()
        if mode == "plain":
            self._plain_string(start)
        elif mode == "interpolated":
            self.open_strings.append(start)
            self._string_piece(start + 1, opening=start)
        else:
            self._ambiguous_string(start)
        return self.stop_at_string_end and not self.holes

    def _plain_string(self, start: int) -> None:
        m = _PLAIN_STRING.match(self.text, start)
        if m is None:
            raise LexError(start, "unterminated string literal")
        self.tokens.append((STRING, m.group(), start))
        self.pos = m.end()

    def _string_piece(self, pos: int, *, opening: int | None = None) -> bool:
        """Lex one literal piece of an interpolated string (after ``"`` or a hole's ``}``,
        which the piece pattern takes as an ordinary character).

        Returns True when a trial reading has closed its outermost string.
        """
        text = self.text
        piece_start = opening if opening is not None else pos
        m = _PIECE.match(text, pos)
        assert m is not None  # the pattern accepts the empty string
        end = m.end()
        if end >= len(text):
            raise LexError(self.open_strings[-1], "unterminated interpolated string")
        if text[end] == "{":
            self.tokens.append((STRING, text[piece_start : end + 1], piece_start))
            self.holes.append(0)
            self.pos = end + 1
            return False
        # the closing quote
        self.tokens.append((STRING, text[piece_start : end + 1], piece_start))
        self.open_strings.pop()
        self.pos = end + 1
        return self.stop_at_string_end and not self.holes

    def _string_mode(self) -> str:
        """plain, interpolated, or ambiguous, from the syntax right before the string."""
        tokens = self.tokens
        if not tokens:
            return "plain"
        kind, value, _ = tokens[-1]
        if kind == IDENT and value in INTERPOLATION_HEADS and not _is_field(tokens, -1):
            return "interpolated"
        if kind == SYMBOL and value == "]" and _closes_trace_class(tokens):
            return "interpolated"
        for back, head in enumerate(reversed(tokens[-3:-1]), start=1):
            if INTERPOLATION_HEADS_WITH_ARGUMENTS.get(head[1]) == back and not _is_field(
                tokens, -1 - back
            ):
                return "interpolated"
        if self.message_head:
            # `throwErrorAt <a long ref> "…"`, an unknown `name!`, `(x).throwError "…"`
            return "ambiguous"
        return "plain"

    def _ambiguous_string(self, start: int) -> None:
        """Read a string whose syntax is unknown both ways; keep the unsafer reading."""
        plain = _PLAIN_STRING.match(self.text, start)
        trial = _Lexer(self.text, stop_at_string_end=True, lenient=self.lenient)
        trial.open_strings.append(start)
        interpolated_end: int | None
        try:
            if not trial._string_piece(start + 1, opening=start):
                trial.run()
            interpolated_end = trial.pos
        except LexError:
            interpolated_end = None  # the interpolated reading is impossible
        if interpolated_end is None:
            if plain is None:
                raise LexError(start, "unterminated string literal")
            self.tokens.append((STRING, plain.group(), start))
            self.pos = plain.end()
        elif plain is None or interpolated_end == plain.end():
            # same extent: the holes are code in one reading, so keep them as code
            self.tokens.extend(trial.tokens)
            self.pos = interpolated_end
        elif self.lenient:
            self.tokens.append((STRING, plain.group(), start))
            self.pos = plain.end()
        else:
            raise LexError(
                start,
                "this string reads differently as a plain and as an interpolated string, "
                'and the syntax before it is unknown (write s!"…" or avoid braces)',
            )

    def _raw_string(self, start: int, hashes: int) -> int:
        closing = '"' + "#" * hashes
        body = start + 2 + hashes
        end = self.text.find(closing, body)
        if end < 0:
            raise LexError(start, "unterminated raw string literal")
        end += len(closing)
        self.tokens.append((STRING, self.text[start:end], start))
        return end

    # ------------------------------------------------------------ quotes
    def _apostrophe(self, start: int) -> int:
        """A quote no table token took (``∑'``, ``⊕'`` are read whole before this): a
        character literal, or Lean's ``''`` (a name quotation) or a stray quote."""
        text = self.text
        if text.startswith("''", start):
            self.tokens.append((SYMBOL, "''", start))
            return start + 2
        m = _CHAR.match(text, start)
        if m is None:
            self.tokens.append((SYMBOL, "'", start))
            return start + 1
        self.tokens.append((CHAR, m.group(), start))
        return m.end()


@functools.lru_cache(maxsize=8192)
def _is_message_head(word: str) -> bool:
    """Whether a word may take an interpolated string after it (perhaps after arguments)."""
    return (
        word in INTERPOLATION_HEADS
        or word in INTERPOLATION_HEADS_WITH_ARGUMENTS
        or word in _INTERPOLATING
        or word.endswith("!")
        or word.startswith(_MESSAGE_PREFIXES)
    )


def _is_field(tokens: list[Token], index: int) -> bool:
    """Whether ``tokens[index]`` follows a ``.`` with no space: a field name to Lean
    (``(b).throwError``), which is no message head."""
    if len(tokens) < 1 - index:
        return False
    kind, text, offset = tokens[index - 1]
    return kind == SYMBOL and text in (".", "|>.") and offset + len(text) == tokens[index][2]


def _matching_open(tokens: list[Token], close: int, limit: int = 200) -> int | None:
    """Index of the bracket that ``tokens[close]`` closes, looking back at most ``limit``."""
    closer = tokens[close][1]
    opener = {")": "(", "]": "[", "}": "{"}[closer]
    depth = 0
    for j in range(close, max(-1, close - limit), -1):
        kind, value, _ = tokens[j]
        if kind != SYMBOL:
            continue
        if value == closer:
            depth += 1
        elif value == opener or (opener == "[" and value in ("@[", "%[")):
            depth -= 1
            if depth == 0:
                return j
    return None


def _closes_trace_class(tokens: list[Token]) -> bool:
    """Whether the last token ``]`` closes ``trace[cls]`` (whose message is interpolated)."""
    opener = _matching_open(tokens, len(tokens) - 1)
    if opener is None:
        return False
    # an opener at index 0 has no name before it: tokens[-1] is then the `]` itself
    head_kind, head, head_offset = tokens[opener - 1]
    return head_kind == IDENT and head == "trace" and head_offset + 5 == tokens[opener][2]


def lex(text: str, *, lenient: bool = False) -> Source:
    """Tokenize Lean source. Lexical errors are recorded on the result, never raised.

    ``lenient`` is the vocabulary generator's reading: it reads the files that declare tokens
    (``𝐞``, ``⁻¹ᵁ``) before the table knows them, so a letter no token holds is a symbol,
    and a string whose syntax is unknown both ways is taken as plain (real code writes its
    interpolating head right before the string). The scanner never uses it: for Lean such a
    letter is an error, and a string read the wrong way hides code.
    """
    lexer = _Lexer(text, lenient=lenient)
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
    current: list[str] = []
    inside = False
    for c in name:
        if inside:
            if c == "»":
                inside = False
            else:
                current.append(c)
        elif c == "«":
            inside = True
        elif c == ".":
            parts.append("".join(current))
            current = []
        else:
            current.append(c)
    parts.append("".join(current))
    return parts


def ident_name(name: str) -> str:
    """The dotted name an identifier denotes, with «» escapes removed."""
    return name if "«" not in name else ".".join(ident_parts(name))
