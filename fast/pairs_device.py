"""Lines 7, 8 (min q) and 13 of CALruption (Algorithm 2) for a NESTED class: the one route
for nested classes, with every |H| x |H| array on the backend's device -- the host's numpy
(fast/pair_stats.py calls it with the numpy backend) or an
accelerator (fast/epoch_device.py).

They return the numbers of the general routes (fast/pair_stats.py's kernel counts,
grouped search and sweep, and np.ldexp for line 13's pair value) bit for bit, but are
written only in the Python array API standard (2023.12) through `b.xp` of a
fast.backends.Backend, so they run on numpy, array-api-strict, CuPy and PyTorch alike.
On numpy they are no slower than the numpy-only closed forms they replace
(bench/pairs_device.py at |H| = |X| = 4096 on two cores: line 7 0.36 s against 0.34 s,
min q 0.38 s against 0.57 s, next q 0.04 s against 0.47 s). Only O(|H| + |X|) data
crosses between host and device: the prefix lengths, the chain, a vector of q per rank,
and line 13's n - 1 quadrant maxima coming back.

h holds exactly the points order[:c_h] (fast/nested.py), so two hypotheses h, h' disagree
exactly on the points of rank min(c_h, c_h') .. max(c_h, c_h') - 1. Exactness:
* line 7: int64 differences of int64 prefix sums: the same integers as the kernel's counts.
* line 8's min q: a minimum over a range of ranks, answered by a sparse table (the minima
  over the 2^k ranks from each rank, for every k) as the min of two overlapping ranges of
  length 2^k that cover it. A minimum of a set of floats is one of them, whichever way it
  is taken (min is exact and idempotent), so the result is the grouped search's minimum bit for
  bit (save the sign of a zero if q held both 0.0 and -0.0; q >= +0 here). O(1) gathers
  per pair, no |H| x |H| scan, and it works in the hypotheses' own index order: no chain
  reordering of an |H| x |H| array at all.
* line 13: only maxima are taken (see `next_q_device`), so it is the sweep's maximum bit
  for bit.
* line 13's pair value rho^ 4^(k-l-1): see `line13_pair_value_device` (a product with an
  exactly represented power of two: one correctly rounded operation, as np.ldexp).

Memory: the |H| x |H| outputs, plus row blocks whose temporaries (about ten arrays of one
block each) stay near BLOCK_ELEMENTS elements; O((|H| + |X|) log |X|) besides.
"""

from __future__ import annotations

import numpy as np

# elements of one row block of an |H| x |H| pass (2^20 float64 = 8 MiB). On two CPU cores
# (numpy, |H| = 4096) 2^20 took 0.43 s for min q and 0.05 s for next q against 2.2 s and
# 1.3 s at 2^24 (cache; and next q's in-block squares cost |H| x rows x log(rows)); on a
# GPU it is 256 blocks at |H| = 16384, a few kernel launches each (not measured). Tests set
# it small.
BLOCK_ELEMENTS = 2**20
# on an accelerator (fast/backends.py): 1024 rows a block at |H| = 16384 instead of 64, so
# the launches per pass are 16 blocks' worth, not 256 (not measured on a GPU yet)
DEVICE_BLOCK_ELEMENTS = 2**24


def _blocks(num_rows: int, row_length: int, b=None):
    budget = DEVICE_BLOCK_ELEMENTS if b is not None and b.accelerator else BLOCK_ELEMENTS
    rows = max(1, budget // max(1, row_length))
    for r0 in range(0, num_rows, rows):
        yield r0, min(num_rows, r0 + rows)


def _on(b) -> dict:
    """device= for array creation, only when the backend names one (as fast/pair_kernel.py)."""
    return {} if b.device is None else {"device": b.device}


def _full(b, shape, value, dtype):
    return b.xp.full(shape, value, dtype=dtype, **_on(b))


def _running_max(xp, x, axis: int, reverse: bool):
    """Running max of x along axis 0 or the last axis (suffix max if reverse), as a new
    array: a doubling (Hillis-Steele) scan, ceil(log2 n) passes of xp.maximum on slices
    (the standard has no cumulative max). After the pass with step s every entry holds the
    max over the 2s entries from it (or up to it): exact, only maxima are taken."""
    x = xp.asarray(x, copy=True)  # our own array: the writes below touch no caller's view
    n = x.shape[axis]

    def at(start, stop):
        return (slice(start, stop), Ellipsis) if axis == 0 else (Ellipsis, slice(start, stop))

    step = 1
    while step < n:
        if reverse:
            x[at(0, n - step)] = xp.maximum(x[at(0, n - step)], x[at(step, n)])
        else:
            x[at(step, n)] = xp.maximum(x[at(step, n)], x[at(0, n - step)])
        step *= 2
    return x


def disagreement_counts_device(b, nested, seen_host, out=None):
    """Line 7 times |I_l| for a nested class: |S(c_h) - S(c_h')| for S the prefix sums of
    seen in the nesting order, a device int64 |H| x |H| array (into `out` if given); equal
    to the kernel's pair_stats.disagreement_counts(kernel, seen) bit for bit (int64
    prefix sums, taken on the host: O(|X|))."""
    xp = b.xp
    prefix = np.concatenate([[0], np.cumsum(np.asarray(seen_host, np.int64)[nested.order])])
    at = b.asarray(prefix[nested.lengths].astype(np.int64), xp.int64)
    num_h = at.shape[0]
    if out is None:
        out = xp.empty((num_h, num_h), dtype=xp.int64, **_on(b))
    for r0, r1 in _blocks(num_h, num_h, b):
        out[r0:r1, :] = xp.abs(at[r0:r1, None] - at[None, :])
    return out


def min_q_device(b, nested, seen_host, q_host, out=None):
    """Line 8's weights' min q over Dis(h, h') on S_l for a nested class: a device |H| x |H|
    array of q's dtype (into `out` if given), nan where no seen point lies between the two
    prefixes (rho^ = 0, and the diagonal); equal to pair_stats.min_q_on_disagreement's
    grouped search bit for bit.

    The pair (h, h') takes the least q over the seen points of rank lo = min(c_h, c_h') to
    hi - 1 = max(c_h, c_h') - 1 (q_rank: q on a seen point, inf on an unseen one). table[k, i] is the min of q_rank over ranks i .. i + 2^k - 1, so the
    range is min(table[k, lo], table[k, hi - 2^k]) for k = floor(log2(hi - lo)): two
    gathers per pair. An extra row of inf answers lo = hi (an empty range)."""
    xp = b.xp
    lengths = np.asarray(nested.lengths, np.int64)
    num_h = len(lengths)
    q = np.asarray(q_host)
    q_device = b.asarray(q[:1])
    dtype = q_device.dtype
    top = int(lengths.max()) if num_h else 0  # ranks at or past it lie in no Dis
    if num_h < 2 or top == 0:
        if out is None:
            return _full(b, (num_h, num_h), float("nan"), dtype)
        out[...] = float("nan")
        return out
    if out is None:
        out = xp.empty((num_h, num_h), dtype=dtype, **_on(b))
    seen = np.asarray(seen_host)
    order = nested.order[:top]
    q_rank = np.where(seen[order] > 0, q[order], np.inf).astype(q.dtype, copy=False)  # unseen: in no min
    levels = top.bit_length()  # floor(log2 top) + 1: the longest range is top ranks
    width = top + 1  # a column of inf past the last rank
    table = _full(b, (levels + 1, width), float("inf"), dtype)
    table[0, :top] = b.asarray(q_rank)
    for k in range(1, levels):  # row levels (the last) stays inf: the empty range
        half = 1 << (k - 1)
        table[k, : width - half] = xp.minimum(table[k - 1, : width - half], table[k - 1, half:])
    flat = xp.reshape(table, (-1,))
    # per range length d: the flat offset of level floor(log2 d) and 2^floor(log2 d) (host, O(|X|))
    level = np.zeros(width, np.int64)
    for k in range(1, levels):
        level[1 << k :] += 1
    offset = level * width
    offset[0] = levels * width
    span = np.left_shift(1, level)
    span[0] = 0
    offset_d, span_d = b.asarray(offset, xp.int64), b.asarray(span, xp.int64)
    c = b.asarray(lengths, xp.int64)
    nan = xp.asarray(float("nan"), dtype=dtype, **_on(b))
    for r0, r1 in _blocks(num_h, num_h, b):
        lo = xp.reshape(xp.minimum(c[r0:r1, None], c[None, :]), (-1,))
        d = xp.reshape(xp.abs(c[r0:r1, None] - c[None, :]), (-1,))
        first = xp.take(offset_d, d) + lo
        second = first + d - xp.take(span_d, d)  # = offset + hi - 2^k; = first when d = 0
        del lo
        value = xp.minimum(xp.take(flat, first), xp.take(flat, second))
        del first, second, d
        value = xp.where(xp.isinf(value), nan, value)  # no seen point between: rho^ = 0
        out[r0:r1, :] = xp.reshape(value, (r1 - r0, num_h))
    return out


def next_q_device(b, nested, pair_value) -> np.ndarray:
    """Line 13 for a nested class: q_{l+1} on the host (numpy, (m,), pair_value's dtype)
    from the device |H| x |H| pair_value; equal to pair_stats.next_query_probabilities's
    sweep bit for bit.

    In chain order V'[a, b] = pair_value[chain[a], chain[b]], the point of rank r takes
    Q(A(r) - 1), A(r) the number of hypotheses with c <= r (0 where A(r) is 0 or |H|), and

        Q(a) = max { V'[a', b] : a' <= a < b },  a = 0 .. n - 2,

    only n - 1 numbers. By blocks of chain rows [r0, r1) (r1 <= n - 1; row n - 1 has no
    b > it), the set splits into three, all read from one gather U of the block's rows and
    of the columns past r0:
    * rows of earlier blocks, any b > a: acc[b], the max down column b over the earlier
      blocks' rows, then a suffix max of acc (a vector) read at a + 1;
    * rows r0..a of this block, columns b >= r1: a prefix max of the row maxima of the
      block's part right of it (whose column maxima then join acc);
    * rows r0..a, columns a+1..r1-1: inside the block's square, a suffix max along rows
      and a prefix max down columns, read at the cell (a, a+1).
    Every pair a' <= a < b lies in exactly one part, and only maxima are taken, so Q is
    the quadrant max bit for bit. Work: one gather and two reductions per entry
    right of the blocks' squares, doubling scans only on the squares (n x block x log) and
    on vectors: cheaper than scanning the whole triangle (n^2 log n)."""
    xp = b.xp
    chain_host = nested.chain
    lengths = np.asarray(nested.lengths)[chain_host]
    num_h, m = len(chain_host), len(nested.order)
    np_dtype = b.to_numpy(pair_value[:1, :1]).dtype if num_h else np.dtype(np.float64)
    result = np.zeros(m, np_dtype)
    if num_h < 2:
        return result
    dtype = pair_value.dtype
    chain = b.asarray(chain_host, xp.int64)
    Q = _full(b, (num_h - 1,), float("-inf"), dtype)
    acc = _full(b, (num_h,), float("-inf"), dtype)  # acc[b]: max of V'[a', b] over earlier blocks' rows a'
    for r0, r1 in _blocks(num_h - 1, num_h, b):
        rows = r1 - r0
        # U[i, j] = V'[r0 + i, r0 + 1 + j]: the block's rows, the columns after r0
        U = xp.take(xp.take(pair_value, chain[r0:r1], axis=0), chain[r0 + 1 :], axis=1)
        part = _running_max(xp, acc[r0 + 1 :], 0, reverse=True)[:rows]  # earlier rows, b > a
        right = U[:, rows - 1 :]  # columns r1 .. n-1 (never empty: r1 <= n - 1)
        part = xp.maximum(part, _running_max(xp, xp.max(right, axis=1), 0, reverse=False))
        acc[r1:] = xp.maximum(acc[r1:], xp.max(right, axis=0))
        del right
        if rows > 1:  # the square: rows r0..r1-1, columns r0+1..r1-1
            square = _running_max(xp, U[:, : rows - 1], 1, reverse=True)
            square = _running_max(xp, square, 0, reverse=False)
            cells = xp.arange(0, (rows - 1) * rows, rows, dtype=xp.int64, **_on(b))  # (i, i) of rows x (rows-1)
            inside = xp.take(xp.reshape(square, (-1,)), cells)
            del square
            part[: rows - 1] = xp.maximum(part[: rows - 1], inside)
        Q[r0:r1] = part
        del U
    below = np.searchsorted(lengths, np.arange(m), side="right")  # A(r): hypotheses with c <= r
    at = np.flatnonzero((below > 0) & (below < num_h))
    result[nested.order[at]] = b.to_numpy(Q)[below[at] - 1]
    return result


def line13_pair_value_device(b, rho, level, l: int):
    """Line 13's pair value rho^ 4^(k - l - 1), k = min(level_h, level_h'), as a new device
    array like rho; equal bit for bit to np.ldexp(rho, 2 (k - l - 1)).

    ldexp is not in the standard. The exponent e = 2 (k - l - 1) enters as the factor
    p_h = 2^e computed on the host with np.ldexp(1, e) per hypothesis (O(|H|)): exactly
    2^e while e >= -1074 (float64), else 0. p is non-decreasing in k (rounding is
    monotone), so min(p_h, p_h') = p at k = min(level_h, level_h'): exact, no gather. Then
    rho * p is one IEEE product, rounded once from the exact rho 2^e, which is what ldexp
    returns, subnormal results included. When 2^e underflowed to 0 (e <= -1076, i.e. l >=
    537) the product is +-0 and ldexp(rho, e) rounds |rho| 2^e <= 2^-1075 to 0 too as long
    as |rho| <= 2: rho^ is a frequency in [0, 1], so line 13's values are exact for every
    l (for |rho| > 2 only while 2 (l + 1) <= 1074)."""
    xp = b.xp
    np_dtype = b.to_numpy(rho[:1, :1]).dtype if rho.shape[0] else np.dtype(np.float64)
    exponent = 2 * (np.asarray(level, np.int64) - l - 1)
    power = b.asarray(np.ldexp(np.ones(len(exponent), np_dtype), exponent), rho.dtype)
    out = xp.empty(rho.shape, dtype=rho.dtype, **_on(b))
    for r0, r1 in _blocks(rho.shape[0], rho.shape[1], b):
        out[r0:r1, :] = rho[r0:r1, :] * xp.minimum(power[r0:r1, None], power[None, :])
    return out
