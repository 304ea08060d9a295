"""The mission YAML loader: every problem reported as path:line: message, safely."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest

from conftest import MISSION_YAML, REPO
from missions.catalog import TargetKind, load_catalog
from missions.errors import InputError

GOOD = MISSION_YAML.format(id="demo", module="Formal.Demo")


def load_problems(root: Path, text: str | bytes, name: str = "demo.yaml") -> list[str]:
    (root / "missions").mkdir(exist_ok=True)
    path = root / "missions" / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_catalog(root)
    return [f"{Path(p.path).name}:{p.line}: {p.message}" for p in info.value.problems]


def test_good_file_loads(tmp_path: Path) -> None:
    (tmp_path / "missions").mkdir()
    (tmp_path / "missions" / "demo.yaml").write_text(GOOD, encoding="utf-8")
    catalog = load_catalog(tmp_path)
    assert [m.id for m in catalog.missions] == ["demo"]
    assert catalog.missions[0].goal is not None


MALFORMED = [
    (
        "syntax error",
        GOOD.replace("category: example", "category: [example"),
        "demo.yaml:4: YAML syntax error",
    ),
    ("empty file", "", "demo.yaml:1: empty file"),
    ("only comments", "# nothing\n", "demo.yaml:1: empty file"),
    ("top-level list", "- a\n- b\n", "demo.yaml:1: top level must be a mapping"),
    (
        "non-UTF-8",
        GOOD.encode().replace(b"A test mission.", b"A test \xff mission."),
        "demo.yaml:5: not valid UTF-8",
    ),
    (
        "misspelt field",
        GOOD.replace("  - id: goal\n", "  - id: goal\n    informl: x\n"),
        "demo.yaml:14: unknown field 'targets.0.informl' (did you mean 'informal'?)",
    ),
    ("unknown top-level field", GOOD + "colour: red\n", "demo.yaml:25: unknown field 'colour'"),
    (
        "wrong type",
        GOOD.replace("depends_on: []", "depends_on: 3"),
        "demo.yaml:21: targets.0.depends_on: Input should be a valid list",
    ),
    (
        "bad enum",
        GOOD.replace("kind: goal", "kind: lemma"),
        "demo.yaml:14: targets.0.kind: Input should be "
        + ", ".join(repr(k) for k in get_args(TargetKind)[:-1])
        + f" or {get_args(TargetKind)[-1]!r}",
    ),
    (
        "missing field",
        GOOD.replace('    title: "The goal"\n', ""),
        "demo.yaml:13: missing required field 'targets.0.title'",
    ),
    (
        "duplicate key",
        GOOD.replace("category: example", "category: example\ncategory: puzzle"),
        "demo.yaml:4: YAML syntax error",
    ),
    (
        "file name differs from id",
        GOOD.replace("id: demo", "id: other"),
        "demo.yaml:1: mission id 'other' does not match file name 'demo.yaml'",
    ),
    (
        "id not kebab-case",
        GOOD.replace("id: demo", "id: Demo_1"),
        "demo.yaml:1: mission id 'Demo_1' is not kebab-case",
    ),
    (
        "dangling depends_on",
        GOOD.replace("depends_on: []", "depends_on: [goall]"),
        "demo.yaml:21: target 'goal' depends on unknown target 'goall' (did you mean 'goal'?)",
    ),
    (
        "dangling source",
        GOOD.replace("    source: src\n", "    source: nope\n"),
        "demo.yaml:18: unknown source 'nope'",
    ),
    (
        "bad Lean name",
        GOOD.replace("statement: Formal.Demo.Goal", "statement: Formal.Demo.Goal x"),
        "is not a Lean declaration name",
    ),
    (
        "bad pin",
        GOOD.replace("  module: Formal.Demo\n", "  module: Formal.Demo\n  statement_pin: abc\n"),
        "demo.yaml:12: lean.statement_pin: statement_pin must look like",
    ),
    (
        "explicit python tag",
        GOOD.replace(
            'title: "Test mission demo"', 'title: !!python/object/apply:os.system ["echo pwned"]'
        ),
        "demo.yaml:2: explicit YAML tag",
    ),
    (
        "custom tag",
        GOOD.replace("category: example", "category: !cat example"),
        "demo.yaml:3: explicit YAML tag '!cat'",
    ),
]


@pytest.mark.parametrize(("label", "text", "expected"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_yaml_is_reported_with_its_line(
    tmp_path: Path, label: str, text: str | bytes, expected: str
) -> None:
    problems = load_problems(tmp_path, text)
    assert any(expected in p for p in problems), problems


def test_duplicate_target_ids_and_cycles(tmp_path: Path) -> None:
    extra = """\
  - id: m1
    kind: milestone
    title: "M1"
    informal: x
    statement: Formal.Demo.M1
    depends_on: [m2]
    provenance: {statement: ai-generated}
  - id: m2
    kind: milestone
    title: "M2"
    informal: x
    statement: Formal.Demo.M2
    depends_on: [m1]
    provenance: {statement: ai-generated}
  - id: m2
    kind: milestone
    title: "M2 again"
    informal: x
    statement: Formal.Demo.M3
    provenance: {statement: ai-generated}
"""
    problems = load_problems(tmp_path, GOOD + extra)
    assert any("duplicate target id 'm2'" in p and ":39:" in p for p in problems), problems
    assert any("dependency cycle: m1 -> m2 -> m1" in p for p in problems), problems


def test_exactly_one_goal(tmp_path: Path) -> None:
    problems = load_problems(tmp_path, GOOD.replace("kind: goal", "kind: milestone"))
    assert any("exactly one goal target, found 0" in p for p in problems)


def test_every_file_is_reported_not_just_the_first(tmp_path: Path) -> None:
    (tmp_path / "missions").mkdir()
    (tmp_path / "missions" / "a.yaml").write_text("a: [\n", encoding="utf-8")
    (tmp_path / "missions" / "b.yaml").write_text("", encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_catalog(tmp_path)
    assert sorted(Path(p.path).name for p in info.value.problems) == ["a.yaml", "b.yaml"]


def test_duplicate_mission_ids_across_files(tmp_path: Path) -> None:
    (tmp_path / "missions").mkdir()
    (tmp_path / "missions" / "demo.yaml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "missions" / "demo.yml").write_text(GOOD, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_catalog(tmp_path)
    assert any("duplicate mission id 'demo'" in p.message for p in info.value.problems)


ALIAS_BOMB = (
    "\n".join(
        ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
        + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 12)]
    )
    + "\n"
)

#: Loads the bomb in a child process whose memory and CPU time are capped far above what a
#: rejection needs, so a loader that expands it fails this test instead of hanging the suite.
#: (How fast the rejection is belongs to benchmarks/bench_yaml_aliases.py, not to a test.)
BOUNDED_LOAD = """
import resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
resource.setrlimit(resource.RLIMIT_CPU, (120, 120))
from missions.catalog import TargetKind, load_catalog
from missions.errors import InputError
try:
    load_catalog(Path(sys.argv[1]), use_cache=False)
except InputError as exc:
    print("\\n".join(p.message for p in exc.problems))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="resource limits as used here are Linux's")
def test_alias_bomb_is_rejected_without_expanding_it(tmp_path: Path) -> None:
    (tmp_path / "missions").mkdir()
    (tmp_path / "missions" / "demo.yaml").write_text(ALIAS_BOMB, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", BOUNDED_LOAD, str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "alias bomb" in done.stdout, done.stdout


def test_self_referencing_alias_terminates(tmp_path: Path) -> None:
    problems = load_problems(tmp_path, "a: &x\n  b: *x\nc: &y [*y]\n")
    assert any("missing required field 'id'" in p for p in problems), problems


def test_missing_missions_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        load_catalog(tmp_path)
    assert "no missions/ directory" in str(info.value)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("a: [\n", "yaml"),
        (GOOD.replace("kind: goal", "kind: lemma"), "schema"),
        (GOOD.replace("depends_on: []", "depends_on: [nope]"), "dangling-ref"),
        (GOOD.replace("depends_on: []", "depends_on: [goal]"), "dependency-cycle"),
        (
            GOOD.replace("  - key: src\n", "  - key: src\n    citation: x\n  - key: src\n"),
            "duplicate-id",
        ),
    ],
)
def test_problems_carry_the_gate_rule_id(tmp_path: Path, text: str, rule: str) -> None:
    (tmp_path / "missions").mkdir()
    (tmp_path / "missions" / "demo.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_catalog(tmp_path)
    assert rule in {p.rule for p in info.value.problems}, info.value.problems


def _locations(node: Any, prefix: tuple[int | str, ...] = ()) -> Iterator[tuple[int | str, ...]]:
    """Every key and item path of a round-trip document, plus one missing key per mapping."""
    yield prefix
    if isinstance(node, dict):
        yield (*prefix, "no-such-key")
        for key, value in node.items():
            yield from _locations(value, (*prefix, str(key)))
    elif isinstance(node, list):
        yield (*prefix, len(node))  # one past the end
        for index, value in enumerate(node):
            yield from _locations(value, (*prefix, index))


#: Layouts the bundled files may not use: flow collections, explicit and multi-line keys,
#: anchored items, comments between items, a second document.
_LAYOUTS = [
    "a: {b: 1,\n    c: [1, 2,\n        3]}\nd:\n  # note\n  - e\n\n  - f: 1\n    g: 2\n",
    "? long\n  key\n: 1\n? [x]\n: 2\nk: &anchor\n  - 1\n  - 2\nl:\n  - &item z\n  - y\n",
    "targets:\n- id: a\n  kind: goal\n-   id: b\n    kind: milestone\n---\nother: 1\n",
    "'quoted key': 1\n\"double\": 2\nplain: |\n  text\n  more\nafter: 3\n",
]


def test_indexed_lines_agree_with_the_round_trip_document(tmp_path: Path) -> None:
    """Messages take their lines from the index the depth check builds; they must be the
    lines the round-trip document gives, for every location of every bundled mission file
    and of layouts those files happen not to use."""
    from missions.yamlio import check_depth, line_in, line_of, load_document

    paths = sorted((REPO / "missions").glob("*.yaml"))
    assert paths
    for number, text in enumerate(_LAYOUTS):
        extra = tmp_path / f"layout-{number}.yaml"
        extra.write_text(text.split("---")[0], encoding="utf-8")
        paths.append(extra)
    for path in paths:
        text = path.read_text(encoding="utf-8")
        doc, lines = load_document(path, text), check_depth(path, text)
        assert lines is not None
        for loc in _locations(doc):
            assert line_in(lines, loc) == line_of(doc, loc), (path.name, loc)


def test_only_the_first_document_is_indexed() -> None:
    from missions.yamlio import check_depth, line_in

    lines = check_depth(Path("m.yaml"), _LAYOUTS[2])
    assert lines is not None
    assert line_in(lines, ("targets", 1, "kind")) == 5
    assert line_in(lines, ("other",)) == 1  # the second document's key: the root's line


def test_nothing_asks_which_fields_a_mission_file_spelled_out() -> None:
    """Models with the same given fields share one set of their names (a large catalogue's
    memory), which is sound only while no code reads those sets: no ``exclude_unset``, no
    ``model_fields_set``."""
    import missions

    package = Path(missions.__file__).parent
    readers = ("exclude_unset=", ".model_fields_set", ".__fields_set__")
    found = [
        f"{path.relative_to(package)}: {word}"
        for path in sorted(package.rglob("*.py"))
        for word in readers
        if word in path.read_text(encoding="utf-8")
    ]
    assert found == []
    catalog = load_catalog(REPO, use_cache=False)
    sets = [t.__pydantic_fields_set__ for f in catalog.files for t in f.mission.targets]
    alike = [(a, b) for a in sets for b in sets if a == b and a is not b]
    assert len(sets) > len({frozenset(s) for s in sets})  # some targets give the same fields
    assert alike == []  # and those share one set
