import Formal.Scaffold.Statements

/-!
# SCAFFOLD with client sampling: the proofs

One theorem per target of the mission `scaffold`. The type of each theorem is exactly the
corresponding statement constant of `Formal.Scaffold.Statements`. The four named propositions are
open (`sorry`); the goal is their conjunction, assembled from the two convergence theorems, so it
is proved as soon as they are.
-/

namespace Formal.Scaffold

/-- GradientGrowth (Karimireddy et al., Appendix B.1, (9), PDF p. 14). Open. -/
theorem gradient_growth : GradientGrowth := by
  sorry

/-- PerturbedStrongConvexity (Karimireddy et al., Appendix C, Lemma 5, PDF p. 17). Open. -/
theorem perturbed_strong_convexity : PerturbedStrongConvexity := by
  sorry

/-- ConvexFiniteRoundConvergence (Karimireddy et al., Appendix E.1, Lemma 15, PDF pp. 30–31).
Open. -/
theorem convex_finite_round_convergence : ConvexFiniteRoundConvergence := by
  sorry

/-- NonconvexFiniteRoundConvergence (Karimireddy et al., Appendix E.2, Lemma 19, PDF p. 34;
initialization PDF pp. 31 and 35). Open. -/
theorem nonconvex_finite_round_convergence : NonconvexFiniteRoundConvergence := by
  sorry

/-- Goal (Karimireddy et al., Theorem III, Section 5, PDF p. 5, finite-round form): the
conjunction of the two convergence statements. -/
theorem goal : Goal :=
  And.intro convex_finite_round_convergence nonconvex_finite_round_convergence

end Formal.Scaffold
