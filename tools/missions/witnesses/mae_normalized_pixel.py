"""Witness for ``mae-normalized-pixel``: the example checked exactly, by enumeration.

Everything is finite and rational (the standard deviations are 1/4, exact square roots), so
every check is exact ``Fraction`` arithmetic; the classifier claim enumerates every
deterministic classifier of the representation.

Non-vacuity. ``NormalizedTargetsAgree`` has no hypothesis. The other statements quantify over
``V ∈ visibleSets``; the instance is the model with ``V = {0}``, and ``visibleSets`` is
recomputed from its Lean definition (``Finset.powersetCard 1 Finset.univ`` over ``Fin 2``), the
same list the claims iterate over, so an empty ``visibleSets`` would be reported.

Constants. The targets ``(-1, 1)`` of ``T_norm`` and the decoder's prediction ``(-1, 1)``
(``Defs.lean``) are exposed; every check is an exact equality, so a 1% change of either is
caught. ``NoSeparatingClassifier`` states no number (its strength is the leaking-encoder
variant).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product

from missions.witness import Check, Claim, Constant, Context, NonVacuity, hyp

F = Fraction
Patch = tuple[Fraction, Fraction]
Image = tuple[Patch, Patch]
P0: Patch = (F(0), F(1, 2))
P1: Patch = (F(1, 2), F(1))
IMAGES = ((P0, P0), (P1, P1))  # X0 (label 0), X1 (label 1), weight 1/2 each
LABELS = (0, 1)
DECODER_OUTPUT: Patch = (F(-1), F(1))
Z_STAR = F(0)
MINUS_ONE, ONE = F(-1), F(1)


def exact_sqrt(x: Fraction) -> Fraction:
    """The square root of a rational perfect square (the example's variances are 1/16)."""
    from math import isqrt

    num, den = isqrt(x.numerator), isqrt(x.denominator)
    if num * num != x.numerator or den * den != x.denominator:
        raise ValueError(f"{x} is not a rational square")
    return F(num, den)


def mean(u: Sequence[Fraction]) -> Fraction:
    return sum(u, F(0)) / len(u)


def population_std(u: Sequence[Fraction]) -> Fraction:
    m = mean(u)
    return exact_sqrt(sum(((x - m) ** 2 for x in u), F(0)) / len(u))


def norm_target(u: Sequence[Fraction], normalize: bool = True) -> tuple[Fraction, ...]:
    """T_norm(u) = (u - mean) / std (population); ``normalize=False`` is the raw-pixel target."""
    if not normalize:
        return tuple(u)
    m, s = mean(u), population_std(u)
    return tuple((x - m) / s for x in u)


def representation(
    visible: tuple[int, ...], image: Image, leak: bool = False
) -> tuple[tuple[int, Fraction], ...]:
    """The encoder's token family on the visible positions (``leak`` = a wrong encoder)."""
    if leak:
        return tuple((j, image[j][0]) for j in visible)
    return tuple((j, Z_STAR) for j in visible)


def example_loss(
    image: Image, visible: tuple[int, ...], decoder: Patch = DECODER_OUTPUT
) -> Fraction:
    masked = [j for j in range(2) if j not in visible]
    errors = [
        sum(((p - t) ** 2 for p, t in zip(decoder, norm_target(image[j]), strict=True)), F(0))
        for j in masked
    ]
    return sum(errors, F(0)) / len(masked)


def separating_classifiers(visible: tuple[int, ...], leak: bool = False) -> int:
    """How many classifiers of (V, representation) label both images correctly."""
    reps = sorted({representation(visible, x, leak) for x in IMAGES})
    count = 0
    for outputs in product(LABELS, repeat=len(reps)):
        classify = dict(zip(reps, outputs, strict=True))
        if all(
            classify[representation(visible, x, leak)] == y
            for x, y in zip(IMAGES, LABELS, strict=True)
        ):
            count += 1
    return count


@dataclass
class Model:
    """The example's mask law with one visible set ``V`` singled out (the statements'
    ``∀ V ∈ visibleSets``)."""

    positions: int
    k: int
    V: tuple[int, ...]

    @property
    def visible_sets(self) -> list[tuple[int, ...]]:
        """``Finset.powersetCard k Finset.univ`` over ``Fin positions``."""
        return list(combinations(range(self.positions), self.k))

    def __str__(self) -> str:
        return f"the example (M = {self.positions} positions, k = {self.k}), V = {set(self.V)}"


def model(ctx: Context) -> Model:
    return Model(positions=2, k=1, V=(0,))


def masks(ctx: Context) -> list[tuple[int, ...]]:
    return ctx.instance(model).visible_sets


def expected_loss(ctx: Context, decoder: Patch = DECODER_OUTPUT) -> Fraction:
    sets = masks(ctx)
    return sum(
        (F(1, 2) * F(1, len(sets)) * example_loss(x, v, decoder) for x in IMAGES for v in sets),
        F(0),
    )


def targets_agree(
    ctx: Context, low: Fraction = MINUS_ONE, high: Fraction = ONE, normalize: bool = True
) -> Iterator[Check]:
    for name, patch in (("p0", P0), ("p1", P1)):
        yield Check(f"std({name}) > 0", population_std(patch), ">", F(0))
        for i, (value, want) in enumerate(
            zip(norm_target(patch, normalize), (low, high), strict=True)
        ):
            yield Check(f"T_norm({name})[{i}]", value, "==", want)


def loss_zero(ctx: Context, low: Fraction = MINUS_ONE, high: Fraction = ONE) -> Iterator[Check]:
    decoder = (low, high)
    for n, x in enumerate(IMAGES):
        for v in masks(ctx):
            yield Check(f"loss(X{n}, V={set(v)})", example_loss(x, v, decoder), "==", F(0))
    yield Check("expected masked loss", expected_loss(ctx, decoder), "==", F(0))


def no_separation(ctx: Context, leak: bool = False) -> Iterator[Check]:
    for v in masks(ctx):
        yield Check(
            f"separating classifiers at V={set(v)}", separating_classifiers(v, leak), "==", 0
        )


def goal(
    ctx: Context, low: Fraction = MINUS_ONE, high: Fraction = ONE, leak: bool = False
) -> Iterator[Check]:
    yield Check("expected masked loss", expected_loss(ctx, (low, high)), "==", F(0))
    yield from no_separation(ctx, leak)


VISIBLE = "V ∈ visibleSets"


def visible_evidence(ctx: Context, m: Model) -> Iterator[Check]:
    yield hyp(VISIBLE, int(m.V in m.visible_sets), "==", 1, detail=f"V = {set(m.V)}")


def nonvacuity() -> NonVacuity:
    return NonVacuity(
        hypotheses=(VISIBLE,),
        build=model,
        evidence=visible_evidence,
        violations={VISIBLE: {"V": (0, 1)}},
    )


TARGETS = (
    Constant("low", F(-1), "-1 in T_norm = (-1, 1)"),
    Constant("high", F(1), "1 in T_norm = (-1, 1)"),
)
DECODER = (
    Constant("low", F(-1), "-1 in the decoder's (-1, 1)"),
    Constant("high", F(1), "1 in the decoder's (-1, 1)"),
)

CLAIMS = [
    Claim(
        "normalized-targets-agree",
        "std(p0), std(p1) > 0 and T_norm(p0) = (-1, 1) = T_norm(p1)",
        targets_agree,
        {"unnormalized pixel target": {"normalize": False}},
        NonVacuity(reason="a closed statement about the fixed patches p₀ and p₁"),
        TARGETS,
    ),
    Claim(
        "masked-loss-zero",
        "every per-example masked loss and the expected masked loss are 0",
        loss_zero,
        {"decoder predicts (1, -1)": {"low": F(1), "high": F(-1)}},
        nonvacuity(),
        DECODER,
    ),
    Claim(
        "no-separating-classifier",
        "no classifier of (V, representation) labels both images correctly",
        no_separation,
        {"encoder leaks a pixel": {"leak": True}},
        nonvacuity(),
        notes="no number in the statement: its strength is the leaking-encoder variant",
    ),
    Claim(
        "goal",
        "zero expected masked loss and no separating classifier",
        goal,
        {
            "decoder predicts (1, -1)": {"low": F(1), "high": F(-1)},
            "encoder leaks a pixel": {"leak": True},
        },
        nonvacuity(),
        DECODER,
    ),
]
