import Formal.SGDBottou.Defs

/-!
# Stochastic gradient convergence (Bottou, Curtis, Nocedal, Section 4): the statements

One Prop-valued definition per target of the mission `sgd-bottou` (seed 04). The model is in
`Formal.SGDBottou.Defs` (built on `Formal.Common.Stochastic`); the proofs are in
`Formal.SGDBottou.Proofs`. Locators refer to arXiv:1606.04838v3 (95-page PDF).

Common conventions of the statements.

* Every statement quantifies over the dimension `d`, a probability space `(Ω, m0, P)` with
  `Ω : Type`, a filtration `ℋ` indexed by steps, the objective `F`, the Lipschitz constant
  `L : ℝ≥0` with `0 < L`, the deterministic start `w₀`, the deterministic stepsizes, the run, and
  the constants `μ_G ≥ μ > 0`, `M ≥ 0`, `M_V ≥ 0` of Assumption 4.3 (zero noise `M = M_V = 0`
  is allowed). The local index `k = 0` is the paper's `k = 1`.
* Expectations are Bochner integrals `∫ ω, _ ∂P`; conditional expectations are Mathlib's
  `condExp`. Integrability of the integrated quantities is part of each conclusion (it is a
  consequence to establish, never a hypothesis), so no statement holds through the value `0`
  that Mathlib assigns to the integral of a non-integrable function.
* The nonconvex statements (Lemma 4.4, Theorems 4.8 and 4.10) allow `d = 0` and use
  Assumption 4.3(a) with a real lower bound `F_inf`. The strongly convex statements
  (Theorems 4.6 and 4.7) assume `d ≥ 1`, use `F_* = sInf (range F)` and establish that `F` is
  bounded below; there Assumption 4.3(a) with `F_inf = F_*` holds automatically (take the whole
  space) and is not assumed.
-/

open MeasureTheory ProbabilityTheory Filter Topology
open scoped NNReal InnerProductSpace

namespace Formal.SGDBottou

/-- **Lemma 4.4** (Bottou et al., Section 4.1, PDF pp. 24–25, inequalities (4.10a)–(4.10b)).
Under Assumptions 4.1 and 4.3, for every step `k`, `F(w_{k+1})` is integrable and, almost surely,
`E_k[F(w_{k+1})] - F(w_k) ≤ -μ α_k ‖∇F(w_k)‖² + ½ α_k² L E_k[‖g_k‖²]` (4.10a)
`≤ -(μ - ½ α_k L M_G) α_k ‖∇F(w_k)‖² + ½ α_k² L M` (4.10b),
where `E_k = E[· | ℋ_k]` and `M_G = M_V + μ_G²`. -/
def Lemma44 : Prop :=
  ∀ (d : ℕ) (Ω : Type) [m0 : MeasurableSpace Ω] (P : Measure Ω) [IsProbabilityMeasure P]
    (ℋ : Filtration ℕ m0) (F : Vec d → ℝ) (L : ℝ≥0) (w₀ : Vec d) (α : ℕ → ℝ)
    (run : Run P ℋ d w₀ α) (Finf μ μG M MV : ℝ),
    0 < L → LipschitzGradient F L →
    0 < μ → μ ≤ μG → 0 ≤ M → 0 ≤ MV →
    IteratesInLowerBoundedRegion run F Finf → MomentConditions run F μ μG M MV →
    (∀ k, 0 < α k) →
    ∀ k : ℕ,
      Integrable (fun ω => F (run.iterate (k + 1) ω)) P ∧
        ∀ᵐ ω ∂P,
          condExp (ℋ k) P (fun ω' => F (run.iterate (k + 1) ω')) ω - F (run.iterate k ω) ≤
              -(μ * α k * ‖gradient F (run.iterate k ω)‖ ^ 2) +
                1 / 2 * α k ^ 2 * (L : ℝ) * run.condSecondMomentDir k ω ∧
            -(μ * α k * ‖gradient F (run.iterate k ω)‖ ^ 2) +
                1 / 2 * α k ^ 2 * (L : ℝ) * run.condSecondMomentDir k ω ≤
              -((μ - 1 / 2 * α k * (L : ℝ) * gradSecondMomentConst μG MV) * α k *
                  ‖gradient F (run.iterate k ω)‖ ^ 2) +
                1 / 2 * α k ^ 2 * (L : ℝ) * M

/-- **Theorem 4.6** (strongly convex objective, fixed stepsize; Bottou et al., Section 4.2,
PDF p. 26, equations (4.13)–(4.14)). Let `d ≥ 1`, let `F` be `c`-strongly convex (`c > 0`)
with an `L`-Lipschitz gradient, and run SG with the constant stepsize `0 < a ≤ μ / (L M_G)`
under Assumption 4.3(b)-(c). With `B = a L M / (2 c μ)` and `F_* = inf F`: `F` is bounded below,
each `F(w_k)` is integrable, and for every `k`,
`E[F(w_k) - F_*] ≤ B + (1 - a c μ)^k (F(w₀) - F_* - B)`; moreover the bound tends to `B` as
`k → ∞` (a statement about the bound, not about the expected error). -/
def Theorem46 : Prop :=
  ∀ (d : ℕ) (Ω : Type) [m0 : MeasurableSpace Ω] (P : Measure Ω) [IsProbabilityMeasure P]
    (ℋ : Filtration ℕ m0) (F : Vec d → ℝ) (L : ℝ≥0) (c : ℝ) (w₀ : Vec d) (a : ℝ)
    (run : Run P ℋ d w₀ (fun _ => a)) (μ μG M MV : ℝ),
    0 < d → 0 < L → LipschitzGradient F L → 0 < c → StrongConvexOn Set.univ c F →
    0 < μ → μ ≤ μG → 0 ≤ M → 0 ≤ MV → MomentConditions run F μ μG M MV →
    -- lint: allow junk-div because gradSecondMomentConst μG MV = MV + μG² ≥ μ² > 0 by 0 < μ ≤ μG
    --   and 0 ≤ MV, and 0 < L
    0 < a → a ≤ μ / ((L : ℝ) * gradSecondMomentConst μG MV) →
    BddBelow (Set.range F) ∧
      (∀ k : ℕ, Integrable (fun ω => F (run.iterate k ω)) P ∧
        ∫ ω, (F (run.iterate k ω) - optimalValue F) ∂P ≤
          a * (L : ℝ) * M / (2 * c * μ) +
            (1 - a * c * μ) ^ k * (F w₀ - optimalValue F - a * (L : ℝ) * M / (2 * c * μ))) ∧
      Tendsto
        (fun k : ℕ => a * (L : ℝ) * M / (2 * c * μ) +
          (1 - a * c * μ) ^ k * (F w₀ - optimalValue F - a * (L : ℝ) * M / (2 * c * μ)))
        atTop (𝓝 (a * (L : ℝ) * M / (2 * c * μ)))

/-- **Theorem 4.7** (strongly convex objective, diminishing stepsizes; Bottou et al.,
Section 4.2). Let `d ≥ 1`, let `F` be `c`-strongly convex (`c > 0`) with an `L`-Lipschitz
gradient, and run SG under Assumption 4.3(b)-(c) with `α_k = β / (γ + k + 1)` (the paper's
`β / (γ + k)` with its index starting at `1`), where `β > 1 / (c μ)`, `γ > 0` and the first
stepsize satisfies `β / (γ + 1) ≤ μ / (L M_G)`. Then `F` is bounded below, each `F(w_k)` is
integrable, and for every `k`, `E[F(w_k) - F_*] ≤ ν / (γ + k + 1)` with
`ν = max {β² L M / (2 (β c μ - 1)), (γ + 1) (F(w₀) - F_*)}`. -/
def Theorem47 : Prop :=
  ∀ (d : ℕ) (Ω : Type) [m0 : MeasurableSpace Ω] (P : Measure Ω) [IsProbabilityMeasure P]
    (ℋ : Filtration ℕ m0) (F : Vec d → ℝ) (L : ℝ≥0) (c : ℝ) (w₀ : Vec d) (β γ : ℝ)
    (run : Run P ℋ d w₀ (fun k => β / (γ + k + 1))) (μ μG M MV : ℝ),
    0 < d → 0 < L → LipschitzGradient F L → 0 < c → StrongConvexOn Set.univ c F →
    0 < μ → μ ≤ μG → 0 ≤ M → 0 ≤ MV → MomentConditions run F μ μG M MV →
    -- lint: allow junk-div because gradSecondMomentConst μG MV = MV + μG² ≥ μ² > 0 by 0 < μ ≤ μG
    --   and 0 ≤ MV, and 0 < L
    1 / (c * μ) < β → 0 < γ → β / (γ + 1) ≤ μ / ((L : ℝ) * gradSecondMomentConst μG MV) →
    BddBelow (Set.range F) ∧
      ∀ k : ℕ, Integrable (fun ω => F (run.iterate k ω)) P ∧
        ∫ ω, (F (run.iterate k ω) - optimalValue F) ∂P ≤
          -- lint: allow junk-div because 1 / (c μ) < β with c, μ > 0 gives β c μ > 1
          max (β ^ 2 * (L : ℝ) * M / (2 * (β * c * μ - 1)))
              ((γ + 1) * (F w₀ - optimalValue F)) /
            (γ + k + 1)

/-- **Theorem 4.8** (general objective, fixed stepsize; Bottou et al., Section 4.3). Under
Assumptions 4.1 and 4.3, with the constant stepsize `0 < a ≤ μ / (L M_G)`: each
`‖∇F(w_k)‖²` is integrable; for every horizon `K`,
`E[∑_{k<K} ‖∇F(w_k)‖²] ≤ K a L M / μ + 2 (F(w₀) - F_inf) / (μ a)`;
for every `K > 0`,
`E[(1/K) ∑_{k<K} ‖∇F(w_k)‖²] ≤ a L M / μ + 2 (F(w₀) - F_inf) / (K μ a)`;
and the latter bound tends to `a L M / μ` as `K → ∞`. -/
def Theorem48 : Prop :=
  ∀ (d : ℕ) (Ω : Type) [m0 : MeasurableSpace Ω] (P : Measure Ω) [IsProbabilityMeasure P]
    (ℋ : Filtration ℕ m0) (F : Vec d → ℝ) (L : ℝ≥0) (w₀ : Vec d) (a : ℝ)
    (run : Run P ℋ d w₀ (fun _ => a)) (Finf μ μG M MV : ℝ),
    0 < L → LipschitzGradient F L →
    0 < μ → μ ≤ μG → 0 ≤ M → 0 ≤ MV →
    IteratesInLowerBoundedRegion run F Finf → MomentConditions run F μ μG M MV →
    -- lint: allow junk-div because gradSecondMomentConst μG MV = MV + μG² ≥ μ² > 0 by 0 < μ ≤ μG
    --   and 0 ≤ MV, and 0 < L
    0 < a → a ≤ μ / ((L : ℝ) * gradSecondMomentConst μG MV) →
    (∀ k : ℕ, Integrable (fun ω => ‖gradient F (run.iterate k ω)‖ ^ 2) P) ∧
      (∀ K : ℕ,
        ∫ ω, (∑ k ∈ Finset.range K, ‖gradient F (run.iterate k ω)‖ ^ 2) ∂P ≤
          K * a * (L : ℝ) * M / μ + 2 * (F w₀ - Finf) / (μ * a)) ∧
      (∀ K : ℕ, 0 < K →
        ∫ ω, ((1 / (K : ℝ)) * ∑ k ∈ Finset.range K, ‖gradient F (run.iterate k ω)‖ ^ 2) ∂P ≤
          a * (L : ℝ) * M / μ + 2 * (F w₀ - Finf) / (K * μ * a)) ∧
      Tendsto (fun K : ℕ => a * (L : ℝ) * M / μ + 2 * (F w₀ - Finf) / (K * μ * a)) atTop
        (𝓝 (a * (L : ℝ) * M / μ))

/-- **Goal: Theorem 4.10** (general objective, diminishing stepsizes; Bottou et al.,
Section 4.3, PDF p. 33, equations (4.30a)–(4.30b)). Under Assumptions 4.1 and 4.3, with
positive deterministic stepsizes such that `∑_k α_k = ∞` and `∑_k α_k² < ∞` (no convexity, no
small-step condition on the first stepsizes): each `‖∇F(w_k)‖²` is integrable;
`E[∑_{k<K} α_k ‖∇F(w_k)‖²]` converges to a real limit `S` as `K → ∞` (4.30a); and, with
`A_K = ∑_{k<K} α_k`, `(1 / A_K) E[∑_{k<K} α_k ‖∇F(w_k)‖²] → 0` (4.30b). -/
def Goal : Prop :=
  ∀ (d : ℕ) (Ω : Type) [m0 : MeasurableSpace Ω] (P : Measure Ω) [IsProbabilityMeasure P]
    (ℋ : Filtration ℕ m0) (F : Vec d → ℝ) (L : ℝ≥0) (w₀ : Vec d) (α : ℕ → ℝ)
    (run : Run P ℋ d w₀ α) (Finf μ μG M MV : ℝ),
    0 < L → LipschitzGradient F L →
    0 < μ → μ ≤ μG → 0 ≤ M → 0 ≤ MV →
    IteratesInLowerBoundedRegion run F Finf → MomentConditions run F μ μG M MV →
    (∀ k, 0 < α k) →
    Tendsto (fun K : ℕ => ∑ k ∈ Finset.range K, α k) atTop atTop →
    Summable (fun k => α k ^ 2) →
    (∀ k : ℕ, Integrable (fun ω => ‖gradient F (run.iterate k ω)‖ ^ 2) P) ∧
      (∃ S : ℝ,
        Tendsto
          (fun K : ℕ =>
            ∫ ω, (∑ k ∈ Finset.range K, α k * ‖gradient F (run.iterate k ω)‖ ^ 2) ∂P)
          atTop (𝓝 S)) ∧
      Tendsto
        (fun K : ℕ =>
          -- lint: allow junk-div because only the limit as K → ∞ is claimed, and the premise
          --   ∑_{k<K} α_k → ∞ makes the sum positive for all large K
          (∑ k ∈ Finset.range K, α k)⁻¹ *
            (∫ ω, (∑ k ∈ Finset.range K, α k * ‖gradient F (run.iterate k ω)‖ ^ 2) ∂P))
        atTop (𝓝 0)

end Formal.SGDBottou
