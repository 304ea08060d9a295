"""Executable witnesses: check each target's claim on concrete numbers before anyone proves it.

A mistranscribed statement (a flipped inequality, a wrong constant, a dropped hypothesis)
can survive until a proof attempt fails months later. A witness evaluates the claim, as the
mission records it, on concrete instances: exact ``Fraction`` arithmetic where the claim is
finite, seeded Monte Carlo with an explicit error allowance where it is not.

A witness module (``missions.witnesses.<name>``) defines ``CLAIMS``: a list of :class:`Claim`,
one per target id; targets link to their module in the YAML
(``witness: missions.witnesses.<name>``). A claim carries four kinds of evidence, each one able
to fail:

* its **checks** (``Claim.checks(ctx, **params)``), the claim itself on the instances;
* **wrong variants**: overrides of the check source's parameters (a constant changed, the
  relation flipped, a hypothesis dropped) under which the *same* check source must fail through
  a check (not by raising), so a claim hollowed out to a tautology is caught;
* **non-vacuity** (:class:`NonVacuity`): one instance, built through :meth:`Context.instance`
  and used by the checks, checked against every hypothesis of the Lean statement (labelled as
  Lean writes it), so that the claim is not true merely because its hypotheses contradict;
* **sensitivity**: the named constants of the claim (:class:`Constant`) are rescaled
  ``×(1 ± ε)`` along a fixed ladder, and every inequality is flipped, to measure the smallest
  change the checks detect.

Each mission records the statement pin its witnesses were reviewed against
(``lean.witness_stamp`` in its YAML, written by ``missions witness --stamp ID``); when the
statement pin moves, the witnesses are ``stale`` until someone reviews them against the
changed statement and stamps them again.
"""

from __future__ import annotations

import copy
import importlib
import json
import os
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

from missions.cache import WITNESS_RESULTS_FILE, cache_dir_for
from missions.errors import InputError

Relation = Literal["<=", "<", "==", ">=", ">", "!="]
Number = float | int | Fraction
Budget = Literal["quick", "full"]
Outcome = Literal["caught", "missed", "error"]
Nonvacuous = bool | Literal["unknown"]

INEQUALITIES: dict[str, Relation] = {"<=": ">=", "<": ">", ">=": "<=", ">": "<"}


@dataclass(frozen=True)
class Check:
    """One instance of a claim: ``lhs RELATION rhs``, with ``slack`` allowed in its favour.

    ``slack`` is for Monte Carlo estimates (a few standard errors) and rounding; exact checks
    use 0. For ``==`` the two sides may differ by at most ``slack``. ``clause`` names the
    inequality of the claim a check belongs to, when a claim has several (each is flipped on
    its own when the witness's strength is measured).
    """

    label: str
    lhs: Number
    relation: Relation
    rhs: Number
    slack: float = 0.0
    clause: str = ""

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

    def flipped(self) -> Check:
        """The inequality reversed (``<=`` becomes ``>=``), same slack; equalities unchanged."""
        if self.relation not in INEQUALITIES:
            return self
        return Check(
            self.label, self.lhs, INEQUALITIES[self.relation], self.rhs, self.slack, self.clause
        )


@dataclass(frozen=True)
class Structural:
    """A hypothesis met by how the instance is built (an instance binder such as
    ``[IsProbabilityMeasure P]``, or a fact of the construction), with the reason why.

    Only instance binders may be discharged this way; every other hypothesis needs a check.
    """

    hypothesis: str
    reason: str


def hyp(
    hypothesis: str,
    lhs: Number,
    relation: Relation,
    rhs: Number,
    slack: float = 0.0,
    detail: str = "",
) -> Check:
    """A check of one hypothesis of the Lean statement, labelled as Lean writes it
    (``detail`` says which part or which points, in brackets after the hypothesis)."""
    label = f"{hypothesis} [{detail}]" if detail else hypothesis
    return Check(label, lhs, relation, rhs, slack)


def hypothesis_of(label: str, hypotheses: Iterable[str]) -> str | None:
    """The hypothesis a check label belongs to: the label itself or ``"<hypothesis> [...]"``."""
    for hypothesis in hypotheses:
        if label == hypothesis or label.startswith(hypothesis + " ["):
            return hypothesis
    return None


@dataclass
class Context:
    """What a witness may depend on: the budget, a seeded generator (numpy, lazily) and the
    instances built so far (shared by a claim's checks and its non-vacuity evidence)."""

    budget: Budget = "quick"
    seed: int = 20261130
    _instances: dict[Hashable, Any] = field(default_factory=dict, repr=False, compare=False)
    _used: set[Hashable] = field(default_factory=set, repr=False, compare=False)

    def size(self, quick: int, full: int) -> int:
        return quick if self.budget == "quick" else full

    def rng(self, stream: int = 0):  # type: ignore[no-untyped-def]  # numpy.random.Generator
        import numpy as np

        return np.random.default_rng([self.seed, stream])

    def instance(self, build: Callable[..., Any], *args: Hashable) -> Any:
        """``build(self, *args)``, built once per context and remembered as used by the claim
        being evaluated (its non-vacuity evidence must be about an instance the checks used)."""
        key = (build, args)
        self._used.add(key)
        if key not in self._instances:
            self._instances[key] = build(self, *args)
        return self._instances[key]


CheckSource = Callable[..., Iterable[Check]]
Evidence = Callable[[Context, Any], Iterable["Check | Structural"]]
Patch = Mapping[str, Any] | Callable[[Any], Any]


@dataclass(frozen=True)
class Constant:
    """A number the statement states (``18`` in ``18τ²η²Lζ²``): ``name`` is the keyword
    parameter of the claim's check source through which it enters every check.

    ``loose`` says, for a constant no instance can pin down (an upper bound that is far from
    tight on every instance the hypotheses allow), why: without it a constant whose change by
    ÷100 or ×100 goes unnoticed is a defect of the witness.
    """

    name: str
    value: Number
    label: str = ""
    loose: str = ""

    @property
    def title(self) -> str:
        return self.label or f"{self.name}={self.value}"


@dataclass
class NonVacuity:
    """One instance on which every hypothesis of the Lean statement is checked.

    ``hypotheses`` are the statement's hypotheses as Lean writes them (instance binders
    included; compared with the Lean source by the tests and by ``missions witness``).
    ``build(ctx, *args)`` makes the instance; the claim's checks must obtain it through
    ``ctx.instance(build, *args)`` so both kinds of evidence see the same object.
    ``evidence(ctx, instance)`` yields, per hypothesis, checks labelled with it (see
    :func:`hyp`) or a :class:`Structural` reason for instance binders. ``violations`` map
    each checked hypothesis to a patch (attribute values, or a function of the instance) that
    makes the instance violate it; the tests require the evidence to reject every one.
    A statement without hypotheses has ``hypotheses=()`` and a ``reason``. A conjunction of
    other statements (``Goal := PartA ∧ PartB``) has one part per conjunct, keyed by the Lean
    name; its hypotheses are the parts', prefixed ``"PartA: "``.
    """

    hypotheses: tuple[str, ...] = ()
    build: Callable[..., Any] | None = None
    args: tuple[Hashable, ...] = ()
    evidence: Evidence | None = None
    violations: Mapping[str, Patch] = field(default_factory=dict)
    describe: Callable[[Any], str] = str
    reason: str = ""
    parts: Mapping[str, NonVacuity] = field(default_factory=dict)

    def all_hypotheses(self) -> list[str]:
        if self.parts:
            return [f"{name}: {h}" for name, part in self.parts.items() for h in part.hypotheses]
        return list(self.hypotheses)

    def key(self) -> Hashable:
        return (self.build, self.args)


@dataclass
class Claim:
    """The claim of one target: checks on instances, wrong variants (parameter overrides of
    the same check source that must fail), the non-vacuity instance and the named constants."""

    target: str
    statement: str
    checks: CheckSource
    wrong: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    nonvacuity: NonVacuity | None = None
    constants: tuple[Constant, ...] = ()
    notes: str = ""


@dataclass
class Failure:
    label: str
    lhs: float
    relation: str
    rhs: float
    excess: float


@dataclass
class HypothesisEvidence:
    hypothesis: str
    label: str
    holds: bool | None  # None: met by construction (see ``reason``)
    lhs: float | None = None
    relation: str | None = None
    rhs: float | None = None
    slack: float | None = None
    reason: str | None = None


@dataclass
class NonVacuityResult:
    """``nonvacuous``: ``True`` when one instance satisfies every hypothesis of the Lean
    statement (each checked); ``False`` when the instance violates one; ``"unknown"`` when the
    evidence is missing, incomplete, crashed or not about an instance the checks used."""

    nonvacuous: Nonvacuous
    instance: str | None
    reason: str
    evidence: list[HypothesisEvidence] = field(default_factory=list)
    uncovered: list[str] = field(default_factory=list)
    undeclared: list[str] = field(default_factory=list)
    lean_missing: list[str] = field(default_factory=list)
    lean_extra: list[str] = field(default_factory=list)
    error: str | None = None


@dataclass
class ConstantSensitivity:
    """The smallest relative change of a constant the checks detect, down and up (``None``:
    not detected anywhere on the ladder, up to ÷100 and ×100)."""

    constant: str
    name: str
    value: float
    detects_decrease_at: float | None
    detects_increase_at: float | None
    errors: list[str] = field(default_factory=list)
    loose: str = ""


@dataclass
class Result:
    target: str
    statement: str
    ok: bool
    checks: int
    failures: list[Failure]
    seconds: float
    error: str | None = None
    nonvacuity: NonVacuityResult | None = None
    sensitivity: list[ConstantSensitivity] = field(default_factory=list)
    flips: dict[str, Outcome] = field(default_factory=dict)
    notes: str = ""


def _failure(check: Check) -> Failure:
    return Failure(check.label, float(check.lhs), check.relation, float(check.rhs), check.excess())


def _raised(exc: Exception) -> str:
    return f"witness raised {type(exc).__name__}: {exc}"


def evaluate(
    source: Callable[[Context], Iterable[Check]], context: Context, target: str, statement: str
) -> Result:
    """Run every check of ``source``. A crash is an error, not a failed check, and so is a
    source that yields no check at all: neither has shown anything about the claim."""
    started = time.perf_counter()
    failures: list[Failure] = []
    count = 0
    error: str | None = None
    try:
        for check in source(context):
            count += 1
            if not check.holds():
                failures.append(_failure(check))
    except Exception as exc:  # a witness that crashes has not shown the claim holds
        error = _raised(exc)
    if error is None and count == 0:
        error = "the witness produced no checks"
    ok = error is None and not failures
    return Result(target, statement, ok, count, failures, time.perf_counter() - started, error)


def outcome(source: Callable[[Context], Iterable[Check]], context: Context) -> tuple[Outcome, str]:
    """Whether a check of ``source`` fails (stopping at the first), with the failing label.

    ``error`` when the source raises or yields nothing: a perturbation only counts as caught
    when a check returns False."""
    count = 0
    try:
        for check in source(context):
            count += 1
            if not check.holds():
                return "caught", check.label
    except Exception as exc:
        return "error", _raised(exc)
    if count == 0:
        return "error", "the witness produced no checks"
    return "missed", ""


def variant_outcome(claim: Claim, name: str, context: Context) -> tuple[Outcome, str]:
    """Run the claim's own check source with the wrong variant's parameter overrides."""
    overrides = dict(claim.wrong[name])
    return outcome(lambda ctx: claim.checks(ctx, **overrides), context)


# ---------------------------------------------------------------- non-vacuity


def _apply_patch(instance: Any, patch: Patch) -> Any:
    if callable(patch):
        return patch(instance)
    changed = copy.copy(instance)
    for key, value in patch.items():
        setattr(changed, key, value)
    return changed


def violated(nonvacuity: NonVacuity, hypothesis: str, context: Context) -> Any:
    """The non-vacuity instance patched to violate ``hypothesis`` (built afresh, not shared)."""
    assert nonvacuity.build is not None
    instance = nonvacuity.build(context, *nonvacuity.args)
    return _apply_patch(instance, nonvacuity.violations[hypothesis])


def hypothesis_evidence(
    nonvacuity: NonVacuity, context: Context, instance: Any, prefix: str = ""
) -> list[HypothesisEvidence]:
    """The evidence items of ``instance``, each mapped to its hypothesis (raises on a crash)."""
    assert nonvacuity.evidence is not None
    items: list[HypothesisEvidence] = []
    for item in nonvacuity.evidence(context, instance):
        if isinstance(item, Structural):
            items.append(
                HypothesisEvidence(
                    prefix + item.hypothesis, prefix + item.hypothesis, None, reason=item.reason
                )
            )
            continue
        owner = hypothesis_of(item.label, nonvacuity.hypotheses)
        items.append(
            HypothesisEvidence(
                prefix + owner if owner is not None else "",
                prefix + item.label,
                item.holds(),
                float(item.lhs),
                item.relation,
                float(item.rhs),
                item.slack,
            )
        )
    return items


def evaluate_nonvacuity(
    claim: Claim, context: Context, lean_hypotheses: list[str] | None = None
) -> NonVacuityResult:
    """Check the claim's non-vacuity instance against every hypothesis.

    ``lean_hypotheses`` (read from the Lean statement) are compared with the hypotheses the
    witness declares; any difference leaves non-vacuity ``unknown``. Call after the claim's
    checks ran in ``context`` (the instance must be one they used)."""
    nonvacuity = claim.nonvacuity
    if nonvacuity is None:
        return NonVacuityResult("unknown", None, "the witness gives no instance for the hypotheses")
    declared = nonvacuity.all_hypotheses()
    result = NonVacuityResult("unknown", None, "")
    if lean_hypotheses is not None:
        result.lean_missing = [h for h in lean_hypotheses if h not in declared]
        result.lean_extra = [h for h in declared if h not in lean_hypotheses]
    parts = dict(nonvacuity.parts) or {"": nonvacuity}
    descriptions: list[str] = []
    for name, part in parts.items():
        prefix = f"{name}: " if name else ""
        if not part.hypotheses:
            descriptions.append(f"{prefix}no hypotheses: {part.reason}".strip())
            continue
        if part.build is None or part.evidence is None:
            result.reason = f"{prefix}hypotheses declared but no instance to check them on"
            return result
        if part.key() not in context._used:
            result.reason = (
                f"{prefix}the instance is not one the claim's checks used "
                "(they must obtain it through ctx.instance)"
            )
            return result
        instance = context._instances[part.key()]
        try:
            descriptions.append(prefix + part.describe(instance))
            result.evidence.extend(hypothesis_evidence(part, context, instance, prefix))
        except Exception as exc:
            result.error = _raised(exc)
            result.reason = f"{prefix}evaluating the hypotheses raised"
            return result
    result.instance = "; ".join(descriptions)
    covered = {e.hypothesis for e in result.evidence}
    result.uncovered = [h for h in declared if h not in covered]
    result.undeclared = [e.label for e in result.evidence if not e.hypothesis]
    failing = [e.label for e in result.evidence if e.hypothesis and e.holds is False]
    if failing:
        result.nonvacuous = False
        result.reason = "the instance violates " + "; ".join(failing[:3])
    elif result.uncovered or result.undeclared or result.lean_missing or result.lean_extra:
        gaps = []
        if result.lean_missing:
            gaps.append(
                "Lean hypotheses the witness does not declare: " + "; ".join(result.lean_missing)
            )
        if result.lean_extra:
            gaps.append(
                "declared hypotheses not in the Lean statement: " + "; ".join(result.lean_extra)
            )
        if result.uncovered:
            gaps.append("hypotheses without evidence: " + "; ".join(result.uncovered))
        if result.undeclared:
            gaps.append(
                "checks labelled with no declared hypothesis: " + "; ".join(result.undeclared)
            )
        result.reason = ". ".join(gaps)
    else:
        result.nonvacuous = True
        checked = sum(e.holds is not None for e in result.evidence)
        result.reason = (
            f"every hypothesis holds on the instance ({checked} checks"
            f"{', instance binders by construction' if checked < len(result.evidence) else ''})"
            if declared
            else "the statement has no hypotheses"
        )
    return result


# ---------------------------------------------------------------- sensitivity

#: Relative changes tried, smallest first: 1% ... 50%, then ÷10, ÷100 (down) and ×2, ×10,
#: ×100 (up).
DECREASES = tuple(
    Fraction(n, d)
    for n, d in ((1, 100), (1, 50), (1, 20), (1, 10), (1, 5), (1, 2), (9, 10), (99, 100))
)
INCREASES = tuple(
    Fraction(n, d)
    for n, d in ((1, 100), (1, 50), (1, 20), (1, 10), (1, 5), (1, 2), (1, 1), (9, 1), (99, 1))
)


def _scaled(value: Number, factor: Fraction) -> Number:
    if isinstance(value, int | Fraction):
        return Fraction(value) * factor
    return float(value) * float(factor)


def _smallest_detected(
    claim: Claim,
    constant: Constant,
    context: Context,
    ladder: tuple[Fraction, ...],
    sign: int,
    errors: list[str],
) -> float | None:
    """Bisect the ladder for the smallest change caught (detection grows with the change)."""

    def caught(step: Fraction) -> bool:
        value = _scaled(constant.value, 1 + sign * step)
        params = {constant.name: value}
        verdict, detail = outcome(lambda ctx: claim.checks(ctx, **params), context)
        if verdict == "error":
            errors.append(f"×{float(1 + sign * step):g}: {detail}")
        return verdict == "caught"

    if not caught(ladder[-1]):
        return None
    low, high = -1, len(ladder) - 1  # ladder[high] is caught; everything up to low is not
    while high - low > 1:
        middle = (low + high) // 2
        if caught(ladder[middle]):
            high = middle
        else:
            low = middle
    return float(ladder[high])


def constant_sensitivity(claim: Claim, constant: Constant, context: Context) -> ConstantSensitivity:
    errors: list[str] = []
    down = _smallest_detected(claim, constant, context, DECREASES, -1, errors)
    up = _smallest_detected(claim, constant, context, INCREASES, 1, errors)
    return ConstantSensitivity(
        constant.title, constant.name, float(constant.value), down, up, errors, constant.loose
    )


def flip_outcomes(claim: Claim, context: Context, clauses: Iterable[str]) -> dict[str, Outcome]:
    """Per clause: does reversing its inequalities (``≤`` to ``≥``, ``<`` to ``>``) fail?"""
    found: dict[str, Outcome] = {}
    for clause in clauses:

        def source(ctx: Context, clause: str = clause) -> Iterator[Check]:
            for check in claim.checks(ctx):
                yield check.flipped() if check.clause == clause else check

        found[clause or "claim"] = outcome(source, context)[0]
    return found


def run_claim(
    claim: Claim,
    context: Context,
    lean_hypotheses: list[str] | None = None,
    *,
    measure: bool = True,
) -> Result:
    """Everything ``missions witness`` reports for one claim: its checks, its non-vacuity
    evidence and (with ``measure``, when the claim holds) its sensitivity."""
    context._used.clear()
    clauses: dict[str, None] = {}

    def recorded(ctx: Context) -> Iterator[Check]:
        for check in claim.checks(ctx):
            if check.relation in INEQUALITIES:
                clauses.setdefault(check.clause, None)
            yield check

    result = evaluate(recorded, context, claim.target, claim.statement)
    result.notes = claim.notes
    result.nonvacuity = evaluate_nonvacuity(claim, context, lean_hypotheses)
    if measure and result.ok:
        result.sensitivity = [constant_sensitivity(claim, c, context) for c in claim.constants]
        result.flips = flip_outcomes(claim, context, clauses)
    return result


def witness_passed(result: Result) -> bool:
    """The claim holds and its non-vacuity instance does not violate a hypothesis or crash
    (non-vacuity that is merely unknown does not fail a run)."""
    nv = result.nonvacuity
    return result.ok and (nv is None or (nv.nonvacuous is not False and nv.error is None))


# ---------------------------------------------------------------- loading and results


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


RESULTS_FILE = WITNESS_RESULTS_FILE


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
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def sensitivity_json(result: Result) -> dict[str, dict[str, Any]]:
    return {
        s.constant: {
            "param": s.name,
            "value": s.value,
            "detects_decrease_at": s.detects_decrease_at,
            "detects_increase_at": s.detects_increase_at,
            "errors": s.errors,
            "loose": s.loose or None,
        }
        for s in result.sensitivity
    }


def result_json(result: Result) -> dict[str, object]:
    """One claim's result for ``missions witness --json`` (the older keys first)."""
    data: dict[str, Any] = {
        "target": result.target,
        "statement": result.statement,
        "ok": result.ok,
        "checks": result.checks,
        "failures": [asdict(f) for f in result.failures],
        "seconds": result.seconds,
        "error": result.error,
    }
    nv = result.nonvacuity
    data["nonvacuous"] = nv.nonvacuous if nv is not None else "unknown"
    data["nonvacuity"] = asdict(nv) if nv is not None else None
    data["sensitivity"] = sensitivity_json(result)
    data["flip"] = result.flips
    data["notes"] = result.notes
    return data


def saved_summary(result: Result, budget: str) -> dict[str, object]:
    """What ``status`` and the dashboard show from the last run."""
    nv = result.nonvacuity
    return {
        "ok": result.ok,
        "checks": result.checks,
        "budget": budget,
        "error": result.error,
        "nonvacuous": nv.nonvacuous if nv is not None else "unknown",
        "instance": nv.instance if nv is not None else None,
        "nonvacuity_reason": nv.reason if nv is not None else None,
        "sensitivity": {
            s.constant: [s.detects_decrease_at, s.detects_increase_at] for s in result.sensitivity
        },
        "flip": result.flips,
    }


# ---------------------------------------------------------------- stamps


def witness_targets(mission: Any) -> list[Any]:
    """The mission's targets that link a witness (``mission`` is a catalog ``Mission``)."""
    return [t for t in mission.targets if t.witness is not None and t.kind != "external"]


def review_claim(claim: Claim, lean: list[str] | None, context: Context) -> list[str]:
    """Why the claim does not stand review (empty: it does). What a stamp certifies:

    - it holds on the budget, with at least one check, and is non-vacuous;
    - its non-vacuity instance declares exactly the Lean statement's hypotheses (a statement
      without hypotheses says why);
    - it has deliberately wrong variants, and each fails through a check;
    - an instance violating each (non-structural) hypothesis fails that hypothesis's check;
    - every constant matters (÷100 or ×100 is caught, unless documented as loose; a claim
      without constants says why), and reversing any inequality is caught.
    """
    problems: list[str] = []
    result = run_claim(claim, context, lean, measure=False)
    if result.error is not None:
        return [f"the claim fails to run: {result.error}"]
    if not result.ok or result.checks == 0:
        first = result.failures[0].label if result.failures else "no checks"
        problems.append(f"the claim does not hold: {first}")
    nv = claim.nonvacuity
    if nv is None:
        return [*problems, "no non-vacuity instance"]
    if result.nonvacuity is None or result.nonvacuity.nonvacuous is not True:
        reason = result.nonvacuity.reason if result.nonvacuity else "not established"
        problems.append(f"not shown non-vacuous: {reason}")
    if lean is None:
        problems.append("the Lean statement's hypotheses cannot be read")
    elif sorted(nv.all_hypotheses()) != sorted(lean):
        problems.append(
            f"declared hypotheses {sorted(nv.all_hypotheses())} are not the Lean statement's "
            f"{sorted(lean)}"
        )
    if not nv.all_hypotheses() and not nv.reason:
        problems.append("a statement without hypotheses must say why")
    if not claim.wrong:
        problems.append("no deliberately wrong variant")
    for name in claim.wrong:
        verdict, detail = variant_outcome(claim, name, Context(budget=context.budget))
        if verdict != "caught":
            problems.append(f"wrong variant {name!r} is {verdict} {detail}".rstrip())
    problems += _violations_rejected(nv, context)
    problems += _constants_matter(claim, context)
    return problems


def _violations_rejected(nonvacuity: NonVacuity, context: Context) -> list[str]:
    problems: list[str] = []
    parts = dict(nonvacuity.parts) or {"": nonvacuity}
    for prefix, part in parts.items():
        if not part.hypotheses:
            continue
        fresh = Context(budget=context.budget)
        if part.build is None:
            problems.append(f"{prefix}no instance is built")
            continue
        evidence = hypothesis_evidence(part, fresh, part.build(fresh, *part.args))
        structural = {e.hypothesis for e in evidence if e.holds is None}
        for hypothesis in part.hypotheses:
            if hypothesis in structural:
                if not hypothesis.startswith("["):
                    problems.append(f"{prefix}{hypothesis}: only instance binders are structural")
                continue
            if hypothesis not in part.violations:
                problems.append(f"{prefix}{hypothesis}: no violating instance")
                continue
            try:
                broken = violated(part, hypothesis, fresh)
                rejected = any(
                    e.hypothesis == hypothesis and e.holds is False
                    for e in hypothesis_evidence(part, fresh, broken)
                )
            except Exception as exc:  # a crash is not a rejection
                problems.append(f"{prefix}{hypothesis}: the violating instance crashes: {exc}")
                continue
            if not rejected:
                problems.append(f"{prefix}{hypothesis}: the violating instance passes its checks")
    return problems


def _scaled_checks(
    claim: Claim, constant: Constant, factor: Fraction
) -> Callable[[Context], Iterable[Check]]:
    """The claim's check source with one constant multiplied by ``factor``."""
    scaled = _scaled(constant.value, factor)
    return lambda ctx: claim.checks(ctx, **{constant.name: scaled})


def _constants_matter(claim: Claim, context: Context) -> list[str]:
    problems: list[str] = []
    clauses: dict[str, None] = {}
    for check in claim.checks(context):
        if check.relation in INEQUALITIES:
            clauses.setdefault(check.clause, None)
    for constant in claim.constants:
        verdicts = [
            outcome(_scaled_checks(claim, constant, factor), context)[0]
            for factor in (1 - DECREASES[-1], 1 + INCREASES[-1])
        ]
        if "error" in verdicts:
            problems.append(f"changing {constant.title} crashes the claim")
        elif not constant.loose and "caught" not in verdicts:
            problems.append(f"{constant.title} changes nothing (÷100 and ×100 are missed)")
    if not claim.constants and not claim.notes:
        problems.append("a claim without constants must say why")
    missed = [c for c, v in flip_outcomes(claim, context, clauses).items() if v != "caught"]
    if missed:
        problems.append(f"reversing the inequalities of {', '.join(missed)} is not caught")
    return problems


def module_origin(module: str) -> str | None:
    """The file ``import module`` would run (None: there is none)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    return None if spec is None else spec.origin


def witness_sources(mission: Any) -> list[str]:
    """What decides the source of every witness module the mission links: each module's file
    and the folder holding it (a package of the same name added beside it wins), or for a
    module that cannot be found, the folders of its nearest package that can (where it
    would appear)."""
    import importlib.util

    found: set[str] = set()
    for module in {t.witness for t in witness_targets(mission)}:
        origin = module_origin(module)
        if origin is not None:
            found.update((origin, os.path.dirname(origin)))
            continue
        parent = module
        while "." in parent:
            parent = parent.rsplit(".", 1)[0]
            try:
                spec = importlib.util.find_spec(parent)
            except (ImportError, ValueError):
                continue
            if spec is not None and spec.submodule_search_locations:
                found.update(spec.submodule_search_locations)
                break
    return sorted(found)


def source_digest(mission: Any) -> str | None:
    """``sha256:`` of the source of every witness module the mission links (None: one of them
    cannot be found). A stamp records it, so an edited witness is stale until reviewed."""
    import hashlib

    digest = hashlib.sha256()
    for module in sorted({t.witness for t in witness_targets(mission)}):
        origin = module_origin(module)
        if origin is None:
            return None
        try:
            data = Path(origin).read_bytes()
        except OSError:
            return None
        digest.update(module.encode() + b"\0" + data.replace(b"\r\n", b"\n") + b"\0")
    return "sha256:" + digest.hexdigest()


def linked_sources(missions: Iterable[Any]) -> list[str]:
    """:func:`witness_sources` of every mission: inputs of any answer that shows whether a
    witness is stale (found only once the YAML is read)."""
    return sorted({path for mission in missions for path in witness_sources(mission)})


def stale_reason(mission: Any) -> str | None:
    """Why the mission's witnesses are stale, or None: they were stamped at the current
    statement pin with today's witness sources (or the mission has no witness, or nothing is
    pinned yet)."""
    if not witness_targets(mission):
        return None
    pin, stamp = mission.lean.statement_pin, mission.lean.witness_stamp
    if pin is None:
        return None
    if stamp is None:
        return "the witnesses were never stamped against the statement pin"
    if stamp != pin:
        return (
            f"the witnesses were stamped at {stamp[:19]}…; the statements are pinned at {pin[:19]}…"
        )
    recorded, current = mission.lean.witness_source, source_digest(mission)
    if current is None:
        return "a witness module it links cannot be found"
    if recorded is None:
        return "the stamp does not record which witness sources were reviewed"
    if recorded != current:
        return "the witness sources changed since they were stamped"
    return None


def witness_entry(
    mission: Any, target: Any, saved: Mapping[str, Any] | None
) -> dict[str, Any] | None:
    """The ``witness`` object of a target in ``status --json``: the last run's result (``ok``
    is null when it never ran), whether it is stale, and its non-vacuity (``unknown`` without a
    run or an instance)."""
    if target.witness is None or target.kind == "external":
        return None
    entry: dict[str, Any] = {"ok": None, "checks": 0, "budget": None}
    if isinstance(saved, Mapping):
        entry.update(saved)
    entry["ran"] = isinstance(saved, Mapping)
    entry.setdefault("nonvacuous", "unknown")
    entry["stale"] = stale_reason(mission) is not None
    entry["stamp"] = mission.lean.witness_stamp
    entry["module"] = target.witness
    return entry


def describe_entry(entry: Mapping[str, Any]) -> str:
    """One line for ``show``: state, non-vacuity (with the instance) and the constants whose
    smallest detected change is known."""
    if entry.get("stale"):
        state = "stale (not stamped at the current statement pin)"
    elif entry.get("ok") is None:
        state = "not run"
    else:
        state = "pass" if entry.get("ok") else "FAIL"
    nonvacuous = entry.get("nonvacuous", "unknown")
    text = f"witness {entry.get('module', '')}: {state}; non-vacuous: " + (
        ("yes" if nonvacuous else "no") if isinstance(nonvacuous, bool) else "unknown"
    )
    if entry.get("instance"):
        text += f" (instance: {entry['instance']})"
    sensitivity = entry.get("sensitivity") or {}
    if sensitivity:
        caught = ", ".join(
            f"{name} ↓{_ratio(down, True)} ↑{_ratio(up, False)}"
            for name, (down, up) in sensitivity.items()
        )
        text += f"; smallest change caught: {caught}"
    return text


def _ratio(value: float | None, down: bool) -> str:
    if value is None:
        return "–"
    if down and value >= 0.9:
        return f"÷{1 / (1 - value):g}"
    if not down and value >= 1:
        return f"×{1 + value:g}"
    return f"{value * 100:g}%"
