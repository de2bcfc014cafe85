"""Adversaries: eta_t, c_t and C_I exactly (Section 2)."""

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

import reference as R
from reference import adversary as A


@pytest.mark.parametrize("tau, n", [(0, 10), (1, 10), (64, 1000), (1000, 1000)])
def test_counterexample_adversary_corruption(tau, n):
    inst = R.instances.counterexample(F(1, 2), F(1, 128))
    adv = A.counterexample(tau, n)
    for t in sorted({1, tau, tau + 1, n} & set(range(1, n + 1))):
        corrupted = t <= tau
        assert adv.eta(inst, t) == ((F(15, 32) if corrupted else F(1, 2)), F(1), F(1))
        assert adv.corruption(inst, t) == (F(1, 32) if corrupted else 0)
    for t in (1, n // 3 + 1, n):
        # C_[0,t] = min(t, tau)/32 <= t/32: Theorem 4.1's C_[0,t] <= t/8 holds
        assert adv.total(inst, 1, t) == F(min(t, tau), 32)
        assert adv.total(inst, 1, t) <= F(t, 32)
    assert adv.total(inst, 1, n) == F(tau, 32)


def test_counterexample_averaged_risks_stated_in_the_appendix():
    # R_t(h1) = 17/32 xi1 and R_t(h2) = 15/32 xi1 + xi2 while corrupted
    xi1, xi2 = F(1, 2), F(1, 128)
    inst = R.instances.counterexample(xi1, xi2)
    eta_t = A.counterexample(5, 10).eta(inst, 3)
    risk = lambda h: sum((p * (1 - e) if label else p * e) for p, e, label in zip(inst.nu, eta_t, inst.hypotheses[h]))
    assert risk(0) == F(17, 32) * xi1
    assert risk(1) == F(15, 32) * xi1 + xi2


def test_misspecification_corruption_is_gamma_times_distance():
    inst = R.instances.thresholds(4)
    eta_tilde = [F(1), F(0), F(1, 2), F(1, 3)]
    adv = A.misspecification(F(1, 8), eta_tilde, 100)
    expected_c = F(1, 8) * max(abs(a - b) for a, b in zip(inst.eta, eta_tilde))
    assert adv.corruption(inst, 50) == expected_c
    assert adv.total(inst, 10, 19) == 10 * expected_c
    assert all(adv.corruption(inst, t) <= F(1, 8) for t in (1, 100))


def test_clean_has_no_corruption():
    inst = R.instances.intervals(3)
    adv = A.clean(17)
    assert adv.eta(inst, 17) == inst.eta and adv.total(inst, 1, 17) == 0


@st.composite
def schedules(draw):
    n = draw(st.integers(1, 40), label="n")
    cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=5), label="cuts")) if n > 1 else []
    bounds = [0, *cuts, n]
    segments = []
    for a, b in zip(bounds, bounds[1:]):
        target = draw(
            st.lists(st.one_of(st.none(), st.fractions(0, 1, max_denominator=8)), min_size=3, max_size=3),
            label="target",
        )
        gamma = draw(st.fractions(0, 1, max_denominator=8), label="gamma")
        segments.append(A.Segment(a + 1, b, gamma, tuple(target)))
    return A.piecewise(n, segments)


@given(adv=schedules(), data=st.data())
def test_interval_totals_add_up_and_match_per_round_sums(adv, data):
    inst = R.instances.counterexample(F(1, 3), F(1, 9))
    n = adv.n
    start = data.draw(st.integers(1, n), label="start")
    end = data.draw(st.integers(start - 1, n), label="end")
    per_round = sum((adv.corruption(inst, t) for t in range(start, end + 1)), F(0))
    assert adv.total(inst, start, end) == per_round
    assert adv.total(inst, 1, n) == adv.total(inst, 1, start - 1) + adv.total(inst, start, n) if start > 1 else True
    for t in (start, n):
        assert 0 <= adv.corruption(inst, t) <= 1
        assert all(0 <= e <= 1 for e in adv.eta(inst, t))


@given(adv=schedules())
def test_adversary_json_round_trip(adv):
    assert A.Adversary.from_json(adv.to_json()) == adv
