import Formal.AletheanChecksum.Statements

/-!
# Random-checksum error detection: the proofs

There is one theorem per workspace target of the mission `alethean-checksum`. The type of each
theorem is exactly the corresponding statement constant of `Formal.AletheanChecksum.Statements`.

Proof of the goal. Fix the source `x` and the decoder output `y = dec (enc x)`. Let `S` be the
set of checksum functions `h` with `y ≠ x` and `h y = h x`. The map
`(h, c) ↦ Function.update h y c` is injective on `S × Fin K`: the value at `y` recovers `c`, the
values away from `y` recover `h` there, and `h y = h x` (with `x ≠ y`) recovers `h y`. Hence
`#S * K ≤ #(M → Fin K)`, that is `#S / #(M → Fin K) ≤ 1 / K`. (If `y = x`, then `S` is empty.)
-/

namespace Formal.AletheanChecksum

/-- The random-checksum bound: for every source string and every inner decoder, the probability
of silent corruption over a uniformly random checksum function `h : M → Fin K` is at most
`1/K`. -/
theorem goal : Goal := by
  intro M _ _ C K hK enc dec x
  have hK0 : 0 < K := by omega
  -- Counting step: for any fixed decoder output `y`, the bad checksum functions, paired with the
  -- `K` possible values at `y`, inject into the set of all checksum functions.
  have key : ∀ y : M,
      (Finset.univ.filter (fun h : M → Fin K => y ≠ x ∧ h y = h x)).card * K ≤
        Fintype.card (M → Fin K) := by
    intro y
    have hinj : Set.InjOn (fun p : (M → Fin K) × Fin K => Function.update p.1 y p.2)
        ↑((Finset.univ.filter (fun h : M → Fin K => y ≠ x ∧ h y = h x)) ×ˢ
          (Finset.univ : Finset (Fin K))) := by
      intro p hp q hq hpq
      have hp' : y ≠ x ∧ p.1 y = p.1 x :=
        (Finset.mem_filter.mp (Finset.mem_product.mp (Finset.mem_coe.mp hp)).1).2
      have hq' : y ≠ x ∧ q.1 y = q.1 x :=
        (Finset.mem_filter.mp (Finset.mem_product.mp (Finset.mem_coe.mp hq)).1).2
      have hxy : x ≠ y := fun hxy' => hp'.1 hxy'.symm
      have hpq' : ∀ z : M, Function.update p.1 y p.2 z = Function.update q.1 y q.2 z :=
        fun z => congrFun hpq z
      -- The value at `y` recovers the second component.
      have h2 : p.2 = q.2 := by
        have hy := hpq' y
        first
          | (rw [Function.update_self, Function.update_self] at hy; exact hy)
          | simpa using hy
      -- Away from `y` the update changes nothing; in particular at `x`.
      have hx : p.1 x = q.1 x := by
        have hx' := hpq' x
        first
          | (rw [Function.update_of_ne hxy, Function.update_of_ne hxy] at hx'; exact hx')
          | simpa [Function.update_apply, hxy] using hx'
      have h1 : p.1 = q.1 := by
        funext z
        by_cases hz : z = y
        · -- At `y`, both functions agree with their value at `x`.
          rw [hz, hp'.2, hq'.2]
          exact hx
        · have hz' := hpq' z
          first
            | (rw [Function.update_of_ne hz, Function.update_of_ne hz] at hz'; exact hz')
            | simpa [Function.update_apply, hz] using hz'
      first
        | exact Prod.ext h1 h2
        | exact Prod.ext_iff.mpr ⟨h1, h2⟩
    calc (Finset.univ.filter (fun h : M → Fin K => y ≠ x ∧ h y = h x)).card * K
        = ((Finset.univ.filter (fun h : M → Fin K => y ≠ x ∧ h y = h x)) ×ˢ
            (Finset.univ : Finset (Fin K))).card := by
          rw [Finset.card_product, Finset.card_univ, Fintype.card_fin]
      _ = (((Finset.univ.filter (fun h : M → Fin K => y ≠ x ∧ h y = h x)) ×ˢ
            (Finset.univ : Finset (Fin K))).image
              (fun p : (M → Fin K) × Fin K => Function.update p.1 y p.2)).card :=
          (Finset.card_image_of_injOn hinj).symm
      _ ≤ Fintype.card (M → Fin K) := Finset.card_le_univ _
  -- Turn the counting bound into the probability bound.
  have hKR : (0 : ℝ) < (K : ℝ) := by
    first
      | exact Nat.cast_pos.mpr hK0
      | exact_mod_cast hK0
  have hN0 : 0 < Fintype.card (M → Fin K) := Fintype.card_pos_iff.mpr ⟨fun _ => ⟨0, hK0⟩⟩
  have hN : (0 : ℝ) < (Fintype.card (M → Fin K) : ℝ) := by
    first
      | exact Nat.cast_pos.mpr hN0
      | exact_mod_cast hN0
  have hcount : ((Finset.univ.filter
      (fun h : M → Fin K => dec (enc x) ≠ x ∧ h (dec (enc x)) = h x)).card : ℝ) * (K : ℝ) ≤
        (Fintype.card (M → Fin K) : ℝ) := by
    exact_mod_cast key (dec (enc x))
  unfold uniformProb
  first
    | rw [div_le_div_iff₀ hN hKR, one_mul]
    | rw [div_le_div_iff_of_pos hN hKR, one_mul]
    | rw [div_le_div_iff hN hKR, one_mul]
  exact hcount

end Formal.AletheanChecksum
