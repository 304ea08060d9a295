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
    DECREASES,
    INCREASES,
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
    hypothesis_evidence,
    load_claims,
    load_results,
    outcome,
    run_claim,
    variant_outcome,
    violated,
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


# ---------------------------------------------------------------- the bundled witnesses


@pytest.mark.parametrize(("mission", "target", "module", "statement"), LINKED, ids=IDS)
def test_every_target_links_a_witness_claim(
    mission: str, target: str, module: str | None, statement: str | None
) -> None:
    assert module is not None, f"{mission}/{target} has no witness"
    assert target in load_claims(module)


@pytest.mark.parametrize(("mission", "target", "module", "statement"), LINKED, ids=IDS)
def test_claim_holds_and_is_nonvacuous(
    mission: str, target: str, module: str | None, statement: str | None
) -> None:
    assert statement is not None
    lean = lean_hypotheses(statement)
    assert lean is not None, f"cannot read the hypotheses of {statement}"
    result = run_claim(claim_of(module, target), quick_context(), lean, measure=False)
    assert result.error is None, result.error
    assert result.ok and result.checks > 0, result.failures[:3]
    nv = result.nonvacuity
    assert nv is not None
    assert nv.nonvacuous is True, (nv.reason, nv.lean_missing, nv.lean_extra, nv.uncovered)


@pytest.mark.parametrize(("mission", "target", "module", "statement"), LINKED, ids=IDS)
def test_declared_hypotheses_are_the_lean_statements(
    mission: str, target: str, module: str | None, statement: str | None
) -> None:
    claim = claim_of(module, target)
    assert claim.nonvacuity is not None, f"{mission}/{target} gives no non-vacuity instance"
    assert statement is not None
    assert sorted(claim.nonvacuity.all_hypotheses()) == sorted(lean_hypotheses(statement) or [])
    if not claim.nonvacuity.all_hypotheses():
        assert claim.nonvacuity.reason, "a statement without hypotheses says why"


@pytest.mark.parametrize(("mission", "target", "module", "statement"), LINKED, ids=IDS)
def test_wrong_variants_fail_through_a_check(
    mission: str, target: str, module: str | None, statement: str | None
) -> None:
    claim = claim_of(module, target)
    assert claim.wrong, f"{mission}/{target} has no deliberately wrong variant"
    for name in claim.wrong:
        verdict, detail = variant_outcome(claim, name, Context())
        assert verdict == "caught", f"variant {name!r}: {verdict} {detail}"


def _parts(nonvacuity: NonVacuity) -> dict[str, NonVacuity]:
    return dict(nonvacuity.parts) or {"": nonvacuity}


@pytest.mark.parametrize(("mission", "target", "module", "statement"), LINKED, ids=IDS)
def test_an_instance_violating_each_hypothesis_is_rejected(
    mission: str, target: str, module: str | None, statement: str | None
) -> None:
    """Contradictory hypothesis sets: the instance patched to violate one hypothesis at a time
    must fail that hypothesis's check (a crash does not count)."""
    claim = claim_of(module, target)
    assert claim.nonvacuity is not None
    for prefix, part in _parts(claim.nonvacuity).items():
        if not part.hypotheses:
            continue
        context = Context()
        assert part.build is not None
        evidence = hypothesis_evidence(part, context, part.build(context, *part.args))
        structural = {e.hypothesis for e in evidence if e.holds is None}
        for hypothesis in structural:
            assert hypothesis.startswith("["), f"only instance binders are structural: {hypothesis}"
        for hypothesis in part.hypotheses:
            if hypothesis in structural:
                continue
            assert hypothesis in part.violations, f"{prefix}{hypothesis}: no violating instance"
            broken = violated(part, hypothesis, context)
            rejected = [
                e
                for e in hypothesis_evidence(part, context, broken)
                if e.hypothesis == hypothesis and e.holds is False
            ]
            assert rejected, f"{prefix}{hypothesis}: the violating instance passes its checks"


@pytest.mark.parametrize(("mission", "target", "module", "statement"), LINKED, ids=IDS)
def test_no_constant_is_decorative_and_every_inequality_flip_is_caught(
    mission: str, target: str, module: str | None, statement: str | None
) -> None:
    """A constant of the claim must matter: ÷100 or ×100 of it is caught by a check. Reversing
    any inequality of the claim is caught too. (Full figures: ``missions witness --json``.)"""
    claim = claim_of(module, target)
    context = quick_context()
    clauses: dict[str, None] = {}
    for check in claim.checks(context):
        if check.relation in ("<=", "<", ">=", ">"):
            clauses.setdefault(check.clause, None)
    for constant in claim.constants:
        verdicts = [
            outcome(_scaled_source(claim, constant, factor), context)
            for factor in (1 - DECREASES[-1], 1 + INCREASES[-1])
        ]
        assert all(v != "error" for v, _ in verdicts), verdicts
        if constant.loose:
            continue  # documented: no instance the hypotheses allow can pin it down
        assert any(v == "caught" for v, _ in verdicts), f"{constant.title} changes nothing"
    if not claim.constants:
        assert claim.notes, "a claim without constants says why"
    flips = flip_outcomes(claim, context, clauses)
    assert all(v == "caught" for v in flips.values()), flips


def _scaled_source(claim: Claim, constant: Constant, factor: Fraction) -> Any:
    value = constant.value
    scaled = (
        Fraction(value) * factor if isinstance(value, int | Fraction) else value * float(factor)
    )
    return lambda ctx: claim.checks(ctx, **{constant.name: scaled})


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
