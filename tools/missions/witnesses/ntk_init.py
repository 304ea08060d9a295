"""Witness for ``ntk-init``: random finite networks against the limiting kernels (Jacot et al.).

The model is the seed's (``Formal/NTKInit/Defs.lean``): N(0, 1) weights and biases,
``z^(ℓ+1) = W^(ℓ) a^(ℓ) / √n_ℓ + β b^(ℓ)``, ``a = σ(z)`` at hidden layers, no final activation.
The limit kernels use the recursion ``Σ^(1) = ⟨x, y⟩/d + β²``, ``Σ^(ℓ+1) = E[σ(U)σ(V)] + β²``,
``Σ̇^(ℓ+1) = E[σ'(U)σ'(V)]``, ``Θ^(1) = Σ^(1)``, ``Θ^(ℓ+1) = Θ^(ℓ) Σ̇^(ℓ+1) + Σ^(ℓ+1)`` with the
pair covariance ``[[Σ(x,x), Σ(x,y)], [Σ(y,x), Σ(y,y)]]``. For σ = ReLU the pair expectations
are the arc-cosine closed forms ``√(ab)/(2π)(sin φ + (π − φ) cos φ)`` and ``(π − φ)/(2π)``
(``cos φ = c/√(ab)``), themselves checked against Monte Carlo; identity and constant
activations have exact forms, tanh uses 2-D Gauss–Hermite quadrature (64² nodes).

* ``covariance-validity``: for σ ∈ {ReLU, tanh, identity, constant}, β ∈ {0.5, 1}, h ≤ 5 and an
  input family with a repeated, a zero and a negated input: Σ^(L)(x, x) ≥ β², the Gram matrix has
  least eigenvalue ≥ −1e−9, and the sample covariance of N(0, Gram) (sampled through the
  symmetric square root) equals Gram within 5 s.e.
* ``gaussian-output-limit`` (Prop. 1): outputs of ReLU networks (h = 0, 1, 2; widths ordered
  n_1 ≫ n_2 as in the sequential limit) on three inputs, q = 2. The limit is convergence in law,
  checked through its definition on bounded continuous test functions g(u) = cos(⟨t, u⟩) (the
  limit integral is exp(−tᵀCt/2), C = Σ^(L)(x_i, x_j) δ_kk'), including t mixing the two output
  coordinates (independence), and through the output covariance, within 5 s.e. plus a
  finite-width allowance of 0.03; widths n_1 = 512 (h = 1), (512, 32) (h = 2), 4000 draws
  (full budget: 2048, (2048, 128), 20000 draws). Networks are sampled layer by layer through
  the exact conditional law: given a^(ℓ) on the inputs, the n_{ℓ+1} coordinates of z^(ℓ+1)
  are i.i.d. N(0, a^(ℓ)a^(ℓ)ᵀ/n_ℓ + β²) — the same law as the N(0, 1)-parameter network, without
  materializing the n_ℓ × n_{ℓ+1} weight matrices.
* ``goal`` (Theorem 1): empirical NTK by explicit backpropagation over every weight and bias
  (itself checked against central finite differences of the network output in every parameter),
  ReLU, β = 1, d = 3, q = 2, three inputs (one zero), h = 0 (exact: Θ = Σ^(1) δ), h = 1
  (n_1 = 4, 64, 1024, 4096) and h = 2 with widths growing in the sequential order, n_1 ≫ n_2
  ((n_1, n_2) = (16, 2), (256, 16), (4096, 256)); 12 draws each (full budget: 64 draws and
  one more width, 65536 and (16384, 512)). Checked: the mean over draws of
  max_{i,j,k,k'} |Θ_kk' − Θ∞ δ_kk'| decreases strictly along the schedule and at the largest
  widths is below 0.05·max|Θ∞| (h = 1) and 0.15·max|Θ∞| (h = 2; the last-layer fluctuation is
  of order 1/√n_2); by Markov this bounds the probability in the statement. The finite width
  schedules stand in for the sequential limit, which cannot be evaluated.

Non-vacuity: the instance is the activation (ReLU, Lipschitz constant K = 1), β = 1, d = 3,
q = 2 (and ε = 0.05·max|Θ∞| for the goal); ``LipschitzWith K σ`` is checked as the largest
difference quotient of σ over random pairs (K = 1/2 is rejected).

Constants: the coefficients 1 of ``β²`` and of ``⟨x, y⟩/d`` in the recursion for ``Σ^(L)``
(``covKernel``), and the 1 of the bound ``β² ≤ Σ^(L)(x, x)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any

import numpy as np

from missions.witness import Check, Claim, Constant, Context, NonVacuity, hyp

PairExp = Callable[[Any, Any, Any], tuple[Any, Any]]  # (a, b, c) -> (E σσ, E σ'σ')

# ---------------------------------------------------------------- pair expectations


def relu_pair(a: Any, b: Any, c: Any) -> tuple[Any, Any]:
    """Arc-cosine forms for (U, V) centered with Var U = a, Var V = b, Cov = c.

    If a·b = 0 (reached only by wrong variants; the true recursion has a, b ≥ β²), U or V is
    a.s. 0, and both expectations are 0 (Mathlib's deriv of ReLU at 0 is 0)."""
    ab = np.sqrt(np.clip(a, 0, None) * np.clip(b, 0, None))
    safe = np.where(ab > 0, ab, 1.0)
    phi = np.arccos(np.clip(c / safe, -1.0, 1.0))
    e_sig = ab / (2 * math.pi) * (np.sin(phi) + (math.pi - phi) * np.cos(phi))
    e_dot = np.where(ab > 0, (math.pi - phi) / (2 * math.pi), 0.0)
    return e_sig, e_dot


def identity_pair(a: Any, b: Any, c: Any) -> tuple[Any, Any]:
    return c, np.ones_like(c)


def constant_pair(a: Any, b: Any, c: Any) -> tuple[Any, Any]:
    return np.full_like(c, 0.7**2), np.zeros_like(c)  # σ ≡ 0.7, σ' ≡ 0


_GH_X, _GH_W = np.polynomial.hermite_e.hermegauss(64)
_GH_W = _GH_W / _GH_W.sum()


def tanh_pair(a: Any, b: Any, c: Any) -> tuple[Any, Any]:
    """2-D Gauss–Hermite: U = √a Z₁, V = √b (ρ Z₁ + √(1−ρ²) Z₂)."""
    a, b, c = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float), np.asarray(c, float))
    a, b = np.clip(a, 0, None), np.clip(b, 0, None)  # a, b < 0 only in wrong variants
    ab = np.sqrt(a * b)
    rho = np.clip(c / np.where(ab > 0, ab, 1.0), -1.0, 1.0)[..., None, None]
    z1, z2 = _GH_X[:, None], _GH_X[None, :]
    u = np.sqrt(a)[..., None, None] * z1
    v = np.sqrt(b)[..., None, None] * (rho * z1 + np.sqrt(1 - rho**2) * z2)
    w = _GH_W[:, None] * _GH_W[None, :]
    d_u, d_v = 1 - np.tanh(u) ** 2, 1 - np.tanh(v) ** 2
    return np.sum(w * np.tanh(u) * np.tanh(v), (-2, -1)), np.sum(w * d_u * d_v, (-2, -1))


ACTIVATIONS: dict[str, PairExp] = {
    "relu": relu_pair,
    "tanh": tanh_pair,
    "identity": identity_pair,
    "constant 0.7": constant_pair,
}

# ---------------------------------------------------------------- limit kernels on a family


def limit_kernels(
    x: np.ndarray,
    beta: float,
    h: int,
    pair: PairExp = relu_pair,
    bias_coef: float = 1.0,
    drop_dot: bool = False,
    input_coef: float = 1.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Gram matrices of Σ^(L) and Θ∞^(L), L = h + 1, on the rows of x (shape N × d).

    ``bias_coef`` and ``input_coef`` are the coefficients 1 of β² and of ⟨x, y⟩/d (wrong
    variants: 0 drops every β² term, −1 subtracts it); ``drop_dot=True`` uses
    Θ^(ℓ+1) = Θ^(ℓ) + Σ^(ℓ+1)."""
    b2 = bias_coef * beta**2
    sig = input_coef * (x @ x.T) / x.shape[1] + b2
    theta = sig.copy()
    for _ in range(h):
        diag = np.diag(sig)
        e_sig, e_dot = pair(diag[:, None], diag[None, :], sig)
        sig = e_sig + b2
        theta = (theta if drop_dot else theta * e_dot) + sig
    return sig, theta


# ---------------------------------------------------------------- covariance validity

FAMILY = np.array(
    [
        [1.0, 0.5, -1.0],
        [-0.3, 1.2, 0.8],
        [1.0, 0.5, -1.0],
        [0.0, 0.0, 0.0],
        [-1.0, -0.5, 1.0],
        [3.0, -2.0, 0.5],
    ]
)  # repeated, zero, negated inputs


def sqrt_psd(m: np.ndarray) -> np.ndarray:
    w, v = np.linalg.eigh(m)
    return (v * np.sqrt(np.clip(w, 0, None))) @ v.T


def covariance_validity(
    ctx: Context, bias_coef: float = 1.0, floor_coef: float = 1.0
) -> Iterator[Check]:
    samples = ctx.size(quick=4000, full=100_000)
    for a_index, (name, pair) in enumerate(ACTIVATIONS.items()):
        for beta in (0.5, 1.0):
            ctx.instance(setting, name, beta)
            for h in (0, 1, 2, 3, 5):
                sig, _ = limit_kernels(FAMILY, beta, h, pair, bias_coef=bias_coef)
                lab = f"σ={name}, β={beta}, L={h + 1}"
                yield Check(
                    f"{lab}: min_x Σ(x, x) ≥ β²",
                    float(np.diag(sig).min()),
                    ">=",
                    floor_coef * beta**2,
                    1e-12,
                )
                yield Check(
                    f"{lab}: Gram ⪰ 0", float(np.linalg.eigvalsh(sig).min()), ">=", 0.0, 1e-9
                )
                if h in (1, 5):
                    rng = ctx.rng(10 * a_index + h + int(4 * beta))
                    u = rng.normal(size=(samples, len(FAMILY))) @ sqrt_psd(sig)
                    emp = u.T @ u / samples
                    var = np.abs(np.outer(np.diag(sig), np.diag(sig))) + sig**2
                    se = np.sqrt(np.where(var > 0, var, 1.0) / samples)
                    yield Check(
                        f"{lab}: max |Cov_N(0,Gram)(u_i, u_j) − Gram_ij| / s.e. ≤ 5",
                        float(np.max(np.abs(emp - sig) / se)),
                        "<=",
                        5.0,
                    )
    # the closed forms used for ReLU, against Monte Carlo
    rng = ctx.rng(99)
    for a, b, c in ((1.0, 1.0, 0.3), (2.0, 0.5, -0.9), (1.5, 1.5, 1.5)):
        z = rng.normal(size=(2, 4 * samples))
        u = math.sqrt(a) * z[0]
        rho = c / math.sqrt(a * b)
        v = math.sqrt(b) * (rho * z[0] + math.sqrt(max(1 - rho**2, 0.0)) * z[1])
        e_sig, e_dot = relu_pair(a, b, c)
        prod, step = np.maximum(u, 0) * np.maximum(v, 0), (u > 0) * (v > 0)
        for lab, mc, ex in (("E relu·relu", prod, e_sig), ("E 1{U>0}1{V>0}", step, e_dot)):
            yield Check(
                f"{lab} closed form = Monte Carlo, cov=[[{a},{c}],[{c},{b}]]",
                float(mc.mean()),
                "==",
                float(ex),
                5 * float(mc.std()) / math.sqrt(mc.size),
            )


# ---------------------------------------------------------------- networks

INPUTS = np.array([[1.0, 0.5, -1.0], [-0.3, 1.2, 0.8], [0.0, 0.0, 0.0]])
BETA = 1.0
Q = 2


def relu(z: Any) -> Any:
    return np.maximum(z, 0.0)


def sample_outputs(
    rng: Any, x: np.ndarray, widths: tuple[int, ...], draws: int, beta: float
) -> np.ndarray:
    """Outputs (draws, N, q) through the exact layerwise conditional Gaussian law."""
    n_in, n = x.shape[1], x.shape[0]
    a = np.broadcast_to(x, (draws, *x.shape))  # (M, N, n_ℓ)
    z = a
    for layer, n_out in enumerate((*widths, Q)):
        if layer > 0:
            a = relu(z)
        k = a @ a.transpose(0, 2, 1) / n_in + beta**2  # (M, N, N): Cov of z^(ℓ+1)_j given a^(ℓ)
        w, v = np.linalg.eigh(k)
        root = (v * np.sqrt(np.clip(w, 0, None))[:, None, :]) @ v.transpose(0, 2, 1)
        z = root @ rng.normal(size=(draws, n, n_out))
        n_in = n_out
    return z


@lru_cache(maxsize=16)
def sampled_outputs(seed: int, h: int, widths: tuple[int, ...], draws: int) -> np.ndarray:
    """Network outputs (draws, N·q), index i*q + k (cached: sensitivity runs reuse them)."""
    rng = np.random.default_rng([seed, 200 + h])
    n = len(INPUTS)
    chunk = max(1, 2**22 // (n * max(widths, default=1)))  # bounded memory
    return np.concatenate(
        [
            sample_outputs(rng, INPUTS, widths, min(chunk, draws - start), BETA)
            for start in range(0, draws, chunk)
        ]
    ).reshape(draws, n * Q)


def output_limit(
    ctx: Context, bias_coef: float = 1.0, input_coef: float = 1.0, independent: bool = True
) -> Iterator[Check]:
    ctx.instance(setting, "relu", BETA)
    draws = ctx.size(quick=4000, full=20_000)
    schedule: dict[int, tuple[int, ...]] = {0: (), 1: (512,), 2: (512, 32)}
    if ctx.budget == "full":
        schedule = {0: (), 1: (2048,), 2: (2048, 128)}
    n = len(INPUTS)
    for h, widths in schedule.items():
        f = sampled_outputs(ctx.seed, h, widths, draws)
        sig, _ = limit_kernels(INPUTS, BETA, h, bias_coef=bias_coef, input_coef=input_coef)
        cov = np.kron(sig, np.eye(Q) if independent else np.ones((Q, Q)))
        lab = f"h={h}, widths={widths}"
        emp = f.T @ f / draws
        se = np.sqrt((np.outer(np.diag(cov), np.diag(cov)) + cov**2) / draws)
        for r in range(n * Q):
            for s in range(r, n * Q):
                yield Check(
                    f"{lab}: Cov(f_{s % Q}(x{s // Q}), f_{r % Q}(x{r // Q})) = Σ δ",
                    float(emp[r, s]),
                    "==",
                    float(cov[r, s]),
                    5 * float(se[r, s]) + 0.03,
                )
        probes = [np.eye(n * Q)[r] for r in range(n * Q)]
        probes += [
            np.eye(n * Q)[0] + np.eye(n * Q)[1],
            np.eye(n * Q)[0] - np.eye(n * Q)[3],
            np.eye(n * Q)[2] + np.eye(n * Q)[5],
        ]
        probes += list(ctx.rng(300 + h).normal(size=(4, n * Q)))
        for t_index, t in enumerate(probes):
            t_ct = float(t @ cov @ t)
            t = t / math.sqrt(t_ct) if t_ct > 1e-12 else t  # tᵀCt = 1 for the (claimed) limit C
            vals = np.cos(f @ t)
            yield Check(
                f"{lab}: E cos⟨t,f⟩ = exp(−tᵀCt/2), probe {t_index}",
                float(vals.mean()),
                "==",
                math.exp(-0.5 * float(t @ cov @ t)),
                5 * float(vals.std()) / math.sqrt(draws) + 0.03,
            )


def network_ntk(
    rng: Any, x: np.ndarray, widths: tuple[int, ...], draws: int, beta: float
) -> np.ndarray:
    """Empirical NTK Θ[m, i, j, k, k'] of `draws` explicit N(0,1) networks, by backpropagation:
    Θ_kk'(x, y) = Σ_ℓ (⟨a^ℓ(x), a^ℓ(y)⟩/n_ℓ + β²) ⟨δ^{ℓ+1}_k(x), δ^{ℓ+1}_k'(y)⟩, where the first
    factor collects the weight (a^ℓ_i/√n_ℓ) and bias (β) partials, δ^{ℓ+1}_k = ∂f_k/∂z^{ℓ+1}."""
    biggest = max((a * b for a, b in pairwise(widths)), default=1)
    chunk = max(1, min(draws, 2**22 // biggest))
    out = []
    for start in range(0, draws, chunk):  # bounded memory for the n_1 × n_2 weight matrices
        params = init_params(rng, x.shape[1], widths, min(chunk, draws - start))
        acts, pre = forward(params, x, beta)
        out.append(ntk_from(params, acts, pre, beta))
    return np.concatenate(out)


def init_params(
    rng: Any, d: int, widths: tuple[int, ...], draws: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    sizes = (d, *widths, Q)
    return [
        (rng.normal(size=(draws, sizes[i + 1], sizes[i])), rng.normal(size=(draws, sizes[i + 1])))
        for i in range(len(sizes) - 1)
    ]


def forward(
    params: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray, beta: float
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    draws = params[0][0].shape[0]
    a = np.broadcast_to(x, (draws, *x.shape))
    acts, pre = [a], []
    for layer, (w, b) in enumerate(params):
        z = a @ w.transpose(0, 2, 1) / math.sqrt(w.shape[2]) + beta * b[:, None, :]
        pre.append(z)
        if layer < len(params) - 1:
            a = relu(z)
            acts.append(a)
    return acts, pre


def ntk_from(
    params: list[tuple[np.ndarray, np.ndarray]],
    acts: list[np.ndarray],
    pre: list[np.ndarray],
    beta: float,
) -> np.ndarray:
    draws, n = acts[0].shape[:2]
    delta = np.broadcast_to(np.eye(Q), (draws, n, Q, Q))  # ∂f_k/∂z^L: (M, N, k, unit)
    theta = np.zeros((draws, n, n, Q, Q))
    for layer in range(len(params) - 1, -1, -1):
        a = acts[layer]
        gram = a @ a.transpose(0, 2, 1) / a.shape[2] + beta**2  # (M, N, N)
        theta += gram[:, :, :, None, None] * np.einsum("mikp,mjlp->mijkl", delta, delta)
        if layer > 0:
            w = params[layer][0]
            delta = (delta @ w[:, None] / math.sqrt(w.shape[2])) * (pre[layer - 1] > 0)[
                :, :, None, :
            ]
    return theta


def backprop_vs_finite_differences(ctx: Context) -> Iterator[Check]:
    rng = ctx.rng(500)
    widths = (4, 3)
    params = init_params(rng, 3, widths, 1)
    acts, pre = forward(params, INPUTS, BETA)
    yield Check(
        "finite-difference instance: min |pre-activation| > 1e-3 (ReLU differentiable)",
        float(min(np.abs(z).min() for z in pre[:-1])),
        ">",
        1e-3,
    )
    # Jacobian of f_k(x_i) in every parameter, by central differences
    flat = [p for pair in params for p in pair]
    jac = []
    for arr in flat:
        for idx in np.ndindex(arr.shape):
            old = arr[idx]
            arr[idx] = old + 1e-6
            up = forward(params, INPUTS, BETA)[1][-1]
            arr[idx] = old - 1e-6
            down = forward(params, INPUTS, BETA)[1][-1]
            arr[idx] = old
            jac.append(((up - down) / 2e-6)[0])  # (N, q)
    j = np.array(jac)  # (P, N, q)
    fd = np.einsum("pik,pjl->ijkl", j, j)
    bp = ntk_from(params, acts, pre, BETA)[0]
    yield Check(
        f"backprop NTK = Σ_p ∂f∂f by finite differences ({len(jac)} parameters)",
        float(np.max(np.abs(bp - fd))),
        "<=",
        1e-6,
    )


@lru_cache(maxsize=32)
def empirical_ntk(
    seed: int, h: int, s_index: int, widths: tuple[int, ...], draws: int
) -> np.ndarray:
    """Empirical NTKs of ``draws`` networks (cached: sensitivity runs reuse them)."""
    rng = np.random.default_rng([seed, 600 + 10 * h + s_index])
    return network_ntk(rng, INPUTS, widths, draws, BETA)


def ntk_goal(
    ctx: Context, bias_coef: float = 1.0, input_coef: float = 1.0, drop_dot: bool = False
) -> Iterator[Check]:
    ctx.instance(setting, "relu", BETA)
    yield from backprop_vs_finite_differences(ctx)
    draws = ctx.size(quick=12, full=64)
    schedules: dict[int, list[tuple[int, ...]]] = {
        0: [()],
        1: [(4,), (64,), (1024,), (4096,)],
        2: [(16, 2), (256, 16), (4096, 256)],
    }
    tolerance = {1: 0.05, 2: 0.15}  # relative to max|Θ∞|
    if ctx.budget == "full":
        schedules[1].append((65536,))
        schedules[2].append((16384, 512))
    for h, schedule in schedules.items():
        _, theta_inf = limit_kernels(
            INPUTS, BETA, h, bias_coef=bias_coef, drop_dot=drop_dot, input_coef=input_coef
        )
        target = theta_inf[:, :, None, None] * np.eye(Q)[None, None]
        scale = float(np.abs(theta_inf).max())
        errors: list[tuple[tuple[int, ...], float, float]] = []
        for s_index, widths in enumerate(schedule):
            emp = empirical_ntk(ctx.seed, h, s_index, widths, draws)
            dev = np.abs(emp - target).reshape(draws, -1).max(axis=1)
            errors.append((widths, float(dev.mean()), float(dev.std()) / math.sqrt(draws)))
        if h == 0:
            yield Check("h=0: max |Θ − Σ^(1) δ| (exact at every draw)", errors[0][1], "<=", 1e-12)
            continue
        for (w0, e0, _), (w1, e1, _) in pairwise(errors):
            yield Check(f"h={h}: mean max-deviation decreases, widths {w0} → {w1}", e1, "<", e0)
        w_last, e_last, _ = errors[-1]
        yield Check(
            f"h={h}, widths={w_last}: mean max_(i,j,k,k') |Θ − Θ∞δ| ≤ {tolerance[h]}·max|Θ∞|",
            e_last,
            "<=",
            tolerance[h] * scale,
        )


# ---------------------------------------------------------------- hypotheses

ACTIVATION_FUNCTIONS: dict[str, tuple[Callable[[Any], Any], float]] = {
    "relu": (relu, 1.0),
    "tanh": (np.tanh, 1.0),
    "identity": (lambda z: np.asarray(z, float), 1.0),
    "constant 0.7": (lambda z: np.full_like(np.asarray(z, float), 0.7), 0.0),
}


@dataclass
class Setting:
    """The statements' data: σ with its Lipschitz constant K, β, d, q and ε."""

    activation: str
    sigma: Callable[[Any], Any]
    K: float
    beta: float
    d: int
    q: int
    eps: float

    def __str__(self) -> str:
        return (
            f"σ = {self.activation} (K = {self.K:g}), β = {self.beta:g}, d = {self.d}, "
            f"q = {self.q}, ε = {self.eps:g}"
        )


def setting(ctx: Context, activation: str, beta: float) -> Setting:
    sigma, k = ACTIVATION_FUNCTIONS[activation]
    _, theta_inf = limit_kernels(INPUTS, BETA, 1)
    eps = 0.05 * float(np.abs(theta_inf).max())  # the goal's tolerance at the largest width
    return Setting(activation, sigma, k, beta, INPUTS.shape[1], Q, eps)


def lipschitz_quotient(s: Setting, rng: np.random.Generator) -> float:
    x, y = rng.uniform(-10, 10, (2, 4000))
    y[:1000] = x[:1000] + rng.uniform(-1e-3, 1e-3, 1000)  # close pairs, across the kink
    return float(np.max(np.abs(s.sigma(x) - s.sigma(y)) / np.abs(x - y)))


def evidence(ctx: Context, s: Setting) -> Iterator[Check]:
    yield hyp("0 < d", 0, "<", s.d)
    yield hyp("0 < q", 0, "<", s.q)
    yield hyp("0 < β", 0.0, "<", s.beta)
    quotient = lipschitz_quotient(s, np.random.default_rng([ctx.seed, 88]))
    yield hyp(
        "LipschitzWith K σ",
        quotient,
        "<=",
        s.K,
        1e-12,
        "largest |σ(x) − σ(y)|/|x − y| over 4000 random pairs",
    )
    yield hyp("0 < ε", 0.0, "<", s.eps)


VIOLATIONS: dict[str, dict[str, Any]] = {
    "0 < d": {"d": 0},
    "0 < q": {"q": 0},
    "0 < β": {"beta": 0.0},
    "LipschitzWith K σ": {"K": 0.5},
    "0 < ε": {"eps": 0.0},
}


def nonvacuity(hypotheses: tuple[str, ...]) -> NonVacuity:
    def chosen(ctx: Context, s: Setting) -> Iterator[Check]:
        return (c for c in evidence(ctx, s) if c.label.split(" [")[0] in hypotheses)

    return NonVacuity(
        hypotheses, setting, ("relu", BETA), chosen, {h: VIOLATIONS[h] for h in hypotheses}
    )


BIAS = Constant("bias_coef", 1.0, "1 in Σ^(ℓ+1) = E[σ(U)σ(V)] + 1·β²")
INPUT = Constant("input_coef", 1.0, "1 in Σ^(1) = 1·⟨x, y⟩/d + β²")

CLAIMS = [
    Claim(
        "covariance-validity",
        "σ ∈ {ReLU, tanh, identity, constant}, β ∈ {0.5, 1}, L ≤ 6, inputs with repeats/zero: "
        "Σ(x,x) ≥ β², Gram ⪰ 0 (eig ≥ −1e−9), Cov under N(0, Gram) = Gram (Monte Carlo, 5 s.e.); "
        "ReLU arc-cosine forms = Monte Carlo",
        covariance_validity,
        {
            "recursion without the β² term": {"bias_coef": 0.0},
            "recursion with −β² instead of +β²": {"bias_coef": -1.0},
        },
        nonvacuity(("0 < d", "0 < β", "LipschitzWith K σ")),
        (BIAS, Constant("floor_coef", 1.0, "1 in β² ≤ Σ^(L)(x, x)")),
    ),
    Claim(
        "gaussian-output-limit",
        "ReLU networks h = 0, 1, 2 at large sequential widths: E cos⟨t, f⟩ = exp(−tᵀCt/2) and "
        "Cov(f) = C for C = Σ^(L)(x_i, x_j) δ_kk' within 5 s.e. + 0.03",
        output_limit,
        {
            "limit covariance without the β² term": {"bias_coef": 0.0},
            "output coordinates perfectly correlated (no δ_kk')": {"independent": False},
        },
        nonvacuity(("0 < d", "0 < q", "0 < β", "LipschitzWith K σ")),
        (BIAS, INPUT),
    ),
    Claim(
        "goal",
        "ReLU, β = 1, d = 3, q = 2: backprop NTK = finite differences; h = 0 exact; for h = 1, 2 "
        "the mean max-deviation from Θ∞ δ decreases as widths grow (n_1 first) and is ≤ "
        "0.05·max|Θ∞| (h = 1), 0.15·max|Θ∞| (h = 2) at the largest widths",
        ntk_goal,
        {
            "limit kernel without the β² term": {"bias_coef": 0.0},
            "Θ recursion with Σ̇ dropped": {"drop_dot": True},
        },
        nonvacuity(("0 < d", "0 < q", "0 < β", "LipschitzWith K σ", "0 < ε")),
        (BIAS, INPUT),
    ),
]
