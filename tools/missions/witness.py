"""Executable witnesses: check each target's claim on concrete numbers before anyone proves it.

A mistranscribed statement (a flipped inequality, a wrong constant, a dropped hypothesis)
can survive until a proof attempt fails months later. A witness evaluates the claim, as the
mission records it, on concrete instances: exact ``Fraction`` arithmetic where the claim is
finite, seeded Monte Carlo with an explicit error allowance where it is not. Every witness
also carries deliberately wrong variants of its claim (the inequality flipped, a constant
changed); the test suite checks that each variant is caught, so a witness that cannot fail
does not count.

A witness module (``missions.witnesses.<name>``) defines ``CLAIMS``: a list of
:class:`Claim`, one per target id. Targets link to their module in the YAML
(``witness: missions.witnesses.<name>``).
"""

from __future__ import annotations

import importlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Literal

from missions.cache import cache_dir_for
from missions.errors import InputError

Relation = Literal["<=", "<", "==", ">=", ">", "!="]
Number = float | int | Fraction
Budget = Literal["quick", "full"]


@dataclass(frozen=True)
class Check:
    """One instance of a claim: ``lhs RELATION rhs``, with ``slack`` allowed in its favour.

    ``slack`` is for Monte Carlo estimates (a few standard errors); exact checks use 0.
    For ``==`` the two sides may differ by at most ``slack``.
    """

    label: str
    lhs: Number
    relation: Relation
    rhs: Number
    slack: float = 0.0

    def difference(self) -> Fraction | float:
        """``lhs - rhs``, exact when both sides are rational."""
        if isinstance(self.lhs, int | Fraction) and isinstance(self.rhs, int | Fraction):
            return Fraction(self.lhs) - Fraction(self.rhs)
        return float(self.lhs) - float(self.rhs)

    def holds(self) -> bool:
        diff, slack = self.difference(), self.slack
        if self.relation == "<=":
            return bool(diff <= slack)
        if self.relation == "<":
            return bool(diff < slack)
        if self.relation == ">=":
            return bool(diff >= -slack)
        if self.relation == ">":
            return bool(diff > -slack)
        within = bool(-slack <= diff <= slack)
        return within if self.relation == "==" else not within  # "!=" otherwise

    def excess(self) -> float:
        """By how much the check fails (positive) or holds (non-positive), in lhs units."""
        lhs, rhs = float(self.lhs), float(self.rhs)
        if self.relation in ("<=", "<"):
            return lhs - rhs - self.slack
        if self.relation in (">=", ">"):
            return rhs - lhs - self.slack
        if self.relation == "==":
            return abs(lhs - rhs) - self.slack
        return self.slack - abs(lhs - rhs)


@dataclass
class Context:
    """What a witness may depend on: the budget and a seeded generator (numpy, lazily)."""

    budget: Budget = "quick"
    seed: int = 20261130

    def size(self, quick: int, full: int) -> int:
        return quick if self.budget == "quick" else full

    def rng(self, stream: int = 0):  # type: ignore[no-untyped-def]  # numpy.random.Generator
        import numpy as np

        return np.random.default_rng([self.seed, stream])


CheckSource = Callable[[Context], Iterable[Check]]


@dataclass
class Claim:
    """The claim of one target, as checks on instances, plus variants that must fail."""

    target: str
    statement: str
    checks: CheckSource
    wrong: dict[str, CheckSource] = field(default_factory=dict)


@dataclass
class Failure:
    label: str
    lhs: float
    relation: str
    rhs: float
    excess: float


@dataclass
class Result:
    target: str
    statement: str
    ok: bool
    checks: int
    failures: list[Failure]
    seconds: float


def evaluate(source: CheckSource, context: Context, target: str, statement: str) -> Result:
    started = time.perf_counter()
    failures: list[Failure] = []
    count = 0
    try:
        for check in source(context):
            count += 1
            if not check.holds():
                failures.append(
                    Failure(
                        check.label,
                        float(check.lhs),
                        check.relation,
                        float(check.rhs),
                        check.excess(),
                    )
                )
    except Exception as exc:  # a witness that crashes has not shown the claim holds
        failures.append(Failure(f"witness raised {type(exc).__name__}: {exc}", 0.0, "?", 0.0, 0.0))
    ok = count > 0 and not failures
    return Result(target, statement, ok, count, failures, time.perf_counter() - started)


def load_claims(module: str) -> dict[str, Claim]:
    if not module.startswith("missions.witnesses."):
        raise InputError.single(
            "witness", 1, f"witness module {module!r} is outside missions.witnesses"
        )
    try:
        loaded = importlib.import_module(module)
    except ImportError as exc:
        raise InputError.single("witness", 1, f"cannot import witness {module}: {exc}") from None
    claims = getattr(loaded, "CLAIMS", None)
    if not isinstance(claims, list):
        raise InputError.single("witness", 1, f"{module} defines no CLAIMS list")
    return {claim.target: claim for claim in claims}


def run_claims(claims: Iterable[Claim], context: Context) -> Iterator[Result]:
    for claim in claims:
        yield evaluate(claim.checks, context, claim.target, claim.statement)


RESULTS_FILE = "witness-results.json"


def save_results(root: str, results: dict[str, dict[str, object]]) -> None:
    """Remember the last run per ``mission/target`` so ``status`` can show a witness column."""
    path = os.path.join(cache_dir_for(root), RESULTS_FILE)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        known = load_results(root)
        known.update(results)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(known, handle)
        os.replace(tmp, path)
    except OSError:
        pass


def load_results(root: str) -> dict[str, dict[str, object]]:
    try:
        with open(os.path.join(cache_dir_for(root), RESULTS_FILE), encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def result_json(result: Result) -> dict[str, object]:
    return asdict(result)
