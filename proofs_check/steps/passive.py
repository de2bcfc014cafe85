"""Section 2's corruption model, Appendix A (Lemmas A.1, A.2: corruption effects) and
Section 3 / Appendix B (Theorem 3.1, passive learning with ERM).

The lemmas of Appendix A are about sums over an interval I and expectations over a
countable X; nlsat has no sums of variable length, so their links are decided on finite
instances: two points x1, x2 (masses nu1, nu2), and an interval of two rounds for Lemma
A.1 (where the proof swaps the average over rounds and the max over x) or of one round
for Lemma A.2 (whose links are round-by-round, and which z3 decides only in that size).
Every link is linear in the per-point, per-round terms, so an instance's algebra is the
general algebra written out; a refutation on an instance is a genuine counterexample (the
lemmas quantify over every instance). A hypothesis is its two values (h1, h2) in {0, 1};
its expected error at a point with label probability eta is h(1 - eta) + (1 - h) eta.

Theorem 3.1 is encoded in normalised quantities of the proof: Delta = R_*(h_out) - R^*,
rho = rho_*(h_out, h*), B_bar / B_hat the averaged / empirical risk differences of h_out and
h*, L = log(|H|/delta)."""
from __future__ import annotations

from ..step import NOT_MECHANICAL, Repair, Step, split_literal

_PRELIM = "sec: preliminary"
_A1 = "lem: corruption related  1"
_A2 = "lem: corruption related  2"
_T31 = "them: passive learning"

_LOC_S2 = "Section 2, 'Oblivious adversary model'"
_LOC_A1 = "Appendix A, proof of Lemma A.1 (Corruption effects 1)"
_LOC_A2 = "Appendix A, proof of Lemma A.2 (Corruption effects 2)"
_LOC_B = "Appendix B (proof of Theorem 3.1)"
_LOC_T = "Section 3, Theorem 3.1"

_A1_INSTANCE = ("decided on a two-point, two-round instance (masses nu1, nu2; |I| = 2; eta_tx is round t's "
                "label probability at x_x, eta_sx the uncorrupted one); each link is linear in the "
                "per-point, per-round terms, so this is the general algebra written out")
_A2_INSTANCE = ("decided on a two-point, one-round instance (|I| = 1; eta_1x is the round's label probability "
                "at x_x, eta_sx the uncorrupted one): both sides of every link of this proof are averages over "
                "t in I of the same per-round expression, so a per-round link gives the averaged one, and a "
                "counterexample with |I| = 1 is one to the lemma (it holds for every interval)")
_C_NOTE = ("c_t enters through c_t >= |eta_*^x - eta_t^x| for each x, which its definition "
           "max_x |eta_*^x - eta_t^x| gives (FINDINGS R7: the max is over X); a claim proved from these "
           "weaker premises holds for the definition (z3 decides a Max-definition of c_t poorly)")

# -- the finite instances ---------------------------------------------------------------------
_POINTS = (1, 2)
_A1_ROUNDS = (1, 2)
_A2_ROUNDS = (1,)


def _err(h: str, eta: str) -> str:
    """Expected 0-1 loss at one point of a hypothesis with value h when P(y = 1) = eta."""
    return f"({h}*(1 - {eta}) + (1 - {h})*{eta})"


def _eta(t, x) -> str:
    return f"eta_s{x}" if t == "s" else f"eta_{t}{x}"


def _risk_definition(name: str, hyp: str, t) -> str:
    """R_t(h) with x ~ nu_*: the x-marginal is never corrupted (Section 2), only eta."""
    terms = " + ".join(f"nu{x}*" + _err(hyp + str(x), _eta(t, x)) for x in _POINTS)
    return f"Eq({name}, {terms})"


def _binary(*names) -> tuple[str, ...]:
    return tuple(f"Or(Eq({v}, 0), Eq({v}, 1))" for v in names)


def _etas(rounds) -> tuple[str, ...]:
    names = [_eta(t, x) for t in ("s", *rounds) for x in _POINTS]
    return tuple(f"{v} >= 0" for v in names) + tuple(f"{v} <= 1" for v in names)


def _abs_change(t, x) -> str:
    return "Abs(" + _eta("s", x) + " - " + _eta(t, x) + ")"


def _corruption(rounds) -> tuple[str, ...]:
    return tuple(f"c_{t} >= {_abs_change(t, x)}" for t in rounds for x in _POINTS) + \
        (f"Eq(C_I, {' + '.join(f'c_{t}' for t in rounds)})",)


def _d(t, x) -> str:
    """Round t's change of h's expected loss at x (Lemma A.1's bracket)."""
    h = f"h{x}"
    return f"({_err(h, _eta(t, x))} - {_err(h, _eta('s', x))})"


def _dd(t, x) -> str:
    """Round t's change of h's loss minus h''s at x (Lemma A.2's bracket)."""
    h, g = f"h{x}", f"g{x}"
    return (f"(({_err(h, _eta(t, x))} - {_err(g, _eta(t, x))}) - "
            f"({_err(h, _eta('s', x))} - {_err(g, _eta('s', x))}))")


def _max_over_points(term) -> str:
    return f"Max({', '.join(term(x) for x in _POINTS)})"


_MASS = ("nu1 >= 0", "nu2 >= 0", "Eq(nu1 + nu2, 1)")
_H = _binary("h1", "h2")
_G = _binary("g1", "g2")

# Lemma A.1, |I| = 2
_A1_ETAS = _etas(_A1_ROUNDS)
_A1_RISKS = tuple(_risk_definition(f"Rh{t}", "h", t) for t in ("s", *_A1_ROUNDS))
_A1_CORRUPTION = _corruption(_A1_ROUNDS)
_A1_LHS = "((Rh1 - Rhs) + (Rh2 - Rhs))/2"
_A1_EXPECT = " + ".join(f"nu{x}*({_d(1, x)} + {_d(2, x)})/2" for x in _POINTS)
_A1_EXPECT_D = " + ".join(f"nu{x}*(d_1{x} + d_2{x})/2" for x in _POINTS)
_A1_MAX_D = "(" + " + ".join(_max_over_points(lambda x, t=t: f"d_{t}{x}") for t in _A1_ROUNDS) + ")/2"
_A1_MAX_BRACKET = "(" + " + ".join(_max_over_points(lambda x, t=t: _d(t, x)) for t in _A1_ROUNDS) + ")/2"
_A1_MAX_ABS = "(" + " + ".join(_max_over_points(lambda x, t=t: _abs_change(t, x)) for t in _A1_ROUNDS) + ")/2"

# Lemma A.2, |I| = 1 (round 1)
_A2_ETAS = _etas(_A2_ROUNDS)
_A2_RISKS = tuple(_risk_definition(f"R{k}{t}", k, t) for k in ("h", "g") for t in ("s", *_A2_ROUNDS))
_A2_CORRUPTION = _corruption(_A2_ROUNDS)
_A2_LHS = "(Rh1 - Rg1)/1 - (Rhs - Rgs)"
_RHO_HG = "Eq(rho, nu1*(h1 - g1)**2 + nu2*(h2 - g2)**2)"  # (h - g)^2 = 1{h != g} on {0, 1}
_A2_EXPECT = " + ".join(f"nu{x}*{_dd(1, x)}/1" for x in _POINTS)
_A2_INDICATOR = " + ".join(f"nu{x}*(h{x} - g{x})**2*{_dd(1, x)}/1" for x in _POINTS)
# max_{h in H} (R_1(h) - R_*(h)) over all four labelings (a1, a2) of the two points: the largest
# value any class H on this instance can give, so a refutation with it holds for every H containing h, h'
_A2_MAX_H_GAP = "Max(" + ", ".join(
    " + ".join(f"nu{x}*({_err(str(a[x - 1]), _eta(1, x))} - {_err(str(a[x - 1]), _eta('s', x))})" for x in _POINTS)
    for a in ((0, 0), (0, 1), (1, 0), (1, 1))) + ")"

# -- Theorem 3.1 --------------------------------------------------------------------------
# Delta = R_*(h_out) - R^*; B_bar = Rbar_[1,n](h_out) - Rbar_[1,n](h*); B_hat the same for
# the empirical risks; L = log(|H|/delta), a positive number (nlsat has no log).
_T_DOMAIN = ("n > 0", "L > 0", "C_total >= 0", "C_total <= n", "R_star >= 0", "Delta >= 0",
             "R_star + Delta <= 1", "rho >= 0", "rho <= 1")
_F3 = "4*C_total < n"
_M = "Max(Delta, 2*R_star)"
_BOUND = "L/n + sqrt(8*R_star*L/n) + 8*C_total/n*R_star + 5*L/n/(1 - 4*C_total/n)**2"
_LAST_LINE = f"4*C_total/n*{_M} + sqrt({_M}*4*L/n) + L/n"
_EVENT_LINE = "2*C_total/n*rho + B_hat + sqrt(rho*4*L/n) + L/n"
_L_NOTE = "L = log(|H|/delta) is a variable with L > 0 (nlsat has no log)"
_CASE2_LINE = "Delta <= 4*C_total/n*Delta + sqrt(Delta*4*L/n) + L/n"
# Facts of the paper's situation added to the refuted steps only (more premises make a refutation
# stronger; repairs keep the printed premises): n >= 1 samples; L = log(|H|/delta) > log 2 = 0.693...
# (|H| >= 2, delta < 1; with |H| = 1, Delta = 0); R_*(h_out) - R_*(h*) <= P(h_out != h*) = rho; and
# rho <= R_*(h_out) + R_*(h*) = Delta + 2R^* (passive.thm31.rho_triangle).
_SITUATION = ("n >= 1", "L >= 7/10", "Delta <= rho", "rho <= Delta + 2*R_star")
_SITUATION_NOTE = ("review: premises n >= 1, L >= 7/10 (L = log(|H|/delta) > log 2), Delta <= rho and "
                   "rho <= Delta + 2R^* (rho_triangle) added so the counterexample is a situation the paper "
                   "allows; the repair keeps the printed premises")


STEPS = (
    # -- Section 2: the gamma-misspecification model as a corruption ------------------------
    Step(
        id="passive.prelim.misspec_level",
        lemma=_PRELIM,
        location="tex l. 206-212: " + _LOC_S2 + ", the gamma-misspecification display: "
                           "'c_t = max_x |eta_t^x - eta_*^x| = gamma max_x |eta_*^x - tilde eta^x|'",
        premises=("gam >= 0", "gam <= 1", "eta_s1 >= 0", "eta_s1 <= 1", "eta_s2 >= 0", "eta_s2 <= 1",
                  "etatil1 >= 0", "etatil1 <= 1", "etatil2 >= 0", "etatil2 <= 1",
                  "Eq(eta_11, (1 - gam)*eta_s1 + gam*etatil1)", "Eq(eta_12, (1 - gam)*eta_s2 + gam*etatil2)"),
        claim="Eq(Max(Abs(eta_11 - eta_s1), Abs(eta_12 - eta_s2)), "
              "gam*Max(Abs(eta_s1 - etatil1), Abs(eta_s2 - etatil2)))",
        justification="eta_t - eta_* = gamma (tilde eta - eta_*) and gamma >= 0",
        notes=("two points x1, x2; gamma is named gam (sympy reads gamma as the Gamma function), "
               "tilde eta^x is etatil<x>",),
    ),
    Step(
        id="passive.prelim.misspec_bound",
        lemma=_PRELIM,
        location="tex l. 206-212: " + _LOC_S2 + ", same display: '... = gamma max_x |eta_*^x - tilde eta^x| <= epsilon'",
        premises=("gam >= 0", "gam <= 1", "eta_s1 >= 0", "eta_s1 <= 1", "eta_s2 >= 0", "eta_s2 <= 1",
                  "etatil1 >= 0", "etatil1 <= 1", "etatil2 >= 0", "etatil2 <= 1"),
        claim="gam*Max(Abs(eta_s1 - etatil1), Abs(eta_s2 - etatil2)) <= gam",
        justification="label probabilities lie in [0, 1]",
        notes=("the paper prints '<= epsilon' with no epsilon defined there; read as the misspecification "
               "level gamma (the only bound the model gives, since |eta_* - tilde eta| <= 1)",),
    ),

    # -- Lemma A.1 ------------------------------------------------------------------------
    Step(
        id="passive.a1.as_expectation",
        lemma=_A1,
        location="tex l. 540: " + _LOC_A1 + ", first '=': '(1/|I|) sum_t (R_t(h) - R_*(h)) = E_{x~nu_*} (1/|I|) sum_t "
                           "(E_{y~eta_t^x} 1{h(x) != y} - E_{y~eta_*^x} 1{h(x) != y})'",
        premises=_MASS + _A1_ETAS + _H + _A1_RISKS,
        claim=f"Eq({_A1_LHS}, {_A1_EXPECT})",
        justification="linearity of expectation; x ~ nu_* in every round (the marginal is not corrupted)",
        notes=(_A1_INSTANCE,),
    ),
    Step(
        id="passive.a1.expectation_le_max",
        lemma=_A1,
        location="tex l. 541: " + _LOC_A1 + ", first '<=': 'E_{x~nu_*} (1/|I|) sum_t (...) <= (1/|I|) sum_t max_{x in X} (...)'",
        premises=_MASS,
        claim=f"{_A1_EXPECT_D} <= {_A1_MAX_D}",
        justification="an average over nu_* is at most the maximum over x, round by round",
        notes=(_A1_INSTANCE, "d_tx stands for round t's bracket at x (any real numbers)"),
    ),
    Step(
        id="passive.a1.bracket_le_abs",
        lemma=_A1,
        location="tex l. 542: " + _LOC_A1 + ", second '<=': '... <= (1/|I|) sum_t max_{x in X} |eta_t^x - eta_*^x|'",
        premises=_A1_ETAS + _H,
        claim=f"{_A1_MAX_BRACKET} <= {_A1_MAX_ABS}",
        justification="E_{eta_t}[1{h(x) != y}] - E_{eta_*}[1{h(x) != y}] = (1 - 2h(x))(eta_t^x - eta_*^x)",
        notes=(_A1_INSTANCE,),
    ),
    Step(
        id="passive.a1.abs_le_c",
        lemma=_A1,
        location="tex l. 542-543: " + _LOC_A1 + ", last '<=': '(1/|I|) sum_t max_x |eta_t^x - eta_*^x| <= C_I/|I|'",
        premises=_A1_ETAS + _A1_CORRUPTION,
        claim=f"{_A1_MAX_ABS} <= C_I/2",
        justification="definition of c_t and C_I (an equality)",
        notes=(_A1_INSTANCE, _C_NOTE),
    ),
    Step(
        id="passive.a1.statement",
        lemma=_A1,
        location="tex l. 532-535: " + "Appendix A, Lemma A.1: '(1/|I|) sum_{t in I} (R_t(h) - R_*(h)) <= C_I/|I|'",
        premises=_MASS + _A1_ETAS + _H + _A1_RISKS + _A1_CORRUPTION,
        claim=f"{_A1_LHS} <= C_I/2",
        justification="the chain of the proof",
        notes=(_A1_INSTANCE, _C_NOTE, "the lemma's statement decided on the instance, end to end"),
    ),

    # -- Lemma A.2 ------------------------------------------------------------------------
    Step(
        id="passive.a2.as_expectation",
        lemma=_A2,
        location="tex l. 558: " + _LOC_A2 + ", first '=': '(1/|I|) sum_t (R_t(h) - R_t(h')) - (R_*(h) - R_*(h')) = "
                           "E_x[(1/|I|) sum_t (E_{eta_t^x}[1{h(x) != y} - 1{h'(x) != y}] - E_{eta_*^x}[...])]'",
        premises=_MASS + _A2_ETAS + _H + _G + _A2_RISKS,
        claim=f"Eq({_A2_LHS}, {_A2_EXPECT})",
        justification="linearity of expectation; x ~ nu_* in every round",
        notes=(_A2_INSTANCE, "h' is g = (g1, g2); the paper writes E_{t ~ eta_t^x} for E_{y ~ eta_t^x} (typo)"),
    ),
    Step(
        id="passive.a2.indicator",
        lemma=_A2,
        location="tex l. 559: " + _LOC_A2 + ", second '=': 'E_x[1{h(x) != h'(x)}/|I| sum_t (...)]'",
        premises=_A2_ETAS + _H + _G,
        claim=f"Eq({_A2_EXPECT}, {_A2_INDICATOR})",
        justification="where h(x) = h'(x) the two losses are equal, so the bracket vanishes",
        notes=(_A2_INSTANCE, "1{h(x) != h'(x)} is (h(x) - h'(x))^2 on {0, 1}"),
    ),
    Step(
        id="passive.a2.max_over_h",
        lemma=_A2,
        location="tex l. 560: " + _LOC_A2 + ", first '<=': '... <= rho_*(h,h') ((2/|I|) sum_t max_{h in H} (R_t(h) - R_*(h)))'",
        premises=_MASS + _A2_ETAS + _H + _G + _A2_RISKS + (_RHO_HG,),
        claim=f"{_A2_INDICATOR} <= rho*(2/1)*{_A2_MAX_H_GAP}",
        justification="(paper) bound the per-point bracket by twice the largest risk change",
        repair=Repair(
            claim=f"{_A2_INDICATOR} <= rho*(2/1)*c_1",
            premises=_MASS + _A2_ETAS + _H + _G + _A2_RISKS + (_RHO_HG,) + _A2_CORRUPTION,
            note="replace max_h (R_t(h) - R_*(h)) by c_t = max_x |eta_t^x - eta_*^x|: at a point where h and h' "
                 "disagree the bracket is +-2(eta_t^x - eta_*^x), at most 2 c_t; max_h (R_t(h) - R_*(h)) is an "
                 "average over nu_* and can be much smaller. With this line the lemma's last step is the "
                 "definition of C_I, and the lemma holds (passive.a2.statement)",
        ),
        finding="F13",
        notes=(_A2_INSTANCE,
               "the max over H is taken over all four classifiers of the two points (the largest any class H "
               "containing h, h' can give), so the refutation holds for every H: that max is "
               "sum_x nu_x |eta_t^x - eta_*^x|, an average over x, while the left side needs a max over x "
               "(review: was H = {h, h'}, which FINDINGS F13's 'H = all four labelings' did not match)",
               "the repair's c_1 premises: " + _C_NOTE),
    ),
    Step(
        id="passive.a2.max_le_c",
        lemma=_A2,
        location="tex l. 561: " + _LOC_A2 + ", last '<=': 'rho_*(h,h') (2/|I|) sum_t max_h (R_t(h) - R_*(h)) <= 2 rho_*(h,h') C_I/|I|'",
        premises=_MASS + _A2_ETAS + _H + _G + _A2_RISKS + _A2_CORRUPTION + ("rho >= 0",),
        claim=f"rho*(2/1)*{_A2_MAX_H_GAP} <= 2*rho*C_I/1",
        justification="Lemma A.1 round by round: R_t(h) - R_*(h) <= c_t for every h",
        notes=(_A2_INSTANCE, _C_NOTE, "max over all four classifiers of the two points (every class H)"),
    ),
    Step(
        id="passive.a2.statement",
        lemma=_A2,
        location="tex l. 550-553: " + "Appendix A, Lemma A.2: '(1/|I|) sum_t (R_t(h) - R_t(h')) - (R_*(h) - R_*(h')) <= "
                 "2 rho_*(h,h') C_I/|I|'",
        premises=_MASS + _A2_ETAS + _H + _G + _A2_RISKS + _A2_CORRUPTION + (_RHO_HG,),
        claim=f"{_A2_LHS} <= 2*rho*C_I/1",
        justification="the chain of the proof (with the repaired middle line)",
        notes=(_A2_INSTANCE, _C_NOTE, "the lemma's statement decided on the instance, end to end: it holds, "
               "although the proof's middle line (passive.a2.max_over_h) does not"),
    ),

    # -- Theorem 3.1, Appendix B --------------------------------------------------------------
    Step(
        id="passive.thm31.split",
        lemma=_T31,
        location="tex l. 571: " + _LOC_B + ", first '<=': 'R_*(h_out) - R^* <= ((R_*(h_out) - R^*) - (Rbar(h_out) - Rbar(h*))) "
                          "+ (Rbar(h_out) - Rbar(h*))'",
        premises=_T_DOMAIN,
        claim="Eq(Delta, (Delta - B_bar) + B_bar)",
        justification="add and subtract (an identity)",
        notes=("Delta = R_*(h_out) - R^*, B_bar = Rbar_[1,n](h_out) - Rbar_[1,n](h*)",
               "printed as '<=', encoded as the equality it is (sympy reads a real 'x <= x' as True at parse, "
               "plain sympify does not, and the report's strings must read the same under both)"),
    ),
    Step(
        id="passive.thm31.corruption",
        lemma=_T31,
        location="tex l. 572-573: " + _LOC_B + ", second '<=': '... <= 2 (C_total/n) rho_*(h_out,h*) + (Rbar(h_out) - Rbar(h*))'",
        premises=_T_DOMAIN + ("(-B_bar) - (-Delta) <= 2*rho*C_total/n",),
        claim="(Delta - B_bar) + B_bar <= 2*C_total/n*rho + B_bar",
        justification="Lemma A.2 with (h, h') = (h*, h_out) on I = [1, n]",
        notes=("the premise is Lemma A.2 for h = h*, h' = h_out: (1/n) sum_t (R_t(h*) - R_t(h_out)) - "
               "(R_*(h*) - R_*(h_out)) <= 2 rho_*(h*,h_out) C_total/n; rho_* is symmetric",),
    ),
    Step(
        id="passive.thm31.bernstein",
        lemma=_T31,
        location="tex l. 574-576: " + _LOC_B + ", third '<=': '... <= 2(C_total/n) rho + (hat R(h_out) - hat R(h*)) + "
                          "sqrt(rho 4 log(|H|/delta)/n) + log(|H|/delta)/n', 'with probability at least 1 - delta'",
        premises=(),
        claim=f"2*C_total/n*rho + B_bar <= {_EVENT_LINE}",
        justification="Bernstein's inequality for each h in H and a union bound over H",
        kind=NOT_MECHANICAL,
        reason="a probability statement (Bernstein's inequality and a union bound over H); the algebra that "
               "turns Bernstein's width into the printed one is passive.thm31.bernstein_width_*",
    ),
    Step(
        id="passive.thm31.bernstein_width_small",
        lemma=_T31,
        location="tex l. 574-576, 580: " + _LOC_B + ", third '<=' (not printed: the constants behind 'comes from the Bernstein inequality')",
        premises=("rho >= 0", "rho <= 1", "n > 0", "L > 0", "L <= n"),
        claim="(1 + rho)*L/(3*n) + sqrt(((1 + rho)*L/(3*n))**2 + 2*rho*L/n) <= sqrt(4*rho*L/n) + L/n",
        justification="one-sided Bernstein at confidence delta/|H| for the mean of "
                      "1{h*(x_t) != y_t} - 1{h(x_t) != y_t} minus its expectation: variance <= rho_*(h,h*) "
                      "(x_t ~ nu_*), upper range b = 1 + rho; width b L/(3n) + sqrt((b L/(3n))^2 + 2 rho L/n)",
        notes=(_L_NOTE, "not a printed step: it checks that the textbook Bernstein width is at most the "
               "printed sqrt(4 rho L/n) + L/n, so the paper's constants are attainable",
               "premise L <= n is a case split, not the paper's: for L > n see bernstein_width_large"),
    ),
    Step(
        id="passive.thm31.bernstein_width_large",
        lemma=_T31,
        location="tex l. 574-576, 580: " + _LOC_B + ", third '<=' (not printed: the case log(|H|/delta) > n)",
        premises=("rho >= 0", "rho <= 1", "n > 0", "L >= n"),
        claim="rho + 1 <= sqrt(4*rho*L/n) + L/n",
        justification="Rbar(h) - Rbar(h*) <= rho_*(h,h*) and hat R(h*) - hat R(h) <= 1, so the deviation "
                      "is at most rho + 1 with certainty",
        notes=(_L_NOTE, "not a printed step: the other half of the case split of bernstein_width_small"),
    ),
    Step(
        id="passive.thm31.rho_triangle",
        lemma=_T31,
        location="tex l. 580: " + _LOC_B + ", text after the display: 'the fact rho_*(h,h') <= 2 max{R_*(h) - R^*, 2R^*}' "
                          "(its first half: rho_*(h,h*) <= R_*(h) + R_*(h*))",
        premises=_MASS + _etas(()) + _H + _G
                 + (_risk_definition("Rhs", "h", "s"), _risk_definition("Rgs", "g", "s"), _RHO_HG),
        claim="rho <= Rhs + Rgs",
        justification="where h and h* disagree one of them errs: 1{h(x) != h*(x)} <= 1{h(x) != y} + 1{h*(x) != y}",
        notes=("decided on a two-point instance (masses nu1, nu2, label probabilities eta_s1, eta_s2); "
               "the inequality is pointwise, then averaged",
               "g = h*; the paper states the fact for a general h', where it is false "
               "(only rho_*(h,h') <= R_*(h) + R_*(h') holds); the proof uses it for h' = h*, as encoded"),
    ),
    Step(
        id="passive.thm31.rho_le_2max",
        lemma=_T31,
        location="tex l. 580: " + _LOC_B + ", text after the display: 'the fact rho_*(h,h') <= 2 max{R_*(h) - R^*, 2R^*}'",
        premises=_T_DOMAIN + ("rho <= Delta + 2*R_star",),
        claim=f"rho <= 2*{_M}",
        justification="R_*(h_out) + R_*(h*) = Delta + 2 R^* <= 2 max{Delta, 2R^*}",
        notes=("the premise is passive.thm31.rho_triangle with R_*(h_out) = Delta + R^*, R_*(h*) = R^*",),
    ),
    Step(
        id="passive.thm31.last_link",
        lemma=_T31,
        location="tex l. 577-578: " + _LOC_B + ", last '<=': '... <= 4(C_total/n) max{Delta, 2R^*} + sqrt(max{Delta, 2R^*} "
                          "4 log(|H|/delta)/n) + log(|H|/delta)/n'",
        premises=_T_DOMAIN + _SITUATION + (_F3, "B_hat <= 0", f"rho <= 2*{_M}", f"Delta <= {_EVENT_LINE}"),
        claim=f"{_EVENT_LINE} <= {_LAST_LINE}",
        justification="h_out minimises the empirical risk (B_hat <= 0) and rho_*(h_out,h*) <= 2 max{Delta, 2R^*}",
        repair=Repair(
            claim=f"{_EVENT_LINE} <= 4*C_total/n*{_M} + sqrt(K*{_M}*L/n) + L/n",
            note="with rho <= 2 max{...}, sqrt(4 rho L/n) <= sqrt(8 max{...} L/n): the constant under the root "
                 "is 8, not 4 (the corruption and ERM terms are fine)",
            sharp=("K", "1", "16"),
            premises=_T_DOMAIN + ("B_hat <= 0", f"rho <= 2*{_M}"),
        ),
        finding="F3",
        notes=(_L_NOTE, "B_hat = hat R_[1,n](h_out) - hat R_[1,n](h*)", _SITUATION_NOTE,
               "Delta <= (the event line) is the chain up to this link, which holds on the Bernstein event; "
               "4 C_total < n (F3) keeps the refutation apart from F3's other half. Without rho <= Delta + 2R^* "
               "z3's counterexample had R^* = 0 and rho = 25/48 > Delta = 1/3, impossible (rho <= Delta when "
               "R^* = 0); the link fails in real situations too: Delta = 2R^*, rho = Delta + 2R^* = 2 max{...} "
               "(labels noiseless where h_out and h* agree, eta_* = 3/4 where they disagree)",
               "Section 3's proof sketch displays the same inequality (R_*(h_out) - R^* <= the right side)"),
    ),
    Step(
        id="passive.thm31.case1_max",
        lemma=_T31,
        location="tex l. 580: " + _LOC_B + ", text: 'Now if 2R^* >= R_*(h_out) - R^*'",
        premises=_T_DOMAIN + ("Delta <= 2*R_star",),
        claim=f"Eq({_M}, 2*R_star)",
        justification="the case assumption",
    ),
    Step(
        id="passive.thm31.case1",
        lemma=_T31,
        location="tex l. 580: " + _LOC_B + ", text: 'Now if 2R^* >= R_*(h_out) - R^*, then we directly get the target result'",
        premises=_T_DOMAIN + (_F3, "Delta <= 2*R_star",
                              "Delta <= 4*C_total/n*(2*R_star) + sqrt((2*R_star)*4*L/n) + L/n"),
        claim=f"Delta <= {_BOUND}",
        justification="8(C/n)R^* + sqrt(8R^* L/n) + L/n are terms of the bound, and its last term is nonnegative",
        finding="F3",
        notes=(_L_NOTE, "the last premise is the printed last line with max{Delta, 2R^*} = 2R^* (case1_max)",
               "premise 4 C_total < n is FINDINGS F3's (not in the paper); here it only keeps the bound's last "
               "term defined",
               "from the printed last line; from the repaired one (sqrt(8 max L/n)) this case gives "
               "sqrt(16 R^* L/n), more than the bound's sqrt(8 R^* L/n): with the corrected constant the "
               "case split on max{Delta, 2R^*} does not prove the theorem; the theorem itself (its printed "
               "constants) follows along rho <= Delta + 2R^* (corrected.thm31.sharp_bound)"),
    ),
    Step(
        id="passive.thm31.case2_max",
        lemma=_T31,
        location="tex l. 580: " + _LOC_B + ", text: 'Otherwise' (2R^* < R_*(h_out) - R^*)",
        premises=_T_DOMAIN + ("Delta > 2*R_star",),
        claim=f"Eq({_M}, Delta)",
        justification="the case assumption",
    ),
    Step(
        id="passive.thm31.case2",
        lemma=_T31,
        location="tex l. 580-584: " + _LOC_B + ", last display: 'Otherwise, by solving the quadratic inequality, "
                          "R_*(h_out) - R^* <= 5 log(|H|/delta)/n * 1/(1 - 4C_total/n)^2'",
        premises=_T_DOMAIN + _SITUATION + (_F3, "Delta > 2*R_star", _CASE2_LINE),
        claim="Delta <= 5*L/n/(1 - 4*C_total/n)**2",
        justification="solve (1 - 4C/n) Delta <= sqrt(4 Delta L/n) + L/n for Delta",
        repair=Repair(
            claim="Delta <= K*L/n/(1 - 4*C_total/n)**2",
            note="the quadratic in sqrt(Delta) gives Delta <= (L/n)(1 + sqrt(2 - 4C/n))^2/(1 - 4C/n)^2, "
                 "whose constant at C = 0 is (1 + sqrt 2)^2 = 3 + 2 sqrt 2 = 5.83 > 5. The theorem's bound "
                 "survives: its extra L/n absorbs the difference (passive.thm31.case2_bound)",
            sharp=("K", "5", "8"),
            premises=_T_DOMAIN + (_F3, "Delta > 2*R_star", _CASE2_LINE),
        ),
        finding="F14",
        notes=(_L_NOTE, _SITUATION_NOTE, "the last premise is the printed last line with max{Delta, 2R^*} = Delta (case2_max)",
               "premise 4 C_total < n is FINDINGS F3's (the proof divides by 1 - 4C_total/n)",
               "from the printed last line; from the repaired one (sqrt(8 Delta L/n)) the constant would be "
               "(sqrt 2 + sqrt 3)^2 = 9.9 at C = 0, a constant of that route, not of the theorem ("
               "corrected.thm31.sharp_bound proves the printed bound along rho <= Delta + 2R^*)"),
    ),
    Step(
        id="passive.thm31.case2_needs_quarter",
        lemma=_T31,
        location="tex l. 580-584: " + _LOC_B + ", last display: 'by solving the quadratic inequality ... 1/(1 - 4C_total/n)^2' "
                          "without C_total < n/4",
        premises=_T_DOMAIN + _SITUATION + ("Ne(4*C_total, n)", "Delta > 2*R_star", _CASE2_LINE),
        claim="Delta <= (3 + 2*sqrt(2))*L/n/(1 - 4*C_total/n)**2",
        justification="solve (1 - 4C/n) Delta <= sqrt(4 Delta L/n) + L/n for Delta (with case2's corrected constant)",
        repair=Repair(
            claim="Delta <= (3 + 2*sqrt(2))*L/n/(1 - 4*C_total/n)**2",
            premises=_T_DOMAIN + (_F3, "Delta > 2*R_star", _CASE2_LINE),
            note="with C_total < n/4 (FINDINGS F3) the corrected case-2 conclusion holds",
        ),
        finding="F3",
        notes=(_L_NOTE, _SITUATION_NOTE,
               "the claim is the printed display with 3 + 2 sqrt 2 (case2's corrected constant) in place of 5: a "
               "weaker claim than the printed one, so its refutation refutes the printed display as well, and "
               "apart from F14",
               "the theorem states no bound on C_total; for 4 C_total >= n the case-2 inequality does "
               "not bound Delta at all (its left side 1 - 4C/n is <= 0), so no division by 1 - 4C/n can work. "
               "Ne(4 C_total, n) only keeps the claim defined"),
    ),
    Step(
        id="passive.thm31.case2_bound",
        lemma=_T31,
        location="tex l. 580-584, 237: " + _LOC_B + ", last display and the theorem's bound (not printed: case 2 with the correct root)",
        premises=_T_DOMAIN + (_F3, "Delta > 2*R_star", _CASE2_LINE),
        claim="Delta <= L/n + 5*L/n/(1 - 4*C_total/n)**2",
        justification="(1 + sqrt(1 + a))^2 <= a^2 + 5 for a = 1 - 4C/n in (0, 1]",
        notes=(_L_NOTE, "not a printed step: case 2 of the printed last line still gives the theorem's bound, "
               "whose other terms L/n + sqrt(8R^* L/n) + 8(C/n)R^* are >= L/n (case2_to_theorem)",
               "premise 4 C_total < n is FINDINGS F3's"),
    ),
    Step(
        id="passive.thm31.case2_to_theorem",
        lemma=_T31,
        location="tex l. 237: " + _LOC_T + ", the bound (not printed: case 2's conclusion is below it)",
        premises=_T_DOMAIN + (_F3, "Delta <= L/n + 5*L/n/(1 - 4*C_total/n)**2"),
        claim=f"Delta <= {_BOUND}",
        justification="the bound's remaining terms are nonnegative",
        notes=(_L_NOTE, "premise 4 C_total < n is FINDINGS F3's"),
    ),
    Step(
        id="passive.thm31.implies_factor",
        lemma=_T31,
        location="tex l. 239: " + _LOC_T + ", text: 'as long as C_total is small than some fraction of n, e.g., C_total <= n/8'",
        premises=("n > 0", "C_total >= 0", "C_total <= n/8"),
        claim="1/(1 - 4*C_total/n)**2 <= 4",
        justification="1 - 4C/n >= 1/2",
        notes=("not printed: the factor the 'e.g. C_total <= n/8' controls",),
    ),
    Step(
        id="passive.thm31.implies_n_linear",
        lemma=_T31,
        location="tex l. 239-244: " + _LOC_T + ", text: 'whenever n >= 2 log(|H|/delta)/eps + 8R^* log(|H|/delta)/eps^2'",
        premises=("n > 0", "L > 0", "eps > 0", "R_star >= 0", "n >= 2*L/eps + 8*R_star*L/eps**2"),
        claim="L/n <= eps/2",
        justification="n >= 2L/eps",
        notes=(_L_NOTE, "not printed: what the condition on n gives the L/n terms"),
    ),
    Step(
        id="passive.thm31.implies_n_root",
        lemma=_T31,
        location="tex l. 239-244: " + _LOC_T + ", text: 'whenever n >= 2 log(|H|/delta)/eps + 8R^* log(|H|/delta)/eps^2'",
        premises=("n > 0", "L > 0", "eps > 0", "R_star >= 0", "n >= 2*L/eps + 8*R_star*L/eps**2"),
        claim="sqrt(8*R_star*L/n) <= eps",
        justification="n >= 8R^* L/eps^2",
        notes=(_L_NOTE, "not printed: what the condition on n gives the root term"),
    ),
    Step(
        id="passive.thm31.implies",
        lemma=_T31,
        location="tex l. 239-244: " + _LOC_T + ", text: 'This implies that, as long as ... C_total <= n/8, we can obtain "
                          "R_*(h_out) - R^* <= eps + (C_total/n) R^* whenever n >= 2L/eps + 8R^* L/eps^2'",
        premises=_T_DOMAIN + _SITUATION + ("eps > 0", "C_total <= n/8", "n >= 2*L/eps + 8*R_star*L/eps**2",
                                          f"Delta <= {_BOUND}"),
        claim="Delta <= eps + C_total/n*R_star",
        justification="substitute the conditions into the theorem's bound",
        repair=Repair(
            claim="Delta <= K*eps + 8*C_total/n*R_star",
            note="the bound's 8(C/n)R^* stays 8(C/n)R^*; at C = n/8 its other terms are 21 L/n + sqrt(8R^* L/n), "
                 "which the condition on n keeps below max_u (21/(2 + u) + sqrt(u/(2 + u))) eps = (221/21) eps "
                 "= 10.524 eps (u = 8R^*/eps; 21/2 at R^* = 0, the maximum at u = 1/220)",
            sharp=("K", "1", "16"),
            premises=_T_DOMAIN + ("eps > 0", "C_total <= n/8", "n >= 2*L/eps + 8*R_star*L/eps**2",
                                  f"Delta <= {_BOUND}"),
        ),
        finding="F15",
        notes=(_L_NOTE, _SITUATION_NOTE, "the intended reading is probably 'up to constant factors'; encoded as printed"),
    ),
)

# Literal first: a printed line these steps repair stays a step as printed; its corrected reading is a
# separate step whose `reading_of` names it (proofs_check/step.py).
STEPS = split_literal(STEPS, {
    "passive.prelim.misspec_bound": dict(
        ill_formed="'<= epsilon': no epsilon is defined in Section 2 (the target accuracy is introduced in "
                   "Section 3), so the printed bound is by an undefined quantity",
        note="the bound read as '<= gamma', the misspecification level (|eta_* - tilde eta| <= 1)."),
    "passive.a2.as_expectation": dict(
        ill_formed="the printed E_{t ~ eta_t^x} takes an expectation over the round index t drawn from a "
                   "label probability, which is undefined",
        note="E_{t ~ eta_t^x} read as E_{y ~ eta_t^x} (the label y drawn with probability eta_t^x)."),
})
