"""The hypotheses of a Prop-valued statement, read from its Lean tokens.

A witness shows that a statement is not vacuous by exhibiting one instance that satisfies
every hypothesis the statement assumes. So that nobody has to trust a hand-copied list, the
hypotheses are read from the Lean source: the premises of the statement's telescope
``∀ binders, H₁ → H₂ → …`` (instance binders ``[C x]`` and binder predicates ``∀ x ∈ S``
included), descending through ``∀``, ``∀ᵐ``/``∀ᶠ``, ``∧`` and parentheses, and expanding a
conjunct that names another statement of the same file (``Goal := PartA ∧ PartB``) into that
statement's hypotheses, prefixed ``PartA: ``. Conclusions (``∃``, ``¬``, ``↔``, relations) end
the walk. Each hypothesis is its source text with runs of whitespace collapsed, which is what
witnesses label their checks with.

This is a reading of the statement's shape, not an elaborator: it follows Lean's precedences
for ``→`` (25, right), ``∧`` (35) and ``↔`` (20) and the rule that a binder (``∀``, ``∃``,
``fun``, ``λ``) extends as far right as possible, which is all the statements' telescopes use.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from missions.lean.lexer import DOC, IDENT, MODDOC, SYMBOL, Token, ident_name, lex
from missions.roots import read_lean_text

if TYPE_CHECKING:
    from missions.lean.workspace import Workspace

OPEN = {"(": ")", "[": "]", "{": "}", "⦃": "⦄", "⟨": "⟩"}
CLOSE = frozenset(OPEN.values())
#: Binders whose body extends as far right as possible.
FULL_BINDERS = frozenset({"∀", "∃", "∃!", "fun", "λ", "∀ᵐ", "∀ᶠ", "∃ᶠ", "∃ᵐ", "Π", "Σ"})
#: Binders that quantify without adding a hypothesis, and whose body may hold more premises.
FORALLS = frozenset({"∀", "∀ᵐ", "∀ᶠ"})
#: Big operators: ``∑ x ∈ s, f x`` binds tighter than ``→``, but its binder part (before the
#: comma) may hold arrows of its own (``∫ ξ : Fin n → ℝ, …``), which are skipped.
BIG_OPERATORS = frozenset({"∑", "∏", "∫", "⨆", "⨅", "⋃", "⋂", "∑'", "∏'"})
BINDER_PREDICATES = frozenset({"∈", "∉", "<", "≤", ">", "≥", "≠", "⊆", "⊂"})
COMMANDS = frozenset(
    {
        "def",
        "theorem",
        "lemma",
        "abbrev",
        "instance",
        "structure",
        "class",
        "inductive",
        "end",
        "namespace",
        "section",
        "open",
        "variable",
        "noncomputable",
        "private",
        "protected",
        "example",
        "@[",
        "attribute",
    }
)


class PremiseError(ValueError):
    """The statement could not be found or read."""


def _depth_map(tokens: list[Token]) -> list[int]:
    """Bracket depth before each token."""
    depths, depth = [], 0
    for _, text, _ in tokens:
        depths.append(depth)
        if text in OPEN:
            depth += 1
        elif text in CLOSE:
            depth = max(0, depth - 1)
    return depths


def _binder_token(tokens: list[Token], i: int) -> bool:
    """``∀``, ``∃``, ... (``∀ᵐ`` lexes as ``∀`` followed by the identifier ``ᵐ``)."""
    text = tokens[i][1]
    if text in ("fun", "λ") and tokens[i][0] == IDENT:
        return True
    return text in FULL_BINDERS


def _binder_kind(tokens: list[Token], i: int) -> tuple[str, int]:
    """The binder at ``i`` and the index after it (joins ``∀`` ``ᵐ`` into ``∀ᵐ``)."""
    text = tokens[i][1]
    if text in ("∀", "∃") and i + 1 < len(tokens):
        _, nxt, offset = tokens[i + 1]
        adjacent = offset == tokens[i][2] + len(text)
        if adjacent and nxt in ("ᵐ", "ᶠ"):
            return text + nxt, i + 2
        if adjacent and nxt == "!":
            return text + nxt, i + 2
    return text, i + 1


class _Reader:
    def __init__(self, text: str, tokens: list[Token], defs: dict[str, tuple[int, int]]) -> None:
        self.text = text
        self.tokens = tokens
        self.depth = _depth_map(tokens)
        self.defs = defs
        self.expanding: set[str] = set()

    def source(self, begin: int, end: int) -> str:
        start = self.tokens[begin][2]
        last = self.tokens[end - 1]
        return re.sub(r"\s+", " ", self.text[start : last[2] + len(last[1])]).strip()

    def strip_parens(self, begin: int, end: int) -> tuple[int, int]:
        while end - begin >= 2 and self.tokens[begin][1] == "(" and self.tokens[end - 1][1] == ")":
            base = self.depth[begin]
            inner = all(self.depth[j] > base for j in range(begin + 1, end - 1))
            if not inner:
                break
            begin, end = begin + 1, end - 1
        return begin, end

    def premises(self, begin: int, end: int) -> list[str]:
        begin, end = self.strip_parens(begin, end)
        if begin >= end:
            return []
        if _binder_token(self.tokens, begin):
            kind, after = _binder_kind(self.tokens, begin)
            if kind not in FORALLS:
                return []  # ∃, fun, ...: a conclusion
            comma = self.top_level(after, end, ",")
            if comma is None:
                return []
            found = self.binders(after, comma) if kind == "∀" else []
            return found + self.premises(comma + 1, end)
        base = self.depth[begin]
        arrows, conjunctions, iff = [], [], False
        skip_to = begin
        for j in range(begin, end):
            if self.depth[j] != base or j < skip_to:
                continue
            if self.tokens[j][1] in BIG_OPERATORS:
                comma = self.top_level(j + 1, end, ",")
                skip_to = end if comma is None else comma + 1
                continue
            if _binder_token(self.tokens, j) and j > begin:
                break  # the binder's body runs to the end: later operators are inside it
            text = self.tokens[j][1]
            if text == "→":
                arrows.append(j)
                break  # right associative: the rest is the first arrow's right side
            if text == "↔":
                iff = True
            elif text == "∧":
                conjunctions.append(j)
        if iff:
            return []
        if arrows:
            j = arrows[0]
            return [self.source(begin, j), *self.premises(j + 1, end)]
        if conjunctions:
            conjunct: list[str] = []
            start = begin
            for j in [*conjunctions, end]:
                conjunct.extend(self.premises(start, j))
                start = j + 1
            return conjunct
        if end - begin == 1 and self.tokens[begin][0] == IDENT:
            return self.expand(ident_name(self.tokens[begin][1]))
        return []

    def expand(self, name: str) -> list[str]:
        """A conjunct naming another statement of the file: its hypotheses, prefixed."""
        short = name.rsplit(".", 1)[-1]
        if short not in self.defs or short in self.expanding:
            return []
        self.expanding.add(short)
        begin, end = self.defs[short]
        found = [f"{short}: {h}" for h in self.premises(begin, end)]
        self.expanding.discard(short)
        return found

    def top_level(self, begin: int, end: int, symbol: str) -> int | None:
        base = self.depth[begin] if begin < end else 0
        for j in range(begin, end):
            if self.depth[j] == base and self.tokens[j][1] == symbol:
                return j
        return None

    def binders(self, begin: int, end: int) -> list[str]:
        """Hypotheses among binders: instance binders and a trailing binder predicate."""
        found: list[str] = []
        j = begin
        while j < end:
            text = self.tokens[j][1]
            if text in OPEN:
                close = j + 1
                while close < end and not (
                    self.depth[close] == self.depth[j] + 1 and self.tokens[close][1] in CLOSE
                ):
                    close += 1
                if text == "[":
                    found.append(self.source(j, close + 1))
                j = close + 1
                continue
            if self.tokens[j][0] == SYMBOL and text in BINDER_PREDICATES:
                # `∀ x ∈ S,` (or `∀ k < K,`): the bound names precede, the predicate follows
                first = j - 1
                while first > begin and self.tokens[first - 1][0] == IDENT:
                    first -= 1
                found.append(self.source(first, end))
                break
            j += 1
        return found


def _statement_defs(tokens: list[Token]) -> dict[str, tuple[int, int]]:
    """``def Name : Prop := body`` of the file: name -> token range of the body."""
    found: dict[str, tuple[int, int]] = {}
    i = 0
    n = len(tokens)
    while i < n:
        kind, text, _ = tokens[i]
        if kind == IDENT and text == "def" and i + 1 < n and tokens[i + 1][0] == IDENT:
            name = ident_name(tokens[i + 1][1]).rsplit(".", 1)[-1]
            j = i + 2
            while j < n and tokens[j][1] != ":=":
                j += 1
            body = j + 1
            k = body
            while k < n and not _starts_command(tokens, k):
                k += 1
            found[name] = (body, k)
            i = k
            continue
        i += 1
    return found


def _starts_command(tokens: list[Token], k: int) -> bool:
    kind, text, _ = tokens[k]
    return kind in (DOC, MODDOC) or (kind in (IDENT, SYMBOL) and text in COMMANDS)


def statement_hypotheses(text: str, name: str) -> list[str]:
    """The hypotheses of ``def name`` in the Lean source ``text``, in order, without repeats."""
    source = lex(text)
    defs = _statement_defs(source.tokens)
    short = name.rsplit(".", 1)[-1]
    if short not in defs:
        raise PremiseError(f"no `def {short}` in the statement file")
    reader = _Reader(source.text, source.tokens, defs)
    reader.expanding.add(short)
    begin, end = defs[short]
    return list(dict.fromkeys(reader.premises(begin, end)))


def workspace_hypotheses(workspace: Workspace, statement: str) -> list[str] | None:
    """The hypotheses of the statement named ``statement`` in a scanned workspace, or None
    when it cannot be found or read (the caller then cannot compare a witness with it)."""
    found = workspace.lookup(statement)
    if len(found) != 1:
        return None
    module, _ = found[0]
    try:
        return statement_hypotheses(read_lean_text(str(module.path)), statement)
    except (OSError, UnicodeDecodeError, PremiseError):
        return None
