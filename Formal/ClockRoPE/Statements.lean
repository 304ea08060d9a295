import Formal.ClockRoPE.Defs

/-!
# ClockRoPE and Random Fourier Rotations: the statements

There is one Prop-valued definition per target of the mission `clockrope-rfr` (seed 07), after
Chen, Ainslie, Choromanski, Gao, Wu, Yuan, Sun, "ClockRoPE: Random Fourier Rotations for Temporal
Routine Modeling", 2026, arXiv:2607.26369. The model is in `Formal.ClockRoPE.Defs`; the proofs
are in `Formal.ClockRoPE.Proofs`.

Conventions shared by the statements:
* the kernel `f : ℝ → ℝ` is real, continuous, positive definite (`IsPositiveDefiniteKernel`:
  even, `f (-x) = f x`, and the seed's "nonnegative real part" condition) and normalized
  (`f 0 = 1`); evenness is part of the predicate because the seed's condition alone only
  constrains the even part of a real `f`, and all three claims fail for non-even `f` (see the
  mission's conventions);
* for Propositions 3.1 and 3.2, `f` is Lebesgue integrable (`Integrable f`), the explicit
  hypothesis the seed adds so that its Fourier transform `τ` is a genuine density, not a junk
  value; that `τ` then is a real probability density is part of the conclusion of Proposition 3.1
  (Bochner), not an assumption;
* expectation and probability over the `n` i.i.d. frequencies are taken against
  `frequencySampleMeasure f n = Measure.pi (fun _ : Fin n => volume.withDensity (ofReal ∘ τ))`;
* the dimension `n` (number of feature pairs, `d = 2n`) and the positions `p_m, p_n ∈ ℝ` are
  arbitrary.
-/

open MeasureTheory
open scoped ENNReal

namespace Formal.ClockRoPE

/-- **Milestone (Proposition 3.1, unbiasedness of the RFR estimator).** Let `f : ℝ → ℝ` be a
continuous, Lebesgue-integrable, positive-definite (hence even) kernel with `f(0) = 1`. Then its
Fourier transform `τ(ξ) = ∫ f(x) e^{-i2πξx} dx` is real-valued and is a probability density on
`ℝ` (Bochner's theorem), and for every `n`, all `q_m, k_n ∈ ℝ^{2n}` and positions `p_m, p_n`,
`E_{ξ_0,…,ξ_{n-1} ∼ τ i.i.d.}[ĝ(q_m, k_n, p_m, p_n)] = q_mᵀ k_n f(p_m - p_n)`.

Source: Chen et al. 2026 (arXiv:2607.26369), Section 3, Proposition 3.1; the density claim is the
Bochner step of the setting (Section 3, definition of `τ`). -/
def Unbiasedness : Prop :=
  ∀ f : ℝ → ℝ, Continuous f → Integrable f → IsPositiveDefiniteKernel f → f 0 = 1 →
    (∀ ξ, kernelFourier f ξ = (spectralDensity f ξ : ℂ)) ∧
      IsProbabilityDensity (spectralDensity f) ∧
      ∀ (n : ℕ) (q k : Fin (2 * n) → ℝ) (pm pn : ℝ),
        ∫ ξ : Fin n → ℝ, rfrEstimator ξ q k pm pn ∂(frequencySampleMeasure f n) =
          dotProduct q k * f (pm - pn)

/-- **Goal (Proposition 3.2, concentration of the RFR estimator).** Let `f : ℝ → ℝ` be a
continuous, Lebesgue-integrable, positive-definite (hence even) kernel with `f(0) = 1`. For every
`n`, all `q_m, k_n ∈ ℝ^{2n}`, positions `p_m, p_n` and every `ε > 0`, with
`ξ_0, …, ξ_{n-1} ∼ τ` i.i.d.,
`P(|(1/n) ĝ(q_m, k_n, p_m, p_n) - (1/n) q_mᵀ k_n f(p_m - p_n)| ≥ ε)
  ≤ 2 exp(-ε² (2n)² / (8 ∑_{j=0}^{n-1} (‖q_m⁽ʲ⁾‖ ‖k_n⁽ʲ⁾‖)²))`,
where `‖·‖` is the Euclidean norm of a feature pair.

Source: Chen et al. 2026 (arXiv:2607.26369), Section 3, Proposition 3.2 (proof by McDiarmid's
bounded-differences inequality). -/
def Concentration : Prop :=
  ∀ f : ℝ → ℝ, Continuous f → Integrable f → IsPositiveDefiniteKernel f → f 0 = 1 →
    ∀ (n : ℕ) (q k : Fin (2 * n) → ℝ) (pm pn ε : ℝ), 0 < ε →
      frequencySampleMeasure f n
          {ξ : Fin n → ℝ |
            -- lint: allow junk-div because n = 0 is kept on purpose (conventions): then
            --   1 / n = 0, the event {ε ≤ 0} is empty and the bound holds under either reading
            ε ≤ |1 / (n : ℝ) * rfrEstimator ξ q k pm pn -
              -- lint: allow junk-div because n = 0 is kept on purpose (conventions): then
              --   1 / n = 0, the event {ε ≤ 0} is empty and the bound holds under either reading
              1 / (n : ℝ) * (dotProduct q k * f (pm - pn))|} ≤
        -- lint: allow junk-div because if the sum is 0, every term of ĝ and qᵀk vanish, the event
        --   is empty and x / 0 = 0 gives the bound 2, so the claim holds under either reading
        --   (conventions)
        ENNReal.ofReal (2 * Real.exp (-(ε ^ 2 * (2 * (n : ℝ)) ^ 2 /
          (8 * ∑ j : Fin n, (pairNorm (featurePair q j) * pairNorm (featurePair k j)) ^ 2))))

/-- **Milestone (Corollary 3.3, periodic case via Herglotz's theorem).** Let `T > 0` and let
`f : ℝ → ℝ` be a continuous, positive-definite (hence even), `T`-periodic kernel with `f(0) = 1`,
with Fourier coefficients `α_k = (1/T) ∫_0^T f(x) e^{-i2πkx/T} dx`. Then every `α_k` is a
nonnegative real number, and `∑_{k ∈ ℤ} α_k = f(0) = 1` (an unconditionally convergent sum).

Source: Chen et al. 2026 (arXiv:2607.26369), Section 3, Corollary 3.3 (Herglotz's theorem). -/
def PeriodicHerglotz : Prop :=
  ∀ T : ℝ, 0 < T → ∀ f : ℝ → ℝ, Continuous f → IsPositiveDefiniteKernel f →
    Function.Periodic f T → f 0 = 1 →
      (∀ k : ℤ, (periodicFourierCoeff T f k).im = 0 ∧ 0 ≤ (periodicFourierCoeff T f k).re) ∧
        HasSum (fun k : ℤ => periodicFourierCoeff T f k) 1

end Formal.ClockRoPE
