import Mathlib
import Formal.Common.Stochastic

/-!
# FedAvg / local SGD with full participation: the model

This file holds the model of the mission `fedavg-local-sgd` (seed 06): Jianyu Wang et al.,
"A Field Guide to Federated Optimization", 2021, arXiv:2107.06917v1, Section 6.1 and
Appendix D. Definitions only.

* `Vec d = EuclideanSpace ℝ (Fin d)` (the case `d = 0` is allowed).
* `M` clients with objectives `Fᵢ`, the global objective `F = M⁻¹ ∑ᵢ Fᵢ` (`globalObjective`),
  the client assumptions of Section 6.1.1 (`SmoothConvexClients`: differentiable, convex,
  `L`-Lipschitz gradients) and the heterogeneity bound `‖∇Fᵢ(x) - ∇F(x)‖ ≤ ζ`
  (`BoundedHeterogeneity`).
* `Run P ℱ M d τ η x₀`: local SGD with full participation and uniform weights, as an instance of
  the shared `Formal.Common.StochasticRun` with one agent per client (`ι = Fin M`). The filtration
  is indexed by the global step `t τ + k` (round `t`, local step `k < τ`); `ℱ (t τ + k)` is the
  history before that step and contains all past oracle draws. At step `t τ + k` client `i` sits
  at `x_i^{(t,k)}` (the query point) and draws `g_i^{(t,k)}` (the direction); it then moves to
  `x_i^{(t,k+1)} = x_i^{(t,k)} - η g_i^{(t,k)}`; after `τ` local steps all clients restart from
  the average of the terminal states `x_i^{(t,τ)}`. The initial model `x₀` is deterministic.
* `Run.localState t k i` is `x_i^{(t,k)}` for `0 ≤ k ≤ τ` (including the terminal, pre-averaging
  state `k = τ`) and `Run.shadow t k = M⁻¹ ∑ᵢ x_i^{(t,k)}` is the shadow iterate `x̄^{(t,k)}`,
  defined at every local step.

The run records the algorithm, the measurability of its iterates and oracle draws, and the
square integrability of the draws (from `StochasticRun`). The square integrability of the iterates
is not a field: it follows from `point_zero` (a deterministic start), `point_local`,
`point_average` and the draws' square integrability by induction on the step (every step is
covered when `τ ≥ 1`, which every statement assumes). Oracle properties are hypotheses of the
statements. No drift bound, progress bound or convergence property appears in the model.
-/

open MeasureTheory ProbabilityTheory
open scoped NNReal

namespace Formal.FedAvgLocalSGD

noncomputable section

/-- The parameter space `ℝ^d`, with its Euclidean norm (the case `d = 0` is allowed). -/
abbrev Vec (d : ℕ) : Type := EuclideanSpace ℝ (Fin d)

/-- The global objective `F(x) = M⁻¹ ∑ᵢ Fᵢ(x)` with uniform client weights (Wang et al.,
Section 6.1.1, PDF p. 40, equations (11)–(14)). -/
def globalObjective {M d : ℕ} (Fi : Fin M → Vec d → ℝ) (x : Vec d) : ℝ :=
  -- lint: allow junk-div because every statement assumes 1 ≤ M
  (M : ℝ)⁻¹ * ∑ i, Fi i x

/-- The client assumptions of Section 6.1.1 (Wang et al., PDF p. 40, equations (11)–(14)): every
client objective `Fᵢ` is differentiable and convex, and its gradient is `L`-Lipschitz for a
common `L` (the positivity `0 < L` is a separate hypothesis). -/
def SmoothConvexClients {M d : ℕ} (Fi : Fin M → Vec d → ℝ) (L : ℝ≥0) : Prop :=
  ∀ i, Differentiable ℝ (Fi i) ∧ ConvexOn ℝ Set.univ (Fi i) ∧ LipschitzWith L (gradient (Fi i))

/-- The heterogeneity bound of Section 6.1.1 (Wang et al., PDF p. 40, equations (11)–(14)):
`‖∇Fᵢ(x) - ∇F(x)‖ ≤ ζ` for every client `i` and every point `x`. -/
def BoundedHeterogeneity {M d : ℕ} (Fi : Fin M → Vec d → ℝ) (ζ : ℝ) : Prop :=
  ∀ i x, ‖gradient (Fi i) x - gradient (globalObjective Fi) x‖ ≤ ζ

/-- `x⋆` is a global minimizer of `F`: `F x⋆ ≤ F x` for every `x`. -/
def IsGlobalMinimizer {d : ℕ} (F : Vec d → ℝ) (xstar : Vec d) : Prop :=
  ∀ x, F xstar ≤ F x

/-- **Local SGD / FedAvg with full participation** (Wang et al., Section 6.1.1, PDF p. 40, and
Appendix D.1 after equation (27), PDF p. 87): a run with `M` clients, `τ` local steps per round,
constant learning rate `η` and deterministic initial model `x₀`, on the filtered probability space
`(Ω, P, ℱ)` indexed by the global step `t τ + k`. It extends the shared
`Formal.Common.StochasticRun` with one agent per client: `point (t τ + k) i` is `x_i^{(t,k)}` and
`dir (t τ + k) i` is `g_i^{(t,k)}`, for `k < τ`. The update fields say: all clients start at
`x₀`; within a round `x_i^{(t,k+1)} = x_i^{(t,k)} - η g_i^{(t,k)}`; after the last local step all
clients restart from the average of the terminal states. Square integrability of the local states
is derived, not a field: for `τ ≥ 1` it follows from these updates and `dir_memLp` by induction on
the step. -/
structure Run {Ω : Type*} {m0 : MeasurableSpace Ω} (P : Measure Ω) (ℱ : Filtration ℕ m0)
    (M d τ : ℕ) (η : ℝ) (x₀ : Vec d)
    extends Formal.Common.StochasticRun P ℱ (Fin M) (Vec d) where
  /-- Every client starts at the deterministic model `x₀`. -/
  point_zero : ∀ i ω, point 0 i ω = x₀
  /-- Local SGD step inside round `t`: `x_i^{(t,k+1)} = x_i^{(t,k)} - η g_i^{(t,k)}`, `k + 1 < τ`.
  -/
  point_local : ∀ t k i ω, k + 1 < τ →
    point (t * τ + (k + 1)) i ω = point (t * τ + k) i ω - η • dir (t * τ + k) i ω
  /-- Communication after the last local step `k = τ - 1` of round `t`: every client restarts
  from the average `M⁻¹ ∑ⱼ (x_j^{(t,τ-1)} - η g_j^{(t,τ-1)}) = M⁻¹ ∑ⱼ x_j^{(t,τ)}`. -/
  point_average : ∀ t k i ω, k + 1 = τ →
    -- lint: allow junk-div because every statement assumes 1 ≤ M
    point (t * τ + (k + 1)) i ω = (M : ℝ)⁻¹ • ∑ j, (point (t * τ + k) j ω - η • dir (t * τ + k) j ω)

/-- The local state `x_i^{(t,k)}` of client `i` after `k` local steps of round `t`, `0 ≤ k ≤ τ`:
the round's starting point for `k = 0`, and `x_i^{(t,k-1)} - η g_i^{(t,k-1)}` for `k ≥ 1`
(for `k = τ` this is the terminal state before averaging). -/
def Run.localState {Ω : Type*} {m0 : MeasurableSpace Ω} {P : Measure Ω}
    {ℱ : Filtration ℕ m0} {M d τ : ℕ} {η : ℝ} {x₀ : Vec d} (run : Run P ℱ M d τ η x₀)
    (t k : ℕ) (i : Fin M) (ω : Ω) : Vec d :=
  if k = 0 then run.point (t * τ) i ω
  -- lint: allow nat-sub because this is the else branch of `if k = 0`, so k ≥ 1 and k - 1 is exact
  else run.point (t * τ + (k - 1)) i ω - η • run.dir (t * τ + (k - 1)) i ω

/-- The shadow iterate `x̄^{(t,k)} = M⁻¹ ∑ᵢ x_i^{(t,k)}` (Wang et al., Section 6.1.2, PDF p. 41),
defined at every local step `0 ≤ k ≤ τ`, also where clients do not communicate. -/
def Run.shadow {Ω : Type*} {m0 : MeasurableSpace Ω} {P : Measure Ω} {ℱ : Filtration ℕ m0}
    {M d τ : ℕ} {η : ℝ} {x₀ : Vec d} (run : Run P ℱ M d τ η x₀) (t k : ℕ) (ω : Ω) : Vec d :=
  -- lint: allow junk-div because every statement assumes 1 ≤ M
  (M : ℝ)⁻¹ • ∑ i, run.localState t k i ω

/-- The quantity bounded by Theorem 1 (Wang et al., equation (15)), before taking expectations:
`(1 / (τ T)) ∑_{t<T} ∑_{k=1}^{τ} (F(x̄^{(t,k)}) - F(x⋆))`, the average objective gap along the
post-update shadow sequence. -/
def Run.averageGap {Ω : Type*} {m0 : MeasurableSpace Ω} {P : Measure Ω}
    {ℱ : Filtration ℕ m0} {M d τ : ℕ} {η : ℝ} {x₀ : Vec d} (run : Run P ℱ M d τ η x₀)
    (Fi : Fin M → Vec d → ℝ) (xstar : Vec d) (T : ℕ) (ω : Ω) : ℝ :=
  -- lint: allow junk-div because the statements using averageGap (Goal, TunedStepBound) assume
  --   1 ≤ τ and 1 ≤ T
  1 / ((τ : ℝ) * T) * ∑ t ∈ Finset.range T, ∑ k ∈ Finset.Icc 1 τ,
    (globalObjective Fi (run.shadow t k ω) - globalObjective Fi xstar)

end

end Formal.FedAvgLocalSGD
