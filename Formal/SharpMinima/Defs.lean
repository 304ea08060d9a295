import Mathlib

/-!
# Sharp minima and layer rescaling: the model

This file holds the model of the mission `sharp-minima` (Dinh, Pascanu, Bengio, Bengio,
"Sharp Minima Can Generalize For Deep Nets", ICML 2017, arXiv:1703.04933v2). It contains
definitions only.

* Fixed positive integers `d` (input dimension) and `h` (hidden width). An input is a vector
  `x ∈ ℝ^d`, modelled as `EuclideanSpace ℝ (Fin d)`.
* A parameter `θ = (W, v)` with `W ∈ ℝ^{d×h}` and `v ∈ ℝ^h` is a point of the Euclidean space
  over the disjoint union `(Fin d × Fin h) ⊕ Fin h` of the first-layer matrix coordinates and the
  output-weight coordinates. It has `n = dh + h` coordinates and the sum-of-squares (Euclidean)
  norm, not a product maximum norm.
* The bias-free one-hidden-layer rectified network with scalar linear output is
  `f_{W,v}(x) = ∑_{j=1}^h max(∑_{i=1}^d x_i W_ij, 0) v_j` (Section 2, PDF p. 2).
* A function-based loss is an arbitrary real functional `ℓ` of the whole prediction function;
  the parameter-space loss is `L(θ) = ℓ(f_θ)` (Section 3, PDF pp. 3–4, Definition 3).
* The layer scaling is `T_α(W, v) = (α W, α⁻¹ v)` (Section 3, Definition 5, PDF p. 4). It is
  meant for `α > 0` only; the statements assume `0 < α` explicitly.
* The local differentiability condition of the Hessian targets: `L` is differentiable throughout
  a neighbourhood of `θ` and its Fréchet derivative `DL = fderiv ℝ L` is differentiable at `θ`.
  The second derivative is `H_L(θ) = fderiv ℝ (fderiv ℝ L) θ`, a continuous bilinear form.
-/

open Filter Topology

namespace Formal.SharpMinima

noncomputable section

/-! ## Inputs and parameters -/

/-- An input `x ∈ ℝ^d`, as a vector of the Euclidean space `EuclideanSpace ℝ (Fin d)`. -/
abbrev Input (d : ℕ) : Type := EuclideanSpace ℝ (Fin d)

/-- The coordinates of a parameter `θ = (W, v)`: `Sum.inl (i, j)` is the first-layer entry
`W_ij` (`i ∈ [d]`, `j ∈ [h]`) and `Sum.inr j` is the output weight `v_j` (`j ∈ [h]`). There are
`n = dh + h` coordinates. -/
abbrev ParamIndex (d h : ℕ) : Type := (Fin d × Fin h) ⊕ Fin h

/-- The parameter space `ℝ^n`, `n = dh + h`, with its Euclidean (sum-of-squares) norm and inner
product: the Euclidean space over the first-layer matrix coordinates and the output-weight
coordinates (formalization note of the seed; Dinh et al., Section 2, PDF p. 2). -/
abbrev Param (d h : ℕ) : Type := EuclideanSpace ℝ (ParamIndex d h)

/-- The first-layer weight `W_ij` of a parameter `θ = (W, v)`. -/
def firstLayer {d h : ℕ} (θ : Param d h) (i : Fin d) (j : Fin h) : ℝ :=
  θ (Sum.inl (i, j))

/-- The output weight `v_j` of a parameter `θ = (W, v)`. -/
def outputWeight {d h : ℕ} (θ : Param d h) (j : Fin h) : ℝ :=
  θ (Sum.inr j)

/-! ## The network and the loss -/

/-- The prediction function of the bias-free one-hidden-layer rectified network with scalar
linear output: `f_{W,v}(x) = ∑_{j=1}^h max(∑_{i=1}^d x_i W_ij, 0) v_j`
(Dinh et al. 2017, Section 2, PDF p. 2). -/
def networkFn {d h : ℕ} (θ : Param d h) (x : Input d) : ℝ :=
  ∑ j : Fin h, max (∑ i : Fin d, x i * firstLayer θ i j) 0 * outputWeight θ j

/-- The parameter-space loss `L(θ) = ℓ(f_θ)` of a function-based loss `ℓ`, an arbitrary real
functional of the whole prediction function (Dinh et al. 2017, Section 3, PDF pp. 3–4,
Definition 3). The dimensions `d` and `h` are explicit so that `paramLoss d h ℓ` is a function
on `Param d h`. -/
def paramLoss (d h : ℕ) (ℓ : (Input d → ℝ) → ℝ) (θ : Param d h) : ℝ :=
  ℓ (networkFn θ)

/-! ## The layer scaling -/

/-- The coordinatewise factor of the layer scaling `T_α`: `α` on every first-layer coordinate
`W_ij` and `α⁻¹` on every output-weight coordinate `v_j`. -/
def layerScale {d h : ℕ} (α : ℝ) : ParamIndex d h → ℝ :=
  -- lint: allow junk-div because every statement using the layer scaling assumes 0 < α
  Sum.elim (fun _ => α) (fun _ => α⁻¹)

/-- The layer scaling `T_α(W, v) = (α W, α⁻¹ v)`: the incoming weights of the hidden layer are
multiplied by `α` and the outgoing weights by `α⁻¹` (Dinh et al. 2017, Section 3,
Definition 5, PDF p. 4). It is meant for `α > 0`; every statement assumes `0 < α`. Applied to a
direction `u`, `T_{α⁻¹} u` is the coordinate-free form of multiplication by
`D_α = diag(α⁻¹ I_{dh}, α I_h)` (Section 4.2, PDF p. 5). -/
def layerScaling {d h : ℕ} (α : ℝ) (θ : Param d h) : Param d h :=
  WithLp.toLp 2 (fun k => layerScale α k * θ k)

/-! ## Local second-order regularity -/

/-- The local differentiability condition of the seed: `L` is (Fréchet) differentiable at every
point of some neighbourhood of `θ`, and its Fréchet derivative `DL = fderiv ℝ L` is
differentiable at `θ`. This makes `H_L(θ) = fderiv ℝ (fderiv ℝ L) θ` a genuine second derivative
(no default value at a nondifferentiable point) without requiring global smoothness or a
continuous second derivative. -/
def LocallyTwiceDifferentiableAt {E : Type*} [NormedAddCommGroup E] [NormedSpace ℝ E]
    (L : E → ℝ) (θ : E) : Prop :=
  (∀ᶠ θ' in 𝓝 θ, DifferentiableAt ℝ L θ') ∧ DifferentiableAt ℝ (fderiv ℝ L) θ

end

end Formal.SharpMinima
