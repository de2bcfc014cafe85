"""The instance several bench scripts time on (bench/run.py, bench/calruption_scaling.py),
here below both so that neither imports the other."""

from __future__ import annotations

import reference as R


def thresholds_instance(points: int, hypotheses: int) -> R.Instance:
    """h_k(x) = 1[x >= k points/hypotheses], nu uniform, eta 1/10 left of the middle and
    9/10 from it on (reference.instances.thresholds, every (points/hypotheses)-th hypothesis)."""
    base = R.instances.thresholds(points)
    step = points // hypotheses
    return R.Instance(base.nu, base.eta, base.hypotheses[::step][:hypotheses])


def best_hypothesis(instance: R.Instance) -> int:
    """instance.best (argmin R*, the lowest index on a tie), exactly, in int64 arithmetic
    over one common denominator when the numerators fit: R.Instance.best sums Fractions
    over |H| x |X| terms, ~100 s at |H| = |X| = 4096, beside a run of about a minute."""
    import math

    import numpy as np

    den = math.lcm(*{f.denominator for f in instance.nu}, *{f.denominator for f in instance.eta})
    nu = [int(f * den) for f in instance.nu]
    eta = [int(f * den) for f in instance.eta]
    if sum(nu) * den >= 2**62:  # risk x den^2 must fit in int64
        return instance.best
    nu_, eta_ = np.array(nu, np.int64), np.array(eta, np.int64)
    H = np.array(instance.hypotheses, np.int64)
    # den^2 R*(h) = sum_x nu'_x (h(x) (den - eta'_x) + (1 - h(x)) eta'_x), exact integers
    risks = H @ (nu_ * (den - eta_)) + (1 - H) @ (nu_ * eta_)
    return int(np.argmin(risks))  # the first minimiser
