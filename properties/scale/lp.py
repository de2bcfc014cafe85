"""Line 9's fit at scale: the value of the candidate's D^ over every row, and a lower bound
on the LP's optimum from a dual certificate the judge computes and then verifies exactly.

The LP (reference/calruption.py, `fit_distribution`): minimise s over eta^ in [0,1]^S and
s, subject to w (R_D(h) - R_D(h') - W) <= s for every ordered pair with a weight, where
R_D(h) - R_D(h') = sum_{x in S} p^_x (h(x) - h'(x)) (1 - 2 eta^_x). The rows are the
candidate's own w and W (each already held to the exact value within its tolerance).

Weak duality. For multipliers lambda_i >= 0 on any subset of the rows, with Lambda = their
sum, every feasible (eta^, s) has Lambda s >= sum_i lambda_i w_i (R(h_i) - R(h'_i) - W_i),
and the minimum of the right side over the box is

    LB_num = - sum_{x in S} p^_x |nu_x| - sum_i lambda_i w_i W_i,   nu_x = sum_h mu_h h(x),
    mu_h = sum_{i: h_i = h} lambda_i w_i - sum_{i: h'_i = h} lambda_i w_i,

so max(0, LB_num / Lambda) is a lower bound on the optimum (the two rows of a pair sum
to 0, so the optimum is >= 0). lambda, w and W are floats, i.e. dyadic rationals: the
judge evaluates LB exactly, in Python integers over one power-of-two denominator. Where
lambda comes from does not matter for the bound's validity: the judge takes it from
HiGHS (scipy.optimize.linprog) on the rows that bind near the candidate's D^, adding
violated rows for a few rounds (row generation, as fast/line9.py does for the primal)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import csr_matrix

LD = np.longdouble
U = float(np.finfo(LD).eps) / 2
ROUNDS = 8
ROW_BLOCK = 1 << 16


def risks(H: np.ndarray, seen: np.ndarray, length: int, eta: np.ndarray, support: np.ndarray) -> np.ndarray:
    """R_D(h) for every h in longdouble; error <= (2 |S| + 8) u (terms in [0, 1], summing to <= 1)."""
    p = seen[support].astype(LD) / LD(length)
    e = eta[support].astype(LD)
    Hs = H[:, support].astype(LD)
    return Hs @ (p * (1 - e)) + (1 - Hs) @ (p * e)


def risk_error(support_size: int) -> float:
    return (2 * support_size + 8) * U * 2


def row_values(R: np.ndarray, weight: np.ndarray, W: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """w (R(h) - R(h') - W) for row index pairs rows (k, 2)."""
    i, j = rows[:, 0], rows[:, 1]
    return weight[i, j].astype(LD) * (R[i] - R[j] - W[i, j].astype(LD))


def all_rows(active: np.ndarray) -> np.ndarray:
    i, j = np.nonzero(active)
    return np.stack([i, j], axis=1)


def objective_at(R: np.ndarray, weight: np.ndarray, W: np.ndarray, rows: np.ndarray):
    """(max(0, max row value), the values) at R, in blocks."""
    values = np.empty(len(rows), LD)
    for b in range(0, len(rows), ROW_BLOCK):
        values[b : b + ROW_BLOCK] = row_values(R, weight, W, rows[b : b + ROW_BLOCK])
    top = values.max() if len(values) else LD(0)
    return max(LD(0), top), values


def _restricted(H, support, p, weight, W, rows):
    """linprog's (eta^ on S, s) and the multipliers lambda >= 0 of the rows.

    Each pair row as w r_h - w r_h' - s <= w W, with r_h = sum_{x in S} p^_x h(x) (1 - 2 eta^_x)
    extra free columns (R_D(h) - R_D(h') = r_h - r_h'), tied to eta^ along a chain of the
    hypotheses the rows use, sorted by their number of 1s on S (for thresholds consecutive
    ones differ in one point): r_h - r_prev + 2 sum_x p^_x (h(x) - prev(x)) eta^_x =
    sum_x p^_x (h(x) - prev(x)), from an all-zero start. Same LP, three nonzeros per row."""
    k = len(support)
    used, inverse = np.unique(rows.reshape(-1), return_inverse=True)
    local = inverse.reshape(rows.shape)
    labels = H[used][:, support].astype(np.int8)
    order = np.argsort(labels.sum(axis=1), kind="stable")
    position = np.empty(len(used), np.int64)
    position[order] = np.arange(len(used))
    chain = np.diff(np.vstack([np.zeros((1, k), np.int8), labels[order]]), axis=0)  # row c: h_c - h_(c-1)
    er, ex = np.nonzero(chain)
    dv = chain[er, ex].astype(np.float64)
    u = len(used)
    eq_rows = np.concatenate([er, np.arange(u), np.arange(1, u)])
    eq_cols = np.concatenate([ex, k + order, k + order[:-1]])
    eq_data = np.concatenate([2 * p[ex] * dv, np.ones(u), -np.ones(u - 1)])
    A_eq = csr_matrix((eq_data, (eq_rows, eq_cols)), shape=(u, k + u + 1))
    b_eq = np.zeros(u)
    np.add.at(b_eq, er, p[ex] * dv)
    w = weight[rows[:, 0], rows[:, 1]]
    n_rows = len(rows)
    ub_rows = np.repeat(np.arange(n_rows), 3)
    ub_cols = np.stack([k + local[:, 0], k + local[:, 1], np.full(n_rows, k + u)], axis=1).reshape(-1)
    ub_data = np.stack([w, -w, -np.ones(n_rows)], axis=1).reshape(-1)
    A_ub = csr_matrix((ub_data, (ub_rows, ub_cols)), shape=(n_rows, k + u + 1))
    b_ub = w * W[rows[:, 0], rows[:, 1]]
    c = np.zeros(k + u + 1)
    c[-1] = 1
    del position
    result = linprog(
        c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=[(0, 1)] * k + [(None, None)] * (u + 1), method="highs"
    )
    if result.status != 0:
        return None, None
    return np.concatenate([result.x[:k], result.x[-1:]]), np.maximum(-result.ineqlin.marginals, 0.0)


def _exact_bound(H, support, seen, length, weight, W, rows, lam) -> Fraction:
    """max(0, LB_num / Lambda) exactly (module notes)."""
    keep = lam > 0
    rows, lam = rows[keep], lam[keep]
    if not len(rows):
        return Fraction(0)
    lw = [Fraction(a) * Fraction(float(weight[i, j])) for a, (i, j) in zip(lam, rows)]
    denominator = max(x.denominator for x in lw)  # powers of two: one common denominator
    scaled = [x.numerator * (denominator // x.denominator) for x in lw]
    mu: dict[int, int] = {}
    for s, (i, j) in zip(scaled, rows):
        mu[int(i)] = mu.get(int(i), 0) + s
        mu[int(j)] = mu.get(int(j), 0) - s
    hs = [h for h, v in mu.items() if v]
    if hs:
        coefficients = np.array([mu[h] for h in hs], dtype=object)
        nu = H[hs][:, support].astype(object).T.dot(coefficients)  # Python integers: exact
        mass = sum(int(c) * abs(int(v)) for c, v in zip(seen[support], nu))
    else:
        mass = 0
    penalty = sum(Fraction(s, denominator) * Fraction(float(W[i, j])) for s, (i, j) in zip(scaled, rows))
    total = sum((Fraction(a) for a in lam), Fraction(0))
    bound = (-Fraction(mass, denominator * length) - penalty) / total
    return max(Fraction(0), bound)


def optimality_bound(
    H, support, seen, length, weight, W, rows, values_at_candidate, first_rows: int, enough=None, near: float = 0.0
):
    """The best exact lower bound found on the LP's optimum (Fraction), and the rounds used.

    Starts from the rows of largest value at the candidate's D^, solves, adds the rows most
    violated at the restricted optimum, up to ROUNDS times; each round's multipliers give a
    bound, the best is kept; it stops once `enough(bound)` holds. The first set also holds
    every row within `near` of the top value at the candidate's D^ (the rows that bind
    there: if its D^ is optimal, their multipliers alone certify it)."""
    if not len(rows):
        return Fraction(0), 0
    p = seen[support].astype(np.float64) / length
    order = np.argsort(-values_at_candidate.astype(np.float64), kind="stable")
    chosen = set(order[:first_rows].tolist())
    top_value = float(values_at_candidate.max())
    binding = np.flatnonzero(values_at_candidate.astype(np.float64) >= top_value - near)
    chosen.update(binding[np.argsort(-values_at_candidate[binding].astype(np.float64))][: 4 * first_rows].tolist())
    best, rounds = Fraction(0), 0
    for rounds in range(1, ROUNDS + 1):  # noqa: B007 (read after the loop: how many rounds ran)
        idx = np.array(sorted(chosen))
        x, lam = _restricted(H, support, p, weight, W, rows[idx])
        if x is None:
            break
        best = max(best, _exact_bound(H, support, seen, length, weight, W, rows[idx], lam))
        if enough is not None and enough(best):
            break
        eta = np.full(H.shape[1], 0.5)
        eta[support] = np.clip(x[:-1], 0, 1)
        R = risks(H, seen, length, eta, support)
        top, values = objective_at(R, weight, W, rows)
        if float(top) <= x[-1] + 1e-9 * max(1.0, abs(x[-1])):
            break  # the restricted optimum is feasible for all rows: its bound is the optimum
        violated = np.argsort(-values.astype(np.float64), kind="stable")[:first_rows]
        new = [r for r in violated.tolist() if r not in chosen]
        if not new:
            break
        chosen.update(new)
    return best, rounds
