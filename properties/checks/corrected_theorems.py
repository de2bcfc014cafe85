"""The corrected accuracy statements of Theorems 4.1 and 5.1 (ERRATA.md, summary table; FINDINGS F8, F6, F18),
checked on generated runs beside the printed forms.

The printed forms stay where they are: Lemma C.1's printed lines (`check_passive_learning_lemma_c1`, the
display Theorem 4.1's accuracy is read from) and Theorem 5.1's `check_calruption_correctness_theorem_51`
(24 C-bar_total/n). The checks here state what ERRATA says is true and must pass on the reference:
  - Theorem 4.1: on the proof's event, R_*(h_out) - R^* <= eps + 8 (C_total/n) R^* whenever
    n >= (8R^*/eps^2 + 22/eps) L (proofs_check corrected.thm41.accuracy_event, factor 1, forced; the route
    through Lemma C.1's closed form gives (5/4) eps, corrected.thm41.accuracy, F8: checked too);
  - Theorem 5.1: R_*(h_out) - R^* <= eps + 64 C-bar_total/n whenever n >= 72 beta_1/eps^2
    (corrected.thm51.correctness and corrected.thm51.accuracy: 64, not 24, F6).
Each is checked at the smallest eps its sample size allows, so every larger eps follows.
"""

from __future__ import annotations

from fractions import Fraction

from properties.checks.calruption_events import c_bar_total, output_on_lower_bound
from properties.checks.calruption_truth import Outcome, _report, le_sqrt_lin
from properties.checks.conditional import _lemma_c1_premises, holds
from properties.checks.registry import custom_check, trace_check
from properties.core.steering import note
from properties.core.violation import Violation
from properties.strategies import paper_premise_cases, theorem41_cases
from reference.certified import Enclosure, ScaledLog, sqrt_enclosure


def smallest_eps_41(log_term: ScaledLog, best_risk: Fraction, t: int, bits: int) -> Enclosure:
    """Enclosure of the smallest eps with t >= (8R^*/eps^2 + 22/eps) L, L = log(|H|/delta):
    eps = (22L + sqrt(484L^2 + 32 t R^* L))/(2t), the positive root of t eps^2 - 22L eps - 8R^*L = 0.
    It increases with L, so the ends of L's enclosure give its ends."""
    L = log_term.enclosure(bits)
    inner = Enclosure(484 * L.lo**2 + 32 * t * best_risk * L.lo, 484 * L.hi**2 + 32 * t * best_risk * L.hi)
    return (L.scale(Fraction(22)) + sqrt_enclosure(inner, bits)).scale(Fraction(1, 2 * t))


def theorem41_corrected_bound(
    log_term: ScaledLog, best_risk: Fraction, C_t: Fraction, t: int, factor: Fraction = Fraction(1)
):
    """factor * eps_t + 8 (C_t/t) R^*, eps_t = smallest_eps_41: Theorem 4.1's accuracy at n = t (factor 1 along the
    event line, corrected.thm41.accuracy_event; 5/4 through Lemma C.1's closed form, corrected.thm41.accuracy)."""
    return lambda bits: (
        smallest_eps_41(log_term, best_risk, t, bits).scale(factor) + Enclosure.point(8 * C_t * best_risk / t)
    )


def check_robust_cal_accuracy_theorem_41_corrected(case, trace):
    """Theorem 4.1's accuracy as ERRATA.md states it true (summary row "Theorem 4.1, accuracy": true on its event
    with eps + 8(C_total/n)R^*; proofs_check corrected.thm41.accuracy_event, and (5/4) eps along Lemma C.1's
    closed form, corrected.thm41.accuracy; FINDINGS F8, F18): for n >= (8R^*/eps^2 + 22/eps) L,
    R_*(h_out) - R^* <= eps + 8 (C_total/n) R^* (and so <= (5/4) eps + 8 (C_total/n) R^*).

    Checked at every checkpoint t where the proof's premises hold (those of Lemma C.1 at t: C_[0,s] <= s/8 at
    every checkpoint s, h^* in V_t, E_B(t); `_lemma_c1_premises`), for h^_t (a run of t rounds outputs it:
    the argmin of L^_t over V_{t+1}, which keeps h^_t), at the smallest eps the sample size t allows. L is
    log(|H|/delta), not the theorem's larger log(log(n)|H|^2/delta): a smaller L gives a smaller eps, so
    this is the stronger form, and the proof gives it (it uses L <= beta only at the end)."""
    name = "check_robust_cal_accuracy_theorem_41_corrected"
    R = case.instance.best_risk
    found = []
    for t, c, state, log_term in _lemma_c1_premises(case, trace):
        gap = case.instance.gap(c.h_hat)
        # the weaker form first: a run that breaks (5/4) eps breaks both, and is reported as such
        for factor in (Fraction(5, 4), Fraction(1)):
            bound = theorem41_corrected_bound(log_term, R, state.corruption, t, factor)
            if not holds(gap, bound):
                found.append(
                    Violation.of(
                        name,
                        f"R*(h^_t) - R* exceeds {factor} eps_t + 8 (C_t/t) R* on the event "
                        "(eps_t the smallest eps with t >= (8R*/eps^2 + 22/eps) L)",
                        t=t,
                        h_hat=c.h_hat,
                        gap=gap,
                        best_risk=R,
                        C_t=state.corruption,
                        bound_hi=bound(64).hi,
                    )
                )
                break
    return found


def _theorem51_corrected(name, impl, case) -> Outcome:
    # the premise the corrected chain uses (corrected.thm51.output): Lemma 5.1's lower bound for h_out at the
    # last completed epoch, which the corrected Lemma 5.1 gives on its events with beta1 >= 40960 beta3 (the estimation lemma's two coefficients kept apart)
    _, L, out, gap, _, _, reason = output_on_lower_bound(name, impl, case)
    if reason:
        return Outcome([], reason)
    n = case.tape.n
    value = gap - 64 * c_bar_total(case) / n
    verdict = le_sqrt_lin(value, Fraction(72, n), Fraction(0), case.params.beta1)
    if verdict is False:
        return Outcome(
            [
                Violation.of(
                    name,
                    "Delta_{h_out} > 6 sqrt(2 beta1/n) + 64 C-bar_total/n although Lemma 5.1's "
                    "lower bound holds for h_out",
                    output=out,
                    gap=gap,
                    n=n,
                    C_bar_total=c_bar_total(case),
                    last_completed_epoch=L,
                )
            ],
            None,
        )
    if verdict is None:
        note("theorem 5.1 corrected: undecided at 1024 bits")
    return Outcome([], None)


def check_calruption_accuracy_theorem_51_corrected(impl, case):
    """Theorem 5.1's accuracy as ERRATA.md states it (summary row "Theorem 5.1, accuracy": coefficient of
    C-bar_total/n 64, not the printed 24; proofs_check corrected.thm51.correctness, corrected.thm51.accuracy;
    FINDINGS F6, F18): R_*(h_out) - R^* <= eps + 64 C-bar_total/n whenever n >= 72 beta_1/eps^2, checked at
    the smallest such eps, sqrt(72 beta_1/n), i.e. Delta_{h_out} <= 6 sqrt(2 beta_1/n) + 64 C-bar_total/n.
    Premise: the one the corrected chain uses, Lemma 5.1's lower bound for h_out at the last completed epoch
    (corrected.thm51.output); the printed form is `check_calruption_correctness_theorem_51`."""
    return _report(_theorem51_corrected("check_calruption_accuracy_theorem_51_corrected", impl, case))


OUTCOMES = {"check_calruption_accuracy_theorem_51_corrected": _theorem51_corrected}

CHECKS = (
    trace_check(
        check_robust_cal_accuracy_theorem_41_corrected,
        "Theorem 4.1 (accuracy), corrected as in ERRATA.md: eps + 8 (C_total/n) R*",
        "conditional",
        "robust_cal",
        theorem41_cases(),
    ),
    custom_check(
        check_calruption_accuracy_theorem_51_corrected,
        "Theorem 5.1 (accuracy), corrected as in ERRATA.md: eps + 64 C-bar_total/n",
        "conditional",
        paper_premise_cases(),
        covers=("calruption",),
    ),
)
