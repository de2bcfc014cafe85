"""Deterministic checks of passive ERM (Theorem 3.1) and RobustCAL (Algorithm 1):
what every trace must satisfy, whatever the data and the parameters. Each check
recomputes from the tape what the trace claims."""

from __future__ import annotations

from fractions import Fraction

from properties.checks.formulas import robust_cal_beta, robust_cal_threshold
from properties.checks.free_choices import accepted_minimisers
from properties.checks.judgement import current
from properties.checks.registry import trace_check
from properties.core.terms import beta_terms, mismatch_values, threshold_terms
from properties.core.violation import Violation
from properties.strategies import cases
from reference.certified import Enclosure, decide_le, sqrt_enclosure
from reference.instance import disagreement_region


def check_passive_output_is_erm(case, trace):
    """Theorem 3.1: h_out = argmin_h R^_[1,n](h) (R^ recomputed from the tape), every label
    requested. Any exact minimiser is accepted (free choice `passive.erm_tie`,
    properties/checks/free_choices.py); the reference takes the lowest index."""
    tape, H = case.tape, case.instance.hypotheses
    risks = [Fraction(sum(h[x] != y for x, y in zip(tape.x, tape.y)), tape.n) for h in H]
    found = []
    accepted = accepted_minimisers("passive.erm_tie", risks, range(len(H)))
    if trace.output not in accepted:
        found.append(
            Violation.of(
                "check_passive_output_is_erm",
                "the output is not an empirical risk minimiser",
                output=trace.output,
                minimisers=accepted,
                risks=[str(r) for r in risks],
            )
        )
    if trace.labels_requested != tape.n:
        found.append(
            Violation.of(
                "check_passive_output_is_erm",
                "passive learning must request every label",
                labels=trace.labels_requested,
                n=tape.n,
            )
        )
    return found


def check_passive_empirical_risks_recomputed(case, trace):
    """Theorem 3.1's R^_[1,n](h) as reported in the trace, recomputed from the tape (a
    float candidate's within one division's rounding, properties/checks/judgement.py)."""
    tape, H = case.tape, case.instance.hypotheses
    J = current()
    mistakes = [sum(h[x] != y for x, y in zip(tape.x, tape.y)) for h in H]
    if len(trace.empirical_risk) != len(H):
        return [
            Violation.of(
                "check_passive_empirical_risks_recomputed",
                "R^_[1,n] must have one entry per hypothesis",
                got=len(trace.empirical_risk),
                expected=len(H),
            )
        ]
    for h, (got, k) in enumerate(zip(trace.empirical_risk, mistakes)):
        exact = J.ratio(k, tape.n)
        if J.off(got, exact):
            return [
                Violation.of(
                    "check_passive_empirical_risks_recomputed",
                    "R^_[1,n] differs from the tape",
                    h=h,
                    trace=[str(r) for r in trace.empirical_risk],
                    expected=[str(Fraction(m, tape.n)) for m in mistakes],
                    **J.describe(got, exact, "count_ratio"),
                )
            ]
    return []


def _threshold(beta: Enclosure, rho: Fraction, t: int, vanilla: bool, bits: int) -> Enclosure:
    """Line 10's right-hand side, sqrt(2 beta rho / t) + 3 beta/(2t) (+ rho/2 unless vanilla),
    enclosed from an enclosure of beta_t."""
    root = sqrt_enclosure(beta.scale(2 * rho / t), bits)
    total = Enclosure(root.lo + beta.lo * Fraction(3, 2 * t), root.hi + beta.hi * Fraction(3, 2 * t))
    return total if vanilla else Enclosure(total.lo + rho / 2, total.hi + rho / 2)


def _threshold_breakdown(case, c, h, rho, beta, vanilla) -> list[dict]:
    """Line 10's threshold term by term: on the beta_t and rho^ the candidate reported, and
    exact (properties/core/terms.py)."""
    return threshold_terms(c.beta, c.disagreement[h], c.t, vanilla, c.threshold[h], beta.enclosure(128), rho)


def check_robust_cal_elimination_recomputed(case, trace):
    """Algorithm 1, lines 9-10 (modified or vanilla rule as the trace says, FINDINGS R6):
    rho^_t(h, h^_t) recomputed from the unlabeled rounds, beta_t from the parameters, and
    V_{t+1} = {h in V_t : L^_t(h) - L^_t(h^_t) <= threshold}, decided exactly; the trace's
    threshold enclosures must contain the true thresholds. A float candidate's rho^,
    beta_t and thresholds are held to the bounds of properties/checks/judgement.py, and where
    the exact margin of line 10 lies within the bounds of its two sides, either decision
    is accepted (the next checkpoint starts from the candidate's own V_{t+1})."""
    name = "check_robust_cal_elimination_recomputed"
    H, tape = case.instance.hypotheses, case.tape
    J = current()
    for c in trace.checkpoints:
        if c.t < 2 or c.t & (c.t - 1):  # beta_t has k = log2 t: no line 9 to recompute at another round
            return [Violation.of(name, "a checkpoint at a round that is not 2^k, k >= 1 (line 7)", t=c.t)]
        seen = [0] * len(H[0])
        for x in tape.x[: c.t]:
            seen[x] += 1
        beta = case.params.robust_cal_beta(c.t)
        beta_bounded = robust_cal_beta(J, case.params, c.t)
        if not J.exact and not J.meets(c.beta, beta_bounded):
            return [
                Violation.of(
                    name,
                    "beta_t differs from beta_scale ln(3 log2(t) |H|^2 / delta)",
                    t=c.t,
                    reported=c.beta,
                    **J.describe(c.beta.lo, beta_bounded, "beta_t"),
                ).with_terms(beta_terms(case.params, c.t, c.beta))
            ]
        kept = []
        for h in c.version_space:
            count = sum(s for s, a, b in zip(seen, H[h], H[c.h_hat]) if a != b)
            rho = Fraction(count, c.t)
            rho_bounded = J.ratio(count, c.t, terms=sum(1 for s, a, b in zip(seen, H[h], H[c.h_hat]) if a != b and s))
            if J.off(c.disagreement[h], rho_bounded):
                return [
                    Violation.of(
                        name,
                        "rho^_t(h, h^_t) differs from the tape",
                        t=c.t,
                        h=h,
                        trace=c.disagreement[h],
                        expected=rho,
                        **J.describe(c.disagreement[h], rho_bounded, "count_ratio"),
                    )
                ]
            gap = c.empirical_risk[h] - c.empirical_risk[c.h_hat]
            reported = c.threshold[h]
            if J.exact:
                keep, _ = decide_le(
                    gap, lambda bits, r=rho: _threshold(beta.enclosure(bits), r, c.t, trace.vanilla, bits)
                )
                exact = _threshold(beta.enclosure(128), rho, c.t, trace.vanilla, 128)
                if reported is None or reported.lo > exact.hi or reported.hi < exact.lo:
                    return [
                        Violation.of(
                            name,
                            "the reported threshold enclosure misses the threshold",
                            t=c.t,
                            h=h,
                            reported=reported,
                            expected_lo=exact.lo,
                            expected_hi=exact.hi,
                            **mismatch_values(reported, exact),
                        ).with_terms(_threshold_breakdown(case, c, h, rho, beta, trace.vanilla))
                    ]
            else:
                threshold = robust_cal_threshold(J, beta_bounded, rho_bounded, c.t, trace.vanilla)
                if not J.meets(reported, threshold):
                    return [
                        Violation.of(
                            name,
                            "the reported threshold misses the threshold",
                            t=c.t,
                            h=h,
                            reported=reported,
                            **J.describe(reported and reported.lo, threshold, "threshold"),
                        ).with_terms(_threshold_breakdown(case, c, h, rho, beta, trace.vanilla))
                    ]
                margin = J.sub(threshold, J.sub(J.given(c.empirical_risk[h]), J.given(c.empirical_risk[c.h_hat])))
                if J.undecided(margin):  # a tie within rounding: the candidate's decision stands
                    keep = h in c.next_version_space
                else:
                    keep = margin.low > 0
            if keep:
                kept.append(h)
        if tuple(kept) != c.next_version_space:
            return [
                Violation.of(
                    name,
                    "V_{t+1} is not line 10's set",
                    t=c.t,
                    trace=c.next_version_space,
                    expected=tuple(kept),
                    vanilla=trace.vanilla,
                )
            ]
    return []


def check_robust_cal_checkpoints_at_powers_of_two(case, trace):
    """Algorithm 1, line 7: updates exactly at t = 2^k <= n, k >= 1 (FINDINGS R3)."""
    expected = [2**k for k in range(1, case.tape.n.bit_length()) if 2**k <= case.tape.n]
    got = [c.t for c in trace.checkpoints]
    if got != expected:
        return [
            Violation.of(
                "check_robust_cal_checkpoints_at_powers_of_two",
                "checkpoints are not 2, 4, 8, ... <= n",
                got=got,
                expected=expected,
            )
        ]
    return []


def check_robust_cal_version_space_only_shrinks(case, trace):
    """Algorithm 1, line 10: V_{t+1} is a subset of V_t, V_1 = H, and the next checkpoint
    starts from V_{t+1}; h^_t is kept."""
    name = "check_robust_cal_version_space_only_shrinks"
    found = []
    V = tuple(range(case.instance.num_hypotheses))
    for c in trace.checkpoints:
        if c.version_space != V:
            found.append(Violation.of(name, "V_t is not the previous V_{t+1}", t=c.t, V_t=c.version_space, expected=V))
        if not set(c.next_version_space) <= set(c.version_space):
            found.append(
                Violation.of(
                    name, "V_{t+1} is not a subset of V_t", t=c.t, V_t=c.version_space, V_next=c.next_version_space
                )
            )
        if c.h_hat not in c.next_version_space:
            found.append(Violation.of(name, "h^_t was eliminated", t=c.t, h_hat=c.h_hat))
        V = c.next_version_space
    if trace.final_version_space != V:
        found.append(
            Violation.of(
                name, "the final version space is not the last V_{t+1}", final=trace.final_version_space, last=V
            )
        )
    return found


def check_robust_cal_queries_iff_in_disagreement_region(case, trace):
    """Algorithm 1, line 4: y_t is queried exactly when x_t is in Dis(V_t); the label
    counts of the trace must be those of that rule replayed on the tape."""
    name = "check_robust_cal_queries_iff_in_disagreement_region"
    H, tape = case.instance.hypotheses, case.tape
    V = tuple(range(len(H)))
    labels, start = 0, 1
    for c in trace.checkpoints:
        dis = disagreement_region(H, V)
        labels += sum(1 for t in range(start, c.t + 1) if tape.x[t - 1] in dis)
        if c.labels_requested != labels:
            return [
                Violation.of(
                    name,
                    "labels requested by round t differ from the Dis(V_t) rule",
                    t=c.t,
                    trace=c.labels_requested,
                    expected=labels,
                )
            ]
        V, start = c.next_version_space, c.t + 1
    dis = disagreement_region(H, V)
    labels += sum(1 for t in range(start, tape.n + 1) if tape.x[t - 1] in dis)
    if trace.labels_requested != labels:
        return [
            Violation.of(
                name, "total labels differ from the Dis(V_t) rule", trace=trace.labels_requested, expected=labels
            )
        ]
    return []


def _queried_losses(case, trace):
    """Per checkpoint: L^_t(h) for h in V_t, recomputed from the tape and the query rule."""
    H, tape = case.instance.hypotheses, case.tape
    mistakes = [0] * len(H)
    V = tuple(range(len(H)))
    dis = disagreement_region(H, V)
    checkpoints = iter(trace.checkpoints)
    current = next(checkpoints, None)
    result = {}
    for t, (x, y) in enumerate(zip(tape.x, tape.y), start=1):
        if x in dis:
            for h, labels in enumerate(H):
                mistakes[h] += labels[x] != y
        if current is not None and t == current.t:
            result[t] = {h: Fraction(mistakes[h], t) for h in current.version_space}
            dis = disagreement_region(H, current.next_version_space)
            current = next(checkpoints, None)
    result["final"] = {h: Fraction(mistakes[h], tape.n) for h in trace.final_version_space}
    return result


def check_robust_cal_empirical_risks_and_output(case, trace):
    """Algorithm 1, line 8 and Output (FINDINGS R4, R5): L^_t recomputed from the queried
    labels, h^_t a minimiser of L^_t over V_t; the output a minimiser of L^_n over the
    final V. Any exact minimiser is accepted (free choices `robust_cal.h_hat_tie` and
    `robust_cal.output_tie`, properties/checks/free_choices.py); the reference takes the lowest
    index."""
    name = "check_robust_cal_empirical_risks_and_output"
    losses = _queried_losses(case, trace)
    J = current()
    for c in trace.checkpoints:
        expected = losses[c.t]
        got = {h: c.empirical_risk[h] for h in c.version_space}
        for h, value in expected.items():
            exact = J.ratio(int(value * c.t), c.t)
            if J.off(got[h], exact):
                return [
                    Violation.of(
                        name,
                        "L^_t differs from the queried labels",
                        t=c.t,
                        h=h,
                        trace=got,
                        expected=expected,
                        **J.describe(got[h], exact, "count_ratio"),
                    )
                ]
        accepted = accepted_minimisers("robust_cal.h_hat_tie", expected, expected)
        if c.h_hat not in accepted:
            return [
                Violation.of(
                    name, "h^_t is not a minimiser of L^_t over V_t", t=c.t, h_hat=c.h_hat, minimisers=accepted
                )
            ]
    final = losses["final"]
    accepted = accepted_minimisers("robust_cal.output_tie", final, final)
    if trace.output not in accepted:
        return [
            Violation.of(
                name, "the output is not a minimiser of L^_n over the final V", output=trace.output, minimisers=accepted
            )
        ]
    return []


_VANILLA = "; the vanilla rule (remark after Theorem 4.1, FINDINGS R6)"


def both_rules(function, cites: str, strategy=lambda vanilla: cases()):
    """The check on the modified rule and, under check_robust_cal_vanilla_<what>, on the
    vanilla one: every deterministic property of Algorithm 1 but the threshold holds for
    both, and the threshold check recomputes the rule of the mode it asked for.
    `strategy(vanilla)` gives each rule's examples."""
    vanilla_name = function.__name__.replace("check_robust_cal_", "check_robust_cal_vanilla_", 1)
    return (
        trace_check(function, cites, "deterministic", "robust_cal", strategy(False)),
        trace_check(
            function, cites + _VANILLA, "deterministic", "robust_cal_vanilla", strategy(True), name=vanilla_name
        ),
    )


CHECKS = (
    trace_check(check_passive_output_is_erm, "Theorem 3.1", "deterministic", "passive", cases()),
    trace_check(
        check_passive_empirical_risks_recomputed, "Theorem 3.1 (R^_[1,n])", "deterministic", "passive", cases()
    ),
    *both_rules(check_robust_cal_elimination_recomputed, "Algorithm 1, lines 9-10"),
    *both_rules(check_robust_cal_checkpoints_at_powers_of_two, "Algorithm 1, line 7"),
    *both_rules(check_robust_cal_version_space_only_shrinks, "Algorithm 1, line 10"),
    *both_rules(check_robust_cal_queries_iff_in_disagreement_region, "Algorithm 1, line 4"),
    *both_rules(check_robust_cal_empirical_risks_and_output, "Algorithm 1, line 8 and Output"),
)
