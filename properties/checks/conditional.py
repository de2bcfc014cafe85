"""Conditional (on-event) checks, counter-example and statistical checks for passive
learning (Theorem 3.1) and RobustCAL (Algorithm 1, Theorem 4.1, Appendix C).

The harness knows nu*, eta*, eta_t and the tape, so on a run it can decide whether the
events of a proof hold; where they do, the proof's conclusion must hold for the trace
of the implementation under test. Every event is decided exactly: the widths contain
logarithms and square roots, enclosed by `reference.certified` and refined until the
comparison is settled (`certified.decide_le`), so an event "holds" only when it provably
holds, and a conclusion is "violated" only when it is provably violated.

Notation, as in Appendix C.1 ("for all subscripts [0, t] we simply write t"), at a
checkpoint t = 2^k (k >= 1, FINDINGS R3):
* R-bar_t(h) = (1/t) sum_{s=1..t} R_s(h), R_s the risk under (nu*, eta_s) (Section 2);
* R^_t(h) = (1/t) #{s <= t : h(x_s) != y_s}: the empirical risk on ALL t labels of the
  tape, queried or not. This is the quantity the events concentrate (y_s ~ eta_s^{x_s}
  independently); the proof uses L^_t(h*) - L^_t(h^_t) = R^_t(h*) - R^_t(h^_t), which is
  true for members of V_t (FINDINGS R4);
* rho^_t(h, h') = (1/t) #{s <= t : h(x_s) != h'(x_s)} (Algorithm 1, line 9);
* C_t = C_[0,t] = sum_{s=1..t} c_s (the adversary's exact total over rounds 1..t).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

from properties.checks.registry import custom_check, trace_check
from properties.core.candidate import run_algorithm
from properties.core.case import Case
from properties.core.steering import note, steer
from properties.core.violation import Violation
from properties.strategies import (
    PASSIVE_EXPERIMENT,
    QUICK_PASSIVE_EXPERIMENT,
    QUICK_VANILLA_EXPERIMENT,
    VANILLA_EXPERIMENT,
    cases,
    lemma_c1_cases,
    theorem41_cases,
)
from reference import Params
from reference import adversary as _adversaries
from reference import instances as _instances
from reference.certified import Enclosure, ScaledLog, decide_le, sqrt_enclosure

# ==========================================================================================
# exact quantities of a run
# ==========================================================================================


def _risk(nu, eta, labels) -> Fraction:
    return sum((p * (1 - e) if label == 1 else p * e for p, e, label in zip(nu, eta, labels)), Fraction(0))


def checkpoints(n: int) -> list[int]:
    """t = 2^k <= n, k >= 1 (FINDINGS R3)."""
    return [2**k for k in range(1, n.bit_length()) if 2**k <= n]


@dataclass(frozen=True)
class RunState:
    """Everything the events need at time t, exact."""

    t: int
    avg_risk: tuple[Fraction, ...]  # R-bar_t(h)
    emp_risk: tuple[Fraction, ...]  # R^_t(h), all t labels
    emp_dis: tuple[tuple[Fraction, ...], ...]  # rho^_t(h, h')
    corruption: Fraction  # C_t = C_[0,t]


def run_states(case, times) -> dict[int, RunState]:
    """R-bar_t, R^_t, rho^_t and C_t at each t in `times` (one pass over the tape)."""
    instance, adversary, tape = case.instance, case.adversary, case.tape
    H, m = instance.hypotheses, instance.num_points
    segments = adversary.bind(instance)
    segment_risks = [tuple(_risk(instance.nu, eta_t, h) for h in H) for _, _, eta_t, _ in segments]
    wanted = sorted(set(times))
    states = {}
    seen = [0] * m
    labelled = [[0, 0] for _ in range(m)]
    j = 0
    for t, (x, y) in enumerate(zip(tape.x, tape.y), start=1):
        seen[x] += 1
        labelled[x][y] += 1
        if j < len(wanted) and t == wanted[j]:
            j += 1
            total = [Fraction(0)] * len(H)
            for (start, end, _, _), risks in zip(segments, segment_risks):
                k = min(end, t) - start + 1
                if k <= 0:
                    break
                total = [a + k * r for a, r in zip(total, risks)]
            emp = tuple(Fraction(sum(labelled[z][1 - h[z]] for z in range(m)), t) for h in H)
            dis = tuple(tuple(Fraction(sum(seen[z] for z in range(m) if h[z] != g[z]), t) for g in H) for h in H)
            states[t] = RunState(t, tuple(v / t for v in total), emp, dis, adversary.total(instance, 1, t))
    return states


def width_enclosure(scale: Fraction, constant, rho: Fraction, t: int, bits: int) -> Enclosure:
    """Enclosure of sqrt(scale * b * rho / t) + b / t for b = constant (a ScaledLog)."""
    b = constant.enclosure(bits)
    return sqrt_enclosure(b.scale(scale * rho / t), bits) + b.scale(Fraction(1, t))


def holds(value: Fraction, bound) -> bool:
    """value <= B, decided exactly; bound(bits) encloses B."""
    return decide_le(value, bound)[0]


def robust_cal_events(case, state: RunState):
    """E1, E2, E3 of Appendix C.1 at checkpoint t, for all ordered pairs (h, h') of H
    (the union bound inside beta_t = log(3 log(t) |H|^2/delta) runs over |H|^2 pairs):
      E1: (R-bar_t(h) - R-bar_t(h')) - (R^_t(h) - R^_t(h')) <= sqrt(2 beta_t rho^_t(h,h')/t) + beta_t/t
      E2: the same with rho*(h,h') under the root
      E3: |rho*(h,h') - rho^_t(h,h')| <= sqrt(2 beta_t rho^_t(h,h')/t) + beta_t/t
    beta_t = case.params.robust_cal_beta(t) (the run's parameters, beta_scale included).
    Returns (E1, E2, E3) as booleans, each True only if it provably holds."""
    instance, t = case.instance, state.t
    beta = case.params.robust_cal_beta(t)
    num_h = instance.num_hypotheses
    cache: dict[tuple[Fraction, Fraction], bool] = {}

    def within(value: Fraction, rho: Fraction) -> bool:
        key = (value, rho)
        if key not in cache:
            cache[key] = holds(value, lambda bits: width_enclosure(Fraction(2), beta, rho, t, bits))
        return cache[key]

    e1 = e2 = e3 = True
    for h in range(num_h):
        for g in range(num_h):
            deviation = (state.avg_risk[h] - state.avg_risk[g]) - (state.emp_risk[h] - state.emp_risk[g])
            rho_hat, rho_star = state.emp_dis[h][g], instance.disagreement(h, g)
            e1 = e1 and within(deviation, rho_hat)
            e2 = e2 and within(deviation, rho_star)
            e3 = e3 and within(abs(rho_star - rho_hat), rho_hat)
    return e1, e2, e3


def theorem41_assumption(case) -> bool:
    """C_[0,t] <= t/8 at every checkpoint t = 2^k <= n (Theorem 4.1)."""
    return all(case.adversary.total(case.instance, 1, t) <= Fraction(t, 8) for t in checkpoints(case.adversary.n))


# ==========================================================================================
# conditional checks
# ==========================================================================================
def check_robust_cal_keeps_best_under_theorem_41(case, trace):
    """Theorem 4.1 (Appendix C.1, "First we show the correctness"): if C_[0,t] <= t/8 at
    every checkpoint (the theorem's assumption) and E1 and E3 hold at every checkpoint
    s <= t, then h* is in V_{t+1} (by induction from V_1 = H). The proof's chain is a
    deterministic consequence of E1 (for the pair (h^_t, h*)), Lemma A.2, R* <= R*(h^_t),
    E3 (for (h*, h^_t)), C_t/t <= 1/8 and sqrt(2 beta rho^/t) <= rho^/2 + beta/t, so it must
    hold on every run where the events hold, whatever the data. h* is the lowest-index
    minimiser of R* (any minimiser would do). Examples whose adversary breaks the
    assumption are skipped (counted with hypothesis.event). Events: see
    `robust_cal_events`."""
    name = "check_robust_cal_keeps_best_under_theorem_41"
    if not theorem41_assumption(case):
        note("theorem 4.1: C_[0,t] > t/8 at some checkpoint (skipped)")
        return []
    times = checkpoints(case.tape.n)
    if not times:
        note("theorem 4.1: no checkpoint (n < 2)")
        return []
    states = run_states(case, times)
    best = case.instance.best
    by_t = {c.t: c for c in trace.checkpoints}
    premise = True
    for t in times:
        e1, e2, e3 = robust_cal_events(case, states[t])
        premise = premise and e1 and e3
        if not premise:
            note(f"theorem 4.1: E1 and E3 fail at a checkpoint ({'E1' if not e1 else 'E3'} fails first)")
            return []
        c = by_t.get(t)
        if c is not None and best not in c.next_version_space:
            return [
                Violation.of(
                    name,
                    "h* eliminated although C_[0,s] <= s/8, E1 and E3 hold at every checkpoint s <= t",
                    t=t,
                    h_star=best,
                    V_t=c.version_space,
                    V_next=c.next_version_space,
                    h_hat=c.h_hat,
                    C_t=states[t].corruption,
                )
            ]
    note("theorem 4.1: assumption, E1 and E3 hold at every checkpoint")
    eliminated = case.instance.num_hypotheses - len(trace.final_version_space)
    if eliminated:
        note("theorem 4.1: events hold and some hypothesis was eliminated")
    steer(eliminated, "theorem41_eliminations_on_event")
    if best not in trace.final_version_space:
        return [
            Violation.of(
                name,
                "h* is not in the final version space although the events hold throughout",
                h_star=best,
                final=trace.final_version_space,
            )
        ]
    return []


def bernstein_event(case, state: RunState, log_term: ScaledLog) -> bool:
    """E_B(t), the Bernstein step of the proof of Theorem 3.1 (its third inequality),
    union-bounded over h: for every h in H,
      (R-bar_t(h) - R-bar_t(h*)) - (R^_t(h) - R^_t(h*)) <= sqrt(4 rho*(h, h*) L/t) + L/t,
    with L = log(|H|/delta). True only if it provably holds."""
    instance, t = case.instance, state.t
    best = instance.best
    for h in range(instance.num_hypotheses):
        deviation = (state.avg_risk[h] - state.avg_risk[best]) - (state.emp_risk[h] - state.emp_risk[best])
        rho = instance.disagreement(h, best)
        if not holds(deviation, lambda bits, r=rho: width_enclosure(Fraction(4), log_term, r, t, bits)):
            return False
    return True


def theorem31_bound(log_term: ScaledLog, best_risk: Fraction, C: Fraction, n: int, bits: int) -> Enclosure:
    """Theorem 3.1's right-hand side
    log(|H|/delta)/n + sqrt(8 R* log(|H|/delta)/n) + 8 C R*/n + 5 log(|H|/delta)/(n (1 - 4C/n)^2)."""
    L = log_term.enclosure(bits)
    return (
        L.scale(Fraction(1, n) + Fraction(5, n) / (1 - 4 * C / n) ** 2)
        + sqrt_enclosure(L.scale(8 * best_risk / n), bits)
        + Enclosure.point(8 * C * best_risk / n)
    )


def lemma_c1_lines(log_term: ScaledLog, best_risk: Fraction, C_t: Fraction, t: int, n: int):
    """The three right-hand sides of Lemma C.1 as printed (L = log(|H|/delta)):
    line 1: 22 L/t + 4 (C_t/n) R* + sqrt(R* 8 L/t)
    line 2: 22 L/t + R*/2 + sqrt(R* 8 L/t)
    line 3: 26 L/t + R*"""
    root = lambda bits: sqrt_enclosure(log_term.enclosure(bits).scale(8 * best_risk / t), bits)
    return {
        "line 1 (22L/t + 4(C_t/n)R* + sqrt(8R*L/t))": lambda bits: (
            log_term.enclosure(bits).scale(Fraction(22, t)) + root(bits) + Enclosure.point(4 * C_t * best_risk / n)
        ),
        "line 2 (22L/t + R*/2 + sqrt(8R*L/t))": lambda bits: (
            log_term.enclosure(bits).scale(Fraction(22, t)) + root(bits) + Enclosure.point(best_risk / 2)
        ),
        "line 3 (26L/t + R*)": lambda bits: (
            log_term.enclosure(bits).scale(Fraction(26, t)) + Enclosure.point(best_risk)
        ),
    }


def lemma_c1_line1_corrected(log_term: ScaledLog, best_risk: Fraction, C_t: Fraction, t: int):
    """Lemma C.1's line 1 corrected (FINDINGS F2, F18; proofs_check corrected.lemc1.line1):
    22 L/t + 8 (C_t/t) R* + sqrt(8 R* L/t): the corruption coefficient 8 (not 4, and C_t/t, not C_t/n);
    the printed 22 and sqrt(8 R* L/t) stay (along rho* <= Delta + 2R*, with C_t <= t/8)."""
    return lambda bits: (
        log_term.enclosure(bits).scale(Fraction(22, t))
        + sqrt_enclosure(log_term.enclosure(bits).scale(8 * best_risk / t), bits)
        + Enclosure.point(8 * C_t * best_risk / t)
    )


def _lemma_c1_premises(case, trace):
    """Per checkpoint where Lemma C.1's premises hold: (t, checkpoint, state, L).
    Premises: Theorem 4.1's assumption (C_[0,s] <= s/8 at every checkpoint), h* in V_t (the
    trace's), and E_B(t) (`bernstein_event`). h^_t is the trace's."""
    if not theorem41_assumption(case):
        note("lemma C.1: C_[0,t] > t/8 at some checkpoint (skipped)")
        return []
    instance = case.instance
    log_term = ScaledLog(Fraction(1), Fraction(instance.num_hypotheses) / case.params.delta)
    times = [c.t for c in trace.checkpoints if instance.best in c.version_space and c.t <= case.tape.n]
    states = run_states(case, times)
    result = []
    for c in trace.checkpoints:
        if c.t in states and bernstein_event(case, states[c.t], log_term):
            result.append((c.t, c, states[c.t], log_term))
    note(f"lemma C.1: premises hold at {'no' if not result else 'some'} checkpoint")
    return result


def check_passive_learning_lemma_c1(case, trace):
    """Lemma C.1 (Appendix C.1, the lemma "passive learning"), on-event and as printed:
    at a checkpoint t, if Theorem 4.1's assumption holds, h* in V_t and the Bernstein event
    E_B(t) of the proof of Theorem 3.1 holds, then R*(h^_t) - R* is at most each of the
    lemma's three lines (22L/t + 4(C_t/n)R* + sqrt(8R*L/t), 22L/t + R*/2 + sqrt(8R*L/t),
    26L/t + R*), L = log(|H|/delta). The proof derives them from E_B(t), Lemma A.2,
    R^_t(h^_t) <= R^_t(h*) (h^_t minimises L^_t over V_t, which contains h*) and
    rho*(h^_t, h*) <= 2 max{Delta, 2R*} only, so they must hold on every such run. A
    violation is reported only when it is certain (exact decision)."""
    name = "check_passive_learning_lemma_c1"
    instance = case.instance
    found = []
    for t, c, state, log_term in _lemma_c1_premises(case, trace):
        gap = instance.gap(c.h_hat)
        for line, bound in lemma_c1_lines(log_term, instance.best_risk, state.corruption, t, case.tape.n).items():
            if not holds(gap, bound):
                found.append(
                    Violation.of(
                        name,
                        f"R*(h^_t) - R* exceeds Lemma C.1's {line} on its event",
                        t=t,
                        n=case.tape.n,
                        h_hat=c.h_hat,
                        gap=gap,
                        best_risk=instance.best_risk,
                        C_t=state.corruption,
                        bound_hi=bound(64).hi,
                    )
                )
    # the lines that fail whatever n is (2 and 3) first, then the latest checkpoints
    found.sort(key=lambda v: ("line 1" in v.message, -int(v.values["t"])))
    return found


def check_passive_learning_lemma_c1_corrected(case, trace):
    """Lemma C.1 corrected (same premises as `check_passive_learning_lemma_c1`): with
    c = C_t/t <= 1/8 and L = log(|H|/delta),
      R*(h^_t) - R* <= L/t + sqrt(8R*L/t) + 8cR* + 5L/(t(1 - 4c)^2)   (Theorem 3.1's bound at t)
      R*(h^_t) - R* <= 26L/t + R*                                       (the lemma's line 3)
      R*(h^_t) - R* <= 22L/t + 8cR* + sqrt(8R*L/t)                      (line 1 corrected, FINDINGS F2).
    Both follow from Delta <= 2c rho + sqrt(4 rho L/t) + L/t with rho <= Delta + 2R* (line 3:
    solve the quadratic with c <= 1/8); the printed lines 1 and 2 do not (the corruption
    term of the quadratic's solution is 4c/(1 - 2c) R*, up to (2/3)R*, not 4(C_t/n)R* <= R*/2)."""
    name = "check_passive_learning_lemma_c1_corrected"
    instance = case.instance
    R = instance.best_risk
    found = []
    for t, c, state, log_term in _lemma_c1_premises(case, trace):
        gap = instance.gap(c.h_hat)
        bounds = {
            "Theorem 3.1's bound at t": lambda bits: theorem31_bound(log_term, R, state.corruption, t, bits),
            "line 3 (26L/t + R*)": lemma_c1_lines(log_term, R, state.corruption, t, case.tape.n)["line 3 (26L/t + R*)"],
            "line 1 corrected (22L/t + 8(C_t/t)R* + sqrt(8R*L/t))": lemma_c1_line1_corrected(
                log_term, R, state.corruption, t
            ),
        }
        for what, bound in bounds.items():
            if not holds(gap, bound):
                found.append(
                    Violation.of(
                        name,
                        f"R*(h^_t) - R* exceeds {what} on the event",
                        t=t,
                        h_hat=c.h_hat,
                        gap=gap,
                        best_risk=R,
                        C_t=state.corruption,
                        bound_hi=bound(64).hi,
                    )
                )
    return found


def check_passive_bound_theorem_31_on_event(case, trace):
    """Theorem 3.1, on-event: if E_B(n) holds (the Bernstein step of its proof, see
    `bernstein_event`) and 4 C_total < n (the proof divides by 1 - 4C_total/n when solving
    its quadratic), then R*(h_out) - R* <= log(|H|/delta)/n + sqrt(8R* log(|H|/delta)/n)
    + 8 C_total R*/n + 5 log(|H|/delta)/(n (1 - 4C_total/n)^2). The proof uses E_B(n),
    Lemma A.2, R^(h_out) <= R^(h*) and rho*(h_out, h*) <= R*(h_out) + R* only. (Its printed
    chain replaces sqrt(4 rho L/n) by sqrt(4 max{Delta, 2R*} L/n), which does not follow
    from rho <= 2 max{...}; the final bound holds nonetheless for 4C/n < 1: solving with
    the correct root gives at most the same right-hand side.)"""
    name = "check_passive_bound_theorem_31_on_event"
    instance, n = case.instance, case.tape.n
    C = case.adversary.total(instance, 1, n)
    if 4 * C >= n:
        note("theorem 3.1 on-event: 4 C_total >= n (skipped)")
        return []
    log_term = ScaledLog(Fraction(1), Fraction(instance.num_hypotheses) / case.params.delta)
    state = run_states(case, [n])[n]
    if not bernstein_event(case, state, log_term):
        note("theorem 3.1 on-event: E_B(n) fails")
        return []
    note("theorem 3.1 on-event: E_B(n) holds")
    gap = instance.gap(trace.output)
    bound = lambda bits: theorem31_bound(log_term, instance.best_risk, C, n, bits)
    if not holds(gap, bound):
        return [
            Violation.of(
                name,
                "R*(h_out) - R* exceeds Theorem 3.1's bound on its event",
                output=trace.output,
                gap=gap,
                best_risk=instance.best_risk,
                C_total=C,
                n=n,
                bound_hi=bound(64).hi,
            )
        ]
    return []


# ==========================================================================================
# counter-example (Appendix C.2) and statistical (Theorem 3.1) checks
# ==========================================================================================
def check_counterexample_vanilla_loses_best(impl, experiment):
    """Appendix C.2 ("Why vanilla Robust CAL does not work?") and Section 5's discussion,
    as a fixed experiment: on counterexample(1/2, 1/128) with eta^{x1} = 15/32 up to
    tau = 2^15 of n = 2^16 rounds (C_[0,t] <= t/32 <= t/8 at every t, so Theorem 4.1's
    assumption holds), with the paper's constants and delta = 1/10, over seeds 0..7:
    vanilla RobustCAL (line 10 without the rho^/2 term, FINDINGS R6) eliminates h* = h1 on
    at least 6 of 8 seeds ("most"), modified RobustCAL keeps h1 in its final version
    space on every seed, and CALruption (Params.scaled) keeps q_{l+1}^x > 0 at every x in
    Dis(h1, h2) after every completed epoch (soft elimination)."""
    name = "check_counterexample_vanilla_loses_best"
    e = experiment
    instance = _instances.counterexample(e.xi1, e.xi2)
    adversary = _adversaries.counterexample(e.tau, e.n)
    found = []
    for t in checkpoints(e.n):
        if adversary.total(instance, 1, t) > Fraction(t, 32):
            found.append(Violation.of(name, "the experiment's adversary breaks C_[0,t] <= t/32", t=t))
    best = instance.best
    dis = [x for x in range(instance.num_points) if instance.hypotheses[0][x] != instance.hypotheses[1][x]]
    eliminated = []
    for seed in e.seeds:
        case = Case(instance, adversary, seed, Params.paper(e.n, instance.num_hypotheses, e.delta))
        vanilla = run_algorithm(name, impl, "robust_cal_vanilla", case)
        if best not in vanilla.final_version_space:
            eliminated.append(seed)
        modified = run_algorithm(name, impl, "robust_cal", case)
        if best not in modified.final_version_space:
            found.append(
                Violation.of(
                    name,
                    "modified RobustCAL eliminated h* on the counter-example",
                    seed=seed,
                    final=modified.final_version_space,
                )
            )
        scaled = case.with_params(Params.scaled(e.n, instance.num_hypotheses, e.delta))
        cal = run_algorithm(name, impl, "calruption", scaled)
        if not cal.epochs:
            found.append(Violation.of(name, "CALruption completed no epoch", seed=seed))
        for epoch in cal.epochs:
            zero = [x for x in dis if epoch.next_q[x] <= 0]
            if zero:
                found.append(
                    Violation.of(name, "CALruption set q = 0 on Dis(h1, h2)", seed=seed, epoch=epoch.l, points=zero)
                )
    if len(eliminated) < e.min_vanilla_eliminations:
        found.append(
            Violation.of(
                name,
                "vanilla RobustCAL kept h* on too many seeds",
                eliminated_on=eliminated,
                required=e.min_vanilla_eliminations,
                seeds=len(e.seeds),
            )
        )
    return found


def binomial_upper_tail(N: int, p: Fraction, k: int) -> Fraction:
    """P(Binomial(N, p) >= k), exactly."""
    if k <= 0:
        return Fraction(1)
    return sum((math.comb(N, j) * p**j * (1 - p) ** (N - j) for j in range(k, N + 1)), Fraction(0))


def check_passive_bound_theorem_31(impl, experiment):
    """Theorem 3.1 as a probability statement: with probability >= 1 - delta,
    R*(h_out) - R* <= log(|H|/delta)/n + sqrt(8R* log(|H|/delta)/n) + 8 C_total R*/n
    + 5 log(|H|/delta)/(n (1 - 4 C_total/n)^2). For each setting (C_total <= n/8 in all) the
    implementation's passive ERM runs on a fixed seed set of N tapes; a run violates the
    bound only if it provably does (exact decision against certified enclosures). With k
    violations the check fails if P(Binomial(N, delta) >= k) < alpha = 10^-3 (exact tail)."""
    name = "check_passive_bound_theorem_31"
    e = experiment
    found = []
    for setting in e.settings:
        instance, adversary = setting.instance, setting.adversary
        n = adversary.n
        C = adversary.total(instance, 1, n)
        if 8 * C > n:
            found.append(Violation.of(name, "setting breaks C_total <= n/8", setting=setting.name, C_total=C))
            continue
        log_term = ScaledLog(Fraction(1), Fraction(instance.num_hypotheses) / e.delta)
        R = instance.best_risk
        bound = lambda bits: theorem31_bound(log_term, R, C, n, bits)
        violations = []
        for seed in e.seeds:
            case = Case(instance, adversary, seed, Params.paper(n, instance.num_hypotheses, e.delta))
            trace = run_algorithm(name, impl, "passive", case)
            if not holds(instance.gap(trace.output), bound):
                violations.append(seed)
        tail = binomial_upper_tail(len(e.seeds), e.delta, len(violations))
        if tail < e.alpha:
            found.append(
                Violation.of(
                    name,
                    "Theorem 3.1's bound fails too often for probability >= 1 - delta",
                    setting=setting.name,
                    violations=len(violations),
                    runs=len(e.seeds),
                    delta=e.delta,
                    p_value=float(tail),
                    seeds=violations[:10],
                )
            )
    return found


CHECKS = (
    trace_check(
        check_robust_cal_keeps_best_under_theorem_41,
        "Theorem 4.1; Appendix C.1, events E1-E3 and 'First we show the correctness'",
        "conditional",
        "robust_cal",
        theorem41_cases(),
    ),
    trace_check(
        check_passive_learning_lemma_c1,
        "Appendix C.1, Lemma C.1 ('passive learning'), as printed",
        "conditional",
        "robust_cal",
        lemma_c1_cases(),
    ),
    trace_check(
        check_passive_learning_lemma_c1_corrected,
        "Appendix C.1, Lemma C.1 ('passive learning'), corrected (Theorem 3.1's bound at t; line 3)",
        "conditional",
        "robust_cal",
        lemma_c1_cases(),
    ),
    trace_check(
        check_passive_bound_theorem_31_on_event,
        "Theorem 3.1 and its proof (Appendix B), on E_B(n)",
        "conditional",
        "passive",
        cases(),
    ),
    custom_check(
        check_counterexample_vanilla_loses_best,
        "Appendix C.2 ('Why vanilla Robust CAL does not work?'); remark after Theorem 4.1",
        "counterexample",
        st.just(VANILLA_EXPERIMENT),
        covers=("robust_cal_vanilla", "robust_cal", "calruption"),
        quick=st.just(QUICK_VANILLA_EXPERIMENT),
    ),
    custom_check(
        check_passive_bound_theorem_31,
        "Theorem 3.1",
        "statistical",
        st.just(PASSIVE_EXPERIMENT),
        covers=("passive",),
        quick=st.just(QUICK_PASSIVE_EXPERIMENT),
    ),
)
