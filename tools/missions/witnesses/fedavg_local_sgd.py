"""Witness for ``fedavg-local-sgd``: local SGD / FedAvg (Wang et al., Section 6.1) simulated.

Clients (convex, common smoothness ``L``, bounded heterogeneity ``ζ``, all computed exactly):

* ``quad``: ``Fᵢ(x) = ½(x - bᵢ)ᵀA(x - bᵢ)`` with a common ``A`` (``L = λ_max(A)``); then
  ``∇Fᵢ - ∇F = A(b̄ - bᵢ)`` is constant and ``ζ = maxᵢ ‖A(bᵢ - b̄)‖`` exactly; ``x⋆ = b̄``.
* ``softplus``: ``Fᵢ(x) = (L₀/2)‖x‖² - bᵢᵀx + Σⱼ wᵢⱼ log(1 + e^{xⱼ})`` on ℝ² (``wᵢⱼ ≥ 0``), so
  ``L = L₀ + maxᵢⱼ wᵢⱼ/4`` and ``∇Fᵢ - ∇F = (b̄ - bᵢ) + (wᵢ - w̄) ∘ s(x)`` with ``s(x) ∈ (0, 1)²``:
  ``ζ`` is the maximum of that norm over the corners of the box (the exact supremum); ``x⋆`` by
  Newton. Here the local steps genuinely drift (unlike common-Hessian quadratics, where the shadow
  sequence is plain SGD).

Oracle: ``gᵢ = ∇Fᵢ(xᵢ) + N(0, σ²/d I)``, fresh and independent across clients, so the conditional
squared error is exactly ``σ²``. Expectations are Monte Carlo means over independent runs,
``slack`` = 5 standard errors (plus 1e-12 relative where everything is deterministic).

* ``goal`` (Theorem 1, (15)): ``E[(1/(τT)) Σ_{t<T} Σ_{k=1}^{τ} (F(x̄^{(t,k)}) - F(x⋆))] ≤
  D²/(2ητT) + ησ²/M + 4τη²Lσ² + 18τ²η²Lζ²`` for several T (prefixes of one simulation): a
  zero-noise, zero-heterogeneity instance (deterministic; the D² term then carries the bound),
  a noise instance started at ``x⋆`` with ``ηL = 1/400`` (the ``ησ²/M`` term carries it) and
  softplus instances with ``η = 1/(4L)`` and with drift.
* ``lemma-1``: conditionally on the round start (the round only depends on ``x̄^{(t,0)}``, common
  to all clients), at several start points, as the Monte Carlo mean of the per-run difference
  ``(1/τ)Σ_{k=1}^τ F(x̄^{(t,k)}) - F(x⋆) - (1/(2ητ))(‖x̄^{(t,0)} - x⋆‖² - ‖x̄^{(t,τ)} - x⋆‖²) - ησ²/M
  - (L/(Mτ)) Σᵢ Σ_{k<τ} ‖x_i^{(t,k)} - x̄^{(t,k)}‖² ≤ 0``.
* ``lemma-2``: conditionally on the round start, ``E[‖x_i^{(t,k)} - x̄^{(t,k)}‖²] ≤
  18τ²η²ζ² + 4τη²σ²`` for every client and every ``0 ≤ k ≤ τ``.
* ``tuned-step-bound`` ((16)–(17)): with ``η`` the printed minimum (instances where each of the
  four terms attains it), the expected average gap is at most
  ``2LD²/(τT) + 2σD/√(MτT) + 5L^{1/3}σ^{2/3}D^{4/3}/(τ^{1/3}T^{2/3})``
  ``+ 19L^{1/3}ζ^{2/3}D^{4/3}/T^{2/3}``.

The drift bound of Lemma 2 is loose by construction (the simulated drift stays below
``τ²η²ζ² + τη²σ²``), so its wrong variants shrink 18 and 4 to 0.5 and 0.4.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import numpy as np

from missions.witness import Check, Claim, Context


class Clients:
    def __init__(self, name: str, b: Any, A: Any = None, w: Any = None, L0: float = 0.0) -> None:
        self.name = name
        self.b = np.asarray(b, float)
        self.M, self.d = self.b.shape
        self.A: Any = None if A is None else np.asarray(A, float)
        self.w: Any = None if w is None else np.asarray(w, float)
        self.L0 = L0
        bbar = self.b.mean(0)
        if self.A is not None:
            self.L = float(np.linalg.eigvalsh(self.A)[-1])
            self.zeta = float(np.max(np.linalg.norm((self.b - bbar) @ self.A, axis=1)))
            self.xstar = bbar
        else:
            wv = np.asarray(w, float)
            self.L = L0 + float(np.max(wv)) / 4
            dw = wv - wv.mean(0)
            corners = np.array([[a, c] for a in (0.0, 1.0) for c in (0.0, 1.0)])
            diffs = (bbar - self.b)[:, None, :] + dw[:, None, :] * corners[None]
            self.zeta = float(np.max(np.linalg.norm(diffs, axis=-1)))
            x = np.zeros(self.d)
            for _ in range(60):  # Newton on the separable, strongly convex F
                s = 1 / (1 + np.exp(-x))
                g = L0 * x - bbar + wv.mean(0) * s
                H = L0 + wv.mean(0) * s * (1 - s)
                x = x - g / H
            self.xstar = x
        self.Fstar = float(self.F(self.xstar))

    def grads(self, x: np.ndarray) -> np.ndarray:
        """∇Fᵢ at x (..., M, d), client i at x[..., i, :]."""
        if self.A is not None:
            return (x - self.b) @ self.A
        return self.L0 * x - self.b + self.w / (1 + np.exp(-x))

    def F(self, x: np.ndarray) -> np.ndarray:
        """The global objective F = M⁻¹ Σ Fᵢ at x (..., d)."""
        if self.A is not None:
            e = x[..., None, :] - self.b
            return 0.5 * np.mean(np.sum((e @ self.A) * e, -1), -1)
        sp = np.logaddexp(0, x)
        return 0.5 * self.L0 * np.sum(x * x, -1) - x @ self.b.mean(0) + sp @ self.w.mean(0)

    def gradF(self, x: np.ndarray) -> np.ndarray:
        return np.mean(
            self.grads(np.broadcast_to(x[..., None, :], (*x.shape[:-1], self.M, self.d))), axis=-2
        )


def make_clients(seed: int) -> dict[str, Clients]:
    rng = np.random.default_rng([seed, 1])
    A = np.array([[1.5, 0.5], [0.5, 1.0]])
    b4 = 2 * rng.normal(size=(4, 2))
    u = rng.normal(size=(3, 2))
    return {
        "quad": Clients("quad M=4", b4, A=A),
        "quad-homog": Clients("quad M=4 (ζ = 0)", np.repeat(b4[:1], 4, 0), A=A),
        "quad-iso": Clients("quad M=2, A = I (ζ = 0)", np.repeat(b4[:1], 2, 0), A=np.eye(2)),
        "quad-tiny": Clients(
            "quad M=3, A = I (ζ < 1e-3)",
            b4[0] + 1e-3 * u / np.linalg.norm(u, axis=1, keepdims=True),
            A=np.eye(2),
        ),
        "softplus": Clients(
            "softplus M=4", rng.normal(size=(4, 2)), w=rng.uniform(0, 6, size=(4, 2)), L0=0.2
        ),
    }


def round_paths(
    cl: Clients, start: np.ndarray, tau: int, eta: float, sigma: float, rng: np.random.Generator
) -> np.ndarray:
    """One round from the common start x^{(t,0)} (R, "
    "d): states x_i^{(t,k)}, k = 0..τ, (τ+1, R, M, d)."""
    R = start.shape[0]
    x = np.repeat(start[:, None, :], cl.M, 1)
    out = np.empty((tau + 1, R, cl.M, cl.d))
    out[0] = x
    noise = sigma / np.sqrt(cl.d)
    for k in range(tau):
        x = x - eta * (cl.grads(x) + noise * rng.standard_normal(x.shape))
        out[k + 1] = x
    return out


@lru_cache(maxsize=32)
def theorem_run(seed: int, name: str, R: int) -> tuple[Clients, float, np.ndarray, np.ndarray]:
    """Full runs: per round t, the gaps F(x̄^{(t,k)}) - F⋆ for k = 1..τ, shape (T, τ, R)."""
    cfg = RUNS[name]
    cl = make_clients(seed)[cfg["cl"]]
    rng = np.random.default_rng([seed, 2, list(RUNS).index(name)])
    tau, T, sigma = cfg["tau"], cfg["T"], cfg["sigma"]
    eta = cfg["eta_L"] / cl.L if "eta_L" in cfg else tuned_eta(cl, cfg, sigma)
    x0 = cl.xstar + np.asarray(cfg["offset"], float)
    x = np.repeat(x0[None], R, 0)
    gaps = np.empty((T, tau, R))
    for t in range(T):
        P = round_paths(cl, x, tau, eta, sigma, rng)
        shadow = P.mean(2)  # (τ+1, R, d)
        gaps[t] = cl.F(shadow[1:]) - cl.Fstar
        x = shadow[tau]  # every client restarts from the average of the terminal states
    return cl, eta, x0, gaps


def tuned_eta(cl: Clients, cfg: dict[str, Any], sigma: float) -> float:
    D = float(np.linalg.norm(np.asarray(cfg["offset"], float)))
    tau, T, M, L, z = cfg["tau"], cfg["T"], cl.M, cl.L, cl.zeta
    return min(
        1 / (4 * L),
        np.sqrt(M) * D / (np.sqrt(tau) * np.sqrt(T) * sigma),
        D ** (2 / 3) / (tau ** (2 / 3) * T ** (1 / 3) * L ** (1 / 3) * sigma ** (2 / 3)),
        D ** (2 / 3) / (tau * T ** (1 / 3) * L ** (1 / 3) * z ** (2 / 3)),
    )


RUNS: dict[str, dict[str, Any]] = {
    # Theorem 1
    "gd": dict(cl="quad-homog", tau=3, T=40, sigma=0.0, eta_L=0.25, offset=[3.0, -2.0]),
    "noise": dict(cl="quad-iso", tau=1, T=1600, sigma=1.0, eta_L=1 / 400, offset=[0.0, 0.0]),
    "drift": dict(cl="softplus", tau=8, T=40, sigma=0.5, eta_L=0.25, offset=[3.0, -3.0]),
    "drift-small": dict(cl="softplus", tau=4, T=60, sigma=1.0, eta_L=0.05, offset=[-2.0, 1.0]),
    # tuned step (σ, ζ, D > 0)
    "tuned-L": dict(cl="quad-tiny", tau=1, T=4, sigma=0.001, offset=[3.0, 0.0]),
    "tuned-sigma": dict(cl="quad-tiny", tau=1, T=64, sigma=3.0, offset=[0.3, 0.4]),
    "tuned-tau": dict(cl="quad-tiny", tau=16, T=8, sigma=1.0, offset=[0.3, -0.4]),
    "tuned-zeta": dict(cl="softplus", tau=8, T=200, sigma=0.05, offset=[1.0, 1.0]),
}


def mc(x: np.ndarray) -> tuple[float, float]:
    return float(np.mean(x)), float(np.std(x) / np.sqrt(x.shape[-1]))


def horizons(T: int) -> list[int]:
    return sorted({1, 2, 5, T // 4, T // 2, T} - {0})


def hyp(cl: Clients, eta: float, tag: str, rng: np.random.Generator) -> Iterator[Check]:
    x = cl.xstar + 4 * rng.normal(size=(500, cl.d))
    het = np.max(
        np.linalg.norm(
            cl.grads(np.repeat(x[:, None, :], cl.M, 1)) - cl.gradF(x)[:, None, :], axis=-1
        )
    )
    yield Check(
        f"hyp {tag}: max over 500 points of ‖∇Fᵢ(x) - ∇F(x)‖ ≤ ζ", float(het), "<=", cl.zeta, 1e-12
    )
    yield Check(f"hyp {tag}: ‖∇F(x⋆)‖", float(np.linalg.norm(cl.gradF(cl.xstar))), "<=", 1e-12)
    yield Check(f"hyp {tag}: 0 < η ≤ 1/(4L)", eta, "<=", 1 / (4 * cl.L), 1e-15)


# ---------------------------------------------------------------- Theorem 1 (goal)


def theorem1(
    ctx: Context,
    names: tuple[str, ...] = ("gd", "noise", "drift", "drift-small"),
    c_d: float = 2.0,
    c_noise: float = 1.0,
    four: float = 4.0,
    eighteen: float = 18.0,
) -> Iterator[Check]:
    rng = ctx.rng(3)
    for name in names:
        R = ctx.size(quick=200, full=4000) if RUNS[name]["sigma"] > 0 else 1
        cl, eta, x0, gaps = theorem_run(ctx.seed, name, R)
        tau, sigma, M, L, z = RUNS[name]["tau"], RUNS[name]["sigma"], cl.M, cl.L, cl.zeta
        D2 = float(np.sum((x0 - cl.xstar) ** 2))
        tag = (
            f"{name}: {cl.name}, L={L:.4g}, ζ={z:.4g}, σ={sigma}, τ={tau}, η={eta:.4g}, "
            f"D={np.sqrt(D2):.3g}, {R} runs"
        )
        yield from hyp(cl, eta, name, rng)
        per_round = gaps.sum(1)  # Σ_{k=1}^{τ}, shape (T, R)
        cum = np.cumsum(per_round, axis=0)
        for T in horizons(gaps.shape[0]):
            m, se = mc(cum[T - 1] / (tau * T))
            rhs = (
                D2 / (c_d * eta * tau * T)
                + c_noise * eta * sigma**2 / M
                + four * tau * eta**2 * L * sigma**2
                + eighteen * tau**2 * eta**2 * L * z**2
            )
            yield Check(
                f"E[avg gap] ≤ D²/(2ητT) + ησ²/M + 4τη²Lσ² + 18τ²η²Lζ² ({tag}, T={T})",
                m,
                "<=",
                rhs,
                5 * se + 1e-12 * (1 + rhs),
            )


# ---------------------------------------------------------------- Lemmas 1 and 2 (one round)

LEMMA: dict[str, dict[str, Any]] = {
    "quad": dict(cl="quad", tau=4, sigma=1.0, eta_L=0.25),
    "quad-det": dict(cl="quad-homog", tau=4, sigma=0.0, eta_L=0.25),
    "quad-small": dict(cl="quad", tau=4, sigma=0.0, eta_L=0.025),
    "quad-noise": dict(cl="quad-homog", tau=6, sigma=1.0, eta_L=0.025),
    "softplus": dict(cl="softplus", tau=8, sigma=0.5, eta_L=0.25),
}


@lru_cache(maxsize=32)
def lemma_run(
    seed: int, name: str, R: int
) -> tuple[Clients, float, list[np.ndarray], list[np.ndarray]]:
    """One round from each of 4 start points (x⋆ and three others), R runs each."""
    cfg = LEMMA[name]
    cl = make_clients(seed)[cfg["cl"]]
    eta = cfg["eta_L"] / cl.L
    rng = np.random.default_rng([seed, 4, list(LEMMA).index(name)])
    starts = [cl.xstar] + [cl.xstar + 3 * rng.normal(size=cl.d) for _ in range(3)]
    return (
        cl,
        eta,
        starts,
        [
            round_paths(cl, np.repeat(s[None], R, 0), cfg["tau"], eta, cfg["sigma"], rng)
            for s in starts
        ],
    )


def lemma1(
    ctx: Context, names: tuple[str, ...] = tuple(LEMMA), c_d: float = 2.0, c_noise: float = 1.0
) -> Iterator[Check]:
    rng = ctx.rng(5)
    for name in names:
        sigma, tau = LEMMA[name]["sigma"], LEMMA[name]["tau"]
        R = ctx.size(quick=2000, full=40_000) if sigma > 0 else 1
        cl, eta, starts, paths = lemma_run(ctx.seed, name, R)
        yield from hyp(cl, eta, name, rng)
        M, L = cl.M, cl.L
        for j, (s, P) in enumerate(zip(starts, paths, strict=False)):
            shadow = P.mean(2)  # (τ+1, R, d)
            lhs = np.mean(cl.F(shadow[1:]), axis=0) - cl.Fstar
            dist = (
                np.sum((shadow[0] - cl.xstar) ** 2, -1) - np.sum((shadow[tau] - cl.xstar) ** 2, -1)
            ) / (c_d * eta * tau)
            drift = (
                L / (M * tau) * np.sum((P[:tau] - shadow[:tau, :, None, :]) ** 2, axis=(0, 2, 3))
            )
            phi = lhs - dist - c_noise * eta * sigma**2 / M - drift
            m, se = mc(phi)
            yield Check(
                "Lemma 1: E[(1/τ)ΣF(x̄ᵏ) - F⋆ | start] - RHS ≤ 0 "
                f"({name}: {cl.name}, L={L:.4g}, ζ={cl.zeta:.4g}, "
                f"σ={sigma}, τ={tau}, η={eta:.4g}, start #{j} "
                f"‖x̄⁰-x⋆‖={np.linalg.norm(s - cl.xstar):.3g}, {R} runs)",
                m,
                "<=",
                0.0,
                5 * se + 1e-12,
            )


def lemma2(
    ctx: Context, names: tuple[str, ...] = tuple(LEMMA), eighteen: float = 18.0, four: float = 4.0
) -> Iterator[Check]:
    rng = ctx.rng(6)
    for name in names:
        sigma, tau = LEMMA[name]["sigma"], LEMMA[name]["tau"]
        R = ctx.size(quick=2000, full=40_000) if sigma > 0 else 1
        cl, eta, _starts, paths = lemma_run(ctx.seed, name, R)
        yield from hyp(cl, eta, name, rng)
        bound = eighteen * tau**2 * eta**2 * cl.zeta**2 + four * tau * eta**2 * sigma**2
        for j, P in enumerate(paths):
            dev = np.sum((P - P.mean(2, keepdims=True)) ** 2, axis=-1)  # (τ+1, R, M)
            means = dev.mean(1)
            ses = dev.std(1) / np.sqrt(R)
            k, i = np.unravel_index(int(np.argmax(means - 5 * ses)), means.shape)
            yield Check(
                "Lemma 2: max over k ≤ τ, i of E[‖x_i^(t,k) "
                "- x̄^(t,k)‖² | start] ≤ 18τ²η²ζ² + 4τη²σ² "
                f"({name}: {cl.name}, ζ={cl.zeta:.4g}, σ={sigma}, "
                f"τ={tau}, η={eta:.4g}, start #{j}, worst k={k}, "
                f"i={i}, {R} runs)",
                float(means[k, i]),
                "<=",
                bound,
                float(5 * ses[k, i]) + 1e-12 * (1 + bound),
            )


# ---------------------------------------------------------------- tuned step (16)–(17)


def tuned(
    ctx: Context,
    names: tuple[str, ...] = ("tuned-L", "tuned-sigma", "tuned-tau", "tuned-zeta"),
    c: tuple[float, float, float, float] = (2, 2, 5, 19),
) -> Iterator[Check]:
    rng = ctx.rng(7)
    for name in names:
        cfg = RUNS[name]
        R = ctx.size(quick=200, full=4000)
        cl, eta, x0, gaps = theorem_run(ctx.seed, name, R)
        tau, T, sigma, M, L, z = cfg["tau"], cfg["T"], cfg["sigma"], cl.M, cl.L, cl.zeta
        D = float(np.linalg.norm(x0 - cl.xstar))
        cands = tuned_candidates(cl, cfg)
        which = [
            "1/(4L)",
            "√M D/(√τ√T σ)",
            "D^(2/3)/(τ^(2/3)T^(1/3)L^(1/3)σ^(2/3))",
            "D^(2/3)/(τT^(1/3)L^(1/3)ζ^(2/3))",
        ][int(np.argmin(cands))]
        yield from hyp(cl, eta, name, rng)
        yield Check(f"hyp {name}: σ, ζ, D > 0", min(sigma, z, D), ">", 0.0)
        yield Check(
            f"hyp {name}: η = the printed minimum (attained by {which})",
            eta,
            "==",
            min(cands),
            1e-15,
        )
        m, se = mc(gaps.sum((0, 1)) / (tau * T))
        rhs = (
            c[0] * L * D**2 / (tau * T)
            + c[1] * sigma * D / np.sqrt(M * tau * T)
            + c[2]
            * L ** (1 / 3)
            * sigma ** (2 / 3)
            * D ** (4 / 3)
            / (tau ** (1 / 3) * T ** (2 / 3))
            + c[3] * L ** (1 / 3) * z ** (2 / 3) * D ** (4 / 3) / T ** (2 / 3)
        )
        yield Check(
            f"E[avg gap] ≤ 2LD²/(τT) + 2σD/√(MτT) + 5L^⅓σ^⅔D^(4/3)/(τ^⅓T^⅔) + 19L^⅓ζ^⅔D^(4/3)/T^⅔ "
            f"({name}: {cl.name}, L={L:.4g}, ζ={z:.4g}, "
            f"σ={sigma}, τ={tau}, T={T}, D={D:.3g}, η={eta:.4g} "
            f"= {which}, {R} runs)",
            m,
            "<=",
            float(rhs),
            5 * se,
        )


def tuned_candidates(cl: Clients, cfg: dict[str, Any]) -> list[float]:
    D = float(np.linalg.norm(np.asarray(cfg["offset"], float)))
    tau, T, sigma, M, L, z = cfg["tau"], cfg["T"], cfg["sigma"], cl.M, cl.L, cl.zeta
    return [
        1 / (4 * L),
        np.sqrt(M) * D / (np.sqrt(tau) * np.sqrt(T) * sigma),
        D ** (2 / 3) / (tau ** (2 / 3) * T ** (1 / 3) * L ** (1 / 3) * sigma ** (2 / 3)),
        D ** (2 / 3) / (tau * T ** (1 / 3) * L ** (1 / 3) * z ** (2 / 3)),
    ]


CLAIMS = [
    Claim(
        "lemma-1",
        "conditionally on the round start, E[(1/τ)Σ_(k=1..τ) "
        "F(x̄^(t,k)) - F⋆] ≤ (1/(2ητ))(‖x̄^(t,0) - x⋆‖² - "
        "E‖x̄^(t,τ) - x⋆‖²) + ησ²/M + (L/(Mτ))ΣᵢΣ_(k<τ) E‖x_i^(t,k) - x̄^(t,k)‖² (5 s.e.)",
        lemma1,
        {
            "1/(2ητ) → 1/(8ητ)": lambda ctx: lemma1(ctx, names=("quad-det",), c_d=8.0),
            "ησ²/M → ησ²/(10M)": lambda ctx: lemma1(ctx, names=("quad-noise",), c_noise=0.1),
        },
    ),
    Claim(
        "lemma-2",
        "conditionally on the round start, E‖x_i^(t,k) - "
        "x̄^(t,k)‖² ≤ 18τ²η²ζ² + 4τη²σ² for every client and "
        "every 0 ≤ k ≤ τ (5 s.e.)",
        lemma2,
        {
            "18 → 0.5 (ζ term)": lambda ctx: lemma2(ctx, names=("quad-small",), eighteen=0.5),
            "4 → 0.4 (σ term)": lambda ctx: lemma2(ctx, names=("quad-noise",), four=0.4),
        },
    ),
    Claim(
        "goal",
        "Theorem 1 (15): simulated E[(1/(τT))Σ_tΣ_(k=1..τ)(F(x̄^(t,k)) "
        "- F⋆)] ≤ D²/(2ητT) + ησ²/M + 4τη²Lσ² + "
        "18τ²η²Lζ² for several T (5 s.e.)",
        theorem1,
        {
            "D²/(2ητT) → D²/(20ητT)": lambda ctx: theorem1(ctx, names=("gd",), c_d=20.0),
            "ησ²/M → ησ²/(10M)": lambda ctx: theorem1(ctx, names=("noise",), c_noise=0.1),
        },
    ),
    Claim(
        "tuned-step-bound",
        "with η the printed minimum ((16)), the simulated "
        "expected average gap ≤ the printed bound (17) (5 s.e.)",
        tuned,
        {
            "2LD²/(τT) → 0.2LD²/(τT)": lambda ctx: tuned(
                ctx, names=("tuned-L",), c=(0.2, 2, 5, 19)
            ),
        },
    ),
]
