"""Per-pair statistics of CALruption's lines 7, 8 and 13 without an |H|^2 x |X| array, on
any array backend (fast/backends.py).

Everything a pair (h, h') needs from the epoch is a sum over the points where they
disagree, and such a sum splits by hypothesis: for non-negative weights c_x,

    sum_{x in Dis(h,h')} c_x = a_h + a_h' - 2 cross(h, h'),   a_h = sum_x c_x h(x),

with cross(h, h') = sum_x c_x h(x) h'(x) from fast/pair_kernel.py (prefix sums, O(1) per
pair, for interval-like classes; a matrix product otherwise). Grouping the support S_l
by the distinct value v_g of q (ascending) and taking the weights on one group at a time
gives
* D_g(h, h'): seen-weighted disagreement counts in group g; the pair's min q over
  Dis(h,h') on S_l (line 8's weights) is v_g of the first group with D_g > 0;
* plus_g, minus_g: the queried rounds in group g where h errs (h(x) = 1, h'(x) = 0 with
  label 0, or the reverse with label 1) and where h' errs: l^_t(h) - l^_t(h') is +1/v_g
  there, -1/v_g here, and 0 in every other round of the epoch (line 8's Catoni samples).
All are exact integers (int64; the kernel's exactness rule).

Memory: O(|H|^2) for the pair matrices, plus batches of PAIR_BATCH pairs on the backend
and blocks of rows whose working set rows x |H| x (number of slots) stays under
BLOCK_ELEMENTS, whatever the number G of distinct q values (small for thresholds and
intervals, up to |X| in general).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import pairs_device as nested_pairs
from .backends import get_backend
from .pair_kernel import PairKernel

HOST = get_backend("numpy")

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
        return self.points[self.starts[g] : self.starts[g + 1]]

    def __len__(self) -> int:
        return len(self.values)


def q_groups(q: np.ndarray, support: np.ndarray) -> QGroups:
    order = support[np.argsort(q[support], kind="stable")]
    values, first = np.unique(q[order], return_index=True)
    return QGroups(values, order, np.append(first, len(order)))


# pairs per device batch of the pair statistics (a few int64 arrays of pairs x groups):
# at 2^16 the temporaries stay in cache; measured at |H| = 1024 with 10 groups, Catoni's
# counts took 0.26 s of CPU against 1.12 s at 2^20
PAIR_BATCH = 2**16


def _row_blocks(num_h: int, per_row: int, budget: int):
    rows = max(1, budget // max(1, per_row))
    for r0 in range(0, num_h, rows):
        yield r0, min(num_h, r0 + rows)


def _kernel(kernel) -> PairKernel:
    """A PairKernel, or H itself (the previous signatures took H): numpy's kernel for it."""
    return kernel if isinstance(kernel, PairKernel) else PairKernel(np.asarray(kernel, dtype=np.int64))


def disagreement_counts(kernel: PairKernel, seen: np.ndarray, out: np.ndarray | None = None, nested=None) -> np.ndarray:
    """Line 7 times |I_l|: sum_x seen[x] 1{h(x) != h'(x)} for all pairs, host int64
    |H| x |H| (fast/pair_kernel.py; exact), into `out` if given. With `nested` (H's
    fast.nested.Nested): the nested class's closed form |S(c_h) - S(c_h')| on the host's
    numpy (fast/pairs_device.py, the one route for nested classes on every backend)."""
    kernel = _kernel(kernel)
    num_h = kernel.num_h
    if out is None:
        out = np.empty((num_h, num_h), dtype=np.int64)
    if nested is not None:
        return nested_pairs.disagreement_counts_device(HOST, nested, seen, out=out)
    b = kernel.backend
    weighted = kernel.prepare(seen)
    for r0, r1 in _row_blocks(num_h, num_h, PAIR_BATCH):
        out[r0:r1] = b.to_numpy(weighted.disagreement_block(r0, r1, 0, num_h))
    return out


def _upper_pairs(mask: np.ndarray, r0: int, r1: int):
    """(i, j) of the pairs i < j of rows r0..r1-1 where mask is set, row-major (host)."""
    num_h = mask.shape[0]
    bi, bj = np.nonzero(mask[r0:r1, r0:] & (np.arange(r0, num_h)[None, :] > np.arange(r0, r1)[:, None]))
    return bi + r0, bj + r0


def min_q_on_disagreement(
    kernel: PairKernel,
    seen: np.ndarray,
    groups: QGroups,
    rho_counts: np.ndarray,
    out: np.ndarray | None = None,
    nested=None,
    q: np.ndarray | None = None,
) -> np.ndarray:
    """min_{x in Dis(h,h') on S_l} q^x for every pair, |H| x |H|; nan where the pair agrees
    on all of S_l (rho^ = 0). Per block of pairs, groups are taken in ascending q and a
    pair leaves once its first group with a seen disagreement is found (D_g > 0, exact):
    the work is the sum over groups of the pairs still open. With `nested` (H's
    fast.nested.Nested) and q, the nested class's closed form instead, O(|H|^2)
    (fast/pairs_device.py: min_q_device on the host's numpy)."""
    kernel = _kernel(kernel)
    b, xp = kernel.backend, kernel.backend.xp
    num_h = kernel.num_h
    if out is None:
        min_q = np.full(rho_counts.shape, np.nan, groups.values.dtype)  # q's values, q's dtype
    else:
        min_q = out
        min_q.fill(np.nan)
    if nested is not None and q is not None:
        return nested_pairs.min_q_device(HOST, nested, seen, q, out=min_q)
    # one prepared weight vector per group (seen on the group's points): O(m) each
    prepared = [kernel.prepare(seen, groups.members(g)) for g in range(len(groups))]
    disagree = rho_counts > 0
    for r0, r1 in _row_blocks(num_h, num_h, PAIR_BATCH):
        hi, hj = _upper_pairs(disagree, r0, r1)
        first = np.full(len(hi), -1, dtype=np.int64)
        where = np.arange(len(hi))
        i, j = b.asarray(hi, xp.int64), b.asarray(hj, xp.int64)
        geo = kernel.geometry(i, j)
        for g in range(len(groups)):
            if len(where) == 0:
                break
            found = b.to_numpy(prepared[g].disagreement_pairs(i, j, r0, r1, geo) > 0)
            first[where[found]] = g
            keep = ~found
            if not keep.all():
                where = where[keep]
                kept = b.asarray(np.flatnonzero(keep), xp.int64)
                i, j = xp.take(i, kept), xp.take(j, kept)
                geo = geo.subset(xp, kept) if geo is not None else None
        done = first >= 0
        values = groups.values[first[done]]
        min_q[hi[done], hj[done]] = values
        min_q[hj[done], hi[done]] = values
    return min_q


def catoni_slots(groups: QGroups, queried: np.ndarray):
    """(asked, values_row): the q groups where something was queried (q > 0), and the values
    of line 8's samples per slot: +1/v_g for each asked group, then -1/v_g for each, then 0
    (the epoch's other rounds). Both fast routes lay out Catoni's data so."""
    asked = [g for g in range(len(groups)) if groups.values[g] > 0 and queried[groups.members(g)].sum() > 0]
    v = groups.values[asked]
    return asked, np.concatenate([1 / v, -1 / v, [0.0]])


def loss_difference_blocks(kernel: PairKernel, groups: QGroups, queried: np.ndarray, length: int, active: np.ndarray):
    """Line 8's samples l^_t(h) - l^_t(h') for the active pairs h < h', by blocks of rows h.

    Yields (hi, hj, values, counts): the pairs of the block and, per pair, Catoni's data
    grouped by value (+1/v_g with count plus_g, -1/v_g with count minus_g for each group
    where something was queried, and 0 for the other rounds of the epoch). Slot columns
    that are 0 for every pair of the block are dropped (a 0 count is padding to
    catoni_roots; dropping it changes nothing but the order of the sum). The blocks of
    rows (BLOCK_ELEMENTS) fix which columns are dropped, hence the last bits of the roots;
    the counts themselves are computed for PAIR_BATCH pairs at a time on the backend
    (`loss_difference_batches`: one task per batch).

    Per asked group g: plus_g = e0_h + e1_h' - common, minus_g = e1_h + e0_h' - common, with
    e_y = sum_{x in g} h(x) queried[x, y] and common = sum_{x in g} h(x) h'(x) (queried[x, 0]
    + queried[x, 1]): h = 1, h' = 0, label 0, or h = 0, h' = 1, label 1, and the reverse."""
    for batch in loss_difference_batches(kernel, groups, queried, length, active):
        yield from batch()


def loss_difference_batches(kernel: PairKernel, groups: QGroups, queried: np.ndarray, length: int, active: np.ndarray):
    """`loss_difference_blocks` as tasks: the per-group tables are prepared here, once; each
    returned function computes one batch of about PAIR_BATCH pairs and returns its blocks
    (a list, in order). The tasks only read what they share, so threads may run them."""
    kernel = _kernel(kernel)
    b, xp = kernel.backend, kernel.backend.xp
    num_h = kernel.num_h
    asked, values_row = catoni_slots(groups, queried)
    cols = [groups.members(g) for g in asked]
    # |H| x asked tables: e_y[h, k] = sum_{x in group k} h(x) queried[x, y]
    e0 = kernel.prepare_groups(queried[:, 0], cols).a
    e1 = kernel.prepare_groups(queried[:, 1], cols).a
    both = kernel.prepare_groups(queried.sum(axis=1), cols)
    slots = 2 * len(asked) + 1
    rows_per_block = max(1, BLOCK_ELEMENTS // (num_h * slots))
    blocks = [(r0, min(num_h, r0 + rows_per_block)) for r0 in range(0, num_h, rows_per_block)]

    def run(batch, pairs):
        out = []
        hi = np.concatenate([p[0] for p in pairs])
        hj = np.concatenate([p[1] for p in pairs])
        if len(hi) == 0:
            return out
        r0, r1 = batch[0][0], batch[-1][1]
        i, j = b.asarray(hi, xp.int64), b.asarray(hj, xp.int64)
        geo = kernel.geometry(i, j)
        counts = np.empty((len(hi), slots), dtype=np.int64)
        if asked:
            common = both.cross_pairs(i, j, r0, r1, geo)
            e0i, e0j = xp.take(e0, i, axis=0), xp.take(e0, j, axis=0)
            e1i, e1j = xp.take(e1, i, axis=0), xp.take(e1, j, axis=0)
            counts[:, : len(asked)] = b.to_numpy(e0i + e1j - common)
            counts[:, len(asked) : 2 * len(asked)] = b.to_numpy(e1i + e0j - common)
        # the epoch's other rounds: exact, as length >= queried
        counts[:, -1] = length - counts[:, :-1].sum(axis=1)
        offset = 0
        for p in pairs:
            n = len(p[0])
            if n == 0:
                continue
            block = counts[offset : offset + n].astype(np.float64)
            bhi, bhj = hi[offset : offset + n], hj[offset : offset + n]
            offset += n
            used = block.any(axis=0)
            block = block[:, used]
            size = max(1, CATONI_ELEMENTS // block.shape[1])
            for c0 in range(0, n, size):
                part = slice(c0, c0 + size)
                out.append((bhi[part], bhj[part], np.broadcast_to(values_row[used], block[part].shape), block[part]))
        return out

    tasks = []
    position = 0
    while position < len(blocks):
        # a batch: consecutive row blocks, about PAIR_BATCH pairs (at least one block)
        batch, pairs = [], []
        while position < len(blocks) and (not batch or sum(len(p[0]) for p in pairs) < PAIR_BATCH):
            r0, r1 = blocks[position]
            pairs.append(_upper_pairs(active, r0, r1))
            batch.append(blocks[position])
            position += 1
        tasks.append(lambda batch=batch, pairs=pairs: run(batch, pairs))
    return tasks


def _packed(mask: np.ndarray) -> np.ndarray:
    """Boolean rows as uint64 words, bit x of a row = column x (little-endian, zero-padded)."""
    rows = np.atleast_2d(mask)
    bytes_ = np.packbits(rows.astype(bool), axis=1, bitorder="little")
    pad = (-bytes_.shape[1]) % 8
    return np.pad(bytes_, ((0, 0), (0, pad))).view(np.uint64)


def _unpacked(words: np.ndarray, m: int) -> np.ndarray:
    return np.unpackbits(np.ascontiguousarray(words).view(np.uint8), axis=1, bitorder="little")[:, :m].astype(bool)


def next_query_probabilities(
    H: np.ndarray, pair_value: np.ndarray, chunk_words: int = BLOCK_ELEMENTS, nested=None
) -> np.ndarray:
    """Line 13: q_{l+1}^x = max over pairs h < h' with h(x) != h'(x) of pair_value[h, h']
    (0 where all hypotheses agree), without a pairs x points array.

    The pairs are swept in descending value; each still open point takes the value of the
    first pair that disagrees there, which is the max, and is closed. Rows of H are bit
    sets of points (64 points a word), so a chunk of pairs costs pairs x |X|/64 words: the
    XOR of the pair's rows, masked by the open points, and its running OR along the chunk
    (a bit set in row c and not in row c-1 is a point whose first disagreeing pair is c).
    Once the remaining values are all 0, the open points keep 0. `nested`, a
    fast.nested.Nested of H: the nested class's closed form instead, O(|H|^2)
    (fast/pairs_device.py: next_q_device on the host's numpy)."""
    if nested is not None:
        return nested_pairs.next_q_device(HOST, nested, pair_value)
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
        chunk = order[position : position + size]
        dis = (packed[hi[chunk]] ^ packed[hj[chunk]]) & open_bits
        seen = np.bitwise_or.accumulate(dis, axis=0)
        first = dis & ~np.vstack([np.zeros_like(open_bits)[None, :], seen[:-1]])
        rows = np.flatnonzero(first.any(axis=1))
        r, x = np.nonzero(_unpacked(first[rows], m))
        result[x] = values[chunk[rows[r]]]
        open_bits &= ~seen[-1]
    return result
