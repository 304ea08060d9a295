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

Wrong variants: the bound 1/(K + 1) (fails at every instance with dec (enc x) ≠ x) and the
strict bound < 1/K (fails at the attaining instances).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import cache
from itertools import product

from missions.witness import Check, Claim, Context, Relation

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


Bound = Callable[[int], Fraction]


def checks(
    ctx: Context,
    bound: Bound = lambda k: F(1, k),
    relation: Relation = "<=",
    attained: bool = True,
) -> Iterator[Check]:
    for m, c in shapes(ctx):
        for k in ks(ctx):
            yield Check(f"hyp 1 <= K={k}", k, ">=", 1)
            best = F(0)
            for enc in product(range(c), repeat=m):
                for dec in product(range(m), repeat=c):
                    for x in range(m):
                        p = uniform_prob(m, k, x, dec[enc[x]])
                        best = max(best, p)
                        label = f"|M|={m} |C|={c} K={k} enc={enc} dec={dec} x={x}"
                        yield Check(label, p, relation, bound(k))
            if attained:
                want = F(1, k) if m >= 2 else F(0)
                yield Check(f"|M|={m} |C|={c} K={k}: max over enc, dec, x", best, "==", want)


CLAIMS = [
    Claim(
        "goal",
        "P_h[dec(enc x) != x and h(dec(enc x)) = h(x)] <= 1/K, exactly, for every enc : M -> C, "
        "dec : C -> M, x in M, K in {1..4} with |M|, |C| in {1, 2, 3} and (|M|, |C|) = (4, 2), "
        "h : M -> Fin K enumerated; and the maximum is exactly 1/K when |M| >= 2",
        checks,
        {
            "bound 1/(K+1)": lambda ctx: checks(ctx, bound=lambda k: F(1, k + 1), attained=False),
            "strict bound < 1/K": lambda ctx: checks(ctx, relation="<", attained=False),
        },
    ),
]
