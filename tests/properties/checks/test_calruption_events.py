"""Meta-tests of properties/checks/calruption_events.py (CALruption's events, lemmas and
Theorem 5.1 on their events; condition (1)'s frequency):

* the event deciders are right on hand-made cases, and agree with a 60-digit evaluation
  on generated runs; the exact truth of an epoch (R^_l, R-bar_l, C_l) matches a
  round-by-round recomputation;
* its strategies (in properties/strategies/) produce valid inputs, and a good share of
  their examples meets each check's premises (otherwise a check would be vacuous);
* every check can fail: a fake implementation (the reference with one field of its
  trace or epoch record broken) breaks the conclusion while the events still hold;
* the counter-examples to the paper's statements the checks found (their findings) are
  verified exactly here, independently of the check code where that is simple.
"""

from __future__ import annotations

import dataclasses
import math
import types
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import Phase, settings

import reference as R
from properties import strategies as S
from properties.checks import calruption_events as E
from properties.checks import calruption_one_epoch as O
from properties.checks import calruption_truth as T
from properties.core import epochs
from properties.judge.load import load_impl
from properties.run.runner import FAILED, XFAIL, run_check
from reference.calruption import calruption_epoch
from reference.certified import Enclosure, Rational, ScaledLog, certified_ceil
from tests.support.sampling import sample

CHECKS = {check.name: check for check in E.CHECKS}
REFERENCE = load_impl("reference")


def shim(calruption=None, calruption_epoch_=None):
    """The reference's public names plus its epoch update, with replacements."""
    return types.SimpleNamespace(
        passive=R.passive,
        robust_cal=R.robust_cal,
        catoni_root=R.catoni_root,
        calruption=calruption or R.calruption,
        calruption_epoch=calruption_epoch_ or calruption_epoch,
    )


def mutate_epochs(change):
    """A fake `calruption`: the reference's trace with every epoch record passed through
    `change(record) -> record`."""

    def run(H, tape, params):
        trace = R.calruption(H, tape, params)
        return dataclasses.replace(trace, epochs=tuple(change(e) for e in trace.epochs))

    return run


def mutate_epoch_update(change):
    def update(H, state, counts, params):
        record, nxt = calruption_epoch(H, state, counts, params)
        return change(record), nxt

    return update


def flip_fit(record):
    """D^'s eta^ -> 1 - eta^ on the support (the fit is no longer optimal)."""
    return dataclasses.replace(record, eta_hat=tuple(None if e is None else 1 - e for e in record.eta_hat))


def gaps_to_one(record):
    return dataclasses.replace(record, gap_hat=(F(1),) * len(record.gap_hat))


def everyone_in_every_layer(record):
    everyone = tuple(range(len(record.gap_hat)))
    return dataclasses.replace(record, layers=(everyone,) * len(record.layers))


# =====================================================================================
# deciders
# =====================================================================================
def test_le_sqrt_lin_is_exact_at_rational_boundaries():
    four = Rational(F(4))
    assert T.le_sqrt_lin(F(2), F(1), F(0), four) is True  # 2 <= sqrt(4)
    assert T.le_sqrt_lin(F(2) + F(1, 10**30), F(1), F(0), four) is False
    assert T.le_sqrt_lin(F(3), F(1), F(1, 4), four) is True  # 3 <= 2 + 1
    assert T.le_sqrt_lin(F(3) + F(1, 10**30), F(1), F(1, 4), four) is False
    assert T.le_sqrt_lin(F(-1), F(0), F(0), four) is True


def test_le_sqrt_lin_is_certified_for_logs():
    mpmath.mp.dps = 60
    ln2 = ScaledLog(F(1), F(2))
    root = mpmath.sqrt(mpmath.log(2))
    below = F(int(root * 10**40), 10**40)  # within 10^-40 below sqrt(ln 2)
    assert T.le_sqrt_lin(below, F(1), F(0), ln2) is True
    assert T.le_sqrt_lin(below + F(2, 10**40), F(1), F(0), ln2) is False


def _truth(H, seen, length, risk_hat, risk_bar=None, corruption=F(0), l=1):
    risk_bar = risk_bar if risk_bar is not None else risk_hat
    return T.EpochTruth(
        l, length, tuple(seen), epochs.rho_matrix(H, seen, length), tuple(risk_hat), tuple(risk_bar), corruption
    )


def _W(num_h, values):
    """A W matrix from {(h, h'): enclosure} (antisymmetric), 0 on the diagonal."""
    W = [[Enclosure.point(0)] * num_h for _ in range(num_h)]
    for (h, h2), w in values.items():
        W[h][h2] = w
        W[h2][h] = Enclosure(-w.hi, -w.lo)
    return W


def test_e_gap_decider_on_hand_made_epochs():
    # x0 disputed, seen 8 of 16 rounds: rho^ = 1/2, q = 1, beta3 = 1: width sqrt(10 (1/2)/16) = sqrt(5)/4 ~ 0.559
    H = ((0, 1), (1, 1))
    truth = _truth(H, (8, 8), 16, (F(1, 4), F(1, 2)))  # R^ diff = -1/4
    q = (F(1), F(1))
    beta3 = Rational(F(1))
    inside = Enclosure.point(F(-1, 4) + F(1, 2))
    outside = Enclosure.point(F(-1, 4) + F(3, 5))
    straddling = Enclosure(F(-1, 4) + F(1, 2), F(-1, 4) + F(3, 5))
    assert T.e_gap_epoch(H, truth, q, _W(2, {(0, 1): inside}), beta3) is None
    assert T.e_gap_epoch(H, truth, q, _W(2, {(0, 1): outside}), beta3) is not None
    assert T.e_gap_epoch(H, truth, q, _W(2, {(0, 1): straddling}), beta3) is not None  # every W in the enclosure
    # the boundary itself: |d| = sqrt(5)/4 is irrational, so pick beta3 making the width rational: 10 b/32 = 1/4
    exact = Rational(F(4, 5))  # width sqrt(10 (4/5) (1/2) / 16) = 1/2
    assert T.e_gap_epoch(H, truth, q, _W(2, {(0, 1): inside}), exact) is None
    assert T.e_gap_epoch(H, truth, q, _W(2, {(0, 1): Enclosure.point(F(1, 4) + F(1, 10**20))}), exact) is not None
    # min q = 0 on the seen disputed point: condition (1) is vacuous (R11), even with no W
    assert T.e_gap_epoch(H, truth, (F(0), F(1)), _W(2, {(0, 1): Enclosure.point(100)}), beta3) is None
    W_none = [[Enclosure.point(0), None], [None, Enclosure.point(0)]]
    assert T.e_gap_epoch(H, truth, (F(0), F(1)), W_none, beta3) is None
    assert T.e_gap_epoch(H, truth, q, W_none, beta3) is not None
    # a pair that agrees on the epoch: W must be exactly 0
    H2 = ((0, 1), (0, 1))
    truth2 = _truth(H2, (8, 8), 16, (F(1, 4), F(1, 4)))
    assert T.e_gap_epoch(H2, truth2, q, _W(2, {}), beta3) is None
    assert T.e_gap_epoch(H2, truth2, q, _W(2, {(0, 1): Enclosure(F(0), F(1, 2**70))}), beta3) is not None


def test_e_dis_deciders_distinguish_the_two_events():
    # rho* = 1/2, rho^ = 3/4 on 16 rounds, beta3 = 1:
    # E_dis1: 1/4 <= sqrt(3/4 / 16) + 1/16 ~ 0.279 holds; E_dis2: 1/4 <= sqrt(1/2 / 16) + 1/16 ~ 0.239 fails
    instance = R.Instance([F(1, 2), F(1, 2)], [F(0), F(0)], [(0, 0), (1, 0)])
    truth = _truth(instance.hypotheses, (12, 4), 16, (F(0), F(3, 4)))
    assert T.e_dis_epoch(instance, truth, Rational(F(1)), 1) is None
    assert T.e_dis_epoch(instance, truth, Rational(F(1)), 2) is not None
    # an exact boundary: rho* = 1/4, N = 16, beta3 = 1: E_dis2's width is sqrt(1/64) + 1/16 = 3/16
    quarter = R.Instance([F(1, 4), F(3, 4)], [F(0), F(0)], [(0, 0), (1, 0)])
    at = _truth(quarter.hypotheses, (7, 9), 16, (F(0), F(7, 16)))  # |7/16 - 1/4| = 3/16: holds (<=)
    beyond = _truth(quarter.hypotheses, (8, 8), 16, (F(0), F(1, 2)))  # 1/4 > 3/16
    assert T.e_dis_epoch(quarter, at, Rational(F(1)), 2) is None
    assert T.e_dis_epoch(quarter, beyond, Rational(F(1)), 2) is not None


def test_e_bern_decider():
    H = ((0, 1), (1, 1))
    beta3 = Rational(F(1, 4))  # 2 sqrt(beta3/16) = 1/4
    holds = _truth(H, (8, 8), 16, (F(0), F(1, 4)), risk_bar=(F(0), F(1, 2)))  # |(-1/4) - (-1/2)| = 1/4
    fails = _truth(H, (8, 8), 16, (F(0), F(1, 4)), risk_bar=(F(0), F(1, 2) + F(1, 10**20)))
    assert T.e_bern_epoch(H, holds, beta3) is None
    assert T.e_bern_epoch(H, fails, beta3) is not None


def test_paper_premises():
    assert T.paper_premises(R.Params.paper(1000, 3, F(1, 10))) is None
    assert T.paper_premises(R.Params.scaled(1000, 3)) is not None  # beta1 = 16 < 20480 beta3
    assert T.paper_premises(R.Params.scaled(1000, 3, F(1, 10), F(1, 4), 4, F(5, 32), F(4, 20480))) is None
    assert T.paper_premises(R.Params.scaled(1000, 3, F(1, 10), F(1, 4), 4, F(5, 32), F(4, 20479))) is not None
    assert T.paper_premises(R.Params.scaled(1000, 3, F(1, 10), F(1, 4), 4, F(1, 8), F(4, 20480))) is not None


def test_truth_on_tape_matches_a_round_by_round_recomputation():
    for case in sample(S.any_regime_cases(), 12):
        instance, adversary, tape = case.instance, case.adversary, case.tape
        H, nu = instance.hypotheses, instance.nu
        for l, tau, length in T.schedule(case.params, tape.n):
            truth = T.truth_on_tape(instance, adversary, tape, l, tau, length)
            hat, bar, C = [F(0)] * len(H), [F(0)] * len(H), F(0)
            for t in range(tau, tau + length):
                eta_t = adversary.eta(instance, t)
                C += adversary.corruption(instance, t)
                x = tape.x[t - 1]
                for h, labels in enumerate(H):
                    hat[h] += (1 - eta_t[x]) if labels[x] == 1 else eta_t[x]
                    bar[h] += sum(p * ((1 - e) if a == 1 else e) for p, e, a in zip(nu, eta_t, labels))
            assert truth.risk_hat == tuple(v / length for v in hat)
            assert truth.risk_bar == tuple(v / length for v in bar)
            assert truth.corruption == C
            assert sum(truth.seen) == length


def _condition_1_mp(H, truth, q, W, beta3, dps=60):
    """Condition (1) for every pair, evaluated with 60 digits (None when within 10^-40)."""
    mpmath.mp.dps = dps
    b3 = (
        mpmath.mpf(beta3.coefficient.numerator)
        / beta3.coefficient.denominator
        * mpmath.log(mpmath.mpf(beta3.argument.numerator) / beta3.argument.denominator)
    )
    verdict = True
    for h in range(len(H)):
        for h2 in range(len(H)):
            if h == h2:
                continue
            rho = truth.rho_hat[h][h2]
            w = W[h][h2]
            if rho == 0:
                verdict &= w is not None and w.lo == 0 == w.hi
                continue
            mq = T.min_q(H, q, truth.support, h, h2)
            if mq == 0:
                continue
            if w is None:
                return False
            diff = truth.risk_hat[h] - truth.risk_hat[h2]
            d = max(abs(diff - w.lo), abs(diff - w.hi))
            width = mpmath.sqrt(
                10
                * b3
                * mpmath.mpf(rho.numerator)
                / rho.denominator
                / (truth.length * mpmath.mpf(mq.numerator) / mq.denominator)
            )
            gap = width - mpmath.mpf(d.numerator) / d.denominator
            if abs(gap) < mpmath.mpf(10) ** -40:
                return None
            verdict &= gap > 0
    return verdict


def test_e_gap_agrees_with_a_high_precision_evaluation():
    decided = {True: 0, False: 0}
    for case in sample(S.scaled_regime_cases(), 25):
        view = T.run_view("meta", REFERENCE, case)
        H = case.instance.hypotheses
        for rec, truth in zip(view.records, view.truths):
            expected = _condition_1_mp(H, truth, rec.q, rec.W, case.params.beta3)
            if expected is None:
                continue
            got = T.e_gap_epoch(H, truth, rec.q, rec.W, case.params.beta3) is None
            assert got == expected
            decided[got] += 1
    assert decided[True] > 0


def test_g_and_c_bar_on_a_hand_computed_case():
    # beta1 = 1: epochs of 4, 16, 64 rounds; c = 1 on epoch 1 (C_1 = 4), c = 1/8 on epoch 2 (C_2 = 2), then clean
    case = S.finding_f6_final_step_case()  # n = 330, beta1 = 1
    # both corruptions are heavy (2C/N = 2 and 1/4 > 1/16): g_3 = (2/64)(4 + 2) = 3/16
    assert E._case_g(case, 3) == F(3, 16)
    # C-bar over epochs 1..floor(log4 330) = 4 (epoch 4 = rounds 85..340, clean): 4 + 2
    assert E.c_bar_total(case) == 6
    assert epochs.g_weight(F(1), 64, F(1, 3)) == F(2, 3)  # light: 2C/N = 1/32 <= 1/16 -> 2R*
    assert epochs.g_weight(F(3), 64, F(1, 3)) == 3  # heavy


# =====================================================================================
# strategies
# =====================================================================================
def test_one_epoch_cases_are_valid_and_meet_the_previous_epoch_hypotheses():
    for ex in sample(S.one_epoch_cases(regimes=("paper", "scaled")), 40):
        s, counts, instance, params = ex.state, ex.counts, ex.instance, ex.params
        H, m, l = instance.hypotheses, instance.num_points, s.l
        lengths = [certified_ceil(params.beta1, 4**i) for i in range(1, l + 1)]
        assert s.length == lengths[-1] and s.tau == 1 + sum(lengths[:-1]) and s.tau + s.length - 1 <= params.n
        assert sum(counts.seen) == s.length
        assert all(counts.seen[x] == 0 for x in range(m) if instance.nu[x] == 0)
        for x in range(m):
            a, b = counts.queried[x]
            assert 0 <= a and 0 <= b and a + b <= counts.seen[x]
            if s.q[x] == 0:
                assert a + b == 0
            if s.q[x] == 1:
                assert a + b == counts.seen[x]
            if ex.epoch_eta[x] == 0:
                assert b == 0
            if ex.epoch_eta[x] == 1:
                assert a == 0
        if l == 1:
            assert s.q == (1,) * m and s.gap_hat == (0,) * len(H) and ex.prev_seen == ()
        else:
            assert sum(ex.prev_seen) == lengths[-2]
            rho_prev = epochs.rho_matrix(H, ex.prev_seen, lengths[-2])
            assert s.q == S.line13_q(H, rho_prev, s.gap_hat, l)
            assert all(q <= F(1, 4) for q in s.q)
            assert min(s.gap_hat) == epochs.eps(l - 1) and max(s.gap_hat) <= 1
        g_prev, _ = O.one_epoch_gs(ex, T.truth_of_one_epoch(ex))
        assert O.previous_hypotheses(ex, g_prev) is None
        assert S.OneEpochCase.from_json(ex.to_json()) == ex
        calruption_epoch(H, s, counts, params)  # the reference accepts the state


def test_crafted_tapes_have_positive_probability_and_balanced_coins():
    for case in sample(S.crafted_tape_cases(), 25):
        instance, adversary, tape, params = case.instance, case.adversary, case.tape, case.params
        assert T.paper_premises(params) is None
        for t, (x, y, u) in enumerate(zip(tape.x, tape.y, tape.u), start=1):
            assert instance.nu[x] > 0 and 0 <= u < 1
            assert adversary.eta(instance, t)[x] == y  # deterministic labels
        for _, tau, length in T.schedule(params, tape.n):
            for point in set(tape.x[tau - 1 : tau - 1 + length]):
                coins = [
                    u
                    for x, u in zip(tape.x[tau - 1 : tau - 1 + length], tape.u[tau - 1 : tau - 1 + length])
                    if x == point
                ]
                M = len(coins)
                for k in range(M + 1):  # q = k/M: exactly k coins below it
                    assert sum(u < F(k, M) for u in coins) == k
        assert S.CraftedCase.from_json(case.to_json()) == case


def _nontrivial(case) -> bool:
    """The run reached epoch 2 with a pair that condition (1) actually constrains."""
    view = T.run_view("meta", REFERENCE, case)
    H = case.instance.hypotheses
    for rec, truth in list(zip(view.records, view.truths))[1:]:
        for h, h2 in T._pairs(len(H)):
            if truth.rho_hat[h][h2] > 0 and T.min_q(H, rec.q, truth.support, h, h2):
                return True
    return False


# (check, minimal share of examples meeting the premises, minimal share that is also non-trivial)
PREMISE_SHARES = {  # measured (40 examples): 60-100% meet the premises, ~40% also non-trivially
    "check_calruption_fit_error_on_event": (0.8, 0.3),
    "check_calruption_estimation_lemma": (0.6, 0.25),
    "check_calruption_estimation_lemma_corrected": (0.6, 0.2),
    "check_calruption_gap_bounds_lemma_51": (0.6, 0.25),
    # E_bern with beta3 ~ 10^-4 needs the epoch's x-counts to reproduce R-bar exactly: rarely
    # non-trivial on full runs (the one-epoch version, with the paper's constants, carries it).
    # Measured on 400 draws: premises hold on 217 (54%), non-trivially on 47 (12%); 40 draws
    # fall below those shares as often as above, so the bars sit under them (at least one
    # non-trivial draw of 40). Derandomised draws move whenever the project's code changes:
    # Hypothesis draws ~5% of its integers from the constants of the local modules imported.
    "check_calruption_gap_bounds_lemma_51_with_sampling_events": (0.35, 0.025),
    "check_calruption_layer_disagreement_bound": (0.6, 0.25),
    "check_calruption_layer_disagreement_bound_from_lower_bound": (0.8, 0.3),
    "check_calruption_correctness_theorem_51": (0.6, 0.25),
    "check_calruption_correctness_from_lower_bound": (0.8, 0.3),
    "check_calruption_estimation_lemma_one_epoch": (0.8, None),
    "check_calruption_fit_error_one_epoch": (0.8, None),
    "check_calruption_estimation_lemma_corrected_one_epoch": (0.8, None),
    "check_calruption_gap_bounds_one_epoch": (0.8, None),
    "check_calruption_gap_bounds_one_epoch_with_sampling_events": (0.45, None),
}


@pytest.mark.parametrize("name", sorted(PREMISE_SHARES))
def test_a_good_share_of_examples_meets_the_premises(name):
    share, nontrivial_share = PREMISE_SHARES[name]
    examples = sample(CHECKS[name].strategy, 40)
    met = [ex for ex in examples if E.OUTCOMES[name](name, REFERENCE, ex).premises is None]
    assert len(met) >= share * len(examples), (name, len(met), len(examples))
    if nontrivial_share is not None:
        assert sum(_nontrivial(ex) for ex in met) >= nontrivial_share * len(examples), name
    else:  # one-epoch checks: l >= 2 (the gap bounds are implied at l = 1) is reached too
        assert any(ex.state.l >= 2 for ex in met)


def test_the_premise_regime_keeps_the_paper_premises_and_the_scaled_regime_does_not():
    for case in sample(S.premise_regime_cases(), 15):
        assert T.paper_premises(case.params) is None
    for case in sample(S.scaled_regime_cases(), 15):
        assert T.paper_premises(case.params) == "beta1 < 20480 beta3 (or undecided)"
    for ex in sample(S.one_epoch_cases(), 10):
        assert ex.params.regime == "paper" and T.paper_premises(ex.params) is None


def test_burst_then_clean_cases_reach_the_corner_of_the_final_step():
    cases = sample(S.burst_then_clean_cases(), 60)
    failing = [c for c in cases if E._final_step("meta", c, 24).violations]
    assert len(failing) >= 6


# =====================================================================================
# every check can fail
# =====================================================================================
BROKEN = {
    # check -> (fake implementation, why it must be caught)
    "check_calruption_fit_error_on_event": shim(calruption=mutate_epochs(flip_fit)),
    "check_calruption_estimation_lemma_corrected": shim(calruption=mutate_epochs(flip_fit)),
    "check_calruption_gap_bounds_lemma_51_with_sampling_events": shim(calruption=mutate_epochs(gaps_to_one)),
    "check_calruption_layer_disagreement_bound_from_lower_bound": shim(
        calruption=mutate_epochs(everyone_in_every_layer)
    ),
    "check_calruption_fit_error_one_epoch": shim(calruption_epoch_=mutate_epoch_update(flip_fit)),
    "check_calruption_estimation_lemma_corrected_one_epoch": shim(calruption_epoch_=mutate_epoch_update(flip_fit)),
    "check_calruption_gap_bounds_one_epoch_with_sampling_events": shim(
        calruption_epoch_=mutate_epoch_update(gaps_to_one)
    ),
}


# A broken copy is caught by one failing example, not a minimal one, and shrinking cannot
# turn a failure back into a pass: these runs skip it (it is most of their cost).
NO_SHRINK = "calruption-events-no-shrink"
settings.register_profile(
    NO_SHRINK, parent=settings.default, phases=tuple(p for p in settings.default.phases if p != Phase.shrink)
)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_each_check_fails_on_a_broken_implementation(name):
    result = run_check(CHECKS[name], BROKEN[name], max_examples=100, profile=NO_SHRINK)
    assert result.status == FAILED, name


def test_correctness_from_lower_bound_fails_when_the_output_is_not_in_the_last_layer():
    """h_out replaced by a hypothesis whose Delta^ exceeds eps_{L-1} (the output must lie in V_L^{L-1})."""

    def worst(H, tape, params):
        trace = R.calruption(H, tape, params)
        if not trace.epochs:
            return trace
        gaps = trace.epochs[-1].gap_hat
        return dataclasses.replace(trace, output=gaps.index(max(gaps)))

    result = run_check(
        CHECKS["check_calruption_correctness_from_lower_bound"],
        shim(calruption=worst),
        max_examples=100,
        profile=NO_SHRINK,
    )
    assert result.status == FAILED


@pytest.mark.slow
def test_paper_form_checks_fail_on_the_reference():
    """The paper-form checks fail on the reference itself (the findings below): they can
    fail, and the reference is not what breaks them (verified exactly below). Their
    strategies find a counterexample on their own (without the known examples)."""
    for name in (
        "check_calruption_estimation_lemma",
        "check_calruption_gap_bounds_lemma_51",
        "check_calruption_layer_disagreement_bound",
        "check_calruption_correctness_theorem_51",
        "check_calruption_estimation_lemma_one_epoch",
        "check_calruption_gap_bounds_one_epoch",
        "check_calruption_correctness_final_step",
    ):
        assert run_check(CHECKS[name], REFERENCE, max_examples=300, known=False).status == XFAIL, name


def test_paper_form_checks_catch_a_broken_fit_where_the_paper_holds():
    """On a run where the lemmas' conclusions hold (the tape matches nu exactly), breaking the
    fit or the output breaks them: the checks are not failing for an unrelated reason."""
    # nu = (1, 0), eta* = (0, 0): h0 = (0, 0) is perfect, h1 = (1, 1) always wrong (Delta = 1)
    case = S.crafted_case(
        R.Instance([F(1), F(0)], [F(0), F(0)], ((0, 0), (1, 1))), S.premise_params(84, 2, F(1), F(1, 20480)), [0] * 84
    )
    for name in (
        "check_calruption_estimation_lemma",
        "check_calruption_gap_bounds_lemma_51",
        "check_calruption_layer_disagreement_bound",
        "check_calruption_correctness_theorem_51",
    ):
        out = E.OUTCOMES[name](name, REFERENCE, case)
        assert out.premises is None and out.violations == [], name
    broken = shim(calruption=mutate_epochs(flip_fit))
    out = E.OUTCOMES["check_calruption_estimation_lemma"]("check_calruption_estimation_lemma", broken, case)
    assert out.premises is None and out.violations
    worst = shim(calruption=lambda H, tape, params: dataclasses.replace(R.calruption(H, tape, params), output=1))
    out = E.OUTCOMES["check_calruption_correctness_theorem_51"]("check_calruption_correctness_theorem_51", worst, case)
    assert out.premises is None and out.violations


def test_statistical_check_fails_when_w_is_shifted():
    experiment = dataclasses.replace(S.CATONI_EXPERIMENT, seeds=tuple(range(12)))
    assert E.check_catoni_condition_1_frequency(REFERENCE, experiment) == []

    def shifted(record):
        W = tuple(
            tuple(
                None
                if w is None or (w.lo == 0 == w.hi)
                else Enclosure(w.lo + 3, w.hi + 3)
                if h < h2
                else Enclosure(w.lo - 3, w.hi - 3)
                for h2, w in enumerate(row)
            )
            for h, row in enumerate(record.W)
        )
        return dataclasses.replace(record, W=W)

    assert E.check_catoni_condition_1_frequency(shim(calruption=mutate_epochs(shifted)), experiment)


def test_binomial_tail_and_per_pair_delta():
    from scipy.stats import binom

    for N, p, k in ((10, F(1, 3), 4), (50, F(1, 16), 0), (50, F(1, 16), 9), (7, F(1, 2), 7)):
        exact = E.binomial_upper_tail(N, p, k)
        assert exact == sum(math.comb(N, j) * p**j * (1 - p) ** (N - j) for j in range(k, N + 1))
        assert math.isclose(float(exact), binom.sf(k - 1, N, float(p)), rel_tol=1e-9, abs_tol=1e-300)
    assert E.per_pair_delta(ScaledLog(F(2), F(4))) == F(1, 16)
    assert E.per_pair_delta(S.CATONI_EXPERIMENT.params.beta3) == F(1, 16)


def test_every_check_is_registered_once_with_a_docstring():
    names = [c.name for c in E.CHECKS]
    assert len(names) == len(set(names))
    for check in E.CHECKS:
        assert check.name.startswith("check_") and check.description and check.cites
        assert check.kind in ("conditional", "statistical", "lemma")
    assert set(E.OUTCOMES) <= set(names)


# =====================================================================================
# findings, verified exactly
# =====================================================================================
def test_finding_estimation_lemma_fails_on_e_gap():
    """Lemma "Estimation accuracy for D^_l" on E_gap (premise regime): nu uniform on 3
    points, eta* = (0, 0, 1), H = {000, 111}; 20 rounds all at x = 0. Epoch 1 (q = 1, all
    4 losses of 000 minus 111 equal -1) fits D^ exactly: R_D^(000) - R_D^(111) = -1, while
    R*(000) - R*(111) = 1/3 - 2/3 = -1/3: the left side is 2/3 > 1/32 = the right side."""
    case = S.finding_f5_estimation_lemma_case()
    assert case.tape.x == (0,) * 20 and T.paper_premises(case.params) is None
    view = T.run_view("meta", REFERENCE, case)
    events = T.run_events(view)
    assert events.all_hold("gap", "dis1", "dis2") is None and events.bern[0] is not None
    assert view.records[0].W[0][1] == Enclosure.point(-1)  # the Catoni root of four -1's
    risk_fit = T.risk_of_fit("meta", case.instance.hypotheses, view.records[0], view.truths[0])
    assert risk_fit == (0, 1)
    assert case.instance.risk(0) - case.instance.risk(1) == F(-1, 3)
    out = E.OUTCOMES["check_calruption_estimation_lemma"]("check_calruption_estimation_lemma", REFERENCE, case)
    first = out.violations[0].values
    assert first["l"] == "1" and first["lhs"] == "2/3" and first["rhs"] == "1/32"


def test_finding_lemma_51_lemma_52_theorem_51_fail_on_their_events():
    """Lemma 5.1, Lemma 5.2 and Theorem 5.1 (final form) on E_gap, E_dis1, E_dis2 with
    beta1 = 20480 beta3, beta2 = 5/32, no corruption: nu = (99/100, 1/100), eta* = (0, 1),
    H = {00, 11} (rho* = 1 for the pair, so E_dis holds exactly); the 84 rounds of three
    epochs are all at the rare point x1, coins balanced (each epoch's queries are exactly
    q |I_l|, so the importance-weighted losses average exactly to R^_l and condition (1)
    holds). D^ then prefers 11 (Delta = 49/50) in every epoch: h_out = 11, and
    (49/50)^2 > 72/84, i.e. Delta_{h_out} > 6 sqrt(2 beta1/n) + 24 C-bar/n (C-bar = 0)."""
    case = S.finding_f5_lemma_51_case()
    assert case.tape.x == (1,) * 84 and T.paper_premises(case.params) is None
    view = T.run_view("meta", REFERENCE, case)
    events = T.run_events(view)
    assert events.all_hold("gap", "dis1", "dis2") is None
    assert all(b is not None for b in events.bern)  # the sampling event is what fails
    assert [r.q for r in view.records] == [(1, 1), (F(1, 16), F(1, 16)), (F(1, 64), F(1, 64))]
    assert view.trace.output == 1 and case.instance.gap(1) == F(49, 50)
    assert F(49, 50) ** 2 > F(72, 84)
    # Lemma 5.1's lower bound at l = 2: Delta^^2_{11} = eps_2 = 1/4, and 49/50 > 3/2 (1/4) + 3/2 (1/4)
    assert view.records[1].gap_hat[1] == F(1, 4)
    for name in (
        "check_calruption_gap_bounds_lemma_51",
        "check_calruption_layer_disagreement_bound",
        "check_calruption_correctness_theorem_51",
    ):
        out = E.OUTCOMES[name](name, REFERENCE, case)
        assert out.premises is None and out.violations, name
    messages = [
        v.message
        for v in E.OUTCOMES["check_calruption_correctness_theorem_51"](
            "check_calruption_correctness_theorem_51", REFERENCE, case
        ).violations
    ]
    assert any("6 sqrt(2 beta1/n)" in m for m in messages)
    # the corrected statements are not contradicted: E_bern fails, so they do not apply
    for name in (
        "check_calruption_gap_bounds_lemma_51_with_sampling_events",
        "check_calruption_estimation_lemma_corrected",
    ):
        out = E.OUTCOMES[name](name, REFERENCE, case)
        assert out.premises is not None and not out.violations


def test_finding_one_epoch_counterexamples_with_the_paper_constants():
    """With the paper's own constants (Params.paper, beta1 = 20480 beta3), one epoch:
    (a) the est-helper lemma: epoch 1 of 1283198 rounds all at x0 (nu = (1/51, 50/51),
    eta* = 0, H = {11, 01}): R_D^ difference 1, R* difference 1/51: 50/51 > 1/32;
    (b) the upper bound of the estimated gap: l = 2, every round at the rare disputed x4
    (nu(x4) = 1/5, eta* = 0): Delta^^2 of 00011 is 1 - 5/64 - (tiny), above
    2 (Delta + eps_2) = 2 (1/5 + 1/4) = 9/10."""
    a = S.finding_f5_estimation_lemma_one_epoch_case()
    assert a.state.length == certified_ceil(a.params.beta1, 4)
    out = E.OUTCOMES["check_calruption_estimation_lemma_one_epoch"]("x", REFERENCE, a)
    assert out.premises is None and out.violations[0].values["lhs"] == "50/51"
    b = S.finding_f5_gap_bounds_one_epoch_case()
    rho_prev = epochs.rho_matrix(b.instance.hypotheses, b.prev_seen, certified_ceil(b.params.beta1, 4))
    assert b.state.q == S.line13_q(b.instance.hypotheses, rho_prev, b.state.gap_hat, 2)
    assert b.instance.gap(0) == F(1, 5)
    record = T.one_epoch_record("x", REFERENCE, b)
    assert record.gap_hat[0] > F(9, 10)
    out = E.OUTCOMES["check_calruption_gap_bounds_one_epoch"]("x", REFERENCE, b)
    assert out.premises is None and out.violations
    out = E.OUTCOMES["check_calruption_gap_bounds_one_epoch_with_sampling_events"]("x", REFERENCE, b)
    assert out.premises is not None  # E_bern fails: the corrected statement does not apply


def test_finding_correctness_final_step_is_false_as_printed():
    """The main proof's last step 3 eps_{L-1} + 3 g_{L-1} <= 6 sqrt(2 beta1/n) + 24 C-bar/n:
    beta1 = 1, n = 330 (L - 1 = 3 completed epochs), c = 1 on epoch 1 and 1/8 on epoch 2:
    g_3 = 3/16, C-bar = 6, so the left side is 3/8 + 9/16 = 15/16 while the right side is
    6 sqrt(2/330) + 144/330 < 0.91 (< 1: not a vacuous bound); (15/16 - 144/330)^2 > 72/330.
    The corrected step (64 C-bar/n) holds."""
    case = S.finding_f6_final_step_case()  # n = 330, beta1 = 1
    lhs = 3 * F(1, 8) + 3 * F(3, 16)
    assert lhs == F(15, 16) and (lhs - F(144, 330)) ** 2 > F(72, 330) and lhs - F(144, 330) > 0
    assert E._final_step("x", case, 24).violations
    assert not E._final_step("x", case, 64).violations
