import Formal.FedAvgLocalSGD.Defs

/-!
# FedAvg / local SGD with full participation: the statements

One Prop-valued definition per target of the mission `fedavg-local-sgd` (seed 06). The model is
in `Formal.FedAvgLocalSGD.Defs` (built on `Formal.Common.Stochastic`); the proofs are in
`Formal.FedAvgLocalSGD.Proofs`. Locators refer to arXiv:2107.06917v1.

Common hypotheses (the standing assumptions of Section 6.1.1, PDF p. 40, equations (11)–(14)).

* A standard Borel probability space `(Ω, m0, P)` with `Ω : Type`, a filtration `ℱ` indexed by
  the global step `t τ + k`, `M ≥ 1` clients, `τ ≥ 1` local steps (and `T ≥ 1` rounds where the
  horizon appears), `L > 0`, `σ ≥ 0`, `ζ ≥ 0` (zero noise and zero heterogeneity allowed).
* Differentiable convex clients with `L`-Lipschitz gradients, the heterogeneity bound
  `‖∇Fᵢ(x) - ∇F(x)‖ ≤ ζ` at every point, a global minimizer `x⋆` of `F`, a deterministic
  initial model `x₀`, and `D = ‖x₀ - x⋆‖`.
* The oracle hypothesis at every step `n`
  (`Formal.Common.StochasticRun.IsGradientOracleAt Fi σ n`): conditionally unbiased client
  gradients, conditional squared error at most `σ²`, and conditional independence of the
  clients' current gradients given the history (Appendix D.1, after equation (27), PDF p. 87).
* Expectations are Bochner integrals and conditional expectations are Mathlib's `condExp`; the
  integrability of the objective along the shadow sequence is part of each conclusion.
-/

open MeasureTheory ProbabilityTheory
open scoped NNReal

namespace Formal.FedAvgLocalSGD

/-- **Lemma 1** (perturbed iterate analysis; Wang et al., Section 6.1.2, PDF p. 41, proof in
Appendix D, PDF pp. 86–88). Under the standing assumptions and `0 < η ≤ 1 / (4L)`, for every
round `t`, every `F(x̄^{(t,k)})` is integrable and, almost surely, with `ℱ^{(t,0)} = ℱ (t τ)`,
`E[(1/τ) ∑_{k=1}^{τ} F(x̄^{(t,k)}) - F(x⋆) | ℱ^{(t,0)}]`
`≤ (1 / (2 η τ)) (‖x̄^{(t,0)} - x⋆‖² - E[‖x̄^{(t,τ)} - x⋆‖² | ℱ^{(t,0)}]) + η σ² / M`
`+ (L / (M τ)) ∑ᵢ ∑_{k=0}^{τ-1} E[‖x_i^{(t,k)} - x̄^{(t,k)}‖² | ℱ^{(t,0)}]`. -/
def Lemma1 : Prop :=
  ∀ (M d τ : ℕ) (Ω : Type) [m0 : MeasurableSpace Ω] [StandardBorelSpace Ω] (P : Measure Ω)
    [IsProbabilityMeasure P] (ℱ : Filtration ℕ m0) (Fi : Fin M → Vec d → ℝ) (L : ℝ≥0)
    (σ ζ η : ℝ) (x₀ xstar : Vec d) (run : Run P ℱ M d τ η x₀),
    1 ≤ M → 1 ≤ τ → 0 < L → 0 ≤ σ → 0 ≤ ζ →
    SmoothConvexClients Fi L → BoundedHeterogeneity Fi ζ →
    IsGlobalMinimizer (globalObjective Fi) xstar →
    (∀ n, run.toStochasticRun.IsGradientOracleAt Fi σ n) →
    0 < η → η ≤ 1 / (4 * (L : ℝ)) →
    ∀ t : ℕ,
      (∀ k : ℕ, Integrable (fun ω => globalObjective Fi (run.shadow t k ω)) P) ∧
        ∀ᵐ ω ∂P,
          condExp (ℱ (t * τ)) P
              (fun ω' =>
                1 / (τ : ℝ) * (∑ k ∈ Finset.Icc 1 τ, globalObjective Fi (run.shadow t k ω')) -
                  globalObjective Fi xstar) ω ≤
            1 / (2 * η * τ) *
                (‖run.shadow t 0 ω - xstar‖ ^ 2 -
                  condExp (ℱ (t * τ)) P (fun ω' => ‖run.shadow t τ ω' - xstar‖ ^ 2) ω) +
              η * σ ^ 2 / M +
              (L : ℝ) / (M * τ) *
                ∑ i, ∑ k ∈ Finset.range τ,
                  condExp (ℱ (t * τ)) P
                    (fun ω' => ‖run.localState t k i ω' - run.shadow t k ω'‖ ^ 2) ω

/-- **Lemma 2** (bounded client drift; Wang et al., Section 6.1.2, PDF p. 41, proof in
Appendix D, PDF pp. 86–88). Under the standing assumptions and `0 < η ≤ 1 / (4L)`, for every
round `t`, local step `0 ≤ k ≤ τ` and client `i`, almost surely
`E[‖x_i^{(t,k)} - x̄^{(t,k)}‖² | ℱ^{(t,0)}] ≤ 18 τ² η² ζ² + 4 τ η² σ²`. -/
def Lemma2 : Prop :=
  ∀ (M d τ : ℕ) (Ω : Type) [m0 : MeasurableSpace Ω] [StandardBorelSpace Ω] (P : Measure Ω)
    [IsProbabilityMeasure P] (ℱ : Filtration ℕ m0) (Fi : Fin M → Vec d → ℝ) (L : ℝ≥0)
    (σ ζ η : ℝ) (x₀ xstar : Vec d) (run : Run P ℱ M d τ η x₀),
    1 ≤ M → 1 ≤ τ → 0 < L → 0 ≤ σ → 0 ≤ ζ →
    SmoothConvexClients Fi L → BoundedHeterogeneity Fi ζ →
    IsGlobalMinimizer (globalObjective Fi) xstar →
    (∀ n, run.toStochasticRun.IsGradientOracleAt Fi σ n) →
    0 < η → η ≤ 1 / (4 * (L : ℝ)) →
    ∀ (t k : ℕ) (i : Fin M), k ≤ τ →
      ∀ᵐ ω ∂P,
        condExp (ℱ (t * τ)) P (fun ω' => ‖run.localState t k i ω' - run.shadow t k ω'‖ ^ 2) ω ≤
          18 * (τ : ℝ) ^ 2 * η ^ 2 * ζ ^ 2 + 4 * (τ : ℝ) * η ^ 2 * σ ^ 2

/-- **Goal: Theorem 1, equation (15)** (Wang et al., Section 6.1.2, PDF p. 41). Under the standing
assumptions, with `T ≥ 1` rounds and `0 < η ≤ 1 / (4L)`: every `F(x̄^{(t,k)})` is integrable and
`E[(1 / (τ T)) ∑_{t<T} ∑_{k=1}^{τ} (F(x̄^{(t,k)}) - F(x⋆))]`
`≤ D² / (2 η τ T) + η σ² / M + 4 τ η² L σ² + 18 τ² η² L ζ²`, with `D = ‖x₀ - x⋆‖`. -/
def Goal : Prop :=
  ∀ (M d τ T : ℕ) (Ω : Type) [m0 : MeasurableSpace Ω] [StandardBorelSpace Ω] (P : Measure Ω)
    [IsProbabilityMeasure P] (ℱ : Filtration ℕ m0) (Fi : Fin M → Vec d → ℝ) (L : ℝ≥0)
    (σ ζ η : ℝ) (x₀ xstar : Vec d) (run : Run P ℱ M d τ η x₀),
    1 ≤ M → 1 ≤ τ → 1 ≤ T → 0 < L → 0 ≤ σ → 0 ≤ ζ →
    SmoothConvexClients Fi L → BoundedHeterogeneity Fi ζ →
    IsGlobalMinimizer (globalObjective Fi) xstar →
    (∀ n, run.toStochasticRun.IsGradientOracleAt Fi σ n) →
    0 < η → η ≤ 1 / (4 * (L : ℝ)) →
    (∀ t k : ℕ, Integrable (fun ω => globalObjective Fi (run.shadow t k ω)) P) ∧
      ∫ ω, run.averageGap Fi xstar T ω ∂P ≤
        ‖x₀ - xstar‖ ^ 2 / (2 * η * τ * T) + η * σ ^ 2 / M +
          4 * (τ : ℝ) * η ^ 2 * (L : ℝ) * σ ^ 2 + 18 * (τ : ℝ) ^ 2 * η ^ 2 * (L : ℝ) * ζ ^ 2

/-- **Tuned step size: equations (16)–(17)** (Wang et al., Section 6.1.2, PDF p. 41), in the
regime `D, σ, ζ > 0` where the printed formula applies. Under the standing assumptions with
`T ≥ 1` and the learning rate
`η = min {1 / (4L), √M D / (√τ √T σ), D^{2/3} / (τ^{2/3} T^{1/3} L^{1/3} σ^{2/3}),`
`D^{2/3} / (τ T^{1/3} L^{1/3} ζ^{2/3})}`: every `F(x̄^{(t,k)})` is integrable and the expected
average gap of Theorem 1 is at most
`2 L D² / (τ T) + 2 σ D / √(M τ T) + 5 L^{1/3} σ^{2/3} D^{4/3} / (τ^{1/3} T^{2/3})`
`+ 19 L^{1/3} ζ^{2/3} D^{4/3} / T^{2/3}` (real powers). -/
def TunedStepBound : Prop :=
  ∀ (M d τ T : ℕ) (Ω : Type) [m0 : MeasurableSpace Ω] [StandardBorelSpace Ω] (P : Measure Ω)
    [IsProbabilityMeasure P] (ℱ : Filtration ℕ m0) (Fi : Fin M → Vec d → ℝ) (L : ℝ≥0)
    (σ ζ η : ℝ) (x₀ xstar : Vec d) (run : Run P ℱ M d τ η x₀),
    1 ≤ M → 1 ≤ τ → 1 ≤ T → 0 < L → 0 < σ → 0 < ζ → 0 < ‖x₀ - xstar‖ →
    SmoothConvexClients Fi L → BoundedHeterogeneity Fi ζ →
    IsGlobalMinimizer (globalObjective Fi) xstar →
    (∀ n, run.toStochasticRun.IsGradientOracleAt Fi σ n) →
    η = min (min (min (1 / (4 * (L : ℝ)))
          (Real.sqrt (M : ℝ) * ‖x₀ - xstar‖ / (Real.sqrt (τ : ℝ) * Real.sqrt (T : ℝ) * σ)))
          (‖x₀ - xstar‖ ^ ((2 : ℝ) / 3) /
            ((τ : ℝ) ^ ((2 : ℝ) / 3) * (T : ℝ) ^ ((1 : ℝ) / 3) * (L : ℝ) ^ ((1 : ℝ) / 3) *
              σ ^ ((2 : ℝ) / 3))))
        (‖x₀ - xstar‖ ^ ((2 : ℝ) / 3) /
          ((τ : ℝ) * (T : ℝ) ^ ((1 : ℝ) / 3) * (L : ℝ) ^ ((1 : ℝ) / 3) * ζ ^ ((2 : ℝ) / 3))) →
    (∀ t k : ℕ, Integrable (fun ω => globalObjective Fi (run.shadow t k ω)) P) ∧
      ∫ ω, run.averageGap Fi xstar T ω ∂P ≤
        2 * (L : ℝ) * ‖x₀ - xstar‖ ^ 2 / (τ * T) +
          2 * σ * ‖x₀ - xstar‖ / Real.sqrt ((M : ℝ) * τ * T) +
          5 * (L : ℝ) ^ ((1 : ℝ) / 3) * σ ^ ((2 : ℝ) / 3) * ‖x₀ - xstar‖ ^ ((4 : ℝ) / 3) /
            ((τ : ℝ) ^ ((1 : ℝ) / 3) * (T : ℝ) ^ ((2 : ℝ) / 3)) +
          19 * (L : ℝ) ^ ((1 : ℝ) / 3) * ζ ^ ((2 : ℝ) / 3) * ‖x₀ - xstar‖ ^ ((4 : ℝ) / 3) /
            (T : ℝ) ^ ((2 : ℝ) / 3)

end Formal.FedAvgLocalSGD
