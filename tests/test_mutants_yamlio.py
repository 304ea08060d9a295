"""YAML reading that mutation testing found unguarded (``benchmarks/mutation.py``): where a
too-deep file is reported, in block style, flow style and both, with comments and closed
brackets that must not count."""

from __future__ import annotations

import locale
import os
import stat
import sys
from pathlib import Path

import pytest
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from missions import yamlio
from missions.errors import InputError
from missions.yamlio import (
    MAX_DEPTH,
    MAX_EXPANDED_NODES,
    atomic_write_text,
    dump_document,
    line_in,
    line_of,
    load_document,
    nesting_line,
    node_line,
    remove_stale_temporaries,
    set_key,
    structure_problems,
)

MESSAGE = f"YAML nested deeper than {MAX_DEPTH} levels"


def block(levels: int) -> str:
    return "".join(" " * i + f"k{i}:\n" for i in range(levels)) + " " * levels + "v: 1\n"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("a: " + "[" * 70 + "]" * 70 + "\n", 1),  # flow: the first line already too deep
        (block(70), MAX_DEPTH),  # block: the line that opens one level too many
        ("x: 1\ny:\n  z: " + "{a: " * 66 + "1" + "}" * 66 + "\n", 3),  # flow inside block
        # comments and blank lines do not nest, closed brackets no longer count
        ("# " + "[" * 80 + "\n\n" + "a: [[1]]\nb: " + "[" * 70 + "]" * 70 + "\n", 4),
    ],
)
def test_a_too_deep_file_is_refused_at_the_line_that_goes_too_deep(
    tmp_path: Path, text: str, line: int
) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as refused:
        load_document(path)
    assert [(p.line, p.message) for p in refused.value.problems] == [(line, MESSAGE)]


def test_nesting_up_to_the_limit_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n", encoding="utf-8")
    assert list(load_document(path)) == ["a"]


def test_lines_of_keys_and_items_are_where_the_file_has_them(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text("a: 1\nb:\n  - x\n  - y\n", encoding="utf-8")
    doc = load_document(path)
    assert (node_line(doc, "a"), node_line(doc, "b"), node_line(doc["b"], 1)) == (1, 2, 4)
    assert node_line({"a": 1}, "a") == 1  # a plain mapping knows no lines


def test_an_alias_bomb_is_refused_at_the_line_where_it_outgrows_the_budget(
    tmp_path: Path,
) -> None:
    levels = ["b: &a [x,x,x,x,x,x,x,x,x,x]"] + [
        f"{key}: &{name} [{', '.join([f'*{prev}'] * 10)}]"
        for key, name, prev in (("c", "b", "a"), ("d", "c", "b"), ("e", "d", "c"), ("f", "e", "d"))
    ]
    path = tmp_path / "bomb.yaml"
    path.write_text("a: 1\n" + "\n".join(levels) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as refused:
        load_document(path)
    assert [(p.line, p.message) for p in refused.value.problems] == [
        (5, "document expands to more than 50000 nodes (alias bomb?)")
    ]


# ------------------------------------------------- locating a too-deep file from its text


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("x: 1\ny: 2\nz: " + "[" * MAX_DEPTH + "\n", 3),  # one bracket too many, on line 3
        ("x: 1\nz: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n", 1),  # at the limit
        ("a: " + "[]" * 70 + "\nb: " + "[" * MAX_DEPTH + "\n", 2),  # closed brackets: gone
        ("a: 1\n# " + "[" * 80 + "\n\nb: " + "[" * MAX_DEPTH + "\n", 4),  # comments: nothing
        ("a: 1\n" * 70, 1),  # siblings do not nest
        ("a: 1\nb: " + "[X" * MAX_DEPTH + "\n", 2),  # letters close nothing
        ("".join("X" * i + f"k{i}: 1\n" for i in range(70)), 1),  # letters are not indentation
        (block(70), MAX_DEPTH + 1),  # each key one level deeper: the first key too deep
    ],
)
def test_the_nesting_estimate_finds_the_line_that_goes_too_deep(text: str, line: int) -> None:
    """``nesting_line`` (1 when nothing is too deep) locates what the fast loader refused."""
    assert nesting_line(text) == line


# ------------------------------------------------------------ what the round trip refuses


def problems_of(path: Path) -> list[tuple[int, str, str]]:
    with pytest.raises(InputError) as refused:
        load_document(path)
    return [(p.line, p.message, p.rule) for p in refused.value.problems]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  \n\n", (1, "empty file", "yaml")),
        ("# only a comment\n", (1, "empty file", "yaml")),
        ("- a\n- b\n", (1, "top level must be a mapping", "yaml")),
        (
            "a: 1\nb: [1, 2\n",
            (3, "YAML syntax error: expected ',' or ']', but got '<stream end>'", "yaml"),
        ),
    ],
)
def test_what_the_round_trip_refuses_is_one_located_problem(
    tmp_path: Path, text: str, expected: tuple[int, str, str]
) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(text, encoding="utf-8")
    assert problems_of(path) == [expected]


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (MarkedYAMLError(), (1, "YAML syntax error: invalid YAML")),  # no mark, no problem
        (YAMLError("broken"), (1, "YAML error: broken")),
        (RecursionError(), (1, "YAML nesting too deep")),
    ],
)
def test_a_loader_failure_without_a_place_is_reported_on_line_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: Exception, expected: tuple[int, str]
) -> None:
    class Failing:
        def load(self, text: str) -> None:
            raise error

    monkeypatch.setattr(yamlio, "_round_trip", Failing)
    path = tmp_path / "m.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    assert problems_of(path) == [(*expected, "yaml")]


def test_a_line_is_found_where_a_key_is_not(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text("# header\n\nouter:\n  inner: 1\n", encoding="utf-8")
    doc = load_document(path)
    assert node_line(doc["outer"], "missing") == 4  # the mapping's own line
    assert line_of(doc, ("nowhere",)) == 3  # the document starts at its first key
    assert node_line(object()) == 1  # something that knows no lines


# -------------------------------------------------------------------- writing and keys


def test_an_atomic_write_keeps_the_mode_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "m.yaml"
    path.write_text("old\n", encoding="utf-8")
    path.chmod(0o640)
    renamed: list[str] = []
    real_replace = os.replace

    def replace(src: str, dst: object) -> None:
        renamed.append(src)
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", replace)
    atomic_write_text(path, "new ✓\n")
    assert path.read_bytes() == "new ✓\n".encode()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    [temporary] = [Path(p) for p in renamed]
    assert temporary.parent == tmp_path  # same file system: the rename is atomic
    assert temporary.name.startswith(".m.yaml.") and temporary.name.endswith(".tmp")
    assert remove_stale_temporaries(tmp_path) == []  # nothing left behind
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.yaml"]


def test_a_failed_write_leaves_the_old_file_and_reports_the_real_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "m.yaml"
    path.write_text("old\n", encoding="utf-8")

    def refuse(src: str, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(InputError) as caught:  # bad input for the command: one located line
        atomic_write_text(path, "new\n")
    assert [str(p) for p in caught.value.problems] == [
        f"{path}:1: cannot write: no space left on device"
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.yaml"]
    assert path.read_text(encoding="utf-8") == "old\n"
    with pytest.raises(InputError, match="no such file or directory"):  # no temporary file
        atomic_write_text(tmp_path / "gone" / "m.yaml", "new\n")


def test_set_key_updates_in_place_and_inserts_after_its_neighbour(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text("a: 1\nb: 2\nc: 3\n", encoding="utf-8")
    doc = load_document(path)
    set_key(doc, "b", 20, after="c")  # an existing key stays where it is
    set_key(doc, "x", 9, after="a")
    set_key(doc, "z", 0, after="nowhere")  # an unknown neighbour: last
    assert list(doc.items()) == [("a", 1), ("x", 9), ("b", 20), ("c", 3), ("z", 0)]


def test_a_recursive_structure_is_refused_at_its_key(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text("b: 1\nc: [1]\n", encoding="utf-8")
    doc = load_document(path)
    doc["c"].append(doc["c"])  # what an alias to an enclosing node makes
    assert [(p.line, p.message, p.rule) for p in structure_problems(path, doc)] == [
        (2, "recursive YAML alias", "yaml")
    ]


def test_an_alias_used_twice_is_not_recursion(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text("a: &x [1]\nb: *x\nc: *x\n", encoding="utf-8")
    assert dict(load_document(path)) == {"a": [1], "b": [1], "c": [1]}


def test_too_deep_is_reported_at_the_key_not_at_its_mapping(tmp_path: Path) -> None:
    text = "".join(" " * i + f"s{i}: 0\n" + " " * i + f"k{i}:\n" for i in range(70))
    path = tmp_path / "m.yaml"
    path.write_text(text + " " * 70 + "v: 1\n", encoding="utf-8")
    [(line, message, rule)] = problems_of(path)
    assert (message, rule) == (MESSAGE, "yaml")
    assert text.splitlines()[line - 1].strip() == f"k{MAX_DEPTH - 1}:"  # not its sibling


@pytest.mark.parametrize("wrap", ["[{}]", "[[{}]]"])  # aliases directly, or one list down
def test_an_alias_bomb_is_a_yaml_problem(tmp_path: Path, wrap: str) -> None:
    """The expanded size counts what aliases repeat, through nested containers too."""
    levels = ["a: &a [x,x,x,x,x,x,x,x,x,x]"] + [
        f"{key}: &{key} " + wrap.format(", ".join([f"*{prev}"] * 10))
        for key, prev in (("b", "a"), ("c", "b"), ("d", "c"), ("e", "d"))
    ]
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(levels) + "\n", encoding="utf-8")
    [(_, message, rule)] = problems_of(path)
    assert (message, rule) == (
        f"document expands to more than {MAX_EXPANDED_NODES} nodes (alias bomb?)",
        "yaml",
    )


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, (1, "file not found")),
        (b"\nx: 1\n\xff\n", (3, "not valid UTF-8 (byte 0xff)")),  # counted from the start
    ],
)
def test_an_unreadable_mission_file_is_a_located_yaml_problem(
    tmp_path: Path, content: bytes | None, expected: tuple[int, str]
) -> None:
    path = tmp_path / "m.yaml"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(InputError) as refused:
        yamlio.read_text(path)
    assert [(p.line, p.message, p.rule) for p in refused.value.problems] == [(*expected, "yaml")]


def test_a_round_trip_keeps_quotes_long_lines_and_indentation(tmp_path: Path) -> None:
    text = (
        'title: "A quoted title"\n'
        "summary: >\n  " + " ".join(["word"] * 40) + "\n"
        "targets:\n  - id: a\n    depends_on: ['b', \"c\"]\n"
        "long: " + "x" * 200 + "\n"
        "longer: " + " ".join(["word"] * 1500) + "\n"  # 7,500 characters: never folded
    )
    path = tmp_path / "m.yaml"
    path.write_text(text, encoding="utf-8")
    assert dump_document(load_document(path)) == text


def test_a_line_is_the_containers_own_when_the_key_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text("a: 1\nb:\n  c: 1\n", encoding="utf-8")
    doc = load_document(path)
    assert (node_line(doc, "nope"), node_line(doc["b"], "nope")) == (1, 3)


def test_a_key_path_into_a_list_stops_at_the_list() -> None:
    """A name looked up in a list (the file has a list where a mapping belongs) is not there."""
    text = "x: 1\ny:\n  - a\n  - b\n"
    lines = yamlio.check_depth(Path("m.yaml"), text)
    assert lines is not None
    assert line_in(lines, ("y", "id")) == 2
    assert line_in(lines, ("y", 1)) == 4


def test_recursion_is_reported_at_the_key_that_repeats_the_mapping(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text("b: 1\nc:\n  d: 1\n  e: 2\n", encoding="utf-8")
    doc = load_document(path)
    doc["c"]["e"] = doc["c"]  # the key keeps its line; the mapping starts a line earlier
    assert [(p.line, p.message) for p in structure_problems(path, doc)] == [
        (4, "recursive YAML alias")
    ]


BUDGET = f"document expands to more than {MAX_EXPANDED_NODES} nodes (alias bomb?)"


@pytest.mark.parametrize(
    ("doc", "refused"),
    [
        # the mapping, the list and its items: exactly the budget, then one more
        ({"a": ["x"] * (MAX_EXPANDED_NODES - 2)}, False),
        ({"a": ["x"] * (MAX_EXPANDED_NODES - 1)}, True),
        # a repeated list (an alias) counts once per place: 1 + 1 + 499 × 100 + 98 nodes
        ({"a": [["x"] * 99] * 499 + ["x"] * 98}, False),
        ({"a": [["x"] * 99] * 499 + ["x"] * 99}, True),
        # a repeated list of a list: 1 + 1 + 490 × (1 + 1 + 99) + 508 nodes
        ({"a": [[["x"] * 99]] * 490 + ["x"] * 508}, False),
        ({"a": [[["x"] * 99]] * 490 + ["x"] * 509}, True),
        # a finished list counts for its parent too, and so on up to the document
        ({"a": [["x"] * (MAX_EXPANDED_NODES - 4)], "b": 1}, False),
        ({"a": [["x"] * (MAX_EXPANDED_NODES - 4)], "b": 1, "c": 1}, True),
    ],
)
def test_the_node_budget_is_exact(doc: object, refused: bool) -> None:
    found = [(p.path, p.message, p.rule) for p in structure_problems(Path("m.yaml"), doc)]
    assert found == ([("m.yaml", BUDGET, "yaml")] if refused else [])


def test_every_structure_problem_names_its_file() -> None:
    loop: list[object] = []
    loop.append(loop)
    deep: list[object] = []
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    for doc in (loop, deep):
        [problem] = structure_problems(Path("dir/m.yaml"), doc)
        assert problem.path == "dir/m.yaml"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # a tab is not indentation: the tab-led line is back at the left margin
        ("a:\n b:\n\tc: " + "[" * (MAX_DEPTH - 1), 1),
        ("a:\n b:\n\tc: " + "[" * MAX_DEPTH, 3),
        # brackets that close on the line that opens them still went too deep there
        ("x: 1\na: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n", 2),
        # one closing bracket closes one level: the unclosed one still counts below
        ("a: [[]\n  b: " + "[" * (MAX_DEPTH - 3) + "\n", 1),
        ("a: [[]\n  b: " + "[" * (MAX_DEPTH - 2) + "\n", 2),
        # nothing is left open once every bracket closed
        ("a: []\n" + "b: " + "[" * (MAX_DEPTH - 1) + "\n", 1),
    ],
)
def test_the_nesting_estimate_counts_each_bracket_once(text: str, line: int) -> None:
    assert nesting_line(text) == line


def test_a_file_that_cannot_be_read_is_a_yaml_problem(tmp_path: Path) -> None:
    (tmp_path / "dir.yaml").mkdir()
    with pytest.raises(InputError) as refused:
        yamlio.read_text(tmp_path / "dir.yaml")
    [(line, message, rule)] = [(p.line, p.message, p.rule) for p in refused.value.problems]
    assert (line, rule) == (1, "yaml") and message.startswith("cannot read file: ")


@pytest.mark.skipif(sys.flags.utf8_mode, reason="Python's UTF-8 mode makes every codec UTF-8")
def test_an_atomic_write_is_utf8_in_an_ascii_locale(tmp_path: Path) -> None:
    """The same check as ``test_locale.py``, in this process (mutation testing credits only
    tests that call the code themselves)."""
    path = tmp_path / "m.yaml"
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        atomic_write_text(path, "title: Démo — mission\n")
    finally:
        locale.setlocale(locale.LC_CTYPE, before)
    assert path.read_bytes() == "title: Démo — mission\n".encode()


def test_a_temporary_that_cannot_be_removed_does_not_stop_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".m.yaml.aaaaaaaa.tmp").mkdir()  # a directory: unlink fails
    for stem in ("b", "c"):
        (tmp_path / f".m.yaml.{stem * 8}.tmp").write_text("x", encoding="utf-8")
    listing = Path.iterdir
    monkeypatch.setattr(Path, "iterdir", lambda self: iter(sorted(listing(self))))
    removed = remove_stale_temporaries(tmp_path)
    assert [p.name for p in removed] == [".m.yaml.bbbbbbbb.tmp", ".m.yaml.cccccccc.tmp"]
    assert [p.name for p in tmp_path.iterdir()] == [".m.yaml.aaaaaaaa.tmp"]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("a: 1\nb: 2020-13-45\n", 2, "YAML value cannot be read: month must be in 1..12"),
        ("a: !!int x\n", 1, "YAML value cannot be read: invalid literal for int() with base 10"),
        ("a: 1\nb: [1, 0x_]\n", 2, "YAML value cannot be read: "),
        ("a: 1\n? {k: [1]}\n: 2\n", 2, "a mapping key must be a plain value, not a list or"),
        ("a: &x [1]\nb: *x\n? [*x]\n: 2\n", 3, "a mapping key must be a plain value"),
        # an item of a list is a value, not a key
        ("a: 1\nb: [[1, 2020-13-45]]\n", 2, "YAML value cannot be read: month must be"),
    ],
)
def test_a_value_the_loader_cannot_build_is_a_located_problem(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    """Hostile values break ruamel's constructors with errors that name no place (bad dates,
    ``!!int x``, lists inside keys); each is one located line, never an internal error."""
    path = tmp_path / "m.yaml"
    path.write_text(text, encoding="utf-8")
    [(found_line, found_message, rule)] = problems_of(path)
    assert (found_line, rule) == (line, "yaml") and found_message.startswith(message)


BOMB = "".join(
    f"{key}: &{key} [{', '.join([f'*{prev}'] * 10)}]\n"
    for key, prev in zip("bcdefghij", "abcdefghi", strict=True)
)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("a: [\n", (1, "the YAML document cannot be read")),  # no tree to walk
        ("a: 1\n", (1, "the YAML document cannot be read")),  # nothing fails: no place
        # ten to the ninth values behind aliases: each anchored node is checked once
        ("a: &a [x, x]\n" + BOMB + "z: 2020-13-45\n", (11, "YAML value cannot be read: ")),
    ],
)
def test_finding_what_cannot_be_built(text: str, found: tuple[int, str]) -> None:
    line, reason = yamlio.unbuildable_node(text)
    assert (line, reason[: len(found[1])]) == found


def test_a_reason_without_words_is_the_errors_name(monkeypatch: pytest.MonkeyPatch) -> None:
    class Refusing:
        def construct_object(self, node: object) -> None:
            raise ValueError()

    class Loader:
        constructor = Refusing()

    monkeypatch.setattr(yamlio, "_round_trip", Loader)
    assert yamlio.unbuildable_node("a: 1\n") == (1, "YAML value cannot be read: ValueError")


@pytest.mark.parametrize("durable", [True, False])
def test_only_durable_writes_wait_for_the_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, durable: bool
) -> None:
    """Mission files are synced to disk before the rename; regenerated output (a dashboard
    page) is not, and is still replaced whole."""
    synced: list[int] = []
    monkeypatch.setattr(os, "fsync", synced.append)
    path = tmp_path / "page.html"
    path.write_text("old\n", encoding="utf-8")
    atomic_write_text(path, "new ✓\n", durable=durable)
    assert path.read_text(encoding="utf-8") == "new ✓\n"
    assert len(synced) == (1 if durable else 0)
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]
