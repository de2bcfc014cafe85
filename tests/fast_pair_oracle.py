"""The PREVIOUS fast/pair_stats.py (before issue 33), kept as a plain test oracle for
tests/test_fast_backends.py: per-q-group matrix products on numpy.

Per-pair statistics of CALruption's lines 8 and 13 without an |H|^2 x |X| array.

Everything a pair (h, h') needs from the epoch is a sum over the points where they
disagree, and such a sum splits by hypothesis: for non-negative weights c_x,

    sum_{x in Dis(h,h')} c_x = a_h + a_h' - 2 sum_x c_x h(x) h'(x),   a_h = sum_x c_x h(x),

one matmul of H against the c-weighted H. Grouping the support S_l by the distinct value
v_g of q (ascending) and taking one such product per group gives
* D_g(h, h'): seen-weighted disagreement counts in group g; the pair's min q over
  Dis(h,h') on S_l (line 8's weights) is v_g of the first group with D_g > 0;
* plus_g, minus_g: the queried rounds in group g where h errs (h(x) = 1, h'(x) = 0 with
  label 0, or the reverse with label 1) and where h' errs: l^_t(h) - l^_t(h') is +1/v_g
  there, -1/v_g here, and 0 in every other round of the epoch (line 8's Catoni samples).
Counts below 2^53 are exact in float64 and so are the products (fast/hypotheses.py), so
these are exact integers computed by BLAS; `_exact_dtype` checks the bound and falls back
to numpy's (slower, exact) int64 matmul above it.

Memory: O(|H|^2) for the pair matrices, plus blocks of rows whose working set
rows x |H| x (number of slots) stays under BLOCK_ELEMENTS, whatever the number G of
distinct q values (small for thresholds and intervals, up to |X| in general).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fast.hypotheses import exact_in_float

# float64 elements in one block's per-pair slot arrays (rows x columns x slots)
BLOCK_ELEMENTS = 2**20
# pairs x slots per call of catoni_roots, which holds about ten such arrays at once: at
# 2^17 (1 MiB each) it ran 6x faster per problem than at 2^21 on 13 slots (cache, and no
# fresh pages for each large temporary)
CATONI_ELEMENTS = 2**17


@dataclass(frozen=True)
class QGroups:
    """The support S_l split by distinct q (ascending): group g is points[starts[g]:starts[g+1]]."""

    values: np.ndarray  # v_g, ascending
    points: np.ndarray  # support points sorted by q
    starts: np.ndarray  # len(values) + 1 offsets into points

    def members(self, g: int) -> np.ndarray:
        return self.points[self.starts[g]:self.starts[g + 1]]

    def __len__(self) -> int:
        return len(self.values)


def q_groups(q: np.ndarray, support: np.ndarray) -> QGroups:
    order = support[np.argsort(q[support], kind="stable")]
    values, first = np.unique(q[order], return_index=True)
    return QGroups(values, order, np.append(first, len(order)))


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
    e0 = np.stack([Hd[:, c] @ queried[c, 0].astype(dtype) for c in cols], axis=1) if asked else np.zeros((num_h, 0), dtype)
    e1 = np.stack([Hd[:, c] @ queried[c, 1].astype(dtype) for c in cols], axis=1) if asked else np.zeros((num_h, 0), dtype)
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


def _packed(mask: np.ndarray) -> np.ndarray:
    """Boolean rows as uint64 words, bit x of a row = column x (little-endian, zero-padded)."""
    rows = np.atleast_2d(mask)
    bytes_ = np.packbits(rows.astype(bool), axis=1, bitorder="little")
    pad = (-bytes_.shape[1]) % 8
    return np.pad(bytes_, ((0, 0), (0, pad))).view(np.uint64)


def _unpacked(words: np.ndarray, m: int) -> np.ndarray:
    return np.unpackbits(np.ascontiguousarray(words).view(np.uint8), axis=1, bitorder="little")[:, :m].astype(bool)


def next_query_probabilities(H: np.ndarray, pair_value: np.ndarray, chunk_words: int = BLOCK_ELEMENTS) -> np.ndarray:
    """Line 13: q_{l+1}^x = max over pairs h < h' with h(x) != h'(x) of pair_value[h, h']
    (0 where all hypotheses agree), without a pairs x points array.

    The pairs are swept in descending value; each still open point takes the value of the
    first pair that disagrees there, which is the max, and is closed. Rows of H are bit
    sets of points (64 points a word), so a chunk of pairs costs pairs x |X|/64 words: the
    XOR of the pair's rows, masked by the open points, and its running OR along the chunk
    (a bit set in row c and not in row c-1 is a point whose first disagreeing pair is c).
    Once the remaining values are all 0, the open points keep 0."""
    num_h, m = H.shape
    result = np.zeros(m, pair_value.dtype)
    packed = _packed(H)
    open_bits = _packed(H.min(axis=0) != H.max(axis=0))[0]  # elsewhere no pair disagrees: 0
    hi, hj = np.triu_indices(num_h, 1)
    values = pair_value[hi, hj]
    order = np.argsort(-values, kind="stable")
    order = order[values[order] > 0]
    size = max(1, chunk_words // packed.shape[1])
    for position in range(0, len(order), size):
        if not open_bits.any():
            break
        chunk = order[position:position + size]
        dis = (packed[hi[chunk]] ^ packed[hj[chunk]]) & open_bits
        seen = np.bitwise_or.accumulate(dis, axis=0)
        first = dis & ~np.vstack([np.zeros_like(open_bits)[None, :], seen[:-1]])
        rows = np.flatnonzero(first.any(axis=1))
        r, x = np.nonzero(_unpacked(first[rows], m))
        result[x] = values[chunk[rows[r]]]
        open_bits &= ~seen[-1]
    return result
