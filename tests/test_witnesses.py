"""Witnesses: every target has one; every claim holds on the quick budget; every wrong variant,
applied to the claim's own check source, fails through a check; every non-vacuity instance
satisfies exactly the hypotheses its Lean statement has, and a violation of each is rejected;
no named constant is decorative. The engine's own rules are tested on synthetic claims."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import REPO, copy_repo_workspace
from missions.catalog import load_catalog
from missions.cli import app
from missions.html import write_dashboard
from missions.lean.premises import workspace_hypotheses
from missions.lean.workspace import load_workspace
from missions.witness import (
    Check,
    Claim,
    Constant,
    Context,
    NonVacuity,
    Structural,
    constant_sensitivity,
    evaluate,
    evaluate_nonvacuity,
    flip_outcomes,
    hyp,
    load_claims,
    load_results,
    outcome,
    review_claim,
    run_claim,
    variant_outcome,
    witness_targets,
)

CATALOG = load_catalog(REPO, use_cache=False)
LINKED = [
    (f.mission.id, t.id, t.witness, t.statement)
    for f in CATALOG.files
    for t in f.mission.targets
    if t.kind != "external"
]
IDS = [f"{m}/{t}" for m, t, _, _ in LINKED]


def claim_of(module: str | None, target: str) -> Claim:
    assert module is not None
    return load_claims(module)[target]


@cache
def lean_hypotheses(statement: str) -> list[str] | None:
    return workspace_hypotheses(load_workspace(REPO, use_cache=False), statement)


@cache
def quick_context() -> Context:
    """One context for the whole module: claims share their simulations, as in the CLI."""
    return Context()


# ---------------------------------------------------------------- the linked witnesses


@pytest.mark.slow
@pytest.mark.parametrize(("mission", "target", "module", "statement"), LINKED, ids=IDS)
def test_every_linked_claim_stands_the_review_its_stamp_certifies(
    mission: str, target: str, module: str | None, statement: str | None
) -> None:
    """What ``missions witness --stamp`` checks before it stamps (:func:`review_claim`); the
    gate's ``witness-stale`` makes the stamp current, so this holds wherever the gate does.
    Whether every target *has* a witness is the gate's ``witness-missing`` (policy)."""
    assert statement is not None
    problems = review_claim(claim_of(module, target), lean_hypotheses(statement), quick_context())
    assert problems == [], problems


# ---------------------------------------------------------------- the review's own rules


def _reviewed(claim: Claim, lean: list[str] | None = None) -> list[str]:
    return review_claim(claim, lean if lean is not None else ["0 < x"], Context())


def _good(**changes: Any) -> Claim:
    """A claim that stands review: x·c ≤ 3 on x = 1 with c = 2 (a constant that matters), a
    wrong variant, and a non-vacuity instance with its violation."""

    def checks(
        ctx: Context, c: float = 2.0, bound: float = 3.0, unused: float = 5.0
    ) -> Iterator[Check]:
        p = ctx.instance(point, 1.0)
        yield Check("x·c ≤ bound", p.x * c, "<=", bound)

    def positive(ctx: Context, p: Point) -> Iterator[Check | Structural]:
        yield hyp("0 < x", 0.0, "<", p.x)

    base: dict[str, Any] = {
        "target": "t",
        "statement": "s",
        "checks": checks,
        "wrong": {"bound 1": {"bound": 1.0}},
        "nonvacuity": NonVacuity(("0 < x",), point, (1.0,), positive, {"0 < x": {"x": -1.0}}),
        "constants": (Constant("c", 2.0, "the factor c"),),
    }
    return Claim(**{**base, **changes})


def test_a_good_claim_stands_review() -> None:
    assert _reviewed(_good()) == []


@pytest.mark.parametrize(
    ("changes", "lean", "expected"),
    [
        ({"wrong": {}}, None, "no deliberately wrong variant"),
        ({"wrong": {"c 2": {"c": 2.0}}}, None, "wrong variant 'c 2' is missed"),
        ({"nonvacuity": None}, None, "no non-vacuity instance"),
        ({}, ["0 < x", "x < 3"], "are not the Lean statement's"),
        ({"constants": ()}, None, "a claim without constants must say why"),
        ({"constants": (Constant("unused", 5.0, "an unused constant"),)}, None, "changes nothing"),
    ],
)
def test_the_review_refuses_what_a_stamp_must_not_certify(
    changes: dict[str, Any], lean: list[str] | None, expected: str
) -> None:
    problems = _reviewed(_good(**changes), lean)
    assert any(expected in p for p in problems), problems


def test_the_review_refuses_a_violation_the_evidence_accepts() -> None:
    claim = _good()
    assert claim.nonvacuity is not None
    lenient = replace(claim.nonvacuity, violations={"0 < x": {"x": 2.0}})
    problems = _reviewed(replace(claim, nonvacuity=lenient))
    assert any("the violating instance passes its checks" in p for p in problems), problems


def test_the_review_refuses_a_claim_that_does_not_hold() -> None:
    claim = _good(constants=(), notes="no constant")

    def wrong(ctx: Context, **params: Any) -> Iterator[Check]:
        yield Check("false", 3, "<=", 2)

    problems = _reviewed(replace(claim, checks=wrong))
    assert any("does not hold" in p for p in problems), problems


# ---------------------------------------------------------------- the engine's rules


def test_a_crashing_claim_is_an_error_not_a_failure() -> None:
    def crash(ctx: Context) -> Iterator[Check]:
        yield Check("fine", 1, "<=", 2)
        raise ZeroDivisionError("boom")

    result = evaluate(crash, Context(), "t", "s")
    assert not result.ok and result.failures == [] and result.checks == 1
    assert result.error == "witness raised ZeroDivisionError: boom"
    verdict, detail = outcome(crash, Context())
    assert verdict == "error" and "boom" in detail


def test_an_empty_claim_shows_nothing() -> None:
    result = evaluate(lambda ctx: iter(()), Context(), "t", "s")
    assert not result.ok and result.error == "the witness produced no checks"
    assert outcome(lambda ctx: iter(()), Context())[0] == "error"


def test_a_crashing_variant_is_not_caught() -> None:
    def checks(ctx: Context, c: float = 1.0) -> Iterator[Check]:
        if c != 1.0:
            raise ValueError("not implemented")
        yield Check("c ≤ 1", c, "<=", 1.0)

    claim = Claim("t", "s", checks, {"c → 2": {"c": 2.0}})
    assert variant_outcome(claim, "c → 2", Context())[0] == "error"


def test_a_claim_hollowed_out_to_a_tautology_misses_its_variants() -> None:
    """Variants are overrides of the claim's own check source: if the source stops using its
    parameters, the variants stop failing (and the bundled test above fails)."""

    def tautology(ctx: Context, **params: Any) -> Iterator[Check]:
        yield Check("1 = 1", 1, "==", 1)

    claim = Claim("t", "s", tautology, {"constant changed": {"c": 0.5}})
    assert variant_outcome(claim, "constant changed", Context()) == ("missed", "")


@dataclass
class Point:
    x: float

    def __str__(self) -> str:
        return f"x = {self.x}"


def point(ctx: Context, x: float) -> Point:
    return Point(x)


def sign_evidence(ctx: Context, p: Point) -> Iterator[Check]:
    yield hyp("0 < x", 0.0, "<", p.x)
    yield hyp("x < 0", p.x, "<", 0.0)


def uses_point(x: float) -> Any:
    def checks(ctx: Context) -> Iterator[Check]:
        p = ctx.instance(point, x)
        yield Check("x = x", p.x, "==", p.x)

    return checks


@pytest.mark.parametrize("x", [1.0, -1.0, 0.0])
def test_contradictory_hypotheses_are_rejected_on_every_instance(x: float) -> None:
    nonvacuity = NonVacuity(("0 < x", "x < 0"), point, (x,), sign_evidence)
    claim = Claim("t", "s", uses_point(x), nonvacuity=nonvacuity)
    result = run_claim(claim, Context(), ["0 < x", "x < 0"], measure=False)
    assert result.ok
    assert result.nonvacuity is not None and result.nonvacuity.nonvacuous is False


def test_nonvacuity_needs_the_instance_the_checks_used() -> None:
    nonvacuity = NonVacuity(("0 < x",), point, (2.0,), lambda ctx, p: sign_evidence(ctx, p))
    claim = Claim("t", "s", uses_point(1.0), nonvacuity=nonvacuity)
    nv = run_claim(claim, Context(), measure=False).nonvacuity
    assert nv is not None and nv.nonvacuous == "unknown"
    assert "not one the claim's checks used" in nv.reason


def positive_only(ctx: Context, p: Point) -> Iterator[Check | Structural]:
    yield hyp("0 < x", 0.0, "<", p.x, detail="the one point")
    yield Structural("[Nonempty X]", "X = ℝ")


def test_nonvacuity_against_the_lean_hypotheses() -> None:
    nonvacuity = NonVacuity(("[Nonempty X]", "0 < x"), point, (1.0,), positive_only)
    claim = Claim("t", "s", uses_point(1.0), nonvacuity=nonvacuity)
    context = Context()
    run_claim(claim, context, measure=False)
    shown = evaluate_nonvacuity(claim, context, ["[Nonempty X]", "0 < x"])
    assert shown.nonvacuous is True and shown.instance == "x = 1.0"
    assert [e.holds for e in shown.evidence] == [True, None]
    gap = evaluate_nonvacuity(claim, context, ["[Nonempty X]", "0 < x", "x < 2"])
    assert gap.nonvacuous == "unknown" and gap.lean_missing == ["x < 2"]
    extra = evaluate_nonvacuity(claim, context, ["0 < x"])
    assert extra.nonvacuous == "unknown" and extra.lean_extra == ["[Nonempty X]"]


def test_evidence_for_an_undeclared_hypothesis_leaves_nonvacuity_unknown() -> None:
    nonvacuity = NonVacuity(("0 < x",), point, (1.0,), sign_evidence)  # also yields "x < 0"
    claim = Claim("t", "s", uses_point(1.0), nonvacuity=nonvacuity)
    nv = run_claim(claim, Context(), measure=False).nonvacuity
    assert nv is not None and nv.nonvacuous == "unknown" and nv.undeclared == ["x < 0"]


def test_a_statement_without_hypotheses_is_trivially_nonvacuous_with_its_reason() -> None:
    claim = Claim("t", "s", uses_point(1.0), nonvacuity=NonVacuity(reason="a closed statement"))
    nv = run_claim(claim, Context(), [], measure=False).nonvacuity
    assert nv is not None and nv.nonvacuous is True and "a closed statement" in (nv.instance or "")


def test_no_nonvacuity_instance_is_unknown() -> None:
    nv = run_claim(Claim("t", "s", uses_point(1.0)), Context(), measure=False).nonvacuity
    assert nv is not None and nv.nonvacuous == "unknown"


def test_sensitivity_finds_the_smallest_detected_change_on_the_ladder() -> None:
    """lhs = 1 ≤ C·x with C = 1, x = 1.1: a decrease of C by 10% is the first caught (0.99 <
    1), 5% is not (1.045); no increase of an upper bound is caught; the flip is caught."""

    def checks(ctx: Context, c: float = 1.0) -> Iterator[Check]:
        yield Check("1 ≤ C·1.1", 1.0, "<=", c * 1.1)

    claim = Claim("t", "s", checks, constants=(Constant("c", 1.0, "C"),))
    found = constant_sensitivity(claim, claim.constants[0], Context())
    assert (found.detects_decrease_at, found.detects_increase_at) == (0.1, None)
    assert flip_outcomes(claim, Context(), [""]) == {"claim": "caught"}
    exact = Claim("t", "s", lambda ctx, c=Fraction(1): [Check("C = 1", c, "==", 1)])
    both = constant_sensitivity(exact, Constant("c", Fraction(1)), Context())
    assert (both.detects_decrease_at, both.detects_increase_at) == (0.01, 0.01)


def test_a_raising_perturbation_is_reported_not_counted() -> None:
    def checks(ctx: Context, c: float = 1.0) -> Iterator[Check]:
        if c < 0.5:
            raise ValueError("c too small")
        yield Check("1 ≤ 2C", 1.0, "<=", 2 * c)

    found = constant_sensitivity(Claim("t", "s", checks), Constant("c", 1.0), Context())
    assert found.detects_decrease_at is None and found.errors


# ---------------------------------------------------------------- the CLI, status, stamps


def test_cli_reports_nonvacuity_sensitivity_and_stale_and_status_shows_them(
    tmp_path: Path,
) -> None:
    root = copy_repo_workspace(tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, ["witness", "mae-normalized-pixel", "--json", "--root", str(root)])
    assert result.exit_code == 0, result.stdout
    data = json.loads(result.stdout)
    assert data["ok"]
    mission = CATALOG.get("mae-normalized-pixel").mission
    linked = {t.id for t in mission.targets if t.witness}
    assert {r["target"] for r in data["results"]} == linked
    for entry in data["results"]:
        assert entry["nonvacuous"] is True and entry["nonvacuity"]["instance"]
        assert entry["stale"] == (mission.lean.witness_stamp != mission.lean.statement_pin)
        for s in entry["sensitivity"].values():
            assert {"detects_decrease_at", "detects_increase_at", "value", "errors"} <= set(s)
    status = json.loads(runner.invoke(app, ["status", "--json", "--root", str(root)]).stdout)
    mae = next(m for m in status["missions"] if m["id"] == "mae-normalized-pixel")
    for target in mae["targets"]:
        witness = target["witness"]
        assert witness["ok"] and witness["nonvacuous"] is True and witness["ran"]
        assert {"stale", "stamp", "checks", "budget", "instance"} <= set(witness)


def test_status_shows_unknown_nonvacuity_before_any_run(tmp_path: Path) -> None:
    root = copy_repo_workspace(tmp_path)
    status = json.loads(CliRunner().invoke(app, ["status", "--json", "--root", str(root)]).stdout)
    for mission in status["missions"]:
        for target in mission["targets"]:
            if target["witness"] is not None:
                assert target["witness"]["ok"] is None
                assert target["witness"]["nonvacuous"] == "unknown"


def _set_stamp(root: Path, mission_id: str, stamp: str | None) -> None:
    path = root / "missions" / f"{mission_id}.yaml"
    lines = [
        line
        for line in path.read_text(encoding="utf-8").splitlines()
        if not line.strip().startswith("witness_stamp:")
    ]
    if stamp is not None:
        at = next(i for i, line in enumerate(lines) if line.strip().startswith("statement_pin:"))
        lines.insert(at + 1, f"  witness_stamp: {stamp}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _check(root: Path) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["check", "--json", "--root", str(root)])
    return dict(json.loads(result.stdout))


def test_stamp_then_moved_pin_makes_the_witnesses_stale(tmp_path: Path) -> None:
    root = copy_repo_workspace(tmp_path)
    mission = "mae-normalized-pixel"
    _set_stamp(root, mission, None)
    stale = [v for v in _check(root)["violations"] if v["rule"] == "witness-stale"]
    assert any(v["mission"] == mission and "--stamp" in v["message"] for v in stale)
    runner = CliRunner()
    stamped = runner.invoke(app, ["witness", "--stamp", mission, "--root", str(root)])
    assert stamped.exit_code == 0, stamped.stdout
    pin = load_catalog(root, use_cache=False).get(mission).mission.lean.statement_pin
    assert load_catalog(root, use_cache=False).get(mission).mission.lean.witness_stamp == pin
    assert not [
        v
        for v in _check(root)["violations"]
        if v["rule"] == "witness-stale" and v["mission"] == mission
    ]
    # the statement changes and is re-pinned with a reason: the witness is stale again
    statements = root / "Formal" / "MAE" / "Statements.lean"
    text = statements.read_text(encoding="utf-8")
    statements.write_text(text.replace("expectedMaskedLoss = 0 ∧", "expectedMaskedLoss ≤ 0 ∧"))
    repin = runner.invoke(app, ["pin", mission, "--reason", "test", "--root", str(root)])
    assert repin.exit_code == 0, repin.stdout
    gate = _check(root)
    assert not gate["ok"]
    assert next(v for v in gate["violations"] if v["rule"] == "witness-stale")["mission"] == mission
    status = json.loads(runner.invoke(app, ["status", "--json", "--root", str(root)]).stdout)
    entry = next(m for m in status["missions"] if m["id"] == mission)
    assert all(t["witness"]["stale"] for t in entry["targets"] if t["witness"])


def test_stamp_refuses_a_statement_changed_since_its_pin(tmp_path: Path) -> None:
    root = copy_repo_workspace(tmp_path)
    mission = "mae-normalized-pixel"
    statements = root / "Formal" / "MAE" / "Statements.lean"
    statements.write_text(
        statements.read_text(encoding="utf-8").replace("0 < patchStd p0", "0 ≤ patchStd p0")
    )
    path = root / "missions" / f"{mission}.yaml"
    before = path.read_text(encoding="utf-8")
    result = CliRunner().invoke(app, ["witness", "--stamp", mission, "--root", str(root)])
    assert result.exit_code == 2
    assert "changed since they were pinned" in result.stderr
    assert path.read_text(encoding="utf-8") == before


def test_stamp_refuses_failing_witnesses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from missions.witnesses import mae_normalized_pixel as module

    goal = next(c for c in module.CLAIMS if c.target == "goal")
    monkeypatch.setattr(goal, "checks", lambda ctx, **kw: module.goal(ctx, leak=True))
    root = copy_repo_workspace(tmp_path)
    mission = "mae-normalized-pixel"
    path = root / "missions" / f"{mission}.yaml"
    before = path.read_text(encoding="utf-8")
    result = CliRunner().invoke(app, ["witness", "--stamp", mission, "--root", str(root)])
    assert result.exit_code == 1
    assert path.read_text(encoding="utf-8") == before


def test_cli_names_the_failing_target_instance_and_amount(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from missions.witnesses import mae_normalized_pixel as module

    goal = next(c for c in module.CLAIMS if c.target == "goal")
    wrong = dict(goal.wrong["decoder predicts (1, -1)"])
    monkeypatch.setattr(goal, "checks", lambda ctx, **kw: module.goal(ctx, **{**wrong, **kw}))
    root = copy_repo_workspace(tmp_path)
    result = CliRunner().invoke(app, ["witness", "mae-normalized-pixel", "--root", str(root)])
    assert result.exit_code == 1
    assert "mae-normalized-pixel/goal: expected masked loss: 8 == 0 fails by 8" in result.stdout


def test_cli_fails_when_the_nonvacuity_instance_violates_a_hypothesis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from missions.witnesses import mae_normalized_pixel as module

    claim = next(c for c in module.CLAIMS if c.target == "masked-loss-zero")
    assert claim.nonvacuity is not None
    broken = replace(
        claim.nonvacuity, evidence=lambda ctx, m: iter([hyp(module.VISIBLE, 0, "==", 1)])
    )
    monkeypatch.setattr(claim, "nonvacuity", broken)
    root = copy_repo_workspace(tmp_path)
    result = CliRunner().invoke(app, ["witness", "mae-normalized-pixel", "--root", str(root)])
    assert result.exit_code == 1
    assert "masked-loss-zero: not shown non-vacuous" in result.stdout


def test_dashboard_and_show_display_nonvacuity_stale_and_sensitivity(tmp_path: Path) -> None:
    from missions.gate import run_gate
    from missions.status import analyze

    root = copy_repo_workspace(tmp_path)
    mission = "tennis-best-of"
    _set_stamp(root, mission, None)
    runner = CliRunner()
    assert runner.invoke(app, ["witness", mission, "--root", str(root)]).exit_code == 0
    shown = runner.invoke(app, ["show", mission, "--root", str(root)])
    assert "non-vacuous: yes" in shown.stdout and "stale" in shown.stdout
    catalog = load_catalog(root, use_cache=False)
    analysis = analyze(catalog, load_workspace(root, use_cache=False), None)
    saved = load_results(str(root))
    write_dashboard(analysis, run_gate(analysis), tmp_path / "site", witnesses=saved)
    page = (tmp_path / "site" / f"{mission}.html").read_text(encoding="utf-8")
    assert "non-vacuous: yes" in page and "witness: stale" in page
    assert "smallest change caught" in page


def test_the_witness_view_keeps_ids_whole_and_ends_with_the_tally(tmp_path: Path) -> None:
    """One line per claim, ``mission/target`` whole; the last line says how many pass and
    names the targets with no witness (which used to be skipped silently)."""
    root = copy_repo_workspace(tmp_path)
    files = load_catalog(root, use_cache=False).files
    smallest = min(
        (f for f in files if len(witness_targets(f.mission)) > 1),
        key=lambda f: len(witness_targets(f.mission)),
    )
    mission = smallest.mission.id
    text = smallest.path.read_text(encoding="utf-8")
    unlinked = witness_targets(smallest.mission)[0].id
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.strip() == f"- id: {unlinked}")
    drop = next(i for i in range(start + 1, len(lines)) if lines[i].strip().startswith("witness:"))
    del lines[drop]
    smallest.path.write_text("".join(lines), encoding="utf-8")
    result = CliRunner().invoke(app, ["witness", mission, "--no-sensitivity", "--root", str(root)])
    assert result.exit_code == 0, result.stdout
    out = result.stdout.splitlines()
    linked = [t.id for t in witness_targets(smallest.mission) if t.id != unlinked]
    assert [line.split()[0] for line in out[: len(linked)]] == [f"{mission}/{t}" for t in linked]
    assert out[-1] == (
        f"{len(linked)} of {len(linked)} claim{'s' if len(linked) > 1 else ''} pass "
        f"(quick budget); 1 target has no witness: {mission}/{unlinked}"
    )
