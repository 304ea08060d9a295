import Formal.ClockRoPE.Statements

/-!
# ClockRoPE and Random Fourier Rotations: the proofs

There is one theorem per target of the mission `clockrope-rfr`. The type of each theorem is
exactly the corresponding statement constant of `Formal.ClockRoPE.Statements`.

None of the three results has a machine-checked proof yet (seed 07): Proposition 3.1 needs
Bochner's theorem for integrable kernels and a real/complex bookkeeping argument, Proposition 3.2
needs McDiarmid's bounded-differences inequality, and Corollary 3.3 needs Herglotz's theorem.
Every proof here is still `sorry`.
-/

namespace Formal.ClockRoPE

/-- Proposition 3.1 (arXiv:2607.26369, Section 3): the spectral density is a real probability
density and the RFR estimator is unbiased. Open. -/
theorem unbiasedness : Unbiasedness := by
  sorry

/-- Proposition 3.2 (arXiv:2607.26369, Section 3): the McDiarmid concentration bound for the
normalized RFR estimator. Open. -/
theorem concentration : Concentration := by
  sorry

/-- Corollary 3.3 (arXiv:2607.26369, Section 3): the Fourier coefficients of a continuous
positive-definite periodic kernel are nonnegative and sum to `f(0) = 1`. Open. -/
theorem periodic_herglotz : PeriodicHerglotz := by
  sorry

end Formal.ClockRoPE
