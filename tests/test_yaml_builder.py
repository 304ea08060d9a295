"""The mission loader builds documents from the parser's events (``yamlio._Builder``); it
must build exactly what ruamel's safe loader builds, or leave the document to it.

Compared on every mission file of this repository and on random documents drawn from a
grammar that mixes what mission files hold with what the builder must give up on (tags,
directives, merge keys, duplicate and complex keys, anchors defined twice, recursive and
dangling aliases, several documents, broken syntax) and scalars that resolve differently
in YAML 1.1 and 1.2.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from missions.yamlio import (
    _UNBUILT,
    _Builder,
    check_depth,
    fast_load,
    load_indexed,
    parse_events,
)
from missions.yamlio import structure_problems as problems_of

REPO = Path(__file__).resolve().parent.parent
SEEDS = range(12)
DOCUMENTS_PER_SEED = 150

#: plain scalars that resolve to every type, in 1.2 and (differently) in 1.1
PLAIN = [
    "stated",
    "proved",
    "Formal.M0001.goal",
    "a b c",
    "yes",
    "no",
    "on",
    "off",
    "y",
    "n",
    "true",
    "False",
    "TRUE",
    "null",
    "Null",
    "~",
    "",
    "0",
    "-1",
    "+1",
    "007",
    "0o17",
    "0x1F",
    "0b101",
    "1_000",
    "1:20",
    "1.5",
    "-.5",
    ".inf",
    "-.Inf",
    ".nan",
    "1e3",
    "6.02e+23",
    "2025-01-15",
    "2025-1-5",
    "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10",
    "2020-13-45",
    "=",
    "<<",
    "sha256:4360",
    "§7",
    "Théorème 2",
    "x: y",
    "- z",
]
KEYS = ["1", "true", "null", "2025-01-15", "1.0", *(f"key{i}" for i in range(40))]


def _scalar(rng: random.Random, text: str) -> str:
    style = rng.random()
    if style < 0.55 or not text:
        return text if text and text[0] not in "-?:,[]{}#&*!|>'\"%@`" else f'"{text}"'
    if style < 0.75:
        return "'" + text.replace("'", "''") + "'"
    if style < 0.97:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"!!str {text}" if rng.random() < 0.5 else f"!tag {text}"


class _Doc:
    """One random document as text; anchors are remembered so aliases can name them."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.anchors: list[str] = []

    def value(self, indent: int, depth: int) -> str:
        """Text after ``key:`` or ``-`` (starting with a space or a newline)."""
        rng = self.rng
        roll = rng.random()
        prefix = ""
        if rng.random() < 0.08:
            name = f"a{len(self.anchors)}" if rng.random() < 0.9 or not self.anchors else "a0"
            self.anchors.append(name)
            prefix = f" &{name}"
        if roll < 0.06 and self.anchors:
            return f" *{rng.choice([*self.anchors, 'nowhere'])}"
        if depth < 4 and roll < 0.3:
            return prefix + "\n" + self.mapping(indent + 2, depth + 1)
        if depth < 4 and roll < 0.45:
            return prefix + "\n" + self.sequence(indent + 2, depth + 1)
        if roll < 0.52:
            items = ", ".join(
                _scalar(rng, rng.choice(PLAIN[:20])) for _ in range(rng.randint(0, 3))
            )
            return f"{prefix} [{items}]"
        if roll < 0.56:
            pairs = ", ".join(f"{rng.choice(KEYS)}: {rng.choice(PLAIN[:12])}" for _ in range(2))
            return f"{prefix} {{{pairs}}}"
        if roll < 0.6:
            pad = " " * (indent + 2)
            return f"{prefix} {rng.choice('|>')}\n{pad}{rng.choice(PLAIN)} line\n{pad}second"
        return f"{prefix} {_scalar(rng, rng.choice(PLAIN))}"

    def mapping(self, indent: int, depth: int) -> str:
        rng = self.rng
        pad = " " * indent
        lines = []
        for _ in range(rng.randint(1, 5)):
            roll = rng.random()
            if roll < 0.015:
                key = "<<"
            elif roll < 0.03:
                key = "? [complex]\n" + pad
                lines.append(f"{pad}{key}:{self.value(indent, depth)}")
                continue
            else:
                key = _scalar(rng, rng.choice(KEYS)) if rng.random() < 0.95 else rng.choice(PLAIN)
            lines.append(f"{pad}{key}:{self.value(indent, depth)}")
        return "\n".join(lines)

    def sequence(self, indent: int, depth: int) -> str:
        pad = " " * indent
        return "\n".join(
            f"{pad}-{self.value(indent, depth)}" for _ in range(self.rng.randint(1, 4))
        )


def random_document(rng: random.Random) -> str:
    body = _Doc(rng).mapping(0, 0)
    roll = rng.random()
    if roll < 0.05:
        body = "%YAML 1.1\n---\n" + body
    elif roll < 0.08:
        body = "%TAG !e! tag:example.com,2000:\n---\n" + body
    elif roll < 0.11:
        body = body + "\n---\nsecond: document"
    elif roll < 0.13:
        body = body + "\n  : broken"
    elif roll < 0.15:
        body = "- a root\n- that is a list"
    if rng.random() < 0.2:
        body = "# a comment\n" + body + "  # trailing\n"
    return body + "\n"


def typed(value: Any, containers: dict[int, int] | None = None) -> Any:
    """The value with every scalar's type spelled out (``1 == True == 1.0`` in Python) and
    every container numbered in the order met: an alias shares its anchor's container, a
    recursive one contains itself, and both show as a repeated number."""
    containers = {} if containers is None else containers
    if isinstance(value, dict | list):
        if id(value) in containers:
            return ("again", containers[id(value)])
        number = containers[id(value)] = len(containers)
        if isinstance(value, dict):
            items = [(typed(k, containers), typed(v, containers)) for k, v in value.items()]
            return ("dict", number, items)
        return ("list", number, [typed(v, containers) for v in value])
    return (type(value).__name__, repr(value))


def compare(text: str) -> bool:
    """Assert the builder agrees with the safe loader; whether it built the document."""
    path = Path("m.yaml")
    builder = _Builder()
    lines = check_depth(path, text, builder)
    built = builder.document()
    expected = fast_load(text)
    assert lines == check_depth(path, text)
    if built is not _UNBUILT:
        assert typed(built) == typed(expected), text
        assert problems_of(path, built) == problems_of(path, expected), text
    indexed_lines, data, sound = load_indexed(path, text)
    assert indexed_lines == lines and typed(data) == typed(expected), text
    if sound:  # the walk it spares would have found nothing
        assert built is not _UNBUILT and problems_of(path, data) == [], text
    return built is not _UNBUILT


def test_every_mission_file_of_the_repository_is_built_as_the_safe_loader_builds_it() -> None:
    files = sorted((REPO / "missions").glob("*.yaml"))
    assert files
    for path in files:
        assert compare(path.read_text(encoding="utf-8")), f"{path.name} was not built"


@pytest.mark.parametrize("seed", SEEDS)
def test_random_documents_are_built_as_the_safe_loader_builds_them_or_left_to_it(
    seed: int,
) -> None:
    rng = random.Random(seed)
    outcomes = [compare(random_document(rng)) for _ in range(DOCUMENTS_PER_SEED)]
    # both ways are exercised: the comparison is never idle
    assert sum(outcomes) > DOCUMENTS_PER_SEED // 8
    assert sum(outcomes) < DOCUMENTS_PER_SEED


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\na: 2\n",  # a duplicate key
        "a: 1\n1.0: x\n1: y\n",  # equal keys of two types
        "a: &x {b: 1}\nc:\n  <<: *x\n",  # a merge key
        "a: &x [1]\nb: &x [2]\n",  # an anchor defined twice
        "a: &x\n  b: *x\n",  # a recursive alias
        "a: *nowhere\n",
        "? [1, 2]\n: x\n",  # a complex key
        "a: !!set {x}\n",
        "%YAML 1.1\n---\na: yes\n",  # 1.1 resolves `yes` to a boolean
        "a: 1\n---\nb: 2\n",
        "- 1\n",
        "",
        "a: [1\n",
    ],
)
def test_what_the_builder_cannot_reproduce_is_left_to_the_safe_loader(text: str) -> None:
    builder = _Builder()
    check_depth(Path("m.yaml"), text, builder)
    assert builder.document() is _UNBUILT
    assert compare(text) is False


@pytest.mark.parametrize("extra", [0, 1])
def test_the_built_document_spares_the_structure_walk_only_within_its_budget(extra: int) -> None:
    """Without an alias, every value is a node of the expansion the walk bounds: a document
    at the budget is certified, one value more is left to the walk, which reports it."""
    from missions.yamlio import MAX_EXPANDED_NODES

    path = Path("m.yaml")
    items = MAX_EXPANDED_NODES - 2 + extra  # the root and the list count too
    text = "a:\n" + "  - 1\n" * items
    _, data, sound = load_indexed(path, text)
    assert len(data["a"]) == items
    assert sound is (extra == 0)
    assert bool(problems_of(path, data)) is (extra == 1)


def test_a_document_with_an_alias_is_always_walked() -> None:
    _, data, sound = load_indexed(Path("m.yaml"), "a: &x [1, 2]\nb: *x\n")
    assert data == {"a": [1, 2], "b": [1, 2]} and not sound


def _event_list(events: Any) -> list[tuple[Any, ...]]:
    """Every field of every event, marks included (messages read their lines)."""
    seen = []
    try:
        for event in events:
            fields = {
                k: getattr(event, k, None)
                for k in ("anchor", "tag", "implicit", "value", "style", "explicit", "version")
            }
            marks = [(m.index, m.line, m.column) for m in (event.start_mark, event.end_mark)]
            seen.append((type(event).__name__, repr(sorted(fields.items())), marks))
    except Exception as exc:  # broken syntax: both must stop at the same place, the same way
        seen.append(("error", type(exc).__name__, str(exc)))
    return seen


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_the_direct_parser_gives_the_events_of_the_safe_loaders_parse(seed: int) -> None:
    """:func:`parse_events` drives ruamel's parser without a loader class per document; it
    must yield exactly what ``YAML(typ="safe").parse`` yields, errors included."""
    rng = random.Random(seed)
    texts = [random_document(rng) for _ in range(DOCUMENTS_PER_SEED)]
    texts += [p.read_text(encoding="utf-8") for p in sorted((REPO / "missions").glob("*.yaml"))]
    for text in texts:
        expected = _event_list(YAML(typ="safe", pure=False).parse(text))
        assert _event_list(parse_events(text)) == expected, text


def test_a_scalar_built_once_is_not_shared_as_a_container() -> None:
    """The scalar memo serves immutable values only: containers are built per document, so
    editing one document's value never shows in another's."""
    first = load_indexed(Path("a.yaml"), "a: [1, 2]\nwhen: 2025-01-15\n")[1]
    first["a"].append(3)
    second = load_indexed(Path("b.yaml"), "a: [1, 2]\nwhen: 2025-01-15\n")[1]
    assert second == {"a": [1, 2], "when": first["when"]}
    assert second["a"] is not first["a"]
