"""Conditional (on-event) and statistical checks of CALruption's analysis: Section 5.2
and Appendix D of the paper (events E_gap, E_dis1, E_dis2; the lemmas "Estimation
accuracy for D^_l", "Upper/Lower bound of the estimated gap", "Upper bound and lower
bound for all estimation" = Lemma 5.1, "upper bound the difference of classifiers";
the correctness half of the proof of Theorem 5.1).

The harness knows nu*, eta*, the adversary's eta_t and the tape, so it decides exactly
whether the events of the analysis hold on a run; where they do, the lemma's conclusion
must hold for the implementation's trace. An event holds only if it provably holds for
the whole certified enclosure of every irrational in it (beta3 and beta1 may be logs,
square roots appear, and the trace's W_l^{h,h'} is an enclosure: an event involving W
holds only if it holds for every W in the enclosure); a conclusion is violated only if it
is provably violated.

Readings (FINDINGS.md R10, R11):
* N_l is read as |I_l| = ceil(beta1 4^l), the epoch's number of rounds, everywhere: in the
  events, in the lemmas' bounds and in g_l = (2/beta1) eps_l^2 sum_{s<=l} C_s (...) =
  (2/N_l) sum_{s<=l} C_s (...). With a rational beta1 (every scaled regime here) beta1 4^l
  is an integer and |I_l| = N_l exactly; in the paper regime |I_l| in [N_l, N_l + 1).
* R^_l(h) = (1/|I_l|) sum_{t in I_l} E_{y~Ber(eta_t^{x_t})} 1{h(x_t) != y} (line 8),
  R-bar_l(h) = (1/|I_l|) sum_{t in I_l} R_t(h), C_l = sum_{t in I_l} c_t, all exact.
* rho^_l is recomputed from the tape; q_l and W_l are the implementation's (its trace);
  min_{x in Dis(h,h')} q_l^x runs over the epoch's seen points (R11). A pair with
  rho^_l = 0 satisfies condition (1) iff W = 0 exactly; a pair with min q = 0 (rho^ > 0)
  satisfies it vacuously (its right-hand side is infinite, R11).
* E_bern: the est-helper proof's "second inequality ... Bernstein inequality" step,
  |(R^_l(h) - R^_l(h')) - (R-bar_l(h) - R-bar_l(h'))| <= 2 sqrt(beta3/N_l), which is NOT
  part of E_gap, E_dis1 or E_dis2 although the lemmas claim to hold "on E_gap". It is
  decided like the other events and used by the corrected statements.

Parameter regimes (each check's docstring says which it needs):
* "paper premises": beta2 >= 5/32 and beta1 >= 20480 beta3 (the algorithm box's
  beta1 = 32 * 640 beta3, FINDINGS R8), the premises under which the lemmas' constants
  (1/16, 2, 3/2, 3) are derived. Full runs cannot afford them with the paper's beta3
  (|I_1| > 10^5 rounds), so the full-run strategies keep them true with a small rational
  beta3 = beta1 / (20480 k): the lemmas are deterministic implications "on the events",
  true for any beta3 if true at all. With such a beta3 the events are rare after epoch 1
  on sampled tapes (q <= 1/4 makes the importance weights noisy), so `paper_premise_cases`
  (properties/strategies/, like every strategy named here)
  mixes sampled tapes (`premise_regime_cases`) with crafted ones (`crafted_tape_cases`:
  tapes of positive probability whose coins make each epoch's query count equal its
  expectation, so condition (1) holds exactly). The one-epoch checks use the paper's own
  constants (Params.paper) with epochs of 10^5..10^7 rounds: an epoch update costs the
  same whatever the counts.
* "any": statements stated for the premises they actually use (events, the previous
  epoch's bounds), true for every beta1, beta2, beta3; strategies mix the scaled regime
  (beta1 in {1, 2, 4}, the paper's beta3) with the premise regime.

Findings (the paper-form checks fail on the reference; verified exactly in
tests/properties/checks/test_calruption_events.py): the appendix states the lemma "Estimation
accuracy for D^_l", the upper/lower bounds of the estimated gap, Lemma 5.1, Lemma 5.2 and
the correctness of Theorem 5.1 "on E_gap" (resp. given E_gap, E_dis1, E_dis2), but the
est-helper proof also uses the Bernstein step E_bern (R^_l versus R-bar_l, the sampling of
x), which none of the three events contains: on tapes of positive probability where all
three events hold, all of these conclusions fail (an 84-round clean run outputs a
hypothesis with Delta = 49/50 > 6 sqrt(2 beta1/n)). The statements with E_bern added
(`..._with_sampling_events`) and the est-helper chain made exact (`..._corrected`) pass.
The main proof's last step 3 eps_{L-1} + 3 g_{L-1} <= 6 sqrt(2 beta1/n) + 24 C-bar/n is
false as printed; with 64 C-bar/n it holds.

Here: the checks on whole runs, the statistical check of condition (1), and the registry
of every check of this analysis. The events themselves, decided on a tape, and each lemma's
violations given them are in properties/checks/calruption_truth.py; the one-epoch checks
in properties/checks/calruption_one_epoch.py.
"""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import strategies as st

from properties.checks.calruption_one_epoch import (
    _estimation_corrected_one_epoch,
    _estimation_one_epoch,
    _fit_error_one_epoch,
    _gap_bounds_one_epoch,
    check_calruption_estimation_lemma_corrected_one_epoch,
    check_calruption_estimation_lemma_one_epoch,
    check_calruption_fit_error_one_epoch,
    check_calruption_gap_bounds_one_epoch,
    check_calruption_gap_bounds_one_epoch_with_sampling_events,
)
from properties.checks.calruption_truth import (
    Outcome,
    _enclose,
    _float_rhs,
    _pairs,
    _report,
    _Slack,
    beta1_premise,
    e_bern_epoch,
    e_gap_epoch,
    estimation_corrected_violations,
    estimation_lemma_violations,
    fit_error_violations,
    gap_bound_violations,
    le_bound,
    le_sqrt_lin,
    min_q,
    paper_premises,
    risk_of_fit,
    run_events,
    run_view,
    schedule,
)
from properties.checks.registry import case_check, custom_check
from properties.core.case import Case
from properties.core.epochs import eps, g_value
from properties.core.steering import note
from properties.core.violation import Violation
from properties.strategies import (
    CATONI_EXPERIMENT,
    GAP_BOUND_MODES,
    QUICK_CATONI_EXPERIMENT,
    CatoniFrequencyExperiment,
    any_regime_cases,
    burst_then_clean_cases,
    one_epoch_cases,
    paper_premise_cases,
)
from reference.certified import Enclosure, ScaledLog, certified_ceil


# =====================================================================================
# checks on full runs
# =====================================================================================
def _fit_error_on_event(name, impl, case) -> Outcome:
    view = run_view(name, impl, case)
    if not view.records:
        return Outcome([], "no completed epoch")
    instance, beta3 = case.instance, case.params.beta3
    slack, found, met = _Slack(), [], 0
    for rec, truth in zip(view.records, view.truths):
        if e_gap_epoch(instance.hypotheses, truth, rec.q, rec.W, beta3) is not None:
            continue
        met += 1
        fit = risk_of_fit(name, instance.hypotheses, rec, truth)
        found += fit_error_violations(name, instance, truth, rec.q, fit, beta3, slack, {})
    return Outcome(found, None if met else "condition (1) fails in every completed epoch", slack.value)


def check_calruption_fit_error_on_event(impl, case):
    """Appendix D, lemma "Estimation accuracy for D^_l" (est helper), the intermediate line
    of its proof: on condition (1) for every pair of epoch l (E_gap restricted to epoch l),
    for every pair with rho^_l > 0 and min q > 0,
      |(R_D^_l(h) - R_D^_l(h')) - (R*(h) - R*(h'))|
          <= 2 sqrt(10 beta3/N_l) sqrt(rho^_l/min_{Dis(h,h')} q_l^x) + |(R^_l(h) - R^_l(h')) - (R*(h) - R*(h'))|.
    Uses only condition (1) of epoch l and the optimality of D^_l (the distribution with
    x-marginal p^ and eta^ = the epoch's average eta_t is feasible), so it holds for any
    beta1, beta2, beta3 (regime: any; scaled, premise-regime and crafted cases). D^ must be an
    exact optimum; the reference's is certified optimal for rational stand-ins of W and
    the weights (FINDINGS R12), within relative 2^-63."""
    return _report(_fit_error_on_event("check_calruption_fit_error_on_event", impl, case))


def _estimation_lemma(name, impl, case) -> Outcome:
    premise = beta1_premise(case.params)
    if premise:
        return Outcome([], premise)
    view = run_view(name, impl, case)
    if not view.records:
        return Outcome([], "no completed epoch")
    events = run_events(view)
    reason = events.all_hold("gap")
    if reason:
        return Outcome([], reason)
    instance, slack, found = case.instance, _Slack(), []
    for rec, truth in zip(view.records, view.truths):
        fit = risk_of_fit(name, instance.hypotheses, rec, truth)
        found += estimation_lemma_violations(name, instance, truth, fit, view.gap_prev(truth.l), slack, {})
    return Outcome(found, None, slack.value)


def check_calruption_estimation_lemma(impl, case):
    """Appendix D, lemma "Estimation accuracy for D^_l" (est helper), its final display as
    printed: on E_gap (every completed epoch), for every epoch l and pair (h, h'),
      |(R_D^_l(h) - R_D^_l(h')) - (R*(h) - R*(h'))|
          <= 1/16 (max{Delta^^{l-1}_h, Delta^^{l-1}_{h'}} + eps_l) + 4 C_l R*/N_l + 2 C_l/N_l max{Delta_h, Delta_{h'}}.
    Regime: paper premises (beta1 >= 20480 beta3; applies only when it provably holds;
    sampled and crafted premise-regime tapes, `paper_premise_cases`). Note the proof also uses a Bernstein bound on R^_l - R-bar_l that
    E_gap does not contain (see E_bern and check_calruption_estimation_lemma_corrected)."""
    return _report(_estimation_lemma("check_calruption_estimation_lemma", impl, case))


def _estimation_corrected(name, impl, case) -> Outcome:
    view = run_view(name, impl, case)
    if not view.records:
        return Outcome([], "no completed epoch")
    instance, params = case.instance, case.params
    slack, found, met = _Slack(), [], 0
    for i, (rec, truth) in enumerate(zip(view.records, view.truths)):
        if e_gap_epoch(instance.hypotheses, truth, rec.q, rec.W, params.beta3) is not None:
            continue
        if e_bern_epoch(instance.hypotheses, truth, params.beta3) is not None:
            continue
        met += 1
        fit = risk_of_fit(name, instance.hypotheses, rec, truth)
        rho_prev = None if i == 0 else view.truths[i - 1].rho_hat
        found += estimation_corrected_violations(
            name, instance, truth, fit, view.gap_prev(truth.l), rho_prev, params, slack, {}
        )
    return Outcome(found, None if met else "E_gap or E_bern fails in every completed epoch", slack.value)


def check_calruption_estimation_lemma_corrected(impl, case):
    """Appendix D, lemma "Estimation accuracy for D^_l", corrected (any beta1, beta2, beta3):
    on condition (1) for every pair of epoch l and E_bern for epoch l (the Bernstein step
    the proof uses, |(R^_l(h) - R^_l(h')) - (R-bar_l(h) - R-bar_l(h'))| <= 2 sqrt(beta3/N_l)),
    for every pair with rho^_l > 0 and rho^_{l-1}(h,h') > 0 (rho^_0 := 1),
      |(R_D^(h) - R_D^(h')) - (R*(h) - R*(h'))|
          <= 4 sqrt(10 beta3/beta1) sqrt(rho^_l/rho^_{l-1}) (max{Delta^^{l-1}_h, Delta^^{l-1}_{h'}} + eps_l)
             + 2 sqrt(beta3/beta1) eps_l + 2 (C_l/N_l) rho*(h,h').
    Every step is the paper's, made exact: q_l is built from rho^_{l-1} (line 13), not
    rho^_l as the proof writes; the corruption term is Lemma A.2's 2 (C/N) rho*(h,h') (the
    printed 4 C R*/N + 2 C/N max Delta is half of the bound the proof's own step gives).
    With beta1 = 20480 beta3 the first coefficient is 4 sqrt(10/20480) ~ 0.088, not 1/16.
    Regime: any (scaled, premise-regime and crafted cases)."""
    return _report(_estimation_corrected("check_calruption_estimation_lemma_corrected", impl, case))


def _view_on_paper_events(name, impl, case, also=()):
    """(view, None) when the paper's premises hold and the run meets E_gap, E_dis1,
    E_dis2 (and the events named in `also`) in every completed epoch, else (None, why).
    The premises are checked before the implementation runs."""
    premise = paper_premises(case.params)
    if premise:
        return None, premise
    view = run_view(name, impl, case)
    if not view.records:
        return None, "no completed epoch"
    reason = run_events(view).all_hold("gap", "dis1", "dis2", *also)
    return (None, reason) if reason else (view, None)


def _gap_bounds_lemma_51(name, impl, case, also=()) -> Outcome:
    view, reason = _view_on_paper_events(name, impl, case, also)
    if reason:
        return Outcome([], reason)
    slack, found = _Slack(), []
    for rec in view.records:
        found += gap_bound_violations(name, case.instance, rec.l, rec.gap_hat, view.g(rec.l), slack, {})
    return Outcome(found, None, slack.value)


def check_calruption_gap_bounds_lemma_51(impl, case):
    """Lemma 5.1 (main text) = Appendix D lemma "Upper bound and lower bound for all
    estimation": on E_gap, E_dis1 and E_dis2 (every completed epoch), for every completed
    epoch l and every h,
      Delta^^l_h <= 2 (Delta_h + eps_l + g_l)   and   Delta_h <= 3/2 Delta^^l_h + 3/2 eps_l + 3 g_l,
    g_l = (2/beta1) eps_l^2 sum_{s<=l} C_s (2R* 1{2C_s/N_s <= 1/16} + 1{2C_s/N_s > 1/16}) with
    N_s read as |I_s| (equal in this regime). Regime: paper premises (beta2 >= 5/32,
    beta1 >= 20480 beta3; sampled and crafted premise-regime tapes, `paper_premise_cases`). At l = 1 both bounds are implied by
    eps_1 <= Delta^ <= 1; the statement bites from l = 2 on."""
    return _report(_gap_bounds_lemma_51("check_calruption_gap_bounds_lemma_51", impl, case))


def _gap_bounds_lemma_51_sampling(name, impl, case) -> Outcome:
    return _gap_bounds_lemma_51(name, impl, case, also=("bern",))


def check_calruption_gap_bounds_lemma_51_with_sampling_events(impl, case):
    """Lemma 5.1 (see check_calruption_gap_bounds_lemma_51) on E_gap, E_dis1, E_dis2 and
    E_bern (every completed epoch): the events with the est-helper proof's Bernstein step
    made explicit. Same conclusion, same regime (paper premises). A conjectured
    correction, tested here, not proved (the proof has other slips, see
    check_calruption_estimation_lemma_corrected)."""
    return _report(
        _gap_bounds_lemma_51_sampling("check_calruption_gap_bounds_lemma_51_with_sampling_events", impl, case)
    )


def _layers_at(view, l: int):
    """V_l^j for j = 0..l-1 (V_1^0 = H)."""
    if l == 1:
        return (tuple(range(view.case.instance.num_hypotheses)),)
    return view.records[l - 2].layers


def _layer_bound_violations(name, view, l, slack, only_if_lower_bound: bool) -> tuple[list, int]:
    instance = view.case.instance
    best, R_star = instance.best, instance.best_risk
    g_prev = view.g(l - 1)
    gap_prev = view.gap_prev(l)
    found, used = [], 0
    for j, layer in enumerate(_layers_at(view, l)):
        bound = 2 * R_star + 3 * eps(j) + 3 * g_prev
        for h in layer:
            if only_if_lower_bound:
                if instance.gap(h) > Fraction(3, 2) * gap_prev[h] + Fraction(3, 2) * eps(l - 1) + 3 * g_prev:
                    continue
                used += 1
            rho = instance.disagreement(h, best)
            slack.add(float(bound - rho))
            if rho > bound:
                found.append(
                    Violation.of(
                        name,
                        "rho*(h, h*) > 2R* + 3 eps_j + 3 g_{l-1} for h in V_l^j",
                        l=l,
                        j=j,
                        h=h,
                        rho=rho,
                        bound=bound,
                        gap=instance.gap(h),
                        gap_hat_prev=gap_prev[h],
                    )
                )
    return found, used


def _layer_disagreement_bound(name, impl, case) -> Outcome:
    view, reason = _view_on_paper_events(name, impl, case)
    if reason:
        return Outcome([], reason)
    slack, found = _Slack(), []
    for l in range(1, len(view.records) + 2):
        found += _layer_bound_violations(name, view, l, slack, False)[0]
    return Outcome(found, None, slack.value)


def check_calruption_layer_disagreement_bound(impl, case):
    """Appendix D lemma "upper bound the difference of classifiers" (Lemma 5.2 in the main
    text): on E_gap, E_dis1 and E_dis2 (the events of Lemma 5.1, which it uses), for every
    epoch l = 1..L (L the running epoch; V_l^j from the trace's layers) and layer j,
      max_{h in V_l^j} rho*(h, h*) <= 2R* + 3 eps_j + 3 g_{l-1}.
    Regime: paper premises (beta2 >= 5/32, beta1 >= 20480 beta3; sampled and crafted
    premise-regime tapes, `paper_premise_cases`). Non-trivial only for eps_j < 1/3 (j >= 2),
    i.e. from l = 3 on."""
    return _report(_layer_disagreement_bound("check_calruption_layer_disagreement_bound", impl, case))


def _layer_bound_from_lower(name, impl, case) -> Outcome:
    view = run_view(name, impl, case)
    if not view.records:
        return Outcome([], "no completed epoch")
    slack, found, used = _Slack(), [], 0
    for l in range(2, len(view.records) + 2):
        more, count = _layer_bound_violations(name, view, l, slack, True)
        found += more
        used += count
    return Outcome(found, None if used else "the lower bound of Lemma 5.1 fails for every layer member", slack.value)


def check_calruption_layer_disagreement_bound_from_lower_bound(impl, case):
    """Appendix D lemma "upper bound the difference of classifiers", stated for the premise
    its proof actually uses (any beta1, beta2, beta3): for l >= 2, j in 0..l-1 and h in
    V_l^j (the trace's layers) such that the lower bound of Lemma 5.1 holds at epoch l-1,
    Delta_h <= 3/2 Delta^^{l-1}_h + 3/2 eps_{l-1} + 3 g_{l-1} (decided exactly),
      rho*(h, h*) <= 2R* + 3 eps_j + 3 g_{l-1}.
    (rho*(h,h*) <= R*(h) + R* = 2R* + Delta_h always; Delta^^{l-1}_h <= eps_j by line 12;
    eps_{l-1} <= eps_j.) Regime: any (scaled, premise-regime and crafted cases)."""
    return _report(_layer_bound_from_lower("check_calruption_layer_disagreement_bound_from_lower_bound", impl, case))


def theorem_epochs(case) -> list[tuple[int, int, int]]:
    """Theorem 5.1's epochs l = 1..floor(log4(n/beta1)) (prescheduled: (l, tau_l, |I_l|)),
    which may include the unfinished one."""
    params, n = case.params, case.tape.n
    result, tau, l = [], 1, 1
    while certified_ceil(params.beta1, 4**l) <= n:  # beta1 4^l <= n iff ceil(beta1 4^l) <= n
        length = certified_ceil(params.beta1, 4**l)
        result.append((l, tau, length))
        tau, l = tau + length, l + 1
    return result


def c_bar_total(case) -> Fraction:
    """C-bar_total = sum_{l <= floor(log4(n/beta1))} C_l (R* 1{C_l/N_l <= 1/32} + 1{C_l/N_l > 1/32})
    (Theorem 5.1), C_l over the epoch's rounds within 1..n, N_l read as |I_l|."""
    instance, n = case.instance, case.tape.n
    R_star = instance.best_risk
    total = Fraction(0)
    for _, tau, length in theorem_epochs(case):
        if tau > n:
            break
        C = case.adversary.total(instance, tau, min(n, tau + length - 1))
        total += C * (R_star if C / length <= Fraction(1, 32) else 1)
    return total


def _case_g(case, L: int) -> Fraction:
    """g_L from the schedule and the adversary (no run needed)."""
    instance = case.instance
    epochs = schedule(case.params, case.tape.n)[:L]
    corruptions = [case.adversary.total(instance, tau, tau + length - 1) for _, tau, length in epochs]
    return g_value(corruptions, [length for _, _, length in epochs], instance.best_risk)


def _correctness(name, impl, case) -> Outcome:
    view, reason = _view_on_paper_events(name, impl, case)
    if reason:
        return Outcome([], reason)
    instance, n = case.instance, case.tape.n
    L = len(view.records)
    out = view.trace.output
    gap = instance.gap(out)
    chain = 3 * eps(L) + 3 * view.g(L)
    found = []
    slack = _Slack()
    slack.add(float(chain - gap))
    if gap > chain:
        found.append(
            Violation.of(
                name,
                "Delta_{h_out} > 3 eps_{L-1} + 3 g_{L-1} on the events",
                output=out,
                gap=gap,
                last_completed_epoch=L,
                g=view.g(L),
            )
        )
    c_bar = c_bar_total(case)
    value = gap - 24 * c_bar / n
    slack.add(_float_rhs(Fraction(72, n), Fraction(0), case.params.beta1) - float(value))
    if le_sqrt_lin(value, Fraction(72, n), Fraction(0), case.params.beta1) is False:
        found.append(
            Violation.of(
                name,
                "Delta_{h_out} > 6 sqrt(2 beta1/n) + 24 C-bar_total/n on the events",
                output=out,
                gap=gap,
                n=n,
                C_bar_total=c_bar,
            )
        )
    return Outcome(found, None, slack.value)


def check_calruption_correctness_theorem_51(impl, case):
    """Theorem 5.1, correctness, and the main proof's chain (Appendix D, "Now we will deal
    with the correctness"): on E_gap, E_dis1 and E_dis2, with L-1 the last completed epoch
    and h_out = h^*_{L-1} (FINDINGS R13),
      Delta_{h_out} <= 3 eps_{L-1} + 3 g_{L-1}                       (the chain's second line)
      Delta_{h_out} <= 6 sqrt(2 beta1/n) + 24 C-bar_total/n          (the theorem's final form)
    the latter being the theorem with the smallest admissible epsilon = sqrt(72 beta1/n)
    (n >= 72 eps^-2 beta1 holds with equality; every larger epsilon follows). Regime: paper
    premises (beta2 >= 5/32, beta1 >= 20480 beta3; sampled and crafted premise-regime tapes,
    `paper_premise_cases`); needs one completed epoch."""
    return _report(_correctness("check_calruption_correctness_theorem_51", impl, case))


def output_on_lower_bound(name, impl, case):
    """(view, L, h_out, Delta_{h_out}, g_L, Delta^^{L-1}_{h_out}, None) for the last completed epoch L-1 when
    Lemma 5.1's lower bound holds there for h_out (the premise Theorem 5.1's correctness chain uses, printed
    and corrected), else (None, ..., the reason)."""
    view = run_view(name, impl, case)
    if not view.records:
        return None, 0, None, None, None, None, "no completed epoch"
    L = len(view.records)
    out = view.trace.output
    gap, g = case.instance.gap(out), view.g(L)
    gap_hat = view.records[-1].gap_hat[out]
    if gap > Fraction(3, 2) * gap_hat + Fraction(3, 2) * eps(L) + 3 * g:
        return None, L, out, gap, g, gap_hat, "the lower bound of Lemma 5.1 fails for h_out"
    return view, L, out, gap, g, gap_hat, None


def _correctness_from_lower(name, impl, case) -> Outcome:
    _, L, out, gap, g, gap_hat, reason = output_on_lower_bound(name, impl, case)
    if reason:
        return Outcome([], reason)
    chain = 3 * eps(L) + 3 * g
    if gap > chain:
        return Outcome(
            [
                Violation.of(
                    name,
                    "Delta_{h_out} > 3 eps_{L-1} + 3 g_{L-1} although Lemma 5.1's lower bound holds for h_out",
                    output=out,
                    gap=gap,
                    gap_hat=gap_hat,
                    g=g,
                    last_completed_epoch=L,
                )
            ],
            None,
            float(chain - gap),
        )
    return Outcome([], None, float(chain - gap))


def check_calruption_correctness_from_lower_bound(impl, case):
    """Theorem 5.1's correctness chain, stated for the premise it actually uses (any beta1,
    beta2, beta3): if the lower bound of Lemma 5.1 holds at the last completed epoch L-1
    for h_out, Delta_{h_out} <= 3/2 Delta^^{L-1}_{h_out} + 3/2 eps_{L-1} + 3 g_{L-1}, then
    Delta_{h_out} <= 3 eps_{L-1} + 3 g_{L-1} (h_out in V_L^{L-1}: Delta^^{L-1}_{h_out} <= eps_{L-1}).
    Regime: any (scaled, premise-regime and crafted cases)."""
    return _report(_correctness_from_lower("check_calruption_correctness_from_lower_bound", impl, case))


def _final_step(name, case, coefficient: int) -> Outcome:
    n = case.tape.n
    L = len(schedule(case.params, n))
    if L == 0:
        return Outcome([], "no completed epoch")
    g = _case_g(case, L)
    c_bar = c_bar_total(case)
    value = 3 * eps(L) + 3 * g - coefficient * c_bar / n
    slack = _float_rhs(Fraction(72, n), Fraction(0), case.params.beta1) - float(value)
    if le_sqrt_lin(value, Fraction(72, n), Fraction(0), case.params.beta1) is False:
        return Outcome(
            [
                Violation.of(
                    name,
                    f"3 eps_{{L-1}} + 3 g_{{L-1}} > 6 sqrt(2 beta1/n) + {coefficient} C-bar_total/n",
                    n=n,
                    last_completed_epoch=L,
                    g=g,
                    C_bar_total=c_bar,
                    lhs=3 * eps(L) + 3 * g,
                )
            ],
            None,
            slack,
        )
    return Outcome([], None, slack)


def check_calruption_correctness_final_step(case):
    """Appendix D, main proof of Theorem 5.1, the correctness chain's last two inequalities
    as printed ("just by replacing the value of eps_{L-1} and g_{L-1}"), with L-1 the last
    completed epoch of n rounds:
      3 eps_{L-1} + 3 g_{L-1} <= 6 sqrt(2 beta1/n) + 24 C-bar_total/n.
    Pure algebra on (n, beta1, the adversary, R*): no implementation involved. Regime:
    any (the cases are scaled-regime ones with an early burst, `burst_then_clean_cases`)."""
    return _report(_final_step("check_calruption_correctness_final_step", case, 24))


def check_calruption_correctness_final_step_corrected(case):
    """The correctness chain's last step, corrected: with L-1 the last completed epoch,
    n < sum_{l <= L} |I_l| gives eps_{L-1}^2 < 16 beta1/(3n), so 3 eps_{L-1} < 4 sqrt(3 beta1/n)
    <= 6 sqrt(2 beta1/n) and 3 g_{L-1} < 32 S/n with S = sum_{s<L} C_s (2R* 1{..} + 1{..})
    <= 2 C-bar_total:
      3 eps_{L-1} + 3 g_{L-1} <= 6 sqrt(2 beta1/n) + 64 C-bar_total/n.
    (Exact when beta1 4^l is an integer; regime: any, tested on `burst_then_clean_cases`,
    the corner where the printed step fails.)"""
    return _report(_final_step("check_calruption_correctness_final_step_corrected", case, 64))


# =====================================================================================
# statistical check
# =====================================================================================
def binomial_upper_tail(N: int, p: Fraction, k: int) -> Fraction:
    """P(Binomial(N, p) >= k), exactly."""
    if k <= 0:
        return Fraction(1)
    return sum((math.comb(N, j) * p**j * (1 - p) ** (N - j) for j in range(k, N + 1)), Fraction(0))


def per_pair_delta(beta3) -> Fraction:
    """delta with log(1/delta) = beta3, i.e. e^-beta3, for beta3 = c log(a) with an integer c
    (exact: a^-c)."""
    if isinstance(beta3, ScaledLog) and beta3.coefficient.denominator == 1:
        return 1 / beta3.argument ** int(beta3.coefficient)
    raise ValueError(f"per_pair_delta needs beta3 = c log(a) with an integer c, got {beta3.describe()}")


def condition_1_tallies(name, impl, experiment: CatoniFrequencyExperiment):
    """{(l, h, h'): [trials, violations]} over the experiment's runs: a trial is an
    (epoch, unordered pair) with rho^_l > 0, min q > 0 and |I_l| >= 4 beta3; a violation is
    condition (1) provably failing (for some W in the enclosure, either order)."""
    e = experiment
    H = e.instance.hypotheses
    beta3 = e.params.beta3
    tallies: dict[tuple[int, int, int], list[int]] = {}
    for seed in e.seeds:
        case = Case(e.instance, e.adversary, seed, e.params)
        view = run_view(name, impl, case)
        for rec, truth in zip(view.records, view.truths):
            if le_bound(4 * _enclose(beta3, 64).hi, lambda bits: Enclosure.point(truth.length)) is not True:
                continue
            for h, h2 in _pairs(len(H)):
                rho = truth.rho_hat[h][h2]
                mq = min_q(H, rec.q, truth.support, h, h2)
                if rho == 0 or not mq:
                    continue
                slot = tallies.setdefault((truth.l, h, h2), [0, 0])
                slot[0] += 1
                violated = False
                for a, b in ((h, h2), (h2, h)):
                    w = rec.W[a][b]
                    if w is None:
                        violated = True
                        continue
                    diff = truth.risk_hat[a] - truth.risk_hat[b]
                    d = max(abs(diff - w.lo), abs(diff - w.hi))
                    if le_sqrt_lin(d, 10 * rho / (truth.length * mq), Fraction(0), beta3) is False:
                        violated = True
                slot[1] += violated
    return tallies


def check_catoni_condition_1_frequency(impl, experiment):
    """Algorithm 2, line 8, condition (1) "with probability at least 1 - delta", per (epoch,
    pair) with log(1/delta) replaced by beta3 as in E_gap: the lemma "Concentration
    inequality in our case" states P(condition (1) fails) <= delta_pair = e^-beta3 for a
    fixed epoch and pair (conditionally on the epoch's x_t and the past), as long as
    N_l >= 4 beta3. (The lemma it rests on, Catoni's inequality, gives 1 - 2 delta; the
    restatement's 1 - delta is what is tested here.) The implementation runs on a fixed
    seed set (CATONI_EXPERIMENT: beta3 = 2 log 4, delta_pair = 1/16 exactly); pairs of one
    run are dependent, runs are independent, so each slot (l, h, h') is tested on its own:
    with k violations in N trials the slot fails if P(Binomial(N, delta_pair) >= k) <
    alpha / #slots (exact tail; Bonferroni over slots, alpha = 10^-3)."""
    name = "check_catoni_condition_1_frequency"
    e = experiment
    delta_pair = per_pair_delta(e.params.beta3)
    tallies = condition_1_tallies(name, impl, e)
    if not tallies:
        return [Violation.of(name, "the experiment produced no trial")]
    found = []
    level = e.alpha / len(tallies)
    total_trials = sum(t for t, _ in tallies.values())
    total_violations = sum(k for _, k in tallies.values())
    note(f"condition (1): {total_violations} violations in {total_trials} trials")
    for slot, (trials, violations) in sorted(tallies.items()):
        tail = binomial_upper_tail(trials, delta_pair, violations)
        if tail < level:
            found.append(
                Violation.of(
                    name,
                    "condition (1) fails too often for probability >= 1 - delta per pair",
                    slot=slot,
                    trials=trials,
                    violations=violations,
                    delta_pair=delta_pair,
                    p_value=float(tail),
                    level=level,
                )
            )
    return found


# =====================================================================================
# registry
# =====================================================================================
OUTCOMES = {
    "check_calruption_fit_error_on_event": _fit_error_on_event,
    "check_calruption_estimation_lemma": _estimation_lemma,
    "check_calruption_estimation_lemma_corrected": _estimation_corrected,
    "check_calruption_gap_bounds_lemma_51": _gap_bounds_lemma_51,
    "check_calruption_gap_bounds_lemma_51_with_sampling_events": _gap_bounds_lemma_51_sampling,
    "check_calruption_layer_disagreement_bound": _layer_disagreement_bound,
    "check_calruption_layer_disagreement_bound_from_lower_bound": _layer_bound_from_lower,
    "check_calruption_correctness_theorem_51": _correctness,
    "check_calruption_correctness_from_lower_bound": _correctness_from_lower,
    "check_calruption_estimation_lemma_one_epoch": _estimation_one_epoch,
    "check_calruption_fit_error_one_epoch": _fit_error_one_epoch,
    "check_calruption_estimation_lemma_corrected_one_epoch": _estimation_corrected_one_epoch,
    "check_calruption_gap_bounds_one_epoch": lambda name, impl, ex: _gap_bounds_one_epoch(name, impl, ex, False),
    "check_calruption_gap_bounds_one_epoch_with_sampling_events": lambda name, impl, ex: _gap_bounds_one_epoch(
        name, impl, ex, True
    ),
}
"""check name -> (name, impl, example) -> Outcome, for the meta-tests (premise shares)."""

_EST = 'Appendix D, lemma "Estimation accuracy for D^_l"'
_GAP = 'Lemma 5.1; Appendix D, lemmas "Upper/Lower bound of the estimated gap", "Upper bound and lower bound for all estimation"'
_LAYER = 'Lemma 5.2; Appendix D, lemma "upper bound the difference of classifiers"'
_THM = "Theorem 5.1; Appendix D, main proof (correctness)"

CHECKS = (
    custom_check(
        check_calruption_fit_error_on_event,
        _EST + " (proof, intermediate line)",
        "conditional",
        any_regime_cases(),
        covers=("calruption",),
    ),
    custom_check(
        check_calruption_estimation_lemma,
        _EST + " (as printed)",
        "conditional",
        paper_premise_cases(),
        covers=("calruption",),
    ),
    custom_check(
        check_calruption_estimation_lemma_corrected,
        _EST + " (corrected)",
        "conditional",
        any_regime_cases(),
        covers=("calruption",),
    ),
    custom_check(
        check_calruption_gap_bounds_lemma_51, _GAP, "conditional", paper_premise_cases(), covers=("calruption",)
    ),
    custom_check(
        check_calruption_gap_bounds_lemma_51_with_sampling_events,
        _GAP + " (with E_bern)",
        "conditional",
        paper_premise_cases(),
        covers=("calruption",),
    ),
    custom_check(
        check_calruption_layer_disagreement_bound, _LAYER, "conditional", paper_premise_cases(), covers=("calruption",)
    ),
    custom_check(
        check_calruption_layer_disagreement_bound_from_lower_bound,
        _LAYER + " (premise it uses)",
        "conditional",
        any_regime_cases(),
        covers=("calruption",),
    ),
    custom_check(
        check_calruption_correctness_theorem_51, _THM, "conditional", paper_premise_cases(), covers=("calruption",)
    ),
    custom_check(
        check_calruption_correctness_from_lower_bound,
        _THM + " (premise it uses)",
        "conditional",
        any_regime_cases(),
        covers=("calruption",),
    ),
    case_check(
        check_calruption_correctness_final_step,
        _THM + ", last two inequalities as printed",
        "lemma",
        burst_then_clean_cases(),
    ),
    case_check(
        check_calruption_correctness_final_step_corrected,
        _THM + ", last two inequalities corrected",
        "lemma",
        burst_then_clean_cases(),
    ),
    custom_check(
        check_calruption_estimation_lemma_one_epoch,
        _EST + " (as printed, one epoch)",
        "conditional",
        one_epoch_cases(),
        covers=("calruption_epoch",),
    ),
    custom_check(
        check_calruption_fit_error_one_epoch,
        _EST + " (proof, intermediate line, one epoch)",
        "conditional",
        one_epoch_cases(regimes=("paper", "scaled")),
        covers=("calruption_epoch",),
    ),
    custom_check(
        check_calruption_estimation_lemma_corrected_one_epoch,
        _EST + " (corrected, one epoch)",
        "conditional",
        one_epoch_cases(regimes=("paper", "scaled")),
        covers=("calruption_epoch",),
    ),
    custom_check(
        check_calruption_gap_bounds_one_epoch,
        _GAP + " (induction step, one epoch)",
        "conditional",
        one_epoch_cases(modes=GAP_BOUND_MODES, first_epoch=2),
        covers=("calruption_epoch",),
    ),
    custom_check(
        check_calruption_gap_bounds_one_epoch_with_sampling_events,
        _GAP + " (induction step with E_bern and E_dis, one epoch)",
        "conditional",
        one_epoch_cases(modes=GAP_BOUND_MODES, first_epoch=2),
        covers=("calruption_epoch",),
    ),
    custom_check(
        check_catoni_condition_1_frequency,
        'Algorithm 2, line 8, condition (1); Appendix D, lemma "Concentration inequality in our case"',
        "statistical",
        st.just(CATONI_EXPERIMENT),
        covers=("calruption",),
        quick=st.just(QUICK_CATONI_EXPERIMENT),
    ),
)
