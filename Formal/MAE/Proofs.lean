import Formal.MAE.Statements

/-!
# MAE with a normalized-pixel target: the proofs

There is one theorem per target of the mission `mae-normalized-pixel`. The type of each theorem
is exactly the corresponding statement constant of `Formal.MAE.Statements`.
-/

namespace Formal.MAE

/-- Verification 1.1: `T_norm(p₀) = (-1, 1) = T_norm(p₁)`, with both standard deviations
positive (each is `1/4`). -/
theorem normalized_targets_agree : NormalizedTargetsAgree := by
  have hv0 : patchVar p0 = (1 / 4) ^ 2 := by
    norm_num [patchVar, patchMean, p0, Fin.sum_univ_two, Matrix.cons_val_zero,
      Matrix.cons_val_one, Matrix.head_cons]
  have hv1 : patchVar p1 = (1 / 4) ^ 2 := by
    norm_num [patchVar, patchMean, p1, Fin.sum_univ_two, Matrix.cons_val_zero,
      Matrix.cons_val_one, Matrix.head_cons]
  have hs0 : patchStd p0 = 1 / 4 := by
    rw [patchStd, hv0]
    exact Real.sqrt_sq (by norm_num)
  have hs1 : patchStd p1 = 1 / 4 := by
    rw [patchStd, hv1]
    exact Real.sqrt_sq (by norm_num)
  have key0 : ∀ i : Fin 2, normTarget p0 i = (![-1, 1] : Patch) i := by
    rw [Fin.forall_fin_two]
    refine ⟨?_, ?_⟩
    · rw [normTarget, hs0]
      norm_num [patchMean, p0, Fin.sum_univ_two, Matrix.cons_val_zero, Matrix.cons_val_one,
        Matrix.head_cons]
    · rw [normTarget, hs0]
      norm_num [patchMean, p0, Fin.sum_univ_two, Matrix.cons_val_zero, Matrix.cons_val_one,
        Matrix.head_cons]
  have key1 : ∀ i : Fin 2, normTarget p1 i = (![-1, 1] : Patch) i := by
    rw [Fin.forall_fin_two]
    refine ⟨?_, ?_⟩
    · rw [normTarget, hs1]
      norm_num [patchMean, p1, Fin.sum_univ_two, Matrix.cons_val_zero, Matrix.cons_val_one,
        Matrix.head_cons]
    · rw [normTarget, hs1]
      norm_num [patchMean, p1, Fin.sum_univ_two, Matrix.cons_val_zero, Matrix.cons_val_one,
        Matrix.head_cons]
  refine ⟨?_, ?_, funext key0, funext key1⟩
  · rw [hs0]
    norm_num
  · rw [hs1]
    norm_num

/-- Verification 1.2: every per-example masked loss is `0`, hence so is the expected masked
loss. -/
theorem masked_loss_zero : MaskedLossZero := by
  obtain ⟨-, -, h0, h1⟩ := normalized_targets_agree
  -- Every patch of every training image has normalized target `(-1, 1)`.
  have hT : ∀ n j : Fin 2, normTarget (trainImage n j) = (![-1, 1] : Patch) := by
    intro n j
    fin_cases n <;> fin_cases j
    · first
        | exact h0
        | simpa [trainImage, image0, image1] using h0
    · first
        | exact h0
        | simpa [trainImage, image0, image1] using h0
    · first
        | exact h1
        | simpa [trainImage, image0, image1] using h1
    · first
        | exact h1
        | simpa [trainImage, image0, image1] using h1
  have hsq : ∀ u : Patch, sqError u u = 0 := fun u => by simp [sqError]
  have hloss : ∀ (n : Fin 2) (V : Finset (Fin 2)), exampleLoss (trainImage n) V = 0 := by
    intro n V
    have hterm : ∀ j ∈ maskedPositions V,
        sqError (prediction V (trainImage n) j) (normTarget (trainImage n j)) = 0 := by
      intro j _
      rw [hT n j]
      -- The decoder predicts `(-1, 1)` at every position, so the prediction equals the target.
      exact hsq _
    rw [exampleLoss, Finset.sum_eq_zero hterm, zero_div]
  refine ⟨fun n V _ => hloss n V, ?_⟩
  rw [expectedMaskedLoss]
  refine Finset.sum_eq_zero fun n _ => Finset.sum_eq_zero fun V _ => ?_
  rw [hloss n V, mul_zero]

/-- Verification 2.1: the two images have the same representation under every visible set, so
no deterministic classifier of the representation separates their labels. -/
theorem no_separating_classifier : NoSeparatingClassifier := by
  intro V _ hex
  obtain ⟨f, hf⟩ := hex
  -- The encoder output does not depend on the image.
  have hrep : ∀ X Y : PatchImage, represent V X = represent V Y := fun _ _ => rfl
  have h0 := hf 0
  rw [hrep (trainImage 0) (trainImage 1), hf 1] at h0
  -- Now `h0 : trainLabel 1 = trainLabel 0`, which is false.
  first
    | exact absurd h0 (by decide)
    | simp [trainLabel] at h0

/-- The example's conclusion: zero expected masked loss, yet no deterministic classifier of the
representation classifies both images correctly, for any visible set. -/
theorem goal : Goal := by
  obtain ⟨-, hexp⟩ := masked_loss_zero
  exact ⟨hexp, no_separating_classifier⟩

end Formal.MAE
