"""Passive ERM (Theorem 3.1) and RobustCAL (Algorithm 1) against a literal, per-round
re-implementation of the pseudo-code, plus the invariants of their traces."""

import json
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

import reference as R
from reference.instance import disagreement_region


def _mp(value):
    return mpmath.mpf(value.numerator) / value.denominator


def literal_robust_cal(H, tape, params, vanilla):
    """Algorithm 1 line by line: no aggregation, losses stored per round, thresholds
    compared in 120-digit floating point (a cross-check, not a certificate)."""
    n, m = tape.n, len(H[0])
    V = list(range(len(H)))
    losses = []  # l^_s(h) per round, 0 when not queried
    kept_history = []
    for t in range(1, n + 1):
        x, y = tape.x[t - 1], tape.y[t - 1]
        dis = {z for z in range(m) if len({H[h][z] for h in V}) > 1}
        queried = x in dis
        losses.append([int(queried and H[h][x] != y) for h in range(len(H))])
        k = t.bit_length() - 1
        if t == 2**k and k >= 1:
            L = {h: F(sum(row[h] for row in losses), t) for h in V}
            h_hat = min(V, key=lambda h: (L[h], h))
            with mpmath.workdps(120):
                beta = _mp(params.beta_scale) * mpmath.log(_mp(F(3 * k * len(H) ** 2) / params.delta))
                new_V = []
                for h in V:
                    rho = F(sum(H[h][tape.x[s]] != H[h_hat][tape.x[s]] for s in range(t)), t)
                    thr = mpmath.sqrt(2 * beta * _mp(rho) / t) + 3 * beta / (2 * t)
                    if not vanilla:
                        thr += _mp(rho) / 2
                    if _mp(L[h] - L[h_hat]) <= thr:
                        new_V.append(h)
            kept_history.append((t, tuple(V), h_hat, tuple(new_V)))
            V = new_V
    L = {h: F(sum(row[h] for row in losses), n) for h in V}
    return min(V, key=lambda h: (L[h], h)), kept_history


@st.composite
def runs(draw):
    name = draw(st.sampled_from(["thresholds", "intervals", "counterexample"]), label="instance")
    if name == "counterexample":
        inst = R.instances.counterexample(F(1, 2), F(1, 16))
    else:
        m = draw(st.integers(2, 5), label="m")
        eta = draw(
            st.lists(st.sampled_from([F(0), F(1, 10), F(1, 2), F(9, 10), F(1)]), min_size=m, max_size=m), label="eta"
        )
        inst = getattr(R.instances, name)(m, eta)
    n = draw(st.integers(1, 400), label="n")
    kind = draw(st.sampled_from(["clean", "burst", "misspecified"]), label="adversary")
    m = inst.num_points
    if kind == "clean":
        adv = R.adversary.clean(n)
    elif kind == "burst":
        adv = R.adversary.early_burst([1 - e for e in inst.eta], draw(st.integers(0, n), label="tau"), n)
    else:
        adv = R.adversary.misspecification(F(1, 8), [F(1, 2)] * m, n)
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    scale = draw(st.sampled_from([F(1), F(1, 16)]), label="beta_scale")
    params = (
        R.Params.paper(n, inst.num_hypotheses, F(1, 10))
        if scale == 1
        else R.Params.scaled(n, inst.num_hypotheses, F(1, 10), scale)
    )
    return inst, R.sample_tape(inst, adv, seed), params


@given(run=runs(), vanilla=st.booleans())
def test_robust_cal_matches_literal_pseudo_code(run, vanilla):
    inst, tape, params = run
    trace = R.robust_cal(inst.hypotheses, tape, params, vanilla=vanilla)
    output, history = literal_robust_cal(inst.hypotheses, tape, params, vanilla)
    got = [(c.t, c.version_space, c.h_hat, c.next_version_space) for c in trace.checkpoints]
    assert got == history, f"reproduce: robust_cal on {inst}, tape seed {tape.seed}, n {tape.n}, {params}"
    assert trace.output == output


@pytest.mark.parametrize("vanilla", [False, True])
def test_robust_cal_matches_literal_pseudo_code_where_it_eliminates(vanilla):
    inst = R.instances.thresholds(6)
    n = 1500
    tape = R.sample_tape(inst, R.adversary.early_burst([F(1, 2)] * 6, 100, n), 21)
    params = R.Params.scaled(n, inst.num_hypotheses, F(1, 10), F(1, 8))
    trace = R.robust_cal(inst.hypotheses, tape, params, vanilla=vanilla)
    output, history = literal_robust_cal(inst.hypotheses, tape, params, vanilla)
    assert [(c.t, c.version_space, c.h_hat, c.next_version_space) for c in trace.checkpoints] == history
    assert trace.output == output
    assert len(trace.final_version_space) < inst.num_hypotheses, "this case must exercise elimination"


@given(run=runs(), vanilla=st.booleans())
def test_robust_cal_trace_invariants(run, vanilla):
    inst, tape, params = run
    H = inst.hypotheses
    trace = R.robust_cal(H, tape, params, vanilla=vanilla)
    assert [c.t for c in trace.checkpoints] == [2**k for k in range(1, tape.n.bit_length()) if 2**k <= tape.n]
    V = tuple(range(len(H)))
    labels, start = 0, 1
    for c in trace.checkpoints:
        assert c.version_space == V
        assert set(c.next_version_space) <= set(V) and c.h_hat in c.next_version_space
        assert c.empirical_risk[c.h_hat] == min(c.empirical_risk[h] for h in V)
        # queries exactly when x_t in Dis(V_t)
        dis = disagreement_region(H, V)
        labels += sum(1 for t in range(start, c.t + 1) if tape.x[t - 1] in dis)
        assert c.labels_requested == labels
        for h in V:
            gap = c.empirical_risk[h] - c.empirical_risk[c.h_hat]
            enc = c.threshold[h]
            assert (h in c.next_version_space) == (gap <= enc.lo), "decision must be certified by the enclosure"
            assert gap <= enc.lo or gap > enc.hi
        V, start = c.next_version_space, c.t + 1
    dis = disagreement_region(H, V)
    labels += sum(1 for t in range(start, tape.n + 1) if tape.x[t - 1] in dis)
    assert trace.labels_requested == labels
    assert trace.final_version_space == V and trace.output in V


@given(run=runs())
def test_passive_is_an_erm_with_lowest_index_ties(run):
    inst, tape, params = run
    trace = R.passive(inst.hypotheses, tape, params)
    risks = [F(sum(h[x] != y for x, y in zip(tape.x, tape.y)), tape.n) for h in inst.hypotheses]
    assert list(trace.empirical_risk) == risks
    assert trace.output == risks.index(min(risks))
    assert trace.labels_requested == tape.n


def test_modified_threshold_is_vanilla_plus_half_rho():
    from reference.certified import Enclosure
    from reference.robust_cal import threshold_enclosure

    beta = Enclosure(F(7), F(7))
    for rho in (F(0), F(1, 3), F(1)):
        van = threshold_enclosure(beta, rho, 16, True, 64)
        mod = threshold_enclosure(beta, rho, 16, False, 64)
        assert mod.lo == van.lo + rho / 2 and mod.hi == van.hi + rho / 2


def test_single_hypothesis_never_queries_and_tiny_n():
    inst = R.Instance([F(1)], [F(1, 2)], [(1,)])
    tape = R.sample_tape(inst, R.adversary.clean(9), 0)
    trace = R.robust_cal(inst.hypotheses, tape, R.Params.paper(9, 1, F(1, 10)))
    assert trace.labels_requested == 0 and trace.output == 0
    inst2 = R.instances.thresholds(3)
    tape1 = R.sample_tape(inst2, R.adversary.clean(1), 0)
    trace1 = R.robust_cal(inst2.hypotheses, tape1, R.Params.paper(1, 4, F(1, 10)))
    assert trace1.checkpoints == () and trace1.labels_requested == 1


@pytest.mark.parametrize("algorithm", ["passive", "robust_cal", "robust_cal_vanilla"])
def test_trace_json_round_trip(algorithm):
    inst = R.instances.thresholds(5)
    n = 700
    tape = R.sample_tape(inst, R.adversary.misspecification(F(1, 8), [F(1, 2)] * 5, n), 4)
    params = R.Params.scaled(n, inst.num_hypotheses)
    if algorithm == "passive":
        trace = R.passive(inst.hypotheses, tape, params)
    else:
        trace = R.robust_cal(inst.hypotheses, tape, params, vanilla=algorithm.endswith("vanilla"))
    text = json.dumps(R.trace_to_json(trace))
    assert R.trace_from_json(json.loads(text)) == trace
    assert '"1/' in text or '"0/1"' in text  # Fractions are written "p/q"
