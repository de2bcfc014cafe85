"""RobustCAL (Algorithm 1) and its vanilla form, fast path.

The stream enters only through per-point counts between checkpoints (t = 2^k, k >= 1,
FINDINGS R3): `interval_counts(start, end, dis)` returns, for rounds start..end, how
often each point was seen and, among the queried rounds (x_t in Dis(V_t), line 4), with
which label. Tape mode reads those counts off a tape, counts mode draws them, and both
feed the same loop below.

Everything is exact integer arithmetic except beta_t and the threshold of line 10, which
are float64 (FLOAT, fast/precision.py): the keep decision compares the exact float of (mistakes difference)/t with
the float threshold; it can differ from the exact decision only when the two sides are
within a few ulps (the cross-check classifies that as a threshold-boundary divergence)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .constants import FloatParams
from .hypotheses import mistakes
from .precision import FLOAT

IntervalCounts = Callable[[int, int, np.ndarray], tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class Checkpoint:
    t: int
    version_space: np.ndarray  # bool mask of V_t
    labels_requested: int
    h_hat: int
    mistakes: np.ndarray  # int64 (t L^_t(h)); meaningful on V_t
    disagreement: np.ndarray  # int64 (t rho^_t(h, h_hat)); meaningful on V_t
    beta: float
    threshold: np.ndarray  # FLOAT, right-hand side of line 10; nan off V_t
    next_version_space: np.ndarray  # bool mask of V_{t+1}


@dataclass(frozen=True)
class RobustCALRun:
    n: int
    vanilla: bool
    checkpoints: tuple[Checkpoint, ...]
    final_version_space: np.ndarray
    final_mistakes: np.ndarray  # n L^_n(h); meaningful on V_{n+1}
    labels_requested: int
    output: int


def disagreement_mask(H: np.ndarray, members: np.ndarray) -> np.ndarray:
    """Dis(V): the points where some two members of V disagree."""
    rows = H[members]
    return rows.min(axis=0) != rows.max(axis=0)


def masked_argmin(values: np.ndarray, members: np.ndarray) -> int:
    """argmin over members, ties towards the lowest index."""
    return int(np.flatnonzero(members)[np.argmin(values[members])])


def checkpoint_update(H, members, seen, queried, labels, t, fparams: FloatParams, vanilla) -> Checkpoint:
    """Lines 8-10 at checkpoint t."""
    errors = mistakes(H, queried)  # line 8, times t
    h_hat = masked_argmin(errors, members)
    beta = FLOAT(fparams.robust_cal_beta(t))  # line 9
    rho_counts = (H != H[h_hat]) @ seen  # t rho^_t(h, h_hat), exact in int64
    rho = (rho_counts / t).astype(FLOAT, copy=False)
    threshold = np.sqrt(2 * beta * rho / t) + 3 * beta / (2 * t)
    if not vanilla:
        threshold = threshold + rho / 2
    threshold = np.where(members, threshold, np.nan)
    keep = members & (((errors - errors[h_hat]) / t).astype(FLOAT, copy=False) <= threshold)  # line 10
    return Checkpoint(t, members, labels, h_hat, errors, rho_counts, beta, threshold, keep)


def robust_cal_run(
    H: np.ndarray, n: int, fparams: FloatParams, vanilla: bool, interval_counts: IntervalCounts
) -> RobustCALRun:
    m = H.shape[1]
    members = np.ones(H.shape[0], dtype=bool)  # V_1 = H
    seen = np.zeros(m, dtype=np.int64)
    queried = np.zeros((m, 2), dtype=np.int64)
    labels = 0
    checkpoints = []
    start, t = 1, 2
    while start <= n:
        end = min(t, n)
        dis = disagreement_mask(H, members)
        seen_delta, queried_delta = interval_counts(start, end, dis)
        seen += seen_delta
        queried += queried_delta
        labels += int(queried_delta.sum())
        if end == t:  # line 7: log2 t in N
            checkpoint = checkpoint_update(H, members, seen, queried, labels, t, fparams, vanilla)
            checkpoints.append(checkpoint)
            members = checkpoint.next_version_space
        start, t = end + 1, 2 * t
    final = mistakes(H, queried)
    return RobustCALRun(n, vanilla, tuple(checkpoints), members, final, labels, masked_argmin(final, members))
