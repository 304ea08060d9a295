import Mathlib

/-!
# MAE with a normalized-pixel target: the model

This file holds the finite model of the example in seed 10 ("A normalized-pixel objective with
a constant representation"). It contains definitions only.

* Patches have `q = 2` real pixels (`Patch = Fin 2 → ℝ`). Images have `M = 2` patch positions
  (`PatchImage = Fin 2 → Patch`).
* The patchwise normalized-pixel target is `T_norm(u) = (u - ū·1) / s(u)` (He et al. 2022, §3.3).
  Here `ū` is the mean and `s(u)` the population standard deviation of the patch's pixels.
  `normTarget` is a total function. It is meaningful only when `s(u) > 0`: for `s(u) = 0`,
  Lean's convention `x / 0 = 0` gives a junk value. The statements therefore assert positivity
  of the standard deviation explicitly.
* The training law puts weight `1/2` on each of `X⁽⁰⁾ = (p₀, p₀)` (label `0`) and
  `X⁽¹⁾ = (p₁, p₁)` (label `1`), where `p₀ = (0, 1/2)` and `p₁ = (1/2, 1)`. The visible set `V`
  is drawn independently and uniformly from the size-`k` subsets of the `M` positions, `k = 1`
  (`Finset.powersetCard 1 Finset.univ`).
* The encoder sees only the visible patches and returns the token `z* = 0 ∈ Z = ℝ` at every
  visible position. The decoder receives the full-length token sequence, with a mask token
  (`none`) inserted at each masked position, and predicts `(-1, 1)` at every position.
* The per-example loss averages, over the masked positions `j ∈ [M] \ V`, the squared error
  `‖prediction_j - T_norm(x_j)‖²` (the sum over the `q` pixels). The expected masked loss is the
  finite weighted sum of the per-example loss over the (image, mask) outcomes.
-/

namespace Formal.MAE

noncomputable section

/-! ## Patches and the normalized-pixel target -/

/-- A patch: `q = 2` real pixel values, indexed by `Fin 2`. -/
abbrev Patch : Type := Fin 2 → ℝ

/-- An image: `M = 2` patches, indexed by the patch positions `Fin 2` (that is, `[M]`). -/
abbrev PatchImage : Type := Fin 2 → Patch

/-- The mean `ū = (1/q) ∑ᵢ uᵢ` of a patch `u` with `q` pixels. -/
def patchMean {q : ℕ} (u : Fin q → ℝ) : ℝ :=
  -- lint: allow junk-div because every patch of the model has q = 2 pixels (Patch := Fin 2 → ℝ)
  (∑ i, u i) / q

/-- The population variance `(1/q) ∑ᵢ (uᵢ - ū)²` of a patch `u` with `q` pixels. -/
def patchVar {q : ℕ} (u : Fin q → ℝ) : ℝ :=
  -- lint: allow junk-div because every patch of the model has q = 2 pixels (Patch := Fin 2 → ℝ)
  (∑ i, (u i - patchMean u) ^ 2) / q

/-- The population standard deviation `s(u) = √(patchVar u)` of a patch. -/
def patchStd {q : ℕ} (u : Fin q → ℝ) : ℝ :=
  -- lint: allow junk-sqrt because patchVar is an average of squares, hence ≥ 0
  Real.sqrt (patchVar u)

/-- The patchwise normalized-pixel target `T_norm(u)ᵢ = (uᵢ - ū) / s(u)` (He et al. 2022, §3.3).
It is meaningful only for a patch with `s(u) > 0`. Otherwise Lean's `x / 0 = 0` makes it a junk
value. -/
def normTarget {q : ℕ} (u : Fin q → ℝ) (i : Fin q) : ℝ :=
  -- lint: allow junk-div because the statements apply normTarget only to p₀ and p₁, whose standard
  --   deviations NormalizedTargetsAgree asserts to be positive (the docstring records the junk
  --   case)
  (u i - patchMean u) / patchStd u

/-! ## The two training images, their labels and weights -/

/-- The patch `p₀ = (0, 1/2)`. -/
def p0 : Patch := ![0, 1 / 2]

/-- The patch `p₁ = (1/2, 1)`. -/
def p1 : Patch := ![1 / 2, 1]

/-- The image `X⁽⁰⁾ = (p₀, p₀)`: both patch positions carry `p₀`. -/
def image0 : PatchImage := ![p0, p0]

/-- The image `X⁽¹⁾ = (p₁, p₁)`: both patch positions carry `p₁`. -/
def image1 : PatchImage := ![p1, p1]

/-- The training images, indexed by the example index `n : Fin 2`:
`trainImage 0 = X⁽⁰⁾` and `trainImage 1 = X⁽¹⁾`. -/
def trainImage : Fin 2 → PatchImage := ![image0, image1]

/-- The downstream labels: `X⁽⁰⁾` has label `0` and `X⁽¹⁾` has label `1`. -/
def trainLabel : Fin 2 → Fin 2 := ![0, 1]

/-- The training law on images: weight `1/2` on each of the two images. -/
def imageWeight : Fin 2 → ℝ := ![1 / 2, 1 / 2]

/-! ## The mask law -/

/-- The possible visible sets: the size-`k` subsets of the `M = 2` patch positions, `k = 1`. -/
def visibleSets : Finset (Finset (Fin 2)) := Finset.powersetCard 1 Finset.univ

/-- The uniform mask law: each size-`k` visible set has probability `1 / #visibleSets`. The mask
is drawn independently of the image. -/
def maskWeight : ℝ :=
  -- lint: allow junk-div because visibleSets, the size-1 subsets of Fin 2, has 2 elements
  1 / (visibleSets.card : ℝ)

/-- The masked positions `[M] \ V` for a visible set `V`. -/
def maskedPositions (V : Finset (Fin 2)) : Finset (Fin 2) := Finset.univ \ V

/-! ## Encoder, mask tokens and decoder -/

/-- An indexed token family `(z_j)_{j ∈ V} ∈ Z^V` with token space `Z = ℝ`. -/
abbrev Tokens (V : Finset (Fin 2)) : Type := {j // j ∈ V} → ℝ

/-- The fixed token `z* = 0 ∈ Z = ℝ`. -/
def zStar : ℝ := 0

/-- The visible patches `(x_j)_{j ∈ V}` of an image: the only input the encoder receives. -/
def visiblePatches (V : Finset (Fin 2)) (X : PatchImage) : {j // j ∈ V} → Patch :=
  fun j => X j.1

/-- The encoder `E(V, (x_j)_{j ∈ V}) = (z*)_{j ∈ V}`: it returns `z*` at every visible position,
whatever the visible patches are. -/
def encoder (V : Finset (Fin 2)) (_xs : {j // j ∈ V} → Patch) : Tokens V :=
  fun _ => zStar

/-- The representation of an image under the visible set `V`: the encoder applied to the
visible patches. -/
def represent (V : Finset (Fin 2)) (X : PatchImage) : Tokens V :=
  encoder V (visiblePatches V X)

/-- Mask-token insertion: a visible position `j ∈ V` carries its encoded token `some z_j`; a
masked position carries the mask token `none`. -/
def withMaskTokens (V : Finset (Fin 2)) (z : Tokens V) : Fin 2 → Option ℝ :=
  fun j => if h : j ∈ V then some (z ⟨j, h⟩) else none

/-- The decoder: for every full-length token sequence, it predicts the patch `(-1, 1)` at every
patch position. -/
def decoder (_s : Fin 2 → Option ℝ) : Fin 2 → Patch :=
  fun _ => ![-1, 1]

/-- The model's prediction of every patch of `X` under the visible set `V`. -/
def prediction (V : Finset (Fin 2)) (X : PatchImage) : Fin 2 → Patch :=
  decoder (withMaskTokens V (represent V X))

/-! ## Losses -/

/-- The squared Euclidean error `‖u - v‖² = ∑ᵢ (uᵢ - vᵢ)²` between two patches. -/
def sqError (u v : Patch) : ℝ := ∑ i, (u i - v i) ^ 2

/-- The per-example masked loss: the average, over the masked positions `j ∈ [M] \ V`, of the
squared error between the prediction at `j` and the normalized target `T_norm(x_j)`. -/
def exampleLoss (X : PatchImage) (V : Finset (Fin 2)) : ℝ :=
  -- lint: allow junk-div because for every V ∈ visibleSets (the only ones the statements use)
  --   exactly one of the two positions is masked, so the card is 1
  (∑ j ∈ maskedPositions V, sqError (prediction V X j) (normTarget (X j))) /
    (maskedPositions V).card

/-- The expected masked reconstruction loss: the finite weighted sum of the per-example loss over
the (image, visible set) outcomes. The image and the mask are drawn independently. -/
def expectedMaskedLoss : ℝ :=
  ∑ n : Fin 2, ∑ V ∈ visibleSets, imageWeight n * maskWeight * exampleLoss (trainImage n) V

end

end Formal.MAE
