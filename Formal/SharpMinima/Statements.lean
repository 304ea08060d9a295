import Formal.SharpMinima.Defs

/-!
# Sharp minima and layer rescaling: the statements

There is one Prop-valued definition per target of the mission `sharp-minima` (seed 02, "Why the
geometry of a minimum needs a parameter convention"), after Dinh, Pascanu, Bengio, Bengio,
"Sharp Minima Can Generalize For Deep Nets", ICML 2017, arXiv:1703.04933v2. The model is in
`Formal.SharpMinima.Defs`. The proofs are in `Formal.SharpMinima.Proofs`.

Conventions: the parameter space is the Euclidean space `Param d h` (sum-of-squares norm);
derivatives are Fréchet derivatives, `DL(θ) = fderiv ℝ L θ` and
`H_L(θ) = fderiv ℝ (fderiv ℝ L) θ`; the Hessian sharpness `‖H_L(θ)‖₂` is the operator norm of
that continuous bilinear form, which is the spectral norm under the Euclidean/Riesz
identification. The dimensions `d` and `h` range over all positive integers and the loss `ℓ`
over all real functionals of the prediction function.
-/

namespace Formal.SharpMinima

/-- **Milestone (rescaling invariance).** For all positive integers `d`, `h`, every
function-based loss `ℓ`, every `α > 0` and every parameter `θ`, the layer scaling
`T_α(W, v) = (α W, α⁻¹ v)` leaves the prediction function and the loss unchanged,
`f_{T_α θ} = f_θ` and `L(T_α θ) = L(θ)`, and `T_α θ` is a local minimum of `L` exactly when `θ`
is. No regularity of the loss is assumed.

Source: Dinh et al. 2017 (arXiv:1703.04933v2), Section 3, Theorem 1 (non-negative homogeneity of
the rectifier) and Definition 5 (the scaling `T_α`), PDF p. 4; loss of Definition 3,
PDF pp. 3–4. -/
def ScalingInvariance : Prop :=
  ∀ d h : ℕ, 0 < d → 0 < h →
    ∀ (ℓ : (Input d → ℝ) → ℝ) (α : ℝ), 0 < α → ∀ θ : Param d h,
      networkFn (layerScaling α θ) = networkFn θ ∧
        paramLoss d h ℓ (layerScaling α θ) = paramLoss d h ℓ θ ∧
        (IsLocalMin (paramLoss d h ℓ) (layerScaling α θ) ↔ IsLocalMin (paramLoss d h ℓ) θ)

/-- **Milestone (transformation of the derivatives).** For all positive integers `d`, `h` and
every function-based loss `ℓ` whose parameter-space loss `L = ℓ ∘ f` is continuous: at every
parameter `θ` where `L` is differentiable throughout a neighbourhood and `DL` is differentiable,
and for every `α > 0`, the same regularity holds at `T_α θ`, and for all directions `u`, `w`,
`DL(T_α θ)[u] = DL(θ)[T_{α⁻¹} u]` and
`H_L(T_α θ)[u, w] = H_L(θ)[T_{α⁻¹} u, T_{α⁻¹} w]`.
This is the coordinate-free form of the gradient formula and of the Hessian congruence with
`D_α = diag(α⁻¹ I_{dh}, α I_h)`.

Source: Dinh et al. 2017 (arXiv:1703.04933v2), Section 4.2, Theorem 3, PDF p. 5 (unnumbered
displays). -/
def DerivativeTransformation : Prop :=
  ∀ d h : ℕ, 0 < d → 0 < h →
    ∀ ℓ : (Input d → ℝ) → ℝ, Continuous (paramLoss d h ℓ) →
      ∀ θ : Param d h, LocallyTwiceDifferentiableAt (paramLoss d h ℓ) θ →
        ∀ α : ℝ, 0 < α →
          LocallyTwiceDifferentiableAt (paramLoss d h ℓ) (layerScaling α θ) ∧
            (∀ u : Param d h,
              fderiv ℝ (paramLoss d h ℓ) (layerScaling α θ) u =
                fderiv ℝ (paramLoss d h ℓ) θ (layerScaling α⁻¹ u)) ∧
            ∀ u w : Param d h,
              fderiv ℝ (fderiv ℝ (paramLoss d h ℓ)) (layerScaling α θ) u w =
                fderiv ℝ (fderiv ℝ (paramLoss d h ℓ)) θ (layerScaling α⁻¹ u)
                  (layerScaling α⁻¹ w)

/-- **Goal (sharp reparameterizations of a minimum).** For all positive integers `d`, `h` and
every function-based loss `ℓ` whose parameter-space loss `L = ℓ ∘ f` is continuous: let `θ` be a
critical local minimum of `L` (`DL(θ) = 0` and no smaller loss in some neighbourhood) at which
`L` is differentiable throughout a neighbourhood and `DL` is differentiable, with nonzero
Hessian `H_L(θ) ≠ 0`. Then for every `M > 0` there is an `α > 0` with
`‖H_L(T_α θ)‖₂ ≥ M`; for that same `α`, the predictions and the loss agree with the original
ones (`f_{T_α θ} = f_θ`, `L(T_α θ) = L(θ)`), and `T_α θ` is again a critical local minimum with
the same local differentiability.

Source: Dinh et al. 2017 (arXiv:1703.04933v2), Section 4.2, Theorem 4, PDF pp. 5–6
(unnumbered display); interpretation after Theorem 4, PDF p. 6. -/
def Goal : Prop :=
  ∀ d h : ℕ, 0 < d → 0 < h →
    ∀ ℓ : (Input d → ℝ) → ℝ, Continuous (paramLoss d h ℓ) →
      ∀ θ : Param d h, LocallyTwiceDifferentiableAt (paramLoss d h ℓ) θ →
        fderiv ℝ (paramLoss d h ℓ) θ = 0 → IsLocalMin (paramLoss d h ℓ) θ →
        fderiv ℝ (fderiv ℝ (paramLoss d h ℓ)) θ ≠ 0 →
          ∀ M : ℝ, 0 < M → ∃ α : ℝ, 0 < α ∧
            M ≤ ‖fderiv ℝ (fderiv ℝ (paramLoss d h ℓ)) (layerScaling α θ)‖ ∧
            networkFn (layerScaling α θ) = networkFn θ ∧
            paramLoss d h ℓ (layerScaling α θ) = paramLoss d h ℓ θ ∧
            fderiv ℝ (paramLoss d h ℓ) (layerScaling α θ) = 0 ∧
            IsLocalMin (paramLoss d h ℓ) (layerScaling α θ) ∧
            LocallyTwiceDifferentiableAt (paramLoss d h ℓ) (layerScaling α θ)

end Formal.SharpMinima
