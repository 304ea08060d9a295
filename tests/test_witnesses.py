"""Witnesses: every target has one, every claim holds on the quick budget, every deliberately
wrong variant is caught, and the CLI reports a failure by target, instance and amount."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import REPO, copy_repo_workspace
from missions.catalog import load_catalog
from missions.cli import app
from missions.witness import Claim, Context, evaluate, load_claims

CATALOG = load_catalog(REPO, use_cache=False)
LINKED = [
    (f.mission.id, t.id, t.witness)
    for f in CATALOG.files
    for t in f.mission.targets
    if t.kind != "external"
]


def claim_of(module: str | None, target: str) -> Claim:
    assert module is not None
    return load_claims(module)[target]


@pytest.mark.parametrize(("mission", "target", "module"), LINKED, ids=lambda v: str(v))
def test_every_target_links_a_witness_claim(mission: str, target: str, module: str | None) -> None:
    assert module is not None, f"{mission}/{target} has no witness"
    assert target in load_claims(module)


@pytest.mark.parametrize(("mission", "target", "module"), LINKED, ids=lambda v: str(v))
def test_claim_holds_on_the_quick_budget(mission: str, target: str, module: str | None) -> None:
    claim = claim_of(module, target)
    result = evaluate(claim.checks, Context(), target, claim.statement)
    assert result.checks > 0
    assert result.ok, result.failures[:3]


@pytest.mark.parametrize(("mission", "target", "module"), LINKED, ids=lambda v: str(v))
def test_wrong_variants_are_caught(mission: str, target: str, module: str | None) -> None:
    claim = claim_of(module, target)
    assert claim.wrong, f"{mission}/{target} has no deliberately wrong variant"
    for name, source in claim.wrong.items():
        assert not evaluate(source, Context(), target, name).ok, f"variant {name!r} passed"


def test_quick_budget_takes_seconds_in_total() -> None:
    started = time.perf_counter()
    for _, target, module in LINKED:
        claim = claim_of(module, target)
        evaluate(claim.checks, Context(), target, claim.statement)
    assert time.perf_counter() - started < 60  # generous: CI machines are slower


def test_cli_runs_witnesses_and_status_shows_them(tmp_path: Path) -> None:
    root = copy_repo_workspace(tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, ["witness", "mae-normalized-pixel", "--json", "--root", str(root)])
    assert result.exit_code == 0, result.stdout
    data = json.loads(result.stdout)
    assert data["ok"] and {r["target"] for r in data["results"]} >= {"goal"}
    status = json.loads(runner.invoke(app, ["status", "--json", "--root", str(root)]).stdout)
    mae = next(m for m in status["missions"] if m["id"] == "mae-normalized-pixel")
    assert all(t["witness"]["ok"] for t in mae["targets"])


def test_cli_names_the_failing_target_instance_and_amount(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from missions.witnesses import mae_normalized_pixel as module

    goal = next(c for c in module.CLAIMS if c.target == "goal")
    monkeypatch.setattr(goal, "checks", goal.wrong["decoder predicts (1, -1)"])
    root = copy_repo_workspace(tmp_path)
    result = CliRunner().invoke(app, ["witness", "mae-normalized-pixel", "--root", str(root)])
    assert result.exit_code == 1
    assert "mae-normalized-pixel/goal: expected masked loss: 8 == 0 fails by 8" in result.stdout
