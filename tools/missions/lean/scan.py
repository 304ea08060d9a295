"""Per-file structure of Lean source: commands, declarations, scopes, sorries and tricks.

The scanner splits the token stream into commands the way Lean's command parser would for
ordinary Mathlib-style files, tracks ``namespace``/``section``/``end``/``open``/``variable``
scopes, and records for every declaration what a status decision needs: its qualified name,
kind, modifiers and attributes, its type when that is a single name, every identifier it
mentions, and the lines of ``sorry``-like terms and native computation inside it.

When the source does something the scanner cannot follow (custom syntax, elaborators,
environment-modifying commands), it records that fact instead of guessing, so the status
layer can refuse to certify anything that could depend on it.
"""

from __future__ import annotations

import bisect
import hashlib
from dataclasses import dataclass, field
from typing import Any

from missions.lean.lexer import (
    DOC,
    HASH,
    IDENT,
    KIND_NAMES,
    MODDOC,
    STRING,
    SYMBOL,
    Source,
    Token,
    ident_name,
    lex,
)

DECL_KEYWORDS = frozenset(
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
        "irreducible_def",
    }
)
MODIFIERS = frozenset(
    {"private", "protected", "noncomputable", "unsafe", "partial", "nonrec", "local", "scoped"}
)
NOTATION_COMMANDS = frozenset(
    {"notation", "notation3", "infix", "infixl", "infixr", "prefix", "postfix"}
)
#: Commands that extend the parser or elaborator with code the scanner cannot follow.
CODE_EXTENSION_COMMANDS = frozenset(
    {
        "macro",
        "macro_rules",
        "syntax",
        "elab",
        "elab_rules",
        "declare_syntax_cat",
        "simproc",
        "simproc_decl",
        "dsimproc",
        "dsimproc_decl",
        "binder_predicate",
        "declare_simp_like_tactic",
        "register_simp_attr",
    }
)
#: Commands that run arbitrary code against the environment.
ENV_COMMANDS = frozenset({"run_cmd", "run_elab", "run_meta", "initialize", "builtin_initialize"})
ENV_HASH_COMMANDS = frozenset({"#eval", "#eval!", "#exec", "#run_cmd"})
OTHER_COMMANDS = frozenset(
    {
        "namespace",
        "section",
        "end",
        "mutual",
        "universe",
        "variable",
        "import",
        "attribute",
        "export",
        "omit",
        "include",
        "add_decl_doc",
        "alias",
        "deriving",
        "compile_inductive",
        "open",
        "set_option",
        "prelude",
        "assert_not_exists",
        "suppress_compilation",
        "unseal",
        "seal",
        "library_note",
        "initialize_simps_projections",
        "proof_wanted",
        "recall",
    }
)
#: Keywords that may also appear inside terms and tactic blocks (``open Foo in``,
#: ``set_option x y in``): they start a command only at column 0 or outside a declaration.
SOFT_COMMANDS = frozenset({"open", "set_option"})
COMMAND_KEYWORDS = (
    DECL_KEYWORDS
    | MODIFIERS
    | NOTATION_COMMANDS
    | CODE_EXTENSION_COMMANDS
    | ENV_COMMANDS
    | OTHER_COMMANDS
)
SORRY_IDENTS = frozenset({"sorry", "admit", "sorryAx", "_root_.sorryAx"})
NATIVE_IDENTS = frozenset(
    {
        "native_decide",
        "bv_decide",
        "bv_check",
        "ofReduceBool",
        "Lean.ofReduceBool",
        "ofReduceNat",
        "Lean.ofReduceNat",
        "trustCompiler",
        "Lean.trustCompiler",
        "reduceBool",
        "Lean.reduceBool",
        "reduceNat",
        "Lean.reduceNat",
    }
)
#: Attributes that only affect reduction, compilation hints or documentation; a declaration
#: carrying only these is not picked up implicitly by automation.
INERT_ATTRIBUTES = frozenset(
    {
        "reducible",
        "irreducible",
        "semireducible",
        "inline",
        "noinline",
        "always_inline",
        "macro_inline",
        "specialize",
        "deprecated",
        "inherit_doc",
        "pp_nodot",
        "nolint",
        "match_pattern",
        "elab_as_elim",
        "elab_without_expected_type",
        "expose",
        "pp_with_univ",
        "local",
        "scoped",
        "export",
    }
)
FORBIDDEN_ATTRIBUTES = {
    "implemented_by": "`implemented_by` replaces compiled code behind the kernel's back",
    "extern": "`extern` binds a declaration to foreign code",
    "csimp": "`csimp` replaces compiled implementations",
}
OPEN_BRACKETS = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "@[": "]", "%[": "]"}
CLOSE_BRACKETS = frozenset({")", "]", "}", "⟩", "⦄"})
HEADER_WORDS = frozenset({"module", "prelude", "import", "public", "meta", "private", "all"})


@dataclass
class Finding:
    """Something in a file the gate forbids or the status layer must take into account."""

    line: int
    #: axiom, unsafe, implemented_by, extern, csimp, debug, env, native, prelude, open-private
    code: str
    message: str


@dataclass
class Decl:
    """A declaration, or a command that acts like one for reachability (notation, attribute)."""

    name: str
    kind: str
    line: int
    end_line: int
    start: int
    end: int
    namespace: str
    opens: list[str]
    modifiers: list[str] = field(default_factory=list)
    attrs: list[str] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)
    dot_mentions: list[str] = field(default_factory=list)
    sorries: list[int] = field(default_factory=list)
    natives: list[int] = field(default_factory=list)
    has_binders: bool = False
    type_name: str | None = None
    type_tokens: int = 0
    variables: bool = False
    implicit: bool = False

    @property
    def is_theorem(self) -> bool:
        return self.kind in ("theorem", "lemma")


@dataclass
class Extension:
    """A command that extends syntax or elaboration; ``code`` ones run arbitrary code."""

    line: int
    command: str
    code: bool
    atoms: list[str] = field(default_factory=list)
    sorries: list[int] = field(default_factory=list)


@dataclass
class FileScan:
    imports: list[tuple[str, int]] = field(default_factory=list)
    decls: list[Decl] = field(default_factory=list)
    extensions: list[Extension] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    sorry_lines: list[int] = field(default_factory=list)
    exit_line: int | None = None
    error: tuple[int, str] | None = None
    digest: str = ""

    def to_json(self) -> dict[str, Any]:
        # dataclasses.asdict deep-copies every list; the fields here are plain data already
        return {
            "imports": self.imports,
            "decls": [vars(d) for d in self.decls],
            "extensions": [vars(e) for e in self.extensions],
            "findings": [vars(f) for f in self.findings],
            "sorry_lines": self.sorry_lines,
            "exit_line": self.exit_line,
            "error": self.error,
            "digest": self.digest,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FileScan:
        return cls(
            imports=[(m, line) for m, line in data["imports"]],
            decls=[Decl(**d) for d in data["decls"]],
            extensions=[Extension(**e) for e in data["extensions"]],
            findings=[Finding(**f) for f in data["findings"]],
            sorry_lines=list(data["sorry_lines"]),
            exit_line=data["exit_line"],
            error=(data["error"][0], data["error"][1]) if data["error"] else None,
            digest=data["digest"],
        )


@dataclass
class _Scope:
    kind: str  # namespace | section | mutual
    parts: list[str]
    opens: list[str] = field(default_factory=list)
    variables: bool = False


def token_digest(tokens: list[Token], exit_cut: bool) -> str:
    """sha256 of the token stream with comments and layout removed (what a pin hashes)."""
    h = hashlib.sha256()
    for kind, text, _ in tokens:
        if kind in (DOC, MODDOC):
            continue
        h.update(KIND_NAMES[kind].encode())
        h.update(b"\x1f")
        h.update(text.encode())
        h.update(b"\x1e")
    if exit_cut:
        h.update(b"#exit")
    return h.hexdigest()


class _FileScanner:
    def __init__(self, source: Source) -> None:
        self.src = source
        self.tokens = source.tokens
        self.result = FileScan()
        self.scopes: list[_Scope] = [_Scope("root", [])]
        self.pending_opens: list[str] = []
        self.sorry_at: list[int] = []
        self.native_at: list[int] = []
        self._native_set: set[int] = set()

    # ----------------------------------------------------------------- helpers
    def line(self, index: int) -> int:
        return self.src.line(self.tokens[index][2])

    def namespace(self) -> str:
        return ".".join(p for s in self.scopes if s.kind == "namespace" for p in s.parts)

    def opens(self) -> list[str]:
        found = [o for s in self.scopes for o in s.opens]
        return found + self.pending_opens

    def variables_in_scope(self) -> bool:
        return any(s.variables for s in self.scopes)

    def qualify(self, name: str) -> str:
        if name.startswith("_root_."):
            return name[len("_root_.") :]
        ns = self.namespace()
        return f"{ns}.{name}" if ns else name

    # ---------------------------------------------------------------- commands
    def run(self) -> FileScan:
        tokens = self.tokens
        start = self._header()
        # token indices of sorry-like and native terms, found once and sliced per command
        self.sorry_at = [i for i in range(start, len(tokens)) if self._is_sorry(i)]
        self.native_at = [i for i in range(start, len(tokens)) if self._is_native(i)]
        self._native_set = set(self.native_at)
        bounds = self._split(start)
        for begin, end in bounds:
            self._command(begin, end)
        self.result.sorry_lines = sorted({self.line(i) for i in self.sorry_at})
        if self.src.exit_offset is not None:
            self.result.exit_line = self.src.line(self.src.exit_offset)
        if self.src.error is not None:
            self.result.error = (self.src.line(self.src.error.offset), self.src.error.message)
        self.result.digest = token_digest(tokens, self.src.exit_offset is not None)
        return self.result

    def _header(self) -> int:
        tokens = self.tokens
        i = 0
        while i < len(tokens):
            kind, text, _ = tokens[i]
            if kind in (DOC, MODDOC):
                i += 1
                continue
            if kind != IDENT or text not in HEADER_WORDS:
                break
            if text == "prelude":
                self.result.findings.append(
                    Finding(self.line(i), "prelude", "`prelude` replaces Lean's core library")
                )
            if text == "import":
                j = i + 1
                while (
                    j < len(tokens) and tokens[j][0] == IDENT and tokens[j][1] not in HEADER_WORDS
                ):
                    self.result.imports.append((ident_name(tokens[j][1]), self.line(j)))
                    j += 1
                i = j
                continue
            i += 1
        return i

    def _starts_command(self, i: int, in_decl_body: bool, in_prefix: bool) -> bool:
        kind, text, offset = self.tokens[i]
        if kind == HASH:
            return not in_decl_body or self.src.column(offset) == 0
        if kind == DOC:
            return not in_prefix and self._doc_precedes_command(i)
        if kind == SYMBOL and text == "@[":
            return not in_prefix
        if kind != IDENT or text not in COMMAND_KEYWORDS:
            return False
        if in_prefix:
            return False
        prev = self.tokens[i - 1] if i > 0 else None
        if text == "instance" and prev is not None and prev[1] in ("deriving", "attribute"):
            return False
        if text in ("inductive", "abbrev") and prev is not None and prev[1] == "class":
            return False
        if text == "private" and prev is not None and prev[1] == "open":
            return False
        if text == "deriving":
            nxt = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
            return nxt is not None and nxt[1] == "instance"
        if text in SOFT_COMMANDS:
            return not in_decl_body or self.src.column(offset) == 0
        return True

    def _doc_precedes_command(self, i: int) -> bool:
        j = i + 1
        while j < len(self.tokens) and self.tokens[j][0] == DOC:
            j += 1
        if j >= len(self.tokens):
            return True
        kind, text, _ = self.tokens[j]
        return (kind == SYMBOL and text == "@[") or (kind == IDENT and text in COMMAND_KEYWORDS)

    def _split(self, start: int) -> list[tuple[int, int]]:
        """Command boundaries as token index ranges."""
        tokens = self.tokens
        bounds: list[tuple[int, int]] = []
        depth = 0
        begin = start
        in_decl_body = False
        in_prefix = False
        for i in range(start, len(tokens)):
            kind, text, _ = tokens[i]
            if depth == 0 and i > begin and self._starts_command(i, in_decl_body, in_prefix):
                bounds.append((begin, i))
                begin = i
            if i == begin:
                in_prefix = kind == DOC or text == "@[" or (kind == IDENT and text in MODIFIERS)
                in_decl_body = kind == IDENT and text in DECL_KEYWORDS
            elif (
                in_prefix
                and depth == 0
                and kind != DOC
                and text != "@["
                and not (kind == IDENT and text in MODIFIERS)
            ):
                in_prefix = False
                in_decl_body = kind == IDENT and text in DECL_KEYWORDS
            if kind == SYMBOL:
                if text in OPEN_BRACKETS:
                    depth += 1
                elif text in CLOSE_BRACKETS and depth > 0:
                    depth -= 1
        if begin < len(tokens):
            bounds.append((begin, len(tokens)))
        return bounds

    def _command(self, begin: int, end: int) -> None:
        tokens = self.tokens
        i = begin
        attrs: list[str] = []
        modifiers: list[str] = []
        while i < end:
            kind, text, _ = tokens[i]
            if kind == DOC:
                i += 1
            elif kind == SYMBOL and text == "@[":
                i = self._attributes(i, end, attrs)
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
        if kind == HASH:
            if text in ENV_HASH_COMMANDS:
                self._finding(i, "env", f"`{text}` runs code that can modify the environment")
            self._scan_body_findings(begin, end)
            return
        if kind != IDENT:
            self._scan_body_findings(begin, end)
            return
        self._scan_body_findings(begin, end)
        if "unsafe" in modifiers:
            self._finding(begin, "unsafe", "`unsafe` declarations bypass the kernel's checks")
        for attr in attrs:
            if attr in FORBIDDEN_ATTRIBUTES:
                self._finding(begin, attr, FORBIDDEN_ATTRIBUTES[attr])
        if text in DECL_KEYWORDS:
            self.pending_opens = pending
            self._declaration(begin, i, end, text, attrs, modifiers)
            self.pending_opens = []
        elif text == "namespace":
            parts = self._idents(i + 1, end)
            name = parts[0] if parts else ""
            self.scopes.append(_Scope("namespace", name.split(".") if name else []))
        elif text == "section":
            parts = self._idents(i + 1, end)
            self.scopes.append(_Scope("section", parts[0].split(".") if parts else []))
        elif text == "mutual":
            self.scopes.append(_Scope("mutual", []))
        elif text == "end":
            if len(self.scopes) > 1:
                self.scopes.pop()
        elif text == "open":
            self._open(i, end)
        elif text == "export":
            self.scopes[-1].opens.extend(self._open_targets(self._idents(i + 1, end)[:1]))
        elif text in ("variable", "include"):
            self.scopes[-1].variables = True
        elif text == "set_option":
            if tokens[end - 1][1] == "in":
                self.pending_opens = pending
        elif text == "attribute":
            self._attribute_command(begin, i, end)
        elif text in NOTATION_COMMANDS:
            self._notation(begin, i, end, text)
        elif text in CODE_EXTENSION_COMMANDS:
            self.result.extensions.append(
                Extension(self.line(i), text, True, self._atoms(i, end), self._sorries(i, end))
            )
        elif text in ENV_COMMANDS:
            self._finding(i, "env", f"`{text}` runs code that can modify the environment")
        elif text == "deriving":
            self._pseudo_decl(begin, end, "deriving")

    def _finding(self, index: int, code: str, message: str) -> None:
        self.result.findings.append(Finding(self.line(index), code, message))

    def _scan_body_findings(self, begin: int, end: int) -> None:
        tokens = self.tokens
        for j in range(begin, end):
            kind, text, _ = tokens[j]
            if kind != IDENT:
                continue
            if text == "set_option" and j + 1 < end and tokens[j + 1][1].startswith("debug."):
                self._finding(j, "debug", f"`set_option {tokens[j + 1][1]}` weakens checking")
            elif j in self._native_set:
                self._finding(j, "native", f"`{text}` trusts compiled code (adds an axiom)")
            elif text == "open" and j + 1 < end and tokens[j + 1][1] == "private":
                self._finding(j, "open-private", "`open private` reaches private declarations")
            elif text in ENV_COMMANDS or text == "run_tac":
                self._finding(j, "env", f"`{text}` runs code that can modify the environment")

    def _is_sorry(self, j: int) -> bool:
        kind, text, offset = self.tokens[j]
        if kind != IDENT:
            return False
        if text in SORRY_IDENTS or text.endswith(".sorryAx"):
            return True
        if text == "stop" and j > 0:
            # the `stop` tactic is `repeat sorry`; only count it in tactic position
            _, prev_text, prev_offset = self.tokens[j - 1]
            if prev_text in ("by", ";", "<;>", "·", ".", "(", "=>", "then", "else"):
                return True
            return self.src.line(prev_offset) != self.src.line(offset)
        return False

    def _is_native(self, j: int) -> bool:
        kind, text, _ = self.tokens[j]
        if kind != IDENT:
            return False
        if text in NATIVE_IDENTS:
            return True
        if text == "native":
            prev = self.tokens[j - 1][1] if j > 0 else ""
            nxt = self.tokens[j + 1][1] if j + 1 < len(self.tokens) else ""
            return prev == "+" or nxt == ":="
        return False

    def _lines_within(self, indices: list[int], begin: int, end: int) -> list[int]:
        low = bisect.bisect_left(indices, begin)
        high = bisect.bisect_left(indices, end)
        return sorted({self.line(j) for j in indices[low:high]})

    def _sorries(self, begin: int, end: int) -> list[int]:
        return self._lines_within(self.sorry_at, begin, end)

    def _natives(self, begin: int, end: int) -> list[int]:
        return self._lines_within(self.native_at, begin, end)

    def _idents(self, begin: int, end: int) -> list[str]:
        return [ident_name(t[1]) for t in self.tokens[begin:end] if t[0] == IDENT]

    def _atoms(self, begin: int, end: int) -> list[str]:
        return [t[1].strip('"') for t in self.tokens[begin:end] if t[0] == STRING]

    def _attributes(self, i: int, end: int, attrs: list[str]) -> int:
        """Collect attribute names from ``@[a, b c, -d]``; return the index after ``]``."""
        expect_name = True
        j = i + 1
        depth = 1
        while j < end and depth > 0:
            kind, text, _ = self.tokens[j]
            if kind == SYMBOL and text in OPEN_BRACKETS:
                depth += 1
            elif kind == SYMBOL and text in CLOSE_BRACKETS:
                depth -= 1
            elif depth == 1 and kind == SYMBOL and text == ",":
                expect_name = True
            elif depth == 1 and expect_name and kind == IDENT:
                if text in ("local", "scoped"):
                    pass
                else:
                    attrs.append(text)
                    expect_name = False
            j += 1
        return j

    def _open_targets(self, names: list[str]) -> list[str]:
        ns = self.namespace()
        found: list[str] = []
        for name in names:
            found.append(name)
            parts = ns.split(".") if ns else []
            for k in range(len(parts), 0, -1):
                found.append(".".join(parts[:k]) + "." + name)
        return found

    def _open(self, i: int, end: int) -> None:
        tokens = self.tokens
        names: list[str] = []
        j = i + 1
        skip = {"scoped", "hiding", "renaming", "private", "in", "→", "=>"}
        depth = 0
        while j < end:
            kind, text, _ = tokens[j]
            if kind == SYMBOL and text == "(":
                depth += 1
            elif kind == SYMBOL and text == ")":
                depth -= 1
            elif kind == IDENT and depth == 0 and text not in skip:
                names.append(ident_name(text))
            j += 1
        targets = self._open_targets(names)
        if tokens[end - 1][1] == "in":
            self.pending_opens = targets
        else:
            self.scopes[-1].opens.extend(targets)

    def _declaration(
        self, begin: int, i: int, end: int, keyword: str, attrs: list[str], modifiers: list[str]
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
        if name_token is not None:
            name = self.qualify(ident_name(tokens[name_token][1]))
        else:
            name = self.qualify(f"_{kind.replace(' ', '_')}_{self.line(i)}")
        has_binders, type_begin, type_end = self._signature(j, end)
        type_name = None
        if type_end - type_begin == 1 and tokens[type_begin][0] == IDENT:
            type_name = ident_name(tokens[type_begin][1])
        mentions, dots = self._mentions(begin, end, skip=name_token)
        implicit = keyword == "instance" or any(a not in INERT_ATTRIBUTES for a in attrs)
        decl = Decl(
            name=name,
            kind=kind,
            line=self.line(begin),
            end_line=self.src.line(tokens[end - 1][2]),
            start=tokens[begin][2],
            end=tokens[end - 1][2] + len(tokens[end - 1][1]),
            namespace=self.namespace(),
            opens=self.opens(),
            modifiers=modifiers,
            attrs=attrs,
            mentions=mentions,
            dot_mentions=dots,
            sorries=self._sorries(begin, end),
            natives=self._natives(begin, end),
            has_binders=has_binders,
            type_name=type_name,
            type_tokens=type_end - type_begin,
            variables=self.variables_in_scope(),
            implicit=implicit,
        )
        if keyword == "axiom":
            self._finding(begin, "axiom", f"axiom `{name}` adds an unproved assumption")
        self.result.decls.append(decl)

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
        for j in range(begin, end):
            kind, text, offset = tokens[j]
            if kind != IDENT or j == skip:
                continue
            name = ident_name(text)
            prev = tokens[j - 1] if j > 0 else None
            if (
                prev is not None
                and prev[0] == SYMBOL
                and prev[1] in (".", "|>.")
                and prev[2] + len(prev[1]) == offset
            ):
                dots.add(name)
            names.add(name)
        return sorted(names), sorted(dots)

    def _pseudo_decl(self, begin: int, end: int, kind: str) -> Decl:
        mentions, dots = self._mentions(begin, end)
        decl = Decl(
            name=f"<{kind}@{self.line(begin)}>",
            kind=kind,
            line=self.line(begin),
            end_line=self.src.line(self.tokens[end - 1][2]),
            start=self.tokens[begin][2],
            end=self.tokens[end - 1][2] + len(self.tokens[end - 1][1]),
            namespace=self.namespace(),
            opens=self.opens(),
            mentions=mentions,
            dot_mentions=dots,
            sorries=self._sorries(begin, end),
            natives=self._natives(begin, end),
            variables=self.variables_in_scope(),
            implicit=True,
        )
        self.result.decls.append(decl)
        return decl

    def _attribute_command(self, begin: int, i: int, end: int) -> None:
        attrs: list[str] = []
        j = i + 1
        if j < end and self.tokens[j][1] == "[":
            j = self._attributes(j, end, attrs)
        for attr in attrs:
            if attr in FORBIDDEN_ATTRIBUTES:
                self._finding(i, attr, FORBIDDEN_ATTRIBUTES[attr])
        if all(a.startswith("-") or a in INERT_ATTRIBUTES for a in attrs):
            return
        self._pseudo_decl(begin, end, "attribute").attrs = attrs

    def _notation(self, begin: int, i: int, end: int, command: str) -> None:
        self.result.extensions.append(
            Extension(self.line(i), command, False, self._atoms(i, end), self._sorries(i, end))
        )
        self._pseudo_decl(begin, end, command)


def scan_source(text: str) -> FileScan:
    """Scan one Lean file's text."""
    return _FileScanner(lex(text)).run()
