"""Build options in the Lake configuration that switch off what the kernel checks.

``set_option debug.skipKernelTC true`` in a source file is visible to the scanner; the same
option passed through ``leanOptions`` or ``moreLeanArgs := #["-Ddebug.skipKernelTC=true"]`` in
``lakefile.lean`` (or the TOML equivalents) applies to every module without appearing in any
of them. Any such setting makes every target unproved, in ``status`` as well as in ``check``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from missions.lean.lexer import IDENT, NUMBER, STRING, SYMBOL, Source, Token, lex
from missions.lean.scan import option_is_unsafe
from missions.lean.vocabulary import UNSAFE_OPTION_PREFIXES
from missions.roots import LAYOUT_SETTINGS, layout_lines, layout_problems

_TOML_COMMENT = re.compile(r"#[^\n]*")
_UNSAFE_WORD = re.compile(r"(?:debug|bootstrap)\s*[\.»]")
#: Lake settings whose values become Lean options or command-line arguments of every module.
OPTION_SETTINGS = frozenset(
    {"leanOptions", "moreLeanArgs", "weakLeanArgs", "moreServerOptions", "moreServerArgs"}
)
#: What a literal option list may consist of: brackets, name literals, strings, numbers.
_LITERAL_SYMBOLS = frozenset({"#", "[", "]", "⟨", "⟩", ",", "`", "(", ")", "."})
_LITERAL_WORDS = frozenset({"true", "false"})
#: Settings that link foreign code or load compiled workspace code into Lean.
FOREIGN_CODE_SETTINGS = ("extern_lib", "moreLinkArgs", "precompileModules")
_FOREIGN_WORD = re.compile("|".join(FOREIGN_CODE_SETTINGS))


@dataclass(frozen=True)
class UnsafeSetting:
    file: str
    line: int
    message: str
    #: ``option`` (switches off checking: no target is proved) or ``link`` (foreign code)
    kind: str = "option"

    def reason(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


def unsafe_settings(root: Path, *, links: bool = False) -> list[UnsafeSetting]:
    """Every option in ``lakefile.lean``/``lakefile.toml`` that weakens checking; with
    ``links``, also every setting that links foreign code (comments never count)."""
    found: list[UnsafeSetting] = []
    lean = root / "lakefile.lean"
    try:
        text = lean.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = None
    if text is not None:
        source = lex(text)
        for kind, value, offset in source.tokens:
            unsafe = (kind == IDENT and option_is_unsafe(value)) or (
                kind == STRING
                and any(f"-D{p}" in value or f'"{p}' in value for p in UNSAFE_OPTION_PREFIXES)
            )
            if unsafe:
                found.append(
                    UnsafeSetting(
                        "lakefile.lean",
                        source.line(offset),
                        f"build option `{value}` switches off what Lean checks",
                    )
                )
            elif kind == IDENT and value in OPTION_SETTINGS and _computed(source.tokens, offset):
                found.append(
                    UnsafeSetting(
                        "lakefile.lean",
                        source.line(offset),
                        f"`{value}` is not a literal list, so the options it sets (perhaps "
                        "`debug.*`) cannot be read from the source",
                    )
                )
            elif links and kind == IDENT and value in FOREIGN_CODE_SETTINGS:
                found.append(
                    UnsafeSetting(
                        "lakefile.lean",
                        source.line(offset),
                        f"`{value}` links foreign or precompiled code into the build",
                        "link",
                    )
                )
        found.extend(_layout_settings(root, source))
    toml = root / "lakefile.toml"
    try:
        text = toml.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = None
    if text is not None:
        for number, line in enumerate(text.splitlines(), start=1):
            code = _TOML_COMMENT.sub("", line) if '"' not in line else line
            if _UNSAFE_WORD.search(code):
                found.append(
                    UnsafeSetting(
                        "lakefile.toml",
                        number,
                        f"build option `{line.strip()}` switches off what Lean checks",
                    )
                )
            elif links and _FOREIGN_WORD.search(code):
                found.append(
                    UnsafeSetting(
                        "lakefile.toml",
                        number,
                        f"`{line.strip()}` links foreign or precompiled code into the build",
                        "link",
                    )
                )
    return found


def _layout_settings(root: Path, source: Source) -> list[UnsafeSetting]:
    """Layout settings the scanner cannot follow: Lake would build files it never reads.

    :func:`missions.roots.lake_layout` reads the layout with a small tokenizer (it runs on the
    start-up path, before this lexer is imported); a layout word this lexer sees in code that
    the small one did not is a disagreement, and disagreements are not trusted either.
    """
    found = [
        UnsafeSetting("lakefile.lean", line, message) for line, message in layout_problems(root)
    ]
    seen = layout_lines(root)
    for kind, value, offset in source.tokens:
        line = source.line(offset)
        if kind == IDENT and value in LAYOUT_SETTINGS and line not in seen:
            found.append(
                UnsafeSetting(
                    "lakefile.lean",
                    line,
                    f"`{value}` here is read differently by the layout reader; Lake may build "
                    "files the scanner never reads",
                )
            )
    return found


def _computed(tokens: list[Token], offset: int) -> bool:
    """Whether the value assigned to the setting at ``offset`` is anything but a literal list
    of names, strings, numbers and booleans (a computed name could be ``debug.…``)."""
    index = next(i for i, (_, _, o) in enumerate(tokens) if o == offset)
    rest = tokens[index + 1 :]
    if len(rest) < 2 or rest[0][1] != ":=":
        return False  # a mention, not an assignment
    value = rest[1:]
    if value and value[0][1] == "#":
        value = value[1:]
    if not value or value[0][1] != "[":
        return True
    depth = 0
    for position, (kind, text, _) in enumerate(value):
        if kind == SYMBOL and text in ("[", "⟨", "("):
            depth += 1
        elif kind == SYMBOL and text in ("]", "⟩", ")"):
            depth -= 1
            if depth == 0:
                return False
        elif not _literal(value, position):
            return True
    return True


def _literal(value: list[Token], position: int) -> bool:
    kind, text, _ = value[position]
    if kind == SYMBOL:
        return text in _LITERAL_SYMBOLS
    if kind in (STRING, NUMBER):
        return True
    name_literal = position > 0 and value[position - 1][1] == "`"
    return kind == IDENT and (text in _LITERAL_WORDS or name_literal)
