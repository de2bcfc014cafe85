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
