"""The witness engine where mutation testing found it unguarded (``benchmarks/mutation.py``):
how far a failing check is off, how the smallest detected change of a constant is found and
what a raising perturbation leaves behind, and the keys of ``missions witness --json``."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest

from missions.witness import (
    DECREASES,
    INCREASES,
    Check,
    Claim,
    Constant,
    ConstantSensitivity,
    Context,
    Failure,
    Result,
    constant_sensitivity,
    result_json,
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
