"""The one primitive under CALruption's per-pair statistics (lines 7, 8, 13), on any
array backend (fast/backends.py): for non-negative integer weights c over the points,

    a_h = sum_x c_x h(x),        cross(h, h') = sum_x c_x h(x) h'(x),

exactly, in int64. Everything per pair is made of them: the weight of Dis(h, h') is
a_h + a_h' - 2 cross(h, h'), and line 8's counts are differences of a and cross under
the queried counts (fast/pair_stats.py).

Two kernels, chosen once per run from H:

* interval (the floor): when every row of H, read along the points 0..m-1, changes value
  at most twice, it is h = s_h + sigma_h 1[lo_h <= x < hi_h] with s_h = h(0) and
  sigma_h = 1 - 2 s_h (thresholds either way, intervals and their complements). With
  the prefix sums P of c (one pass over the points),
      a_h = s_h P[m] + sigma_h (P[hi_h] - P[lo_h]),
      cross(h, h') = s s' P[m] + s sigma' a'_h' + s' sigma a'_h + sigma sigma' max(0, P[min hi] - P[max lo])
  (a'_h = P[hi_h] - P[lo_h]): O(1) per pair, so a weight vector costs O(m) plus
  O(#pairs) gathers, whatever m. Exact in int64 (sums of counts, < 2^63).
* general: cross = H diag(c) H^T, one matrix product, in float64 when the terms are
  non-negative integers summing below 2^53 (every partial sum is then an exact integer,
  fast/hypotheses.py), else in int64 (numpy, array-api-strict, torch on the CPU) or on
  the host in numpy where the device has no integer matmul (fast/backends.py's table).

Weights come as host numpy vectors of length m (0 outside the points that count, e.g. a
q group): they are O(m), the O(|H|^2) work is on the backend."""

from __future__ import annotations

import numpy as np

from .backends import Backend, get_backend
from .hypotheses import exact_in_float


def interval_form(H: np.ndarray):
    """(s, lo, hi) with row h = s_h + (1 - 2 s_h) 1[lo_h <= x < hi_h], or None when some row
    changes value more than twice along the points. lo = hi = 0 for a constant row."""
    num_h, m = H.shape
    if m > 1 and int((H[:, 1:] != H[:, :-1]).sum(axis=1).max(initial=0)) > 2:
        return None
    s = H[:, 0].astype(np.int64)
    A = H != s[:, None]
    has = A.any(axis=1)
    lo = np.where(has, A.argmax(axis=1), 0).astype(np.int64)
    hi = np.where(has, m - A[:, ::-1].argmax(axis=1), 0).astype(np.int64)
    return s, lo, hi


class PairKernel:
    """Exact a_h and cross(h, h') for H (host int64, |H| x m) on a backend."""

    def __init__(self, H: np.ndarray, backend: Backend | str | None = None, *, force_general: bool = False):
        self.backend = get_backend(backend)
        b, xp = self.backend, self.backend.xp
        self.num_h, self.m = H.shape
        form = None if force_general else interval_form(H)
        self.interval = form is not None
        self.H_host = np.ascontiguousarray(H, dtype=np.int64)
        if self.interval:
            s, lo, hi = form
            self.s, self.lo, self.hi = b.asarray(s, xp.int64), b.asarray(lo, xp.int64), b.asarray(hi, xp.int64)
            self.sign = 1 - 2 * self.s
        else:
            self.Hf = b.asarray(self.H_host.astype(np.float64), xp.float64)

    # -- the interval kernel -----------------------------------------------------------
    def _prefix(self, c: np.ndarray):
        xp = self.backend.xp
        P = xp.cumulative_sum(self.backend.asarray(c, xp.int64), include_initial=True)
        return P, int(c.sum())

    def _interval_sums(self, P, total):
        xp = self.backend.xp
        inner = xp.take(P, self.hi) - xp.take(P, self.lo)
        return self.s * total + self.sign * inner, inner

    def geometry(self, i, j):
        """What the interval kernel needs of pairs (i, j) whatever the weights: the overlap
        [max lo, min hi) of their intervals and their s and sigma. Shapes broadcast: index
        vectors, or a column of rows against a row of columns (a block)."""
        xp = self.backend.xp
        if not self.interval:
            return None
        pick = (lambda v, k: xp.take(v, k)) if i.ndim == 1 else (lambda v, k: v[k])
        return _Geometry(
            xp,
            i,
            j,
            xp.minimum(pick(self.hi, i), pick(self.hi, j)),
            xp.maximum(pick(self.lo, i), pick(self.lo, j)),
            pick(self.s, i),
            pick(self.s, j),
            pick(self.sign, i),
            pick(self.sign, j),
        )

    def _interval_cross(self, P, total, inner, geo: _Geometry):
        """s s' T + s sigma' inner' + s' sigma inner + sigma sigma' max(0, P[min hi] - P[max lo])."""
        xp = self.backend.xp
        shape = geo.top.shape
        both = xp.clip(
            xp.reshape(xp.take(P, xp.reshape(geo.top, (-1,))) - xp.take(P, xp.reshape(geo.bottom, (-1,))), shape), min=0
        )
        if geo.plain:
            return both
        if geo.i.ndim == 1:
            inner_i, inner_j = xp.take(inner, geo.i), xp.take(inner, geo.j)
        else:
            inner_i, inner_j = inner[geo.i], inner[geo.j]
        return geo.si * geo.sj * total + geo.si * geo.gj * inner_j + geo.sj * geo.gi * inner_i + geo.gi * geo.gj * both

    # -- the general kernel ------------------------------------------------------------
    def _general_weighted(self, c: np.ndarray, cols: np.ndarray | None):
        """(a, H's columns, weighted columns, where) for the general kernel: float64 on the
        device when exact, int64 on the device when it has integer matmul, else int64 on
        the host ("host")."""
        b, xp = self.backend, self.backend.xp
        if cols is None:
            cols = np.flatnonzero(c)
        cols = np.asarray(cols, dtype=np.int64)
        cw = c[cols]
        if exact_in_float(cw.sum()):
            Hc = xp.take(self.Hf, b.asarray(cols, xp.int64), axis=1)
            weighted = Hc * b.asarray(cw.astype(np.float64), xp.float64)
            return xp.astype(xp.sum(weighted, axis=1), xp.int64), Hc, weighted, "float"
        Hc = self.H_host[:, cols]
        if b.integer_matmul:
            Hd = b.asarray(Hc, xp.int64)
            weighted = Hd * b.asarray(cw, xp.int64)
            return xp.sum(weighted, axis=1), Hd, weighted, "int"
        weighted = Hc * cw  # host numpy int64: the device has no exact integer product (backends.py)
        return b.asarray(weighted.sum(axis=1), xp.int64), Hc, weighted, "host"

    # -- public ------------------------------------------------------------------------
    def prepare(self, c: np.ndarray, cols: np.ndarray | None = None) -> Weighted:
        """The weights c (host int64 >= 0, length m; only the points `cols` count when
        given) ready for sums and crosses."""
        c = np.asarray(c, dtype=np.int64)
        if cols is not None:
            masked = np.zeros_like(c)
            masked[cols] = c[cols]
            c = masked
        if self.interval:
            P, total = self._prefix(c)
            a, inner = self._interval_sums(P, total)
            return Weighted(self, a, P=P, total=total, inner=inner)
        a, Hc, weighted, where = self._general_weighted(c, cols)
        return Weighted(self, a, general=(Hc, weighted, where))

    def prepare_groups(self, c: np.ndarray, groups_cols) -> WeightedGroups:
        """c restricted to each of several groups of points at once: `a` is |H| x groups and
        crosses come as pairs x groups (one gather of a row of the prefix-sum table per
        pair end, instead of one gather per group)."""
        c = np.asarray(c, dtype=np.int64)
        if not self.interval:
            return WeightedGroups(self, [self.prepare(c, cols) for cols in groups_cols])
        xp, b = self.backend.xp, self.backend
        masked = np.zeros((self.m, len(groups_cols)), dtype=np.int64)
        for k, cols in enumerate(groups_cols):
            masked[cols, k] = c[cols]
        P = xp.cumulative_sum(b.asarray(masked, xp.int64), axis=0, include_initial=True)  # (m + 1) x groups
        total = P[self.m, :][None, :]
        inner = xp.take(P, self.hi, axis=0) - xp.take(P, self.lo, axis=0)
        a = self.s[:, None] * total + self.sign[:, None] * inner
        return WeightedGroups(self, None, a=a, P=P, total=total, inner=inner)

    def arange(self, start: int, stop: int):
        xp, device = self.backend.xp, self.backend.device
        return (
            xp.arange(start, stop, dtype=xp.int64)
            if device is None
            else xp.arange(start, stop, dtype=xp.int64, device=device)
        )


class Weighted:
    """One weight vector, prepared: `a` (device int64, per hypothesis), and crosses."""

    def __init__(self, kernel: PairKernel, a, *, P=None, total=None, inner=None, general=None):
        self.kernel, self.a, self.P, self.total, self.inner, self.general = kernel, a, P, total, inner, general

    def cross_block(self, r0: int, r1: int, c0: int, c1: int):
        """cross for rows r0..r1-1 against columns c0..c1-1, (r1 - r0) x (c1 - c0), device int64."""
        k, b, xp = self.kernel, self.kernel.backend, self.kernel.backend.xp
        if self.general is not None:
            Hc, weighted, where = self.general
            if where == "host":
                return b.asarray(Hc[r0:r1] @ weighted[c0:c1].T, xp.int64)
            product = Hc[r0:r1, :] @ xp.matrix_transpose(weighted[c0:c1, :])
            return xp.astype(product, xp.int64) if where == "float" else product
        geo = k.geometry(k.arange(r0, r1)[:, None], k.arange(c0, c1)[None, :])
        return k._interval_cross(self.P, self.total, self.inner, geo)

    def cross_pairs(self, i, j, r0: int, r1: int, geo=None):
        """cross(i[k], j[k]) for device int64 index vectors with r0 <= i < r1 and j >= r0
        (the general kernel multiplies that block of rows and picks the pairs from it);
        `geo`: the pairs' kernel.geometry, when the caller keeps it for several weights."""
        k, xp = self.kernel, self.kernel.backend.xp
        if self.general is None:
            return k._interval_cross(self.P, self.total, self.inner, geo if geo is not None else k.geometry(i, j))
        block = self.cross_block(r0, r1, r0, k.num_h)
        return xp.take(xp.reshape(block, (-1,)), (i - r0) * (k.num_h - r0) + (j - r0))

    def disagreement_block(self, r0: int, r1: int, c0: int, c1: int):
        """sum_x c_x 1{h(x) != h'(x)} = a_h + a_h' - 2 cross, rows r0..r1-1, columns c0..c1-1."""
        return self.a[r0:r1, None] + self.a[None, c0:c1] - 2 * self.cross_block(r0, r1, c0, c1)

    def disagreement_pairs(self, i, j, r0: int, r1: int, geo=None):
        xp = self.kernel.backend.xp
        return xp.take(self.a, i) + xp.take(self.a, j) - 2 * self.cross_pairs(i, j, r0, r1, geo)


class WeightedGroups:
    """One weight vector restricted to several groups of points (PairKernel.prepare_groups)."""

    def __init__(self, kernel: PairKernel, each, *, a=None, P=None, total=None, inner=None):
        xp = kernel.backend.xp
        self.kernel, self.each, self.P, self.total, self.inner = kernel, each, P, total, inner
        if each is None:
            self.a = a
        elif each:
            self.a = xp.stack([w.a for w in each], axis=1)
        else:  # no group asked (nothing queried this epoch): an |H| x 0 table, as the interval kernel gives
            self.a = xp.zeros((kernel.num_h, 0), dtype=xp.int64)

    def cross_pairs(self, i, j, r0: int, r1: int, geo=None):
        """pairs x groups: cross(i[k], j[k]) restricted to each group."""
        k, xp = self.kernel, self.kernel.backend.xp
        if self.each is not None:
            return xp.stack([w.cross_pairs(i, j, r0, r1, geo) for w in self.each], axis=1)
        geo = geo if geo is not None else k.geometry(i, j)
        both = xp.clip(xp.take(self.P, geo.top, axis=0) - xp.take(self.P, geo.bottom, axis=0), min=0)
        if geo.plain:
            return both
        si, sj, gi, gj = geo.si[:, None], geo.sj[:, None], geo.gi[:, None], geo.gj[:, None]
        inner_i, inner_j = xp.take(self.inner, i, axis=0), xp.take(self.inner, j, axis=0)
        return si * sj * self.total + si * gj * inner_j + sj * gi * inner_i + gi * gj * both


class _Geometry:
    """Pairs' overlaps and signs (PairKernel.geometry); `subset` keeps some of a vector's pairs."""

    def __init__(self, xp, i, j, top, bottom, si, sj, gi, gj):
        self.i, self.j, self.top, self.bottom, self.si, self.sj, self.gi, self.gj = i, j, top, bottom, si, sj, gi, gj
        # every s = 0 (sigma = 1: thresholds x >= k, intervals): cross is the overlap term alone
        self.plain = not bool(xp.any(si != 0)) and not bool(xp.any(sj != 0))

    def subset(self, xp, keep):
        return _Geometry(
            xp, *(xp.take(v, keep) for v in (self.i, self.j, self.top, self.bottom, self.si, self.sj, self.gi, self.gj))
        )
