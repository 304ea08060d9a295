import Mathlib

/-!
# LP-FT with perfect pretrained features: the model

This file holds the model of the mission `lp-ft` (seed 01, "Why initialization matters for
transfer learning"). It formalizes the two-layer linear network setting of Kumar, Raghunathan,
Jones, Ma and Liang, *Fine-Tuning can Distort Pretrained Features and Underperform
Out-of-Distribution* (ICLR 2022, arXiv:2202.10054v1), Section 3 and Appendix A. It contains
definitions only: no convergence, invariant or risk bound is assumed anywhere in the model.

* Vectors live in `Vec d = EuclideanSpace ℝ (Fin d)`. A real `p × q` matrix is a continuous linear
  map `Mat p q = Vec q →L[ℝ] Vec p`, with the Euclidean adjoint `tr A` as transpose and the
  operator norm as norm. `outer a b` is the rank-one matrix `a bᵀ`.
* `Problem d k n` bundles the fixed data: the training matrix `X ∈ ℝ^{n×d}` (the `n` training
  inputs are its rows), the ground-truth features `B⋆ ∈ ℝ^{k×d}` and head `v⋆ ∈ ℝ^k`, and the
  `k × k` matrix `U` relating pretrained and true features. Derived quantities: `w⋆ = B⋆ᵀ v⋆`,
  `Y = X w⋆`, the pretrained features `B₀ = U B⋆`, the aligned head `u = U v⋆`, and the training
  span `S = rowspace X = range Xᵀ`.
* `PerfectFeatureRegime P` collects the assumptions of the seed: `B⋆` has orthonormal rows,
  `v⋆ ≠ 0`, `U` is orthogonal, `1 ≤ k ≤ m` and `m + k < d` with `m = dim S`, and the maps
  `v ↦ Π_S B₀ᵀ v` and `v ↦ Π_{S⊥} B₀ᵀ v` are injective (Definition 3.2, Appendix A.1).
* The training loss is the unnormalized `L̂(v, B) = ‖X Bᵀ v - Y‖²` (equation (3.2)). Its gradients
  are written out explicitly: `∇_v L̂ = 2 B Xᵀ r` and the Frobenius gradient
  `∇_B L̂ = 2 v (Xᵀ r)ᵀ`, where `r = X Bᵀ v - Y`. Fine-tuning (FT) is the gradient flow of `L̂` in
  `(v, B)`; linear probing (LP) is the gradient flow in `v` with `B = B₀` frozen (equation (3.3)).
  The flows themselves are `Formal.Common.IsFlowOn` solutions of these vector fields.
* An OOD law is a probability measure `μ` on `ℝ^d` with finite second moment (`MemLp id 2 μ`)
  whose uncentered second-moment matrix `Σ = E_μ[x xᵀ]` is positive definite. Its mean need not
  be zero. The OOD loss is `L_OOD(v, B) = E_μ[(vᵀ B x - w⋆ᵀ x)²]`.
* The random FT head `v₀ ~ N(0, σ² I_k)` has law `gaussianHead k σ`: the product of `k`
  independent `N(0, σ²)` coordinates (`Measure.pi` of `gaussianReal 0 σ²`), transported to
  `EuclideanSpace ℝ (Fin k)` by `WithLp.toLp 2`; as a measure it equals Mathlib's
  `multivariateGaussian 0 (σ² • 1)`.
-/

open MeasureTheory ProbabilityTheory
open scoped RealInnerProductSpace ENNReal NNReal

namespace Formal.LPFT

noncomputable section

/-! ## Vectors and matrices -/

/-- Real Euclidean space `ℝ^d`, as `EuclideanSpace ℝ (Fin d)`. -/
abbrev Vec (d : ℕ) : Type := EuclideanSpace ℝ (Fin d)

/-- Real `p × q` matrices, as continuous linear maps `ℝ^q → ℝ^p` (with the operator norm). -/
abbrev Mat (p q : ℕ) : Type := Vec q →L[ℝ] Vec p

/-- The transpose `Aᵀ` of a matrix `A`: its Euclidean adjoint `ContinuousLinearMap.adjoint A`, so
that `⟪Aᵀ y, x⟫ = ⟪y, A x⟫`. -/
def tr {p q : ℕ} (A : Mat p q) : Mat q p := ContinuousLinearMap.adjoint A

/-- The rank-one matrix `a bᵀ` (outer product), acting by `x ↦ ⟪b, x⟫ • a`. -/
def outer {p q : ℕ} (a : Vec p) (b : Vec q) : Mat p q :=
  ContinuousLinearMap.smulRight (innerSL ℝ b) a

/-! ## The fixed data -/

/-- The fixed data of the perfect-feature problem, with input dimension `d`, feature dimension
`k` and `n` training examples. No assumption is bundled here: see `PerfectFeatureRegime`. -/
structure Problem (d k n : ℕ) where
  /-- The training matrix `X ∈ ℝ^{n×d}`; its rows are the `n` training inputs. -/
  X : Mat n d
  /-- The ground-truth feature extractor `B⋆ ∈ ℝ^{k×d}`. -/
  Bstar : Mat k d
  /-- The ground-truth head `v⋆ ∈ ℝ^k`. -/
  vstar : Vec k
  /-- The `k × k` matrix `U` with `B₀ = U B⋆` (orthogonal under `PerfectFeatureRegime`). -/
  U : Mat k k

namespace Problem

/-- The ground-truth effective predictor `w⋆ = B⋆ᵀ v⋆ ∈ ℝ^d`. -/
def wstar {d k n : ℕ} (P : Problem d k n) : Vec d := tr P.Bstar P.vstar

/-- The training labels `Y = X w⋆ ∈ ℝ^n` (noiseless). -/
def Y {d k n : ℕ} (P : Problem d k n) : Vec n := P.X P.wstar

/-- The pretrained feature extractor `B₀ = U B⋆ ∈ ℝ^{k×d}` (perfect features up to `U`). -/
def B0 {d k n : ℕ} (P : Problem d k n) : Mat k d := P.U ∘L P.Bstar

/-- The aligned head `u = U v⋆ ∈ ℝ^k`. -/
def u {d k n : ℕ} (P : Problem d k n) : Vec k := P.U P.vstar

/-- The training span `S = rowspace X`, the span of the training inputs, written as the range
of `Xᵀ`. Its dimension is `m`. -/
def trainSpan {d k n : ℕ} (P : Problem d k n) : Submodule ℝ (Vec d) :=
  LinearMap.range (tr P.X)

/-! ## Training loss, gradients and vector fields -/

/-- The training residual `r(v, B) = X Bᵀ v - Y ∈ ℝ^n`. -/
def residual {d k n : ℕ} (P : Problem d k n) (v : Vec k) (B : Mat k d) : Vec n :=
  P.X (tr B v) - P.Y

/-- The unnormalized training loss `L̂(v, B) = ‖X Bᵀ v - Y‖²` (equation (3.2)). It is recorded
for reference: the dynamics below use its gradients, written out explicitly. -/
def trainLoss {d k n : ℕ} (P : Problem d k n) (v : Vec k) (B : Mat k d) : ℝ :=
  ‖P.residual v B‖ ^ 2

/-- The gradient of `L̂` in the head: `∇_v L̂(v, B) = 2 B Xᵀ (X Bᵀ v - Y) ∈ ℝ^k`. -/
def gradHead {d k n : ℕ} (P : Problem d k n) (v : Vec k) (B : Mat k d) : Vec k :=
  (2 : ℝ) • B (tr P.X (P.residual v B))

/-- The Frobenius gradient of `L̂` in the features:
`∇_B L̂(v, B) = 2 v (Xᵀ (X Bᵀ v - Y))ᵀ ∈ ℝ^{k×d}`, a rank-one matrix. This is the gradient for the
Frobenius (Hilbert–Schmidt) inner product on matrices, not for the operator norm. -/
def gradFeatures {d k n : ℕ} (P : Problem d k n) (v : Vec k) (B : Mat k d) : Mat k d :=
  (2 : ℝ) • outer v (tr P.X (P.residual v B))

/-- The fine-tuning vector field on `(v, B) ∈ ℝ^k × ℝ^{k×d}`: `(-∇_v L̂, -∇_B L̂)`
(equation (3.3), both layers trained). -/
def ftField {d k n : ℕ} (P : Problem d k n) (p : Vec k × Mat k d) : Vec k × Mat k d :=
  (-P.gradHead p.1 p.2, -P.gradFeatures p.1 p.2)

/-- The linear-probing vector field on heads `v ∈ ℝ^k`: `-∇_v L̂(v, B₀)`, the features being
frozen at `B₀` (equation (3.3) for the head only). -/
def lpField {d k n : ℕ} (P : Problem d k n) (v : Vec k) : Vec k :=
  -P.gradHead v P.B0

/-! ## Out-of-distribution loss -/

/-- The OOD loss `L_OOD(v, B) = E_{x∼μ}[(vᵀ B x - w⋆ᵀ x)²]`, a Bochner integral against `μ`. It is
meaningful for laws with `MemLp id 2 μ` (see `IsOODLaw`), where the integrand is integrable. -/
def oodLoss {d k n : ℕ} (P : Problem d k n) (μ : Measure (Vec d)) (v : Vec k) (B : Mat k d) :
    ℝ :=
  ∫ x, (⟪v, B x⟫_ℝ - ⟪P.wstar, x⟫_ℝ) ^ 2 ∂μ

end Problem

/-- The uncentered second-moment matrix `Σ = E_{x∼μ}[x xᵀ] ∈ ℝ^{d×d}`, a Bochner integral of
the matrix-valued map `x ↦ x xᵀ`. It is meaningful for laws with `MemLp id 2 μ`. -/
def secondMoment {d : ℕ} (μ : Measure (Vec d)) : Mat d d :=
  ∫ x, outer x x ∂μ

/-- An admissible OOD law on `ℝ^d`: a probability measure with finite second moment whose
uncentered second-moment matrix `Σ = E_μ[x xᵀ]` is positive definite (`zᵀ Σ z > 0` for
`z ≠ 0`). The mean of `μ` need not be zero. -/
structure IsOODLaw {d : ℕ} (μ : Measure (Vec d)) : Prop where
  /-- `μ` is a probability measure. -/
  isProbabilityMeasure : IsProbabilityMeasure μ
  /-- Finite second moment: the identity map is in `L²(μ)`. -/
  memLp_two : MemLp (id : Vec d → Vec d) 2 μ
  /-- Positive definiteness of `Σ = E_μ[x xᵀ]`. -/
  secondMoment_posDef : ∀ z : Vec d, z ≠ 0 → 0 < ⟪z, secondMoment μ z⟫_ℝ

/-! ## Assumptions of the perfect-feature regime -/

/-- The assumptions of the perfect-feature regime of Proposition 3.7, in the nonzero-signal case
fixed by the seed. With `S = P.trainSpan` and `m = dim S`:

* `B⋆` has orthonormal rows: `B⋆ B⋆ᵀ = I_k`;
* the target head is nonzero: `v⋆ ≠ 0`;
* `U` is orthogonal: `Uᵀ U = I_k` and `U Uᵀ = I_k`;
* the dimensions satisfy `1 ≤ k ≤ m` and `m + k < d`;
* the orthogonal projections of `R₀ = rowspace B₀` into `S` and into `S⊥` are injective, stated
  as injectivity of `v ↦ Π_S B₀ᵀ v` and `v ↦ Π_{S⊥} B₀ᵀ v` (Definition 3.2, Appendix A.1). -/
structure PerfectFeatureRegime {d k n : ℕ} (P : Problem d k n) : Prop where
  /-- `B⋆` has orthonormal rows: `B⋆ B⋆ᵀ = I_k`. -/
  bstar_orthonormal_rows : P.Bstar ∘L tr P.Bstar = ContinuousLinearMap.id ℝ (Vec k)
  /-- The ground-truth head is nonzero. -/
  vstar_ne_zero : P.vstar ≠ 0
  /-- `U` is orthogonal: `Uᵀ U = I_k`. -/
  tr_U_comp_U : tr P.U ∘L P.U = ContinuousLinearMap.id ℝ (Vec k)
  /-- `U` is orthogonal: `U Uᵀ = I_k`. -/
  U_comp_tr_U : P.U ∘L tr P.U = ContinuousLinearMap.id ℝ (Vec k)
  /-- `1 ≤ k`. -/
  one_le_k : 1 ≤ k
  /-- `k ≤ m`, where `m = dim S`. -/
  k_le_m : k ≤ Module.finrank ℝ P.trainSpan
  /-- `m + k < d`, where `m = dim S`. -/
  m_add_k_lt_d : Module.finrank ℝ P.trainSpan + k < d
  /-- The projection into the training span is injective on `R₀`: `v ↦ Π_S B₀ᵀ v` is injective. -/
  inj_proj_span :
    Function.Injective fun v : Vec k => Submodule.starProjection P.trainSpan (tr P.B0 v)
  /-- The projection into `S⊥` is injective on `R₀`: `v ↦ Π_{S⊥} B₀ᵀ v` is injective. -/
  inj_proj_orth :
    Function.Injective fun v : Vec k => Submodule.starProjection (P.trainSpanᗮ) (tr P.B0 v)

/-! ## The Gaussian head law -/

/-- The law `N(0, σ² I_k)` of the random FT head: the product of `k` independent `N(0, σ²)`
coordinates (`Measure.pi` of `gaussianReal 0 σ²`), transported from `Fin k → ℝ` to
`EuclideanSpace ℝ (Fin k)` by the measurable map `WithLp.toLp 2`. The variance is passed to
`gaussianReal` as the `ℝ≥0` value `(σ²).toNNReal`, which equals `σ²`.

This is the same measure as Mathlib's `ProbabilityTheory.multivariateGaussian 0 (σ² • 1)`
(`Mathlib/Probability/Distributions/Gaussian/Multivariate.lean`, present at the pinned commit):
both are the image of the standard Gaussian on `ℝ^k` under `v ↦ |σ| v`. The product form is kept
because it is the seed's description of `N(0, σ² I_k)` (independent coordinates) and lets the
misalignment argument work one coordinate at a time. -/
def gaussianHead (k : ℕ) (σ : ℝ) : Measure (Vec k) :=
  Measure.map (WithLp.toLp 2 : (Fin k → ℝ) → Vec k)
    (Measure.pi fun _ : Fin k => gaussianReal 0 (Real.toNNReal (σ ^ 2)))

end

end Formal.LPFT
