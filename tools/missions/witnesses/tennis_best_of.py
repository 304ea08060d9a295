"""Witness for ``tennis-best-of``: parts (a)–(d) evaluated exactly on a grid, in the Lean model.

Everything is a finite sum of rational numbers, so every check is exact ``Fraction`` arithmetic
(slack 0). The model of ``Formal/TennisBestOf/Defs.lean`` is transcribed one definition at a
time: ``Step`` (stepLaw: mass at +1, 0, -1), ``sum_law`` (the n-fold convolution starting from the
point mass at 0; laws are kept as integer numerators over the common denominator ``d^n`` of the
step weights, which is the same rational law, only faster), ``unit_score_law`` (the outer rule
``(a, b, c)``: +1 w.p. ``p a + (1-p) c``, 0 w.p. ``b``, -1 w.p. ``p c + (1-p) a``),
``ahead_prob`` (sum over ``1..n``), ``tie_prob`` (value at 0), the tie rules (fair coin:
``P(D>0) + P(D=0)/2``; strict win: ``P(D>0)``), ``best_of_win_prob`` (plain majority, i.e. the
rule ``(1, 0, 0)`` with ``aheadProb``), ``nested_win_prob`` (the shape ``ms`` outermost first,
the empty shape a single point), and the two match formats (nested: ``n`` sets of shape ``ms``
scored once each by the outer rule; flat: ``n * prod(ms)`` points each scored by the rule).

Instances (quick budget): q ∈ {51/100, 11/20, 7/10, 9/10}; part (a) odd n, m ∈ {3, 5}; parts
(b)–(d) n ∈ {2, 3, 4}, ms ∈ {[3], [5], [3, 3]} and, for (c) and (d), rules (a, b, c)
satisfying exactly that part's hypotheses (a, b, c ≥ 0, a + b + c = 1, a > c, and b ≥ 1/2 for
(d)). Part (d) also checks the seed's documented fact F1 (n = 1, outside the parts' hypothesis
n > 1, labelled as such): (a, b, c) = (9/10, 1/10, 0), q = 3/5, m = 3 gives 729/1250 = 0.5832
(nested) against 72009/125000 ≈ 0.5761 (flat), both to 4 decimals. The hypotheses of each grid
(1/2 < q < 1, n > 1, ms nonempty of odd entries > 1, the conditions on (a, b, c)) are checked
too. The full budget adds q ∈ {3/5, 99/100}, odd n, m up to 9 for (a), n up to 6,
ms ∈ {[7], [3, 5], [5, 3], [3, 3, 3]} and two more rules for (d).

Wrong variants: the inequality flipped; a hypothesis dropped (q < 1/2, n = 1, empty ms, a ≤ c,
and for (d) b < 1/2 on n > 1 instances, which contain failures such as the notes' example
(3/4, 1/20, 1/5), q = 51/100, m = 3, n = 3: 0.47851 against 0.47164). Dropping 1/2 < q in
part (d) is not a wrong variant: the strict-win rule is not player-symmetric, and the grid's
q < 1/2 instances with b ≥ 1/2 still satisfy nested < flat.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from math import lcm, prod

from missions.witness import Check, Claim, Context

F = Fraction

# A law on ℤ supported on [-n, n]: (numerators, denominator); entry i is the mass at i - n.
Law = tuple[tuple[int, ...], int]
Step = tuple[Fraction, Fraction, Fraction]  # masses at +1, 0, -1 (stepLaw wPlus wZero wMinus)


_SUM_LAWS: dict[Step, list[Law]] = {}


def sum_law(step: Step, n: int) -> Law:
    """sumLaw step n: the point mass at 0, then one convStep per further increment.

    The chain of laws for each step law is cached, so every n shares one convolution chain.
    """
    laws = _SUM_LAWS.setdefault(step, [((1,), 1)])
    w_plus, w_zero, w_minus = step
    d = lcm(w_plus.denominator, w_zero.denominator, w_minus.denominator)
    up, stay, down = (int(w * d) for w in step)
    while len(laws) <= n:
        k = len(laws)  # build the law after k increments, supported on [-k, k]
        nums, den = laws[-1]
        # convStep: new(z) = σ(1) μ(z - 1) + σ(0) μ(z) + σ(-1) μ(z + 1).
        old = [0, 0, *nums, 0, 0]  # old[j] = mass at j - (k + 1)
        new = tuple(up * old[i] + stay * old[i + 1] + down * old[i + 2] for i in range(2 * k + 1))
        laws.append((new, den * d))
    return laws[n]


def unit_score_law(a: Fraction, b: Fraction, c: Fraction, p: Fraction) -> Step:
    return (p * a + (1 - p) * c, p * b + (1 - p) * b, p * c + (1 - p) * a)


def match_score_law(a: Fraction, b: Fraction, c: Fraction, p: Fraction, n: int) -> Law:
    return sum_law(unit_score_law(a, b, c, p), n)


def ahead_prob(n: int, law: Law) -> Fraction:
    """Sum of the law over Finset.Icc 1 n (law after n units, centred at index n)."""
    nums, den = law
    centre = (len(nums) - 1) // 2
    return F(sum(nums[centre + z] for z in range(1, n + 1) if centre + z < len(nums)), den)


def tie_prob(law: Law) -> Fraction:
    nums, den = law
    return F(nums[(len(nums) - 1) // 2], den)


def win_prob(rule: str, n: int, law: Law) -> Fraction:
    if rule == "fairCoin":
        return ahead_prob(n, law) + F(1, 2) * tie_prob(law)
    if rule == "strictWin":
        return ahead_prob(n, law)
    raise ValueError(rule)


def best_of_win_prob(m: int, p: Fraction) -> Fraction:
    return ahead_prob(m, match_score_law(F(1), F(0), F(0), p, m))


def nested_win_prob(ms: Sequence[int], q: Fraction) -> Fraction:
    if not ms:
        return q
    return best_of_win_prob(ms[0], nested_win_prob(ms[1:], q))


def nested_match(
    rule: str, a: Fraction, b: Fraction, c: Fraction, n: int, ms: Sequence[int], q: Fraction
) -> Fraction:
    return win_prob(rule, n, match_score_law(a, b, c, nested_win_prob(ms, q), n))


def flat_match(
    rule: str, a: Fraction, b: Fraction, c: Fraction, n: int, ms: Sequence[int], q: Fraction
) -> Fraction:
    total = n * prod(ms)
    return win_prob(rule, total, match_score_law(a, b, c, q, total))


# ---------------------------------------------------------------- instance grids


def q_grid(ctx: Context) -> list[Fraction]:
    base = [F(51, 100), F(11, 20), F(7, 10), F(9, 10)]
    return base if ctx.budget == "quick" else [*base, F(3, 5), F(99, 100)]


def n_grid(ctx: Context) -> list[int]:
    return [2, 3, 4] if ctx.budget == "quick" else [2, 3, 4, 5, 6]


def ms_grid(ctx: Context) -> list[tuple[int, ...]]:
    base = [(3,), (5,), (3, 3)]
    return base if ctx.budget == "quick" else [*base, (7,), (3, 5), (5, 3), (3, 3, 3)]


RULES_C = [  # a, b, c ≥ 0, a + b + c = 1, a > c (part (c): no condition on b)
    (F(1), F(0), F(0)),
    (F(9, 10), F(1, 10), F(0)),
    (F(1, 2), F(1, 10), F(2, 5)),
    (F(3, 4), F(1, 20), F(1, 5)),
    (F(3, 10), F(3, 5), F(1, 10)),
]
RULES_D = [  # as RULES_C and b ≥ 1/2 (b = 1/2 included)
    (F(1, 2), F(1, 2), F(0)),
    (F(13, 50), F(1, 2), F(6, 25)),
    (F(3, 10), F(3, 5), F(1, 10)),
    (F(1, 5), F(4, 5), F(0)),
]
RULES_D_FULL = [*RULES_D, (F(1, 100), F(99, 100), F(0)), (F(1, 4), F(7, 10), F(1, 20))]
RULES_NO_B = [  # part (d) with b ≥ 1/2 dropped: b < 1/2
    (F(9, 10), F(1, 10), F(0)),
    (F(3, 4), F(1, 20), F(1, 5)),
    (F(1, 2), F(1, 10), F(2, 5)),
]


def _abc(r: tuple[Fraction, Fraction, Fraction]) -> str:
    return "(a,b,c)=(" + ",".join(str(x) for x in r) + ")"


def _hyp_abc(a: Fraction, b: Fraction, c: Fraction, need_b_half: bool) -> bool:
    ok = a >= 0 and b >= 0 and c >= 0 and a + b + c == 1 and c < a
    return ok and (b >= F(1, 2) if need_b_half else True)


def _cmp(label: str, nested: Fraction, flat: Fraction, flip: bool) -> Check:
    return Check(label, flat, "<", nested) if flip else Check(label, nested, "<", flat)


# ---------------------------------------------------------------- the parts


def part_a(
    ctx: Context,
    qs: Iterable[Fraction] | None = None,
    ns: Iterable[int] | None = None,
    flip: bool = False,
) -> Iterator[Check]:
    """B_n(B_m(q)) < B_{nm}(q) for odd n, m > 1 (n, m odd > 1 asserted on the default grid)."""
    odd = [3, 5] if ctx.budget == "quick" else [3, 5, 7, 9]
    for q in q_grid(ctx) if qs is None else qs:
        for n in odd if ns is None else ns:
            for m in odd:
                nested = best_of_win_prob(n, best_of_win_prob(m, q))
                flat = best_of_win_prob(n * m, q)
                yield _cmp(f"part (a) q={q} n={n} m={m}", nested, flat, flip)


def part_bcd(
    ctx: Context,
    part: str,
    rule: str,
    rules: Sequence[tuple[Fraction, Fraction, Fraction]],
    qs: Iterable[Fraction] | None = None,
    ns: Iterable[int] | None = None,
    mss: Iterable[tuple[int, ...]] | None = None,
    flip: bool = False,
) -> Iterator[Check]:
    for q in q_grid(ctx) if qs is None else qs:
        for n in n_grid(ctx) if ns is None else ns:
            for ms in ms_grid(ctx) if mss is None else mss:
                for a, b, c in rules:
                    nested = nested_match(rule, a, b, c, n, ms, q)
                    flat = flat_match(rule, a, b, c, n, ms, q)
                    label = f"part ({part}) {rule} q={q} n={n} ms={list(ms)} {_abc((a, b, c))}"
                    yield _cmp(label, nested, flat, flip)


def _checked_hypotheses(ctx: Context, part: str) -> Iterator[Check]:
    """The default grids satisfy the part's hypotheses exactly (guards against grid typos)."""
    for q in q_grid(ctx):
        yield Check(f"hyp q={q}: 1/2 < q", q, ">", F(1, 2))
        yield Check(f"hyp q={q}: q < 1", q, "<", F(1))
    if part == "a":
        return
    for n in n_grid(ctx):
        yield Check(f"hyp n={n} > 1", n, ">", 1)
    for ms in ms_grid(ctx):
        yield Check(
            f"hyp ms={list(ms)} nonempty, odd > 1",
            int(bool(ms) and all(m % 2 == 1 and m > 1 for m in ms)),
            "==",
            1,
        )
    rules = {"b": PLAIN, "c": RULES_C, "d": rules_d(ctx)}[part]
    for r in rules:
        yield Check(
            f"hyp {_abc(r)} for part ({part})", int(_hyp_abc(*r, need_b_half=part == "d")), "==", 1
        )


def rules_d(ctx: Context) -> list[tuple[Fraction, Fraction, Fraction]]:
    return RULES_D if ctx.budget == "quick" else RULES_D_FULL


Rule = tuple[Fraction, Fraction, Fraction]
PLAIN = [(F(1), F(0), F(0))]  # plain majority: a = 1, b = c = 0


def part_b(
    ctx: Context,
    flip: bool = False,
    qs: Iterable[Fraction] | None = None,
    ns: Iterable[int] | None = None,
    mss: Iterable[tuple[int, ...]] | None = None,
) -> Iterator[Check]:
    return part_bcd(ctx, "b", "fairCoin", PLAIN, qs, ns, mss, flip)


def part_c(
    ctx: Context, flip: bool = False, rules: Sequence[Rule] | None = None
) -> Iterator[Check]:
    return part_bcd(ctx, "c", "fairCoin", RULES_C if rules is None else rules, flip=flip)


def part_d(
    ctx: Context, flip: bool = False, rules: Sequence[Rule] | None = None
) -> Iterator[Check]:
    return part_bcd(ctx, "d", "strictWin", rules_d(ctx) if rules is None else rules, flip=flip)


def seed_fact_f1() -> Iterator[Check]:
    """F1: (a,b,c) = (0.9, 0.1, 0), q = 0.6, m = 3, n = 1, strict win: 0.5832 vs 0.5761."""
    a, b, c, q, n, ms = F(9, 10), F(1, 10), F(0), F(3, 5), 1, (3,)
    nested = nested_match("strictWin", a, b, c, n, ms, q)
    flat = flat_match("strictWin", a, b, c, n, ms, q)
    tag = "seed fact F1 (n=1, outside the hypothesis n>1)"
    yield Check(f"{tag}: best-of-3 won w.p. 0.648", best_of_win_prob(3, q), "==", F(648, 1000))
    yield Check(f"{tag}: nested = 729/1250", nested, "==", F(729, 1250))
    yield Check(f"{tag}: flat = 72009/125000", flat, "==", F(72009, 125000))
    yield Check(f"{tag}: nested rounds to 0.5832", round(nested, 4), "==", F(5832, 10000))
    yield Check(f"{tag}: flat rounds to 0.5761", round(flat, 4), "==", F(5761, 10000))
    yield Check(f"{tag}: nested > flat (d fails without b>=1/2)", nested, ">", flat)


def checks_a(ctx: Context) -> Iterator[Check]:
    yield from _checked_hypotheses(ctx, "a")
    yield from part_a(ctx)


def checks_b(ctx: Context) -> Iterator[Check]:
    yield from _checked_hypotheses(ctx, "b")
    yield from part_b(ctx)


def checks_c(ctx: Context) -> Iterator[Check]:
    yield from _checked_hypotheses(ctx, "c")
    yield from part_c(ctx)


def checks_d(ctx: Context) -> Iterator[Check]:
    yield from _checked_hypotheses(ctx, "d")
    yield from part_d(ctx)
    yield from seed_fact_f1()


def checks_goal(ctx: Context) -> Iterator[Check]:
    yield from checks_a(ctx)
    yield from checks_b(ctx)
    yield from checks_c(ctx)
    yield from checks_d(ctx)


UNDERDOG = [F(2, 5), F(9, 20)]  # q < 1/2: the hypothesis 1/2 < q dropped

CLAIMS = [
    Claim(
        "part-a",
        "bestOfWinProb n (bestOfWinProb m q) < bestOfWinProb (n*m) q, exactly, for q in the grid "
        "(all in (1/2, 1)) and odd n, m in {3, 5} (quick) / {3, 5, 7, 9} (full)",
        checks_a,
        {
            "inequality flipped": lambda ctx: part_a(ctx, flip=True),
            "q < 1/2 (hypothesis 1/2 < q dropped)": lambda ctx: part_a(ctx, qs=UNDERDOG),
        },
    ),
    Claim(
        "part-b",
        "fair-coin nested < flat with (a,b,c) = (1,0,0), exactly, for q in the grid, n in {2,3,4}, "
        "ms in {[3],[5],[3,3]} (more at full)",
        checks_b,
        {
            "inequality flipped": lambda ctx: part_b(ctx, flip=True),
            "q < 1/2 (hypothesis 1/2 < q dropped)": lambda ctx: part_b(ctx, qs=UNDERDOG),
            "n = 1 (hypothesis 1 < n dropped; equality for one level)": lambda ctx: part_b(
                ctx, ns=[1], mss=[(3,), (5,)]
            ),
            "ms = [] (hypothesis ms ≠ [] dropped; equality)": lambda ctx: part_b(ctx, mss=[()]),
        },
    ),
    Claim(
        "part-c",
        "fair-coin nested < flat, exactly, for q, n, ms as in part (b) and (a,b,c) in "
        "{(1,0,0),(9/10,1/10,0),(1/2,1/10,2/5),(3/4,1/20,1/5),(3/10,3/5,1/10)}",
        checks_c,
        {
            "inequality flipped": lambda ctx: part_c(ctx, flip=True),
            "a < c (hypothesis c < a dropped)": lambda ctx: part_c(
                ctx,
                rules=[
                    (F(0), F(0), F(1)),
                    (F(1, 10), F(3, 10), F(3, 5)),
                    (F(1, 5), F(1, 5), F(3, 5)),
                ],
            ),
            "a = c (hypothesis c < a dropped; both sides 1/2)": lambda ctx: part_c(
                ctx, rules=[(F(1, 2), F(0), F(1, 2)), (F(1, 5), F(3, 5), F(1, 5))]
            ),
        },
    ),
    Claim(
        "part-d",
        "strict-win nested < flat, exactly, for q, n, ms as in part (b) and (a,b,c) with "
        "b >= 1/2 in {(1/2,1/2,0),(13/50,1/2,6/25),(3/10,3/5,1/10),(1/5,4/5,0)}; plus the "
        "seed's fact F1 (n = 1, outside the hypotheses): (9/10,1/10,0), q = 3/5, m = 3 "
        "gives 0.5832 > 0.5761",
        checks_d,
        {
            "inequality flipped": lambda ctx: part_d(ctx, flip=True),
            "b < 1/2 (hypothesis 1/2 <= b dropped), n > 1": lambda ctx: part_d(
                ctx, rules=RULES_NO_B
            ),
        },
    ),
    Claim(
        "goal",
        "the conjunction: every check of parts (a), (b), (c) and (d) (including F1)",
        checks_goal,
        {
            "part (d) without b >= 1/2": lambda ctx: part_d(ctx, rules=RULES_NO_B),
            "part (c) inequality flipped": lambda ctx: part_c(ctx, flip=True),
        },
    ),
]
