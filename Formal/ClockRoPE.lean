import Formal.ClockRoPE.Defs
import Formal.ClockRoPE.Statements
import Formal.ClockRoPE.Proofs

/-!
# Mission `clockrope-rfr`

This is the root module of the mission formalizing seed 07, Random Fourier Rotations and
ClockRoPE (Chen, Ainslie, Choromanski et al., "ClockRoPE: Random Fourier Rotations for Temporal
Routine Modeling", 2026, arXiv:2607.26369, Section 3). Sampling RoPE rotation frequencies
i.i.d. from the Fourier transform `τ` of a continuous, integrable, normalized, positive-definite
kernel `f` gives a per-token rotate-then-dot-product estimator of `q_mᵀ k_n f(p_m - p_n)` that is
unbiased (Proposition 3.1) and concentrates exponentially in the dimension (Proposition 3.2);
for periodic kernels the frequencies are the harmonics `k/T` with nonnegative weights summing to
one (Corollary 3.3, Herglotz).

* `Formal.ClockRoPE.Defs`: feature pairs, rotations, the RFR estimator, positive-definite
  kernels, the spectral density and sampling measures, periodic Fourier coefficients.
* `Formal.ClockRoPE.Statements`: one Prop-valued definition per target.
* `Formal.ClockRoPE.Proofs`: one theorem per target.
-/
