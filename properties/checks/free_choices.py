"""Where the paper leaves an implementation a choice, and which choices the suite's
contract pins although the paper may not: one table, used by the checks and by the
cross-check, so that the two never disagree on what is free.

A correct third-party implementation must not fail the suite for a choice the paper
leaves open. Each entry of CHOICES is one such place (status FREE: every check accepts
any choice, while still verifying what the paper fixes), or one place where the paper's
text admits another reading or leaves a detail open and the suite pins one (status
PINNED: with the reason, and whether a correct implementation could differ), or a
convention of the trace's representation that the paper does not speak of (status
FORMAT). Every reading decision R1-R16 of FINDINGS.md is either cited by an entry or
listed in NOT_IMPLEMENTATION_CHOICES with why it asks nothing of an implementation
(tests/properties/checks/test_free_choices.py checks the coverage).

The checks and the cross-check ask this table what to accept, through the functions at
the end (`accepted_minimisers`, `accepted_calruption_outputs`, `rounding_bound`) or by
citing the entry they honour (`cite`): changing an entry's status changes what they
accept (tests/properties/checks/test_free_choices.py shows it with a legitimate variant). `render_markdown`
gives the copy of the table in docs/property-suite.md."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from reference.report_vocabulary import DIVERGENCE_KINDS as _PUBLISHED_DIVERGENCE_KINDS

FREE, PINNED, FORMAT = "free", "pinned", "format"
STATUSES = (FREE, PINNED, FORMAT)
# how a free choice is accepted: any exact minimiser; any member of a set the paper names;
# any optimal point of an LP; any rational stand-in within a relative bound of an irrational
# (a bad input) refused or ignored
RULES = ("minimiser", "member", "optimal", "rounding", "refuse_or_ignore")


@dataclass(frozen=True)
class Choice:
    id: str
    where: str  # the paper's place (algorithm line, theorem, lemma)
    open: str  # what the paper leaves open, or how its text can be read otherwise
    accepted: str  # what every check accepts (FREE) or requires (PINNED, FORMAT)
    reference: str  # the reference's documented choice
    status: str  # FREE, PINNED or FORMAT
    reason: str  # FREE: why any choice is correct; else why the contract pins it, and whether
    # a correct implementation could differ
    findings: tuple[str, ...] = ()  # FINDINGS.md entries (R1-R16) it rests on
    rule: str | None = None  # FREE only: one of RULES
    divergence: str | None = None  # FREE only: the cross-check's class for a choice other than the reference's
    relative: Fraction | None = None  # rule "rounding": the relative bound

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"choice {self.id}: status must be one of {STATUSES}, got {self.status!r}")
        if (self.rule is not None) != (self.status == FREE) or (self.rule is not None and self.rule not in RULES):
            raise ValueError(f"choice {self.id}: a free choice names one of {RULES} as its rule, others none")
        if (self.relative is not None) != (self.rule == "rounding"):
            raise ValueError(f"choice {self.id}: a rounding rule needs its relative bound, other rules none")

    @property
    def free(self) -> bool:
        return self.status == FREE


_LINE8_ARGMIN = (
    "the correctness proof (Appendix C.1) and Lemma C.1 use only that h^_t minimises L^_t over V_t, "
    "which every minimiser does"
)

CHOICES: tuple[Choice, ...] = (
    # -- passive ERM (Theorem 3.1) --------------------------------------------------------
    Choice(
        "passive.erm_tie",
        "Theorem 3.1: h_out = argmin_h R^_[1,n](h)",
        "which minimiser, when several hypotheses tie",
        "any h whose R^_[1,n](h), recomputed from the tape, equals the minimum exactly",
        "the lowest index (reference.empirical.argmin_lowest_index)",
        FREE,
        "the proof (Appendix B) uses only R^(h_out) <= R^(h*), true of every minimiser",
        rule="minimiser",
        divergence="argmin_tie",
    ),
    # -- RobustCAL (Algorithm 1) ----------------------------------------------------------
    Choice(
        "robust_cal.dis_region",
        "Section 2, Dis(V); Algorithm 1, line 4",
        "the display defines Dis(V) with 'there exist h, h' in H'",
        "line 4 queries iff x_t is in Dis(V_t) = {x : h(x) != h'(x) for some h, h' in V_t}",
        "Dis over V (reference.instance.disagreement_region)",
        PINNED,
        "the sentence after the display says 'hypotheses in V that disagree'; with H, line 4 would query wherever "
        "two hypotheses of H disagree, whatever V_t: the version space would not matter. A typo, not a choice",
        ("R2",),
    ),
    Choice(
        "robust_cal.checkpoints",
        "Algorithm 1, line 7: 'log(t) = N'",
        "the base of log, and whether 0 is in N",
        "updates exactly at t = 2^k <= n, k >= 1",
        "t = 2, 4, 8, ...",
        PINNED,
        "t = 1 (k = 0) makes line 9's beta_1 = log(3 log(1) |H|^2/delta) = log 0 undefined, and a natural log is "
        "never a positive integer at an integer t >= 2: no correct implementation differs",
        ("R3",),
    ),
    Choice(
        "robust_cal.beta",
        "Algorithm 1, line 9: beta_t = log(3 log(t) |H|^2 / delta)",
        "the inner log (log2 t = k, or ln t)",
        "beta_t as the run's Params give it (Params.robust_cal_beta(t))",
        "inner log2 t = k, outer ln",
        PINNED,
        "beta_t is an input, not a decision of the implementation: it receives the Params and the trace records "
        "them, so every implementation uses the same beta_t (scaled constants included)",
        ("R3",),
    ),
    Choice(
        "robust_cal.loss_unqueried",
        "Algorithm 1, lines 5 and 8",
        "l^_s(h) is set only in queried rounds; line 8 averages over all s <= t",
        "L^_t(h) = (1/t) * #{queried s <= t : h(x_s) != y_s}, exactly",
        "l^_s = 0 in unqueried rounds",
        PINNED,
        "the sum can run only over the l^_s line 5 defines, with line 8's 1/t; 0 is also the loss the label V_s "
        "agrees on gives every h in V_t. Another constant would shift L^_t equally over V_t and change no decision "
        "(R4), but the trace reports L^_t itself, which the checks compare exactly: an implementation could report "
        "a shifted L^_t only by reporting another quantity than line 8's",
        ("R4",),
    ),
    Choice(
        "robust_cal.filter",
        "Algorithm 1, line 10: 'h in V_log(t)'",
        "the index of the version space filtered",
        "V_{t+1} is a subset of V_t; nothing changes between checkpoints (line 12)",
        "line 10 filters V_t",
        PINNED,
        "V_log(t), an earlier and larger version space, would bring back eliminated hypotheses; the proof's "
        "induction (h* in V_t implies h* in V_{t+1}) and its label count (h in V_t) filter V_t. A typo",
        ("R4",),
    ),
    Choice(
        "robust_cal.h_hat_tie",
        "Algorithm 1, line 8: h^_t = argmin_{h in V_t} L^_t(h)",
        "which minimiser, when several members of V_t tie",
        "any h in V_t whose L^_t(h), recomputed from the queried labels, equals the minimum exactly; lines 9-10 "
        "are then recomputed with the trace's h^_t",
        "the lowest index",
        FREE,
        _LINE8_ARGMIN,
        rule="minimiser",
        divergence="argmin_tie",
    ),
    Choice(
        "robust_cal.output_at_n",
        "Algorithm 1, Output: argmin_{h in V_t} L^_t(h)",
        "which t after the loop (L^ is set only at checkpoints, line 8)",
        "a minimiser of L^_n (all n rounds) over V_{n+1}",
        "t = n",
        PINNED,
        "the proof of Theorem 4.1 bounds h_out by Lemma C.1 at t = n (h* in V_n, bounds in n); the last "
        "checkpoint's minimiser would be another estimator, which leaves up to half the labels unused and which "
        "the theorem does not cover. Both coincide when n is a power of two",
        ("R5",),
    ),
    Choice(
        "robust_cal.output_tie",
        "Algorithm 1, Output: argmin_{h in V_t} L^_t(h)",
        "which minimiser, when several members of V_{n+1} tie",
        "any h in V_{n+1} whose L^_n(h), recomputed from the queried labels, equals the minimum exactly",
        "the lowest index",
        FREE,
        "Theorem 4.1's proof uses only that h_out minimises L^_n over a version space containing h*",
        ("R5",),
        rule="minimiser",
        divergence="argmin_tie",
    ),
    Choice(
        "robust_cal.vanilla_rule",
        "remark after Theorem 4.1: the original rule, '<= o(sqrt(2 beta_t rho^_t/t) + beta_t/t)'",
        "the vanilla threshold is given only up to o(.)",
        "vanilla=True uses line 10 without its 1/2 rho^_t term: sqrt(2 beta_t rho^/t) + 3 beta_t/(2t)",
        "the same",
        PINNED,
        "the suite's own construction for the counter-example (Appendix C.2): the two rules differ in exactly the "
        "corruption term, so a difference in behaviour is due to it; an implementation's vanilla mode must be this "
        "rule to be compared with anything",
        ("R6",),
    ),
    # -- CALruption (Algorithm 2) ---------------------------------------------------------
    Choice(
        "calruption.constants",
        "Algorithm 2, line 1 (beta1, beta2, beta3); Theorem 5.1",
        "beta1 = 32 * 640 beta3 (the box) or 16 * 640 log(...) (the theorem); log n in beta3 (base, n = 1)",
        "beta1, beta2, beta3 as the run's Params give them",
        "the box's beta1; log2 n, taken as 1 for n = 1",
        PINNED,
        "inputs, like beta_t: the implementation receives the Params and uses them",
        ("R8", "R9"),
    ),
    Choice(
        "calruption.epoch_length",
        "Algorithm 2, lines 1 and 6: N_l = beta1 eps_l^-2 rounds",
        "N_l is not an integer when beta1 is irrational (the paper's constants)",
        "|I_l| = ceil(N_l), decided from certified enclosures",
        "ceil",
        PINNED,
        "with a rational beta1 (every scaled regime of the full-run checks) N_l is an integer and nothing is open. "
        "With the paper's beta1 an implementation could round otherwise (floor, nearest) and be correct; the checks "
        "do not accept that: the epochs are the coordinates every check and the cross-check align on, the one-epoch "
        "checks hand the implementation states with |I_l| = ceil(N_l), and whether the unfinished epoch should "
        "have ended by n depends on a rounding the trace does not record. Freeing it needs the trace to record it",
        ("R10",),
    ),
    Choice(
        "calruption.epoch_averages",
        "Algorithm 2, lines 7-8 and the remark after it",
        "the 1/N_l of the averages (rho^_l, the x-marginal of D^_l, Catoni's alpha, condition (1))",
        "averages over the epoch's |I_l| rounds",
        "1/|I_l|",
        PINNED,
        "an average over the epoch's rounds; |I_l| = N_l whenever beta1 is rational, and the rounding itself is "
        "pinned (calruption.epoch_length)",
        ("R10",),
    ),
    Choice(
        "calruption.q_factor",
        "Algorithm 2, line 13: beta1 rho^_l(h,h') / N_{l+1} * eps_k^-2",
        "whether N_{l+1} there is beta1 4^(l+1) or the rounded |I_{l+1}|",
        "q_{l+1}^x = max_{Z(x)} rho^_l(h,h') 4^(k - l - 1), exactly (so q <= 1/4 after epoch 1)",
        "beta1 / N_{l+1} = eps_{l+1}^2",
        PINNED,
        "the paper's own definition N_{l+1} = beta1 eps_{l+1}^-2; the rounded |I_{l+1}| would change q by a "
        "relative amount below 1/N_{l+1} with no basis in the text",
        ("R10",),
    ),
    Choice(
        "calruption.q_empty",
        "Algorithm 2, line 13: max over Z(x)",
        "q_{l+1}^x where Z(x) is empty (every hypothesis agrees at x)",
        "q_{l+1}^x = 0 there",
        "0",
        PINNED,
        "a max over the empty set of non-negative numbers; a label where all of H agrees changes no estimate, so "
        "querying there would only spend labels that the label complexity counts",
        ("R10",),
    ),
    Choice(
        "calruption.coin",
        "Algorithm 2, line 4: Q_t ~ Ber(q_l^x)",
        "where the randomness comes from",
        "Q_t = 1 iff u_t < q_l^{x_t}, with the tape's coin u_t",
        "the same",
        PINNED,
        "the tape carries all randomness (CONTRACT.md, Tape) so that runs are reproducible and comparable; u_t < q gives "
        "P(Q_t = 1) = q exactly, u_t <= q would not",
    ),
    Choice(
        "calruption.zero_q_loss",
        "Algorithm 2, line 5: l^_t(h) = 1{h(x_t) != y_t} Q_t / q_l^x",
        "0/0 when q_l^x = 0",
        "nothing observable: no W is computed from such a round",
        "0",
        PINNED,
        "immaterial: q^x = 0 at a seen point makes min q = 0 for every pair that disagrees there, and such pairs get "
        "no W (R11); points outside Dis(h,h') add 0 to the pair's samples anyway. No trace field depends on it",
        ("R11",),
    ),
    Choice(
        "calruption.min_q_support",
        "Algorithm 2, lines 8-9: min_{x in Dis(h,h')} q_l^x",
        "literally a min over all of X",
        "the min over the points of Dis(h,h') seen in the epoch (the support S_l)",
        "over S_l",
        PINNED,
        "the remark after Algorithm 2 puts D^_l on S_l, and over all of X the min is 0 for every pair that "
        "disagrees at a point no earlier epoch saw, which drops the pair from the fit for good (R11). A literal "
        "implementation is another, also valid, algorithm (condition (1) holds a fortiori, its weights are "
        "smaller); the checks do not accept it, since the on-event checks decide condition (1) and the estimation "
        "bounds with the support's min q. Freeing it needs those checks to take min q from the trace",
        ("R11",),
    ),
    Choice(
        "calruption.estimator",
        "Algorithm 2, line 8: W = RobustEstimator(...) satisfying condition (1)",
        "'any delta-robust estimator that satisfies (1)'",
        "Catoni's estimator with the alpha of the lemma 'Concentration inequality in our case' (beta3 for "
        "log(1/delta), |I_l| for N_l); W a certified enclosure of its root",
        "Catoni (reference.catoni)",
        PINNED,
        "whether an arbitrary estimator satisfies (1) with probability 1 - delta cannot be decided from one run; "
        "with the paper's own example pinned, W is certified on every run (and (1)'s frequency is tested apart, "
        "check_catoni_condition_1_frequency). A correct implementation with another estimator fails the Catoni "
        "checks by design",
        ("R10", "R15"),
    ),
    Choice(
        "calruption.alpha_rounding",
        "Algorithm 2, line 8: Catoni's alpha = sqrt(2 beta3 min q / (5 |I_l| rho^))",
        "alpha is irrational: how it is rounded to a rational",
        "any rational alpha within relative 2^-62 of the lemma's value, on either side (the W enclosure is then "
        "certified for the trace's own alpha)",
        "rounded down to 64 significant bits (reference.catoni.catoni_alpha)",
        FREE,
        "any fixed alpha > 0 gives a valid Catoni estimator; the contract's precision moves the lemma's constant "
        "by a relative 2^-62 at most",
        ("R10",),
        rule="rounding",
        relative=Fraction(1, 2**62),
    ),
    Choice(
        "calruption.weight_rounding",
        "Algorithm 2, line 9: the weight sqrt(min q / rho^)",
        "the weight is irrational: how it is rounded to a rational",
        "any rational weight within relative 2^-64 of sqrt(min q / rho^), on either side (the LP is rebuilt from "
        "the trace's own weights)",
        "rounded down (reference.certified.sqrt_lower)",
        FREE,
        "R12's error bound for the exact data holds for either direction of a relative 2^-64 error",
        ("R12",),
        rule="rounding",
        relative=Fraction(1, 2**64),
    ),
    Choice(
        "catoni.zero_count",
        'catoni_root(values, counts, alpha); Appendix D.2, lemma "Concentration inequality for Catoni\'s estimator"',
        "a count of 0: the estimator is a function of samples, so a multiplicity of 0 lies outside it",
        "a ValueError naming counts, or the entry ignored (the answer is the data's without it); never counted",
        "refused: ValueError naming counts[i]",
        FREE,
        "the paper's f(z) sums over samples; both readings agree on every input the paper defines",
        ("R16",),
        rule="refuse_or_ignore",
    ),
    Choice(
        "calruption.W_width",
        "Algorithm 2, line 8: W_l^{h,h'}",
        "how precisely the irrational Catoni root is enclosed",
        "a certified enclosure of width <= 2^-64",
        "the same",
        PINNED,
        "a precision contract: it bounds the error of the LP's rational stand-in (R12); a wider enclosure still "
        "encloses W, but D^ could then be optimal for a far-off LP",
        ("R12",),
    ),
    Choice(
        "calruption.lp_stand_in",
        "Algorithm 2, line 9: the W^{h,h'} in the objective",
        "which rational stands in for the irrational W",
        "the midpoint of the trace's enclosure of W",
        "the midpoint",
        PINNED,
        "the trace records W's enclosure, not the stand-in; with the midpoint pinned the LP is determined by the "
        "trace and D^'s optimality is decided exactly. Another point of the enclosure is an equally good stand-in, "
        "so a correct implementation could differ; the checks could accept it only through R12's error bound, a "
        "tolerance that would also admit a slightly sub-optimal D^. Freeing it needs the trace to record the "
        "stand-in",
        ("R12",),
    ),
    Choice(
        "calruption.fit",
        "Algorithm 2, line 9: D^_l = argmin_D max_{h,h'} (...)",
        "which optimal D^, when the LP's optimum is not unique (common on small instances)",
        "any eta^ in [0,1] on S_l (None elsewhere), vertex or not, whose objective equals, exactly, the optimum of "
        "the LP rebuilt from the trace's weights and W midpoints; lp_objective equals that optimum; every later "
        "check recomputes from the trace's eta^ and none compares it with the reference's (the cross-check does, "
        "only to count lp_non_unique)",
        "the certified vertex of reference/lp.py (HiGHS's basis, exact simplex as fallback)",
        FREE,
        "the analysis (the estimation lemma, Lemma 5.1) uses only that D^_l minimises line 9's objective",
        ("R12",),
        rule="optimal",
        divergence="lp_non_unique",
    ),
    Choice(
        "calruption.fit_without_rows",
        "Algorithm 2, line 9, when no pair gives a row",
        "every D^ is optimal (all pairs have rho^ = 0 or min q = 0)",
        "any eta^ in [0,1] on S_l",
        "eta^ = 1/2 on S_l",
        FREE,
        "the objective is constant, so every D^ is an argmin",
        ("R11",),
        rule="optimal",
        divergence="lp_non_unique",
    ),
    Choice(
        "calruption.h_star_tie",
        "Algorithm 2, line 10: h^*_l = argmin_h R_D^(h) + beta2 Delta^^{l-1}_h",
        "which minimiser, when several hypotheses tie",
        "any h whose R_D^(h) + beta2 Delta^^{l-1}_h (from the trace's R_D^ and the previous Delta^) equals the "
        "minimum exactly; line 11 uses the trace's own h^*_l",
        "the lowest index",
        FREE,
        "line 11 reads the minimum value, the same for every minimiser, and the analysis uses only that h^*_l "
        "minimises line 10",
        ("R13",),
        rule="minimiser",
        divergence="argmin_tie",
    ),
    Choice(
        "calruption.output",
        "Algorithm 2, Output: h in V_l^{l-1}",
        "which member of the last completed epoch's top layer V_{L+1}^L (with no completed epoch, V_1^0 = H)",
        "any member of trace.epochs[-1].layers[-1]; any hypothesis if no epoch completed",
        "h^*_L of the last completed epoch (a member: Delta^^L_{h^*} = eps_L), hypothesis 0 without one",
        FREE,
        "the Output line names a set; Theorem 5.1's proof uses only Delta^^{L-1}_{h_out} <= eps_{L-1}, which "
        "every member satisfies",
        ("R13",),
        rule="member",
        divergence="output_member",
    ),
    Choice(
        "calruption.unfinished_epoch",
        "Algorithm 2, lines 4-6: the epoch running when the stream ends",
        "what an epoch cut by n does",
        "its rounds are queried with its q and counted in the labels; it updates nothing",
        "the same",
        PINNED,
        "line 6 updates only at t = tau_l + N_l - 1, which an unfinished epoch never reaches, and line 4 queries in "
        "every round: no correct implementation differs",
        ("R14",),
    ),
    # -- the trace's representation (CONTRACT.md, Trace) ----------------------------------------
    Choice(
        "trace.index_sets",
        "the trace (CONTRACT.md, Trace): V_t, V_{t+1}, the layers V^i_{l+1}, the support S_l",
        "the paper's sets have no order",
        "sorted tuples without repeats",
        "the same",
        FORMAT,
        "one spelling per set, so traces compare as data (JSON, the cross-check) and a repeated member cannot "
        "hide: a convention of the contract's data format, not a reading of the paper",
    ),
    Choice(
        "trace.undefined",
        "the trace: quantities the paper leaves undefined",
        "how an undefined entry is written",
        "None: L^, rho^ and thresholds off V_t; eta^ off S_l; min q and alpha where rho^ = 0; alpha, W and weight "
        "where min q = 0 (no LP row); W = [0, 0] where rho^ = 0 (every sample is 0)",
        "the same",
        FORMAT,
        "so the LP and every average can be rebuilt from the trace unambiguously; a weight-0 row would change no "
        "optimum, so writing it as 0 instead of None is a representation, not a behaviour",
        ("R11",),
    ),
    Choice(
        "trace.matrices",
        "the trace: rho^, min q, alpha, W, weight per pair",
        "one entry per ordered or unordered pair",
        "full |H| x |H| matrices, symmetric but for W^{h',h} = -W^{h,h'} (enclosures meeting after negation: psi is "
        "odd), rho^(h,h) = 0; V^0 = H listed among the l + 1 layers",
        "the same",
        FORMAT,
        "a convention of the data format; W's antisymmetry is forced by the estimator",
        ("R12",),
    ),
)

BY_ID: dict[str, Choice] = {c.id: c for c in CHOICES}
assert len(BY_ID) == len(CHOICES), "choice ids must be unique"

# FINDINGS.md reading decisions that ask nothing of an implementation
NOT_IMPLEMENTATION_CHOICES: dict[str, str] = {
    "R1": "the appendix counter-example's labels: an instance, built by reference.instances.counterexample",
    "R2": "B(h*, r) closed and theta*(r0) for r0 > 0: the analysis's disagreement coefficient (Dis(V) itself is "
    "robust_cal.dis_region)",
    "R7": "c_t's max over all of X: the adversary's corruption measure, computed by the harness",
    "R15": "condition (1)'s per-pair failure probability: how the suite tests a probability claim",
}


# -- what the checks and the cross-check ask -------------------------------------------------
def choice(choice_id: str) -> Choice:
    try:
        return BY_ID[choice_id]
    except KeyError:
        raise KeyError(f"no entry {choice_id!r} in properties.checks.free_choices.CHOICES") from None


def cite(*choice_ids: str) -> None:
    """For a check that honours these entries in its own logic: fails at import if one is
    missing or no longer free, so the table and the check cannot drift apart."""
    for choice_id in choice_ids:
        if not choice(choice_id).free:
            raise ValueError(f"{choice_id} is cited as a free choice but the table says {choice(choice_id).status}")


def _with_rule(choice_id: str, rule: str) -> Choice:
    c = choice(choice_id)
    if c.free and c.rule != rule:
        raise ValueError(f"{choice_id} is accepted by rule {c.rule!r}, not {rule!r}")
    return c


def minimisers(values, members) -> tuple[int, ...]:
    """The members whose value equals the minimum, exactly, in increasing order."""
    members = sorted(members)
    if not members:
        return ()
    low = min(values[h] for h in members)
    return tuple(h for h in members if values[h] == low)


def accepted_minimisers(choice_id: str, values, members) -> tuple[int, ...]:
    """The choices an argmin entry accepts: every exact minimiser if it is free, else the
    reference's documented one (the lowest index)."""
    c = _with_rule(choice_id, "minimiser")
    found = minimisers(values, members)
    return found if c.free else found[:1]


def accepted_calruption_outputs(trace, num_hypotheses: int) -> tuple[int, ...]:
    """The outputs `calruption.output` accepts for a trace: the last completed epoch's top
    layer (every hypothesis without a completed epoch) if free, else the reference's h^*_L
    (0 without a completed epoch)."""
    c = _with_rule("calruption.output", "member")
    if c.free:
        return tuple(trace.epochs[-1].layers[-1]) if trace.epochs else tuple(range(num_hypotheses))
    return (trace.epochs[-1].h_star_hat,) if trace.epochs else (0,)


def rounding_bound(choice_id: str) -> Fraction | None:
    """The relative bound within which a free rounding entry accepts any rational stand-in,
    or None if the entry is pinned (then only the reference's own rounding is accepted)."""
    c = _with_rule(choice_id, "rounding")
    return c.relative if c.free else None


def zero_count_behaviours() -> tuple[str, ...]:
    """What `catoni.zero_count` accepts of catoni_root given a count of 0: "refuse" (a
    ValueError naming counts) and, if the entry is free, "ignore"."""
    c = _with_rule("catoni.zero_count", "refuse_or_ignore")
    return ("refuse", "ignore") if c.free else ("refuse",)


def divergence_classes() -> tuple[str, ...]:
    """The cross-check's classes for free choices, in table order."""
    return tuple(dict.fromkeys(c.divergence for c in CHOICES if c.free and c.divergence))


def divergence_of(choice_id: str) -> str | None:
    """The class the cross-check counts a non-reference choice under, or None if the
    entry is not free (then such a choice is a mismatch)."""
    c = choice(choice_id)
    return c.divergence if c.free else None


# What the cross-check counts instead of reporting (properties/checks/crosscheck.py): float
# rounding at a boundary (coin, threshold_boundary, layer_boundary) and the paper's free
# choices, as the published schemas name them (tests/properties/checks/test_free_choices.py
# holds them to this table's classes); here beside the table so that the cross-check's report
# names them without importing the cross-check.
DIVERGENCE_KINDS = _PUBLISHED_DIVERGENCE_KINDS


# -- docs/property-suite.md -----------------------------------------------------------------------------------
def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("*", "\\*").replace("[", "\\[")


def render_markdown() -> str:
    """The table as markdown (docs/property-suite.md): the free choices, then what the contract pins."""
    lines = [
        "### Free choices and pinned conventions",
        "",
        "Generated by `properties.checks.free_choices.render_markdown()` from the table the checks and the cross-check "
        "use (`properties/checks/free_choices.py`); `tests/properties/checks/test_free_choices.py` keeps this copy current.",
        "",
        "Free: the paper leaves the choice open; every check accepts any choice and still verifies what the paper "
        "fixes; the cross-check counts a choice other than the reference's under the class named.",
        "",
        "| choice | where | open | every check accepts | the reference | why any is correct | cross-check |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for c in CHOICES:
        if c.free:
            lines.append(
                f"| `{c.id}` | {_cell(c.where)} | {_cell(c.open)} | {_cell(c.accepted)} | "
                f"{_cell(c.reference)} | {_cell(c.reason)} | {c.divergence or 'tolerance'} |"
            )
    lines += [
        "",
        "Pinned: the paper's text admits another reading or leaves a detail open, and the contract fixes one "
        "(format: a convention of the trace's representation, which the paper does not speak of).",
        "",
        "| choice | where | open | pinned to | status | why, and could a correct implementation differ |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for c in CHOICES:
        if not c.free:
            missing = [r for r in c.findings if not re.search(rf"\b{r}\b", c.reason)]
            findings = f" ({', '.join(missing)})" if missing else ""
            lines.append(
                f"| `{c.id}` | {_cell(c.where)} | {_cell(c.open)} | {_cell(c.accepted)} | {c.status} | "
                f"{_cell(c.reason)}{findings} |"
            )
    lines += [
        "",
        "Reading decisions that ask nothing of an implementation: "
        + "; ".join(f"{r}, {_cell(text)}" for r, text in NOT_IMPLEMENTATION_CHOICES.items())
        + ".",
    ]
    return "\n".join(lines) + "\n"


__all__ = [
    "BY_ID",
    "CHOICES",
    "Choice",
    "FORMAT",
    "FREE",
    "NOT_IMPLEMENTATION_CHOICES",
    "PINNED",
    "accepted_calruption_outputs",
    "accepted_minimisers",
    "choice",
    "cite",
    "divergence_classes",
    "divergence_of",
    "minimisers",
    "render_markdown",
    "rounding_bound",
    "zero_count_behaviours",
]
