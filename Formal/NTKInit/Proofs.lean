import Formal.NTKInit.Statements

/-!
# The neural tangent kernel at initialization: the proofs

There is one theorem per target of mission `ntk-init` (seed 03). The type of each theorem is
exactly the corresponding statement constant of `Formal.NTKInit.Statements`. All three proofs
are open.
-/

namespace Formal.NTKInit

/-- Covariance validity: `Σ^{(L)}(x, x) ≥ β²`, and the Gram matrices of `Σ^{(L)}` are positive
semidefinite and are the covariance matrices of the corresponding `multivariateGaussian`
(Section 4.1, Proposition 1, PDF p. 5). Open. -/
theorem covariance_valid : CovarianceValid := by
  sorry

/-- Proposition 1 (Section 4.1, PDF p. 5): the outputs converge in law, in the sequential width
limit, to i.i.d. centered Gaussian processes of covariance `Σ^{(L)}`. Open. -/
theorem gaussian_output_limit : GaussianOutputLimit := by
  sorry

/-- Theorem 1 (Section 4.1, PDF p. 5): the empirical NTK converges in probability to
`Θ^{(L)}_∞ ⊗ Id_q` in the sequential width limit. Open. -/
theorem goal : Goal := by
  sorry

end Formal.NTKInit
