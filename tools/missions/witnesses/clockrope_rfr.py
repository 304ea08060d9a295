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
  of the finite law and by Monte Carlo. Positive definiteness of the profiles (hypothesis) is
  checked on random Gram matrices.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import numpy as np

from missions.witness import Check, Claim, Context

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


def rfr_estimator(xi: np.ndarray, q: np.ndarray, k: np.ndarray, pm: float, pn: float) -> np.ndarray:
    """ĝ = Σ_j (R(2πξ_j p_m) q⁽ʲ⁾) ⬝ (R(2πξ_j p_n) k⁽ʲ⁾) for a batch ξ of shape (S, n)."""
    rq = np.einsum("snab,nb->sna", rotation(TWO_PI * xi * pm), feature_pairs(q))
    rk = np.einsum("snab,nb->sna", rotation(TWO_PI * xi * pn), feature_pairs(k))
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


def density_checks(profiles: dict[str, Any]) -> Iterator[Check]:
    for name, (f, tau, _) in profiles.items():
        yield Check(f"{name}: f(0) = 1", float(f(0.0)), "==", 1.0, 1e-15)
        for xi in (0.0, 0.3, 1.0):
            ft = fourier_quadrature(f, xi, 40.0, 1e-3)
            yield Check(
                f"{name}: Re ∫f e^(-i2πξx) = τ(ξ), ξ={xi}", ft.real, "==", float(tau(xi)), 1e-5
            )
            yield Check(f"{name}: Im ∫f e^(-i2πξx) = 0, ξ={xi}", ft.imag, "==", 0.0, 1e-9)
        grid = np.linspace(-200.0, 200.0, 400_001)
        t = tau(grid)
        yield Check(f"{name}: min τ on [-200, 200] ≥ 0", float(t.min()), ">=", 0.0)
        mass = float(np.trapezoid(t, grid))
        # tail of τ outside [−A, A]: ≤ 1/(π² A) for the Cauchy density, negligible for Gaussian
        tail = 1.0 / (math.pi**2 * 200.0)
        yield Check(f"{name}: ∫τ = 1 (±tail {tail:.1e})", mass, "==", 1.0, tail + 1e-6)


def mean_checks(ctx: Context, profiles: dict[str, Any], plus: bool = False) -> Iterator[Check]:
    samples = ctx.size(quick=20_000, full=400_000)
    for p_index, (name, (f, _, sample)) in enumerate(profiles.items()):
        for i, (n, pm, pn) in enumerate(INSTANCES):
            rng = ctx.rng(100 * p_index + i)
            q, k = query_key(rng, n)
            g = rfr_estimator(sample(rng, (samples, n)), q, k, pm, pn)
            se = float(g.std()) / math.sqrt(samples)
            arg = pm + pn if plus else pm - pn
            want = float(q @ k) * float(f(arg))
            yield Check(
                f"{name}: E ĝ = qᵀk f(p_m − p_n), n={n}, p_m={pm}, p_n={pn} ({samples} samples)",
                float(g.mean()),
                "==",
                want,
                5 * se + 1e-9,
            )


def unbiasedness(
    ctx: Context, profiles: dict[str, Any] = PROFILES, plus: bool = False
) -> Iterator[Check]:
    yield from density_checks(profiles)
    yield from mean_checks(ctx, profiles, plus)


# ---------------------------------------------------------------- Proposition 3.2


def printed_bound(eps: float, n: int, s: float, power: int = 2, const: float = 8.0) -> float:
    """2 exp(−ε² (2n)^power / (const · S)), with Lean's x/0 = 0 when S = 0."""
    den = const * s
    return 2.0 * math.exp(-(eps**2 * (2 * n) ** power / den if den != 0 else 0.0))


def concentration(ctx: Context, power: int = 2, const: float = 8.0) -> Iterator[Check]:
    samples = ctx.size(quick=20_000, full=400_000)
    for p_index, (name, (f, _, sample)) in enumerate(PROFILES.items()):
        for n, pm, pn in ((2, 1.0, 0.0), (8, 0.3, -0.7)):
            rng = ctx.rng(1000 + 100 * p_index + n)
            q, k = query_key(rng, n)
            s = pair_norm_sum(q, k)
            g = rfr_estimator(sample(rng, (samples, n)), q, k, pm, pn)
            dev = np.abs(g / n - float(q @ k) * float(f(pm - pn)) / n)
            for target in (1.5, 0.5, 0.1, 0.01):
                # ε at which the printed bound (true constants) equals `target`
                eps = math.sqrt(8.0 * s * math.log(2.0 / target)) / (2 * n)
                p = float(np.mean(dev >= eps))
                se = math.sqrt(max(p * (1 - p), 1.0 / samples) / samples)
                yield Check(
                    f"{name}: P(|ĝ/n − qᵀk f/n| ≥ ε) ≤ bound, n={n}, p_m={pm}, p_n={pn}, "
                    f"ε={eps:.3f} ({samples} samples)",
                    p,
                    "<=",
                    printed_bound(eps, n, s, power, const),
                    5 * se,
                )
    # degenerate cases: the event is empty (n = 0; q = 0 makes ĝ = qᵀk = 0)
    yield Check(
        "n = 0: P(0 ≥ ε) = 0 ≤ bound (= 2 with x/0 = 0)", 0.0, "<=", printed_bound(0.5, 0, 0.0)
    )
    rng = ctx.rng(1999)
    k0 = rng.normal(size=8)
    g0 = rfr_estimator(gauss_sample(rng, (100, 4)), np.zeros(8), k0, 0.3, 0.1)
    p0 = float(np.mean(np.abs(g0 / 4) >= 0.5))
    yield Check(
        "q = 0: P = 0 ≤ bound (= 2)",
        p0,
        "<=",
        printed_bound(0.5, 4, pair_norm_sum(np.zeros(8), k0)),
    )


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
    f: Callable[[Any], Any], t: float, kmax: int, normalize: bool = True
) -> dict[int, complex]:
    """α_k = (1/T) ∫_0^T f(x) e^{−i2πkx/T} dx by the periodic trapezoid rule (M = 512 nodes:
    exact for trigonometric polynomials of degree < 512 − kmax, spectrally accurate otherwise)."""
    m = 512
    x = np.arange(m) * (t / m)
    fx = f(x)
    out = {}
    for k in range(-kmax, kmax + 1):
        integral = complex(np.sum(fx * np.exp(-1j * TWO_PI * k * x / t))) * (t / m)
        out[k] = integral / t if normalize else integral
    return out


RAISED_EXACT = {0: Fraction(1, 2), 1: Fraction(1, 4), -1: Fraction(1, 4)}


def periodic(
    ctx: Context, normalize: bool = True, wrong_f: bool = False, plus: bool = False
) -> Iterator[Check]:
    kmax = 12
    for t in (1.0, 7.0, 0.5):
        f = non_pd(t) if wrong_f else raised_cosine(t)
        fname = "non-PD trig poly" if wrong_f else "raised cosine"
        # hypotheses: f(0) = 1, symmetric, periodic, positive definite (random Gram matrices)
        rng = ctx.rng(3000 + int(10 * t))
        pts = rng.uniform(-3 * t, 3 * t, 12)
        yield Check(f"{fname}, T={t}: f(0) = 1", float(f(0.0)), "==", 1.0, 1e-15)
        yield Check(
            f"{fname}, T={t}: f(-x) = f(x), f(x+T) = f(x)",
            float(np.max(np.abs(f(-pts) - f(pts)) + np.abs(f(pts + t) - f(pts)))),
            "==",
            0.0,
            1e-12,
        )
        if not wrong_f:
            gram = f(pts[:, None] - pts[None, :])
            yield Check(
                f"{fname}, T={t}: Gram f(x_i − x_j) ⪰ 0",
                float(np.linalg.eigvalsh(gram).min()),
                ">=",
                0.0,
                1e-12,
            )
        alpha = periodic_coeffs(f, t, kmax, normalize)
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
        total = sum(alpha.values())
        yield Check(f"{fname}, T={t}: Σ_(|k|≤{kmax}) α_k = 1", total.real, "==", 1.0, 1e-12)
        if not wrong_f:
            yield Check(
                "raised cosine: exact Σ α_k = f(0) = 1",
                sum(RAISED_EXACT.values()),
                "==",
                Fraction(1),
            )
    # von Mises: infinitely many coefficients e^{−κ} I_k(κ) > 0
    for t, kappa in ((1.0, 2.0), (7.0, 0.5)):
        f = von_mises(t, kappa)
        alpha = periodic_coeffs(f, t, 30, normalize)
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
            1.0,
            1e-12,
        )
    # ClockRoPE use: ξ_j ∈ {k/T} with probability α_k makes ĝ unbiased
    if not wrong_f:
        yield from periodic_unbiased(ctx, plus)


def periodic_unbiased(ctx: Context, plus: bool) -> Iterator[Check]:
    samples = ctx.size(quick=20_000, full=400_000)
    for t, n, pm, pn in ((1.0, 4, 0.3, 0.05), (7.0, 3, 1.5, 4.0)):
        f = raised_cosine(t)
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
            vals = rfr_estimator(np.tile(freqs[:, None], (1, n)), qj, kj, pm, pn)
            exact += float(probs @ vals)
        yield Check(
            f"raised cosine T={t}: E ĝ (exact, ξ ∈ {{k/T}} ~ α) = qᵀk f(p_m − p_n), n={n}",
            exact,
            "==",
            want,
            1e-12,
        )
        g = rfr_estimator(rng.choice(freqs, size=(samples, n), p=probs), q, k, pm, pn)
        yield Check(
            f"raised cosine T={t}: E ĝ (Monte Carlo) = qᵀk f(p_m − p_n), n={n}",
            float(g.mean()),
            "==",
            want,
            5 * float(g.std()) / math.sqrt(samples) + 1e-12,
        )


CLAIMS = [
    Claim(
        "unbiasedness",
        "Gaussian and Laplace profiles: τ = ∫f e^{-i2πξx} is real, ≥ 0, ∫τ = 1 (quadrature), and "
        "the Monte Carlo mean of ĝ with ξ_j ~ τ i.i.d. is qᵀk f(p_m − p_n) within 5 s.e.",
        lambda ctx: unbiasedness(ctx),
        {
            "mean is qᵀk f(p_m + p_n)": lambda ctx: mean_checks(ctx, PROFILES, plus=True),
            "angular-frequency convention τ = ∫f e^{-iξx}": lambda ctx: unbiasedness(
                ctx, WRONG_CONVENTION
            ),
        },
    ),
    Claim(
        "periodic-herglotz",
        "raised cosine (T = 1, 7, 1/2) and von Mises profiles: α_k by quadrature are real, ≥ 0, "
        "equal the exact values, partial sums = 1; frequencies k/T ~ α make ĝ unbiased",
        lambda ctx: periodic(ctx),
        {
            "α_k without the 1/T factor": lambda ctx: periodic(ctx, normalize=False),
            "PD hypothesis dropped (α_±2 = −1/4)": lambda ctx: periodic(ctx, wrong_f=True),
            "discrete-law mean is qᵀk f(p_m + p_n)": lambda ctx: periodic_unbiased(ctx, plus=True),
        },
    ),
    Claim(
        "goal",
        "Gaussian and Laplace profiles, n = 2, 8: empirical P(|ĝ/n − qᵀk f(p_m − p_n)/n| ≥ ε) ≤ "
        "2exp(−ε²(2n)²/(8Σ_j(‖q⁽ʲ⁾‖‖k⁽ʲ⁾‖)²)) + 5 s.e. at ε where the bound is 1.5, 0.5, 0.1, "
        "0.01; n = 0 and q = 0 (empty event)",
        lambda ctx: concentration(ctx),
        {
            "(2n)² replaced by (2n)⁴": lambda ctx: concentration(ctx, power=4),
            "constant 8 replaced by 1/8": lambda ctx: concentration(ctx, const=1 / 8),
        },
    ),
]
