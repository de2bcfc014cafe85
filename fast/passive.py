"""Passive ERM (Section 3, Theorem 3.1), fast path: one pass of per-point label counts.

Exact: the empirical risks are integer mistake counts over n, so this path has no float."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .hypotheses import mistakes


@dataclass(frozen=True)
class PassiveRun:
    n: int
    mistakes: np.ndarray  # int64 per h: R^_[1,n](h) = mistakes / n
    output: int


def passive_run(H: np.ndarray, label_counts: np.ndarray, n: int) -> PassiveRun:
    """h_out = argmin_h R^_[1,n](h), ties towards the lowest index (np.argmin's rule)."""
    errors = mistakes(H, label_counts)
    return PassiveRun(n=n, mistakes=errors, output=int(np.argmin(errors)))
