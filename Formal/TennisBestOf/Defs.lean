import Mathlib

/-!
# Tennis: a flat best-of against nested best-ofs — the model

This file holds the model of the tennis problem of seed 09 ("Tennis: don't label twice"). It
contains definitions only.

Conventions (from the mission's issue notes; the seed's own conventions section is empty):

* A *law* is a function `ℤ → ℝ`: its value at `z` is the probability that the final match-score
  difference (your match score minus your opponent's) equals `z`. Every probability is a finite
  sum; there is no measure theory.
* One completed scored unit ("set") is won by you with probability `p`. Independently of that, the
  outer random scoring rule applies: with probability `a` the set's winner gains `1` in the match
  score, with probability `b` the set is ignored, with probability `c` the set's loser gains `1`.
  The set's contribution to the score difference therefore has law `unitScoreLaw a b c p`:
  mass `p a + (1 - p) c` at `+1`, `p b + (1 - p) b` at `0`, `p c + (1 - p) a` at `-1`.
  Plain majority (no randomness) is the case `a = 1`, `b = c = 0`.
* Independent sets add: the law after `n` sets is the `n`-fold convolution `sumLaw`, defined by
  recursion, each step a finite sum over the increments `{-1, 0, 1}`. It vanishes outside
  `[-n, n]`, so `P(D > 0)` is the finite sum over `Finset.Icc 1 n` (`aheadProb`).
* Tie rules: `TieRule.fairCoin` (a tie is decided by an independent fair coin, so you win with
  probability `P(D > 0) + P(D = 0) / 2`) and `TieRule.strictWin` (you win only if `D > 0`).
* Nesting: a shape `[m₁, …, m_k] : List ℕ` (outermost first) describes a "set" that is a
  best-of-`m₁` (plain majority) of "games", which are best-of-`m₂`'s of …, which are
  best-of-`m_k`'s of points. The empty shape is a single point, won with probability `q`.
  `nestedWinProb` gives the probability that you win such a unit.
* The two formats of the match: `nestedMatchWinProb` plays `n` sets of shape `ms`, scored by the
  outer rule `(a, b, c)` (the randomness applies once per set, at the outermost layer only).
  `flatMatchWinProb` plays `n · m₁ ⋯ m_k` single points, each point counting as a set and scored
  by the same rule `(a, b, c)`. Both use the same tie rule.
-/

namespace Formal.TennisBestOf

noncomputable section

/-! ## Laws on `ℤ` and their convolution -/

/-- The law on `ℤ` with mass `wPlus` at `+1`, `wZero` at `0`, `wMinus` at `-1`, and `0` elsewhere:
the law of one unit's contribution to the score difference (you minus your opponent). -/
def stepLaw (wPlus wZero wMinus : ℝ) : ℤ → ℝ := fun z =>
  if z = 1 then wPlus else if z = 0 then wZero else if z = -1 then wMinus else 0

/-- Convolution `(σ ⋆ μ)(z) = ∑_{y ∈ {-1, 0, 1}} σ(y) μ(z - y)` of a law `σ` supported on
`{-1, 0, 1}` (the only kind of increment law in this model) with a law `μ`: the law of the sum of
independent variables with laws `σ` and `μ`. The sum is over `Finset.Icc (-1) 1 = {-1, 0, 1}`. -/
def convStep (σ μ : ℤ → ℝ) : ℤ → ℝ := fun z => ∑ y ∈ Finset.Icc (-1 : ℤ) 1, σ y * μ (z - y)

/-- The law of the sum of `n` independent increments with law `σ` (supported on `{-1, 0, 1}`):
the point mass at `0` for `n = 0`, then one convolution with `σ` per further increment. -/
def sumLaw (σ : ℤ → ℝ) : ℕ → ℤ → ℝ
  | 0 => fun z => if z = 0 then 1 else 0
  | n + 1 => convStep σ (sumLaw σ n)

/-! ## The outer random scoring rule -/

/-- The law of one completed set's contribution to the match-score difference (you minus your
opponent) when you win the set with probability `p` and the outer random scoring rule `(a, b, c)`
is applied independently: with probability `a` the winner gains `1`, with probability `b` the set
is ignored, with probability `c` the loser gains `1`. So the difference moves by `+1` with
probability `p a + (1 - p) c`, by `0` with probability `p b + (1 - p) b`, and by `-1` with
probability `p c + (1 - p) a`. -/
def unitScoreLaw (a b c p : ℝ) : ℤ → ℝ :=
  stepLaw (p * a + (1 - p) * c) (p * b + (1 - p) * b) (p * c + (1 - p) * a)

/-- The law of the final match-score difference after `n` independent sets, each won by you with
probability `p` and scored by the rule `(a, b, c)`. -/
def matchScoreLaw (a b c p : ℝ) (n : ℕ) : ℤ → ℝ :=
  sumLaw (unitScoreLaw a b c p) n

/-! ## Tie rules -/

/-- `P(D > 0)` for a score difference `D` with law `μ` after `n` units, where `D ∈ [-n, n]`:
the finite sum of `μ` over `Finset.Icc 1 n`. -/
def aheadProb (n : ℕ) (μ : ℤ → ℝ) : ℝ := ∑ z ∈ Finset.Icc (1 : ℤ) (n : ℤ), μ z

/-- `P(D = 0)` for a score difference `D` with law `μ`. -/
def tieProb (μ : ℤ → ℝ) : ℝ := μ 0

/-- How a match is decided from the final match scores. -/
inductive TieRule where
  /-- The higher match score wins; a tie is decided by an independent fair coin. -/
  | fairCoin
  /-- You win only with a strictly greater match score than your opponent. -/
  | strictWin

/-- Your probability of winning the match, under the tie rule `rule`, when the final score
difference after `n` units has law `μ`: `P(D > 0) + (1/2) P(D = 0)` under the fair-coin rule,
`P(D > 0)` under the strict-win rule. -/
def TieRule.winProb : TieRule → ℕ → (ℤ → ℝ) → ℝ
  | .fairCoin, n, μ => aheadProb n μ + 1 / 2 * tieProb μ
  | .strictWin, n, μ => aheadProb n μ

/-! ## Nested best-ofs and the two match formats -/

/-- The probability of winning a best-of-`m` (plain majority: strictly more of the `m` units won
than lost; no random scoring) when each of its `m` units is won independently with
probability `p`. For odd `m` there is no tie. -/
def bestOfWinProb (m : ℕ) (p : ℝ) : ℝ :=
  aheadProb m (matchScoreLaw 1 0 0 p m)

/-- The probability that you win a nested unit of shape `ms` (outermost first) when you win each
point with probability `q`: the empty shape is a single point; the shape `m :: ms` is a
best-of-`m` (plain majority) of independent units of shape `ms`. -/
def nestedWinProb : List ℕ → ℝ → ℝ
  | [], q => q
  | m :: ms, q => bestOfWinProb m (nestedWinProb ms q)

/-- Your probability of winning the best-of-`n` of "sets" of shape `ms = [m₁, …, m_k]` (each set
a best-of-`m₁` of best-of-`m₂`'s … of best-of-`m_k`'s of points, decided by plain majorities),
each set's result being scored by the outer random rule `(a, b, c)`, the match being decided by
the tie rule `rule`. Points are won independently with probability `q`. -/
def nestedMatchWinProb (rule : TieRule) (a b c : ℝ) (n : ℕ) (ms : List ℕ) (q : ℝ) : ℝ :=
  rule.winProb n (matchScoreLaw a b c (nestedWinProb ms q) n)

/-- Your probability of winning the best-of-`n m₁ ⋯ m_k` (with `ms = [m₁, …, m_k]`): the
`n m₁ ⋯ m_k` points are played, each point counts as a set and is scored by the same outer random
rule `(a, b, c)`, and the match is decided by the tie rule `rule`. Points are won independently
with probability `q`. -/
def flatMatchWinProb (rule : TieRule) (a b c : ℝ) (n : ℕ) (ms : List ℕ) (q : ℝ) : ℝ :=
  rule.winProb (n * ms.prod) (matchScoreLaw a b c q (n * ms.prod))

end

end Formal.TennisBestOf
