import Formal.NTKInit.Defs

/-!
# The neural tangent kernel at initialization: the statements

There is one Prop-valued definition per target of mission `ntk-init` (seed 03), after Jacot,
Gabriel and Hongler, *Neural Tangent Kernel* (NeurIPS 2018, arXiv:1806.07572v4). The model is in
`Formal.NTKInit.Defs`; the proofs are in `Formal.NTKInit.Proofs`.

* `CovarianceValid`: the limiting covariance recursion produces valid covariances.
* `GaussianOutputLimit`: Proposition 1, the sequential Gaussian limit of the outputs.
* `Goal`: Theorem 1, the sequential limit of the empirical NTK.

Every statement fixes the seed's standing assumptions: positive integers `d` and `q`, a hidden
layer count `h ≥ 0` (`L = h + 1`), a bias scale `β > 0` and a Lipschitz activation `σ`.
-/

open MeasureTheory ProbabilityTheory Filter Topology
open scoped RealInnerProductSpace ENNReal NNReal

namespace Formal.NTKInit

/-- **Covariance validity** (paper-derived well-definedness obligation for the covariance of
Proposition 1). For every Lipschitz `σ`, `β > 0`, `d > 0` and every `L = h + 1`, the recursively
defined `Σ^{(L)}` satisfies `Σ^{(L)}(x, x) ≥ β²` for every input `x`, and on every finite input
family `X = (x_1, …, x_N)` its Gram matrix `(Σ^{(L)}(x_i, x_j))_{i,j}` is positive semidefinite
and is the covariance matrix of the centered Gaussian law that Mathlib's `multivariateGaussian`
builds from it: `Cov(u_i, u_j) = Σ^{(L)}(x_i, x_j)` under `multivariateGaussian 0 (Gram)`. This
justifies reading `Σ^{(L)}` as a covariance in the recursion and in Proposition 1, and it is
where the statements exclude Mathlib's junk value: `multivariateGaussian μ S` is the Dirac mass at
`μ` when `S` is not positive semidefinite. The pair matrices of the recursion are the case
`X = ![x, y]`; the covariance `outputCov` of Proposition 1 is the Gram matrix on `X` tensored with
`I_q`.

Source: Jacot, Gabriel, Hongler 2018 (arXiv:1806.07572v4), Section 4.1, Proposition 1,
PDF p. 5 (the recursion for `Σ^{(L)}`; unnumbered display). -/
def CovarianceValid : Prop :=
  ∀ (d : ℕ), 0 < d →
  ∀ (β : ℝ), 0 < β →
  ∀ (σ : ℝ → ℝ) (K : ℝ≥0), LipschitzWith K σ →
  ∀ (h : ℕ),
    (∀ x : EuclideanSpace ℝ (Fin d), β ^ 2 ≤ covKernel σ β d h x x) ∧
    ∀ (N : ℕ) (X : Fin N → EuclideanSpace ℝ (Fin d)),
      (gramMatrix (covKernel σ β d h) X).PosSemidef ∧
      ∀ i j : Fin N,
        -- lint: allow missing-integrability because multivariateGaussian is a Gaussian measure for
        --   every matrix (isGaussian_multivariateGaussian), so the coordinates u ↦ u i have all
        --   moments
        ProbabilityTheory.covariance (fun u : EuclideanSpace ℝ (Fin N) => u i)
            (fun u : EuclideanSpace ℝ (Fin N) => u j)
            (multivariateGaussian (0 : EuclideanSpace ℝ (Fin N))
              (gramMatrix (covKernel σ β d h) X)) =
          gramMatrix (covKernel σ β d h) X i j

/-- **Proposition 1: Gaussian limit of the outputs.** For every Lipschitz `σ`, `β > 0`,
`d, q > 0`, `h ≥ 0` and every finite input family `X = (x_1, …, x_N)`, the law of
`(f_{θ,k}(x_i))_{(i,k)}` under the `N(0, 1)` initialization converges in distribution, in the
sequential width limit (`n_1 → ∞` first, …, `n_h → ∞` last), to the centered Gaussian vector
with covariance `Σ^{(L)}(x_i, x_j) δ_{kk'}` (Mathlib's `multivariateGaussian`): the outputs tend
in law to i.i.d. centered Gaussian processes of covariance `Σ^{(L)}`, through all their
finite-dimensional distributions.

Source: Jacot, Gabriel, Hongler 2018 (arXiv:1806.07572v4), Section 4.1, Proposition 1, PDF p. 5;
sequential limit as in Appendix A, PDF p. 11, and Appendix A.1, PDF pp. 12–13. -/
def GaussianOutputLimit : Prop :=
  ∀ (d q h : ℕ), 0 < d → 0 < q →
  ∀ (β : ℝ), 0 < β →
  ∀ (σ : ℝ → ℝ) (K : ℝ≥0), LipschitzWith K σ →
  ∀ (N : ℕ) (X : Fin N → EuclideanSpace ℝ (Fin d)),
    TendstoInLaw
      (fun w : Fin h → ℕ => Measure.map (outputVector σ β q w X) (initLaw d q w))
      (seqWidthFilter h)
      (multivariateGaussian (0 : EuclideanSpace ℝ (Fin N × Fin q)) (outputCov σ β d h q X))

/-- **Theorem 1: the NTK at initialization (goal).** For every Lipschitz `σ`, `β > 0`,
`d, q > 0`, `h ≥ 0`, every finite input family `X = (x_1, …, x_N)` and every `ε > 0`,
`Pr(∃ i j k k', |Θ^{(L)}_{kk'}(θ; x_i, x_j) - Θ^{(L)}_∞(x_i, x_j) δ_{kk'}| > ε) → 0`
under the `N(0, 1)` initialization, in the sequential width limit: `n_1 → ∞` first, then
`n_2 → ∞`, …, `n_h → ∞` last (the last hidden width outermost; not the simultaneous limit).

Source: Jacot, Gabriel, Hongler 2018 (arXiv:1806.07572v4), Section 4.1, Theorem 1, PDF p. 5;
order of limits as in Appendix A, PDF p. 11, and Appendix A.1, PDF pp. 12–13. -/
def Goal : Prop :=
  ∀ (d q h : ℕ), 0 < d → 0 < q →
  ∀ (β : ℝ), 0 < β →
  ∀ (σ : ℝ → ℝ) (K : ℝ≥0), LipschitzWith K σ →
  ∀ (N : ℕ) (X : Fin N → EuclideanSpace ℝ (Fin d)) (ε : ℝ), 0 < ε →
    Tendsto
      (fun w : Fin h → ℕ =>
        initLaw d q w
          {θ : ParamIdx d q w → ℝ | ∃ (i j : Fin N) (k k' : Fin q),
            ε < |empiricalNTK σ β θ (X i) (X j) k k' -
              (if k = k' then ntkLimit σ β d h (X i) (X j) else 0)|})
      (seqWidthFilter h) (𝓝 0)

end Formal.NTKInit
