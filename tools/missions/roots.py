"""Finding the workspace root and its Lean files.

The primitives work on plain string paths and import nothing beyond ``os`` and
``hashlib``: the start-up fast path (:mod:`missions.fastpath`) runs them before any heavy
module, so even ``pathlib`` stays unloaded there. :func:`find_root` and :func:`check_root`
wrap them for the rest of the tool, with ``Path`` results and ``path:line: message`` errors.
"""

from __future__ import annotations

import errno
import hashlib
import operator
import os
import stat
import time

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up cost)
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

NO_ROOT = "no workspace root (a directory with lakefile.lean and missions/) here or above"

#: Lean sources larger than this are not read (a fault, like an unreadable file); real ones
#: are far smaller, and scanning one this size already takes seconds and much memory.
MAX_LEAN_BYTES = 8 * 1024 * 1024


def read_regular(path: str, limit: int) -> tuple[bytes, os.stat_result]:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes, and its stat
    as it was opened (so that a stored scan is keyed by the size and time of what was read).

    A FIFO or a device under a source's name (or a link to one) would block the read or never
    end it, and a huge file would fill memory: both raise :class:`OSError` (``EINVAL``,
    ``EFBIG``) with a ``strerror`` that says why, which callers report like any unreadable
    file. The open never blocks: it is non-blocking until the type is known.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        if info.st_size > limit:
            raise OSError(errno.EFBIG, f"larger than {limit} bytes", path)
        # sized by the file, not by the limit: a buffer of `limit` bytes per read would cost
        # more than reading a small source
        chunks = [os.read(fd, info.st_size + 1)]
        size = len(chunks[0])
        while chunks[-1] and size <= limit:  # to the end, however the file grew meanwhile
            chunks.append(os.read(fd, limit + 1 - size))
            size += len(chunks[-1])
    finally:
        os.close(fd)
    if size > limit:  # it grew while we read it
        raise OSError(errno.EFBIG, f"larger than {limit} bytes", path)
    return b"".join(chunks), info


def content_hash(path: str) -> str:
    """sha256 of a regular file's bytes, of a folder's sorted entry names (a witness
    module's folder is an input: a package added beside the module replaces it), or
    ``-errno`` (a FIFO is never waited on)."""
    try:
        if os.path.isdir(path):
            names = "\0".join(sorted(os.listdir(path)))
            return "dir:" + hashlib.sha256(names.encode("utf-8", "surrogateescape")).hexdigest()
        return hashlib.sha256(read_regular(path, MAX_LEAN_BYTES)[0]).hexdigest()
    except OSError as exc:
        return f"-{exc.errno}"


def file_stamp(stat: os.stat_result) -> str:
    """What tells that a file may differ from when it was read: its size, modification time
    and change time. ``chmod`` moves only the last, and a file that became unreadable must
    be read again (and fail), never answered from what a cache kept of it."""
    return f"{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ctime_ns}"


#: A file changed this close to when it is stamped may change again without its times moving
#: (file systems keep coarse times; FAT's are two seconds apart): git's "racily clean"
#: files. A cache remembers such a file by :data:`RACY_STAMP`, which no stat matches, so the
#: next run reads it again; an answer computed while one existed is not kept by its times.
RACY_NS = 2_000_000_000
RACY_STAMP = "racy"


def is_racy(stat: os.stat_result, now_ns: int | None = None) -> bool:
    """Whether the file changed within :data:`RACY_NS` of now (``now_ns``: of when ``stat``
    was taken, for a stat taken before its file was read and judged later: a clock read
    after the read would see too few files racy)."""
    now = time.time_ns() if now_ns is None else now_ns
    return max(stat.st_mtime_ns, stat.st_ctime_ns) > now - RACY_NS


def index_stamp(stat: os.stat_result) -> str:
    """The stamp a cache may remember a file by: :func:`file_stamp`, or :data:`RACY_STAMP`
    for a file whose times cannot yet be trusted to move with its next change."""
    return RACY_STAMP if is_racy(stat) else file_stamp(stat)


def read_lean_text(path: str) -> str:
    """A Lean source as text (UTF-8), through :func:`read_regular`."""
    return read_regular(path, MAX_LEAN_BYTES)[0].decode("utf-8")


#: Lake and toolchain files (lakefile, lean-toolchain, lake-manifest.json) are small.
MAX_CONFIG_BYTES = 1024 * 1024


def read_config_text(path: str | os.PathLike[str]) -> str:
    """A workspace configuration file as text (UTF-8), through :func:`read_regular`."""
    return read_regular(os.fspath(path), MAX_CONFIG_BYTES)[0].decode("utf-8")


def is_root(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "lakefile.lean")) and os.path.isdir(
        os.path.join(directory, "missions")
    )


def locate_root(start: str) -> str | None:
    """The nearest ancestor of ``start`` (resolved) that is a workspace root."""
    current = os.path.realpath(start)
    while True:
        if is_root(current):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def root_problem(root: str) -> tuple[str, str] | None:
    """Why ``root`` (resolved) is not a workspace root, as (path, message); None if it is."""
    if not os.path.isdir(root):
        return root, "workspace root does not exist"
    if not os.path.isfile(os.path.join(root, "lakefile.lean")):
        return os.path.join(root, "lakefile.lean"), "workspace root has no lakefile.lean"
    if not os.path.isdir(os.path.join(root, "missions")):
        return os.path.join(root, "missions"), "workspace root has no missions/ directory"
    return None


#: A library's source root: (directory relative to the workspace root, "" for the root
#: itself; root module name). ``lean_lib Challenge where srcDir := "comparator"`` is
#: ``("comparator", "Challenge")``: Lake builds ``comparator/Challenge.lean`` and the modules
#: below ``comparator/Challenge/``, named relative to ``comparator``.
SourceRoot = tuple[str, str]

#: Lake settings that decide which files a library builds.
LAYOUT_SETTINGS = ("srcDir", "roots", "globs")
#: Words that start a target declaration in ``lakefile.lean``.
_TARGET_WORDS = frozenset(
    {
        "package",
        "lean_lib",
        "lean_exe",
        "extern_lib",
        "target",
        "input_file",
        "input_dir",
        "library_facet",
        "module_facet",
        "package_facet",
        "script",
        "require",
    }
)
#: Words that start a command after a setting's value, besides a target.
_COMMAND_WORDS = _TARGET_WORDS | frozenset(
    {
        "abbrev",
        "def",
        "end",
        "import",
        "initialize",
        "instance",
        "macro",
        "meta",
        "namespace",
        "open",
        "post_update",
        "section",
        "set_option",
        "syntax",
        "theorem",
    }
)
_GLOB_KINDS = frozenset(
    {".one", ".submodules", ".andSubmodules", "Glob.one", "Glob.submodules", "Glob.andSubmodules"}
)


def library_roots(root: str | os.PathLike[str]) -> list[SourceRoot]:
    """Where the libraries of ``lakefile.lean`` keep their modules (default ``Formal``).

    What the file says about its layout cannot always be read (a computed ``srcDir``): then
    :func:`layout_problems` says so, and the status layer proves nothing.
    """
    return lake_layout(root)[0]


def library_names(sources: list[SourceRoot]) -> list[str]:
    """The first components of the libraries' root modules (what marks a workspace import)."""
    return list(dict.fromkeys(module.split(".", 1)[0] for _, module in sources))


def layout_problems(root: str | os.PathLike[str]) -> list[tuple[int, str]]:
    """Layout settings of ``lakefile.lean`` the scanner cannot follow, as (line, message)."""
    return lake_layout(root)[1]


def layout_lines(root: str | os.PathLike[str]) -> set[int]:
    """Lines where the layout reader met a layout setting in code (for cross-checking)."""
    try:
        tokens = _lake_tokens(read_config_text(os.path.join(root, "lakefile.lean")))
    except (OSError, UnicodeDecodeError):
        return set()
    return {
        line for line, kind, value in tokens or () if kind == "word" and value in LAYOUT_SETTINGS
    }


def lake_layout(root: str | os.PathLike[str]) -> tuple[list[SourceRoot], list[tuple[int, str]]]:
    """The libraries' source roots and the settings that could not be read.

    Reads ``package``/``lean_lib`` declarations with literal ``srcDir``, ``roots`` and
    ``globs``; a library's ``srcDir`` is relative to the package's, as in Lake. Every other
    use of those settings is a problem: Lake may build files the scanner never reads.
    """
    libraries, problems = _lake_libraries(root)
    sources: list[SourceRoot] = []
    for library in libraries:
        if library.directory is not None and not library.exe:
            sources.extend((library.directory, module) for module in library.modules)
    return list(dict.fromkeys(sources)) or [("", "Formal")], problems


def default_builds(root: str | os.PathLike[str]) -> tuple[list[Glob], list[tuple[int, str]]]:
    """What ``lake build`` with no target builds: the modules of every ``@[default_target]``
    ``lean_lib`` (its ``globs``, else its ``roots``) and the root of every default
    ``lean_exe``, as globs, with the lakefile's unreadable settings. Lake elaborates these
    and everything they import, and nothing else."""
    libraries, problems = _lake_libraries(root)
    found: list[Glob] = []
    for library in libraries:
        if library.default:
            globs = library.globs
            found.extend(globs if globs is not None else [("one", m) for m in library.roots])
    return found, problems


#: A module glob of Lake: ``("one", M)`` is M, ``("submodules", M)`` the modules below M,
#: ``("andSubmodules", M)`` both.
Glob = tuple[str, str]


def _lake_libraries(root: str | os.PathLike[str]) -> tuple[list[_Library], list[tuple[int, str]]]:
    """Every ``lean_lib`` and ``lean_exe`` of ``lakefile.lean`` as far as its layout goes (a
    missing lakefile is one default library ``Formal``), and the settings not followed."""
    default = [_Library(1, "Formal", default=True)]
    default[0].directory = ""
    try:
        text = read_config_text(os.path.join(root, "lakefile.lean"))
    except FileNotFoundError:
        return default, []
    except (OSError, UnicodeDecodeError) as exc:
        # Lake may read what the scanner cannot (a huge file): its layout is unknown
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8"
        return default, [(1, f"the scanner cannot read lakefile.lean ({reason})")]
    tokens = _lake_tokens(text)
    if tokens is None:
        return default, [(1, "the scanner cannot read lakefile.lean's layout")]
    problems: list[tuple[int, str]] = []
    package = _Library(1, "package")
    libraries: list[_Library] = []
    target = ""
    i = 0
    while i < len(tokens):
        line, kind, value = tokens[i]
        if kind == "word" and value in _TARGET_WORDS:
            target = value
            declared = i + 1 < len(tokens) and tokens[i + 1][1] == "word"
            if value in ("lean_lib", "lean_exe") and declared:
                name = tokens[i + 1][2].replace("«", "").replace("»", "")
                libraries.append(
                    _Library(line, name, exe=value == "lean_exe", default=_default(tokens, i))
                )
            i += 1
            continue
        if kind == "word" and value in (*LAYOUT_SETTINGS, "root"):
            if value == "root" and not (target == "lean_exe" and libraries):
                i += 1  # only an executable's `root` names a module
                continue
            parsed, i = _layout_value(tokens, i)
            owner = package if target == "package" else libraries[-1] if libraries else None
            misplaced = (
                owner is None
                or (value == "root") != owner.exe
                or (owner is not package and owner.exe and value != "root")
                or target not in ("package", "lean_lib", "lean_exe")
                or (owner is package and value != "srcDir")
            )
            if parsed is None or owner is None or misplaced:
                problems.append(
                    (
                        line,
                        f"`{value}` is set in a form the scanner cannot follow; Lake may "
                        "build files it never reads",
                    )
                )
            elif value == "srcDir":
                assert isinstance(parsed, str)
                owner.src, owner.line = parsed, line
            else:
                assert isinstance(parsed, list)
                if value in ("roots", "root"):
                    owner.roots = [module for _, module in parsed]
                    owner.modules = [*owner.roots, *(m for _, m in owner.globs or [])]
                else:  # globs add the modules they name to what the library builds
                    owner.globs = parsed
                    owner.modules = [*owner.roots, *(m for _, m in parsed)]
            continue
        i += 1
    for library in libraries:
        directory = _join_src(package.src, library.src)
        if directory is None:
            where = library.line if library.src else package.line
            problems.append(
                (
                    where,
                    f"source directory `{os.path.join(package.src, library.src)}` is "
                    "outside the workspace; the scanner reads only files inside it",
                )
            )
        library.directory = directory
    found = [library for library in libraries if not library.exe]
    if not found:
        return default, problems
    return libraries, problems


def _default(tokens: list[tuple[int, str, str]], i: int) -> bool:
    """Whether the target declared at ``tokens[i]`` carries ``@[… default_target …]``."""
    j = i - 1
    if j < 0 or tokens[j][2] != "]":
        return False
    words: list[str] = []
    while j >= 0 and tokens[j][2] != "[":
        words.append(tokens[j][2])
        j -= 1
    return j >= 1 and tokens[j - 1][2] == "@" and "default_target" in words


class _Library:
    """A ``lean_lib`` or ``lean_exe`` (or the package) as far as its layout goes."""

    __slots__ = ("default", "directory", "exe", "globs", "line", "modules", "roots", "src")

    def __init__(self, line: int, name: str, *, exe: bool = False, default: bool = False) -> None:
        self.line = line
        self.src = ""
        self.roots = [name]
        self.modules = [name]
        #: None while unset (Lake then builds the roots); `#[]` builds nothing
        self.globs: list[Glob] | None = None
        self.exe = exe
        self.default = default
        #: the source directory relative to the workspace root; None if it escapes it
        self.directory: str | None = None


def _join_src(package_src: str, src: str) -> str | None:
    """``package_src/src`` normalized, relative to the workspace root; None if it escapes."""
    joined = os.path.normpath(os.path.join(package_src, src)) if (package_src or src) else "."
    if os.path.isabs(joined) or joined == ".." or joined.startswith(".." + os.sep):
        return None
    return "" if joined == "." else joined


def _layout_value(
    tokens: list[tuple[int, str, str]], i: int
) -> tuple[str | list[Glob] | None, int]:
    """The literal value of the layout setting at ``tokens[i]``, and the index after it.

    ``srcDir := "dir"``, ``roots := #[`A, `B.C]`` (each a ``one`` glob), ``globs :=
    #[.submodules `A, `B]`` and an executable's ``root := `Main``; the value must end its line
    (or be followed by ``,`` or ``}``). Anything else is None.
    """
    name = tokens[i][2]
    if i + 2 >= len(tokens) or tokens[i + 1][2] != ":=":
        return None, i + 1
    j = i + 2
    value: str | list[Glob]
    if name == "srcDir":
        if tokens[j][1] != "string":
            return None, j
        value, j = tokens[j][2], j + 1
    elif name == "root":
        if tokens[j][1] != "name":
            return None, j
        value, j = [("one", tokens[j][2])], j + 1
    else:
        if tokens[j][2] != "#[":
            return None, j
        j += 1
        globs: list[Glob] = []
        while j < len(tokens) and tokens[j][2] != "]":
            kind = "one"
            if name == "globs" and tokens[j][2] in _GLOB_KINDS:
                kind = tokens[j][2].rsplit(".", 1)[-1]
                j += 1
            if j >= len(tokens) or tokens[j][1] != "name":
                return None, j
            globs.append((kind, tokens[j][2]))
            j += 1
            if j < len(tokens) and tokens[j][2] == ",":
                j += 1
        if j >= len(tokens):
            return None, j
        value, j = globs, j + 1
    if j < len(tokens) and not _starts_next(tokens, j, tokens[j - 1][0]):
        return None, j
    return value, j


def _starts_next(tokens: list[tuple[int, str, str]], j: int, value_line: int) -> bool:
    """Whether ``tokens[j]``, right after a setting's value, starts something else: ``,`` or
    ``}`` on the value's line; on a later line the next setting (``name :=``), an attribute
    or a command. Anything else continues the value (``#[`A]`` then ``++ #[`B]`` below it)."""
    line, kind, text = tokens[j]
    if line == value_line:
        return text in (",", "}")
    if kind == "symbol":
        return text in ("@", "#", "}")
    follows = tokens[j + 1][2] if j + 1 < len(tokens) else None
    return kind == "word" and (follows == ":=" or text in _COMMAND_WORDS)


def _lake_tokens(text: str) -> list[tuple[int, str, str]] | None:
    """``lakefile.lean`` as (line, kind, text) tokens: ``word``, ``name`` (a `` `Name ``
    literal, without the backtick), ``string`` (its contents) and ``symbol``; comments
    dropped. None if a comment or string does not end (the layout is then unknown)."""
    tokens: list[tuple[int, str, str]] = []
    i, n, line = 0, len(text), 1
    word_chars = "_.!?'«»"
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("--", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/-", i):
            depth, i = 1, i + 3  # as Lean: the character after `/-` is taken unread
            while depth and i < n:
                if text.startswith("/-", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("-/", i):
                    depth, i = depth - 1, i + 2
                else:
                    line += text[i] == "\n"
                    i += 1
            if depth:
                return None
        elif c == "r" and (text.startswith('r"', i) or text.startswith("r#", i)):
            hashes = 0
            while text.startswith("#", i + 1 + hashes):
                hashes += 1
            if not text.startswith('"', i + 1 + hashes):
                return None
            close = '"' + "#" * hashes
            end = text.find(close, i + 2 + hashes)
            if end < 0:
                return None
            body = text[i + 2 + hashes : end]
            tokens.append((line, "string", body))
            line += body.count("\n")
            i = end + len(close)
        elif c == "'":  # a character literal (a prime inside a word is part of the word)
            end = text.find("'", i + 2 if text.startswith("\\", i + 1) else i + 1)
            if end < 0 or end > i + 12:
                return None
            i = end + 1
        elif c == '"':
            interpolated = bool(tokens) and tokens[-1][2].endswith("!")
            j, chars = i + 1, []
            while j < n and text[j] != '"':
                if text[j] == "\\":
                    j += 1
                if j < n:
                    line += text[j] == "\n"
                    chars.append(text[j])
                j += 1
            if j >= n or (interpolated and "{" in chars):
                return None  # an interpolated string's holes are code this reader skips
            tokens.append((line, "string", "".join(chars)))
            i = j + 1
        elif c == "`" and i + 1 < n and (text[i + 1].isalpha() or text[i + 1] in "_«"):
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] in word_chars):
                j += 1
            tokens.append((line, "name", text[i + 1 : j].replace("«", "").replace("»", "")))
            i = j
        elif c.isalpha() or c in "_«" or (c == "." and i + 1 < n and text[i + 1].isalpha()):
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] in word_chars):
                j += 1
            tokens.append((line, "word", text[i:j]))
            i = j
        elif text.startswith(":=", i) or text.startswith("#[", i):
            tokens.append((line, "symbol", text[i : i + 2]))
            i += 2
        else:
            tokens.append((line, "symbol", c))
            i += 1
    return tokens


def lean_file_stats(root: str, sources: list[SourceRoot]) -> list[tuple[str, os.stat_result]]:
    """Every ``.lean`` file of the libraries with its stat, in a stable (sorted) order: each
    root module's file and everything below its directory."""
    found: list[tuple[str, os.stat_result]] = []
    seen: set[str] = set()
    for src, module in sources:
        stem = os.path.join(root, src, *module.split("."))
        if stem in seen:
            continue
        seen.add(stem)
        top = stem + ".lean"
        try:
            stat = os.stat(top)
        except OSError:
            stat = None
        if stat is not None:
            found.append((top, stat))
        _walk_lean(stem, found)
    return found


def module_namer(root: str, sources: list[SourceRoot]) -> Callable[[str], str]:
    """``path → module name`` for files :func:`lean_file_stats` lists: the path relative to
    its library's source directory, dotted (``ROOT/src/A/B.lean`` → ``A.B``)."""
    bases = sorted(
        {
            (os.path.join(root, src, *module.split(".")), os.path.join(root, src))
            for src, module in sources
            if src
        },
        key=lambda pair: len(pair[0]),
        reverse=True,
    )
    cut = len(root) + 1

    def name(path: str) -> str:
        for stem, base in bases:
            if path == stem + ".lean" or path.startswith(stem + os.sep):
                return path[len(base) + 1 : -len(".lean")].replace(os.sep, ".")
        return path[cut : -len(".lean")].replace(os.sep, ".")

    return name


def module_file(root: str, module: str, sources: list[SourceRoot]) -> str:
    """Where the library that would own ``module`` keeps its file (for new modules)."""
    for src, library in sorted(sources, key=lambda pair: -len(pair[1])):
        if module == library or module.startswith(library + "."):
            return os.path.join(root, src, *module.split(".")) + ".lean"
    return os.path.join(root, *module.split(".")) + ".lean"


_entry_name = operator.attrgetter("name")


def _walk_lean(directory: str, found: list[tuple[str, os.stat_result]]) -> None:
    """Collect ``.lean`` files below ``directory``.

    Hidden entries (``.#Proofs.lean`` editor lock files, ``.lake``) are not modules, and a
    symbolic link whose target is gone is nothing to scan: both are skipped. A directory that
    cannot be listed contributes nothing; imports of its modules then fail to resolve, which
    the status layer reports.
    """
    try:
        with os.scandir(directory) as scan:
            entries = sorted(scan, key=_entry_name)
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                _walk_lean(entry.path, found)
            elif entry.name.endswith(".lean"):
                found.append((entry.path, entry.stat()))
        except OSError:  # a dangling or looping symbolic link
            continue


def iter_lean_files(root: str, sources: list[SourceRoot]) -> list[str]:
    """Every ``.lean`` file of the libraries, as paths, in a stable order."""
    return [path for path, _ in lean_file_stats(root, sources)]


def find_root(start: Path) -> Path:
    """The nearest ancestor of ``start`` holding both ``lakefile.lean`` and ``missions/``."""
    from pathlib import Path

    from missions.errors import InputError

    found = locate_root(str(start))
    if found is None:
        raise InputError.single(start.resolve(), 1, NO_ROOT)
    return Path(found)


def check_root(root: Path) -> Path:
    """Validate an explicit ``--root``."""
    from pathlib import Path

    from missions.errors import InputError

    resolved = os.path.realpath(root)
    problem = root_problem(resolved)
    if problem is not None:
        path, message = problem
        raise InputError.single(path, 1, message)
    return Path(resolved)
