"""Cross-check a candidate implementation against the reference on the same tapes
(CONTRACT.md section 4).

Stepwise, not trace against trace. The candidate runs on a tape and returns its trace;
the harness then walks that trace update by update (a checkpoint of RobustCAL, an epoch
of CALruption) and recomputes each update exactly with the reference, starting from the
candidate's own state (its version space, its q and Delta^ from the previous update)
and from the counts that the tape gives under the candidate's own query rule. So one
legitimate divergence does not cascade into a flood of differences downstream, and every
update is still held against the exact computation from where the candidate stood.

What must agree. Integers and index sets exactly (the schedule, labels requested, the
support, version spaces, min q, which quantities are undefined); every other number
within the tolerance table of properties/checks/tolerances.py (zero for exact candidates).

What may diverge, and is counted instead of reported (DIVERGENCE_KINDS):
* coin: a round whose coin u_t lies between the candidate's q^x and the exact q^x
  (the exact line-13 value from the candidate's previous epoch). The candidate's q must
  itself be within tolerance (next_q), and its coins are then replayed exactly;
* argmin_tie: the candidate's h^ (RobustCAL line 8, CALruption line 10, an output) is not
  the reference's lowest-index argmin, but its exact objective is within tolerance of the
  minimum; the harness continues from the candidate's choice;
* lp_non_unique: the candidate's D^ (line 9) differs from the reference's and is optimal
  for the exact LP within tolerance; the harness continues from the candidate's D^;
* output_member: CALruption's output is another member of the candidate's own top layer
  V_{L+1}^L than its h^*_L ("Output: h in V_l^{l-1}"; any hypothesis without a completed
  epoch);
* threshold_boundary: a keep decision of RobustCAL's line 10 differs from the exact one,
  the candidate's decision follows from its own reported numbers, and the exact two sides
  are within the threshold's tolerance of each other;
* layer_boundary: a layer membership of line 12 differs from the exact one, the candidate's
  layers follow exactly from its own Delta^, and the exact Delta^ is within tolerance of
  eps_i.
Anything else is a mismatch: a Violation with the values and a reproducer. A candidate
that raises, times out or returns a malformed trace is a mismatch too; the run goes on.

argmin_tie, lp_non_unique and output_member are the free choices of the paper
(properties/checks/free_choices.py): which places they cover, and their classes, come from that
table; a place the table pins is held to the reference's choice (a different choice is a
mismatch). The other classes are float rounding at a boundary.

A real bug cannot hide behind a class: each class is granted only when the exact values
show the ambiguity (a near tie, a near boundary, an optimal D^), and the candidate's
discrete choices must follow from its own reported numbers (tests/properties/checks/test_crosscheck.py
runs broken copies of fast/ to show each is caught)."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial

from properties.checks.crosscheck_summary import Summary, summary_text  # noqa: F401 (public here too)
from properties.checks.formulas import robust_cal_beta, robust_cal_threshold
from properties.checks.free_choices import DIVERGENCE_KINDS, accepted_calruption_outputs, divergence_of
from properties.checks.judgement import EXACT as EXACT_JUDGEMENT
from properties.checks.judgement import Judgement
from properties.checks.tolerances import EXACT, support_sum_scale, table
from properties.core.budget import spent
from properties.core.candidate import CallFailed, as_candidate, run_algorithm
from properties.core.outcomes import ALGORITHMS, BUDGET_SKIP
from properties.core.spec_citations import cite_field
from properties.core.terms import mismatch_values, point
from properties.core.violation import Violation
from reference.calruption import (
    EpochCounts,
    EpochState,
    calruption_epoch,
    epoch_length,
    epsilon,
    gap_estimates,
    layers_of,
    lp_rows,
    lp_value,
    next_query_probabilities,
    penalised_risks,
    risks_under,
)
from reference.empirical import argmin_lowest_index, empirical_risks
from reference.instance import disagreement_region
from reference.passive import passive as reference_passive
from reference.robust_cal import checkpoint_update

CHECK = "crosscheck"
# |H| up to which a run keeps its comparisons for the report's figure (AlgorithmReport.compared)
KEEP_COMPARED_UP_TO = 64


@dataclass(frozen=True)
class Divergence:
    kind: str
    where: str
    detail: str
    count: int = 1


@dataclass
class AlgorithmReport:
    """One algorithm on one case."""

    case_index: int
    algorithm: str
    reproducer: str = ""
    divergences: list[Divergence] = field(default_factory=list)
    mismatches: list[Violation] = field(default_factory=list)
    worst: dict[str, float] = field(default_factory=dict)  # largest error / tolerance per entry
    skipped: str | None = None  # why the algorithm was not run on this case
    runs: int = 1  # runs it stands for: >1 only for the skipped runs of cases the budget left ungenerated
    seconds: float = 0.0  # the call and the comparison (a report's per-algorithm time, properties/reports/junit.py)
    # (where, candidate values, exact values) of every numeric comparison, kept only for a
    # run with a mismatch: the report's figure of the first differing quantity over the
    # checkpoints or epochs (properties/reports/first_difference.py)
    compared: list | None = field(default_factory=list, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return not self.mismatches and self.skipped is None

    def divergence_counts(self) -> Counter:
        counts = Counter()
        for d in self.divergences:
            counts[d.kind] += d.count
        return counts


class _Comparer:
    """Collects mismatches and divergences of one algorithm run."""

    def __init__(self, report: AlgorithmReport, tolerances, judgement: Judgement = EXACT_JUDGEMENT):
        self.report, self.tolerances, self.judgement = report, tolerances, judgement

    def fail(self, where: str, message: str, **values) -> None:
        # the spec conventions that define the field (properties/core/spec_citations.py: one table)
        message = f"{self.report.algorithm}, {where}: {message}{cite_field(where)}"
        self.report.mismatches.append(Violation.of(CHECK, message, **values))

    def diverge(self, kind: str, where: str, detail: str, count: int = 1) -> None:
        self.report.divergences.append(Divergence(kind, where, detail, count))

    def same(self, where: str, candidate, exact) -> bool:
        if _is_number(candidate) and _is_number(exact):
            self.keep(where, (candidate,), (exact,))
        if candidate != exact:
            numbers = point(candidate) is not None and point(exact) is not None
            self.fail(
                where,
                "differs from the exact value",
                candidate=candidate,
                exact=exact,
                **(mismatch_values(candidate, exact) if numbers else {}),
            )
            return False
        return True

    def within(self, name: str, candidate: Fraction, exact: Fraction, scale=Fraction(1), record=True) -> bool:
        accepted, ratio = self.tolerances[name].judge(candidate, exact, scale)
        if record:
            self.report.worst[name] = max(self.report.worst.get(name, 0.0), ratio)
        return accepted

    def keep(self, where: str, candidates, exacts) -> None:
        if self.report.compared is not None:
            self.report.compared.append((where, candidates, exacts))

    def close(self, name: str, where: str, candidate, exact, scale=Fraction(1), keep=True) -> bool:
        """Candidate against exact under tolerance `name`; None must match None."""
        if keep:
            self.keep(where, (candidate,), (exact,))
        if candidate is None or exact is None:
            if candidate is not exact:
                self.fail(where, "is undefined in one trace and defined in the other", candidate=candidate, exact=exact)
                return False
            return True
        if not self.within(name, candidate, exact, scale):
            t = self.tolerances[name]
            self.fail(
                where,
                f"is outside the tolerance of {name!r} (rel {t.rel:g}, abs {t.abs:g} x {t.scale})",
                candidate=candidate,
                exact=exact,
                **mismatch_values(candidate, exact),
            )
            return False
        return True

    def close_all(self, name: str, where: str, candidates, exacts, scale=Fraction(1)) -> bool:
        if len(candidates) != len(exacts):
            self.fail(where, "has the wrong length", candidate=len(candidates), exact=len(exacts))
            return False
        self.keep(where, candidates, exacts)
        ok = True
        for i, (c, e) in enumerate(zip(candidates, exacts)):
            if c is not None and e is not None and self.within(name, c, e, scale):
                continue  # the common case, without building the name of the entry
            ok = self.close(name, f"{where}[{i}]", c, e, scale, keep=False) and ok
        return ok

    def minimiser(
        self, choice: str, name: str, where: str, chosen: int, values, members, own, scale=Fraction(1)
    ) -> bool:
        """The candidate's argmin against the exact values: the lowest-index argmin, or (if
        the table `properties.checks.free_choices` says `choice` is free) a divergence of its class
        (argmin_tie) when its exact value is within tolerance of the minimum and the choice
        is a minimiser of the candidate's own reported values `own` (within tolerance)."""
        members = sorted(members)
        if chosen not in members:
            self.fail(where, "is not among the hypotheses it minimises over", candidate=chosen, members=members)
            return False
        best = argmin_lowest_index(values, members)
        if chosen == best:
            return True
        kind = divergence_of(choice)
        if kind is None:
            self.fail(
                where, f"is not the lowest-index argmin, which the table pins ({choice})", candidate=chosen, exact=best
            )
            return False
        own_best = min(own[h] for h in members)
        if not self.within(name, own[chosen], own_best, scale, record=False):
            self.fail(
                where,
                "is not a minimiser of the candidate's own reported values",
                candidate=chosen,
                its_value=own[chosen],
                its_minimum=own_best,
            )
            return False
        if self.within(name, values[chosen], values[best], scale):
            self.diverge(
                kind,
                where,
                f"h {chosen} instead of {best} ({choice}): exact values {values[chosen]} and {values[best]}",
            )
            return True
        self.fail(
            where,
            "is not a minimiser",
            candidate=chosen,
            exact=best,
            candidate_value=values[chosen],
            minimum=values[best],
        )
        return False

    def canonical(self, where: str, members) -> bool:
        """Index sets are reported sorted and without repeats (as the reference does)."""
        if list(members) != sorted(set(members)):
            self.fail(where, "must list hypotheses or points in increasing order, each once", candidate=members)
            return False
        return True


def _is_number(value) -> bool:
    return isinstance(value, (int, Fraction)) and not isinstance(value, bool)


def _mid(enclosure) -> Fraction:
    return (enclosure.lo + enclosure.hi) / 2


# -- passive -----------------------------------------------------------------------------
def _passive(cmp: _Comparer, H, tape, params, trace) -> None:
    everyone = range(len(H))
    exact = reference_passive(H, tape, params).empirical_risk
    cmp.same("labels_requested", trace.labels_requested, tape.n)
    cmp.close_all("empirical_risk", "empirical_risk", trace.empirical_risk, exact)
    cmp.minimiser("passive.erm_tie", "empirical_risk", "output", trace.output, exact, everyone, trace.empirical_risk)


# -- RobustCAL ---------------------------------------------------------------------------
class _Stream:
    """The tape consumed in order, aggregated per point (seen, queried by label)."""

    def __init__(self, tape, m: int):
        self.tape, self.pos, self.labels = tape, 0, 0
        self.seen = [0] * m
        self.queried = [[0, 0] for _ in range(m)]

    def advance_dis(self, end: int, dis) -> None:
        for t in range(self.pos, end):
            x = self.tape.x[t]
            self.seen[x] += 1
            if x in dis:  # Algorithm 1, line 4
                self.queried[x][self.tape.y[t]] += 1
                self.labels += 1
        self.pos = end


def _robust_cal(cmp: _Comparer, H, tape, params, trace, vanilla: bool) -> None:
    n = tape.n
    if trace.vanilla != vanilla:
        cmp.fail("vanilla", "flag differs from the request", candidate=trace.vanilla, exact=vanilla)
        return
    expected_t = [1 << k for k in range(1, n.bit_length()) if 1 << k <= n]
    if [c.t for c in trace.checkpoints] != expected_t:
        cmp.fail(
            "checkpoints",
            "are not t = 2, 4, ..., <= n (line 7)",
            candidate=[c.t for c in trace.checkpoints],
            exact=expected_t,
        )
        return
    members = tuple(range(len(H)))
    stream = _Stream(tape, len(H[0]))
    for c in trace.checkpoints:
        where = f"checkpoint t = {c.t}"
        if not (
            cmp.canonical(f"{where} version_space", c.version_space)
            and cmp.canonical(f"{where} next_version_space", c.next_version_space)
        ):
            return
        if not cmp.same(f"{where} version_space (the previous next_version_space)", c.version_space, members):
            return
        stream.advance_dis(c.t, disagreement_region(H, members))
        cmp.same(f"{where} labels_requested", c.labels_requested, stream.labels)
        ref = checkpoint_update(H, members, stream.seen, stream.queried, stream.labels, c.t, params, vanilla)
        cmp.close_all("empirical_risk", f"{where} empirical_risk", c.empirical_risk, ref.empirical_risk)
        if not cmp.minimiser(
            "robust_cal.h_hat_tie",
            "empirical_risk",
            f"{where} h_hat (line 8)",
            c.h_hat,
            ref.empirical_risk,
            members,
            c.empirical_risk,
        ):
            return
        if c.h_hat != ref.h_hat:
            ref = checkpoint_update(
                H, members, stream.seen, stream.queried, stream.labels, c.t, params, vanilla, c.h_hat
            )
        points = sum(1 for s in stream.seen if s)  # the "disagreement" entry's scale: a sum of marginals
        largest = max((v for v in ref.disagreement if v is not None), default=Fraction(0))
        cmp.close_all("disagreement", f"{where} disagreement", c.disagreement, ref.disagreement, points * largest)
        _compare_enclosure(cmp, "beta", f"{where} beta", c.beta, ref.beta)
        for h in range(len(H)):
            if (c.threshold[h] is None) != (ref.threshold[h] is None):
                cmp.fail(f"{where} threshold[{h}]", "is undefined in one trace and defined in the other")
            elif ref.threshold[h] is not None:
                _compare_enclosure(cmp, "threshold", f"{where} threshold[{h}]", c.threshold[h], ref.threshold[h])
        if not set(c.next_version_space) <= set(members):
            cmp.fail(f"{where} next_version_space", "is not a subset of V_t", candidate=c.next_version_space, V=members)
            return
        for h in members:
            kept, exact_kept = h in c.next_version_space, h in ref.next_version_space
            if kept == exact_kept:
                continue
            lhs = ref.empirical_risk[h] - ref.empirical_risk[ref.h_hat]
            threshold = _mid(ref.threshold[h])
            own_lhs, own_threshold = c.empirical_risk[h] - c.empirical_risk[c.h_hat], _mid(c.threshold[h])
            # the candidate's decision must follow from its own numbers, unless those are
            # themselves within rounding of each other (then either decision does)
            own = (own_lhs <= own_threshold) == kept or cmp.within("threshold", own_lhs, own_threshold, record=False)
            if own and _threshold_tie(cmp, params, ref, h, c.t, vanilla, lhs, threshold):
                cmp.diverge(
                    "threshold_boundary",
                    f"{where} h {h}",
                    f"kept {kept} with L^ difference {float(lhs)!r} against threshold {float(threshold)!r}",
                )
            else:
                cmp.fail(
                    f"{where} keep h {h} (line 10)",
                    "differs from the exact decision",
                    candidate=kept,
                    exact=exact_kept,
                    risk_difference=lhs,
                    threshold=threshold,
                )
        members = c.next_version_space
    stream.advance_dis(n, disagreement_region(H, members))
    cmp.canonical("final_version_space", trace.final_version_space)
    cmp.same("final_version_space", trace.final_version_space, members)
    final = empirical_risks(H, stream.queried, n, members)
    cmp.close_all("empirical_risk", "final_empirical_risk", trace.final_empirical_risk, final)
    cmp.same("labels_requested", trace.labels_requested, stream.labels)
    cmp.minimiser(
        "robust_cal.output_tie", "empirical_risk", "output", trace.output, final, members, trace.final_empirical_risk
    )


def _threshold_tie(cmp: _Comparer, params, ref, h: int, t: int, vanilla: bool, lhs, threshold) -> bool:
    """Whether line 10's exact margin lies within the float error of its two sides: for a
    float candidate the same rule as `check` (properties/checks/formulas.py, judgement.undecided);
    an exact candidate's enclosure only within the table's rounding of the reference's."""
    J = cmp.judgement
    if J.exact:
        return cmp.within("threshold", lhs, threshold)
    count = ref.disagreement[h] * t  # rho^_t(h, h^_t) counts an integer number of rounds
    bound = robust_cal_threshold(J, robust_cal_beta(J, params, t), J.ratio(int(count), t), t, vanilla)
    margin = J.sub(bound, J.sub(J.given(ref.empirical_risk[h]), J.given(ref.empirical_risk[ref.h_hat])))
    return J.undecided(margin)


# -- CALruption --------------------------------------------------------------------------
def _epoch_counts(tape, start: int, end: int, q, exact_q, m: int, judgement: Judgement = EXACT_JUDGEMENT):
    """Counts of rounds start..end (1-based) under the candidate's coins u_t < q^{x_t}
    (line 4), how many rounds the exact q would have decided otherwise, and (asked, not
    asked) counts of the rounds a float candidate may decide either way against its own q
    (`Judgement.coin_undecided`, the rule `check` applies too)."""
    seen = [0] * m
    queried = [[0, 0] for _ in range(m)]
    flipped = 0
    undecided = [0, 0]
    for t in range(start - 1, end):
        x, u = tape.x[t], tape.u[t]
        seen[x] += 1
        asked = u < q[x]
        if asked:
            queried[x][tape.y[t]] += 1
        if exact_q is not None and asked != (u < exact_q[x]):
            flipped += 1
        if judgement.coin_undecided(u, q[x]):
            undecided[0 if asked else 1] += 1
    return seen, queried, flipped, undecided


def _labels(cmp: _Comparer, where: str, candidate: int, exact: int, undecided) -> int:
    """Labels requested: exactly the count of u_t < q, or, for a float candidate, within
    its undecided coins of it (a `coin` divergence, one per round it decided otherwise).
    Returns the count the run goes on from (the candidate's, where accepted)."""
    if candidate != exact and exact - undecided[0] <= candidate <= exact + undecided[1]:
        cmp.diverge(
            "coin",
            where,
            f"{abs(candidate - exact)} coins within the rounding of the candidate's q",
            abs(candidate - exact),
        )
        return candidate
    cmp.same(f"{where} labels_requested", candidate, exact)
    return exact


def _calruption(cmp: _Comparer, H, tape, params, trace) -> None:
    n, m, num_h = tape.n, len(H[0]), len(H)
    schedule, tau, l = [], 1, 1
    while tau + epoch_length(params, l) - 1 <= n:
        schedule.append((l, tau, epoch_length(params, l)))
        tau, l = tau + epoch_length(params, l), l + 1
    found = [(e.l, e.tau, e.length) for e in trace.epochs]
    if found != schedule:
        cmp.fail(
            "epochs", "are not the schedule l, tau_l, |I_l| = ceil(beta1 4^l) (line 1)", candidate=found, exact=schedule
        )
        return
    q, exact_q, gap_prev = (Fraction(1),) * m, None, (Fraction(0),) * num_h
    penalty_scale = 1 + params.beta2  # line 10's penalty carries the candidate's rounding of Delta^ times beta2
    labels = 0
    for e in trace.epochs:
        where = f"epoch {e.l}"
        if not cmp.same(f"{where} q (the previous next_q)", e.q, q):
            return
        seen, queried, flipped, undecided = _epoch_counts(
            tape, e.tau, e.tau + e.length - 1, q, exact_q, m, cmp.judgement
        )
        if flipped:
            cmp.diverge("coin", where, f"{flipped} coins between the candidate's q and the exact q", flipped)
        labels += _labels(cmp, where, e.labels_requested, sum(a + b for a, b in queried), undecided)
        counts = EpochCounts(tuple(seen), tuple(map(tuple, queried)))
        ref, _ = calruption_epoch(H, EpochState(e.l, e.tau, e.length, q, gap_prev), counts, params)
        if not cmp.same(f"{where} support", e.support, ref.support):
            return
        _compare_enclosure(cmp, "N", f"{where} N", e.N, ref.N)
        cmp.close_all("empirical_x", f"{where} empirical_x", e.empirical_x, ref.empirical_x)
        for h in range(num_h):
            marginals = len(ref.support) * max(ref.rho[h])  # the "rho" entry's scale: a sum of marginals
            cmp.close_all("rho", f"{where} rho[{h}]", e.rho[h], ref.rho[h], marginals)
            cmp.same(f"{where} min_q[{h}]", e.min_q[h], ref.min_q[h])
            cmp.close_all("alpha", f"{where} alpha[{h}]", e.alpha[h], ref.alpha[h])
            cmp.close_all("weight", f"{where} weight[{h}]", e.weight[h], ref.weight[h])
            for h2 in range(num_h):
                _compare_W(cmp, f"{where} W[{h}][{h2}]", e.W[h][h2], ref.W[h][h2], ref.min_q[h][h2])
        eta = _check_fit(cmp, where, H, ref, e)
        if eta is None:
            return
        risk = risks_under(H, ref.support, ref.empirical_x, eta)
        # R_D sums over S_l: its bound (and those derived from it) grows with |S_l|
        sum_scale = support_sum_scale(len(ref.support))
        cmp.close_all("risk_hat", f"{where} risk_hat", e.risk_hat, risk, sum_scale)
        penalised = penalised_risks(risk, gap_prev, params.beta2)
        own = penalised_risks(e.risk_hat, gap_prev, params.beta2)
        if not cmp.minimiser(
            "calruption.h_star_tie",
            "penalised",
            f"{where} h_star_hat (line 10)",
            e.h_star_hat,
            penalised,
            range(num_h),
            own,
            penalty_scale * sum_scale,
        ):
            return
        gap = gap_estimates(risk, penalised[e.h_star_hat], e.l)
        cmp.close_all("gap_hat", f"{where} gap_hat (line 11)", e.gap_hat, gap, penalty_scale * sum_scale)
        level = _check_layers(cmp, where, e, gap, penalty_scale * sum_scale)
        if level is None:
            return
        exact_q = next_query_probabilities(H, ref.rho, level, e.l)
        marginals = len(ref.support) * max(exact_q, default=Fraction(0))  # the "next_q" entry's scale
        cmp.close_all("next_q", f"{where} next_q (line 13)", e.next_q, exact_q, marginals)
        q, gap_prev = e.next_q, e.gap_hat
    cmp.same("final_epoch", trace.final_epoch, len(schedule) + 1)
    start = schedule[-1][1] + schedule[-1][2] if schedule else 1
    cmp.same("unfinished_rounds", trace.unfinished_rounds, n - start + 1)
    undecided = [0, 0]
    if start <= n:
        _, queried, flipped, undecided = _epoch_counts(tape, start, n, q, exact_q, m, cmp.judgement)
        if flipped:
            cmp.diverge(
                "coin", "unfinished epoch", f"{flipped} coins between the candidate's q and the exact q", flipped
            )
        labels += sum(a + b for a, b in queried)
    _labels(cmp, "total", trace.labels_requested, labels, undecided)
    _check_output(cmp, trace, num_h)


def _check_output(cmp: _Comparer, trace, num_h: int) -> None:
    """ "Output: h in V_l^{l-1}": a member of the candidate's own top layer (already held to
    the exact layers, with layer_boundary where Delta^ is at eps_L), any hypothesis without
    a completed epoch; another member than the reference's choice, the candidate's own
    h^*_L (0 without an epoch), is a divergence of the free choice `calruption.output`."""
    documented = trace.epochs[-1].h_star_hat if trace.epochs else 0
    if trace.output == documented:
        return
    accepted = accepted_calruption_outputs(trace, num_h)
    if trace.output in accepted:
        cmp.diverge(
            divergence_of("calruption.output"),
            "output",
            f"h {trace.output} instead of {documented}, both in V_L^(L-1) = {list(accepted)}",
        )
    else:
        cmp.fail(
            "output",
            "is not in V_l^{l-1}, the last completed epoch's top layer (R13)",
            candidate=trace.output,
            accepted=accepted,
            h_star=documented,
        )


def _compare_enclosure(cmp: _Comparer, name: str, where: str, candidate, exact) -> None:
    """An enclosure of an irrational (beta_t, line 10's threshold, N_l): an exact
    candidate's must meet the reference's certified one -- both contain the true value,
    and how tightly a correct implementation encloses it is its own choice (the property
    checks ask for containment only) -- a float one's midpoint must be within tolerance."""
    if cmp.tolerances is EXACT:
        cmp.keep(where, (_mid(candidate),), (_mid(exact),))
        if candidate.hi < exact.lo or exact.hi < candidate.lo:
            cmp.fail(
                where, "enclosure is disjoint from the reference's certified one", candidate=candidate, exact=exact
            )
        return
    cmp.close(name, where, _mid(candidate), _mid(exact))


def _compare_W(cmp: _Comparer, where, candidate, exact, min_q) -> None:
    """Line 8's Catoni estimate: an exact candidate's enclosure must meet the reference's
    (both contain the root); a float one must be within tolerance of it."""
    if candidate is None and exact is not None and min_q is None and exact.lo == exact.hi == 0:
        return  # W null where rho^ = 0 (every sample is 0): docs/protocol.md section 6 accepts either form
    if candidate is None or exact is None:
        if candidate is not exact:
            cmp.fail(where, "is undefined in one trace and defined in the other", candidate=candidate, exact=exact)
        return
    if cmp.tolerances is EXACT:
        if candidate.hi < exact.lo or exact.hi < candidate.lo:
            cmp.fail(where, "enclosure is disjoint from the reference's", candidate=candidate, exact=exact)
        return
    scale = 1 / min_q if min_q else Fraction(1)
    nearest = min(max(_mid(candidate), exact.lo), exact.hi)
    cmp.close("W", where, _mid(candidate), nearest, scale)


def _check_fit(cmp: _Comparer, where, H, ref, e):
    """Line 9: the candidate's D^ must be optimal for the exact LP (within tolerance); if it
    is not the reference's, that is a non-unique optimum. Returns the candidate's eta^."""
    eta = e.eta_hat
    if len(eta) != len(ref.eta_hat) or any((v is None) != (x not in ref.support) for x, v in enumerate(eta)):
        cmp.fail(f"{where} eta_hat", "must be defined exactly on the support S_l", candidate=eta, support=ref.support)
        return None
    outside = [x for x in ref.support if not 0 <= eta[x] <= 1]
    if outside:
        cmp.fail(f"{where} eta_hat", "is not a probability", point=outside[0], value=eta[outside[0]])
        return None
    rows = lp_rows(ref)
    scale = max((w * (abs(W) + 1) for _, _, w, W in rows), default=Fraction(1))
    value = lp_value(H, ref.support, ref.empirical_x, rows, eta)
    if value > ref.lp_objective and not cmp.within("lp_optimality", value, ref.lp_objective, scale):
        cmp.fail(
            f"{where} eta_hat (line 9)",
            "is not an optimal D^ of the exact LP",
            objective_at_candidate=value,
            optimum=ref.lp_objective,
        )
        return None
    cmp.close("lp_objective", f"{where} lp_objective", e.lp_objective, ref.lp_objective, scale)
    if any(not cmp.within("eta_hat", eta[x], ref.eta_hat[x], record=False) for x in ref.support):
        choice = "calruption.fit" if rows else "calruption.fit_without_rows"
        kind = divergence_of(choice)
        if kind is None:
            cmp.fail(f"{where} eta_hat (line 9)", f"is not the reference's D^, which the table pins ({choice})")
            return None
        cmp.diverge(
            kind,
            where,
            f"a different optimal D^ ({choice}): objective {float(value)!r}, optimum {float(ref.lp_objective)!r}",
        )
    return eta


def _check_layers(cmp: _Comparer, where, e, gap, scale):
    """Line 12 from the candidate's own Delta^ (exactly), then against the exact Delta^.
    V^0 is all of H whatever the rounding (exactly, Delta^ <= 1 = eps_0)."""
    num_h = len(gap)
    if len(e.layers) != e.l + 1:
        cmp.fail(f"{where} layers", "must be V^0..V^l", candidate=len(e.layers), exact=e.l + 1)
        return None
    if not all(cmp.canonical(f"{where} layers[{i}]", layer) for i, layer in enumerate(e.layers)):
        return None
    if not cmp.same(f"{where} layers[0] (V^0 = H: Delta^ <= 1 always)", e.layers[0], tuple(range(num_h))):
        return None
    own, _ = layers_of(e.gap_hat, e.l)
    if not cmp.same(f"{where} layers (from the candidate's own gap_hat, line 12)", e.layers, own):
        return None
    exact_layers, _ = layers_of(gap, e.l)
    for i in range(e.l + 1):
        for h in set(e.layers[i]) ^ set(exact_layers[i]):
            if cmp.within("gap_hat", gap[h], epsilon(i), scale):
                cmp.diverge("layer_boundary", f"{where} V^{i} h {h}", f"Delta^ {float(gap[h])!r} at eps_{i}")
            else:
                cmp.fail(f"{where} layer V^{i}", "membership differs from the exact one", h=h, exact_gap=gap[h])
                return None
    return [max(i for i in range(e.l + 1) if h in e.layers[i]) for h in range(num_h)]


# -- driver ------------------------------------------------------------------------------
RUNNERS = {
    "passive": _passive,
    "robust_cal": partial(_robust_cal, vanilla=False),
    "robust_cal_vanilla": partial(_robust_cal, vanilla=True),
    "calruption": _calruption,
}


def arithmetic_of(candidate) -> str:
    """The candidate's declared arithmetic (module attribute ARITHMETIC): "exact" unless it
    says "float64" -- a float candidate must say so to get the tolerance table."""
    return as_candidate(candidate).arithmetic


def _params(cmp: _Comparer, trace, params) -> None:
    cmp.same("params (the trace records what it ran with)", trace.params, params)


def crosscheck_case(
    candidate, case, index: int = 0, algorithms=ALGORITHMS, hung=None, deadline: float | None = None
) -> list[AlgorithmReport]:
    """The candidate against the reference on one case. `hung` ({algorithm: case index}),
    shared across cases, records algorithms whose call hung: they are not run again (each
    would wait out the timeout) and their later cases are reported as skipped. Once
    `deadline` (time.monotonic() seconds, properties/core/budget.py) has passed, no algorithm
    starts: the rest are skipped too."""
    candidate = as_candidate(candidate)
    tolerances = table(arithmetic_of(candidate))
    H = case.instance.hypotheses
    hung = {} if hung is None else hung
    reports = []
    for algorithm in algorithms:
        report = AlgorithmReport(index, algorithm, case.reproducer())
        if len(H) > KEEP_COMPARED_UP_TO:  # a large case's comparisons would hold its whole run in memory
            report.compared = None
        if algorithm in hung:
            report.skipped = f"not run: the candidate hung on {algorithm} in case {hung[algorithm]}"
            reports.append(report)
            continue
        if spent(deadline):
            report.skipped = BUDGET_SKIP
            reports.append(report)
            continue
        cmp = _Comparer(report, tolerances, Judgement(arithmetic_of(candidate)))
        started = time.perf_counter()
        try:
            trace = run_algorithm(CHECK, candidate, algorithm, case)
        except CallFailed as failure:
            report.mismatches.append(failure.violation)
            if failure.violation.message.startswith("hung after"):
                hung[algorithm] = index
        else:
            try:
                _params(cmp, trace, case.params)
                RUNNERS[algorithm](cmp, H, case.tape, case.params, trace)
            except Exception as error:  # a structurally odd trace (wrong lengths, types) is the candidate's fault
                cmp.fail("trace", f"crashed: {type(error).__name__}: {error} (comparing it with the reference)")
        report.seconds = time.perf_counter() - started
        if not report.mismatches:
            report.compared = None
        reports.append(report)
    return reports


def crosscheck(
    candidate,
    name: str,
    cases,
    algorithms=ALGORITHMS,
    progress=None,
    deadline: float | None = None,
    total: int | None = None,
) -> Summary:
    """The candidate against the reference on `cases`: a list, or any iterable of `total`
    cases (a stream, generated only as far as the run gets). Once the budget is spent
    before a case, no further case is generated: each algorithm gets one report standing
    for its runs on every case not reached, so the time a run takes does not grow with
    the number of cases asked for."""
    reports, hung = [], {}
    total = len(cases) if total is None else total
    stream = iter(cases)
    for index in range(total):
        if spent(deadline):
            reports.extend(
                AlgorithmReport(
                    index,
                    algorithm,
                    runs=total - index,
                    skipped=(
                        f"not run: the candidate hung on {algorithm} in case {hung[algorithm]}"
                        if algorithm in hung
                        else BUDGET_SKIP
                    ),
                )
                for algorithm in algorithms
            )
            if progress:
                progress(total - 1, reports)
            break
        case = next(stream, None)
        if case is None:
            break
        reports.extend(crosscheck_case(candidate, case, index, algorithms, hung, deadline))
        if progress:
            progress(index, reports)
    return Summary(name, arithmetic_of(candidate), reports)


__all__ = [
    "ALGORITHMS",
    "DIVERGENCE_KINDS",
    "AlgorithmReport",
    "Divergence",
    "Summary",
    "arithmetic_of",
    "crosscheck",
    "crosscheck_case",
    "summary_text",
]
