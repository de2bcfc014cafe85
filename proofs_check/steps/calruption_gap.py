"""Appendix D.4, "Gap estimation accuracy": the estimation lemma for D^_l, the upper and
lower bounds of the estimated gap, their induction (Lemma "Upper bound and lower bound for
all estimation") and its main-text restatement, Lemma 5.1.

Names. For a pair (h, h') and an epoch l: dR_D = R_{D^_l}(h) - R_{D^_l}(h'),
dR_hat = R^_l(h) - R^_l(h'), dR_bar = R-bar_l(h) - R-bar_l(h') (the epoch's average of the
rounds' true risks R_t), dR_star = R_*(h) - R_*(h'), W = W_l^{h,h'}; rho_hat = rho^_l(h,h'),
rho_prev = rho^_{l-1}(h,h'), rho_star = rho_*(h,h'); q_min = min_{x in Dis(h,h')} q_l^x;
eps_l = 2^-l, eps_prev = eps_{l-1} = 2 eps_l, eps_j = 2^-j; N_l = beta1 eps_l^-2;
c = C_l/N_l. In the gap lemmas: Dnew = Delta^_h^l, Dp_h = Delta^_h^{l-1}, Dp_s =
Delta^_{h^_*^l}^{l-1}, Dp_star = Delta^_{h*}^{l-1}; A_h = R_{D^_l}(h), A_s = R_{D^_l}(h^_*^l),
A_star = R_{D^_l}(h*); R_h, R_s: the true risks R_*(.), Rstar = R^*; Delta_h = R_h - Rstar;
g_l, g_prev = g_{l-1} (g as defined in Lemma 5.1; the appendix's upper-bound lemma leaves
its "where" empty).

Domains used throughout: a previous estimated gap is >= 0 (Delta^^0 = 0, and later
Delta^^{l-1} >= eps_{l-1} by line 11), true gaps are >= 0, 0 <= R^* <= 1, g >= 0 (a sum of
nonnegative terms), 0 <= c <= 1 (C_l is a sum of |I_l| corruption levels c_t <= 1;
R10's |I_l| = ceil(N_l) would only allow a little more, so c <= 1 is the stricter premise).

g's recursion (step calruption_gap.lemma51.g_recursion): g_l = g_{l-1}/4 + 2 c w_l with
w_l = 2R^* when 2C_l/N_l <= 1/16 and w_l = 1 otherwise; the gap lemmas use it in the
branch form G_BRANCHES below."""
from __future__ import annotations

from ..step import NOT_MECHANICAL, Repair, Step, split_literal

_EST = "lem: est helper"
_UP = "lem: upper bound of the estimated gap"
_LOW = "lem: lower bound of the estimated gap"
_IND = "lem: upper and lower bound"
_MAIN = "lem(main): upper and lower bound"

_LOC_EST = "Appendix D.4, proof of Lemma 'Estimation accuracy for D^_l'"
_LOC_UP = "Appendix D.4, proof of Lemma 'Upper bound of the estimated gap'"
_LOC_LOW = "Appendix D.4, proof of Lemma 'Lower bound of the estimated gap'"
_LOC_IND = "Appendix D.4, proof of Lemma 'Upper bound and lower bound for all estimation'"


# The pair weights of line 9 and condition (1) divide by rho^ and min q: a pair with
# rho^_l = 0 or min q = 0 contributes no row (R11), so the chain is about pairs with both > 0.
_WEIGHTS = ("rho_hat > 0", "q_min > 0")
_EST_TAIL = "Abs(dR_hat - dR_star)"

# The estimation lemma's right side, as stated, for the pair (h, h^_*^l) and for (h, h*).
_EST_UP = "Abs(err) <= (Max(Dp_h, Dp_s) + eps_l)/16 + 4*c*Rstar + 2*c*Max(Delta_h, Delta_s)"
_EST_LOW = "Abs(err) <= (Max(Dp_h, Dp_star) + eps_l)/16 + 4*c*Rstar + 2*c*Max(Delta_h, Delta_star)"
_DOM_UP = ("Dp_h >= 0", "Dp_s >= 0", "Dp_h <= 1", "Dp_s <= 1", "Delta_h >= 0", "Delta_s >= 0", "Rstar >= 0", "Rstar <= 1",
           "c >= 0", "c <= 1", "eps_l > 0", "eps_l <= Rational(1, 2)")
_DOM_LOW = ("Dp_h >= 0", "Dp_star >= 0", "Dp_h <= 1", "Dp_star <= 1", "Delta_h >= 0", "Eq(Delta_star, 0)", "Rstar >= 0", "Rstar <= 1",
            "c >= 0", "c <= 1", "eps_l > 0", "eps_l <= Rational(1, 2)")
# g_l = g_{l-1}/4 + (2C_l/N_l) w_l, w_l = 2R^* or 1 by the indicator of g's definition.
G_BRANCHES = ("Or(And(2*c <= Rational(1, 16), Eq(g_l, g_prev/4 + 4*c*Rstar)), "
              "And(2*c > Rational(1, 16), Eq(g_l, g_prev/4 + 2*c)))")

# The upper-bound chain's lines, named once so that consecutive links share them exactly.
_U_ERR = "((A_h - A_s) - (R_h - R_s))"
_U_L4 = "(Max(Dp_h, Dp_s) + eps_l)/16 + Max(Delta_h, Delta_s)/16 + Delta_h - beta2*Dp_s + CT"
_U_L5 = "(Dp_h + eps_l)/16 + Delta_h/16 + Dp_s/16 + Delta_s/16 - beta2*Dp_s + Delta_h + CT"
_U_L6 = ("((Dp_h + eps_l)/16 + Delta_h/16 + Delta_h) + (Dp_s/16 + 3*Dp_s/32 - beta2*Dp_s)"
         " + 3*(eps_prev + 2*g_prev)/32 + CT")
_U_L7 = "((Dp_h + eps_l)/16 + Delta_h/16 + Delta_h) + 3*(eps_prev + 2*g_prev)/32 + CT"
_U_L8 = "Dp_h/16 + (1 + Rational(1, 16))*Delta_h + eps_l/4 + 4*Rstar*c + 3*g_prev/16"

# The lower-bound chain's lines.
_L_ERR = "((A_h - A_star) - (R_h - Rstar))"
_L_L3 = "-(Dp_h + eps_l)/16 - Delta_h/16 - Dp_star/16 - Delta_star/16 - beta2*Dp_star + Delta_h - CT"
_L_L4 = "-(Dp_h + eps_l)/16 - Delta_h/16 - Dp_star/16 - beta2*Dp_star + Delta_h - CT"
_L_L5 = ("-(2*Delta_h + 2*eps_prev + 2*g_prev + eps_l)/16 - Delta_h/16 + Delta_h"
         " - (Rational(1, 16) + beta2)*(2*eps_prev + 2*g_prev) - CT")
_L_L6 = "13*Delta_h/16 - 38*eps_l/32 - 18*g_prev/32 - 4*Rstar*c - CT"
_L_L7 = "13*Delta_h/16 - 38*eps_l/32 - 18*g_l/8"

# ---------------------------------------------------------------------------------------
# Lemma "Estimation accuracy for D^_l" (lem: est helper)
# ---------------------------------------------------------------------------------------
_EST_STEPS = (
    Step(
        id="calruption_gap.est.triangle",
        lemma=_EST,
        location=_LOC_EST + ", first display, line 1: '|(R_D^(h) - R_D^(h')) - (R_*(h) - R_*(h'))| "
                 "<= |.. - W_l^{h,h'}| + |W_l^{h,h'} - (R^_l(h) - R^_l(h'))| + |(R^_l(h) - R^_l(h')) - (R_*(h) - R_*(h'))|'",
        premises=(),
        claim="Abs(dR_D - dR_star) <= Abs(dR_D - W) + Abs(W - dR_hat) + Abs(dR_hat - dR_star)",
        justification="triangle inequality",
    ),
    Step(
        id="calruption_gap.est.reweight",
        lemma=_EST,
        location=_LOC_EST + ", first display, line 2: '<= max_{h1,h2} |(R_D^(h1) - R_D^(h2)) - W^{h1,h2}| "
                 "sqrt(min q/rho^(h1,h2)) * sqrt(rho^_l(h,h')/min q) + ...'",
        premises=_WEIGHTS + ("M_D >= Abs(dR_D - W)*sqrt(q_min/rho_hat)",),
        claim=f"Abs(dR_D - W) + Abs(W - dR_hat) + {_EST_TAIL} <= M_D*sqrt(rho_hat/q_min) + Abs(W - dR_hat) + {_EST_TAIL}",
        justification="multiply and divide by the pair's weight; the max over pairs includes (h, h')",
        finding="R11",
        notes=("rho_hat > 0 and q_min > 0: a pair with rho^_l = 0 or min q = 0 contributes no row to line 9 (R11); "
               "for rho^_l = 0 the lemma's left side is 0 anyway (h, h' agree on the epoch's points, where D^_l "
               "lives).",
               "M_D: the max over pairs at D^_l. The algorithm's objective (line 9) is a max of the signed "
               "quantity; it equals the max of the absolute value because W^{h',h} = -W^{h,h'} (R12) and the "
               "weight is symmetric, so both orders of each pair occur.",
               "The paper prints |W_l^v - ...| for |W_l^{h,h'} - ...| in this and the next line (a typo)."),
    ),
    Step(
        id="calruption_gap.est.argmin",
        lemma=_EST,
        location=_LOC_EST + ", first display, line 3: R_D^ replaced by R^_l inside the max; "
                 "'The third inequality comes from the definition of D^_l'",
        premises=_WEIGHTS + ("M_D <= M_hat",),
        claim=f"M_D*sqrt(rho_hat/q_min) + Abs(W - dR_hat) + {_EST_TAIL} <= M_hat*sqrt(rho_hat/q_min) + Abs(W - dR_hat) + {_EST_TAIL}",
        justification="D^_l minimises the weighted max; R^_l is the risk of a feasible D",
        notes=("M_hat: the same max with R^_l in place of R_D^. The premise M_D <= M_hat is the argmin of "
               "line 9: R^_l(h) is R_D(h) for the D whose x-marginal is the epoch's empirical one (the remark "
               "after Algorithm 2) and whose eta^x is the average of eta_t^x over the rounds with x_t = x.",),
    ),
    Step(
        id="calruption_gap.est.double",
        lemma=_EST,
        location=_LOC_EST + ", first display, line 4: '<= 2 max_{h1,h2} |(R^_l(h1) - R^_l(h2)) - W^{h1,h2}| "
                 "sqrt(..) sqrt(rho^_l(h,h')/min q) + |(R^_l(h) - R^_l(h')) - (R_*(h) - R_*(h'))|'",
        premises=_WEIGHTS + ("M_hat >= Abs(dR_hat - W)*sqrt(q_min/rho_hat)",),
        claim=f"M_hat*sqrt(rho_hat/q_min) + Abs(W - dR_hat) + {_EST_TAIL} <= 2*M_hat*sqrt(rho_hat/q_min) + {_EST_TAIL}",
        justification="the middle term is (h, h')'s own entry of the same max",
    ),
    Step(
        id="calruption_gap.est.e_gap",
        lemma=_EST,
        location=_LOC_EST + ", first display, last line: '<= 2 sqrt(10 beta3/N_l) sqrt(rho^_l(h,h')/min q) + ...'; "
                 "'the last inequality comes from the Condition (1)'",
        premises=_WEIGHTS + ("rho_1 > 0", "q_1 > 0", "beta3 > 0", "N_l > 0",
                             "Eq(M_hat, Abs(dR_1 - W_1)*sqrt(q_1/rho_1))",
                             "Abs(dR_1 - W_1) <= sqrt(10*beta3*rho_1/(N_l*q_1))"),
        claim=f"2*M_hat*sqrt(rho_hat/q_min) + {_EST_TAIL} <= 2*sqrt(10*beta3/N_l)*sqrt(rho_hat/q_min) + {_EST_TAIL}",
        justification="on E_gap, condition (1) for the pair (h1, h2) attaining the max",
        finding="R10",
        notes=("Condition (1)'s N_l is the epoch's length |I_l| = ceil(N_l) (R10); |I_l| >= N_l only shrinks "
               "the width, so reading N_l here as beta1 eps_l^-2 (as the next links do) is the weaker premise. ",
               "dR_1, W_1, rho_1, q_1: the quantities of the maximising pair (h1, h2). The event E_gap "
               "(condition (1) for every epoch and pair) is a premise of the lemma; its probability is the "
               "not-mechanical step calruption_gap.lemma51.probability.",),
    ),
    Step(
        id="calruption_gap.est.q_lower",
        lemma=_EST,
        location=_LOC_EST + ", display after 'For the first term': "
                 "'q_l^x >= beta1 rho^_l(h,h')/N_l eps_j^{-2}, where j = max{i in [l-1] | h,h' in V_l^i}'",
        premises=("q_x >= beta1*rho_prev/N_l*eps_j**(-2)", "beta1 > 0", "N_l > 0", "eps_j > 0",
                  "q_x > 0", "q_x <= 1", "rho_prev > 0", "rho_hat > 0", "rho_hat <= 1"),
        claim="q_x >= beta1*rho_hat/N_l*eps_j**(-2)",
        justification="definition of q_l^x (line 13) and (h, h') in Z(x)",
        repair=Repair(claim="q_x >= beta1*rho_prev/N_l*eps_j**(-2)",
                      note="line 13 computes q_l from the previous epoch's rho^_{l-1}, not from rho^_l"),
        finding="F5",
        notes=("The premise is line 13 for epoch l (written there for l+1): q_l^x is a max over Z(x) of "
               "beta1 rho^_{l-1}(h,h')/N_l eps_{k(h,h',l)}^{-2}, and (h, h') is one of its entries with "
               "k(h,h',l) = j. rho^_l (this epoch's) and rho^_{l-1} are different samples, so the printed bound "
               "fails whenever rho^_l > rho^_{l-1}; FINDINGS F5 lists this slip. The next two links take the "
               "printed line as their premise; with the correct one the first term carries the extra factor "
               "sqrt(rho^_l/rho^_{l-1}) (F5's corrected statement).",),
    ),
    Step(
        id="calruption_gap.est.q_min",
        lemma=_EST,
        location=_LOC_EST + ", display 'min_{x in Dis(h,h')} q_l^x >= beta1 rho^_l(h,h')/N_l eps_j^{-2}'",
        premises=("q_x1 >= beta1*rho_hat/N_l*eps_j**(-2)", "q_x2 >= beta1*rho_hat/N_l*eps_j**(-2)",
                  "Eq(q_min, Min(q_x1, q_x2))", "beta1 > 0", "N_l > 0", "eps_j > 0"),
        claim="q_min >= beta1*rho_hat/N_l*eps_j**(-2)",
        justification="the bound does not depend on x in Dis(h,h')",
        finding="R11",
        notes=("Two points stand for the finite set Dis(h,h') seen in the epoch (R11): a bound common to every "
               "element bounds their min; more points change nothing. Premise: the previous (printed) line.",
               "The paper repeats the paragraph 'For the first term, ... q_l^x >= ...' verbatim after this "
               "display; the repetition is the same claim as calruption_gap.est.q_lower and is not encoded twice."),
    ),
    Step(
        id="calruption_gap.est.first_term",
        lemma=_EST,
        location=_LOC_EST + ", display '2 sqrt(10 beta3/N_l) sqrt(rho^_l(h,h')/min q) <= 2 sqrt(10 beta3/beta1) eps_j'",
        premises=_WEIGHTS + ("q_min >= beta1*rho_hat/N_l*eps_j**(-2)", "beta1 > 0", "beta3 > 0", "N_l > 0", "eps_j > 0"),
        claim="2*sqrt(10*beta3/N_l)*sqrt(rho_hat/q_min) <= 2*sqrt(10*beta3/beta1)*eps_j",
        justification="the lower bound on min q",
        finding="F5",
        notes=("Holds from the printed lower bound on min q (premise); with the correct one (rho^_{l-1}, see "
               "calruption_gap.est.q_lower) the right side needs the factor sqrt(rho^_l/rho^_{l-1}).",),
    ),
    Step(
        id="calruption_gap.est.second_triangle",
        lemma=_EST,
        location=_LOC_EST + ", display after 'For the second term', line 1: "
                 "'<= |(R^_l(h) - R^_l(h')) - (R-bar_l(h) - R-bar_l(h'))| + |(R-bar_l(h) - R-bar_l(h')) - (R_*(h) - R_*(h'))|'",
        premises=(),
        claim="Abs(dR_hat - dR_star) <= Abs(dR_hat - dR_bar) + Abs(dR_bar - dR_star)",
        justification="triangle inequality",
    ),
    Step(
        id="calruption_gap.est.bernstein",
        lemma=_EST,
        location=_LOC_EST + ", same display, line 2, its first term: "
                 "'|(R^_l(h) - R^_l(h')) - (R-bar_l(h) - R-bar_l(h'))| <= 2 sqrt(beta3/N_l)'; "
                 "'the second inequality comes from Bernstein inequality'",
        premises=("beta3 > 0", "N_l > 0"),
        claim="Abs(dR_hat - dR_bar) <= 2*sqrt(beta3/N_l)",
        justification="Bernstein's inequality for the epoch's x-sample",
        kind=NOT_MECHANICAL,
        reason=("a concentration of the epoch's x_t around nu_* (Bernstein), a probability statement; none of "
                "E_gap, E_dis1, E_dis2 contains it, so on the lemma's event E_gap it can fail (FINDINGS F5: the "
                "missing sampling event E_bern)"),
        finding="F5",
    ),
    Step(
        id="calruption_gap.est.corruption",
        lemma=_EST,
        location=_LOC_EST + ", same display, line 2: '<= 2 sqrt(beta3/N_l) + (2C_l/N_l) rho_*(h,h')'; "
                 "'... and Lemma corruption related 2'",
        premises=("Abs(dR_hat - dR_bar) <= 2*sqrt(beta3/N_l)", "dR_bar - dR_star <= 2*rho_star*C_l/N_l",
                  "-(dR_bar - dR_star) <= 2*rho_star*C_l/N_l", "beta3 > 0", "N_l > 0", "C_l >= 0", "rho_star >= 0"),
        claim="Abs(dR_hat - dR_bar) + Abs(dR_bar - dR_star) <= 2*sqrt(beta3/N_l) + 2*C_l/N_l*rho_star",
        justification="the Bernstein bound (previous step) and Lemma A.2 for (h, h') and for (h', h)",
        notes=("Lemma A.2 ('Corruption effects 2') is one-sided; applied to (h', h) it bounds the other sign, "
               "rho_* being symmetric. Its R-bar is the epoch's average of R_t, as here.",),
    ),
    Step(
        id="calruption_gap.est.eps_l",
        lemma=_EST,
        location=_LOC_EST + ", same display, line 3: '<= 2 sqrt(beta3/beta1) eps_l + (2C_l/N_l)(rho_*(h,h*) + rho_*(h',h*))'",
        premises=("Eq(N_l, beta1/eps_l**2)", "rho_star <= rho_h + rho_hp", "beta1 > 0", "beta3 > 0", "eps_l > 0",
                  "C_l >= 0", "rho_star >= 0"),
        claim="2*sqrt(beta3/N_l) + 2*C_l/N_l*rho_star <= 2*sqrt(beta3/beta1)*eps_l + 2*C_l/N_l*(rho_h + rho_hp)",
        justification="N_l = beta1 eps_l^-2; the disagreement triangle inequality",
        finding="R10",
        notes=("N_l = beta1 eps_l^-2 as printed; the epoch has |I_l| = ceil(N_l) >= N_l rounds (R10), so a "
               "Bernstein width sqrt(beta3/|I_l|) is at most this one.",
               "rho_h = rho_*(h,h*), rho_hp = rho_*(h',h*): {h != h'} lies in {h != h*} union {h' != h*}.",),
    ),
    Step(
        id="calruption_gap.est.rho_to_gap",
        lemma=_EST,
        location=_LOC_EST + ", same display, last line: '<= 2 sqrt(beta3/beta1) eps_l + (4C_l/N_l) R^* + (2C_l/N_l) max{Delta_h, Delta_h'}'",
        premises=("rho_h <= 2*Rstar + Delta_h", "rho_hp <= 2*Rstar + Delta_hp", "rho_h >= Delta_h", "rho_hp >= Delta_hp",
                  "rho_h <= 1", "rho_hp <= 1", "Rstar >= 0", "Rstar <= 1", "Delta_h >= 0", "Delta_hp >= 0",
                  "Rstar + Delta_h <= 1", "Rstar + Delta_hp <= 1", "C_l >= 0", "N_l > 0", "beta1 > 0", "beta3 > 0",
                  "eps_l > 0", "eps_l <= Rational(1, 2)"),
        claim=("2*sqrt(beta3/beta1)*eps_l + 2*C_l/N_l*(rho_h + rho_hp) <= "
               "2*sqrt(beta3/beta1)*eps_l + 4*C_l/N_l*Rstar + 2*C_l/N_l*Max(Delta_h, Delta_hp)"),
        justification="rho_*(h,h*) <= R_*(h) + R^* = 2R^* + Delta_h",
        repair=Repair(claim=("2*sqrt(beta3/beta1)*eps_l + 2*C_l/N_l*(rho_h + rho_hp) <= "
                             "2*sqrt(beta3/beta1)*eps_l + 8*C_l/N_l*Rstar + 4*C_l/N_l*Max(Delta_h, Delta_hp)"),
                      note="the sum of the two disagreements is up to 4R^* + 2 max Delta: the corruption term doubles"),
        finding="F5",
        notes=("The premise rho_*(h,h*) <= 2R^* + Delta_h is the fact the paper states in the proof of Lemma "
               "'upper bound the difference of classifiers'; rho >= Delta (|R(h) - R(h*)| <= rho) only restricts "
               "the search. A realisable instance of the failure: R^* = 0, h and h' each wrong on its own half of "
               "X (Delta_h = Delta_h' = 1/2): (2C/N)(1/2 + 1/2) = 2C/N > (2C/N)(1/2). F5: 'its corruption term is "
               "half of what Lemma A.2 gives'.",),
    ),
    Step(
        id="calruption_gap.est.layer_out",
        lemma=_EST,
        location=_LOC_EST + ", last paragraph: 'if j < l-1 ... h,h' not in V_l^{j+1} ... "
                 "max{Delta^_h^{l-1}, Delta^_h'^{l-1}} > eps_{j+1} = eps_j/2'",
        premises=("Or(Dp_h > eps_j1, Dp_hp > eps_j1)", "Eq(eps_j1, eps_j/2)", "eps_j > 0"),
        claim="Max(Dp_h, Dp_hp) > eps_j/2",
        justification="line 12: h not in V_l^{j+1} means Delta^_h^{l-1} > eps_{j+1}",
        notes=("By the maximality of j, h and h' are not BOTH in V_l^{j+1}; the paper writes 'h,h' not in "
               "V_l^{j+1}' (both out). The premise encodes the weaker 'at least one is out', which is what "
               "holds and is enough. eps_{j+1} = eps_j/2 is the next step. The paper also says "
               "'Delta^ >= eps_i' where line 12 gives '>'.",),
    ),
    Step(
        id="calruption_gap.est.eps_half",
        lemma=_EST,
        location=_LOC_EST + ", last paragraph: 'eps_{j+1} = eps_j/2'",
        premises=("Eq(eps_j, 2**(-j))", "Eq(eps_j1, 2**(-j - 1))"),
        claim="Eq(eps_j1, eps_j/2)",
        justification="eps_i = 2^-i (Algorithm 2, line 1)",
        integers=("j",),
    ),
    Step(
        id="calruption_gap.est.layer_last",
        lemma=_EST,
        location=_LOC_EST + ", last paragraph: 'and if j = l-1, we directly have eps_j/2 <= eps_l'",
        premises=("Eq(2*eps_l, eps_j)", "eps_l > 0"),
        claim="eps_j/2 <= eps_l",
        justification="eps_i = 2^-i, so eps_{l-1} = 2 eps_l",
        notes=("eps_{l-1} = 2 eps_l is calruption_gap.est.eps_half at j = l - 1 (nlsat cannot read 2^-l "
               "with a symbolic exponent).",),
    ),
    Step(
        id="calruption_gap.est.eps_j_bound",
        lemma=_EST,
        location=_LOC_EST + ", last line: 'Therefore, we have eps_j/2 <= max{Delta^_h^{l-1}, Delta^_h'^{l-1}} + eps_l'",
        premises=("Or(Max(Dp_h, Dp_hp) > eps_j/2, eps_j/2 <= eps_l)", "Dp_h >= 0", "Dp_hp >= 0", "eps_l > 0"),
        claim="eps_j/2 <= Max(Dp_h, Dp_hp) + eps_l",
        justification="the two cases j < l-1 and j = l-1",
        notes=("The paper prints Delta^_{z'}^{l-1} for Delta^_{h'}^{l-1} (a typo).",),
    ),
    Step(
        id="calruption_gap.est.statement",
        lemma=_EST,
        location=("Lemma 'Estimation accuracy for D^_l' (statement), as the proof assembles it: first term "
                  "2 sqrt(10 beta3/beta1) eps_j, second 2 sqrt(beta3/beta1) eps_l + corruption, "
                  "'<= (1/16)(max{Delta^_h^{l-1}, Delta^_h'^{l-1}} + eps_l) + 4C_l/N_l R^* + 2C_l/N_l max{Delta_h, Delta_h'}'"),
        premises=("X <= 2*sqrt(10*beta3/beta1)*eps_j + 2*sqrt(beta3/beta1)*eps_l + corr",
                  "eps_j/2 <= M + eps_l", "beta1 >= 20480*beta3", "beta3 > 0", "eps_l > 0",
                  "eps_l <= Rational(1, 2)", "eps_j >= 2*eps_l", "eps_j <= 1", "M >= 0"),
        claim="X <= (M + eps_l)/16 + corr",
        justification="combine the two terms with eps_j <= 2(max Delta^ + eps_l); beta1 = 32*640 beta3",
        repair=Repair(claim="X <= K*(M + eps_l) + corr",
                      note=("with beta1 = 20480 beta3 the constant is (4 sqrt(10) + 2)/sqrt(20480) ~ 0.1024 (attained "
                            "at M = 0); 1/16 needs beta1 >= (16(4 sqrt(10) + 2))^2 beta3 ~ 54 937 beta3"),
                      sharp=("K", "1/16", "1/4")),
        finding="F5",
        notes=("X is the lemma's left side, M = max{Delta^_h^{l-1}, Delta^_h'^{l-1}}, corr the corruption term "
               "(4C_l/N_l)R^* + (2C_l/N_l)max Delta as the chain printed it. The first premise is the sum of "
               "calruption_gap.est.first_term and the second-term chain; the second is calruption_gap.est.eps_j_bound. "
               "beta1 >= 20480 beta3 is Algorithm 2's beta1 = 32*640 beta3 (R8; Theorem 5.1's beta1 would be "
               "5120 beta3, worse). F5: 'its own chain gives the constant 4 sqrt(10/20480) ~ 0.088, not 1/16'; "
               "with the eps_l term it is ~0.1024.",),
    ),
)

# ---------------------------------------------------------------------------------------
# Lemma "Upper bound of the estimated gap"
# ---------------------------------------------------------------------------------------
_UP_STEPS = (
    Step(
        id="calruption_gap.upper.trivial_case",
        lemma=_UP,
        location=_LOC_UP + ", first sentence: 'If <h - h^_*^l, theta^_l> - beta2 Delta^_{h^_*^l}^{l-1} <= eps_l, "
                 "then the above trivially holds'",
        premises=("A_h - A_s - beta2*Dp_s <= eps_l", "Eq(Dnew, Max(eps_l, A_h - A_s - beta2*Dp_s))",
                  "Delta_h >= 0", "g_l >= 0", "eps_l > 0"),
        claim="Dnew <= 2*(Delta_h + eps_l + g_l)",
        justification="then Delta^_h^l = eps_l (line 11)",
        notes=("'<h - h^_*^l, theta^_l>' is notation from another paper; read as R_{D^_l}(h) - R_{D^_l}(h^_*^l).",),
    ),
    Step(
        id="calruption_gap.upper.definition",
        lemma=_UP,
        location=_LOC_UP + ", display, line 1: 'Delta^_h^l = R_D^(h) - (R_D^(h^_*^l) + beta2 Delta^_{h^_*^l}^{l-1})'",
        premises=("A_h - A_s - beta2*Dp_s > eps_l", "Eq(Dnew, Max(eps_l, A_h - A_s - beta2*Dp_s))"),
        claim="Eq(Dnew, A_h - (A_s + beta2*Dp_s))",
        justification="line 11, otherwise-case",
    ),
    Step(
        id="calruption_gap.upper.split",
        lemma=_UP,
        location=_LOC_UP + ", display, line 2: '= ((R_D^(h) - R_D^(h^)) - (R_*(h) - R_*(h^))) + (R_*(h) - R_*(h^)) - beta2 Delta^'",
        premises=(),
        claim=f"Eq(A_h - (A_s + beta2*Dp_s), {_U_ERR} + (R_h - R_s) - beta2*Dp_s)",
        justification="add and subtract R_*(h) - R_*(h^_*^l)",
    ),
    Step(
        id="calruption_gap.upper.best",
        lemma=_UP,
        location=_LOC_UP + ", display, line 3: '<= (...) + Delta_h - beta2 Delta^'; 'the first inequality comes from the definition of h*'",
        premises=("Eq(Delta_h, R_h - Rstar)", "R_s >= Rstar"),
        claim=f"{_U_ERR} + (R_h - R_s) - beta2*Dp_s <= {_U_ERR} + Delta_h - beta2*Dp_s",
        justification="R_*(h^_*^l) >= R^*",
    ),
    Step(
        id="calruption_gap.upper.est_small",
        lemma=_UP,
        location=_LOC_UP + ", display, line 4, when 2C_l/N_l <= 1/16 (Corruption Term = 4C_l/N_l R^*): "
                 "'<= (1/16)(max{Delta^_h, Delta^_h^} + eps_l) + (1/16) max{Delta_h, Delta_h^} + Delta_h - beta2 Delta^ + Corruption Term'",
        premises=(_EST_UP, "2*c <= Rational(1, 16)") + _DOM_UP,
        claim=("err + Delta_h - beta2*Dp_s <= (Max(Dp_h, Dp_s) + eps_l)/16 + Max(Delta_h, Delta_s)/16"
               " + Delta_h - beta2*Dp_s + 4*c*Rstar"),
        justification="Lemma 'Estimation accuracy' for (h, h^_*^l); 2C_l/N_l <= 1/16",
        notes=(f"err = {_U_ERR}; the premise is Lemma 'Estimation accuracy' as stated, c = C_l/N_l.",),
    ),
    Step(
        id="calruption_gap.upper.est_large",
        lemma=_UP,
        location=_LOC_UP + ", display, line 4, when 2C_l/N_l > 1/16 (Corruption Term = 2C_l/N_l)",
        premises=(_EST_UP, "2*c > Rational(1, 16)", "Rstar + Delta_h <= 1", "Rstar + Delta_s <= 1",
                  # R_D^(h) - R_D^(h^) = err + Delta_h - Delta_s is a difference of two risks
                  "Abs(err + Delta_h - Delta_s) <= 1", "Eq(beta2, Rational(5, 32))") + _DOM_UP,
        claim=("err + Delta_h - beta2*Dp_s <= (Max(Dp_h, Dp_s) + eps_l)/16 + Max(Delta_h, Delta_s)/16"
               " + Delta_h - beta2*Dp_s + 2*c"),
        justification="Lemma 'Estimation accuracy' for (h, h^_*^l); 2C_l/N_l > 1/16",
        repair=Repair(claim=("err + Delta_h - beta2*Dp_s <= (Max(Dp_h, Dp_s) + eps_l)/16 + Max(Delta_h, Delta_s)/16"
                             " + Delta_h - beta2*Dp_s + 2*c"),
                      premises=("Abs(err) <= (Max(Dp_h, Dp_s) + eps_l)/16 + 2*c*rho", "rho >= 0", "rho <= 1",
                                "2*c > Rational(1, 16)") + _DOM_UP,
                      note=("holds from the estimation proof's intermediate line (corruption term 2(C_l/N_l) "
                            "rho_*(h,h^), rho_* <= 1), not from the lemma's statement")),
        finding="F10",
        notes=(f"err = {_U_ERR}. The lemma as stated leaves 4cR^* + 2c max Delta, which exceeds 2c + max Delta/16 "
               "(e.g. c = 1, R^* = 1/2, Delta = 1/2); the 2C_l/N_l of the branch needs rho_*(h,h') <= 1 from "
               "inside the estimation proof.",),
    ),
    Step(
        id="calruption_gap.upper.max_to_sum",
        lemma=_UP,
        location=_LOC_UP + ", display, line 5: '= (1/16)(Delta^_h^{l-1} + eps_l) + (1/16)Delta_h + (1/16)Delta^_{h^}^{l-1} "
                 "+ (1/16)Delta_{h^} - beta2 Delta^ + Delta_h + Corruption Term'",
        premises=_DOM_UP,
        claim=f"{_U_L4} <= {_U_L5}",
        justification="max{a, b} <= a + b for a, b >= 0",
        notes=("Printed '='; max{a, b} = a + b is false unless one is 0, so the intended reading is '<=' "
               "(a typo), which is what is encoded. CT is the Corruption Term, either branch.",),
    ),
    Step(
        id="calruption_gap.upper.assumption1",
        lemma=_UP,
        location=_LOC_UP + ", display, line 6: '<= ((1/16)(Delta^_h + eps_l) + (1/16)Delta_h + Delta_h) + ((1/16)Delta^_{h^} "
                 "+ (3/32)Delta^_{h^}^{l-1} - beta2 Delta^_{h^}^{l-1}) + (3/32)(eps_{l-1} + 2g_{l-1}) + Corruption Term'; "
                 "'the third inequality comes from the assumption (1)'",
        premises=("Delta_s <= 3*Dp_s/2 + 3*eps_prev/2 + 3*g_prev",) + _DOM_UP,
        claim=f"{_U_L5} <= {_U_L6}",
        justification="assumption (1) of the lemma for h^_*^l",
        notes=("The printed '(1/16) Delta^_{h^_*^l}' lacks its superscript l-1; it is the term "
               "(1/16)Delta^_{h^}^{l-1} carried from the previous line (read so).",),
    ),
    Step(
        id="calruption_gap.upper.beta2",
        lemma=_UP,
        location=_LOC_UP + ", display, line 7 (\\label{line: use beta assump}): "
                 "'<= ((1/16)(Delta^_h + eps_l) + (1/16)Delta_h + Delta_h) + (3/32)(eps_{l-1} + 2g_{l-1}) + Corruption Term'; "
                 "'the penultimate inequality comes from the fact that beta2 >= 5/32'",
        premises=("beta2 >= Rational(5, 32)", "Dp_s >= 0"),
        claim=f"{_U_L6} <= {_U_L7}",
        justification="(1/16 + 3/32 - beta2) Delta^_{h^}^{l-1} <= 0 for beta2 >= 5/32",
    ),
    Step(
        id="calruption_gap.upper.collect_small",
        lemma=_UP,
        location=_LOC_UP + ", display, line 8, when 2C_l/N_l <= 1/16: "
                 "'= (1/16)Delta^_h^{l-1} + (1 + 1/16)Delta_h + (1/4)eps_l + 4R^* C_l/N_l + (3/16)g_{l-1}'",
        premises=("Eq(eps_prev, 2*eps_l)", "Eq(CT, 4*c*Rstar)"),
        claim=f"Eq({_U_L7}, {_U_L8})",
        justification="eps_{l-1} = 2 eps_l; the small-corruption branch of the Corruption Term",
    ),
    Step(
        id="calruption_gap.upper.collect_large",
        lemma=_UP,
        location=_LOC_UP + ", display, line 8, when 2C_l/N_l > 1/16 (Corruption Term = 2C_l/N_l)",
        premises=("Eq(eps_prev, 2*eps_l)", "Eq(CT, 2*c)", "2*c > Rational(1, 16)", "c <= 1", "Rstar >= 0", "Rstar <= 1",
                  "eps_l > 0", "eps_l <= Rational(1, 2)"),
        claim=f"Eq({_U_L7}, {_U_L8})",
        justification="eps_{l-1} = 2 eps_l",
        repair=Repair(claim=f"Eq({_U_L7}, Dp_h/16 + (1 + Rational(1, 16))*Delta_h + eps_l/4 + 2*c + 3*g_prev/16)",
                      note=("the line keeps the Corruption Term (2C_l/N_l in this branch); the last step still "
                            "holds with it, as 2g_l >= g_{l-1}/2 + 4C_l/N_l")),
        finding="F10",
        notes=("The printed line replaces the Corruption Term by its small-corruption branch 4R^* C_l/N_l; in the "
               "large branch 2C_l/N_l > 4R^* C_l/N_l whenever R^* < 1/2.",),
    ),
    Step(
        id="calruption_gap.upper.final",
        lemma=_UP,
        location=_LOC_UP + ", display, last line: '<= 2(Delta_h + eps_l + g_l)'; 'the last inequality comes from assumption (2)'",
        premises=("Dp_h <= 2*(Delta_h + eps_prev + g_prev)", "Eq(eps_prev, 2*eps_l)", G_BRANCHES,
                  "Delta_h >= 0", "g_prev >= 0", "c >= 0", "Rstar >= 0", "Rstar <= 1", "eps_l > 0"),
        claim=f"{_U_L8} <= 2*(Delta_h + eps_l + g_l)",
        justification="assumption (2) for h; g_l = g_{l-1}/4 + (2C_l/N_l)(2R^* or 1)",
        notes=("g's recursion (calruption_gap.lemma51.g_recursion) in its two branches is a premise: the paper "
               "leaves the appendix lemma's 'where' empty; g_l is defined in Lemma 5.1.",),
    ),
    Step(
        id="calruption_gap.upper.large_branch_final",
        lemma=_UP,
        location=_LOC_UP + ", display, last two lines, when 2C_l/N_l > 1/16, with line 8 keeping the Corruption Term "
                 "2C_l/N_l (the repair of calruption_gap.upper.collect_large): '<= 2(Delta_h + eps_l + g_l)'",
        premises=("Dp_h <= 2*(Delta_h + eps_prev + g_prev)", "Eq(eps_prev, 2*eps_l)", "2*c > Rational(1, 16)", "c <= 1",
                  "Eq(g_l, g_prev/4 + 2*c)", "Delta_h >= 0", "g_prev >= 0", "eps_l > 0", "eps_l <= Rational(1, 2)"),
        claim="Dp_h/16 + (1 + Rational(1, 16))*Delta_h + eps_l/4 + 2*c + 3*g_prev/16 <= 2*(Delta_h + eps_l + g_l)",
        justification="assumption (2) for h; g_l = g_{l-1}/4 + 2C_l/N_l in this branch",
        finding="F10",
        notes=("Not a printed link: the corrected large-corruption branch of the upper-bound chain (line 4 from the "
               "estimation proof's intermediate corruption term, calruption_gap.upper.est_large's repair; lines 5-7 "
               "as decided with a symbolic Corruption Term; line 8 as repaired) reaches the lemma's conclusion.",),
    ),
)

# ---------------------------------------------------------------------------------------
# Lemma "Lower bound of the estimated gap"
# ---------------------------------------------------------------------------------------
_LOW_STEPS = (
    Step(
        id="calruption_gap.lower.argmin",
        lemma=_LOW,
        location=_LOC_LOW + ", display, line 1: 'Delta^_h^l >= R_D^(h) - (R_D^(h*) + beta2 Delta^_{h*})'; "
                 "'the first inequality comes from the definition of h^_*^l'",
        premises=("Eq(Dnew, Max(eps_l, A_h - A_s - beta2*Dp_s))", "A_s + beta2*Dp_s <= A_star + beta2*Dp_star"),
        claim="Dnew >= A_h - (A_star + beta2*Dp_star)",
        justification="line 11's max; h^_*^l minimises R_D^(.) + beta2 Delta^^{l-1}(.) (line 10)",
        notes=("The printed Delta^_{h*} (no superscript) is Delta^_{h*}^{l-1}, as the next line writes.",),
    ),
    Step(
        id="calruption_gap.lower.split",
        lemma=_LOW,
        location=_LOC_LOW + ", display, line 2: '= ((R_D^(h) - R_D^(h*)) - (R_*(h) - R^*)) + Delta_h - beta2 Delta^_{h*}^{l-1}'",
        premises=("Eq(Delta_h, R_h - Rstar)",),
        claim=f"Eq(A_h - (A_star + beta2*Dp_star), {_L_ERR} + Delta_h - beta2*Dp_star)",
        justification="add and subtract R_*(h) - R^*",
    ),
    Step(
        id="calruption_gap.lower.est_small",
        lemma=_LOW,
        location=_LOC_LOW + ", display, line 3, when 2C_l/N_l <= 1/16 (Corruption Term = 4R^* C_l/N_l): "
                 "'>= -(1/16)(Delta^_h^{l-1} + eps_l) - (1/16)Delta_h - (1/16)Delta^_{h*}^{l-1} - (1/16)Delta_{h*} - beta2 Delta^ + Delta_h - Corruption Term'",
        premises=(_EST_LOW, "2*c <= Rational(1, 16)") + _DOM_LOW,
        claim=("err + Delta_h - beta2*Dp_star >= -(Dp_h + eps_l)/16 - Delta_h/16 - Dp_star/16 - Delta_star/16"
               " - beta2*Dp_star + Delta_h - 4*Rstar*c"),
        justification="Lemma 'Estimation accuracy' for (h, h*); max <= sum; 2C_l/N_l <= 1/16",
        notes=(f"err = {_L_ERR}; the premise is Lemma 'Estimation accuracy' as stated, c = C_l/N_l.",),
    ),
    Step(
        id="calruption_gap.lower.est_large",
        lemma=_LOW,
        location=_LOC_LOW + ", display, line 3, when 2C_l/N_l > 1/16 (Corruption Term = C_l/N_l as printed)",
        premises=(_EST_LOW, "2*c > Rational(1, 16)", "Rstar + Delta_h <= 1",
                  # R_D^(h) - R_D^(h*) = err + Delta_h is a difference of two risks
                  "Abs(err + Delta_h) <= 1", "Eq(beta2, Rational(5, 32))") + _DOM_LOW,
        claim=("err + Delta_h - beta2*Dp_star >= -(Dp_h + eps_l)/16 - Delta_h/16 - Dp_star/16 - Delta_star/16"
               " - beta2*Dp_star + Delta_h - c"),
        justification="Lemma 'Estimation accuracy' for (h, h*); 2C_l/N_l > 1/16",
        repair=Repair(claim=("err + Delta_h - beta2*Dp_star >= -(Dp_h + eps_l)/16 - Delta_h/16 - Dp_star/16"
                             " - Delta_star/16 - beta2*Dp_star + Delta_h - 2*c"),
                      premises=("Abs(err) <= (Max(Dp_h, Dp_star) + eps_l)/16 + 2*c*rho", "rho >= 0", "rho <= 1",
                                "2*c > Rational(1, 16)") + _DOM_LOW,
                      note=("with the estimation proof's intermediate corruption term 2(C_l/N_l) rho_*(h,h*) <= "
                            "2C_l/N_l the branch is 2C_l/N_l (as in the upper-bound lemma), not C_l/N_l")),
        finding="F10",
        notes=(f"err = {_L_ERR}. The branch C_l/N_l follows neither from the lemma as stated (4cR^* + 2c Delta) "
               "nor from the proof's 2c rho_* (which can be 2c > c).",),
    ),
    Step(
        id="calruption_gap.lower.best_gap_zero",
        lemma=_LOW,
        location=_LOC_LOW + ", display, line 4: '= -(1/16)(Delta^_h^{l-1} + eps_l) - (1/16)Delta_h - (1/16)Delta^_{h*} "
                 "- beta2 Delta^_{h*}^{l-1} + Delta_h - Corruption Term'",
        premises=("Eq(Delta_star, 0)",),
        claim=f"Eq({_L_L3}, {_L_L4})",
        justification="Delta_{h*} = 0",
        notes=("The printed (1/16)Delta^_{h*} lacks the superscript l-1 (read so).",),
    ),
    Step(
        id="calruption_gap.lower.assumption",
        lemma=_LOW,
        location=_LOC_LOW + ", display, line 5: '>= -(1/16)(2Delta_h + 2eps_{l-1} + 2g_{l-1} + eps_l) + Delta_h "
                 "- (1/16 + beta2)(2eps_{l-1} + 2g_{l-1}) - Corruption Term'; 'the third inequality comes from the upper "
                 "bound of the estimated gap'",
        premises=("Dp_h <= 2*(Delta_h + eps_prev + g_prev)", "Dp_star <= 2*(0 + eps_prev + g_prev)", "beta2 >= 0"),
        claim=f"{_L_L4} >= {_L_L5}",
        justification="the lemma's assumption for h and for h* (Delta_{h*} = 0)",
        notes=("The printed line drops the term -(1/16)Delta_h of the line before; the next line's 13/16 Delta_h "
               "= 1 - 2/16 - 1/16 shows it is only omitted in print (a typo), so it is kept here. As printed "
               "(without it) the link would need Delta^_h^{l-1} <= Delta_h + 2eps_{l-1} + 2g_{l-1}, which the "
               "assumption does not give.",),
    ),
    Step(
        id="calruption_gap.lower.collect",
        lemma=_LOW,
        location=_LOC_LOW + ", display, line 6: '>= (13/16)Delta_h - (38/32)eps_l - (18/32)g_{l-1} - 4R^* C_l/N_l - Corruption Term'",
        premises=("Eq(eps_prev, 2*eps_l)", "Eq(beta2, Rational(5, 32))", "Rstar >= 0", "c >= 0"),
        claim=f"{_L_L5} >= {_L_L6}",
        justification="eps_{l-1} = 2 eps_l, beta2 = 5/32",
        notes=("Needs beta2 = 5/32 exactly as Algorithm 2 sets it (the coefficient of eps_l is -(1/4 + 4beta2 + "
               "5/16)); for beta2 > 5/32 it fails, while the upper-bound lemma needs beta2 >= 5/32. The extra "
               "-4R^* C_l/N_l is new in this line (a loss, so the link holds).",),
    ),
    Step(
        id="calruption_gap.lower.g_small",
        lemma=_LOW,
        location=_LOC_LOW + ", display, last line, when 2C_l/N_l <= 1/16: '>= (13/16)Delta_h - (38/32)eps_l - (18/8)g_l'",
        premises=("2*c <= Rational(1, 16)", "Eq(CT, 4*Rstar*c)", "Eq(g_l, g_prev/4 + 4*c*Rstar)",
                  "Rstar >= 0", "c >= 0", "g_prev >= 0"),
        claim=f"{_L_L6} >= {_L_L7}",
        justification="g_l = g_{l-1}/4 + 4R^* C_l/N_l in this branch",
    ),
    Step(
        id="calruption_gap.lower.g_large",
        lemma=_LOW,
        location=_LOC_LOW + ", display, last line, when 2C_l/N_l > 1/16 (Corruption Term = C_l/N_l as printed)",
        premises=("2*c > Rational(1, 16)", "c <= 1", "Eq(CT, c)", "Eq(g_l, g_prev/4 + 2*c)",
                  "Rstar >= 0", "Rstar <= 1", "g_prev >= 0", "eps_l > 0", "eps_l <= Rational(1, 2)"),
        claim=f"{_L_L6} >= {_L_L7}",
        justification="g_l = g_{l-1}/4 + 2C_l/N_l in this branch",
        repair=Repair(claim=f"{_L_L6} >= 13*Delta_h/16 - 38*eps_l/32 - K*g_l", sharp=("K", "2", "4"),
                      note=("needs 4R^* c + c <= 2K c: K = 5/2 for R^* <= 1 (or the printed 18/8 with R^* <= 7/8); "
                            "with the repaired branch 2C_l/N_l of calruption_gap.lower.est_large it is K = 3")),
        finding="F10",
        notes=("The line's -4R^* C_l/N_l - Corruption Term is at most (18/8)(2C_l/N_l) only when R^* <= 7/8; "
               "the paper nowhere restricts R^* (a class not closed under complement can have R^* near 1).",),
    ),
    Step(
        id="calruption_gap.lower.solve",
        lemma=_LOW,
        location="Lemma 'Lower bound of the estimated gap' (statement) from the proof's last line: "
                 "'Delta_h <= (3/2)Delta^_h^l + (3/2)eps_l + 3g_l'",
        premises=(f"Dnew >= {_L_L7}", "Dnew >= eps_l", "eps_l > 0", "g_l >= 0"),
        claim="Delta_h <= 3*Dnew/2 + 3*eps_l/2 + 3*g_l",
        justification="solve for Delta_h: 16/13 <= 3/2, 19/13 <= 3/2, 36/13 <= 3",
        notes=("Implicit in the paper (the proof ends at the line before). Dnew >= eps_l > 0 by line 11.",),
    ),
    Step(
        id="calruption_gap.lower.large_branch_final",
        lemma=_LOW,
        location=_LOC_LOW + ", display, lines 5 to 7, when 2C_l/N_l > 1/16, with the Corruption Term 2C_l/N_l (the repair "
                 "of calruption_gap.lower.est_large) and without the extra -4R^* C_l/N_l of line 6: "
                 "'>= (13/16)Delta_h - (38/32)eps_l - (18/8)g_l'",
        premises=("Eq(eps_prev, 2*eps_l)", "Eq(beta2, Rational(5, 32))", "Eq(CT, 2*c)", "2*c > Rational(1, 16)", "c <= 1",
                  "Eq(g_l, g_prev/4 + 2*c)", "g_prev >= 0", "eps_l > 0", "eps_l <= Rational(1, 2)"),
        claim=f"{_L_L5} >= {_L_L7}",
        justification="eps_{l-1} = 2 eps_l, beta2 = 5/32; g_l = g_{l-1}/4 + 2C_l/N_l in this branch",
        finding="F10",
        notes=("Not a printed link: line 5 equals line 6 plus 4R^* C_l/N_l (line 6 subtracts a term line 5 does not "
               "have), so the corrected branch reaches the printed last line, with its 18/8, for every R^* in [0, 1].",),
    ),
)

# ---------------------------------------------------------------------------------------
# Lemma "Upper bound and lower bound for all estimation": the induction
# ---------------------------------------------------------------------------------------
_P1 = "Dp_h <= 2*(Delta_h + eps_prev + g_prev)"
_P2 = "Delta_h <= 3*Dp_h/2 + 3*eps_prev/2 + 3*g_prev"
_C1 = "Dnew <= 2*(Delta_h + eps_l + g_l)"
_C2 = "Delta_h <= 3*Dnew/2 + 3*eps_l/2 + 3*g_l"
_IND_STEPS = (
    Step(
        id="calruption_gap.induction.base_at_most_one",
        lemma=_IND,
        location=_LOC_IND + ", base case l = 1: 'Delta^_h^1 <= 1'",
        premises=("Eq(D1, Max(eps_1, A_h - A_s - beta2*D0_s))", "Eq(eps_1, Rational(1, 2))", "Eq(D0_s, 0)",
                  "A_h >= 0", "A_h <= 1", "A_s >= 0", "A_s <= 1"),
        claim="D1 <= 1",
        justification="line 11 with Delta^^0 = 0; risks lie in [0, 1]",
    ),
    Step(
        id="calruption_gap.induction.base_upper",
        lemma=_IND,
        location=_LOC_IND + ", base case l = 1: '1 <= 2Delta_h + 2eps_1 + 2g_l'",
        premises=("Eq(eps_1, Rational(1, 2))", "Delta_h >= 0", "g_1 >= 0"),
        claim="1 <= 2*Delta_h + 2*eps_1 + 2*g_1",
        justification="eps_1 = 1/2",
        notes=("The paper prints g_l for g_1; in the base case l = 1 they are the same quantity, so the line is "
               "encoded as printed.",),
    ),
    Step(
        id="calruption_gap.induction.base_lower_premise",
        lemma=_IND,
        location=_LOC_IND + ", base case l = 1: 'the fact that Delta^_h^0 <= 2(Delta_h + eps_0 + g_0)'",
        premises=("Eq(D0_h, 0)", "Eq(eps_0, 1)", "Eq(g_0, 0)", "Delta_h >= 0"),
        claim="D0_h <= 2*(Delta_h + eps_0 + g_0)",
        justification="Delta^^0 = 0 (line 1), eps_0 = 2^0, g_0 an empty sum",
        notes=("With it, Lemma 'Lower bound' at l = 1 gives the second inequality (its chain uses eps_0 = 2eps_1, "
               "true for eps_i = 2^-i).",),
    ),
    Step(
        id="calruption_gap.induction.step",
        lemma=_IND,
        location=_LOC_IND + ", inductive step: 'by Lemma upper bound ... the first target inequality holds for l'. "
                 "Also by Lemma lower bound ... the second'",
        premises=(_P1, _P2, f"Or(Not(And({_P1}, {_P2})), {_C1})", f"Or(Not({_P1}), {_C2})"),
        claim=f"And({_C1}, {_C2})",
        justification="modus ponens with the two lemmas",
        notes=("The two lemmas enter as implications from epoch l-1's bounds to epoch l's (for one h; the lemmas "
               "need the bounds also for h^_*^l and h*, all given by the hypothesis 'for all h'). Logic, not "
               "algebra; encoded so that the induction's shape is on record.",),
    ),
)

# ---------------------------------------------------------------------------------------
# Lemma 5.1 (main text), which the appendix lemma restates
# ---------------------------------------------------------------------------------------
_MAIN_STEPS = (
    Step(
        id="calruption_gap.lemma51.g_recursion",
        lemma=_MAIN,
        location=("Section 5.2, Lemma 5.1: 'g_l = (2/beta1) eps_l^2 sum_{s=1}^l C_s (2R^* 1{2C_s/N_s <= 1/16} "
                  "+ 1{2C_s/N_s > 1/16})'; used, unstated, by the gap lemmas' last steps"),
        premises=("Eq(g_l, 2/beta1*eps_l**2*(S_prev + C_l*w_l))", "Eq(g_prev, 2/beta1*eps_prev**2*S_prev)",
                  "Eq(eps_prev, 2*eps_l)", "Eq(N_l, beta1/eps_l**2)", "beta1 > 0", "eps_l > 0"),
        claim="Eq(g_l, g_prev/4 + 2*C_l*w_l/N_l)",
        justification="split off the s = l term; eps_l^2 = eps_{l-1}^2/4; (2/beta1) eps_l^2 = 2/N_l",
        notes=("S_prev = sum_{s<l} C_s w_s, w_s = 2R^* if 2C_s/N_s <= 1/16 else 1. So 2C_l w_l/N_l is the upper "
               "lemma's Corruption Term (4R^* C_l/N_l or 2C_l/N_l): the branch form G_BRANCHES used by "
               "calruption_gap.upper.final and calruption_gap.lower.g_*.",),
    ),
    Step(
        id="calruption_gap.lemma51.probability",
        lemma=_MAIN,
        location="Section 5.2, Lemma 5.1: 'With probability at least 1 - delta, for all epoch l and all h'",
        premises=("delta > 0", "delta < 1"),
        claim="P_bounds >= 1 - delta",
        justification="P(E_gap) >= 1 - delta (condition (1), union bound) and Lemma 'Upper bound and lower bound for all estimation' on E_gap",
        kind=NOT_MECHANICAL,
        reason=("a probability statement (union bound over epochs and pairs); besides, the appendix lemmas it rests "
                "on fail on E_gap: the estimation lemma also needs the epoch's x-sample to concentrate "
                "(FINDINGS F5: the sampling event E_bern must join the union bound)"),
        finding="F5",
    ),
)

STEPS = _EST_STEPS + _UP_STEPS + _LOW_STEPS + _IND_STEPS + _MAIN_STEPS

# Literal first: a printed line these steps repair stays a step as printed; its corrected reading is a
# separate step whose `reading_of` names it (proofs_check/step.py).
_BY_ID = {s.id: s for s in STEPS}
STEPS = split_literal(STEPS, {
    "calruption_gap.est.reweight": dict(
        ill_formed="the printed W_l^v names no quantity of the algorithm (W_l carries a pair of hypotheses)",
        note="W_l^v read as W_l^{h,h'}."),
    "calruption_gap.est.eps_j_bound": dict(
        ill_formed="the printed Delta^_{z'}^{l-1} names no hypothesis z' of the lemma",
        note="Delta^_{z'}^{l-1} read as Delta^_{h'}^{l-1}."),
    "calruption_gap.upper.trivial_case": dict(
        ill_formed="'<h - h^_*^l, theta^_l>' is notation this paper never defines (an inner product of a "
                   "hypothesis with an estimate, from another paper)",
        note="<h - h^_*^l, theta^_l> read as R_{D^_l}(h) - R_{D^_l}(h^_*^l)."),
    "calruption_gap.upper.assumption1": dict(
        ill_formed="the printed (1/16) Delta^_{h^_*^l} has no epoch superscript: the estimated gap is defined "
                   "per epoch, so the term names no quantity",
        note="(1/16) Delta^_{h^_*^l} read as (1/16) Delta^_{h^_*^l}^{l-1}, the term carried from line 5."),
    "calruption_gap.lower.best_gap_zero": dict(
        ill_formed="the printed (1/16) Delta^_{h*} has no epoch superscript: the estimated gap is defined per "
                   "epoch, so the term names no quantity",
        note="(1/16) Delta^_{h*} read as (1/16) Delta^_{h*}^{l-1}, as the next line writes."),
    "calruption_gap.upper.max_to_sum": dict(
        claim="Eq((Max(Dp_h, Dp_s) + eps_l)/16 + Max(Delta_h, Delta_s)/16 + Delta_h - beta2*Dp_s + CT, "
              "(Dp_h + eps_l)/16 + Delta_h/16 + Dp_s/16 + Delta_s/16 - beta2*Dp_s + Delta_h + CT)",
        premises=(*_BY_ID["calruption_gap.upper.max_to_sum"].premises,
                  # standing assumptions (domain.STANDING): z3's model had Delta_h = 2 and beta2 = 0
                  "Delta_h <= 1", "Delta_s <= 1", "beta2 >= Rational(5, 32)"),
        finding="F16", note="the printed '=' read as '<=' (max{a, b} <= a + b for a, b >= 0)."),
    "calruption_gap.lower.assumption": dict(
        claim="-(Dp_h + eps_l)/16 - Delta_h/16 - Dp_star/16 - beta2*Dp_star + Delta_h - CT >= "
              "-(2*Delta_h + 2*eps_prev + 2*g_prev + eps_l)/16 + Delta_h - (Rational(1, 16) + beta2)*(2*eps_prev + 2*g_prev) - CT",
        premises=(*_BY_ID["calruption_gap.lower.assumption"].premises, "Delta_h >= 0", "Dp_h >= 0", "Dp_star >= 0",
                  "eps_prev > 0", "g_prev >= 0", "eps_l > 0", "Eq(eps_prev, 2*eps_l)",
                  # the standing assumptions (domain.STANDING): beta2 >= 5/32 (tex l. 957), eps_l <= 1/2 (eps_l = 2^-l,
                  # l >= 1), a gap <= 1; z3's model had beta2 = 0 and eps_l = 1, outside the paper
                  "beta2 >= Rational(5, 32)", "eps_l <= Rational(1, 2)", "Delta_h <= 1"),
        finding="F16", note="the term -(1/16)Delta_h of line 4, which the printed line 5 drops, kept (line 6's "
                            "13/16 = 1 - 2/16 - 1/16 counts it)."),
})
del _BY_ID
