"""Population-level checks of every corruption bound the proofs use.

Population level: every quantity is an exact expectation under nu*, eta* and the
adversary's eta_t (Fractions, no tape, no sampling), so a failure is a statement about
the paper, not about a sample. The sampling terms of a proof (Bernstein and Catoni widths,
rho^ - rho*) are zero at this level (the empirical averages are their expectations);
what is left of each inequality is its corruption term. Kind "lemma"; no implementation
is called (covers = ()).

Notation. R_t(h) is the risk under (nu*, eta_t) (Section 2, tex 203-220), R-bar_I(h) its
average over an interval I, shift_I(h) = R-bar_I(h) - R*(h), and for a pair
err_I(h, g) = (R-bar_I(h) - R-bar_I(g)) - (R*(h) - R*(g)) = shift_I(h) - shift_I(g): the
population value of the proofs' "(R^_l(h) - R^_l(h')) - (R*(h) - R*(h'))" (R^_l of Algorithm 2,
line 8, averages E_{y ~ eta_t}[...] over the epoch's x_t; its expectation over x_t ~ nu* is
R-bar_l). C_I is the adversary's exact total, c_l = C_l/N_l with N_l read as |I_l|
(FINDINGS R10), epochs |I_l| = ceil(beta1 4^l); g_l = (2/N_l) sum_{s<=l} C_s (2R* 1{2C_s/N_s <=
1/16} + 1{2C_s/N_s > 1/16}) (Lemma 5.1, tex 454-461; properties.core.epochs.g_value).

Inventory: every place an appendix proof bounds a corruption term (tex line numbers of
../shared/paper/corruption_robust_active_learning.tex), and its check here.

Appendix A (tex 526-563)
  A1. Lemma A.1 (tex 529-545): (1/|I|) sum_I (R_t(h) - R*(h)) <= C_I/|I|, via the middle
      steps <= (1/|I|) sum_I max_x (...) <= (1/|I|) sum_I max_x |eta_t^x - eta*^x| (tex 541-543).
      Checked by checks_lemmas.check_corruption_effect_lemma_1 (not repeated here).
  A2. Lemma A.2 (tex 547-563): err_I(h, h') <= 2 rho*(h, h') C_I/|I|. Checked by
      checks_lemmas.check_corruption_effect_lemma_2.
  A3. Lemma A.2's middle line (tex 560): err_I(h, h') <= rho*(h, h') (2/|I|) sum_I max_{h''} (R_t(h'')
      - R*(h'')): `check_lemma_a2_middle_line` (FINDINGS F13: false).
Appendix B, Theorem 3.1 (tex 565-584)
  B1. tex 570-572: Delta_h - (R-bar_n(h) - R-bar_n(h*)) <= 2 (C_total/n) rho*(h, h*) (Lemma A.2);
  B2. tex 577: 2 (C/n) rho*(h, h*) <= 4 (C/n) max{Delta_h, 2R*};
  B3. the statement's corruption term (tex 237): at population an ERM of R-bar_n has
      Delta <= 8 (C_total/n) R* when 4 C_total < n (the quadratic of tex 583 with L = 0).
      All three: `check_passive_proof_corruption_terms` (every prefix [1, t] as a run of t).
Appendix C.1, Lemma C.1 and Theorem 4.1 (tex 588-693)
  C1. Lemma C.1 (tex 594-616): for h^_t minimising R-bar_t over some V_t containing h*
      (any h with R-bar_t(h) <= R-bar_t(h*)), under C_t <= t/8: line 1 Delta <= 4 (C_t/t) R*
      (C_t/n printed, a typo: the same at t = n), line 2 Delta <= R*/2, line 3 Delta <= R*
      (their 22L/t and sqrt(8R*L/t) are sampling terms, 0 here): `check_lemma_c1_corruption_term`
      (FINDINGS F2: lines 1-2 false); corrected (F2's repair, 8 (C_t/t) R*, and line 3):
      `check_lemma_c1_corruption_term_corrected`. The proof's first inequality (tex 608) is
      B1-B2 at t.
  C2. Theorem 4.1, correctness (tex 633-646): R-bar_t(h*) - R-bar_t(h) <= R* - R*(h) + 2 (C_t/t)
      rho*(h*, h) (tex 637, Lemma A.2) and, with C_t/t <= 1/8, the corruption part
      2 (C_t/t) rho* <= rho*/4 is covered by the added threshold term rho^/2 (tex 640-646; at
      population rho^ = rho*): R-bar_t(h*) - R-bar_t(h) <= rho*(h, h*)/2;
  C3. Theorem 4.1, label complexity (tex 655-661): Delta_h - (R-bar_t(h) - R-bar_t(h*)) <= 2 (C_t/t)
      rho*(h, h*) <= rho*(h, h*)/4. C2 and C3: `check_robust_cal_proof_corruption_terms` at the
      checkpoints t = 2^k (FINDINGS R3) where C_[0,t'] <= t'/8 for every checkpoint t' <= t.
  (C.2's counter-example, tex 695-727: its corrupted averages are checked exactly by
  checks_lemmas.check_counterexample_*.)
Appendix D, CALruption (tex 729-1138)
  D1. Catoni's condition in "Concentration inequality in our case" (tex 790-795): alpha^2
      (N rho^/min q + sum_{t in I_l} ((R*(h) - R*(h')) - (R_t(h) - R_t(h')))^2) + 2 log(1/delta) <= 4 log(1/delta)
      needs sum_t (...)^2 <= 4 N_l rho^/min q; at population (rho^ = rho*) and q = 1 (epoch 1):
      `check_catoni_condition_corruption_term`.
  D2. Estimation lemma (tex 833-900), its corruption term (tex 884-891): |err_l(h, h')| <=
      2 c_l rho*(h, h') (tex 889, Lemma A.2 both ways) <= 2 c_l (rho*(h, h*) + rho*(h', h*))
      (tex 890) <= 4 c_l R* + 2 c_l max{Delta_h, Delta_h'} (tex 891, the statement's term, tex 839):
      `check_estimation_lemma_corruption_term` (FINDINGS F17: false at population);
      corrected (tex 889-890, and 8 c_l R* + 4 c_l max{Delta}):
      `check_estimation_lemma_corruption_term_corrected`.
  D3. Upper bound of the estimated gap (tex 904-958), line 4 (tex 926-931): the estimation
      lemma's corruption part for (h, h^*_l) is replaced by (1/16) max{Delta_h, Delta_h^} +
      Corruption Term, CT = 4 c_l R* if 2c_l <= 1/16, 2 c_l if 2c_l > 1/16. At population, for
      every pair (h, g): err_l(h, g) <= (1/16) max{Delta_h, Delta_g} + CT, per branch:
      `check_gap_upper_corruption_term_small_branch` (FINDINGS F17: false),
      `check_gap_upper_corruption_term_large_branch` (holds at population).
  D4. Upper gap lemma, line 8 (tex 952-954): CT replaced by 4 R* c_l in both branches:
      `check_gap_upper_line8_corruption_term` (FINDINGS F10: false in the large branch).
  D5. Upper gap lemma, last line (tex 955): with CT kept, CT + (3/16) g_{l-1} <= 2 g_l (the rest
      of the line needs no corruption): `check_gap_upper_corruption_bookkeeping`.
  D6. Lower bound of the estimated gap (tex 961-1003), line 3 (tex 980-984): for (h, h*),
      -err_l(h, h*) <= (1/16) Delta_h + CT_low, CT_low = 4 c_l R* if 2c_l <= 1/16, c_l otherwise:
      `check_gap_lower_corruption_term_small_branch` (holds),
      `check_gap_lower_corruption_term_large_branch` (FINDINGS F10: false at population).
  D7. Lower gap lemma, lines 6-7 (tex 994-996): 4 R* c_l + CT_low + (18/32) g_{l-1} <= (18/8) g_l:
      `check_gap_lower_corruption_bookkeeping` (FINDINGS F10: false for R* > 7/8); corrected
      (without the extra 4 R* c_l, F10's repair): `check_gap_lower_corruption_bookkeeping_corrected`.
  D8. Lemma 5.1's base case (tex 1017-1024) and induction (tex 1026-1029) only chain D3-D7.
      Lemma 5.2 (tex 1035-1053) and the label complexity (tex 1061-1105) bound no corruption
      term of their own: they carry g_{l-1} from Lemma 5.1; their bookkeeping of g and C-bar
      (tex 1105 "C-bar_{l-1} <= sum_{s<l} C_s <= 2 beta1 eps_{l-1}^-2", tex 1123-1125, 1134) is F6, F11
      and F12's (proofs_check and checks_calruption_events); `check_corruption_budget_per_epoch`
      checks the part that is about the adversary alone: sum_{s<l} C_s <= 2 beta1 eps_{l-1}^-2.

Each check steers (Hypothesis `target`) toward its largest violation (left side minus
right side), so the fuzz profile searches toward the edge of each bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from properties.checks.lemmas import CumulativeRisks, risk_under
from properties.checks.registry import case_check
from properties.core.epochs import eps, g_value
from properties.core.steering import steer
from properties.core.violation import Violation
from properties.strategies import ALL_INTERVALS_MAX_N, population_cases

MAX_REPORTED = 5
SIXTEENTH = Fraction(1, 16)


# ==========================================================================================
# exact population quantities
# ==========================================================================================
@dataclass(frozen=True)
class Epoch:
    l: int
    start: int
    end: int
    C: Fraction  # C_l, the adversary's exact total over I_l
    shift: tuple[Fraction, ...]  # shift_l(h) = R-bar_l(h) - R*(h)

    @property
    def length(self) -> int:
        return self.end - self.start + 1

    @property
    def c(self) -> Fraction:
        """C_l/N_l, N_l read as |I_l| (FINDINGS R10)."""
        return self.C / self.length

    def err(self, h: int, g: int) -> Fraction:
        return self.shift[h] - self.shift[g]


class Population:
    """R*, Delta, rho* of the instance and the per-epoch corruption quantities of the case."""

    def __init__(self, case):
        self.case = case
        instance, adversary = case.instance, case.adversary
        self.instance = instance
        self.H = range(instance.num_hypotheses)
        self.cumulative = CumulativeRisks(instance, adversary)
        self.best = instance.best
        self.R = instance.best_risk
        self.gap = tuple(instance.gap(h) for h in self.H)
        self.rho = tuple(tuple(instance.disagreement(h, g) for g in self.H) for h in self.H)
        self.epochs = tuple(self.epoch(l, tau, tau + length - 1) for l, tau, length in case.epochs)

    def epoch(self, l: int, start: int, end: int) -> Epoch:
        excess = self.cumulative.interval(start, end)
        return Epoch(
            l,
            start,
            end,
            self.case.adversary.total(self.instance, start, end),
            tuple(e / (end - start + 1) for e in excess),
        )

    def prefix_shift(self, t: int) -> tuple[Fraction, ...]:
        return tuple(e / t for e in self.cumulative.prefix(t))

    def g(self, l: int) -> Fraction:
        """g_l (g_0 = 0) from the epochs 1..l."""
        chosen = self.epochs[:l]
        return g_value([e.C for e in chosen], [e.length for e in chosen], self.R)


def corruption_term_upper(c: Fraction, R: Fraction) -> Fraction:
    """The upper gap lemma's Corruption Term (tex 931)."""
    return 4 * c * R if 2 * c <= SIXTEENTH else 2 * c


def corruption_term_lower(c: Fraction, R: Fraction) -> Fraction:
    """The lower gap lemma's Corruption Term (tex 984)."""
    return 4 * c * R if 2 * c <= SIXTEENTH else c


def _report(name: str, label: str, rows, message: str):
    """rows: (excess = left - right, values dict); steer toward the largest excess and
    report the positive ones."""
    if not rows:
        return []
    steer(max(r[0] for r in rows), label)
    bad = sorted((r for r in rows if r[0] > 0), key=lambda r: -r[0])
    return [
        Violation.of(name, message, excess=excess, violations=len(bad), **values)
        for excess, values in bad[:MAX_REPORTED]
    ]


def _pairs(pop):
    return [(h, g) for h in pop.H for g in pop.H if h != g]


# ==========================================================================================
# D2: the estimation lemma's corruption term
# ==========================================================================================
def estimation_term_rows(pop, bound):
    rows = []
    for e in pop.epochs:
        for h, g in _pairs(pop):
            lhs = abs(e.err(h, g))
            rows.append(
                (
                    lhs - bound(pop, e, h, g),
                    dict(
                        l=e.l,
                        h=h,
                        h2=g,
                        lhs=lhs,
                        c_l=e.c,
                        R_star=pop.R,
                        gap_h=pop.gap[h],
                        gap_h2=pop.gap[g],
                        rho=pop.rho[h][g],
                    ),
                )
            )
    return rows


def _estimation_printed(pop, e, h, g):
    return 4 * e.c * pop.R + 2 * e.c * max(pop.gap[h], pop.gap[g])


def check_estimation_lemma_corruption_term(case):
    """Lemma "Estimation accuracy for D^_l" (Appendix D.4, tex 833-839), its corruption term
    as the proof derives it (tex 884-891) at population level (the Bernstein term is 0 when
    R^_l is its expectation R-bar_l): for every complete epoch l and pair (h, h'),
    |(R-bar_l(h) - R-bar_l(h')) - (R*(h) - R*(h'))| <= 4 (C_l/N_l) R* + 2 (C_l/N_l) max{Delta_h, Delta_h'}."""
    pop = Population(case)
    return _report(
        "check_estimation_lemma_corruption_term",
        "estimation_corruption_excess",
        estimation_term_rows(pop, _estimation_printed),
        "the corruption moves a pair's risk difference by more than the estimation lemma's term",
    )


def _estimation_corrected(pop, e, h, g):
    """min of tex 889's 2 c rho*(h, h') and 8 c R* + 4 c max{Delta} (what tex 890 gives with
    rho*(h, h*) <= 2R* + Delta_h); the first is the smaller, both are checked."""
    return 2 * e.c * pop.rho[h][g]


def check_estimation_lemma_corruption_term_corrected(case):
    """The estimation lemma's corruption term as Lemma A.2 gives it (tex 889) and the
    corrected form of tex 891 (FINDINGS F17): |err_l(h, h')| <= 2 (C_l/N_l) rho*(h, h') <=
    8 (C_l/N_l) R* + 4 (C_l/N_l) max{Delta_h, Delta_h'}."""
    pop = Population(case)
    name = "check_estimation_lemma_corruption_term_corrected"
    found = _report(
        name,
        "estimation_corrected_excess",
        estimation_term_rows(pop, _estimation_corrected),
        "the corruption moves a pair's risk difference by more than 2 (C_l/N_l) rho*(h, h')",
    )
    for e in pop.epochs:
        for h, g in _pairs(pop):
            middle = 2 * e.c * pop.rho[h][g]
            last = 8 * e.c * pop.R + 4 * e.c * max(pop.gap[h], pop.gap[g])
            if middle > last:
                found.append(
                    Violation.of(
                        name,
                        "2 c rho*(h, h') exceeds 8 c R* + 4 c max{Delta}",
                        l=e.l,
                        h=h,
                        h2=g,
                        middle=middle,
                        last=last,
                    )
                )
    return found[:MAX_REPORTED]


# ==========================================================================================
# D3, D6: the gap lemmas' corruption terms, per branch
# ==========================================================================================
def _in_branch(e: Epoch, branch: str) -> bool:
    small = 2 * e.c <= SIXTEENTH
    return small if branch == "small" else not small


def gap_upper_rows(pop, branch: str):
    rows = []
    for e in pop.epochs:
        if not _in_branch(e, branch):
            continue
        ct = corruption_term_upper(e.c, pop.R)
        for h, g in _pairs(pop):
            bound = SIXTEENTH * max(pop.gap[h], pop.gap[g]) + ct
            rows.append(
                (e.err(h, g) - bound, dict(l=e.l, h=h, h_hat=g, err=e.err(h, g), bound=bound, c_l=e.c, R_star=pop.R))
            )
    return rows


def gap_lower_rows(pop, branch: str):
    rows = []
    best = pop.best
    for e in pop.epochs:
        if not _in_branch(e, branch):
            continue
        ct = corruption_term_lower(e.c, pop.R)
        for h in pop.H:
            bound = SIXTEENTH * pop.gap[h] + ct
            rows.append(
                (
                    -e.err(h, best) - bound,
                    dict(l=e.l, h=h, h_star=best, err=e.err(h, best), bound=bound, c_l=e.c, R_star=pop.R),
                )
            )
    return rows


def check_gap_upper_corruption_term_small_branch(case):
    """Lemma "Upper bound of the estimated gap" (tex 904-958), line 4 (tex 926-931), at
    population level, in the small-corruption branch 2C_l/N_l <= 1/16: for every epoch in the
    branch and pair (h, h^) (h^ any member of H, as h^*_l can be),
    err_l(h, h^) <= (1/16) max{Delta_h, Delta_h^} + 4 (C_l/N_l) R*."""
    return _report(
        "check_gap_upper_corruption_term_small_branch",
        "gap_upper_small_excess",
        gap_upper_rows(Population(case), "small"),
        "small branch: the corruption moves (h, h^) by more than Delta/16 + 4 c R*",
    )


def check_gap_upper_corruption_term_large_branch(case):
    """Upper gap lemma, line 4 (tex 926-931), large-corruption branch 2C_l/N_l > 1/16:
    err_l(h, h^) <= (1/16) max{Delta_h, Delta_h^} + 2 C_l/N_l. (Holds at population: |err| <=
    2 c rho* <= 2c; FINDINGS F10's refutation of this line is against the estimation lemma's
    statement, not the corruption's actual effect.)"""
    return _report(
        "check_gap_upper_corruption_term_large_branch",
        "gap_upper_large_excess",
        gap_upper_rows(Population(case), "large"),
        "large branch: the corruption moves (h, h^) by more than Delta/16 + 2c",
    )


def check_gap_lower_corruption_term_small_branch(case):
    """Lemma "Lower bound of the estimated gap" (tex 961-1003), line 3 (tex 978-984), at
    population level, small branch 2C_l/N_l <= 1/16: for every h,
    -err_l(h, h*) = Delta_h - (R-bar_l(h) - R-bar_l(h*)) <= (1/16) Delta_h + 4 (C_l/N_l) R*."""
    return _report(
        "check_gap_lower_corruption_term_small_branch",
        "gap_lower_small_excess",
        gap_lower_rows(Population(case), "small"),
        "small branch: the corruption lowers (h, h*) by more than Delta_h/16 + 4 c R*",
    )


def check_gap_lower_corruption_term_large_branch(case):
    """Lower gap lemma, line 3 (tex 978-984), large branch 2C_l/N_l > 1/16:
    -err_l(h, h*) <= (1/16) Delta_h + C_l/N_l."""
    return _report(
        "check_gap_lower_corruption_term_large_branch",
        "gap_lower_large_excess",
        gap_lower_rows(Population(case), "large"),
        "large branch: the corruption lowers (h, h*) by more than Delta_h/16 + c",
    )


# ==========================================================================================
# D4, D5, D7: the gap lemmas' bookkeeping of the corruption term against g
# ==========================================================================================
def check_gap_upper_line8_corruption_term(case):
    """Upper gap lemma, line 8 (tex 952-954): "= ... + 4 R* C_l/N_l + ...", i.e. the Corruption
    Term (tex 931) is at most 4 R* C_l/N_l, in every epoch."""
    pop = Population(case)
    rows = [
        (
            corruption_term_upper(e.c, pop.R) - 4 * pop.R * e.c,
            dict(l=e.l, c_l=e.c, R_star=pop.R, corruption_term=corruption_term_upper(e.c, pop.R)),
        )
        for e in pop.epochs
    ]
    return _report(
        "check_gap_upper_line8_corruption_term",
        "gap_upper_line8_excess",
        rows,
        "the Corruption Term exceeds line 8's 4 R* C_l/N_l",
    )


def check_gap_upper_corruption_bookkeeping(case):
    """Upper gap lemma, last line (tex 952-955) with the Corruption Term kept (FINDINGS F10's
    repair): CT_l + (3/16) g_{l-1} <= 2 g_l in every epoch (the remaining terms of line 8 are
    bounded by 2(Delta_h + eps_l) without corruption)."""
    pop = Population(case)
    rows = []
    for e in pop.epochs:
        lhs = corruption_term_upper(e.c, pop.R) + Fraction(3, 16) * pop.g(e.l - 1)
        rows.append((lhs - 2 * pop.g(e.l), dict(l=e.l, lhs=lhs, two_g_l=2 * pop.g(e.l), c_l=e.c, R_star=pop.R)))
    return _report(
        "check_gap_upper_corruption_bookkeeping",
        "gap_upper_bookkeeping_excess",
        rows,
        "CT_l + (3/16) g_{l-1} exceeds 2 g_l",
    )


def lower_bookkeeping_rows(pop, extra: bool):
    rows = []
    for e in pop.epochs:
        lhs = corruption_term_lower(e.c, pop.R) + Fraction(18, 32) * pop.g(e.l - 1) + (4 * pop.R * e.c if extra else 0)
        rhs = Fraction(18, 8) * pop.g(e.l)
        rows.append((lhs - rhs, dict(l=e.l, lhs=lhs, rhs=rhs, c_l=e.c, R_star=pop.R)))
    return rows


def check_gap_lower_corruption_bookkeeping(case):
    """Lower gap lemma, lines 6-7 (tex 994-996): 4 R* C_l/N_l + CT_low + (18/32) g_{l-1} <=
    (18/8) g_l in every epoch (line 7 from line 6)."""
    return _report(
        "check_gap_lower_corruption_bookkeeping",
        "gap_lower_bookkeeping_excess",
        lower_bookkeeping_rows(Population(case), True),
        "4 R* c_l + CT_l + (18/32) g_{l-1} exceeds (18/8) g_l",
    )


def check_gap_lower_corruption_bookkeeping_corrected(case):
    """Lower gap lemma from line 5 (tex 990-992) without line 6's extra 4 R* C_l/N_l (FINDINGS
    F10's repair): CT_low + (18/32) g_{l-1} <= (18/8) g_l in every epoch."""
    return _report(
        "check_gap_lower_corruption_bookkeeping_corrected",
        "gap_lower_bookkeeping_corrected_excess",
        lower_bookkeeping_rows(Population(case), False),
        "CT_l + (18/32) g_{l-1} exceeds (18/8) g_l",
    )


def check_corruption_budget_per_epoch(case):
    """Main proof (tex 1105): sum_{s<=l-1} C_s <= 2 beta1 eps_{l-1}^-2 for every epoch l >= 2
    (N_s = |I_s|; c_t <= 1 makes C_s <= |I_s|)."""
    pop = Population(case)
    rows = []
    for e in pop.epochs[1:]:
        past = sum((p.C for p in pop.epochs[: e.l - 1]), Fraction(0))
        bound = 2 * case.beta1 / eps(e.l - 1) ** 2
        rows.append((past - bound, dict(l=e.l, past=past, bound=bound)))
    return _report(
        "check_corruption_budget_per_epoch", "budget_excess", rows, "sum_{s<l} C_s exceeds 2 beta1 eps_{l-1}^-2"
    )


# ==========================================================================================
# D1: Catoni's condition
# ==========================================================================================
def check_catoni_condition_corruption_term(case):
    """ "Concentration inequality in our case" (tex 790-795), the corruption term of the
    condition that makes alpha admissible: sum_{t in I_l} ((R*(h) - R*(h')) - (R_t(h) - R_t(h')))^2 <=
    4 N_l rho^_l(h, h')/min q, at population (rho^ = rho*) and q = 1, for every epoch and pair."""
    instance, pop = case.instance, Population(case)
    H, star = instance.hypotheses, [instance.risk(h) for h in range(instance.num_hypotheses)]
    rows = []
    for e in pop.epochs:
        squares = {}
        for start, end, eta_t, _ in case.adversary.bind(instance):
            lo, hi = max(start, e.start), min(end, e.end)
            if lo > hi:
                continue
            risks = [risk_under(instance.nu, eta_t, h) for h in H]
            for h, g in _pairs(pop):
                d = (star[h] - star[g]) - (risks[h] - risks[g])
                squares[h, g] = squares.get((h, g), Fraction(0)) + (hi - lo + 1) * d * d
        for (h, g), total in squares.items():
            bound = 4 * e.length * pop.rho[h][g]
            rows.append((total - bound, dict(l=e.l, h=h, h2=g, sum_of_squares=total, bound=bound)))
    return _report(
        "check_catoni_condition_corruption_term",
        "catoni_condition_excess",
        rows,
        "the squared corruption of a pair's risk difference exceeds 4 N_l rho*",
    )


# ==========================================================================================
# A3: Lemma A.2's middle line
# ==========================================================================================
def _intervals(n: int, epochs) -> list[tuple[int, int]]:
    if n <= ALL_INTERVALS_MAX_N:
        return [(a, b) for a in range(1, n + 1) for b in range(a, n + 1)]
    chosen = {(1, t) for t in range(1, n + 1)} | {(a, n) for a in range(1, n + 1)}
    return sorted(chosen | {(e.start, e.end) for e in epochs})


def check_lemma_a2_middle_line(case):
    """Proof of Lemma A.2 (tex 555-560), the first "<=": for every interval I and pair
    (h, h'), err_I(h, h') <= rho*(h, h') (2/|I|) sum_{t in I} max_{h'' in H} (R_t(h'') - R*(h''))."""
    instance, pop = case.instance, Population(case)
    per_round_max = []  # (start, end, max_h (R_t(h) - R*(h))) per segment
    for start, end, eta_t, _ in case.adversary.bind(instance):
        per_round_max.append(
            (
                start,
                end,
                max(
                    risk_under(instance.nu, eta_t, labels) - instance.risk(h)
                    for h, labels in enumerate(instance.hypotheses)
                ),
            )
        )
    rows = []
    for a, b in _intervals(case.adversary.n, pop.epochs):
        length = b - a + 1
        excess = pop.cumulative.interval(a, b)
        total_max = sum(
            ((min(b, e) - max(a, s) + 1) * m for s, e, m in per_round_max if max(a, s) <= min(b, e)), Fraction(0)
        )
        for h, g in _pairs(pop):
            lhs = (excess[h] - excess[g]) / length
            rhs = pop.rho[h][g] * 2 * total_max / length
            rows.append((lhs - rhs, dict(interval=f"[{a}, {b}]", h=h, h2=g, lhs=lhs, rhs=rhs)))
    return _report(
        "check_lemma_a2_middle_line",
        "a2_middle_excess",
        rows,
        "Lemma A.2's middle line: the pair moves by more than rho* (2/|I|) sum max_h (R_t(h) - R*(h))",
    )


def lemma_a2_conclusion_rows(case):
    """Lemma A.2's conclusion err_I(h, h') <= 2 rho*(h, h') C_I/|I| on the intervals of
    check_lemma_a2_middle_line (what F13's repair keeps; used to classify its counterexamples)."""
    pop = Population(case)
    rows = []
    for a, b in _intervals(case.adversary.n, pop.epochs):
        length, C = b - a + 1, case.adversary.total(case.instance, a, b)
        excess = pop.cumulative.interval(a, b)
        rows += [
            ((excess[h] - excess[g]) / length - 2 * pop.rho[h][g] * C / length, dict(interval=f"[{a}, {b}]"))
            for h, g in _pairs(pop)
        ]
    return rows


# ==========================================================================================
# B, C: passive learning, Lemma C.1, Theorem 4.1
# ==========================================================================================
def _prefix_rows(pop, t: int):
    """(C_t, shift_t) for the prefix [1, t]."""
    return pop.case.adversary.total(pop.instance, 1, t), pop.prefix_shift(t)


def check_passive_proof_corruption_terms(case):
    """Proof of Theorem 3.1 (tex 569-577) for every prefix [1, t] as a run of n = t rounds:
    Delta_h - (R-bar_t(h) - R-bar_t(h*)) <= 2 (C_t/t) rho*(h, h*) <= 4 (C_t/t) max{Delta_h, 2R*}
    for every h, and (the theorem's corruption term, tex 237, at population: its L-terms are 0)
    an ERM of R-bar_t has Delta <= 8 (C_t/t) R* when 4 C_t < t."""
    name = "check_passive_proof_corruption_terms"
    pop = Population(case)
    best, rows = pop.best, []
    for t in range(1, case.adversary.n + 1):
        C, shift = _prefix_rows(pop, t)
        c = C / t
        erm = min(pop.instance.risk(h) + shift[h] for h in pop.H)
        for h in pop.H:
            lhs = -(shift[h] - shift[best])
            middle = 2 * c * pop.rho[h][best]
            last = 4 * c * max(pop.gap[h], 2 * pop.R)
            rows.append((lhs - middle, dict(t=t, h=h, step="Lemma A.2 (tex 572)", lhs=lhs, rhs=middle)))
            rows.append((middle - last, dict(t=t, h=h, step="rho* <= 2 max (tex 577)", lhs=middle, rhs=last)))
            if 4 * C < t and pop.instance.risk(h) + shift[h] == erm:
                rows.append(
                    (
                        pop.gap[h] - 8 * c * pop.R,
                        dict(t=t, h=h, step="ERM: Delta <= 8 (C/n) R* (tex 237)", lhs=pop.gap[h], rhs=8 * c * pop.R),
                    )
                )
    return _report(name, "passive_corruption_excess", rows, "a corruption step of Theorem 3.1's proof fails")


def _checkpoints_within_budget(case):
    """Checkpoints t = 2^k <= n (FINDINGS R3) with C_[0,t'] <= t'/8 at every checkpoint t' <= t
    (Theorem 4.1's assumption; the rounds after t do not matter, so the horizon is cut at t)."""
    found, t = [], 2
    while t <= case.adversary.n:
        if case.adversary.total(case.instance, 1, t) > Fraction(t, 8):
            break
        found.append(t)
        t *= 2
    return found


def lemma_c1_rows(pop, lines):
    """Rows (Delta_h - bound, values) for every checkpoint within budget and every h with
    R-bar_t(h) <= R-bar_t(h*) (the minimiser over V_t = {h, h*})."""
    rows, best = [], pop.best
    for t in _checkpoints_within_budget(pop.case):
        C, shift = _prefix_rows(pop, t)
        for h in pop.H:
            if pop.gap[h] + shift[h] - shift[best] > 0:  # R-bar_t(h) > R-bar_t(h*)
                continue
            for line, bound in lines(C / t, pop.R, pop.rho[h][best]):
                rows.append(
                    (pop.gap[h] - bound, dict(t=t, h=h, line=line, gap=pop.gap[h], bound=bound, C_t=C, R_star=pop.R))
                )
    return rows


def check_lemma_c1_corruption_term(case):
    """Lemma C.1 (tex 594-602) at population level (its 22L/t and sqrt(8R*L/t) are the
    Bernstein widths, 0 here): at every checkpoint t within Theorem 4.1's budget C_t <= t/8,
    every h^_t minimising R-bar_t over a V_t containing h* has
    line 1: Delta <= 4 (C_t/t) R*; line 2: Delta <= R*/2; line 3: Delta <= R*."""
    rows = lemma_c1_rows(Population(case), lambda c, R, rho: (("line 1", 4 * c * R), ("line 2", R / 2), ("line 3", R)))
    return _report(
        "check_lemma_c1_corruption_term",
        "lemma_c1_excess",
        rows,
        "Lemma C.1 at population: the corrupted minimiser's gap exceeds the line's bound",
    )


def check_lemma_c1_corruption_term_corrected(case):
    """Lemma C.1 corrected (FINDINGS F2's repair) at population level: Delta_{h^_t} <=
    2 (C_t/t) rho*(h^_t, h*) (Lemma A.2 and R-bar_t(h^_t) <= R-bar_t(h*)) <= 8 (C_t/t) R*, and line 3,
    Delta <= R*."""
    rows = lemma_c1_rows(
        Population(case), lambda c, R, rho: (("Lemma A.2", 2 * c * rho), ("8 (C_t/t) R*", 8 * c * R), ("line 3", R))
    )
    return _report(
        "check_lemma_c1_corruption_term_corrected",
        "lemma_c1_corrected_excess",
        rows,
        "Lemma C.1 corrected at population: the corrupted minimiser's gap exceeds the bound",
    )


def check_robust_cal_proof_corruption_terms(case):
    """Proof of Theorem 4.1 at every checkpoint within budget (C_t <= t/8): correctness
    (tex 637-646) R-bar_t(h*) - R-bar_t(h) <= R* - R*(h) + 2 (C_t/t) rho*(h*, h) and, with rho^ = rho*,
    R-bar_t(h*) - R-bar_t(h) <= rho*(h, h*)/2 (h* survives the added threshold term); label
    complexity (tex 657-661) Delta_h - (R-bar_t(h) - R-bar_t(h*)) <= 2 (C_t/t) rho*(h, h*) <= rho*(h, h*)/4."""
    pop = Population(case)
    best, rows = pop.best, []
    for t in _checkpoints_within_budget(case):
        C, shift = _prefix_rows(pop, t)
        c = C / t
        for h in pop.H:
            rho = pop.rho[h][best]
            star_minus_h = shift[best] - shift[h] - pop.gap[h]  # R-bar_t(h*) - R-bar_t(h)
            rows.append((star_minus_h - (-pop.gap[h] + 2 * c * rho), dict(t=t, h=h, step="tex 637")))
            rows.append((star_minus_h - rho / 2, dict(t=t, h=h, step="tex 640-646 (rho/2 threshold)")))
            rows.append((-(shift[h] - shift[best]) - 2 * c * rho, dict(t=t, h=h, step="tex 659")))
            rows.append((2 * c * rho - rho / 4, dict(t=t, h=h, step="tex 661 (C_t/t <= 1/8)")))
    return _report(
        "check_robust_cal_proof_corruption_terms",
        "robust_cal_corruption_excess",
        rows,
        "a corruption step of Theorem 4.1's proof fails",
    )


CHECKS = tuple(
    case_check(function, cites, "lemma", population_cases())
    for function, cites in (
        (check_estimation_lemma_corruption_term, "Appendix D.4, lemma 'Estimation accuracy', tex 833-839, 884-891"),
        (check_estimation_lemma_corruption_term_corrected, "Appendix D.4, estimation lemma, tex 889-890; FINDINGS F17"),
        (check_gap_upper_corruption_term_small_branch, "Appendix D.4, upper gap lemma, line 4, tex 926-931"),
        (check_gap_upper_corruption_term_large_branch, "Appendix D.4, upper gap lemma, line 4, tex 926-931"),
        (check_gap_lower_corruption_term_small_branch, "Appendix D.4, lower gap lemma, line 3, tex 978-984"),
        (check_gap_lower_corruption_term_large_branch, "Appendix D.4, lower gap lemma, line 3, tex 978-984"),
        (check_gap_upper_line8_corruption_term, "Appendix D.4, upper gap lemma, line 8, tex 952-954"),
        (check_gap_upper_corruption_bookkeeping, "Appendix D.4, upper gap lemma, tex 952-955; FINDINGS F10"),
        (check_gap_lower_corruption_bookkeeping, "Appendix D.4, lower gap lemma, lines 6-7, tex 994-996"),
        (check_gap_lower_corruption_bookkeeping_corrected, "Appendix D.4, lower gap lemma, tex 990-996; FINDINGS F10"),
        (check_corruption_budget_per_epoch, "Appendix D.6, main proof, tex 1105"),
        (check_catoni_condition_corruption_term, "Appendix D.2, 'Concentration inequality in our case', tex 790-795"),
        (check_lemma_a2_middle_line, "Appendix A, proof of Lemma A.2, tex 555-560"),
        (check_passive_proof_corruption_terms, "Appendix B, proof of Theorem 3.1, tex 569-577; Theorem 3.1, tex 237"),
        (check_lemma_c1_corruption_term, "Appendix C.1, Lemma C.1, tex 594-602"),
        (check_lemma_c1_corruption_term_corrected, "Appendix C.1, Lemma C.1; FINDINGS F2's repair"),
        (check_robust_cal_proof_corruption_terms, "Appendix C.1, proof of Theorem 4.1, tex 633-661"),
    )
)
