"""``export --format formalization``: a registry record per mission whose counts are computed,
valid against formalization.yaml v0.4, and a blank or mistyped record refused."""

from __future__ import annotations

import copy
import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from conftest import copy_repo_workspace, init_repo
from missions.catalog import load_catalog
from missions.cli import app
from missions.formalization import check_record

runner = CliRunner()

#: v0.4's small vocabularies and required fields, read from its schema (schema/v0.4.schema.json
#: of mathlib-initiative/formalization.yaml), restated here independently of the exporter.
METHODS = {"manual", "copilot", "agent", "autonomous", "other"}
RELATIONSHIPS = {"", "formalizes", "adapts", "independently-proves", "background", "other"}


def assert_v04(record: dict[str, Any]) -> None:
    assert {"project", "sources", "automation", "review"} <= set(record)
    project = record["project"]
    assert project["name"] and project["license"]
    assert project["authors"] and all(isinstance(a, str) and a for a in project["authors"])
    assert record["sources"]
    for source in record["sources"]:
        assert source["title"] and source.get("relationship", "") in RELATIONSHIPS
    methods = record["automation"]["methods"]
    assert methods and all(m["method"] in METHODS for m in methods)
    assert record["review"]["status"]
    status = record.get("status", {})
    for key in ("sorry_count", "sorry_in_definitions"):
        assert isinstance(status.get(key, 0), int) and status.get(key, 0) >= 0
    for result in status.get("main_results", []):
        assert isinstance(result.get("sorry_count", 0), int) and result.get("sorry_count", 0) >= 0


def export(root: Path, out: Path) -> dict[str, dict[str, Any]]:
    result = runner.invoke(
        app, ["export", "--format", "formalization", "-o", str(out), "--root", str(root)]
    )
    assert result.exit_code == 0, result.stderr
    yaml = YAML(typ="safe", pure=True)
    return {
        p.parent.name: yaml.load(p.read_text("utf-8")) for p in out.glob("*/formalization.yaml")
    }


def _status(root: Path) -> dict[str, Any]:
    return json.loads(runner.invoke(app, ["status", "--json", "--root", str(root)]).stdout)


@pytest.mark.parametrize("which", ["demo", "bundled"])
def test_every_mission_exports_a_valid_record_with_the_counts_of_status(
    which: str, demo_workspace: Callable[..., Path], tmp_path: Path
) -> None:
    root = demo_workspace(use_git=True) if which == "demo" else copy_repo_workspace(tmp_path)
    first = None
    if which == "bundled":  # one mission gets a second author
        init_repo(root)
        first = sorted((root / "missions").glob("*.yaml"))[0]
        first.write_text(first.read_text("utf-8") + "# reviewed\n", encoding="utf-8")
        env = {**os.environ, "GIT_AUTHOR_NAME": "B. Second", "GIT_AUTHOR_EMAIL": "b@x.invalid"}
        env |= {"GIT_COMMITTER_NAME": "B. Second", "GIT_COMMITTER_EMAIL": "b@x.invalid"}
        subprocess.run(["git", "commit", "-qam", "second"], cwd=root, env=env, check=True)
    records = export(root, tmp_path / "out")
    status = _status(root)
    catalog = {m.id: m for m in load_catalog(root).missions}
    assert set(records) == {m["id"] for m in status["missions"]}
    for entry in status["missions"]:
        record = records[entry["id"]]
        assert_v04(record)
        assert check_record(record) == []
        assert record["version"] == "0.4"
        counts = {"targets": len(entry["targets"])}
        for kind in ("proved", "stated", "missing", "external"):
            counts[kind] = sum(t["status"] == kind for t in entry["targets"])
        assert record["status"]["targets"] == counts
        tiers: dict[str, int] = {}
        for target in entry["targets"]:
            if target["status"] == "proved":
                tiers[target["evidence"]] = tiers.get(target["evidence"], 0) + 1
        assert record["status"]["evidence"] == tiers
        goal = next(t for t in entry["targets"] if t["kind"] == "goal")
        [main] = record["status"]["main_results"]
        assert (main["target"], main["status"]) == (goal["id"], goal["status"])
        assert [a["target"] for a in record["alignment"]] == [t["id"] for t in entry["targets"]]
        assert [a["status"] for a in record["alignment"]] == [t["status"] for t in entry["targets"]]
        mission = catalog[entry["id"]]
        cited = {t.source for t in mission.targets}
        assert [(s["title"], s["relationship"]) for s in record["sources"]] == [
            (s.citation, "formalizes" if s.key in cited else "background") for s in mission.sources
        ]
        externals = [t for t in mission.targets if t.external is not None]
        assert len(main.get("literature_dependencies", [])) == len(externals)
        assert ("fidelity" in record) == bool(mission.conventions)
        if first is not None:  # from git, first contributor first
            second = ["B. Second"] if first.stem == entry["id"] else []
            assert record["project"]["authors"] == ["Test Author", *second]
            assert record["project"]["license"] == "NOASSERTION"  # never guessed


def test_sorries_are_counted_from_the_mission_s_own_files(
    demo_workspace: Callable[..., Path], tmp_path: Path
) -> None:
    demo = demo_workspace(use_git=True)
    before = export(demo, tmp_path / "a")["demo"]["status"]
    proofs = demo / "Formal/Demo/Proofs.lean"
    proofs.write_text(
        proofs.read_text(encoding="utf-8")
        + "\ntheorem extraLemma : 1 = 1 := by\n  sorry\n\ntheorem extraLemma' : 2 = 2 := sorry\n"
        + "\ndef extraValue : Nat := sorry\n",
        encoding="utf-8",
    )
    after = export(demo, tmp_path / "b")["demo"]["status"]
    assert after["sorry_count"] == before["sorry_count"] + 3
    assert after["sorry_in_definitions"] == before["sorry_in_definitions"] + 1


def test_settings_name_what_sources_cannot_show(
    demo_workspace: Callable[..., Path], tmp_path: Path
) -> None:
    demo = demo_workspace()
    (demo / "missions.yaml").write_text(
        "formalization:\n  authors: [Ada, Ben]\n  license: Apache-2.0\n"
        "  automation:\n    - method: agent\n      models: [some-model]\n"
        "  review: peer-reviewed\n  reviewers: [Cy]\n",
        encoding="utf-8",
    )
    record = export(demo, tmp_path / "out")["demo"]
    assert record["project"]["authors"] == ["Ada", "Ben"]
    assert record["project"]["license"] == "Apache-2.0"
    assert record["automation"]["methods"] == [{"method": "agent", "models": ["some-model"]}]
    assert record["review"] == {"status": "peer-reviewed", "reviewers": ["Cy"]}
    (demo / "missions.yaml").write_text(
        "formalization:\n  automation:\n    - method: wizard\n", encoding="utf-8"
    )
    result = runner.invoke(
        app, ["export", "--format", "formalization", "-o", str(tmp_path / "x"), "--root", str(demo)]
    )
    assert (result.exit_code, result.stderr.count("\n")) == (2, 1)
    assert "missions.yaml:3:" in result.stderr


def test_no_author_anywhere_is_one_line_and_nothing_written(
    demo_workspace: Callable[..., Path], tmp_path: Path
) -> None:
    demo = demo_workspace(use_git=False)
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["export", "--format", "formalization", "-o", str(out), "--root", str(demo)]
    )
    assert (result.exit_code, result.stderr.count("\n")) == (2, 1)
    assert "missions.yaml:1:" in result.stderr and "authors" in result.stderr
    assert not out.exists() or not any(out.rglob("*.yaml"))


VALID: dict[str, Any] = {
    "project": {"name": "n", "authors": ["a"], "license": "MIT"},
    "sources": [{"title": "t"}],
    "automation": {"methods": [{"method": "manual"}]},
    "review": {"status": "unchecked"},
}


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("project",), None),
        (("sources",), None),
        (("automation",), None),
        (("review",), None),
        (("project", "name"), ""),
        (("project", "authors"), []),
        (("project", "authors"), [""]),
        (("project", "license"), ""),
        (("sources",), []),
        (("sources", 0, "title"), ""),
        (("sources", 0, "relationship"), "cites"),
        (("automation", "methods"), []),
        (("automation", "methods", 0, "method"), "wizard"),
        (("review", "status"), ""),
        (("status",), {"sorry_count": -1}),
    ],
)
def test_the_format_refuses_a_blank_or_mistyped_record(
    path: tuple[str | int, ...], value: Any
) -> None:
    assert check_record(copy.deepcopy(VALID)) == []
    broken = copy.deepcopy(VALID)
    holder: Any = broken
    for key in path[:-1]:
        holder = holder[key]
    if value is None:
        del holder[path[-1]]
    else:
        holder[path[-1]] = value
    faults = check_record(broken)
    assert faults and faults[0].startswith(str(path[0]))
