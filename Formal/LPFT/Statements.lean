import Formal.LPFT.Defs
import Formal.Common.Flow

/-!
# LP-FT with perfect pretrained features: the statements

There is one Prop-valued definition per target of the mission `lp-ft` (seed 01, "Why
initialization matters for transfer learning"). The model is in `Formal.LPFT.Defs`; flows on
`[0, ∞)` are `Formal.Common.IsFlowOn` solutions (derivative within `[0, ∞)`, the right
derivative at `0`). The proofs are in `Formal.LPFT.Proofs`.

Source: Kumar, Raghunathan, Jones, Ma, Liang, *Fine-Tuning can Distort Pretrained Features and
Underperform Out-of-Distribution*, ICLR 2022, arXiv:2202.10054v1.
-/

open MeasureTheory ProbabilityTheory Filter Topology Formal.Common
open scoped RealInnerProductSpace ENNReal NNReal

namespace Formal.LPFT

/-- **Global flows exist, and the FT flow is unique.** For any data: from every initial head
`v₀` the LP flow `v' = -∇_v L̂(v, B₀)` has a solution on `[0, ∞)`; from every initial pair
`(v₀, B₀')` the FT flow `(v, B)' = (-∇_v L̂, -∇_B L̂)` has a solution on `[0, ∞)`; and two FT
solutions from the same initial pair agree at every time `t ≥ 0`.

Source: Kumar et al. 2022, equations (3.2)-(3.3), PDF p. 6 (the flow notation `v_ft(t)`,
`B_ft(t)`, `v_lp(t)` presupposes these flows); the well-posedness claim is made explicit by the
seed. -/
def FlowWellPosed : Prop :=
  ∀ (d k n : ℕ) (P : Problem d k n),
    (∀ v₀ : Vec k, ∃ γ : ℝ → Vec k, IsFlowOn P.lpField γ v₀) ∧
    (∀ p₀ : Vec k × Mat k d, ∃ γ : ℝ → Vec k × Mat k d, IsFlowOn P.ftField γ p₀) ∧
    ∀ (p₀ : Vec k × Mat k d) (γ η : ℝ → Vec k × Mat k d),
      IsFlowOn P.ftField γ p₀ → IsFlowOn P.ftField η p₀ → ∀ t : ℝ, 0 ≤ t → γ t = η t

/-- **Features orthogonal to the training span do not change.** Along every FT flow
`(v(t), B(t))` from `(v₀, B₀')`, for every `t ≥ 0` and every `x ∈ S⊥` (with `S = rowspace X`),
`B(t) x = B₀' x`. The reason is that `∂_t B = -2 v (Xᵀ r)ᵀ` and `Xᵀ r ∈ S`.

Source: Kumar et al. 2022, Appendix A.2, Lemmas A.3-A.4, PDF p. 24, equations (A.15)-(A.20). -/
def FeaturesOrthogonalUnchanged : Prop :=
  ∀ (d k n : ℕ) (P : Problem d k n) (p₀ : Vec k × Mat k d) (γ : ℝ → Vec k × Mat k d),
    IsFlowOn P.ftField γ p₀ → ∀ t : ℝ, 0 ≤ t → ∀ x ∈ P.trainSpanᗮ, (γ t).2 x = p₀.2 x

/-- **Balancedness invariant.** Along every FT flow `(v(t), B(t))` from `(v₀, B₀')`, the matrix
`B Bᵀ - v vᵀ ∈ ℝ^{k×k}` is conserved: for every `t ≥ 0`,
`B(t) B(t)ᵀ - v(t) v(t)ᵀ = B₀' B₀'ᵀ - v₀ v₀ᵀ`.

Source: Kumar et al. 2022, Appendix A.2, Lemmas A.3-A.4, PDF p. 24, equations (A.15)-(A.20). -/
def BalancednessInvariant : Prop :=
  ∀ (d k n : ℕ) (P : Problem d k n) (p₀ : Vec k × Mat k d) (γ : ℝ → Vec k × Mat k d),
    IsFlowOn P.ftField γ p₀ → ∀ t : ℝ, 0 ≤ t →
      ((γ t).2 ∘L tr (γ t).2) - outer (γ t).1 (γ t).1 = (p₀.2 ∘L tr p₀.2) - outer p₀.1 p₀.1

/-- **Second-moment identity for the OOD risk.** For an OOD law `μ` (probability measure, finite
second moment, positive-definite `Σ = E_μ[x xᵀ]`) and any head `v` and features `B`, with
`e = Bᵀ v - w⋆`: `L_OOD(v, B) = eᵀ Σ e`. Consequently `L_OOD(v, B) = 0` exactly when
`Bᵀ v = w⋆`.

Source: Kumar et al. 2022, Appendix A.2, equations (A.29)-(A.32), PDF pp. 23-31 (the identity,
not the reversed inequality printed in (A.28)). -/
def OodRiskIdentity : Prop :=
  ∀ (d k n : ℕ) (P : Problem d k n) (μ : Measure (Vec d)), IsOODLaw μ →
    ∀ (v : Vec k) (B : Mat k d),
      P.oodLoss μ v B = ⟪tr B v - P.wstar, secondMoment μ (tr B v - P.wstar)⟫_ℝ ∧
        (P.oodLoss μ v B = 0 ↔ tr B v = P.wstar)

/-- **Almost-sure Gaussian head misalignment.** For `σ > 0` and a nonzero `a ∈ ℝ^k`, a head
`v₀ ~ N(0, σ² I_k)` satisfies `⟪v₀, a⟫² ≠ ‖a‖⁴` with probability one. With `a = u` this is the
alignment condition that zero OOD loss of FT would force, via balancedness.

Source: Kumar et al. 2022, Appendix A.3, Lemmas A.11-A.12, PDF pp. 34-35. -/
def GaussianHeadMisaligned : Prop :=
  ∀ (k : ℕ) (σ : ℝ), 0 < σ → ∀ a : Vec k, a ≠ 0 →
    ∀ᵐ v₀ ∂(gaussianHead k σ), ⟪v₀, a⟫_ℝ ^ 2 ≠ ‖a‖ ^ 4

/-- **Exact LP recovery.** In the perfect-feature regime, the aligned head recovers the target
exactly, `B₀ᵀ u = w⋆`, and every LP flow, from any initial head `v₀`, converges to `u` as
`t → ∞`.

Source: Kumar et al. 2022, Appendix A.7, Proposition A.20, PDF pp. 45-47, equations
(A.208)-(A.218); the injectivity of `v ↦ Π_S B₀ᵀ v` is Definition 3.2, PDF p. 7. -/
def LpRecovery : Prop :=
  ∀ (d k n : ℕ) (P : Problem d k n), PerfectFeatureRegime P →
    tr P.B0 P.u = P.wstar ∧
      ∀ (v₀ : Vec k) (γ : ℝ → Vec k), IsFlowOn P.lpField γ v₀ → Tendsto γ atTop (𝓝 P.u)

/-- **Stationarity after LP initialization.** In the perfect-feature regime, `(u, B₀)` is a
stationary point of the FT vector field, and every FT flow started at `(u, B₀)` stays there:
`(v(t), B(t)) = (u, B₀)` for every `t ≥ 0`.

Source: Kumar et al. 2022, Appendix A.7, Proposition A.20, PDF pp. 45-47. -/
def LpInitStationary : Prop :=
  ∀ (d k n : ℕ) (P : Problem d k n), PerfectFeatureRegime P →
    P.ftField (P.u, P.B0) = 0 ∧
      ∀ γ : ℝ → Vec k × Mat k d, IsFlowOn P.ftField γ (P.u, P.B0) →
        ∀ t : ℝ, 0 ≤ t → γ t = (P.u, P.B0)

/-- **Goal: Proposition 3.7 (nonzero-signal regime).** Assume the perfect-feature regime
(`B₀ = U B⋆`, `U` orthogonal, `B⋆` with orthonormal rows, `v⋆ ≠ 0`, `1 ≤ k ≤ m`, `m + k < d`,
injective projections of `rowspace B₀` into `S` and `S⊥`), an OOD law `μ` and a scale `σ > 0`.
Then:

1. from every initial head `v₀` an LP flow exists, and every LP flow converges to `u`;
2. LP-FT, the FT flow initialized at the LP limit `(u, B₀)`, exists, and every such flow has
   zero OOD loss at every time `t ≥ 0`;
3. from every initial head `v₀` an FT flow from `(v₀, B₀)` exists, and for `v₀ ~ N(0, σ² I_k)`,
   with probability one, every FT flow from `(v₀, B₀)` has positive OOD loss simultaneously at
   all times `t ≥ 0` (one probability-one event for all times).

Source: Kumar et al. 2022, Section 3.4, Proposition 3.7, PDF p. 10, equations (3.10)-(3.11);
proof in Appendix A.7, Proposition A.20, PDF pp. 45-47, equations (A.208)-(A.218). -/
def Goal : Prop :=
  ∀ (d k n : ℕ) (P : Problem d k n), PerfectFeatureRegime P →
    ∀ μ : Measure (Vec d), IsOODLaw μ → ∀ σ : ℝ, 0 < σ →
      (∀ v₀ : Vec k, (∃ γ : ℝ → Vec k, IsFlowOn P.lpField γ v₀) ∧
        ∀ γ : ℝ → Vec k, IsFlowOn P.lpField γ v₀ → Tendsto γ atTop (𝓝 P.u)) ∧
      (∃ η : ℝ → Vec k × Mat k d, IsFlowOn P.ftField η (P.u, P.B0)) ∧
      (∀ η : ℝ → Vec k × Mat k d, IsFlowOn P.ftField η (P.u, P.B0) →
        ∀ t : ℝ, 0 ≤ t → P.oodLoss μ (η t).1 (η t).2 = 0) ∧
      (∀ v₀ : Vec k, ∃ η : ℝ → Vec k × Mat k d, IsFlowOn P.ftField η (v₀, P.B0)) ∧
      ∀ᵐ v₀ ∂(gaussianHead k σ), ∀ η : ℝ → Vec k × Mat k d,
        IsFlowOn P.ftField η (v₀, P.B0) → ∀ t : ℝ, 0 ≤ t → 0 < P.oodLoss μ (η t).1 (η t).2

end Formal.LPFT
