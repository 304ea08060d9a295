import Mathlib

/-!
# Flows of autonomous vector fields on `[0, ∞)`

Shared scaffolding for missions that study gradient flows and other autonomous ODEs run forward
in time from an initial condition. It holds one definition and no theorem.

* `Formal.Common.IsFlowOn F γ x₀`: the curve `γ : ℝ → E` solves `γ' = F γ` on `[0, ∞)` and starts
  at `x₀`.

Conventions.

* Time is real. Only nonnegative times matter: the values of `γ` at negative times are ignored.
* Differentiability is imposed *within* `[0, ∞)` (`Set.Ici 0`). At a time `t > 0` the set
  `[0, ∞)` is a neighbourhood of `t`, so this is the ordinary two-sided derivative. At `t = 0` it
  is the right derivative. In particular `γ` is continuous on `[0, ∞)`.
* The definition asserts nothing about existence or uniqueness. A statement that needs a flow
  must assert its existence (`∃ γ, IsFlowOn F γ x₀`), and a statement about "the" flow should
  quantify over every `γ` with `IsFlowOn F γ x₀`.
* `E` is any real normed space, for example a Euclidean space, a space of continuous linear maps
  with the operator norm, or a product of such spaces (with the max norm).
-/

namespace Formal.Common

/-- `IsFlowOn F γ x₀`: the curve `γ : ℝ → E` is a solution on `[0, ∞)` of the autonomous ODE
`γ'(t) = F (γ t)` with initial value `γ 0 = x₀`.

For every `t ≥ 0`, `γ` has derivative `F (γ t)` at `t` within `[0, ∞)`. For `t > 0` this is the
two-sided derivative (as `[0, ∞)` is a neighbourhood of `t`). At `t = 0` it is the right
derivative. Values of `γ` at negative times play no role. -/
def IsFlowOn {E : Type*} [NormedAddCommGroup E] [NormedSpace ℝ E] (F : E → E) (γ : ℝ → E)
    (x₀ : E) : Prop :=
  γ 0 = x₀ ∧ ∀ t : ℝ, 0 ≤ t → HasDerivWithinAt γ (F (γ t)) (Set.Ici 0) t

end Formal.Common
