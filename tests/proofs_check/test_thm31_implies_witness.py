"""Theorem 3.1's "This implies" (tex l. 239-245) fails on a realised run (FINDINGS F15): F2's run, one
point with eta^* = 39/64 and eta_t = 31/64 in every round (C_total = n/8), passive ERM at n = 2^16."""

import math
from fractions import Fraction as F

import reference as R


def test_this_implies_fails_on_a_realised_run():
    instance = R.Instance(nu=(F(1),), eta=(F(39, 64),), hypotheses=((1,), (0,)))
    n, delta = 2**16, F(1, 10)
    adversary = R.adversary.piecewise(n, [{"start": 1, "end": n, "gamma": 1, "target": (F(31, 64),)}])
    assert adversary.total(instance, 1, n) == F(n, 8)  # the statement's C_total <= n/8, with equality
    r_star = instance.best_risk
    big_l = math.log(instance.num_hypotheses / float(delta))
    # the smallest eps with n >= 2L/eps + 8R^*L/eps^2 (any larger eps is allowed too)
    eps = (2 * big_l + math.sqrt(4 * big_l**2 + 32 * n * float(r_star) * big_l)) / (2 * n)
    claimed = eps + float(F(1, 8) * r_star)  # eps + (C_total/n) R^*
    for seed in range(3):
        trace = R.passive(instance.hypotheses, R.sample_tape(instance, adversary, seed), R.Params.paper(n, 2, delta))
        gap = instance.risk(trace.output) - r_star
        assert gap == F(7, 32) and float(gap) > claimed + 0.1, (seed, gap, claimed)
