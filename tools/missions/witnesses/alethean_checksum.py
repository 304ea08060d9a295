"""Witness for ``alethean-checksum``: the 1/K silent-corruption bound, exhaustively on small cases.

The claim is finite and rational, so every check is exact ``Fraction`` arithmetic (slack 0),
following ``Formal/AletheanChecksum/{Defs,Statements}.lean``: for a finite message set M, a
codeword set C, K ≥ 1, an encoder enc : M → C, an inner decoder dec : C → M and a source x,
``uniformProb (fun h : M → Fin K => dec (enc x) ≠ x ∧ h (dec (enc x)) = h x)`` is the number of
functions h : M → Fin K satisfying the event divided by K^|M|, and it must be ≤ 1/K.

Instances (quick budget): M = Fin |M| and C = Fin |C| with |M|, |C| ∈ {1, 2, 3}, and the
compressing code M = {0,1}^2 (4 strings), C = {0,1}^1 (2 codewords; a pigeonhole-lossy code);
every encoder, every inner decoder, every source x and every K ∈ {1, 2, 3, 4}; the probability
is computed by enumerating every h : M → Fin K (up to 4^4 = 256 functions). The count over h
depends on (enc, dec) only through y = dec (enc x), so it is computed once per (|M|, K, x, y)
and reused; every (enc, dec, x, K) still gets its own check. The full budget adds
|M| = 4 with |C| = 3 and |M| = 5 with |C| ∈ {1, 2}, and K = 5.

The bound is also checked to be attained: for every (M, C, K) with |M| ≥ 2 the maximum over all
(enc, dec, x) equals 1/K exactly (with |M| = 1 every decode is correct and the maximum is 0).

Wrong variants (overrides of the check source's parameters): the bound 1/(K + 1) (fails at
every instance with dec (enc x) ≠ x) and the strict bound < 1/K (fails at the attaining
instances).

Non-vacuity: the lossy code M = Fin 2, C = Fin 1 (enc = (0, 0), dec = (0,)), x = 1 and K = 2,
on which the event has probability exactly 1/K; ``[Fintype M]`` and ``[DecidableEq M]`` hold by
construction. Constant: the numerator 1 of 1/K. Because the maximum over (enc, dec, x) is
checked to equal 1/K, a 1% change of it is caught in both directions (a smaller bound fails at
the attaining instances, a larger one fails the sharpness check).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

from missions.witness import Check, Claim, Constant, Context, NonVacuity, Relation, Structural, hyp

F = Fraction


@cache
def silent_count(m: int, k: int, x: int, y: int) -> int:
    """#{h : Fin m → Fin k | y ≠ x ∧ h y = h x}, by enumerating every h."""
    return sum(1 for h in product(range(k), repeat=m) if y != x and h[y] == h[x])


def uniform_prob(m: int, k: int, x: int, y: int) -> Fraction:
    """uniformProb over h : M → Fin K of the silent-corruption event, #filter / #(M → Fin K)."""
    return F(silent_count(m, k, x, y), k**m)


def shapes(ctx: Context) -> list[tuple[int, int]]:
    """(|M|, |C|) pairs; (4, 2) is M = {0,1}^2 stored as C = {0,1}^1."""
    base = [(m, c) for m in (1, 2, 3) for c in (1, 2, 3)] + [(4, 2)]
    return base if ctx.budget == "quick" else [*base, (4, 3), (5, 1), (5, 2)]


def ks(ctx: Context) -> list[int]:
    return [1, 2, 3, 4] if ctx.budget == "quick" else [1, 2, 3, 4, 5]


@dataclass
class Code:
    """One instance of the statement: M = Fin m, C = Fin c, K, enc, dec and x."""

    m: int
    c: int
    K: int
    enc: tuple[int, ...]
    dec: tuple[int, ...]
    x: int

    def __str__(self) -> str:
        return (
            f"M = Fin {self.m}, C = Fin {self.c}, K = {self.K}, enc = {self.enc}, "
            f"dec = {self.dec}, x = {self.x}"
        )


def lossy_code(ctx: Context) -> Code:
    return Code(m=2, c=1, K=2, enc=(0, 0), dec=(0,), x=1)


def checks(
    ctx: Context,
    one: Fraction = Fraction(1),
    relation: Relation = "<=",
    denominator_shift: int = 0,
    attained: bool = True,
) -> Iterator[Check]:
    code = ctx.instance(lossy_code)
    p = uniform_prob(code.m, code.K, code.x, code.dec[code.enc[code.x]])
    yield Check(f"{code}", p, relation, one / (code.K + denominator_shift))
    for m, c in shapes(ctx):
        for k in ks(ctx):
            bound = one / (k + denominator_shift)
            best = F(0)
            for enc in product(range(c), repeat=m):
                for dec in product(range(m), repeat=c):
                    for x in range(m):
                        p = uniform_prob(m, k, x, dec[enc[x]])
                        best = max(best, p)
                        label = f"|M|={m} |C|={c} K={k} enc={enc} dec={dec} x={x}"
                        yield Check(label, p, relation, bound)
            if attained:
                want = one / k if m >= 2 else F(0)
                yield Check(
                    f"|M|={m} |C|={c} K={k}: max over enc, dec, x (sharpness)", best, "==", want
                )


def evidence(ctx: Context, code: Code) -> Iterator[Check | Structural]:
    yield Structural("[Fintype M]", f"M = Fin {code.m}")
    yield Structural("[DecidableEq M]", f"M = Fin {code.m}")
    yield hyp("1 ≤ K", 1, "<=", code.K, detail=f"K = {code.K}")


CLAIMS = [
    Claim(
        "goal",
        "P_h[dec(enc x) != x and h(dec(enc x)) = h(x)] <= 1/K, exactly, for every enc : M -> C, "
        "dec : C -> M, x in M, K in {1..4} with |M|, |C| in {1, 2, 3} and (|M|, |C|) = (4, 2), "
        "h : M -> Fin K enumerated; and the maximum is exactly 1/K when |M| >= 2",
        checks,
        {
            "bound 1/(K+1)": {"denominator_shift": 1, "attained": False},
            "strict bound < 1/K": {"relation": "<", "attained": False},
        },
        NonVacuity(
            hypotheses=("[Fintype M]", "[DecidableEq M]", "1 ≤ K"),
            build=lossy_code,
            evidence=evidence,
            violations={"1 ≤ K": {"K": 0}},
        ),
        (Constant("one", Fraction(1), "1 in the bound 1/K"),),
    ),
]
