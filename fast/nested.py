"""A class nested on its points: the hypotheses form a chain under inclusion.

Order the points by how many hypotheses hold them, most first: the class is nested iff
every h is then the set of its first c_h points. Thresholds of one orientation are (with
the constant hypotheses among them), and so is any one-sided class. Two lines of
CALruption have a closed form there: line 9's LP is a minimum cycle ratio
(fast/line9_chain.py) and line 13's max over the pairs that disagree at x is a max over a
quadrant of the pair matrix, since h < h' in chain order disagree exactly on the points
of rank c_h..c_h'-1 (fast/pair_stats.py). H is fixed for a run, so a run finds the order
once and restricts it to each epoch's support."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Nested:
    """h holds exactly the points order[:lengths[h]]."""

    lengths: np.ndarray  # c_h, int64
    order: np.ndarray  # the points (column indices), most-held first

    @classmethod
    def of(cls, H: np.ndarray) -> Nested | None:
        """The nesting of H's rows (0/1), or None when they are not a chain.

        h holds c_h points of distinct ranks in the order, so it holds exactly the first c_h
        iff the largest rank it holds is c_h - 1: one pass over H by row blocks, no
        reordered copy of it (at |H| = |X| = 16384 a copy is 2 GiB: ~9 s, against ~2 s)."""
        H = np.asarray(H)
        num_h, m = H.shape
        order = np.argsort(-H.sum(axis=0), kind="stable")
        rank = np.empty(m, np.int64)
        rank[order] = np.arange(m)
        lengths = H.sum(axis=1).astype(np.int64)
        step = max(1, 2**20 // max(1, m))
        for r0 in range(0, num_h, step):
            block = H[r0 : r0 + step]
            top = np.where(block != 0, rank[None, :], -1).max(axis=1, initial=-1)
            if (top != lengths[r0 : r0 + step] - 1).any():
                return None  # some h holds a point that fewer hypotheses hold, and misses a more held one
        return cls(lengths, order)

    def on(self, points: np.ndarray) -> Nested:
        """The same chain on a subset of the points, as positions in `points` (which lists
        distinct column indices)."""
        m = len(self.order)
        position = np.full(m, -1, np.int64)
        position[points] = np.arange(len(points))
        kept = position[self.order] >= 0
        before = np.concatenate([[0], np.cumsum(kept)])  # kept points among the first c
        return Nested(before[self.lengths].astype(np.int64), position[self.order[kept]])

    @property
    def chain(self) -> np.ndarray:
        """The hypotheses by prefix length (the chain from the smallest set up)."""
        return np.argsort(self.lengths, kind="stable")
