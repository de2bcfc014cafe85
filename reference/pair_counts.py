"""Per-pair integer statistics of one CALruption epoch, from per-point counts in one pass.

Lines 7 and 8 of Algorithm 2 need, for every pair (h, h'), sums over Dis(h, h') of
per-point counts: rho^_l (seen rounds), min q over Dis(h, h') on S_l, and the importance-
weighted loss differences that Catoni's estimator averages. Defined point by point
(`reference.calruption.loss_difference_samples` is that definition) this costs
|H|^2 |X| Python steps; here every such sum is an integer matrix product.

Grouping by q. Let v_1 < ... < v_G be the distinct values of q_l on the support S_l and
X_g the support points with q = v_g. For each group, with H_g the columns of X_g,
  D_g[h, h'] = sum_{x in X_g, h(x) != h'(x)} seen[x]
            = (H_g seen) (1 - H_g)^T + ((1 - H_g) seen) H_g^T,
  P_g[h, h'] = sum_{x in X_g} (1{h(x) = 1, h'(x) = 0} queried[x][0] + 1{h(x) = 0, h'(x) = 1} queried[x][1]),
the rounds of the group where h errs and h' does not (the loss difference is +1/v_g
there); the rounds where h' errs and h does not are P_g[h', h] (-1/v_g). Then
  |I_l| rho^_l(h, h') = sum_g D_g[h, h'],
  min_{x in Dis(h,h') on S_l} q^x = v_g for the first g with D_g[h, h'] > 0 (a seen point
                                   contributes seen[x] >= 1),
and the loss differences of the pair are +1/v_g (P_g[h, h'] times), -1/v_g (P_g[h', h]
times) for v_g > 0, and 0 for the other rounds of the epoch (groups with v_g = 0 are
never queried: the epoch's inputs are checked for that).

Exactness. Everything is an integer. Every entry of D_g and P_g is at most the
epoch length |I_l|; products of 0/1 labels with counts and their sums stay below it, so
int64 matrix products are exact when |I_l| < 2^63, and Python integers (numpy's object
dtype) are used otherwise. numpy only multiplies integers here; nothing is rounded.

Memory: O(G |H|^2) integers at most, for D_g and P_g of one group at a time plus the
per-pair lists of nonzero group entries (the Catoni data themselves).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

_INT64_SAFE = 1 << 62


@dataclass(frozen=True)
class PairCounts:
    """groups: the distinct q values on the support, ascending.
    rho_counts[h][h']: |I_l| rho^_l(h, h') (symmetric).
    first_group[h][h']: index into groups of min q over Dis(h,h') on S_l, None if rho = 0.
    errs[h][h']: ((g, rounds where h errs and h' does not, at a point of group g), ...)
    for the groups with v_g > 0 where that count is positive, by increasing g."""

    groups: tuple[Fraction, ...]
    rho_counts: tuple[tuple[int, ...], ...]
    first_group: tuple[tuple[int | None, ...], ...]
    errs: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]

    @cached_property
    def inverse(self) -> tuple[Fraction | None, ...]:
        """1 / v_g (None for v_g = 0)."""
        return tuple(None if v == 0 else 1 / v for v in self.groups)

    def min_q(self, h: int, h2: int) -> Fraction | None:
        g = self.first_group[h][h2]
        return None if g is None else self.groups[g]

    def loss_differences(self, h: int, h2: int, length: int):
        """Line 8's samples l^_t(h) - l^_t(h') of the epoch, grouped as (values, counts),
        values increasing and counts >= 1 (the form of `loss_difference_samples`)."""
        inverse = self.inverse
        # -1/v_g increases with g and +1/v_g decreases: h' errs at the largest 1/v first
        minus, plus = self.errs[h2][h], self.errs[h][h2]
        values = [-inverse[g] for g, _ in minus]
        counts = [c for _, c in minus]
        nonzero = sum(counts) + sum(c for _, c in plus)
        if length > nonzero:
            values.append(Fraction(0))
            counts.append(length - nonzero)
        for g, c in reversed(plus):
            values.append(inverse[g])
            counts.append(c)
        return tuple(values), tuple(counts)


def pair_counts(H, q, seen, queried, length: int) -> PairCounts:
    """The statistics above for hypotheses H (tuples of 0/1), per-point q, seen and
    queried = ((label-0 rounds, label-1 rounds), ...) of an epoch of `length` rounds
    (inputs already validated by `check_epoch_inputs`)."""
    import numpy as np  # here: `import reference` should not pay for numpy

    num_h = len(H)
    dtype = np.int64 if length < _INT64_SAFE else object
    labels = np.array(H, dtype=dtype)
    support = [x for x, s in enumerate(seen) if s > 0]
    groups = sorted({q[x] for x in support})
    index = {v: g for g, v in enumerate(groups)}
    members: list[list[int]] = [[] for _ in groups]
    for x in support:
        members[index[q[x]]].append(x)

    rho = np.zeros((num_h, num_h), dtype=dtype)
    first = np.full((num_h, num_h), -1, dtype=np.int64)
    errs: list[list[list[tuple[int, int]]]] = [[[] for _ in range(num_h)] for _ in range(num_h)]
    for g, points in enumerate(members):
        Hg = labels[:, points]
        ones, zeros = Hg, 1 - Hg
        seen_g = np.array([seen[x] for x in points], dtype=dtype)
        D = (ones * seen_g) @ zeros.T + (zeros * seen_g) @ ones.T
        rho += D
        first[(first < 0) & (D > 0)] = g
        if groups[g] == 0:
            continue  # q = 0: never queried (checked), no loss difference
        label0 = np.array([queried[x][0] for x in points], dtype=dtype)
        label1 = np.array([queried[x][1] for x in points], dtype=dtype)
        P = (ones * label0) @ zeros.T + (zeros * label1) @ ones.T  # h errs, h' does not
        for h, h2 in zip(*np.nonzero(P)):
            errs[h][h2].append((g, int(P[h, h2])))
    rho_counts = tuple(tuple(int(v) for v in row) for row in rho.tolist())
    first_group = tuple(tuple(None if g < 0 else int(g) for g in row) for row in first.tolist())
    return PairCounts(tuple(groups), rho_counts, first_group, tuple(tuple(tuple(e) for e in row) for row in errs))
