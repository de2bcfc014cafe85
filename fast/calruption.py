"""CALruption (Algorithm 2), fast path: one epoch update is a handful of matrix products.

Like the reference (reference/calruption.py, whose readings R8-R14 this follows line by
line), the stream enters only through per-epoch counts: `epoch_counts(start, end, q)`
returns for rounds start..end how often each point was seen and, among the rounds whose
coin came up (Q_t = 1 iff u_t < q^{x_t}, line 4), with which label. Tape mode reads them
off a tape, counts mode draws them; both feed `calruption_run`.

Float64 throughout, except the schedule (exact integers, see fast/constants.py) and the
counts (int64). Where the reference keeps exact values this path has floats:
rho^ (one rounding), alpha and the weights (a square root of a quotient), the Catoni
root W (safeguarded Newton, fast/catoni.py), the LP of line 9 (HiGHS, a vertex within
its feasibility tolerance), and everything computed from D^. The cross-check
(properties/crosscheck.py) holds each against the exact value, with the tolerances of
properties/tolerances.py."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .catoni import catoni_roots
from .constants import FloatParams
from .hypotheses import disagreement_counts

EpochCountsFn = Callable[[int, int, np.ndarray], tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class State:
    """What epoch l needs from the past (line 14): tau_l, |I_l|, q_l, Delta^^{l-1}."""

    l: int
    tau: int
    length: int
    q: np.ndarray
    gap_hat: np.ndarray


@dataclass(frozen=True)
class Epoch:
    """One completed epoch; pair matrices are |H| x |H| with nan where the reference has None."""

    l: int
    tau: int
    length: int
    q: np.ndarray
    labels_requested: int
    seen: np.ndarray  # int64 per point; the support S_l is seen > 0
    rho_counts: np.ndarray  # int64, |I_l| rho^_l(h, h') (line 7)
    min_q: np.ndarray
    alpha: np.ndarray
    W: np.ndarray  # line 8; 0 where rho^ = 0, nan where min q = 0
    weight: np.ndarray
    eta_hat: np.ndarray  # line 9, on the support; nan elsewhere
    lp_objective: float
    risk_hat: np.ndarray
    h_star_hat: int  # line 10
    gap_hat: np.ndarray  # line 11
    layers: np.ndarray  # bool (l+1) x |H|: row i is V_{l+1}^i (line 12)
    next_q: np.ndarray  # line 13


@dataclass(frozen=True)
class CALruptionRun:
    n: int
    epochs: tuple[Epoch, ...]
    final_epoch: int
    unfinished_rounds: int
    labels_requested: int
    output: int


def initial_state(m: int, num_h: int, fparams: FloatParams) -> State:
    """Line 1: tau_1 = 1, q_1 = 1, Delta^^0 = 0."""
    return State(1, 1, fparams.epoch_length(1), np.ones(m), np.zeros(num_h))


def _pair_data(H, hi, hj, q, queried, length):
    """Line 8's samples l^_t(h) - l^_t(h') per pair, grouped by value: +-1/q for the
    distinct q among queried points, and 0 for every other round of the epoch.
    A queried round at x in Dis(h, h') with label y contributes
    (1{h(x) != y} - 1{h'(x) != y}) / q^x: +1/q^x when h errs, -1/q^x when h' errs."""
    asked = np.flatnonzero(queried.sum(axis=1) > 0)
    qv, klass = np.unique(q[asked], return_inverse=True)
    group = np.zeros((len(asked), len(qv)))
    group[np.arange(len(asked)), klass] = 1.0
    a, b = H[hi][:, asked], H[hj][:, asked]
    q0, q1 = queried[asked, 0].astype(float), queried[asked, 1].astype(float)
    h_only, h2_only = a * (1 - b), (1 - a) * b  # h(x) = 1 != h'(x), and the reverse
    plus = (h_only * q0 + h2_only * q1) @ group
    minus = (h_only * q1 + h2_only * q0) @ group
    zero = length - plus.sum(axis=1) - minus.sum(axis=1)
    P = len(hi)
    values = np.concatenate([np.broadcast_to(1 / qv, (P, len(qv))), np.broadcast_to(-1 / qv, (P, len(qv))), np.zeros((P, 1))], axis=1)
    counts = np.concatenate([plus, minus, zero[:, None]], axis=1)
    return values, counts


def fit_distribution(H, support, p_hat, hi, hj, weight, W):
    """Line 9 as an LP over (eta^_x for x in S_l, s): minimise s subject to
    |w (R_D(h) - R_D(h') - W)| <= s and 0 <= eta^ <= 1, with
    R_D(h) - R_D(h') = sum_{x in S} p^_x (h(x) - h'(x)) (1 - 2 eta^_x).
    Solved by HiGHS; eta^ = 1/2 when there is no row (every D^ is optimal)."""
    k = len(support)
    if len(hi) == 0:
        return np.full(k, 0.5), 0.0
    signed = (H[hi][:, support] - H[hj][:, support]) * p_hat[support] * weight[:, None]  # w p^_x sgn_x
    constant = signed.sum(axis=1)  # w (R_D(h) - R_D(h')) = constant - 2 signed . eta
    target = weight * W
    ones = np.ones((len(hi), 1))
    A = np.block([[-2 * signed, -ones], [2 * signed, -ones]])
    b = np.concatenate([target - constant, constant - target])
    c = np.zeros(k + 1)
    c[-1] = 1.0
    # dual simplex without presolve: on these small dense LPs presolve costs more than it
    # saves (bench/run.py: 5 LPs of 240 x 17 in 8.4 ms instead of 12.8 ms)
    from scipy.optimize import linprog  # here, not at import: scipy.optimize takes ~0.3 s to import, and
    # a process answering one passive or RobustCAL request (docs/protocol.md) need not pay it

    result = linprog(c, A_ub=A, b_ub=b, bounds=[(0, 1)] * k + [(None, None)], method="highs-ds",
                     options={"presolve": False})
    if result.status != 0:
        raise RuntimeError(f"HiGHS could not solve the line-9 LP ({k} points, {2 * len(hi)} rows): {result.message}")
    eta = np.clip(result.x[:k], 0.0, 1.0)
    objective = float(np.max(np.abs(constant - 2 * signed @ eta - target)))  # the value of the reported eta
    return eta, objective


def epoch_update(H: np.ndarray, state: State, seen: np.ndarray, queried: np.ndarray, fparams: FloatParams):
    """Lines 7-14 at the end of epoch l = state.l; returns (Epoch, next State)."""
    l, length, q = state.l, state.length, state.q
    num_h, m = H.shape
    support = np.flatnonzero(seen > 0)
    p_hat = seen / length

    rho_counts = disagreement_counts(H, seen)  # line 7, times |I_l|
    rho = rho_counts / length
    hi, hj = np.triu_indices(num_h, 1)
    dis = H[hi] != H[hj]  # P x m
    on_support = dis & (seen > 0)
    pair_min_q = np.where(on_support, q, np.inf).min(axis=1)
    pair_rho = rho[hi, hj]
    min_q = np.full((num_h, num_h), np.nan)
    alpha = np.full((num_h, num_h), np.nan)
    W = np.full((num_h, num_h), np.nan)
    weight = np.full((num_h, num_h), np.nan)
    zero_rho = pair_rho == 0  # agrees on all of S_l: W = 0, no LP row
    W[hi[zero_rho], hj[zero_rho]] = W[hj[zero_rho], hi[zero_rho]] = 0.0
    has_rho = ~zero_rho
    min_q[hi[has_rho], hj[has_rho]] = min_q[hj[has_rho], hi[has_rho]] = pair_min_q[has_rho]
    active = has_rho & (pair_min_q > 0)  # min q = 0: weight 0, no row
    ai, aj = hi[active], hj[active]
    mq, r = pair_min_q[active], pair_rho[active]
    a = np.sqrt(2 * fparams.beta3 * mq / (5 * length * r))  # appendix lemma "Concentration inequality in our case"
    values, counts = _pair_data(H, ai, aj, q, queried, length)
    roots = catoni_roots(values, counts, a) if len(ai) else np.zeros(0)
    w = np.sqrt(mq / r)
    alpha[ai, aj] = alpha[aj, ai] = a
    weight[ai, aj] = weight[aj, ai] = w
    W[ai, aj], W[aj, ai] = roots, -roots

    eta_support, objective = fit_distribution(H, support, p_hat, ai, aj, w, roots)  # line 9
    eta = np.full(m, np.nan)
    eta[support] = eta_support
    eta0 = np.where(seen > 0, eta, 0.0)
    risk_hat = H @ (p_hat * (1 - eta0)) + (1 - H) @ (p_hat * eta0)
    penalised = risk_hat + fparams.beta2 * state.gap_hat  # line 10
    h_star = int(np.argmin(penalised))
    # line 11; exactly, eps_l <= Delta^ <= 1 (risks lie in [0, 1], the penalty is >= 0), and
    # a risk rounded to 1 + ulp must not push h out of V^0 = H (it would cut q by 4)
    gap_hat = np.clip(risk_hat - penalised[h_star], 2.0**-l, 1.0)
    layers = gap_hat[None, :] <= np.ldexp(1.0, -np.arange(l + 1))[:, None]  # line 12
    level = layers.sum(axis=0) - 1  # nested: the deepest i with Delta^ <= eps_i
    # line 13: q_{l+1}^x = max over pairs disagreeing at x of rho^ 4^(k - l - 1), k = min level
    k = np.minimum(level[hi], level[hj])
    pair_value = np.ldexp(pair_rho, 2 * (k - l - 1))
    next_q = (dis * pair_value[:, None]).max(axis=0) if len(hi) else np.zeros(m)
    record = Epoch(
        l=l, tau=state.tau, length=length, q=q, labels_requested=int(queried.sum()), seen=seen,
        rho_counts=rho_counts, min_q=min_q, alpha=alpha, W=W, weight=weight, eta_hat=eta,
        lp_objective=objective, risk_hat=risk_hat, h_star_hat=h_star, gap_hat=gap_hat, layers=layers, next_q=next_q,
    )
    next_state = State(l + 1, state.tau + length, fparams.epoch_length(l + 1), next_q, gap_hat)  # line 14
    return record, next_state


def calruption_run(H: np.ndarray, n: int, fparams: FloatParams, epoch_counts: EpochCountsFn) -> CALruptionRun:
    state = initial_state(H.shape[1], H.shape[0], fparams)
    epochs = []
    labels = 0
    while state.tau + state.length - 1 <= n:
        seen, queried = epoch_counts(state.tau, state.tau + state.length - 1, state.q)
        record, state = epoch_update(H, state, seen, queried, fparams)
        epochs.append(record)
        labels += record.labels_requested
    if state.tau <= n:  # the unfinished epoch still asks for labels
        _, queried = epoch_counts(state.tau, n, state.q)
        labels += int(queried.sum())
    output = epochs[-1].h_star_hat if epochs else 0
    return CALruptionRun(n, tuple(epochs), state.l, n - state.tau + 1, labels, output)
