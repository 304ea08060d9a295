import Formal.Scaffold.Defs

/-!
# SCAFFOLD with client sampling: the statements

One Prop-valued definition per target of the mission `scaffold` (seed 05). The model is in
`Formal.Scaffold.Defs` (built on `Formal.Common.Stochastic`); the proofs are in
`Formal.Scaffold.Proofs`. Locators refer to arXiv:1910.06378v4.

Common conventions of the two convergence statements.

* A standard Borel probability space `(Ω, m0, P)` with `Ω : Type`, the full-history filtration
  `ℱ : Filtration ℕ m0` with the tick layout of `Formal.Scaffold.Defs`, `N ≥ 1` clients,
  `1 ≤ S ≤ N` sampled clients, `K ≥ 1` local steps, `T ≥ 1` rounds, `ηl > 0`, `ηg ≥ 1`,
  noise level `σ ≥ 0` (zero noise allowed); `S = N` and `K = 1` are allowed.
* The oracle hypothesis at a tick `n` is `Formal.Common.StochasticRun.IsGradientOracleAt`:
  conditionally unbiased client gradients, conditional squared error at most `σ²`, and
  conditional independence across clients given the full history. It is assumed at every
  local-step tick `roundStart K r + k`, `k < K`, and (nonconvex warm start only) at the warm-start
  ticks `k < K`.
* Outputs are indexed by `r = 0, …, T - 1`; expectations are Bochner integrals, and the
  integrability of each integrated quantity is part of the conclusion.
-/

open MeasureTheory ProbabilityTheory
open scoped NNReal ENNReal InnerProductSpace

namespace Formal.Scaffold

/-- **GradientGrowth** (Karimireddy et al., Appendix B.1, equation (9), PDF p. 14). If every
client objective is convex (and `β`-smooth, as in `Problem`) and `x⋆` is a global minimizer of
`f = N⁻¹ ∑ᵢ fᵢ`, then for every `x`,
`N⁻¹ ∑ᵢ ‖∇fᵢ(x) - ∇fᵢ(x⋆)‖² ≤ 2 β (f(x) - f(x⋆))`. -/
def GradientGrowth : Prop :=
  ∀ (N d : ℕ) (pb : Problem N d) (xstar : Space d),
    1 ≤ N → (∀ i, ConvexOn ℝ Set.univ (pb.f i)) →
    (∀ x, pb.objective xstar ≤ pb.objective x) →
    ∀ x : Space d,
      (N : ℝ)⁻¹ * ∑ i, ‖gradient (pb.f i) x - gradient (pb.f i) xstar‖ ^ 2 ≤
        2 * (pb.β : ℝ) * (pb.objective x - pb.objective xstar)

/-- **PerturbedStrongConvexity** (Karimireddy et al., Appendix C, Lemma 5, PDF p. 17). If client
`i` is `μ`-strongly convex with `μ ≥ 0` (and `β`-smooth, as in `Problem`), then for all
`x, y, z`, `⟪∇fᵢ(x), z - y⟫ ≥ fᵢ(z) - fᵢ(y) + (μ/4) ‖y - z‖² - β ‖z - x‖²`. -/
def PerturbedStrongConvexity : Prop :=
  ∀ (N d : ℕ) (pb : Problem N d) (i : Fin N) (μ : ℝ),
    0 ≤ μ → StrongConvexOn Set.univ μ (pb.f i) →
    ∀ x y z : Space d,
      pb.f i z - pb.f i y + μ / 4 * ‖y - z‖ ^ 2 - (pb.β : ℝ) * ‖z - x‖ ^ 2 ≤
        ⟪gradient (pb.f i) x, z - y⟫_ℝ

/-- **ConvexFiniteRoundConvergence** (finite-round form of Karimireddy et al., Appendix E.1,
Lemma 15, PDF p. 30; its `μ = 0` case is the first bound on PDF p. 31). All clients are
`μ`-strongly convex with `μ ≥ 0` (`μ = 0`: convex), `x⋆` minimizes `f`, the initial controls
`cᵢ⁰` are arbitrary deterministic vectors, and `h = K ηl ηg` satisfies `h ≤ 1 / (81 β)` and
`μ h ≤ S / (15 N)`. With `C₀ = N⁻¹ ∑ᵢ ‖cᵢ⁰ - ∇fᵢ(x⋆)‖²`, `V₀ = ‖x⁰ - x⋆‖² + (9 N h² / S) C₀`,
`q = 1 - μ h / 2`, `w_r = q^{-(r+1)}` and `W_T = ∑_{r<T} w_r`: every `f(x^r)` is integrable and
`W_T⁻¹ ∑_{r<T} w_r E[f(x^r) - f(x⋆)] ≤ V₀ / (h W_T) + (12 h σ² / (K S)) (1 + S / ηg²)`. -/
def ConvexFiniteRoundConvergence : Prop :=
  ∀ (N d K S T : ℕ) (Ω : Type) [m0 : MeasurableSpace Ω] [StandardBorelSpace Ω]
    (P : Measure Ω) [IsProbabilityMeasure P] (ℱ : Filtration ℕ m0) (pb : Problem N d)
    (μ σ ηl ηg : ℝ) (x₀ xstar : Space d) (c₀ : Fin N → Space d)
    (run : Run P ℱ N d K S ηl ηg x₀),
    1 ≤ N → 1 ≤ S → S ≤ N → 1 ≤ K → 1 ≤ T → 0 < ηl → 1 ≤ ηg → 0 ≤ σ → 0 ≤ μ →
    (∀ i, StrongConvexOn Set.univ μ (pb.f i)) →
    (∀ x, pb.objective xstar ≤ pb.objective x) →
    (∀ i ω, run.control 0 i ω = c₀ i) →
    (∀ r k, k < K → run.toStochasticRun.IsGradientOracleAt pb.f σ (roundStart K r + k)) →
    effStep K ηl ηg ≤ 1 / (81 * (pb.β : ℝ)) →
    μ * effStep K ηl ηg ≤ (S : ℝ) / (15 * N) →
    (∀ r : ℕ, Integrable (fun ω => pb.objective (run.server r ω)) P) ∧
      -- lint: allow junk-div because W_T is a sum of T ≥ 1 positive weights (1 - μ h / 2 > 0 since
      --   μ h ≤ S / (15 N) ≤ 1 / 15)
      (totalWeight μ (effStep K ηl ηg) T)⁻¹ *
          ∑ r ∈ Finset.range T, roundWeight μ (effStep K ηl ηg) r *
            (∫ ω, (pb.objective (run.server r ω) - pb.objective xstar) ∂P) ≤
        -- lint: allow junk-div because h = K ηl ηg > 0 (1 ≤ K, 0 < ηl, 1 ≤ ηg) and W_T > 0
        initialPotential pb K S ηl ηg x₀ xstar c₀ /
            (effStep K ηl ηg * totalWeight μ (effStep K ηl ηg) T) +
          12 * effStep K ηl ηg * σ ^ 2 / (K * S) * (1 + S / ηg ^ 2)

/-- **NonconvexFiniteRoundConvergence** (explicit finite-round consequence of Karimireddy et al.,
Appendix E.2, Lemma 19, PDF p. 34, with the initialization of PDF pp. 31 and 35). The clients are
`β`-smooth (no convexity), `f ≥ f_lower`, and every control is initialized with `K` fresh
gradients at `x⁰` (warm-start ticks `k < K`: every client queries at `x⁰` and
`cᵢ⁰ = K⁻¹ ∑_{k<K} gᵢ(x⁰)`). With `h = K ηl ηg ≤ (S / N)^{2/3} / (24 β)` and
`F₀ = f(x⁰) - f_lower`: every `‖∇f(x^r)‖²` is integrable and
`T⁻¹ ∑_{r<T} E‖∇f(x^r)‖² ≤ 14 F₀ / (h T) + (70 β h σ² / (K S)) (1 + S / ηg²)`. -/
def NonconvexFiniteRoundConvergence : Prop :=
  ∀ (N d K S T : ℕ) (Ω : Type) [m0 : MeasurableSpace Ω] [StandardBorelSpace Ω]
    (P : Measure Ω) [IsProbabilityMeasure P] (ℱ : Filtration ℕ m0) (pb : Problem N d)
    (σ ηl ηg flower : ℝ) (x₀ : Space d) (run : Run P ℱ N d K S ηl ηg x₀),
    1 ≤ N → 1 ≤ S → S ≤ N → 1 ≤ K → 1 ≤ T → 0 < ηl → 1 ≤ ηg → 0 ≤ σ →
    (∀ x, flower ≤ pb.objective x) →
    (∀ k i ω, k < K → run.point k i ω = x₀) →
    (∀ k, k < K → run.toStochasticRun.IsGradientOracleAt pb.f σ k) →
    (∀ i ω, run.control 0 i ω = (K : ℝ)⁻¹ • ∑ k ∈ Finset.range K, run.dir k i ω) →
    (∀ r k, k < K → run.toStochasticRun.IsGradientOracleAt pb.f σ (roundStart K r + k)) →
    effStep K ηl ηg ≤ ((S : ℝ) / N) ^ ((2 : ℝ) / 3) / (24 * (pb.β : ℝ)) →
    (∀ r : ℕ, Integrable (fun ω => ‖gradient pb.objective (run.server r ω)‖ ^ 2) P) ∧
      (T : ℝ)⁻¹ * ∑ r ∈ Finset.range T,
          (∫ ω, ‖gradient pb.objective (run.server r ω)‖ ^ 2 ∂P) ≤
        -- lint: allow junk-div because h = K ηl ηg > 0 by 1 ≤ K, 0 < ηl, 1 ≤ ηg, and 1 ≤ T
        14 * (pb.objective x₀ - flower) / (effStep K ηl ηg * T) +
          70 * (pb.β : ℝ) * effStep K ηl ηg * σ ^ 2 / (K * S) * (1 + S / ηg ^ 2)

/-- **Goal** (Karimireddy et al., Theorem III, Section 5, PDF p. 5, in the finite-round form of
Appendix E): the conjunction of `ConvexFiniteRoundConvergence` and
`NonconvexFiniteRoundConvergence`. -/
def Goal : Prop :=
  ConvexFiniteRoundConvergence ∧ NonconvexFiniteRoundConvergence

end Formal.Scaffold
