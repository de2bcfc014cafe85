"""Deterministic checks of CALruption (Algorithm 2): what every trace must satisfy,
whatever the data and the parameters. Each check recomputes from the tape, or from the
trace's own earlier fields, what the trace claims, and compares exactly.

CALruption only updates at the end of an epoch, so the cases here use scaled constants
with beta1 in {1, 2, 4} (epochs of 4 beta1, 16 beta1, 64 beta1, ... rounds) and n <= 600:
several epochs complete. The one-epoch checks call the implementation's pure epoch update
`calruption_epoch(hypotheses, state, counts, params)` on a generated state, so lines 7-13
are exercised on states a short stream rarely reaches (q = 0 on seen points, rho^ = 0
pairs, l up to 4 with every beta1).

The per-epoch logic is written once, as `_<what>_violations(name, H, params, record, ...)`
helpers (properties/checks/calruption_record.py), and shared by the trace checks and the
one-epoch checks here. Readings of the
pseudo-code are those of FINDINGS.md R8-R14 (cited where used)."""

from __future__ import annotations

from fractions import Fraction

from properties.checks.calruption_fit import _fit_violations, _never_hard_eliminates_violations
from properties.checks.calruption_record import (
    CERTIFY_BITS,
    _catoni_violations,
    _ceil_of_constant,
    _counts_violations,
    _definitions_violations,
    _epoch_lengths,
    _epoch_on_tape,
    _n_l_bounded,
    _query_probability_violations,
    _s,
    _shape_violations,
    _symmetry_violations,
    _tape_counts,
)
from properties.checks.free_choices import accepted_calruption_outputs
from properties.checks.judgement import Judgement, current
from properties.checks.registry import custom_check, trace_check
from properties.core.candidate import as_candidate, call, call_many, run_algorithm
from properties.core.contract import decode_epoch_result, decode_samples
from properties.core.violation import Violation
from properties.strategies import EpochExample, calruption_cases, epoch_examples
from reference.calruption import EpochCounts, EpochState


# =====================================================================================
# trace checks
# =====================================================================================
def _records(name, case, trace):
    """(epoch record, Delta^^{l-1}, rho^_{l-1}) for the epochs whose shapes are sound;
    shape violations collected on the side."""
    H = case.instance.hypotheses
    prev_gap, prev_rho = (Fraction(0),) * len(H), None
    bad = []
    good = []
    for e in trace.epochs:
        shape = _shape_violations(name, H, e, {"l": e.l})
        if shape:
            bad.extend(shape)
            break
        good.append((e, prev_gap, prev_rho))
        prev_gap, prev_rho = e.gap_hat, e.rho
    return good, bad


def check_calruption_query_probabilities_bounded(case, trace):
    """Algorithm 2, lines 1 and 13 (FINDINGS R10): q_l^x in [0, 1]; q_1 = 1; for l >= 2,
    q_l^x <= 1/4 max_{(h,h') in Z(x)} rho^_{l-1}(h,h') (k <= l - 1 in line 13), and the
    same for the q_{l+1} each epoch computes."""
    name = "check_calruption_query_probabilities_bounded"
    H = case.instance.hypotheses
    records, found = _records(name, case, trace)
    for e, _, prev_rho in records:
        found += _query_probability_violations(name, H, e, prev_rho)
    return found


def check_calruption_epoch_schedule(case, trace):
    """Algorithm 2, lines 1, 6 and 14 (FINDINGS R10, R14): tau_1 = 1, tau_{l+1} = tau_l +
    |I_l|, |I_l| = ceil(beta1 4^l) (decided from beta1's certified enclosures), N_l encloses
    beta1 4^l; exactly the epochs ending by round n are reported; final_epoch and
    unfinished_rounds match n; q_1 = 1 and q_{l+1} of each epoch is the next epoch's q; the
    trace records the run's params."""
    name = "check_calruption_epoch_schedule"
    n = case.tape.n
    params = case.params
    found = []
    if trace.params != params:
        found.append(
            Violation.of(
                name, "the trace does not record the run's params", got=repr(trace.params), expected=repr(params)
            )
        )
    J = current()
    if not J.exact:
        return found + _float_schedule_violations(name, J, case, trace)
    expected, tau, l = [], 1, 1
    while True:
        length = _ceil_of_constant(params.beta1, 4**l)
        if length is None:
            return found + [Violation.of(name, "could not decide ceil(beta1 4^l)", l=l)]
        if tau + length - 1 > n:
            break
        expected.append((l, tau, length))
        tau, l = tau + length, l + 1
    got = [(e.l, e.tau, e.length) for e in trace.epochs]
    if got != expected:
        found.append(
            Violation.of(
                name, "the completed epochs (l, tau_l, |I_l|) differ from the schedule", n=n, got=got, expected=expected
            )
        )
    if (trace.final_epoch, trace.unfinished_rounds) != (l, n - tau + 1):
        found.append(
            Violation.of(
                name,
                "final_epoch / unfinished_rounds do not match n",
                n=n,
                got=(trace.final_epoch, trace.unfinished_rounds),
                expected=(l, n - tau + 1),
            )
        )
    q = (Fraction(1),) * case.instance.num_points
    for e in trace.epochs:
        if e.q != q:
            found.append(
                Violation.of(
                    name, "q_l is not the previous epoch's q_{l+1} (q_1 = 1)", l=e.l, got=_s(e.q), expected=_s(q)
                )
            )
        for bits in CERTIFY_BITS:
            enclosure = params.beta1.enclosure(bits).scale(Fraction(4**e.l))
            if enclosure.hi < e.N.lo or enclosure.lo > e.N.hi:
                found.append(
                    Violation.of(
                        name,
                        "N_l does not enclose beta1 4^l",
                        l=e.l,
                        N=(e.N.lo, e.N.hi),
                        beta1_4l=(enclosure.lo, enclosure.hi),
                    )
                )
                break
            if e.N.lo <= enclosure.lo and enclosure.hi <= e.N.hi:
                break
        q = e.next_q
    return found


def _float_schedule_violations(name, J: Judgement, case, trace) -> list[Violation]:
    """check_calruption_epoch_schedule for a float candidate: the schedule followed from the
    candidate's own epochs (its tau_l chain from 1), each |I_l| one of the ceilings a
    correct float computation of beta1 4^l may take (`_epoch_lengths`), N_l within its
    bound, the next epoch unfinished for some such length, and the rest as for exact."""
    n, params = case.tape.n, case.params
    found, tau, l = [], 1, 1
    q = (Fraction(1),) * case.instance.num_points
    for e in trace.epochs:
        lengths = _epoch_lengths(J, params.beta1, l)
        if (e.l, e.tau) != (l, tau) or e.length not in lengths or tau + e.length - 1 > n:
            return found + [
                Violation.of(
                    name,
                    "the completed epochs (l, tau_l, |I_l|) differ from the schedule",
                    n=n,
                    epoch=(e.l, e.tau, e.length),
                    expected=(l, tau, lengths),
                    arithmetic=J.arithmetic,
                    derivation=J.describe(0, J.value(0), "N_l")["derivation"],
                )
            ]
        n_l = _n_l_bounded(J, params.beta1, l)
        if not J.meets(e.N, n_l):
            found.append(
                Violation.of(
                    name, "N_l does not enclose beta1 4^l", l=l, N=(e.N.lo, e.N.hi), **J.describe(e.N.lo, n_l, "N_l")
                )
            )
        if e.q != q:
            found.append(
                Violation.of(
                    name, "q_l is not the previous epoch's q_{l+1} (q_1 = 1)", l=e.l, got=_s(e.q), expected=_s(q)
                )
            )
        tau, l, q = tau + e.length, l + 1, e.next_q
    if all(tau + length - 1 <= n for length in _epoch_lengths(J, params.beta1, l)):
        found.append(
            Violation.of(
                name,
                "an epoch that ends by round n is missing",
                n=n,
                l=l,
                tau=tau,
                lengths=_epoch_lengths(J, params.beta1, l),
            )
        )
    if (trace.final_epoch, trace.unfinished_rounds) != (l, n - tau + 1):
        found.append(
            Violation.of(
                name,
                "final_epoch / unfinished_rounds do not match n",
                n=n,
                got=(trace.final_epoch, trace.unfinished_rounds),
                expected=(l, n - tau + 1),
            )
        )
    return found


def check_calruption_recomputed_from_trace(case, trace):
    """Algorithm 2, lines 7 and 10-13, the remark after it, and the output (FINDINGS R10,
    R11, R13): S_l, the x-marginal, rho^_l and min q recomputed from the tape's epoch
    counts; R_D^ from eta^; h^*_l (any minimiser), Delta^^l, the nested layers V^i_{l+1}
    and q_{l+1} recomputed from the record and the previous Delta^^{l-1}, compared
    exactly; the output is a member of V_{L+1}^L, the last completed epoch's top layer
    (any hypothesis if none completed: V_1^0 = H). Free choices `calruption.h_star_tie`
    and `calruption.output` (properties/checks/free_choices.py); the reference outputs h^*_L."""
    name = "check_calruption_recomputed_from_trace"
    H, params = case.instance.hypotheses, case.params
    records, found = _records(name, case, trace)
    for e, prev_gap, _ in records:
        counts, bad = _epoch_on_tape(name, case, e)
        found += bad
        if counts is not None:
            found += _counts_violations(name, H, e, counts[0])
        found += _symmetry_violations(name, H, e)
        found += _definitions_violations(name, H, params, e, prev_gap)
    accepted = accepted_calruption_outputs(trace, len(H))
    if trace.output not in accepted:
        found.append(
            Violation.of(
                name,
                "the output is not in V_l^{l-1}, the last completed epoch's top layer (R13)",
                output=trace.output,
                accepted=accepted,
            )
        )
    return found


def check_calruption_catoni_enclosures_certified(case, trace):
    """Algorithm 2, line 8; appendix lemmas "Concentration inequality for Catoni's
    estimator" and "... in our case" (alpha); FINDINGS R11, R12. The samples l^(h) - l^(h')
    are recomputed from the tape with the trace's q (queried iff u_t < q_l^{x_t}); W is
    certified by the signs of f at its ends (properties/checks/catoni_sign.py): exact integer
    signs (`reference.catoni.catoni_sign_exact`) while they are cheap, as for the epochs
    of <= 4096 rounds this check's cases generate, otherwise reference.catoni's certified
    fixed-point evaluation (`catoni_sign_certified`)."""
    name = "check_calruption_catoni_enclosures_certified"
    H, params = case.instance.hypotheses, case.params
    records, found = _records(name, case, trace)
    for e, _, _ in records:
        counts, bad = _epoch_on_tape(name, case, e)
        found += bad
        if counts is not None:
            found += _catoni_violations(name, H, params, e, counts[1], counts[2])
    return found


def check_calruption_fit_is_optimal(case, trace):
    """Algorithm 2, line 9 (FINDINGS R11, R12): D^_l is an optimal solution of the LP built
    from the trace's weights and W midpoints (exact optimum by reference.lp.solve_lp);
    its attained objective equals the optimum and lp_objective; eta^ in [0,1] on S_l,
    None elsewhere; the weights are sqrt(min q/rho^) within relative 2^-64."""
    name = "check_calruption_fit_is_optimal"
    H = case.instance.hypotheses
    records, found = _records(name, case, trace)
    for e, _, _ in records:
        found += _fit_violations(name, H, e)
    return found


def _loss_difference_function_violations(name, impl, H, trace) -> list[Violation]:
    """If the implementation exposes loss_difference_samples(H, h, h', q, counts, length)
    (the reference's signature), then for every epoch's q, x with q^x > 0, pair disagreeing
    at x and label y: q * (sample when Q = 1) + (1 - q) * (sample when Q = 0) equals
    1{h(x) != y} - 1{h'(x) != y} exactly."""
    if not as_candidate(impl).provides("loss_difference_samples"):
        return []
    m = len(H[0])
    # every (epoch, x with q^x > 0, pair disagreeing at x, label y, coin Q) as one round,
    # asked in one batch (one round trip to an isolated candidate)
    asked_for, calls = [], []
    for e in trace.epochs:
        for x in range(m):
            if e.q[x] <= 0:
                continue
            for h in range(len(H)):
                for h2 in range(len(H)):
                    if H[h][x] == H[h2][x]:
                        continue
                    for y in (0, 1):
                        for asked in (0, 1):
                            seen = tuple(int(z == x) for z in range(m))
                            queried = tuple(
                                (asked * (y == 0), asked * (y == 1)) if z == x else (0, 0) for z in range(m)
                            )
                            asked_for.append((e, x, h, h2, y, asked))
                            calls.append(((H, h, h2, e.q, EpochCounts(seen, queried), 1), {}))
    results = call_many(name, impl, "loss_difference_samples", calls)
    outcome = {}
    for (e, x, h, h2, y, asked), plain in zip(asked_for, results):
        values, counts = decode_samples(name, plain)
        if counts != [1]:
            return [
                Violation.of(
                    name,
                    "one round must give one sample",
                    l=e.l,
                    pair=(h, h2),
                    x=x,
                    y=y,
                    Q=asked,
                    values=_s(values),
                    counts=counts,
                )
            ]
        outcome[e.l, x, h, h2, y, asked] = values[0]
    J = current()
    found = []
    for e, x, h, h2, y, asked in asked_for:
        if asked == 0:
            continue
        qx, sample_q1, sample_q0 = e.q[x], outcome[e.l, x, h, h2, y, 1], outcome[e.l, x, h, h2, y, 0]
        mean = qx * sample_q1 + (1 - qx) * sample_q0
        truth = int(H[h][x] != y) - int(H[h2][x] != y)
        # a float candidate's samples are quotients by q, rounded (two roundings each, as
        # every operation of properties/checks/judgement.py): the mean is then within 4u of its size
        slack = 4 * J.u * (qx * abs(sample_q1) + (1 - qx) * abs(sample_q0) + abs(truth))
        if abs(mean - truth) > slack:
            found.append(
                Violation.of(
                    name,
                    "E_Q[l^(h) - l^(h')] is not 1{h(x) != y} - 1{h'(x) != y}",
                    l=e.l,
                    pair=(h, h2),
                    x=x,
                    y=y,
                    q=qx,
                    sample_Q1=sample_q1,
                    sample_Q0=sample_q0,
                    mean=mean,
                    truth=truth,
                )
            )
    return found


def check_calruption_importance_weights_unbiased(impl, case):
    """Algorithm 2, lines 4-5 (FINDINGS R11, R14): Q_t = 1 iff u_t < q_l^{x_t}, so the
    labels requested in each epoch (and in all, the unfinished epoch included, with its
    q = the last q_{l+1}) are the rounds with u_t < q_l^{x_t}; and, where the
    implementation exposes `loss_difference_samples`, l^_t(h) - l^_t(h') =
    (1{h(x_t) != y_t} - 1{h'(x_t) != y_t}) Q_t / q is unbiased over the coin, exactly."""
    name = "check_calruption_importance_weights_unbiased"
    trace = run_algorithm(name, impl, "calruption", case)
    return _importance_weight_violations(name, case, trace) + _loss_difference_function_violations(
        name, impl, case.instance.hypotheses, trace
    )


def _importance_weight_violations(name, case, trace) -> list[Violation]:
    """Labels per epoch and in all against #{t : u_t < q_l^(x_t)}; a float candidate's coins
    that lie within its rounding of q (`Judgement.coin_undecided`) may go either way, so its
    count must lie between the rounds certainly queried and those plus the undecided ones
    (the total is then judged from the candidate's own per-epoch counts)."""
    J = current()
    found = []
    tape, m = case.tape, case.instance.num_points
    total, spread, tau, q = 0, 0, 1, (Fraction(1),) * m
    for e in trace.epochs:
        counts, bad = _epoch_on_tape(name, case, e)
        if bad:
            return found + bad
        labels = sum(a + b for a, b in counts[1])
        undecided = sum(a + b for a, b in counts[2])
        if not labels <= e.labels_requested <= labels + undecided:
            found.append(
                Violation.of(
                    name,
                    "labels requested in the epoch differ from #{t : u_t < q_l^(x_t)}",
                    l=e.l,
                    got=e.labels_requested,
                    expected=labels,
                    **({"undecided_coins": undecided, "arithmetic": J.arithmetic} if undecided else {}),
                )
            )
            total += labels
            spread += undecided
        else:
            total += e.labels_requested
        tau, q = e.tau + e.length, e.next_q
    if len(q) == m and tau <= tape.n:
        _, queried, undecided = _tape_counts(tape, m, tau, tape.n - tau + 1, q, J)
        total += sum(a + b for a, b in queried)
        spread += sum(a + b for a, b in undecided)
    if not total <= trace.labels_requested <= total + spread:
        found.append(
            Violation.of(
                name,
                "total labels requested differ from #{t : u_t < q_l^(x_t)}",
                # every completed epoch's count agreed: the difference lies in the unfinished epoch's rounds
                **({} if found else {"l": trace.final_epoch}),
                got=trace.labels_requested,
                expected=total,
                **({"undecided_coins": spread, "arithmetic": J.arithmetic} if spread else {}),
            )
        )
    return found


def check_calruption_never_hard_eliminates(case, trace):
    """Algorithm 2, line 13 and the "soft elimination" of Section 5: after every epoch,
    every pair with rho^_l(h,h') > 0 keeps q_{l+1}^x > 0 at every x where h and h'
    disagree (k >= 0 since Delta^ <= 1 = eps_0), so h* is never cut off from a hypothesis
    the data separated from it."""
    name = "check_calruption_never_hard_eliminates"
    H = case.instance.hypotheses
    records, found = _records(name, case, trace)
    for e, _, _ in records:
        found += _never_hard_eliminates_violations(name, H, e)
    return found


# =====================================================================================
# one-epoch checks
# =====================================================================================
def run_epoch(name, impl, example: EpochExample):
    """impl.calruption_epoch on the example, normalised to (CALruptionEpoch, EpochState);
    raises CallFailed (a violation) when the implementation lacks it, raises, or returns
    something malformed."""
    H = example.hypotheses
    return decode_epoch_result(
        name, call(name, impl, "calruption_epoch", H, example.state, example.counts, example.params), len(H[0]), len(H)
    )


def _echo_violations(name, example, record, next_state) -> list[Violation]:
    """The record is of the epoch it was given, and the next state is line 14's."""
    s, params = example.state, example.params
    found = []
    got = (record.l, record.tau, record.length, record.q)
    if got != (s.l, s.tau, s.length, s.q):
        found.append(
            Violation.of(
                name,
                "the record's (l, tau, |I_l|, q) are not the state's",
                got=repr(got),
                expected=repr((s.l, s.tau, s.length, s.q)),
            )
        )
    lengths = _epoch_lengths(current(), params.beta1, s.l + 1)
    length = next_state.length if next_state.length in lengths else (lengths[0] if lengths else None)
    expected = EpochState(s.l + 1, s.tau + s.length, length, record.next_q, record.gap_hat)
    if next_state != expected:
        found.append(
            Violation.of(
                name,
                "the next state is not (l+1, tau+|I_l|, ceil(beta1 4^(l+1)), q_{l+1}, Delta^^l) (line 14)",
                got=repr(next_state),
                expected=repr(expected),
            )
        )
    return found


def check_calruption_one_epoch_query_probabilities(impl, example):
    """Algorithm 2, line 13 (FINDINGS R10), one epoch: q_{l+1} in [0,1] and
    q_{l+1}^x <= 1/4 max_{Z(x)} rho^_l(h,h'); q_l echoed; q_1 = 1."""
    name = "check_calruption_one_epoch_query_probabilities"
    record, _ = run_epoch(name, impl, example)
    return _query_probability_violations(name, example.hypotheses, record)


def check_calruption_one_epoch_recomputed(impl, example):
    """Algorithm 2, lines 7 and 10-14, one epoch: S_l, the x-marginal, rho^_l, min q and
    the labels from the counts; R_D^, h^*_l, Delta^^l, the layers and q_{l+1} from the
    record and the state's Delta^^{l-1}; the next state is line 14's."""
    name = "check_calruption_one_epoch_recomputed"
    H = example.hypotheses
    record, next_state = run_epoch(name, impl, example)
    return (
        _echo_violations(name, example, record, next_state)
        + _counts_violations(name, H, record, example.counts.seen, example.counts.queried)
        + _symmetry_violations(name, H, record)
        + _definitions_violations(name, H, example.params, record, example.state.gap_hat)
    )


def check_calruption_one_epoch_catoni_certified(impl, example):
    """Algorithm 2, line 8 (FINDINGS R11, R12), one epoch: every W encloses the Catoni root
    of the samples of the given counts (exact signs), W mirrored, alpha as documented."""
    name = "check_calruption_one_epoch_catoni_certified"
    record, _ = run_epoch(name, impl, example)
    return _catoni_violations(name, example.hypotheses, example.params, record, example.counts.queried)


def check_calruption_one_epoch_fit_is_optimal(impl, example):
    """Algorithm 2, line 9 (FINDINGS R11, R12), one epoch: eta^ optimal for the LP of the
    record's weights and W midpoints; objective = lp_objective; weights as documented."""
    name = "check_calruption_one_epoch_fit_is_optimal"
    record, _ = run_epoch(name, impl, example)
    return _fit_violations(name, example.hypotheses, record)


def check_calruption_one_epoch_never_hard_eliminates(impl, example):
    """Algorithm 2, line 13, one epoch: rho^_l(h,h') > 0 implies q_{l+1}^x > 0 on Dis(h,h')."""
    name = "check_calruption_one_epoch_never_hard_eliminates"
    record, _ = run_epoch(name, impl, example)
    return _never_hard_eliminates_violations(name, example.hypotheses, record)


CHECKS = (
    trace_check(
        check_calruption_query_probabilities_bounded,
        "Algorithm 2, lines 1 and 13; FINDINGS R10",
        "deterministic",
        "calruption",
        calruption_cases(),
    ),
    trace_check(
        check_calruption_epoch_schedule,
        "Algorithm 2, lines 1, 6 and 14; FINDINGS R10, R14",
        "deterministic",
        "calruption",
        calruption_cases(),
    ),
    trace_check(
        check_calruption_recomputed_from_trace,
        "Algorithm 2, lines 7, 10-13, the remark after it and Output; FINDINGS R10, R11, R13",
        "deterministic",
        "calruption",
        calruption_cases(),
    ),
    trace_check(
        check_calruption_catoni_enclosures_certified,
        "Algorithm 2, line 8; Appendix, Catoni lemmas; FINDINGS R11, R12",
        "deterministic",
        "calruption",
        calruption_cases(),
    ),
    trace_check(
        check_calruption_fit_is_optimal,
        "Algorithm 2, line 9; FINDINGS R11, R12",
        "deterministic",
        "calruption",
        calruption_cases(),
    ),
    custom_check(
        check_calruption_importance_weights_unbiased,
        "Algorithm 2, lines 4-5; FINDINGS R11, R14",
        "deterministic",
        calruption_cases(),
        covers=("calruption", "loss_difference_samples"),
    ),
    trace_check(
        check_calruption_never_hard_eliminates,
        "Algorithm 2, line 13; Section 5 (soft elimination)",
        "deterministic",
        "calruption",
        calruption_cases(),
    ),
    custom_check(
        check_calruption_one_epoch_query_probabilities,
        "Algorithm 2, line 13; FINDINGS R10",
        "deterministic",
        epoch_examples(),
        covers=("calruption_epoch",),
    ),
    custom_check(
        check_calruption_one_epoch_recomputed,
        "Algorithm 2, lines 7, 10-14; FINDINGS R10, R11",
        "deterministic",
        epoch_examples(),
        covers=("calruption_epoch",),
    ),
    custom_check(
        check_calruption_one_epoch_catoni_certified,
        "Algorithm 2, line 8; FINDINGS R11, R12",
        "deterministic",
        epoch_examples(),
        covers=("calruption_epoch",),
    ),
    custom_check(
        check_calruption_one_epoch_fit_is_optimal,
        "Algorithm 2, line 9; FINDINGS R11, R12",
        "deterministic",
        epoch_examples(),
        covers=("calruption_epoch",),
    ),
    custom_check(
        check_calruption_one_epoch_never_hard_eliminates,
        "Algorithm 2, line 13",
        "deterministic",
        epoch_examples(),
        covers=("calruption_epoch",),
    ),
)
