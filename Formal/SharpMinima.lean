import Formal.SharpMinima.Defs
import Formal.SharpMinima.Statements
import Formal.SharpMinima.Proofs

/-!
# Mission `sharp-minima`

This is the root module of the mission formalizing seed 02, "Why the geometry of a minimum needs a
parameter convention": Dinh, Pascanu, Bengio, Bengio, "Sharp Minima Can Generalize For Deep
Nets" (ICML 2017, arXiv:1703.04933v2), Section 4.2, Theorem 4. For a bias-free one-hidden-layer
rectified network, the layer scaling `T_α(W, v) = (α W, α⁻¹ v)`, `α > 0`, leaves every
prediction unchanged, yet at a critical local minimum with nonzero Hessian it makes the Euclidean
spectral norm of the Hessian of any function-based loss arbitrarily large.

* `Formal.SharpMinima.Defs`: the model (Euclidean parameter space, network, loss, scaling,
  local second-order regularity).
* `Formal.SharpMinima.Statements`: one Prop-valued definition per target.
* `Formal.SharpMinima.Proofs`: one theorem per target (all `sorry` here; proved externally).
-/
