"""reference/bounds.py: the theorems' bounds as functions of an instance."""

from __future__ import annotations

import math
import re
from fractions import Fraction as F

import pytest

import reference as R
from reference import bounds as B
from reference import theorem_constants as K
from tests.support import REPO_ROOT


def _thresholds4():
    # 4 points, nu uniform, h_k = 1[x >= k] for k = 0..4, eta* puts h^* = h_2
    return R.Instance(
        [F(1, 4)] * 4,
        [F(1, 10), F(1, 10), F(9, 10), F(9, 10)],
        [tuple(int(x >= k) for x in range(4)) for k in range(5)],
    )


def _singletons3():
    # 3 points, h_0 = all 0, h_1 = 1 at point 0 only, h_2 = 1 at point 1 only; eta* small: h^* = h_0
    return R.Instance([F(1, 3)] * 3, [F(1, 10), F(1, 5), F(0)], [(0, 0, 0), (1, 0, 0), (0, 1, 0)])


def test_theta_by_hand_thresholds():
    facts = B.Facts.of(_thresholds4())
    assert facts.best == 2 and facts.r_star == F(1, 10)
    # rho(h_k, h_2) = |k - 2|/4. B(h^*, 1/4) = {h_1, h_2, h_3}: Dis = {1, 2}, mass 1/2, ratio 2;
    # B(h^*, 1/2) = H: Dis = X, mass 1, ratio 2. So theta^*(r0) = 2 for r0 <= 1/2, and 1/r0 above.
    assert facts.theta(F(1, 8)) == 2
    assert facts.theta(F(1, 4)) == 2
    assert facts.theta(F(1, 3)) == max(F(1, 2) / F(1, 3), 2)
    assert facts.theta(F(1)) == 1
    assert facts.theta(F(2)) == F(1, 2)
    # Delta_min: h_1 and h_3 each cost 1/4 (9/10 - 1/10) = 1/5
    assert facts.delta_min == F(1, 5)


def test_theta_by_hand_singletons():
    facts = B.Facts.of(_singletons3())
    assert facts.best == 0
    # both others at distance 1/3; the ball of radius 1/3 disagrees on {0, 1}: mass 2/3, ratio 2
    assert facts.theta(F(1, 100)) == 2
    assert facts.theta(F(1, 2)) == F(2, 3) / F(1, 2)
    assert facts.delta_min == F(1, 3) * (1 - 2 * F(1, 5))  # h_2 errs at point 1: eta 1/5 -> 1 - 1/5 vs 1/5


@pytest.mark.parametrize("r0", [F(1, 1000), F(1, 16), F(1, 5), F(1, 3), F(1, 2), F(3, 4), F(1), F(5, 2)])
@pytest.mark.parametrize("make", [_thresholds4, _singletons3])
def test_theta_agrees_with_the_reference(make, r0):
    instance = make()
    assert B.Facts.of(instance).theta(r0) == instance.disagreement_coefficient(r0) == B.theta_star(instance, r0)


def test_theta_float_radius_rounds_down():
    facts = B.Facts.of(_thresholds4())
    # 0.5 is exact; just above 1/2 theta^* is (1)/r < 2, the float path must not go below the exact value
    assert facts.theta(0.5) == 2
    assert facts.theta(0.75) >= facts.instance.disagreement_coefficient(F(3, 4))
    with pytest.raises(ValueError, match="r0"):
        facts.theta(0.0)
    with pytest.raises(ValueError, match="r0"):
        facts.theta(F(-1))


def test_theorem31_by_hand():
    facts = B.Facts.of(_thresholds4())
    n, delta = 1000, F(1, 10)
    l = math.log(5 / 0.1) / n
    r = 0.1
    for c_total, form, last in ((0, "printed", 5.0), (100, "corrected", 2 + 2 * math.sqrt(2))):
        c = c_total / n
        expected = l + math.sqrt(8 * r * l) + 8 * c * r + last * l / (1 - 4 * c) ** 2
        bound = B.thm31_excess_risk(facts, n, delta, c_total, form)
        assert bound.value == pytest.approx(expected, rel=1e-12)
        assert bound.covered and bound.probability == pytest.approx(0.9)
    # corrected is below printed (2 + 2 sqrt 2 < 5), by exactly (5 - 2 - 2 sqrt 2) l / (1 - 4c)^2
    gap = B.thm31_excess_risk(facts, n, delta, 0, "printed").value - B.thm31_excess_risk(facts, n, delta, 0).value
    assert gap == pytest.approx((3 - 2 * math.sqrt(2)) * l, rel=1e-9)
    # n/8 < C < n/4: not decided; C >= n/4: outside the formula
    assert not B.thm31_excess_risk(facts, n, delta, 200).covered
    assert B.thm31_excess_risk(facts, n, delta, 250).value == math.inf


def test_theorem41_epsilon_solves_the_sample_size():
    facts = B.Facts.of(_thresholds4())
    n, delta = 10**6, F(1, 10)
    eps = B.thm41_epsilon(facts, n, delta)
    beta = B.robust_cal_beta(5, n, delta)
    assert n == pytest.approx((8 * 0.1 / eps**2 + 22 / eps) * beta, rel=1e-9)
    printed = B.thm41_excess_risk(facts, n, delta, 0, True, "printed").value
    corrected = B.thm41_excess_risk(facts, n, delta, 0, True, "corrected").value
    # at C = 0 the corrected bound is the printed eps: the statement's constant is 1 on the theorem's event at
    # n = 2^k or C_[0,n] <= n/8 (corrected.thm41.accuracy_event); 5/4 is only the route through Lemma C.1 (F8)
    assert corrected == pytest.approx(printed, rel=1e-12)


def test_theorem41_corrected_covers_only_checkpoints_or_a_budget_at_n():
    """FINDINGS F19: off a checkpoint, corruption after the last checkpoint is unconstrained."""
    facts = B.Facts.of(_thresholds4())
    delta = F(1, 10)
    assert B.thm41_excess_risk(facts, 2**13, delta, 2**13 // 2, True, "corrected").covered
    assert B.thm41_excess_risk(facts, 2**13 - 1, delta, 1000, True, "corrected").covered
    off = B.thm41_excess_risk(facts, 2**13 - 1, delta, 4607, True, "corrected")
    assert not off.covered and "F19" in off.note
    assert B.thm41_excess_risk(facts, 2**13 - 1, delta, 4607, True, "printed").covered


def test_theorem41_delta_effective_is_the_harmonic_sum():
    # n = 2^3: checkpoints 2, 4, 8: delta (1 + 1/2 + 1/3) (F7)
    assert B.thm41_delta_effective(8, F(1, 100)) == pytest.approx(0.01 * (1 + 1 / 2 + 1 / 3))


def test_theorem41_label_bound_constant():
    facts = B.Facts.of(_thresholds4())
    n, delta = 4096, F(1, 10)
    beta = B.robust_cal_beta(5, n, delta)
    theta = float(facts.theta(14 * 0.1 + 120 * beta / n))
    corrected = B.thm41_labels(facts, n, delta, True)
    assert corrected.value == pytest.approx(2 + 604.8 * theta * beta * (0.1 * n + 12), rel=1e-12)


def test_checkpoint_budget():
    instance = _thresholds4()
    against = [1 - e for e in instance.eta]
    # c_t = gamma * 4/5; gamma = 5/32 gives 1/8 exactly: allowed; above it: not
    assert B.checkpoint_budget_ok(instance, R.adversary.misspecification(F(5, 32), against, 64))
    assert not B.checkpoint_budget_ok(instance, R.adversary.misspecification(F(6, 32), against, 64))
    # an early burst spends 4/5 per round at t = 2: over t/8
    assert not B.checkpoint_budget_ok(instance, R.adversary.early_burst(against, 8, 64))


def test_corruption_bar_by_hand():
    instance = _thresholds4()
    params = R.Params.scaled(n=64 + 256, num_hypotheses=5, delta=F(1, 10))  # beta1 = 16: epochs of 64 and 256
    assert B.epochs(params, 320) == [(1, 1, 64), (2, 65, 320)]
    burst = R.adversary.early_burst([1 - e for e in instance.eta], 10, 320)  # c_t = 4/5 for t <= 10
    bar, plain, small = B.corruption_bar(instance, burst, params)
    # epoch 1: C_1 = 8, C_1/N_1 = 1/8 > 1/32: weight 1; epoch 2: clean
    assert (bar, plain, small) == (F(8), F(8), False)
    spread = R.adversary.misspecification(F(1, 40), [1 - e for e in instance.eta], 320)  # c_t = 1/50 <= 1/32
    bar, plain, small = B.corruption_bar(instance, spread, params)
    assert plain == F(320, 50) and bar == plain * F(1, 10) and small


def test_bad_input_names_the_field():
    facts = B.Facts.of(_thresholds4())
    with pytest.raises(ValueError, match="delta"):
        B.thm31_excess_risk(facts, 100, F(3, 2), 0)
    with pytest.raises(ValueError, match="c_total"):
        B.thm31_excess_risk(facts, 100, F(1, 10), 101)
    with pytest.raises(ValueError, match="form"):
        B.thm31_excess_risk(facts, 100, F(1, 10), 0, "lemma")
    with pytest.raises(ValueError, match="instance"):
        B.Facts.of("not an instance")


ERRATA = REPO_ROOT / "ERRATA.md"


@pytest.mark.parametrize(
    "step, value",
    [
        ("corrected.thm31.sharp_bound", K.THM31_LAST_TERM),
        ("corrected.thm31.implies", K.THM31_IMPLIES_EPS),
        ("corrected.thm41.accuracy", K.THM41_ACCURACY_EPS),
        ("corrected.thm41.labels.sum", K.THM41_LABELS),
        ("corrected.thm51.accuracy", K.THM51_ACCURACY_CORRUPTION),
        ("corrected.lemma51.split_ratio", K.BETA1_OVER_BETA3_SHARP),
    ],
)
def test_sharp_constants_lie_in_errata_intervals(step, value):
    """Each SHARP constant of reference/theorem_constants.py lies in the bisection interval ERRATA.md
    prints for its step: (refuted at a, proved at b]. A bisection that moves fails this test."""
    text = ERRATA.read_text()
    found = re.search(r"refuted at (\d+)/(\d+), proved at (\d+)/(\d+)\) \(`" + re.escape(step) + "`\\)", text)
    assert found, f"ERRATA.md has no interval for {step}"
    refuted = F(int(found[1]), int(found[2]))
    proved = F(int(found[3]), int(found[4]))
    upper = value.upper() if isinstance(value, K.Surd) else F(value)
    lower = upper - F(2, 10**12) if isinstance(value, K.Surd) else F(value)
    assert refuted < lower and upper <= proved + F(2, 10**12), (step, float(refuted), float(upper), float(proved))
