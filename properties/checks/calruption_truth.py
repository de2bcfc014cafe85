"""The events of CALruption's analysis (Appendix D: E_gap, E_dis, E_bern) decided exactly on
a run's own tape, with the certified decisions they need, the paper's premises, a run's
view (epochs, fits, gaps) and the violations each lemma's bound gives on a run or an epoch:
what properties/checks/calruption_events.py (whole runs) and
properties/checks/calruption_one_epoch.py (one epoch) check with."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from properties.core.candidate import CallFailed, call, run_algorithm
from properties.core.case import Case
from properties.core.contract import decode_epoch_result, epoch_shape_problems
from properties.core.epochs import eps, g_value, rho_matrix
from properties.core.steering import note, steer
from properties.core.violation import Violation
from properties.strategies import OneEpochCase
from reference.certified import Enclosure, Rational, ScaledLog, certified_ceil, sqrt_enclosure

BETA1_OVER_BETA3_PREMISE = 20480  # 32 * 640, Algorithm 2 line 1
BETA2_PREMISE = Fraction(5, 32)

# =====================================================================================
# certified decisions
# =====================================================================================
DECISION_BITS = (64, 128, 256, 512, 1024)


@lru_cache(maxsize=4096)
def _enclose(constant, bits: int) -> Enclosure:
    return constant.enclosure(bits)


def _at(a: Fraction, c_sqrt: Fraction, c_lin: Fraction, k: Fraction) -> bool:
    rest = a - c_lin * k
    return rest <= 0 or rest * rest <= c_sqrt * k


def le_sqrt_lin(a: Fraction, c_sqrt: Fraction, c_lin: Fraction, K) -> bool | None:
    """Whether a <= sqrt(c_sqrt K) + c_lin K for rationals c_sqrt, c_lin >= 0 and a certified
    constant K > 0 (Rational or ScaledLog): True if it holds for every K in the enclosure,
    False if it fails for every K in it, None if no precision up to 1024 bits decides. The
    right-hand side increases with K, so the ends of the enclosure decide."""
    for bits in DECISION_BITS:
        enclosure = _enclose(K, bits)
        if _at(a, c_sqrt, c_lin, enclosure.lo):
            return True
        if not _at(a, c_sqrt, c_lin, enclosure.hi):
            return False
    return None


def le_bound(value: Fraction, bound) -> bool | None:
    """Whether value <= B, bound(bits) an enclosure of B: True/False when certain, None if
    undecided at 1024 bits."""
    for bits in DECISION_BITS:
        enclosure = bound(bits)
        if value <= enclosure.lo:
            return True
        if value > enclosure.hi:
            return False
    return None


def _float_rhs(c_sqrt: Fraction, c_lin: Fraction, K) -> float:
    k = float(_enclose(K, 64).lo)
    return math.sqrt(float(c_sqrt) * k) + float(c_lin) * k


def constant_ratio(num, den):
    """num / den for two certified constants, as a certified constant (exact when both are
    logs of the same argument, e.g. beta3 / beta1 in the paper regime)."""
    if isinstance(num, Rational) and isinstance(den, Rational):
        return Rational(num.value / den.value)
    if isinstance(num, ScaledLog) and isinstance(den, ScaledLog) and num.argument == den.argument:
        return Rational(num.coefficient / den.coefficient)
    return _Quotient(num, den)


@dataclass(frozen=True)
class _Quotient:
    num: object
    den: object

    def enclosure(self, bits: int = 64) -> Enclosure:
        a, b = _enclose(self.num, bits), _enclose(self.den, bits)
        return Enclosure(a.lo / b.hi, a.hi / b.lo)


def paper_premises(params) -> str | None:
    """None if beta2 >= 5/32 and beta1 >= 20480 beta3 provably hold, else the reason."""
    if params.beta2 < BETA2_PREMISE:
        return "beta2 < 5/32"
    return beta1_premise(params)


def beta1_premise(params) -> str | None:
    """None if beta1 >= 20480 beta3 provably holds, else the reason."""
    ratio = constant_ratio(params.beta1, params.beta3)
    if le_bound(Fraction(BETA1_OVER_BETA3_PREMISE), lambda bits: _enclose(ratio, bits)):
        return None
    return "beta1 < 20480 beta3 (or undecided)"


# =====================================================================================
# exact truth of an epoch
# =====================================================================================
def _err(label: int, eta: Fraction) -> Fraction:
    """E_{y~Ber(eta)} 1{label != y}."""
    return 1 - eta if label == 1 else eta


@dataclass(frozen=True)
class EpochTruth:
    """What the harness knows about epoch l, exactly."""

    l: int
    length: int  # |I_l| (read as N_l)
    seen: tuple[int, ...]
    rho_hat: tuple[tuple[Fraction, ...], ...]  # rho^_l (line 7)
    risk_hat: tuple[Fraction, ...]  # R^_l (line 8)
    risk_bar: tuple[Fraction, ...]  # R-bar_l
    corruption: Fraction  # C_l

    @property
    def support(self) -> tuple[int, ...]:
        return tuple(x for x, s in enumerate(self.seen) if s > 0)


def truth_on_tape(instance, adversary, tape, l: int, tau: int, length: int) -> EpochTruth:
    H, nu, m = instance.hypotheses, instance.nu, instance.num_points
    end = tau + length - 1
    seen = [0] * m
    hat = [Fraction(0)] * len(H)
    bar = [Fraction(0)] * len(H)
    for start, stop, eta_t, _ in adversary.bind(instance):
        a, b = max(start, tau), min(stop, end)
        if a > b:
            continue
        counts = Counter(tape.x[a - 1 : b])
        for x, k in counts.items():
            seen[x] += k
        for h, labels in enumerate(H):
            hat[h] += sum((k * _err(labels[x], eta_t[x]) for x, k in counts.items()), Fraction(0))
            bar[h] += (b - a + 1) * sum((nu[x] * _err(labels[x], eta_t[x]) for x in range(m)), Fraction(0))
    return EpochTruth(
        l,
        length,
        tuple(seen),
        rho_matrix(H, seen, length),
        tuple(v / length for v in hat),
        tuple(v / length for v in bar),
        adversary.total(instance, tau, end),
    )


def truth_of_one_epoch(ex: OneEpochCase) -> EpochTruth:
    instance, length, seen = ex.instance, ex.state.length, ex.counts.seen
    H, nu = instance.hypotheses, instance.nu
    c = max(abs(a - b) for a, b in zip(ex.epoch_eta, instance.eta))
    hat = tuple(
        sum((Fraction(s, length) * _err(labels[x], ex.epoch_eta[x]) for x, s in enumerate(seen)), Fraction(0))
        for labels in H
    )
    bar = tuple(sum((nu[x] * _err(labels[x], ex.epoch_eta[x]) for x in range(len(nu))), Fraction(0)) for labels in H)
    return EpochTruth(ex.state.l, length, tuple(seen), rho_matrix(H, seen, length), hat, bar, length * c)


def _pairs(num_h: int):
    return [(h, h2) for h in range(num_h) for h2 in range(h + 1, num_h)]


def _show(values) -> str:
    """A tuple of rationals as "(a, b/c)" for a violation's values."""
    return "(" + ", ".join(str(v) for v in values) + ")"


def min_q(H, q, support, h, h2) -> Fraction | None:
    """min_{x in Dis(h,h') on the seen points} q^x (R11); None if they agree there."""
    return min((q[x] for x in support if H[h][x] != H[h2][x]), default=None)


# =====================================================================================
# events
# =====================================================================================
def e_gap_epoch(H, truth: EpochTruth, q, W, beta3) -> str | None:
    """Condition (1) for every pair of the epoch (E_gap restricted to epoch l):
      |(R^_l(h) - R^_l(h')) - W_l^{h,h'}| <= sqrt(10 beta3 rho^_l(h,h') / (N_l min_{Dis(h,h')} q_l^x))
    for every W in the trace's enclosure (both orders of each pair). None if it provably
    holds, else the first pair where it does not."""
    support = truth.support
    for h in range(len(H)):
        for h2 in range(len(H)):
            if h == h2:
                continue
            rho = truth.rho_hat[h][h2]
            w = W[h][h2]
            if rho == 0:
                if w is None or not (w.lo == 0 == w.hi):
                    return f"pair ({h},{h2}) agrees on the epoch but W is not exactly 0"
                continue
            mq = min_q(H, q, support, h, h2)
            if mq == 0:
                continue  # vacuous (R11)
            if w is None:
                return f"pair ({h},{h2}) has no W although min q > 0"
            diff = truth.risk_hat[h] - truth.risk_hat[h2]
            d = max(abs(diff - w.lo), abs(diff - w.hi))
            if le_sqrt_lin(d, 10 * rho / (truth.length * mq), Fraction(0), beta3) is not True:
                return f"condition (1) fails for pair ({h},{h2}) in epoch {truth.l}"
    return None


def e_dis_epoch(instance, truth: EpochTruth, beta3, which: int) -> str | None:
    """E_dis1 (which = 1): |rho^_l - rho*| <= sqrt(beta3 rho^_l / N_l) + beta3 / N_l;
    E_dis2 (which = 2): the same with rho* under the root; for every pair. None if it
    provably holds, else the first failing pair."""
    H = instance.hypotheses
    for h, h2 in _pairs(len(H)):
        rho_star = instance.disagreement(h, h2)
        rho_hat = truth.rho_hat[h][h2]
        inner = rho_hat if which == 1 else rho_star
        if le_sqrt_lin(abs(rho_hat - rho_star), inner / truth.length, Fraction(1, truth.length), beta3) is not True:
            return f"E_dis{which} fails for pair ({h},{h2}) in epoch {truth.l}"
    return None


def e_bern_epoch(H, truth: EpochTruth, beta3) -> str | None:
    """E_bern: |(R^_l(h) - R^_l(h')) - (R-bar_l(h) - R-bar_l(h'))| <= 2 sqrt(beta3 / N_l) for
    every pair (the est-helper proof's Bernstein step). None if it provably holds."""
    for h, h2 in _pairs(len(H)):
        a = abs((truth.risk_hat[h] - truth.risk_hat[h2]) - (truth.risk_bar[h] - truth.risk_bar[h2]))
        if le_sqrt_lin(a, Fraction(4, truth.length), Fraction(0), beta3) is not True:
            return f"E_bern fails for pair ({h},{h2}) in epoch {truth.l}"
    return None


# =====================================================================================
# running the implementation
# =====================================================================================
def _validate_record(name: str, rec, m: int, num_h: int) -> None:
    """The shapes the checks index; a malformed record is a violation (CallFailed)."""
    problems = epoch_shape_problems(rec, m, num_h)
    if problems:
        raise CallFailed(Violation.of(name, "malformed epoch record: " + "; ".join(problems), l=rec.l))


def risk_of_fit(name: str, H, rec, truth: EpochTruth) -> tuple[Fraction, ...]:
    """R_{D^_l}(h): D^_l = (empirical x-distribution of the epoch, the trace's eta^)."""
    for x in truth.support:
        e = rec.eta_hat[x]
        if e is None or not 0 <= e <= 1:
            raise CallFailed(
                Violation.of(name, "D^_l's eta^ is missing or outside [0,1] on a seen point", l=truth.l, x=x, eta_hat=e)
            )
    return tuple(
        sum(
            (Fraction(truth.seen[x], truth.length) * _err(labels[x], rec.eta_hat[x]) for x in truth.support),
            Fraction(0),
        )
        for labels in H
    )


@dataclass
class RunView:
    case: Case
    trace: object
    records: tuple
    truths: tuple[EpochTruth, ...]

    @property
    def lengths(self) -> list[int]:
        return [t.length for t in self.truths]

    def g(self, l: int) -> Fraction:
        """g_l over the completed epochs 1..l."""
        R_star = self.case.instance.best_risk
        return g_value([t.corruption for t in self.truths[:l]], self.lengths[:l], R_star)

    def gap_prev(self, l: int) -> tuple[Fraction, ...]:
        """Delta^^{l-1} (Delta^^0 = 0)."""
        if l == 1:
            return (Fraction(0),) * self.case.instance.num_hypotheses
        return self.records[l - 2].gap_hat


def schedule(params, n: int) -> list[tuple[int, int, int]]:
    """(l, tau_l, |I_l|) of the epochs completed within n rounds, |I_l| = ceil(beta1 4^l)."""
    result, tau, l = [], 1, 1
    while True:
        length = certified_ceil(params.beta1, 4**l)
        if tau + length - 1 > n:
            return result
        result.append((l, tau, length))
        tau, l = tau + length, l + 1


def run_view(name: str, impl, case: Case) -> RunView:
    trace = run_algorithm(name, impl, "calruption", case)
    instance = case.instance
    expected = schedule(case.params, case.tape.n)
    got = [(e.l, e.tau, e.length) for e in trace.epochs]
    if got != expected:
        raise CallFailed(
            Violation.of(
                name, "completed epochs differ from Algorithm 2's schedule (FINDINGS R10)", got=got, expected=expected
            )
        )
    for e in trace.epochs:
        _validate_record(name, e, instance.num_points, instance.num_hypotheses)
    truths = tuple(truth_on_tape(instance, case.adversary, case.tape, l, tau, length) for l, tau, length in expected)
    return RunView(case, trace, tuple(trace.epochs), truths)


@dataclass
class RunEvents:
    """Per completed epoch: None where the event provably holds, else why not."""

    gap: list
    dis1: list
    dis2: list
    bern: list

    def all_hold(self, *names: str) -> str | None:
        for name in names:
            for reason in getattr(self, name):
                if reason is not None:
                    return reason
        return None


def run_events(view: RunView) -> RunEvents:
    instance, beta3 = view.case.instance, view.case.params.beta3
    H = instance.hypotheses
    return RunEvents(
        [e_gap_epoch(H, t, r.q, r.W, beta3) for r, t in zip(view.records, view.truths)],
        [e_dis_epoch(instance, t, beta3, 1) for t in view.truths],
        [e_dis_epoch(instance, t, beta3, 2) for t in view.truths],
        [e_bern_epoch(H, t, beta3) for t in view.truths],
    )


def one_epoch_record(name: str, impl, ex: OneEpochCase):
    """impl.calruption_epoch on the example, normalised to the reference's record type."""
    H = ex.instance.hypotheses
    record, _ = decode_epoch_result(
        name,
        call(name, impl, "calruption_epoch", H, ex.state, ex.counts, ex.params),
        ex.instance.num_points,
        ex.instance.num_hypotheses,
    )
    return record


# =====================================================================================
# outcomes and reporting
# =====================================================================================
@dataclass
class Outcome:
    violations: list
    premises: str | None  # None: the premises held on this example; else why they did not
    slack: float | None = None  # smallest (bound - value) over the checked inequalities


def _report(outcome: Outcome) -> list:
    if outcome.premises is not None:
        note(f"premises not met: {outcome.premises}")
    else:
        note("premises met")
    if outcome.slack is not None:
        steer(-outcome.slack, "negated slack")
    return outcome.violations


class _Slack:
    def __init__(self):
        self.value = None

    def add(self, value: float) -> None:
        if self.value is None or value < self.value:
            self.value = value


# =====================================================================================
# the conclusions (shared by the full-run and the one-epoch checks)
# =====================================================================================
def fit_error_violations(name, instance, truth, q, risk_fit, beta3, slack: _Slack, where) -> list:
    """The est-helper proof's intermediate line (any beta1), for every pair with rho^ > 0 and
    min q > 0:
      |(R_D^(h) - R_D^(h')) - (R*(h) - R*(h'))|
          <= 2 sqrt(10 beta3 / N_l) sqrt(rho^_l / min q) + |(R^_l(h) - R^_l(h')) - (R*(h) - R*(h'))|."""
    H = instance.hypotheses
    found = []
    for h, h2 in _pairs(len(H)):
        rho = truth.rho_hat[h][h2]
        mq = min_q(H, q, truth.support, h, h2)
        if rho == 0 or not mq:
            continue
        true_diff = instance.risk(h) - instance.risk(h2)
        lhs = abs(risk_fit[h] - risk_fit[h2] - true_diff)
        second = abs(truth.risk_hat[h] - truth.risk_hat[h2] - true_diff)
        c_sqrt = 40 * rho / (truth.length * mq)
        slack.add(_float_rhs(c_sqrt, Fraction(0), beta3) - float(lhs - second))
        if le_sqrt_lin(lhs - second, c_sqrt, Fraction(0), beta3) is False:
            found.append(
                Violation.of(
                    name,
                    "the fit error exceeds the est-helper proof's intermediate bound on condition (1)",
                    **where,
                    l=truth.l,
                    pair=_show((h, h2)),
                    lhs=lhs,
                    second_term=second,
                    rho_hat=rho,
                    min_q=mq,
                    N=truth.length,
                )
            )
    return found


def estimation_lemma_violations(name, instance, truth, risk_fit, gap_prev, slack: _Slack, where) -> list:
    """Lemma "Estimation accuracy for D^_l" as printed, every pair:
    |(R_D^(h) - R_D^(h')) - (R*(h) - R*(h'))|
        <= 1/16 (max{Delta^^{l-1}_h, Delta^^{l-1}_{h'}} + eps_l) + 4 C_l R*/N_l + 2 C_l/N_l max{Delta_h, Delta_{h'}}."""
    H = instance.hypotheses
    R_star, N, C = instance.best_risk, truth.length, truth.corruption
    found = []
    for h, h2 in _pairs(len(H)):
        lhs = abs(risk_fit[h] - risk_fit[h2] - (instance.risk(h) - instance.risk(h2)))
        rhs = (
            Fraction(1, 16) * (max(gap_prev[h], gap_prev[h2]) + eps(truth.l))
            + 4 * C * R_star / N
            + 2 * C / N * max(instance.gap(h), instance.gap(h2))
        )
        slack.add(float(rhs - lhs))
        if lhs > rhs:
            found.append(
                Violation.of(
                    name,
                    "the lemma 'Estimation accuracy for D^_l' fails on its event",
                    **where,
                    l=truth.l,
                    pair=_show((h, h2)),
                    lhs=lhs,
                    rhs=rhs,
                    C_l=C,
                    N=N,
                    gap_prev=_show((gap_prev[h], gap_prev[h2])),
                )
            )
    return found


def estimation_corrected_violations(
    name, instance, truth, risk_fit, gap_prev, rho_prev, params, slack: _Slack, where
) -> list:
    """The est-helper lemma with the steps of its proof made exact (any beta1, beta2, beta3),
    for every pair with rho^_l > 0 and rho^_{l-1}(h,h') > 0 (rho^_0 := 1):
      |(R_D^(h) - R_D^(h')) - (R*(h) - R*(h'))|
          <= 4 sqrt(10 beta3/beta1) sqrt(rho^_l/rho^_{l-1}) (max{Delta^^{l-1}_h, Delta^^{l-1}_{h'}} + eps_l)
             + 2 sqrt(beta3/beta1) eps_l + 2 (C_l/N_l) rho*(h,h').
    Steps: the intermediate line (`fit_error_violations`); min q >= rho^_{l-1}(h,h') 4^(j-l)
    by line 13 (the paper writes rho^_l: q_l is built from rho^_{l-1}); N_l >= beta1 4^l;
    eps_j <= 2 (max Delta^^{l-1} + eps_l) (the paper's argument); E_bern; Lemma A.2
    (Corruption effects 2) with rho*(h,h') (the paper's 4 C R*/N + 2 C/N max Delta is half
    of 2 (C/N)(rho*(h,h*) + rho*(h',h*)))."""
    H = instance.hypotheses
    K = constant_ratio(params.beta3, params.beta1)
    found = []
    e_l = eps(truth.l)
    for h, h2 in _pairs(len(H)):
        rho = truth.rho_hat[h][h2]
        previous = Fraction(1) if rho_prev is None else rho_prev[h][h2]
        if rho == 0 or previous == 0:
            continue
        r = rho / previous
        M = max(gap_prev[h], gap_prev[h2])
        lhs = abs(risk_fit[h] - risk_fit[h2] - (instance.risk(h) - instance.risk(h2)))
        value = lhs - 2 * truth.corruption / truth.length * instance.disagreement(h, h2)

        def bound(bits, r=r, M=M):
            inner = sqrt_enclosure(Enclosure.point(10 * r), bits).scale(4 * (M + e_l)) + Enclosure.point(2 * e_l)
            root = sqrt_enclosure(_enclose(K, bits), bits)
            return Enclosure(root.lo * inner.lo, root.hi * inner.hi)

        slack.add(float(bound(64).lo - value))
        if le_bound(value, bound) is False:
            found.append(
                Violation.of(
                    name,
                    "the corrected est-helper bound fails on E_gap and E_bern",
                    **where,
                    l=truth.l,
                    pair=_show((h, h2)),
                    lhs=lhs,
                    rho_hat=rho,
                    rho_prev=previous,
                    M=M,
                    C_l=truth.corruption,
                    N=truth.length,
                )
            )
    return found


def gap_bound_violations(name, instance, l, gap_hat, g_l, slack: _Slack, where, which=("upper", "lower")) -> list:
    """Lemma 5.1 at epoch l, every h: Delta^^l_h <= 2 (Delta_h + eps_l + g_l) (upper) and
    Delta_h <= 3/2 Delta^^l_h + 3/2 eps_l + 3 g_l (lower)."""
    found = []
    e = eps(l)
    for h in range(instance.num_hypotheses):
        gap = instance.gap(h)
        if "upper" in which:
            rhs = 2 * (gap + e + g_l)
            slack.add(float(rhs - gap_hat[h]))
            if gap_hat[h] > rhs:
                found.append(
                    Violation.of(
                        name,
                        "Delta^^l_h > 2 (Delta_h + eps_l + g_l) on the events",
                        **where,
                        l=l,
                        h=h,
                        gap_hat=gap_hat[h],
                        gap=gap,
                        g_l=g_l,
                    )
                )
        if "lower" in which:
            rhs = Fraction(3, 2) * gap_hat[h] + Fraction(3, 2) * e + 3 * g_l
            slack.add(float(rhs - gap))
            if gap > rhs:
                found.append(
                    Violation.of(
                        name,
                        "Delta_h > 3/2 Delta^^l_h + 3/2 eps_l + 3 g_l on the events",
                        **where,
                        l=l,
                        h=h,
                        gap_hat=gap_hat[h],
                        gap=gap,
                        g_l=g_l,
                    )
                )
    return found
