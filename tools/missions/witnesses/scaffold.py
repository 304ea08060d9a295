"""Witness for ``scaffold``: SCAFFOLD with client sampling (Option II) simulated on small problems.

Analytic milestones (pointwise inequalities on random points):

* ``gradient-growth``: exactly (``Fraction``) for convex quadratic clients
  ``fᵢ(x) = ½(x - bᵢ)ᵀAᵢ(x - bᵢ)`` on ℝ² with rational eigenvalues (``Aᵢ = Qᵢ diag Qᵢᵀ``, ``Qᵢ`` a
  rational rotation), ``β = max λ_max(Aᵢ)`` and the exact minimizer ``x⋆`` of ``f``; one instance
  has every ``Aᵢ = βI`` (the inequality is then an equality). In floating point (slack 1e-9
  relative) for convex logistic-plus-ridge clients ``Σⱼ log(1 + e^{aᵢⱼᵀx}) + (λ/2)‖x - bᵢ‖²`` with
  ``β = λ + ¼ max λ_max(Σⱼ aᵢⱼaᵢⱼᵀ)`` and ``x⋆`` by Newton.
* ``perturbed-strong-convexity``: exactly for rational quadratic clients with eigenvalues in
  ``[μ, β]`` (including ``μ = β`` and ``μ = 0``), also at points with ``y = x`` and ``z = x``; in
  floating point for ``(μ/2)‖x‖²`` plus logistic terms.

Convergence (``Option II``, the tick/round conventions of ``Formal.Scaffold.Defs``): every client
computes its virtual local path ``y_{i,k+1} = y_{i,k} - ηl (g_{i,k} - c_i + c)`` with fresh Gaussian
oracle noise ``N(0, σ²/d I)`` (so ``E‖g - ∇fᵢ‖² = σ²`` exactly, independent across clients), then a
uniform subset ``A_r`` of size ``S`` is drawn, ``x^{r+1} = x^r + (ηg/S) Σ_{i∈A_r} (y_{i,K} - x^r)``
and the sampled clients' controls become ``K⁻¹ Σ_k g_{i,k}``. Outputs are ``x^0, …, x^{T-1}``.
Expectations are means over independent runs; ``slack`` = 5 standard errors. The bounds are
checked for several horizons ``T`` (prefixes of one simulation), with ``h = K ηl ηg`` at its
largest allowed value.

* ``convex-finite-round-convergence``: ``W_T⁻¹ Σ_{r<T} w_r E[f(x^r) - f(x⋆)] ≤ V₀/(h W_T) +
  (12hσ²/(KS))(1 + S/ηg²)``, ``w_r = (1 - μh/2)^{-(r+1)}``, on quadratic clients
  ``½(x - bᵢ)ᵀAᵢ(x - bᵢ)`` (``β = max λ_max(Aᵢ)``, ``μ = min λ_min(Aᵢ)``, ``x⋆`` solved exactly):
  ``floor`` (``Aᵢ = I``, ``x⁰ = x⋆``, ``cᵢ⁰ = ∇fᵢ(x⋆)``, so ``V₀ = 0``; ``N = 4``, ``S = 2``,
  ``K = 2``, ``ηg = 4``, ``σ = 1``, T ≤ 240: the weighted gap reaches about 1/40 of the bound),
  ``hetero`` (diagonal ``Aᵢ``, far ``x⁰``, arbitrary deterministic ``cᵢ⁰``; ``N = 5``, ``S = 3``,
  ``K = 3``, ``σ = 1/2``) and ``mu0`` (``μ = 0``: one client is not strongly convex; ``S = N = 3``,
  ``K = 1``, ``ηg = 2``, zero noise, ``cᵢ⁰ = 0``).
* ``nonconvex-finite-round-convergence``: ``T⁻¹ Σ_{r<T} E‖∇f(x^r)‖² ≤ 14F₀/(hT) +
  (70βhσ²/(KS))(1 + S/ηg²)`` for nonconvex clients ``Σⱼ pᵢ cos(xⱼ + φᵢⱼ) + (q/2)‖x - bᵢ‖²``
  (``N = 4``, ``β = q + max pᵢ``; ``f`` is separable, so ``f_lower`` is its global minimum, by grid
  and Newton per coordinate, minus 1e-12), with the warm start ``cᵢ⁰ = K⁻¹ Σ_k gᵢ(x⁰)`` (``K``
  fresh oracle calls at ``x⁰``) and ``h = (S/N)^{2/3}/(24β)``: ``far`` (``S = 2``, ``K = 2``,
  ``ηg = 2``, ``σ = 1``), ``floor`` (``x⁰`` the global minimizer, ``S = 1``, ``K = 1``, ``ηg = 4``,
  ``σ = 1``, T ≤ 400: about 1/160 of the bound) and ``noiseless`` (``S = N``, ``K = 3``, ``σ = 0``).
* ``goal``: both sets of checks.

Also ``ctrl`` (convex; ``x⁰ = x⋆``, no noise, wrong initial controls, one client per round: the
control error alone moves the server) and ``stationary`` (nonconvex claim on β-quadratic clients
at their minimum, one sampled client, ``ηg = 100``, 1200 rounds: the stationary ``E‖∇f‖²``).

Non-vacuity: the ``hetero`` run (convex) and the ``far`` run (nonconvex), with every hypothesis
checked on them (strong convexity through the eigenvalues of ``Aᵢ - μI``, the minimizer, the
initial controls the run was given, the warm start, the oracle by Monte Carlo, the step
conditions); the exact milestones use the first exact problem.

Strength: the SCAFFOLD bounds have large constants and the simulated quantities sit far below
them: every constant of the finite-round bounds (12, 9, 14, 70) is caught at ÷100 but not at
÷10. This is the nature of the bounds, not of the instances: the stationary gap of SGD-like
noise is about ``hσ²/(4KS)`` against ``12hσ²/(KS)``, gradient descent consumes ``F₀`` at rate
``h‖∇f‖²`` against ``14F₀/(hT)``, the stationary ``E‖∇f‖²`` is at most about
``βhσ²/(KS)`` against ``70βhσ²/(KS)``, and wrong controls cost at most about 1/60 of
``(9Nh²/S)C₀/(hW_T)`` on the instances built here. The wrong variants therefore change
constants by factors the simulations can refute (12 → 0.12, 70 → 0.07, 14 → 0.014) or drop
hypotheses: the ``(9Nh²/S)C₀`` part of ``V₀`` (zero noise, ``x⁰ = x⋆``, bad initial controls: the
bound becomes 0 while the gap is positive) and the step conditions (a 405× or 240× larger ``h``
with ``ηg = 20`` diverges).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from missions.witness import Check, Claim, Constant, Context, NonVacuity, Structural, hyp

F = Fraction
V2 = list[Fraction]
M2 = list[list[Fraction]]

# ---------------------------------------------------------------- exact quadratic clients on ℝ²


def rot(t: Fraction) -> list[list[Fraction]]:
    """A rational rotation of the plane, from the rational parameter t = tan(θ/2)."""
    c, s = (1 - t * t) / (1 + t * t), 2 * t / (1 + t * t)
    return [[c, -s], [s, c]]


def sym(t: Fraction, l1: Fraction, l2: Fraction) -> list[list[Fraction]]:
    """Q diag(l1, l2) Qᵀ: a rational symmetric matrix with eigenvalues l1, l2."""
    q = rot(t)
    return [[q[i][0] * l1 * q[j][0] + q[i][1] * l2 * q[j][1] for j in range(2)] for i in range(2)]


def mv(a: M2, x: V2) -> V2:
    return [a[0][0] * x[0] + a[0][1] * x[1], a[1][0] * x[0] + a[1][1] * x[1]]


def dot(x: V2, y: V2) -> Fraction:
    return x[0] * y[0] + x[1] * y[1]


def sub(x: V2, y: V2) -> V2:
    return [x[0] - y[0], x[1] - y[1]]


def solve2(a: M2, r: V2) -> V2:
    det = a[0][0] * a[1][1] - a[0][1] * a[1][0]
    return [(a[1][1] * r[0] - a[0][1] * r[1]) / det, (a[0][0] * r[1] - a[1][0] * r[0]) / det]


class ExactQuad:
    """Rational quadratic clients fᵢ(x) = ½(x - bᵢ)ᵀAᵢ(x - bᵢ) + eᵢ on ℝ² with known eigenvalues."""

    def __init__(
        self,
        label: str,
        specs: list[tuple[Fraction, Fraction, Fraction]],
        b: list[V2],
        e: list[Fraction] | None = None,
    ) -> None:
        self.label = label
        self.A = [sym(t, l1, l2) for t, l1, l2 in specs]
        self.eig = [(min(l1, l2), max(l1, l2)) for _, l1, l2 in specs]
        self.b = b
        self.e = e or [F(0)] * len(b)
        self.N = len(b)
        self.beta = max(h for _, h in self.eig)
        self.mu = min(lo for lo, _ in self.eig)

    def fi(self, i: int, x: V2) -> Fraction:
        r = sub(x, self.b[i])
        return dot(r, mv(self.A[i], r)) / 2 + self.e[i]

    def gi(self, i: int, x: V2) -> V2:
        return mv(self.A[i], sub(x, self.b[i]))

    def f(self, x: V2) -> Fraction:
        return sum((self.fi(i, x) for i in range(self.N)), F(0)) / self.N

    def xstar(self) -> V2:
        S = [[sum((a[i][j] for a in self.A), F(0)) for j in range(2)] for i in range(2)]
        r = [
            sum((mv(a, b)[k] for a, b in zip(self.A, self.b, strict=False)), F(0)) for k in range(2)
        ]
        return solve2(S, r)


def rq(rng: np.random.Generator, lo: int = -6, hi: int = 7, den: int = 2) -> Fraction:
    return F(int(rng.integers(lo, hi)), den)


def exact_instances(seed: int) -> list[ExactQuad]:
    rng = np.random.default_rng([seed, 1])
    out = []
    for N, kind in ((3, "generic"), (4, "generic"), (2, "βI"), (3, "μ=0 client")):
        specs = []
        for i in range(N):
            t = F(int(rng.integers(-4, 5)), int(rng.integers(1, 5)))
            if kind == "βI":
                specs.append((t, F(3), F(3)))
            elif kind == "μ=0 client" and i == 0:
                specs.append((t, F(0), F(2)))
            else:
                specs.append((t, F(int(rng.integers(1, 9)), 4), F(int(rng.integers(1, 9)), 2)))
        b = [[rq(rng), rq(rng)] for _ in range(N)]
        e = [rq(rng) for _ in range(N)]
        out.append(ExactQuad(f"{N} quadratic clients ({kind})", specs, b, e))
    return out


# ---------------------------------------------------------------- smooth convex (float) clients


class Logistic:
    """fᵢ(x) = Σⱼ log(1 + exp(aᵢⱼᵀx)) + (lam/2)‖x - bᵢ‖² (convex, lam-strongly convex)."""

    def __init__(self, rng: np.random.Generator, N: int, d: int, J: int, lam: float):
        self.a = rng.normal(size=(N, J, d))
        self.b = rng.normal(size=(N, d))
        self.lam, self.N, self.d = lam, N, d
        self.beta = lam + 0.25 * max(float(np.linalg.eigvalsh(ai.T @ ai)[-1]) for ai in self.a)
        x = np.zeros(d)
        for _ in range(60):  # Newton on f = N⁻¹ Σ fᵢ
            s = 1 / (1 + np.exp(-np.einsum("njd,d->nj", self.a, x)))
            g = (np.einsum("nj,njd->d", s, self.a) + lam * np.sum(x - self.b, axis=0)) / N
            H = (np.einsum("nj,njd,nje->de", s * (1 - s), self.a, self.a) + lam * N * np.eye(d)) / N
            x = x - np.linalg.solve(H, g)
        self.xstar = x

    def fi(self, x: np.ndarray) -> np.ndarray:  # x (..., d) -> (..., N)
        z = np.einsum("njd,...d->...nj", self.a, x)
        return np.sum(np.logaddexp(0, z), axis=-1) + 0.5 * self.lam * np.sum(
            (x[..., None, :] - self.b) ** 2, axis=-1
        )

    def gi(self, x: np.ndarray) -> np.ndarray:  # (..., N, d)
        s = 1 / (1 + np.exp(-np.einsum("njd,...d->...nj", self.a, x)))
        return np.einsum("...nj,njd->...nd", s, self.a) + self.lam * (x[..., None, :] - self.b)


# ---------------------------------------------------------------- SCAFFOLD simulation


class Clients:
    """Client objectives for the simulation: quadratic (``A``, ``b``) or cos-plus-quadratic."""

    def __init__(
        self, name: str, b: Any, A: Any = None, p: Any = None, phi: Any = None, q: float = 0.0
    ) -> None:
        self.name = name
        self.b = np.asarray(b, float)
        self.N, self.d = self.b.shape
        self.A: Any = None if A is None else np.asarray(A, float)
        self.p: Any = None if p is None else np.asarray(p, float)
        self.phi: Any = None if phi is None else np.asarray(phi, float)
        self.q = q
        if self.A is not None:
            ev = [np.linalg.eigvalsh(a) for a in self.A]
            self.beta, self.mu = max(float(e[-1]) for e in ev), min(float(e[0]) for e in ev)
            self.mu = max(self.mu, 0.0)
            Abar = self.A.mean(0)
            self.xstar = np.linalg.solve(Abar, np.einsum("nde,ne->d", self.A, self.b) / self.N)
            self.flow = float(self.f(self.xstar))
        else:
            self.beta, self.mu = q + float(np.max(np.asarray(p, float))), float("nan")
            self.xstar, self.flow = self.global_min()

    def grads(self, y: np.ndarray) -> np.ndarray:
        """∇fᵢ at y (..., N, d), client i at y[..., i, :]."""
        if self.A is not None:
            return np.einsum("...nd,nde->...ne", y - self.b, self.A)
        return -self.p[:, None] * np.sin(y + self.phi) + self.q * (y - self.b)

    def f(self, x: np.ndarray) -> np.ndarray:
        e = x[..., None, :] - self.b
        if self.A is not None:
            return 0.5 * np.einsum("...nd,nde,...ne->...", e, self.A, e) / self.N
        return np.mean(
            np.sum(self.p[:, None] * np.cos(x[..., None, :] + self.phi) + 0.5 * self.q * e**2, -1),
            -1,
        )

    def gradf(self, x: np.ndarray) -> np.ndarray:
        return np.mean(
            self.grads(np.broadcast_to(x[..., None, :], (*x.shape[:-1], self.N, self.d))), axis=-2
        )

    def global_min(self) -> tuple[np.ndarray, float]:
        """f is separable: Σⱼ [Pⱼ cos(xⱼ + Φⱼ) + (q/2)(xⱼ - b̄ⱼ)²] + (q/2) mean‖bᵢ - b̄‖²."""
        bbar = self.b.mean(0)
        const = 0.5 * self.q * float(np.mean(np.sum((self.b - bbar) ** 2, 1)))
        roots: list[float] = []
        for j in range(self.d):
            z = np.mean(self.p * np.exp(1j * self.phi[:, j]))
            P, Phi = float(abs(z)), float(np.angle(z))
            span = abs(bbar[j]) + 2 * P / self.q + 10
            x = np.linspace(bbar[j] - span, bbar[j] + span, 200_001)
            x0 = float(x[np.argmin(P * np.cos(x + Phi) + 0.5 * self.q * (x - bbar[j]) ** 2)])
            for _ in range(50):
                x0 -= (-P * np.sin(x0 + Phi) + self.q * (x0 - bbar[j])) / (
                    -P * np.cos(x0 + Phi) + self.q
                )
            roots.append(x0)
        xs = np.array(roots)
        del const  # f is evaluated directly at the minimizer
        return xs, float(self.f(xs)) - 1e-12


def warm_start(
    cl: Clients, x0: Any, K: int, noise: float, R: int, rng: np.random.Generator, divisor: float
) -> tuple[np.ndarray, np.ndarray]:
    """Warm-start ticks 0..K-1: every client queries K fresh gradients at x⁰; the controls are
    their sum divided by ``divisor`` (K: their average). Returns (controls, draws)."""
    N, d = cl.N, cl.d
    xr = np.repeat(np.repeat(np.asarray(x0, float)[None], R, 0)[:, None, :], N, 1)
    draws = np.empty((K, R, N, d))
    for k in range(K):
        draws[k] = cl.grads(xr) + noise * rng.standard_normal((R, N, d))
    with np.errstate(all="ignore"):
        return draws.sum(0) / divisor, draws


def simulate(
    cl: Clients,
    x0: Any,
    c0: Any,
    K: int,
    S: int,
    etal: float,
    etag: float,
    sigma: float,
    T: int,
    R: int,
    rng: np.random.Generator,
    warm: bool = False,
) -> np.ndarray:
    """R independent SCAFFOLD runs; returns the server models x^0, …, x^{T-1}, shape (T, R, d)."""
    N, d = cl.N, cl.d
    x = np.repeat(np.asarray(x0, float)[None], R, 0)
    noise = sigma / np.sqrt(d)
    if warm:
        c, _ = warm_start(cl, x0, K, noise, R, rng, K)
    else:
        c = np.repeat(np.asarray(c0, float)[None], R, 0)
    xs = np.empty((T, R, d))
    with np.errstate(all="ignore"):
        for r in range(T):
            xs[r] = x
            corr = c.mean(1, keepdims=True) - c  # c - c_i
            y = np.repeat(x[:, None, :], N, 1)  # y_{i,0} = x^r, all clients (virtual paths)
            gsum = np.zeros_like(y)
            for _ in range(K):
                g = cl.grads(y) + noise * rng.standard_normal((R, N, d))
                gsum += g
                y = y - etal * (g + corr)
            u = rng.random((R, N))  # A_r: the S smallest of N uniforms, a uniform S-subset
            mask = u <= np.partition(u, S - 1, axis=1)[:, S - 1 : S]
            x = x + (etag / S) * np.sum(mask[:, :, None] * (y - x[:, None, :]), axis=1)
            c = np.where(mask[:, :, None], gsum / K, c)
    return xs


def quad_clients(seed: int) -> dict[str, Clients]:
    rng = np.random.default_rng([seed, 3])
    N = 4
    iso = Clients("iso N=4", 3 * rng.normal(size=(N, 2)), A=np.repeat(np.eye(2)[None], N, 0))
    het = Clients(
        "hetero N=5",
        3 * rng.normal(size=(5, 2)),
        A=np.array([np.diag(rng.uniform(0.3, 2.0, 2)) for _ in range(5)]),
    )
    mu0 = Clients(
        "μ=0 N=3",
        2 * rng.normal(size=(3, 2)),
        A=np.array([np.diag([1.0, 0.0]), np.diag([0.0, 1.0]), [[0.5, 0.25], [0.25, 0.5]]]),
    )
    return {"iso": iso, "het": het, "mu0": mu0}


def quad_nc_clients() -> Clients:
    """Eight identical clients ½‖x‖² on ℝ² (β = 1): smooth, no convexity needed by the claim."""
    return Clients("quadratic N=8, A = I", np.zeros((8, 2)), A=np.repeat(np.eye(2)[None], 8, 0))


def nc_clients(seed: int) -> Clients:
    rng = np.random.default_rng([seed, 4])
    N, d = 4, 2
    return Clients(
        "cos+quad N=4",
        2 * rng.normal(size=(N, d)),
        p=rng.uniform(0.5, 1.5, N),
        phi=rng.uniform(0, 2 * np.pi, (N, d)),
        q=0.5,
    )


# Convex configurations: (name, clients, K, S, ηg, σ, start, controls, T, h/h_max, μ used)
CONVEX: dict[str, dict[str, Any]] = {
    "floor": dict(
        cl="iso", K=2, S=2, etag=4.0, sigma=1.0, start="opt", ctrl="opt", T=240, hf=1.0, mu="min"
    ),
    "hetero": dict(
        cl="het", K=3, S=3, etag=1.0, sigma=0.5, start="far", ctrl="random", T=60, hf=1.0, mu="min"
    ),
    "mu0": dict(
        cl="mu0", K=1, S=3, etag=2.0, sigma=0.0, start="far", ctrl="zero", T=60, hf=1.0, mu="zero"
    ),
    # x⁰ = x⋆, no noise, wrong initial controls, one client per round: the control error alone
    # moves the server, and the gap reaches about 1/60 of the (9Nh²/S)C₀ part of V₀
    "ctrl": dict(
        cl="het", K=1, S=1, etag=1.0, sigma=0.0, start="opt", ctrl="bad", T=400, hf=1.0, mu="zero"
    ),
    "badctrl": dict(
        cl="het", K=2, S=2, etag=1.0, sigma=0.0, start="opt", ctrl="bad", T=40, hf=1.0, mu="min"
    ),
    "bigstep": dict(
        cl="het", K=1, S=5, etag=20.0, sigma=0.5, start="far", ctrl="opt", T=30, hf=405.0, mu="min"
    ),
}
NONCONVEX: dict[str, dict[str, Any]] = {
    "far": dict(K=2, S=2, etag=2.0, sigma=1.0, start="far", T=80, hf=1.0),
    "floor": dict(K=1, S=1, etag=4.0, sigma=1.0, start="opt", T=400, hf=1.0),
    "noiseless": dict(K=3, S=4, etag=1.5, sigma=0.0, start="far", T=60, hf=1.0),
    "bigstep": dict(K=1, S=4, etag=20.0, sigma=0.5, start="far", T=30, hf=240.0),
    # β-quadratic clients at their minimum, one sampled client, a large ηg: the stationary
    # E‖∇f‖² is the largest fraction of the noise term (about 1/75) any instance reached
    "stationary": dict(cl="quad", K=1, S=1, etag=100.0, sigma=1.0, start="opt", T=1200, hf=1.0),
}


@lru_cache(maxsize=32)
def convex_run(seed: int, name: str, R: int) -> tuple[Any, ...]:
    cfg = CONVEX[name]
    cl = quad_clients(seed)[cfg["cl"]]
    rng = np.random.default_rng([seed, 10, list(CONVEX).index(name)])
    K, S, etag, sigma = cfg["K"], cfg["S"], cfg["etag"], cfg["sigma"]
    h = cfg["hf"] / (81 * cl.beta)
    mu = cl.mu if cfg["mu"] == "min" else 0.0
    if cfg["hf"] <= 1:
        h = min(h, S / (15 * cl.N * mu) if mu > 0 else h)
    etal = h / (K * etag)
    x0 = cl.xstar if cfg["start"] == "opt" else cl.xstar + np.array([4.0, -3.0])
    gstar = cl.grads(np.repeat(cl.xstar[None], cl.N, 0))
    c0 = {
        "opt": gstar,
        "zero": np.zeros_like(gstar),
        "random": rng.normal(size=gstar.shape),
        "bad": gstar + 10 * rng.normal(size=gstar.shape),
    }[cfg["ctrl"]]
    xs = simulate(cl, x0, c0, K, S, etal, etag, sigma, cfg["T"], R, rng)
    C0 = float(np.mean(np.sum((c0 - gstar) ** 2, 1)))
    return cl, cfg, h, mu, etal, x0, c0, C0, cl.f(xs) - cl.f(cl.xstar)


@lru_cache(maxsize=32)
def nonconvex_run(seed: int, name: str, R: int) -> tuple[Any, ...]:
    cfg = NONCONVEX[name]
    cl = quad_nc_clients() if cfg.get("cl") == "quad" else nc_clients(seed)
    rng = np.random.default_rng([seed, 20, list(NONCONVEX).index(name)])
    K, S, etag, sigma = cfg["K"], cfg["S"], cfg["etag"], cfg["sigma"]
    h = cfg["hf"] * (S / cl.N) ** (2 / 3) / (24 * cl.beta)
    etal = h / (K * etag)
    x0 = cl.xstar if cfg["start"] == "opt" else np.array([3.0, -2.5])
    xs = simulate(cl, x0, None, K, S, etal, etag, sigma, cfg["T"], R, rng, warm=True)
    g = cl.gradf(xs)
    return cl, cfg, h, etal, x0, np.sum(g * g, axis=-1)


def horizons(T: int) -> list[int]:
    return sorted({1, 2, 5, 10, 20, T // 2, T})


def mc(x: np.ndarray) -> tuple[float, float]:
    return float(np.mean(x)), float(np.std(x) / np.sqrt(x.shape[-1]))


def runs(ctx: Context) -> int:
    return ctx.size(quick=150, full=3000)


# ---------------------------------------------------------------- exact instances

TWO, QUARTER, ONE = F(2), F(1, 4), F(1)


@dataclass
class Exact:
    """An exact problem (rational quadratic clients), its minimizer, a client ``i`` with its
    strong-convexity constant μ, and the number of clients the statement is applied with."""

    q: ExactQuad
    xstar: V2
    N: int
    i: int = 0
    mu: Fraction = Fraction(0)

    def __str__(self) -> str:
        return (
            f"{self.q.label}, β = {self.q.beta}, x⋆ = ({self.xstar[0]}, {self.xstar[1]}) exact, "
            f"client {self.i}, μ = {self.mu}"
        )


def exact_problem(ctx: Context, index: int) -> Exact:
    q = exact_instances(ctx.seed)[index]
    return Exact(q, q.xstar(), q.N, 0, q.eig[0][0])


def psd_margin(a: M2) -> Fraction:
    """min(trace, det) of a symmetric 2×2 matrix: ≥ 0 exactly when it is positive semidefinite."""
    return min(a[0][0] + a[1][1], a[0][0] * a[1][1] - a[0][1] * a[1][0])


def gradient_growth(ctx: Context, two: Fraction = TWO, concave: bool = False) -> Iterator[Check]:
    rng = ctx.rng(1)
    npts = ctx.size(quick=20, full=200)
    insts = [ctx.instance(exact_problem, j).q for j in range(4)]
    if concave:  # the variant: convexity dropped (f₁ = (β/2)‖x‖², f₂ = -(β/2)‖x‖², f ≡ 0)
        q = ExactQuad(
            "a convex and a concave client",
            [(F(0), F(1), F(1)), (F(0), F(1), F(1))],
            [[F(0), F(0)], [F(0), F(0)]],
        )
        q.A[1] = [[F(-1), F(0)], [F(0), F(-1)]]
        insts = [q]
    for q in insts:
        xs = q.xstar() if not concave else [F(0), F(0)]
        gs = [q.gi(i, xs) for i in range(q.N)]
        for j in range(npts):
            x = [rq(rng, -20, 21, 3), rq(rng, -20, 21, 3)]
            lhs = sum((dot(d, d) for d in (sub(q.gi(i, x), gs[i]) for i in range(q.N))), F(0)) / q.N
            rhs = two * q.beta * (q.f(x) - q.f(xs))
            yield Check(
                f"N⁻¹Σ‖∇fᵢ(x) - ∇fᵢ(x⋆)‖² ≤ 2β(f(x) - f(x⋆)) "
                f"exact ({q.label}, β = {q.beta}, x #{j})",
                lhs,
                "<=",
                rhs,
            )
    if concave:
        return
    for N, d in ((3, 2), (5, 4)):
        lg = Logistic(rng, N, d, 4, 0.3)
        gstar = lg.gi(lg.xstar)
        xf = lg.xstar + 3 * rng.normal(size=(npts, d))
        lhs_f = np.mean(np.sum((lg.gi(xf) - gstar) ** 2, axis=-1), axis=-1)
        rhs_f = float(two) * lg.beta * (lg.fi(xf).mean(-1) - lg.fi(lg.xstar).mean())
        worst = int(np.argmax(lhs_f - rhs_f))
        yield Check(
            f"N⁻¹Σ‖∇fᵢ(x) - ∇fᵢ(x⋆)‖² ≤ 2β(f(x) - f(x⋆)) "
            f"(logistic N={N}, d={d}, β = {lg.beta:.4g}, x⋆ by Newton, worst of {npts} points)",
            float(lhs_f[worst]),
            "<=",
            float(rhs_f[worst]),
            1e-9 * (1 + abs(float(rhs_f[worst]))),
        )


def psc(
    ctx: Context, quarter: Fraction = QUARTER, beta_coef: Fraction = ONE, concave: bool = False
) -> Iterator[Check]:
    rng = ctx.rng(2)
    npts = ctx.size(quick=20, full=200)
    insts = [ctx.instance(exact_problem, j).q for j in range(4)]
    if concave:  # the variant: strong convexity dropped (a concave client, μ = 0)
        q = ExactQuad("a concave client", [(F(0), F(1), F(1))], [[F(0), F(0)]])
        q.A[0] = [[F(-1), F(0)], [F(0), F(-1)]]
        q.mu = F(0)
        insts = [q]
    for q in insts:
        for i in range(q.N):
            mu = q.eig[i][0] if not concave else F(0)  # μ = λ_min(Aᵢ) ≥ 0
            for j in range(npts):
                x, y, z = ([rq(rng, -12, 13, 3), rq(rng, -12, 13, 3)] for _ in range(3))
                if j % 4 == 1:
                    y = x
                elif j % 4 == 2:
                    z = x
                lhs = (
                    q.fi(i, z)
                    - q.fi(i, y)
                    + quarter * mu * dot(sub(y, z), sub(y, z))
                    - beta_coef * q.beta * dot(sub(z, x), sub(z, x))
                )
                rhs = dot(q.gi(i, x), sub(z, y))
                yield Check(
                    f"fᵢ(z) - fᵢ(y) + (μ/4)‖y-z‖² - β‖z-x‖² ≤ ⟪∇fᵢ(x), z-y⟫ exact ({q.label}, "
                    f"client {i}, μ = {mu}, β = {q.beta}, points #{j})",
                    lhs,
                    "<=",
                    rhs,
                )
    if concave:
        return
    for d in (2, 5):
        lg = Logistic(rng, 1, d, 5, 0.4)
        lam = lg.lam
        xf, yf, zf = (rng.normal(size=(npts, d)) * 2 for _ in range(3))
        yf[1::4] = xf[1::4]
        zf[2::4] = xf[2::4]
        fz, fy = lg.fi(zf)[..., 0], lg.fi(yf)[..., 0]
        lhs_f = (
            fz
            - fy
            + float(quarter) * lam * np.sum((yf - zf) ** 2, -1)
            - float(beta_coef) * lg.beta * np.sum((zf - xf) ** 2, -1)
        )
        rhs_f = np.sum(lg.gi(xf)[..., 0, :] * (zf - yf), -1)
        w = int(np.argmax(lhs_f - rhs_f))
        yield Check(
            f"perturbed strong convexity (logistic + ridge, d={d}, "
            f"μ = {lam}, β = {lg.beta:.4g}, worst of {npts})",
            float(lhs_f[w]),
            "<=",
            float(rhs_f[w]),
            1e-9 * (1 + abs(float(rhs_f[w]))),
        )


# ---------------------------------------------------------------- simulated instances


@dataclass
class Setting:
    """A SCAFFOLD run and the constants the statement is applied with: N, S, K, T, ηl, ηg, σ,
    μ, β, x⋆ (convex) or f_lower (nonconvex), the initial controls c₀ and what the run was given
    (its first controls, the warm-start point and divisor, the oracle's noise)."""

    name: str
    clients: Clients
    N: int
    S: int
    K: int
    T: int
    etal: float
    etag: float
    sigma: float
    beta: float
    x0: np.ndarray
    mu: float = 0.0
    xstar: np.ndarray | None = None
    c0: np.ndarray | None = None
    run_controls: np.ndarray | None = None
    flower: float = 0.0
    warm_point: np.ndarray | None = None
    warm_divisor: float = 1.0
    oracle_sigma: float = 0.0

    @property
    def h(self) -> float:
        return self.K * self.etal * self.etag

    def __str__(self) -> str:
        return (
            f"{self.name}: {self.clients.name}, β = {self.beta:.4g}, μ = {self.mu:.4g}, "
            f"K = {self.K}, S = {self.S}, T = {self.T}, ηg = {self.etag}, ηl = {self.etal:.3g}, "
            f"h = {self.h:.4g}, σ = {self.sigma}"
        )


def convex_setting(ctx: Context, name: str) -> Setting:
    cl, cfg, _h, mu, etal, x0, c0, _C0, _gap = convex_run(ctx.seed, name, runs(ctx))
    return Setting(
        name,
        cl,
        cl.N,
        cfg["S"],
        cfg["K"],
        cfg["T"],
        etal,
        cfg["etag"],
        cfg["sigma"],
        cl.beta,
        x0,
        mu=mu,
        xstar=cl.xstar,
        c0=c0,
        run_controls=c0,
        oracle_sigma=cfg["sigma"],
    )


def nonconvex_setting(ctx: Context, name: str) -> Setting:
    cl, cfg, _h, etal, x0, _g2 = nonconvex_run(ctx.seed, name, runs(ctx))
    return Setting(
        name,
        cl,
        cl.N,
        cfg["S"],
        cfg["K"],
        cfg["T"],
        etal,
        cfg["etag"],
        cfg["sigma"],
        cl.beta,
        x0,
        flower=cl.flow,
        warm_point=x0,
        warm_divisor=cfg["K"],
        oracle_sigma=cfg["sigma"],
    )


def convex_checks(
    ctx: Context,
    names: tuple[str, ...] = ("floor", "hetero", "mu0", "ctrl"),
    twelve: float = 12.0,
    nine: float = 9.0,
    drop_c0: bool = False,
) -> Iterator[Check]:
    R = runs(ctx)
    for name in names:
        s = ctx.instance(convex_setting, name)
        _, _, h, mu, _, x0, _, C0, gap = convex_run(ctx.seed, name, R)
        K, S, etag, sigma, N = s.K, s.S, s.etag, s.sigma, s.N
        tag = f"{s}, C₀={C0:.3g}, {R} runs"
        assert s.xstar is not None
        V0 = float(np.sum((x0 - s.xstar) ** 2)) + (0.0 if drop_c0 else nine * N * h * h / S * C0)
        w = (1 - mu * h / 2) ** -(np.arange(gap.shape[0]) + 1.0)
        cw = np.cumsum(w[:, None] * gap, axis=0)
        for T in horizons(gap.shape[0]):
            W = float(np.sum(w[:T]))
            m, se = mc(cw[T - 1] / W)
            rhs = V0 / (h * W) + twelve * h * sigma**2 / (K * S) * (1 + S / etag**2)
            yield Check(
                "W_T⁻¹Σ_(r<T) w_r E[f(x^r) - f(x⋆)] ≤ V₀/(hW_T) "
                f"+ (12hσ²/(KS))(1 + S/ηg²) ({tag}, T={T})",
                m,
                "<=",
                rhs,
                5 * se + 1e-12 * (1 + abs(rhs)),
            )


def nonconvex_checks(
    ctx: Context,
    names: tuple[str, ...] = ("far", "floor", "noiseless", "stationary"),
    seventy: float = 70.0,
    fourteen: float = 14.0,
) -> Iterator[Check]:
    R = runs(ctx)
    for name in names:
        s = ctx.instance(nonconvex_setting, name)
        _, _, h, _, x0, g2 = nonconvex_run(ctx.seed, name, R)
        K, S, etag, sigma = s.K, s.S, s.etag, s.sigma
        tag = f"{s}, f_lower={s.flower:.6g}, {R} runs"
        F0 = float(s.clients.f(x0)) - s.flower
        cg = np.cumsum(g2, axis=0)
        for T in horizons(g2.shape[0]):
            m, se = mc(cg[T - 1] / T)
            rhs = fourteen * F0 / (h * T) + seventy * s.beta * h * sigma**2 / (K * S) * (
                1 + S / etag**2
            )
            yield Check(
                f"T⁻¹Σ_(r<T) E‖∇f(x^r)‖² ≤ 14F₀/(hT) + (70βhσ²/(KS))(1 + S/ηg²) ({tag}, T={T})",
                m,
                "<=",
                rhs,
                5 * se + 1e-12 * (1 + abs(rhs)),
            )


def goal(
    ctx: Context,
    twelve: float = 12.0,
    nine: float = 9.0,
    seventy: float = 70.0,
    fourteen: float = 14.0,
) -> Iterator[Check]:
    yield from convex_checks(ctx, twelve=twelve, nine=nine)
    yield from nonconvex_checks(ctx, seventy=seventy, fourteen=fourteen)


# ---------------------------------------------------------------- hypotheses

STRUCTURAL = {
    "[m0 : MeasurableSpace Ω]": "Ω: the sample space of the seeded Gaussian oracle draws and "
    "the uniform subset draws, with its Borel σ-algebra",
    "[StandardBorelSpace Ω]": "Ω ≅ ℝ^ℕ (countably many real draws) is standard Borel",
    "[IsProbabilityMeasure P]": "P: the product law of the draws",
}
CONVEX_I = "(∀ i, ConvexOn ℝ Set.univ (pb.f i))"
MINIMUM = "(∀ x, pb.objective xstar ≤ pb.objective x)"
STRONG_I = "(∀ i, StrongConvexOn Set.univ μ (pb.f i))"
CONTROLS = "(∀ i ω, run.control 0 i ω = c₀ i)"
ORACLE_ROUNDS = (
    "(∀ r k, k < K → run.toStochasticRun.IsGradientOracleAt pb.f σ (roundStart K r + k))"
)
ORACLE_WARM = "(∀ k, k < K → run.toStochasticRun.IsGradientOracleAt pb.f σ k)"
WARM_POINT = "(∀ k i ω, k < K → run.point k i ω = x₀)"
WARM_CONTROLS = "(∀ i ω, run.control 0 i ω = (K : ℝ)⁻¹ • ∑ k ∈ Finset.range K, run.dir k i ω)"
LOWER = "(∀ x, flower ≤ pb.objective x)"
STEP_CONVEX = "effStep K ηl ηg ≤ 1 / (81 * (pb.β : ℝ))"
MU_STEP = "μ * effStep K ηl ηg ≤ (S : ℝ) / (15 * N)"
STEP_NONCONVEX = "effStep K ηl ηg ≤ ((S : ℝ) / N) ^ ((2 : ℝ) / 3) / (24 * (pb.β : ℝ))"


def exact_evidence(ctx: Context, e: Exact) -> Iterator[Check]:
    q = e.q
    yield hyp("1 ≤ N", 1, "<=", e.N)
    yield hyp(CONVEX_I, min(psd_margin(a) for a in q.A), ">=", 0, detail="min trace/det of Aᵢ")
    gf = [sum((q.gi(i, e.xstar)[k] for i in range(q.N)), F(0)) for k in range(2)]
    yield hyp(MINIMUM, max(abs(t) for t in gf), "==", 0, detail="∇f(x⋆) = 0, exact")
    rng = np.random.default_rng([ctx.seed, 91])
    gaps = [q.f([rq(rng, -20, 21, 3), rq(rng, -20, 21, 3)]) - q.f(e.xstar) for _ in range(50)]
    yield hyp(MINIMUM, min(gaps), ">=", 0, detail="min f(x) − f(x⋆) at 50 rational points")
    shifted = [[[a[0][0] - e.mu, a[0][1]], [a[1][0], a[1][1] - e.mu]] for a in (q.A[e.i],)]
    yield hyp("0 ≤ μ", 0, "<=", e.mu)
    yield hyp(
        "StrongConvexOn Set.univ μ (pb.f i)",
        psd_margin(shifted[0]),
        ">=",
        0,
        detail="Aᵢ − μI ⪰ 0: min(trace, det), exact",
    )


def sample_points(s: Setting, rng: np.random.Generator, n: int = 500) -> np.ndarray:
    center = s.xstar if s.xstar is not None else s.x0
    return center + 4 * rng.normal(size=(n, s.clients.d))


def oracle_evidence(hypothesis: str, s: Setting, rng: np.random.Generator) -> Iterator[Check]:
    """The simulation's oracle at one point, 20000 draws: unbiased, conditional squared error
    ≤ σ², clients' draws uncorrelated (independent by construction)."""
    cl = s.clients
    point = np.repeat(np.asarray(s.x0, float)[None, None, :] + 0.5, cl.N, 1)
    n = 20_000
    err = s.oracle_sigma / np.sqrt(cl.d) * rng.standard_normal((n, cl.N, cl.d))
    g = cl.grads(point) + err
    err = g - cl.grads(point)
    se = err.std(0) / np.sqrt(n) + 1e-300
    yield hyp(
        hypothesis,
        float(np.max(np.abs(err.mean(0)) / se)),
        "<=",
        5.0,
        detail="E[gᵢ] = ∇fᵢ: largest |mean error| in standard errors",
    )
    sq = np.sum(err**2, axis=-1)
    yield hyp(
        hypothesis,
        float(sq.mean(0).max()),
        "<=",
        s.sigma**2,
        5 * float(sq.std(0).max()) / np.sqrt(n) + 1e-15,
        "E‖gᵢ − ∇fᵢ‖² ≤ σ², worst client",
    )
    if s.oracle_sigma > 0:
        corr = np.corrcoef(err[:, 0, 0], err[:, 1, 0])[0, 1]
        yield hyp(
            hypothesis,
            abs(float(corr)),
            "<=",
            5 / np.sqrt(n),
            detail="clients 0 and 1 uncorrelated (independent draws)",
        )


def run_evidence(s: Setting) -> Iterator[Check]:
    yield hyp("1 ≤ N", 1, "<=", s.N)
    yield hyp("1 ≤ S", 1, "<=", s.S)
    yield hyp("S ≤ N", s.S, "<=", s.N)
    yield hyp("1 ≤ K", 1, "<=", s.K)
    yield hyp("1 ≤ T", 1, "<=", s.T)
    yield hyp("0 < ηl", 0.0, "<", s.etal)
    yield hyp("1 ≤ ηg", 1.0, "<=", s.etag)
    yield hyp("0 ≤ σ", 0.0, "<=", s.sigma)


def convex_evidence(ctx: Context, s: Setting) -> Iterator[Check | Structural]:
    rng = np.random.default_rng([ctx.seed, 92])
    for hypothesis, reason in STRUCTURAL.items():
        yield Structural(hypothesis, reason)
    yield from run_evidence(s)
    yield hyp("0 ≤ μ", 0.0, "<=", s.mu)
    cl = s.clients
    assert cl.A is not None and s.xstar is not None and s.c0 is not None
    least = min(float(np.linalg.eigvalsh(a - s.mu * np.eye(cl.d))[0]) for a in cl.A)
    yield hyp(STRONG_I, least, ">=", 0.0, 1e-12, "least eigenvalue of Aᵢ − μI")
    x = sample_points(s, rng)
    yield hyp(
        MINIMUM,
        float((cl.f(x) - cl.f(s.xstar)).min()),
        ">=",
        0.0,
        1e-12,
        "min f(x) − f(x⋆) over 500 points",
    )
    yield hyp(MINIMUM, float(np.linalg.norm(cl.gradf(s.xstar))), "<=", 1e-10, detail="‖∇f(x⋆)‖")
    assert s.run_controls is not None
    yield hyp(
        CONTROLS,
        float(np.max(np.abs(s.run_controls - s.c0))),
        "==",
        0.0,
        detail="the run's first controls against c₀",
    )
    yield from oracle_evidence(ORACLE_ROUNDS, s, rng)
    yield hyp(STEP_CONVEX, s.h, "<=", 1 / (81 * s.beta), 1e-15)
    yield hyp(MU_STEP, s.mu * s.h, "<=", s.S / (15 * s.N) if s.N else np.inf, 1e-15)


def nonconvex_evidence(ctx: Context, s: Setting) -> Iterator[Check | Structural]:
    rng = np.random.default_rng([ctx.seed, 93])
    for hypothesis, reason in STRUCTURAL.items():
        yield Structural(hypothesis, reason)
    yield from run_evidence(s)
    cl = s.clients
    x = sample_points(s, rng, 2000)
    x[0] = cl.xstar
    yield hyp(
        LOWER,
        float(cl.f(x).min() - s.flower),
        ">=",
        0.0,
        detail="min f − f_lower over 2000 points and the global minimizer",
    )
    assert s.warm_point is not None
    yield hyp(
        WARM_POINT,
        float(np.max(np.abs(s.warm_point - s.x0))),
        "==",
        0.0,
        detail="the warm-start query point against x⁰",
    )
    yield from oracle_evidence(ORACLE_WARM, s, rng)
    controls, draws = warm_start(
        cl, s.warm_point, s.K, s.oracle_sigma / np.sqrt(cl.d), 4, rng, s.warm_divisor
    )
    yield hyp(
        WARM_CONTROLS,
        float(np.max(np.abs(controls - draws.sum(0) / max(s.K, 1)))),
        "==",
        0.0,
        1e-12,
        "the warm-start routine's controls against the average of its K draws",
    )
    yield from oracle_evidence(ORACLE_ROUNDS, s, rng)
    bound = (s.S / s.N) ** (2 / 3) / (24 * s.beta) if s.N else np.inf
    yield hyp(STEP_NONCONVEX, s.h, "<=", bound, 1e-15)


RUN_HYPS = ("1 ≤ N", "1 ≤ S", "S ≤ N", "1 ≤ K", "1 ≤ T", "0 < ηl", "1 ≤ ηg", "0 ≤ σ")
RUN_VIOLATIONS: dict[str, Any] = {
    "1 ≤ N": {"N": 0},
    "1 ≤ S": {"S": 0},
    "S ≤ N": lambda s: replace(s, S=s.N + 1),
    "1 ≤ K": {"K": 0},
    "1 ≤ T": {"T": 0},
    "0 < ηl": {"etal": 0.0},
    "1 ≤ ηg": {"etag": 0.5},
    "0 ≤ σ": {"sigma": -1.0},
}
CONVEX_HYPS = (
    *STRUCTURAL,
    *RUN_HYPS,
    "0 ≤ μ",
    STRONG_I,
    MINIMUM,
    CONTROLS,
    ORACLE_ROUNDS,
    STEP_CONVEX,
    MU_STEP,
)
NONCONVEX_HYPS = (
    *STRUCTURAL,
    *RUN_HYPS,
    LOWER,
    WARM_POINT,
    ORACLE_WARM,
    WARM_CONTROLS,
    ORACLE_ROUNDS,
    STEP_NONCONVEX,
)
CONVEX_NV = NonVacuity(
    CONVEX_HYPS,
    convex_setting,
    ("hetero",),
    convex_evidence,
    {
        **RUN_VIOLATIONS,
        "0 ≤ μ": {"mu": -1.0},
        STRONG_I: lambda s: replace(s, mu=s.mu + 1.0),
        MINIMUM: lambda s: replace(s, xstar=s.xstar + 1.0),
        CONTROLS: lambda s: replace(s, run_controls=s.c0 + 1.0),
        ORACLE_ROUNDS: lambda s: replace(s, oracle_sigma=2 * s.sigma + 1.0),
        STEP_CONVEX: lambda s: replace(s, etal=2 * s.etal),
        MU_STEP: lambda s: replace(s, mu=s.mu * 1000),
    },
)
NONCONVEX_NV = NonVacuity(
    NONCONVEX_HYPS,
    nonconvex_setting,
    ("far",),
    nonconvex_evidence,
    {
        **RUN_VIOLATIONS,
        LOWER: lambda s: replace(s, flower=s.flower + 1.0),
        WARM_POINT: lambda s: replace(s, warm_point=s.x0 + 1.0),
        ORACLE_WARM: lambda s: replace(s, oracle_sigma=2 * s.sigma + 1.0),
        WARM_CONTROLS: lambda s: replace(s, warm_divisor=s.K + 1.0),
        ORACLE_ROUNDS: lambda s: replace(s, oracle_sigma=2 * s.sigma + 1.0),
        STEP_NONCONVEX: lambda s: replace(s, etal=2 * s.etal),
    },
)


def _concave_client(e: Exact) -> Exact:
    q = copy.copy(e.q)
    q.A = [[[-a for a in row] for row in q.A[0]], *q.A[1:]]
    return replace(e, q=q)


CLAIMS = [
    Claim(
        "gradient-growth",
        "N⁻¹Σ‖∇fᵢ(x) - ∇fᵢ(x⋆)‖² ≤ 2β(f(x) - f(x⋆)) at "
        "random points: exact for rational quadratics "
        "(equality when every Aᵢ = βI), floating point for logistic-plus-ridge clients",
        gradient_growth,
        {"2β → β": {"two": F(1)}, "convexity dropped (a concave client)": {"concave": True}},
        NonVacuity(
            ("1 ≤ N", CONVEX_I, MINIMUM),
            exact_problem,
            (0,),
            lambda ctx, e: (c for c in exact_evidence(ctx, e) if "μ" not in c.label.split(" [")[0]),
            {
                "1 ≤ N": {"N": 0},
                CONVEX_I: _concave_client,
                MINIMUM: lambda e: replace(e, xstar=[e.xstar[0] + 1, e.xstar[1]]),
            },
        ),
        (Constant("two", F(2), "2 in 2β(f(x) − f(x⋆))"),),
    ),
    Claim(
        "perturbed-strong-convexity",
        "⟪∇fᵢ(x), z - y⟫ ≥ fᵢ(z) - fᵢ(y) + (μ/4)‖y - z‖² - "
        "β‖z - x‖² at random points (also y = x, z = x): "
        "exact for rational quadratics, floating point for a logistic client",
        psc,
        {
            "β‖z - x‖² → (β/4)‖z - x‖²": {"beta_coef": F(1, 4)},
            "strong convexity dropped (a concave client, μ = 0)": {"concave": True},
        },
        NonVacuity(
            ("0 ≤ μ", "StrongConvexOn Set.univ μ (pb.f i)"),
            exact_problem,
            (0,),
            lambda ctx, e: (c for c in exact_evidence(ctx, e) if "μ" in c.label.split(" [")[0]),
            {
                "0 ≤ μ": {"mu": F(-1)},
                "StrongConvexOn Set.univ μ (pb.f i)": lambda e: replace(e, mu=e.mu + 1),
            },
        ),
        (
            Constant("quarter", F(1, 4), "1/4 in (μ/4)‖y − z‖²"),
            Constant("beta_coef", F(1), "1 in β‖z − x‖²"),
        ),
    ),
    Claim(
        "convex-finite-round-convergence",
        "weighted average of simulated E[f(x^r) - f(x⋆)], "
        "r < T, ≤ V₀/(hW_T) + (12hσ²/(KS))(1 + S/ηg²) "
        "(5 s.e.) for several T",
        convex_checks,
        {
            "12 → 0.12 in the noise term": {"names": ("floor",), "twelve": 0.12},
            "V₀ without (9Nh²/S)C₀ (x⁰ = x⋆, σ = 0, bad initial controls)": {
                "names": ("badctrl",),
                "drop_c0": True,
            },
            "h ≤ 1/(81β) dropped (h = 5/β, ηg = 20)": {"names": ("bigstep",)},
        },
        CONVEX_NV,
        (
            Constant("twelve", 12.0, "12 in (12hσ²/(KS))(1 + S/ηg²)"),
            Constant("nine", 9.0, "9 in V₀ = ‖x⁰ − x⋆‖² + (9Nh²/S)C₀"),
        ),
    ),
    Claim(
        "nonconvex-finite-round-convergence",
        "T⁻¹Σ_(r<T) simulated E‖∇f(x^r)‖² ≤ 14F₀/(hT) + "
        "(70βhσ²/(KS))(1 + S/ηg²) (5 s.e.) for several T",
        nonconvex_checks,
        {
            "70 → 0.07 in the noise term": {"names": ("floor",), "seventy": 0.07},
            "14 → 0.014 in the F₀ term": {"names": ("noiseless",), "fourteen": 0.014},
            "h ≤ (S/N)^(2/3)/(24β) dropped (240× larger, ηg = 20)": {"names": ("bigstep",)},
        },
        NONCONVEX_NV,
        (
            Constant("fourteen", 14.0, "14 in 14F₀/(hT)"),
            Constant("seventy", 70.0, "70 in (70βhσ²/(KS))(1 + S/ηg²)"),
        ),
    ),
    Claim(
        "goal",
        "the convex and the nonconvex finite-round bounds together, on the same simulations",
        goal,
        {
            "12 → 0.12 (convex noise term)": {"twelve": 0.12},
            "70 → 0.07 (nonconvex noise term)": {"seventy": 0.07},
        },
        NonVacuity(
            parts={
                "ConvexFiniteRoundConvergence": CONVEX_NV,
                "NonconvexFiniteRoundConvergence": NONCONVEX_NV,
            }
        ),
        (
            Constant("twelve", 12.0, "12 in (12hσ²/(KS))(1 + S/ηg²)"),
            Constant("nine", 9.0, "9 in V₀ = ‖x⁰ − x⋆‖² + (9Nh²/S)C₀"),
            Constant("fourteen", 14.0, "14 in 14F₀/(hT)"),
            Constant("seventy", 70.0, "70 in (70βhσ²/(KS))(1 + S/ηg²)"),
        ),
    ),
]
