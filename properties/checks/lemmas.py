"""Lemma checks (kind "lemma"): statements about an instance and an adversary
themselves, decided exactly with Fractions; no implementation is run.

* Lemma A.1 ("Corruption effects 1") and Lemma A.2 ("Corruption effects 2") on every
  interval of a small horizon (a sample of intervals plus the extremes and the segment
  boundaries otherwise), for every hypothesis / ordered pair;
* rho*(h, h*) <= R*(h) + R* = 2R* + Delta_h and |R*(h) - R*(h')| <= rho*(h, h') (used in
  the proof of Theorem 3.1, in Lemma C.1 and in the auxiliary lemma "upper bound the
  difference of classifiers");
* the stated values of the appendix counter-example ("Why vanilla Robust CAL does not
  work?"), and the corrected direction of its claim about the corrupted averages;
* theta*(r0) (Section 2, "Disagreement coefficient") is a supremum that is attained.

R_t is computed here from the adversary's eta_t and nu* (never from a helper of the
reference that computes a risk under eta_t), C_I is the adversary's own exact total.
`hypothesis.target` pushes examples towards equality in the inequalities.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from fractions import Fraction

from properties.checks.registry import case_check
from properties.core.steering import steer
from properties.core.violation import Violation
from properties.strategies import ALL_INTERVALS_MAX_N, counterexample_settings, instances, lemma_cases, theta_examples
from reference import Instance
from reference.adversary import Adversary

SAMPLED_INTERVALS = 30  # beyond ALL_INTERVALS_MAX_N: extremes, segment intervals and this many drawn ones


# ==========================================================================================
# helpers
# ==========================================================================================


def risk_under(nu, eta, labels) -> Fraction:
    """R_D(h) for the distribution (nu, eta): P(h(x) != y)."""
    return sum((p * (1 - e) if label == 1 else p * e for p, e, label in zip(nu, eta, labels)), Fraction(0))


class CumulativeRisks:
    """P_h(t) = sum_{s <= t} (R_s(h) - R*(h)) for every h, exactly, from the adversary's
    segments (eta_t is constant on a segment)."""

    def __init__(self, instance: Instance, adversary: Adversary):
        H = instance.hypotheses
        self.star = tuple(risk_under(instance.nu, instance.eta, h) for h in H)
        self.ends, self.starts, self.excess, self.before = [], [], [], []
        running = [Fraction(0)] * len(H)
        for start, end, eta_t, _c in adversary.bind(instance):
            excess = [risk_under(instance.nu, eta_t, h) - r for h, r in zip(H, self.star)]
            self.starts.append(start)
            self.ends.append(end)
            self.excess.append(excess)
            self.before.append(tuple(running))
            running = [r + (end - start + 1) * e for r, e in zip(running, excess)]

    def prefix(self, t: int) -> list[Fraction]:
        if t == 0:
            return [Fraction(0)] * len(self.star)
        i = bisect_left(self.ends, t)
        k = t - self.starts[i] + 1
        return [b + k * e for b, e in zip(self.before[i], self.excess[i])]

    def interval(self, a: int, b: int) -> list[Fraction]:
        """sum_{t in [a, b]} (R_t(h) - R*(h)) for every h."""
        return [y - x for x, y in zip(self.prefix(a - 1), self.prefix(b))]


def intervals_to_check(adversary: Adversary, seed: int) -> list[tuple[int, int]]:
    """Every [a, b] for n <= ALL_INTERVALS_MAX_N; otherwise [1, n], [1, 1], [n, n], every
    segment, every prefix and suffix ending / starting at a segment boundary, and
    SAMPLED_INTERVALS intervals drawn with random.Random(seed)."""
    n = adversary.n
    if n <= ALL_INTERVALS_MAX_N:
        return [(a, b) for a in range(1, n + 1) for b in range(a, n + 1)]
    chosen = {(1, n), (1, 1), (n, n)}
    for s in adversary.segments:
        chosen |= {(s.start, s.end), (1, s.end), (s.start, n)}
    rng = random.Random(seed)
    for _ in range(SAMPLED_INTERVALS):
        a, b = sorted((rng.randint(1, n), rng.randint(1, n)))
        chosen.add((a, b))
    return sorted(chosen)


def lemma_a1_slacks(case) -> list[tuple[Fraction, int, int, int]]:
    """(C_I/|I| - (1/|I|) sum_{t in I} (R_t(h) - R*(h)), a, b, h) for every checked I and h."""
    instance, adversary = case.instance, case.adversary
    cumulative = CumulativeRisks(instance, adversary)
    result = []
    for a, b in intervals_to_check(adversary, case.seed):
        C = adversary.total(instance, a, b)
        length = b - a + 1
        for h, excess in enumerate(cumulative.interval(a, b)):
            result.append(((C - excess) / length, a, b, h))
    return result


def lemma_a2_slacks(case) -> list[tuple[Fraction, int, int, int, int]]:
    """(2 rho*(h,h') C_I/|I| - [(1/|I|) sum (R_t(h) - R_t(h')) - (R*(h) - R*(h'))], a, b, h, h')."""
    instance, adversary = case.instance, case.adversary
    cumulative = CumulativeRisks(instance, adversary)
    num_h = instance.num_hypotheses
    rho = [[instance.disagreement(h, g) for g in range(num_h)] for h in range(num_h)]
    result = []
    for a, b in intervals_to_check(adversary, case.seed):
        C = adversary.total(instance, a, b)
        length = b - a + 1
        excess = cumulative.interval(a, b)
        for h in range(num_h):
            for g in range(num_h):
                lhs = (excess[h] - excess[g]) / length
                result.append((2 * rho[h][g] * C / length - lhs, a, b, h, g))
    return result


MAX_REPORTED = 5


# ==========================================================================================
# checks
# ==========================================================================================
def check_corruption_effect_lemma_1(case):
    """Lemma A.1 (Corruption effects 1): for every interval I and hypothesis h,
    (1/|I|) sum_{t in I} (R_t(h) - R*(h)) <= C_I / |I|, with R_t(h) computed exactly from
    the adversary's eta_t and nu*, and C_I the adversary's exact total."""
    name = "check_corruption_effect_lemma_1"
    slacks = lemma_a1_slacks(case)
    steer(-min(s[0] for s in slacks), "lemma_a1_negated_slack")
    bad = [s for s in slacks if s[0] < 0]
    return [
        Violation.of(
            name,
            "the average excess risk over I exceeds C_I/|I|",
            interval=f"[{a}, {b}]",
            h=h,
            excess_minus_bound=-slack,
            C_I=case.adversary.total(case.instance, a, b),
            violations=len(bad),
        )
        for slack, a, b, h in bad[:MAX_REPORTED]
    ]


def check_corruption_effect_lemma_2(case):
    """Lemma A.2 (Corruption effects 2): for every interval I and ordered pair (h, h'),
    (1/|I|) sum_{t in I} (R_t(h) - R_t(h')) - (R*(h) - R*(h')) <= 2 rho*(h, h') C_I/|I|."""
    name = "check_corruption_effect_lemma_2"
    slacks = lemma_a2_slacks(case)
    steer(-min(s[0] for s in slacks), "lemma_a2_negated_slack")
    bad = [s for s in slacks if s[0] < 0]
    return [
        Violation.of(
            name,
            "the corrupted risk difference over I moves by more than 2 rho* C_I/|I|",
            interval=f"[{a}, {b}]",
            h=h,
            h2=g,
            excess_minus_bound=-slack,
            C_I=case.adversary.total(case.instance, a, b),
            violations=len(bad),
        )
        for slack, a, b, h, g in bad[:MAX_REPORTED]
    ]


def check_disagreement_bounded_by_risks(instance):
    """rho*(h, h*) <= R*(h) + R* = 2R* + Delta_h (auxiliary lemma "upper bound the difference
    of classifiers", proof of Theorem 4.1), rho*(h, h*) <= 2 max{Delta_h, 2R*} (proof of
    Theorem 3.1), and for every pair |R*(h) - R*(h')| <= rho*(h, h') <= R*(h) + R*(h')."""
    name = "check_disagreement_bounded_by_risks"
    found = []
    H = range(instance.num_hypotheses)
    best, R = instance.best, instance.best_risk
    risks = [instance.risk(h) for h in H]
    if risks[best] != min(risks):
        found.append(Violation.of(name, "h* does not minimise R*", best=best, risks=[str(r) for r in risks]))
    slack = []
    for h in H:
        rho, gap = instance.disagreement(h, best), instance.gap(h)
        if risks[h] + R != 2 * R + gap:
            found.append(Violation.of(name, "R*(h) + R* differs from 2R* + Delta_h", h=h, risk=risks[h], gap=gap))
        if rho > 2 * R + gap:
            found.append(Violation.of(name, "rho*(h, h*) > 2R* + Delta_h", h=h, rho=rho, bound=2 * R + gap))
        if rho > 2 * max(gap, 2 * R):
            found.append(Violation.of(name, "rho*(h, h*) > 2 max{Delta_h, 2R*}", h=h, rho=rho, gap=gap, best_risk=R))
        slack.append(2 * R + gap - rho)
    for h in H:
        for g in H:
            rho = instance.disagreement(h, g)
            if abs(risks[h] - risks[g]) > rho:
                found.append(
                    Violation.of(
                        name, "|R*(h) - R*(h')| > rho*(h, h')", h=h, h2=g, rho=rho, difference=abs(risks[h] - risks[g])
                    )
                )
            if rho > risks[h] + risks[g]:
                found.append(Violation.of(name, "rho*(h, h') > R*(h) + R*(h')", h=h, h2=g, rho=rho))
    steer(-min(slack), "disagreement_negated_slack")
    return found


def _corrupted_average_risks(instance, adversary, t):
    """R-bar_t(h) = (1/t) sum_{s <= t} R_s(h) for every h (exact, per segment)."""
    total = [Fraction(0)] * instance.num_hypotheses
    for start, end, eta_t, _ in adversary.bind(instance):
        k = min(end, t) - start + 1
        if k <= 0:
            break
        total = [acc + k * risk_under(instance.nu, eta_t, h) for acc, h in zip(total, instance.hypotheses)]
    return [v / t for v in total]


def _times_up_to(limit: int, n: int, extra=()) -> list[int]:
    """All t in 1..limit when limit <= 256, else the powers of two, a few landmarks and extra."""
    if limit <= 256:
        return list(range(1, limit + 1))
    chosen = {1, limit, limit // 2, *extra} | {2**k for k in range(limit.bit_length()) if 2**k <= limit}
    return sorted(t for t in chosen if 1 <= t <= min(limit, n))


def check_counterexample_instance_values(setting):
    """Appendix "Why vanilla Robust CAL does not work?" (proposition and proof), with the
    reading eta*^{x2} = eta*^{x3} = 1 (FINDINGS R1): R*(h1) = R* = xi1/2, R*(h2) = xi1/2 + xi2,
    rho*(h1, h2) = xi1 + xi2; under the adversary (eta^{x1} = 15/32 for t <= tau)
    R-bar_t(h1) = 17/32 xi1 and R-bar_t(h2) = 15/32 xi1 + xi2 for every t <= tau, and
    C_[0,t] <= t/32 for every t."""
    name = "check_counterexample_instance_values"
    xi1, xi2, tau, n = setting.xi1, setting.xi2, setting.tau, setting.n
    instance, adversary = setting.instance, setting.adversary
    found = []
    expected = {
        "R*(h1)": (instance.risk(0), xi1 / 2),
        "R*(h2)": (instance.risk(1), xi1 / 2 + xi2),
        "R*": (instance.best_risk, xi1 / 2),
        "rho*(h1, h2)": (instance.disagreement(0, 1), xi1 + xi2),
    }
    for what, (got, want) in expected.items():
        if got != want:
            found.append(
                Violation.of(name, f"{what} differs from the appendix", got=got, expected=want, xi1=xi1, xi2=xi2)
            )
    if instance.best != 0:
        found.append(Violation.of(name, "h* is not h1", best=instance.best))
    for t in _times_up_to(tau, n):
        averages = _corrupted_average_risks(instance, adversary, t)
        for h, want in ((0, Fraction(17, 32) * xi1), (1, Fraction(15, 32) * xi1 + xi2)):
            if averages[h] != want:
                found.append(
                    Violation.of(
                        name,
                        f"R-bar_t(h{h + 1}) differs from the appendix",
                        t=t,
                        tau=tau,
                        got=averages[h],
                        expected=want,
                    )
                )
        if found:
            break
    margins = []
    for t in _times_up_to(n, n, extra=(tau, tau + 1)):
        C = adversary.total(instance, 1, t)
        margins.append(Fraction(t, 32) - C)
        if C > Fraction(t, 32):
            found.append(Violation.of(name, "C_[0,t] > t/32", t=t, C=C, tau=tau))
            break
    steer(-min(margins), "counterexample_negated_corruption_margin")
    return found


def check_counterexample_corruption_favours_h2(setting):
    """Appendix "Why vanilla Robust CAL does not work?", corrected: for t <= tau,
    R-bar_t(h1) - R-bar_t(h2) = xi1/16 - xi2 >= 3 xi1/64 > 0 when xi2 <= xi1/64, so the
    corrupted average favours h2 (which is why h2 is never eliminated and h1 can be).
    The paper prints "R-bar_t(h2) >= R-bar_t(h1)", the reverse, which its own values
    contradict whenever xi2 < xi1/16."""
    name = "check_counterexample_corruption_favours_h2"
    xi1, xi2, tau, n = setting.xi1, setting.xi2, setting.tau, setting.n
    instance, adversary = setting.instance, setting.adversary
    for t in _times_up_to(tau, n):
        averages = _corrupted_average_risks(instance, adversary, t)
        difference = averages[0] - averages[1]
        if difference != xi1 / 16 - xi2:
            return [
                Violation.of(
                    name,
                    "R-bar_t(h1) - R-bar_t(h2) differs from xi1/16 - xi2",
                    t=t,
                    got=difference,
                    expected=xi1 / 16 - xi2,
                )
            ]
        if xi2 <= xi1 / 64 and not difference >= Fraction(3, 64) * xi1 > 0:
            return [
                Violation.of(
                    name,
                    "the corrupted average does not favour h2 by 3 xi1/64",
                    t=t,
                    difference=difference,
                    xi1=xi1,
                    xi2=xi2,
                )
            ]
    return []


def _disagreement_ratio(instance: Instance, r: Fraction) -> Fraction:
    """nu*(Dis(B(h*, r))) / r, recomputed here: the closed ball, Dis over its members."""
    H, best = instance.hypotheses, instance.best
    ball = [h for h in range(instance.num_hypotheses) if instance.disagreement(h, best) <= r]
    region = [x for x in range(instance.num_points) if len({H[h][x] for h in ball}) > 1]
    return sum((instance.nu[x] for x in region), Fraction(0)) / r


def check_theta_star_is_a_supremum(example):
    """Section 2, "Disagreement coefficient": theta*(r0) = sup_{r >= r0} nu*(Dis(B(h*, r)))/r.
    Instance.disagreement_coefficient(r0) is >= the ratio at every drawn r >= r0 and equals
    the ratio at some r >= r0 (the sup is attained: FINDINGS R2 reduces it to r0 and the
    distances rho*(h, h*) >= r0, all of which are among the r compared)."""
    name = "check_theta_star_is_a_supremum"
    instance, r0 = example.instance, example.r0
    theta = instance.disagreement_coefficient(r0)
    ratios = {r: _disagreement_ratio(instance, r) for r in example.rs}
    found = [
        Violation.of(name, "the ratio at some r >= r0 exceeds theta*(r0)", r0=r0, r=r, ratio=v, theta=theta)
        for r, v in ratios.items()
        if v > theta
    ]
    best = instance.best
    candidates = {r0} | {d for d in (instance.disagreement(h, best) for h in range(instance.num_hypotheses)) if d >= r0}
    attained = [r for r in candidates | set(ratios) if _disagreement_ratio(instance, r) == theta]
    if not attained:
        found.append(
            Violation.of(
                name,
                "theta*(r0) is not attained at any r >= r0",
                r0=r0,
                theta=theta,
                largest_ratio=max(_disagreement_ratio(instance, r) for r in candidates),
            )
        )
    steer(max(ratios.values()) - theta, "theta_ratio_minus_theta")
    return found[:MAX_REPORTED]


CHECKS = (
    case_check(check_corruption_effect_lemma_1, "Lemma A.1 (Corruption effects 1)", "lemma", lemma_cases()),
    case_check(check_corruption_effect_lemma_2, "Lemma A.2 (Corruption effects 2)", "lemma", lemma_cases()),
    case_check(
        check_disagreement_bounded_by_risks,
        "Appendix D, auxiliary lemma 'upper bound the difference of classifiers'; proof of Theorem 3.1 (Appendix B)",
        "lemma",
        instances(),
    ),
    case_check(
        check_counterexample_instance_values,
        "Appendix C.2 ('Why vanilla Robust CAL does not work?'), proposition",
        "lemma",
        counterexample_settings(),
    ),
    case_check(
        check_counterexample_corruption_favours_h2,
        "Appendix C.2 ('Why vanilla Robust CAL does not work?'), corrected direction of 'R-bar_t(h2) >= R-bar_t(h1)'",
        "lemma",
        counterexample_settings(),
    ),
    case_check(check_theta_star_is_a_supremum, "Section 2, disagreement coefficient", "lemma", theta_examples()),
)
