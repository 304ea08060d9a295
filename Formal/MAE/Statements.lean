import Formal.MAE.Defs

/-!
# MAE with a normalized-pixel target: the statements

There is one Prop-valued definition per target of the mission `mae-normalized-pixel` (seed 10,
"A normalized-pixel objective with a constant representation"). The model is in
`Formal.MAE.Defs`. The proofs are in `Formal.MAE.Proofs`.
-/

namespace Formal.MAE

/-- **Normalized targets agree.** Both patches `p₀ = (0, 1/2)` and `p₁ = (1/2, 1)` have a
positive (population) standard deviation. Their normalized-pixel targets are equal:
`T_norm(p₀) = (-1, 1) = T_norm(p₁)`.

Source: seed 10, Verification 1.1, using F1 (He et al. 2022, §3.3; Vincent et al. 2008,
§§2.2–2.3). -/
def NormalizedTargetsAgree : Prop :=
  0 < patchStd p0 ∧ 0 < patchStd p1 ∧
    normTarget p0 = (![-1, 1] : Patch) ∧ normTarget p1 = (![-1, 1] : Patch)

/-- **Masked loss is zero.** For every training image and every visible set in the support of the
mask law, the per-example masked loss is `0`. The expected masked reconstruction loss
(the finite weighted sum over image and mask outcomes) is also `0`.

Source: seed 10, Verification 1.2, using F1, F2 and F3 (He et al. 2022, §3.3; Vincent et al.
2008, §§2.2–2.3). -/
def MaskedLossZero : Prop :=
  (∀ n : Fin 2, ∀ V ∈ visibleSets, exampleLoss (trainImage n) V = 0) ∧
    expectedMaskedLoss = 0

/-- **No separating classifier.** Take any visible set `V` in the support of the mask law. No
deterministic classifier `f` classifies both training images correctly, that is, gives
`f V (E(V, X⁽ⁿ⁾)) = label n` for `n = 0` and `n = 1`. Here `f` sees only the visible set and the
encoder's token family, never the image.

Source: seed 10, Verification 2.1, using F4; masked-autoencoder setting of He et al. 2022, §3.3.
-/
def NoSeparatingClassifier : Prop :=
  ∀ V ∈ visibleSets, ¬ ∃ f : (W : Finset (Fin 2)) → Tokens W → Fin 2,
    ∀ n : Fin 2, f V (represent V (trainImage n)) = trainLabel n

/-- **Goal: zero masked loss, no separating classifier.** The model has expected masked
reconstruction loss `0`. Yet for every visible set, no deterministic classifier of the
representation (which may also use the visible set) classifies both differently labelled images
correctly.

Source: seed 10, Example (conclusion), with He et al. 2022, §3.3. -/
def Goal : Prop :=
  expectedMaskedLoss = 0 ∧
    ∀ V ∈ visibleSets, ¬ ∃ f : (W : Finset (Fin 2)) → Tokens W → Fin 2,
      ∀ n : Fin 2, f V (represent V (trainImage n)) = trainLabel n

end Formal.MAE
