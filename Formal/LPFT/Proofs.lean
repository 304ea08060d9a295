import Formal.LPFT.Statements

/-!
# LP-FT with perfect pretrained features: the proofs

There is one theorem per target of the mission `lp-ft`. The type of each theorem is exactly the
corresponding statement constant of `Formal.LPFT.Statements`. No proof is written yet: every
theorem is `sorry`.
-/

namespace Formal.LPFT

/-- Global existence of the LP and FT flows, and uniqueness of the FT flow on `[0, ∞)`. -/
theorem flow_well_posed : FlowWellPosed := by
  sorry

/-- FT leaves the features on `S⊥` unchanged (Lemmas A.3-A.4). -/
theorem features_orthogonal_unchanged : FeaturesOrthogonalUnchanged := by
  sorry

/-- FT conserves `B Bᵀ - v vᵀ` (Lemmas A.3-A.4). -/
theorem balancedness_invariant : BalancednessInvariant := by
  sorry

/-- `L_OOD(v, B) = eᵀ Σ e` with `e = Bᵀ v - w⋆`, and it vanishes iff `e = 0` ((A.29)-(A.32)). -/
theorem ood_risk_identity : OodRiskIdentity := by
  sorry

/-- A Gaussian head almost surely avoids `⟪v₀, a⟫² = ‖a‖⁴` (Lemmas A.11-A.12). -/
theorem gaussian_head_misaligned : GaussianHeadMisaligned := by
  sorry

/-- `B₀ᵀ u = w⋆`, and LP converges to `u` from any initial head (Proposition A.20). -/
theorem lp_recovery : LpRecovery := by
  sorry

/-- `(u, B₀)` is stationary for FT, and FT started there stays there (Proposition A.20). -/
theorem lp_init_stationary : LpInitStationary := by
  sorry

/-- Proposition 3.7 in the nonzero-signal regime. -/
theorem goal : Goal := by
  sorry

end Formal.LPFT
