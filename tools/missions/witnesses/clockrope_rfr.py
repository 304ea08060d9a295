"""Witness for ``clockrope-rfr``: Random Fourier Rotations checked by quadrature and Monte Carlo.

Profiles (all continuous, symmetric, positive definite, ``f(0) = 1``):

* Gaussian ``f(x) = exp(-πx²)``, integrable, ``τ(ξ) = exp(-πξ²)`` (ξ ~ N(0, 1/(2π)));
* Laplace ``f(x) = exp(-|x|)``, integrable, ``τ(ξ) = 2/(1 + 4π²ξ²)`` (Cauchy of scale 1/(2π));
* periodic (Corollary 3.3, not integrable) ``f(x) = (1 + cos(2πx/T))/2`` with exact coefficients
  ``α_0 = 1/2, α_{±1} = 1/4``, and the von Mises profile ``f(x) = exp(κ(cos(2πx/T) - 1))`` with
  ``α_k = e^{-κ} I_k(κ)`` (infinitely many nonzero coefficients).

τ is Mathlib's (and the seed's) ``τ(ξ) = ∫ f(x) e^{-i2πξx} dx``; the closed forms are checked
against trapezoidal quadrature of that integral (real part, and imaginary part = 0), and
``∫ τ = 1`` by quadrature with an explicit tail allowance. The estimator is computed literally as
in ``Defs.lean``: feature pairs ``(v_{2j}, v_{2j+1})``, 2×2 rotation matrices
``R(2πξ_j p)``, dot products, summed over ``j``.

* ``unbiasedness`` (Prop. 3.1): density facts above, and the Monte Carlo mean of ĝ over i.i.d.
  ξ_j ~ τ equals ``qᵀk f(p_m − p_n)`` within 5 standard errors (Gaussian and Laplace, several
  n, positions including ``p_m = p_n`` and ``p_m < p_n``).
* ``goal`` (Prop. 3.2): the empirical probability of
  ``|ĝ/n − qᵀk f(p_m − p_n)/n| ≥ ε`` is at most the printed bound
  ``2 exp(−ε²(2n)²/(8 Σ_j (‖q⁽ʲ⁾‖‖k⁽ʲ⁾‖)²))`` plus 5 binomial standard errors, at ε chosen so the
  bound is 1.5, 0.5, 0.1, 0.01; plus the degenerate cases n = 0 and q = 0 (empty event).
* ``periodic-herglotz`` (Cor. 3.3): α_k by (exact, for trigonometric polynomials) periodic
  trapezoid quadrature of the defining integral, compared with the exact values (``Fraction`` for
  the raised cosine); Im α_k = 0, α_k ≥ 0 and partial sums → 1 over |k| ≤ K (the raised cosine
  has no coefficient beyond |k| = 1 since it is a trigonometric polynomial of degree 1; for the
  von Mises profile the tail beyond K is bounded by the series). Also its use in ClockRoPE: with
  frequencies k/T drawn with probability α_k, E ĝ = qᵀk f(p_m − p_n), both by exact enumeration
  of the finite law and by Monte Carlo.

Non-vacuity: the Gaussian profile (unbiasedness), the Gaussian profile with n = 2 and the ε of
the concentration checks (goal), and the raised cosine with T = 1 (Herglotz); the hypotheses
are checked on them: continuity as a modulus on a grid (``|f(x + 10⁻⁷) − f(x)| ≤ 10⁻⁵``,
which rejects a box profile), integrability as a vanishing tail of ``∫|f|`` (rejects a
periodic profile), positive definiteness through the least eigenvalue of Gram matrices
``f(x_i − x_j)`` on random and evenly spaced points (rejects ``(1 − 4πx²)e^{−πx²}``), symmetry,
``f(0) = 1``, periodicity and the signs of T and ε, each against a violating profile.

Constants: ``2π`` in the rotation angle ``2πξp`` of ``rfrEstimator`` and the factor 1 in
``α_k = (1/T)∫…`` and in ``Σ α_k = 1`` (caught at 1%); for Proposition 3.2 the factor 2, the
constant 8 and the 2 in ``(2n)²`` of ``2 exp(−ε²(2n)²/(8 Σ …))``. McDiarmid's bound is far
from tight for these estimators, so only large changes of 8 and of the exponent are detected
(measured figures in the README).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from missions.witness import Check, Claim, Constant, Context, NonVacuity, Patch, hyp

TWO_PI = 2.0 * math.pi
Profile = tuple[str, Callable[[Any], Any], Callable[[Any], Any], Callable[[Any, int], Any]]


# ---------------------------------------------------------------- the model (Defs.lean)


def feature_pairs(v: np.ndarray) -> np.ndarray:
    """v ∈ ℝ^{2n} → array (n, 2) of pairs v⁽ʲ⁾ = (v_{2j}, v_{2j+1})."""
    return v.reshape(-1, 2)


def rotation(theta: np.ndarray) -> np.ndarray:
    """R(θ) = [[cos θ, −sin θ], [sin θ, cos θ]], batched over the shape of θ."""
    c, s = np.cos(theta), np.sin(theta)
    return np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)


def rfr_estimator(
    xi: np.ndarray, q: np.ndarray, k: np.ndarray, pm: float, pn: float, two_pi: float = TWO_PI
) -> np.ndarray:
    """ĝ = Σ_j (R(2πξ_j p_m) q⁽ʲ⁾) ⬝ (R(2πξ_j p_n) k⁽ʲ⁾) for a batch ξ of shape (S, n)."""
    rq = np.einsum("snab,nb->sna", rotation(two_pi * xi * pm), feature_pairs(q))
    rk = np.einsum("snab,nb->sna", rotation(two_pi * xi * pn), feature_pairs(k))
    return np.einsum("sna,sna->s", rq, rk)


def pair_norm_sum(q: np.ndarray, k: np.ndarray) -> float:
    """Σ_j (‖q⁽ʲ⁾‖ ‖k⁽ʲ⁾‖)² with Euclidean pair norms (Lean: pairNorm)."""
    nq = np.linalg.norm(feature_pairs(q), axis=1)
    nk = np.linalg.norm(feature_pairs(k), axis=1)
    return float(np.sum((nq * nk) ** 2))


# ---------------------------------------------------------------- profiles


def gauss_f(x: Any) -> Any:
    return np.exp(-math.pi * np.asarray(x) ** 2)


def gauss_tau(xi: Any) -> Any:
    return np.exp(-math.pi * np.asarray(xi) ** 2)


def gauss_sample(rng: Any, size: Any) -> Any:
    return rng.normal(0.0, 1.0 / math.sqrt(TWO_PI), size)


def laplace_f(x: Any) -> Any:
    return np.exp(-np.abs(np.asarray(x)))


def laplace_tau(xi: Any) -> Any:
    return 2.0 / (1.0 + (TWO_PI * np.asarray(xi)) ** 2)


def laplace_sample(rng: Any, size: Any) -> Any:
    return rng.standard_cauchy(size) / TWO_PI


def laplace_tau_angular(xi: Any) -> Any:
    """Wrong convention: ∫ f(x) e^{−iξx} dx = 2/(1 + ξ²) (angular frequency)."""
    return 2.0 / (1.0 + np.asarray(xi) ** 2)


def laplace_sample_angular(rng: Any, size: Any) -> Any:
    return rng.standard_cauchy(size)  # the law of density ∝ 2/(1 + ξ²)


LATTICE_W = 0.01  # width of the lattice profile's spectral peaks


def lattice_f(x: Any) -> Any:
    """f(x) = e^{−πw²x²}(1 + cos πx)/2: continuous, integrable, positive definite (a product of
    two positive-definite kernels), symmetric, f(0) = 1, and f(1) = 0."""
    x = np.asarray(x)
    return np.exp(-math.pi * LATTICE_W**2 * x**2) * (1.0 + np.cos(math.pi * x)) / 2.0


def lattice_tau(xi: Any) -> Any:
    """τ = ½G(ξ) + ¼G(ξ − ½) + ¼G(ξ + ½), G(ξ) = e^{−πξ²/w²}/w (the transform of the product)."""
    xi = np.asarray(xi)

    def bump(c: float) -> Any:
        return np.exp(-math.pi * (xi - c) ** 2 / LATTICE_W**2) / LATTICE_W

    return 0.5 * bump(0.0) + 0.25 * bump(0.5) + 0.25 * bump(-0.5)


def lattice_sample(rng: Any, size: Any) -> Any:
    """ξ from τ: the centre 0 or ±1/2 (weights ½, ¼, ¼) plus N(0, w²/(2π))."""
    centres = rng.choice([0.0, 0.5, -0.5], size=size, p=[0.5, 0.25, 0.25])
    return centres + rng.normal(0.0, LATTICE_W / math.sqrt(TWO_PI), size)


PROFILES: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any], Callable[..., Any]]] = {
    "gaussian": (gauss_f, gauss_tau, gauss_sample),
    "laplace": (laplace_f, laplace_tau, laplace_sample),
}
WRONG_CONVENTION = {"laplace": (laplace_f, laplace_tau_angular, laplace_sample_angular)}

# (n, p_m, p_n): includes p_m = p_n and p_m < p_n, and n = 1
INSTANCES = ((1, 0.7, 0.2), (4, -1.3, 0.4), (4, 2.0, 2.0), (8, 0.25, -0.5))


def query_key(rng: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    q = rng.normal(size=2 * n)
    k = 0.6 * q + 0.8 * rng.normal(size=2 * n)  # correlated, so qᵀk is well away from 0
    return q, k


# ---------------------------------------------------------------- kernels (the instances)


@dataclass
class Kernel:
    """A profile f with what the statements assume of it: a period T for Corollary 3.3, the
    ε of a concentration check, and the spectral density and sampler for Propositions 3.1-3.2."""

    name: str
    f: Callable[[Any], Any]
    tau: Callable[[Any], Any] | None = None
    sample: Callable[..., Any] | None = None
    T: float | None = None

    def __str__(self) -> str:
        return self.name + (f", T = {self.T:g}" if self.T is not None else "")


def kernel(ctx: Context, name: str) -> Kernel:
    f, tau, sample = {**PROFILES, "lattice": (lattice_f, lattice_tau, lattice_sample)}[name]
    label = {
        "gaussian": "f(x) = exp(-πx²)",
        "laplace": "f(x) = exp(-|x|)",
        "lattice": f"f(x) = exp(-π{LATTICE_W}²x²)(1 + cos πx)/2",
    }[name]
    return Kernel(label, f, tau, sample)


def periodic_kernel(ctx: Context, t: float) -> Kernel:
    return Kernel("raised cosine f(x) = (1 + cos(2πx/T))/2", raised_cosine(t), T=t)


@dataclass
class Case:
    """One concentration instance: the kernel, n, q, k, the positions and the ε tried."""

    kernel: Kernel
    n: int
    pm: float
    pn: float
    q: np.ndarray
    k: np.ndarray
    eps: list[float] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"{self.kernel}, n = {self.n}, p_m = {self.pm}, p_n = {self.pn}, random q, k, "
            f"ε ∈ {{{', '.join(f'{e:.3g}' for e in self.eps)}}}"
        )


BOUND_TARGETS = (1.5, 0.5, 0.1, 0.01)  # values of the printed bound at the ε tried
CASES = ((2, 1.0, 0.0), (8, 0.3, -0.7))
#: The lattice profile puts ξ near 0 or ±1/2, so at p_m − p_n = 1 every rotation is nearly
#: 0 or π: with q = k each term of ĝ is ±‖q⁽ʲ⁾‖², a Rademacher sum, for which McDiarmid's
#: bound is nearly attained in the exponent (n = 1: |ĝ| ≈ ‖q‖², P(|ĝ| ≥ 0.99‖q‖²) ≈ 1).
LATTICE_CASES = ((1, 1.0, 0.0), (2, 1.5, 0.5))
LATTICE_LEVELS = (0.99, 0.9)  # ε as fractions of the largest deviation Σ_j ‖q⁽ʲ⁾‖‖k⁽ʲ⁾‖/n


def case(ctx: Context, name: str, index: int) -> Case:
    if name == "lattice":
        n, pm, pn = LATTICE_CASES[index]
        q = ctx.rng(1500 + n).normal(size=2 * n)
        largest = float(np.sum(np.linalg.norm(feature_pairs(q), axis=1) ** 2)) / n
        eps = [level * largest for level in LATTICE_LEVELS]
        return Case(ctx.instance(kernel, name), n, pm, pn, q, q.copy(), eps)
    n, pm, pn = CASES[index]
    rng = ctx.rng(1000 + 100 * list(PROFILES).index(name) + n)
    q, k = query_key(rng, n)
    s = pair_norm_sum(q, k)
    eps = [math.sqrt(8.0 * s * math.log(2.0 / t)) / (2 * n) for t in BOUND_TARGETS]
    return Case(ctx.instance(kernel, name), n, pm, pn, q, k, eps)


CONCENTRATION = (
    *(("gaussian", i) for i in range(2)),
    *(("laplace", i) for i in range(2)),
    *(("lattice", i) for i in range(2)),
)


# ---------------------------------------------------------------- Proposition 3.1


def fourier_quadrature(f: Callable[[Any], Any], xi: float, half: float, step: float) -> complex:
    """∫_{−half}^{half} f(x) e^{−i2πξx} dx by the trapezoid rule (f decays to ~0 at ±half)."""
    x = np.arange(-half, half + step / 2, step)
    w = np.full(x.shape, step)
    w[0] = w[-1] = step / 2
    fx = f(x)
    return complex(
        np.sum(w * fx * np.cos(TWO_PI * xi * x)), -np.sum(w * fx * np.sin(TWO_PI * xi * x))
    )


def density_checks(kernels: list[Kernel]) -> Iterator[Check]:
    for kern in kernels:
        if kern.name not in _DENSITY:  # deterministic quadrature: computed once per profile
            _DENSITY[kern.name] = list(_density_checks(kern))
        yield from _DENSITY[kern.name]


_DENSITY: dict[str, list[Check]] = {}


def _density_checks(kern: Kernel) -> Iterator[Check]:
    assert kern.tau is not None
    name, f, tau = kern.name, kern.f, kern.tau
    for xi in (0.0, 0.3, 1.0):
        ft = fourier_quadrature(f, xi, 40.0, 1e-3)
        yield Check(f"{name}: Re ∫f e^(-i2πξx) = τ(ξ), ξ={xi}", ft.real, "==", float(tau(xi)), 1e-5)
        yield Check(f"{name}: Im ∫f e^(-i2πξx) = 0, ξ={xi}", ft.imag, "==", 0.0, 1e-9)
    grid = np.linspace(-200.0, 200.0, 400_001)
    t = tau(grid)
    yield Check(f"{name}: min τ on [-200, 200] ≥ 0", float(t.min()), ">=", 0.0)
    mass = float(np.trapezoid(t, grid))
    # tail of τ outside [−A, A]: ≤ 1/(π² A) for the Cauchy density, negligible for Gaussian
    tail = 1.0 / (math.pi**2 * 200.0)
    yield Check(f"{name}: ∫τ = 1 (±tail {tail:.1e})", mass, "==", 1.0, tail + 1e-6)


_DRAWS: dict[tuple[int, str, int, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def mean_checks(
    ctx: Context, kernels: list[Kernel], plus: bool = False, two_pi: float = TWO_PI
) -> Iterator[Check]:
    samples = ctx.size(quick=20_000, full=400_000)
    for p_index, kern in enumerate(kernels):
        assert kern.sample is not None
        for i, (n, pm, pn) in enumerate(INSTANCES):
            key = (ctx.seed, kern.name, i, samples)
            if key not in _DRAWS:  # sensitivity runs change the estimator, not the draws
                rng = ctx.rng(100 * p_index + i)
                q, k = query_key(rng, n)
                _DRAWS[key] = (q, k, kern.sample(rng, (samples, n)))
            q, k, xi = _DRAWS[key]
            g = rfr_estimator(xi, q, k, pm, pn, two_pi)
            se = float(g.std()) / math.sqrt(samples)
            arg = pm + pn if plus else pm - pn
            want = float(q @ k) * float(kern.f(arg))
            yield Check(
                f"{kern.name}: E ĝ = qᵀk f(p_m − p_n), n={n}, p_m={pm}, p_n={pn} "
                f"({samples} samples)",
                float(g.mean()),
                "==",
                want,
                5 * se + 1e-9,
            )


def kernels(ctx: Context, convention: str = "ordinary") -> list[Kernel]:
    found = [ctx.instance(kernel, name) for name in PROFILES]
    if convention == "angular":  # the wrong convention τ = ∫f e^{-iξx} for the Laplace profile
        f, tau, sample = WRONG_CONVENTION["laplace"]
        found[1] = Kernel(found[1].name + " (angular convention)", f, tau, sample)
    return found


def unbiasedness(
    ctx: Context, plus: bool = False, two_pi: float = TWO_PI, convention: str = "ordinary"
) -> Iterator[Check]:
    chosen = kernels(ctx, convention)
    yield from density_checks(chosen)
    yield from mean_checks(ctx, chosen, plus, two_pi)


# ---------------------------------------------------------------- Proposition 3.2


def printed_bound(
    eps: float,
    n: int,
    s: float,
    power: int = 2,
    const: float = 8.0,
    prefactor: float = 2.0,
    two: float = 2.0,
) -> float:
    """prefactor · exp(−ε² (two·n)^power / (const · S)), with Lean's x/0 = 0 when S = 0."""
    den = const * s
    return prefactor * math.exp(-(eps**2 * (two * n) ** power / den if den != 0 else 0.0))


def sampled_estimator(seed: int, case_index: int, c: Case, samples: int) -> np.ndarray:
    """ĝ over ``samples`` frequency draws (cached per case: sensitivity runs reuse them)."""
    key = (seed, case_index, c.n, samples)
    if key not in _SAMPLES:
        assert c.kernel.sample is not None
        rng = np.random.default_rng([seed, 5000 + case_index])
        _SAMPLES[key] = rfr_estimator(c.kernel.sample(rng, (samples, c.n)), c.q, c.k, c.pm, c.pn)
    return _SAMPLES[key]


_SAMPLES: dict[tuple[int, int, int, int], np.ndarray] = {}


def concentration(
    ctx: Context,
    power: int = 2,
    const: float = 8.0,
    prefactor: float = 2.0,
    two: float = 2.0,
) -> Iterator[Check]:
    samples = ctx.size(quick=20_000, full=400_000)
    for case_index, (name, index) in enumerate(CONCENTRATION):
        c = ctx.instance(case, name, index)
        kern = c.kernel
        assert kern.sample is not None
        s = pair_norm_sum(c.q, c.k)
        g = sampled_estimator(ctx.seed, case_index, c, samples)
        dev = np.abs(g / c.n - float(c.q @ c.k) * float(kern.f(c.pm - c.pn)) / c.n)
        for eps in c.eps:
            p = float(np.mean(dev >= eps))
            se = math.sqrt(max(p * (1 - p), 1.0 / samples) / samples)
            yield Check(
                f"{kern.name}: P(|ĝ/n − qᵀk f/n| ≥ ε) ≤ bound, n={c.n}, p_m={c.pm}, "
                f"p_n={c.pn}, ε={eps:.3f} ({samples} samples)",
                p,
                "<=",
                printed_bound(eps, c.n, s, power, const, prefactor, two),
                5 * se,
            )
    # degenerate cases: the event is empty (n = 0; q = 0 makes ĝ = qᵀk = 0)
    bound = printed_bound(0.5, 0, 0.0, power, const, prefactor, two)
    yield Check("n = 0: P(0 ≥ ε) = 0 ≤ bound (= 2 with x/0 = 0)", 0.0, "<=", bound)
    rng = ctx.rng(1999)
    k0 = rng.normal(size=8)
    g0 = rfr_estimator(gauss_sample(rng, (100, 4)), np.zeros(8), k0, 0.3, 0.1)
    p0 = float(np.mean(np.abs(g0 / 4) >= 0.5))
    bound = printed_bound(0.5, 4, pair_norm_sum(np.zeros(8), k0), power, const, prefactor, two)
    yield Check("q = 0: P = 0 ≤ bound (= 2)", p0, "<=", bound)


# ---------------------------------------------------------------- Corollary 3.3


def raised_cosine(t: float) -> Callable[[Any], Any]:
    return lambda x: (1.0 + np.cos(TWO_PI * np.asarray(x) / t)) / 2.0


def non_pd(t: float) -> Callable[[Any], Any]:
    """Symmetric, T-periodic, f(0) = 1, but α_{±2} = −1/4: not positive definite."""
    return lambda x: (
        0.5 + np.cos(TWO_PI * np.asarray(x) / t) - 0.5 * np.cos(2 * TWO_PI * np.asarray(x) / t)
    )


def von_mises(t: float, kappa: float) -> Callable[[Any], Any]:
    return lambda x: np.exp(kappa * (np.cos(TWO_PI * np.asarray(x) / t) - 1.0))


def bessel_i(k: int, x: float) -> float:
    k = abs(k)
    return sum(
        (x / 2) ** (2 * m + k) / (math.factorial(m) * math.factorial(m + k)) for m in range(60)
    )


def periodic_coeffs(
    f: Callable[[Any], Any], t: float, kmax: int, norm: float = 1.0
) -> dict[int, complex]:
    """α_k = (norm/T) ∫_0^T f(x) e^{−i2πkx/T} dx by the periodic trapezoid rule (M = 512 nodes:
    exact for trigonometric polynomials of degree < 512 − kmax, spectrally accurate otherwise).
    ``norm`` is the factor in front of 1/T (1 in the statement, 0 drops the normalization)."""
    m = 512
    x = np.arange(m) * (t / m)
    fx = f(x)
    out = {}
    for k in range(-kmax, kmax + 1):
        integral = complex(np.sum(fx * np.exp(-1j * TWO_PI * k * x / t))) * (t / m)
        out[k] = integral * norm / t if norm else integral
    return out


RAISED_EXACT = {0: Fraction(1, 2), 1: Fraction(1, 4), -1: Fraction(1, 4)}


def periodic(
    ctx: Context,
    norm: float = 1.0,
    total: float = 1.0,
    wrong_f: bool = False,
    plus: bool = False,
    two_pi: float = TWO_PI,
) -> Iterator[Check]:
    kmax = 12
    for t in (1.0, 7.0, 0.5):
        kern = ctx.instance(periodic_kernel, t)
        f = non_pd(t) if wrong_f else kern.f
        fname = "non-PD trig poly" if wrong_f else "raised cosine"
        alpha = periodic_coeffs(f, t, kmax, norm)
        for k, a in alpha.items():
            yield Check(f"{fname}, T={t}: Im α_{k} = 0", a.imag, "==", 0.0, 1e-12)
            yield Check(f"{fname}, T={t}: Re α_{k} ≥ 0", a.real, ">=", 0.0, 1e-12)
            if not wrong_f:
                yield Check(
                    f"{fname}, T={t}: α_{k} = exact value",
                    a.real,
                    "==",
                    float(RAISED_EXACT.get(k, Fraction(0))),
                    1e-12,
                )
        partial = sum(alpha.values())
        yield Check(f"{fname}, T={t}: Σ_(|k|≤{kmax}) α_k = 1", partial.real, "==", total, 1e-12)
        if not wrong_f:
            yield Check(
                "raised cosine: exact Σ α_k = f(0) = 1",
                float(sum(RAISED_EXACT.values())),
                "==",
                total,
            )
    # von Mises: infinitely many coefficients e^{−κ} I_k(κ) > 0
    for t, kappa in ((1.0, 2.0), (7.0, 0.5)):
        f = von_mises(t, kappa)
        alpha = periodic_coeffs(f, t, 30, norm)
        for k in range(-30, 31):
            exact = math.exp(-kappa) * bessel_i(k, kappa)
            yield Check(
                f"von Mises T={t}, κ={kappa}: α_{k} = e^(-κ)I_k(κ) ≥ 0",
                alpha[k].real,
                "==",
                exact,
                1e-12,
            )
            yield Check(
                f"von Mises T={t}, κ={kappa}: Im α_{k} = 0", alpha[k].imag, "==", 0.0, 1e-12
            )
        yield Check(
            f"von Mises T={t}, κ={kappa}: Σ_(|k|≤30) α_k = 1",
            sum(alpha.values()).real,
            "==",
            total,
            1e-12,
        )
    # ClockRoPE use: ξ_j ∈ {k/T} with probability α_k makes ĝ unbiased
    if not wrong_f:
        yield from periodic_unbiased(ctx, plus, two_pi)


def periodic_unbiased(ctx: Context, plus: bool, two_pi: float = TWO_PI) -> Iterator[Check]:
    samples = ctx.size(quick=20_000, full=400_000)
    for t, n, pm, pn in ((1.0, 4, 0.3, 0.05), (7.0, 3, 1.5, 4.0)):
        f = ctx.instance(periodic_kernel, t).f
        freqs = np.array([-1.0, 0.0, 1.0]) / t
        probs = np.array([0.25, 0.5, 0.25])
        rng = ctx.rng(4000 + n)
        q, k = query_key(rng, n)
        arg = pm + pn if plus else pm - pn
        want = float(q @ k) * float(f(arg))
        # exact expectation by enumerating the finite law of each ξ_j (linearity over j)
        exact = 0.0
        for j in range(n):
            qj, kj = np.zeros(2 * n), np.zeros(2 * n)
            qj[2 * j : 2 * j + 2], kj[2 * j : 2 * j + 2] = (
                q[2 * j : 2 * j + 2],
                k[2 * j : 2 * j + 2],
            )
            vals = rfr_estimator(np.tile(freqs[:, None], (1, n)), qj, kj, pm, pn, two_pi)
            exact += float(probs @ vals)
        yield Check(
            f"raised cosine T={t}: E ĝ (exact, ξ ∈ {{k/T}} ~ α) = qᵀk f(p_m − p_n), n={n}",
            exact,
            "==",
            want,
            1e-12,
        )
        g = rfr_estimator(rng.choice(freqs, size=(samples, n), p=probs), q, k, pm, pn, two_pi)
        yield Check(
            f"raised cosine T={t}: E ĝ (Monte Carlo) = qᵀk f(p_m − p_n), n={n}",
            float(g.mean()),
            "==",
            want,
            5 * float(g.std()) / math.sqrt(samples) + 1e-12,
        )


# ---------------------------------------------------------------- hypotheses

CONTINUOUS, INTEGRABLE = "Continuous f", "Integrable f"
PD, NORMALIZED = "IsPositiveDefiniteKernel f", "f 0 = 1"
EPS, T_POS, PERIODIC = "0 < ε", "0 < T", "Function.Periodic f T"
GRID = np.arange(-5000, 5001) / 1000  # includes ±1/2, 0 and the integers exactly
GRAM_POINTS = np.array([0.0, 0.8, 1.6, 2.4, -0.8, -1.6, 0.3, -2.9, 3.3, 1.1, -0.45, 2.05])


def kernel_evidence(ctx: Context, kern: Kernel) -> Iterator[Check]:
    f = kern.f
    jump = float(np.max(np.abs(f(GRID + 1e-7) - f(GRID))))
    yield hyp(
        CONTINUOUS, jump, "<=", 1e-5, detail="max |f(x+1e-7) − f(x)| on a 1e-3 grid of [-5, 5]"
    )
    # `IsPositiveDefiniteKernel` is a structure: its `even` field, then `re_sum_nonneg`
    even = float(np.max(np.abs(f(-GRID) - f(GRID))))
    yield hyp(PD, even, "==", 0.0, 1e-15, "field `even`: max |f(−x) − f(x)| on the grid")
    yield hyp(NORMALIZED, float(f(0.0)), "==", 1.0, 1e-15)
    rng = np.random.default_rng([ctx.seed, 77])
    points = np.concatenate([GRAM_POINTS, rng.uniform(-3, 3, 12)])
    if kern.T is not None:
        points = points * kern.T
    gram = f(points[:, None] - points[None, :])
    yield hyp(
        PD,
        float(np.linalg.eigvalsh(gram).min()),
        ">=",
        0.0,
        1e-12,
        f"field `re_sum_nonneg`: least eigenvalue of f(x_i − x_j) on {len(points)} points",
    )


def integrable_evidence(kern: Kernel) -> Iterator[Check]:
    def mass(half: float) -> float:
        x = np.linspace(-half, half, int(2000 * half) + 1)
        return float(np.trapezoid(np.abs(kern.f(x)), x))

    yield hyp(
        INTEGRABLE,
        abs(mass(80.0) - mass(40.0)),
        "<=",
        1e-6,
        detail="∫_{40<|x|<80} |f| (the tail vanishes)",
    )


def unbiased_evidence(ctx: Context, kern: Kernel) -> Iterator[Check]:
    yield from kernel_evidence(ctx, kern)
    yield from integrable_evidence(kern)


def case_evidence(ctx: Context, c: Case) -> Iterator[Check]:
    yield from unbiased_evidence(ctx, c.kernel)
    yield hyp(EPS, 0.0, "<", min(c.eps), detail="least ε tried")


def periodic_evidence(ctx: Context, kern: Kernel) -> Iterator[Check]:
    assert kern.T is not None
    yield hyp(T_POS, 0.0, "<", kern.T)
    yield from kernel_evidence(ctx, kern)
    shift = float(np.max(np.abs(kern.f(GRID + kern.T) - kern.f(GRID))))
    yield hyp(PERIODIC, shift, "==", 0.0, 1e-12, "max |f(x+T) − f(x)| on the grid")


def box(x: Any) -> Any:
    return (np.abs(np.asarray(x)) <= 0.5).astype(float)


def not_pd(x: Any) -> Any:
    x = np.asarray(x)
    return (1 - 4 * math.pi * x**2) * np.exp(-math.pi * x**2)


def _on_kernel(patch: dict[str, Any]) -> Callable[[Any], Any]:
    """A kernel patch applied to a Kernel, or to the kernel of a concentration Case."""

    def apply(instance: Any) -> Any:
        if isinstance(instance, Case):
            return replace(instance, kernel=replace(instance.kernel, **patch))
        return replace(instance, **patch)

    return apply


KERNEL_VIOLATIONS: dict[str, Patch] = {
    CONTINUOUS: _on_kernel({"f": box}),
    NORMALIZED: _on_kernel({"f": lambda x: 2 * gauss_f(x)}),
    PD: _on_kernel({"f": not_pd}),
}
BASE = (CONTINUOUS, INTEGRABLE, PD, NORMALIZED)


def unbiased_nonvacuity() -> NonVacuity:
    return NonVacuity(
        BASE,
        kernel,
        ("gaussian",),
        unbiased_evidence,
        {**KERNEL_VIOLATIONS, INTEGRABLE: _on_kernel({"f": raised_cosine(1.0)})},
    )


CONSTANTS_MEAN = (Constant("two_pi", TWO_PI, "2π in the rotation angle 2πξp"),)

CLAIMS = [
    Claim(
        "unbiasedness",
        "Gaussian and Laplace profiles: τ = ∫f e^{-i2πξx} is real, ≥ 0, ∫τ = 1 (quadrature), and "
        "the Monte Carlo mean of ĝ with ξ_j ~ τ i.i.d. is qᵀk f(p_m − p_n) within 5 s.e.",
        unbiasedness,
        {
            "mean is qᵀk f(p_m + p_n)": {"plus": True},
            "angular-frequency convention τ = ∫f e^{-iξx}": {"convention": "angular"},
        },
        unbiased_nonvacuity(),
        CONSTANTS_MEAN,
    ),
    Claim(
        "periodic-herglotz",
        "raised cosine (T = 1, 7, 1/2) and von Mises profiles: α_k by quadrature are real, ≥ 0, "
        "equal the exact values, partial sums = 1; frequencies k/T ~ α make ĝ unbiased",
        periodic,
        {
            "α_k without the 1/T factor": {"norm": 0.0},
            "PD hypothesis dropped (α_±2 = −1/4)": {"wrong_f": True},
            "discrete-law mean is qᵀk f(p_m + p_n)": {"plus": True},
        },
        NonVacuity(
            (T_POS, CONTINUOUS, PD, PERIODIC, NORMALIZED),
            periodic_kernel,
            (1.0,),
            periodic_evidence,
            {**KERNEL_VIOLATIONS, T_POS: {"T": 0.0}, PERIODIC: {"T": 0.7}},
        ),
        (
            Constant("norm", 1.0, "1 in α_k = (1/T)∫_0^T f(x)e^(-i2πkx/T)dx"),
            Constant("total", 1.0, "1 = f(0) in Σ_k α_k = 1"),
            *CONSTANTS_MEAN,
        ),
    ),
    Claim(
        "goal",
        "Gaussian and Laplace profiles, n = 2, 8: empirical P(|ĝ/n − qᵀk f(p_m − p_n)/n| ≥ ε) ≤ "
        "2exp(−ε²(2n)²/(8Σ_j(‖q⁽ʲ⁾‖‖k⁽ʲ⁾‖)²)) + 5 s.e. at ε where the bound is 1.5, 0.5, 0.1, "
        "0.01; n = 0 and q = 0 (empty event)",
        concentration,
        {"(2n)² replaced by (2n)⁴": {"power": 4}, "constant 8 replaced by 1/8": {"const": 1 / 8}},
        NonVacuity(
            (*BASE, EPS),
            case,
            ("gaussian", 0),
            case_evidence,
            {
                **KERNEL_VIOLATIONS,
                INTEGRABLE: _on_kernel({"f": raised_cosine(1.0)}),
                EPS: {"eps": [0.0]},
            },
        ),
        (
            Constant("prefactor", 2.0, "2 in 2exp(…)"),
            Constant("const", 8.0, "8 in exp(−ε²(2n)²/(8Σ…))"),
            Constant("two", 2.0, "2 in (2n)²"),
        ),
        notes="McDiarmid's bound is far from tight here: see the README's measured figures",
    ),
]
