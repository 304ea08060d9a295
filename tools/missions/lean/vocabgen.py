"""Generate the vocabulary table (``vocabulary.json``) from the sources Lean builds with.

The scanner must know every word a proof can use to admit a goal, run native code, search the
environment or run code that changes it, and every symbol token that decides where comments
and strings start. Hand-kept lists of such words drift: a word the list never heard of reads
as a harmless name. So the table is generated from the ``syntax``, ``macro``, ``elab``,
``notation``-like and ``*_parser`` declarations of Lean core and of every package the
workspace's ``lake-manifest.json`` pins, read at their pinned revisions, and checked in::

    python -m missions.lean.vocabgen --out tools/missions/lean/vocabulary.json \\
        --modules-out tools/missions/lean/modules.json \\
        --source mathlib=git:PATH/mathlib4@c5ea003… --source core=dir:PATH/lean4 …

Each source is a package name and where its files are: ``git:GITDIR@REV`` (a clone or a bare
mirror, read at ``REV`` with ``git cat-file``) or ``dir:PATH`` (a checkout, or the
``src/lean`` folder of an installed toolchain; a ``MANIFEST.tsv`` there may name the commit
each file was read at).

For every leading word of a declared syntax (``exact?``, ``plausible``, ``bv_decide``) the
generator finds the code that implements it: the right-hand side of an ``elab``/``macro``,
the arms of ``elab_rules``/``macro_rules`` that match it, and definitions registered for its
syntax kind (``@[tactic k]``, ``@[builtin_tactic k]``, …). It classifies the word by what that
code names, as identifiers in code or quotations (never in comments or strings):

* ``admits``: it can close a goal without a proof (``admitGoal``, ``mkSorry``, ``sorry``);
* ``native``: it can make a proof trust compiled code (``ofReduceBool``, ``native``);
* ``search``: it can use any lemma of the environment (``librarySearch``, ``LazyDiscrTree``);
* ``inert``: none of these.

A fifth class, ``code`` (it runs code written in the proof: ``run_tac``, ``by_elab``), comes
from the review only: what a metaprogram does is beyond any marker.

A word whose implementation expands to another word (a macro) takes that word's class too.
Code the generator cannot follow (a helper in another file) is not seen, so a checked-in
review (``vocabulary-review.json``) adds what the sources' own documentation and the upstream
issue trackers establish, and lowers a class only with a reason (``decide`` names ``native``
for its option, which the scanner flags where it is written). Every entry keeps where it was
read and why it has its class.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from missions.lean.lexer import DOC, HASH, IDENT, STRING, SYMBOL, Token, ident_name, lex

#: The axioms every Mathlib proof may use.
STANDARD_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})
#: Classes, from the safest; a word's class is the worst that applies.
CLASSES = ("inert", "search", "code", "native", "admits")
#: What implementation code names, by class (identifiers compared by their last component).
MARKERS: dict[str, frozenset[str]] = {
    "admits": frozenset(
        {
            "sorry",
            "admit",
            "sorryAx",
            "admitGoal",
            "mkSorry",
            "mkLabeledSorry",
            "mkSyntheticSorry",
            "mkSyntheticSorryFor",
        }
    ),
    "native": frozenset(
        {
            "native",
            "native_decide",
            "nativeDecide",
            "ofReduceBool",
            "ofReduceNat",
            "reduceBool",
            "reduceNat",
            "trustCompiler",
        }
    ),
    "search": frozenset(
        {
            "librarySearch",
            "LibrarySearch",
            "LazyDiscrTree",
            "LibrarySuggestions",
            "suggestions",
            "findDeclsPerHead",
        }
    ),
}
#: Commands that declare syntax, and the category their syntax belongs to (None: read it).
DECLARERS: dict[str, str | None] = {
    "syntax": None,
    "macro": None,
    "elab": None,
    "notation": "term",
    "notation3": "term",
    "infix": "term",
    "infixl": "term",
    "infixr": "term",
    "prefix": "term",
    "postfix": "term",
    "binder_predicate": "binderPred",
}
RULES = frozenset({"macro_rules", "elab_rules"})
#: Attributes that register code for a syntax kind.
KIND_ATTRIBUTES = frozenset(
    {
        "tactic",
        "builtin_tactic",
        "command_elab",
        "builtin_command_elab",
        "term_elab",
        "builtin_term_elab",
        "macro",
        "builtin_macro",
        "builtin_doElem_elab",
        "doElem_elab",
    }
)
#: ``@[builtin_X_parser]`` and ``@[X_parser]`` attributes, by category.
PARSER_ATTRIBUTES = {
    f"{prefix}{category}_parser": category
    for prefix in ("", "builtin_")
    for category in ("tactic", "term", "command", "doElem", "conv", "attr", "prio", "level")
}
#: The bytes a file must hold to declare any syntax (a cheap filter before lexing).
_HINTS = (
    b"syntax",
    b"macro",
    b"elab",
    b"notation",
    b"infix",
    b"prefix",
    b"postfix",
    b"_parser",
    b"axiom",
    b"binder_predicate",
)


@dataclass
class Declaration:
    """One syntax: its category, its atoms (reserved or not), where, and its code."""

    category: str
    atoms: list[tuple[str, bool]]
    where: str
    kind: str | None = None
    #: identifiers its implementation names, and the quoted ones (the words it expands to)
    code: set[str] = field(default_factory=set)
    quoted: set[tuple[str, str]] = field(default_factory=set)
    interpolates: bool = False
    #: it starts with its own category (``x <;> y``), so no word of it starts it
    trailing: bool = False

    @property
    def leading(self) -> str | None:
        if self.trailing:
            return None
        for atom, _ in self.atoms:
            word = atom.strip()
            if word:
                return word
        return None


@dataclass
class Source:
    """A package's Lean files as the generator read them."""

    name: str
    location: str
    revision: str
    files: dict[str, str]
    #: per file, the revision it was read at when that differs (a manifest of copies)
    revisions: dict[str, str] = field(default_factory=dict)
    unreadable: list[str] = field(default_factory=list)
    #: the folders (or files) read: what the package's libraries build, not its tests
    folders: list[str] = field(default_factory=list)
    #: every module file under the folders, those left out of the reading (``!FOLDER``)
    #: included: they are still modules an import can name
    module_paths: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------- reading
def read_git(name: str, git_dir: str, revision: str) -> Source:
    listing = subprocess.run(
        ["git", "-C", git_dir, "ls-tree", "-r", "--name-only", revision],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    paths = [p for p in listing if p.endswith(".lean")]
    files: dict[str, str] = {}
    unreadable: list[str] = []
    batch = subprocess.run(
        ["git", "-C", git_dir, "cat-file", "--batch"],
        input="".join(f"{revision}:{p}\n" for p in paths).encode(),
        capture_output=True,
        check=True,
    ).stdout
    position = 0
    for path in paths:
        header_end = batch.index(b"\n", position)
        header = batch[position:header_end].split()
        position = header_end + 1
        if len(header) < 3 or header[1] != b"blob":
            unreadable.append(path)
            continue
        size = int(header[2])
        data = batch[position : position + size]
        position += size + 1
        try:
            files[path] = data.decode("utf-8")
        except UnicodeDecodeError:
            unreadable.append(path)
    return Source(name, f"git:{git_dir}", revision, files, unreadable=unreadable)


def read_dir(name: str, directory: str) -> Source:
    root = Path(directory)
    files: dict[str, str] = {}
    unreadable: list[str] = []
    for path in sorted(root.rglob("*.lean")):
        rel = path.relative_to(root).as_posix()
        try:
            files[rel] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            unreadable.append(rel)
    revisions: dict[str, str] = {}
    manifest = root / "MANIFEST.tsv"
    if manifest.exists():
        with manifest.open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                revisions[row["path"]] = row["commit"]
                if row.get("complete", "yes") != "yes":
                    unreadable.append(row["path"])
    revision = "mixed" if len(set(revisions.values())) > 1 else next(iter(revisions.values()), "")
    return Source(name, f"dir:{directory}", revision, files, revisions, unreadable)


def read_source(spec: str) -> Source:
    """``name=git:GITDIR@REV#FOLDERS`` or ``name=dir:PATH#FOLDERS``; ``FOLDERS`` (comma
    separated folders or files, relative to the package) keeps only what the package's
    libraries build: a test folder's syntax is nowhere in the environment; ``!FOLDER`` leaves
    one out."""
    name, _, where = spec.partition("=")
    where, _, folders = where.partition("#")
    if where.startswith("git:"):
        git_dir, _, revision = where[len("git:") :].rpartition("@")
        source = read_git(name, git_dir, revision)
    elif where.startswith("dir:"):
        source = read_dir(name, where[len("dir:") :])
    else:
        raise SystemExit(f"{spec}: a source is name=git:GITDIR@REV or name=dir:PATH")
    if folders:
        source.folders = folders.split(",")
        keep = tuple(f for f in source.folders if not f.startswith("!"))
        drop = tuple(f"{f[1:]}/" for f in source.folders if f.startswith("!"))
        source.module_paths = sorted(
            path
            for path in [*source.files, *source.unreadable]
            if path in keep or path.startswith(tuple(f"{k}/" for k in keep))
        )
        source.files = {
            path: text
            for path, text in source.files.items()
            if path in source.module_paths and not path.startswith(drop)
        }
    else:
        source.module_paths = sorted([*source.files, *source.unreadable])
    return source


# --------------------------------------------------------------------------- extracting
def _depths(tokens: list[Token]) -> list[int]:
    """Bracket depth before each token (interpolation holes count as brackets)."""
    depths: list[int] = []
    depth = 0
    for kind, value, _ in tokens:
        depths.append(depth)
        if kind == SYMBOL and value in ("(", "[", "{", "⟨", "⦃", "@[", "%[", "`("):
            depth += 1
        elif kind == SYMBOL and value in (")", "]", "}", "⟩", "⦄") and depth:
            depth -= 1
    return depths


def _quoted(tokens: list[Token]) -> list[str | None]:
    """The category of the syntax quotation each token is in (`` `(tactic| …) ``; a
    quotation without one is a term), None outside quotations."""
    inside: list[str | None] = []
    stack: list[tuple[int, str]] = []  # (depth it started at, category) per open quotation
    depth = 0
    for index, (kind, value, _) in enumerate(tokens):
        inside.append(stack[-1][1] if stack else None)
        if kind == SYMBOL and value in ("(", "[", "{", "⟨"):
            if value == "(" and index and tokens[index - 1][1] == "`":
                category = "term"
                if index + 2 < len(tokens) and tokens[index + 2][1] == "|":
                    category = ident_name(tokens[index + 1][1]).rsplit(".", 1)[-1]
                stack.append((depth, category))
            depth += 1
        elif kind == SYMBOL and value in (")", "]", "}", "⟩"):
            depth = max(0, depth - 1)
            if stack and stack[-1][0] == depth:
                stack.pop()
    return inside


def _command_starts(text: str, tokens: list[Token], depths: list[int]) -> list[int]:
    """Indices where a command starts: a depth-0 token at column 0 that is a word, a doc
    comment, an attribute group or a ``#`` command (Lean's own sources lay commands out so)."""
    starts: list[int] = []
    for index, (kind, value, offset) in enumerate(tokens):
        at_column_0 = offset == 0 or text[offset - 1] == "\n"
        if depths[index] == 0 and at_column_0 and (kind in (IDENT, DOC, HASH) or value == "@["):
            starts.append(index)
    return starts


def _atom(value: str) -> str:
    """A string literal's text (atoms hold no escapes that matter here)."""
    if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        return value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return value


class _File:
    """One source file's declarations and implementations."""

    def __init__(self, package: str, path: str, text: str) -> None:
        self.package = package
        self.path = path
        self.source = lex(text, lenient=True)
        self.tokens = self.source.tokens
        self.depths = _depths(self.tokens)
        self.quoted = _quoted(self.tokens)
        starts = _command_starts(text, self.tokens, self.depths)
        ends = [*starts[1:], len(self.tokens)][: len(starts)]
        self.commands = list(zip(starts, ends, strict=True))
        self.declarations: list[Declaration] = []
        #: (keyword as written in a quotation pattern, or a kind name) -> implementations
        self.by_word: dict[tuple[str, str], list[_Implementation]] = {}
        self.by_kind: dict[str, list[_Implementation]] = {}
        self.complete = self.source.error is None
        #: what each function declared in the file names and quotes, by its last component
        self.defs: dict[str, tuple[set[str], set[tuple[str, str]]]] = {}

    def _text(self, index: int) -> str:
        return self.tokens[index][1] if index < len(self.tokens) else ""

    def where(self, index: int) -> str:
        return f"{self.package}:{self.path}:{self.source.line(self.tokens[index][2])}"

    def code(self, begin: int, end: int) -> tuple[set[str], set[tuple[str, str]]]:
        """Identifiers named in ``[begin, end)`` by their last component (a name literal
        `` `sorryAx `` and a field ``.sorry`` name nothing: they are data), and the words
        quoted, with the category of their quotation (what a macro expands to)."""
        names: set[str] = set()
        quoted: set[tuple[str, str]] = set()
        tokens = self.tokens
        for index in range(begin, end):
            kind, value, _ = tokens[index]
            category = self.quoted[index]
            if kind == SYMBOL and category is not None and value not in ("`", "(", ")"):
                quoted.add((value, category))
            previous = tokens[index - 1] if index else (SYMBOL, "", -1)
            if kind != IDENT or previous[1] == "`":
                continue
            if previous[1] == "." and previous[2] + 1 == tokens[index][2]:
                continue  # `.sorry`: a field or constructor of the code's own data
            names.add(ident_name(value).rsplit(".", 1)[-1])
            if category is not None:
                quoted.add((value, category))
        return names, quoted

    def extract(self) -> None:
        for begin, end in self.commands:
            i = begin
            attributes: list[tuple[str, str | None]] = []
            while i < end:
                kind, value, _ = self.tokens[i]
                if kind == IDENT and value == "scoped" and self._text(i + 1) == "[":
                    i += 2  # Mathlib's `scoped[NS] notation …`: scoped to `NS`
                    while i < end and self._text(i) != "]":
                        i += 1
                    i += 1
                elif kind == DOC or (kind == IDENT and value in _MODIFIERS):
                    i += 1
                elif value == "@[":
                    i = self._attributes(i, end, attributes)
                else:
                    break
            if i >= end or self.tokens[i][0] != IDENT:
                continue
            word = self.tokens[i][1]
            if word in _DEFINERS and i + 1 < end and self.tokens[i + 1][0] == IDENT:
                name = ident_name(self.tokens[i + 1][1]).rsplit(".", 1)[-1]
                code, quoted = self.code(i + 2, end)
                known = self.defs.setdefault(name, (set(), set()))
                known[0].update(code)
                known[1].update(quoted)
            if word in DECLARERS:
                self._declaration(i, end, word)
            elif word in RULES:
                self._rules(i, end)
            elif word in _DEFINERS or attributes:
                self._registered(i, end, attributes)
        self._follow_calls()

    def _follow_calls(self) -> None:
        """Give each implementation what the functions of this file it calls name, and what
        those call, transitively (``elab_rules … => hint tk`` with ``admitGoal`` in ``hint``).
        Calls into other files are not followed: the review covers what they hide."""

        def expand(code: set[str], quoted: set[tuple[str, str]]) -> None:
            pending = [name for name in code if name in self.defs]
            seen: set[str] = set()
            while pending:
                name = pending.pop()
                if name in seen:
                    continue
                seen.add(name)
                callee_code, callee_quoted = self.defs[name]
                new = callee_code - code
                code |= callee_code
                quoted |= callee_quoted
                pending.extend(n for n in new if n in self.defs)

        for declaration in self.declarations:
            expand(declaration.code, declaration.quoted)
        for implementations in (*self.by_word.values(), *self.by_kind.values()):
            for code, quoted, _ in implementations:
                expand(code, quoted)

    def _attributes(self, i: int, end: int, found: list[tuple[str, str | None]]) -> int:
        j = i + 1
        depth = 1
        current: list[str] = []
        while j < end and depth:
            kind, value, _ = self.tokens[j]
            if value in ("[", "(", "@["):
                depth += 1
            elif value in ("]", ")"):
                depth -= 1
            if (depth == 1 and value == ",") or depth == 0:
                if current:
                    found.append((current[0], current[1] if len(current) > 1 else None))
                current = []
            elif kind == IDENT and depth == 1:
                current.append(ident_name(value))
            j += 1
        return j

    def _category_colon(self, i: int, end: int) -> tuple[int | None, int]:
        """The depth-0 ``:`` before the category, and where the right-hand side starts."""
        arrow = end
        for j in range(i, end):
            if self.depths[j] == self.depths[i] and self.tokens[j][1] == "=>":
                arrow = j
                break
        colon = None
        for j in range(i + 1, arrow):
            if self.depths[j] == self.depths[i] and self.tokens[j][1] == ":":
                colon = j
        return colon, arrow

    def _declaration(self, i: int, end: int, word: str) -> None:
        tokens = self.tokens
        colon, arrow = self._category_colon(i, end)
        category = DECLARERS[word]
        stop = arrow
        if category is None:
            if colon is None or colon + 1 >= end or tokens[colon + 1][0] != IDENT:
                # `syntax name := …` names a piece of syntax; its atoms are still tokens
                category, stop = "syntax", end
            else:
                category, stop = tokens[colon + 1][1], colon
        kind: str | None = None
        atoms: list[tuple[str, bool]] = []
        interpolates = False
        j = i + 1
        while j < stop:
            value_kind, value, _ = tokens[j]
            if value == "(" and j + 3 < stop and tokens[j + 1][1] == "name":
                kind = ident_name(tokens[j + 3][1])
            if value_kind == STRING and self.depths[j] >= self.depths[i]:
                reserved = not (j > 0 and tokens[j - 1][1] == "&")
                atoms.append((_atom(value), reserved))
            if value_kind == IDENT and value.startswith("interpolatedStr"):
                interpolates = True
            j += 1
        declaration = Declaration(category, atoms, self.where(i), kind, interpolates=interpolates)
        declaration.trailing = self._trailing(i + 1, stop, category)
        if arrow < end:
            declaration.code, declaration.quoted = self.code(arrow, end)
        self.declarations.append(declaration)

    def _trailing(self, j: int, stop: int, category: str) -> bool:
        """Whether the syntax starts with its own category (``x:tactic " <;> " …`` or
        ``term:max noWs "[" …``): then its first atom does not start it, and names nothing a
        proof calls."""
        tokens = self.tokens
        while j < stop and tokens[j][1] in ("(", ":"):
            # `(name := n)`, `(priority := p)`, `:prec`: skip the group or the precedence
            if tokens[j][1] == "(":
                depth = self.depths[j]
                j += 1
                while j < stop and self.depths[j] > depth:
                    j += 1  # stops after the `)` (depths are taken before each token)
            else:
                j += 2
        if j >= stop or tokens[j][0] == STRING:
            return False
        first = tokens[j][1]
        if j + 2 < stop and tokens[j + 1][1] == ":" and tokens[j + 2][0] == IDENT:
            first = tokens[j + 2][1]  # `x:tactic`
        return first.split(":")[0] == category

    def _rules(self, i: int, end: int) -> None:
        """``macro_rules | `(cat| word …) => rhs | …``: each arm implements its word."""
        tokens = self.tokens
        arms = [
            j
            for j in range(i + 1, end)
            if tokens[j][1] == "|" and self.depths[j] == self.depths[i] and not self.quoted[j]
        ]
        for position, arm in enumerate(arms):
            arm_end = arms[position + 1] if position + 1 < len(arms) else end
            found = self._pattern_word(arm, arm_end)
            if found is not None:
                code, quoted = self.code(self._arrow(arm, arm_end), arm_end)
                self.by_word.setdefault(found, []).append((code, quoted, self.where(arm)))

    def _arrow(self, j: int, end: int) -> int:
        """Where an arm's right-hand side starts (after its pattern's ``=>``)."""
        for k in range(j, end):
            if self.tokens[k][1] == "=>" and self.quoted[k] is None:
                return k
        return end

    def _pattern_word(self, j: int, end: int) -> tuple[str, str] | None:
        """The first word of the quotation pattern after ``|`` and its category:
        `` `(tactic| plausible …) `` is ``("plausible", "tactic")``."""
        tokens = self.tokens
        k = j + 1
        while k < end and self.quoted[k] is None:
            k += 1
        if k + 1 < end and tokens[k + 1][1] == "|":
            k += 2  # the category's name and its bar
        category = self.quoted[k] if k < end else None
        if category is None:
            return None
        kind, value, _ = tokens[k]
        if kind in (IDENT, SYMBOL, HASH) and value not in ("$", "(", ")"):
            return value, category
        return None

    def _registered(self, i: int, end: int, attributes: list[tuple[str, str | None]]) -> None:
        """A definition registered for a syntax kind (``@[tactic k] def …``) or a core
        ``leading_parser`` declaration."""
        for attribute, argument in attributes:
            if attribute in KIND_ATTRIBUTES and argument:
                code, quoted = self.code(i, end)
                key = argument.rsplit(".", 1)[-1]
                self.by_kind.setdefault(key, []).append((code, quoted, self.where(i)))
            category = PARSER_ATTRIBUTES.get(attribute)
            if category is not None:
                self._parser(i, end, category)

    def _parser(self, i: int, end: int, category: str) -> None:
        tokens = self.tokens
        name_index = next(
            (j for j in range(i + 1, end) if tokens[j][0] == IDENT and tokens[j - 1][1] == "def"),
            None,
        )
        kind = ident_name(tokens[name_index][1]) if name_index is not None else None
        atoms: list[tuple[str, bool]] = []
        interpolates = False
        trailing = False
        for j in range(i, end):
            value_kind, value, _ = tokens[j]
            if value_kind == STRING:
                previous = tokens[j - 1][1]
                reserved = previous not in ("&", "nonReservedSymbol")
                atoms.append((_atom(value), reserved))
            elif value_kind == IDENT and value.startswith("interpolatedStr"):
                interpolates = True
            elif value_kind == IDENT and value == "trailing_parser" and not atoms:
                trailing = True
        self.declarations.append(
            Declaration(
                category, atoms, self.where(i), kind, interpolates=interpolates, trailing=trailing
            )
        )


#: What an implementation names, what it quotes, and where it is.
_Implementation = tuple[set[str], set[tuple[str, str]], str]

#: Commands that declare a function whose body an implementation may call.
_DEFINERS = frozenset({"def", "theorem", "lemma", "abbrev", "instance", "opaque"})

_MODIFIERS = frozenset(
    {
        "local",
        "scoped",
        "private",
        "protected",
        "public",
        "meta",
        "noncomputable",
        "unsafe",
        "partial",
        "nonrec",
    }
)


def _axioms(package: str, path: str, text: str) -> Iterator[tuple[str, str]]:
    from missions.lean.scan import scan_source

    for decl in scan_source(text).decls:
        if decl.kind == "axiom":
            yield decl.name, f"{package}:{path}:{decl.line}"


# --------------------------------------------------------------------------- the table
def _worst(classes: set[str]) -> str:
    return max(classes, key=CLASSES.index) if classes else "inert"


def _markers(names: set[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for cls, markers in MARKERS.items():
        hits = sorted(names & markers)
        if hits:
            found[cls] = hits
    return found


def build(sources: list[Source], review: dict[str, Any], pins: dict[str, str]) -> dict[str, Any]:
    """The table from what the sources declare, with the review's decisions."""
    files: list[_File] = []
    axioms: dict[str, str] = {}
    provenance: list[dict[str, Any]] = []
    for source in sources:
        partial: list[str] = list(source.unreadable)
        for path, text in sorted(source.files.items()):
            if not any(hint in text.encode() for hint in _HINTS):
                continue
            parsed = _File(source.name, path, text)
            parsed.extract()
            if not parsed.complete:
                partial.append(path)
            files.append(parsed)
            for name, where in _axioms(source.name, path, text):
                axioms.setdefault(name, where)
        revisions = sorted(set(source.revisions.values()))
        provenance.append(
            {
                "package": source.name,
                "pinned": pins.get(source.name),
                "read": revisions if revisions else source.revision,
                "location": source.location.split(":", 1)[0],
                "folders": source.folders,
                "files": len(source.files),
                "not_read_completely": sorted(set(partial)),
            }
        )
    incomplete = {f"{p['package']}:{path}" for p in provenance for path in p["not_read_completely"]}
    by_word: dict[tuple[str, str], list[_Implementation]] = {}
    by_kind: dict[str, list[_Implementation]] = {}
    declarations: list[Declaration] = []
    for parsed in files:
        declarations.extend(parsed.declarations)
        for key, impls in parsed.by_word.items():
            by_word.setdefault(key, []).extend(impls)
        for name, impls in parsed.by_kind.items():
            by_kind.setdefault(name, []).extend(impls)
    # every (leading word, category) with what implements it
    entries: dict[tuple[str, str], _Entry] = {}
    tokens: set[str] = set()
    heads: set[str] = set()
    for declaration in declarations:
        for atom, reserved in declaration.atoms:
            token = atom.strip()
            # Lean's tokenizer stops at whitespace: a string with a space inside is a message
            if reserved and token and not any(c.isspace() for c in token):
                tokens.add(token)
        if declaration.interpolates:
            for atom, _ in declaration.atoms:
                head = atom.strip().rstrip("[(")
                if head and (head[0].isalpha() or head[0] == "_"):
                    heads.add(head)
        leading = declaration.leading
        if leading is None or declaration.category == "syntax":
            continue
        key = (leading, declaration.category)
        entry = entries.setdefault(key, _Entry())
        entry.where.append(declaration.where)
        entry.add(declaration.code, declaration.quoted, None)
        for code, quoted, where in by_word.get(key, []):
            entry.add(code, quoted, where)
        if declaration.kind:
            for code, quoted, where in by_kind.get(declaration.kind.rsplit(".", 1)[-1], []):
                entry.add(code, quoted, where)
    reviewed: dict[str, dict[str, Any]] = review.get("words", {})
    classes: dict[tuple[str, str], set[str]] = {}
    evidence: dict[tuple[str, str], list[str]] = {}
    for key, entry in entries.items():
        if key[0] in reviewed:
            classes[key] = {reviewed[key[0]]["class"]} - {"inert"}
            evidence[key] = []
            continue
        found = _markers(entry.code)
        classes[key] = set(found)
        evidence[key] = [f"names {', '.join(hits)}" for hits in found.values()]
        if {w.rsplit(":", 1)[0] for w in entry.where + entry.via} & incomplete:
            classes[key].add("admits")
            evidence[key].append("declared or implemented in a file not read completely")
    # a word takes the class of every word its implementation quotes (what it expands to)
    changed = True
    while changed:
        changed = False
        for key, entry in entries.items():
            if key[0] in reviewed:
                continue
            for other in sorted(entry.quoted):
                gained = classes.get(other, set()) - classes[key]
                if other != key and gained:
                    classes[key] |= gained
                    evidence[key].append(f"expands to `{other[0]}` ({other[1]})")
                    changed = True
    table: dict[str, dict[str, Any]] = {}
    for (word, category), entry in sorted(entries.items()):
        row = table.setdefault(
            word, {"class": "inert", "categories": [], "where": [], "evidence": []}
        )
        key = (word, category)
        if CLASSES.index(_worst(classes[key])) > CLASSES.index(row["class"]):
            row["class"] = _worst(classes[key])
        row["categories"].append(category)
        row["where"] = sorted({*row["where"], *entry.where, *entry.via})[:4]
        row["evidence"] = sorted({*row["evidence"], *evidence[key]})[:4]
    for word, decision in sorted(reviewed.items()):
        row = table.setdefault(
            word, {"class": "inert", "categories": [], "where": [], "evidence": []}
        )
        row["class"] = decision["class"]
        row["review"] = decision["reason"]
        row["categories"] = sorted({*row["categories"], *decision.get("categories", [])})
    for name, where in review.get("axioms", {}).items():
        axioms.setdefault(name, where)
    tokens.update(review.get("tokens", []))
    heads.update(review.get("interpolation_heads", []))
    constants = dict(review.get("constants", {}))
    for name in axioms:  # an axiom beyond the standard three admits what it states
        if name not in STANDARD_AXIOMS:
            constants.setdefault(name, "admits")
    result: dict[str, Any] = {
        "format": 1,
        "generator": "python -m missions.lean.vocabgen (see its docstring)",
        "sources": provenance,
        "words": table,
        "tokens": sorted(tokens),
        "interpolation_heads": sorted(heads),
        "axioms": dict(sorted(axioms.items())),
        "constants": dict(sorted(constants.items())),
    }
    result["digest"] = table_digest(result)
    return result


def module_lists(sources: list[Source], pins: dict[str, str]) -> dict[str, Any]:
    """Every module each package provides, for the packages read at exactly their pin.

    ``import Mathlib.Tactic.PowBound`` of a module the pinned Mathlib does not have stops
    ``lake build`` at that import, so nothing after it is elaborated; trusting an import by its
    first component would accept such a proof. A package read at another revision (a newer
    or older snapshot) has no list: its modules are trusted by their root, as before.
    """
    packages: dict[str, Any] = {}
    for source in sources:
        pinned = pins.get(source.name)
        if not pinned or source.revision != pinned or source.revisions:
            continue
        for path in source.module_paths:
            if not path.endswith(".lean"):
                continue
            module = path[: -len(".lean")].replace("/", ".")
            root = module.split(".", 1)[0]
            entry = packages.setdefault(
                root, {"package": source.name, "revision": pinned, "modules": []}
            )
            entry["modules"].append(module)
    for entry in packages.values():
        entry["modules"].sort()
    return {
        "format": 1,
        "generator": "python -m missions.lean.vocabgen --modules-out … (see its docstring)",
        "roots": dict(sorted(packages.items())),
    }


def table_digest(table: dict[str, Any]) -> str:
    """A digest of everything the scanner reads from the table: an entry deleted, added or
    reclassified by hand, without running the generator, no longer matches it."""
    content = {key: table[key] for key in DIGESTED if key in table}
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


#: The parts of the table its digest covers (the provenance is a record, not a rule).
DIGESTED = ("words", "tokens", "interpolation_heads", "axioms", "constants")


@dataclass
class _Entry:
    """A leading word in one category: where it is declared and what implements it."""

    where: list[str] = field(default_factory=list)
    via: list[str] = field(default_factory=list)
    code: set[str] = field(default_factory=set)
    quoted: set[tuple[str, str]] = field(default_factory=set)

    def add(self, code: set[str], quoted: set[tuple[str, str]], where: str | None) -> None:
        self.code |= code
        self.quoted |= quoted
        if where is not None:
            self.via.append(where)


def pinned_revisions(manifest: Path, toolchain: Path) -> dict[str, str]:
    """What the workspace pins: each package of ``lake-manifest.json``, and core's tag."""
    pins: dict[str, str] = {}
    data = json.loads(manifest.read_text(encoding="utf-8"))
    for package in data.get("packages", []):
        pins[package["name"]] = package.get("rev", "")
    pins["core"] = toolchain.read_text(encoding="utf-8").strip().rsplit(":", 1)[-1]
    return pins


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m missions.lean.vocabgen")
    parser.add_argument("--out", required=True)
    parser.add_argument("--source", action="append", default=[], required=True)
    parser.add_argument("--review", default=str(Path(__file__).with_name("vocabulary-review.json")))
    parser.add_argument("--root", default=".", help="the workspace (its lake-manifest.json)")
    parser.add_argument(
        "--modules-out", help="also write the module list of each package read at its pin"
    )
    args = parser.parse_args(argv)
    root = Path(args.root)
    pins = pinned_revisions(root / "lake-manifest.json", root / "lean-toolchain")
    review = json.loads(Path(args.review).read_text(encoding="utf-8"))
    sources = [read_source(spec) for spec in args.source]
    table = build(sources, review, pins)
    _write_json(args.out, table)
    if args.modules_out:
        _write_json(args.modules_out, module_lists(sources, pins))
    print(
        f"{args.out}: {len(table['words'])} words, {len(table['tokens'])} tokens, "
        f"{len(table['axioms'])} axioms from {len(table['sources'])} sources",
        file=sys.stderr,
    )
    return 0


def _write_json(path: str, data: dict[str, Any]) -> None:
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n"
    tmp = f"{path}.{os.getpid()}.tmp"
    Path(tmp).write_text(text, encoding="utf-8")
    os.replace(tmp, path)


if __name__ == "__main__":
    raise SystemExit(main())
