import Mathlib
import Formal.Common.Stochastic

/-!
# Stochastic gradient convergence (Bottou, Curtis, Nocedal, Section 4): the model

This file holds the model of the mission `sgd-bottou` (seed 04): Léon Bottou, Frank E. Curtis,
Jorge Nocedal, "Optimization Methods for Large-Scale Machine Learning", SIAM Review 60(2), 2018,
arXiv:1606.04838v3 (page numbers refer to the 95-page arXiv v3 PDF). Definitions only.

* Parameters live in `Vec d = EuclideanSpace ℝ (Fin d)`; gradients are Mathlib's `gradient`
  (the Riesz representative of the Fréchet derivative).
* Assumption 4.1 (`LipschitzGradient F L`): `F` is differentiable with an `L`-Lipschitz gradient.
* Algorithm 4.1 (`Run P ℋ d w₀ α`): an instance of `Formal.Common.StochasticRun` with one agent
  (`ι = Unit`). The iterate `w_k` is the query point of step `k`, the direction `g_k` is the
  oracle answer of step `k`; `w_k` is `ℋ_k`-measurable, `g_k` is `ℋ_{k+1}`-measurable with a
  finite second moment (adapted-process formulation of footnote 4, PDF p. 22). The start `w₀` is
  deterministic, the stepsizes `α k` are deterministic, and `w_{k+1} = w_k - α_k g_k`.
  The local index `k = 0` is the paper's `k = 1`.
* Assumption 4.3(a) (`IteratesInLowerBoundedRegion`) and 4.3(b)-(c) (`MomentConditions`), with
  `E_k = E[· | ℋ_k]` a Mathlib conditional expectation and every conditional assertion almost
  sure. The constant `M_G = M_V + μ_G²` is `gradSecondMomentConst μG MV`.
* `optimalValue F = sInf (range F)`, the paper's `F_*`.

Nothing here asserts a descent inequality or a convergence property: the run records the
algorithm and the measurability of its randomness only.
-/

open MeasureTheory ProbabilityTheory Filter Topology
open scoped NNReal InnerProductSpace

namespace Formal.SGDBottou

noncomputable section

/-- The parameter space `ℝ^d`, with its Euclidean norm and inner product. -/
abbrev Vec (d : ℕ) : Type := EuclideanSpace ℝ (Fin d)

/-- **Assumption 4.1** (Bottou et al., Section 4.1, PDF pp. 23–24): the objective
`F : ℝ^d → ℝ` is differentiable and its gradient is `L`-Lipschitz,
`‖∇F(w) - ∇F(w')‖ ≤ L ‖w - w'‖`. The positivity `0 < L` is a separate hypothesis. -/
def LipschitzGradient {d : ℕ} (F : Vec d → ℝ) (L : ℝ≥0) : Prop :=
  Differentiable ℝ F ∧ LipschitzWith L (gradient F)

/-- **Algorithm 4.1** (Bottou et al., Section 4, PDF p. 22, with footnote 4): a run of the
stochastic gradient method on the filtered probability space `(Ω, P, ℋ)`, where `ℋ k` is the
history before step `k`. It extends the shared `Formal.Common.StochasticRun` with a single agent
(`ι = Unit`): `point k ()` is the iterate `w_k` (`ℋ k`-measurable) and `dir k ()` is the random
direction `g_k` (`ℋ (k + 1)`-measurable, finite second moment). The start `w₀` and the stepsizes
`α` are deterministic, and `w_{k+1} = w_k - α_k g_k`. Local index `k = 0` is the paper's `k = 1`.
-/
structure Run {Ω : Type*} {m0 : MeasurableSpace Ω} (P : Measure Ω) (ℋ : Filtration ℕ m0)
    (d : ℕ) (w₀ : Vec d) (α : ℕ → ℝ)
    extends Formal.Common.StochasticRun P ℋ Unit (Vec d) where
  /-- The starting point is the deterministic vector `w₀`. -/
  point_zero : ∀ ω, point 0 () ω = w₀
  /-- The stochastic gradient step `w_{k+1} = w_k - α_k g_k`. -/
  point_succ : ∀ k ω, point (k + 1) () ω = point k () ω - α k • dir k () ω

/-- The iterate `w_k` of a run (paper's `w_{k+1}`). -/
def Run.iterate {Ω : Type*} {m0 : MeasurableSpace Ω} {P : Measure Ω} {ℋ : Filtration ℕ m0}
    {d : ℕ} {w₀ : Vec d} {α : ℕ → ℝ} (run : Run P ℋ d w₀ α) (k : ℕ) : Ω → Vec d :=
  run.point k ()

/-- The random direction `g_k` of a run (paper's `g(w_{k+1}, ξ_{k+1})`). -/
def Run.direction {Ω : Type*} {m0 : MeasurableSpace Ω} {P : Measure Ω} {ℋ : Filtration ℕ m0}
    {d : ℕ} {w₀ : Vec d} {α : ℕ → ℝ} (run : Run P ℋ d w₀ α) (k : ℕ) : Ω → Vec d :=
  run.dir k ()

/-- The conditional mean `E_k[g_k] = E[g_k | ℋ_k]` of the direction of step `k`. -/
def Run.condMeanDir {Ω : Type*} {m0 : MeasurableSpace Ω} {P : Measure Ω}
    {ℋ : Filtration ℕ m0} {d : ℕ} {w₀ : Vec d} {α : ℕ → ℝ} (run : Run P ℋ d w₀ α) (k : ℕ) :
    Ω → Vec d :=
  run.toStochasticRun.condMean k ()

/-- The conditional second moment `E_k[‖g_k‖²] = E[‖g_k‖² | ℋ_k]` of the direction of step `k`.
-/
def Run.condSecondMomentDir {Ω : Type*} {m0 : MeasurableSpace Ω} {P : Measure Ω}
    {ℋ : Filtration ℕ m0} {d : ℕ} {w₀ : Vec d} {α : ℕ → ℝ} (run : Run P ℋ d w₀ α) (k : ℕ) :
    Ω → ℝ :=
  run.toStochasticRun.condSecondMoment k ()

/-- **Assumption 4.3(a)** (Bottou et al., Section 4.1, PDF pp. 23–24): the iterates lie, almost
surely and at all steps at once, in an open set `U` on which `F ≥ F_inf`. -/
def IteratesInLowerBoundedRegion {Ω : Type*} {m0 : MeasurableSpace Ω} {P : Measure Ω}
    {ℋ : Filtration ℕ m0} {d : ℕ} {w₀ : Vec d} {α : ℕ → ℝ} (run : Run P ℋ d w₀ α)
    (F : Vec d → ℝ) (Finf : ℝ) : Prop :=
  ∃ U : Set (Vec d), IsOpen U ∧ (∀ w ∈ U, Finf ≤ F w) ∧ ∀ᵐ ω ∂P, ∀ k, run.iterate k ω ∈ U

/-- **Assumption 4.3(b)-(c)** (Bottou et al., Section 4.1, PDF pp. 23–24, equations
(4.6)–(4.9); the variance is the conditional variance `E_k[‖g_k‖²] - ‖E_k[g_k]‖²`): for every
step `k`, almost surely,
* `⟪∇F(w_k), E_k[g_k]⟫ ≥ μ ‖∇F(w_k)‖²`,
* `‖E_k[g_k]‖ ≤ μ_G ‖∇F(w_k)‖`,
* `E_k[‖g_k‖²] - ‖E_k[g_k]‖² ≤ M + M_V ‖∇F(w_k)‖²`.
The sign conditions `μ_G ≥ μ > 0`, `M ≥ 0`, `M_V ≥ 0` are separate hypotheses. -/
def MomentConditions {Ω : Type*} {m0 : MeasurableSpace Ω} {P : Measure Ω}
    {ℋ : Filtration ℕ m0} {d : ℕ} {w₀ : Vec d} {α : ℕ → ℝ} (run : Run P ℋ d w₀ α)
    (F : Vec d → ℝ) (μ μG M MV : ℝ) : Prop :=
  ∀ k, ∀ᵐ ω ∂P,
    μ * ‖gradient F (run.iterate k ω)‖ ^ 2 ≤
        ⟪gradient F (run.iterate k ω), run.condMeanDir k ω⟫_ℝ ∧
      ‖run.condMeanDir k ω‖ ≤ μG * ‖gradient F (run.iterate k ω)‖ ∧
      run.condSecondMomentDir k ω - ‖run.condMeanDir k ω‖ ^ 2 ≤
        M + MV * ‖gradient F (run.iterate k ω)‖ ^ 2

/-- The constant `M_G = M_V + μ_G²` of Assumption 4.3 (Bottou et al., Section 4.1,
PDF pp. 23–24). -/
def gradSecondMomentConst (μG MV : ℝ) : ℝ :=
  MV + μG ^ 2

/-- The optimal value `F_* = inf_w F(w)`, defined as the infimum of the range of `F` (its
finiteness is part of what the strongly convex statements establish). -/
def optimalValue {d : ℕ} (F : Vec d → ℝ) : ℝ :=
  sInf (Set.range F)

end

end Formal.SGDBottou
