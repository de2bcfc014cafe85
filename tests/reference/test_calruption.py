"""CALruption (Algorithm 2): the epoch update as a pure function, the run loop, and
the two behaviours the issue pins down."""

import json
from fractions import Fraction as F

import mpmath
import pytest

import reference as R
from reference.calruption import (
    EpochCounts,
    EpochState,
    calruption,
    calruption_epoch,
    epoch_length,
    initial_state,
    loss_difference_samples,
)
from reference.params import BETA1_OVER_BETA3, PAPER_BETA2


def thresholds_8x8():
    """8 points, the 8 thresholds 1[x >= k], k = 0..7; eta 1/10 | 9/10, so h* = h4."""
    inst = R.instances.thresholds(8)
    return R.Instance(inst.nu, inst.eta, inst.hypotheses[:8])


FOUR_EPOCHS = 64 + 256 + 1024 + 4096  # scaled beta1 = 16: |I_l| = 16 * 4^l


@pytest.mark.parametrize("seed", range(5))
def test_clean_8x8_outputs_best_hypothesis(seed):
    inst = thresholds_8x8()
    tape = R.sample_tape(inst, R.adversary.clean(FOUR_EPOCHS), seed)
    trace = calruption(inst.hypotheses, tape, R.Params.scaled(FOUR_EPOCHS, 8))
    assert [e.length for e in trace.epochs] == [64, 256, 1024, 4096]
    assert trace.unfinished_rounds == 0 and trace.final_epoch == 5
    assert trace.output == inst.best == 4, [e.h_star_hat for e in trace.epochs]
    assert trace.labels_requested < FOUR_EPOCHS // 4, "soft elimination must save labels"


def test_counterexample_keeps_h_star_available_where_vanilla_eliminates_it():
    """Appendix counter-example with the burst (eta^{x1} = 15/32 for t <= tau): on the
    same tape vanilla RobustCAL (paper constants) removes h* = h1 for good, while
    CALruption (scaled constants) keeps querying where h1 and h2 disagree."""
    inst = R.instances.counterexample(F(1, 2), F(1, 128))
    n, tau = 2**17, 2**15
    tape = R.sample_tape(inst, R.adversary.counterexample(tau, n), 0)
    vanilla = R.robust_cal(inst.hypotheses, tape, R.Params.paper(n, 2, F(1, 20)), vanilla=True)
    assert inst.best == 0 and 0 not in vanilla.final_version_space
    trace = calruption(inst.hypotheses, tape, R.Params.scaled(n, 2))
    assert len(trace.epochs) >= 6
    dis = [x for x in range(3) if inst.hypotheses[0][x] != inst.hypotheses[1][x]]
    for e in trace.epochs:
        assert all(e.next_q[x] > 0 for x in dis), (e.l, e.next_q)
        assert 0 in e.layers[0]


def _state_after_one_epoch(inst, seed=0, n=FOUR_EPOCHS):
    tape = R.sample_tape(inst, R.adversary.clean(n), seed)
    return calruption(inst.hypotheses, tape, R.Params.scaled(n, inst.num_hypotheses)), tape


def test_epoch_records_satisfy_the_lines_they_implement():
    inst = thresholds_8x8()
    trace, tape = _state_after_one_epoch(inst)
    params = trace.params
    gap_prev = (F(0),) * 8
    tau = 1
    for e in trace.epochs:
        l = e.l
        assert e.tau == tau and e.length == 16 * 4**l
        eps = F(1, 2**l)
        penalised = [e.risk_hat[h] + params.beta2 * gap_prev[h] for h in range(8)]
        assert e.h_star_hat == penalised.index(min(penalised))  # line 10
        assert e.gap_hat == tuple(max(eps, e.risk_hat[h] - penalised[e.h_star_hat]) for h in range(8))  # line 11
        for i, layer in enumerate(e.layers):  # line 12
            assert layer == tuple(h for h in range(8) if e.gap_hat[h] <= F(1, 2**i))
        assert all(set(a) >= set(b) for a, b in zip(e.layers, e.layers[1:]))
        assert all(0 <= q <= F(1, 4) for q in e.next_q)  # FINDINGS R10
        if l == 1:
            assert all(q == 1 for q in e.q)
        # the LP's objective is attained by eta_hat on the rows it was given
        attained = F(0)
        for h in range(8):
            for h2 in range(8):
                w = e.weight[h][h2]
                if h != h2 and w is not None:
                    diff = sum(
                        (
                            e.empirical_x[x] * ((1 if inst.hypotheses[h][x] else -1) * (1 - 2 * e.eta_hat[x]))
                            for x in e.support
                            if inst.hypotheses[h][x] != inst.hypotheses[h2][x]
                        ),
                        F(0),
                    )
                    mid = (e.W[h][h2].lo + e.W[h][h2].hi) / 2
                    attained = max(attained, w * (diff - mid))
        assert attained == e.lp_objective
        gap_prev, tau = e.gap_hat, tau + e.length


def test_lp_optimum_agrees_with_an_independent_float_solve():
    from scipy.optimize import linprog

    inst = thresholds_8x8()
    trace, _ = _state_after_one_epoch(inst, seed=3)
    e = trace.epochs[-1]
    S = e.support
    rows, rhs = [], []
    for h in range(8):
        for h2 in range(8):
            w = e.weight[h][h2]
            if h == h2 or w is None:
                continue
            mid = (e.W[h][h2].lo + e.W[h][h2].hi) / 2
            coef, const = [], 0.0
            for x in S:
                if inst.hypotheses[h][x] != inst.hypotheses[h2][x]:
                    sgn = 1 if inst.hypotheses[h][x] else -1
                    coef.append(float(-2 * w * e.empirical_x[x] * sgn))
                    const += float(w * e.empirical_x[x] * sgn)
                else:
                    coef.append(0.0)
            rows.append(coef + [-1.0])
            rhs.append(float(w * mid) - const)
    result = linprog(
        [0.0] * len(S) + [1.0], A_ub=rows, b_ub=rhs, bounds=[(0, 1)] * len(S) + [(None, None)], method="highs"
    )
    assert abs(result.fun - float(e.lp_objective)) < 1e-9


def test_zero_rho_pair_gives_no_row_and_unseen_points_get_q_zero():
    # x1 has mass 0, h0 and h1 differ only there: rho^ = 0 in every epoch, W = 0,
    # no LP row (FINDINGS R11), and no pair is separated, so q_2 = 0 everywhere.
    inst = R.Instance([F(1), F(0)], [F(1, 2), F(1, 2)], [(0, 0), (0, 1)])
    n = 64 + 256
    tape = R.sample_tape(inst, R.adversary.clean(n), 1)
    trace = calruption(inst.hypotheses, tape, R.Params.scaled(n, 2))
    e1, e2 = trace.epochs
    assert e1.support == (0,) and e1.rho[0][1] == 0
    assert e1.W[0][1] == R.Enclosure.point(0) and e1.weight[0][1] is None and e1.min_q[0][1] is None
    assert e1.lp_method == "no-rows" and e1.eta_hat == (F(1, 2), None)
    assert e1.next_q == (0, 0) and e2.q == (0, 0) and e2.labels_requested == 0


def test_pair_with_zero_min_q_on_the_support_gets_weight_zero():
    # q_l = 0 at x1, which the epoch nevertheless saw: min q over Dis(h0, h1) on S_l is 0.
    H = ((0, 0), (1, 1))
    params = R.Params.scaled(64, 2)
    state = EpochState(2, 65, 256, (F(1, 4), F(0)), (F(1, 2), F(1, 2)))
    counts = EpochCounts(seen=(200, 56), queried=((20, 30), (0, 0)))
    record, nxt = calruption_epoch(H, state, counts, params)
    assert record.rho[0][1] == 1 and record.min_q[0][1] == 0
    assert record.weight[0][1] is None and record.alpha[0][1] is None and record.W[0][1] is None
    assert record.lp_method == "no-rows"
    assert all(q > 0 for q in nxt.q)  # the pair is separated (rho^ = 1): both points stay queried


def test_loss_difference_samples_group_importance_weights():
    H = ((1, 0), (0, 0))
    q = (F(1, 4), F(1, 2))
    counts = EpochCounts(seen=(10, 6), queried=((2, 3), (1, 1)))
    values, mult = loss_difference_samples(H, 0, 1, q, counts, 16)
    # x0: h0 says 1, h1 says 0; y = 0 -> h0 errs: +1/q; y = 1 -> h1 errs: -1/q
    assert dict(zip(values, mult)) == {F(-4): 3, F(4): 2, F(0): 11}


def test_paper_constants_and_epoch_lengths():
    params = R.Params.paper(10**6, 4, F(1, 20))
    assert params.beta2 == PAPER_BETA2 == F(5, 32)
    assert params.beta1.coefficient == BETA1_OVER_BETA3 * params.beta3.coefficient
    arg = params.beta3.argument
    assert arg == F(3, 2) * 19 * 16 * 20  # floor(log2 1e6) = 19
    with mpmath.workdps(60):
        beta1 = 40960 * mpmath.log(mpmath.mpf(arg.numerator) / arg.denominator)
        for l in (1, 2, 5):
            assert epoch_length(params, l) == int(mpmath.ceil(beta1 * 4**l))


def test_initial_state_and_trace_json_round_trip():
    inst = thresholds_8x8()
    state = initial_state(8, 8, R.Params.scaled(100, 8))
    assert state == EpochState(1, 1, 64, (F(1),) * 8, (F(0),) * 8)
    n = 64 + 256 + 17
    tape = R.sample_tape(inst, R.adversary.misspecification(F(1, 8), [F(1, 2)] * 8, n), 2)
    trace = calruption(inst.hypotheses, tape, R.Params.scaled(n, 8))
    assert trace.unfinished_rounds == 17 and trace.final_epoch == 3
    again = R.trace_from_json(json.loads(json.dumps(R.trace_to_json(trace))))
    assert again == trace
    paper = R.Params.paper(n, 8, F(1, 10))
    assert (
        R.trace_from_json(json.loads(json.dumps(R.trace_to_json(calruption(inst.hypotheses, tape, paper))))).params
        == paper
    )


def test_epoch_function_is_pure():
    inst = thresholds_8x8()
    params = R.Params.scaled(64, 8)
    state = initial_state(8, 8, params)
    counts = EpochCounts(seen=(8,) * 8, queried=tuple((4, 4) if x % 2 else (6, 2) for x in range(8)))
    first = calruption_epoch(inst.hypotheses, state, counts, params)
    second = calruption_epoch(inst.hypotheses, state, counts, params)
    assert first == second
    record, nxt = first
    assert nxt.l == 2 and nxt.tau == 65 and nxt.length == 256 and nxt.q == record.next_q


@pytest.mark.parametrize(
    "state, counts, message",
    [
        (
            EpochState(1, 1, 64, (F(3), F(1, 2)), (F(0),) * 2),
            EpochCounts((40, 24), ((7, 9), (0, 0))),
            r"state.q\[0\].*3",
        ),
        (
            EpochState(1, 1, 64, (F(1), F(1)), (F(0),) * 2),
            EpochCounts((10, 5), ((7, 9), (0, 0))),
            r"counts.queried\[0\].*exceeds",
        ),
        (
            EpochState(1, 1, 64, (F(1), F(1)), (F(0),) * 2),
            EpochCounts((10, 5), ((1, 1), (0, 0))),
            r"counts.seen sums to 15",
        ),
        (
            EpochState(1, 1, 63, (F(1), F(1)), (F(0),) * 2),
            EpochCounts((40, 23), ((1, 1), (0, 0))),
            r"state.length is 63",
        ),
        (
            EpochState(2, 65, 256, (F(1, 4), F(0)), (F(1),) * 2),
            EpochCounts((200, 56), ((1, 1), (1, 0))),
            r"state.q\[1\] = 0",
        ),
        (
            EpochState(1, 1, 64, (F(1), F(1)), (F(0), F(-1))),
            EpochCounts((40, 24), ((1, 1), (0, 0))),
            r"state.gap_hat\[1\].*-1",
        ),
    ],
)
def test_epoch_update_rejects_inconsistent_inputs(state, counts, message):
    with pytest.raises(ValueError, match=message):
        calruption_epoch(((0, 0), (1, 1)), state, counts, R.Params.scaled(64, 2))
