"""What in the Lake configuration can change what Lean checks, or run code Lean never shows.

``set_option debug.skipKernelTC true`` in a source file is visible to the scanner; the same
option passed through ``leanOptions`` or ``moreLeanArgs := #["-Ddebug.skipKernelTC=true"]`` in
``lakefile.lean`` (or the TOML equivalents) applies to every module without appearing in any
of them. Command-line arguments are read against a list of harmless ones (``--plugin`` and
``--load-dynlib`` load native code into Lean), and ``lakefile.lean`` is Lean code Lake runs:
only the commands that declare what to build are followed, anything that can run code (an
unknown command, ``#eval``, ``initialize``, a macro, an import beyond Lake's, a ``require``
other than the pinned Mathlib) is not; ``lakefile.toml`` is parsed. Each finding is a failing
``toolchain-pin`` check, so it makes every target unproved, in ``status`` as in ``check``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from missions.lean.lexer import (
    DOC,
    IDENT,
    MODDOC,
    NAME,
    NUMBER,
    STRING,
    SYMBOL,
    Source,
    Token,
    lex,
)
from missions.lean.scan import option_is_unsafe, scan_source
from missions.lean.vocabulary import UNSAFE_OPTION_PREFIXES
from missions.roots import LAYOUT_SETTINGS, layout_lines, layout_problems, read_config_text

#: The Mathlib commit every mission is pinned to: the one ``require`` lakefile.lean may have.
PINNED_MATHLIB = "c5ea00351c28e24afc9f0f84379aa41082b1188f"
#: `require NAME from git "URL" @ "REV"`: the one dependency form the pin accepts.
REQUIRE = re.compile(
    r"require\s+«?(?P<name>[A-Za-z_][\w-]*)»?\s+from\s+git\s+\"(?P<url>[^\"]+)\""
    r"(?:\s*@\s*\"(?P<rev>[^\"]+)\")?",
)
_UNSAFE_WORD = re.compile(r"(?:debug|bootstrap)\s*[\.»]")
#: ``-D`` with an unsafe option in any string of lakefile.lean, ``weak.`` prefixes included
_UNSAFE_D = re.compile(
    r'(?:-D\s*|")(?:weak\.)*(?:' + "|".join(re.escape(p) for p in UNSAFE_OPTION_PREFIXES) + ")"
)
#: Lake settings whose values become Lean options or command-line arguments of every module.
OPTION_SETTINGS = frozenset(
    {"leanOptions", "moreLeanArgs", "weakLeanArgs", "moreServerOptions", "moreServerArgs"}
)
#: The settings among them that hold command-line arguments of ``lean``.
ARGUMENT_SETTINGS = frozenset({"moreLeanArgs", "weakLeanArgs", "moreServerArgs"})
#: ``lean`` flags that change neither what is checked nor what code runs, and whether each
#: takes a value (``-D`` an option, checked by name; the others a number or a kind).
HARMLESS_FLAGS = {
    "-D": True,
    "-j": True,
    "--threads": True,
    "-M": True,
    "--memory": True,
    "-T": True,
    "--timeout": True,
    "--tstack": True,
    "-E": True,
    "--error": True,
    "--json": False,
    "--stats": False,
    "-q": False,
    "--quiet": False,
}
#: Lake commands that declare what ``lake build`` builds and run nothing themselves. Every
#: other command may run code while Lake configures, updates or builds the package: a
#: ``script`` or ``def`` body is elaborated when Lake loads the file (``run_io`` in it runs).
LAKE_DECLARATIONS = frozenset({"package", "require", "lean_lib", "lean_exe"})
#: The commands whose settings (``where`` or ``{ … }``) the grammar reader follows.
_CONFIGURED = frozenset({"package", "lean_lib", "lean_exe"})
#: Attributes Lake reads on a target (which targets ``lake build``, ``lake test`` and
#: ``lake lint`` run); they run nothing.
TARGET_ATTRIBUTES = frozenset({"default_target", "test_driver", "lint_driver"})
#: What a lakefile may import: Lake and the core it is built on.
CONFIGURATION_IMPORTS = frozenset({"Lake", "Lean", "Init", "Std"})
#: What a literal option list may consist of: brackets, name literals, strings, numbers.
_LITERAL_SYMBOLS = frozenset({"#", "[", "]", "⟨", "⟩", ",", "`", "(", ")", "."})
_LITERAL_WORDS = frozenset({"true", "false"})
#: Settings that link foreign code or load compiled workspace code into Lean.
FOREIGN_CODE_SETTINGS = ("moreLinkArgs", "precompileModules")
#: Lake settings known to change neither what Lean checks nor what code runs inside it
#: (metadata, output directories, names, the C build of the library). Every other setting
#: (``plugins``, ``dynlibs``, ``extraDepTargets``, ``needs``, ``bootstrap``, anything newer)
#: may load native code into every Lean run or build something first, so it is a finding.
INERT_SETTINGS = frozenset(
    {
        "name",
        "version",
        "versionTags",
        "description",
        "keywords",
        "homepage",
        "license",
        "licenseFiles",
        "readmeFile",
        "reservoir",
        "releaseRepo",
        "buildArchive",
        "preferReleaseBuild",
        "testDriver",
        "testDriverArgs",
        "testRunner",
        "lintDriver",
        "lintDriverArgs",
        "buildDir",
        "leanLibDir",
        "nativeLibDir",
        "binDir",
        "irDir",
        "packagesDir",
        "libName",
        "exeName",
        "libPrefixOnWindows",
        "buildType",
        "backend",
        "platformIndependent",
        "moreLeancArgs",
        "weakLeancArgs",
        "supportInterpreter",
    }
)
#: Settings read elsewhere: options and arguments (checked one by one), the layout (followed).
CHECKED_SETTINGS = OPTION_SETTINGS | frozenset({"srcDir", "roots", "globs", "root"})
_SETTINGS_KNOWN = INERT_SETTINGS | CHECKED_SETTINGS
#: Words before ``name :=`` that make it a definition's or binding's name, not a setting.
_BINDERS = frozenset({"def", "abbrev", "theorem", "lemma", "instance", "opaque", "let", "have"})
_FOREIGN_WORD = re.compile("|".join(FOREIGN_CODE_SETTINGS))


@dataclass(frozen=True)
class UnsafeSetting:
    file: str
    line: int
    message: str
    #: ``option`` (weakens checking or runs code) or ``link`` (links foreign code); either
    #: makes every target unproved (through the ``toolchain-pin`` checks)
    kind: str = "option"


def unsafe_settings(root: Path) -> list[UnsafeSetting]:
    """Every setting in ``lakefile.lean``/``lakefile.toml`` that weakens checking, runs code
    the scanner cannot see or links foreign code into the build (comments never count)."""
    found: list[UnsafeSetting] = []
    lean = root / "lakefile.lean"
    try:
        text = read_config_text(lean)
    except FileNotFoundError:
        text = None
    except (OSError, UnicodeDecodeError) as exc:
        # what the scanner cannot read it cannot vouch for (Lake may read a huge file)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8"
        found.append(UnsafeSetting("lakefile.lean", 1, f"lakefile.lean cannot be read ({reason})"))
        text = None
    if text is not None:
        found.extend(_lean_settings(root, text))
    toml = root / "lakefile.toml"
    try:
        text = read_config_text(toml)
    except (OSError, UnicodeDecodeError):
        text = None
    if text is not None:
        found.extend(_toml_settings(text))
    return found


def _lean_settings(root: Path, text: str) -> list[UnsafeSetting]:
    found: list[UnsafeSetting] = []

    def add(offset_line: int, message: str, kind: str = "option") -> None:
        found.append(UnsafeSetting("lakefile.lean", offset_line, message, kind))

    source = lex(text)
    arguments: list[tuple[int, str]] = []  # after the options: theirs is the clearer reason
    for index, (kind, value, offset) in enumerate(source.tokens):
        line = source.line(offset)
        unsafe = (kind in (IDENT, NAME) and option_is_unsafe(value.lstrip("`"))) or (
            kind == STRING and _UNSAFE_D.search(value.replace("«", "").replace("»", ""))
        )
        if unsafe:
            add(line, f"build option `{value}` switches off what Lean checks")
        elif kind == IDENT and value in OPTION_SETTINGS:
            items = _literal_value(source, index)
            if items is None:
                add(
                    line,
                    f"`{value}` is not a literal list, so the options it sets (perhaps "
                    "`debug.*`) cannot be read from the source",
                )
            elif value in ARGUMENT_SETTINGS:
                strings = [t for k, t, _ in items if k == STRING]
                for argument in unknown_arguments([_string_value(t) for t in strings]):
                    arguments.append((line, _argument_message(argument)))
        elif kind == IDENT and value in FOREIGN_CODE_SETTINGS:
            add(line, f"`{value}` links foreign or precompiled code into the build", "link")
        elif kind == IDENT and _unknown_setting(source, index):
            add(
                line,
                f"`{value}` is a Lake setting the scanner does not know to be inert (it may "
                "load native code into every Lean run or build something first)",
            )
    for line, message in [*arguments, *_configuration_code(text)]:
        add(line, message)
    found.extend(_layout_settings(root, source))
    # last, so that a more specific reason for the same line comes first
    for line, message in LakefileReader(source).unread():
        add(line, message)
    return _one_per_line(found)


def _unknown_setting(source: Source, index: int) -> bool:
    """Whether ``tokens[index]`` is a setting (``name :=`` first on its line or after
    ``where``, ``{`` or ``,``, which no ``def`` or ``let`` binds) outside the known-inert and
    checked ones."""
    tokens = source.tokens
    name, offset = tokens[index][1], tokens[index][2]
    if index + 1 >= len(tokens) or tokens[index + 1][1] != ":=" or name in _SETTINGS_KNOWN:
        return False
    previous = tokens[index - 1][1] if index > 0 else ""
    if previous in _BINDERS:
        return False
    first_on_line = not source.text[source.text.rfind("\n", 0, offset) + 1 : offset].strip()
    return first_on_line or previous in ("where", "{", ",")


def _configuration_code(text: str) -> Iterator[tuple[int, str]]:
    """What in ``lakefile.lean`` runs code when Lake loads, updates or builds the package.

    The file is Lean that Lake elaborates; the scanner reads it like a source file and
    accepts only the commands that declare targets, plain definitions and Lake's imports.
    """
    scan = scan_source(text)
    if scan.error is not None:
        yield scan.error[0], f"lakefile.lean cannot be read as Lean: {scan.error[1]}"
        return
    source = lex(text)
    requires = {
        source.line(offset): REQUIRE.match(text, offset)
        for kind, value, offset in source.tokens
        if kind == IDENT and value == "require"
    }
    for line, word in scan.unknown:
        match = requires.get(line)
        pinned = match is not None and match.group("name", "rev") == ("mathlib", PINNED_MATHLIB)
        if word == "require" and not pinned:
            yield (
                line,
                "this `require` is not mathlib from git at the pinned revision; the scanner "
                "trusts imports of Mathlib and its dependencies by name, so no other package "
                "may provide them",
            )
    for name, line in scan.imports:
        if name.split(".", 1)[0] not in CONFIGURATION_IMPORTS:
            yield line, f"`import {name}` runs that module's code when Lake loads the configuration"
    for line, word in scan.unknown:
        if word not in LAKE_DECLARATIONS:
            yield (
                line,
                f"`{word}` may run code of its own when Lake configures or builds the package; "
                "the scanner cannot follow it",
            )
    for finding in scan.findings:
        if finding.code != "debug":  # reported as a build option above
            yield finding.line, f"{finding.message}, when Lake loads the configuration"
    for extension in scan.extensions:
        if extension.code:
            yield (
                extension.line,
                f"`{extension.command}` changes how Lake reads the configuration; the scanner "
                "cannot follow it",
            )


def _toml_settings(text: str) -> list[UnsafeSetting]:
    found: list[UnsafeSetting] = []
    lines = text.splitlines()
    codes = [_toml_code(line) for line in lines]
    for number, (line, code) in enumerate(zip(lines, codes, strict=True), start=1):
        if _UNSAFE_WORD.search(code):
            found.append(
                UnsafeSetting(
                    "lakefile.toml",
                    number,
                    f"build option `{line.strip()}` switches off what Lean checks",
                )
            )
        elif _FOREIGN_WORD.search(code):
            found.append(
                UnsafeSetting(
                    "lakefile.toml",
                    number,
                    f"`{line.strip()}` links foreign or precompiled code into the build",
                    "link",
                )
            )
    import tomllib  # a lakefile.toml only: most workspaces have lakefile.lean

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found.append(UnsafeSetting("lakefile.toml", 1, f"lakefile.toml cannot be parsed ({error})"))
        return found
    for key, value in _toml_items(data):
        where = _toml_line(codes, key)
        if key not in _SETTINGS_KNOWN | _TOML_TABLES:
            found.append(
                UnsafeSetting(
                    "lakefile.toml",
                    where,
                    f"`{key}` is a Lake setting the scanner does not know to be inert (it may "
                    "load native code into every Lean run or build something first)",
                )
            )
        if key in LAYOUT_SETTINGS:
            found.append(
                UnsafeSetting(
                    "lakefile.toml",
                    where,
                    f"`{key}` in lakefile.toml is not followed by the scanner (only "
                    "lakefile.lean's layout is); Lake may build files it never reads",
                )
            )
        elif key in ARGUMENT_SETTINGS:
            arguments = value if isinstance(value, list) else [value]
            for argument in unknown_arguments(
                [a if isinstance(a, str) else repr(a) for a in arguments]
            ):
                found.append(UnsafeSetting("lakefile.toml", where, _argument_message(argument)))
        elif key in ("leanOptions", "moreServerOptions") and isinstance(value, dict):
            for name in _toml_option_names(value):
                if option_is_unsafe(name):
                    found.append(
                        UnsafeSetting(
                            "lakefile.toml",
                            _toml_line(codes, name.rsplit(".", 1)[-1], key),
                            f"build option `{name}` switches off what Lean checks",
                        )
                    )
    # one finding per line: the parsed reading repeats what the line-wise one saw
    return _one_per_line(found)


#: The tables of ``lakefile.toml`` and the keys of a ``[[require]]`` entry (a ``require``
#: other than the pinned Mathlib is a finding of its own, see :mod:`missions.toolchain`).
_TOML_TABLES = frozenset(
    {"lean_lib", "lean_exe", "require", "git", "rev", "scope", "source", "path", "subDir"}
)


def _one_per_line(found: list[UnsafeSetting]) -> list[UnsafeSetting]:
    """The first finding of each line: one reason per line is enough to make every target
    unproved, and two readings of one setting (a pattern and the parsed value) repeat it."""
    unique: dict[int, UnsafeSetting] = {}
    for setting in found:
        unique.setdefault(setting.line, setting)
    return list(unique.values())


def _toml_code(line: str) -> str:
    """A TOML line without its comment: the text before the first ``#`` outside a string."""
    quote: str | None = None
    escaped = False
    for index, char in enumerate(line):
        if quote is None:
            if char == "#":
                return line[:index]
            if char in "\"'":
                quote = char
        elif escaped:
            escaped = False
        elif char == "\\" and quote == '"':
            escaped = True
        elif char == quote:
            quote = None
    return line


def _toml_items(data: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) at any depth of a parsed TOML document."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield key, value
            if key not in ("leanOptions", "moreServerOptions"):
                yield from _toml_items(value)
    elif isinstance(data, list):
        for item in data:
            yield from _toml_items(item)


def _toml_option_names(options: dict[str, Any], prefix: str = "") -> Iterator[str]:
    """Dotted option names of a ``leanOptions`` table (``debug.x = true`` nests in TOML)."""
    for key, value in options.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _toml_option_names(value, f"{name}.")
        else:
            yield name


def _toml_line(lines: list[str], *needles: str) -> int:
    """The first line that holds the first needle found (the file's first line if none)."""
    for needle in needles:
        for number, line in enumerate(lines, start=1):
            if needle in line:
                return number
    return 1


def unknown_arguments(arguments: list[str]) -> list[str]:
    """The ``lean`` command-line arguments not known to be harmless.

    Over-approximates: a flag off the list (``--plugin``, ``--load-dynlib``, anything new), a
    positional argument, a string with an escape the scanner does not decode, and ``-D`` with
    an option that weakens checking (``-Ddebug.…``, ``-D weak.debug.…``) all count.
    """
    unknown: list[str] = []
    expects_value: str | None = None  # the flag whose value comes next
    for argument in arguments:
        if expects_value is not None:
            flag, expects_value = expects_value, None
            if not argument.startswith("-") and "\\" not in argument:
                if flag == "-D" and _unsafe_definition(argument):
                    unknown.append(argument)
                continue
        if "\\" in argument or not argument.startswith("-"):
            unknown.append(argument)
            continue
        if argument.startswith("--"):
            flag, equals, _ = argument.partition("=")
            attached = bool(equals)
        else:
            flag, attached = argument[:2], len(argument) > 2
        takes_value = HARMLESS_FLAGS.get(flag)
        harmful = flag == "-D" and attached and _unsafe_definition(argument[2:])
        if takes_value is None or (attached and not takes_value) or harmful:
            unknown.append(argument)
        elif takes_value and not attached:
            expects_value = flag
    return unknown


def _unsafe_definition(definition: str) -> bool:
    """Whether ``name=value`` (a ``-D`` argument) sets an option that weakens checking."""
    return option_is_unsafe(definition.partition("=")[0].strip())


def _argument_message(argument: str) -> str:
    return (
        f"build argument `{argument}` is not one the scanner knows to be harmless (a plugin or "
        "dynamic library runs native code inside Lean)"
    )


def _string_value(token: str) -> str:
    """A string literal's text without its quotes (escapes are left as written)."""
    return token[1:-1] if len(token) >= 2 and token.endswith('"') else token


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


def _literal_value(source: Source, index: int) -> list[Token] | None:
    """The tokens of the literal list assigned to the setting at token ``index`` (empty for a
    mention that assigns nothing), or None when the value is computed (a computed name
    could be ``debug.…``): anything but literals inside the list, or anything after it
    (``#[…] ++ more``) before the next setting or command."""
    tokens = source.tokens
    rest = tokens[index + 1 :]
    if len(rest) < 2 or rest[0][1] != ":=":
        return []  # a mention, not an assignment
    value = rest[1:]
    if value and value[0][1] == "#":
        value = value[1:]
    if not value or value[0][1] != "[":
        return None
    depth = 0
    for position, (kind, text, _) in enumerate(value):
        if kind == SYMBOL and text in ("[", "⟨", "("):
            depth += 1
        elif kind == SYMBOL and text in ("]", "⟩", ")"):
            depth -= 1
            if depth == 0:
                after = value[position + 1 : position + 3]
                return value[: position + 1] if _value_ends(source, after) else None
        elif not _literal(value, position):
            return None
    return None


def _value_ends(source: Source, after: list[Token]) -> bool:
    """Whether the tokens after a setting's value start something else: nothing, the next
    field (``,``/``}`` or ``name :=``), or a command at the start of a line."""
    if not after:
        return True
    kind, text, offset = after[0]
    if text in (",", "}"):
        return True
    if kind == IDENT and len(after) > 1 and after[1][1] == ":=":
        return True
    return source.text[offset - 1] == "\n"  # the value precedes it: offset > 0


def _literal(value: list[Token], position: int) -> bool:
    kind, text, _ = value[position]
    if kind == SYMBOL:
        return text in _LITERAL_SYMBOLS
    if kind in (STRING, NUMBER):
        return True
    return kind == NAME or (kind == IDENT and text in _LITERAL_WORDS)


class LakefileReader:
    """The grammar of the ``lakefile.lean`` the scanner vouches for, read token by token.

    Lake elaborates the whole file when it loads the configuration, and Lean's grammar there
    includes Lake's own commands (``meta if c then cmd`` keeps ``cmd`` only if ``c``
    evaluates to true, ``run_io`` runs ``IO`` inside any term). Rather than recognise what
    may run, the reader accepts only what cannot: doc comments, ``import``, ``open`` of
    capitalised namespaces, ``package``/``lean_lib``/``lean_exe`` (optionally after
    ``@[default_target]``-like attributes) whose settings are literals, and ``require`` in
    Lake's ``depSpec`` form without ``with``. Every other token, wherever it is, is a finding:
    a setting's value made of anything but literals may be code; a lower-case word where a
    command is expected may be a command the reader does not know.
    """

    def __init__(self, source: Source) -> None:
        self.source = source
        self.tokens = source.tokens
        self.found: list[tuple[int, str]] = []

    def unread(self) -> list[tuple[int, str]]:
        index = 0
        while index < len(self.tokens):
            index = self._command(index)
        return self.found

    # ---------------------------------------------------------------- helpers
    def _text(self, index: int) -> str:
        return self.tokens[index][1] if index < len(self.tokens) else ""

    def _column(self, index: int) -> int:
        return self.source.column(self.tokens[index][2])

    def _first_on_line(self, index: int) -> bool:
        offset = self.tokens[index][2]
        text = self.source.text
        return not text[text.rfind("\n", 0, offset) + 1 : offset].strip()

    def _fail(self, index: int, message: str) -> int:
        """Record a finding at ``index`` and resume at the next token in column 0 (the
        next command, if the file is laid out like the reader expects)."""
        self.found.append((self.source.line(self.tokens[index][2]), message))
        index += 1
        while index < len(self.tokens) and self._column(index) != 0:
            index += 1
        return index

    def _unknown(self, index: int) -> int:
        word = self._text(index)
        return self._fail(
            index,
            f"`{word}` is outside the lakefile grammar the scanner reads (doc comments, "
            "import, open, package, require, lean_lib, lean_exe with literal settings); Lake "
            "may run it when it loads the configuration",
        )

    # --------------------------------------------------------------- commands
    def _command(self, index: int) -> int:
        kind, text, _ = self.tokens[index]
        if kind in (DOC, MODDOC):
            return index + 1
        if kind == SYMBOL and text == "@[":
            return self._attributes(index)
        if kind != IDENT:
            return self._unknown(index)
        if text == "import":
            if self.tokens[index + 1 : index + 2] and self.tokens[index + 1][0] == IDENT:
                return index + 2
            return self._unknown(index)
        if text == "open":
            index += 1
            line = self.source.line(self.tokens[index - 1][2])
            while (
                index < len(self.tokens)
                and self.tokens[index][0] == IDENT
                and self.tokens[index][1][:1].isupper()  # Lean's keywords are lower-case
                and self.source.line(self.tokens[index][2]) == line
            ):
                index += 1
            return index
        if text in _CONFIGURED:
            return self._target(index + 1)
        if text == "require":
            return self._require(index + 1)
        return self._unknown(index)

    def _attributes(self, index: int) -> int:
        start = index
        index += 1
        while True:
            if self._text(index) not in TARGET_ATTRIBUTES:
                if index >= len(self.tokens):
                    return self._unknown(start)
                return self._fail(
                    index,
                    f"attribute `{self._text(index)}` is not one Lake reads on a target "
                    f"({', '.join(sorted(TARGET_ATTRIBUTES))}); it may run code",
                )
            index += 1
            if self._text(index) == "]":
                index += 1
                break
            if self._text(index) != ",":
                return self._unknown(min(index, len(self.tokens) - 1))
            index += 1
        if index < len(self.tokens) and self._text(index) not in _CONFIGURED:
            return self._unknown(index)
        return index

    def _target(self, index: int) -> int:
        """``package``/``lean_lib``/``lean_exe`` after the word: a name, then settings."""
        named = index < len(self.tokens) and self.tokens[index][0] in (IDENT, STRING)
        if named and self._text(index) not in ("where", "{"):
            index += 1
        if self._text(index) == "where":
            return self._settings(index + 1, closing=None)
        if self._text(index) == "{":
            return self._settings(index + 1, closing="}")
        return index

    def _settings(self, index: int, closing: str | None) -> int:
        """``name := literal`` fields, one per line after ``where`` (until column 0) or
        separated by ``,`` up to ``closing``."""
        while index < len(self.tokens):
            if closing is None and self._column(index) == 0:
                return index
            if closing is not None and self._text(index) == closing:
                return index + 1
            if closing is not None and self._text(index) == ",":
                index += 1
                continue
            if self.tokens[index][0] != IDENT or self._text(index + 1) != ":=":
                return self._fail(
                    index,
                    f"`{self._text(index)}` is not a `name := value` setting; Lake may "
                    "elaborate it as code when it loads the configuration",
                )
            setting, column = self._text(index), self._column(index)
            index += 2
            depth = 0
            while index < len(self.tokens):
                kind, text, _ = self.tokens[index]
                if depth == 0 and (
                    self._column(index) == 0
                    or (closing is not None and text in (",", closing))
                    or (
                        self._first_on_line(index)
                        and (self._column(index) <= column or self._text(index + 1) == ":=")
                    )
                ):
                    break
                if not self._literal(index):
                    return self._fail(
                        index,
                        f"`{text}` in the value of `{setting}` is not a literal; Lake "
                        "evaluates setting values when it loads the configuration, so a "
                        "value can run code (`run_io`)",
                    )
                if kind == SYMBOL and text in ("[", "⟨", "("):
                    depth += 1
                elif kind == SYMBOL and text in ("]", "⟩", ")"):
                    depth -= 1
                index += 1
        return index

    def _literal(self, index: int) -> bool:
        kind, text, offset = self.tokens[index]
        if kind in (STRING, NUMBER, NAME):
            return True
        if kind == SYMBOL:
            return text in _LITERAL_SYMBOLS
        if kind != IDENT:
            return False
        if text in _LITERAL_WORDS:
            return True
        if text == "v!":  # Lake's version literal, when its string interpolates nothing
            following = self.tokens[index + 1 : index + 2]
            return bool(following) and following[0][0] == STRING and "{" not in following[0][1]
        # `.release`, `.submodules`: a constructor of the setting's type
        previous = self.tokens[index - 1] if index > 0 else None
        return (
            previous is not None
            and previous[1] == "."
            and previous[2] + 1 == offset
            and "." not in text
            and (index < 2 or self.tokens[index - 2][0] == SYMBOL)
        )

    def _require(self, index: int) -> int:
        """Lake's ``depSpec``: ``["scope" /] name [@ [git] rev] [from git url [@ rev] [/ dir]
        | from path]``; a ``with`` clause is a term, so it is not followed."""
        if self._text(index + 1) == "/" and self.tokens[index][0] == STRING:
            index += 2
        if index >= len(self.tokens) or self.tokens[index][0] not in (IDENT, STRING):
            return self._unknown(index - 1)
        index += 1
        if self._text(index) == "@":
            index += 1
            if self._text(index) == "git":
                index += 1
            index = self._string(index)
        if self._text(index) == "from":
            index += 1
            if self._text(index) == "git":
                index = self._string(index + 1)
                if self._text(index) == "@":
                    index = self._string(index + 1)
                if self._text(index) == "/":
                    index = self._string(index + 1)
            else:
                index = self._string(index)
        if self._text(index) == "with":
            return self._fail(
                index,
                "a `require … with` clause is a term Lake evaluates; the scanner does not "
                "follow it",
            )
        return index

    def _string(self, index: int) -> int:
        """Past a string literal, or (when it is not one) a finding."""
        if index < len(self.tokens) and self.tokens[index][0] == STRING:
            return index + 1
        if index >= len(self.tokens):
            return index
        return self._fail(
            index,
            f"`{self._text(index)}` here is not a string literal; the scanner reads "
            "`require` only with literal sources and revisions",
        )
