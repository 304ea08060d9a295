"""Witness for ``mae-normalized-pixel``: the example checked exactly, by enumeration.

Everything is finite and rational (the standard deviations are 1/4, exact square roots), so
every check is exact ``Fraction`` arithmetic; the classifier claim enumerates every
deterministic classifier of the representation.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import product

from missions.witness import Check, Claim

F = Fraction
Patch = tuple[Fraction, Fraction]
Image = tuple[Patch, Patch]
P0: Patch = (F(0), F(1, 2))
P1: Patch = (F(1, 2), F(1))
IMAGES = ((P0, P0), (P1, P1))  # X0 (label 0), X1 (label 1), weight 1/2 each
LABELS = (0, 1)
MASKS = ((0,), (1,))  # visible sets: the size-1 subsets of the two positions, weight 1/2 each
DECODER_OUTPUT: Patch = (F(-1), F(1))
Z_STAR = F(0)


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


def expected_loss(decoder: Patch = DECODER_OUTPUT) -> Fraction:
    return sum(
        (F(1, 2) * F(1, 2) * example_loss(x, v, decoder) for x in IMAGES for v in MASKS), F(0)
    )


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


def targets_agree(normalize: bool = True) -> Iterator[Check]:
    for name, patch in (("p0", P0), ("p1", P1)):
        yield Check(f"std({name}) > 0", population_std(patch), ">", F(0))
        for i, (value, want) in enumerate(
            zip(norm_target(patch, normalize), (F(-1), F(1)), strict=True)
        ):
            yield Check(f"T_norm({name})[{i}]", value, "==", want)


def loss_zero(decoder: Patch = DECODER_OUTPUT) -> Iterator[Check]:
    for n, x in enumerate(IMAGES):
        for v in MASKS:
            yield Check(f"loss(X{n}, V={set(v)})", example_loss(x, v, decoder), "==", F(0))
    yield Check("expected masked loss", expected_loss(decoder), "==", F(0))


def no_separation(leak: bool = False) -> Iterator[Check]:
    for v in MASKS:
        yield Check(
            f"separating classifiers at V={set(v)}", separating_classifiers(v, leak), "==", 0
        )


def goal(decoder: Patch = DECODER_OUTPUT, leak: bool = False) -> Iterator[Check]:
    yield from (c for c in loss_zero(decoder) if c.label == "expected masked loss")
    yield from no_separation(leak)


WRONG_DECODER: Patch = (F(1), F(-1))

CLAIMS = [
    Claim(
        "normalized-targets-agree",
        "std(p0), std(p1) > 0 and T_norm(p0) = (-1, 1) = T_norm(p1)",
        lambda ctx: targets_agree(),
        {"unnormalized pixel target": lambda ctx: targets_agree(normalize=False)},
    ),
    Claim(
        "masked-loss-zero",
        "every per-example masked loss and the expected masked loss are 0",
        lambda ctx: loss_zero(),
        {"decoder predicts (1, -1)": lambda ctx: loss_zero(WRONG_DECODER)},
    ),
    Claim(
        "no-separating-classifier",
        "no classifier of (V, representation) labels both images correctly",
        lambda ctx: no_separation(),
        {"encoder leaks a pixel": lambda ctx: no_separation(leak=True)},
    ),
    Claim(
        "goal",
        "zero expected masked loss and no separating classifier",
        lambda ctx: goal(),
        {
            "decoder predicts (1, -1)": lambda ctx: goal(WRONG_DECODER),
            "encoder leaks a pixel": lambda ctx: goal(leak=True),
        },
    ),
]
