"""Exact derived quantities of instances (Section 2) and the built-in instances."""

from fractions import Fraction as F
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference import Instance, instances
from reference.instance import disagreement_region


@pytest.mark.parametrize("xi1, xi2", [(F(1, 2), F(1, 128)), (F(1, 3), F(1, 200)), (F(9, 10), F(1, 10))])
def test_counterexample_values_stated_in_the_appendix(xi1, xi2):
    inst = instances.counterexample(xi1, xi2)
    assert inst.nu == (xi1, xi2, 1 - xi1 - xi2)
    assert inst.risk(0) == xi1 / 2, "R*(h1) = xi1/2"
    assert inst.risk(1) == xi1 / 2 + xi2, "R*(h2) = xi1/2 + xi2"
    assert inst.disagreement(0, 1) == xi1 + xi2, "rho*(h1, h2) = xi1 + xi2"
    assert inst.best == 0 and inst.best_risk == xi1 / 2
    assert inst.gap(1) == xi2


def test_best_breaks_ties_towards_lowest_index():
    inst = Instance([F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)], [(1, 1), (0, 0), (1, 0)])
    assert inst.risk(0) == inst.risk(1) == inst.risk(2) == F(1, 2)
    assert inst.best == 0


def test_dis_region_of_a_set():
    H = ((0, 0, 1), (0, 1, 1), (0, 1, 0))
    assert disagreement_region(H, [0]) == frozenset()
    assert disagreement_region(H, [0, 1]) == {1}
    assert disagreement_region(H, [0, 1, 2]) == {1, 2}


def _theta_by_dense_grid(inst, r0):
    """Independent check: evaluate the ratio at r0, at every distance, and just above
    and below each, then take the max (the sup cannot exceed it, see the docstring)."""
    best = inst.best
    ds = sorted({inst.disagreement(h, best) for h in range(inst.num_hypotheses)} | {F(1)})
    eps = F(1, 10**9)
    grid = {r0} | {d for d in ds if d >= r0} | {d + eps for d in ds if d + eps >= r0}
    grid |= {d - eps for d in ds if d - eps >= r0} | {r0 + k * F(1, 97) for k in range(200)}

    def ratio(r):
        ball = [h for h in range(inst.num_hypotheses) if inst.disagreement(h, best) <= r]
        mass = sum((inst.nu[x] for x in disagreement_region(inst.hypotheses, ball)), F(0))
        return mass / r

    return max(ratio(r) for r in grid)


def test_disagreement_coefficient_thresholds_by_hand():
    # uniform on 4 points, thresholds; h* = h2 (0011). Ball of radius 1/4 holds h1, h2, h3:
    # they disagree on points 1 and 2, mass 1/2, so theta(1/4) = 2.
    inst = instances.thresholds(4)
    assert inst.best == 2
    assert inst.disagreement_coefficient(F(1, 4)) == 2
    # r0 = 1/8 < every positive distance: the ball is {h*} until r = 1/4, ratio 0 there.
    assert inst.disagreement_coefficient(F(1, 8)) == 2
    assert inst.disagreement_coefficient(F(1)) == 1


@st.composite
def small_instances(draw):
    m = draw(st.integers(1, 5), label="num_points")
    weights = draw(st.lists(st.integers(0, 4), min_size=m, max_size=m), label="nu_weights")
    if sum(weights) == 0:
        weights[0] = 1
    nu = [F(w, sum(weights)) for w in weights]
    eta = draw(st.lists(st.fractions(0, 1, max_denominator=6), min_size=m, max_size=m), label="eta")
    H = draw(st.lists(st.tuples(*[st.integers(0, 1)] * m), min_size=1, max_size=6), label="hypotheses")
    return Instance(nu, eta, H)


@given(inst=small_instances(), r0=st.fractions(F(1, 50), 2, max_denominator=50))
def test_disagreement_coefficient_matches_dense_grid(inst, r0):
    assert inst.disagreement_coefficient(r0) == _theta_by_dense_grid(inst, r0), (inst, r0)


@given(inst=small_instances())
def test_risk_identities(inst):
    best = inst.best
    for h, h2 in combinations(range(inst.num_hypotheses), 2):
        # |R(h) - R(h')| <= rho(h, h') and rho(h, h*) <= R(h) + R* (used in Lemma D.4)
        assert abs(inst.risk(h) - inst.risk(h2)) <= inst.disagreement(h, h2)
    for h in range(inst.num_hypotheses):
        assert inst.gap(h) >= 0
        assert inst.disagreement(h, best) <= inst.risk(h) + inst.best_risk


def test_builtin_families_are_exact_and_distinct():
    th = instances.thresholds(6)
    assert th.num_hypotheses == 7 and len(set(th.hypotheses)) == 7
    assert th.best == 3 and th.best_risk == F(1, 10)
    iv = instances.intervals(5)
    assert len(set(iv.hypotheses)) == iv.num_hypotheses == 1 + 5 * 6 // 2
    assert all(isinstance(v, F) for v in th.nu + th.eta + iv.nu + iv.eta)


def test_instance_json_round_trip():
    inst = instances.intervals(4)
    assert Instance.from_json(inst.to_json()) == inst
