import Mathlib

/-!
# ClockRoPE and Random Fourier Rotations: the model

This file holds the model of the mission `clockrope-rfr` (Chen, Ainslie, Choromanski, Gao, Wu,
Yuan, Sun, "ClockRoPE: Random Fourier Rotations for Temporal Routine Modeling", 2026,
arXiv:2607.26369, Section 3). It contains definitions, plus the `SigmaFinite` instances and the
two `IsProbabilityMeasure` lemmas of the frequency laws that every proof about them needs.

* Embedding dimension `d = 2n`. A query or key is a function `Fin (2 * n) → ℝ`; its `j`-th
  feature pair (`j : Fin n`) is `v⁽ʲ⁾ = (v_{2j}, v_{2j+1})`, a function `Fin 2 → ℝ`.
* `R(θ)` is the `2 × 2` Givens rotation matrix, a `Matrix (Fin 2) (Fin 2) ℝ`; it acts through
  `Matrix.mulVec` and pairs are compared with `dotProduct`.
* A real kernel `f : ℝ → ℝ` is positive definite (`IsPositiveDefiniteKernel f`) if it is even,
  `f (-x) = f x`, and satisfies the seed's condition: for every finite family of points
  `x₁, …, x_N ∈ ℝ` and complex coefficients `c₁, …, c_N` the sum
  `∑_{i,j} conj(c_i) c_j f(x_i - x_j)` has nonnegative real part. The seed's condition alone only
  constrains the even part of a real `f`; with evenness the sum is real, so the predicate is the
  standard (Bochner) notion of a positive-definite function, restricted to real `f`.
* The Fourier transform of the kernel is Mathlib's `𝓕` applied to `x ↦ (f x : ℂ)`. For functions
  `ℝ → ℂ`, Mathlib's normalization is `𝓕 g ξ = ∫ x, exp(-2π i x ξ) g x dx`
  (`Real.fourier_real_eq_integral_exp_smul`), which is exactly the seed's convention
  `τ(ξ) = ∫ f(x) e^{-i2πξx} dx`; no rescaling is needed. The spectral density `τ` is its real
  part (for the symmetric kernels of the statements the transform is real; Milestone 3.1 asserts
  this).
* The frequency law is `volume.withDensity (ENNReal.ofReal ∘ τ)` on `ℝ`; `n` i.i.d. frequencies
  are sampled from the finite product `Measure.pi` of `n` copies of it. Both are `SigmaFinite` for
  every `f` (instances below); both are probability measures as soon as `τ` is a probability
  density (`isProbabilityMeasure_spectralMeasure`, `isProbabilityMeasure_frequencySampleMeasure`),
  which Proposition 3.1 asserts.
* The Random Fourier Rotation estimator is
  `ĝ(ξ; q, k, p_m, p_n) = ∑_j (R(2πξ_j p_m) q⁽ʲ⁾) ⬝ (R(2πξ_j p_n) k⁽ʲ⁾)`.
* For Corollary 3.3: the Fourier coefficients of a `T`-periodic kernel,
  `α_k = (1/T) ∫_0^T f(x) e^{-i2πkx/T} dx`, written as an explicit interval integral.
-/

open MeasureTheory
open scoped ENNReal FourierTransform

namespace Formal.ClockRoPE

noncomputable section

/-! ## Feature pairs, rotations, the estimator -/

/-- The `j`-th feature pair `v⁽ʲ⁾ = (v_{2j}, v_{2j+1}) ∈ ℝ²` of a vector `v ∈ ℝ^{2n}`
(arXiv:2607.26369, Section 3, setting of Propositions 3.1–3.2). Coordinate `i : Fin 2` of the
pair is `v_{2j+i}`. -/
def featurePair {n : ℕ} (v : Fin (2 * n) → ℝ) (j : Fin n) : Fin 2 → ℝ :=
  fun i => v ⟨2 * j.val + i.val, by have hj := j.isLt; have hi := i.isLt; omega⟩

/-- The Euclidean norm `‖u‖ = √(u₀² + u₁²)` of a feature pair `u ∈ ℝ²`. Defined explicitly
through `dotProduct`, because Mathlib's default norm on `Fin 2 → ℝ` is the sup norm, not the
Euclidean norm the source's bound uses. -/
def pairNorm (u : Fin 2 → ℝ) : ℝ :=
  -- lint: allow junk-sqrt because u ⬝ u = u₀² + u₁² ≥ 0
  Real.sqrt (dotProduct u u)

/-- The `2 × 2` Givens rotation matrix
`R(θ) = [[cos θ, -sin θ], [sin θ, cos θ]]` (arXiv:2607.26369, Section 3). -/
def rotation (θ : ℝ) : Matrix (Fin 2) (Fin 2) ℝ :=
  !![Real.cos θ, -Real.sin θ; Real.sin θ, Real.cos θ]

/-- The Random Fourier Rotation (RFR) estimator (arXiv:2607.26369, Section 3):
for frequencies `ξ = (ξ_0, …, ξ_{n-1})`, a query `q ∈ ℝ^{2n}` at position `p_m` and a key
`k ∈ ℝ^{2n}` at position `p_n`,
`ĝ(q, k, p_m, p_n) = ∑_{j=0}^{n-1} (R(2πξ_j p_m) q⁽ʲ⁾)ᵀ (R(2πξ_j p_n) k⁽ʲ⁾)`. -/
def rfrEstimator {n : ℕ} (ξ : Fin n → ℝ) (q k : Fin (2 * n) → ℝ) (pm pn : ℝ) : ℝ :=
  ∑ j : Fin n,
    dotProduct (Matrix.mulVec (rotation (2 * Real.pi * ξ j * pm)) (featurePair q j))
      (Matrix.mulVec (rotation (2 * Real.pi * ξ j * pn)) (featurePair k j))

/-! ## Kernels and their spectra -/

/-- A real kernel `f : ℝ → ℝ` is positive definite: it is even, `f (-x) = f x`, and for every
finite family of points `x_1, …, x_N ∈ ℝ` and complex coefficients `c_1, …, c_N` the sum
`∑_{i,j} conj(c_i) c_j f(x_i - x_j)` has nonnegative real part (the seed's condition, verbatim).

The seed's condition alone is weaker than its name: since `Re(conj(c_i) c_j)` is symmetric in
`i, j` it only sees the even part of `f`, and a non-even `f` satisfying it (for example
`e^{-πx²} + ε x e^{-πx²}`) makes all three statements false. For a real `f`, evenness is Bochner's
Hermitian condition `f (-x) = conj (f x)`; together with it the double sum is real, so this
predicate is the standard notion of a positive-definite function (restricted to real `f`). -/
structure IsPositiveDefiniteKernel (f : ℝ → ℝ) : Prop where
  /-- `f` is even: `f (-x) = f x` (Hermitian symmetry of a real kernel). -/
  even : ∀ x, f (-x) = f x
  /-- The seed's condition: `Re ∑_{i,j} conj(c_i) c_j f(x_i - x_j) ≥ 0`. -/
  re_sum_nonneg : ∀ (N : ℕ) (x : Fin N → ℝ) (c : Fin N → ℂ),
    0 ≤ (∑ i : Fin N, ∑ j : Fin N, starRingEnd ℂ (c i) * c j * (f (x i - x j) : ℂ)).re

/-- The (complex) Fourier transform of a real kernel, `ξ ↦ ∫ f(x) e^{-i2πξx} dx`, computed with
Mathlib's `𝓕` on functions `ℝ → ℂ`. Mathlib's normalization
(`Real.fourier_real_eq_integral_exp_smul`: `𝓕 g ξ = ∫ x, exp(↑(-2π x ξ) i) • g x`) coincides with
the seed's `τ(ξ) = ∫_ℝ f(x) e^{-i2πξx} dx`. -/
def kernelFourier (f : ℝ → ℝ) : ℝ → ℂ :=
  𝓕 (fun x : ℝ => (f x : ℂ))

/-- The spectral density `τ(ξ)` of a kernel: the real part of its Fourier transform
`kernelFourier f`. For the symmetric kernels of the statements the transform is real-valued, so
nothing is discarded; Milestone 3.1 asserts this explicitly. -/
def spectralDensity (f : ℝ → ℝ) (ξ : ℝ) : ℝ :=
  (kernelFourier f ξ).re

/-- A real function `p` is a probability density on `ℝ`: nonnegative everywhere, Lebesgue
integrable, with total mass `∫ p = 1`. -/
def IsProbabilityDensity (p : ℝ → ℝ) : Prop :=
  (∀ ξ, 0 ≤ p ξ) ∧ Integrable p ∧ ∫ ξ, p ξ = 1

/-- The frequency law `τ(ξ) dξ`: Lebesgue measure with density `ENNReal.ofReal (τ ξ)`. It is
σ-finite for every `f`, and a probability measure when `τ` is a probability density
(`isProbabilityMeasure_spectralMeasure`). -/
def spectralMeasure (f : ℝ → ℝ) : Measure ℝ :=
  (volume : Measure ℝ).withDensity (fun ξ => ENNReal.ofReal (spectralDensity f ξ))

/-- The frequency law is σ-finite (a finite density with respect to Lebesgue measure), so product
measures and Fubini's theorem apply to it. -/
instance (f : ℝ → ℝ) : SigmaFinite (spectralMeasure f) :=
  inferInstanceAs
    (SigmaFinite ((volume : Measure ℝ).withDensity fun ξ => ENNReal.ofReal (spectralDensity f ξ)))

/-- When `τ` is a probability density (the first claim of Proposition 3.1), the frequency law is a
probability measure: its total mass is `∫⁻ ofReal τ = ofReal (∫ τ) = 1`. -/
theorem isProbabilityMeasure_spectralMeasure {f : ℝ → ℝ}
    (hτ : IsProbabilityDensity (spectralDensity f)) : IsProbabilityMeasure (spectralMeasure f) := by
  obtain ⟨hnonneg, hInt, hmass⟩ := hτ
  refine ⟨?_⟩
  rw [spectralMeasure, withDensity_apply _ MeasurableSet.univ, Measure.restrict_univ,
    ← ofReal_integral_eq_lintegral_ofReal hInt (ae_of_all _ hnonneg), hmass, ENNReal.ofReal_one]

/-- The joint law of `n` i.i.d. frequencies `ξ_0, …, ξ_{n-1} ∼ τ`: the finite product
`Measure.pi` of `n` independent copies of `spectralMeasure f`. Expectations and probabilities
over the sampled frequencies are integrals and measures against this product measure. -/
def frequencySampleMeasure (f : ℝ → ℝ) (n : ℕ) : Measure (Fin n → ℝ) :=
  Measure.pi (fun _ : Fin n => spectralMeasure f)

/-- The joint frequency law is σ-finite for every `f`. -/
instance (f : ℝ → ℝ) (n : ℕ) : SigmaFinite (frequencySampleMeasure f n) :=
  inferInstanceAs (SigmaFinite (Measure.pi fun _ : Fin n => spectralMeasure f))

/-- When `τ` is a probability density, the joint law of the `n` frequencies is a probability
measure (a finite product of probability measures). -/
theorem isProbabilityMeasure_frequencySampleMeasure {f : ℝ → ℝ}
    (hτ : IsProbabilityDensity (spectralDensity f)) (n : ℕ) :
    IsProbabilityMeasure (frequencySampleMeasure f n) :=
  haveI := isProbabilityMeasure_spectralMeasure hτ
  inferInstanceAs (IsProbabilityMeasure (Measure.pi fun _ : Fin n => spectralMeasure f))

/-! ## The periodic case -/

/-- The `k`-th Fourier coefficient of a `T`-periodic kernel (arXiv:2607.26369, Corollary 3.3):
`α_k = (1/T) ∫_0^T f(x) e^{-i2πkx/T} dx`, an interval integral in `ℂ`. For `0 < T` this equals
Mathlib's `fourierCoeffOn (hab : 0 < T) (fun x => (f x : ℂ)) k` (`fourierCoeffOn_eq_integral`). -/
def periodicFourierCoeff (T : ℝ) (f : ℝ → ℝ) (k : ℤ) : ℂ :=
  -- lint: allow junk-div because PeriodicHerglotz, the only statement using periodicFourierCoeff,
  --   assumes 0 < T
  (1 / (T : ℂ)) *
    -- lint: allow missing-integrability because PeriodicHerglotz assumes f continuous, so the
    --   integrand x ↦ f x e^{-i2πkx/T} is continuous, hence integrable on [0, T]
    (∫ x in (0 : ℝ)..T,
      -- lint: allow junk-div because PeriodicHerglotz, the only statement using
      --   periodicFourierCoeff, assumes 0 < T
      (f x : ℂ) * Complex.exp (-(2 * (Real.pi : ℂ) * Complex.I * (k : ℂ) * (x : ℂ) / (T : ℂ))))

end

end Formal.ClockRoPE
