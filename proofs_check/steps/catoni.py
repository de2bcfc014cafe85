"""Appendix D.1-D.3 and the constants of Algorithm 2 that enter them: Catoni's
concentration (as cited and as applied), the choice of alpha, and the union bounds of
the high-probability events.

Variables: L = log(1/delta) of the lemma applied (a log, named; L > 0 since delta < 1),
N_l = the epoch length (|I_l|, R10), rho = rho_hat_l(h, h') > 0 (a pair with rho_hat = 0 has no row,
R11), q = min_{x in Dis(h,h')} q_l^x in (0, 1] (R11), qt = q_l^{x_t}, d = 1{h(x_t) != h'(x_t)}.
For the events, F = floor(log2 n) (R9), Hc = |H|, A = (3/2) F Hc^2 (the argument of
beta3's log is A/delta), LA = log(A/delta), so beta3 = 2 LA."""
from __future__ import annotations

from ..step import NOT_MECHANICAL, Repair, Step, split_literal

_ALG = "alg:main"
_COND = "condition: robust estimator"
_ORIG = "lem: concentratin bound for catoni -- original"
_OURS = "lem: concentratin bound for catoni"
_EST = "unlabeled: P(E_est) >= 1 - delta/3"
_DIS = "unlabeled: P(E_gap1) >= 1 - delta/3, P(E_gap2) >= 1 - delta/3"

_LOC_ALG = "Section 5.1, Algorithm 2 (CALruption)"
_LOC_ORIG = "Appendix D.2, Lemma 'Concentration inequality for Catoni's estimator' (Wei et al.)"
_LOC_OURS = "Appendix D.2, proof of Lemma 'Concentration inequality in our case'"
_LOC_EV = "Appendix D.3, 'High probability events'"

# Domains shared by the steps about one (epoch, pair): a log of 1/delta, an epoch
# length, a positive disagreement rate and a positive minimum query probability.
# N_l >= 4 log(1/delta) is the lemma's own assumption (catoni.alg.epoch_length for beta3).
_PAIR = ("L > 0", "N_l >= 4*L", "rho > 0", "rho <= 1", "q > 0", "q <= 1")
_ALPHA = "Eq(alpha, sqrt(2*L*q/(5*N_l*rho)))"
# The same with beta3 in place of the lemma's log(1/delta) (condition (1), R15).
_PAIR_B = ("beta3 > 0", "N_l >= 4*beta3", "rho > 0", "rho <= 1", "q > 0", "q <= 1")
# The constants of Algorithm 2's line 1 (R8, R9): F = floor(log2 n) >= 1 needs n >= 2.
_LINE1 = ("F >= 1", "Hc >= 1", "delta > 0", "delta < 1", "Eq(A, 3*F*Hc**2/2)")
# Binary labels and predictions: 1{u != v} = (u - v)**2 on {0, 1}.
_BINARY = ("a >= 0", "a <= 1", "b >= 0", "b <= 1", "yv >= 0", "yv <= 1")

_WIDTH = "sqrt(10*L*rho/(N_l*q))"
_WIDTH_B = "sqrt(10*beta3*rho/(N_l*q))"
_PROOF_BOUND = "2*alpha*rho/q + 2*L/(alpha*N_l)"

_R15_NOTE = ("R15: the per-(epoch, pair) failure probability of condition (1) is read as e^(-beta3), i.e. "
             "the restated lemma applied with log(1/delta) = beta3.")

STEPS = (
    # ---------------------------------------------------------------- Algorithm 2, line 1
    Step(
        id="catoni.alg.beta1_value",
        lemma=_ALG,
        location=_LOC_ALG + ", line 1: 'beta_3 = 2 log(3/2 floor(log n) |H|^2/delta), beta_1 = 32*640 beta_3'",
        premises=("Eq(beta3, 2*LA)", "Eq(beta1, 32*640*beta3)"),
        claim="Eq(beta1, 40960*LA)",
        justification="multiply out the constants of line 1",
        finding="R8",
        notes=("LA names log(3/2 floor(log2 n) |H|^2/delta) (R9 for the inner log); the product is the "
               "value R8 records for the algorithm box.",),
    ),
    Step(
        id="catoni.alg.beta1_theorem",
        lemma=_ALG,
        location=_LOC_ALG + ", line 1 against Theorem 5.1's statement "
                 "'beta_1 = 16*640 log(3/2 floor(log(n)) |H|^2/delta)'",
        premises=("Eq(beta3, 2*LA)", "Eq(beta1, 32*640*beta3)", "LA > 0"),
        claim="Eq(beta1, 16*640*LA)",
        justification="Theorem 5.1 analyses Algorithm 2, so both name the same beta_1",
        repair=Repair(claim="Eq(beta1, 4*(16*640*LA))",
                      note="the algorithm box's beta_1 is four times Theorem 5.1's; the reference follows the box (R8)"),
        finding="R8",
        notes=("Not a displayed link: the implicit identification of the two beta_1. LA > 0 by "
               "catoni.alg.log_argument.",),
    ),
    Step(
        id="catoni.alg.log_argument",
        lemma=_ALG,
        location=_LOC_ALG + ", line 1: the argument of beta_3's log, 3/2 floor(log n) |H|^2/delta",
        premises=_LINE1,
        claim="A/delta > 1",
        justification="floor(log2 n) >= 1, |H| >= 1 and delta < 1",
        finding="R9",
        notes=("So LA = log(A/delta) > 0 and beta3 = 2 LA > 0: the premise 'LA > 0' / 'beta3 > 0' of the "
               "other steps. n = 1 gives floor(log2 1) = 0 and log 0 (R9).",),
    ),
    Step(
        id="catoni.alg.epoch_length",
        lemma=_ALG,
        location=_LOC_ALG + ", line 1: 'N_l = beta_1 eps_l^{-2}', against the lemma's 'as long as N_l >= 4 log(1/delta)'",
        premises=("beta3 > 0", "Eq(beta1, 32*640*beta3)", "eps > 0", "eps <= Rational(1, 2)", "Eq(N_l, beta1/eps**2)"),
        claim="N_l >= 4*beta3",
        justification="eps_l = 2^{-l} <= 1/2 and beta_1 = 20480 beta_3",
        finding="R15",
        notes=(_R15_NOTE + " The lemma's requirement N_l >= 4 log(1/delta) is then N_l >= 4 beta3; the epoch "
               "has ceiling(N_l) >= N_l rounds (R10).",),
    ),
    Step(
        id="catoni.alg.condition1_from_lemma",
        lemma=_COND,
        location=_LOC_ALG + ", line 8, condition (1): width sqrt(10 beta_3 rho_hat/(N_l min q)), "
                 "the lemma's width with log(1/delta) replaced by beta_3",
        premises=(*_PAIR_B, "Eq(L, beta3)"),
        claim=f"Eq({_WIDTH}, {_WIDTH_B})",
        justification="Lemma 'Concentration inequality in our case' at confidence e^{-beta_3}",
        finding="R15",
        notes=(_R15_NOTE, "As printed the lemma gives condition (1) exactly; its proof does not give the "
               "lemma (F1): see catoni.alg.condition1_from_proof."),
    ),
    Step(
        id="catoni.alg.condition1_from_proof",
        lemma=_COND,
        location=_LOC_ALG + ", Section 5.1: 'One example of delta-robust estimator is Catoni estimator', "
                 "i.e. the bound the lemma's proof establishes, at log(1/delta) = beta_3, meets condition (1)",
        premises=(*_PAIR_B, "Eq(L, beta3)", _ALPHA),
        claim=f"{_PROOF_BOUND} <= {_WIDTH_B}",
        justification="the proof of Lemma 'Concentration inequality in our case' with the paper's alpha",
        repair=Repair(
            claim=f"{_PROOF_BOUND} <= {_WIDTH_B}",
            premises=(*_PAIR_B, "Eq(L, beta3/2)", _ALPHA),
            note="holds when the lemma is applied at the per-slot confidence delta/A that the union bound of "
                 "E_est needs (log(A/delta) = beta3/2, restated lemma's 1 - delta): 98/5 * beta3/2 <= 10 beta3. "
                 "The factor 2 in beta3 absorbs F1 under that reading, not under R15's e^(-beta3)."),
        finding="F1",
        notes=(_R15_NOTE, "The proof's bound at alpha is sqrt(98/5 L rho/(N_l q)) (F1), so at L = beta3 it "
               "exceeds condition (1)'s sqrt(10 beta3 rho/(N_l q))."),
    ),
    Step(
        id="catoni.alg.condition1_two_delta",
        lemma=_COND,
        location=_LOC_ALG + ", condition (1) from Catoni's original lemma (probability 1 - 2 delta) at the "
                 "per-slot confidence delta/A: log(1/delta') = log(2A/delta) = beta_3/2 + log 2",
        premises=(*_PAIR_B, "beta3 > 3", "Eq(L, beta3/2 + l2)", "10000*l2 > 6931",
                  "10000*l2 < 6932", _ALPHA),
        claim=f"{_PROOF_BOUND} <= {_WIDTH_B}",
        justification="Catoni's original lemma at delta' = delta/(2A), so that its 2 delta' is the slot's delta/A",
        repair=Repair(
            claim=f"Or(beta3 < 68, {_PROOF_BOUND} <= {_WIDTH_B})",
            note="holds exactly when beta3 >= 98 log 2 (about 67.93), i.e. A/delta >= 2^49: "
                 "(98/5)(beta3/2 + log 2) <= 10 beta3. With log 2 bracketed in (0.6931, 0.6932) the threshold 98 l2 "
                 "lies in (67.93, 67.934]: checked once by hand (refuted at 67.93, proved at 67.934); a sharp "
                 "bisection is not used here, it costs 3 s)"),
        finding="F1",
        notes=("l2 names log 2, bracketed by rationals; beta3 > 3 since beta3 = 2 log(A/delta) >= 2 log 6 for "
               "|H| >= 2, delta < 1. R15: Catoni's original inequality fails with probability "
               "2 delta; this step spends the slot's budget delta/A on it, and asks whether the proof's bound "
               "still fits condition (1) (not a printed link).",),
    ),
    Step(
        id="catoni.alg.fit_weight",
        lemma=_ALG,
        location=_LOC_ALG + ", line 9: the fit's weight sqrt(min q/rho_hat) times condition (1)'s width",
        premises=_PAIR_B,
        claim=f"Eq({_WIDTH_B}*sqrt(q/rho), sqrt(10*beta3/N_l))",
        justification="the weight normalises every pair's width to the same sqrt(10 beta_3/N_l)",
        notes=("This is how the weights of line 9 and condition (1) meet in the estimation lemma "
               "('2 sqrt(10 beta_3/N_l) sqrt(rho_hat/min q)').",),
    ),
    Step(
        id="catoni.alg.fit_weight_eps",
        lemma=_ALG,
        location=_LOC_ALG + ", lines 1 and 9: sqrt(10 beta_3/N_l) with N_l = beta_1 eps_l^{-2}, beta_1 = 32*640 beta_3",
        premises=("beta3 > 0", "eps > 0", "Eq(beta1, 32*640*beta3)", "Eq(N_l, beta1/eps**2)"),
        claim="Eq(sqrt(10*beta3/N_l), eps/(32*sqrt(2)))",
        justification="substitute line 1's N_l and beta_1",
        notes=("sqrt(10 beta_3/beta_1) eps_l = eps_l/sqrt(2048): the constant the estimation lemma needs "
               "against 1/16 (F5 discusses that chain).",),
    ),
    # ------------------------------------------------------- Catoni's lemma, as cited
    Step(
        id="catoni.orig.psi_odd",
        lemma=_ORIG,
        location=_LOC_ORIG + ": 'psi(y) = ln(1 + y + y^2/2) if y >= 0, -ln(1 - y + y^2/2) else'",
        premises=("y > 0",),
        claim="Eq(-log(1 - (-y) + (-y)**2/2), -log(1 + y + y**2/2))",
        justification="psi(-y) by the second branch equals -psi(y) by the first",
        notes=("psi is odd, so the root for X_i replaced by -X_i is the negated root: W^{h',h} = -W^{h,h'} (R12).",),
    ),
    Step(
        id="catoni.orig.centered_identity",
        lemma=_ORIG,
        location=_LOC_ORIG + ", last display: sum_i (mu_i - mu)^2 with mu = (1/n) sum_i mu_i",
        premises=("n > 0", "Eq(mu, S1/n)", "Eq(D, S2 - 2*mu*S1 + n*mu**2)"),
        claim="Eq(D, S2 - n*mu**2)",
        justification="expand the square: sum (mu_i - mu)^2 = sum mu_i^2 - n mu^2",
        notes=("S1 = sum_i mu_i, S2 = sum_i mu_i^2, D = sum_i (mu_i - mu)^2; the premise for D is the "
               "termwise expansion summed (linearity of the sum).",),
    ),
    Step(
        id="catoni.orig.second_line",
        lemma=_ORIG,
        location=_LOC_ORIG + ", last display, second '<=': "
                 "'alpha(V + sum (mu_i - mu)^2)/n + 2log(1/delta)/(alpha n) <= alpha(V + sum mu_i^2)/n + ...'",
        premises=("n > 0", "alpha > 0", "L > 0", "V >= 0", "Eq(D, S2 - n*mu**2)"),
        claim="alpha*(V + D)/n + 2*L/(alpha*n) <= alpha*(V + S2)/n + 2*L/(alpha*n)",
        justification="sum (mu_i - mu)^2 <= sum mu_i^2",
    ),
    Step(
        id="catoni.orig.probability",
        lemma=_ORIG,
        location=_LOC_ORIG + ": 'with probability at least 1 - 2 delta, |mu_hat - mu| <= ...'",
        premises=("n > 0", "alpha > 0", "L > 0", "V >= 0", "n >= alpha**2*(V + D) + 2*L"),
        claim="Abs(muhat - mu) <= alpha*(V + D)/n + 2*L/(alpha*n)",
        justification="cited from Wei et al. (2020)",
        kind=NOT_MECHANICAL,
        reason="a concentration inequality for a martingale difference sequence, cited, not proved in the paper",
    ),
    # ------------------------------------------------- Catoni's lemma, in our case
    Step(
        id="catoni.ours.mean_unbiased",
        lemma=_OURS,
        location=_LOC_OURS + ", first display, '=': E_y E_Q[l_t(h) - l_t(h')] = E_y[1{h(x_t) != y} - 1{h'(x_t) != y}]",
        premises=("qt > 0",),
        claim="Eq(qt*(Dy/qt) + (1 - qt)*0, Dy)",
        justification="E_Q[Q_t/q] = 1 for Q_t ~ Ber(q), q = q_l^{x_t} > 0",
        notes=("Dy = 1{h(x_t) != y} - 1{h'(x_t) != y} for a fixed y; Q_t = 1 with probability qt. "
               "qt = 0 is excluded (R11: the loss estimate is read as 0 there).",),
    ),
    Step(
        id="catoni.ours.mean_bound",
        lemma=_OURS,
        location=_LOC_OURS + ", first display, '<=': E_y[1{h(x_t) != y} - 1{h'(x_t) != y}] <= 1{h(x_t) != h'(x_t)}",
        premises=(*_BINARY[:4], "eta >= 0", "eta <= 1"),
        claim="eta*((a - 1)**2 - (b - 1)**2) + (1 - eta)*(a**2 - b**2) <= (a - b)**2",
        justification="the two indicators differ only where h and h' disagree",
        integers=("a", "b"),
        notes=("a = h(x_t), b = h'(x_t) in {0, 1}, y ~ Ber(eta) with eta = eta_t^{x_t}; 1{u != v} = (u - v)^2.",),
    ),
    Step(
        id="catoni.ours.mean_square",
        lemma=_OURS,
        location=_LOC_OURS + ", first display, as used in the next: mu_t^2 <= 1{h(x_t) != h'(x_t)} "
                 "(the first line of the last display replaces sum_t mu_t^2 by sum_t 1{h(x_t) != h'(x_t)})",
        premises=(*_BINARY[:4], "eta >= 0", "eta <= 1",
                  "Eq(mu_t, eta*((a - 1)**2 - (b - 1)**2) + (1 - eta)*(a**2 - b**2))"),
        claim="mu_t**2 <= (a - b)**2",
        justification="|mu_t| <= 1{h(x_t) != h'(x_t)}: the printed one-sided bound and its mirror image",
        integers=("a", "b"),
        notes=("The display states only the upper bound; the use needs |mu_t|, which holds by the same "
               "argument with h and h' swapped.",),
    ),
    Step(
        id="catoni.ours.var_second_moment",
        lemma=_OURS,
        location=_LOC_OURS + ", second display, first '<=': Var_t(X_t) <= E[X_t^2]",
        premises=("Eq(Var + mu_t**2, E2)",),
        claim="Var <= E2",
        justification="Var = E[X^2] - (E X)^2",
    ),
    Step(
        id="catoni.ours.square_pointwise",
        lemma=_OURS,
        location=_LOC_OURS + ", second display, first '=': (l_t(h) - l_t(h'))^2 = Q_t 1{h(x_t) != h'(x_t)}/(q_l^{x_t})^2",
        premises=(*_BINARY, "Qv >= 0", "Qv <= 1", "qt > 0"),
        claim="Eq(((a - yv)**2*Qv/qt - (b - yv)**2*Qv/qt)**2, Qv*(a - b)**2/qt**2)",
        justification="Q_t^2 = Q_t and (1{h != y} - 1{h' != y})^2 = 1{h != h'} on binary labels",
        integers=("a", "b", "yv", "Qv"),
        notes=("The printed middle expression E_y E_Q[1{h != h'}/q^2] omits the factor Q_t (a typo: without it "
               "the next '=' would give 1/q^2, not 1/q); encoded with Q_t.",),
    ),
    Step(
        id="catoni.ours.square_expectation",
        lemma=_OURS,
        location=_LOC_OURS + ", second display, second '=': E_Q[Q_t 1{h != h'}/q^2] = 1{h(x_t) != h'(x_t)}/q_l^{x_t}",
        premises=("qt > 0", "d >= 0", "d <= 1"),
        claim="Eq(qt*(d/qt**2) + (1 - qt)*0, d/qt)",
        justification="Q_t = 1 with probability q_l^{x_t}",
        notes=("Read with the factor Q_t the printed middle line omits (see catoni.ours.square_pointwise).",),
    ),
    Step(
        id="catoni.ours.var_min_q",
        lemma=_OURS,
        location=_LOC_OURS + ", second display, last '<=': 1{h != h'}/q_l^{x_t} <= 1{h != h'}/min_{x' in Dis(h,h')} q_l^{x'}",
        premises=("d >= 0", "d <= 1", "qt > 0", "q > 0", "Or(Eq(d, 0), qt >= q)"),
        claim="d/qt <= d/q",
        justification="x_t in Dis(h,h') whenever the indicator is 1, so q_l^{x_t} >= the minimum",
        integers=("d",),
    ),
    Step(
        id="catoni.ours.variance_sum",
        lemma=_OURS,
        location=_LOC_OURS + ", last display, first line: V = sum_t 1{h(x_t) != h'(x_t)}/min q = N_l rho_hat/min q",
        premises=("q > 0", "N_l > 0", "Svar <= Sd/q", "Eq(Sd, N_l*rho)"),
        claim="Svar <= N_l*rho/q",
        justification="sum the per-round bounds; rho_hat = (1/N_l) sum_t 1{h(x_t) != h'(x_t)}",
        notes=("Svar = sum_t Var_t, Sd = sum_t 1{h(x_t) != h'(x_t)}; |I_l| = N_l (R10).",),
    ),
    Step(
        id="catoni.ours.catoni_applied",
        lemma=_OURS,
        location=_LOC_OURS + ": 'Then according to the Lemma [original], we have ...'",
        premises=(*_PAIR, "alpha > 0", "Eq(V, Sd/q)", "N_l >= alpha**2*(V + S_c) + 2*L"),
        claim="Abs(Rdiff - W) <= alpha*(V + Smu2)/N_l + 2*L/(alpha*N_l)",
        justification="Catoni's lemma with X_t = l_t(h) - l_t(h'), n = N_l, V = N_l rho_hat/min q",
        kind=NOT_MECHANICAL,
        reason="a probability statement (Catoni's concentration). It needs mu_t, V and alpha fixed: they depend on "
               "the epoch's x_t and the previous epochs, so the lemma is applied conditionally on them (oblivious "
               "adversary). The original lemma holds with probability 1 - 2 delta, the restated one claims "
               "1 - delta (R15)",
        finding="R15",
    ),
    Step(
        id="catoni.ours.first_line",
        lemma=_OURS,
        location=_LOC_OURS + ", last display, first '<=': alpha(sum 1{h != h'}/min q + sum 1{h != h'})/N_l + 2log(1/delta)/(alpha N_l)",
        premises=(*_PAIR, "alpha > 0", "Smu2 >= 0", "Smu2 <= Sd", "Eq(V, Sd/q)"),
        claim="alpha*(V + Smu2)/N_l + 2*L/(alpha*N_l) <= alpha*(Sd/q + Sd)/N_l + 2*L/(alpha*N_l)",
        justification="the original lemma's second line with V = sum 1{h != h'}/min q and mu_t^2 <= 1{h != h'}",
        notes=("Smu2 = sum_t mu_t^2 <= Sd = sum_t 1{h(x_t) != h'(x_t)} by catoni.ours.mean_square summed.",),
    ),
    Step(
        id="catoni.ours.second_line",
        lemma=_OURS,
        location=_LOC_OURS + ", last display, second '<=': '<= 2 alpha rho_hat/min q + 2 log(1/delta)/(alpha N_l)'",
        premises=(*_PAIR, "alpha > 0", "Eq(Sd, N_l*rho)"),
        claim="alpha*(Sd/q + Sd)/N_l + 2*L/(alpha*N_l) <= 2*alpha*rho/q + 2*L/(alpha*N_l)",
        justification="sum_t 1{h != h'} = N_l rho_hat and min q <= 1",
    ),
    Step(
        id="catoni.ours.alpha_width",
        lemma=_OURS,
        location=_LOC_OURS + ", last display, '=': '2 alpha rho_hat/min q + 2 log(1/delta)/(alpha N_l) = "
                 "sqrt(10 log(1/delta) rho_hat/(N_l min q))', 'choosing alpha = sqrt(2 log(1/delta) min q/(5 N_l rho_hat))'",
        premises=(*_PAIR, _ALPHA),
        claim=f"Eq({_PROOF_BOUND}, {_WIDTH})",
        justification="substitute the chosen alpha",
        repair=Repair(claim=f"Eq({_PROOF_BOUND}, sqrt(98*L*rho/(5*N_l*q)))",
                      note="the left side is exactly sqrt(98/5 X), X = log(1/delta) rho_hat/(N_l min q): "
                           "sqrt(8X/5) from the first term plus sqrt(10X) from the second"),
        finding="F1",
    ),
    Step(
        id="catoni.ours.alpha_second_term",
        lemma=_OURS,
        location=_LOC_OURS + ", last display, '=': its second term alone, 2 log(1/delta)/(alpha N_l) at the chosen alpha",
        premises=(*_PAIR, _ALPHA),
        claim=f"Eq(2*L/(alpha*N_l), {_WIDTH})",
        justification="substitute the chosen alpha",
        finding="F1",
        notes=("A sub-computation of the '=' link, not a printed link: the printed right side is the second "
               "term alone, so the proof drops 2 alpha rho_hat/min q = sqrt(8X/5) (F1).",),
    ),
    Step(
        id="catoni.ours.alpha_any",
        lemma=_OURS,
        location=_LOC_OURS + ", last display: the width 2 alpha rho_hat/min q + 2 log(1/delta)/(alpha N_l) for any alpha > 0",
        premises=(*_PAIR, "alpha > 0"),
        claim=f"{_PROOF_BOUND} >= 4*sqrt(L*rho/(N_l*q))",
        justification="AM-GM; equality at alpha = sqrt(log(1/delta) min q/(N_l rho_hat))",
        finding="F1",
        notes=("Not a printed link: it shows that no choice of alpha gives the printed sqrt(10X) by this route "
               "(the best is sqrt(16X)), FINDINGS F1.",),
    ),
    Step(
        id="catoni.ours.centered_sum",
        lemma=_OURS,
        location=_LOC_OURS + ", 'it is easy to verify': the centred sum in the original lemma's condition",
        premises=("N_l > 0", "Eq(S_c, Smu2 - N_l*mubar**2)", "Smu2 <= Sd", "Eq(Sd, N_l*rho)"),
        claim="S_c <= N_l*rho",
        justification="sum (mu_t - mu)^2 = sum mu_t^2 - N_l mu^2 <= sum 1{h != h'} = N_l rho_hat",
        notes=("The paper writes the centred term as ((R_*(h) - R_*(h')) - (R_t(h) - R_t(h')))^2; the original "
               "lemma's condition has (mu_t - mu)^2 with mu_t the conditional means and mu their average "
               "(= R_hat_l(h) - R_hat_l(h')). Encoded as the lemma needs it.",),
    ),
    Step(
        id="catoni.ours.condition_variance",
        lemma=_OURS,
        location=_LOC_OURS + ", last display of the proof, '<=': "
                 "'alpha^2 (N_l rho_hat/min q + sum_t (...)^2) + 2 log(1/delta) <= 4 log(1/delta)'",
        premises=(*_PAIR, _ALPHA, "S_c >= 0", "S_c <= N_l*rho"),
        claim="alpha**2*(N_l*rho/q + S_c) + 2*L <= 4*L",
        justification="alpha^2 N_l rho_hat/min q = 2L/5 and alpha^2 S_c <= 2L/5 (S_c <= N_l rho_hat, min q <= 1)",
        notes=("S_c <= N_l rho_hat by catoni.ours.centered_sum. The left side is at most 14L/5.",),
    ),
    Step(
        id="catoni.ours.condition_n",
        lemma=_OURS,
        location=_LOC_OURS + ", last display of the proof, second '<=': '4 log(1/delta) <= N_l'",
        premises=("L > 0", "N_l >= 4*L"),
        claim="4*L <= N_l",
        justification="the lemma's assumption N_l >= 4 log(1/delta)",
        notes=("With log(1/delta) = beta3 the assumption holds for every epoch: catoni.alg.epoch_length.",),
    ),
    # ------------------------------------------------------- D.3: the events
    Step(
        id="catoni.events.union_total",
        lemma=_EST,
        location=_LOC_EV + ": 'we have easily get P(E_gap cap E_dis1 cap E_dis2) >= 1 - delta'",
        premises=("delta > 0", "delta < 1"),
        claim="Eq(1 - (delta/3 + delta/3 + delta/3), 1 - delta)",
        justification="the three lemmas and a union bound over the three complements",
        finding="F5",
        notes=("Placed with the first of the two unlabeled lemmas (the sentence introduces both). F5: the "
               "estimation lemma also needs a sampling event (E_bern) that is not among the three; the split "
               "delta/3 + delta/3 + delta/3 leaves no budget for it (a fourth share is needed).",),
    ),
    Step(
        id="catoni.events.est_union",
        lemma=_EST,
        location=_LOC_EV + ", proof of 'P(E_est) >= 1 - delta/3': 'by condition (1) ... and the union bound over "
                 "|H|^2 number of hypothesis pairs and 1/2 floor(log(n)) number of epochs'",
        premises=("delta > 0", "delta < 1"),
        claim="P_est >= 1 - delta/3",
        justification="union bound of condition (1) over (epoch, pair) slots",
        kind=NOT_MECHANICAL,
        reason="a union bound over probability events; its arithmetic is encoded in the catoni.events.est_* steps",
        notes=("E_est is not defined; the event the proof bounds is E_gap (the display before the lemma).", _R15_NOTE),
    ),
    Step(
        id="catoni.events.est_epoch_count",
        lemma=_EST,
        location=_LOC_EV + ", proof of 'P(E_est) >= 1 - delta/3': '1/2 floor(log(n)) number of epochs'",
        premises=("m >= 0", "F >= 1", "F <= ell", "ell < F + 1", "lb >= 0", "lb + 2*m <= ell"),
        claim="2*m <= F",
        justification="epoch m alone has N_m = beta_1 4^m <= n rounds and beta_1 >= 1",
        integers=("m", "F"),
        finding="R9",
        notes=("Logs named: ell = log2 n, lb = log2 beta_1 >= 0 (beta_1 = 20480 beta_3 >= 1), F = floor(log2 n) "
               "(R9), so beta_1 4^m <= n reads lb + 2m <= ell. m counts the completed epochs (the only ones "
               "whose W, rho_hat enter the events). With natural logs, (1/2) floor(ln n) < log4 n for large n "
               "and the count would fall short, which is one reason for R9's log2.",),
    ),
    Step(
        id="catoni.events.est_slot_confidence",
        lemma=_EST,
        location=_LOC_EV + ": the union bound's split, delta/3 over (1/2) floor(log n) epochs and |H|^2 pairs; "
                 "Algorithm 2, line 1: beta_3 = 2 log(A/delta), A = 3/2 floor(log n) |H|^2",
        premises=_LINE1,
        claim="Eq((F/2)*Hc**2*(delta/A), delta/3)",
        justification="the per-slot confidence delta/A summed over the (1/2) floor(log n) |H|^2 slots",
        notes=("A/delta is exactly the number of slots divided by delta/3: log(1/(delta/A)) = beta3/2.",),
    ),
    Step(
        id="catoni.events.est_slot_failure",
        lemma=_EST,
        location=_LOC_EV + ": condition (1)'s per-slot failure probability e^{-beta_3} with line 1's beta_3",
        premises=(*_LINE1, "Eq(beta3, 2*log(A/delta))"),
        claim="Eq(exp(-beta3), (delta/A)**2)",
        justification="beta_3 = 2 log(A/delta)",
        finding="R15",
        notes=(_R15_NOTE,),
    ),
    Step(
        id="catoni.events.est_union_sum",
        lemma=_EST,
        location=_LOC_EV + ", 'P(E_est) >= 1 - delta/3': the failure probabilities e^{-beta_3} summed over the slots",
        premises=(*_LINE1, "m >= 0", "2*m <= F", "Eq(e, (delta/A)**2)"),
        claim="m*Hc**2*e <= delta/3",
        justification="at most (1/2) floor(log n) epochs and |H|^2 pairs, each failing with probability e^{-beta_3}",
        finding="R15",
        notes=(_R15_NOTE, "e names exp(-beta3) = (delta/A)^2 (catoni.events.est_slot_failure); 2m <= F by "
               "catoni.events.est_epoch_count."),
    ),
    Step(
        id="catoni.events.est_union_sum_two_delta",
        lemma=_EST,
        location=_LOC_EV + ", 'P(E_est) >= 1 - delta/3' with Catoni's original failure probability 2 e^{-beta_3} per slot",
        premises=(*_LINE1, "Hc >= 2", "m >= 0", "2*m <= F", "Eq(e, (delta/A)**2)"),
        claim="m*Hc**2*(2*e) <= delta/3",
        justification="as catoni.events.est_union_sum, with the original lemma's 1 - 2 delta",
        finding="R15",
        notes=("R15 notes Catoni's original inequality gives 2e^(-beta3) per slot; the square in e^(-beta3) = "
               "(delta/A)^2 absorbs the 2 once A >= 2 delta. Hc >= 2 (a class with one hypothesis has no pair to "
               "estimate) gives A >= 6.",),
    ),
    Step(
        id="catoni.events.dis_union",
        lemma=_DIS,
        location=_LOC_EV + ", proof of 'P(E_gap1), P(E_gap2) >= 1 - delta/3': '(empirical) Bernstein inequality ... "
                 "and the union bound over |H|^2 number of hypothesis pairs and 1/2 floor(log(n)) number of epochs'",
        premises=("delta > 0", "delta < 1"),
        claim="And(P_dis1 >= 1 - delta/3, P_dis2 >= 1 - delta/3)",
        justification="Bernstein's inequality for rho_hat_l (a mean of N_l i.i.d. Bernoulli(rho_*)) and a union bound",
        kind=NOT_MECHANICAL,
        reason="a concentration inequality and a union bound; the arithmetic for E_dis2 is encoded in "
               "catoni.events.dis_* steps. E_dis1 (rho_hat in the width) needs an empirical Bernstein inequality: "
               "it does not follow from E_dis2 by algebra (rho_hat = 0, rho_* = 5 beta3/(2 N_l) satisfies E_dis2's "
               "bound and violates E_dis1's)",
        notes=("E_gap1, E_gap2 are not defined; read as E_dis1, E_dis2 (the events defined just before).",),
    ),
    Step(
        id="catoni.events.dis_bernstein_inversion",
        lemma=_DIS,
        location=_LOC_EV + ": Bernstein's inequality exp(-N_l t^2/(2(sigma^2 + t/3))) <= delta' at "
                 "t = sqrt(2 sigma^2 log(1/delta')/N_l) + 2 log(1/delta')/(3N)",
        premises=("N_l > 0", "L > 0", "sig2 >= 0", "Eq(t, sqrt(2*sig2*L/N_l) + 2*L/(3*N_l))"),
        claim="N_l*t**2 >= 2*L*(sig2 + t/3)",
        justification="t is at least the positive root of N_l t^2 - (2L/3) t - 2 L sigma^2 = 0",
        notes=("L = log(1/delta'); not a printed step: the algebra inside 'by Bernstein inequality'.",),
    ),
    Step(
        id="catoni.events.dis2_width",
        lemma=_DIS,
        location=_LOC_EV + ", E_dis2: '|rho_hat_l - rho_*| <= sqrt(beta_3 rho_*/N_l) + beta_3/N_l' from Bernstein at "
                 "the per-slot confidence delta/A",
        premises=("N_l > 0", "rho >= 0", "sig2 >= 0", "sig2 <= rho", "LA > 0", "Eq(beta3, 2*LA)", "Eq(L, LA)"),
        claim="sqrt(2*sig2*L/N_l) + 2*L/(3*N_l) <= sqrt(beta3*rho/N_l) + beta3/N_l",
        justification="sigma^2 = rho_*(1 - rho_*) <= rho_* and log(1/(delta/A)) = beta_3/2",
        notes=("rho = rho_*(h, h'). One tail per slot: the |H|^2 ordered pairs count each unordered pair twice "
               "(rho_hat and rho_* are symmetric), so the two tails of a pair get delta/A each.",),
    ),
    Step(
        id="catoni.events.dis1_witness",
        lemma=_DIS,
        location=_LOC_EV + ", E_dis1 and E_dis2: the two widths, sqrt(beta_3 rho_hat/N_l) + beta_3/N_l and "
                 "sqrt(beta_3 rho_*/N_l) + beta_3/N_l",
        premises=("b > 0", "Eq(rhohat, 0)", "Eq(rho, 5*b/2)"),
        claim="And(Abs(rhohat - rho) <= sqrt(b*rho) + b, Abs(rhohat - rho) > sqrt(b*rhohat) + b)",
        justification="a point inside E_dis2's bound and outside E_dis1's",
        notes=("b = beta3/N_l. Not a printed link: it backs the reason of catoni.events.dis_union that E_dis1 "
               "needs its own (empirical Bernstein) argument and its own share of delta.",),
    ),
    Step(
        id="catoni.events.dis_union_sum",
        lemma=_DIS,
        location=_LOC_EV + ", 'P(E_gap2) >= 1 - delta/3': two tails per unordered pair h != h', delta/A each, "
                 "over the epochs",
        premises=(*_LINE1, "m >= 0", "2*m <= F"),
        claim="m*(Hc*(Hc - 1)/2)*2*(delta/A) <= delta/3",
        justification="|H|(|H| - 1)/2 unordered pairs (rho_hat(h, h) = rho_*(h, h) = 0), at most (1/2) floor(log n) epochs",
    ),
)

# Literal first: a printed line these steps repair stays a step as printed; its corrected reading is a
# separate step whose `reading_of` names it (proofs_check/step.py).
STEPS = split_literal(STEPS, {
    "catoni.ours.square_pointwise": dict(
        claim="Eq(((a - yv)**2*Qv/qt - (b - yv)**2*Qv/qt)**2, (a - b)**2/qt**2)",
        premises=("a >= 0", "a <= 1", "b >= 0", "b <= 1", "yv >= 0", "yv <= 1", "Qv >= 0", "Qv <= 1",
                  "qt > 0", "qt <= 1"), finding="F16",
        note="the printed 1{h != h'}/q^2 read with the factor Q_t it omits."),
    "catoni.ours.square_expectation": dict(
        claim="Eq(d/qt**2, d/qt)", premises=("qt > 0", "qt <= 1", "d >= 0", "d <= 1"), finding="F16",
        note="the printed E_Q[1{h != h'}/q^2] (a constant in Q) read as E_Q[Q_t 1{h != h'}/q^2]."),
    "catoni.events.est_union": dict(
        ill_formed="the event E_est is not defined anywhere in the paper",
        note="E_est read as E_gap (the event the proof bounds, defined in the display before the lemma)."),
    "catoni.events.dis_union": dict(
        ill_formed="the events E_gap1, E_gap2 are not defined anywhere in the paper",
        note="E_gap1, E_gap2 read as E_dis1, E_dis2 (the events defined just before)."),
})
