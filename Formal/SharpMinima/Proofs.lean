import Formal.SharpMinima.Statements

/-!
# Sharp minima and layer rescaling: the proofs

There is one theorem per target of the mission `sharp-minima`. The type of each theorem is
exactly the corresponding statement constant of `Formal.SharpMinima.Statements`.

All three statements were proved on the Prove2Me platform (accepted 26 September 2026, per the
seed). Those proofs are not part of this workspace, so every proof here is still `sorry`.
-/

namespace Formal.SharpMinima

/-- Theorem 1 / Definition 5 (Dinh et al. 2017, PDF p. 4): the layer scaling preserves the
prediction function, the loss and local minimality. Proved externally (Prove2Me); open here. -/
theorem scaling_invariance : ScalingInvariance := by
  sorry

/-- Theorem 3 (Dinh et al. 2017, Section 4.2, PDF p. 5): first and second Fréchet derivatives
transform by `T_{α⁻¹}` under the layer scaling. Proved externally (Prove2Me); open here. -/
theorem derivative_transformation : DerivativeTransformation := by
  sorry

/-- Theorem 4 (Dinh et al. 2017, Section 4.2, PDF pp. 5–6): a critical local minimum with
nonzero Hessian has equivalent rescalings of arbitrarily large Hessian spectral norm. Proved
externally (Prove2Me); open here. -/
theorem goal : Goal := by
  sorry

end Formal.SharpMinima
