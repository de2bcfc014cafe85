"""Appendix C.2 ('Why vanilla Robust CAL does not work?'): the counter-example's steps, in a module of
their own to keep robust_cal.py under 800 lines; robust_cal.py appends these steps last, in Appendix C's
order. The printed line robust_cal.c2.risk_h1 is split literal-first
there, with the others."""
from __future__ import annotations

from ..step import NOT_MECHANICAL, Repair, Step

_PROP = "unlabeled: Proposition (Why vanilla Robust CAL does not work?)"
_C2 = "Appendix C.2 ('Why vanilla Robust CAL does not work?'), proof of the proposition"

# The instance of C.2 (reading R1: eta_*^{x2} = eta_*^{x3} = 1; eta is P(y = 1 | x), so a
# hypothesis predicting 1 at x errs with probability 1 - eta^x, predicting 0 with eta^x).
_INSTANCE = (
    "xi1 > 0", "xi2 > 0", "64*xi2 <= xi1", "xi1 + xi2 < 1",
    "Eq(nu3, 1 - xi1 - xi2)",
    "Eq(eta1, Rational(1, 2))", "Eq(eta2, 1)", "Eq(eta3, 1)",
    # h1 = (1, 1, 1), h2 = (0, 0, 1)
    "Eq(R_h1, xi1*(1 - eta1) + xi2*(1 - eta2) + nu3*(1 - eta3))",
    "Eq(R_h2, xi1*eta1 + xi2*eta2 + nu3*(1 - eta3))",
)
# The adversary of C.2 for rounds s <= tau: eta_s^{x1} = 15/32, the other points untouched.
_CORRUPTED = (
    "Eq(eta1c, Rational(15, 32))",
    "Eq(Rbar_h1, xi1*(1 - eta1c) + xi2*(1 - eta2) + nu3*(1 - eta3))",
    "Eq(Rbar_h2, xi1*eta1c + xi2*eta2 + nu3*(1 - eta3))",
)

STEPS = (
    # ---------------------------------------------------------------- C.2, the counter-example
    Step(
        id="robust_cal.c2.risk_h1",
        lemma=_PROP,
        location=_C2 + ": 'R^* = R_*(h1) = xi1/2'",
        premises=_INSTANCE,
        claim="Eq(R_h1, xi1/2)",
        justification="routine calculation: h1 errs only at x1, with probability 1/2",
        finding="R1",
        notes=("The labels are read as eta_*^{x2} = eta_*^{x3} = 1 (R1: the paper prints eta_*^{x2} twice).",),
    ),
    Step(
        id="robust_cal.c2.risk_h2",
        lemma=_PROP,
        location=_C2 + ": 'R_*(h2) = xi1/2 + xi2'",
        premises=_INSTANCE,
        claim="Eq(R_h2, xi1/2 + xi2)",
        justification="h2 errs at x1 with probability 1/2 and at x2 always",
        finding="R1",
    ),
    Step(
        id="robust_cal.c2.best_is_h1",
        lemma=_PROP,
        location=_C2 + ": 'R^* = R_*(h1)' (h1 is the better of H = {h1, h2})",
        premises=_INSTANCE,
        claim="R_h1 < R_h2",
        justification="R_*(h2) - R_*(h1) = xi2 > 0",
        finding="R1",
    ),
    Step(
        id="robust_cal.c2.rho",
        lemma=_PROP,
        location=_C2 + ": 'rho_*(h1,h2) = xi1 + xi2'",
        premises=_INSTANCE + ("Eq(rho12, xi1*1 + xi2*1 + nu3*0)",),
        claim="Eq(rho12, xi1 + xi2)",
        justification="h1 and h2 disagree exactly on x1 and x2",
    ),
    Step(
        id="robust_cal.c2.labels_reading",
        lemma=_PROP,
        location=_C2 + ": 'eta_*^{x1} = 1/2, eta_*^{x2} = eta_*^{x2} = 1' with the stated R_*(h1) = xi1/2",
        premises=("xi1 > 0", "xi2 > 0", "xi1 + xi2 < 1", "Eq(nu3, 1 - xi1 - xi2)",
                  "Eq(eta1, Rational(1, 2))", "Eq(eta2, 1)", "eta3 >= 0", "eta3 <= 1",
                  "Eq(R_h1, xi1*(1 - eta1) + xi2*(1 - eta2) + nu3*(1 - eta3))",
                  "Eq(R_h1 - xi1/2, 0)"),
        claim="Eq(eta3, 1)",
        justification="the stated value of R_*(h1) forces eta_*^{x3} = 1 when nu_*(x3) > 0",
        finding="R1",
        notes=("Supports R1's reading: with eta_*^{x3} left free by the typo, R_*(h1) = xi1/2 holds only for eta_*^{x3} = 1.",
               "nu_*(x3) = 1 - xi1 - xi2 > 0 is assumed (xi1 + xi2 < 1); the paper only says xi1 >> 0 and xi2 <= xi1/64."),
    ),
    Step(
        id="robust_cal.c2.corruption_per_round",
        lemma=_PROP,
        location=_C2 + ": the adversary moves eta_*^{x1} = 1/2 to eta_s^{x1} = 15/32 ('Consider this case C_t <= t/32')",
        premises=(),
        claim="Eq(Abs(Rational(1, 2) - Rational(15, 32)), Rational(1, 32))",
        justification="c_s = max_x |eta_*^x - eta_s^x| = |1/2 - 15/32| for s <= tau, 0 afterwards",
    ),
    Step(
        id="robust_cal.c2.corruption_assumption",
        lemma=_PROP,
        location=_C2 + ": 'C_t <= t/32, which satisfies our corruption assumption' (C_[0,t] <= t/8 of Theorem 4.1)",
        premises=("t >= 1", "tau >= 1", "Eq(C, Min(t, tau)/32)"),
        claim="And(C <= t/32, 8*C <= t)",
        justification="c_s = 1/32 for s <= tau and 0 after, so C_[0,t] = min(t, tau)/32",
    ),
    Step(
        id="robust_cal.c2.avg_risk_h1",
        lemma=_PROP,
        location=_C2 + ": 'for any t <= tau, R_bar_t(h1) = 17/32 xi1'",
        premises=_INSTANCE + _CORRUPTED,
        claim="Eq(Rbar_h1, Rational(17, 32)*xi1)",
        justification="h1 errs at x1 with probability 1 - 15/32",
        finding="R1",
    ),
    Step(
        id="robust_cal.c2.avg_risk_h2",
        lemma=_PROP,
        location=_C2 + ": 'for any t <= tau, R_bar_t(h2) = 15/32 xi1 + xi2'",
        premises=_INSTANCE + _CORRUPTED,
        claim="Eq(Rbar_h2, Rational(15, 32)*xi1 + xi2)",
        justification="h2 errs at x1 with probability 15/32 and at x2 always",
        finding="R1",
    ),
    Step(
        id="robust_cal.c2.direction",
        lemma=_PROP,
        location=_C2 + ": 'Since R_bar_t(h2) >= R_bar_t(h1), so h2 will never be eliminated before tau'",
        premises=_INSTANCE + _CORRUPTED,
        claim="Rbar_h2 >= Rbar_h1",
        justification="the two averaged risks above",
        repair=Repair(claim="Rbar_h1 - Rbar_h2 >= 3*xi1/64",
                      note="R_bar_t(h1) - R_bar_t(h2) = xi1/16 - xi2 >= 3 xi1/64 > 0: h1 is the worse one under the "
                           "corruption, which is what the argument needs"),
        finding="F4",
    ),
    Step(
        id="robust_cal.c2.h2_kept",
        lemma=_PROP,
        location=_C2 + ": 'h2 will never be eliminated before tau'",
        premises=("t >= 2", "beta_t > 0", "rhohat >= 0"),
        claim="Rhat_h2 - Rhat_hhat <= sqrt(2*beta_t*rhohat/t) + 3*beta_t/(2*t)",
        justification="on E1, the better averaged risk of h2 keeps its empirical gap within the threshold",
        kind=NOT_MECHANICAL,
        reason="a statement about the algorithm's run on a concentration event, not algebra",
    ),
    Step(
        id="robust_cal.c2.gap",
        lemma=_PROP,
        location=_C2 + ", display: 'R_hat_t(h1) - R_hat_t(h2) >= xi1/16 - xi2 - O~(sqrt((xi1+xi2)/t) + 1/t)' (its leading term)",
        premises=_INSTANCE + _CORRUPTED,
        claim="Eq(Rbar_h1 - Rbar_h2, xi1/16 - xi2)",
        justification="difference of the averaged risks",
        finding="R1",
    ),
    Step(
        id="robust_cal.c2.bernstein",
        lemma=_PROP,
        location=_C2 + ": 'when tau >= O(1/xi1), we can always find a proper t <= tau such that R_hat_t(h1) - R_hat_t(h2) >= "
                       "xi1/16 - xi2 - O~(...)'",
        premises=("t >= 2", "beta_t > 0", "rhohat >= 0"),
        claim="Rhat_h1 - Rhat_h2 >= xi1/16 - xi2 - (sqrt(2*beta_t*rhohat/t) + beta_t/t)",
        justification="Bernstein's inequality with variance rho_*(h1,h2) = xi1 + xi2",
        kind=NOT_MECHANICAL,
        reason="a probability statement (Bernstein's inequality), not algebra; the algebra is the next step",
    ),
    Step(
        id="robust_cal.c2.vanilla_eliminates",
        lemma=_PROP,
        location=_C2 + ": 'the confidence threshold of vanilla Robust CAL is always O~(sqrt((xi1+xi2)/t) + 1/t), which can be "
                       "smaller than xi1/16 - xi2 - O~(...) for large enough t, so ... h1 can be eliminated before tau'",
        premises=("xi1 > 0", "xi2 >= 0", "64*xi2 <= xi1", "xi1 + xi2 <= 1", "beta_t >= 1", "t > 0",
                  "rhohat >= 0", "rhohat <= 1",
                  # E3 for (h1, h2), whose rho_* is xi1 + xi2
                  "Abs(xi1 + xi2 - rhohat) <= sqrt(2*beta_t*rhohat/t) + beta_t/t",
                  # E1 for (h2, h1): R_hat_t(h1) - R_hat_t(h2) >= gap - width
                  "Rhat_h1 - Rhat_h2 >= xi1/16 - xi2 - (sqrt(2*beta_t*rhohat/t) + beta_t/t)",
                  # a checkpoint t <= tau late enough: tau >= 16384 beta_t/xi1 = O~(1/xi1)
                  "t >= 16384*beta_t/xi1"),
        claim="Rhat_h1 - Rhat_h2 > sqrt(2*beta_t*rhohat/t) + 3*beta_t/(2*t)",
        justification="the gap xi1/16 - xi2 >= 3xi1/64 is constant while the widths shrink like sqrt(xi1/t)",
        finding="R6",
        notes=("The vanilla threshold is R6's reading, sqrt(2 beta_t rho_hat/t) + 3 beta_t/(2t) (line 10 without "
               "rho_hat/2); h_hat_t = h2 for such t (the sign of the claim), so h1 fails line 10's vanilla test.",
               "'For large enough t' is made explicit as t >= 16384 beta_t/xi1 (our constant, not the paper's): this is the "
               "tau >= O~(1/xi1) of the text."),
    ),
    Step(
        id="robust_cal.c2.output_wrong",
        lemma=_PROP,
        location=_C2 + ": 'if our target accuracy eps < xi2, then the vanilla Robust CAL will never able to output the correct answer'",
        premises=_INSTANCE + ("eps > 0", "eps < xi2"),
        claim="R_h2 - R_h1 > eps",
        justification="once h1 is eliminated only h2 remains, and Delta_{h2} = xi2",
        finding="R1",
    ),
    Step(
        id="robust_cal.c2.passive_recovers",
        lemma=_PROP,
        location=_C2 + ": 'in the passive learning, one can still output the target h1 as long as n >> tau'",
        premises=_INSTANCE + _CORRUPTED + (
            "tau >= 1", "n > tau",
            # risks averaged over all n rounds: corrupted for s <= tau, clean afterwards
            "Eq(Rbarn_h1, (tau*Rbar_h1 + (n - tau)*R_h1)/n)",
            "Eq(Rbarn_h2, (tau*Rbar_h2 + (n - tau)*R_h2)/n)",
            "16*xi2*n > tau*xi1"),
        claim="Rbarn_h1 < Rbarn_h2",
        justification="after tau the clean gap xi2 outweighs the corrupted one",
        finding="R1",
        notes=("'n >> tau' made explicit as n > tau xi1/(16 xi2) (at least 4 tau, since xi2 <= xi1/64): the exact condition "
               "under which the n-round averaged risk (which ERM estimates) prefers h1.",),
    ),
)
