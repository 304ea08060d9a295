"""A dashboard written again into the same folder renders only the mission pages whose inputs
moved (:class:`missions.html._PageRecords`): the site is the one a fresh run writes, apart
from the generation time of the pages it kept."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import copy_repo_workspace
from missions import html as html_module
from missions.cache import default_cache_dir
from missions.gate import run_gate
from missions.html import PAGES_FILE, page_name, write_dashboard
from missions.load import analyse
from test_walks import _with_sorry


def site(out: Path) -> dict[str, str]:
    """Every file's text, the generation time taken out."""
    return {
        path.name: re.sub(r"Generated [0-9T:+-]+", "Generated", path.read_text("utf-8"))
        for path in sorted(out.iterdir())
    }


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_repo_workspace(tmp_path)


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the mission pages rendered (one process: no share is forked)."""
    monkeypatch.setattr(html_module.forked, "cores", lambda: 1)
    real = html_module.mission_page
    seen: list[str] = []

    def recording(entry: dict[str, Any], *args: Any) -> str:
        seen.append(str(entry["id"]))
        return real(entry, *args)

    monkeypatch.setattr(html_module, "mission_page", recording)
    return seen


def dashboard(root: Path, out: Path) -> list[str]:
    analysis = analyse(root)
    return [p.name for p in write_dashboard(analysis, run_gate(analysis), out, witnesses={})]


def sorry_in_a_proof(root: Path) -> str:
    """Put a ``sorry`` in the first proof of the bundled missions; its mission."""
    analysis = analyse(root)
    for mission in analysis.missions:
        for status in mission.targets:
            if status.proof_decl is not None:
                module, decl = status.proof_decl
                module.path.write_text(_with_sorry(module.path.read_text("utf-8"), decl.line))
                return mission.id
    raise AssertionError("the bundled missions name a proof")


def test_only_the_pages_a_change_reaches_are_rendered_again(
    root: Path, tmp_path: Path, rendered: list[str]
) -> None:
    out = tmp_path / "site"
    names = dashboard(root, out)
    count = len(rendered)
    assert count == len(analyse(root).missions)
    mission = sorry_in_a_proof(root)
    rendered.clear()
    assert dashboard(root, out) == names  # the same files, in the same order
    assert mission in rendered and len(rendered) < count
    assert site(out) == site_fresh(root, tmp_path)
    rendered.clear()
    dashboard(root, out)
    assert rendered == []  # nothing moved since


def site_fresh(root: Path, tmp_path: Path) -> dict[str, str]:
    fresh = tmp_path / "fresh"
    dashboard(root, fresh)
    return site(fresh)


def test_a_page_changed_on_disk_is_rendered_again(
    root: Path, tmp_path: Path, rendered: list[str]
) -> None:
    out = tmp_path / "site"
    dashboard(root, out)
    mission = analyse(root).missions[0].id
    page = out / page_name(mission)
    page.write_text(page.read_text("utf-8").replace("<body", "<body data-edited"), "utf-8")
    (out / page_name(analyse(root).missions[-1].id)).unlink()
    rendered.clear()
    dashboard(root, out)
    assert sorted(rendered) == sorted({mission, analyse(root).missions[-1].id})
    assert site(out) == site_fresh(root, tmp_path)


@pytest.mark.parametrize("damage", ["", "{", '{"version": "other", "files": {}}', "records"])
def test_damaged_records_render_every_page(
    root: Path, tmp_path: Path, rendered: list[str], damage: str
) -> None:
    out = tmp_path / "site"
    dashboard(root, out)
    records = default_cache_dir(root) / PAGES_FILE
    if damage == "records":  # well-formed, with every record's key or digest wrong
        data = json.loads(records.read_text("utf-8"))
        data["files"] = {
            path: [key[::-1], digest] if i % 2 else [key, digest[::-1]]
            for i, (path, (key, digest)) in enumerate(data["files"].items())
        }
        records.write_text(json.dumps(data), "utf-8")
    else:
        records.write_text(damage, "utf-8")
    rendered.clear()
    dashboard(root, out)
    assert len(rendered) == len(analyse(root).missions)
    assert site(out) == site_fresh(root, tmp_path)


def test_other_code_renders_every_page(
    root: Path, tmp_path: Path, rendered: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "site"
    dashboard(root, out)
    monkeypatch.setattr(html_module, "_renderer", lambda: "another renderer")
    rendered.clear()
    dashboard(root, out)
    assert len(rendered) == len(analyse(root).missions)


def test_a_mission_file_edit_renders_its_page(
    root: Path, tmp_path: Path, rendered: list[str]
) -> None:
    """A target's model (what the page shows beyond the report entry) comes from the YAML."""
    out = tmp_path / "site"
    dashboard(root, out)
    path = sorted((root / "missions").glob("*.yaml"))[0]
    path.write_text(path.read_text("utf-8") + "\n# a comment\n", "utf-8")
    rendered.clear()
    dashboard(root, out)
    assert rendered == [analyse(root).missions[0].id]


def test_an_edit_no_page_shows_renders_nothing(
    root: Path, tmp_path: Path, rendered: list[str]
) -> None:
    """A lemma nothing uses changes no report entry: every page is kept."""
    out = tmp_path / "site"
    dashboard(root, out)
    proofs = next(iter(sorted(root.glob("Formal/**/Proofs.lean"))))
    proofs.write_text(proofs.read_text("utf-8") + "\ntheorem unused_here : True := trivial\n")
    rendered.clear()
    dashboard(root, out)
    assert rendered == []
    assert site(out) == site_fresh(root, tmp_path)


def test_the_records_hold_only_the_pages_a_folder_has(root: Path, tmp_path: Path) -> None:
    dashboard(root, tmp_path / "one")
    dashboard(root, tmp_path / "two")
    gone = sorted((root / "missions").glob("*.yaml"))[-1]
    page = str((tmp_path / "one" / page_name(gone.stem)).absolute())
    records = default_cache_dir(root) / PAGES_FILE
    assert page in json.loads(records.read_text("utf-8"))["files"]
    gone.unlink()
    dashboard(root, tmp_path / "one")
    files = json.loads(records.read_text("utf-8"))["files"]
    assert page not in files  # the mission is gone from this folder's site
    assert str((tmp_path / "two" / page_name(gone.stem)).absolute()) in files  # not from two


def test_the_page_key_reads_every_lint_finding(tmp_path: Path) -> None:
    """Findings are digested once per shared dict, and each one's content and place count."""
    from types import SimpleNamespace

    yaml = tmp_path / "m.yaml"
    yaml.write_text("id: m\n", "utf-8")
    mission: Any = SimpleNamespace(file=SimpleNamespace(path=yaml))
    first = {"path": "A.lean", "line": 3, "rule": "junk-div", "reason": None}
    second = {"path": "B.lean", "line": 9, "rule": "nat-sub", "reason": None}

    def key(*findings: dict[str, Any]) -> str | None:
        entry = {"id": "m", "title": "M", "lint_findings": list(findings)}
        return html_module._page_key(entry, mission.file.path, [], {"commit": None}, {})

    base = key(first, second)
    assert base is not None and base == key(first, dict(second))
    assert key(second, first) != base
    assert key(first, {**second, "reason": "accepted"}) != base
    assert key(first) != base
    yaml.write_text("id: m\n# edited\n", "utf-8")
    assert key(first, second) != base
    yaml.unlink()
    assert key(first, second) is None  # unreadable: the page is rendered
