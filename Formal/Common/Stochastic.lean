import Mathlib

/-!
# Stochastic runs on a filtered probability space

Shared probability model of the missions `sgd-bottou` (seed 04), `scaffold` (seed 05) and
`fedavg-local-sgd` (seed 06). This file holds one structure and a few definitions, and no theorem.

* `Formal.Common.StochasticRun P ℱ ι E`: a family of agents `i : ι` that, at every step
  `n : ℕ` of a filtration `ℱ`, query a stochastic oracle at a point `point n i : Ω → E` known at
  step `n` and receive a direction `dir n i : Ω → E` known at step `n + 1`, with a finite second
  moment. A single-stream method (stochastic gradient) uses `ι = Unit`; a federated method uses
  `ι = Fin N`, one agent per client.
* `StochasticRun.condMean`, `StochasticRun.condSecondMoment`: the conditional mean
  `E[dir n i | ℱ n]` and the conditional second moment `E[‖dir n i‖² | ℱ n]`, both Mathlib
  conditional expectations `MeasureTheory.condExp`.
* `StochasticRun.IsUnbiasedAt`, `StochasticRun.HasCondSqErrorLE`,
  `StochasticRun.IsCondIndepAt`, `StochasticRun.IsGradientOracleAt`: oracle assumptions at one
  step (conditional unbiasedness, bounded conditional squared error, conditional independence
  of the agents' directions given the history, and the three together for gradient oracles).

Conventions.

* `ℱ n` is the history *before* step `n`: the query point of step `n` is `ℱ n`-measurable and the
  returned direction is `ℱ (n + 1)`-measurable. Measurability is spelled out as
  `Measurable[ℱ n] (point n i)`, which is Mathlib's `Adapted` in its post-2026-01-13 meaning
  (`∀ i, Measurable[ℱ i] (u i)`); for the Euclidean spaces used by the missions it is
  equivalent to `StronglyAdapted`. Writing it out avoids any dependence on that rename.
* The structure records the randomness of an algorithm only (who is measurable when, finite
  second moments). It records no update rule, no oracle property, no descent inequality, drift
  bound or convergence conclusion. Each mission extends it with its own concrete update rule,
  index layout and initialization, and states oracle properties as hypotheses, choosing the
  steps at which they apply.
* The oracle predicates are stated at a single step `n` and for every agent; conditional
  assertions hold `P`-almost surely. Conditional independence uses Mathlib's
  `ProbabilityTheory.iCondIndepFun`, which needs a standard Borel sample space.
-/

open MeasureTheory ProbabilityTheory

namespace Formal.Common

noncomputable section

/-- A stochastic run on the filtered probability space `(Ω, m0, P, ℱ)`: at each step `n`, each
agent `i : ι` queries an oracle at `point n i`, which is `ℱ n`-measurable (known before step `n`),
and receives the random direction `dir n i`, which is `ℱ (n + 1)`-measurable (revealed by step
`n`) and square integrable.

The structure carries no update rule and no oracle assumption: missions extend it with their
algorithm and state the oracle assumptions separately. -/
structure StochasticRun {Ω : Type*} {m0 : MeasurableSpace Ω} (P : Measure Ω)
    (ℱ : Filtration ℕ m0) (ι E : Type*) [NormedAddCommGroup E] [MeasurableSpace E] where
  /-- `point n i`: the point at which agent `i` queries the oracle at step `n`. -/
  point : ℕ → ι → Ω → E
  /-- `dir n i`: the random direction returned to agent `i` at step `n`. -/
  dir : ℕ → ι → Ω → E
  /-- The query point of step `n` is known before step `n`. -/
  point_measurable : ∀ n i, Measurable[ℱ n] (point n i)
  /-- The direction of step `n` is known after step `n`. -/
  dir_measurable : ∀ n i, Measurable[ℱ (n + 1)] (dir n i)
  /-- Every direction has a finite second moment. -/
  dir_memLp : ∀ n i, MemLp (dir n i) 2 P

namespace StochasticRun

/-- The conditional mean `E[dir n i | ℱ n]` of the direction of agent `i` at step `n`, given the
history before step `n` (a Mathlib conditional expectation, defined up to a `P`-null set). -/
def condMean {Ω : Type*} {m0 : MeasurableSpace Ω} {P : Measure Ω} {ℱ : Filtration ℕ m0}
    {ι E : Type*} [NormedAddCommGroup E] [InnerProductSpace ℝ E] [CompleteSpace E]
    [MeasurableSpace E] (run : StochasticRun P ℱ ι E) (n : ℕ) (i : ι) : Ω → E :=
  condExp (ℱ n) P (run.dir n i)

/-- The conditional second moment `E[‖dir n i‖² | ℱ n]` of the direction of agent `i` at step
`n`, given the history before step `n`. -/
def condSecondMoment {Ω : Type*} {m0 : MeasurableSpace Ω} {P : Measure Ω}
    {ℱ : Filtration ℕ m0} {ι E : Type*} [NormedAddCommGroup E] [InnerProductSpace ℝ E]
    [CompleteSpace E] [MeasurableSpace E] (run : StochasticRun P ℱ ι E) (n : ℕ) (i : ι) :
    Ω → ℝ :=
  condExp (ℱ n) P (fun ω => ‖run.dir n i ω‖ ^ 2)

/-- Conditional unbiasedness at step `n`: for every agent `i`, `E[dir n i | ℱ n] = G i (point n i)`
almost surely. Here `G i : E → E` is the field the oracle of agent `i` estimates (for a gradient
oracle, `G i = ∇ f i`). -/
def IsUnbiasedAt {Ω : Type*} {m0 : MeasurableSpace Ω} {P : Measure Ω} {ℱ : Filtration ℕ m0}
    {ι E : Type*} [NormedAddCommGroup E] [InnerProductSpace ℝ E] [CompleteSpace E]
    [MeasurableSpace E] (run : StochasticRun P ℱ ι E) (G : ι → E → E) (n : ℕ) : Prop :=
  ∀ i, ∀ᵐ ω ∂P, run.condMean n i ω = G i (run.point n i ω)

/-- Bounded conditional squared error at step `n`: for every agent `i`,
`E[‖dir n i - G i (point n i)‖² | ℱ n] ≤ v` almost surely. -/
def HasCondSqErrorLE {Ω : Type*} {m0 : MeasurableSpace Ω} {P : Measure Ω}
    {ℱ : Filtration ℕ m0} {ι E : Type*} [NormedAddCommGroup E] [InnerProductSpace ℝ E]
    [CompleteSpace E] [MeasurableSpace E] (run : StochasticRun P ℱ ι E) (G : ι → E → E)
    (v : ℝ) (n : ℕ) : Prop :=
  ∀ i, ∀ᵐ ω ∂P,
    condExp (ℱ n) P (fun ω' => ‖run.dir n i ω' - G i (run.point n i ω')‖ ^ 2) ω ≤ v

/-- Conditional independence at step `n`: the directions `(dir n i)_{i : ι}` of all agents are
conditionally independent given the history `ℱ n` before step `n`
(Mathlib's `ProbabilityTheory.iCondIndepFun`, which requires a standard Borel sample space). -/
def IsCondIndepAt {Ω : Type*} {m0 : MeasurableSpace Ω} [StandardBorelSpace Ω] {P : Measure Ω}
    [IsFiniteMeasure P] {ℱ : Filtration ℕ m0} {ι E : Type*} [NormedAddCommGroup E]
    [MeasurableSpace E] (run : StochasticRun P ℱ ι E) (n : ℕ) : Prop :=
  iCondIndepFun (ℱ n) (ℱ.le n) (fun i => run.dir n i) P

/-- A fresh stochastic-gradient oracle with noise level `σ` at step `n`, for agent objectives
`f : ι → E → ℝ`: the direction of each agent `i` is conditionally unbiased for `∇ (f i)` at its
query point, its conditional squared error is at most `σ ^ 2`, and the agents' directions are
conditionally independent given the history before step `n`. -/
def IsGradientOracleAt {Ω : Type*} {m0 : MeasurableSpace Ω} [StandardBorelSpace Ω]
    {P : Measure Ω} [IsFiniteMeasure P] {ℱ : Filtration ℕ m0} {ι E : Type*}
    [NormedAddCommGroup E] [InnerProductSpace ℝ E] [CompleteSpace E] [MeasurableSpace E]
    (run : StochasticRun P ℱ ι E) (f : ι → E → ℝ) (σ : ℝ) (n : ℕ) : Prop :=
  run.IsUnbiasedAt (fun i => gradient (f i)) n ∧
    run.HasCondSqErrorLE (fun i => gradient (f i)) (σ ^ 2) n ∧
    run.IsCondIndepAt n

end StochasticRun

end

end Formal.Common
