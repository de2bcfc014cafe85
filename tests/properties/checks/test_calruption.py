"""Meta-tests of properties/checks/calruption.py: its strategies (in properties/strategies/)
produce valid inputs and reach the edge cases the checks are about (several epochs, q = 0,
rho^ = 0, no LP row), and every check fails on a hand-broken trace or epoch record."""

from __future__ import annotations

import types
from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import given, settings

import reference as R
from properties import strategies as S
from properties.checks import calruption as C
from properties.checks import calruption_fit as CF
from properties.checks.free_choices import minimisers
from properties.core.case import Case
from properties.run.runner import violations_of
from reference.calruption import EpochCounts, EpochState, calruption_epoch, loss_difference_samples
from reference.certified import Enclosure
from tests.support.sampling import QUIET, reach, sample

CHECKS = {check.name: check for check in C.CHECKS}


def shim(**overrides):
    """The reference's public names, plus the epoch update and the sample grouping the
    package does not export, with `overrides` replacing any of them."""
    names = {name: getattr(R, name) for name in ("passive", "robust_cal", "calruption", "catoni_root")}
    names.update(calruption_epoch=calruption_epoch, loss_difference_samples=loss_difference_samples)
    names.update(overrides)
    return types.SimpleNamespace(**names)


# -- the strategies ------------------------------------------------------------------------
def completed_epochs(case):
    return len(S.epoch_schedule(S.beta1_of(case.params), case.tape.n))


@settings(max_examples=40, **QUIET)
@given(S.calruption_cases())
def test_calruption_cases_are_valid(case):
    assert case.params.regime == "scaled" and S.beta1_of(case.params) in S.FULL_RUN_BETA1_CHOICES
    assert case.params.beta2 in S.BETA2_CHOICES
    assert 1 <= case.tape.n == case.params.n <= S.MAX_ROUNDS
    assert case.params.num_hypotheses == case.instance.num_hypotheses
    assert case.adversary.n == case.tape.n == len(case.tape.x)
    assert all(0 <= x < case.instance.num_points for x in case.tape.x)


def test_calruption_cases_complete_several_epochs():
    cases = sample(S.calruption_cases(), 150)
    epochs = [completed_epochs(c) for c in cases]
    assert sum(e >= 2 for e in epochs) >= len(cases) // 3, epochs
    assert max(epochs) >= 4
    # n at an epoch's last round: the unfinished epoch is empty
    ends = {
        c
        for c in cases
        if any(c.tape.n == tau + length - 1 for _, tau, length in S.epoch_schedule(S.beta1_of(c.params), c.tape.n))
    }
    assert ends
    assert {S.beta1_of(c.params) for c in cases} == set(S.FULL_RUN_BETA1_CHOICES)


def _disputed(H, x):
    return any(a[x] != b[x] for a in H for b in H)


def test_calruption_cases_reach_zero_query_probability_and_zero_disagreement():
    def q_zero_on_disputed_point(case):
        H = case.instance.hypotheses
        trace = R.calruption(H, case.tape, case.params)
        return any(e.next_q[x] == 0 and _disputed(H, x) for e in trace.epochs for x in range(len(H[0])))

    def rho_zero_between_distinct(case):
        H = case.instance.hypotheses
        trace = R.calruption(H, case.tape, case.params)
        return any(
            e.rho[h][h2] == 0 and H[h] != H[h2] for e in trace.epochs for h in range(len(H)) for h2 in range(len(H))
        )

    reach(S.calruption_cases(), q_zero_on_disputed_point)
    reach(S.calruption_cases(), rho_zero_between_distinct)


@settings(max_examples=60, **QUIET)
@given(S.epoch_examples())
def test_epoch_examples_are_valid_states(example):
    s, counts, params, H = example.state, example.counts, example.params, example.hypotheses
    m = len(H[0])
    assert 1 <= s.l <= S.MAX_EPOCH_INDEX and len(s.q) == len(counts.seen) == len(counts.queried) == m
    assert s.length == S.rational_epoch_length(S.beta1_of(params), s.l)
    assert s.tau == 1 + sum(S.rational_epoch_length(S.beta1_of(params), i) for i in range(1, s.l))
    assert sum(counts.seen) == s.length and all(v >= 0 for v in counts.seen)
    for x in range(m):
        a, b = counts.queried[x]
        assert a >= 0 and b >= 0 and a + b <= counts.seen[x]
        if s.q[x] == 0:
            assert a + b == 0
        if s.q[x] == 1:
            assert a + b == counts.seen[x]
    if s.l == 1:
        assert s.q == (1,) * m and s.gap_hat == (0,) * len(H)
    else:
        assert all(0 <= v <= F(1, 4) and (v * 4**s.l).denominator == 1 for v in s.q)
        assert all(F(1, 2 ** (s.l - 1)) <= g <= 1 for g in s.gap_hat)
    assert S.EpochExample.from_json(example.to_json()) == example


def test_epoch_examples_reach_the_edge_cases():
    def zero_q_on_seen_disputed_point(e):
        H = e.hypotheses
        return any(e.state.q[x] == 0 and e.counts.seen[x] > 0 and _disputed(H, x) for x in range(len(H[0])))

    def zero_rho_between_distinct(e):
        H = e.hypotheses
        return any(
            H[h] != H[h2] and all(e.counts.seen[x] == 0 for x in range(len(H[0])) if H[h][x] != H[h2][x])
            for h in range(len(H))
            for h2 in range(len(H))
        )

    def no_lp_row(e):
        record, _ = calruption_epoch(e.hypotheses, e.state, e.counts, e.params)
        return len(e.hypotheses) > 1 and record.lp_method == "no-rows"

    def longest_epoch(e):
        return e.state.l == S.MAX_EPOCH_INDEX and S.beta1_of(e.params) == max(S.BETA1_CHOICES)

    def top_query_probability(e):
        return any(v == F(1, 4) for v in e.state.q)

    for predicate in (
        zero_q_on_seen_disputed_point,
        zero_rho_between_distinct,
        no_lp_row,
        longest_epoch,
        top_query_probability,
    ):
        reach(S.epoch_examples(), predicate)


# -- a real trace and its broken copies ----------------------------------------------------
def fixed_case():
    """Thresholds on 6 points, x2 of mass 0 (so h2, h3 are never separated: rho^ = 0),
    a 1/8-misspecification, beta1 = 1: epochs of 4, 16, 64, 256 rounds, 60 left over."""
    base = R.instances.thresholds(6)
    nu = (F(1, 5), F(1, 5), F(0), F(1, 5), F(1, 5), F(1, 5))
    instance = R.Instance(nu, base.eta, base.hypotheses)
    n = 400
    params = R.Params.scaled(n, instance.num_hypotheses, F(1, 10), F(1, 4), F(1))
    return Case(instance, R.adversary.misspecification(F(1, 8), [F(1, 2)] * 6, n), 5, params)


CASE = fixed_case()
TRACE = R.calruption(CASE.instance.hypotheses, CASE.tape, CASE.params)
H = CASE.instance.hypotheses
TRACE_CHECKS = [name for name, check in CHECKS.items() if "one_epoch" not in name]
ONE_EPOCH_CHECKS = [name for name in CHECKS if "one_epoch" in name]


def run_on(name, trace, **overrides):
    impl = shim(calruption=lambda hypotheses, tape, params: trace, **overrides)
    return violations_of(CHECKS[name], impl, CASE)


def with_epoch(trace, i, **changes):
    epochs = list(trace.epochs)
    epochs[i] = replace(epochs[i], **changes)
    return replace(trace, epochs=tuple(epochs))


def set_at(seq, i, value):
    seq = list(seq)
    seq[i] = value
    return tuple(seq)


def set_matrix(matrix, h, h2, value):
    return set_at(matrix, h, set_at(matrix[h], h2, value))


def test_fixed_case_is_rich_enough():
    assert [e.length for e in TRACE.epochs] == [4, 16, 64, 256] and TRACE.unfinished_rounds == 60
    assert all(e.lp_method != "no-rows" for e in TRACE.epochs)
    assert all(e.rho[2][3] == 0 for e in TRACE.epochs)


@pytest.mark.parametrize("name", TRACE_CHECKS)
def test_trace_checks_hold_on_the_real_trace(name):
    assert run_on(name, TRACE) == []


def separated_point(e):
    """(h, h', x): a pair with rho^ > 0 and a point where it disagrees."""
    for h in range(len(H)):
        for h2 in range(h + 1, len(H)):
            if e.rho[h][h2] > 0:
                return h, h2, next(x for x in range(len(H[0])) if H[h][x] != H[h2][x])
    raise AssertionError("no separated pair")


def weighted_pair(e):
    return next((h, h2) for h in range(len(H)) for h2 in range(h + 1, len(H)) if e.alpha[h][h2] is not None)


def suboptimal_eta(e):
    """eta^ changed at one support point so that the LP objective it attains grows."""
    for x in e.support:
        for value in (F(0), F(1, 2), F(1), F(1, 3)):
            candidate = replace(e, eta_hat=set_at(e.eta_hat, x, value))
            if any("not an optimal solution" in v.message for v in CF._fit_violations("probe", H, candidate)):
                return candidate.eta_hat
    raise AssertionError("every one-point change of eta^ stays optimal")


def line10_minimisers(trace, i, hypotheses=H, beta2=CASE.params.beta2):
    """The exact minimisers of line 10 in epoch i of the trace."""
    prev = trace.epochs[i - 1].gap_hat if i else (F(0),) * len(hypotheses)
    penalised = [r + beta2 * g for r, g in zip(trace.epochs[i].risk_hat, prev)]
    return minimisers(penalised, range(len(hypotheses)))


def test_the_recomputed_check_accepts_every_free_choice():
    """With every hypothesis of the fixed case doubled (so each argmin ties), another exact
    minimiser of line 10 in every epoch and another member of V_L^{L-1} as the output:
    check_calruption_recomputed_from_trace accepts the trace (free choices
    calruption.h_star_tie and calruption.output)."""
    doubled = R.Instance(CASE.instance.nu, CASE.instance.eta, CASE.instance.hypotheses * 2)
    params = R.Params.scaled(CASE.tape.n, doubled.num_hypotheses, F(1, 10), F(1, 4), F(1))
    case = Case(doubled, CASE.adversary, CASE.seed, params)
    hypotheses = doubled.hypotheses
    trace = real = R.calruption(hypotheses, case.tape, params)
    for i, e in enumerate(real.epochs):
        others = [h for h in line10_minimisers(real, i, hypotheses, params.beta2) if h != e.h_star_hat]
        assert others, f"epoch {i + 1}: no tie in line 10"
        trace = with_epoch(trace, i, h_star_hat=others[-1])
    members = [h for h in real.epochs[-1].layers[-1] if h != real.output]
    assert members
    trace = replace(trace, output=members[-1])
    impl = shim(calruption=lambda hypotheses, tape, params: trace)
    assert violations_of(CHECKS["check_calruption_recomputed_from_trace"], impl, case) == []


def outside_top_layer(trace):
    """A hypothesis outside the last completed epoch's top layer (any member is a valid
    output: free choice calruption.output)."""
    return next(h for h in range(len(H)) if h not in trace.epochs[-1].layers[-1])


def breakages():
    """(check name, description, broken trace, message fragment the check must report)."""
    e0, e1, e3 = TRACE.epochs[0], TRACE.epochs[1], TRACE.epochs[3]
    h, h2, x = separated_point(e1)
    wh, wh2 = weighted_pair(e1)
    W, W_back = e1.W[wh][wh2], e1.W[wh2][wh]
    shifted = set_matrix(
        set_matrix(e1.W, wh, wh2, Enclosure(W.lo + F(1, 2), W.hi + F(1, 2))),
        wh2,
        wh,
        Enclosure(W_back.lo - F(1, 2), W_back.hi - F(1, 2)),
    )
    dropped = tuple(layer[1:] if i == 1 else layer for i, layer in enumerate(e1.layers))
    return [
        (
            "check_calruption_query_probabilities_bounded",
            "q_{l+1} above 1/4",
            with_epoch(TRACE, 3, next_q=set_at(e3.next_q, 0, F(1, 2))),
            "exceeds 1/4",
        ),
        (
            "check_calruption_query_probabilities_bounded",
            "q_1 != 1",
            with_epoch(TRACE, 0, q=set_at(e0.q, 1, F(1, 2))),
            "q_1^x must be 1",
        ),
        (
            "check_calruption_epoch_schedule",
            "tau_2 off by one",
            with_epoch(TRACE, 1, tau=e1.tau + 1),
            "differ from the schedule",
        ),
        (
            "check_calruption_epoch_schedule",
            "unfinished rounds",
            replace(TRACE, unfinished_rounds=TRACE.unfinished_rounds - 1),
            "do not match n",
        ),
        (
            "check_calruption_epoch_schedule",
            "q_2 is not q_{l+1} of epoch 1",
            with_epoch(TRACE, 1, q=set_at(e1.q, 0, e1.q[0] / 2)),
            "previous epoch's q_{l+1}",
        ),
        (
            "check_calruption_recomputed_from_trace",
            "one next_q",
            with_epoch(TRACE, 3, next_q=set_at(e3.next_q, 1, e3.next_q[1] / 2)),
            "q_{l+1} differs from line 13",
        ),
        (
            "check_calruption_recomputed_from_trace",
            "one gap_hat",
            with_epoch(TRACE, 1, gap_hat=set_at(e1.gap_hat, 6, e1.gap_hat[6] + F(1, 1000))),
            "differs from line 11",
        ),
        (
            "check_calruption_recomputed_from_trace",
            "a layer member dropped",
            with_epoch(TRACE, 1, layers=dropped),
            "line 12",
        ),
        (
            "check_calruption_recomputed_from_trace",
            "h^* not the argmin",
            with_epoch(TRACE, 2, h_star_hat=next(h for h in range(len(H)) if h not in line10_minimisers(TRACE, 2))),
            "not a minimiser of line 10",
        ),
        (
            "check_calruption_recomputed_from_trace",
            "one rho^",
            with_epoch(
                TRACE,
                1,
                rho=set_matrix(set_matrix(e1.rho, h, h2, e1.rho[h][h2] + F(1, 16)), h2, h, e1.rho[h][h2] + F(1, 16)),
            ),
            "rho^_l(h,h') differs",
        ),
        (
            "check_calruption_recomputed_from_trace",
            "an output outside V_L^{L-1}",
            replace(TRACE, output=outside_top_layer(TRACE)),
            "the output",
        ),
        (
            "check_calruption_catoni_enclosures_certified",
            "W shifted by 1/2 (mirrored)",
            with_epoch(TRACE, 1, W=shifted),
            "does not enclose the Catoni root",
        ),
        (
            "check_calruption_catoni_enclosures_certified",
            "alpha doubled",
            with_epoch(
                TRACE,
                1,
                alpha=set_matrix(set_matrix(e1.alpha, wh, wh2, 2 * e1.alpha[wh][wh2]), wh2, wh, 2 * e1.alpha[wh][wh2]),
            ),
            "alpha",
        ),
        (
            "check_calruption_catoni_enclosures_certified",
            "W not mirrored",
            with_epoch(
                TRACE,
                1,
                W=set_matrix(e1.W, wh2, wh, Enclosure(W.lo, W.hi) if W.lo != -W.hi else Enclosure(W.lo + 1, W.hi + 1)),
            ),
            "not -W",
        ),
        (
            "check_calruption_fit_is_optimal",
            "eta^ suboptimal",
            with_epoch(TRACE, 1, eta_hat=suboptimal_eta(e1)),
            "not an optimal solution",
        ),
        (
            "check_calruption_fit_is_optimal",
            "lp_objective",
            with_epoch(TRACE, 2, lp_objective=TRACE.epochs[2].lp_objective + F(1, 7)),
            "lp_objective",
        ),
        (
            "check_calruption_fit_is_optimal",
            "eta^ off the support",
            with_epoch(TRACE, 0, eta_hat=set_at(e0.eta_hat, 2, F(1, 2))),
            "None off the support",
        ),
        (
            "check_calruption_fit_is_optimal",
            "a weight",
            with_epoch(TRACE, 1, weight=set_matrix(e1.weight, wh, wh2, e1.weight[wh][wh2] * 2)),
            "weight",
        ),
        (
            "check_calruption_importance_weights_unbiased",
            "epoch labels",
            with_epoch(TRACE, 2, labels_requested=TRACE.epochs[2].labels_requested + 1),
            "in the epoch",
        ),
        (
            "check_calruption_importance_weights_unbiased",
            "total labels",
            replace(TRACE, labels_requested=TRACE.labels_requested - 1),
            "total labels",
        ),
        (
            "check_calruption_never_hard_eliminates",
            "a separated pair's point set to q = 0",
            with_epoch(TRACE, 1, next_q=set_at(e1.next_q, x, F(0))),
            "lost every query",
        ),
    ]


@pytest.mark.parametrize("name, what, broken, fragment", breakages(), ids=lambda v: v if isinstance(v, str) else "")
def test_trace_check_catches_a_broken_trace(name, what, broken, fragment):
    found = run_on(name, broken)
    assert found, f"{name} accepted a trace with {what}"
    assert any(fragment in v.message for v in found), [str(v) for v in found]


def test_every_trace_check_is_exercised_by_a_breakage():
    assert {name for name, *_ in breakages()} == set(TRACE_CHECKS)


def test_loss_difference_samples_are_checked_when_exposed():
    name = "check_calruption_importance_weights_unbiased"
    assert run_on(name, TRACE) == []

    def doubled(*args):
        values, counts = loss_difference_samples(*args)
        return tuple(2 * v for v in values), counts

    found = run_on(name, TRACE, loss_difference_samples=doubled)
    assert any("E_Q" in v.message for v in found), [str(v) for v in found]


# -- one-epoch checks ------------------------------------------------------------------------
EXAMPLE = S.EpochExample(
    H,
    EpochState(2, 5, 16, TRACE.epochs[1].q, TRACE.epochs[0].gap_hat),
    EpochCounts((3, 3, 0, 4, 3, 3), ((1, 0), (0, 1), (0, 0), (0, 1), (1, 0), (0, 0))),
    CASE.params,
)


def test_one_epoch_example_is_rich_enough():
    record, _ = calruption_epoch(EXAMPLE.hypotheses, EXAMPLE.state, EXAMPLE.counts, EXAMPLE.params)
    assert record.lp_method != "no-rows" and any(v > 0 for v in record.next_q)


def epoch_impl(mutate):
    def broken(hypotheses, state, counts, params):
        record, next_state = calruption_epoch(hypotheses, state, counts, params)
        return mutate(record, next_state)

    return shim(calruption_epoch=broken)


@pytest.mark.parametrize("name", ONE_EPOCH_CHECKS)
def test_one_epoch_checks_hold_on_the_reference_update(name):
    assert violations_of(CHECKS[name], shim(), EXAMPLE) == []


@pytest.mark.parametrize("name", ONE_EPOCH_CHECKS)
def test_one_epoch_checks_report_a_missing_epoch_update(name):
    impl = types.SimpleNamespace(**{k: getattr(R, k) for k in ("passive", "robust_cal", "calruption", "catoni_root")})
    found = violations_of(CHECKS[name], impl, EXAMPLE)
    assert len(found) == 1 and "calruption_epoch" in found[0].message


def one_epoch_breakages():
    record, _ = calruption_epoch(EXAMPLE.hypotheses, EXAMPLE.state, EXAMPLE.counts, EXAMPLE.params)
    h, h2, x = separated_point(record)
    wh, wh2 = weighted_pair(record)
    W = record.W[wh][wh2]
    return [
        (
            "check_calruption_one_epoch_query_probabilities",
            "q_{l+1} = 1",
            lambda r, s: (replace(r, next_q=set_at(r.next_q, x, F(1))), s),
            "exceeds 1/4",
        ),
        (
            "check_calruption_one_epoch_recomputed",
            "one gap_hat",
            lambda r, s: (replace(r, gap_hat=set_at(r.gap_hat, 0, r.gap_hat[0] + F(1, 3))), s),
            "line 11",
        ),
        (
            "check_calruption_one_epoch_recomputed",
            "next state's tau",
            lambda r, s: (r, replace(s, tau=s.tau + 1)),
            "line 14",
        ),
        (
            "check_calruption_one_epoch_recomputed",
            "labels",
            lambda r, s: (replace(r, labels_requested=r.labels_requested + 1), s),
            "labels",
        ),
        (
            "check_calruption_one_epoch_catoni_certified",
            "W shifted",
            lambda r, s: (replace(r, W=set_matrix(r.W, wh, wh2, Enclosure(W.lo + 1, W.hi + 1))), s),
            "Catoni root",
        ),
        (
            "check_calruption_one_epoch_fit_is_optimal",
            "eta^ suboptimal",
            lambda r, s: (replace(r, eta_hat=suboptimal_eta(r)), s),
            "not an optimal solution",
        ),
        (
            "check_calruption_one_epoch_never_hard_eliminates",
            "q = 0 on a separated pair",
            lambda r, s: (replace(r, next_q=set_at(r.next_q, x, F(0))), s),
            "lost every query",
        ),
    ]


@pytest.mark.parametrize(
    "name, what, mutate, fragment", one_epoch_breakages(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_one_epoch_check_catches_a_broken_record(name, what, mutate, fragment):
    found = violations_of(CHECKS[name], epoch_impl(mutate), EXAMPLE)
    assert found, f"{name} accepted an epoch record with {what}"
    assert any(fragment in v.message for v in found), [str(v) for v in found]


def test_every_one_epoch_check_is_exercised_by_a_breakage():
    assert {name for name, *_ in one_epoch_breakages()} == set(ONE_EPOCH_CHECKS)


def test_malformed_epoch_record_is_a_violation_not_a_crash():
    impl = epoch_impl(lambda r, s: (replace(r, next_q=r.next_q[:-1]), s))
    found = violations_of(CHECKS["check_calruption_one_epoch_recomputed"], impl, EXAMPLE)
    assert found and "not one per point" in found[0].message
    impl = epoch_impl(lambda r, s: r)
    assert violations_of(CHECKS["check_calruption_one_epoch_recomputed"], impl, EXAMPLE)


def test_epoch_example_reproducer_round_trips():
    import json  # noqa: F401  (the reproducer line uses it)

    import properties  # noqa: F401

    rebuilt = eval(EXAMPLE.reproducer(), {"json": json, "properties": properties})
    assert rebuilt == EXAMPLE
