"""Line 9 of CALruption (fast path): fit D^ on the support by an LP, solved by row generation.

The LP (reference/calruption.py, `fit_distribution`): variables eta^_x for x in S_l and s,
minimise s subject to 0 <= eta^ <= 1 and, for every ordered pair (h, h') with a weight w
(rho^ > 0 and min q > 0) and Catoni estimate W,

    w (R_D(h) - R_D(h') - W^{h,h'}) <= s,   R_D(h) = sum_{x in S} p^_x (h(x) (1 - eta^_x) + (1 - h(x)) eta^_x).

There are 2 x (#pairs) rows, up to |H|^2, and few of them bind.

Formulation. With r_h = sum_{x in S} p^_x h(x) (1 - 2 eta^_x), R_D(h) - R_D(h') = r_h - r_h', so
each pair row is w r_h - w r_h' - s <= w W: three nonzeros instead of |S_l| + 1. The r_h
are extra free columns, tied to eta^ by one equality per hypothesis along a spanning tree
of H (Hamming distance on S_l, from a virtual all-zero hypothesis with r = 0):

    r_h - r_parent + 2 sum_x p^_x (h(x) - parent(x)) eta^_x = sum_x p^_x (h(x) - parent(x)),

whose nonzeros are the tree's total distance (|S_l| + 2|H| for thresholds, at most
|H| |S_l|). Same LP, same optimum; HiGHS may return another optimal vertex (the
cross-check classifies a different optimal D^ as a free choice).

Row generation. HiGHS solves the LP on a working set of pair rows; the value of every row
at its eta^ comes from the |H| risks R_D(h) and an |H| x |H| comparison in row blocks;
the rows above the working set's own maximum s_ws (at that eta^, floored at 0) by more than

    ROWGEN_RTOL |s_ws| + ROWGEN_ATOL max_rows w (|W| + 1)

are added, the most violated first, and HiGHS goes on from its last basis (dual simplex:
the old basis stays dual feasible when rows are added). The working set's optimum is a
lower bound on the full one and no row exceeds s_ws by more than the tolerance at the
end, so the reported objective (the value of the reported eta^ over ALL rows) is within
that tolerance plus HiGHS's own error (feasibility tolerances HIGHS_TOLERANCE, in the
objective's units) of the full LP's optimum; properties/checks/tolerances.py allows 1e-7 relative
plus 1e-7 of the scale above. The loop ends: every round adds a row not yet in the set.
The first working set is the rows most violated at eta^ = 1/2, where every R_D(h) is the
same and a row's value is -w W: the largest |w W|.

Solver. HiGHS through its public bindings, highspy (reference/highs.py, which the
reference's own row generation uses too), keeps the model and basis between rounds; measured on the 256 x 256 thresholds LPs at paper constants (65280 rows):
0.14 s with 22 rounds warm, against 47 s (211 rounds) rebuilding the LP through
scipy.optimize.linprog each round, whose own per-call overhead is ~1.2 ms against 0.08 ms.
scipy's public linprog is the fallback when highspy is not installed.
"""

from __future__ import annotations

import numpy as np

from reference.highs import TOLERANCE, new_lp

from .hypotheses import disagreement_counts
from .line9_chain import CHAIN_ATOL, CHAIN_RTOL, fit_nested
from .precision import FLOAT
from .workspace import array

HIGHS_TOLERANCE = TOLERANCE  # HiGHS's feasibility tolerances (reference/highs.py gives the reason)
ROWGEN_RTOL = 1e-9
ROWGEN_ATOL = 1e-13
ROW_BLOCK_ELEMENTS = 2**17  # |H| x |H| comparisons go in row blocks of this many elements (cache-sized)
# the first working set has max(FIRST_ROWS, FIRST_ROWS_PER_COLUMN (|S_l| + 1)) rows and each
# round adds up to max(ROWS_PER_ROUND, ROWS_PER_ROUND_PER_COLUMN (|S_l| + 1)): a vertex has
# |S_l| + 1 tight constraints. Measured at 1024 x 1024 (paper constants): ~32 rounds, a
# final working set of ~16000 of the 1047552 rows, 0.6-0.9 s per epoch.
FIRST_ROWS, FIRST_ROWS_PER_COLUMN = 64, 1.0
ROWS_PER_ROUND, ROWS_PER_ROUND_PER_COLUMN = 64, 0.5


def risks(H: np.ndarray, p_hat: np.ndarray, eta: np.ndarray, workspace=None) -> np.ndarray:
    """R_D(h) for every h; eta indexed by point (any value where p^ = 0). `workspace`
    (fast/workspace.py) holds the two float copies of H."""
    eta0 = np.where(p_hat > 0, eta, 0.0)
    Hf = array(workspace, "risks H", H.shape, FLOAT)
    np.copyto(Hf, H)  # int64 @ float32 would compute in float64 (for float64 the same bits as H @ ...)
    Hf_not = array(workspace, "risks 1 - H", H.shape, FLOAT)
    np.subtract(1, Hf, out=Hf_not)
    return Hf @ (p_hat * (1 - eta0)) + Hf_not @ (p_hat * eta0)


def _row_blocks(num_h: int):
    size = max(1, ROW_BLOCK_ELEMENTS // max(1, num_h))
    for r0 in range(0, num_h, size):
        yield r0, min(num_h, r0 + size)


def row_values(R: np.ndarray, weight: np.ndarray, W: np.ndarray, r0: int, r1: int) -> np.ndarray:
    """w (R_D(h) - R_D(h') - W^{h,h'}) for h in r0..r1-1 and every h'; -inf where (h, h') gives no row."""
    rows = np.isfinite(weight[r0:r1])
    with np.errstate(invalid="ignore"):
        values = weight[r0:r1] * (R[r0:r1, None] - R[None, :] - W[r0:r1])
    return np.where(rows, values, -np.inf)


def lp_value(R, weight, W) -> float:
    """max over all rows of w (R_D(h) - R_D(h') - W); 0 without rows."""
    best = 0.0
    for r0, r1 in _row_blocks(len(R)):
        best = max(best, float(row_values(R, weight, W, r0, r1).max(initial=-np.inf)))
    return best


def most_violated(R, weight, W, excluded, above: float, limit: int):
    """Up to `limit` rows (h, h') with value > above and not excluded, largest first."""
    num_h = len(R)
    best_v, best_i = np.zeros(0), np.zeros(0, dtype=np.int64)
    for r0, r1 in _row_blocks(num_h):
        values = row_values(R, weight, W, r0, r1)
        values[excluded[r0:r1]] = -np.inf
        flat = np.flatnonzero(values > above)
        if len(flat) > limit:
            flat = flat[np.argpartition(-values.ravel()[flat], limit - 1)[:limit]]
        best_v = np.concatenate([best_v, values.ravel()[flat]])
        best_i = np.concatenate([best_i, flat + r0 * num_h])
        if len(best_v) > limit:
            keep = np.argpartition(-best_v, limit - 1)[:limit]
            best_v, best_i = best_v[keep], best_i[keep]
    order = np.argsort(-best_v, kind="stable")
    return best_i[order] // num_h, best_i[order] % num_h


def spanning_tree(HS: np.ndarray, distance: np.ndarray | None = None) -> np.ndarray:
    """Parent of each hypothesis in a minimum spanning tree by Hamming distance (Prim),
    rooted at a virtual all-zero hypothesis (parent -1). `distance`: the |H| x |H| Hamming
    distances on the support when the caller has them (fast/pair_kernel.py), else a matmul."""
    num_h, k = HS.shape
    if distance is None:
        distance = disagreement_counts(HS.astype(np.int64), np.ones(k, dtype=np.int64))
    best = HS.sum(axis=1).astype(np.float64)  # distance to the virtual root
    parent = np.full(num_h, -1)
    done = np.zeros(num_h, dtype=bool)
    for _ in range(num_h):
        h = int(np.argmin(np.where(done, np.inf, best)))
        done[h] = True
        closer = ~done & (distance[h] < best)
        best[closer] = distance[h][closer]
        parent[closer] = h
    return parent


def _coo(rows, cols, values, shape):
    from scipy.sparse import csr_matrix

    return csr_matrix((values, (rows, cols)), shape=shape)


def tree_equalities(HS: np.ndarray, pS: np.ndarray, distance: np.ndarray | None = None):
    """The |H| equalities tying r to eta^ (module notes): CSR matrix over the columns
    (eta^ on S, r, s) and the right-hand side."""
    num_h, k = HS.shape
    parent = spanning_tree(HS, distance)
    has_parent = parent >= 0
    step = HS - np.where(has_parent[:, None], HS[np.maximum(parent, 0)], 0.0)  # h(x) - parent(x)
    h_idx, x_idx = np.nonzero(step)
    rows = np.concatenate([h_idx, np.arange(num_h), np.flatnonzero(has_parent)])
    cols = np.concatenate([x_idx, k + np.arange(num_h), k + parent[has_parent]])
    values = np.concatenate([2 * pS[x_idx] * step[h_idx, x_idx], np.ones(num_h), -np.ones(int(has_parent.sum()))])
    return _coo(rows, cols, values, (num_h, k + num_h + 1)), step @ pS


def pair_rows(a, b, weight, W, k: int, num_h: int):
    """The rows w r_a - w r_b - s <= w W^{a,b} of the ordered pairs (a[i], b[i]) over the
    columns (eta^ on S, r, s), as CSR arrays and right-hand sides (indptr, indices, data,
    upper): three nonzeros a row, columns ascending, built without scipy.sparse (at small
    sizes its constructors cost more than HiGHS's solve)."""
    n = len(a)
    w = weight[a, b]
    first = a < b  # the r columns in ascending order, then s
    indices = np.stack([k + np.minimum(a, b), k + np.maximum(a, b), np.full(n, k + num_h)], axis=1)
    data = np.stack([np.where(first, w, -w), np.where(first, -w, w), -np.ones(n)], axis=1)
    return np.arange(0, 3 * n + 1, 3, dtype=np.int32), indices.ravel().astype(np.int32), data.ravel(), w * W[a, b]


def _solver(cost, lower, upper, equalities, rhs, warm: bool = True):
    """The working-set LP (reference/highs.py: HiGHS warm-started through highspy, linprog
    without it), with the tree equalities in it."""
    csr = equalities.tocsr()
    return new_lp(cost, lower, upper, (csr.indptr, csr.indices, csr.data, rhs), warm=warm)


def _chain_route(HS, pS, weight, W, scale: float, stats: dict | None, nested=None, workspace=None, workers=1):
    """(eta^, R, the value of eta^ over every row) from fast/line9_chain.py when the class
    is nested on S_l and the cycle certificate holds (that value within CHAIN_RTOL |s| +
    CHAIN_ATOL scale of the cycle's lower bound), else None."""
    chain_stats: dict = {}
    fitted = fit_nested(HS, pS, weight, W, chain_stats, None if nested is True else nested, workspace, workers)
    if fitted is not None:
        eta, lower = fitted
        eta = eta.astype(FLOAT, copy=False)
        HS_not = array(workspace, "1 - HS", HS.shape, FLOAT)
        np.subtract(1, HS, out=HS_not)
        R = HS @ (pS * (1 - eta)) + HS_not @ (pS * eta)
        value = lp_value(R, weight, W)
        if value - lower <= CHAIN_RTOL * abs(lower) + CHAIN_ATOL * scale:
            if stats is not None:
                stats.update(chain_stats, lower_bound=lower, rows=int(np.isfinite(weight).sum()))
            return eta, R, value
    if stats is not None:
        stats.update(chain_stats, chain_fallback=bool(chain_stats.get("nested")))
    return None


def _row_generation(HS, pS, weight, W, scale: float, warm: bool, stats: dict | None, distance):
    """(eta^, R) by HiGHS on a growing working set of rows (module notes)."""
    num_h, k = HS.shape
    eta = np.full(k, 0.5, FLOAT)
    if callable(distance):
        distance = distance()
    cost = np.zeros(k + num_h + 1)
    cost[-1] = 1.0
    lower = np.concatenate([np.zeros(k), np.full(num_h + 1, -np.inf)])
    upper = np.concatenate([np.ones(k), np.full(num_h + 1, np.inf)])
    equalities = tree_equalities(HS, pS, distance)
    distance = None  # |H| x |H|: not kept through the rounds
    lp = _solver(cost, lower, upper, *equalities, warm=warm)
    HS_not = 1 - HS  # once per epoch, not per round (the same matrix, so the same R bit for bit)
    R = HS @ (pS * (1 - eta)) + HS_not @ (pS * eta)
    in_set = np.zeros((num_h, num_h), dtype=bool)
    a, b = most_violated(R, weight, W, in_set, -np.inf, max(FIRST_ROWS, int(FIRST_ROWS_PER_COLUMN * (k + 1))))
    rounds = 0
    set_a, set_b = a[:0], b[:0]
    while len(a):
        in_set[a, b] = True
        set_a, set_b = np.concatenate([set_a, a]), np.concatenate([set_b, b])
        lp.add(*pair_rows(a, b, weight, W, k, num_h))
        rounds += 1
        # HiGHS's float64 vertex, as FLOAT (its basis is not needed here)
        eta = np.clip(lp.solve(basis=False).x[:k], 0.0, 1.0).astype(FLOAT, copy=False)
        R = HS @ (pS * (1 - eta)) + HS_not @ (pS * eta)
        # floored at 0: the full optimum is >= 0 (each unordered pair gives rows v and -v),
        # so a row below 0 can never be the one that decides it
        s_set = max(0.0, float(np.max(weight[set_a, set_b] * (R[set_a] - R[set_b] - W[set_a, set_b]))))
        above = s_set + ROWGEN_RTOL * abs(s_set) + ROWGEN_ATOL * scale
        a, b = most_violated(R, weight, W, in_set, above, max(ROWS_PER_ROUND, int(ROWS_PER_ROUND_PER_COLUMN * (k + 1))))
    if stats is not None:
        stats.update(
            method="row_generation", rounds=rounds, working_rows=int(in_set.sum()), rows=int(np.isfinite(weight).sum())
        )
    return eta, R


def _scale(weight, W) -> float | None:
    """max over rows of w (|W| + 1), by row blocks; None without rows."""
    best = -np.inf
    for r0, r1 in _row_blocks(weight.shape[0]):
        block = weight[r0:r1] * (np.abs(W[r0:r1]) + 1)
        if np.isfinite(block).any():
            best = max(best, float(np.nanmax(block)))
    return None if best == -np.inf else best


def fit_distribution(
    H,
    support,
    p_hat,
    weight,
    W,
    *,
    warm: bool = True,
    stats: dict | None = None,
    distance=None,
    nested=True,
    workspace=None,
    workers: int = 1,
):
    """Line 9: (eta^ on the support, the value of that eta^ over all rows). eta^ = 1/2 when
    there is no row (every D^ is optimal). weight and W are |H| x |H|, nan where (h, h')
    gives no row. A class nested on the support takes the cycle-ratio route first
    (fast/line9_chain.py; nested=False skips it, a fast.nested.Nested of H on the support
    saves finding the order), any other, or one whose certificate fails,
    row generation: warm=False forces its linprog fallback; `distance`, the Hamming
    distances of H on the support (the spanning tree's input), as an array or a function
    called only if row generation runs. `stats`, if given, receives the route ("method")
    and its figures; `workspace` (fast/workspace.py), arrays to reuse; `workers`, threads
    for the cycle route's dense passes."""
    k = len(support)
    HS = array(workspace, "HS", (H.shape[0], k), FLOAT)
    np.copyto(HS, H if k == H.shape[1] else H[:, support])  # support is sorted: all points, H itself
    pS = p_hat[support]
    eta = np.full(k, 0.5, FLOAT)
    scale = _scale(weight, W)
    if scale is None:
        return eta, 0.0
    fitted = _chain_route(HS, pS, weight, W, scale, stats, nested, workspace, workers) if nested is not False else None
    if fitted is not None:
        eta, R, objective = fitted
    else:
        eta, R = _row_generation(HS, pS, weight, W, scale, warm, stats, distance)
        objective = lp_value(R, weight, W)
    return eta, objective
