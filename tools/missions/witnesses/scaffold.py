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

The SCAFFOLD bounds have large constants and the simulated quantities sit far below them, so the
wrong variants change constants by factors the simulations can refute (12 → 0.12, 70 → 0.07,
14 → 0.014) or drop hypotheses: the ``(9Nh²/S)C₀`` part of ``V₀`` (zero noise, ``x⁰ = x⋆``, bad
initial controls: the bound becomes 0 while the gap is positive) and the step conditions (a 405×
or 240× larger ``h`` with ``ηg = 20`` diverges).
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from missions.witness import Check, Claim, Context

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


# ---------------------------------------------------------------- gradient growth


def gradient_growth(ctx: Context, two: int = 2, concave: bool = False) -> Iterator[Check]:
    rng = ctx.rng(1)
    npts = ctx.size(quick=20, full=200)
    insts = exact_instances(ctx.seed)
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
        if not concave:
            gf = [sum((g[k] for g in gs), F(0)) for k in range(2)]
            yield Check(
                f"hyp {q.label}: ∇f(x⋆) = 0 (x⋆ exact minimizer; convex clients)",
                max(abs(t) for t in gf),
                "==",
                0,
            )
            yield Check(
                f"hyp {q.label}: all client eigenvalues ≥ 0", min(lo for lo, _ in q.eig), ">=", 0
            )
        for j in range(npts):
            x = [rq(rng, -20, 21, 3), rq(rng, -20, 21, 3)]
            lhs = sum((dot(d, d) for d in (sub(q.gi(i, x), gs[i]) for i in range(q.N))), F(0)) / q.N
            rhs = two * q.beta * (q.f(x) - q.f(xs))
            yield Check(
                f"N⁻¹Σ‖∇fᵢ(x) - ∇fᵢ(x⋆)‖² ≤ {two}β(f(x) - f(x⋆)) "
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
        yield Check(
            f"hyp logistic N={N}, d={d}: ‖∇f(x⋆)‖ (Newton)",
            float(np.linalg.norm(gstar.mean(0))),
            "<=",
            1e-10,
        )
        xf = lg.xstar + 3 * rng.normal(size=(npts, d))
        lhs_f = np.mean(np.sum((lg.gi(xf) - gstar) ** 2, axis=-1), axis=-1)
        rhs_f = two * lg.beta * (lg.fi(xf).mean(-1) - lg.fi(lg.xstar).mean())
        worst = int(np.argmax(lhs_f - rhs_f))
        yield Check(
            f"N⁻¹Σ‖∇fᵢ(x) - ∇fᵢ(x⋆)‖² ≤ {two}β(f(x) - f(x⋆)) "
            f"(logistic N={N}, d={d}, β = {lg.beta:.4g}, "
            f"worst of {npts} points)",
            float(lhs_f[worst]),
            "<=",
            float(rhs_f[worst]),
            1e-9 * (1 + abs(float(rhs_f[worst]))),
        )


# ---------------------------------------------------------------- perturbed strong convexity


def psc(ctx: Context, quarter_beta: bool = False, concave: bool = False) -> Iterator[Check]:
    rng = ctx.rng(2)
    npts = ctx.size(quick=20, full=200)
    bc = F(1, 4) if quarter_beta else F(1)
    insts = exact_instances(ctx.seed)
    if concave:  # the variant: strong convexity dropped (a concave client, μ = 0)
        q = ExactQuad("a concave client", [(F(0), F(1), F(1))], [[F(0), F(0)]])
        q.A[0] = [[F(-1), F(0)], [F(0), F(-1)]]
        q.mu = F(0)
        insts = [q]
    for q in insts:
        for i in range(q.N):
            mu = (
                q.eig[i][0] if not concave else F(0)
            )  # client i is μ-strongly convex with μ = λ_min(Aᵢ) ≥ 0
            for j in range(npts):
                x, y, z = ([rq(rng, -12, 13, 3), rq(rng, -12, 13, 3)] for _ in range(3))
                if j % 4 == 1:
                    y = x
                elif j % 4 == 2:
                    z = x
                lhs = (
                    q.fi(i, z)
                    - q.fi(i, y)
                    + mu / 4 * dot(sub(y, z), sub(y, z))
                    - bc * q.beta * dot(sub(z, x), sub(z, x))
                )
                rhs = dot(q.gi(i, x), sub(z, y))
                yield Check(
                    f"fᵢ(z) - fᵢ(y) + (μ/4)‖y-z‖² - {bc}β‖z-x‖² ≤ "
                    f"⟪∇fᵢ(x), z-y⟫ exact ({q.label}, client {i}, "
                    f"μ = {mu}, β = {q.beta}, points #{j})",
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
            + lam / 4 * np.sum((yf - zf) ** 2, -1)
            - float(bc) * lg.beta * np.sum((zf - xf) ** 2, -1)
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
    if warm:  # warm-start ticks 0..K-1: every client queries K fresh gradients at x⁰
        xr = np.repeat(x[:, None, :], N, 1)
        c = sum(cl.grads(xr) + noise * rng.standard_normal((R, N, d)) for _ in range(K)) / K
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
    return cl, cfg, h, mu, etal, x0, C0, cl.f(xs) - cl.f(cl.xstar)


@lru_cache(maxsize=32)
def nonconvex_run(seed: int, name: str, R: int) -> tuple[Any, ...]:
    cfg = NONCONVEX[name]
    cl = nc_clients(seed)
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


def convex_checks(
    ctx: Context,
    names: tuple[str, ...] = ("floor", "hetero", "mu0"),
    twelve: float = 12.0,
    drop_c0: bool = False,
) -> Iterator[Check]:
    R = ctx.size(quick=150, full=3000)
    for name in names:
        cl, cfg, h, mu, etal, x0, C0, gap = convex_run(ctx.seed, name, R)
        K, S, etag, sigma, N = cfg["K"], cfg["S"], cfg["etag"], cfg["sigma"], cl.N
        tag = (
            f"{name}: {cl.name}, β={cl.beta:.4g}, μ={mu:.4g}, "
            f"K={K}, S={S}, ηg={etag}, ηl={etal:.3g}, h={h:.4g}, "
            f"σ={sigma}, C₀={C0:.3g}, {R} runs"
        )
        if cfg["hf"] <= 1:
            yield Check(f"hyp {name}: h ≤ 1/(81β)", h, "<=", 1 / (81 * cl.beta), 1e-15)
        yield Check(f"hyp {name}: μh ≤ S/(15N)", mu * h, "<=", S / (15 * N), 1e-15)
        yield Check(
            f"hyp {name}: ηg ≥ 1, 1 ≤ S ≤ N, K ≥ 1",
            int(etag >= 1 and 1 <= S <= N and K >= 1),
            "==",
            1,
        )
        yield Check(f"hyp {name}: ‖∇f(x⋆)‖", float(np.linalg.norm(cl.gradf(cl.xstar))), "<=", 1e-12)
        V0 = float(np.sum((x0 - cl.xstar) ** 2)) + (0.0 if drop_c0 else 9 * N * h * h / S * C0)
        w = (1 - mu * h / 2) ** -(np.arange(gap.shape[0]) + 1.0)
        cw = np.cumsum(w[:, None] * gap, axis=0)
        for T in horizons(gap.shape[0]):
            W = float(np.sum(w[:T]))
            m, se = mc(cw[T - 1] / W)
            rhs = V0 / (h * W) + twelve * h * sigma**2 / (K * S) * (1 + S / etag**2)
            yield Check(
                "W_T⁻¹Σ_(r<T) w_r E[f(x^r) - f(x⋆)] ≤ V₀/(hW_T) "
                f"+ ({twelve:g}hσ²/(KS))(1 + S/ηg²) ({tag}, T={T})",
                m,
                "<=",
                rhs,
                5 * se + 1e-12 * (1 + abs(rhs)),
            )


def nonconvex_checks(
    ctx: Context,
    names: tuple[str, ...] = ("far", "floor", "noiseless"),
    seventy: float = 70.0,
    fourteen: float = 14.0,
) -> Iterator[Check]:
    R = ctx.size(quick=150, full=3000)
    for name in names:
        cl, cfg, h, etal, x0, g2 = nonconvex_run(ctx.seed, name, R)
        K, S, etag, sigma, N = cfg["K"], cfg["S"], cfg["etag"], cfg["sigma"], cl.N
        tag = (
            f"{name}: {cl.name}, β={cl.beta:.4g}, K={K}, S={S}, "
            f"ηg={etag}, ηl={etal:.3g}, h={h:.4g}, σ={sigma}, "
            f"f_lower={cl.flow:.6g}, {R} runs"
        )
        if cfg["hf"] <= 1:
            yield Check(
                f"hyp {name}: h ≤ (S/N)^(2/3)/(24β)",
                h,
                "<=",
                (S / N) ** (2 / 3) / (24 * cl.beta),
                1e-15,
            )
        yield Check(
            f"hyp {name}: ηg ≥ 1, 1 ≤ S ≤ N, K ≥ 1",
            int(etag >= 1 and 1 <= S <= N and K >= 1),
            "==",
            1,
        )
        probe = cl.xstar + 4 * np.random.default_rng([ctx.seed, 30]).normal(size=(2000, cl.d))
        yield Check(
            f"hyp {name}: min f - f_lower over 2000 random points and x_min",
            float(min(np.min(cl.f(probe)), float(cl.f(cl.xstar))) - cl.flow),
            ">=",
            0.0,
        )
        F0 = float(cl.f(x0)) - cl.flow
        cg = np.cumsum(g2, axis=0)
        for T in horizons(g2.shape[0]):
            m, se = mc(cg[T - 1] / T)
            rhs = fourteen * F0 / (h * T) + seventy * cl.beta * h * sigma**2 / (K * S) * (
                1 + S / etag**2
            )
            yield Check(
                f"T⁻¹Σ_(r<T) E‖∇f(x^r)‖² ≤ {fourteen:g}F₀/(hT) + "
                f"({seventy:g}βhσ²/(KS))(1 + S/ηg²) ({tag}, T={T})",
                m,
                "<=",
                rhs,
                5 * se + 1e-12 * (1 + abs(rhs)),
            )


def goal(ctx: Context, twelve: float = 12.0, seventy: float = 70.0) -> Iterator[Check]:
    yield from convex_checks(ctx, twelve=twelve)
    yield from nonconvex_checks(ctx, seventy=seventy)


CLAIMS = [
    Claim(
        "gradient-growth",
        "N⁻¹Σ‖∇fᵢ(x) - ∇fᵢ(x⋆)‖² ≤ 2β(f(x) - f(x⋆)) at "
        "random points: exact for rational quadratics "
        "(equality when every Aᵢ = βI), floating point for logistic-plus-ridge clients",
        gradient_growth,
        {
            "2β → β": lambda ctx: gradient_growth(ctx, two=1),
            "convexity dropped (a concave client)": lambda ctx: gradient_growth(ctx, concave=True),
        },
    ),
    Claim(
        "perturbed-strong-convexity",
        "⟪∇fᵢ(x), z - y⟫ ≥ fᵢ(z) - fᵢ(y) + (μ/4)‖y - z‖² - "
        "β‖z - x‖² at random points (also y = x, z = x): "
        "exact for rational quadratics, floating point for a logistic client",
        psc,
        {
            "β‖z - x‖² → (β/4)‖z - x‖²": lambda ctx: psc(ctx, quarter_beta=True),
            "strong convexity dropped (a concave client, μ = 0)": lambda ctx: psc(
                ctx, concave=True
            ),
        },
    ),
    Claim(
        "convex-finite-round-convergence",
        "weighted average of simulated E[f(x^r) - f(x⋆)], "
        "r < T, ≤ V₀/(hW_T) + (12hσ²/(KS))(1 + S/ηg²) "
        "(5 s.e.) for several T",
        convex_checks,
        {
            "12 → 0.12 in the noise term": lambda ctx: convex_checks(
                ctx, names=("floor",), twelve=0.12
            ),
            "V₀ without (9Nh²/S)C₀ (x⁰ = x⋆, σ = 0, bad initial controls)": lambda ctx: (
                convex_checks(ctx, names=("badctrl",), drop_c0=True)
            ),
            "h ≤ 1/(81β) dropped (h = 5/β, ηg = 20)": lambda ctx: convex_checks(
                ctx, names=("bigstep",)
            ),
        },
    ),
    Claim(
        "nonconvex-finite-round-convergence",
        "T⁻¹Σ_(r<T) simulated E‖∇f(x^r)‖² ≤ 14F₀/(hT) + "
        "(70βhσ²/(KS))(1 + S/ηg²) (5 s.e.) for several T",
        nonconvex_checks,
        {
            "70 → 0.07 in the noise term": lambda ctx: nonconvex_checks(
                ctx, names=("floor",), seventy=0.07
            ),
            "14 → 0.014 in the F₀ term": lambda ctx: nonconvex_checks(
                ctx, names=("noiseless",), fourteen=0.014
            ),
            "h ≤ (S/N)^(2/3)/(24β) dropped (240× larger, ηg = 20)": lambda ctx: nonconvex_checks(
                ctx, names=("bigstep",)
            ),
        },
    ),
    Claim(
        "goal",
        "the convex and the nonconvex finite-round bounds together, on the same simulations",
        goal,
        {
            "12 → 0.12 (convex noise term)": lambda ctx: goal(ctx, twelve=0.12),
            "70 → 0.07 (nonconvex noise term)": lambda ctx: goal(ctx, seventy=0.07),
        },
    ),
]
