"""Safe, line-aware YAML reading and atomic round-trip rewriting.

Mission files are edited by people and rewritten by ``pin`` and ``sync``; both must keep
comments and key order, so everything goes through ruamel's round-trip mode. The loader
refuses anything that could make a malicious file dangerous to read: explicit tags (no
object construction of any kind), recursive aliases, and alias expansions beyond a fixed
node budget (a "billion laughs" file is rejected in linear time, before anything walks it).
"""

from __future__ import annotations

import errno
import functools
import gc
import io
import os
import re
import signal
import sys
import tempfile
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from missions.errors import InputError, Problem
from missions.roots import read_regular

try:  # the C parser ruamel itself uses (see ruamel.yaml.main), when installed
    from _ruamel_yaml import CParser as _CParser
except ImportError:  # pragma: no cover - the pure parser gives the same events
    _CParser = None

#: Expanded node budget for one file: values (mappings, lists, scalars; not keys), an alias
#: counting as everything it stands for. Real mission files have a few hundred.
MAX_EXPANDED_NODES = 50_000
#: Files larger than this are refused before parsing.
MAX_FILE_BYTES = 2_000_000
#: Deepest nesting of mappings and lists accepted. Real mission files nest about five levels.
MAX_DEPTH = 64
TOO_DEEP = f"YAML nested deeper than {MAX_DEPTH} levels"


def _round_trip() -> YAML:
    yaml = _loader(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = sys.maxsize  # never fold a long line a person wrote
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def _explicit_tag(node: Any) -> str | None:
    # round-trip containers and tagged scalars carry a ruamel Tag; plain values carry none
    value = getattr(getattr(node, "tag", None), "value", None)
    return str(value) if value else None


def node_line(container: Any, key: Any | None = None) -> int:
    """1-based line of ``container[key]`` (or of the container itself) in its source file."""
    lc = getattr(container, "lc", None)
    if lc is None:
        return 1
    try:
        if key is None:
            return int(lc.line) + 1
        if isinstance(container, CommentedMap):
            return int(lc.key(key)[0]) + 1
        if isinstance(container, CommentedSeq):
            return int(lc.item(key)[0]) + 1
    except (KeyError, IndexError, TypeError, AttributeError):
        pass
    return int(lc.line or 0) + 1


def line_of(doc: Any, loc: tuple[int | str, ...]) -> int:
    """Best line for a location path such as ``("targets", 2, "kind")``.

    Walks as deep as the document allows and reports the deepest line it reached, so a
    missing field points at the mapping that lacks it.
    """
    line = node_line(doc)
    node = doc
    for part in loc:
        in_map = isinstance(node, CommentedMap) and part in node
        in_seq = isinstance(node, CommentedSeq) and isinstance(part, int) and 0 <= part < len(node)
        if in_map or in_seq:
            line = node_line(node, part)
            node = node[part]
        else:
            break
    return line


def fast_compose(text: str) -> Any:
    """The YAML node tree (with source marks) from the safe, C-accelerated composer, or
    ``None`` when it cannot be composed. Ten times cheaper than a round-trip load when
    only the node tree is wanted (see :func:`unbuildable_node`)."""
    try:
        return _loader(typ="safe", pure=False).compose(text)
    except Exception:  # hostile input may break the composer in any way: no tree
        return None


@contextmanager
def collecting_parser_garbage() -> Iterator[None]:
    """Free what parsing YAML leaves behind, also where the cycle collector is off.

    ruamel.yaml's C-accelerated loader builds a new loader *class* per document, and the
    loader refers to itself: each parse leaves a reference cycle (about 28 KB) that only the
    collector frees. The analysis commands run without it (see ``missions.cli.command``), so
    a cold catalogue of 2,000 missions kept every parser it ever built. Here what existed
    before the block is frozen (the collector skips it), what the block left is collected,
    and everything is unfrozen: the cost is proportional to the block's own objects. A block
    that built no loader (a mission file the event builder read) made no cycle: nothing is
    collected (a tenth of a cold catalogue's time)."""
    if gc.isenabled():
        yield
        return
    built = _loaders_built
    gc.freeze()
    try:
        yield
    finally:
        if _loaders_built != built:
            gc.collect()
        gc.unfreeze()


#: How many ruamel.yaml loaders this process built (:func:`_loader`): each use leaves a
#: reference cycle.
_loaders_built = 0


def _loader(**options: Any) -> YAML:
    """``YAML(**options)``, counted for :func:`collecting_parser_garbage`."""
    global _loaders_built
    _loaders_built += 1
    return YAML(**options)


def fast_load(text: str) -> Any:
    """Parse with the safe loader (C-accelerated when ruamel.yaml.clib is present).

    Returns ``None`` for anything it cannot parse or construct; callers then take the
    round-trip path, which reports the problem on its line.
    """
    yaml = _loader(typ="safe", pure=False)
    try:
        return yaml.load(text)
    except Exception:  # e.g. `2020-13-45`, `!!int x`, a list inside a key: the caller reports it
        return None


def unbuildable_node(text: str) -> tuple[int, str]:
    """(line, reason) of the first node, in document order, that the round-trip loader
    cannot build: a scalar its constructor rejects (``2020-13-45``, ``!!int x``, ``0x_``) or
    a mapping key that is not a plain value (a list inside a key is not even hashable).

    The loader raises such errors without a place; building node by node finds it.
    """
    root = fast_compose(text)
    constructor = _round_trip().constructor
    seen: set[int] = set()
    stack: list[tuple[Any, bool]] = [] if root is None else [(root, False)]
    while stack:
        node, is_key = stack.pop()
        if id(node) in seen:  # an alias: its node was checked where it was anchored
            continue
        seen.add(id(node))
        line = node.start_mark.line + 1
        if is_key and not isinstance(node, ScalarNode):
            return line, "a mapping key must be a plain value, not a list or mapping"
        if isinstance(node, ScalarNode):
            try:
                constructor.construct_object(node)
            except Exception as exc:
                return line, f"YAML value cannot be read: {str(exc) or type(exc).__name__}"
        elif isinstance(node, MappingNode):
            children = [(child, i == 0) for pair in node.value for i, child in enumerate(pair)]
            stack.extend(reversed(children))
        elif isinstance(node, SequenceNode):
            stack.extend((child, False) for child in reversed(node.value))
    return 1, "the YAML document cannot be read"


def structure_problems(path: Path, doc: Any) -> list[Problem]:
    """Reject explicit tags, recursion, deep nesting and alias expansion beyond the budget.

    The walk is iterative: a 2 KB file nested a thousand levels deep must give one line, not
    exhaust the interpreter's stack (and no later recursive walk ever sees such a document).
    """
    problems: list[Problem] = []
    sizes: dict[int, int] = {}
    on_stack: set[int] = set()
    expanded = [0]  # values met so far, an alias counting as everything it stands for
    # frames of containers being walked: [node, children, accumulated size]
    stack: list[tuple[Any, Iterator[tuple[Any, Any]], list[int]]] = []

    def enter(node: Any, parent: Any, key: Any) -> int | None:
        """The size of a finished node, or None once its frame is pushed."""
        ident = id(node)
        if ident in sizes:
            expanded[0] += sizes[ident]
            return sizes[ident]
        expanded[0] += 1
        if ident in on_stack:
            raise _Recursive(node_line(parent, key))
        tag = _explicit_tag(node)
        if tag is not None:
            problems.append(
                Problem(
                    str(path), node_line(parent, key), f"explicit YAML tag {tag!r} is not allowed"
                )
            )
        if not isinstance(node, dict | list):
            sizes[ident] = 1
            return 1
        if len(stack) >= MAX_DEPTH:
            raise _TooDeep(node_line(parent, key))
        on_stack.add(ident)
        children: Iterator[tuple[Any, Any]] = (
            iter(node.items()) if isinstance(node, dict) else enumerate(node)
        )
        stack.append((node, children, [1]))
        return None

    try:
        enter(doc, None, None)
        while stack:
            node, children, size = stack[-1]
            step = next(children, None)
            if step is None:
                stack.pop()  # a finished node is found in `sizes` before `on_stack`
                sizes[id(node)] = size[0]
                if stack:
                    stack[-1][2][0] += size[0]
                continue
            child_key, child = step
            done = enter(child, node, child_key)
            if done is not None:
                size[0] += done
            if expanded[0] > MAX_EXPANDED_NODES:
                raise _TooLarge(node_line(node, child_key))
    except _Recursive as exc:
        problems.append(Problem(str(path), exc.line, "recursive YAML alias", "yaml"))
    except _TooDeep as exc:
        problems.append(Problem(str(path), exc.line, TOO_DEEP, "yaml"))
    except _TooLarge as exc:
        problems.append(
            Problem(
                str(path),
                exc.line,
                f"document expands to more than {MAX_EXPANDED_NODES} nodes (alias bomb?)",
                "yaml",
            )
        )
    return problems


class _Recursive(Exception):
    def __init__(self, line: int) -> None:
        self.line = line


class _TooLarge(Exception):
    def __init__(self, line: int) -> None:
        self.line = line


class _TooDeep(Exception):
    def __init__(self, line: int) -> None:
        self.line = line


def nesting_line(text: str) -> int:
    """The first line where the text nests deeper than :data:`MAX_DEPTH` (else 1).

    An estimate from brackets and indentation, for locating a problem the loader found;
    the round-trip parser, which knows lines, is slow and recursive on such input.
    """
    flow = 0
    indents: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        content = line.lstrip(" ")
        if not content or content.startswith("#"):
            continue  # blank lines and comments neither indent nor bracket anything
        indent = len(line) - len(content)
        while indents and indents[-1] >= indent:
            indents.pop()
        indents.append(indent)
        for char in content:
            if char in "[{":
                flow += 1
                if flow + len(indents) > MAX_DEPTH:
                    return number
            elif char in "]}":
                flow = max(flow - 1, 0)
        if flow + len(indents) > MAX_DEPTH:
            return number
    return 1


#: The line of every mapping key and sequence item of a document, by location (see
#: :func:`line_in`): what messages need, kept with a cached mission instead of its text.
LineIndex = dict[str, int]
_NODE_EVENTS = (ScalarEvent, AliasEvent, MappingStartEvent, SequenceStartEvent)


def _piece(part: int | str) -> str:
    return f"k{part}" if isinstance(part, str) else f"i{part}"


def load_indexed(path: Path, text: str) -> tuple[LineIndex | None, Any, bool]:
    """:func:`check_depth` and :func:`fast_load` of ``text`` from one parse: the line index,
    the document (``None`` where the safe loader cannot build it), and whether
    :func:`structure_problems` is known to find nothing in it.

    A mission file is parsed by :func:`check_depth` anyway; the document is built from the
    same events (:class:`_Builder`) where they stay within what the builder knows to build
    exactly as the safe loader does, else by the safe loader itself. A built document has no
    explicit tag and no recursion (the builder gives up on both) and is no deeper than
    :func:`check_depth` allows; without an alias, every value is one node, so the builder's
    count of them is the expansion :func:`structure_problems` bounds. Such a document needs
    no second walk.
    """
    builder = _Builder()
    lines = check_depth(path, text, builder)
    data = builder.document()
    if data is _UNBUILT:
        return lines, fast_load(text), False
    return lines, data, not builder.aliases and builder.values <= MAX_EXPANDED_NODES


#: what :meth:`_Builder.document` gives for a document it did not build
_UNBUILT: Any = object()
#: the plain scalars the builder constructs (the YAML 1.2 core schema, and timestamps)
_BUILT_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("str", "null", "bool", "int", "float", "timestamp")
)
_STR_TAG = "tag:yaml.org,2002:str"


class _Builder:
    """The document the safe loader builds, from the parser's events.

    The safe loader composes a node tree from these events and constructs plain values
    from it; mission files are large in number, not in shape, and that tree costs as much
    as the parse. The builder constructs the same values directly: each plain scalar is
    resolved by the safe loader's own resolver and, unless a string, constructed by its own
    constructor. Anything it does not reproduce exactly gives up (:data:`_UNBUILT`): an
    explicit tag, a ``%YAML`` or ``%TAG`` directive, a merge key or any other tag outside
    :data:`_BUILT_TAGS`, a key that is not a scalar, a duplicate key, an anchor defined
    twice, an alias to an undefined anchor or into the collection being built, a root that
    is not a mapping, a stream that is not exactly one document, or a parse error.
    """

    def __init__(self) -> None:
        self._root: Any = _UNBUILT
        self._documents = 0
        self._ended = False
        self._failed = False
        # per open collection: [container, is a mapping, next is a key, the pending key]
        self._stack: list[list[Any]] = []
        self._open: set[int] = set()
        self._anchors: dict[str, Any] = {}
        #: whether an alias was met, and how many values (not keys) were placed
        self.aliases = False
        self.values = 0

    def document(self) -> Any:
        if self._failed or not self._ended or self._documents != 1:
            return _UNBUILT
        return self._root if isinstance(self._root, dict) else _UNBUILT

    def add(self, event: Any) -> None:
        if self._failed:
            return
        try:
            self._add(event)
        except Exception:  # _GiveUp, or a value the constructor rejects (`2020-13-45`)
            self._failed = True

    def _add(self, event: Any) -> None:
        if isinstance(event, MappingEndEvent | SequenceEndEvent):
            self._open.discard(id(self._stack.pop()[0]))
        elif isinstance(event, ScalarEvent):
            self._place(self._scalar(event), event.anchor)
        elif isinstance(event, MappingStartEvent | SequenceStartEvent):
            if event.tag is not None:
                raise _GiveUp
            container: Any = {} if isinstance(event, MappingStartEvent) else []
            self._place(container, event.anchor)
            self._stack.append([container, isinstance(container, dict), True, None])
            self._open.add(id(container))
        elif isinstance(event, AliasEvent):
            if event.anchor not in self._anchors:
                raise _GiveUp
            value = self._anchors[event.anchor]
            if id(value) in self._open:
                raise _GiveUp  # a recursive alias
            self.aliases = True
            self._place(value, None)
        elif isinstance(event, DocumentStartEvent):
            self._documents += 1
            if event.version is not None or event.tags:
                raise _GiveUp
        elif isinstance(event, StreamEndEvent):
            self._ended = True

    def _scalar(self, event: Any) -> Any:
        if event.tag is not None:
            raise _GiveUp
        value = event.value
        if not event.implicit[0]:  # quoted or a block scalar: a string
            return value
        tag = _implicit_tag(value, event.implicit[1])
        if tag == _STR_TAG:
            return value
        if tag not in _BUILT_TAGS:  # a merge key flattens its mapping: no scalar constructor can
            raise _GiveUp
        return _plain_scalar(tag, value)

    def _place(self, value: Any, anchor: str | None) -> None:
        if anchor is not None:
            if anchor in self._anchors:
                raise _GiveUp
            self._anchors[anchor] = value
        if not self._stack:
            if self._root is not _UNBUILT:
                raise _GiveUp
            self._root = value
            self.values += 1
            return
        frame = self._stack[-1]
        container = frame[0]
        if not frame[1]:
            container.append(value)
            self.values += 1
        elif frame[2]:  # a key (a list or mapping is not hashable: the lookup below gives up)
            frame[2], frame[3] = False, value
        else:
            if frame[3] in container:
                raise _GiveUp  # the safe loader refuses a duplicate key
            container[frame[3]] = value
            frame[2] = True
            self.values += 1


class _GiveUp(Exception):
    """The builder cannot reproduce the safe loader here."""


@functools.cache
def _safe_loader() -> YAML:
    """One safe loader for the process, used only for its resolver and constructor: the
    resolver reads no document state (a document with a ``%YAML`` directive is never built,
    :class:`_Builder`), so every plain scalar resolves as in a loader of its own."""
    return _loader(typ="safe", pure=False)


@functools.lru_cache(maxsize=4096)
def _implicit_tag(value: str, implicit_otherwise: bool) -> str:
    """The tag the safe loader gives a plain scalar. Mission files repeat a few hundred
    (statuses, kinds, keys); the many met once (ids, names) fall out of a small cache
    instead of being held for the whole run."""
    return str(_safe_loader().resolver.resolve(ScalarNode, value, (True, implicit_otherwise)))


@functools.lru_cache(maxsize=4096)
def _plain_scalar(tag: str, value: str) -> Any:
    """The safe loader's value of a plain scalar of a :data:`_BUILT_TAGS` tag: a function of
    the tag and text alone, and immutable (numbers, booleans, null, timestamps), so one
    value serves every occurrence. Raises what the constructor raises (``2020-13-45``)."""
    constructor = _safe_loader().constructor
    node = ScalarNode(tag, value)
    try:
        return constructor.construct_object(node)
    finally:
        constructor.constructed_objects.pop(node, None)  # the constructor's memo, not ours


def parse_events(text: str) -> Iterator[Any]:
    """The safe loader's parsing events for ``text``.

    ``YAML.parse`` builds a new loader class per call (and leaves it in a reference cycle);
    its C parser alone gives the same events at a fraction of the cost, and the pure parser
    where the C extension is not installed."""
    if _CParser is None:  # pragma: no cover - exercised where ruamel.yaml.clib is absent
        yield from _loader(typ="safe", pure=True).parse(text)
        return
    parser = _CParser(text)
    try:
        while parser.check_event():
            yield parser.get_event()
    finally:
        parser.dispose()


def check_depth(path: Path, text: str, builder: _Builder | None = None) -> LineIndex | None:
    """Refuse text nested deeper than :data:`MAX_DEPTH` before any document is built; return
    the first document's :data:`LineIndex` (None for YAML the parser rejects).

    Building one recurses once per level (the composer, the constructors, pydantic), so a
    small file nested 50,000 deep overflows the C stack: a segmentation fault, not an error.
    The parser's event stream is produced without recursion, so counting its start and end
    events bounds the depth first, and the same events place every key and item, so a
    message's line never needs the document parsed again. A syntax error is left to the
    loaders, which locate it. An item that is an alias has its anchor's line, as in the
    composed tree; what lies below an alias, or below a key that is not a scalar, is not
    indexed (its lookups stop at the alias or the mapping).
    """
    lines: LineIndex = {}
    intern = sys.intern  # every mission has the same keys: one string each, not one per file
    anchors: dict[str, int] = {}
    # per open collection: [its index key or None, is a mapping, next is a key / next item
    # number, index key of the mapping's current value]
    stack: list[list[Any]] = []
    opener = 0  # line of the event before the current one: the key or bracket that opens it
    try:
        for event in parse_events(text):
            if builder is not None:
                builder.add(event)
            if isinstance(event, MappingEndEvent | SequenceEndEvent):
                stack.pop()
            elif isinstance(event, _NODE_EVENTS):
                line = event.start_mark.line + 1
                key: str | None = None
                if not stack:
                    if "" not in lines:  # the first document's root
                        key = ""
                        lines[key] = line
                else:
                    frame = stack[-1]
                    prefix = frame[0]
                    if frame[1] and frame[2]:  # a mapping key
                        frame[2] = False
                        frame[3] = None
                        if prefix is not None and isinstance(event, ScalarEvent):
                            frame[3] = intern(
                                f"{prefix}\0k{event.value}" if prefix else f"k{event.value}"
                            )
                            lines.setdefault(frame[3], line)
                    elif frame[1]:  # its value
                        frame[2] = True
                        key = frame[3]
                    else:
                        number = frame[2]
                        frame[2] += 1
                        if prefix is not None:
                            key = intern(f"{prefix}\0i{number}" if prefix else f"i{number}")
                            if isinstance(event, AliasEvent):
                                lines[key] = anchors.get(event.anchor, line)
                            else:
                                lines[key] = line
                if isinstance(event, AliasEvent):
                    key = None
                elif event.anchor is not None:
                    anchors[event.anchor] = line
                if isinstance(event, MappingStartEvent | SequenceStartEvent):
                    if len(stack) >= MAX_DEPTH:
                        raise InputError.single(path, opener + 1, TOO_DEEP, "yaml")
                    is_map = isinstance(event, MappingStartEvent)
                    stack.append([key, is_map, True if is_map else 0, None])
            opener = event.start_mark.line
    except InputError:
        raise
    except Exception:  # malformed YAML: the loaders report it on its line
        return None
    return lines


def line_in(lines: LineIndex, loc: tuple[int | str, ...]) -> int:
    """:func:`line_of` over a :data:`LineIndex`: the line of the deepest key or item of
    ``loc`` that exists (a key's own line, a sequence item's first line)."""
    line = lines.get("", 1)
    key = ""
    for part in loc:
        key = f"{key}\0{_piece(part)}" if key else _piece(part)
        found = lines.get(key)
        if found is None:
            break
        line = found
    return line


def read_text(path: Path) -> str:
    """Read a UTF-8 file or raise :class:`InputError` naming the line of the first bad byte."""
    try:
        data, _ = read_regular(str(path), MAX_FILE_BYTES)
    except FileNotFoundError:
        raise InputError.single(path, 1, "file not found", "yaml") from None
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            message = f"file is larger than {MAX_FILE_BYTES} bytes"
        else:
            message = f"cannot read file: {exc.strerror}"
        raise InputError.single(path, 1, message, "yaml") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError.single(
            path, line, f"not valid UTF-8 (byte 0x{data[exc.start]:02x})", "yaml"
        ) from None


def load_document(path: Path, text: str | None = None) -> CommentedMap:
    """Parse one YAML mapping in round-trip mode, or raise :class:`InputError`."""
    if text is None:
        text = read_text(path)
    if not text.strip():
        raise InputError.single(path, 1, "empty file", "yaml")
    check_depth(path, text)
    try:
        doc = _round_trip().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        what = exc.problem or exc.context or "invalid YAML"
        raise InputError.single(path, line, f"YAML syntax error: {what}", "yaml") from None
    except YAMLError as exc:
        raise InputError.single(path, 1, f"YAML error: {exc}", "yaml") from None
    except RecursionError:
        raise InputError.single(path, 1, "YAML nesting too deep", "yaml") from None
    except Exception:  # a value the constructors cannot build: find it and say why
        line, reason = unbuildable_node(text)
        raise InputError.single(path, line, reason, "yaml") from None
    if doc is None:
        raise InputError.single(path, 1, "empty file", "yaml")
    problems = structure_problems(path, doc)
    if problems:
        raise InputError(problems)
    if not isinstance(doc, CommentedMap):
        raise InputError.single(path, 1, "top level must be a mapping", "yaml")
    return doc


def dump_document(doc: CommentedMap) -> str:
    stream = io.StringIO()
    _round_trip().dump(doc, stream)
    return stream.getvalue()


#: Signals whose default action would kill the process in the middle of a write.
_DEFERRED_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold back SIGINT, SIGTERM and SIGHUP until the block is done, then act on them.

    A write interrupted between creating its temporary file and renaming it would leave the
    temporary file behind; with the signals held back the write either happens completely
    or not at all. Outside the main thread (where handlers cannot be set) it does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous: dict[int, Any] = {}

    def hold(signum: int, frame: Any) -> None:
        received.append(signum)

    try:
        for signum in _DEFERRED_SIGNALS:
            try:
                previous[signum] = signal.signal(signum, hold)
            except (OSError, ValueError):  # not settable here: leave that signal alone
                continue
        yield
    finally:
        for signum, handler in previous.items():
            # None: the old handler was not set from Python; the default is the best guess
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
        for signum in dict.fromkeys(received):
            signal.raise_signal(signum)


def atomic_write_text(path: Path, text: str | Iterable[str], *, durable: bool = True) -> None:
    """Replace ``path`` with ``text`` (or its pieces in order: a large page is never one
    string) so a crash leaves either the old or the new file.

    The temporary file sits next to ``path`` (``os.replace`` is atomic only within one file
    system) and is removed on any failure; signals that would end the process are held back
    until the rename is done (see :func:`deferred_signals`). ``durable=False`` skips the
    ``fsync`` before the rename, for output the tool regenerates (a dashboard page): a
    reader still never sees half a file, and after a power loss the next run rewrites what
    is not as written (:mod:`missions.stored` compares every file it wrote).
    """
    with deferred_signals():
        tmp: str | None = None
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                if isinstance(text, str):
                    handle.write(text)
                else:
                    handle.writelines(text)
                if durable:
                    handle.flush()
                    os.fsync(handle.fileno())
            if path.exists():
                os.chmod(tmp, path.stat().st_mode & 0o777)
            os.replace(tmp, path)
        except BaseException as exc:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
            if isinstance(exc, OSError):  # read-only, full, a directory in the way: input
                raise InputError.single(
                    path, 1, f"cannot write: {_reason(exc)}", "output"
                ) from None
            raise


def _reason(exc: OSError) -> str:
    if exc.errno == errno.EISDIR:
        return "a directory is in the way"
    return (exc.strerror or str(exc)).lower()


#: Suffix of the temporary files :func:`atomic_write_text` creates (``.<name>.<random>.tmp``).
TEMP_SUFFIX = ".tmp"


def remove_stale_temporaries(directory: Path) -> list[Path]:
    """Delete temporary files a killed writer left in ``directory``; return them.

    Only call this while holding the workspace write lock: then no other writer can be
    between creating its temporary file and renaming it.
    """
    removed: list[Path] = []
    try:
        entries = list(directory.iterdir())
    except OSError:
        return removed
    for entry in entries:
        if _STALE_TEMP.match(entry.name):
            try:
                entry.unlink()
            except OSError:
                continue
            removed.append(entry)
    return removed


_STALE_TEMP = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")


def set_key(mapping: CommentedMap, key: str, value: object, *, after: str | None = None) -> None:
    """Set ``key``; a new key goes right after ``after`` (or last) so the layout stays readable."""
    if key in mapping:
        mapping[key] = value
        return
    keys = list(mapping.keys())
    position = keys.index(after) + 1 if after in keys else len(keys)
    mapping.insert(position, key, value)
