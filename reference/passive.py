"""Passive learning (Section 3, Theorem 3.1): empirical risk minimisation over all n labels."""

from __future__ import annotations

from .empirical import argmin_lowest_index, check_run_inputs, empirical_risks
from .trace import PassiveTrace


def passive(hypotheses, tape, params) -> PassiveTrace:
    """h_out = argmin_h R^_[1,n](h), ties broken towards the lowest index."""
    H = check_run_inputs(hypotheses, tape, params)
    counts = [[0, 0] for _ in H[0]]
    for x, y in zip(tape.x, tape.y):
        counts[x][y] += 1
    everyone = range(len(H))
    risks = empirical_risks(H, counts, tape.n, everyone)
    return PassiveTrace(
        algorithm="passive",
        params=params,
        n=tape.n,
        empirical_risk=risks,
        labels_requested=tape.n,
        output=argmin_lowest_index(risks, everyone),
    )
