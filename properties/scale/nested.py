"""Nested classes, judge-side: when the hypotheses form a chain under
inclusion (thresholds of one orientation, any one-sided class), every pair statistic the
judge needs is a difference of prefix sums along the nesting order, O(|H|^2) per q group
instead of an O(|H|^2 |X|) product.

Written from H alone, independently of fast/ (the judge does not import the candidate).

The order. Sort the points by how many hypotheses hold them, most first (stable). If the
sets {x : h(x) = 1} form a chain, then for x in h and y not in h every h' holding y holds
h's set (the chain), hence x: so count(x) > count(y), and every h is the first c_h points
(c_h its number of 1s). `nesting` checks exactly that on the whole H (O(|H| |X|) integer
comparisons), and returns None otherwise: the judge then takes its general product route.

With that order, h and h' (c_h < c_h') disagree exactly on the points of rank c_h..c_h'-1,
where h = 0 and h' = 1. So for a prefix sum S of any per-point count over the order,
sum_{x: h(x) != h'(x)} count_x = |S(c_h') - S(c_h)|, exact in int64."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Nesting:
    lengths: np.ndarray  # c_h: h is the first c_h points of `order`
    order: np.ndarray  # the points, most-held first

    def prefix(self, per_point: np.ndarray) -> np.ndarray:
        """S(c) for c = 0..|X|: the sum of per_point over the first c points of the order (int64)."""
        return np.concatenate([[0], np.cumsum(per_point[self.order], dtype=np.int64)])

    def differences(self, S: np.ndarray, i=None, j=None) -> np.ndarray:
        """|S(c_i) - S(c_j)|: over every pair (|H| x |H|), or over the index arrays i, j."""
        if i is None:
            a = S[self.lengths]
            return np.abs(a[:, None] - a[None, :])
        return np.abs(S[self.lengths[i]] - S[self.lengths[j]])


def nesting(H: np.ndarray) -> Nesting | None:
    """The nesting order of H (|H| x |X|, 0/1), or None when H is not a chain (module notes)."""
    if H.size == 0:
        return None
    order = np.argsort(-H.sum(axis=0), kind="stable")
    lengths = H.sum(axis=1).astype(np.int64)
    ranks = np.arange(H.shape[1])
    if not np.array_equal(H[:, order] != 0, ranks[None, :] < lengths[:, None]):
        return None
    return Nesting(lengths, order)


def cut_max(V: np.ndarray, nest: Nesting) -> np.ndarray:
    """Per point x, the max of V(h, h') over the pairs that disagree at x (0 where none),
    V symmetric and >= 0. In the order, the point of rank r separates the hypotheses with
    c_h <= r from those with c_h > r (and no other pair disagrees there): with the
    hypotheses sorted by c, that is the quadrant rows [0, k) x columns [k, |H|), k the
    number with c <= r. Suffix max along rows, then prefix max down columns: O(|H|^2)."""
    num_h, m = V.shape[0], len(nest.order)
    perm = np.argsort(nest.lengths, kind="stable")
    Vs = V[perm][:, perm]
    Vs = np.maximum.accumulate(Vs[:, ::-1], axis=1)[:, ::-1]  # [a, k] = max_{b >= k} V[a, b]
    Vs = np.maximum.accumulate(Vs, axis=0)  # [a, k] = max_{a' <= a, b >= k}
    quadrant = np.zeros(num_h + 1, V.dtype)
    quadrant[1:num_h] = Vs[np.arange(num_h - 1), np.arange(1, num_h)]
    k = np.searchsorted(nest.lengths[perm], np.arange(m), side="right")
    result = np.zeros(m, V.dtype)
    result[nest.order] = quadrant[k]
    return result
