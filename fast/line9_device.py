"""Line 9's cycle route (fast/line9_chain.py) with its dense passes on an array backend
(fast/backends.py): the piece of a device-resident epoch (fast/epoch_device.py) that fits D^
for a nested class without bringing an |H| x |H| array to the host.

What runs where. The weights w and Catoni estimates W stay on the backend's device,
|H| x |H|, nan where (h, h') gives no row. On the device, by row blocks of at most
ROW_BLOCK_ELEMENTS entries (no temporary much larger than a block; A and B are never
stored whole):

* the edges' A = W (+inf where no row) and B = 1/w (0 where no row), per block as needed;
* the first guess of the potentials (row means of A: the sums and counts come back);
* the CANDIDATES_FIRST smallest entries of each row of A + d (xp.argsort per row block);
* each round's check of every pair edge at Howard's sparse optimum (lambda, d): the
  reduced costs, their row minima, and for the rows below -tol the CANDIDATES_ADDED
  smallest entries;
* the gathers of the sparse edges' W and w (flattened take) and of the critical cycle's
  (weight and W should be contiguous: the flat view of a strided one is a copy, made once);
* _scale (max over rows of w (|W| + 1)) and lp_value (max over rows of
  w (R_h - R_h' - W), R on the device).

On the host, O(|H| + |S| + edges): the chain (fast/nested.py, from the Nested on the
support), Howard's policy iteration on the sparse graph and the round loop
(line9_chain.edge_rounds, the same code the host route runs), the set of chosen edges
(sorted keys src |H| + dst, instead of the host route's dense mask), the certificate
(line9_chain.cycle_bound), eta^ (line9_chain.eta_of) and the risks R: for a nested class
R_D(h) = sum of p^ (1 - eta^) over h's first c_h points + sum of p^ eta^ over the rest,
two prefix sums along the chain's point order. Crossing per round: d (|H| floats) to the
device, the row minima and a few (row, column, value) per violating row back.

Exactness against the host route (fast/line9.py `_chain_route` on the same inputs).
Elementwise, every dense quantity is the host's formula in the host's order of operations
(IEEE: the same bits on any backend that rounds float64 correctly): A, B, the reduced
costs B (-lambda) + A + d(v) - d(u), the rows' values w ((R_h - R_h') - W); maxima and
minima are exact, so _scale is the host's bit for bit, and lp_value is too for the same R.
Where they differ:
* the row means' sums: numpy's pairwise summation on the numpy backend (the host's bits),
  another order on other backends (last bits of the first guess of d only);
* ties in the smallest-per-row selections: argsort (stable: the lowest columns) against
  the host's argpartition (any): an equally valid candidate set, so Howard may take
  another path to another optimal vertex -- the certificate below holds either way;
* R: prefix sums here against the host's matrix products (last bits), hence the value.
What is returned is certified as the host route's is: the value of eta^ over every row
within CHAIN_RTOL |s| + CHAIN_ATOL x scale of the critical cycle's lower bound
(fast/line9_chain.py's notes), else None and the caller goes on to row generation."""

from __future__ import annotations

import functools

import numpy as np

from .backends import Backend
from .line9_chain import (
    CANDIDATES_ADDED,
    CANDIDATES_FIRST,
    CHAIN_ATOL,
    CHAIN_RTOL,
    chain_of,
    cycle_bound,
    edge_rounds,
    eta_of,
)
from .nested import Nested
from .precision import FLOAT

# dense passes go in row blocks of this many entries: 2^25 float64 = 256 MiB, so at
# |H| = 16384 a block is 2048 rows and a pass's few temporaries stay under 2 GiB
ROW_BLOCK_ELEMENTS = 2**25


def _blocks(n: int):
    size = max(1, ROW_BLOCK_ELEMENTS // max(1, n))
    for r0 in range(0, n, size):
        yield r0, min(n, r0 + size)


@functools.lru_cache(maxsize=64)
def _constant(b: Backend, value: float):
    """A 0-d float64 on b's device, made once per value: each host-to-device copy of a
    fresh one waits for the device (torch's asarray to CUDA), 1-4 a block and pass."""
    return b.asarray(np.float64(value), b.xp.float64)


def _edges(b: Backend, weight, W, r0: int, r1: int, *, with_b: bool = True):
    """A (and B) of rows r0..r1-1 on the device, float64 (as fit_nested's A and B)."""
    xp = b.xp
    w = xp.astype(weight[r0:r1, :], xp.float64, copy=False)
    row = xp.isfinite(w)
    A = xp.where(row, xp.astype(W[r0:r1, :], xp.float64, copy=False), _constant(b, np.inf))
    if not with_b:
        return A, None
    return A, xp.where(row, _constant(b, 1.0) / w, _constant(b, 0.0))


def _smallest_per_row(b: Backend, values, count: int):
    """(rows, cols, values) on the host of the `count` smallest entries of each row of a
    device block (finite or not; the caller filters)."""
    xp = b.xp
    m, n = values.shape
    count = min(count, n)
    cols = xp.argsort(values, axis=1, stable=True)[:, :count]
    starts = xp.reshape(xp.arange(0, m * n, n, dtype=xp.int64, device=b.device), (m, 1))
    picked = xp.take(xp.reshape(values, (-1,)), xp.reshape(cols + starts, (-1,)))
    rows = np.repeat(np.arange(m), count)
    return rows, np.ascontiguousarray(b.to_numpy(cols), dtype=np.int64).ravel(), b.to_numpy(picked)


class _DevicePasses:
    """The dense passes of line9_chain.edge_rounds on a backend's device (module notes)."""

    def __init__(self, b: Backend, weight, W):
        xp = b.xp
        self.b, self.weight, self.W = b, weight, W
        self.n = int(weight.shape[0])
        self.flat_weight = xp.reshape(weight, (-1,))
        self.flat_W = xp.reshape(W, (-1,))
        self.chosen = np.zeros(0, np.int64)  # sorted keys src n + dst of the chosen edges

    def _choose(self, parts) -> None:
        keys = [rows.astype(np.int64) * self.n + cols for rows, cols in parts]
        self.chosen = np.sort(np.concatenate([self.chosen, *keys]))

    def _is_chosen(self, keys: np.ndarray) -> np.ndarray:
        at = np.minimum(np.searchsorted(self.chosen, keys), max(0, len(self.chosen) - 1))
        return self.chosen[at] == keys if len(self.chosen) else np.zeros(len(keys), bool)

    def pairs(self, rows: np.ndarray, cols: np.ndarray):
        """(W, w) of the pairs (rows[i], cols[i]), host arrays in their own dtype."""
        b = self.b
        keys = b.asarray(rows.astype(np.int64) * self.n + cols, b.xp.int64)
        return b.to_numpy(b.xp.take(self.flat_W, keys)), b.to_numpy(b.xp.take(self.flat_weight, keys))

    def gather(self, rows, cols):
        pair_W, pair_w = self.pairs(rows, cols)
        pair_W, pair_w = pair_W.astype(np.float64), pair_w.astype(np.float64)
        row = np.isfinite(pair_w)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(row, pair_W, np.inf), np.where(row, 1.0 / pair_w, 0.0)

    def first(self):
        b, xp, n = self.b, self.b.xp, self.n
        # first guess of the potentials: the row means of A (line9_chain._HostPasses.first)
        sums, counts = np.zeros(n), np.zeros(n, np.int64)
        for r0, r1 in _blocks(n):
            A, _ = _edges(b, self.weight, self.W, r0, r1, with_b=False)
            finite = xp.isfinite(A)
            sums[r0:r1] = b.to_numpy(xp.sum(xp.where(finite, A, _constant(b, 0.0)), axis=1))
            counts[r0:r1] = b.to_numpy(xp.sum(xp.astype(finite, xp.int64), axis=1))
        d = sums / np.maximum(1, counts)
        d_row = xp.reshape(b.asarray(d, xp.float64), (1, n))
        parts = []
        for r0, r1 in _blocks(n):
            A, _ = _edges(b, self.weight, self.W, r0, r1, with_b=False)
            rows, cols, values = _smallest_per_row(b, A + d_row, CANDIDATES_FIRST)
            keep = np.isfinite(values)
            parts.append((rows[keep] + r0, cols[keep]))
        self._choose(parts)
        return d, parts

    def violated(self, lam: float, d: np.ndarray, tol: float):
        b, xp, n = self.b, self.b.xp, self.n
        d_dev = b.asarray(d, xp.float64)
        d_row = xp.reshape(d_dev, (1, n))
        parts = []
        for r0, r1 in _blocks(n):
            A, B = _edges(b, self.weight, self.W, r0, r1)
            # reduced costs a - lambda b + d(v) - d(u), in the host route's order of operations
            reduced = B * _constant(b, -lam)
            reduced = reduced + A
            reduced = reduced + d_row
            reduced = reduced - xp.reshape(d_dev[r0:r1], (r1 - r0, 1))
            bad = np.flatnonzero(b.to_numpy(xp.min(reduced, axis=1)) < -tol)
            if not len(bad):
                continue
            violated = xp.take(reduced, b.asarray(bad, xp.int64), axis=0)
            rows, cols, values = _smallest_per_row(b, violated, CANDIDATES_ADDED)
            src = bad[rows] + r0
            keep = (values < -tol) & ~self._is_chosen(src * n + cols)
            parts.append((src[keep], cols[keep]))
        self._choose(parts)
        return parts

    def edges(self) -> int:
        return len(self.chosen)


def scale_and_rows(b: Backend, weight, W):
    """(max over rows of w (|W| + 1) or None without rows, the number of rows): fast/line9.py's
    _scale on the device, bit for bit (a maximum), and the rows' count."""
    xp = b.xp
    best, rows = -np.inf, 0
    for r0, r1 in _blocks(int(weight.shape[0])):
        block = weight[r0:r1, :] * (xp.abs(W[r0:r1, :]) + _constant(b, 1.0))
        finite = xp.isfinite(block)
        if bool(xp.any(finite)):
            best = max(best, float(xp.max(xp.where(xp.isnan(block), _constant(b, -np.inf), block))))
        rows += int(xp.sum(xp.astype(xp.isfinite(weight[r0:r1, :]), xp.int64)))
    return (None if best == -np.inf else best), rows


def lp_value(b: Backend, R, weight, W) -> float:
    """max over all rows of w (R_D(h) - R_D(h') - W), 0 without rows: fast/line9.py's
    lp_value with R, weight and W on the device, bit for bit for the same R."""
    xp = b.xp
    n = int(R.shape[0])
    best = 0.0
    R_col = xp.reshape(R, (1, n))
    for r0, r1 in _blocks(n):
        w = weight[r0:r1, :]
        values = w * (xp.reshape(R[r0:r1], (r1 - r0, 1)) - R_col - W[r0:r1, :])
        values = xp.where(xp.isfinite(w), values, _constant(b, -np.inf))
        best = max(best, float(xp.max(values)))
    return best


def nested_risks(nested: Nested, pS: np.ndarray, eta: np.ndarray) -> np.ndarray:
    """R_D(h) for every h of a nested class on S (host, O(|H| + |S|)): h holds exactly the
    points order[:c_h], so R_D(h) = (sum of p^ (1 - eta^) over them) + (sum of p^ eta^ over
    the others), two prefix sums along the order."""
    c, order = nested.lengths, nested.order
    p, e = pS[order], eta[order]
    inside = np.concatenate([[0.0], np.cumsum(p * (1 - e))])
    outside = np.concatenate([[0.0], np.cumsum(p * e)])
    return inside[c] + (outside[-1] - outside[c])


def fit_nested_device(b: Backend, HS_host, pS, weight, W, nested_on_support: Nested | None, stats: dict | None = None):
    """Line 9 for a class nested on the support, the dense passes on b's device:
    (eta^ on S, R (|H|), the value of eta^ over every row, the certified lower bound), all
    host numpy but the value and bound (floats), or None where fast/line9.py's `_chain_route`
    would give None (not nested, fewer than two hypotheses, no convergence, the certificate
    fails): the caller then goes on to row generation on the host.

    weight, W: |H| x |H| on b's device, nan where (h, h') gives no row; pS: p^ on the
    support (host); nested_on_support: the class's Nested on the support, or None to find
    it from HS_host (the host 0/1 matrix on the support; unused otherwise). Without any row
    every D^ is optimal: eta^ = 1/2, value = lower = 0 (what fit_distribution returns).
    `stats` receives the host route's keys (method, rounds, iterations, edges, ...)."""
    nested = nested_on_support if nested_on_support is not None else Nested.of(np.asarray(HS_host))
    pS = np.asarray(pS, FLOAT)
    scale, rows = scale_and_rows(b, weight, W)
    if scale is None:
        eta = np.full(len(pS), 0.5, FLOAT)  # every R_D(h) is then half the mass of S
        return eta, np.full(int(weight.shape[0]), np.sum(pS) / 2, FLOAT), 0.0, 0.0
    chain_stats: dict = {"nested": nested is not None}
    if nested is not None and int(weight.shape[0]) >= 2:
        sigma, mass = chain_of(nested, pS)
        passes = _DevicePasses(b, weight, W)
        solved = edge_rounds(int(weight.shape[0]), sigma, mass, passes, chain_stats)
        if solved is not None:
            P, cycle = solved  # P = d (line9_chain.fit_nested)
            src, dst, chain = cycle
            lower = cycle_bound(cycle, *passes.pairs(src[~chain], dst[~chain]), sigma, mass)
            if lower is not None:
                eta = eta_of(P, nested, sigma, mass).astype(FLOAT, copy=False)
                R = nested_risks(nested, pS, eta)
                value = lp_value(b, b.asarray(R, b.xp.float64), weight, W)
                chain_stats.update(method="cycle_ratio", cycle_length=len(src))
                if value - lower <= CHAIN_RTOL * abs(lower) + CHAIN_ATOL * scale:
                    if stats is not None:
                        stats.update(chain_stats, lower_bound=lower, rows=rows)
                    return eta, R, value, lower
    if stats is not None:
        stats.update(chain_stats, chain_fallback=bool(chain_stats["nested"]))
    return None
