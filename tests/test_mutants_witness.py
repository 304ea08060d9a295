"""The witness engine where mutation testing found it unguarded (``benchmarks/mutation.py``):
how far a failing check is off, how the smallest detected change of a constant is found and
what a raising perturbation leaves behind, the keys of ``missions witness --json``, what
``status`` keeps of a run and the line ``show`` prints."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from missions.cache import cache_dir_for
from missions.errors import InputError
from missions.witness import (
    DECREASES,
    INCREASES,
    RESULTS_FILE,
    Check,
    Claim,
    Constant,
    ConstantSensitivity,
    Context,
    Failure,
    HypothesisEvidence,
    NonVacuity,
    NonVacuityResult,
    Result,
    Structural,
    constant_sensitivity,
    describe_entry,
    hyp,
    load_claims,
    load_results,
    outcome,
    result_json,
    run_claim,
    save_results,
    saved_summary,
    source_digest,
    stale_reason,
    witness_entry,
    witness_targets,
)


@pytest.mark.parametrize(
    ("relation", "excess"),
    [
        # lhs 5, rhs 3, slack 0.5: how far the check is from holding (positive: fails)
        ("<=", 1.5),
        ("<", 1.5),
        (">=", -2.5),
        (">", -2.5),
        ("==", 1.5),
        ("!=", -1.5),
    ],
)
def test_the_excess_of_a_check_in_each_direction(relation: str, excess: float) -> None:
    assert Check("c", 5, relation, 3, 0.5).excess() == excess  # type: ignore[arg-type]
    assert (
        Check("c", 3, relation, 5, 0.5).excess()
        == {
            "<=": -2.5,
            "<": -2.5,
            ">=": 1.5,
            ">": 1.5,
            "==": 1.5,
            "!=": -1.5,
        }[relation]
    )  # type: ignore[arg-type]


def bound_claim(tight: Fraction, fails_from: Fraction | None = None) -> Claim:
    """A claim ``x ≤ c`` with ``c`` the constant 100 and ``x = tight × 100``: shrinking ``c``
    below ``x`` is caught. ``fails_from``: at or above that factor the witness raises."""

    def checks(ctx: Context, c: Fraction = Fraction(100)) -> Iterator[Check]:
        assert ctx.size(1, 2) == 1  # the context the sensitivity run was given
        if fails_from is not None and c >= 100 * fails_from:
            raise ValueError("out of range")
        yield Check("x <= c", tight * 100, "<=", c)

    return Claim("t", "S", checks, constants=(Constant("c", Fraction(100), "c=100"),))


@pytest.mark.parametrize(
    ("tight", "down"),
    [
        (Fraction(999, 1000), 0.01),  # the first step down, -1%, is caught
        (Fraction(95, 100), 0.1),  # -5% is not (95 ≤ 95), -10% is
        (Fraction(1, 2), 0.9),  # only ÷10 and beyond
        (Fraction(1, 1000), None),  # not even ÷100
    ],
)
def test_the_smallest_decrease_caught_is_found_on_the_ladder(
    tight: Fraction, down: float | None
) -> None:
    found = constant_sensitivity(bound_claim(tight), bound_claim(tight).constants[0], Context())
    assert (found.detects_decrease_at, found.detects_increase_at) == (down, None)
    assert found.errors == []
    assert (found.constant, found.name, found.value) == ("c=100", "c", 100.0)


def test_a_perturbation_that_raises_is_an_error_not_a_catch() -> None:
    claim = bound_claim(Fraction(1, 2), fails_from=Fraction(2))
    found = constant_sensitivity(claim, claim.constants[0], Context())
    assert found.detects_increase_at is None
    # the largest step (×100) is tried first; it raised, so nothing counts as caught
    assert found.errors == ["×100: witness raised ValueError: out of range"]
    assert [float(1 + s) for s in INCREASES][-1] == 100 and len(DECREASES) == 8


def test_a_constant_that_is_a_float_is_scaled_as_a_float() -> None:
    def checks(ctx: Context, c: float = 100.0) -> Iterator[Check]:
        assert isinstance(c, float)
        yield Check("50 <= c", 50.0, "<=", c)

    claim = Claim("t", "S", checks, constants=(Constant("c", 100.0),))
    found = constant_sensitivity(claim, claim.constants[0], Context())
    assert (found.detects_decrease_at, found.errors) == (0.9, [])


def test_the_json_of_a_result_has_every_documented_key() -> None:
    result = Result(
        "m/t",
        "Formal.S",
        False,
        3,
        [Failure("x <= c", 2.0, "<=", 1.0, 1.0)],
        0.25,
        sensitivity=[ConstantSensitivity("c=1", "c", 1.0, 0.1, None, ["e"], "")],
    )
    data = result_json(result)
    assert data == {
        "target": "m/t",
        "statement": "Formal.S",
        "ok": False,
        "checks": 3,
        "failures": [{"label": "x <= c", "lhs": 2.0, "relation": "<=", "rhs": 1.0, "excess": 1.0}],
        "seconds": 0.25,
        "error": None,
        "nonvacuous": "unknown",
        "nonvacuity": None,
        "sensitivity": {
            "c=1": {
                "param": "c",
                "value": 1.0,
                "detects_decrease_at": 0.1,
                "detects_increase_at": None,
                "errors": ["e"],
                "loose": None,
            }
        },
        "flip": {},
        "notes": "",
    }
    loose = ConstantSensitivity("c=1", "c", 1.0, None, None, [], "an upper bound")
    assert result_json(Result("m/t", "S", True, 1, [], 0.0, sensitivity=[loose]))["sensitivity"][
        "c=1"
    ]["loose"] == ("an upper bound")


def test_what_status_keeps_of_a_run() -> None:
    result = Result(
        "m/t",
        "S",
        True,
        4,
        [],
        0.1,
        error="e",
        sensitivity=[ConstantSensitivity("c=1", "c", 1.0, 0.05, 9.0)],
        flips={"claim": "caught"},
    )
    assert saved_summary(result, "quick") == {
        "ok": True,
        "checks": 4,
        "budget": "quick",
        "error": "e",
        "nonvacuous": "unknown",
        "instance": None,
        "nonvacuity_reason": None,
        "sensitivity": {"c=1": [0.05, 9.0]},
        "flip": {"claim": "caught"},
    }
    result.nonvacuity = NonVacuityResult(True, "inst", "every hypothesis holds")
    summary = saved_summary(result, "full")
    assert (summary["nonvacuous"], summary["instance"], summary["nonvacuity_reason"]) == (
        True,
        "inst",
        "every hypothesis holds",
    )


#: A witness module that exists, so its sources have a digest.
MODULE = "missions.witnesses.alethean_checksum"


def mission_with(
    stamp: str | None, pin: str | None, kind: str = "goal", source: str | None = "current"
) -> tuple[Any, Any]:
    """A mission linking :data:`MODULE`; ``source`` is the recorded digest of the witness
    sources (``"current"``: today's)."""
    target = SimpleNamespace(witness=MODULE, kind=kind)
    lean = SimpleNamespace(statement_pin=pin, witness_stamp=stamp, witness_source=None)
    mission = SimpleNamespace(targets=[target], lean=lean)
    lean.witness_source = source_digest(mission) if source == "current" else source
    return mission, target


def test_the_witness_object_of_status() -> None:
    mission, target = mission_with("sha256:a", "sha256:a")
    assert witness_entry(mission, target, None) == {
        "ok": None,
        "checks": 0,
        "budget": None,
        "ran": False,
        "nonvacuous": "unknown",
        "stale": False,
        "stamp": "sha256:a",
        "module": MODULE,
    }
    saved = {"ok": False, "checks": 3, "budget": "full", "nonvacuous": True}
    entry = witness_entry(*mission_with("sha256:a", "sha256:b"), saved)
    assert entry is not None
    assert (entry["ok"], entry["checks"], entry["ran"], entry["nonvacuous"], entry["stale"]) == (
        False,
        3,
        True,
        True,
        True,
    )
    assert witness_entry(*mission_with(None, None, kind="external"), saved) is None
    no_witness = SimpleNamespace(witness=None, kind="goal")
    assert witness_entry(mission, no_witness, saved) is None


@pytest.mark.parametrize(
    ("entry", "line"),
    [
        ({"module": "W"}, "witness W: not run; non-vacuous: unknown"),
        ({"module": "W", "ok": True, "nonvacuous": True}, "witness W: pass; non-vacuous: yes"),
        ({"module": "W", "ok": False, "nonvacuous": False}, "witness W: FAIL; non-vacuous: no"),
        (
            {"module": "W", "ok": True, "stale": True, "nonvacuous": "unknown"},
            "witness W: stale (not stamped at the current statement pin); non-vacuous: unknown",
        ),
        (
            {
                "module": "W",
                "ok": True,
                "nonvacuous": True,
                "instance": "n = 3",
                "sensitivity": {"c=18": [0.05, 1.0], "d": [0.9, None], "e": [0.99, 0.5]},
            },
            "witness W: pass; non-vacuous: yes (instance: n = 3); smallest change caught: "
            "c=18 ↓5% ↑×2, d ↓÷10 ↑–, e ↓÷100 ↑50%",
        ),
        ({"ok": True, "sensitivity": {}}, "witness : pass; non-vacuous: unknown"),
    ],
)
def test_the_one_line_show_prints(entry: dict[str, Any], line: str) -> None:
    assert describe_entry(entry) == line


def test_results_that_are_not_a_mapping_are_forgotten(tmp_path: Path) -> None:
    root = str(tmp_path)
    save_results(root, {"m/t": {"ok": True}})
    save_results(root, {"m/u": {"ok": False}})
    assert load_results(root) == {"m/t": {"ok": True}, "m/u": {"ok": False}}
    path = Path(cache_dir_for(root)) / RESULTS_FILE
    path.write_text("[1, 2]", encoding="utf-8")
    assert load_results(root) == {}
    path.write_text("{broken", encoding="utf-8")
    assert load_results(root) == {}


def build_pair(ctx: Context, a: int, b: int) -> tuple[int, int]:
    return (a, b)


def toy_claim(
    *,
    hypotheses: tuple[str, ...] = ("0 < a", "0 < b"),
    values: tuple[int, int] = (1, 2),
    extra: tuple[Check | Structural, ...] = (),
    use_instance: bool = True,
) -> Claim:
    """``a + b > a`` on the instance (a, b), with hypotheses ``0 < a`` and ``0 < b``."""

    def checks(ctx: Context) -> Iterator[Check]:
        a, b = ctx.instance(build_pair, *values) if use_instance else values
        yield Check("a + b > a", a + b, ">", a, clause="sum")
        yield Check("b >= 0", b, ">=", 0, clause="sign")

    def evidence(ctx: Context, pair: tuple[int, int]) -> Iterator[Check | Structural]:
        a, b = pair
        yield hyp("0 < a", a, ">", 0)
        yield hyp("0 < b", b, ">", 0, detail="b")
        yield from extra

    nonvacuity = NonVacuity(
        hypotheses=hypotheses,
        build=build_pair,
        args=values,
        evidence=evidence,
        describe=lambda pair: f"a={pair[0]}, b={pair[1]}",
    )
    return Claim("m/t", "S", checks, nonvacuity=nonvacuity)


@pytest.mark.parametrize(
    ("claim", "lean", "nonvacuous", "reason", "instance"),
    [
        (toy_claim(), None, True, "every hypothesis holds on the instance (2 checks)", "a=1, b=2"),
        (
            toy_claim(extra=(Structural("0 < b", "by construction"),)),
            None,
            True,
            "every hypothesis holds on the instance (2 checks, instance binders by construction)",
            "a=1, b=2",
        ),
        (
            toy_claim(values=(-1, -2)),
            None,
            False,
            "the instance violates 0 < a; 0 < b [b]",
            "a=-1, b=-2",
        ),
        (
            toy_claim(),
            ["0 < a", "0 < c"],
            "unknown",
            "Lean hypotheses the witness does not declare: 0 < c. "
            "declared hypotheses not in the Lean statement: 0 < b",
            "a=1, b=2",
        ),
        (
            toy_claim(hypotheses=("0 < a", "0 < b", "a < 9", "b < 9")),
            None,
            "unknown",
            "hypotheses without evidence: a < 9; b < 9",
            "a=1, b=2",
        ),
        (
            toy_claim(extra=(Check("stray", 1, "<", 2), Check("other", 1, "<", 2))),
            None,
            "unknown",
            "checks labelled with no declared hypothesis: stray; other",
            "a=1, b=2",
        ),
        (
            toy_claim(use_instance=False),
            None,
            "unknown",
            "the instance is not one the claim's checks used "
            "(they must obtain it through ctx.instance)",
            None,
        ),
        (
            Claim("m/t", "S", toy_claim().checks),
            None,
            "unknown",
            "the witness gives no instance for the hypotheses",
            None,
        ),
        (
            Claim("m/t", "S", toy_claim().checks, nonvacuity=NonVacuity(reason="none")),
            None,
            True,
            "the statement has no hypotheses",
            "no hypotheses: none",
        ),
    ],
)
def test_what_non_vacuity_reports(
    claim: Claim, lean: list[str] | None, nonvacuous: object, reason: str, instance: str | None
) -> None:
    result = run_claim(claim, Context(), lean, measure=False).nonvacuity
    assert result is not None
    assert (result.nonvacuous, result.reason, result.instance) == (nonvacuous, reason, instance)


def test_a_non_vacuity_instance_that_raises_is_an_error() -> None:
    claim = toy_claim()
    assert claim.nonvacuity is not None

    def broken(pair: tuple[int, int]) -> str:
        raise ValueError("cannot describe")

    claim.nonvacuity.describe = broken
    result = run_claim(claim, Context(), measure=False).nonvacuity
    assert result is not None
    assert (result.nonvacuous, result.reason, result.error) == (
        "unknown",
        "evaluating the hypotheses raised",
        "witness raised ValueError: cannot describe",
    )


def test_a_run_measures_only_a_claim_that_holds_and_flips_each_clause() -> None:
    claim = toy_claim()
    claim.constants = (Constant("unused", 1),)
    measured = run_claim(claim, Context())
    assert measured.checks == 2 and measured.ok
    assert 0 <= measured.seconds < 60  # a duration, not a clock reading
    assert measured.flips == {"sum": "caught", "sign": "caught"}
    assert [s.name for s in measured.sensitivity] == ["unused"]
    assert run_claim(claim, Context(), measure=False).flips == {}
    failing = toy_claim(values=(1, -2))  # b >= 0 fails
    failing.constants = claim.constants
    result = run_claim(failing, Context())
    assert (result.ok, result.sensitivity, result.flips) == (False, [], {})


def test_a_source_without_checks_is_an_error_when_perturbed_too() -> None:
    assert outcome(lambda ctx: iter(()), Context()) == ("error", "the witness produced no checks")
    assert outcome(lambda ctx: iter([Check("x", 1, "<", 2)] * 3), Context()) == ("missed", "")


@pytest.mark.parametrize(
    ("stamp", "pin", "reason"),
    [
        ("sha256:" + "a" * 64, "sha256:" + "a" * 64, None),
        (None, None, None),
        (None, "sha256:" + "b" * 64, "the witnesses were never stamped against the statement pin"),
        (
            "sha256:" + "a" * 64,
            "sha256:" + "b" * 64,
            "the witnesses were stamped at sha256:aaaaaaaaaaaa…; "
            "the statements are pinned at sha256:bbbbbbbbbbbb…",
        ),
    ],
)
def test_why_witnesses_are_stale(stamp: str | None, pin: str | None, reason: str | None) -> None:
    mission, _ = mission_with(stamp, pin)
    assert stale_reason(mission) == reason
    if reason is None and pin is not None:  # stamped at the pin: the sources decide
        assert stale_reason(mission_with(stamp, pin, source=None)[0]) == (
            "the stamp does not record which witness sources were reviewed"
        )
        other = "sha256:" + "c" * 64
        assert stale_reason(mission_with(stamp, pin, source=other)[0]) == (
            "the witness sources changed since they were stamped"
        )
        gone = mission_with(stamp, pin)[0]
        gone.targets[0].witness = "missions.witnesses.no_such_module"
        assert stale_reason(gone) == "a witness module it links cannot be found"
    external = SimpleNamespace(witness="W", kind="external")
    mission.targets = [external]
    assert witness_targets(mission) == [] and stale_reason(mission) is None


def test_a_conjunction_checks_every_part_and_flags_a_part_without_an_instance() -> None:
    toy = toy_claim().nonvacuity
    assert toy is not None
    both = NonVacuity(parts={"PartA": NonVacuity(reason="trivial"), "PartB": toy})
    found = run_claim(Claim("m/t", "S", toy_claim().checks, nonvacuity=both), Context(), None)
    assert found.nonvacuity is not None
    assert (found.nonvacuity.nonvacuous, found.nonvacuity.instance) == (
        True,
        "PartA: no hypotheses: trivial; PartB: a=1, b=2",
    )
    unbuilt = NonVacuity(hypotheses=("0 < a",), evidence=toy.evidence)
    missing = run_claim(Claim("m/t", "S", toy_claim().checks, nonvacuity=unbuilt), Context())
    assert missing.nonvacuity is not None
    assert missing.nonvacuity.reason == "hypotheses declared but no instance to check them on"


def test_a_violation_names_at_most_three_failing_checks() -> None:
    extra = (hyp("0 < a", -1, ">", 0, detail="x"), hyp("0 < a", -1, ">", 0, detail="y"))
    found = run_claim(toy_claim(values=(-1, -2), extra=extra), Context(), measure=False)
    assert found.nonvacuity is not None
    assert found.nonvacuity.reason == "the instance violates 0 < a; 0 < b [b]; 0 < a [x]"


def test_each_clause_is_flipped_on_its_own() -> None:
    """Reversing ``5 ≤ 5`` alone changes nothing; only reversing everything at once would."""

    def checks(ctx: Context) -> Iterator[Check]:
        yield Check("strict", 2, ">", 1, clause="strict")
        yield Check("tight", 5, "<=", 5, clause="tight")

    result = run_claim(Claim("m/t", "S", checks), Context())
    assert result.flips == {"strict": "caught", "tight": "missed"}


def test_checks_that_hold_and_fail_at_their_edges() -> None:
    assert Check("c", 1, ">", 1.5, slack=1).holds()  # within the slack below
    assert not Check("c", 1, ">", 2.5, slack=1).holds()
    assert Check("c", 1, "!=", 2).holds() and not Check("c", 1, "!=", 1).holds()
    assert not Check("c", 1, "<=", float("nan")).holds()  # a NaN fails; it does not raise


def test_the_budget_sizes_and_the_seeded_streams() -> None:
    assert (Context().size(1, 2), Context(budget="full").size(1, 2)) == (1, 2)
    first, again = Context().rng().random(3), Context().rng(0).random(3)
    assert list(first) == list(again)  # stream 0 by default, and the same seed each time
    assert list(Context().rng(1).random(3)) != list(first)


def test_evidence_records_each_checks_numbers_and_each_structural_reason() -> None:
    claim = toy_claim(extra=(Structural("0 < b", "by construction"),))
    found = run_claim(claim, Context(), measure=False).nonvacuity
    assert found is not None
    assert found.evidence == [
        HypothesisEvidence("0 < a", "0 < a", True, 1.0, ">", 0.0, 0.0),
        HypothesisEvidence("0 < b", "0 < b [b]", True, 2.0, ">", 0.0, 0.0),
        HypothesisEvidence("0 < b", "0 < b", None, reason="by construction"),
    ]


@pytest.mark.parametrize(
    ("lean", "reason"),
    [
        (
            ["0 < a", "0 < b", "0 < c", "0 < d"],
            "Lean hypotheses the witness does not declare: 0 < c; 0 < d",
        ),
        ([], "declared hypotheses not in the Lean statement: 0 < a; 0 < b"),
    ],
)
def test_every_difference_from_the_lean_hypotheses_is_listed(lean: list[str], reason: str) -> None:
    found = run_claim(toy_claim(), Context(), lean, measure=False).nonvacuity
    assert found is not None and found.reason == reason


def test_the_smallest_change_is_found_when_only_the_largest_step_is_caught() -> None:
    claim = bound_claim(Fraction(1, 50))  # x = 2 ≤ c: only c ÷ 100 = 1 catches it
    found = constant_sensitivity(claim, claim.constants[0], Context())
    assert found.detects_decrease_at == 0.99


def test_a_loose_constant_keeps_its_reason() -> None:
    claim = bound_claim(Fraction(1, 1000))
    loose = Constant("c", Fraction(100), "c=100", loose="far from tight on every instance")
    assert constant_sensitivity(claim, loose, Context()).loose == loose.loose


@pytest.mark.parametrize(
    ("module", "message"),
    [
        ("os", "witness module 'os' is outside missions.witnesses"),
        ("missions.witnesses.nowhere", "cannot import witness missions.witnesses.nowhere: "),
        ("missions.witnesses", "missions.witnesses defines no CLAIMS list"),
    ],
)
def test_a_witness_module_that_cannot_serve_is_one_problem(module: str, message: str) -> None:
    if module == "missions.witnesses":
        module = "missions.witnesses.__init__"  # a module of the package with no CLAIMS
        message = f"{module} defines no CLAIMS list"
    with pytest.raises(InputError) as refused:
        load_claims(module)
    [problem] = refused.value.problems
    assert (problem.path, problem.line) == ("witness", 1)
    assert problem.message.startswith(message)
