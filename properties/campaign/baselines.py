"""Uncertainty sampling: a simple non-robust active baseline, in counts mode, against which the
sweeps (properties/campaign/sweeps.py) measure what robustness costs.

Stream-based committee sampling over a finite class: the rounds are cut into doubling blocks
(t = 1..2, 3..4, 5..8, ... as RobustCAL's checkpoints); in each block every arrival at a point
where the COMMITTEE -- the `committee` hypotheses of lowest error on the labels gathered so
far -- disagrees is queried; the output is the hypothesis of lowest error on all labels
gathered (ties: lowest index). No confidence widths, no importance weights: the labels are
drawn where the committee is unsure, so the error estimates are biased (sampling bias), and
an early corruption can steer the committee away from h^* for good. That is what makes it a
non-robust baseline for RobustCAL and CALruption.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

COMMITTEE = 4


@dataclass(frozen=True)
class Run:
    labels_requested: int
    output: int


def uncertainty_counts(instance, adversary, seed, committee: int = COMMITTEE) -> Run:
    """One run on the environment (instance, adversary) with randomness from `seed`."""
    from fast import counts as counts_mode

    if not isinstance(committee, int) or committee < 2:
        raise ValueError(f"committee must be an integer >= 2, got {committee!r}")
    env = counts_mode.Environment(instance, adversary)
    H = np.array(instance.hypotheses, dtype=np.int64)  # |H| x m
    counts = counts_mode.interval_counts(env, np.random.default_rng(seed))
    labelled = np.zeros((env.m, 2), dtype=np.int64)
    asked = 0
    start, end = 1, min(2, env.n)
    while start <= env.n:
        errors = _errors(H, labelled)
        members = np.argsort(errors, kind="stable")[:committee]
        votes = H[members]
        unsure = votes.min(axis=0) != votes.max(axis=0)
        _, queried = counts(start, end, unsure)
        labelled += queried
        asked += int(queried.sum())
        start, end = end + 1, min(2 * end, env.n)
    return Run(asked, int(np.argmin(_errors(H, labelled))))


def _errors(H, labelled):
    """Mistakes of each hypothesis on the labels gathered: h(x) = 1 errs on the 0 labels at x."""
    return H @ labelled[:, 0] + (1 - H) @ labelled[:, 1]
