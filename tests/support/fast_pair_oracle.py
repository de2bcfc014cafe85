"""fast's per-pair statistics in their plainest form (one matrix product of H per q
group, on numpy): a test oracle for tests/fast/test_backends.py, which
holds the array-API kernels (fast/pair_kernel.py) to them bit for bit."""

from __future__ import annotations

import numpy as np

from fast.hypotheses import exact_in_float
from fast.pair_stats import QGroups

# the block budgets of the previous code (tests shrink them)
BLOCK_ELEMENTS = 2**20
CATONI_ELEMENTS = 2**17


def _exact_dtype(total):
    """float64 (BLAS) when integer terms summing to `total` stay exact in it, else int64."""
    return np.float64 if exact_in_float(total) else np.int64


def min_q_on_disagreement(H: np.ndarray, seen: np.ndarray, groups: QGroups, rho_counts: np.ndarray) -> np.ndarray:
    """min_{x in Dis(h,h') on S_l} q^x for every pair, |H| x |H|; nan where the pair agrees
    on all of S_l (rho^ = 0). Groups are taken in ascending q and the loop stops once
    every disagreeing pair has found its first group."""
    dtype = _exact_dtype(seen.sum())
    min_q = np.full(rho_counts.shape, np.nan, groups.values.dtype)  # q's values, q's dtype
    open_ = rho_counts > 0
    for g in range(len(groups)):
        if not open_.any():
            break
        cols = groups.members(g)
        Hg = H[:, cols].astype(dtype)
        weighted = Hg * seen[cols].astype(dtype)
        a = weighted.sum(axis=1)
        disagree = a[:, None] + a[None, :] - 2 * (Hg @ weighted.T) > 0  # D_g > 0, exact
        found = open_ & disagree
        min_q[found] = groups.values[g]
        open_ &= ~found
    return min_q


def loss_difference_blocks(H: np.ndarray, groups: QGroups, queried: np.ndarray, length: int, active: np.ndarray):
    """Line 8's samples l^_t(h) - l^_t(h') for the active pairs h < h', by blocks of rows h.

    Yields (hi, hj, values, counts): the pairs of the block and, per pair, Catoni's data
    grouped by value (+1/v_g with count plus_g, -1/v_g with count minus_g for each group
    where something was queried, and 0 for the other rounds of the epoch). Slot columns
    that are 0 for every pair of the block are dropped (a 0 count is padding to
    catoni_roots; dropping it changes nothing but the order of the sum)."""
    dtype = _exact_dtype(queried.sum())
    num_h = H.shape[0]
    asked = [g for g in range(len(groups)) if groups.values[g] > 0 and queried[groups.members(g)].sum() > 0]
    v = groups.values[asked]
    values_row = np.concatenate([1 / v, -1 / v, [0.0]])
    # per-hypothesis sums per asked group: e0[h, g] = sum_{x in g} h(x) queried[x, 0], e1 likewise
    Hd = H.astype(dtype)
    cols = [groups.members(g) for g in asked]
    empty = np.zeros((num_h, 0), dtype)
    e0 = np.stack([Hd[:, c] @ queried[c, 0].astype(dtype) for c in cols], axis=1) if asked else empty
    e1 = np.stack([Hd[:, c] @ queried[c, 1].astype(dtype) for c in cols], axis=1) if asked else empty
    both = [Hd[:, c] * queried[c].sum(axis=1).astype(dtype) for c in cols]
    rows_per_block = max(1, BLOCK_ELEMENTS // (num_h * (2 * len(asked) + 1)))
    for r0 in range(0, num_h, rows_per_block):
        r1 = min(num_h, r0 + rows_per_block)
        # columns h' >= r0 only: the pairs h < h' of these rows
        bi, bj = np.nonzero(active[r0:r1, r0:] & (np.arange(r0, num_h)[None, :] > np.arange(r0, r1)[:, None]))
        if len(bi) == 0:
            continue
        hi, hj = bi + r0, bj + r0
        plus = np.empty((len(hi), len(asked)), dtype)
        minus = np.empty((len(hi), len(asked)), dtype)
        for k, c in enumerate(cols):
            # sum_{x in g} h(x) h'(x) (queried[x, 0] + queried[x, 1]), exact
            common = (Hd[r0:r1, c] @ both[k][r0:].T)[bi, bj]
            plus[:, k] = e0[hi, k] + e1[hj, k] - common  # h = 1, h' = 0, label 0; or h = 0, h' = 1, label 1
            minus[:, k] = e1[hi, k] + e0[hj, k] - common
        zero = length - plus.sum(axis=1) - minus.sum(axis=1)  # the epoch's other rounds: exact, as length >= queried
        counts = np.concatenate([plus, minus, zero[:, None]], axis=1).astype(np.float64)
        used = counts.any(axis=0)
        counts = counts[:, used]
        size = max(1, CATONI_ELEMENTS // counts.shape[1])
        for c0 in range(0, len(hi), size):
            part = slice(c0, c0 + size)
            yield hi[part], hj[part], np.broadcast_to(values_row[used], counts[part].shape), counts[part]
