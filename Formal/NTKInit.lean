import Formal.NTKInit.Defs
import Formal.NTKInit.Statements
import Formal.NTKInit.Proofs

/-!
# Mission `ntk-init`

This is the root module of the mission formalizing seed 03, the neural tangent kernel at
initialization (Jacot, Gabriel and Hongler, NeurIPS 2018, arXiv:1806.07572v4, Section 4.1,
Theorem 1, PDF p. 5). A fully connected network with `N(0, 1)` parameters, `1/√n_ℓ` layer
normalization, bias scale `β > 0` and a Lipschitz activation has an empirical NTK that converges
in probability, as the hidden widths go to infinity one layer after another, to the deterministic
kernel `Θ^{(L)}_∞ ⊗ Id_q`.

* `Formal.NTKInit.Defs`: the model (parameter index, network, initialization law, empirical NTK,
  limiting kernels, sequential width filter, convergence in law).
* `Formal.NTKInit.Statements`: one Prop-valued definition per target.
* `Formal.NTKInit.Proofs`: one theorem per target.

The shared Gaussian-initialization laws are in `Formal.Common.Gaussian`.
-/
