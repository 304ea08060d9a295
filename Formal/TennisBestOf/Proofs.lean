import Formal.TennisBestOf.Statements

/-!
# Tennis: a flat best-of against nested best-ofs — the proofs

There is one theorem per target of the mission `tennis-best-of`. The type of each theorem is
exactly the corresponding statement constant of `Formal.TennisBestOf.Statements`. Parts (a)–(d)
are not proved yet (`sorry`); the goal is assembled from them.
-/

namespace Formal.TennisBestOf

/-- Part (a): the best-of-`nm` beats the best-of-`n` of best-of-`m`'s. -/
theorem part_a : PartA := by
  sorry

/-- Part (b): the flat best-of beats any nesting, with fair-coin tie-breaks. -/
theorem part_b : PartB := by
  sorry

/-- Part (c): the same with the outer random scoring rule `(a, b, c)`, `a > c`. -/
theorem part_c : PartC := by
  sorry

/-- Part (d): the same under the strict-win rule, assuming `b ≥ 1/2`. -/
theorem part_d : PartD := by
  sorry

/-- The goal: the conjunction of parts (a)–(d). -/
theorem goal : Goal :=
  ⟨part_a, part_b, part_c, part_d⟩

end Formal.TennisBestOf
