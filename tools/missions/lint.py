"""Source-level lints on statement closures: the traps that make a statement vacuous or junk.

A statement library fails more often by a wrong statement than by a wrong proof: hypotheses
that never hold together, an integral or a division whose junk value decides the claim, an
``∃ x, P x → Q x`` that any ``x`` falsifying ``P`` satisfies, natural-number subtraction, a
derivative of a function that is not differentiable. These lints read the Lean sources of each
mission's statement closure (its Statements module and every workspace module it imports) for
the known traps. They cannot type-check, so each rule says below exactly what it recognizes.
Where a dangerous rule cannot decide, it reports a finding the author can accept with a reason
rather than stay silent; the style rule (``type-universe``) stays silent when in doubt.

What is linted: every declaration of the closure. Definitions, abbreviations and structures
are read whole; theorems, lemmas, instances and examples only up to ``:=`` (a proof cannot
make a statement junk). Doc comments and comments are never read as code.

Scopes. A *hypothesis bundle* is a structure or class, or a ``Prop``-valued definition. The
*scope* of a declaration is its own tokens (binders, ``∀``-binders, ``→`` premises and the
conclusion alike) together with the fields and bodies of every hypothesis bundle it mentions,
transitively through bundles (a structure's parents included, since ``extends`` names them).
A *root* is a mission's target statement; a closure declaration that no root reaches is its
own root. Names are matched by their last component against the declarations of the closure,
which over-approximates what a name can denote.

Rules (stable ids):

``exists-implies``
    ``∃ x, … → …`` (also ``∃!`` and ``Exists fun x => …``) whose body has an implication at
    its top level: the body runs from the binder's comma to the closing bracket, comma,
    ``:=`` or ``|`` that ends it; an arrow inside brackets, after a nested binder (``∀``,
    ``∃``, ``fun``) or after a top-level ``↔`` is not the body's own.
``missing-integrability``
    ``∫`` (not ``∫⁻``, which has no junk value), ``⨍``, ``𝔼``, ``𝓕`` and the Mathlib
    functions ``integral``, ``intervalIntegral``, ``setIntegral``, ``condExp``, ``variance``,
    ``covariance``, ``Var``, ``cov``, ``condVar``, ``moment``, ``centralMoment``, ``mgf``,
    ``cgf``, ``fourierIntegral``, ``fourierCoeff``, ``fourierCoeffOn`` (a name that is a
    closure declaration is the workspace's own, not Mathlib's), when a root that reaches it
    has no ``Integrable``, ``IntegrableOn``, ``IntervalIntegrable``, ``LocallyIntegrable``,
    ``HasFiniteIntegral`` or ``MemLp`` in its scope, nor the declaration holding it in its
    own. The guard is not matched to the integrand: any such predicate in scope counts.
``missing-summability``
    ``∑'``, ``∏'``, ``tsum``, ``tprod`` under the same reachability, with ``Summable``,
    ``HasSum``, ``Multipliable`` or ``HasProd`` as guards.
``missing-differentiability``
    ``fderiv``, ``deriv``, ``gradient``, ``fderivWithin``, ``derivWithin``,
    ``iteratedFDeriv``, ``iteratedDeriv`` (and their ``Within`` forms), ``lineDeriv``, under
    the same reachability, with ``Differentiable``, ``DifferentiableAt``/``On``/``WithinAt``,
    ``HasFDerivAt``, ``HasDerivAt``, ``HasGradientAt`` (and their ``Within``/``Strict``
    forms), ``ContDiff``/``At``/``On``/``WithinAt`` or ``AnalyticAt``/``On``/``OnNhd`` as
    guards.
``nat-sub``, ``nat-div``, ``int-div``
    Binary ``-`` (truncated on ℕ) or ``/`` (rounding; ``x / 0 = 0``) where an operand is a
    name bound in the same declaration with type ``ℕ``/``Nat`` (resp. ``ℤ``/``Int``) by any
    binder form, or a bracket group ascribed ``(… : ℕ)`` (resp. ``ℤ``), or an application of a
    ``Nat.``/``Int.`` function or of ``card``, ``length``, ``finrank``, ``choose``,
    ``factorial``, ``natAbs``, ``toNat``, ``natDegree``. A cast (``↑n``, ``(n : ℝ)``) is not
    ℕ. Lean may still elaborate ``n - 1`` in ℝ by unification; such a finding is accepted with
    that reason. ``-`` on ℤ is exact and not reported.
``junk-div``
    ``/`` or ``⁻¹`` whose divisor is not known positive (``x / 0 = 0⁻¹ = 0``).
``junk-sqrt``
    ``Real.sqrt``/``√`` of a term not known nonnegative (the square root of a negative is 0).
``junk-log``
    ``Real.log``/``Real.logb`` of a term not known positive (``log 0 = 0``, ``log x = log |x|``).
    *Known positive*: a nonzero numeral; ``π``; ``Real.exp …``; a term ``t`` such that the
    scope states ``0 < t``, ``t > 0``, ``t ≠ 0``, ``0 ≠ t``, ``1 ≤ t``, ``t ≥ 1``, ``1 < t`` or
    ``t > 1`` (written the same way, up to layout, casts and outer brackets; a field ``f`` of
    a bundle with such a fact covers ``x.f``); products, quotients and powers of known
    positive terms; a sum of known nonnegative terms one of which is known positive; ``max``
    with a positive argument, ``min`` of positive arguments, ``Real.sqrt`` of a positive term.
    *Known nonnegative* adds ``0``, names of type ``ℕ``, ``ℝ≥0``, ``ℝ≥0∞``, norms ``‖…‖``,
    even powers, ``Real.sqrt …`` and ``0 ≤ t``/``t ≥ 0`` facts. A fact anywhere in the scope
    counts, whichever binder it names.
``type-universe``
    A binder ``(X : Type)`` (or ``{}``, ``⦃⦄``) among a declaration's own parameters, where
    ``Type*`` would do. Binders inside the body of a statement are not reported: a universe
    variable there would make the statement constant universe-polymorphic, and the kernel
    audit requires statement constants without universe parameters.
``unused-hypothesis``
    In a ``Prop``-valued definition (a statement, or a hypothesis bundle of the model), a
    parameter or top-level ``∀``-bound name never mentioned after its binder; and a top-level
    premise (``P →``, an anonymous instance binder, ``x ∈ s`` of a bounded binder) that
    mentions no bound name connected to the conclusion, where names are connected when they
    occur together in a premise or in a binder and its type.
``lint-allow``
    A malformed ``-- lint: allow`` comment (no ``because`` reason, or an unknown rule).
``unused-allow`` (warning)
    An allow comment that accepts no finding.

Accepting: ``-- lint: allow RULE[, RULE…] because REASON`` on the line of the finding or on
the line directly above it accepts the findings of those rules there; the reason is shown in
every report. An unused allow is a warning, not a failure: it cannot hide a finding, and
failing on it would make every precision gain of a rule break CI.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from missions import forked
from missions.cache import default_cache_dir, read_records, record_entry, record_line, write_records
from missions.errors import InputError
from missions.lean import native
from missions.lean.lexer import DOC, IDENT, MODDOC, NUMBER, STRING, SYMBOL, LexError, Token
from missions.lean.scan import Decl
from missions.lean.workspace import Module, Workspace
from missions.pins import statement_closure
from missions.roots import MAX_LEAN_BYTES, read_regular

if TYPE_CHECKING:  # the pydantic models: the incremental status imports this module
    from missions.catalog import Mission

#: Bump whenever findings change for the same sources; it keys the result cache.
LINT_VERSION = "1"
#: The per-mission result cache, in the workspace's cache directory.
CACHE_FILE = "lint-results.tsv"

#: Every rule, with a one-line description (stable ids, used in JSON output).
RULES: dict[str, str] = {
    "exists-implies": "∃ whose body is an implication (any witness falsifying the premise works)",
    "missing-integrability": "integral or expectation with no integrability hypothesis in scope",
    "missing-summability": "infinite sum or product with no summability hypothesis in scope",
    "missing-differentiability": "derivative with no differentiability hypothesis in scope",
    "nat-sub": "truncated subtraction on ℕ",
    "nat-div": "rounding division on ℕ",
    "int-div": "rounding division on ℤ",
    "junk-div": "division or inverse by a term not known positive (x / 0 = 0)",
    "junk-sqrt": "square root of a term not known nonnegative",
    "junk-log": "logarithm of a term not known positive",
    "type-universe": "binder (X : Type) where Type* would do",
    "unused-hypothesis": "bound name or premise the statement never uses",
    "lint-allow": "malformed `-- lint: allow` comment",
    "unused-allow": "`-- lint: allow` comment that accepts no finding (warning)",
}
#: Rules an allow comment may name (the allow machinery itself cannot be allowed).
ALLOWABLE = frozenset(RULES) - {"lint-allow", "unused-allow"}

_OPEN = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "@[": "]", "%[": "]"}
_CLOSE = frozenset({")", "]", "}", "⟩", "⦄"})
_MODIFIERS = frozenset(
    {"private", "protected", "noncomputable", "unsafe", "partial", "nonrec", "local", "scoped"}
)
_KEYWORDS = frozenset(
    {
        "theorem",
        "lemma",
        "def",
        "abbrev",
        "instance",
        "structure",
        "class",
        "inductive",
        "axiom",
        "opaque",
        "example",
    }
)
_PROOF_KINDS = frozenset({"theorem", "lemma", "instance", "example"})
_BUNDLE_KINDS = frozenset({"structure", "class", "class abbrev"})
#: Identifiers that end a term (keywords of the term language).
_TERM_STOP = frozenset(
    {
        "fun",
        "λ",
        "if",
        "then",
        "else",
        "let",
        "have",
        "show",
        "from",
        "by",
        "at",
        "with",
        "in",
        "do",
        "match",
        "where",
        "deriving",
        "calc",
    }
)
_BINDER_HEADS = frozenset({"∀", "∃", "fun", "λ", "Π", "Σ", "Σ'", "∑", "∏", "∑'", "∏'", "⋃", "⋂"})

_INTEGRALS = frozenset(
    {
        "integral",
        "intervalIntegral",
        "setIntegral",
        "condExp",
        "variance",
        "covariance",
        "Var",
        "cov",
        "condVar",
        "moment",
        "centralMoment",
        "mgf",
        "cgf",
        "𝔼",
        "𝓕",
        "fourierIntegral",
        "fourierCoeff",
        "fourierCoeffOn",
    }
)
_INTEGRAL_GUARDS = frozenset(
    {
        "Integrable",
        "IntegrableOn",
        "IntegrableAtFilter",
        "IntervalIntegrable",
        "LocallyIntegrable",
        "LocallyIntegrableOn",
        "HasFiniteIntegral",
        "MemLp",
        "Memℒp",
    }
)
_SUMS = frozenset({"tsum", "tprod"})
_SUM_GUARDS = frozenset({"Summable", "HasSum", "Multipliable", "HasProd"})
_DERIVS = frozenset(
    {
        "fderiv",
        "deriv",
        "gradient",
        "fderivWithin",
        "derivWithin",
        "iteratedFDeriv",
        "iteratedDeriv",
        "iteratedFDerivWithin",
        "iteratedDerivWithin",
        "lineDeriv",
    }
)
_DERIV_GUARDS = frozenset(
    {
        "Differentiable",
        "DifferentiableAt",
        "DifferentiableOn",
        "DifferentiableWithinAt",
        "HasFDerivAt",
        "HasFDerivWithinAt",
        "HasStrictFDerivAt",
        "HasDerivAt",
        "HasDerivWithinAt",
        "HasStrictDerivAt",
        "HasGradientAt",
        "HasGradientWithinAt",
        "ContDiff",
        "ContDiffAt",
        "ContDiffOn",
        "ContDiffWithinAt",
        "AnalyticAt",
        "AnalyticOn",
        "AnalyticOnNhd",
    }
)
_GUARDED: dict[str, tuple[str, frozenset[str], str]] = {
    "missing-integrability": ("integrability", _INTEGRAL_GUARDS, "Integrable, MemLp, …"),
    "missing-summability": ("summability", _SUM_GUARDS, "Summable, HasSum, …"),
    "missing-differentiability": (
        "differentiability",
        _DERIV_GUARDS,
        "Differentiable, DifferentiableAt, HasFDerivAt, ContDiff, …",
    ),
}
_ARITH = frozenset({"+", "-", "*", "/", "%"})
_ARITH_TRIGGERS = frozenset({"-", "/", "⁻", "Real.sqrt", "sqrt", "√", "Real.log", "Real.logb"})
_RELATIONS = frozenset({"=", "≠", "<", ">", "≤", "≥"})
_REAL_TYPES = frozenset(
    {
        "ℝ",
        "Real",
        "ℂ",
        "Complex",
        "ℚ",
        "Rat",
        "ℝ ≥ 0",
        "ℝ ≥ 0 ∞",
        "NNReal",
        "ENNReal",
        "EReal",
    }
)
_NONNEG_TYPES = frozenset({"ℝ ≥ 0", "ℝ ≥ 0 ∞", "NNReal", "ENNReal"})
_REAL_PREFIXES = ("Real.", "Complex.", "NNReal.", "ENNReal.")
_RISKY_SYMBOLS = frozenset({"∫", "⨍", "∑", "∏", "∑'", "∏'", "∑'[", "∏'["})
_RISKY_NAMES = _INTEGRALS | _SUMS | _DERIVS
_NAT_FUNCS = frozenset(
    {"card", "length", "finrank", "choose", "factorial", "natAbs", "toNat", "natDegree"}
)
_NAT_TYPES = frozenset({"ℕ", "Nat"})
_INT_TYPES = frozenset({"ℤ", "Int"})
_POSITIVE_CONSTS = frozenset({"π", "Real.pi", "pi"})
_POSITIVE_HEADS = frozenset({"Real.exp", "exp", "Real.cosh", "Nat.succ"})
_ALLOW = re.compile(r"--\s*lint:\s*allow\b(?P<rest>.*)$")


@dataclass(frozen=True)
class Finding:
    """One lint finding at ``path:line``; ``missions`` are those whose closure it concerns."""

    path: str
    line: int
    rule: str
    message: str
    accepted: bool = False
    reason: str | None = None
    level: str = "error"
    missions: tuple[str, ...] = ()
    #: target statements whose meaning the finding concerns (those that reach it)
    statements: tuple[str, ...] = ()

    def text(self) -> str:
        return f"{self.path}:{self.line}: {self.rule}: {self.message}"

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "rule": self.rule,
            "message": self.message,
            "accepted": self.accepted,
            "reason": self.reason,
            "level": self.level,
            "missions": list(self.missions),
            "statements": list(self.statements),
        }


@dataclass
class LintResult:
    findings: list[Finding] = field(default_factory=list)
    #: files with an allow comment (well-formed or not): editing one may change any finding
    allow_files: tuple[str, ...] = ()
    _index: dict[str, dict[str, list[Finding]]] = field(default_factory=dict, repr=False)
    _index_key: tuple[int, int] | None = field(default=None, repr=False)

    @property
    def failing(self) -> list[Finding]:
        """Findings that fail ``lint`` and ``check``: unaccepted and not warnings."""
        return [f for f in self.findings if not f.accepted and f.level == "error"]

    def for_mission(self, mission_id: str) -> list[Finding]:
        return self._by("missions").get(mission_id, [])

    def for_statement(self, statement: str) -> list[Finding]:
        return self._by("statements").get(statement, [])

    def mission_counts(self, mission_id: str) -> dict[str, int]:
        """:meth:`counts` of the findings a mission's statement closures hold."""
        return self.counts(self.for_mission(mission_id))

    def statement_counts(self, statement: str | None) -> dict[str, int]:
        """:meth:`counts` of the findings a statement's closure holds (none without one)."""
        return self.counts(self.for_statement(statement) if statement else [])

    def _by(self, attribute: str) -> dict[str, list[Finding]]:
        """Findings by mission or statement, in finding order: asked once per target, a
        scan of every finding would grow with the catalogue squared."""
        key = (id(self.findings), len(self.findings))  # rebuilt if the list is replaced
        if self._index_key != key:
            self._index.clear()
            self._index_key = key
        index = self._index.get(attribute)
        if index is None:
            index = self._index[attribute] = {}
            for finding in self.findings:
                for name in dict.fromkeys(getattr(finding, attribute)):
                    index.setdefault(name, []).append(finding)
        return index

    def counts(self, findings: Sequence[Finding] | None = None) -> dict[str, int]:
        chosen = self.findings if findings is None else findings
        errors = [f for f in chosen if f.level == "error"]
        return {
            "unaccepted": sum(not f.accepted for f in errors),
            "accepted": sum(f.accepted for f in errors),
            "warnings": sum(f.level == "warning" for f in chosen),
        }


# ---------------------------------------------------------------------- token helpers
def _last(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _norm(tokens: Sequence[Token]) -> str:
    return " ".join(t[1] for t in tokens)


def _match_forward(tokens: Sequence[Token], i: int) -> int:
    """Index just past the bracket group opened at ``i`` (or ``i + 1`` if it never closes)."""
    depth = 0
    for j in range(i, len(tokens)):
        text = tokens[j][1]
        if tokens[j][0] == SYMBOL and text in _OPEN:
            depth += 1
        elif tokens[j][0] == SYMBOL and text in _CLOSE:
            depth -= 1
            if depth == 0:
                return j + 1
    return i + 1


def _match_backward(tokens: Sequence[Token], i: int) -> int:
    """Index of the bracket opening the group that closes at ``i``."""
    depth = 0
    for j in range(i, -1, -1):
        text = tokens[j][1]
        if tokens[j][0] == SYMBOL and text in _CLOSE:
            depth += 1
        elif tokens[j][0] == SYMBOL and text in _OPEN:
            depth -= 1
            if depth == 0:
                return j
    return i


def _norm_bar(tokens: Sequence[Token], i: int, step: int) -> int:
    """The matching ``‖`` for the one at ``i`` (searching in direction ``step``)."""
    depth = 0
    j = i + step
    while 0 <= j < len(tokens):
        kind, text, _ = tokens[j]
        if kind == SYMBOL and text in _OPEN:
            depth += step
        elif kind == SYMBOL and text in _CLOSE:
            depth -= step
        elif kind == SYMBOL and text == "‖" and depth == 0:
            return j
        j += step
    return i


def _depth0(tokens: Sequence[Token], texts: Iterable[str]) -> list[int]:
    """Indices of the given symbols outside every bracket group and norm."""
    wanted = set(texts)
    found: list[int] = []
    depth = 0
    in_norm = False
    for j, (kind, text, _) in enumerate(tokens):
        if kind != SYMBOL:
            continue
        if text in _OPEN:
            depth += 1
        elif text in _CLOSE:
            depth -= 1
        elif text == "‖":
            in_norm = not in_norm
        elif depth == 0 and not in_norm and text in wanted:
            found.append(j)
    return found


def _is_primary_start(token: Token) -> bool:
    kind, text, _ = token
    if kind in (IDENT, NUMBER, STRING):
        return text not in _TERM_STOP and text not in _KEYWORDS
    return kind == SYMBOL and (text in _OPEN or text in ("‖", "↑", "√"))


def _primary_end(tokens: Sequence[Token], i: int) -> int:
    kind, text, _ = tokens[i]
    if kind == SYMBOL and text in _OPEN:
        return _match_forward(tokens, i)
    if kind == SYMBOL and text == "‖":
        return _norm_bar(tokens, i, 1) + 1
    if kind == SYMBOL and text in ("↑", "√") and i + 1 < len(tokens):
        return _primary_end(tokens, i + 1)
    return i + 1


def _term_after(tokens: Sequence[Token], i: int) -> tuple[int, int]:
    """The application term starting at ``i`` (head, arguments, ``^`` powers, ``⁻¹``)."""
    if i >= len(tokens) or not _is_primary_start(tokens[i]):
        return (i, i)
    j = _primary_end(tokens, i)
    while j < len(tokens):
        kind, text, offset = tokens[j]
        if kind == SYMBOL and text == "⁻" and j + 1 < len(tokens) and tokens[j + 1][1] == "¹":
            j += 2
        elif (
            kind == SYMBOL
            and text == "."
            and j + 1 < len(tokens)
            and tokens[j + 1][0] == IDENT
            and tokens[j - 1][2] + len(tokens[j - 1][1]) == offset
        ):
            j += 2  # a projection `(…).card`
        elif kind == SYMBOL and text == "^" and j + 1 < len(tokens):
            if not _is_primary_start(tokens[j + 1]):
                break
            j = _primary_end(tokens, j + 1)
        elif _is_primary_start(tokens[j]) and not (kind == SYMBOL and text in ("↑", "√")):
            if kind == IDENT and j + 1 < len(tokens) and tokens[j + 1][1] == ":":
                break  # the next field or named binder `name : T` of a structure
            j = _primary_end(tokens, j)
        else:
            break
    return (i, j)


def _primary_before(tokens: Sequence[Token], i: int) -> int:
    """Start index of the primary that ends at ``i`` (inclusive), or ``i + 1`` if none."""
    kind, text, _ = tokens[i]
    if kind == SYMBOL and text in _CLOSE:
        return _match_backward(tokens, i)
    if kind == SYMBOL and text == "‖":
        return _norm_bar(tokens, i, -1)
    if kind in (IDENT, NUMBER) and text not in _TERM_STOP and text not in _KEYWORDS:
        return i
    return i + 1


def _term_before(tokens: Sequence[Token], i: int) -> tuple[int, int]:
    """The application term ending just before ``i``."""
    end = i
    j = i - 1
    start = i
    while j >= 0:
        if tokens[j][1] == "¹" and j >= 1 and tokens[j - 1][1] == "⁻":
            j -= 2
            continue
        begin = _primary_before(tokens, j)
        if begin > j:
            break
        if (
            begin >= 2
            and tokens[begin - 1][1] == "."
            and tokens[begin - 1][2] + 1 == tokens[begin][2]
        ):
            begin = _primary_before(tokens, begin - 2)  # a projection `(…).card`
        start = begin
        j = begin - 1
        if j >= 0 and tokens[j][1] == "^":
            j -= 1
            continue
        if j >= 0 and tokens[j][1] in ("↑", "√"):
            start = j
            j -= 1
    return (start, end)


_PRODUCT = ("*", "/", "%")


def _chain_before(tokens: Sequence[Token], i: int) -> tuple[int, int]:
    """The operand ending before ``i`` of an additive operator: a product of terms."""
    start, end = _term_before(tokens, i)
    while 0 < start < end and tokens[start - 1][0] == SYMBOL and tokens[start - 1][1] in _PRODUCT:
        previous, _ = _term_before(tokens, start - 1)
        if previous >= start - 1:
            break
        start = previous
    return (start, end)


def _chain_after(tokens: Sequence[Token], i: int) -> tuple[int, int]:
    """The operand starting at ``i`` of an additive operator: a product of terms."""
    start, end = _term_after(tokens, i)
    while start < end < len(tokens) and tokens[end][0] == SYMBOL and tokens[end][1] in _PRODUCT:
        _, following = _term_after(tokens, end + 1)
        if following <= end + 1:
            break
        end = following
    return (start, end)


def _strip(tokens: Sequence[Token]) -> Sequence[Token]:
    """Remove coercion arrows, outer brackets and a trailing type ascription."""
    while tokens:
        if tokens[0][1] == "↑":
            tokens = tokens[1:]
            continue
        if tokens[0][1] == "(" and _match_forward(tokens, 0) == len(tokens):
            inner = tokens[1:-1]
            colons = _depth0(inner, [":"])
            tokens = inner[: colons[0]] if colons else inner
            continue
        break
    return tokens


# ------------------------------------------------------------------------ source model
@dataclass
class _Allow:
    line: int
    rules: tuple[str, ...]
    reason: str
    last: int = 0  # the last line of the comment (a reason may continue below the allow)
    used: bool = False

    def covers(self, line: int) -> bool:
        return self.line <= line <= max(self.line, self.last) + 1


@dataclass
class _File:
    rel: str
    text: str
    tokens: list[Token]
    offsets: list[int]
    line_starts: list[int]
    allows: list[_Allow] = field(default_factory=list)
    malformed: list[Finding] = field(default_factory=list)

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset)


def _file_of(rel: str, text: str) -> _File:
    source = native.lexer()(text)  # compiled or not: the same tokens
    tokens = source.tokens
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    file = _File(
        rel=rel,
        text=text,
        tokens=tokens,
        offsets=[t[2] for t in tokens],
        line_starts=starts,
    )
    _read_allows(file)
    return file


def _read_allows(file: _File) -> None:
    """Collect ``-- lint: allow`` comments that are real line comments (not in strings/docs).

    A reason may continue on the comment-only lines right below an allow that stands on a
    line of its own; the allow then covers the line after its last comment line."""
    if "lint:" not in file.text:  # every allow comment holds it: most files have none
        return
    spans = [(t[2], t[2] + len(t[1])) for t in file.tokens if t[0] in (STRING, DOC, MODDOC)]
    lines = file.text.split("\n")
    number = 0
    while number < len(lines):
        line = lines[number]
        number += 1
        start = file.line_starts[number - 1]
        for match in re.finditer(r"--", line):
            if any(a <= start + match.start() < b for a, b in spans):
                continue
            comment = _ALLOW.match(line, match.start())
            if comment is None:
                break  # the rest of the line is an ordinary comment
            rest = comment.group("rest").rstrip()
            first = number
            if not line[: match.start()].strip():
                while number < len(lines) and _continues(lines[number]):
                    rest += " " + lines[number].strip()[2:].strip()
                    number += 1
            _parse_allow(file, first, number, rest)
            break


def _continues(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith("--") and not _ALLOW.match(stripped) and "lint:" not in stripped


def _parse_allow(file: _File, line: int, last: int, rest: str) -> None:
    head, sep, reason = rest.partition("because")
    rules = tuple(r for r in re.split(r"[\s,]+", head.strip()) if r)
    problem = None
    if not rules:
        problem = "names no rule; write `-- lint: allow RULE because REASON`"
    elif not sep or not reason.strip():
        problem = "has no reason; write `-- lint: allow RULE because REASON`"
    else:
        unknown = [r for r in rules if r not in ALLOWABLE]
        if unknown:
            problem = f"names unknown rule(s) {', '.join(unknown)}"
    if problem is not None:
        file.malformed.append(Finding(file.rel, line, "lint-allow", f"allow comment {problem}"))
        return
    file.allows.append(_Allow(line, rules, " ".join(reason.split()), last))


@dataclass(eq=False)
class _Decl:
    name: str
    kind: str
    file: _File
    line: int
    tokens: list[Token]  # what is linted (proof bodies excluded)
    params: list[Token]
    type: list[Token]
    body: list[Token]
    is_prop: bool

    @functools.cached_property
    def last(self) -> str:
        return _last(self.name)

    @property
    def bundle(self) -> bool:
        return self.kind in _BUNDLE_KINDS or (self.kind in ("def", "abbrev") and self.is_prop)

    # A declaration is parsed once per run and read by every mission whose closure holds
    # it, and by every rule: what the rules ask of its tokens is worked out once.
    @functools.cached_property
    def texts(self) -> frozenset[str]:
        """The text of every linted token."""
        return frozenset(t[1] for t in self.tokens)

    @functools.cached_property
    def names(self) -> tuple[str, ...]:
        """The last component of every identifier it mentions, once each, first use first
        (the order :meth:`_Env.mentions` finds declarations in)."""
        return tuple(dict.fromkeys(_last(t[1]) for t in self.tokens if t[0] == IDENT))

    @functools.cached_property
    def guard_triggered(self) -> bool:
        """Whether a guard rule can start here (a risky symbol or name among its tokens)."""
        texts = self.texts
        return bool(texts & _RISKY_SYMBOLS or {_last(t) for t in texts} & _RISKY_NAMES)


def _parse_decl(file: _File, decl: Decl) -> _Decl | None:
    if decl.name.startswith("<"):
        return None
    lo = bisect.bisect_left(file.offsets, decl.start)
    hi = bisect.bisect_left(file.offsets, decl.end)
    raw = [t for t in file.tokens[lo:hi] if t[0] not in (DOC, MODDOC)]
    i = 0
    while i < len(raw):
        kind, text, _ = raw[i]
        if kind == SYMBOL and text == "@[":
            i = _match_forward(raw, i)
        elif kind == IDENT and text in _MODIFIERS:
            i += 1
        else:
            break
    if i >= len(raw) or raw[i][1] not in _KEYWORDS:
        return None
    keyword = raw[i][1]
    i += 1
    if keyword == "class" and i < len(raw) and raw[i][1] in ("inductive", "abbrev"):
        i += 1
    if (
        keyword == "instance"
        and i + 1 < len(raw)
        and raw[i][1] == "("
        and raw[i + 1][1] == "priority"
    ):
        i = _match_forward(raw, i)
    if keyword != "example" and i < len(raw) and raw[i][0] == IDENT and raw[i][1] != "where":
        i += 1  # the name (an anonymous instance starts with a binder or `:`)
        if i + 1 < len(raw) and raw[i][1] == "." and raw[i + 1][1] == "{":
            i = _match_forward(raw, i + 1)  # universe parameters `foo.{u}`
    header = raw[i:]
    symbols = _depth0(header, [":", ":=", "|"])
    words = [j for j, t in enumerate(header) if t[0] == IDENT and t[1] in ("where", "extends")]
    colon = next((j for j in symbols if header[j][1] == ":"), None)
    assign = [j for j in symbols if header[j][1] == ":="] + [
        j for j in words if header[j][1] == "where"
    ]
    extends = next((j for j in words if header[j][1] == "extends"), None)
    if assign:
        body_start = min(assign)
    else:  # pattern-matching definition: the first `|` after the type
        bars = [j for j in symbols if header[j][1] == "|" and (colon is None or j > colon)]
        body_start = bars[0] if bars else len(header)
    params_end = min(j for j in (colon, extends, body_start) if j is not None)
    if colon is not None and colon > body_start:
        colon = None
    type_end = (
        extends if extends is not None and colon is not None and extends > colon else body_start
    )
    type_ = list(header[colon + 1 : type_end]) if colon is not None else []
    body = list(header[body_start + 1 :])
    linted = raw if keyword not in _PROOF_KINDS else raw[: i + body_start]
    return _Decl(
        name=decl.name,
        kind=decl.kind,
        file=file,
        line=decl.line,
        tokens=linted,
        params=list(header[:params_end]),
        type=type_,
        body=body if keyword not in _PROOF_KINDS else [],
        is_prop=_norm(type_) == "Prop",
    )


# ----------------------------------------------------------------------- the linter
@dataclass
class _Raw:
    """A finding before allows apply.

    ``decl`` is the declaration holding it. Guard findings name their ``mission`` and the
    ``statements`` that reach them unguarded; ``standalone`` marks one reported because no
    root of that mission reaches the declaration (dropped if another mission's root does).
    Local findings (every other rule) concern every mission whose closure holds the file and
    every statement that reaches the declaration (both filled in at the end)."""

    rel: str
    line: int
    rule: str
    message: str
    decl: str
    mission: str | None = None
    statements: list[str] | None = None
    standalone: bool = False

    def to_json(self) -> list[Any]:
        return [
            self.rel,
            self.line,
            self.rule,
            self.message,
            self.decl,
            self.mission,
            self.statements,
            self.standalone,
        ]

    @classmethod
    def from_json(cls, data: list[Any]) -> _Raw:
        return cls(*data)


class _Env:
    """The declarations a set of modules can see, with name reach and hypothesis scopes.

    Local rules run in the import closure of the declaration's own module; guard rules run
    in a mission's statement closure, from its target statements (the roots)."""

    def __init__(
        self, decls: list[_Decl], roots: Sequence[_Decl] = (), mission: str | None = None
    ) -> None:
        self.mission = mission
        self.decls = decls
        self.by_last: dict[str, list[_Decl]] = {}
        for d in decls:
            self.by_last.setdefault(d.last, []).append(d)
        self.roots = list(roots)
        self.raw: list[_Raw] = []
        self._standalone = False
        self._mentions: dict[int, list[_Decl]] = {}
        self._scopes: dict[int, list[_Decl]] = {}

    # -------------------------------------------------------------- name reach
    def mentions(self, decl: _Decl) -> list[_Decl]:
        cached = self._mentions.get(id(decl))
        if cached is None:
            found: dict[int, _Decl] = {}
            by_last = self.by_last
            for name in decl.names:
                for other in by_last.get(name, ()):
                    if other is not decl:
                        found[id(other)] = other
            cached = self._mentions[id(decl)] = list(found.values())
        return cached

    def reach(self, root: _Decl) -> list[_Decl]:
        seen = {id(root): root}
        stack = [root]
        while stack:
            for other in self.mentions(stack.pop()):
                if id(other) not in seen:
                    seen[id(other)] = other
                    stack.append(other)
        return list(seen.values())

    def scope(self, decl: _Decl) -> list[_Decl]:
        """The declaration and every hypothesis bundle it mentions, transitively."""
        cached = self._scopes.get(id(decl))
        if cached is None:
            seen = {id(decl): decl}
            stack = [decl]
            while stack:
                for other in self.mentions(stack.pop()):
                    if other.bundle and id(other) not in seen:
                        seen[id(other)] = other
                        stack.append(other)
            cached = self._scopes[id(decl)] = list(seen.values())
        return cached

    def _has_guard(self, decls: Iterable[_Decl], guards: frozenset[str]) -> bool:
        return any(not guards.isdisjoint(d.names) for d in decls)

    def add(
        self,
        decl: _Decl,
        token: Token,
        rule: str,
        message: str,
        statements: Sequence[_Decl] | None = None,
    ) -> None:
        """Record a finding (``statements``: for guard rules, the roots concerned)."""
        self.raw.append(
            _Raw(
                decl.file.rel,
                decl.file.line(token[2]),
                rule,
                message,
                decl.name,
                self.mission if statements is not None else None,
                None if statements is None else [d.name for d in statements if d in self.roots],
                self._standalone,
            )
        )

    def result_kind(self, name: str) -> str | None:
        """``nat``/``int``/``real``/``other`` for the result type of a closure definition."""
        kinds = {_type_kind(d.type) for d in self.by_last.get(_last(name), []) if d.type}
        return kinds.pop() if len(kinds) == 1 else None

    def reached(self) -> dict[int, list[_Decl]]:
        """For every declaration some root reaches, the roots that reach it."""
        found: dict[int, list[_Decl]] = {}
        for root in self.roots:
            for d in self.reach(root):
                found.setdefault(id(d), []).append(root)
        return found

    # ------------------------------------------------------------------ rules
    def guard_rules(self) -> list[_Raw]:
        """The reach-based rules (integrability, summability, differentiability)."""
        reached = self.reached()
        for decl in self.decls:
            if not decl.guard_triggered:
                continue
            users = reached.get(id(decl))
            if users is not None:
                self._guarded(decl, users, any(decl is r for r in self.roots))
            else:  # reached by no statement of this mission: its own root
                self._standalone = True
                self._guarded(decl, [decl], True)
                self._standalone = False
        return self.raw

    def local_rules(self, decls: Iterable[_Decl]) -> list[_Raw]:
        """Every other rule, on the given declarations."""
        for decl in decls:
            texts = decl.texts
            if _EXISTS_TRIGGERS & texts:
                self._exists_implies(decl)
            if texts & _ARITH_TRIGGERS:
                _Arith(self, decl).run()
            if "Type" in texts:
                self._type_universe(decl)
            if _unused_applies(decl):
                _Unused(self, decl).run()
        return self.raw

    def _guarded(self, decl: _Decl, users: list[_Decl], is_root: bool) -> None:
        sites = _risky_sites(decl, self.by_last)
        if not sites:
            return
        for rule, (what, guards, hint) in _GUARDED.items():
            mine = [(t, label) for r, t, label in sites if r == rule]
            if not mine:
                continue
            if self._has_guard(self.scope(decl), guards):
                continue
            bare = [u for u in users if not self._has_guard(self.scope(u), guards)]
            if not bare:
                continue
            for token, label in mine:
                if is_root and bare == [decl]:
                    message = (
                        f"`{label}` with no {what} hypothesis in scope "
                        f"({hint} among the binders, premises or hypothesis "
                        "bundles): its junk value may decide the claim"
                    )
                else:
                    message = (
                        f"`{label}` in {decl.name} is used by {{roots}} with no {what} "
                        f"hypothesis in scope ({hint})"
                    )
                self.add(decl, token, rule, message, [u for u in bare if u in self.roots])

    def _exists_implies(self, decl: _Decl) -> None:
        tokens = decl.tokens
        for i, (kind, text, _) in enumerate(tokens):
            if kind == SYMBOL and text == "∃":
                commas = _depth0(tokens[i + 1 :], [","])
                if not commas:
                    continue
                body = i + 2 + commas[0]
            elif (
                kind == IDENT
                and text == "Exists"
                and i + 1 < len(tokens)
                and tokens[i + 1][1] in ("fun", "λ")
            ):
                arrows = _depth0(tokens[i + 2 :], ["=>", "↦"])
                if not arrows:
                    continue
                body = i + 3 + arrows[0]
            else:
                continue
            if _body_implication(tokens, body):
                self.add(
                    decl,
                    tokens[i],
                    "exists-implies",
                    "`∃ x, P → Q` holds for any x that falsifies P; did you mean `∃ x, P ∧ Q`?",
                )

    def _type_universe(self, decl: _Decl) -> None:
        params = decl.params
        i = 0
        while i < len(params):
            kind, text, _ = params[i]
            if kind == SYMBOL and text in ("(", "{", "⦃"):
                end = _match_forward(params, i)
                inner = params[i + 1 : end - 1]
                colons = _depth0(inner, [":"])
                if colons and colons[0] > 0 and all(t[0] == IDENT for t in inner[: colons[0]]):
                    type_ = inner[colons[0] + 1 :]
                    if len(type_) == 1 and type_[0][1] == "Type":
                        names = " ".join(t[1] for t in inner[: colons[0]])
                        self.add(
                            decl,
                            type_[0],
                            "type-universe",
                            f"`{names} : Type` fixes universe 0; `Type*` would do",
                        )
                i = end
            else:
                i += 1


_EXISTS_TRIGGERS = frozenset({"∃", "Exists"})


def _unused_applies(decl: _Decl) -> bool:
    return decl.kind in ("def", "abbrev") and decl.is_prop


def _quiet(decl: _Decl) -> bool:
    """No rule can report anything *in* ``decl``, whatever the environment: every rule
    starts from one of these triggers in the declaration's own linted tokens."""
    texts = decl.texts
    return not (
        decl.guard_triggered
        or texts & (_EXISTS_TRIGGERS | _ARITH_TRIGGERS)
        or "Type" in texts
        or _unused_applies(decl)
    )


def lint_inert(rel: str, text: str, decls: Sequence[Decl]) -> bool:
    """Whether no lint finding can stand in ``decls`` of the file ``rel`` holding ``text``
    (the text they were scanned from), and the file has no allow comment.

    The incremental ``status`` uses this for declarations an edit added or changed: when no
    other declaration can mention them (see :mod:`missions.incremental`), nothing else's
    findings change either."""
    try:
        file = _file_of(rel, text)
    except (LexError, RecursionError):
        return False
    if file.allows or file.malformed:
        return False
    parsed = [_parse_decl(file, decl) for decl in decls]
    return all(d is None or _quiet(d) for d in parsed)


def _codomain(type_: Sequence[Token]) -> Sequence[Token]:
    arrows = _depth0(type_, ["→"])
    return type_[arrows[-1] + 1 :] if arrows else type_


def _type_kind(type_: Sequence[Token]) -> str:
    key = _norm(_codomain(type_))
    if key in _NAT_TYPES:
        return "nat"
    if key in _INT_TYPES:
        return "int"
    if key in _REAL_TYPES:
        return "real"
    return "other"


def _risky_sites(decl: _Decl, by_last: dict[str, list[_Decl]]) -> list[tuple[str, Token, str]]:
    sites: list[tuple[str, Token, str]] = []
    tokens = decl.tokens
    for i, token in enumerate(tokens):
        kind, text, offset = token
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        adjacent = nxt is not None and nxt[2] == offset + len(text)
        if kind == SYMBOL and text == "∫":
            if not (adjacent and nxt is not None and nxt[1] == "⁻"):
                sites.append(("missing-integrability", token, "∫"))
        elif kind == SYMBOL and text == "⨍":
            sites.append(("missing-integrability", token, "⨍"))
        elif kind == SYMBOL and text in ("∑'", "∏'", "∑'[", "∏'["):  # one token, as in Lean
            sites.append(("missing-summability", token, text.rstrip("[")))
        elif kind == IDENT:
            last = _last(text)
            if last in by_last:
                continue  # the workspace's own declaration, not Mathlib's
            if last in _INTEGRALS:
                sites.append(("missing-integrability", token, text))
            elif last in _SUMS:
                sites.append(("missing-summability", token, text))
            elif last in _DERIVS:
                sites.append(("missing-differentiability", token, text))
    return sites


def _body_implication(tokens: Sequence[Token], start: int) -> bool:
    """Whether the binder body starting at ``start`` is an implication at its top level."""
    depth = 0
    in_norm = False
    for j in range(start, len(tokens)):
        kind, text, _ = tokens[j]
        if kind == SYMBOL and text in _OPEN:
            depth += 1
        elif kind == SYMBOL and text in _CLOSE:
            if depth == 0:
                return False
            depth -= 1
        elif kind == SYMBOL and text == "‖":
            in_norm = not in_norm
        elif depth == 0 and not in_norm:
            if text in (",", ":=", "|", "↔") or (
                kind == IDENT and text in ("where", "then", "else")
            ):
                return False
            if text in ("∀", "∃", "fun", "λ", "Exists"):
                return False
            if text == "→":
                return True
    return False


# ---------------------------------------------------------------------- arithmetic
class _Arith:
    """ℕ/ℤ arithmetic and junk values of division, inverse, square root and logarithm."""

    def __init__(self, lint: _Env, decl: _Decl) -> None:
        self.lint = lint
        self.decl = decl
        self.tokens = decl.tokens
        #: bound name -> kind of its type's codomain (nat, int, real, other)
        self.kinds: dict[str, str] = {}
        self.nonneg_names: set[str] = set()
        self.pos: set[str] = set()
        self.nonneg: set[str] = set()
        self.field_pos: set[str] = set()
        self.field_nonneg: set[str] = set()
        self._binders(decl.tokens)
        for other in lint.scope(decl):
            self._facts(other.tokens, other is not decl)

    # ------------------------------------------------------------------ binders
    def _binders(self, tokens: Sequence[Token]) -> None:
        """Types of names bound by any binder form: groups, ``∀ x : T,``, ``x ∈ range n``."""
        for i, (kind, text, _) in enumerate(tokens):
            if kind == SYMBOL and text in ("(", "{", "⦃", "["):
                end = _match_forward(tokens, i)
                inner = tokens[i + 1 : end - 1]
                colons = _depth0(inner, [":"])
                if colons and colons[0] > 0 and all(t[0] == IDENT for t in inner[: colons[0]]):
                    self._record([t[1] for t in inner[: colons[0]]], inner[colons[0] + 1 :])
            elif (kind == SYMBOL and text in _BINDER_HEADS) or (
                kind == IDENT and text in ("fun", "λ")
            ):
                j = i + 1
                names: list[str] = []
                while j < len(tokens) and tokens[j][0] == IDENT and tokens[j][1] not in _TERM_STOP:
                    names.append(tokens[j][1])
                    j += 1
                if not names or j >= len(tokens):
                    continue
                if tokens[j][1] == ":":
                    end = j + 1
                    depth = 0
                    while end < len(tokens):
                        t = tokens[end][1]
                        if t in _OPEN:
                            depth += 1
                        elif t in _CLOSE:
                            if depth == 0:
                                break
                            depth -= 1
                        elif depth == 0 and t in (",", "=>", "↦"):
                            break
                        end += 1
                    self._record(names, tokens[j + 1 : end])
                elif (
                    tokens[j][1] == "∈"
                    and j + 1 < len(tokens)
                    and _last(tokens[j + 1][1]) == "range"
                ):
                    for name in names:
                        self.kinds[name] = "nat"

    def _record(self, names: list[str], type_: Sequence[Token]) -> None:
        """The first binding of a name wins: a later `(x : ℝ)` is usually a cast, not a binder."""
        kind = _type_kind(type_)
        for name in names:
            if "." not in name:
                self.kinds.setdefault(name, kind)
        if _norm(_codomain(type_)) in _NONNEG_TYPES:
            self.nonneg_names.update(names)

    def _facts(self, tokens: Sequence[Token], from_bundle: bool) -> None:
        pos = self.field_pos if from_bundle else self.pos
        nonneg = self.field_nonneg if from_bundle else self.nonneg
        for i, (kind, text, _) in enumerate(tokens):
            if kind != SYMBOL or text not in ("<", ">", "≤", "≥", "≠"):
                continue
            left = _strip(tokens[slice(*_term_before(tokens, i))])
            right = _strip(tokens[slice(*_term_after(tokens, i + 1))])
            lval, rval = _norm(left), _norm(right)
            if (text in ("<", "≤") and lval in ("0", "1")) or (text == "≠" and lval == "0"):
                target, value, strict = right, lval, text != "≤"
            elif (text in (">", "≥") and rval in ("0", "1")) or (text == "≠" and rval == "0"):
                target, value, strict = left, rval, text != "≥"
            else:
                continue
            key = _norm(target)
            if not key:
                continue
            chosen = pos if strict or value == "1" else nonneg
            chosen.add(key)
            if from_bundle:
                chosen.add(_last(key))

    # ------------------------------------------------------------- leaf types
    def leaf_kind(self, tokens: Sequence[Token]) -> str | None:
        """``nat``, ``int``, ``real``, ``num`` (a numeral) or ``None`` (unknown) for a term."""
        if not tokens:
            return None
        kind, text, _ = tokens[0]
        if text == "↑":
            return "real"  # a cast: the tree is not elaborated in the source type
        if kind == NUMBER:
            return "real" if "." in text else "num" if len(tokens) == 1 else None
        if text == "(" and _match_forward(tokens, 0) == len(tokens):
            inner = tokens[1:-1]
            colons = _depth0(inner, [":"])
            if colons:
                ascribed = _type_kind(inner[colons[0] + 1 :])
                return ascribed if ascribed != "other" else None
            return self.tree_kind(inner)
        if text == "‖":
            return "real"
        if text in ("∑", "∏", "∑'", "∏'"):
            commas = _depth0(tokens, [","])
            return self.tree_kind(tokens[commas[0] + 1 :]) if commas else None
        powers = _depth0(tokens, ["^"])
        if powers:
            return self.leaf_kind(tokens[: powers[0]])
        if kind != IDENT:
            return None
        if text.startswith("Nat.") or _last(text) in _NAT_FUNCS:
            return "nat"
        if text.startswith("Int.") and _last(text) != "cast":
            return "int"
        if text.startswith(_REAL_PREFIXES):
            return "real"
        head = text.split(".", 1)[0]
        if head in self.kinds and "." not in text:
            found = self.kinds[head]
            return found if found != "other" else None
        result = self.lint.result_kind(text)
        return result if result != "other" else None

    def tree_kind(self, tokens: Sequence[Token]) -> str | None:
        """The type an arithmetic tree elaborates in: the widest of its leaves (binop%)."""
        parts = _split(tokens, _depth0(tokens, _ARITH | _RELATIONS))
        kinds = {self.leaf_kind(p) for p in parts}
        for wanted in ("real", "int", "nat"):
            if wanted in kinds:
                return wanted
        return "num" if kinds == {"num"} else None

    def _tree(self, i: int) -> Sequence[Token]:
        """The arithmetic tree around the operator at ``i``, through grouping brackets."""
        tokens = self.tokens
        start, _ = _chain_before(tokens, i)
        _, end = _chain_after(tokens, i + 1)
        while True:
            while start >= 2 and tokens[start - 1][1] in _ARITH | _RELATIONS:
                previous, _ = _chain_before(tokens, start - 1)
                if previous >= start - 1:
                    break
                start = previous
            while end < len(tokens) - 1 and tokens[end][1] in _ARITH | _RELATIONS:
                _, following = _chain_after(tokens, end + 1)
                if following <= end + 1:
                    break
                end = following
            if (
                start > 0
                and end < len(tokens)
                and tokens[start - 1][1] == "("
                and tokens[end][1] == ")"
                and _match_forward(tokens, start - 1) == end + 1
                and not (start >= 2 and _is_operand_end(tokens[start - 2]))
                and not _depth0(tokens[start:end], [":"])
            ):
                start, end = start - 1, end + 1  # a grouping bracket: the tree goes on outside
                continue
            return tokens[start:end]

    # ------------------------------------------------------------ positivity
    def _fact(self, key: str, facts: set[str], fields: set[str]) -> bool:
        if key in facts or key in fields:
            return True
        return "." in key and " " not in key and _last(key) in fields

    def positive(self, tokens: Sequence[Token]) -> bool:
        tokens = _strip(tokens)
        if not tokens:
            return False
        if self._fact(_norm(tokens), self.pos, self.field_pos):
            return True
        plus = _depth0(tokens, ["+"])
        if plus and not _depth0(tokens, ["-"]):
            parts = _split(tokens, plus)
            return all(self.nonnegative(p) for p in parts) and any(self.positive(p) for p in parts)
        times = _depth0(tokens, ["*", "/"])
        if times and not _depth0(tokens, ["-", "+"]):
            return all(self.positive(p) for p in _split(tokens, times))
        if _depth0(tokens, ["-", "+", "*", "/", ",", "→", "∧", "∨", "="]):
            return False
        return self._positive_term(tokens)

    def _positive_term(self, tokens: Sequence[Token]) -> bool:
        if len(tokens) == 1:
            kind, text, _ = tokens[0]
            if kind == NUMBER:
                return _number(text) > 0
            return text in _POSITIVE_CONSTS
        powers = _depth0(tokens, ["^"])
        if powers:
            return self.positive(tokens[: powers[0]])
        if tokens[-1][1] == "¹" and len(tokens) > 2 and tokens[-2][1] == "⁻":
            return self.positive(tokens[:-2])
        head = tokens[0][1]
        args = _arguments(tokens)
        if head in _POSITIVE_HEADS:
            return True
        if head in ("Real.sqrt", "√") and args:
            return self.positive(args[0])
        if head in ("max", "Max.max") and len(args) == 2:
            return self.positive(args[0]) or self.positive(args[1])
        if head in ("min", "Min.min") and len(args) == 2:
            return self.positive(args[0]) and self.positive(args[1])
        return False

    def nonnegative(self, tokens: Sequence[Token]) -> bool:
        if tokens and tokens[0][1] == "(" and _match_forward(tokens, 0) == len(tokens):
            inner = tokens[1:-1]
            colons = _depth0(inner, [":"])
            if colons and self.leaf_kind(inner[: colons[0]]) == "nat":
                return True  # a cast of a natural number
        tokens = _strip(tokens)
        if not tokens:
            return False
        if self.positive(tokens):
            return True
        if self._fact(_norm(tokens), self.nonneg, self.field_nonneg):
            return True
        if len(tokens) == 1:
            kind, text, _ = tokens[0]
            if kind == NUMBER:
                return _number(text) >= 0
            return self.kinds.get(text) == "nat" or text in self.nonneg_names
        if tokens[0][1] == "‖" and _norm_bar(tokens, 0, 1) == len(tokens) - 1:
            return True
        plus = _depth0(tokens, ["+", "*"])
        if plus and not _depth0(tokens, ["-", "/"]):
            return all(self.nonnegative(p) for p in _split(tokens, plus))
        powers = _depth0(tokens, ["^"])
        if powers and not _depth0(tokens, ["-", "+", "*", "/"]):
            exponent = _norm(_strip(tokens[powers[0] + 1 :]))
            if exponent.isdigit() and int(exponent) % 2 == 0:
                return True
            return self.nonnegative(tokens[: powers[0]])
        if self.leaf_kind(tokens) == "nat":
            return True
        return tokens[0][1] in ("Real.sqrt", "√", "Real.exp", "exp")

    # ------------------------------------------------------------------ checks
    def run(self) -> None:
        tokens = self.tokens
        for i, token in enumerate(tokens):
            kind, text, _ = token
            if kind == SYMBOL and text in ("-", "/") and i > 0 and _is_operand_end(tokens[i - 1]):
                self._binary(i, token)
            elif kind == SYMBOL and text == "⁻" and i + 1 < len(tokens) and tokens[i + 1][1] == "¹":
                if i == 0:
                    continue
                operand = tokens[_primary_before(tokens, i - 1) : i]
                if operand and not self.positive(operand):
                    self.lint.add(
                        self.decl,
                        token,
                        "junk-div",
                        f"`{_bracketed(operand)}⁻¹` of a term not known positive (0⁻¹ = 0)",
                    )
            elif (kind == IDENT and text in ("Real.sqrt", "sqrt")) or (
                kind == SYMBOL and text == "√"
            ):
                arg = tokens[slice(*_term_after(tokens, i + 1))]
                if arg and not self.nonnegative(arg):
                    self.lint.add(
                        self.decl,
                        token,
                        "junk-sqrt",
                        f"`{text} {_show(arg)}` of a term not known nonnegative (√x = 0 for x < 0)",
                    )
            elif kind == IDENT and text in ("Real.log", "Real.logb"):
                start = i + 1
                if text == "Real.logb":
                    start = _term_after(tokens, start)[1]
                arg = tokens[slice(*_term_after(tokens, start))]
                if arg and not self.positive(arg):
                    self.lint.add(
                        self.decl,
                        token,
                        "junk-log",
                        f"`{text} {_show(arg)}` of a term not known positive (log 0 = 0)",
                    )

    def _binary(self, i: int, token: Token) -> None:
        tokens = self.tokens
        text = token[1]
        left = tokens[slice(*_chain_before(tokens, i))]
        right_span = _chain_after(tokens, i + 1) if text == "-" else _term_after(tokens, i + 1)
        right = tokens[slice(*right_span)]
        operands = {self.tree_kind(left), self.tree_kind(right)}
        tree = self.tree_kind(self._tree(i))
        if "nat" in operands and tree == "nat" and text == "-":
            self.lint.add(
                self.decl, token, "nat-sub", f"`{_show(left)} - {_show(right)}` on ℕ truncates at 0"
            )
            return
        if text == "/" and tree in ("nat", "int") and operands & {"nat", "int"}:
            rule, ring = ("nat-div", "ℕ") if tree == "nat" else ("int-div", "ℤ")
            self.lint.add(
                self.decl,
                token,
                rule,
                f"`{_show(left)} / {_show(right)}` on {ring} rounds (and is 0 for a zero divisor)",
            )
            return
        if text == "/" and right and not self.positive(right):
            self.lint.add(
                self.decl,
                token,
                "junk-div",
                f"divisor `{_show(right)}` is not known positive (x / 0 = 0)",
            )


def _is_operand_end(token: Token) -> bool:
    kind, text, _ = token
    if kind in (IDENT, NUMBER, STRING):
        return text not in _TERM_STOP and text not in _KEYWORDS
    return kind == SYMBOL and (text in _CLOSE or text in ("‖", "¹", "!"))


def _number(text: str) -> float:
    digits = text.replace("_", "")
    try:
        return float(int(digits, 0))
    except ValueError:
        try:
            return float(digits)
        except ValueError:
            return 0.0


def _split(tokens: Sequence[Token], at: list[int]) -> list[Sequence[Token]]:
    parts: list[Sequence[Token]] = []
    start = 0
    for j in at:
        parts.append(tokens[start:j])
        start = j + 1
    parts.append(tokens[start:])
    return parts


def _arguments(tokens: Sequence[Token]) -> list[Sequence[Token]]:
    args: list[Sequence[Token]] = []
    j = 1
    while j < len(tokens):
        if not _is_primary_start(tokens[j]):
            break
        end = _primary_end(tokens, j)
        args.append(tokens[j:end])
        j = end
    return args


def _bracketed(tokens: Sequence[Token]) -> str:
    if len(tokens) == 1 or (tokens[0][1] == "(" and _match_forward(tokens, 0) == len(tokens)):
        return _show(tokens)
    return f"({_show(tokens)})"


def _show(tokens: Sequence[Token]) -> str:
    text = _norm(tokens).replace("ℝ ≥ 0 ∞", "ℝ≥0∞").replace("ℝ ≥ 0", "ℝ≥0")
    text = text.replace(" . ", ".").replace(") .", ").")
    text = re.sub(r"([(\[{⟨]) ", r"\1", text)
    text = re.sub(r" ([)\]}⟩,])", r"\1", text)
    text = text.replace(" ⁻ ¹", "⁻¹")
    return text if len(text) <= 60 else text[:57] + "…"


# ---------------------------------------------------------------- unused hypotheses
class _Unused:
    """Bound names and top-level premises of a Prop-valued definition that nothing uses."""

    def __init__(self, lint: _Env, decl: _Decl) -> None:
        self.lint = lint
        self.decl = decl
        # name -> (binding token, index in the token stream of params + body)
        self.vars: dict[str, Token] = {}
        self.order: list[str] = []
        self.links: list[tuple[set[str], Token | None, str]] = []
        self._positions: dict[str, int] = {}

    def run(self) -> None:
        decl = self.decl
        stream = [*decl.params, (SYMBOL, ":=", -1), *decl.body]
        cut = len(decl.params) + 1
        self._binder_groups(stream[: len(decl.params)], 0, stream)
        self._chain(stream, cut)

    # a binder list: `(x y : T) {z : U} [inst : C] [C x]`, or `x y : T`, or `x ∈ s`
    def _binder_groups(self, tokens: Sequence[Token], offset: int, stream: Sequence[Token]) -> None:
        i = 0
        bare: list[Token] = []
        while i < len(tokens):
            kind, text, _ = tokens[i]
            if kind == SYMBOL and text in ("(", "{", "⦃", "[", "⟨"):
                end = _match_forward(tokens, i)
                inner = tokens[i + 1 : end - 1]
                colons = _depth0(inner, [":"])
                if colons and colons[0] > 0 and all(t[0] == IDENT for t in inner[: colons[0]]):
                    names = list(inner[: colons[0]])
                    type_ = inner[colons[0] + 1 :]
                    for name in names:
                        self._bind(name, offset + i, stream)
                    for name in names:  # names sharing a binder are not linked to each other
                        self._link({name[1]} | self._mentioned(type_), None, "")
                elif text == "[":
                    self._link(self._mentioned(inner), tokens[i], _show(tokens[i:end]))
                i = end
            else:
                bare.append(tokens[i])
                i += 1
        if bare:
            colons = _depth0(bare, [":", "∈", "⊆", "<", "≤", ">", "≥", "≠"])
            names = [t for t in bare[: colons[0] if colons else len(bare)] if t[0] == IDENT]
            for name in names:
                self._bind(name, offset, stream)
            if colons:
                rest = bare[colons[0] + 1 :]
                relation = bare[colons[0]][1]
                if relation == ":":
                    for name in names:
                        self._link({name[1]} | self._mentioned(rest), None, "")
                else:
                    self._link({n[1] for n in names} | self._mentioned(rest), bare[0], _show(bare))

    def _bind(self, token: Token, index: int, stream: Sequence[Token]) -> None:
        name = token[1]
        if name.startswith("_") or name in self.vars:
            return
        self.vars[name] = token
        self.order.append(name)
        self._positions[name] = index

    def _chain(self, stream: Sequence[Token], start: int) -> None:
        """Split the body into ∀-binders, premises and the conclusion (top level only)."""
        i = start
        conclusion: Sequence[Token] = stream[start:]
        while i < len(stream):
            kind, text, _ = stream[i]
            nxt = stream[i + 1] if i + 1 < len(stream) else None
            if kind == SYMBOL and text == "∀" and not (nxt and nxt[1] in ("ᵐ", "ᶠ")):
                commas = _depth0(stream[i + 1 :], [","])
                if not commas:
                    break
                end = i + 1 + commas[0]
                self._binder_groups(stream[i + 1 : end], i + 1, stream)
                i = end + 1
                continue
            arrows = _depth0(stream[i:], ["→", "↔", "∀", "∃"])
            first = arrows[0] if arrows else None
            if first is None or stream[i + first][1] != "→":
                conclusion = stream[i:]
                break
            premise = stream[i : i + first]
            if any(t[0] == IDENT and t[1] in ("fun", "λ") for t in premise[:1]):
                conclusion = stream[i:]
                break
            self._link(self._mentioned(premise), premise[0] if premise else None, _show(premise))
            i = i + first + 1
        else:
            conclusion = []
        self._report(stream, conclusion)

    def _mentioned(self, tokens: Sequence[Token]) -> set[str]:
        names: set[str] = set()
        for kind, text, _ in tokens:
            if kind == IDENT:
                head = text.split(".", 1)[0]
                if head in self.vars:
                    names.add(head)
        return names

    def _link(self, names: set[str], token: Token | None, shown: str) -> None:
        self.links.append((names, token, shown))

    def _report(self, stream: Sequence[Token], conclusion: Sequence[Token]) -> None:
        for name in self.order:
            token = self.vars[name]
            after = stream[self._positions.get(name, 0) :]
            # a token is known by its offset: the compiled copy (mypyc) unboxes tuples, so a
            # token's identity does not survive it
            used = any(
                t[0] == IDENT and t[2] != token[2] and t[1].split(".", 1)[0] == name for t in after
            )
            if not used:
                self.lint.add(
                    self.decl,
                    token,
                    "unused-hypothesis",
                    f"`{name}` is bound but never used",
                )
        relevant = self._mentioned(conclusion)
        changed = True
        while changed:
            changed = False
            for names, _, _ in self.links:
                if names & relevant and not names <= relevant:
                    relevant |= names
                    changed = True
        for names, premise, shown in self.links:
            if premise is None:
                continue
            if not names & relevant:
                self.lint.add(
                    self.decl,
                    premise,
                    "unused-hypothesis",
                    f"hypothesis `{shown}` involves no name the conclusion depends on",
                )


# ------------------------------------------------------------------------- driver
def lint_missions(
    root: Path,
    workspace: Workspace,
    missions: Sequence[Mission],
    *,
    catalog: Sequence[Mission] = (),
    use_cache: bool = True,
) -> LintResult:
    """Lint the statement closure of every mission and apply the allow comments.

    A declaration's own findings are dropped where a target statement reaches it (that
    statement's findings, with its hypotheses in scope, stand instead), and name the
    statements that reach it. The statements of every mission of ``catalog`` that shares a
    file with ``missions`` count for both, so a mission's findings are the same whichever
    missions are linted with it.

    Results are cached (outside the repository, like scans): guard findings per mission,
    keyed by its target statements and the content of every file of its statement closure;
    local findings per module, keyed likewise by its import closure; allow comments per
    file. An edit re-lints only what can see the edited file."""
    chosen = frozenset(m.id for m in missions)
    store = _read_cache(root) if use_cache else {}
    _prefer_compiled(missions)
    found = _lint_part(root, workspace, missions, catalog, chosen, store)
    return _conclude(root, [found], use_cache)


def _prefer_compiled(missions: Sequence[Mission]) -> None:
    """Lint many missions with the compiled copy of this module (where the install built
    one): loading it costs about what linting one mission does."""
    if len(missions) >= PARALLEL_MISSIONS:
        native.prefer_compiled()


def _runner() -> type[_Run]:
    """The class that runs the rules: the compiled copy's where this process uses it
    (:mod:`missions.lean.native`), else this module's. What leaves a run is plain data, its
    cache entries, which both give alike; nothing of the copy's own classes escapes."""
    compiled = native.compiled_lint()
    return _Run if compiled is None else cast("type[_Run]", compiled._Run)


#: The lint's cache: per (kind, name), the key and the stored line (see
#: :func:`missions.cache.read_records`).
_Records = dict[tuple[str, str], tuple[str, str]]


def _read_cache(root: Path) -> _Records:
    return read_records(default_cache_dir(root) / CACHE_FILE, _cache_version())


@dataclass
class _Found:
    """What linting some of the missions found, before allow comments apply: the parts
    linted side by side (:func:`lint_in_background`) merge into the one result."""

    #: guard findings, per mission
    raw: list[_Raw] = field(default_factory=list)
    #: local findings, per file (a file in the closures of two parts is linted by both)
    local: dict[str, list[_Raw]] = field(default_factory=dict)
    reached: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    allows: dict[str, list[_Allow]] = field(default_factory=dict)
    malformed: dict[str, list[Finding]] = field(default_factory=dict)
    owners: dict[str, set[str]] = field(default_factory=dict)
    #: the cache entries this part used or made, as their stored lines (a forked part sends
    #: text back, not a decoded copy of the cache)
    fresh: dict[tuple[str, str], str] = field(default_factory=dict)
    #: a file could not be linted as scanned: nothing is stored
    unstable: bool = False


def _lint_part(
    root: Path,
    workspace: Workspace,
    missions: Sequence[Mission],
    catalog: Sequence[Mission],
    chosen: frozenset[str],
    store: _Records,
) -> _Found:
    """Lint ``missions``, one part of the ``chosen`` ones; the statements of the missions of
    ``catalog`` outside ``chosen`` that share a file with this part count as reaching."""
    run = _runner()(root, workspace, store)
    found = _Found()
    closures: list[tuple[Mission, list[Module]]] = []
    pending: dict[str, int] = {}  # module -> missions still to lint that hold it
    for mission in missions:
        if mission.lean.statements_module not in workspace.modules:
            continue
        closure = [workspace.modules[n] for n in statement_closure(workspace, mission)]
        closures.append((mission, closure))
        for module in closure:
            found.owners.setdefault(run.rel(module), set()).add(mission.id)
            pending[module.name] = pending.get(module.name, 0) + 1
    reached = found.reached
    for other in catalog:  # the neighbours: what their statements reach, nothing else
        if other.id in chosen or other.lean.statements_module not in workspace.modules:
            continue
        closure = [workspace.modules[n] for n in statement_closure(workspace, other)]
        if any(module.name in pending for module in closure):
            for rel, name, roots in run.mission(other, closure)["reached"]:
                reached.setdefault((rel, name), set()).update(roots)
    for mission, closure in closures:
        entry = run.mission(mission, closure)
        found.raw.extend(_Raw.from_json(r) for r in entry["raw"])
        for rel, name, roots in entry["reached"]:
            reached.setdefault((rel, name), set()).update(roots)
        for module in closure:
            rel = run.rel(module)
            if rel in found.allows:
                continue
            found.local[rel] = [_Raw.from_json(r) for r in run.module(module)["raw"]]
            allowed = run.allows(module)
            found.allows[rel] = [
                _Allow(line, tuple(rules), why, last)
                for line, rules, why, last in allowed["allows"]
            ]
            found.malformed[rel] = [
                Finding(rel, line, "lint-allow", m) for line, m in allowed["malformed"]
            ]
        for module in closure:  # a module's own import closure lies inside every closure holding it
            pending[module.name] -= 1
            if not pending[module.name]:
                run.forget(module)
    found.fresh = run.fresh
    found.unstable = run.unstable
    return found


def _conclude(root: Path, parts: Sequence[_Found], use_cache: bool) -> LintResult:
    """Merge the parts, store their cache entries, apply the allow comments."""
    whole = _Found()
    for part in parts:
        whole.raw.extend(part.raw)
        for name in ("local", "allows", "malformed"):  # a file's are the same in every part
            for rel, value in getattr(part, name).items():
                getattr(whole, name).setdefault(rel, value)
        for key, roots in part.reached.items():
            whole.reached.setdefault(key, set()).update(roots)
        for rel, owners in part.owners.items():
            whole.owners.setdefault(rel, set()).update(owners)
        whole.fresh.update(part.fresh)
        whole.unstable |= part.unstable
    if use_cache and not whole.unstable:
        lines = (line for _, line in sorted(whole.fresh.items()))
        write_records(default_cache_dir(root) / CACHE_FILE, _cache_version(), lines)
    raw = whole.raw + [r for found in whole.local.values() for r in found]
    kept = [r for r in raw if not (r.standalone and (r.rel, r.decl) in whole.reached)]
    return _finish(kept, whole.reached, whole.allows, whole.malformed, whole.owners)


def _cache_version() -> str:
    """The rules' version and a hash of this module: editing a rule invalidates the cache."""
    try:
        source = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    except OSError:
        source = "unknown"
    return f"{LINT_VERSION}:{source}"


class _Run:
    """One lint run: parsed files and declarations, and the cache entries it reuses or makes."""

    def __init__(self, root: Path, workspace: Workspace, store: _Records) -> None:
        self.root = root
        self.workspace = workspace
        self.cached = store
        self.fresh: dict[tuple[str, str], str] = {}
        self._rels: dict[str, str] = {}
        #: a file changed under the run: its results are not stored
        self.unstable = False
        self._files: dict[str, _File | None] = {}
        self._decls: dict[str, list[_Decl]] = {}

    def rel(self, module: Module) -> str:
        if module.name not in self._rels:
            self._rels[module.name] = module.rel(self.root)
        return self._rels[module.name]

    def key(self, *parts: Any, modules: Iterable[Module]) -> str:
        """An entry's key: the files by content (the hash their scan was made from), so an
        entry holds wherever the same text is, and a touched file costs nothing."""
        files = [[self.rel(m), m.sha] for m in modules]
        return hashlib.sha256(json.dumps([LINT_VERSION, *parts, files]).encode()).hexdigest()

    def file(self, module: Module) -> _File | None:
        """The module's text as scanned. A file whose bytes changed since its scan (or that
        cannot be read now) ends the run as bad input: linting other text than the scan
        read, or none, could pass a gate on a state nothing checked whole. A module whose
        bytes the scan could not read as Lean (a fault the gate reports) is linted as empty,
        and nothing of the run is stored."""
        if module.name not in self._files:
            found: _File | None = None
            if module.sha:
                try:
                    data: bytes | None = read_regular(str(module.path), MAX_LEAN_BYTES)[0]
                except OSError:
                    data = None
                if data is None or hashlib.sha256(data).hexdigest() != module.sha:
                    raise InputError.single(
                        module.path,
                        1,
                        "changed while it was being checked (its bytes are not the ones "
                        "scanned); run the command again",
                    )
                # bytes that are not UTF-8: the scan read the same and reports them as a fault
                with contextlib.suppress(UnicodeDecodeError):
                    found = _file_of(module.rel(self.root), data.decode("utf-8"))
            if found is None:
                self.unstable = True
            self._files[module.name] = found
        return self._files[module.name]

    def forget(self, module: Module) -> None:
        """Drop the tokens and declarations of a module no remaining mission needs."""
        self._files.pop(module.name, None)
        self._decls.pop(module.name, None)

    def decls(self, module: Module) -> list[_Decl]:
        if module.name not in self._decls:
            file = self.file(module)
            parsed = [_parse_decl(file, d) for d in module.scan.decls] if file else []
            self._decls[module.name] = [d for d in parsed if d is not None]
        return self._decls[module.name]

    def _entry(self, kind: str, name: str, key: str) -> dict[str, Any] | None:
        """The stored entry of (kind, name) if it was made under ``key``."""
        stored = self.cached.get((kind, name))
        if stored is None or stored[0] != key:
            return None
        entry = record_entry(stored[1])
        if not isinstance(entry, dict):
            return None  # damaged: made again
        self.fresh[(kind, name)] = stored[1]
        return entry

    def _made(self, kind: str, name: str, key: str, entry: dict[str, Any]) -> dict[str, Any]:
        self.fresh[(kind, name)] = record_line(kind, name, key, entry)
        return entry

    def mission(self, mission: Mission, closure: list[Module]) -> dict[str, Any]:
        """Guard findings of one mission and, per declaration, the roots that reach it."""
        wanted = sorted({t.statement for t in mission.targets if t.statement})
        key = self.key(mission.id, wanted, modules=closure)
        entry = self._entry("missions", mission.id, key)
        if entry is None:
            decls = [d for m in closure for d in self.decls(m)]
            env = _Env(decls, [d for d in decls if d.name in wanted], mission.id)
            roots_of = env.reached()
            by_id = {id(d): d for d in decls}
            entry = {
                "raw": [r.to_json() for r in env.guard_rules()],
                "reached": sorted(
                    [by_id[k].file.rel, by_id[k].name, sorted({u.name for u in users})]
                    for k, users in roots_of.items()
                ),
            }
            self._made("missions", mission.id, key, entry)
        return entry

    def module(self, module: Module) -> dict[str, Any]:
        """Local findings of one module, in the environment of its import closure."""
        visible = [self.workspace.modules[n] for n in self.workspace.closure(module.name)]
        key = self.key(module.name, modules=visible)
        entry = self._entry("modules", module.name, key)
        if entry is None:
            env = _Env([d for m in visible for d in self.decls(m)])
            entry = {"raw": [r.to_json() for r in env.local_rules(self.decls(module))]}
            self._made("modules", module.name, key, entry)
        return entry

    def allows(self, module: Module) -> dict[str, Any]:
        key = self.key(module.name, modules=[module])
        entry = self._entry("files", module.name, key)
        if entry is None:
            file = self.file(module)
            entry = {
                "allows": [[a.line, list(a.rules), a.reason, a.last] for a in file.allows]
                if file
                else [],
                "malformed": [[f.line, f.message] for f in file.malformed] if file else [],
            }
            self._made("files", module.name, key, entry)
        return entry


def _finish(
    raw: list[_Raw],
    reached: dict[tuple[str, str], set[str]],
    allows: dict[str, list[_Allow]],
    malformed: dict[str, list[Finding]],
    owners: dict[str, set[str]],
) -> LintResult:
    merged: dict[tuple[str, int, str, str], tuple[set[str], list[str]]] = {}
    for r in raw:
        key = (r.rel, r.line, r.rule, r.message)
        if r.statements is None:  # a local finding: every owner, every statement reaching it
            missions = owners.get(r.rel, set())
            statements = sorted(reached.get((r.rel, r.decl), set()))
        else:
            missions = {r.mission} if r.mission else set()
            statements = r.statements
        entry = merged.setdefault(key, (set(), []))
        entry[0].update(missions)
        entry[1].extend(x for x in statements if x not in entry[1])
    findings: list[Finding] = []
    for (rel, line, rule, message), (missions, statements) in merged.items():
        roots = ", ".join(sorted(statements)) or "no target statement"
        allow = _allow_for(allows.get(rel, []), line, rule)
        findings.append(
            Finding(
                rel,
                line,
                rule,
                message.replace("{roots}", roots),
                accepted=allow is not None,
                reason=allow.reason if allow else None,
                missions=tuple(sorted(missions)),
                statements=tuple(sorted(statements)),
            )
        )
    for rel, bad in malformed.items():
        who = tuple(sorted(owners.get(rel, ())))
        findings.extend(Finding(f.path, f.line, f.rule, f.message, missions=who) for f in bad)
    for rel, file_allows in allows.items():
        who = tuple(sorted(owners.get(rel, ())))
        for allow in file_allows:
            if not allow.used:
                findings.append(
                    Finding(
                        rel,
                        allow.line,
                        "unused-allow",
                        f"`-- lint: allow {', '.join(allow.rules)}` accepts no finding on its "
                        "lines or the line after",
                        level="warning",
                        missions=who,
                    )
                )
    findings.sort(key=lambda f: (f.path, f.line, f.rule, f.message))
    with_allows = {rel for rel, found in allows.items() if found} | {
        rel for rel, bad in malformed.items() if bad
    }
    return LintResult(findings, tuple(sorted(with_allows)))


def _allow_for(allows: list[_Allow], line: int, rule: str) -> _Allow | None:
    for allow in allows:
        if allow.covers(line) and rule in allow.rules:
            allow.used = True
            return allow
    return None


#: Fewer missions than this are linted in one process: forking costs more than it saves.
PARALLEL_MISSIONS = 16


def lint_in_background(
    root: Path, workspace: Workspace, missions: Sequence[Mission], catalog: Sequence[Mission]
) -> Callable[[], LintResult]:
    """Start :func:`lint_missions` in forked processes and return what waits for them.

    Linting re-reads every statement closure; ``status`` needs its counts but also analyses
    every target, and the two are independent. The missions are split into one part per
    core (see :func:`missions.forked.cores`), each linted in its own child while this
    process analyses: on a cold cache that takes the lint off the critical path. A file
    shared by two parts is linted by both (the same findings; the merge keeps one). A part
    whose child failed, or could not start, is linted here when the result is asked for
    (the same result, sequentially; a bad input is reported from here).
    """
    chosen = frozenset(m.id for m in missions)
    _prefer_compiled(missions)  # before the children start: they inherit it
    count = forked.cores() if len(missions) >= PARALLEL_MISSIONS else 1
    parts = forked.split(list(missions), count)
    children = [
        forked.start(functools.partial(_lint_cached_part, root, workspace, part, catalog, chosen))
        for part in parts
    ]

    def result() -> LintResult:
        found = [
            waiting() or _lint_cached_part(root, workspace, part, catalog, chosen)
            for waiting, part in zip(children, parts, strict=True)
        ]
        return _conclude(root, found, use_cache=True)

    return result


def _lint_cached_part(
    root: Path,
    workspace: Workspace,
    missions: Sequence[Mission],
    catalog: Sequence[Mission],
    chosen: frozenset[str],
) -> _Found:
    return _lint_part(root, workspace, missions, catalog, chosen, _read_cache(root))
