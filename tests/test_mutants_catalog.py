"""Mission YAML validation that mutation testing found unguarded (``benchmarks/mutation.py``):
the line each cross-reference problem points at, "did you mean" hints at every depth, rule
ids, unknown missions, and the two ways a mission file finds a line.

The fixture puts ``id`` below other keys, so a problem located at the top of the file by
mistake cannot pass for one located at its key."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from conftest import MISSION_YAML
from missions.cache import default_cache_dir
from missions.catalog import (
    CATALOG_FILE,
    Catalog,
    MissionFile,
    _allowed_fields,
    _dependency_cycles,
    _describe,
    load_catalog,
    load_mission_file,
)
from missions.errors import InputError
from missions.yamlio import MAX_DEPTH, MAX_EXPANDED_NODES, TOO_DEEP

GOOD = MISSION_YAML.format(id="demo", module="Formal.Demo")
#: ``id`` on line 3, after a comment and the title
MOVED = "# a mission\n" + GOOD.replace('id: demo\ntitle: "Test mission demo"\n', "").replace(
    "category: example\n", 'title: "Test mission demo"\nid: demo\ncategory: example\n', 1
)
SECOND_SOURCE = '  - citation: "Again."\n    key: src\n'  # the key below the item's first line
SECOND_FACT = "facts:\n  - id: f\n    text: one\n  - text: two\n    id: f\n"


def write(root: Path, text: str, name: str = "demo.yaml") -> Path:
    (root / "missions").mkdir(exist_ok=True)
    path = root / "missions" / name
    path.write_text(text, encoding="utf-8")
    return path


def problems(root: Path, text: str, name: str = "demo.yaml") -> list[tuple[int, str, str]]:
    write(root, text, name)
    with pytest.raises(InputError) as refused:
        load_catalog(root, use_cache=False)
    return [(p.line, p.message, p.rule) for p in refused.value.problems]


def line_of_text(text: str, needle: str, occurrence: int = 1) -> int:
    lines = [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
    return lines[occurrence - 1]


def test_the_fixture_moves_the_id_down() -> None:
    assert line_of_text(MOVED, "id: demo") == 3


@pytest.mark.parametrize(
    ("text", "needle", "occurrence", "message", "rule"),
    [
        (MOVED.replace("id: demo", "id: Demo_1"), "id: Demo_1", 1,
         "mission id 'Demo_1' is not kebab-case", "schema"),
        (MOVED.replace("id: demo", "id: other"), "id: other", 1,
         "mission id 'other' does not match file name 'demo.yaml'", "schema"),
        (MOVED.replace("lean:\n", SECOND_SOURCE + "lean:\n"), "key: src", 2,
         "duplicate source key 'src'", "duplicate-id"),
        (MOVED.replace("lean:\n", SECOND_FACT + "lean:\n"), "id: f", 2,
         "duplicate fact id 'f'", "duplicate-id"),
    ],
)  # fmt: skip
def test_cross_reference_problems_point_at_their_key(
    tmp_path: Path, text: str, needle: str, occurrence: int, message: str, rule: str
) -> None:
    found = problems(tmp_path, text)
    assert (line_of_text(text, needle, occurrence), message, rule) in found


@pytest.mark.parametrize(
    ("replace", "by", "message"),
    [
        ("  - id: goal\n", "  - id: goal\n    stauts: x\n",
         "unknown field 'targets.0.stauts' (did you mean 'status'?)"),
        ("  - key: src\n", "  - key: src\n    urll: x\n",
         "unknown field 'sources.0.urll' (did you mean 'url'?)"),
        ("  module: Formal.Demo\n", "  module: Formal.Demo\n  modul: x\n",
         "unknown field 'lean.modul' (did you mean 'module'?)"),
        # the model of an optional field
        ("    depends_on: []\n", "    depends_on: []\n    external: {repositry: r}\n",
         "unknown field 'targets.0.external.repositry' (did you mean 'repository'?)"),
        ("{statement: literature-sourced", "{statment: literature-sourced",
         "unknown field 'targets.0.provenance.statment' (did you mean 'statement'?)"),
        # no hint where nothing is close
        ("category: example\n", "category: example\nzzz: 1\n", "unknown field 'zzz'"),
    ],
)  # fmt: skip
def test_an_unknown_key_gets_the_nearest_field_at_its_depth(
    tmp_path: Path, replace: str, by: str, message: str
) -> None:
    text = GOOD.replace(replace, by, 1)
    assert text != GOOD
    assert message in [m for _, m, _ in problems(tmp_path, text)]


class _Leaf(BaseModel):
    name: str
    size: int


class _Branch(BaseModel):
    leaves: list[_Leaf] | None = None
    first: _Leaf | None = None
    tags: list[str] = []
    names: list[str] | None = None


@pytest.mark.parametrize(
    ("loc", "fields"),
    [
        (("leaves", 0, "x"), ["name", "size"]),  # the items of an optional list
        (("first", "x"), ["name", "size"]),  # an optional model
        (("x",), ["leaves", "first", "tags", "names"]),
        (("tags", 0, "x"), []),  # a list of strings has no fields
        (("names", 0, "x"), []),  # nor has an optional one
        (("nowhere", "x"), []),
    ],
)
def test_the_fields_allowed_at_a_location(loc: tuple[int | str, ...], fields: list[str]) -> None:
    assert _allowed_fields(_Branch, loc) == fields


def test_a_document_level_error_says_document() -> None:
    error = {"loc": (), "type": "value_error", "msg": "Value error, no goal"}
    assert _describe(error) == "document: no goal"
    unknown = {"loc": ("zzz",), "type": "extra_forbidden", "msg": ""}
    assert _describe(unknown) == "unknown field 'zzz'"


def test_a_key_that_is_not_a_string_is_reported_at_its_line(tmp_path: Path) -> None:
    text = GOOD + "1: x\n"
    [(line, message, rule)] = problems(tmp_path, text)
    assert (line, rule) == (len(text.splitlines()), "schema")
    assert message.startswith("1: ")


def test_a_cycle_behind_a_dangling_dependency_is_still_found() -> None:
    mission = load_mission_file_text(
        GOOD.replace("depends_on: []", "depends_on: [b]").replace(
            "targets:\n",
            "targets:\n  - id: b\n    kind: milestone\n    title: B\n    informal: B.\n"
            "    depends_on: [nowhere, goal]\n"
            "    provenance: {statement: literature-sourced, proof: none}\n",
        )
    )
    assert _dependency_cycles(mission) == [["b", "goal", "b"]]


def load_mission_file_text(text: str):  # type: ignore[no-untyped-def]
    from ruamel.yaml import YAML

    from missions.catalog import Mission, _plain

    return Mission.model_validate(_plain(YAML(typ="safe").load(text)))


def catalog_of(root: Path, *ids: str) -> Catalog:
    for mission_id in ids:
        write(root, MISSION_YAML.format(id=mission_id, module="Formal.Demo"), f"{mission_id}.yaml")
    return load_catalog(root, use_cache=False)


def test_unknown_missions_are_named_with_the_nearest_known_one(tmp_path: Path) -> None:
    catalog = catalog_of(tmp_path, "alpha", "beta")
    assert [f.mission.id for f in catalog.select(["beta"])] == ["beta"]
    assert catalog.get("alpha").mission.id == "alpha"
    with pytest.raises(InputError) as near:
        catalog.get("alpah")
    with pytest.raises(InputError) as far:
        catalog.select(["zzz", "alpha", "qqq"])
    [problem] = near.value.problems
    assert (problem.path, problem.line, problem.message) == (
        str(tmp_path / "missions"),
        1,
        "unknown mission 'alpah' (did you mean 'alpha'?)",
    )
    assert sorted(p.message for p in far.value.problems) == [
        "unknown mission 'qqq'",
        "unknown mission 'zzz'",
    ]


def test_a_target_is_found_by_id_or_refused() -> None:
    mission = load_mission_file_text(GOOD)
    assert mission.target("goal").id == "goal"
    with pytest.raises(KeyError, match="nope"):
        mission.target("nope")


def test_lines_agree_before_and_after_the_round_trip_parse(tmp_path: Path) -> None:
    """A mission file finds lines from the composed tree until its round-trip document is
    parsed, then from the document: the same lines either way."""
    path = write(tmp_path, MOVED)
    mission_file = load_mission_file(path)
    assert isinstance(mission_file, MissionFile)
    wanted = {
        ("id",): 3,
        ("targets",): line_of_text(MOVED, "targets:"),
        ("targets", 0, "kind"): line_of_text(MOVED, "kind: goal"),
    }
    composed = {loc: mission_file.line(*loc) for loc in wanted}
    assert mission_file.target_line("goal", "kind") == wanted[("targets", 0, "kind")]
    assert mission_file.target_line("goal") == line_of_text(MOVED, "- id: goal")
    assert mission_file.target_line("nope") == wanted[("targets",)]
    assert mission_file.doc is not None
    parsed = {loc: mission_file.line(*loc) for loc in wanted}
    assert composed == parsed == wanted


DIGEST = "sha256:" + "0" * 64
MILESTONE = (
    "  - kind: milestone\n    id: {id}\n    title: M\n    informal: M.\n{more}"
    "    provenance: {{statement: literature-sourced, proof: none}}\n"
)


STATEMENT = "    statement: Formal.Demo.M\n"


def milestone(target_id: str, more: str = STATEMENT) -> str:
    return MILESTONE.format(id=target_id, more=more)


def with_targets(*extra: str) -> str:
    assert MOVED.rstrip().endswith("evidence: source")  # the targets list ends the file
    return MOVED + "".join(extra)


def history(*revisions: int) -> str:
    entries = "".join(
        f"  - revision: {r}\n    date: 2026-01-01\n    reason: r\n    digest: {DIGEST}\n"
        for r in revisions
    )
    return MOVED.replace("targets:\n", f"statement_history:\n{entries}targets:\n", 1)


REGRESSIONS = (
    "regressions:\n"
    "  - to: stated\n    date: 2026-01-01\n    reason: r\n    target: goal\n"
    "  - to: stated\n    date: 2026-01-01\n    reason: r\n    target: nope\n"
)


@pytest.mark.parametrize(
    ("text", "needle", "message"),
    [
        (MOVED.replace("lean:\n", "facts:\n  - id: f\n    text: t\n    source: nope\nlean:\n"),
         "source: nope", "unknown source 'nope'"),
        (history(2, 1), "statement_history:", "statement_history revisions must increase"),
        (history(1, 1), "statement_history:", "statement_history revisions must increase"),
        (with_targets(milestone("goal")), "    id: goal", "duplicate target id 'goal'"),
        (with_targets(milestone("Bad_Id")), "id: Bad_Id", "target id 'Bad_Id' is not kebab-case"),
        (with_targets(milestone("m", STATEMENT + "    facts: [nope]\n")),
         "facts: [nope]", "unknown fact 'nope'"),
        (with_targets(milestone("m", STATEMENT + "    external: {repository: r}\n")),
         "external: {repository: r}", "only external targets take an 'external' reference"),
        (with_targets(MILESTONE.format(id="x", more="    proof: Formal.Demo.x\n").replace(
            "kind: milestone", "kind: external")),
         "kind: external", "external target 'x' cannot name workspace declarations"),
        (MOVED.replace("kind: goal", "kind: milestone"), "targets:",
         "a mission has exactly one goal target, found 0"),
        (MOVED.replace("targets:\n", REGRESSIONS + "targets:\n"), "target: nope",
         "regression of unknown target 'nope'"),
    ],
)  # fmt: skip
def test_each_problem_points_at_the_key_that_causes_it(
    tmp_path: Path, text: str, needle: str, message: str
) -> None:
    found = [(line, m) for line, m, _ in problems(tmp_path, text)]
    expected = (line_of_text(text, needle), message)
    assert expected in found, found
    if "regression" in message:  # the known target's record is fine
        assert [m for _, m in found if "regression" in m] == [message]


def test_a_cycle_and_an_unknown_dependency_point_at_depends_on(tmp_path: Path) -> None:
    text = with_targets(
        milestone("a", STATEMENT + "    depends_on: [b]\n"),
        milestone("b", STATEMENT + "    depends_on: [a, zzz]\n"),
    )
    found = [(line, m) for line, m, _ in problems(tmp_path, text)]
    assert (line_of_text(text, "depends_on: [b]"), "dependency cycle: a -> b -> a") in found
    assert (
        line_of_text(text, "depends_on: [a, zzz]"),
        "target 'b' depends on unknown target 'zzz'",
    ) in found


def test_a_too_deep_file_is_a_yaml_problem_at_its_line(tmp_path: Path) -> None:
    text = GOOD + "deep:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(80)) + "   x: 1\n"
    [(line, message, rule)] = problems(tmp_path, text)
    assert (message, rule) == (TOO_DEEP, "yaml")
    # the key that opens the 65th level: the root, `deep` and the 63 keys k0 … k62 below it
    # make 65 levels (the same rule for every loader: tests/test_mutants_yamlio.py)
    assert text.splitlines()[line - 1].strip() == f"k{MAX_DEPTH - 2}:"


def test_the_missions_directory_must_exist_and_be_listable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(InputError) as missing:
        load_catalog(tmp_path, use_cache=False)
    [problem] = missing.value.problems
    assert (problem.path, problem.line, problem.message) == (
        str(tmp_path / "missions"),
        1,
        "no missions/ directory under the workspace root",
    )
    (tmp_path / "missions").mkdir()

    def refuse(self: Path) -> None:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "iterdir", refuse)
    with pytest.raises(InputError) as unlistable:
        load_catalog(tmp_path, use_cache=False)
    [problem] = unlistable.value.problems
    assert (problem.line, problem.message) == (
        1,
        "cannot list the missions directory: Permission denied",
    )


WITH_REGRESSION = MOVED.replace(
    "targets:\n",
    "regressions:\n  - target: goal\n    from: proved\n    to: stated\n"
    "    date: 2026-01-01\n    reason: r\ntargets:\n",
    1,
)


def parses(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Record every mission file the catalog parses (rather than takes from its cache)."""
    import missions.catalog as catalog

    parsed: list[Path] = []
    parse = catalog.load_mission_file

    def spy(path: Path, text: str | None = None) -> MissionFile:
        parsed.append(path)
        return parse(path, text)

    monkeypatch.setattr(catalog, "load_mission_file", spy)
    return parsed


def test_a_warm_catalog_parses_nothing_until_a_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, WITH_REGRESSION)
    parsed = parses(monkeypatch)
    first = load_catalog(tmp_path)  # cold: parsed, and the cache written
    assert parsed == [path]
    second = load_catalog(tmp_path)  # warm: from the cache, aliases (`from`) and all
    assert parsed == [path]
    assert second.missions == first.missions
    load_catalog(tmp_path, use_cache=False)  # no cache asked for: parsed again
    assert parsed == [path, path]
    path.write_text(WITH_REGRESSION.replace("Test mission", "Changed mission"), encoding="utf-8")
    changed = load_catalog(tmp_path)  # a changed file is never answered from the cache
    assert parsed == [path, path, path]
    assert changed.missions[0].title == "Changed mission demo"


def test_a_cache_is_written_only_when_asked_for(tmp_path: Path) -> None:
    write(tmp_path, GOOD)
    load_catalog(tmp_path, use_cache=False)
    store = Path(default_cache_dir(tmp_path)) / CATALOG_FILE
    assert not store.exists()
    load_catalog(tmp_path)
    assert store.exists()


def test_an_unreadable_file_is_not_answered_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, GOOD)
    load_catalog(tmp_path)
    parsed = parses(monkeypatch)
    monkeypatch.setattr("missions.catalog.os.access", lambda *_: False)
    load_catalog(tmp_path)
    assert parsed == [path]


def test_a_duplicate_mission_id_is_reported_at_its_id_and_the_rest_still_load(
    tmp_path: Path,
) -> None:
    """``demo.yaml`` and ``demo.yml`` both name mission ``demo``; a later file's own problem is
    still reported."""
    write(tmp_path, MOVED, "demo.yaml")
    write(tmp_path, MOVED, "demo.yml")
    write(tmp_path, GOOD.replace("id: demo", "id: zz").replace("kind: goal", "kind: x"), "zz.yaml")
    with pytest.raises(InputError) as refused:
        load_catalog(tmp_path, use_cache=False)
    where = [(Path(p.path).name, p.line, p.message) for p in refused.value.problems]
    assert ("demo.yml", 3, "duplicate mission id 'demo' (also in demo.yaml)") in where
    assert any(name == "zz.yaml" for name, _, _ in where), where


def test_a_valid_mission_over_the_node_budget_is_refused(tmp_path: Path) -> None:
    """Every value is a note the schema accepts, but aliases repeat the anchored one past the
    budget: the fast loader's structure check must not be skipped for a file that validates."""
    notes = "notes: [&n note" + ", *n" * (MAX_EXPANDED_NODES + 1) + "]\n"
    assert len(notes) < 2_000_000
    [(_, message, rule)] = problems(tmp_path, GOOD.replace("targets:\n", notes + "targets:\n", 1))
    assert (message, rule) == (
        f"document expands to more than {MAX_EXPANDED_NODES} nodes (alias bomb?)",
        "yaml",
    )


def _cycles_by_recursion(graph: dict[str, list[str]]) -> list[list[str]]:
    """The textbook recursive walk, the reference for the order cycles are reported in."""
    color: dict[str, int] = {}
    path: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        color[node] = 1
        path.append(node)
        for nxt in graph[node]:
            if nxt not in graph:
                continue
            if color.get(nxt) == 1:
                cycles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in color:
                visit(nxt)
        path.pop()
        color[node] = 2

    for node in graph:
        if node not in color:
            visit(node)
    return cycles


def _mission_of(graph: dict[str, list[str]]) -> Any:
    from types import SimpleNamespace

    targets = [SimpleNamespace(id=node, depends_on=deps) for node, deps in graph.items()]
    return SimpleNamespace(targets=targets)


@pytest.mark.parametrize("seed", range(40))
def test_dependency_cycles_are_those_a_recursive_walk_meets_in_its_order(seed: int) -> None:
    rng = random.Random(seed)
    nodes = [f"t{i}" for i in range(rng.randint(1, 9))]
    graph = {
        node: [rng.choice([*nodes, "dangling"]) for _ in range(rng.randint(0, 3))] for node in nodes
    }
    assert _dependency_cycles(_mission_of(graph)) == _cycles_by_recursion(graph)


def test_a_dependency_chain_longer_than_the_recursion_limit_is_walked() -> None:
    count = sys.getrecursionlimit() * 3
    graph = {f"t{i}": [f"t{i + 1}"] for i in range(count)}
    graph[f"t{count}"] = ["t0"]
    [cycle] = _dependency_cycles(_mission_of(graph))
    assert cycle[0] == cycle[-1] == "t0" and len(cycle) == count + 2
