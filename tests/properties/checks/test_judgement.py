"""The judgement of float candidates (properties/checks/judgement.py).

* The derived bounds hold: for drawn inputs, the paper's formulas evaluated in numpy
  float64 and float32 (in several orders, where a sum is involved) land within the
  bound the judgement derives, and the bound is not a fudge (a few ulps of the value for
  these formulas).
* Coins: a coin that is not a number of the format and lies within one ulp of q may go
  either way for a float candidate, never for an exact one, never when the coin is a
  number of the format.
* Item 3, the boundary-coin false alarm: on a boundary tape whose coin is exactly the
  non-dyadic q = 5/48, the reference and a float program that compares float(u) < q
  request 12 labels, fast (exact coin against its double q, which lies above 5/48) 13.
  The exact judgement of the float program expected 13: the judge compared the exact
  coin with the candidate's rounded q, while the program rounds the coin too. Both
  float decisions are accepted now; the exact candidate is still held exactly, and a
  float candidate that queries on u_t <= q is still caught where the coin is a double.
* Epoch lengths: with beta1 = 7/3 or ln 3 (N_l not an integer) a float candidate that
  rounds N_l instead of taking its ceiling is caught by the schedule check.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference
from properties import strategies as S
from properties.checks.boundary import check_calruption_on_boundary_tapes
from properties.checks.calruption import _importance_weight_violations, check_calruption_epoch_schedule
from properties.checks.formulas import catoni_alpha_bounded, risk_under_fit, robust_cal_beta, robust_cal_threshold
from properties.checks.judgement import Judgement, judging
from properties.core.case import Case
from reference.certified import ScaledLog

FLOATS = {"float64": np.float64, "float32": np.float32}
DRAWN = settings(max_examples=60, deadline=None, database=None, derandomize=True)
counts = st.integers(0, 2**20)
positive = st.integers(1, 2**20)
probability = st.fractions(0, 1, max_denominator=10**6)


def _within(J, value, bounded):
    assert bounded.accepts(F(float(value))), (J.arithmetic, float(value), bounded)


@DRAWN
@given(arithmetic=st.sampled_from(sorted(FLOATS)), k=counts, n=positive)
def test_a_count_ratio_is_within_its_bound(arithmetic, k, n):
    J, f = Judgement(arithmetic), FLOATS[arithmetic]
    bounded = J.ratio(k, n)
    _within(J, f(k) / f(n), bounded)
    assert bounded.err <= J.u * abs(F(k, n)) * 4  # one rounding (counted twice), not a fudge


@DRAWN
@given(
    arithmetic=st.sampled_from(sorted(FLOATS)),
    t_exp=st.integers(1, 40),
    h=st.integers(1, 64),
    delta=st.sampled_from(S.DELTA_CHOICES),
    scale=st.sampled_from([F(1, 16), F(1, 4), F(1)]),
    count=counts,
    vanilla=st.booleans(),
)
def test_robust_cal_threshold_is_within_its_bound(arithmetic, t_exp, h, delta, scale, count, vanilla):
    """Algorithm 1, lines 9-10, evaluated in the format as a float program writes it."""
    J, f = Judgement(arithmetic), FLOATS[arithmetic]
    t = 2**t_exp
    count = min(count, t)
    params = reference.Params.scaled(10, h, delta, scale)
    beta_b = robust_cal_beta(J, params, t)
    beta = f(float(scale)) * f(math.log(f(3 * t_exp * h * h) / f(float(delta))))
    _within(J, beta, beta_b)
    rho = f(count) / f(t)
    threshold = f(math.sqrt(f(2) * beta * rho / f(t))) + f(3) * beta / f(2 * t)
    if not vanilla:
        threshold = threshold + rho / f(2)
    bounded = robust_cal_threshold(J, beta_b, J.ratio(count, t), t, vanilla)
    _within(J, threshold, bounded)
    assert bounded.err <= 128 * J.u * bounded.magnitude


@DRAWN
@given(arithmetic=st.sampled_from(sorted(FLOATS)), data=st.data())
def test_risk_hat_in_any_summation_order_is_within_its_bound(arithmetic, data):
    """R_D(h) = sum p^_x (eta^_x or 1 - eta^_x) (Algorithm 2, line 10's risk), summed
    forwards, backwards and pairwise (numpy), from the double inputs."""
    J, f = Judgement(arithmetic), FLOATS[arithmetic]
    k = data.draw(st.integers(1, 40), label="support_size")
    p = [f(float(v)) for v in data.draw(st.lists(probability, min_size=k, max_size=k), label="p")]
    eta = [f(float(v)) for v in data.draw(st.lists(probability, min_size=k, max_size=k), label="eta")]
    labels = data.draw(st.lists(st.integers(0, 1), min_size=k, max_size=k), label="h")
    terms = [pi * ((f(1) - e) if lab == 1 else e) for pi, e, lab in zip(p, eta, labels)]

    class Record:
        support = tuple(range(k))
        eta_hat = tuple(F(float(e)) for e in eta)
        empirical_x = tuple(F(float(v)) for v in p)

    bounded = risk_under_fit(J, labels, Record)
    forward, backward = f(0), f(0)
    for term in terms:
        forward = forward + term
    for term in reversed(terms):
        backward = backward + term
    for value in (forward, backward, np.sum(np.array(terms, dtype=f))):
        _within(J, value, bounded)


@DRAWN
@given(
    arithmetic=st.sampled_from(sorted(FLOATS)),
    length=st.integers(1, 10**6),
    mq=probability.filter(bool),
    rho=probability.filter(bool),
    beta3=st.sampled_from([None, F(1, 2), F(8)]),
)
def test_alpha_is_within_its_bound(arithmetic, length, mq, rho, beta3):
    """Catoni's alpha = sqrt(2 beta3 min q / (5 |I_l| rho^)) (Algorithm 2, line 8)."""
    J, f = Judgement(arithmetic), FLOATS[arithmetic]
    params = reference.Params.scaled(100, 3, F(1, 10), beta3=beta3)
    mq, rho = F(float(f(float(mq)))), F(float(f(float(rho))))  # the candidate's own doubles
    c = params.beta3
    b3 = f(float(c.value)) if hasattr(c, "value") else f(float(c.coefficient)) * f(math.log(f(float(c.argument))))
    alpha = f(math.sqrt(f(2) * b3 * f(float(mq)) / (f(5) * f(length) * f(float(rho)))))
    _within(J, alpha, catoni_alpha_bounded(J, params, length, mq, rho))


def test_the_exact_judgement_has_no_slack():
    J = Judgement("exact")
    assert J.u == 0 and J.ratio(1, 3).err == 0 and not J.undecided(J.value(0))
    assert J.ratio(1, 3).accepts(F(1, 3)) and not J.ratio(1, 3).accepts(F(float(1 / 3)))
    with pytest.raises(ValueError, match="arithmetic"):
        Judgement("float16")


@pytest.mark.parametrize("arithmetic", ["float64", "float32"])
def test_a_coin_is_undecided_only_within_an_ulp_of_a_coin_the_format_cannot_hold(arithmetic):
    J, f = Judgement(arithmetic), FLOATS[arithmetic]
    u = F(5, 48)
    q = F(float(f(float(u))))  # the candidate's q nearest 5/48
    assert J.coin_undecided(u, q)
    assert not J.coin_undecided(u, q * 2)  # far from the coin
    assert not J.coin_undecided(F(1, 4), F(1, 4))  # a coin of the format: u < q exactly, a tie is no query
    assert not Judgement("exact").coin_undecided(u, q)


# -- item 3: the boundary-coin false alarm ---------------------------------------------------
CASES = Path(__file__).resolve().parent / "cases"


def _boundary_coin_case():
    """The case Hypothesis's `find` gave for "fast and a float-coin program request
    different labels" over calruption_boundary_cases (shrunk; family odd_epochs,
    beta1 = 3, 13 rounds): the coin of the last round is set to the exact q_2 = 5/48 of
    its point."""
    return S.CraftedCase.from_json(json.loads((CASES / "boundary_coin.json").read_text()))


def test_the_boundary_coin_no_longer_raises_a_false_alarm():
    import fast
    import teeth.legit.float_coins as float_coins

    case = _boundary_coin_case()
    H = case.instance.hypotheses
    exact = reference.calruption(H, case.tape, case.params)
    by_fast = fast.calruption(H, case.tape, case.params)
    by_float_coins = float_coins.calruption(H, case.tape, case.params)
    # the reference: u = q is not a query; fast: u < its double q above 5/48; the float
    # program: float(u) == its q, no query
    assert F(5, 48) in case.tape.u and F(float(F(5, 48))) > F(5, 48)
    assert (exact.labels_requested, by_fast.labels_requested, by_float_coins.labels_requested) == (12, 13, 12)
    name = "check_calruption_importance_weights_unbiased"
    for trace in (by_fast, by_float_coins):
        with judging("float64"):
            assert _importance_weight_violations(name, case, trace) == []
            assert check_calruption_on_boundary_tapes(case, trace) == []
    # judged exactly (the coin against the candidate's double q) the float program is
    # rejected: the false alarm that judging by derived bounds avoids
    assert _importance_weight_violations(name, case, by_float_coins)
    assert _importance_weight_violations(name, case, exact) == []  # the exact candidate is held exactly


def test_a_float_candidate_querying_on_ties_is_still_caught(monkeypatch):
    """u_t <= q instead of u_t < q (Algorithm 2, line 4): on a boundary tape with a coin
    that is a double (dyadic q: beta1 in {1, 2, 4}) a tie is no query for any arithmetic."""
    import teeth.legit.float_coins as float_coins
    from tests.support.sampling import reach

    monkeypatch.setattr(float_coins, "LESS_EQUAL", True)

    def caught(case):
        if S.beta1_of(case.params) == 3:
            return False
        trace = float_coins.calruption(case.instance.hypotheses, case.tape, case.params)
        with judging("float64"):
            return bool(_importance_weight_violations("c", case, trace))

    # one catching tape is the claim: the first of the fixed-seed draws, not shrunk
    reach(S.calruption_boundary_cases(), caught, count=200)


@pytest.mark.parametrize("beta1", [F(7, 3), ScaledLog(F(1), F(3))], ids=["7/3", "ln 3"])
def test_epoch_lengths_rounded_instead_of_ceiled_are_caught(beta1):
    """|I_l| = ceil(beta1 4^l) (line 1, R10): round(beta1 4^l) is another schedule where
    N_l is not an integer; the float judgement accepts only ceilings within N_l's bound."""
    import fast

    instance = reference.Instance([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)], [(0, 0), (0, 1), (1, 1)])
    n = 120
    case = Case(instance, reference.adversary.clean(n), 5, reference.Params.scaled(n, 3, F(1, 10), F(1, 4), beta1))
    trace = fast.calruption(instance.hypotheses, case.tape, case.params)
    with judging("float64"):
        assert check_calruption_epoch_schedule(case, trace) == []
    lengths = [e.length for e in trace.epochs]
    rounded = [
        round(float(beta1.enclosure(64).lo if isinstance(beta1, ScaledLog) else beta1) * 4**l)
        for l in range(1, len(lengths) + 1)
    ]
    assert rounded != lengths
    tau, epochs = 1, []
    for e, length in zip(trace.epochs, rounded):
        epochs.append(replace(e, tau=tau, length=length))
        tau += length
    with judging("float64"):
        assert check_calruption_epoch_schedule(case, replace(trace, epochs=tuple(epochs)))


@DRAWN
@given(
    arithmetic=st.sampled_from(sorted(FLOATS)),
    t_exp=st.integers(1, 40),
    h=st.integers(1, 64),
    delta=st.sampled_from(S.DELTA_CHOICES),
    seen=st.lists(st.integers(0, 2**12), min_size=1, max_size=30),
)
def test_another_evaluation_order_is_within_the_bound(arithmetic, t_exp, h, delta, seen):
    """A correct program may evaluate the same formula otherwise: beta_t as
    ln(3 k |H|^2) - ln(delta), rho^ as the sum of the rounded marginals seen[x] / t."""
    J, f = Judgement(arithmetic), FLOATS[arithmetic]
    params = reference.Params.scaled(10, h, delta, F(1, 4))
    t = 2**t_exp
    beta = f(0.25) * (f(math.log(f(3 * t_exp * h * h))) - f(math.log(f(float(delta)))))
    _within(J, beta, robust_cal_beta(J, params, t))
    total = sum(seen) or 1
    marginal_sum = f(0)
    for s in seen:
        marginal_sum = marginal_sum + f(s) / f(total)
    _within(J, marginal_sum, J.ratio(sum(seen), total, terms=sum(1 for s in seen if s)))
