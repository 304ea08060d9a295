"""Per-file structure of Lean source: header, commands, declarations, scopes, sorries and tricks.

The scanner never decides what a proof *does*; it records, for each file, everything a
sound over-approximation of "what can this proof reach" needs:

* the header, exactly as Lean 4.30 parses it: ``module``? ``prelude``? then
  ``public? meta? import all? Name`` lines, ending at the first token that is none of these;
* the commands, split where Lean would split them. A boundary is *certain* when a keyword
  that can only start a command appears at bracket depth 0, and *uncertain* when the text
  could equally continue the previous declaration (``open … in`` or ``set_option … in`` at
  column 0 inside a proof, a ``#command`` or ``@[…]`` inside a body, an unknown word at
  column 0). The tokens after an uncertain boundary count both as a command of their own and
  as part of the declaration before it, so a wrong split can only add reach, never remove it;
* for every declaration: its name, the namespace Lean resolves its names in (including the
  prefix of a dotted name such as ``theorem A.B.c``), modifiers and attributes, every
  identifier it mentions, the names its constructors and fields generate, its ``sorry``-like
  terms, native computation and environment-searching tactics (``exact?``);
* what bounds name resolution in the file: every namespace opened anywhere (any depth,
  ``open … in`` inside tactics included), renamings, exports and aliases;
* commands the scanner cannot bound: custom syntax, metaprogram attributes, code run at
  elaboration or import time, unknown commands. These are recorded, not guessed at, so the
  status layer can refuse to certify what may depend on them.
"""

from __future__ import annotations

import bisect
import hashlib
import re
import sys
from dataclasses import dataclass, field, fields, replace
from operator import attrgetter
from typing import Any

from missions.lean.lexer import (
    DOC,
    HASH,
    IDENT,
    KIND_NAMES,
    MODDOC,
    NAME,
    STRING,
    SYMBOL,
    Source,
    Token,
    ident_name,
    ident_parts,
    lex,
)
from missions.lean.vocabulary import (
    AUTOMATION_ATTRIBUTES,
    AUTOMATION_COMMANDS,
    CLOSE_BRACKETS,
    CODE_EXTENSION_COMMANDS,
    COMMAND_KEYWORDS,
    CONTINUATION_WORDS,
    DECL_KEYWORDS,
    ENV_COMMANDS,
    ENV_HASH_COMMANDS,
    FORBIDDEN_ATTRIBUTES,
    GENERATED_SUFFIXES,
    GENERATING_KEYWORDS,
    INERT_ATTRIBUTES,
    INERT_COMMANDS,
    INERT_HASH_COMMANDS,
    INLINE_CODE,
    MODIFIERS,
    NATIVE_IDENTS,
    NOTATION_COMMANDS,
    OPEN_BRACKETS,
    PLACEHOLDER,
    SEARCH_TACTICS,
    SOFT_COMMANDS,
    SORRY_IDENTS,
    UNSAFE_OPTION_PREFIXES,
)


@dataclass(slots=True)
class Finding:
    """Something in a file the gate forbids or the status layer must take into account."""

    line: int
    #: axiom, unsafe, implemented_by, extern, csimp, init, debug, env, native, prelude,
    #: open-private, import
    code: str
    message: str


@dataclass(slots=True)
class Decl:
    """A declaration, or a command that acts like one for reachability (notation, attribute).

    Its sequences are tuples: a large workspace holds about a million of them, most empty
    (the empty tuple is one shared object; an empty list is 56 bytes).
    """

    name: str
    kind: str
    line: int
    end_line: int
    start: int
    end: int
    #: the namespace Lean resolves the declaration's names in (with a dotted name's prefix)
    namespace: str
    #: namespaces open at the declaration (scoped opens, ``open … in``, the enclosing
    #: namespace when a dotted name moved the resolution namespace)
    opens: tuple[str, ...]
    modifiers: tuple[str, ...] = ()
    attrs: tuple[str, ...] = ()
    mentions: tuple[str, ...] = ()
    dot_mentions: tuple[str, ...] = ()
    #: names this declaration generates, by their last component (fields, constructors)
    generated: tuple[str, ...] = ()
    #: mentions that come only from commands after an uncertain boundary (they count for
    #: reach, but do not make a theorem refer to itself)
    tail_mentions: tuple[str, ...] = ()
    sorries: tuple[int, ...] = ()
    natives: tuple[int, ...] = ()
    #: lines of environment-searching tactics (``exact?``): their reach is unbounded
    searches: tuple[int, ...] = ()
    has_binders: bool = False
    type_name: str | None = None
    type_tokens: int = 0
    variables: bool = False
    implicit: bool = False
    #: a short hash of the declaration's tokens (doc comments excluded): an edit that keeps
    #: every other field (``n ^ 2`` to ``n ^ 3``) still changes what the lints read
    content: str = ""
    #: Lean knows it by this name from other modules: not ``private``, and in a file of the
    #: module system (``module`` header) ``public`` or inside a ``public section``; anything
    #: else is named ``_private.<module>.0.<name>`` and no target can be it
    exported: bool = True

    @property
    def is_theorem(self) -> bool:
        return self.kind in ("theorem", "lemma")


@dataclass(slots=True)
class Extension:
    """Something that extends syntax or elaboration; ``code`` ones run arbitrary code."""

    line: int
    command: str
    code: bool
    atoms: list[str] = field(default_factory=list)
    sorries: list[int] = field(default_factory=list)


@dataclass(slots=True)
class FileScan:
    imports: list[tuple[str, int]] = field(default_factory=list)
    decls: list[Decl] = field(default_factory=list)
    extensions: list[Extension] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    sorry_lines: list[int] = field(default_factory=list)
    #: every namespace opened anywhere in the file, with the readings Lean may give it
    opens: list[str] = field(default_factory=list)
    #: ``open … renaming old → new``: new name to old names
    renames: dict[str, list[str]] = field(default_factory=dict)
    #: namespaces exported (``export X (…)``): visible wherever this file is imported
    exports: list[str] = field(default_factory=list)
    #: commands the scanner does not know, as (line, first word): their effect is unbounded
    unknown: list[tuple[int, str]] = field(default_factory=list)
    #: doc-comment lines that still hold the ``missions new`` placeholder, as (line, text)
    placeholders: list[tuple[int, str]] = field(default_factory=list)
    #: why the scanner is not certain of the file's scopes, as (line, message): where it is
    #: not, the full names it gives declarations may not be Lean's
    structure: list[tuple[int, str]] = field(default_factory=list)
    #: words besides ``sorry`` that may close a goal without a proof, as (line, word); their
    #: lines are among the sorry lines
    admits: list[tuple[int, str]] = field(default_factory=list)
    exit_line: int | None = None
    error: tuple[int, str] | None = None
    digest: str = ""
    #: the file starts with `module` (the module system: it imports only such files)
    module: bool = False

    def to_json(self) -> dict[str, Any]:
        """Plain data, with declarations, extensions and findings as positional rows (a
        workspace has tens of thousands of declarations: repeating field names per row
        doubled the size of the cache)."""
        return {
            "imports": self.imports,
            "decls": [list(decl_row(d)) for d in self.decls],
            "extensions": [list(_extension_row(e)) for e in self.extensions],
            "findings": [list(_finding_row(f)) for f in self.findings],
            "sorry_lines": self.sorry_lines,
            "opens": self.opens,
            "renames": self.renames,
            "exports": self.exports,
            "unknown": self.unknown,
            "placeholders": self.placeholders,
            "structure": self.structure,
            "admits": self.admits,
            "exit_line": self.exit_line,
            "error": self.error,
            "digest": self.digest,
            "module": self.module,
        }

    @classmethod
    def from_json(
        cls, data: dict[str, Any], shared: dict[tuple[Any, ...], tuple[Any, ...]] | None = None
    ) -> FileScan:
        """The scan :meth:`to_json` wrote. ``shared``: equal sequences already decoded (one
        per load): a declaration's opens, attributes and modifiers are most often those of
        many others, and one tuple each was a tenth of a large workspace's memory."""
        shared = {} if shared is None else shared
        return cls(
            imports=[(sys.intern(m), line) for m, line in data["imports"]],
            decls=[_decl(row, shared) for row in data["decls"]],
            extensions=[Extension(*row) for row in data["extensions"]],
            findings=[Finding(*row) for row in data["findings"]],
            sorry_lines=data["sorry_lines"],
            opens=[sys.intern(name) for name in data["opens"]],
            renames=data["renames"],
            exports=data["exports"],
            unknown=[(line, word) for line, word in data["unknown"]],
            placeholders=[(line, text) for line, text in data["placeholders"]],
            structure=[(line, text) for line, text in data["structure"]],
            admits=[(line, word) for line, word in data["admits"]],
            exit_line=data["exit_line"],
            error=(data["error"][0], data["error"][1]) if data["error"] else None,
            digest=data["digest"],
            module=data["module"],
        )


def record_fields(record: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(record))


decl_row = attrgetter(*record_fields(Decl))
_extension_row = attrgetter(*record_fields(Extension))
_finding_row = attrgetter(*record_fields(Finding))
#: Positions of a declaration row's names: one string, and tuples of them. A workspace holds
#: a million mentions of a few tens of thousands of names; decoded from JSON each is its own
#: string, interned they are shared (a third of a large workspace's memory).
_NAME_AT = [i for i, n in enumerate(record_fields(Decl)) if n in ("kind", "namespace")]
_TYPE_AT = record_fields(Decl).index("type_name")
_NAMES_AT = [
    i
    for i, n in enumerate(record_fields(Decl))
    if n
    in ("opens", "modifiers", "attrs", "mentions", "dot_mentions", "generated", "tail_mentions")
]
_NUMBERS_AT = [
    i for i, n in enumerate(record_fields(Decl)) if n in ("sorries", "natives", "searches")
]


def _decl(row: list[Any], shared: dict[tuple[Any, ...], tuple[Any, ...]]) -> Decl:
    intern = sys.intern
    for index in _NAME_AT:
        row[index] = intern(row[index])
    for index in _NAMES_AT:
        if row[index]:
            # a sequence met before is that tuple, its names interned then
            names = shared.get(tuple(row[index]))
            if names is None:
                names = tuple([intern(name) for name in row[index]])
                shared[names] = names
            row[index] = names
        else:
            row[index] = ()
    for index in _NUMBERS_AT:
        row[index] = tuple(row[index])
    if row[_TYPE_AT] is not None:  # a few thousand type names, each of many theorems
        row[_TYPE_AT] = intern(row[_TYPE_AT])
    return Decl(*row)


@dataclass
class _Scope:
    """One scope as Lean keeps it: ``namespace A.B`` opens two, ``A`` then ``B``."""

    kind: str  # root | namespace | section | mutual
    #: the scope's header: one name component ("" for an anonymous section or ``mutual``)
    header: str
    opens: list[str] = field(default_factory=list)
    variables: bool = False
    #: `public section` (True) or `private section` (False) of the module system; None when
    #: the section says neither and the enclosing one decides
    public: bool | None = None


#: per token kind, what the digest writes before the token's text: its name and a separator
_DIGEST_PREFIXES: tuple[str, ...] = tuple(
    f"{KIND_NAMES[kind]}\x1f" if kind in KIND_NAMES else "" for kind in range(max(KIND_NAMES) + 1)
)


def token_digest(tokens: list[Token], exit_cut: bool, text: str) -> str:
    """sha256 of the token stream with comments removed (what a pin hashes).

    Lean's grammar reads layout: ``(x).f`` is a projection and ``(x) .f`` is not, ``a[i]``
    indexes and ``a [i]`` applies ``a`` to a list, and tactic blocks, ``do`` elements and
    ``match`` arms follow columns, also in the middle of a line (``withPosition``, ``colGe``).
    So each token records its column and whether it starts a line: reformatting that moves
    a token moves the pin, which is the safe direction; blank lines, comments and doc
    comments do not.
    """
    prefixes = _DIGEST_PREFIXES
    parts: list[str] = []
    append = parts.append
    find = text.find
    previous_end = 0  # the end of the last token the digest keeps
    line_start = 0
    first = "n"  # the first token kept counts as starting a line
    # the first line break at or after `previous_end`, found from `searched`: no break lies
    # in [searched, next_break), so it stays the first for any `previous_end` in between
    # (one search per line, not one per token: this loop is a tenth of a cold scan)
    end = len(text)
    searched = 0
    next_break = find("\n")
    if next_break < 0:
        next_break = end
    for kind, value, offset in tokens:
        if kind in (DOC, MODDOC):
            continue  # docs are free to change: they count as the space they fill
        # the column, after a line break ("n") or not: `withPosition`, `colGe` and `noWs`
        # read it
        if next_break < offset:
            line_start = text.rfind("\n", previous_end, offset) + 1
            append(f"{prefixes[kind]}{value}\x1fn{offset - line_start}\x1e")
        else:
            append(f"{prefixes[kind]}{value}\x1f{first}{offset - line_start}\x1e")
        first = ""
        previous_end = offset + len(value)
        if previous_end > next_break or previous_end < searched:
            searched = previous_end
            next_break = find("\n", previous_end)
            if next_break < 0:
                next_break = end
    stream = "".join(parts)
    if exit_cut:
        stream += "#exit"
    return hashlib.sha256(stream.encode()).hexdigest()


def option_is_unsafe(name: str) -> bool:
    """Whether an option name (any «» spelling) switches off checking; ``weak.X`` (set X
    if it exists, as ``-Dweak.…`` on Lean's command line does) counts as X."""
    plain = ident_name(name)
    while plain.startswith("weak."):
        plain = plain[len("weak.") :]
    return plain.startswith(UNSAFE_OPTION_PREFIXES)


def _hole_delta(text: str) -> int:
    """How an interpolated-string piece changes hole depth: ``"…{`` opens, ``}…"`` closes."""
    delta = 0
    if text.startswith("}"):
        delta -= 1
    if text.endswith("{"):
        delta += 1
    return delta


def _hands_to_automation(attrs: list[str]) -> bool:
    """Whether attributes give a declaration to automation (``simp``, ``aesop``, …): any that
    neither erases (``-simp``) nor is inert (``inline``, ``reducible``, …)."""
    return any(not a.startswith("-") and a not in INERT_ATTRIBUTES for a in attrs)


#: What a token can be to the one-pass scan, looked up once per token. The dangerous words
#: come from the generated vocabulary and count wherever they stand as a token: a word that
#: admits, trusts compiled code, searches or runs code is never read as harmless by position.
_SORRY, _NATIVE, _SEARCH, _ENV, _OPTION, _OPEN, _IMPORT, _CONFIG = range(8)
_SPECIAL: dict[str, int] = {
    **{word: _NATIVE for word in NATIVE_IDENTS},
    **{word: _SEARCH for word in SEARCH_TACTICS},
    **{word: _ENV for word in ENV_COMMANDS | INLINE_CODE},
    **{word: _SORRY for word in SORRY_IDENTS},
    "set_option": _OPTION,
    "open": _OPEN,
    "export": _OPEN,
    "import": _IMPORT,
    "config": _CONFIG,
}
_PLACEHOLDER = re.compile(rf"\b{PLACEHOLDER}\b")
#: Declarations whose body is one term (before any ``where``).
_TERM_DECLS = frozenset(
    {"theorem", "lemma", "def", "abbrev", "example", "opaque", "instance", "irreducible_def"}
)
#: What may sit between a command's docs, attributes and modifiers and its keyword.
_PREFIX_WORDS = MODIFIERS


class _FileScanner:
    """One file: a forward pass splits commands and indexes what matters, then each command
    is read from those indexes (never by re-walking every token)."""

    def __init__(self, source: Source) -> None:
        self.src = source
        self.tokens = source.tokens
        self.result = FileScan()
        self.scopes: list[_Scope] = [_Scope("root", "")]
        #: the file starts with `module`: declarations are private unless made public
        self.module_system = False
        #: the command before was a `… in` prefix of the next one
        self.after_in = False
        self.header_error: tuple[int, str] | None = None
        self.pending_opens: list[str] = []
        #: token indices, ascending
        self.sorry_at: list[int] = []
        self.native_at: list[int] = []
        self.search_at: list[int] = []
        self.ident_at: list[int] = []
        self.open_at: list[int] = []
        self.attr_at: list[int] = []
        self._leads: dict[int, bool] = {}
        self._texts: list[str] | None = None
        #: indexes of the words `where` and `rec`, which only a declaration with helpers holds
        self._helper_marks: list[int] | None = None

    # ----------------------------------------------------------------- helpers
    def line(self, index: int) -> int:
        return self.src.line(self.tokens[index][2])

    def namespace(self) -> str:
        return ".".join(s.header for s in self.scopes if s.kind == "namespace")

    def scope_opens(self) -> list[str]:
        found = [o for s in self.scopes for o in s.opens]
        return found + self.pending_opens

    def variables_in_scope(self) -> bool:
        return any(s.variables for s in self.scopes)

    def qualify(self, name: str) -> str:
        if name.startswith("_root_."):
            return name[len("_root_.") :]
        ns = self.namespace()
        return f"{ns}.{name}" if ns else name

    def _finding(self, index: int, code: str, message: str) -> None:
        self.result.findings.append(Finding(self.line(index), code, message))

    # ---------------------------------------------------------------- the file
    def run(self) -> FileScan:
        tokens = self.tokens
        src = self.src
        start = self._header()
        segments = self._split(start)
        # tokens after an uncertain boundary also belong to the command before it
        tails = [end for _, end, _ in segments]
        for k in range(len(segments) - 2, -1, -1):
            if not segments[k + 1][2]:
                tails[k] = tails[k + 1]
        for (begin, end, _), tail in zip(segments, tails, strict=True):
            self._command(begin, end, tail)
        result = self.result
        result.opens = list(dict.fromkeys(result.opens))
        result.sorry_lines = sorted({self.line(i) for i in self.sorry_at})
        if src.exit_offset is not None:
            result.exit_line = src.line(src.exit_offset)
        if src.error is not None:
            result.error = (src.line(src.error.offset), src.error.message)
        elif self.header_error is not None:
            result.error = self.header_error
        result.module = self.module_system
        result.digest = token_digest(tokens, src.exit_offset is not None, src.text)
        return result

    def _header(self) -> int:
        """Parse ``module? prelude? (public? meta? import all? Name)*``; return where it ends."""
        tokens = self.tokens
        n = len(tokens)
        i = 0
        if i < n and tokens[i][:2] == (IDENT, "module"):
            self.module_system = True
            i += 1
        if i < n and tokens[i][:2] == (IDENT, "prelude"):
            self._finding(i, "prelude", "`prelude` replaces Lean's core library")
            i += 1
        while i < n:
            j = i
            if j < n and tokens[j][:2] == (IDENT, "public"):
                j += 1
            if j < n and tokens[j][:2] == (IDENT, "meta"):
                j += 1
            if not (j < n and tokens[j][:2] == (IDENT, "import")):
                break
            if j > i and not self.module_system:
                self._fault(i, f"`{tokens[i][1]} import` needs a `module` header")
            j += 1
            if j < n and tokens[j][:2] == (IDENT, "all"):
                if not self.module_system:
                    self._fault(j, "`import all` needs a `module` header")
                j += 1
            if not (j < n and tokens[j][0] == IDENT):
                break  # `import` without a module: Lean reports it; nothing is imported
            if any("." in part or not part for part in ident_parts(tokens[j][1])):
                # `Formal.«.Hidden»`: a component with a dot names no file the scanner reads
                self._fault(j, f"`import {tokens[j][1]}` has a component with a dot")
            self.result.imports.append((ident_name(tokens[j][1]), self.line(j)))
            i = j + 1
        return i

    def _fault(self, index: int, message: str) -> None:
        """Text Lean 4.30 rejects (a header, a nameless theorem): the file never builds (the
        first such fault counts)."""
        if self.header_error is None:
            self.header_error = (self.line(index), message)

    def _special(self, j: int, code: int) -> None:
        """Record an identifier the one-pass scan flagged (sorry, option, search, ...)."""
        tokens = self.tokens
        text = tokens[j][1]
        if code == _SORRY:
            self.sorry_at.append(j)
            if ident_name(text) not in ("sorry", "sorryAx", "_root_.sorryAx"):
                self.result.admits.append((self.line(j), text))
        elif code == _NATIVE:
            self.native_at.append(j)
            self._finding(j, "native", f"`{text}` trusts compiled code (adds an axiom)")
        elif code == _CONFIG:
            if not self._readable_config(j):
                self.native_at.append(j)
                self._finding(
                    j,
                    "native",
                    "a tactic configuration the scanner cannot read may switch on compiled "
                    "evaluation (write it as `+option` flags or `{ field := value }`)",
                )
        elif code == _SEARCH:
            self.search_at.append(j)
        elif code == _ENV:
            self._finding(j, "env", f"`{text}` runs code that can modify the environment")
        elif code == _OPTION:
            following = tokens[j + 1] if j + 1 < len(tokens) else (0, "", 0)
            if following[0] == IDENT and option_is_unsafe(following[1]):
                name = ident_name(following[1])
                self._finding(j, "debug", f"`set_option {name}` weakens checking")
        elif code == _OPEN:
            self.open_at.append(j)
            if text == "open" and j + 1 < len(tokens) and tokens[j + 1][1] == "private":
                self._finding(j, "open-private", "`open private` reaches private declarations")
        elif code == _IMPORT:
            self._finding(j, "import", "`import` after the header: Lean rejects this file")
            if j + 1 < len(tokens) and tokens[j + 1][0] == IDENT:
                self.result.imports.append((ident_name(tokens[j + 1][1]), self.line(j + 1)))

    def _readable_config(self, j: int) -> bool:
        """``(config := { f := v, … })`` spells every field it sets; a configuration given
        any other way (a name, ``⟨…⟩``, ``{ c with … }``) may set ``native := true`` unseen.
        A ``config`` that is not such an argument is an ordinary name."""
        tokens = self.tokens
        if not (j > 0 and tokens[j - 1][1] == "(" and j + 1 < len(tokens)):
            return True
        if tokens[j + 1][1] != ":=":
            return True
        if j + 2 >= len(tokens) or tokens[j + 2][1] != "{":
            return False
        depth = 0
        for k in range(j + 2, len(tokens)):
            kind, value, _ = tokens[k]
            if kind == SYMBOL and value in OPEN_BRACKETS:
                depth += 1
            elif kind == SYMBOL and value in CLOSE_BRACKETS:
                depth -= 1
                if depth == 0:
                    return True
            elif depth == 1 and value in ("with", "..", "__"):
                return False
        return False

    def _placeholders(self, doc: str, offset: int) -> None:
        text = self.src.text
        for match in _PLACEHOLDER.finditer(doc):
            line = self.src.line(offset + match.start())
            start = text.rfind("\n", 0, offset + match.start()) + 1
            end = text.find("\n", offset + match.start())
            self.result.placeholders.append((line, text[start : end if end >= 0 else None].strip()))

    def _hash(self, j: int, text: str) -> None:
        if text in ENV_HASH_COMMANDS:
            self._finding(j, "env", f"`{text}` runs code that can modify the environment")
        elif text not in INERT_HASH_COMMANDS and text != "#exit":
            self.result.unknown.append((self.line(j), text))

    def _leads_to_command(self, i: int) -> bool:
        """Do the docs, attributes and modifiers from token ``i`` on end in a keyword that
        starts a command? Memoized over the whole run, so a long run of doc comments is
        walked once, not once per comment."""
        leads = self._leads
        if i in leads:
            return leads[i]
        tokens = self.tokens
        n = len(tokens)
        visited: list[int] = []
        j = i
        answer = False
        while j < n:
            if j in leads:
                answer = leads[j]
                break
            kind, text, _ = tokens[j]
            if kind == DOC or (kind == IDENT and text in _PREFIX_WORDS):
                visited.append(j)
                j += 1
            elif text == "@[":
                visited.append(j)
                j = self._skip_group(j, n)
            else:
                answer = kind == IDENT and text in COMMAND_KEYWORDS
                break
        for k in visited:
            leads[k] = answer
        return answer

    def _split(self, start: int) -> list[tuple[int, int, bool]]:
        """Commands as (begin, end, certain) token ranges; ``certain`` is about ``begin``.

        The same pass indexes identifiers, sorries, native computation, searches, opens,
        hash commands and unsafe options, so nothing later walks every token again.
        """
        tokens = self.tokens
        text = self.src.text
        special = _SPECIAL
        commands = COMMAND_KEYWORDS
        prefix_words = _PREFIX_WORDS
        opening, closing = OPEN_BRACKETS, CLOSE_BRACKETS
        ident_at = self.ident_at
        segments: list[tuple[int, int, bool]] = []
        depth = 0
        begin = start
        certain = True
        in_body = False  # inside a declaration, or a command that may hold a term
        in_prefix = False  # among docs, attributes and modifiers before a keyword
        #: inside a theorem's or definition's term, before any `where`: no doc comment or
        #: attribute belongs there, so one that starts no command is a break Lean rejects
        in_term = False
        for i in range(start, len(tokens)):
            kind, value, offset = tokens[i]
            top = depth == 0
            # 1. indexes, and does a new command start here?
            boundary: bool | None = None
            if kind == IDENT:
                ident_at.append(i)
                # `«sorryAx»` and `Lean.«ofReduceBool»` name the same constants
                code = special.get(ident_name(value) if "«" in value else value)
                if code is not None:
                    self._special(i, code)
                if top and i > begin and not in_prefix and not self._is_field(i):
                    if value in commands:
                        boundary = self._keyword_boundary(i, value, offset, in_body)
                    elif (
                        (offset == 0 or text[offset - 1] == "\n")
                        and value not in CONTINUATION_WORDS
                        and (i + 1 >= len(tokens) or tokens[i + 1][1] != "::")
                    ):
                        # a word at column 0: perhaps an unknown command (`mk' ::` names a
                        # structure's constructor, which no command starts with)
                        boundary = False
            elif kind == NAME:
                ident_at.append(i)  # a name literal may feed code that looks the name up
                if value.lstrip("`") in commands:
                    # `` `namespace Hard ``: a reader sees a command Lean never runs
                    self._uncertain(i, f"the name literal {value} reads like a command")
            elif kind == SYMBOL:
                code = special.get(value)
                if code is not None:
                    self._special(i, code)  # a symbol word (`∎` runs `try?`)
                if value == "@[":
                    self.attr_at.append(i)
                if value == "@[" and top and i > begin and not in_prefix:
                    if self._leads_to_command(i):
                        boundary = True
                    elif in_term:
                        boundary = False
            elif kind in (DOC, MODDOC):
                if PLACEHOLDER in value:
                    self._placeholders(value, offset)
                if kind == DOC and top and i > begin and not in_prefix:
                    if self._leads_to_command(i):
                        boundary = True
                    elif in_term:
                        boundary = False
            elif kind == HASH:
                code = special.get(value)
                if code is not None:
                    self._special(i, code)  # `#parse` runs code, `#loogle` searches
                self._hash(i, value)
                if top and i > begin and not in_prefix:
                    boundary = not in_body
            if boundary is not None:
                segments.append((begin, i, certain))
                begin, certain = i, boundary
                before = tokens[i - 1]  # i > begin
                if before[2] + len(before[1]) == offset:
                    # `2.def Goal …`: a reader takes the command for part of the token
                    # before it, Lean does not
                    self._uncertain(i, f"`{value}` starts a command with no space before it")
            # 2. where we are in the command
            is_prefix = kind == DOC or value == "@[" or (kind == IDENT and value in prefix_words)
            if i == begin:
                in_prefix = is_prefix and self._leads_to_command(i)
                in_body = kind == HASH or (
                    kind == IDENT and (value in DECL_KEYWORDS or value not in commands)
                )
                in_term = kind == IDENT and value in _TERM_DECLS
            elif in_prefix and top and not is_prefix:
                in_prefix = False
                in_body = kind == IDENT and value in DECL_KEYWORDS
                in_term = kind == IDENT and value in _TERM_DECLS
            elif top and kind == IDENT and value == "where":
                in_term = False
            # 3. bracket depth (interpolation holes count as brackets)
            if kind == SYMBOL:
                if value in opening:
                    depth += 1
                elif value in closing and depth > 0:
                    depth -= 1
            elif kind == STRING and (value[-1] == "{" or value[0] == "}"):
                depth = max(0, depth + _hole_delta(value))
        if begin < len(tokens):
            segments.append((begin, len(tokens), certain))
        return segments

    def _is_field(self, i: int) -> bool:
        """Whether the identifier at ``i`` follows a ``.`` with no space: a field name
        (``(x).end``, ``h.1.section``), which Lean reads as any word, keyword or not."""
        kind, text, offset = self.tokens[i - 1]
        return kind == SYMBOL and text in (".", "|>.") and offset + len(text) == self.tokens[i][2]

    def _keyword_boundary(self, i: int, text: str, offset: int, in_body: bool) -> bool | None:
        """For a known keyword at depth 0: None if it continues the command, else whether the
        command it starts is certainly one."""
        tokens = self.tokens
        prev = tokens[i - 1][1] if i > 0 else ""
        if prev == "|":
            return None  # a constructor or a pattern (Mathlib's `| opaque`), never a command
        if text == "instance" and prev == "deriving":
            return None
        if text in ("inductive", "abbrev") and prev == "class":
            return None
        if text == "deriving":
            nxt = tokens[i + 1][1] if i + 1 < len(tokens) else ""
            return True if nxt == "instance" else None
        if text in _PREFIX_WORDS and not self._leads_to_command(i):
            return None  # e.g. a `protected` structure field
        if text in SOFT_COMMANDS and in_body:
            column0 = self.src.text[offset - 1] == "\n"  # i > begin, so offset > 0
            return False if column0 else None
        return True

    # ------------------------------------------------------------- name scopes
    def _open_clause(self, j: int, end: int) -> list[str]:
        """Namespaces an ``open`` whose arguments start at token ``j`` may open.

        Reads ``scoped``/``private``/``hiding`` markers, explicit ``(names)`` and
        ``renaming a → b`` (recorded as renames), and stops at ``in`` or at the first token
        that cannot belong to it. Every opened name is returned in each reading Lean may give
        it (relative to the enclosing namespaces, or absolute).
        """
        tokens = self.tokens
        names: list[str] = []
        renaming = False
        while j < end:
            kind, text, _ = tokens[j]
            if kind == SYMBOL and text in ("(", ")", ","):
                j += 1
                continue
            if kind != IDENT or text == "in":
                break
            if text in ("scoped", "private", "hiding"):
                j += 1
                continue
            if text == "renaming":
                renaming = True
                j += 1
                continue
            if text in COMMAND_KEYWORDS:
                break
            if renaming and j + 2 < end and tokens[j + 1][1] in ("→", "->"):
                if tokens[j + 2][0] == IDENT:
                    new = ident_name(tokens[j + 2][1])
                    self.result.renames.setdefault(new, []).append(ident_name(text))
                j += 3
                continue
            names.append(ident_name(text))
            j += 1
        return self._open_targets(names)

    def _export_clause(self, j: int) -> list[str]:
        tokens = self.tokens
        names: list[str] = []
        if j < len(tokens) and tokens[j][0] == IDENT:
            names.append(ident_name(tokens[j][1]))
        return self._open_targets(names)

    def _open_targets(self, names: list[str]) -> list[str]:
        """``open X`` inside namespace ``A.B`` may mean ``A.B.X``, ``A.X`` or ``X``."""
        ns = self.namespace()
        found: list[str] = []
        parts = ns.split(".") if ns else []
        for name in names:
            if name.startswith("_root_."):
                found.append(name[len("_root_.") :])
                continue
            found.append(name)
            for k in range(len(parts), 0, -1):
                found.append(".".join(parts[:k]) + "." + name)
        return found

    def _record_opens(self, begin: int, end: int) -> None:
        """Every ``open``/``export`` in a command, at any depth (``open X in`` in tactics)."""
        tokens = self.tokens
        result = self.result
        low = bisect.bisect_left(self.open_at, begin)
        high = bisect.bisect_left(self.open_at, end)
        for j in self.open_at[low:high]:
            if tokens[j][1] == "open":
                result.opens.extend(self._open_clause(j + 1, end))
            else:
                exported = self._export_clause(j + 1)
                result.exports.extend(exported)
                result.opens.extend(exported)

    # -------------------------------------------------------------- commands
    def _command(self, begin: int, end: int, tail: int) -> None:
        tokens = self.tokens
        i = begin
        attrs: list[str] = []
        attr_args: list[str] = []
        modifiers: list[str] = []
        while i < end:
            kind, text, _ = tokens[i]
            if kind == DOC:
                i += 1
            elif text == "@[":
                i = self._attributes(i, end, attrs, attr_args)
            elif kind == IDENT and text in MODIFIERS:
                modifiers.append(text)
                i += 1
            else:
                break
        if i >= end:
            return
        kind, text, _ = tokens[i]
        pending = self.pending_opens
        self.pending_opens = []
        prefixed, self.after_in = self.after_in, False
        self._record_opens(begin, tail)
        if kind != IDENT:
            return
        if text not in DECL_KEYWORDS and self._has_in(i, end):
            self.after_in = True  # `open Foo in`, `set_option … in`: a prefix of the next
        if "unsafe" in modifiers:
            self._finding(begin, "unsafe", "`unsafe` declarations bypass the kernel's checks")
        self._check_attributes(begin, attrs, attr_args)
        if text in DECL_KEYWORDS:
            self.pending_opens = pending
            self._declaration(begin, i, end, tail, text, attrs, modifiers)
            self.pending_opens = []
        elif text in ("namespace", "section", "mutual", "end"):
            if prefixed:  # `cmd in namespace X` is `section cmd namespace X end`: an error
                self._uncertain(i, f"`… in` before `{text}`")
            visibility = None if "private" not in modifiers else False
            self._scope_command(i, end, text, True if "public" in modifiers else visibility)
        elif text == "open":
            targets = self._open_targets(self._idents_until_in(i + 1, end))
            if self._has_in(i, end):
                self.pending_opens = pending + targets
            else:
                self.scopes[-1].opens.extend(targets)
        elif text == "export":
            self.scopes[-1].opens.extend(self._export_clause(i + 1))
        elif text in ("variable", "include"):
            self.scopes[-1].variables = True
        elif text in ("set_option", "unset_option", "omit", "universe"):
            if self._has_in(i, end):
                self.pending_opens = pending
        elif text == "alias":
            self._alias(begin, i, end, tail, attrs)
        elif text in NOTATION_COMMANDS:
            self._notation(begin, i, end, text)
        elif text in CODE_EXTENSION_COMMANDS:
            self.result.extensions.append(
                Extension(self.line(i), text, True, self._atoms(i, end), self._sorries(i, end))
            )
        elif text in ENV_COMMANDS:
            pass  # reported by the file-wide pass
        elif text == "attribute":
            self._attribute_command(begin, i, end)
        elif text in AUTOMATION_COMMANDS or text == "deriving":
            self._pseudo_decl(begin, tail, text, implicit=True)
        elif text in INERT_COMMANDS or text in MODIFIERS:
            if self._has_in(i, end):
                self.pending_opens = pending
        else:
            # a word the scanner does not know in command position: Lean may run any
            # command here, so its effect is unbounded (recorded once per command), and
            # it may change the namespace later declarations are named in
            self.result.unknown.append((self.line(i), text))
            self._uncertain(i, f"unknown command `{text}`")
            self._pseudo_decl(begin, tail, "unknown command", implicit=True)

    def _scope_command(self, i: int, end: int, text: str, public: bool | None = None) -> None:
        """``namespace``, ``section``, ``mutual`` and ``end``, name component by component as
        Lean's ``addScopes`` and ``elabEnd`` keep them. Whatever Lean would reject (an ``end``
        whose name does not match, more ``end``s than scopes), or would read in a way this
        model does not follow (``namespace X in``), is recorded as uncertain structure."""
        tokens = self.tokens
        header = tokens[i + 1] if i + 1 < end and tokens[i + 1][0] == IDENT else None
        parts = ident_parts(header[1]) if header is not None else []
        rest = i + (2 if header is not None else 1)
        code = [t for t in tokens[rest:end] if t[0] not in (DOC, MODDOC)]
        if code:
            self._uncertain(i, f"`{text}` followed by `{code[0][1]}`")
        if any("." in part for part in parts):
            self._uncertain(i, f"`{header[1] if header else ''}` has a name component with a dot")
        if text == "mutual":
            self.scopes.append(_Scope("mutual", ""))
        elif text == "namespace":
            if not parts:
                self._uncertain(i, "`namespace` without a name")
            for part in parts:
                self.scopes.append(_Scope("namespace", part))
        elif text == "section":
            for part in parts or [""]:
                self.scopes.append(_Scope("section", part, public=public))
        else:  # end
            size = max(1, len(parts))
            if size >= len(self.scopes):
                self._uncertain(i, "`end` closes more scopes than are open")
                del self.scopes[1:]
                return
            closed = [s.header for s in self.scopes[-size:]]
            if closed != (parts or [""]):
                expected = ".".join(closed) or "no name"
                found = ".".join(parts) or "no name"
                self._uncertain(i, f"`end {found}` closes scopes opened as {expected}")
            del self.scopes[-size:]

    def _uncertain(self, index: int, message: str) -> None:
        self.result.structure.append((self.line(index), message))

    def _idents_until_in(self, j: int, end: int) -> list[str]:
        names: list[str] = []
        skip = {"scoped", "private", "hiding", "renaming"}
        while j < end:
            kind, text, _ = self.tokens[j]
            if kind == IDENT:
                if text == "in":
                    break
                if text not in skip:
                    names.append(ident_name(text))
            j += 1
        return names

    def _has_in(self, i: int, end: int) -> bool:
        """Whether the command at ``i`` is a ``… in`` prefix of the next one."""
        tokens = self.tokens
        for j in range(i + 1, end):
            kind, text, _ = tokens[j]
            if kind == IDENT and text == "in":
                return True
        return False

    def _check_attributes(self, index: int, attrs: list[str], args: list[str]) -> None:
        for attr in attrs:
            base = attr.lstrip("-")
            if base in FORBIDDEN_ATTRIBUTES:
                self._finding(index, base, FORBIDDEN_ATTRIBUTES[base])
            elif not attr.startswith("-") and self._runs_code(base, args):
                self.result.extensions.append(Extension(self.line(index), f"@[{base}]", True))

    @staticmethod
    def _runs_code(attr: str, args: list[str]) -> bool:
        """Whether an attribute may run workspace code during elaboration (conservative)."""
        if attr in INERT_ATTRIBUTES:
            return False
        if attr == "aesop":
            return "tactic" in args  # the `tactic` rule builder runs the declaration
        return attr not in AUTOMATION_ATTRIBUTES

    def _lines_within(self, indices: list[int], begin: int, end: int) -> list[int]:
        low = bisect.bisect_left(indices, begin)
        high = bisect.bisect_left(indices, end)
        return sorted({self.line(j) for j in indices[low:high]})

    def _sorries(self, begin: int, end: int) -> list[int]:
        return self._lines_within(self.sorry_at, begin, end)

    def _idents(self, begin: int, end: int) -> list[str]:
        return [ident_name(t[1]) for t in self.tokens[begin:end] if t[0] == IDENT]

    def _atoms(self, begin: int, end: int) -> list[str]:
        return [t[1].strip('"') for t in self.tokens[begin:end] if t[0] == STRING]

    def _attributes(self, i: int, end: int, attrs: list[str], args: list[str]) -> int:
        """Collect attribute names from ``@[a, b c, -d]``; return the index after ``]``."""
        expect_name = True
        j = i + 1
        depth = 1
        tokens = self.tokens
        while j < end and depth > 0:
            kind, text, _ = tokens[j]
            if kind == SYMBOL and text in OPEN_BRACKETS:
                depth += 1
            elif kind == SYMBOL and text in CLOSE_BRACKETS:
                depth -= 1
            elif depth == 1 and kind == SYMBOL and text == ",":
                expect_name = True
            elif depth == 1 and kind == SYMBOL and text == "-" and expect_name:
                if j + 1 < end and tokens[j + 1][0] == IDENT:
                    attrs.append("-" + ident_name(tokens[j + 1][1]))
                    expect_name = False
                    j += 1
            elif expect_name and kind == IDENT and depth == 1:
                if text not in ("local", "scoped"):
                    attrs.append(ident_name(text))
                    expect_name = False
            elif kind == IDENT:
                args.append(text)
            j += 1
        return j

    def _declaration(
        self,
        begin: int,
        i: int,
        end: int,
        tail: int,
        keyword: str,
        attrs: list[str],
        modifiers: list[str],
    ) -> None:
        tokens = self.tokens
        kind = keyword
        j = i + 1
        if keyword == "class" and j < end and tokens[j][1] in ("inductive", "abbrev"):
            kind = f"class {tokens[j][1]}"
            j += 1
        if keyword == "instance" and j < end and tokens[j][1] == "(":
            j = self._skip_group(j, end)
        name_token: int | None = None
        if keyword != "example" and j < end and tokens[j][0] == IDENT:
            name_token = j
            j += 1
            # universe parameters `foo.{u}` lex as `foo` `.` `{` ... `}`
            if j + 1 < end and tokens[j][1] == "." and tokens[j + 1][1] == "{":
                j = self._skip_group(j + 1, end)
        namespace = self.namespace()
        opens = self.scope_opens()
        if name_token is not None:
            raw = ident_name(tokens[name_token][1])
            name = self.qualify(raw)
            if any("." in part for part in ident_parts(tokens[name_token][1])):
                # `«A.B».c` has a component `A.B` that the dotted name cannot tell apart
                self._uncertain(
                    name_token, f"`{tokens[name_token][1]}` has a name component with a dot"
                )
            if _SPECIAL.get(raw, _OPTION) < _OPTION:  # a word that admits, searches, …
                self._uncertain(
                    name_token,
                    f"a declaration named `{raw}`, a word of the vocabulary that Lean may read "
                    "as the word itself",
                )
            if "." in raw:
                # `theorem A.B.c` is elaborated inside namespace A.B (of the current one)
                namespace = name.rsplit(".", 1)[0]
                opens = [*opens, *self._namespace_prefixes()]
        else:
            name = self.qualify(f"_{kind.replace(' ', '_')}_{self.line(i)}")
            if keyword not in ("example", "instance"):
                # `theorem #guard_msgs foo …`: Lean rejects the file; the scanner would
                # otherwise read an anonymous declaration and lose `foo`
                self._fault(i, f"`{keyword}` without a name: Lean rejects the declaration")
        has_binders, type_begin, type_end = self._signature(j, end)
        type_name = None
        if type_end - type_begin == 1 and tokens[type_begin][0] == IDENT:
            type_name = ident_name(tokens[type_begin][1])
        mentions, dots = self._mentions(begin, tail, skip=name_token)
        tail_mentions: list[str] = []
        if tail > end:
            own = set(self._mentions(begin, end, skip=name_token)[0])
            tail_mentions = [m for m in mentions if m not in own]
        generated: list[str] = []
        if keyword in GENERATING_KEYWORDS:  # `class inductive`/`class abbrev`: keyword `class`
            generated = self._generated(j, end)
        elif keyword == "irreducible_def" and name_token is not None:
            # `foo_def`, or the name given by `(lemma := bar)`, and the def itself
            last = ident_parts(tokens[name_token][1])[-1]
            generated = sorted({f"{last}_def", *self._idents(j, type_end)})
        # attributes written inside the declaration (on a `where` or `let rec` helper)
        inner = self._inner_attributes(j, tail)
        implicit = keyword == "instance" or _hands_to_automation(attrs + inner)
        decl = Decl(
            name=name,
            kind=kind,
            line=self.line(begin),
            end_line=self.line(end - 1),
            start=tokens[begin][2],
            end=tokens[end - 1][2] + len(tokens[end - 1][1]),
            namespace=namespace,
            opens=tuple(opens),
            modifiers=tuple(modifiers),
            attrs=tuple(attrs),
            mentions=tuple(mentions),
            dot_mentions=tuple(dots),
            generated=tuple(generated),
            tail_mentions=tuple(tail_mentions),
            sorries=tuple(self._sorries(begin, tail)),
            natives=tuple(self._lines_within(self.native_at, begin, tail)),
            searches=tuple(self._lines_within(self.search_at, begin, tail)),
            has_binders=has_binders,
            type_name=type_name,
            type_tokens=type_end - type_begin,
            variables=self.variables_in_scope(),
            implicit=implicit,
            content=self._content(begin, max(end, tail)),
            exported="private" not in modifiers
            and (not self.module_system or "public" in modifiers or self._public_scope()),
        )
        if keyword == "axiom":
            self._finding(begin, "axiom", f"axiom `{name}` adds an unproved assumption")
        self.result.decls.append(decl)
        helpers = self._helpers(j, end, where=keyword in _TERM_DECLS and keyword != "instance")
        for helper in helpers:
            # `where` and `let rec` helpers are constants `name.helper` of their own: each is
            # the declaration's text again, under the name Lean gives it
            self.result.decls.append(replace(decl, name=f"{name}.{helper}", kind="helper"))

    def _public_scope(self) -> bool:
        """Whether the innermost section that says so is a ``public section``."""
        for scope in reversed(self.scopes):
            if scope.public is not None:
                return scope.public
        return False

    def _helpers(self, j: int, end: int, *, where: bool) -> list[str]:
        """Names of the ``where`` and ``let rec`` helpers of a declaration: after a ``where``
        at the declaration's own depth (``where``: the declaration is a theorem or definition,
        whose ``where`` holds helpers, not fields), the first name on each line (after docs,
        attributes and modifiers); after ``let rec``, the name that follows."""
        tokens = self.tokens
        marks = self._helper_marks
        if marks is None:  # once per file: most declarations have neither word
            marks = self._helper_marks = [
                k
                for k, (kind, value, _) in enumerate(tokens)
                if kind == IDENT and value in ("where", "rec")
            ]
        if bisect.bisect_left(marks, j) == bisect.bisect_left(marks, end):
            return []
        text = self.src.text
        found: list[str] = []
        depth = 0
        after_where = False
        expect = False  # the next word at depth 0 may name a helper
        for k in range(j, end):
            kind, value, _ = tokens[k]
            named = k + 1 < end and tokens[k + 1][0] == IDENT
            if kind == IDENT and value == "rec" and k > j and tokens[k - 1][1] == "let" and named:
                found.append(ident_name(tokens[k + 1][1]))
            if kind == SYMBOL and value in OPEN_BRACKETS:
                depth += 1
                continue
            if kind == SYMBOL and value in CLOSE_BRACKETS:
                depth = max(0, depth - 1)
                continue
            if depth:
                continue
            if after_where:  # before any `where` no word names a helper
                line_start = text.rfind("\n", 0, tokens[k][2]) + 1
                if not text[line_start : tokens[k][2]].strip():
                    expect = True
            if kind == IDENT and value == "where" and where:
                after_where = expect = True
                continue
            if not expect or kind == DOC or (kind == IDENT and value in MODIFIERS):
                continue
            if kind == IDENT and value not in CONTINUATION_WORDS:
                found.append(ident_name(value))
            expect = False
        return list(dict.fromkeys(found))

    def _inner_attributes(self, j: int, end: int) -> list[str]:
        """Attributes of ``@[…]`` groups inside a declaration after its keyword (a ``where``
        helper's ``@[simp]``): checked like any others, and they may hand the declaration's
        text to automation."""
        found: list[str] = []
        low = bisect.bisect_left(self.attr_at, j)
        high = bisect.bisect_left(self.attr_at, end)
        for k in self.attr_at[low:high]:
            attrs: list[str] = []
            args: list[str] = []
            self._attributes(k, end, attrs, args)
            self._check_attributes(k, attrs, args)
            found.extend(attrs)
        return found

    def _content(self, begin: int, end: int) -> str:
        texts = self._texts
        if texts is None:  # once per file; a doc comment counts as an empty token
            texts = self._texts = [
                "" if kind in (DOC, MODDOC) else text for kind, text, _ in self.tokens
            ]
        return hashlib.blake2b("\x1f".join(texts[begin:end]).encode(), digest_size=8).hexdigest()

    def _namespace_prefixes(self) -> list[str]:
        parts = self.namespace().split(".") if self.namespace() else []
        return [".".join(parts[:k]) for k in range(len(parts), 0, -1)]

    def _generated(self, j: int, end: int) -> list[str]:
        """Last components of the names a structure, class or inductive generates.

        Over-approximated: every undotted identifier after the name (fields, constructors,
        binder names alike), ``toX`` for every ``extends X``, and the fixed suffixes.
        """
        tokens = self.tokens
        names: set[str] = set(GENERATED_SUFFIXES)
        extending = False
        for k in range(j, end):
            kind, text, _ = tokens[k]
            if kind != IDENT:
                continue
            if text == "extends":
                extending = True
                continue
            if text == "where":
                extending = False
            if extending:
                names.add("to" + ident_parts(text)[-1])
            if "." not in text:
                names.add(ident_name(text))
        return sorted(names)

    def _skip_group(self, j: int, end: int) -> int:
        depth = 0
        while j < end:
            text = self.tokens[j][1]
            if text in OPEN_BRACKETS:
                depth += 1
            elif text in CLOSE_BRACKETS:
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        return j

    def _signature(self, j: int, end: int) -> tuple[bool, int, int]:
        """(has binders, type start, type end) for tokens after a declaration's name."""
        tokens = self.tokens
        depth = 0
        colon: int | None = None
        k = j
        while k < end:
            kind, text, _ = tokens[k]
            if kind == SYMBOL and text in OPEN_BRACKETS:
                depth += 1
            elif kind == SYMBOL and text in CLOSE_BRACKETS:
                depth -= 1
            elif depth == 0 and kind == SYMBOL and text == ":" and colon is None:
                colon = k
            elif depth == 0 and (
                (kind == SYMBOL and text in (":=", "|")) or (kind == IDENT and text == "where")
            ):
                break
            k += 1
        if colon is None:
            return (k > j, k, k)
        return (colon > j, colon + 1, k)

    def _mentions(
        self, begin: int, end: int, skip: int | None = None
    ) -> tuple[list[str], list[str]]:
        tokens = self.tokens
        names: set[str] = set()
        dots: set[str] = set()
        low = bisect.bisect_left(self.ident_at, begin)
        high = bisect.bisect_left(self.ident_at, end)
        for j in self.ident_at[low:high]:
            if j == skip:
                continue
            _, text, offset = tokens[j]
            name = ident_name(text.lstrip("`"))
            names.add(name)
            prev_kind, prev_text, prev_offset = tokens[j - 1]
            if (
                prev_kind == SYMBOL
                and (prev_text == "." or prev_text == "|>.")
                and prev_offset + len(prev_text) == offset
            ):
                dots.add(name)
        return sorted(names), sorted(dots)

    def _pseudo_decl(
        self, begin: int, end: int, kind: str, *, implicit: bool, name: str | None = None
    ) -> Decl:
        mentions, dots = self._mentions(begin, end)
        decl = Decl(
            name=name or f"<{kind}@{self.line(begin)}>",
            kind=kind,
            line=self.line(begin),
            end_line=self.line(end - 1),
            start=self.tokens[begin][2],
            end=self.tokens[end - 1][2] + len(self.tokens[end - 1][1]),
            namespace=self.namespace(),
            opens=tuple(self.scope_opens()),
            mentions=tuple(mentions),
            dot_mentions=tuple(dots),
            sorries=tuple(self._sorries(begin, end)),
            natives=tuple(self._lines_within(self.native_at, begin, end)),
            searches=tuple(self._lines_within(self.search_at, begin, end)),
            variables=self.variables_in_scope(),
            implicit=implicit,
            content=self._content(begin, end),
        )
        self.result.decls.append(decl)
        return decl

    def _alias(self, begin: int, i: int, end: int, tail: int, attrs: list[str]) -> None:
        """``alias a := b`` / ``alias ⟨a, b⟩ := c``: each new name is a declaration naming c."""
        tokens = self.tokens
        new_names: list[str] = []
        j = i + 1
        while j < end and tokens[j][1] != ":=":
            if tokens[j][0] == IDENT:
                new_names.append(ident_name(tokens[j][1]))
            j += 1
        implicit = _hands_to_automation(attrs)
        for new in new_names or ["_alias"]:
            decl = self._pseudo_decl(
                j if j < end else begin, tail, "alias", implicit=implicit, name=self.qualify(new)
            )
            decl.attrs = tuple(attrs)
            decl.line = self.line(begin)  # where the command starts, as for every declaration

    def _attribute_command(self, begin: int, i: int, end: int) -> None:
        attrs: list[str] = []
        args: list[str] = []
        j = i + 1
        if j < end and self.tokens[j][1] == "[":
            j = self._attributes(j, end, attrs, args)
        self._check_attributes(i, attrs, args)
        if all(a.startswith("-") or a in INERT_ATTRIBUTES for a in attrs):
            return
        self._pseudo_decl(begin, end, "attribute", implicit=True).attrs = tuple(attrs)

    def _notation(self, begin: int, i: int, end: int, command: str) -> None:
        """A notation: a declaration automation may use unnamed. One whose tokens hold a
        character that can start or end a comment, string or character literal (`` +/ ``
        before ``--``) changes how every importing file must be read, which no static token
        table follows: it counts as custom syntax."""
        atoms = self._atoms(i, end)
        lexical = any(_lexical_atom(atom) for atom in atoms)
        self.result.extensions.append(
            Extension(self.line(i), command, lexical, atoms, self._sorries(i, end))
        )
        self._pseudo_decl(begin, end, command, implicit=True)


def _lexical_atom(atom: str) -> bool:
    """Whether a notation token can join a comment, string or character opener that follows
    or precedes it (`` +/ `` then ``--``, `` ⊆' ``)."""
    token = atom.strip()
    return len(token) > 1 and (token[0] in "/'\"«" or any(c in token[1:] for c in "-/'\"«"))


def scan_source(text: str) -> FileScan:
    """Scan one Lean file's text."""
    return _FileScanner(lex(text)).run()


__all__ = [
    "Decl",
    "Extension",
    "FileScan",
    "Finding",
    "option_is_unsafe",
    "scan_source",
    "token_digest",
]
