"""Witness for ``lp-ft``: Kumar et al.'s perfect-feature LP-FT result on small exact instances.

Instances. Each instance is built from rational data, so that the hypotheses of
``PerfectFeatureRegime`` are verified exactly with ``Fraction`` arithmetic (the non-vacuity
evidence of the targets that assume it): ``B⋆`` is the first ``k`` rows of a rational
orthogonal ``d × d`` matrix (Cayley transform of an integer skew matrix), ``U`` is a rational
orthogonal ``k × k`` matrix (Cayley transform, or ``-1`` when ``k = 1``), ``v⋆ ≠ 0`` is an
integer vector, ``X`` is an integer ``n × d`` matrix of rank ``m`` divided by an integer (so
``λ_max(XᵀX) ≤ 1``; one instance has ``n > m``: a dependent row), the dimensions satisfy
``1 ≤ k ≤ m`` and ``m + k < d`` (one instance has ``k = m``), and the ranks of ``Π_S B₀ᵀ`` and
``Π_{S⊥} B₀ᵀ`` are ``k`` (injective projections). The OOD law is a non-centred Gaussian
``N(m₀, C)`` (Monte Carlo) and a finite non-centred law with rational weights (exact).

Flows. The LP and FT fields are the model's, with the factor 2 of the unnormalized loss:
``v' = -2 B Xᵀ r``, ``B' = -2 v (Xᵀ r)ᵀ``, ``r = X Bᵀ v - Y`` (LP: ``B = B₀`` frozen). They are
integrated by classical RK4 on a finite horizon (``1/λ_min⁺(XᵀX)`` for FT, until
``e^{-2λ_min(M)t} = 10⁻⁴`` for LP), each twice, with steps ``2h`` and ``h``, batched over random
initial values. A finite horizon and sampled times stand in for "every t ≥ 0". Per target:

* ``flow-well-posed``: the numerical LP and FT solutions are finite on the horizon, the training
  loss is nonincreasing along FT, the Grönwall a-priori bound
  ``‖(v, B)(t)‖_F ≤ ‖(v, B)(0)‖_F e^{2‖X‖‖r₀‖t}`` holds, and the two integrations from the same
  start agree (relative 1e-4 for FT, 1e-5 for LP): a numerical stand-in for existence and
  uniqueness on ``[0, ∞)``.
* ``features-orthogonal-unchanged``: ``‖(B(t) - B(0)) Π_{S⊥}‖_F ≤ 1e-10`` along FT from random
  ``(v₀, B)``.
* ``balancedness-invariant``: ``B Bᵀ - v vᵀ`` is conserved along FT, up to 1e-10 plus twice the
  difference between the two integrations (a Richardson allowance for the RK4 error).
* ``ood-risk-identity``: ``L_OOD = eᵀ Σ e`` (Monte Carlo within 5 standard errors for the
  Gaussian law; exactly for the finite law), ``L_OOD = 0`` exactly where ``Bᵀ v = w⋆`` (at
  ``(u, B₀)`` and at ``(2u, B₀/2)``) and only there.
* ``gaussian-head-misaligned``: for sampled ``v₀ ~ N(0, σ² I_k)`` and ``a ≠ 0``,
  ``min |⟪v₀, a⟫² - ‖a‖⁴| > 0``, and the frequency of the band ``|⟪v₀, a⟫² - ‖a‖⁴| < ‖a‖⁴/20`` is
  at most its Gaussian probability bound within 5 standard errors.
* ``lp-recovery``: exactly, ``B₀ᵀ u = w⋆``, the LP field is ``-2M(v - u)`` with
  ``M = B₀ Xᵀ X B₀ᵀ`` (checked at ``k + 1`` affinely independent heads), and ``M`` is positive
  definite (Sylvester), which certifies ``v(t) = u + e^{-2Mt}(v₀ - u) → u``; numerically, LP
  from random heads satisfies ``‖v(t) - u‖ ≤ e^{-2λ_min(M)t}‖v₀ - u‖`` (1e-4 relative allowance).
* ``lp-init-stationary``: the FT field at ``(u, B₀)`` is exactly ``0``; the numerical FT flow from
  ``(u, B₀)`` does not move (1e-12).
* ``goal``: LP converges to ``u``; LP-FT (FT from ``(u, B₀)``)
  has OOD loss ``eᵀΣe ≤ 1e-20`` (numerical zero) at every sampled time; FT from Gaussian heads
  ``v₀ ~ N(0, σ² I_k)`` (σ ∈ {0.1, 0.5, 1, 2}) has OOD loss above 1e-20 at every sampled time,
  for every sampled head. The
  OOD loss there is evaluated as ``eᵀΣe`` for the Gaussian law (the identity of
  ``ood-risk-identity``).

Non-vacuity: per target, one instance the checks use: a problem with its numerical FT flows
(``IsFlowOn`` is checked as the defect of the sampled path against a finer RK4 integration of
the field between samples, relative 1e-4, which rejects a path frozen halfway; ``x ∈ S⊥``
exactly; sampled times ≥ 0), the finite OOD law (weights, total mass, positive-definite second
moment, exactly), the head scale and direction of the misalignment statement, and for the goal
the regime, the Gaussian OOD law, σ, the LP flows, the LP-FT flow and the FT flows together.

Constants: the identities (balancedness, the OOD risk, the limit and the stationary point) are
exposed as coefficients (−1 of ``vvᵀ``, 1 of ``eᵀΣe``, 1·u) and caught at 1%; the flow and
misalignment statements state no number (their strength is their variants).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from missions.witness import Check, Claim, Constant, Context, NonVacuity, hyp

F = Fraction
Mat = list[list[Fraction]]
Traj3 = tuple[np.ndarray, np.ndarray, np.ndarray]  # times, heads, features
Traj2 = tuple[np.ndarray, np.ndarray]  # times, heads

# ---------------------------------------------------------------- exact linear algebra


def eye(n: int) -> Mat:
    return [[F(int(i == j)) for j in range(n)] for i in range(n)]


def mm(a: Mat, b: Mat) -> Mat:
    bt = list(zip(*b, strict=False))
    return [[sum((x * y for x, y in zip(row, col, strict=False)), F(0)) for col in bt] for row in a]


def tr(a: Mat) -> Mat:
    return [list(col) for col in zip(*a, strict=False)]


def add(a: Mat, b: Mat, s: int = 1) -> Mat:
    return [[x + s * y for x, y in zip(ra, rb, strict=False)] for ra, rb in zip(a, b, strict=False)]


def inv(a: Mat) -> Mat:
    n = len(a)
    m = [row[:] + e for row, e in zip(a, eye(n), strict=False)]
    for c in range(n):
        p = next(r for r in range(c, n) if m[r][c] != 0)
        m[c], m[p] = m[p], m[c]
        piv = m[c][c]
        m[c] = [x / piv for x in m[c]]
        for r in range(n):
            if r != c and m[r][c] != 0:
                f = m[r][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=False)]
    return [row[n:] for row in m]


def rank(a: Mat) -> int:
    m = [row[:] for row in a]
    rows, cols, r = len(m), len(m[0]) if m else 0, 0
    for c in range(cols):
        p = next((i for i in range(r, rows) if m[i][c] != 0), None)
        if p is None:
            continue
        m[r], m[p] = m[p], m[r]
        for i in range(r + 1, rows):
            if m[i][c] != 0:
                f = m[i][c] / m[r][c]
                m[i] = [x - f * y for x, y in zip(m[i], m[r], strict=False)]
        r += 1
    return r


def cayley(skew: Mat) -> Mat:
    """(I - A)(I + A)⁻¹: a rational orthogonal matrix for a rational skew matrix A."""
    n = len(skew)
    return mm(add(eye(n), skew, -1), inv(add(eye(n), skew)))


def col(v: list[Fraction]) -> Mat:
    return [[x] for x in v]


def flat(a: Mat) -> list[Fraction]:
    return [x for row in a for x in row]


def npa(a: Any) -> np.ndarray:
    return (
        np.array([[float(x) for x in row] for row in a])
        if isinstance(a[0], list)
        else np.array([float(x) for x in a])
    )


# ---------------------------------------------------------------- instances


class Instance:
    """Exact data of one problem plus float copies (``regime_evidence`` verifies the hypotheses
    of ``PerfectFeatureRegime`` exactly)."""

    def __init__(self, label: str, Bstar: Mat, vstar: list[Fraction], U: Mat, X: Mat):
        self.label = label
        self.d, self.k, self.n = len(Bstar[0]), len(Bstar), len(X)
        self.Bstar, self.vstar, self.U, self.X = Bstar, vstar, U, X
        self.B0 = mm(U, Bstar)
        self.u = flat(mm(U, col(vstar)))
        self.wstar = flat(mm(tr(Bstar), col(vstar)))
        self.m = rank(X)
        basis = independent_rows(X)
        self.PS = mm(mm(tr(basis), inv(mm(basis, tr(basis)))), basis)  # Π_S, exact
        self.Pperp = add(eye(self.d), self.PS, -1)
        # floats
        self.Xf, self.B0f, self.uf = npa(X), npa(self.B0), npa(self.u)
        self.wf, self.vstarf = npa(self.wstar), npa(vstar)
        self.G = self.Xf.T @ self.Xf
        self.PSf, self.Pperpf = npa(self.PS), npa(self.Pperp)


def independent_rows(X: Mat) -> Mat:
    rows: Mat = []
    for row in X:
        if rank([*rows, row]) > len(rows):
            rows.append(row)
    return rows


def rand_skew(rng: np.random.Generator, n: int) -> np.ndarray:
    """An integer/2 skew matrix (as an integer array ``A2 = 2A``)."""
    up = np.triu(rng.integers(-3, 4, size=(n, n)), 1)
    return up - up.T


def cayley_exact(a2: np.ndarray) -> Mat:
    return cayley([[F(int(x), 2) for x in row] for row in a2])


def cayley_float(a2: np.ndarray) -> np.ndarray:
    a, i = a2 / 2.0, np.eye(len(a2))
    return (i - a) @ np.linalg.inv(i + a)


def build(
    rng: np.random.Generator, d: int, k: int, m: int, n: int, bad_span: bool = False
) -> Instance:
    """A regime instance (or, with ``bad_span``, one whose first feature direction is ⊥ S).

    Draws are screened in floating point first (well-conditioned S, principal cosines ≥ 0.3);
    the accepted draw is then built exactly and its hypotheses are verified exactly."""
    for _ in range(200):
        qa, ua = rand_skew(rng, d), rand_skew(rng, k)
        vs = rng.integers(-3, 4, size=k)
        coef = rng.integers(-3, 4, size=(m, d - 1 if bad_span else d))
        extra = rng.integers(-2, 3, size=(n - m, m))
        if not vs.any():
            continue
        Qf = cayley_float(qa)
        Uf = -np.eye(1) if k == 1 else cayley_float(ua)
        base_f = coef @ Qf[1:] if bad_span else coef.astype(float)
        Xf = np.vstack([base_f, extra @ base_f])
        ev = np.linalg.eigvalsh(Xf.T @ Xf)[::-1]
        if ev[m - 1] <= 1e-9 or ev[0] / ev[m - 1] > 8 or (m < d and ev[m] > 1e-9):
            continue  # rank m and S well conditioned (a quick, stable RK4)
        if not bad_span:
            basis = np.linalg.svd(Xf)[2][:m]
            B0f = Uf @ Qf[:k]
            cos_s = np.linalg.svd(B0f @ basis.T, compute_uv=False)
            cos_p = np.linalg.svd(B0f @ (np.eye(d) - basis.T @ basis), compute_uv=False)
            if min(cos_s.min(), cos_p.min()) < 0.3:  # principal cosines bounded away from 0
                continue
            em = np.linalg.eigvalsh(B0f @ Xf.T @ Xf @ B0f.T)
            if em[-1] / em[0] > 8:  # LP converges in a short horizon
                continue
        s = int(np.ceil(np.sqrt(ev[0])))  # scale X by 1/s: λ_max(XᵀX) ≤ 1, still rational
        Q = cayley_exact(qa)
        U = [[F(-1)]] if k == 1 else cayley_exact(ua)
        if bad_span:  # rows of X in the span of Q's rows 1..d-1, so Q[0] (a row of B⋆) is ⊥ S
            base = [
                [sum((F(int(c)) * Q[j + 1][t] for j, c in enumerate(cr)), F(0)) for t in range(d)]
                for cr in coef
            ]
        else:
            base = [[F(int(x)) for x in r] for r in coef]
        X = base + [
            [sum((F(int(c)) * base[j][t] for j, c in enumerate(cr)), F(0)) for t in range(d)]
            for cr in extra
        ]
        X = [[x / s for x in row] for row in X]
        inst = Instance(
            f"d={d},k={k},n={n},m={m}" + (",Q₀⊥S" if bad_span else ""),
            Q[:k],
            [F(int(x)) for x in vs],
            U,
            X,
        )
        if bad_span or all(c.holds() for c in regime_evidence(inst)):
            return inst
    raise RuntimeError("no instance found")


SIGMAS = (0.1, 0.5, 1.0, 2.0)  # scales of the Gaussian heads
SPECS = ((4, 1, 2, 2), (6, 2, 3, 4), (5, 2, 2, 2), (7, 3, 3, 3))  # (d, k, m, n)


@lru_cache(maxsize=4)
def instances(seed: int) -> tuple[Instance, ...]:
    rng = np.random.default_rng([seed, 101])
    return tuple(build(rng, *s) for s in SPECS)


@lru_cache(maxsize=4)
def bad_instance(seed: int) -> Instance:
    return build(np.random.default_rng([seed, 102]), 6, 2, 3, 3, bad_span=True)


# ---------------------------------------------------------------- flows


def ft_field(
    inst: Instance, v: np.ndarray, B: np.ndarray, sign: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """Batched FT field: v (b,k), B (b,k,d) -> (-2 B Xᵀr, -2 v (Xᵀr)ᵀ), Xᵀr = XᵀX (Bᵀv - w⋆)."""
    g = ((v[:, None, :] @ B)[:, 0, :] - inst.wf) @ inst.G  # Xᵀ r, using Y = X w⋆
    return (-2.0 * sign) * (B @ g[:, :, None])[:, :, 0], (-2.0 * sign) * v[:, :, None] * g[
        :, None, :
    ]


def rk4_ft(
    inst: Instance, v0: Any, B0: Any, t_end: float, steps: int, samples: int, sign: float = 1.0
) -> Traj3:
    """RK4 for FT; returns the times and states at ``samples + 1`` equally spaced times."""
    v, B = np.array(v0, float), np.array(B0, float)
    h = t_end / steps
    every = steps // samples
    ts, vs, Bs = [0.0], [v.copy()], [B.copy()]
    with np.errstate(all="ignore"):
        for s in range(1, steps + 1):
            k1 = ft_field(inst, v, B, sign)
            k2 = ft_field(inst, v + h / 2 * k1[0], B + h / 2 * k1[1], sign)
            k3 = ft_field(inst, v + h / 2 * k2[0], B + h / 2 * k2[1], sign)
            k4 = ft_field(inst, v + h * k3[0], B + h * k3[1], sign)
            v = v + (h / 6) * (k1[0] + k4[0] + 2 * (k2[0] + k3[0]))
            B = B + (h / 6) * (k1[1] + k4[1] + 2 * (k2[1] + k3[1]))
            if s % every == 0:
                ts.append(s * h)
                vs.append(v.copy())
                Bs.append(B.copy())
    return np.array(ts), np.array(vs), np.array(Bs)


def rk4_lp(
    inst: Instance, v0: Any, t_end: float, steps: int, samples: int, sign: float = 1.0
) -> Traj2:
    """RK4 for LP, v' = -2 B₀ Xᵀ (X B₀ᵀ v - Y) (batched over rows of v0)."""
    B0, G, w = inst.B0f, inst.G, inst.wf
    f = lambda v: sign * -2.0 * ((v @ B0 - w) @ G) @ B0.T  # noqa: E731
    v, h, every = np.array(v0, float), t_end / steps, steps // samples
    ts, vs = [0.0], [v.copy()]
    for s in range(1, steps + 1):
        k1 = f(v)
        k2 = f(v + h / 2 * k1)
        k3 = f(v + h / 2 * k2)
        k4 = f(v + h * k3)
        v = v + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        if s % every == 0:
            ts.append(s * h)
            vs.append(v.copy())
    return np.array(ts), np.array(vs)


def train_loss(inst: Instance, v: np.ndarray, B: np.ndarray) -> np.ndarray:
    e = np.einsum("...kd,...k->...d", B, v) - inst.wf
    return np.einsum("...d,de,...e->...", e, inst.G, e)


def ft_scale(inst: Instance, v0: np.ndarray, B0: np.ndarray) -> tuple[float, int]:
    """Horizon ``1/λ_min⁺(XᵀX)`` and a step count with ``h · 4λ_max(XᵀX)‖(v₀, B₀)‖² ≈ 0.2`` (the
    norm roughly doubles along the flow)."""
    ev = np.linalg.eigvalsh(inst.G)
    lam_min, lam_max = float(ev[ev > 1e-9].min()), float(ev[-1])
    size = float(np.max(np.sum(v0**2, axis=1) + np.sum(B0**2, axis=(1, 2))))
    t_end = 1.0 / lam_min
    steps = max(100, int(np.ceil(t_end * 4 * lam_max * size / 0.2)))
    return t_end, steps + (-steps) % 40


def rand_ft_starts(
    rng: np.random.Generator, inst: Instance, b: int, around_B0: bool
) -> tuple[np.ndarray, np.ndarray]:
    """``b`` heads ``v₀ ~ N(0, σ² I_k)``, σ cycling through ``SIGMAS``, with features ``B₀`` or
    ``B₀ + N(0, 0.3²)`` noise."""
    v0 = np.resize(np.array(SIGMAS), b)[:, None] * rng.normal(size=(b, inst.k))
    if around_B0:
        return v0, np.repeat(inst.B0f[None], b, axis=0)
    return v0, inst.B0f[None] + 0.3 * rng.normal(size=(b, inst.k, inst.d))


@lru_cache(maxsize=32)
def ft_runs(seed: int, idx: int, b: int, around_B0: bool) -> tuple[Traj3, Traj3]:
    """FT from ``b`` random starts of instance ``idx``, with steps ``2h`` and ``h`` (cached: the
    flow, feature, balancedness and goal claims share these integrations)."""
    inst = instances(seed)[idx]
    rng = np.random.default_rng([seed, 200 + idx, int(around_B0)])
    v0, B0 = rand_ft_starts(rng, inst, b, around_B0)
    t_end, steps = ft_scale(inst, v0, B0)
    return rk4_ft(inst, v0, B0, t_end, steps // 2, 20), rk4_ft(inst, v0, B0, t_end, steps, 20)


@lru_cache(maxsize=32)
def lp_runs(seed: int, idx: int, b: int, bad: bool = False) -> tuple[float, Traj2, Traj2]:
    """LP from ``b`` random heads until ``e^{-2 λ_min(M) T} = 10⁻⁴``, steps ``2h`` and ``h`` with
    ``2 λ_max(M) h = 0.1`` (the variant instance keeps the horizon of a regime instance)."""
    inst = bad_instance(seed) if bad else instances(seed)[idx]
    ref = instances(seed)[1] if bad else inst
    ev = np.linalg.eigvalsh(ref.B0f @ ref.G @ ref.B0f.T)
    t_end = float(np.log(1e4) / (2 * ev[0]))
    steps = int(np.ceil(t_end * ev[-1] / 0.05))
    steps += (-steps) % 40
    rng = np.random.default_rng([seed, 700 + idx, int(bad)])
    v0 = inst.uf + 3 * rng.normal(size=(b, inst.k))
    return float(ev[0]), rk4_lp(inst, v0, t_end, steps // 2, 20), rk4_lp(inst, v0, t_end, steps, 20)


def det(a: Mat) -> Fraction:
    m, n, out = [row[:] for row in a], len(a), F(1)
    for c in range(n):
        p = next((r for r in range(c, n) if m[r][c] != 0), None)
        if p is None:
            return F(0)
        if p != c:
            m[c], m[p], out = m[p], m[c], -out
        out *= m[c][c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=False)]
    return out


# ---------------------------------------------------------------- the instances


def nb(ctx: Context) -> int:
    """FT starts per instance."""
    return ctx.size(quick=4, full=24)


def nlp(ctx: Context) -> int:
    """LP heads per instance."""
    return ctx.size(quick=16, full=256)


def size_pq(vs: np.ndarray, Bs: np.ndarray) -> np.ndarray:
    return np.sqrt(np.sum(vs**2, axis=-1) + np.sum(Bs**2, axis=(-2, -1)))


@dataclass
class FlowCase:
    """A problem and numerical FT flows from ``b`` starts: ``gamma`` integrated with step 2h,
    ``eta`` with step h, both sampled at the times ``ts``; ``x_perp`` is a vector of S⊥
    (exact)."""

    inst: Instance
    ts: np.ndarray
    gamma: tuple[np.ndarray, np.ndarray]
    eta: tuple[np.ndarray, np.ndarray]
    x_perp: list[Fraction]

    def __str__(self) -> str:
        return (
            f"problem {self.inst.label}, {self.gamma[0].shape[1]} numerical FT flows (RK4, "
            f"steps 2h and h) sampled at {len(self.ts)} times t ≤ {self.ts[-1]:.3g}, x = Π_S⊥ e₁"
        )


def ft_case(ctx: Context, idx: int, around_B0: bool) -> FlowCase:
    inst = instances(ctx.seed)[idx]
    (ts, v1, B1), (_, v2, B2) = ft_runs(ctx.seed, idx, nb(ctx), around_B0)
    x_perp = [row[0] for row in inst.Pperp]  # Π_S⊥ e₁
    return FlowCase(inst, ts, (v1, B1), (v2, B2), x_perp)


@dataclass
class LpCase:
    """A problem and numerical LP flows from random heads (steps 2h and h)."""

    inst: Instance
    lam_min: float
    ts: np.ndarray
    gamma: np.ndarray
    eta: np.ndarray

    def __str__(self) -> str:
        return (
            f"problem {self.inst.label} (the perfect-feature regime, exact), "
            f"{self.gamma.shape[1]} numerical LP flows (RK4) sampled at {len(self.ts)} times "
            f"t ≤ {self.ts[-1]:.3g}"
        )


def lp_case(ctx: Context, idx: int, bad: bool = False) -> LpCase:
    lam_min, (ts, a), (_, c) = lp_runs(ctx.seed, idx, nlp(ctx), bad)
    inst = bad_instance(ctx.seed) if bad else instances(ctx.seed)[idx]
    return LpCase(inst, lam_min, ts, a, c)


@dataclass
class StationaryCase:
    """A problem and the numerical FT flow from (s·u, B₀) (s = 1: LP-FT)."""

    inst: Instance
    head_scale: float
    ts: np.ndarray
    vs: np.ndarray
    Bs: np.ndarray

    def __str__(self) -> str:
        return (
            f"problem {self.inst.label} (the perfect-feature regime, exact), the numerical FT "
            f"flow from (u, B₀) sampled at {len(self.ts)} times t ≤ {self.ts[-1]:.3g}"
        )


def stationary_case(
    ctx: Context, idx: int, head: str = "u", head_scale: float = 1.0
) -> StationaryCase:
    inst = instances(ctx.seed)[idx]
    ts, vs, Bs = from_head(ctx.seed, idx, head, head_scale)
    return StationaryCase(inst, head_scale, ts, vs, Bs)


@dataclass
class GoalCase:
    """Everything Proposition 3.7 quantifies over, for one problem: the OOD law
    ``N(m₀, C)`` (Σ = C + m₀m₀ᵀ), the head scales σ, the LP flows, the LP-FT flow and FT flows
    from Gaussian heads ``(v₀, B₀)``."""

    inst: Instance
    mean: np.ndarray
    C: np.ndarray
    sigmas: tuple[float, ...]
    lp: LpCase
    lpft: StationaryCase
    ft: FlowCase

    @property
    def Sigma(self) -> np.ndarray:
        return self.C + np.outer(self.mean, self.mean)

    def __str__(self) -> str:
        return (
            f"problem {self.inst.label} (the perfect-feature regime, exact), OOD law N(m₀, C), "
            f"σ ∈ {self.sigmas}, {self.lp.gamma.shape[1]} LP flows, the LP-FT flow, "
            f"{self.ft.gamma[0].shape[1]} FT flows from Gaussian heads"
        )


def goal_case(ctx: Context, idx: int, head_scale: float = 1.0) -> GoalCase:
    inst = instances(ctx.seed)[idx]
    mean, C = ood_law(inst, ctx.rng(500 + idx))
    return GoalCase(
        inst,
        mean,
        C,
        SIGMAS,
        ctx.instance(lp_case, idx),
        ctx.instance(stationary_case, idx, "u", head_scale),
        ctx.instance(ft_case, idx, True),
    )


@dataclass
class OodCase:
    """A problem and a finite non-centred OOD law (rational points and weights)."""

    inst: Instance
    points: list[list[Fraction]]
    weights: list[Fraction]

    def __str__(self) -> str:
        return (
            f"problem {self.inst.label}, μ = a law on {len(self.points)} rational points with "
            f"positive rational weights"
        )


def ood_case(ctx: Context, idx: int) -> OodCase:
    inst = instances(ctx.seed)[idx]
    pts, wts = finite_law(inst, ctx.rng(550 + idx))
    return OodCase(inst, pts, wts)


@dataclass
class HeadCase:
    """``k``, ``σ`` and the direction ``a`` of the misalignment statement."""

    k: int
    sigma: float
    a: np.ndarray

    def __str__(self) -> str:
        return f"k = {self.k}, σ = {self.sigma}, a = {np.round(self.a, 3).tolist()}"


def head_case(ctx: Context, k: int, sigma: float) -> HeadCase:
    return HeadCase(
        k, sigma, np.random.default_rng([ctx.seed, 610, k, int(10 * sigma)]).normal(size=k)
    )


# ---------------------------------------------------------------- claims


def flow_well_posed(ctx: Context, sign: float = 1.0, perturb: float = 0.0) -> Iterator[Check]:
    for idx, inst in enumerate(instances(ctx.seed)):
        case = ctx.instance(ft_case, idx, False)
        ts, (vs1, Bs1), (vs, Bs) = case.ts, case.gamma, case.eta
        if sign < 0 or perturb:  # a variant: integrate the changed problem the same way
            steps = round(ts[-1] / (ts[1] - ts[0])) * 20
            v0 = vs[0] + perturb * np.random.default_rng([ctx.seed, 300 + idx]).normal(
                size=vs[0].shape
            )
            if sign < 0:
                ts, vs1, Bs1 = rk4_ft(inst, vs[0], Bs[0], ts[-1], steps // 2, 20, sign)
                _, vs, Bs = rk4_ft(inst, vs[0], Bs[0], ts[-1], steps, 20, sign)
            else:
                _, vs1, Bs1 = rk4_ft(inst, v0, Bs[0], ts[-1], steps, 20, sign)
        tag = f"{inst.label}, {vs.shape[1]} random FT starts, t ≤ {ts[-1]:.3g}"
        finite = bool(np.all(np.isfinite(vs)) and np.all(np.isfinite(Bs)))
        yield Check(f"FT solution finite on the horizon ({tag})", int(finite), "==", 1)
        with np.errstate(all="ignore"):
            loss = train_loss(inst, vs, Bs)
            incr = float(np.nan_to_num(np.max(np.diff(loss, axis=0) / (1 + loss[0])), nan=np.inf))
            yield Check(
                f"FT training loss nonincreasing: max relative increase ({tag})", incr, "<=", 1e-12
            )
            Xop = float(np.linalg.norm(inst.Xf, 2))
            gron = size_pq(vs[0], Bs[0]) * np.exp(2 * Xop * np.sqrt(loss[0]) * ts[:, None])
            ratio = float(np.nan_to_num(np.max(size_pq(vs, Bs) / gron), nan=np.inf))
            yield Check(
                f"Grönwall bound: max_t ‖(v,B)(t)‖_F / (‖(v,B)(0)‖_F e^(2‖X‖‖r₀‖t)) ({tag})",
                ratio,
                "<=",
                1.0 + 1e-12,
            )
            gap = size_pq(vs - vs1, Bs - Bs1)
            rel = float(np.nan_to_num(np.max(gap / (1 + size_pq(vs, Bs))), nan=np.inf))
        yield Check(
            f"two FT integrations (steps 2h, h) from the same start agree, relative ({tag})",
            rel,
            "==",
            0.0,
            1e-4,
        )
        lp = ctx.instance(lp_case, idx)
        tl, a, c = lp.ts, lp.gamma, lp.eta
        if sign < 0:
            a, c = (
                rk4_lp(inst, a[0], tl[-1], 400, 20, sign)[1],
                rk4_lp(inst, a[0], tl[-1], 800, 20, sign)[1],
            )
        with np.errstate(all="ignore"):
            rel = float(np.nan_to_num(np.max(np.abs(a - c)) / (1 + np.max(np.abs(c))), nan=np.inf))
            tag = f"{inst.label}, {a.shape[1]} random heads, t ≤ {tl[-1]:.3g}"
            yield Check(
                f"LP solution finite on the horizon ({tag})",
                int(bool(np.all(np.isfinite(c)))),
                "==",
                1,
            )
            yield Check(
                f"two LP integrations (steps 2h, h) from the same head agree, relative ({tag})",
                rel,
                "==",
                0.0,
                1e-5,
            )


def features_unchanged(ctx: Context, use_span: bool = False) -> Iterator[Check]:
    for idx, inst in enumerate(instances(ctx.seed)):
        case = ctx.instance(ft_case, idx, False)
        ts, (_vs, Bs) = case.ts, case.eta
        P = inst.PSf if use_span else inst.Pperpf
        drift = np.sqrt(np.sum(((Bs - Bs[0]) @ P) ** 2, axis=(2, 3)))
        name = "S" if use_span else "S⊥"
        yield Check(
            f"max_t ‖(B(t) - B(0)) Π_{name}‖_F ({inst.label}, "
            f"{Bs.shape[1]} random (v₀, B), t ≤ {ts[-1]:.3g})",
            float(np.max(drift)),
            "==",
            0.0,
            1e-10,
        )


def balancedness(ctx: Context, vv_coef: float = -1.0) -> Iterator[Check]:
    """Deviation of the finer integration (step h) against 1e-10 plus twice the difference of the
    two integrations (Richardson: the error at step h is about 1/15 of that difference)."""
    op = "-" if vv_coef < 0 else "+"
    for idx, inst in enumerate(instances(ctx.seed)):
        for around in (False, True):
            case = ctx.instance(ft_case, idx, around)
            ts, (v1, B1), (vs, Bs) = case.ts, case.gamma, case.eta
            D = np.einsum("tbkd,tbjd->tbkj", Bs, Bs) + vv_coef * np.einsum("tbk,tbj->tbkj", vs, vs)
            D1 = np.einsum("tbkd,tbjd->tbkj", B1, B1) + vv_coef * np.einsum("tbk,tbj->tbkj", v1, v1)
            dev = float(np.max(np.sqrt(np.sum((D - D[0]) ** 2, axis=(2, 3)))))
            err = float(np.max(np.sqrt(np.sum((D - D1) ** 2, axis=(2, 3)))))
            start = "(v₀, B₀)" if around else "(v₀, B₀ + noise)"
            yield Check(
                f"max_t ‖BBᵀ {op} vvᵀ - (same at 0)‖_F ({inst.label}, "
                f"{vs.shape[1]} random {start}, t ≤ {ts[-1]:.3g}; "
                f"slack = 2 × |step 2h - step h|)",
                dev,
                "==",
                0.0,
                1e-10 + 2 * err,
            )


def ood_law(inst: Instance, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A non-centred Gaussian OOD law N(m₀, C), C positive definite."""
    d = inst.d
    mean = rng.normal(size=d) + 1.0
    Lc = rng.normal(size=(d, d)) / np.sqrt(d)
    return mean, Lc @ Lc.T + 0.2 * np.eye(d)


def finite_law(
    inst: Instance, rng: np.random.Generator
) -> tuple[list[list[Fraction]], list[Fraction]]:
    """d + 2 rational points (non-centred) with positive rational weights summing to 1."""
    d = inst.d
    pts = [[F(int(x)) + 1 for x in row] for row in rng.integers(-3, 4, size=(d + 2, d))]
    raw = [F(int(x)) for x in rng.integers(1, 6, size=d + 2)]
    tot = sum(raw, F(0))
    return pts, [x / tot for x in raw]


def dot(a: list[Fraction], b: list[Fraction]) -> Fraction:
    return sum((x * y for x, y in zip(a, b, strict=False)), F(0))


def second_moment(points: list[list[Fraction]], weights: list[Fraction], d: int) -> Mat:
    return [
        [
            sum((w * p[a] * p[c] for p, w in zip(points, weights, strict=False)), F(0))
            for c in range(d)
        ]
        for a in range(d)
    ]


def ood_identity(ctx: Context, centred: bool = False, quad_coef: float = 1.0) -> Iterator[Check]:
    n_mc = ctx.size(quick=40_000, full=1_000_000)
    coef = F(quad_coef).limit_denominator(10**12)
    for idx, inst in enumerate(instances(ctx.seed)):
        rng = ctx.rng(500 + idx)
        mean, C = ood_law(inst, rng)
        Sigma = C + (0.0 if centred else 1.0) * np.outer(mean, mean)
        x = mean + rng.normal(size=(n_mc, inst.d)) @ np.linalg.cholesky(C).T
        for j in range(2):
            v = rng.normal(size=inst.k)
            B = inst.B0f + rng.normal(size=(inst.k, inst.d))
            e = B.T @ v - inst.wf
            vals = (x @ (B.T @ v) - x @ inst.wf) ** 2
            est, se = float(vals.mean()), float(vals.std() / np.sqrt(n_mc))
            yield Check(
                f"MC L_OOD vs eᵀΣe, 5 s.e. ({inst.label}, "
                f"N(m₀,C) with ‖m₀‖={np.linalg.norm(mean):.2f}, "
                f"{n_mc} draws, random (v,B) #{j})",
                est,
                "==",
                quad_coef * float(e @ Sigma @ e),
                5 * se,
            )
        law = ctx.instance(ood_case, idx)
        pts, wts = law.points, law.weights
        Sig = second_moment(pts, wts, inst.d)
        if centred:
            mu = [
                sum((w * p[a] for p, w in zip(pts, wts, strict=False)), F(0)) for a in range(inst.d)
            ]
            Sig = add(Sig, mm(col(mu), [mu]), -1)
        rng = ctx.rng(560 + idx)
        cases = [
            (
                "random rational (v,B)",
                [F(int(t)) for t in rng.integers(-3, 4, size=inst.k)],
                [[F(int(t), 2) for t in r] for r in rng.integers(-3, 4, size=(inst.k, inst.d))],
            ),
            ("(u, B₀)", inst.u, inst.B0),
            ("(2u, B₀/2)", [2 * t for t in inst.u], [[t / 2 for t in r] for r in inst.B0]),
        ]
        for name, v, B in cases:
            e = [a - c for a, c in zip(flat(mm(tr(B), col(v))), inst.wstar, strict=False)]
            loss = sum(
                (
                    w * (dot(v, flat(mm(B, col(p)))) - dot(inst.wstar, p)) ** 2
                    for p, w in zip(pts, wts, strict=False)
                ),
                F(0),
            )
            quad = sum(
                (e[a] * Sig[a][c] * e[c] for a in range(inst.d) for c in range(inst.d)), F(0)
            )
            yield Check(
                f"exact L_OOD = eᵀΣe ({inst.label}, finite law, {name})", loss, "==", coef * quad
            )
            zero_e = all(t == 0 for t in e)
            yield Check(
                f"[L_OOD = 0] = [Bᵀv = w⋆] ({inst.label}, finite law, {name}, Bᵀv = w⋆: {zero_e})",
                int(loss == 0),
                "==",
                int(zero_e),
            )


def misaligned(ctx: Context, law: str = "gaussian", a_zero: bool = False) -> Iterator[Check]:
    n = ctx.size(quick=50_000, full=2_000_000)
    rng = ctx.rng(600)
    for k in (1, 2, 5):
        for sigma in (0.3, 1.0, 2.5):
            a = ctx.instance(head_case, k, sigma).a
            if law == "rademacher":
                a = np.zeros(k)
                a[0] = sigma
            if a_zero:
                a = np.zeros(k)
            v = sigma * (
                rng.normal(size=(n, k))
                if law == "gaussian"
                else rng.choice([-1.0, 1.0], size=(n, k))
            )
            s, c = v @ a, float(a @ a) ** 2
            gap = np.abs(s**2 - c)
            tag = f"k={k}, σ={sigma}, ‖a‖={np.sqrt(a @ a):.3g}, {n} {law} heads"
            yield Check(f"min |⟪v₀,a⟫² - ‖a‖⁴| ({tag})", float(gap.min()), ">", 0.0)
            if c > 0:
                # P(|s² - c| < ε) ≤ 2 (√(c+ε) - √(c-ε)) / (√(2π) σ‖a‖) for s ~ N(0, σ²‖a‖²)
                eps = 0.05 * c
                bound = min(
                    1.0,
                    float(
                        2
                        * (np.sqrt(c + eps) - np.sqrt(c - eps))
                        / (np.sqrt(2 * np.pi) * sigma * np.sqrt(a @ a))
                    ),
                )
                se = float(np.sqrt(bound * (1 - bound) / n)) + 1.0 / n
                yield Check(
                    f"freq(|⟪v₀,a⟫² - ‖a‖⁴| < ‖a‖⁴/20) vs Gaussian band bound, 5 s.e. ({tag})",
                    float(np.mean(gap < eps)),
                    "<=",
                    bound,
                    5 * se,
                )


def lp_recovery(
    ctx: Context, target: str = "u", bad: bool = False, limit_scale: float = 1.0
) -> Iterator[Check]:
    """Exact: B₀ᵀu = w⋆; the LP field equals -2M(v - u) at the k + 1 affinely independent heads
    0, e₁, …, e_k (so everywhere: it is affine); M = B₀XᵀXB₀ᵀ is positive definite (Sylvester:
    leading principal minors > 0). These certify v(t) = u + e^{-2Mt}(v₀ - u) → u. Numerical: RK4
    from random heads decays at least at rate e^{-2λ_min(M)t} (1e-4 relative allowance for the
    integration error) down to 1e-4‖v₀ - u‖ at the horizon (``limit_scale`` multiplies the
    limit u: 1 in the statement)."""
    count = 1 if bad else len(instances(ctx.seed))
    for idx in range(count):
        case = ctx.instance(lp_case, idx, bad)
        inst = case.inst
        rec = [x - y for x, y in zip(flat(mm(tr(inst.B0), col(inst.u))), inst.wstar, strict=False)]
        yield Check(f"max |B₀ᵀu - w⋆|, exact ({inst.label})", max(abs(x) for x in rec), "==", 0)
        goal = inst.u if target == "u" else inst.vstar
        M = mm(mm(inst.B0, mm(tr(inst.X), inst.X)), tr(inst.B0))
        Y = flat(mm(inst.X, col(inst.wstar)))
        worst = F(0)
        for j in range(inst.k + 1):
            v = [F(int(i == j - 1)) for i in range(inst.k)]
            r = [a - c for a, c in zip(flat(mm(inst.X, mm(tr(inst.B0), col(v)))), Y, strict=False)]
            field = [-2 * t for t in flat(mm(inst.B0, mm(tr(inst.X), col(r))))]
            lin = [-2 * t for t in flat(mm(M, col([a - c for a, c in zip(v, goal, strict=False)])))]
            worst = max([worst] + [abs(a - c) for a, c in zip(field, lin, strict=False)])
        yield Check(
            f"max |lpField(v) + 2M(v - {target})| at v = 0, e₁, …, e_k, exact ({inst.label})",
            worst,
            "==",
            0,
        )
        minors = [det([row[:j] for row in M[:j]]) for j in range(1, inst.k + 1)]
        yield Check(
            f"min leading principal minor of M = B₀XᵀXB₀ᵀ, exact ({inst.label})",
            min(minors),
            ">",
            0,
        )
        ts, vs, lam_min = case.ts, case.eta, case.lam_min
        limit = limit_scale * npa(goal)
        dist = np.linalg.norm(vs - limit, axis=2)
        d0 = np.linalg.norm(vs[0] - inst.uf, axis=1)
        ratio = dist / (d0 * np.exp(-2 * lam_min * ts)[:, None])
        tag = f"{inst.label}, {vs.shape[1]} random heads"
        yield Check(
            f"max_t ‖v(t) - {target}‖ / (e^(-2λ_min(M) t)‖v₀ "
            f"- u‖), RK4 ({tag}, λ_min(M) = {lam_min:.3g})",
            float(np.max(ratio)),
            "<=",
            1.0 + 1e-4,
        )
        yield Check(
            f"‖v(T) - {target}‖ / ‖v₀ - u‖ at T = {ts[-1]:.3g} "
            f"where e^(-2λ_min T) = 1e-4, RK4 ({tag})",
            float(np.max(dist[-1] / d0)),
            "<=",
            1.0001e-4,
        )


def stationary(ctx: Context, head: str = "u", head_scale: float = 1.0) -> Iterator[Check]:
    for idx, inst in enumerate(instances(ctx.seed)):
        v = [
            t * F(head_scale).limit_denominator(10**12)
            for t in (inst.u if head == "u" else inst.vstar)
        ]
        r = [
            a - c
            for a, c in zip(
                flat(mm(inst.X, mm(tr(inst.B0), col(v)))),
                flat(mm(inst.X, col(inst.wstar))),
                strict=False,
            )
        ]
        xtr = flat(mm(tr(inst.X), col(r)))
        gv = [2 * t for t in flat(mm(inst.B0, col(xtr)))]
        gB = [2 * a * c for a in v for c in xtr]
        yield Check(
            f"exact max |FT field| at ({head}, B₀) ({inst.label})",
            max(abs(t) for t in gv + gB),
            "==",
            0,
        )
        case = ctx.instance(stationary_case, idx, head, head_scale)
        ts, vs, Bs = case.ts, case.vs, case.Bs
        move = size_pq(vs - vs[0], Bs - Bs[0])
        yield Check(
            f"max_t ‖(v,B)(t) - ({head}, B₀)‖ along numerical FT ({inst.label}, t ≤ {ts[-1]:.3g})",
            float(np.max(move)),
            "==",
            0.0,
            1e-12,
        )


@lru_cache(maxsize=16)
def from_head(seed: int, idx: int, head: str, head_scale: float = 1.0) -> Traj3:
    """FT from (s·u, B₀) (s = 1: LP-FT) or (v⋆, B₀), RK4 with 200 steps on the FT horizon of the
    instance (the field vanishes at (u, B₀), so the step size does not matter there)."""
    inst = instances(seed)[idx]
    v = head_scale * (inst.uf if head == "u" else inst.vstarf)
    t_end, _ = ft_scale(inst, v[None], inst.B0f[None])
    return rk4_ft(inst, v[None], inst.B0f[None], t_end, 200, 20)


def ood_along(inst: Instance, Sigma: np.ndarray, vs: np.ndarray, Bs: np.ndarray) -> np.ndarray:
    e = np.einsum("...kd,...k->...d", Bs, vs) - inst.wf
    return np.einsum("...d,de,...e->...", e, Sigma, e)


def goal(ctx: Context, variant: str = "", head_scale: float = 1.0) -> Iterator[Check]:
    for idx in range(len(instances(ctx.seed))):
        case = ctx.instance(goal_case, idx, head_scale)
        inst = case.inst
        lp = case.lp
        d0 = np.linalg.norm(lp.eta[0] - inst.uf, axis=1)
        yield Check(
            f"LP: ‖v(T) - u‖ / ‖v₀ - u‖ at T = {lp.ts[-1]:.3g} where e^(-2λ_min T) = 1e-4 "
            f"({inst.label})",
            float(np.max(np.linalg.norm(lp.eta[-1] - inst.uf, axis=1) / d0)),
            "<=",
            1.0001e-4,
        )
        lpft = ood_along(inst, case.Sigma, case.lpft.vs, case.lpft.Bs)
        t_end = case.lpft.ts[-1]
        if variant == "lpft positive":
            yield Check(
                f"min_t L_OOD(LP-FT) above numerical zero ({inst.label}, t ≤ {t_end:.3g})",
                float(np.min(lpft)),
                ">",
                1e-20,
            )
        else:
            yield Check(
                f"max_t L_OOD(LP-FT) at numerical zero ({inst.label}, t ≤ {t_end:.3g})",
                float(np.max(lpft)),
                "==",
                0.0,
                1e-20,
            )
        ts, (vs, Bs) = case.ft.ts, case.ft.eta
        ft = ood_along(inst, case.Sigma, vs, Bs)
        tag = (
            f"{inst.label}, {vs.shape[1]} heads v₀ ~ N(0, σ²I_k), σ ∈ {SIGMAS}, "
            f"{len(ts)} times t ≤ {ts[-1]:.3g}"
        )
        if variant == "gaussian zero":
            yield Check(f"max L_OOD(FT from Gaussian head) ({tag})", float(np.max(ft)), "<=", 1e-12)
        else:
            yield Check(
                f"min L_OOD(FT from Gaussian head) above numerical zero ({tag})",
                float(np.min(ft)),
                ">",
                1e-20,
            )


# ---------------------------------------------------------------- hypotheses

REGIME = "PerfectFeatureRegime P"
OOD_LAW = "IsOODLaw μ"
T_NONNEG = "0 ≤ t"


def regime_evidence(inst: Instance) -> Iterator[Check]:
    """``PerfectFeatureRegime P``, field by field, exactly."""
    k, d, m = inst.k, inst.d, inst.m
    dev = lambda a, b: max(abs(x) for x in flat(add(a, b, -1)))  # noqa: E731
    yield hyp(REGIME, dev(mm(inst.Bstar, tr(inst.Bstar)), eye(k)), "==", 0, detail="B⋆B⋆ᵀ = I")
    yield hyp(REGIME, sum(x * x for x in inst.vstar), ">", 0, detail="‖v⋆‖² > 0")
    yield hyp(REGIME, dev(mm(tr(inst.U), inst.U), eye(k)), "==", 0, detail="UᵀU = I")
    yield hyp(REGIME, dev(mm(inst.U, tr(inst.U)), eye(k)), "==", 0, detail="UUᵀ = I")
    yield hyp(REGIME, 1, "<=", k, detail="1 ≤ k")
    yield hyp(REGIME, k, "<=", m, detail="k ≤ m = dim S")
    yield hyp(REGIME, m + k, "<", d, detail="m + k < d")
    yield hyp(REGIME, rank(mm(inst.PS, tr(inst.B0))), "==", k, detail="v ↦ Π_S B₀ᵀv injective")
    yield hyp(REGIME, rank(mm(inst.Pperp, tr(inst.B0))), "==", k, detail="v ↦ Π_S⊥ B₀ᵀv injective")


def ft_flow_defect(inst: Instance, ts: np.ndarray, vs: np.ndarray, Bs: np.ndarray) -> float:
    """How far the sampled path is from a flow of the FT field: from each sample, integrate the
    field to the next sample time with a finer RK4 (64 steps) and compare, relative."""
    worst = 0.0
    for i in range(len(ts) - 1):
        _, v1, B1 = rk4_ft(inst, vs[i], Bs[i], ts[i + 1] - ts[i], 64, 1)
        gap = size_pq(v1[-1] - vs[i + 1], B1[-1] - Bs[i + 1])
        worst = max(worst, float(np.max(gap / (1 + size_pq(vs[i + 1], Bs[i + 1])))))
    return worst


def lp_flow_defect(inst: Instance, ts: np.ndarray, vs: np.ndarray) -> float:
    worst = 0.0
    for i in range(len(ts) - 1):
        _, v1 = rk4_lp(inst, vs[i], ts[i + 1] - ts[i], 64, 1)
        gap = np.linalg.norm(v1[-1] - vs[i + 1], axis=-1)
        worst = max(worst, float(np.max(gap / (1 + np.linalg.norm(vs[i + 1], axis=-1)))))
    return worst


FLOW_TOLERANCE = 1e-4  # the claims' own agreement tolerance between integrations


def ft_flow_evidence(
    hypothesis: str, inst: Instance, ts: np.ndarray, vs: np.ndarray, Bs: np.ndarray, start: str
) -> Iterator[Check]:
    yield hyp(
        hypothesis,
        ft_flow_defect(inst, ts, vs, Bs),
        "<=",
        FLOW_TOLERANCE,
        detail=f"from {start}: relative defect against a finer RK4 between samples",
    )


def flows_evidence(ctx: Context, case: FlowCase, both: bool) -> Iterator[Check]:
    yield from ft_flow_evidence(
        "IsFlowOn P.ftField γ p₀",
        case.inst,
        case.ts,
        *case.gamma,
        f"{case.gamma[0].shape[1]} starts p₀",
    )
    if both:
        yield from ft_flow_evidence(
            "IsFlowOn P.ftField η p₀", case.inst, case.ts, *case.eta, "the same starts p₀"
        )
    yield hyp(T_NONNEG, float(case.ts.min()), ">=", 0.0, detail="the earliest sampled time")


def well_posed_evidence(ctx: Context, case: FlowCase) -> Iterator[Check]:
    gamma0 = size_pq(case.gamma[0][0] - case.eta[0][0], case.gamma[1][0] - case.eta[1][0])
    yield hyp(
        "IsFlowOn P.ftField η p₀",
        float(np.max(gamma0)),
        "==",
        0.0,
        detail="γ(0) = η(0) = p₀",
    )
    yield from flows_evidence(ctx, case, both=True)


def features_evidence(ctx: Context, case: FlowCase) -> Iterator[Check]:
    yield from flows_evidence(ctx, case, both=False)
    x = case.x_perp
    yield hyp(
        "x ∈ P.trainSpanᗮ",
        max(abs(t) for t in flat(mm(case.inst.X, col(x)))),
        "==",
        0,
        detail="max |Xx|, exact (x ⊥ every training input)",
    )
    yield hyp("x ∈ P.trainSpanᗮ", sum(t * t for t in x), ">", 0, detail="x ≠ 0")


def balanced_evidence(ctx: Context, case: FlowCase) -> Iterator[Check]:
    yield from flows_evidence(ctx, case, both=False)


def lp_flow_evidence(hypothesis: str, lp: LpCase) -> Iterator[Check]:
    yield hyp(
        hypothesis,
        lp_flow_defect(lp.inst, lp.ts, lp.gamma),
        "<=",
        FLOW_TOLERANCE,
        detail=f"{lp.gamma.shape[1]} heads v₀: relative defect against a finer RK4",
    )


def recovery_evidence(ctx: Context, lp: LpCase) -> Iterator[Check]:
    yield from regime_evidence(lp.inst)
    yield from lp_flow_evidence("IsFlowOn P.lpField γ v₀", lp)


def stationary_evidence(hypothesis: str, case: StationaryCase) -> Iterator[Check]:
    inst = case.inst
    start = size_pq(case.vs[0] - case.head_scale * inst.uf, case.Bs[0] - inst.B0f)
    yield hyp(hypothesis, float(np.max(start)), "==", 0.0, detail="γ(0) = (u, B₀)")
    yield from ft_flow_evidence(hypothesis, inst, case.ts, case.vs, case.Bs, "(u, B₀)")


def init_evidence(ctx: Context, case: StationaryCase) -> Iterator[Check]:
    yield from regime_evidence(case.inst)
    yield from stationary_evidence("IsFlowOn P.ftField γ (P.u, P.B0)", case)
    yield hyp(T_NONNEG, float(case.ts.min()), ">=", 0.0, detail="the earliest sampled time")


def gaussian_law_evidence(mean: np.ndarray, C: np.ndarray) -> Iterator[Check]:
    yield hyp(
        OOD_LAW,
        float(np.linalg.eigvalsh(C).min()),
        ">",
        0.0,
        detail="N(m₀, C), a probability law with finite second moment: least eigenvalue of C",
    )
    yield hyp(
        OOD_LAW,
        float(np.linalg.eigvalsh(C + np.outer(mean, mean)).min()),
        ">",
        0.0,
        detail="least eigenvalue of Σ = C + m₀m₀ᵀ",
    )


def goal_evidence(ctx: Context, case: GoalCase) -> Iterator[Check]:
    yield from regime_evidence(case.inst)
    yield from gaussian_law_evidence(case.mean, case.C)
    yield hyp("0 < σ", 0.0, "<", min(case.sigmas), detail=f"least σ of {case.sigmas}")
    yield from lp_flow_evidence("IsFlowOn P.lpField γ v₀", case.lp)
    yield from stationary_evidence("IsFlowOn P.ftField η (P.u, P.B0)", case.lpft)
    v0 = case.ft.eta[0][0]
    start = size_pq(np.zeros_like(v0), case.ft.eta[1][0] - case.inst.B0f)
    yield hyp(
        "IsFlowOn P.ftField η (v₀, P.B0)", float(np.max(start)), "==", 0.0, detail="η(0) = (v₀, B₀)"
    )
    yield from ft_flow_evidence(
        "IsFlowOn P.ftField η (v₀, P.B0)", case.inst, case.ft.ts, *case.ft.eta, "Gaussian heads"
    )
    yield hyp(
        T_NONNEG,
        float(min(case.lp.ts.min(), case.lpft.ts.min(), case.ft.ts.min())),
        ">=",
        0.0,
        detail="the earliest sampled time",
    )


def ood_evidence(ctx: Context, law: OodCase) -> Iterator[Check]:
    weights = law.weights
    yield hyp(OOD_LAW, min(weights), ">=", 0, detail="μ: least weight")
    yield hyp(OOD_LAW, sum(weights, F(0)), "==", 1, detail="μ: total mass (a probability law)")
    Sig = second_moment(law.points, weights, law.inst.d)
    minors = [det([row[:j] for row in Sig[:j]]) for j in range(1, law.inst.d + 1)]
    yield hyp(
        OOD_LAW,
        min(minors),
        ">",
        0,
        detail="least leading principal minor of Σ = E_μ[xxᵀ], exact (finite support: finite "
        "second moment)",
    )


def head_evidence(ctx: Context, case: HeadCase) -> Iterator[Check]:
    yield hyp("0 < σ", 0.0, "<", case.sigma)
    yield hyp("a ≠ 0", float(case.a @ case.a), ">", 0.0, detail="‖a‖²")


def _patched(field_name: str, patch: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Replace attribute ``field_name`` of the instance by ``patch`` of its value."""

    def apply(case: Any) -> Any:
        return replace(case, **{field_name: patch(getattr(case, field_name))})

    return apply


def _zero_vstar(inst: Instance) -> Instance:
    changed = copy.copy(inst)
    changed.vstar = [F(0)] * inst.k
    return changed


def _frozen(traj: np.ndarray) -> np.ndarray:
    """The path stopped at its midpoint (no longer a flow of the field)."""
    half = len(traj) // 2
    return np.concatenate(
        [traj[: half + 1], np.repeat(traj[half : half + 1], len(traj) - half - 1, 0)]
    )


def _frozen_pair(traj: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    return _frozen(traj[0]), _frozen(traj[1])


def _shifted_times(ts: np.ndarray) -> np.ndarray:
    return ts - 1.0


FLOW_PATCHES: dict[str, Any] = {
    "IsFlowOn P.ftField γ p₀": _patched("gamma", _frozen_pair),
    "IsFlowOn P.ftField η p₀": _patched("eta", _frozen_pair),
    T_NONNEG: _patched("ts", _shifted_times),
}

REGIME_PATCH = _patched("inst", _zero_vstar)


def _lp_frozen(case: LpCase) -> LpCase:
    return replace(case, gamma=_frozen(case.gamma))


def _stationary_moved(case: StationaryCase) -> StationaryCase:
    return replace(case, vs=case.vs + np.linspace(0.0, 1.0, len(case.vs))[:, None, None])


def _goal_patch(**changes: Callable[[Any], Any]) -> Callable[[GoalCase], GoalCase]:
    def apply(case: GoalCase) -> GoalCase:
        return replace(case, **{k: f(getattr(case, k)) for k, f in changes.items()})

    return apply


def _singular_law(law: OodCase) -> OodCase:
    """Every point on the hyperplane x₀ = 0: Σ is singular."""
    return replace(law, points=[[F(0), *p[1:]] for p in law.points])


FT_HYPS = ("IsFlowOn P.ftField γ p₀", T_NONNEG)

CLAIMS = [
    Claim(
        "flow-well-posed",
        "numerical LP and FT solutions exist on a finite "
        "horizon (finite, FT loss nonincreasing, Grönwall "
        "bound) and two integrations (steps 2h, h) from the same start agree",
        flow_well_posed,
        {
            "gradient ascent instead of descent": {"sign": -1.0},
            "two FT solutions from different heads (0.05 apart) agree": {"perturb": 0.05},
        },
        NonVacuity(
            ("IsFlowOn P.ftField γ p₀", "IsFlowOn P.ftField η p₀", T_NONNEG),
            ft_case,
            (0, False),
            well_posed_evidence,
            FLOW_PATCHES,
        ),
        notes="no number in the statement: existence and uniqueness of flows",
    ),
    Claim(
        "features-orthogonal-unchanged",
        "B(t) Π_{S⊥} = B(0) Π_{S⊥} along numerical FT from random (v₀, B) (up to rounding)",
        features_unchanged,
        {"features on S unchanged": {"use_span": True}},
        NonVacuity(
            (*FT_HYPS, "x ∈ P.trainSpanᗮ"),
            ft_case,
            (0, False),
            features_evidence,
            {
                **{h: FLOW_PATCHES[h] for h in FT_HYPS},
                "x ∈ P.trainSpanᗮ": lambda c: replace(c, x_perp=list(c.inst.X[0])),
            },
        ),
        notes="no number in the statement: an invariance",
    ),
    Claim(
        "balancedness-invariant",
        "B Bᵀ - v vᵀ conserved along numerical FT (up to the estimated integration error)",
        balancedness,
        {"B Bᵀ + v vᵀ conserved": {"vv_coef": 1.0}},
        NonVacuity(
            FT_HYPS, ft_case, (0, False), balanced_evidence, {h: FLOW_PATCHES[h] for h in FT_HYPS}
        ),
        (Constant("vv_coef", -1.0, "−1 in BBᵀ − 1·vvᵀ"),),
    ),
    Claim(
        "ood-risk-identity",
        "L_OOD(v, B) = eᵀΣe with Σ the uncentred second "
        "moment (MC for N(m₀, C), exact for a finite "
        "non-centred law), and L_OOD = 0 exactly when Bᵀv = w⋆",
        ood_identity,
        {"centred covariance instead of Σ": {"centred": True}},
        NonVacuity(
            (OOD_LAW,),
            ood_case,
            (0,),
            ood_evidence,
            {OOD_LAW: _singular_law},
        ),
        (Constant("quad_coef", 1.0, "1 in L_OOD = 1·eᵀΣe"),),
    ),
    Claim(
        "gaussian-head-misaligned",
        "⟪v₀, a⟫² ≠ ‖a‖⁴ for every sampled v₀ ~ N(0, σ²I_k) "
        "(a ≠ 0); the ε-band around the exceptional "
        "set has at most its Gaussian probability bound",
        misaligned,
        {
            "a = 0 (hypothesis a ≠ 0 dropped)": {"a_zero": True},
            "Rademacher head σ(±1)^k instead of Gaussian, a = σe₁": {"law": "rademacher"},
        },
        NonVacuity(
            ("0 < σ", "a ≠ 0"),
            head_case,
            (2, 1.0),
            head_evidence,
            {"0 < σ": {"sigma": 0.0}, "a ≠ 0": lambda c: replace(c, a=np.zeros(c.k))},
        ),
        notes="an almost-sure inequation: no constant of the statement changes its truth",
    ),
    Claim(
        "lp-recovery",
        "exact: B₀ᵀu = w⋆, LP field = -2M(v - u), M = "
        "B₀XᵀXB₀ᵀ positive definite (so v(t) → u); numerical "
        "LP from random heads approaches u at rate e^{-2λ_min(M)t}",
        lp_recovery,
        {
            "LP converges to v⋆ instead of u": {"target": "v⋆"},
            "injectivity of v ↦ Π_S B₀ᵀv dropped (a feature direction ⊥ S)": {"bad": True},
        },
        NonVacuity(
            (REGIME, "IsFlowOn P.lpField γ v₀"),
            lp_case,
            (0, False),
            recovery_evidence,
            {REGIME: REGIME_PATCH, "IsFlowOn P.lpField γ v₀": _lp_frozen},
        ),
        (Constant("limit_scale", 1.0, "the limit 1·u"),),
    ),
    Claim(
        "lp-init-stationary",
        "the FT field at (u, B₀) is exactly 0 and the numerical FT flow from (u, B₀) does not move",
        stationary,
        {"(v⋆, B₀) is stationary": {"head": "v⋆"}},
        NonVacuity(
            (REGIME, "IsFlowOn P.ftField γ (P.u, P.B0)", T_NONNEG),
            stationary_case,
            (0, "u", 1.0),
            init_evidence,
            {
                REGIME: REGIME_PATCH,
                "IsFlowOn P.ftField γ (P.u, P.B0)": _stationary_moved,
                T_NONNEG: _patched("ts", _shifted_times),
            },
        ),
        (Constant("head_scale", 1.0, "the head 1·u of the stationary point (u, B₀)"),),
    ),
    Claim(
        "goal",
        "regime hypotheses hold exactly; LP → u; LP-FT OOD "
        "loss at numerical zero at every sampled time; "
        "FT from Gaussian heads has positive OOD loss "
        "at every sampled time, for every sampled head",
        goal,
        {
            "FT from a Gaussian head has zero OOD loss": {"variant": "gaussian zero"},
            "LP-FT has positive OOD loss": {"variant": "lpft positive"},
        },
        NonVacuity(
            (
                REGIME,
                OOD_LAW,
                "0 < σ",
                "IsFlowOn P.lpField γ v₀",
                "IsFlowOn P.ftField η (P.u, P.B0)",
                T_NONNEG,
                "IsFlowOn P.ftField η (v₀, P.B0)",
            ),
            goal_case,
            (0, 1.0),
            goal_evidence,
            {
                REGIME: REGIME_PATCH,
                OOD_LAW: _goal_patch(
                    C=lambda c: c - 2 * np.eye(len(c)) * np.linalg.eigvalsh(c).max()
                ),
                "0 < σ": {"sigmas": (0.0, *SIGMAS)},
                "IsFlowOn P.lpField γ v₀": _goal_patch(lp=_lp_frozen),
                "IsFlowOn P.ftField η (P.u, P.B0)": _goal_patch(lpft=_stationary_moved),
                T_NONNEG: _goal_patch(ft=_patched("ts", _shifted_times)),
                "IsFlowOn P.ftField η (v₀, P.B0)": _goal_patch(ft=_patched("eta", _frozen_pair)),
            },
        ),
        (Constant("head_scale", 1.0, "the LP-FT start (1·u, B₀)"),),
    ),
]
