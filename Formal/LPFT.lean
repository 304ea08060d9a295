import Formal.LPFT.Defs
import Formal.LPFT.Statements
import Formal.LPFT.Proofs

/-!
# Mission `lp-ft`

This is the root module of the mission formalizing seed 01, "Why initialization matters for
transfer learning": Proposition 3.7 of Kumar, Raghunathan, Jones, Ma and Liang, *Fine-Tuning can
Distort Pretrained Features and Underperform Out-of-Distribution* (ICLR 2022,
arXiv:2202.10054v1), in the perfect-feature, nonzero-signal regime. For two-layer linear networks
trained by gradient flow on `‖X Bᵀ v - Y‖²`, linear probing converges to the aligned head `u`,
fine-tuning started from `(u, B₀)` (LP-FT) keeps zero OOD loss forever, and fine-tuning from a
Gaussian head has, with probability one, positive OOD loss at every time.

* `Formal.LPFT.Defs`: the model (matrices as continuous linear maps, data, regime assumptions,
  gradients and vector fields, OOD law and loss, Gaussian head law).
* `Formal.LPFT.Statements`: one Prop-valued definition per target.
* `Formal.LPFT.Proofs`: one theorem per target.

Flows on `[0, ∞)` use `Formal.Common.IsFlowOn` from `Formal.Common.Flow`.
-/
