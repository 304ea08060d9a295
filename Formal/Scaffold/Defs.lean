import Mathlib
import Formal.Common.Stochastic

/-!
# SCAFFOLD with client sampling: the model

This file holds the model of the mission `scaffold` (seed 05): Sai Praneeth Karimireddy,
Satyen Kale, Mehryar Mohri, Sashank J. Reddi, Sebastian U. Stich, Ananda Theertha Suresh,
"SCAFFOLD: Stochastic Controlled Averaging for Federated Learning", ICML 2020,
arXiv:1910.06378v4. Definitions only.

* `Space d = EuclideanSpace ℝ (Fin d)`, the parameter space.
* `Problem N d`: `N` client objectives `f i : Space d → ℝ`, differentiable, with `β`-Lipschitz
  gradients, `β > 0` (A4 of Appendix B.1, PDF p. 14); `Problem.objective` is
  `f(x) = N⁻¹ ∑ᵢ fᵢ(x)`.
* `Run P ℱ N d K S ηl ηg x₀`: a run of Algorithm 1 with Option II control updates (PDF p. 4;
  Appendix E, equations (18)–(21), PDF pp. 25–26), as an instance of the shared
  `Formal.Common.StochasticRun` with one agent per client (`ι = Fin N`).

Tick layout of the filtration `ℱ : Filtration ℕ m0` (`ℱ n` is the full history before tick `n`).
* Ticks `0, …, K - 1` are reserved for a warm start: the nonconvex statement specifies that every
  client queries the oracle `K` times at `x⁰` there; the convex statement places no condition on
  them (its initial controls are deterministic).
* Round `r` starts at tick `roundStart K r = K + r (K + 1)`. At tick `roundStart K r + k`,
  `k < K`, every client `i` (all `N` of them: virtual local paths) queries the oracle at its local
  iterate `y_{i,k}^r` and receives `g_{i,k}^r`. At tick `sampleTick K r = roundStart K r + K` the
  server draws the uniform size-`S` subset `A_r`, independent of the history up to that tick
  (paths generated before the subset is sampled, as permitted after equation (22), PDF p. 26).
  The run's query point and direction at a sampling tick play no role.
* The local update is `y_{i,k+1}^r = y_{i,k}^r - ηl (g_{i,k}^r - c_i^r + c^r)` with
  `y_{i,0}^r = x^r` and `c^r = N⁻¹ ∑ᵢ c_i^r`; the server update is
  `x^{r+1} = x^r + (ηg / S) ∑_{i ∈ A_r} (y_{i,K}^r - x^r)`; Option II sets
  `c_i^{r+1} = K⁻¹ ∑_{k<K} g_{i,k}^r` for `i ∈ A_r` and keeps `c_i^r` otherwise.

The run records the algorithm and the measurability and sampling law of its randomness, and the
square integrability of the oracle answers (from `StochasticRun`); the square integrability of
the iterates, server models and controls follows from these and is not recorded. Oracle properties
are hypotheses of the statements; no descent inequality, drift bound or convergence property
appears in the model.
-/

open MeasureTheory ProbabilityTheory
open scoped NNReal ENNReal

namespace Formal.Scaffold

noncomputable section

/-- The parameter space `ℝ^d` (the seed's `SCAFFOLD.Space`), with its Euclidean norm. -/
abbrev Space (d : ℕ) : Type := EuclideanSpace ℝ (Fin d)

/-- The federated problem (the seed's `SCAFFOLD.Problem`; Karimireddy et al., Appendix B.1, A4,
PDF p. 14): `N` client objectives `fᵢ : ℝ^d → ℝ`, each differentiable with a `β`-Lipschitz
gradient, `β > 0`. No convexity and no similarity between clients is assumed here. -/
structure Problem (N d : ℕ) where
  /-- The client objectives `fᵢ`. -/
  f : Fin N → Space d → ℝ
  /-- The common smoothness constant `β`. -/
  β : ℝ≥0
  /-- `β > 0`. -/
  β_pos : 0 < β
  /-- Every client objective is differentiable. -/
  differentiable : ∀ i, Differentiable ℝ (f i)
  /-- Every client gradient is `β`-Lipschitz (`β`-smoothness, A4). -/
  lipschitz_gradient : ∀ i, LipschitzWith β (gradient (f i))

/-- The global objective `f(x) = N⁻¹ ∑ᵢ fᵢ(x)`. -/
def Problem.objective {N d : ℕ} (pb : Problem N d) (x : Space d) : ℝ :=
  -- lint: allow junk-div because every statement using the objective assumes 1 ≤ N
  (N : ℝ)⁻¹ * ∑ i, pb.f i x

/-- The first tick of round `r`, `K + r (K + 1)`: `K` warm-start ticks come first, and each round
has `K` local-step ticks followed by one sampling tick. -/
def roundStart (K r : ℕ) : ℕ :=
  K + r * (K + 1)

/-- The tick at which the subset `A_r` of round `r` is drawn, `roundStart K r + K`, after the `K`
local steps of all clients. -/
def sampleTick (K r : ℕ) : ℕ :=
  roundStart K r + K

/-- The average `N⁻¹ ∑ᵢ vᵢ` of a family of client vectors (for example `c^r` from the `c_i^r`). -/
def average {N d : ℕ} (v : Fin N → Space d) : Space d :=
  -- lint: allow junk-div because every statement taking a Run assumes 1 ≤ N
  (N : ℝ)⁻¹ • ∑ i, v i

/-- The corrected local step `y - ηl (g - cᵢ + c)` of Algorithm 1 (PDF p. 4; Appendix E,
equations (18)–(21), PDF pp. 25–26). -/
def localStep {d : ℕ} (ηl : ℝ) (y g ci c : Space d) : Space d :=
  y - ηl • (g - ci + c)

/-- The local iterate `y_{i,k}^r`, `0 ≤ k ≤ K`, computed from the server models `x`, the controls
`c`, the query points and the oracle answers: `y_{i,0}^r = x^r` and, for `k ≥ 1`,
`y_{i,k}^r = y_{i,k-1}^r - ηl (g_{i,k-1}^r - c_i^r + c^r)`, where `y_{i,k-1}^r` and `g_{i,k-1}^r`
are the query point and answer of tick `roundStart K r + (k - 1)`. -/
def localIterate {Ω : Type*} {N d : ℕ} (K : ℕ) (ηl : ℝ) (x : ℕ → Ω → Space d)
    (c : ℕ → Fin N → Ω → Space d) (point dir : ℕ → Fin N → Ω → Space d) (r k : ℕ) (i : Fin N)
    (ω : Ω) : Space d :=
  if k = 0 then x r ω
  else
    -- lint: allow nat-sub because this is the else branch of `if k = 0`: k ≥ 1, k - 1 is exact
    localStep ηl (point (roundStart K r + (k - 1)) i ω) (dir (roundStart K r + (k - 1)) i ω)
      (c r i ω) (average fun j => c r j ω)

/-- **A run of SCAFFOLD with client sampling** (Algorithm 1 with Option II, PDF p. 4; Appendix E,
equations (18)–(21), PDF pp. 25–26), on the filtered probability space `(Ω, P, ℱ)`, with `N`
clients, `K` local steps, `S` sampled clients per round, local and global step sizes `ηl`, `ηg`,
and the deterministic initial server model `x₀`. It extends the shared
`Formal.Common.StochasticRun` with one agent per client: `point n i` and `dir n i` are the query
point and oracle answer of client `i` at tick `n` (see the module docstring for the tick layout).

Fields: the server models `x^r`, the stored controls `c_i^r`, the sampled subsets `A_r`; their
measurability with respect to the full history; the sampling law (uniform over size-`S` subsets,
independent of the history before the sampling tick); and the update equations. The initial
controls are left free: each statement fixes them. Oracle properties are not fields.

Square integrability of the local iterates, server models and controls is deliberately not a
field: it is derived, not assumed. The oracle answers are square integrable (`dir_memLp` of
`StochasticRun`), `x⁰` is deterministic, every local iterate, server model and later control is a
finite combination of these (`point_round`, `server_succ`, `control_succ`; the sums over the
random subset `A_r` are sums over `i` of indicator terms of the measurable events `i ∈ A_r`), and
each statement fixes the initial controls to a deterministic vector or to an average of oracle
answers. Query points at ticks that play no role (a sampling tick, and the warm-start ticks of
the convex statement) are unconstrained apart from their measurability. -/
structure Run {Ω : Type*} {m0 : MeasurableSpace Ω} (P : Measure Ω) (ℱ : Filtration ℕ m0)
    (N d K S : ℕ) (ηl ηg : ℝ) (x₀ : Space d)
    extends Formal.Common.StochasticRun P ℱ (Fin N) (Space d) where
  /-- The server model `x^r` at the start of round `r`. -/
  server : ℕ → Ω → Space d
  /-- The control variate `c_i^r` stored for client `i` at the start of round `r`. -/
  control : ℕ → Fin N → Ω → Space d
  /-- The subset `A_r` of clients sampled in round `r`. -/
  sample : ℕ → Ω → Finset (Fin N)
  /-- `x^r` is known at the start of round `r`. -/
  server_measurable : ∀ r, Measurable[ℱ (roundStart K r)] (server r)
  /-- `c_i^r` is known at the start of round `r`. -/
  control_measurable : ∀ r i, Measurable[ℱ (roundStart K r)] (control r i)
  /-- `A_r` is known after its sampling tick. -/
  sample_measurable : ∀ r s, MeasurableSet[ℱ (sampleTick K r + 1)] {ω | sample r ω = s}
  /-- `A_r` is uniform over the subsets of size `S` of the `N` clients. -/
  sample_uniform : ∀ r (s : Finset (Fin N)),
    -- lint: allow junk-div because in ℝ≥0∞ 0⁻¹ = ∞, not 0; and every statement assumes S ≤ N, so
    --   N.choose S ≥ 1
    P {ω | sample r ω = s} = if s.card = S then ((N.choose S : ℕ) : ℝ≥0∞)⁻¹ else 0
  /-- `A_r` is fresh: independent of the history before its sampling tick (which contains the
  virtual local paths of round `r`). -/
  sample_indep : ∀ r, Indep (MeasurableSpace.comap (sample r) ⊤) (ℱ (sampleTick K r)) P
  /-- The initial server model is the deterministic `x₀`. -/
  server_zero : ∀ ω, server 0 ω = x₀
  /-- At local step `k < K` of round `r`, every client queries the oracle at its local iterate
  `y_{i,k}^r` (with `y_{i,0}^r = x^r`). -/
  point_round : ∀ r k i ω, k < K →
    point (roundStart K r + k) i ω = localIterate K ηl server control point dir r k i ω
  /-- Server update `x^{r+1} = x^r + (ηg / S) ∑_{i ∈ A_r} (y_{i,K}^r - x^r)`. -/
  server_succ : ∀ r ω, server (r + 1) ω = server r ω +
    -- lint: allow junk-div because every statement taking a Run assumes 1 ≤ S
    (ηg / S) • ∑ i ∈ sample r ω, (localIterate K ηl server control point dir r K i ω - server r ω)
  /-- Option II control update: `c_i^{r+1} = K⁻¹ ∑_{k<K} g_{i,k}^r` for `i ∈ A_r`, otherwise
  `c_i^{r+1} = c_i^r`. -/
  control_succ : ∀ r i ω, control (r + 1) i ω =
    -- lint: allow junk-div because every statement taking a Run assumes 1 ≤ K
    if i ∈ sample r ω then (K : ℝ)⁻¹ • ∑ k ∈ Finset.range K, dir (roundStart K r + k) i ω
    else control r i ω

/-- The local iterate `y_{i,k}^r` (`0 ≤ k ≤ K`) of a run. -/
def Run.localState {Ω : Type*} {m0 : MeasurableSpace Ω} {P : Measure Ω} {ℱ : Filtration ℕ m0}
    {N d K S : ℕ} {ηl ηg : ℝ} {x₀ : Space d} (run : Run P ℱ N d K S ηl ηg x₀) (r k : ℕ)
    (i : Fin N) (ω : Ω) : Space d :=
  localIterate K ηl run.server run.control run.point run.dir r k i ω

/-- The effective step size `h = K ηl ηg`. -/
def effStep (K : ℕ) (ηl ηg : ℝ) : ℝ :=
  K * ηl * ηg

/-- The initial control error `C₀ = N⁻¹ ∑ᵢ ‖cᵢ⁰ - ∇fᵢ(x⋆)‖²` for deterministic initial controls
`c₀` (Appendix E.1, Lemma 15, PDF p. 30). -/
def initialControlError {N d : ℕ} (pb : Problem N d) (c₀ : Fin N → Space d) (xstar : Space d) :
    ℝ :=
  -- lint: allow junk-div because the convex statement, the only user, assumes 1 ≤ N
  (N : ℝ)⁻¹ * ∑ i, ‖c₀ i - gradient (pb.f i) xstar‖ ^ 2

/-- The initial potential `V₀ = ‖x⁰ - x⋆‖² + (9 N h² / S) C₀` (Appendix E.1, Lemma 15,
PDF p. 30). -/
def initialPotential {N d : ℕ} (pb : Problem N d) (K S : ℕ) (ηl ηg : ℝ) (x₀ xstar : Space d)
    (c₀ : Fin N → Space d) : ℝ :=
  -- lint: allow junk-div because the convex statement, the only user, assumes 1 ≤ S
  ‖x₀ - xstar‖ ^ 2 + 9 * N * effStep K ηl ηg ^ 2 / S * initialControlError pb c₀ xstar

/-- The round weight `w_r = q^{-(r+1)}` with `q = 1 - μ h / 2` (Appendix E.1, Lemma 15,
PDF p. 30). -/
def roundWeight (μ h : ℝ) (r : ℕ) : ℝ :=
  -- lint: allow junk-div because the convex statement, the only user, assumes
  --   μ h ≤ S / (15 N) ≤ 1 / 15, so 1 - μ h / 2 > 0
  ((1 - μ * h / 2) ^ (r + 1))⁻¹

/-- The total weight `W_T = ∑_{r<T} w_r`. -/
def totalWeight (μ h : ℝ) (T : ℕ) : ℝ :=
  ∑ r ∈ Finset.range T, roundWeight μ h r

end

end Formal.Scaffold
