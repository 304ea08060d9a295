import Mathlib
import Formal.Common.Gaussian

/-!
# The neural tangent kernel at initialization: the model

This file holds the model of mission `ntk-init` (seed 03), after Jacot, Gabriel and Hongler,
*Neural Tangent Kernel: Convergence and Generalization in Neural Networks* (NeurIPS 2018,
arXiv:1806.07572v4). It contains definitions only.

## Network (Section 2, PDF pp. 2–3)

* Input dimension `d`, output dimension `q`, `h` hidden layers, so `L = h + 1` affine layers.
  Hidden widths are indexed as `n_{i+1} = w i + 1` for `w : Fin h → ℕ` (positive widths, a
  cofinal reindexing). `layerWidth d q w ℓ` is `n_ℓ`: `n_0 = d`, `n_{h+1} = q`.
* Parameters are indexed by `ParamIdx d q w`, a finite dependent index carrying a layer
  `ℓ : Fin (h + 1)`, a destination neuron `j < n_{ℓ+1}` and an optional source neuron
  `i < n_ℓ`; the missing source (`none`) denotes the bias `b^{(ℓ)}_j`, `some i` the weight
  `W^{(ℓ)}_{ji}` (storage order: destination, then source).
* `preact σ β θ x ℓ _` is the pre-activation `z^{(ℓ+1)}(x)`:
  `z^{(ℓ+1)}_j = (1/√n_ℓ) ∑_i W^{(ℓ)}_{ji} a^{(ℓ)}_i + β b^{(ℓ)}_j`, with `a^{(0)} = x` and
  `a^{(ℓ)} = σ(z^{(ℓ)})` at hidden layers. `netOutput` is `f_θ(x) = z^{(L)}(x)`, with no final
  activation.
* `initLaw d q w`: every parameter is independent `N(0, 1)` (the finite product of Mathlib's
  `gaussianReal 0 1`, `Formal.Common.stdGaussianInit`).
* `empiricalNTK`: `Θ^{(L)}_{kk'}(θ; x, y) = ∑_p ∂_{θ_p} f_{θ,k}(x) ∂_{θ_p} f_{θ,k'}(y)`, the sum
  over every weight and bias, with actual Fréchet derivatives (`fderiv`) in the coordinate
  directions `Pi.single p 1`. Mathlib's `fderiv` is `0` where the map is not differentiable.

## Limiting kernels (Section 4.1, Proposition 1 and Theorem 1, PDF p. 5)

Layer indices are shifted by one so that `ℓ : ℕ` is always allowed:
`covKernel σ β d ℓ = Σ^{(ℓ+1)}`, `covDotKernel σ β d ℓ = Σ̇^{(ℓ+2)}` and
`ntkLimit σ β d ℓ = Θ^{(ℓ+1)}_∞`.
The expectation over a centered Gaussian pair `(U, V)` uses Mathlib's
`ProbabilityTheory.multivariateGaussian` (file `Probability/Distributions/Gaussian/Multivariate`)
on `EuclideanSpace ℝ (Fin 2)` with the `2 × 2` Gram matrix of the previous kernel as covariance
(singular covariances included). `multivariateGaussian μ S` is the image of the standard Gaussian
under `x ↦ μ + CFC.sqrt S x`; for a matrix `S` that is not positive semidefinite `CFC.sqrt S` is
the junk value `0` and the law is the Dirac mass at `μ`, whose covariance is `0`, not `S`.
Nothing about these kernels (positive semidefiniteness, integrability) is assumed here: the
covariance-validity milestone (`Formal.NTKInit.CovarianceValid`) asserts that every Gram matrix
passed to `multivariateGaussian` is positive semidefinite, which excludes the junk case.
The derivative `σ'` in `Σ̇` is Mathlib's `deriv σ` (`0` where `σ` is not differentiable; for
Lipschitz `σ` this is the almost-everywhere derivative of Remark 3, PDF p. 5).

## Limits (Appendix A and A.1, PDF pp. 11–13)

* `seqWidthFilter h`: the sequential width limit on `w : Fin h → ℕ`, with the last hidden width
  outermost: a set belongs to it iff eventually in `n_h`, …, eventually in `n_1`, the width
  vector lies in the set. It is not the joint (simultaneous) limit.
* `TendstoInLaw μ l ν`: convergence in distribution along a filter, in its defining form
  `∫ g dμ_i → ∫ g dν` for every bounded continuous `g`. For probability measures this is the
  convergence in Mathlib's weak topology on `ProbabilityMeasure`
  (`MeasureTheory.ProbabilityMeasure.tendsto_iff_forall_integral_tendsto`).
-/

open MeasureTheory ProbabilityTheory Filter Topology
open scoped RealInnerProductSpace ENNReal NNReal

namespace Formal.NTKInit

noncomputable section

/-! ## Architecture and parameters -/

/-- The layer widths `n_ℓ` of a network with input dimension `d`, output dimension `q` and
`h` hidden layers of actual widths `w 0 + 1, …, w (h - 1) + 1`: `n_0 = d`, `n_{ℓ+1} = w ℓ + 1`
for `ℓ < h`, and `n_{h+1} = q` (the output layer `L = h + 1`). Indices beyond `h + 1` are never
used. -/
def layerWidth (d q : ℕ) {h : ℕ} (w : Fin h → ℕ) : ℕ → ℕ
  | 0 => d
  | ℓ + 1 => if hℓ : ℓ < h then w ⟨ℓ, hℓ⟩ + 1 else q

/-- The finite dependent index of the parameters (Section 2, PDF pp. 2–3): a layer
`ℓ : Fin (h + 1)` (the affine map from layer `ℓ` to layer `ℓ + 1`), a destination neuron
`j : Fin n_{ℓ+1}` and an optional source neuron `i : Fin n_ℓ`. `some i` indexes the weight
`W^{(ℓ)}_{ji}`; `none` indexes the bias `b^{(ℓ)}_j`. -/
abbrev ParamIdx (d q : ℕ) {h : ℕ} (w : Fin h → ℕ) : Type :=
  Σ ℓ : Fin (h + 1),
    Fin (layerWidth d q w (ℓ.val + 1)) × Option (Fin (layerWidth d q w ℓ.val))

/-- The initialization law: every weight and every bias is sampled independently from
`N(0, 1)` (Section 2, PDF p. 3), i.e. the finite product of Mathlib's `gaussianReal 0 1`
over `ParamIdx d q w`. -/
def initLaw (d q : ℕ) {h : ℕ} (w : Fin h → ℕ) : Measure (ParamIdx d q w → ℝ) :=
  Formal.Common.stdGaussianInit (ParamIdx d q w)

/-! ## The network -/

/-- The pre-activations `z^{(ℓ+1)}(x)` for `ℓ < h + 1` (Section 2, PDF pp. 2–3):
`z^{(1)}_j = (1/√d) ∑_i W^{(0)}_{ji} x_i + β b^{(0)}_j` and, for hidden layers,
`z^{(ℓ+2)}_j = (1/√n_{ℓ+1}) ∑_i W^{(ℓ+1)}_{ji} σ(z^{(ℓ+1)}_i) + β b^{(ℓ+1)}_j`. -/
def preact (σ : ℝ → ℝ) (β : ℝ) {d q h : ℕ} {w : Fin h → ℕ} (θ : ParamIdx d q w → ℝ)
    (x : EuclideanSpace ℝ (Fin d)) :
    (ℓ : ℕ) → ℓ < h + 1 → Fin (layerWidth d q w (ℓ + 1)) → ℝ
  | 0, h0, j =>
      -- lint: allow junk-div because preact's only users, GaussianOutputLimit and Goal, have 0 < d
      (1 / Real.sqrt (d : ℝ)) * (∑ i : Fin d, θ ⟨⟨0, h0⟩, j, some i⟩ * x i) +
        β * θ ⟨⟨0, h0⟩, j, none⟩
  | ℓ + 1, hℓ, j =>
      -- lint: allow junk-div because ℓ < h here (hℓ), so the width is w ℓ + 1 ≥ 1
      (1 / Real.sqrt (layerWidth d q w (ℓ + 1) : ℝ)) *
          (∑ i : Fin (layerWidth d q w (ℓ + 1)),
            θ ⟨⟨ℓ + 1, hℓ⟩, j, some i⟩ *
              σ (preact σ β θ x ℓ (Nat.lt_trans (Nat.lt_succ_self ℓ) hℓ) i)) +
        β * θ ⟨⟨ℓ + 1, hℓ⟩, j, none⟩

/-- The network function `f_θ(x) = z^{(L)}(x) ∈ ℝ^q`, `L = h + 1`, with no final activation
(Section 2, PDF p. 3). The output layer has width `layerWidth d q w (h + 1) = q`; `Fin.cast`
transports the output coordinate along that equality. -/
def netOutput (σ : ℝ → ℝ) (β : ℝ) {d q h : ℕ} {w : Fin h → ℕ} (θ : ParamIdx d q w → ℝ)
    (x : EuclideanSpace ℝ (Fin d)) (k : Fin q) : ℝ :=
  preact σ β θ x h (Nat.lt_succ_self h)
    (Fin.cast (by simp [layerWidth] : q = layerWidth d q w (h + 1)) k)

/-- The empirical neural tangent kernel (Section 4, PDF p. 5):
`Θ^{(L)}_{kk'}(θ; x, y) = ∑_p ∂_{θ_p} f_{θ,k}(x) ∂_{θ_p} f_{θ,k'}(y)`, the sum over every weight
and every bias `p`. Each partial derivative is the Fréchet derivative of `θ ↦ f_{θ,k}(x)` at
`θ` applied to the coordinate direction `Pi.single p 1` (Mathlib's `fderiv`, which is `0` where
the map is not differentiable). -/
def empiricalNTK (σ : ℝ → ℝ) (β : ℝ) {d q h : ℕ} {w : Fin h → ℕ} (θ : ParamIdx d q w → ℝ)
    (x y : EuclideanSpace ℝ (Fin d)) (k k' : Fin q) : ℝ :=
  ∑ p : ParamIdx d q w,
    -- lint: allow missing-differentiability because for Lipschitz σ the network is locally
    --   Lipschitz in θ, hence differentiable off a Lebesgue-null set (Rademacher; Remark 3) which
    --   the Gaussian law ignores; the goal is a convergence in probability, and the conventions
    --   require a proof to show the exceptional set is null
    fderiv ℝ (fun θ' : ParamIdx d q w → ℝ => netOutput σ β θ' x k) θ
        (Pi.single p (1 : ℝ) : ParamIdx d q w → ℝ) *
      -- lint: allow missing-differentiability because as for the first factor, the map is
      --   differentiable off a null set of parameters for Lipschitz σ
      fderiv ℝ (fun θ' : ParamIdx d q w → ℝ => netOutput σ β θ' y k') θ
        (Pi.single p (1 : ℝ) : ParamIdx d q w → ℝ)

/-- The finite-dimensional distribution vector `(f_{θ,k}(x_i))_{(i,k)}` of the network outputs
on the inputs `X = (x_1, …, x_N)`, as a point of `EuclideanSpace ℝ (Fin N × Fin q)`. -/
def outputVector (σ : ℝ → ℝ) (β : ℝ) (q : ℕ) {d h : ℕ} (w : Fin h → ℕ) {N : ℕ}
    (X : Fin N → EuclideanSpace ℝ (Fin d)) (θ : ParamIdx d q w → ℝ) :
    EuclideanSpace ℝ (Fin N × Fin q) :=
  WithLp.toLp 2 fun a : Fin N × Fin q => netOutput σ β θ (X a.1) a.2

/-! ## Limiting kernels -/

/-- The Gram matrix `(K(x_i, x_j))_{i,j}` of a kernel `K` on a finite family `X`. -/
def gramMatrix {E ι : Type*} (K : E → E → ℝ) (X : ι → E) : Matrix ι ι ℝ :=
  Matrix.of fun i j => K (X i) (X j)

/-- `𝔼[g(U) g(V)]` for a centered Gaussian pair `(U, V)` whose covariance matrix is the Gram
matrix of `K` on `(x, y)`, i.e. `[[K(x,x), K(x,y)], [K(y,x), K(y,y)]]` (Section 4.1, PDF p. 5).
The pair law is Mathlib's `multivariateGaussian 0 _` on `EuclideanSpace ℝ (Fin 2)`. If that Gram
matrix were not positive semidefinite the law would be the junk Dirac mass at `0`; for the kernels
`covKernel σ β d ℓ` used below, `CovarianceValid` (with the family `![x, y]`) rules this out. -/
def gaussPairExpect {E : Type*} (K : E → E → ℝ) (g : ℝ → ℝ) (x y : E) : ℝ :=
  -- lint: allow missing-integrability because each use passes g = σ (Lipschitz, so growing at
  --   most linearly) or g = deriv σ (bounded by the Lipschitz constant), and Gaussian laws have
  --   finite second moments, so the integrand is integrable
  ∫ u : EuclideanSpace ℝ (Fin 2), g (u 0) * g (u 1)
    ∂(multivariateGaussian (0 : EuclideanSpace ℝ (Fin 2)) (gramMatrix K ![x, y]))

/-- The covariance kernels, shifted by one: `covKernel σ β d ℓ = Σ^{(ℓ+1)}` (Section 4.1,
Proposition 1, PDF p. 5). `Σ^{(1)}(x, y) = ⟨x, y⟩ / d + β²` and
`Σ^{(ℓ+2)}(x, y) = 𝔼[σ(U) σ(V)] + β²` with `(U, V)` centered Gaussian of covariance given by
`Σ^{(ℓ+1)}` on `(x, y)`. -/
def covKernel (σ : ℝ → ℝ) (β : ℝ) (d : ℕ) :
    ℕ → EuclideanSpace ℝ (Fin d) → EuclideanSpace ℝ (Fin d) → ℝ
  -- lint: allow junk-div because every statement assumes 0 < d
  | 0 => fun x y => ⟪x, y⟫_ℝ / (d : ℝ) + β ^ 2
  | ℓ + 1 => fun x y => gaussPairExpect (covKernel σ β d ℓ) σ x y + β ^ 2

/-- The derivative kernels, shifted: `covDotKernel σ β d ℓ = Σ̇^{(ℓ+2)}(x, y) = 𝔼[σ'(U) σ'(V)]`
with `(U, V)` centered Gaussian of covariance given by `Σ^{(ℓ+1)}` on `(x, y)` (Section 4.1,
Theorem 1, PDF p. 5). Here `σ' = deriv σ`, which is `0` where `σ` is not differentiable
(Remark 3, PDF p. 5). -/
def covDotKernel (σ : ℝ → ℝ) (β : ℝ) (d : ℕ) (ℓ : ℕ) (x y : EuclideanSpace ℝ (Fin d)) : ℝ :=
  -- lint: allow missing-differentiability because σ is Lipschitz in every statement, so deriv σ is
  --   its almost-everywhere derivative (Remark 3); since Σ(x, x) ≥ β² > 0 the Gaussian marginals
  --   have densities and the value on the null set does not matter (conventions)
  gaussPairExpect (covKernel σ β d ℓ) (deriv σ) x y

/-- The deterministic limiting NTK, shifted: `ntkLimit σ β d ℓ = Θ^{(ℓ+1)}_∞` (Section 4.1,
Theorem 1, PDF p. 5): `Θ^{(1)}_∞ = Σ^{(1)}` and
`Θ^{(ℓ+2)}_∞(x, y) = Θ^{(ℓ+1)}_∞(x, y) Σ̇^{(ℓ+2)}(x, y) + Σ^{(ℓ+2)}(x, y)`. -/
def ntkLimit (σ : ℝ → ℝ) (β : ℝ) (d : ℕ) :
    ℕ → EuclideanSpace ℝ (Fin d) → EuclideanSpace ℝ (Fin d) → ℝ
  | 0 => covKernel σ β d 0
  | ℓ + 1 => fun x y =>
      ntkLimit σ β d ℓ x y * covDotKernel σ β d ℓ x y + covKernel σ β d (ℓ + 1) x y

/-- The covariance matrix of the limiting output vector (Section 4.1, Proposition 1, PDF p. 5):
entry `((i, k), (j, k'))` is `Σ^{(h+1)}(x_i, x_j) δ_{kk'}`, i.e. the `q` output coordinates are
independent centered Gaussian processes of covariance `Σ^{(L)}`, `L = h + 1`. It is the Gram
matrix of `Σ^{(L)}` on `X` tensored with `I_q`, hence positive semidefinite whenever that Gram
matrix is (`CovarianceValid`), so `multivariateGaussian 0 (outputCov …)` is not the junk Dirac
law. -/
def outputCov (σ : ℝ → ℝ) (β : ℝ) (d h q : ℕ) {N : ℕ} (X : Fin N → EuclideanSpace ℝ (Fin d)) :
    Matrix (Fin N × Fin q) (Fin N × Fin q) ℝ :=
  Matrix.of fun a b => if a.2 = b.2 then covKernel σ β d h (X a.1) (X b.1) else 0

/-! ## Limits -/

/-- The sequential width limit (Appendix A, PDF p. 11; Appendix A.1, PDF pp. 12–13): the filter
on hidden-width vectors `w : Fin h → ℕ` in which `n_1 → ∞` first, then `n_2 → ∞`, …, and
`n_h → ∞` last. The last hidden width is outermost: a set `S` belongs to
`seqWidthFilter (h + 1)` iff for all large enough `n_{h+1}`, the set
`{w' | Fin.snoc w' n_{h+1} ∈ S}` belongs to `seqWidthFilter h`. For two hidden layers, a
tolerance is met by first choosing a threshold for `n_2`, then a threshold for `n_1` that may
depend on `n_2`. With no hidden layer the filter is `⊤` on the one-point type `Fin 0 → ℕ`. -/
def seqWidthFilter : (h : ℕ) → Filter (Fin h → ℕ)
  | 0 => ⊤
  | h + 1 =>
      Filter.bind (atTop : Filter ℕ) fun n =>
        Filter.map (fun w : Fin h → ℕ => Fin.snoc (α := fun _ => ℕ) w n) (seqWidthFilter h)

/-- Convergence in distribution (in law) of measures `μ i` to `ν` along a filter `l`, in its
defining form: for every bounded continuous `g : E → ℝ`, `∫ g dμ_i → ∫ g dν`. For probability
measures this is convergence in Mathlib's weak topology on `ProbabilityMeasure E`
(`MeasureTheory.ProbabilityMeasure.tendsto_iff_forall_integral_tendsto`). -/
def TendstoInLaw {ι E : Type*} [TopologicalSpace E] [MeasurableSpace E] (μ : ι → Measure E)
    (l : Filter ι) (ν : Measure E) : Prop :=
  ∀ g : BoundedContinuousFunction E ℝ,
    -- lint: allow missing-integrability because g is bounded and continuous and every measure
    --   passed (pushforwards of initLaw, multivariateGaussian) is a probability measure, so both
    --   integrals are finite
    Tendsto (fun i => ∫ x, g x ∂(μ i)) l (𝓝 (∫ x, g x ∂ν))

end

end Formal.NTKInit
