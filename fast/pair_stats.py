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

from .pair_kernel import PairKernel

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
    fast.nested.Nested): |S(c_h) - S(c_h')| for the prefix sums S of seen in the nesting
    order (h and h' differ exactly on the points between their prefix lengths), exact."""
    kernel = _kernel(kernel)
    num_h = kernel.num_h
    if out is None:
        out = np.empty((num_h, num_h), dtype=np.int64)
    if nested is not None:
        prefix = np.concatenate([[0], np.cumsum(np.asarray(seen, np.int64)[nested.order])])
        at = prefix[nested.lengths]
        for r0, r1 in _row_blocks(num_h, num_h, BLOCK_ELEMENTS):
            np.subtract(at[r0:r1, None], at[None, :], out=out[r0:r1])
            np.abs(out[r0:r1], out=out[r0:r1])
        return out
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


def _nested_min_q(nested, seen: np.ndarray, q: np.ndarray, out: np.ndarray) -> np.ndarray:
    """min q over Dis(h, h') on S_l for a nested class (fast/nested.py), into `out`: with the
    hypotheses in chain order, a < b disagree exactly on the points of rank c_a..c_b-1, so
    the pair's min is the min over the blocks t = a..b-1 between consecutive prefix lengths
    of each block's least q among its seen points: a running min along each row of the
    chain-ordered matrix. nan where no seen point lies between (rho^ = 0). Exact: only
    minima are taken, so the result is the grouped search's, bit for bit."""
    chain = nested.chain
    lengths = nested.lengths[chain]
    n = len(chain)
    out.fill(np.nan)
    if n < 2:
        return out
    order = nested.order[: lengths[-1]]  # ranks held by some hypothesis; the rest lie in no Dis
    q_rank = np.where(seen[order] > 0, q[order], np.inf).astype(out.dtype, copy=False)
    block_min = np.full(n - 1, np.inf, out.dtype)
    nonempty = lengths[1:] > lengths[:-1]
    if nonempty.any():  # consecutive non-empty blocks abut, the last ends at lengths[-1]
        block_min[nonempty] = np.minimum.reduceat(q_rank, lengths[:-1][nonempty])
    viewable = _is_view_chain(chain)
    O = chain_ordered(out, chain, overwrite=True) if viewable else np.empty_like(out)
    columns = np.arange(n - 1)
    step = max(1, BLOCK_ELEMENTS // n)  # by row blocks: no |H| x |H| temporary
    for r0 in range(0, n, step):
        r1 = min(n, r0 + step)
        T = O[r0:r1, 1:]  # T[a, t]: min over the blocks a..t (t >= a), inf for t < a
        np.copyto(T, block_min[None, :])
        np.copyto(T, np.inf, where=columns[None, :] < np.arange(r0, r1)[:, None])
        np.minimum.accumulate(T, axis=1, out=T)
        O[r0:r1, 0] = np.inf
    for r0 in range(0, n, step):  # the lower triangle from the upper one
        r1 = min(n, r0 + step)
        O[r0:r1, :r0] = O[:r0, r0:r1].T
        D = O[r0:r1, r0:r1]
        np.minimum(D, D.T.copy(), out=D)
    for r0 in range(0, n, step):
        rows = O[r0 : min(n, r0 + step)]
        np.copyto(rows, np.nan, where=np.isinf(rows))
    if not viewable:
        out[np.ix_(chain, chain)] = O
    return out


def _is_view_chain(chain: np.ndarray) -> bool:
    n = len(chain)
    return bool(np.array_equal(chain, np.arange(n)) or np.array_equal(chain, np.arange(n)[::-1]))


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
    fast.nested.Nested) and q, the closed form of `_nested_min_q` instead, O(|H|^2)."""
    kernel = _kernel(kernel)
    b, xp = kernel.backend, kernel.backend.xp
    num_h = kernel.num_h
    if out is None:
        min_q = np.full(rho_counts.shape, np.nan, groups.values.dtype)  # q's values, q's dtype
    else:
        min_q = out
        min_q.fill(np.nan)
    if nested is not None and q is not None:
        return _nested_min_q(nested, seen, q, min_q)
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


def chain_ordered(matrix: np.ndarray, chain: np.ndarray, overwrite: bool = False) -> np.ndarray:
    """matrix[chain][:, chain]: a view when the chain is the identity or its reverse (with
    overwrite=True the caller lets it be written), else a copy."""
    if not _is_view_chain(chain):
        return matrix[np.ix_(chain, chain)]
    view = matrix if chain[0] == 0 else matrix[::-1, ::-1]  # identity, or its reverse
    return view if overwrite else view.copy()


def _nested_next_q(nested, pair_value: np.ndarray, overwrite: bool = False) -> np.ndarray:
    """Line 13 for a nested class (fast/nested.py): with the hypotheses in chain order, the
    pairs a < b that disagree at the point of rank r are those with c_a <= r < c_b: rows
    0..A(r)-1 (the hypotheses without it, c <= r) and columns A(r).. (those with it) of
    the chain-ordered pair matrix, a max over a quadrant, which a
    suffix max along the rows and then a prefix max down the columns give for every r at
    once. pair_value is symmetric (rho^ 4^(k-l-1) with k = the pair's min level). Exact:
    only maxima are taken, so the result is the sweep's, bit for bit. overwrite=True lets
    it work in pair_value itself (a scratch array of the caller's)."""
    chain = nested.chain
    lengths = nested.lengths[chain]
    num_h, m = len(chain), len(nested.order)
    result = np.zeros(m, pair_value.dtype)
    if num_h < 2:
        return result
    V = chain_ordered(pair_value, chain, overwrite)
    np.maximum.accumulate(V[:, ::-1], axis=1, out=V[:, ::-1])  # V[a, t] = max_{b >= t} value(a, b)
    np.maximum.accumulate(V, axis=0, out=V)  # V[a, t] = max_{a' <= a, b >= t} value(a', b)
    below = np.searchsorted(lengths, np.arange(m), side="right")  # A(r): hypotheses with c <= r
    inside = (below > 0) & (below < num_h)
    at = np.flatnonzero(inside)
    result[nested.order[at]] = V[below[at] - 1, below[at]]
    return result


def next_query_probabilities(
    H: np.ndarray, pair_value: np.ndarray, chunk_words: int = BLOCK_ELEMENTS, nested=None, overwrite: bool = False
) -> np.ndarray:
    """Line 13: q_{l+1}^x = max over pairs h < h' with h(x) != h'(x) of pair_value[h, h']
    (0 where all hypotheses agree), without a pairs x points array.

    The pairs are swept in descending value; each still open point takes the value of the
    first pair that disagrees there, which is the max, and is closed. Rows of H are bit
    sets of points (64 points a word), so a chunk of pairs costs pairs x |X|/64 words: the
    XOR of the pair's rows, masked by the open points, and its running OR along the chunk
    (a bit set in row c and not in row c-1 is a point whose first disagreeing pair is c).
    Once the remaining values are all 0, the open points keep 0. `nested`, a
    fast.nested.Nested of H: the closed form of `_nested_next_q` instead, O(|H|^2), which
    with overwrite=True may leave pair_value overwritten."""
    if nested is not None:
        return _nested_next_q(nested, pair_value, overwrite)
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
