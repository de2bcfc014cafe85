"""The deterministic trace checks of passive ERM, RobustCAL and CALruption, on boundary
tapes (properties/strategies/, "boundary tapes"): coins exactly on q_l^{x_t}, rounds at
and after the checkpoints t = 2^k that leave Dis(V), n in {2^k - 1, 2^k, 2^k + 1}, exact
ERM ties. A sampled 64-bit coin equals q with probability ~2^-64, so an implementation
that queries when u_t <= q passes every check on sampled tapes; a checkpoint round
leaves Dis(V) on a sampled tape only when the stream happens to make line 10 eliminate
there, so one that updates V one round early or late is caught in about half of the
sampled 25-example runs (measured: 10-13 of 20 random runs), on these streams in every
run (20 of 20).

Each check here runs the algorithm once on a boundary case and applies the existing
check functions of properties/checks/robust_cal.py and checks_calruption.py to the trace,
unchanged: label counts exact against Q_t = 1 iff u_t < q (a tie u_t = q is not a
query) and x_t in Dis(V_t), and every recomputation of those modules. Why separate
registrations rather than st.one_of(existing, boundary) in the existing ones: under
a fixed seed, Hypothesis's generation settles on one branch after about ten
examples (measured with one_of(cases(), update_boundary_cases()): 20 of 25 examples
boundary cases; with the CALruption pair 5 or 22 of 25, depending on the strategies'
draws), so a mixture would not keep the existing strategies' share. Here the existing
registrations keep all their examples and the boundary cases get 25 of their own, for
one run of the algorithm each. A violation names the inner check in its values
(`as_in`)."""

from __future__ import annotations

from dataclasses import replace

from properties.checks import calruption as cal
from properties.checks import robust_cal as rc
from properties.checks.registry import trace_check
from properties.strategies import calruption_boundary_cases, erm_tie_cases, update_boundary_cases


def _all_of(case, trace, functions) -> list:
    found = []
    for function in functions:
        found += [replace(v, values={**v.values, "as_in": v.check}) for v in function(case, trace)]
    return found


# what any implementation must get exactly right, floats or not: schedules, index sets
# and label counts (a float64 candidate passes these); and the recomputations of the
# numbers, exact for exact implementations (a float one is held to the reference by the
# cross-check instead, docs/fast.md, "The cross-check")
PASSIVE_CHECKS = (rc.check_passive_output_is_erm, rc.check_passive_empirical_risks_recomputed)
ROBUST_CAL_CHECKS = (
    rc.check_robust_cal_checkpoints_at_powers_of_two,
    rc.check_robust_cal_queries_iff_in_disagreement_region,
    rc.check_robust_cal_empirical_risks_and_output,
    rc.check_robust_cal_version_space_only_shrinks,
)
ROBUST_CAL_RECOMPUTED = (rc.check_robust_cal_elimination_recomputed,)


def _calruption_labels(case, trace):
    """Algorithm 2, lines 4 and 6 (R14): per epoch and in all, the labels requested are
    #{t : u_t < q_l^{x_t}} (the label part of check_calruption_importance_weights_unbiased)."""
    return cal._importance_weight_violations("check_calruption_importance_weights_unbiased", case, trace)


CALRUPTION_CHECKS = (
    cal.check_calruption_epoch_schedule,
    _calruption_labels,
    cal.check_calruption_never_hard_eliminates,
)
# line 13's bound q_{l+1}^x <= 1/4 max rho^_l is exact too: a double nearest a non-dyadic q
# may lie above it (fast does, by half an ulp)
CALRUPTION_RECOMPUTED = (
    cal.check_calruption_query_probabilities_bounded,
    cal.check_calruption_recomputed_from_trace,
    cal.check_calruption_catoni_enclosures_certified,
)


def check_passive_on_erm_ties(case, trace):
    """Theorem 3.1 (an ERM, any of the tied minimisers: free choice passive.erm_tie; every
    label requested; R^_[1,n] recomputed) on streams with exact ties of R^_[1,n] between distinct hypotheses, n in
    {2^k - 1, 2^k, 2^k + 1}."""
    return _all_of(case, trace, PASSIVE_CHECKS)


def check_robust_cal_on_boundary_streams(case, trace):
    """Algorithm 1, lines 4, 7-8 and 10, and Output (FINDINGS R3-R5), on boundary streams
    (`checkpoint_boundary_cases`, and ERM ties): checkpoints at t = 2^k <= n, the labels
    of the Dis(V_t) rule at every checkpoint and in all, L^_t and h^_t from the queried
    labels, V only shrinks."""
    return _all_of(case, trace, ROBUST_CAL_CHECKS)


def check_robust_cal_elimination_on_boundary_streams(case, trace):
    """Algorithm 1, lines 9-10 (FINDINGS R6) on boundary streams: rho^_t, beta_t and V_{t+1}
    recomputed exactly at checkpoints where line 10 eliminates from the first rounds on."""
    return _all_of(case, trace, ROBUST_CAL_RECOMPUTED)


def check_calruption_on_boundary_tapes(case, trace):
    """Algorithm 2, lines 1, 4-6, 13 and 14 (FINDINGS R10, R11, R14) on tapes whose coins
    sit exactly on q_l^{x_t} (u_t = 0 where q = 0) in every epoch l >= 2 and in the
    unfinished last epoch, some with non-dyadic q (beta1 = 3; `calruption_boundary_cases`):
    Q_t = 1 iff u_t < q, so the labels per epoch and in all are #{t : u_t < q_l^{x_t}}
    (a tie u_t = q is not a query); the schedule and the unfinished epoch; no hard
    elimination."""
    return _all_of(case, trace, CALRUPTION_CHECKS)


def check_calruption_recomputed_on_boundary_tapes(case, trace):
    """Algorithm 2, lines 7-8 and 10-13 (FINDINGS R10-R13) on boundary tapes: S_l, rho^ and
    min q from the tape, lines 10-13 recomputed exactly and q bounded by line 13 (q with
    the epoch length's factor 3 in its denominator), W certified on the samples of the
    query rule u_t < q."""
    return _all_of(case, trace, CALRUPTION_RECOMPUTED)


CHECKS = (
    trace_check(check_passive_on_erm_ties, "Theorem 3.1", "deterministic", "passive", erm_tie_cases()),
    *rc.both_rules(
        check_robust_cal_on_boundary_streams,
        "Algorithm 1, lines 4, 7-8, 10 and Output; FINDINGS R3-R5",
        update_boundary_cases,
    ),
    *rc.both_rules(
        check_robust_cal_elimination_on_boundary_streams, "Algorithm 1, lines 9-10; FINDINGS R6", update_boundary_cases
    ),
    trace_check(
        check_calruption_on_boundary_tapes,
        "Algorithm 2, lines 1, 4-6, 13, 14; FINDINGS R11, R14",
        "deterministic",
        "calruption",
        calruption_boundary_cases(),
    ),
    trace_check(
        check_calruption_recomputed_on_boundary_tapes,
        "Algorithm 2, lines 7-8, 10-13; FINDINGS R10-R13",
        "deterministic",
        "calruption",
        calruption_boundary_cases(),
    ),
)
