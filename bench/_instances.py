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


def thresholds_matrix(points: int, hypotheses: int):
    """`thresholds_instance(points, hypotheses)` as a fast.MatrixInstance: H built by numpy
    (h_k(x) = 1[x >= k step], k = 0..hypotheses-1), the same nu* and eta*, without the
    reference's label-by-label checks (at |H| = |X| = 16384: seconds instead of minutes).
    tests/fast/test_matrix_instance.py holds it equal to the reference instance."""
    from fractions import Fraction

    import numpy as np

    import fast

    step = points // hypotheses
    k = np.arange(points + 1)[::step][:hypotheses]
    H = (np.arange(points)[None, :] >= k[:, None]).astype(np.int64)
    nu = [Fraction(1, points)] * points  # reference.instances.thresholds' defaults
    eta = [Fraction(1, 10) if x < points // 2 else Fraction(9, 10) for x in range(points)]
    return fast.MatrixInstance(nu, eta, H)


def best_hypothesis(instance) -> int:
    """instance.best (argmin R*, the lowest index on a tie), exactly, by
    fast.MatrixInstance.best (int64 over one common denominator where the numerators fit):
    R.Instance.best sums Fractions over |H| x |X| terms, ~100 s at |H| = |X| = 4096,
    beside a run of about a minute."""
    import numpy as np

    import fast

    if not isinstance(instance, fast.MatrixInstance):
        instance = fast.MatrixInstance(instance.nu, instance.eta, np.array(instance.hypotheses, np.int64))
    return instance.best
