import Formal.AletheanChecksum.Defs

/-!
# Random-checksum error detection: the statements

There is one Prop-valued definition per workspace target of the mission `alethean-checksum`
(seed 08, the Alethean corpus). The only workspace target is the goal. The corpus capstones that
the seed lists as milestones are `external` targets of the mission YAML and have no statement
here. The model is in `Formal.AletheanChecksum.Defs`; the proof is in
`Formal.AletheanChecksum.Proofs`.
-/

namespace Formal.AletheanChecksum

/-- **Goal: a random checksum detects silent corruption except with probability at most `1/K`.**
For every finite set of source strings `M`, every codeword type `C`, every number `K ≥ 1` of
checksum values, every encoder `enc : M → C`, every inner decoder `dec : C → M` and every source
string `x : M`: when the checksum `h : M → Fin K` is a uniformly random function, drawn
independently of `x`, `enc` and `dec`, the probability that the decoder's output
`x̂ = dec (enc x)` differs from `x` while the checksum test `h x̂ = h x` passes is at most `1/K`.

Source: seed 08 (Alethean corpus, Source repository github.com/raver1975/lean, commit
53c2925a02), "What is being asked": the corpus's universal error-detection bound for random
checksums, capstone of the Almost-Lossless compression thread ("Compression Beyond the
Pigeonhole Bound"). The corpus statement itself is not available; this is our model of it. -/
def Goal : Prop :=
  ∀ (M : Type) [Fintype M] [DecidableEq M] (C : Type) (K : ℕ), 1 ≤ K →
    ∀ (enc : M → C) (dec : C → M) (x : M),
      uniformProb (fun h : M → Fin K => dec (enc x) ≠ x ∧ h (dec (enc x)) = h x) ≤
        1 / (K : ℝ)

end Formal.AletheanChecksum
