"""The theorems' bounds as functions of an instance: Theorem 3.1 (passive
ERM), Theorem 4.1 (RobustCAL) and Theorem 5.1 / Corollary 5.1 (CALruption), each as printed
and as corrected (FINDINGS F18; the corrected constants come from reference/theorem_constants.py,
the one place proofs_check's corrected chains take them from).

What is exact and what is not. The instance's quantities -- R^*, Delta_min, theta^*(r0), the
corruption C_total and C-bar_total of an oblivious adversary -- are exact Fractions. The
bounds themselves contain logarithms and square roots of them (log(|H|/delta), sqrt(beta1/n));
they are evaluated in float64 for the figures and ratios of bench/theory_vs_practice.py
(a float path, marked: no verdict of the suite rests on it). Where an irrational radius goes
into theta^*, it is rounded down to a Fraction first: theta^*(r0) is non-increasing in r0, so
the bound can only grow.

Logs: L = ln(|H|/delta) (Theorem 3.1); beta_n = ln(3 log2(n') |H|^2/delta) at RobustCAL's last
checkpoint n' = 2^floor(log2 n) (Algorithm 1, line 9, as `Params.robust_cal_beta`, FINDINGS R3)
stands for Theorem 4.1's log(log(n)|H|^2/delta); beta1 is Algorithm 2's (the box, 32*640 beta3,
FINDINGS R8) -- the parameters the algorithms actually run with.

Printed label bounds are O(.) statements: their "printed" value here is the expression inside
the O(.) with constant 1, so measured/printed is the constant a run needs. The corrected label
bounds carry explicit constants (corrected.thm41.labels.sum, corrected.thm51.labels.total).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from . import theorem_constants as K
from .adversary import Adversary
from .certified import as_float
from .exact import as_fraction, as_int
from .instance import Instance

PRINTED, CORRECTED = "printed", "corrected"
FORMS = (PRINTED, CORRECTED)


@dataclass(frozen=True)
class Bound:
    """One theorem's bound at one instance, n, delta and adversary.

    value: the bound (math.inf where vacuous: outside the formula's domain);
    covered: the setting meets the theorem's premises (budget regime) -- for a corrected form,
    where the corrected chain is proved; probability: the confidence the theorem attaches (the
    bound holds with probability >= this); note: why not covered, or what the form assumes."""

    theorem: str
    quantity: str  # "excess_risk" or "labels"
    form: str
    value: float
    covered: bool
    probability: float
    note: str = ""


@dataclass(frozen=True)
class Facts:
    """The instance's exact quantities the theorems read."""

    num_hypotheses: int
    best: int
    r_star: Fraction
    delta_min: Fraction  # min over h != h^* of Delta_h (0 when another hypothesis ties with h^*)
    instance: Instance = field(repr=False, compare=False)
    # the step function g(d) = nu(Dis(B(h^*, d))) at the distinct distances d = rho(h, h^*), increasing
    radii: tuple[Fraction, ...] = field(repr=False, compare=False, default=())
    masses: tuple[Fraction, ...] = field(repr=False, compare=False, default=())

    @classmethod
    def of(cls, instance: Instance) -> Facts:
        if not isinstance(instance, Instance):
            raise ValueError(f"instance must be a reference.Instance, got {type(instance).__name__}")
        best = instance.best
        risks = [instance.risk(h) for h in range(instance.num_hypotheses)]  # once: gap(h) recomputes R^*
        gaps = [r - risks[best] for h, r in enumerate(risks) if h != best]
        radii, masses = _disagreement_steps(instance)
        return cls(
            instance.num_hypotheses, best, risks[best], min(gaps) if gaps else Fraction(1), instance, radii, masses
        )

    def theta(self, r0) -> Fraction:
        """theta^*(r0) exactly (Section 2); a float r0 is rounded down to a Fraction first.
        The same reduction as Instance.disagreement_coefficient (the sup over r >= r0 is a max
        over r0 and the distances d >= r0), on the step function computed once."""
        r0 = _radius(r0)
        below = [g for d, g in zip(self.radii, self.masses) if d <= r0]
        best = (below[-1] if below else Fraction(0)) / r0
        for d, g in zip(self.radii, self.masses):
            if d >= r0 and d > 0:
                best = max(best, g / d)
        return best


def _disagreement_steps(instance: Instance) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """The distinct rho(h, h^*) in increasing order and nu(Dis(B(h^*, d))) at each: the ball's
    disagreement region is the union over its members h of {x : h(x) != h^*(x)} (h^* is in it)."""
    star = instance.hypotheses[instance.best]
    by_distance: dict[Fraction, set[int]] = {}
    for h in instance.hypotheses:
        points = {x for x, (a, b) in enumerate(zip(h, star)) if a != b}
        d = sum((instance.nu[x] for x in points), Fraction(0))
        by_distance.setdefault(d, set()).update(points)
    radii, masses, region, mass = [], [], set(), Fraction(0)
    for d in sorted(by_distance):
        new = by_distance[d] - region
        region |= new
        mass += sum((instance.nu[x] for x in new), Fraction(0))
        radii.append(d)
        masses.append(mass)
    return tuple(radii), tuple(masses)


def _radius(r0) -> Fraction:
    if isinstance(r0, float):
        if not math.isfinite(r0) or r0 <= 0:
            raise ValueError(f"r0 must be a positive finite number, got {r0!r}")
        # theta^* is non-increasing in r0: the float just below r0 can only make the result larger
        return Fraction(math.nextafter(r0, 0.0))
    r0 = as_fraction(r0, "r0")
    if r0 <= 0:
        raise ValueError(f"r0 must be > 0, got {r0}")
    return r0


def theta_star(instance: Instance, r0) -> Fraction:
    """theta^*(r0) = sup_{r >= r0} nu(Dis(B(h^*, r)))/r, exact (Instance.disagreement_coefficient,
    the reference's own); a float r0 becomes the Fraction of the float just below it."""
    return instance.disagreement_coefficient(_radius(r0))


def _check(n, delta, c_total):
    n = as_int(n, "n", minimum=1)
    delta = as_fraction(delta, "delta")
    if not 0 < delta < 1:
        raise ValueError(f"delta must be in (0, 1), got {delta}")
    c_total = as_fraction(c_total, "c_total")
    if c_total < 0 or c_total > n:
        raise ValueError(f"c_total must be in [0, n], got {c_total}")
    return n, delta, c_total


# -- Theorem 3.1 (passive ERM) -------------------------------------------------------------------
def thm31_excess_risk(facts: Facts, n, delta, c_total, form: str = CORRECTED) -> Bound:
    """R_*(h_out) - R^* <= L/n + sqrt(8 R^* L/n) + 8 (C/n) R^* + K (L/n)/(1 - 4C/n)^2, w.p. >= 1 - delta,
    L = ln(|H|/delta). Printed K = 5; corrected K = 2 + 2 sqrt 2 (sharp, corrected.thm31.sharp_bound).
    Needs C_total < n/4 (F3); proved for C_total <= n/8 (z3); n/8 < C < n/4 not decided."""
    n, delta, c_total = _check(n, delta, c_total)
    _form(form)
    c = c_total / n
    l = math.log(facts.num_hypotheses / float(delta)) / n
    last = float(K.THM31_LAST_TERM_PRINTED) if form == PRINTED else float(K.THM31_LAST_TERM)
    if 4 * c >= 1:
        return Bound(
            "3.1",
            "excess_risk",
            form,
            math.inf,
            False,
            1 - float(delta),
            "C_total >= n/4: outside the formula's domain (F3)",
        )
    r = float(facts.r_star)
    value = l + math.sqrt(8 * r * l) + float(K.THM31_CORRUPTION * c * facts.r_star) + last * l / (1 - 4 * float(c)) ** 2
    covered = c <= K.THM31_PROVED_BUDGET
    note = "" if covered else "n/8 < C_total < n/4: not decided (corrected.thm31.sharp_bound_quarter)"
    return Bound("3.1", "excess_risk", form, value, covered, 1 - float(delta), note)


def thm31_labels(n) -> Bound:
    """Passive ERM asks for every label."""
    n = as_int(n, "n", minimum=1)
    return Bound("3.1", "labels", CORRECTED, float(n), True, 1.0, "every label")


# -- Theorem 4.1 (RobustCAL) ---------------------------------------------------------------------
def robust_cal_beta(num_hypotheses: int, n: int, delta: Fraction) -> float:
    """beta at RobustCAL's last checkpoint 2^k <= n: ln(3 k |H|^2/delta) (Algorithm 1, line 9; R3)."""
    k = max(1, n.bit_length() - 1)
    return math.log(3 * k * num_hypotheses**2 / float(delta))


def thm41_delta_effective(n: int, delta: Fraction) -> float:
    """The failure probability Algorithm 1's beta_t gives: delta (1 + 1/2 + ... + 1/K) over the
    K = floor(log2 n) checkpoints (F7: the printed union bound sums to this, not delta)."""
    checkpoints = max(1, n.bit_length() - 1)
    return min(1.0, float(delta) * sum(1 / k for k in range(1, checkpoints + 1)))


def checkpoint_budget_ok(instance: Instance, adversary: Adversary) -> bool:
    """Theorem 4.1's premise C_[0,t] <= t/8 at every checkpoint t = 2^k <= n, exactly."""
    t = 2
    while t <= adversary.n:
        if adversary.total(instance, 1, t) > K.THM41_BUDGET * t:
            return False
        t *= 2
    return True


def thm41_epsilon(facts: Facts, n: int, delta: Fraction) -> float:
    """The smallest eps with n >= (8R^*/eps^2 + 22/eps) beta: n eps^2 - 22 beta eps - 8 R^* beta = 0."""
    beta = robust_cal_beta(facts.num_hypotheses, n, delta)
    r = float(facts.r_star)
    return (22 * beta + math.sqrt(484 * beta**2 + 32 * n * r * beta)) / (2 * n)


def thm41_excess_risk(facts: Facts, n, delta, c_total, budget_ok: bool, form: str = CORRECTED) -> Bound:
    """R_{h_out} - R^* <= K eps + J R^* C_total/n for the eps the sample size n affords.
    Printed: K = 1 and the O(R^* C/n) read with Lemma C.1's printed 4; corrected: K = 1, J = 8
    (corrected.thm41.accuracy_event: the printed K holds on the theorem's event, sharp; the
    route through Lemma C.1's closed form, corrected.thm41.accuracy, gives only K = 5/4). Premise: C_[0,t] <= t/8 at every checkpoint (budget_ok);
    the corrected form also needs n = 2^k or C_[0,n] <= n/8 (F19).
    Probability: printed 1 - delta; corrected 1 - delta (1 + ... + 1/K) (F7)."""
    n, delta, c_total = _check(n, delta, c_total)
    _form(form)
    eps = thm41_epsilon(facts, n, delta)
    r = float(facts.r_star)
    # the corrected statement needs n = 2^k or C_[0,n] <= n/8 as well (FINDINGS F19: a realisable run at
    # n = 2^13 - 1 breaks it otherwise, whatever the constants)
    at_checkpoint = n & (n - 1) == 0 or c_total <= K.THM41_BUDGET * n
    if form == PRINTED:
        value, probability = eps + 4 * r * float(c_total) / n, 1 - float(delta)
    else:
        value = (
            float(K.THM41_ACCURACY_EPS_STATEMENT) * eps + float(K.THM41_ACCURACY_CORRUPTION) * r * float(c_total) / n
        )
        probability = 1 - thm41_delta_effective(n, delta)
    covered = budget_ok and (form == PRINTED or at_checkpoint)
    note = "" if budget_ok else "C_[0,t] > t/8 at some checkpoint"
    if budget_ok and not covered:
        note = "n is not a power of two and C_[0,n] > n/8 (FINDINGS F19)"
    return Bound("4.1", "excess_risk", form, value, covered, probability, note)


def thm41_labels(facts: Facts, n, delta, budget_ok: bool, form: str = CORRECTED) -> Bound:
    """Printed: O(theta^*(14R^* + 120 beta/n) beta (R^* n + log n)), the expression with constant 1;
    corrected: 2 + 604.8 theta^*(14R^* + 120 beta/n) beta (R^* n + log2 n) (corrected.thm41.labels.sum)."""
    n, delta, _ = _check(n, delta, 0)
    _form(form)
    beta = robust_cal_beta(facts.num_hypotheses, n, delta)
    a, b = K.THM41_THETA_RADIUS
    theta = float(facts.theta(float(a) * float(facts.r_star) + float(b) * beta / n))
    r = float(facts.r_star)
    if form == PRINTED:
        value, probability = theta * beta * (r * n + math.log(n)), 1 - float(delta)
    else:
        value = 2 + float(K.THM41_LABELS) * theta * beta * (r * n + math.log2(n))
        probability = 1 - thm41_delta_effective(n, delta)
    return Bound(
        "4.1", "labels", form, value, budget_ok, probability, "" if budget_ok else "C_[0,t] > t/8 at some checkpoint"
    )


# -- Theorem 5.1 and Corollary 5.1 (CALruption) ----------------------------------------------------
def epochs(params, n: int) -> list[tuple[int, int, int]]:
    """(l, first round, last round) of the complete epochs l = 1..floor(log4(n/beta1)) that fit in n
    (Theorem 5.1's range of C-bar_total; |I_l| = ceil(beta1 4^l), FINDINGS R10)."""
    from reference.calruption import epoch_length

    found, start, l = [], 1, 1
    while True:
        length = epoch_length(params, l)
        if start + length - 1 > n:
            return found
        found.append((l, start, start + length - 1))
        start += length
        l += 1


def corruption_bar(instance: Instance, adversary: Adversary, params) -> tuple[Fraction, Fraction, bool]:
    """(C-bar_total, C over the complete epochs, every epoch has C_l/N_l <= 1/32), exactly:
    C-bar_total = sum_l C_l (R^* 1{C_l/N_l <= 1/32} + 1{C_l/N_l > 1/32}) (Theorem 5.1)."""
    r_star = instance.best_risk
    bar = plain = Fraction(0)
    small = True
    for _, first, last in epochs(params, adversary.n):
        c = adversary.total(instance, first, last)
        length = last - first + 1
        plain += c
        if c <= K.CORO51_EPOCH_BUDGET * length:
            bar += c * r_star
        else:
            bar += c
            small = False
    return bar, plain, small


def _beta1(params) -> float:
    return as_float(params.beta1)


def _beta3(params) -> float:
    return as_float(params.beta3)


def thm51_excess_risk(facts: Facts, n, delta, cbar_total, params, form: str = CORRECTED) -> Bound:
    """R_*(h_out) - R^* <= 6 sqrt(2 beta1/n) + J C-bar_total/n (eps = sqrt(72 beta1/n) is the eps
    n >= 72 beta1/eps^2 affords). Printed J = 24; corrected J = 64 (corrected.thm51.accuracy),
    proved only with beta1 >= 40960 beta3 (Algorithm 2 sets 20480 beta3: not covered)."""
    n, delta, cbar_total = _check(n, delta, cbar_total)
    _form(form)
    beta1 = _beta1(params)
    j = K.THM51_ACCURACY_CORRUPTION_PRINTED if form == PRINTED else K.THM51_ACCURACY_CORRUPTION
    value = float(K.THM51_ACCURACY_SQRT) * math.sqrt(2 * beta1 / n) + float(j) * float(cbar_total) / n
    covered, note = True, ""
    if form == CORRECTED and beta1 < K.BETA1_OVER_BETA3_NEEDED * _beta3(params) * (1 - 1e-12):
        covered, note = False, f"beta1 = {beta1 / _beta3(params):.0f} beta3 < {K.BETA1_OVER_BETA3_NEEDED} beta3"
    return Bound("5.1", "excess_risk", form, value, covered, 1 - float(delta), note)


def coro51_excess_risk(facts: Facts, n, delta, c_total, epochs_small: bool, params, form: str = CORRECTED) -> Bound:
    """Corollary 5.1: eps + J R^* C_total/n when every epoch has C_l/N_l <= 1/32; J as Theorem 5.1."""
    n, delta, c_total = _check(n, delta, c_total)
    _form(form)
    beta1 = _beta1(params)
    j = K.THM51_ACCURACY_CORRUPTION_PRINTED if form == PRINTED else K.THM51_ACCURACY_CORRUPTION
    value = (
        float(K.THM51_ACCURACY_SQRT) * math.sqrt(2 * beta1 / n) + float(j) * float(facts.r_star) * float(c_total) / n
    )
    covered = epochs_small and (form == PRINTED or beta1 >= K.BETA1_OVER_BETA3_NEEDED * _beta3(params) * (1 - 1e-12))
    note = (
        ""
        if covered
        else ("an epoch has C_l/N_l > 1/32" if not epochs_small else f"beta1 < {K.BETA1_OVER_BETA3_NEEDED} beta3")
    )
    return Bound("C5.1", "excess_risk", form, value, covered, 1 - float(delta), note)


def thm51_labels(facts: Facts, n, delta, cbar_total, params, form: str = CORRECTED) -> Bound:
    """Printed: O(theta^*(R^* + 3 sqrt(beta1/n) + 64 Cbar/n) log(log(n)|H|^2/delta) ((R^*)^2 n + log(n)(1 + Cbar))),
    the expression with constant 1 (the log as beta3/2 = ln(3/2 floor(log2 n)|H|^2/delta), R9).
    Corrected (corrected.thm51.labels.total): theta (160 R*^2 n + 480 R* sqrt(n beta1)
    + (45/4) beta1 (lgnb + 2)(lgnb + 4) + 1680 (lgnb + 2) Cbar) + 4 beta1 (lgnb + 2),
    theta = theta^*(2R^* + 3 sqrt(beta1/n)), lgnb = log2(n/beta1) (at least 0 here: no epoch
    completes below beta1 4 rounds, and the sum's terms are non-negative there)."""
    n, delta, cbar_total = _check(n, delta, cbar_total)
    _form(form)
    beta1 = _beta1(params)
    r = float(facts.r_star)
    cbar = float(cbar_total)
    if form == PRINTED:
        theta = float(facts.theta(r + 3 * math.sqrt(beta1 / n) + 64 * cbar / n))  # the radius is > 0: beta1 > 0
        value = theta * (_beta3(params) / 2) * (r * r * n + math.log(n) * (1 + cbar))
        return Bound("5.1", "labels", form, value, True, 1 - float(delta))
    a, b = K.THM51_THETA_RADIUS
    theta = float(facts.theta(float(a) * r + float(b) * math.sqrt(beta1 / n)))
    lgnb = max(0.0, math.log2(n / beta1))
    value = theta * (
        float(K.THM51_TOTAL_R2) * r * r * n
        + float(K.THM51_TOTAL_R) * r * math.sqrt(n * beta1)
        + float(K.THM51_TOTAL_LAYER) * beta1 * (lgnb + 2) * (lgnb + 4)
        + float(K.THM51_TOTAL_CBAR) * (lgnb + 2) * cbar
    ) + float(K.THM51_TOTAL_BETA1) * beta1 * (lgnb + 2)
    covered = beta1 >= K.BETA1_OVER_BETA3_NEEDED * _beta3(params) * (1 - 1e-12)
    # the corrected total bounds the expected number of queries (a sum of E[Q_t]), not a high-probability count
    return Bound(
        "5.1",
        "labels",
        form,
        value,
        covered,
        1 - float(delta),
        "" if covered else f"beta1 < {K.BETA1_OVER_BETA3_NEEDED} beta3 (expected queries)",
    )


def _form(form: str) -> None:
    if form not in FORMS:
        raise ValueError(f"form must be one of {list(FORMS)}, got {form!r}")


def implies_best(bound: Bound, facts: Facts) -> bool:
    """An excess-risk bound below Delta_min forces h_out = h^* (with the bound's probability)."""
    return bound.quantity == "excess_risk" and bound.value < float(facts.delta_min)


def all_bounds(instance: Instance, adversary: Adversary, params, delta, facts: Facts | None = None) -> dict:
    """Every theorem's bounds for one (instance, adversary, n = adversary.n, delta), both forms:
    {algorithm: [Bound, ...]}, plus the exact budget facts under "budget". `facts`: Facts.of(instance),
    when the caller has it already."""
    facts = facts if facts is not None else Facts.of(instance)
    n = adversary.n
    delta = as_fraction(delta, "delta")
    c_total = adversary.total(instance, 1, n)
    ok41 = checkpoint_budget_ok(instance, adversary)
    cbar, c_epochs, small = corruption_bar(instance, adversary, params)
    out = {
        "passive": [thm31_excess_risk(facts, n, delta, c_total, f) for f in FORMS] + [thm31_labels(n)],
        "RobustCAL": [thm41_excess_risk(facts, n, delta, c_total, ok41, f) for f in FORMS]
        + [thm41_labels(facts, n, delta, ok41, f) for f in FORMS],
        "CALruption": [thm51_excess_risk(facts, n, delta, cbar, params, f) for f in FORMS]
        + [coro51_excess_risk(facts, n, delta, c_total, small, params, f) for f in FORMS]
        + [thm51_labels(facts, n, delta, cbar, params, f) for f in FORMS],
        "budget": {
            "c_total": c_total,
            "cbar_total": cbar,
            "c_complete_epochs": c_epochs,
            "epochs_small": small,
            "checkpoints_ok": ok41,
        },
    }
    return out
