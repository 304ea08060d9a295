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

Wrong variants (overrides of each check source's parameters): the inequality flipped; a
hypothesis dropped (q < 1/2, n = 1, empty ms, a ≤ c, and for (d) b < 1/2 on n > 1 instances,
which contain failures such as the notes' example (3/4, 1/20, 1/5), q = 51/100, m = 3, n = 3:
0.47851 against 0.47164). Dropping 1/2 < q in part (d) is not a wrong variant: the strict-win
rule is not player-symmetric, and the grid's q < 1/2 instances with b ≥ 1/2 still satisfy
nested < flat.

Non-vacuity: each part's instance is its whole grid (every (q, n, m or ms, rule) the part
checks), and each hypothesis of the Lean statement is checked for every member (as a minimum
or maximum over the grid), so every grid point is a witness of non-vacuity and a typo in a
grid cannot put an instance outside the hypotheses. The goal's parts are the four grids.

Constants. Parts (a) and (d) state no number in their conclusion (their strength is the flip
and the dropped hypotheses). Parts (b) and (c) use the fair coin's weight 1/2 on ties
(``TieRule.winProb``); the inequality nested < flat is strict but not sharp in it, so only
large changes of the weight are detected (measured figures in the README).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm, prod
from typing import Any

from missions.witness import Check, Claim, Constant, Context, NonVacuity, hyp

F = Fraction
HALF = F(1, 2)  # the fair coin's weight on ties

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


def win_prob(rule: str, n: int, law: Law, coin: Fraction = HALF) -> Fraction:
    if rule == "fairCoin":
        return ahead_prob(n, law) + coin * tie_prob(law)
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
    rule: str,
    a: Fraction,
    b: Fraction,
    c: Fraction,
    n: int,
    ms: Sequence[int],
    q: Fraction,
    coin: Fraction = HALF,
) -> Fraction:
    return win_prob(rule, n, match_score_law(a, b, c, nested_win_prob(ms, q), n), coin)


def flat_match(
    rule: str,
    a: Fraction,
    b: Fraction,
    c: Fraction,
    n: int,
    ms: Sequence[int],
    q: Fraction,
    coin: Fraction = HALF,
) -> Fraction:
    total = n * prod(ms)
    return win_prob(rule, total, match_score_law(a, b, c, q, total), coin)


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


def _cmp(label: str, nested: Fraction, flat: Fraction, flip: bool) -> Check:
    return Check(label, flat, "<", nested) if flip else Check(label, nested, "<", flat)


Rule = tuple[Fraction, Fraction, Fraction]
PLAIN = [(F(1), F(0), F(0))]  # plain majority: a = 1, b = c = 0


@dataclass
class Grid:
    """The instances of one part: every combination of q, n and m (part (a)) or ms and the
    scoring rule (parts (b)–(d))."""

    part: str
    qs: list[Fraction]
    ns: list[int]
    ms: list[int] = field(default_factory=list)  # part (a)
    mss: list[tuple[int, ...]] = field(default_factory=list)  # parts (b)–(d)
    rules: list[Rule] = field(default_factory=list)

    def __str__(self) -> str:
        text = f"part ({self.part}) grid: q ∈ {{{', '.join(map(str, self.qs))}}}, n ∈ {self.ns}"
        if self.part == "a":
            return text + f", m ∈ {self.ms}"
        text += f", ms ∈ {[list(m) for m in self.mss]}"
        if self.part in ("c", "d"):
            text += f", (a,b,c) ∈ {{{', '.join(_abc(r)[8:] for r in self.rules)}}}"
        return text


def grid(ctx: Context, part: str) -> Grid:
    if part == "a":
        odd = [3, 5] if ctx.budget == "quick" else [3, 5, 7, 9]
        return Grid("a", q_grid(ctx), odd, ms=list(odd))
    rules = {"b": PLAIN, "c": RULES_C, "d": rules_d(ctx)}[part]
    return Grid(part, q_grid(ctx), n_grid(ctx), mss=ms_grid(ctx), rules=list(rules))


def rules_d(ctx: Context) -> list[Rule]:
    return RULES_D if ctx.budget == "quick" else RULES_D_FULL


# ---------------------------------------------------------------- the parts


def part_a(
    ctx: Context,
    qs: Iterable[Fraction] | None = None,
    ns: Iterable[int] | None = None,
    flip: bool = False,
) -> Iterator[Check]:
    """B_n(B_m(q)) < B_{nm}(q) for odd n, m > 1."""
    g = ctx.instance(grid, "a")
    for q in g.qs if qs is None else qs:
        for n in g.ns if ns is None else ns:
            for m in g.ms:
                nested = best_of_win_prob(n, best_of_win_prob(m, q))
                flat = best_of_win_prob(n * m, q)
                yield _cmp(f"part (a) q={q} n={n} m={m}", nested, flat, flip)


def part_bcd(
    ctx: Context,
    part: str,
    rule: str,
    rules: Sequence[Rule] | None = None,
    qs: Iterable[Fraction] | None = None,
    ns: Iterable[int] | None = None,
    mss: Iterable[tuple[int, ...]] | None = None,
    flip: bool = False,
    coin: Fraction = HALF,
) -> Iterator[Check]:
    g = ctx.instance(grid, part)
    for q in g.qs if qs is None else qs:
        for n in g.ns if ns is None else ns:
            for ms in g.mss if mss is None else mss:
                for a, b, c in g.rules if rules is None else rules:
                    nested = nested_match(rule, a, b, c, n, ms, q, coin)
                    flat = flat_match(rule, a, b, c, n, ms, q, coin)
                    label = f"part ({part}) {rule} q={q} n={n} ms={list(ms)} {_abc((a, b, c))}"
                    yield _cmp(label, nested, flat, flip)


def part_b(ctx: Context, **params: Any) -> Iterator[Check]:
    return part_bcd(ctx, "b", "fairCoin", **params)


def part_c(ctx: Context, **params: Any) -> Iterator[Check]:
    return part_bcd(ctx, "c", "fairCoin", **params)


def part_d(ctx: Context, seed_fact: bool = True, **params: Any) -> Iterator[Check]:
    yield from part_bcd(ctx, "d", "strictWin", **params)
    if seed_fact:
        yield from seed_fact_f1()


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
    yield Check(
        f"{tag}: nested > flat (d fails without b>=1/2)", nested, ">", flat, clause="seed fact"
    )


def checks_goal(
    ctx: Context, coin: Fraction = HALF, flip: bool = False, d_rules: Sequence[Rule] | None = None
) -> Iterator[Check]:
    yield from part_a(ctx, flip=flip)
    yield from part_b(ctx, coin=coin, flip=flip)
    yield from part_c(ctx, coin=coin, flip=flip)
    yield from part_d(ctx, flip=flip, rules=d_rules, seed_fact=not (flip or d_rules))


# ---------------------------------------------------------------- hypotheses


def _q_evidence(g: Grid) -> Iterator[Check]:
    qs = ", ".join(map(str, g.qs))
    yield hyp("1 / 2 < q", HALF, "<", min(g.qs), detail=f"least q of {{{qs}}}")
    yield hyp("q < 1", max(g.qs), "<", 1, detail=f"largest q of {{{qs}}}")


def _odd_violations(values: Iterable[int]) -> int:
    return sum(1 for v in values if v % 2 != 1)


def evidence_a(ctx: Context, g: Grid) -> Iterator[Check]:
    yield from _q_evidence(g)
    yield hyp("Odd n", _odd_violations(g.ns), "==", 0, detail=f"even n among {g.ns}")
    yield hyp("Odd m", _odd_violations(g.ms), "==", 0, detail=f"even m among {g.ms}")
    yield hyp("1 < n", 1, "<", min(g.ns), detail=f"least n of {g.ns}")
    yield hyp("1 < m", 1, "<", min(g.ms), detail=f"least m of {g.ms}")


MS_ODD = "(∀ m ∈ ms, Odd m ∧ 1 < m)"
ABC = ("0 ≤ a", "0 ≤ b", "0 ≤ c", "a + b + c = 1", "c < a")


def evidence_bcd(ctx: Context, g: Grid) -> Iterator[Check]:
    yield from _q_evidence(g)
    yield hyp("1 < n", 1, "<", min(g.ns), detail=f"least n of {g.ns}")
    shapes = [list(ms) for ms in g.mss]
    yield hyp("ms ≠ []", min(len(ms) for ms in g.mss), ">=", 1, detail=f"shortest of {shapes}")
    bad = sum(1 for ms in g.mss for m in ms if not (m % 2 == 1 and m > 1))
    yield hyp(MS_ODD, bad, "==", 0, detail=f"entries of {shapes} that are even or ≤ 1")
    if g.part == "b":
        return
    rules = g.rules
    yield hyp("0 ≤ a", min(a for a, _, _ in rules), ">=", 0, detail="least a")
    yield hyp("0 ≤ b", min(b for _, b, _ in rules), ">=", 0, detail="least b")
    yield hyp("0 ≤ c", min(c for _, _, c in rules), ">=", 0, detail="least c")
    yield hyp(
        "a + b + c = 1", max(abs(a + b + c - 1) for a, b, c in rules), "==", 0, detail="worst rule"
    )
    yield hyp("c < a", min(a - c for a, _, c in rules), ">", 0, detail="least a - c")
    if g.part == "d":
        yield hyp("1 / 2 ≤ b", HALF, "<=", min(b for _, b, _ in rules), detail="least b")


H_A = ("1 / 2 < q", "q < 1", "Odd n", "Odd m", "1 < n", "1 < m")
H_B = ("1 / 2 < q", "q < 1", "1 < n", "ms ≠ []", MS_ODD)
V_Q: dict[str, Any] = {"1 / 2 < q": {"qs": [F(2, 5)]}, "q < 1": {"qs": [F(1)]}}
V_B: dict[str, Any] = {
    **V_Q,
    "1 < n": {"ns": [1]},
    "ms ≠ []": {"mss": [()]},
    MS_ODD: {"mss": [(3, 2)]},
}
V_C: dict[str, Any] = {
    **V_B,
    "0 ≤ a": {"rules": [(F(-1, 10), F(1, 10), F(1))]},
    "0 ≤ b": {"rules": [(F(3, 5), F(-1, 5), F(3, 5))]},
    "0 ≤ c": {"rules": [(F(1), F(1, 10), F(-1, 10))]},
    "a + b + c = 1": {"rules": [(F(1, 2), F(0), F(0))]},
    "c < a": {"rules": [(F(1, 5), F(3, 5), F(1, 5))]},
}


def nonvacuity(part: str) -> NonVacuity:
    if part == "a":
        violations = {
            **V_Q,
            "Odd n": {"ns": [4]},
            "Odd m": {"ms": [3, 4]},
            "1 < n": {"ns": [1]},
            "1 < m": {"ms": [1]},
        }
        return NonVacuity(H_A, grid, ("a",), evidence_a, violations)
    if part == "b":
        return NonVacuity(H_B, grid, ("b",), evidence_bcd, V_B)
    if part == "c":
        return NonVacuity(H_B + ABC, grid, ("c",), evidence_bcd, V_C)
    return NonVacuity(
        H_B + ABC + ("1 / 2 ≤ b",),
        grid,
        ("d",),
        evidence_bcd,
        {**V_C, "1 / 2 ≤ b": {"rules": RULES_NO_B}},
    )


COIN = (Constant("coin", HALF, "1/2 in P(D > 0) + 1/2 P(D = 0) (fair coin)"),)


UNDERDOG = [F(2, 5), F(9, 20)]  # q < 1/2: the hypothesis 1/2 < q dropped

CLAIMS = [
    Claim(
        "part-a",
        "bestOfWinProb n (bestOfWinProb m q) < bestOfWinProb (n*m) q, exactly, for q in the grid "
        "(all in (1/2, 1)) and odd n, m in {3, 5} (quick) / {3, 5, 7, 9} (full)",
        part_a,
        {
            "inequality flipped": {"flip": True},
            "q < 1/2 (hypothesis 1/2 < q dropped)": {"qs": UNDERDOG},
        },
        nonvacuity("a"),
        notes="no number in the conclusion: its strength is the flip and the dropped hypotheses",
    ),
    Claim(
        "part-b",
        "fair-coin nested < flat with (a,b,c) = (1,0,0), exactly, for q in the grid, n in {2,3,4}, "
        "ms in {[3],[5],[3,3]} (more at full)",
        part_b,
        {
            "inequality flipped": {"flip": True},
            "q < 1/2 (hypothesis 1/2 < q dropped)": {"qs": UNDERDOG},
            "n = 1 (hypothesis 1 < n dropped; equality for one level)": {
                "ns": [1],
                "mss": [(3,), (5,)],
            },
            "ms = [] (hypothesis ms ≠ [] dropped; equality)": {"mss": [()]},
        },
        nonvacuity("b"),
        COIN,
    ),
    Claim(
        "part-c",
        "fair-coin nested < flat, exactly, for q, n, ms as in part (b) and (a,b,c) in "
        "{(1,0,0),(9/10,1/10,0),(1/2,1/10,2/5),(3/4,1/20,1/5),(3/10,3/5,1/10)}",
        part_c,
        {
            "inequality flipped": {"flip": True},
            "a < c (hypothesis c < a dropped)": {
                "rules": [
                    (F(0), F(0), F(1)),
                    (F(1, 10), F(3, 10), F(3, 5)),
                    (F(1, 5), F(1, 5), F(3, 5)),
                ]
            },
            "a = c (hypothesis c < a dropped; both sides 1/2)": {
                "rules": [(F(1, 2), F(0), F(1, 2)), (F(1, 5), F(3, 5), F(1, 5))]
            },
        },
        nonvacuity("c"),
        COIN,
    ),
    Claim(
        "part-d",
        "strict-win nested < flat, exactly, for q, n, ms as in part (b) and (a,b,c) with "
        "b >= 1/2 in {(1/2,1/2,0),(13/50,1/2,6/25),(3/10,3/5,1/10),(1/5,4/5,0)}; plus the "
        "seed's fact F1 (n = 1, outside the hypotheses): (9/10,1/10,0), q = 3/5, m = 3 "
        "gives 0.5832 > 0.5761",
        part_d,
        {
            "inequality flipped": {"flip": True, "seed_fact": False},
            "b < 1/2 (hypothesis 1/2 <= b dropped), n > 1": {
                "rules": RULES_NO_B,
                "seed_fact": False,
            },
        },
        nonvacuity("d"),
        notes="no number in the conclusion: its strength is the flip and the dropped hypotheses",
    ),
    Claim(
        "goal",
        "the conjunction: every check of parts (a), (b), (c) and (d) (including F1)",
        checks_goal,
        {
            "every inequality flipped": {"flip": True},
            "part (d) without b >= 1/2": {"d_rules": RULES_NO_B},
            "fair coin weight 1/2 → 0 (ties lost)": {"coin": F(0)},
        },
        NonVacuity(parts={f"Part{p.upper()}": nonvacuity(p) for p in "abcd"}),
        COIN,
    ),
]
