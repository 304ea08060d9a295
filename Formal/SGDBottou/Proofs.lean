import Formal.SGDBottou.Statements

/-!
# Stochastic gradient convergence (Bottou, Curtis, Nocedal, Section 4): the proofs

One theorem per target of the mission `sgd-bottou`. The type of each theorem is exactly the
corresponding statement constant of `Formal.SGDBottou.Statements`. All proofs are open.
-/

namespace Formal.SGDBottou

/-- Lemma 4.4 (Bottou et al., Section 4.1, PDF pp. 24–25, (4.10a)–(4.10b)). Open. -/
theorem lemma_4_4 : Lemma44 := by
  sorry

/-- Theorem 4.6 (Bottou et al., Section 4.2, PDF p. 26, (4.13)–(4.14)). Open. -/
theorem theorem_4_6 : Theorem46 := by
  sorry

/-- Theorem 4.7 (Bottou et al., Section 4.2). Open. -/
theorem theorem_4_7 : Theorem47 := by
  sorry

/-- Theorem 4.8 (Bottou et al., Section 4.3). Open. -/
theorem theorem_4_8 : Theorem48 := by
  sorry

/-- Goal: Theorem 4.10 (Bottou et al., Section 4.3, PDF p. 33, (4.30a)–(4.30b)). Open. -/
theorem goal : Goal := by
  sorry

end Formal.SGDBottou
