import Formal.TennisBestOf.Defs

/-!
# Tennis: a flat best-of against nested best-ofs — the statements

There is one Prop-valued definition per target of the mission `tennis-best-of` (seed 09,
"Tennis: don't label twice"): parts (a)–(d) of the problem and the goal, their conjunction.
The model (laws on `ℤ`, the outer random scoring rule, the tie rules, nested best-ofs) is in
`Formal.TennisBestOf.Defs`. The proofs are in `Formal.TennisBestOf.Proofs`.

In every part you win each point independently with probability `q ∈ (1/2, 1)`.
-/

namespace Formal.TennisBestOf

/-- **Part (a).** Let `q ∈ (1/2, 1)` and let `n, m` be odd positive integers greater than `1`.
Your probability of winning a best-of-`nm` (the `nm` points are played and whoever wins the
majority of them wins) is strictly greater than your probability of winning a best-of-`n` of
best-of-`m`'s (the majority of `n` "sets", each set won by the majority of `m` points).

Source: seed 09, "The problem", part (a). -/
def PartA : Prop :=
  ∀ q : ℝ, 1 / 2 < q → q < 1 →
    ∀ n m : ℕ, Odd n → Odd m → 1 < n → 1 < m →
      bestOfWinProb n (bestOfWinProb m q) < bestOfWinProb (n * m) q

/-- **Part (b).** Let `q ∈ (1/2, 1)`, let `n > 1` be any positive integer and let
`ms = [m₁, …, m_k]` (`k ≥ 1`) be odd positive integers greater than `1`. With plain majorities
(scoring rule `a = 1`, `b = c = 0`) and ties decided by an independent fair coin, your probability
of winning the best-of-`n m₁ ⋯ m_k` is strictly greater than that of winning the best-of-`n` of
sets that are best-of-`m₁`'s of games, …, which are best-of-`m_k`'s of points.

Source: seed 09, "The problem", part (b). -/
def PartB : Prop :=
  ∀ q : ℝ, 1 / 2 < q → q < 1 →
    ∀ n : ℕ, 1 < n →
      ∀ ms : List ℕ, ms ≠ [] → (∀ m ∈ ms, Odd m ∧ 1 < m) →
        nestedMatchWinProb .fairCoin 1 0 0 n ms q < flatMatchWinProb .fairCoin 1 0 0 n ms q

/-- **Part (c).** As in part (b), but each completed set counts toward the match score in an
independently random way: with probability `a` its winner gains `1`, with probability `b` it is
ignored, with probability `c` its loser gains `1`, where `a, b, c ≥ 0`, `a + b + c = 1` and
`a > c`. The rule is applied once per completed set, at the outermost layer only (games and points
inside a set are plain majorities); in the best-of-`n m₁ ⋯ m_k` each point counts as a set and is
scored by the same rule. Ties are still decided by a fair coin. Your probability of winning is
strictly greater in the best-of-`n m₁ ⋯ m_k`.

Source: seed 09, "The problem", part (c). -/
def PartC : Prop :=
  ∀ q : ℝ, 1 / 2 < q → q < 1 →
    ∀ n : ℕ, 1 < n →
      ∀ ms : List ℕ, ms ≠ [] → (∀ m ∈ ms, Odd m ∧ 1 < m) →
        ∀ a b c : ℝ, 0 ≤ a → 0 ≤ b → 0 ≤ c → a + b + c = 1 → c < a →
          nestedMatchWinProb .fairCoin a b c n ms q < flatMatchWinProb .fairCoin a b c n ms q

/-- **Part (d).** As in part (c), but you win the match only with a strictly greater match score
than your opponent (no fair coin). Assuming `b ≥ 1/2`, your probability of winning is strictly
greater in the best-of-`n m₁ ⋯ m_k`.

Source: seed 09, "The problem", part (d).

Link to Dorner and Hardt (arXiv:2402.02249v3, Section 3), exactly: the instances of `PartD` with
one level of sets, `ms = [m]`, are the instances of their finite-sample inequality (a budget of
`n m` labels: `n` data points with `m` labels each against `n m` data points with one label each)
that lie inside these hypotheses, namely `n ≥ 2` data points, odd `m ≥ 3` labels per data point,
label accuracy `1/2 < q < 1`, and classifier accuracies `p ≥ 1/2` and `p + ε ≤ 1` with `ε > 0`,
through `a = (p + ε)(1 - p)`, `c = p (1 - p - ε)`, `b = 1 - a - c` (then `a - c = ε > 0`,
`a, c ≥ 0` and `b = 1 - 2p(1 - p) + ε(2p - 1) ≥ 1/2`). The paper's inequality also allows `n = 1`
and `q = 1`, which `PartD` does not state. The seed's example showing that some condition on `b`
is needed (`(a, b, c) = (0.9, 0.1, 0)`, `q = 0.6`, `m = 3`, `n = 1`) has `n = 1` and so lies
outside these hypotheses as well as violating `b ≥ 1/2`. The paper verifies the inequality
numerically and leaves the finite-sample statement open (Section 5, Conjecture 1, which as
literally stated concerns the correlated-error setting of its Section 3.2 and is not claimed
here). -/
def PartD : Prop :=
  ∀ q : ℝ, 1 / 2 < q → q < 1 →
    ∀ n : ℕ, 1 < n →
      ∀ ms : List ℕ, ms ≠ [] → (∀ m ∈ ms, Odd m ∧ 1 < m) →
        ∀ a b c : ℝ, 0 ≤ a → 0 ≤ b → 0 ≤ c → a + b + c = 1 → c < a → 1 / 2 ≤ b →
          nestedMatchWinProb .strictWin a b c n ms q < flatMatchWinProb .strictWin a b c n ms q

/-- **Goal.** Parts (a), (b), (c) and (d) of the tennis problem all hold.

Source: seed 09, "The problem", parts (a)–(d). -/
def Goal : Prop :=
  PartA ∧ PartB ∧ PartC ∧ PartD

end Formal.TennisBestOf
