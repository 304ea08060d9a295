import Mathlib

/-!
# Random-checksum error detection: the model

This file holds the finite model of the goal of the mission `alethean-checksum` (seed 08, the
Alethean corpus): the random-checksum error-detection bound, the capstone of the corpus's
Almost-Lossless compression thread ("Compression Beyond the Pigeonhole Bound"). The corpus itself
is not available here, so the model is built from the seed's description. It contains
definitions only.

* **Messages.** Source strings range over a finite type `M` with decidable equality (for example
  the strings `Fin n → α` of length `n` over a finite alphabet `α`).
* **Inner code.** An arbitrary codeword type `C`, an arbitrary encoder `enc : M → C` and an
  arbitrary inner decoder `dec : C → M`. Nothing is assumed about them: by the pigeonhole
  principle a compressing code must decode some strings wrongly.
* **Random checksum.** `K ≥ 1` checksum values `Fin K`. The checksum is a uniformly random
  function `h : M → Fin K` (equivalently: independent, uniformly distributed checksum values
  `h m`, one per message). It is drawn independently of the source string and of the inner code:
  the statement fixes `x`, `enc`, `dec` first and then averages over `h`, and `dec` never sees `h`.
* **Checksum test and silent corruption.** The sender stores `(enc x, h x)`. The receiver decodes
  `x̂ = dec (enc x)` and accepts iff `h x̂ = h x`. Silent corruption is the event
  `x̂ ≠ x ∧ h x̂ = h x`: the output differs from the source, yet the test passes.
* **Probability.** A finite uniform average, `uniformProb E = #{h | E h} / #(M → Fin K)`; no
  measure theory is used.
-/

namespace Formal.AletheanChecksum

/-- **Uniform probability on a finite sample space.** For a finite type `Ω` and a decidable
event `E : Ω → Prop`, `uniformProb E = #{ω ∈ Ω | E ω} / #Ω` (computed in `ℝ`), the probability
of `E` when `ω` is drawn uniformly at random from `Ω`. For an empty `Ω` this is the junk value
`0 / 0 = 0`; the statements use it only on nonempty sample spaces (they assume `1 ≤ K`, so the
space `M → Fin K` of checksum functions is nonempty). -/
noncomputable def uniformProb {Ω : Type*} [Fintype Ω] (E : Ω → Prop) [DecidablePred E] : ℝ :=
  -- lint: allow junk-div because the statements apply uniformProb only to the space M → Fin K with
  --   1 ≤ K, which is nonempty, so the card is ≥ 1 (the docstring records the 0 / 0 case)
  ((Finset.univ.filter E).card : ℝ) / (Fintype.card Ω : ℝ)

end Formal.AletheanChecksum
