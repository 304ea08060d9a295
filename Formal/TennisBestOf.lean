import Formal.TennisBestOf.Defs
import Formal.TennisBestOf.Statements
import Formal.TennisBestOf.Proofs

/-!
# Mission `tennis-best-of`

This is the root module of the mission formalizing seed 09, "Tennis: don't label twice". You win
each point independently with probability `q ∈ (1/2, 1)`. Playing all `n m₁ ⋯ m_k` points as one
flat best-of gives a strictly greater chance of winning than a best-of-`n` of nested best-ofs
(parts (a), (b)), also under an outer random scoring rule with fair-coin tie-breaks (part (c)),
and under the strict-win rule when the ignore probability is at least `1/2` (part (d)). With one
level of sets, part (d) is the finite-sample inequality of Dorner and Hardt (ICML 2024,
arXiv:2402.02249, Section 3).

* `Formal.TennisBestOf.Defs`: the model (laws on `ℤ`, scoring rule, tie rules, nested best-ofs).
* `Formal.TennisBestOf.Statements`: one Prop-valued definition per target.
* `Formal.TennisBestOf.Proofs`: one theorem per target.
-/
