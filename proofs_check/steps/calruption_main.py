"""Theorem 5.1 (CALruption) and Corollary 5.1: the statements, the main-text Lemma 5.2 and
proof sketch, Appendix D.5 (the auxiliary lemma) and D.6 (the main proof: the query
bound per round, per epoch and in total, and the correctness chain).

Encoding conventions of this part.
- Epochs: eps_i = 2^-i and N_l = beta1 4^l (Algorithm 2, line 1). Epoch l occupies
  N_l rounds after the previous ones (line 14, tau_{l+1} = tau_l + N_l), so epoch m is
  complete after sum_{s<=m} N_s = beta1 (4^(m+1) - 4)/3 rounds. With L-1 the last
  complete epoch of n rounds this gives, for eps_Lm1 = eps_{L-1},
  beta1 (4/eps_Lm1^2 - 4)/3 <= n < beta1 (16/eps_Lm1^2 - 4)/3   (`_SCHEDULE`).
  The rounding of N_l (FINDINGS R10: an epoch has ceil(N_l) rounds) is ignored, as the
  paper does; the closed forms are exact when beta1 4^l is an integer.
- Powers with a symbolic exponent (2^l, 4^l) are variables (Tl = 2^l, eps_Lm1, ...), and
  sums over epochs or layers are replaced by their closed forms, stated as definitions.
  The closed forms are themselves decided, as induction steps (`..._series_*`).
  z3 cannot tell a power of two from any other positive number, so a step whose
  refutation needs one carries a finite disjunction of powers (`_pow2`, `_pow4`,
  `_layer_cases`, `_epoch_pairs`):
  it is decided on those cases only, and the counterexample is a real configuration.
  Such a step's repair is decided under the general (real) premises.
- log terms: the logarithms of the label-complexity lines are variables (lgnb stands for
  log2(n/beta1), read with base 2 as the paper's L = ceil(1/2 log(n/beta1)) =
  ceil(log_4(n/beta1)) requires). Steps whose literal claim mixes a ceiling of a log with
  powers are refuted by the exact search (definitions with log and ceiling, evaluated in
  certified interval arithmetic); their repairs use log-free relaxations.
- Two corruption sums: g_l (Lemma 5.1) weighs epoch s by 2R* 1{C_s/N_s <= 1/32} + 1{...},
  C-bar_total (Theorem 5.1) by R* 1{...} + 1{...}. The proof writes C-bar for both. Here
  Cb / Cg is the g-weighted sum and Cbar the theorem's, so Cbar <= Cg <= 2 Cbar.
- beta1 = 32*640 beta3 is the algorithm box's value (FINDINGS R8); the steps that use it
  only need beta3 <= 16 beta1.
"""
from __future__ import annotations

from ..step import NOT_MECHANICAL, Repair, Step, split_literal
from .calruption_names import (
    _AUX,
    _CORO,
    _CORO_LOC,
    _CORRECT,
    _DIS,
    _EPOCH,
    _EXACT_L,
    _LAYER_SUMS,
    _LEM52,
    _LEM52_MAIN,
    _LINE1_BOUND,
    _LINE2,
    _LINE3,
    _MAIN,
    _NOTE_LAYERS,
    _NOTE_POW2,
    _POS,
    _QUERY,
    _R,
    _SCHEDULE,
    _STATEMENT,
    _THM,
    _TOTAL,
    _WEIGHTS,
    _epoch_pairs,
    _layer_cases,
    _pow2,
    _pow4,
)
from .calruption_sketch import STEPS as _SKETCH_STEPS

STEPS = (
    # ---------------------------------------------------------------- Theorem 5.1 statement
    Step(
        id="calruption_main.thm.beta1_constant",
        lemma=_THM,
        location=_STATEMENT + ": 'beta_1 = 16*640 log(3/2 floor(log(n)) |H|^2/delta)' against Algorithm 2, "
                              "line 1: 'beta_3 = 2 log(3/2 floor(log(n)) |H|^2/delta), beta_1 = 32*640 beta_3'",
        premises=("lg > 0", "Eq(beta3, 2*lg)", "Eq(beta1_alg, 32*640*beta3)", "Eq(beta1_thm, 16*640*lg)"),
        claim="Eq(beta1_thm, beta1_alg)",
        justification="the theorem restates the algorithm's beta_1",
        repair=Repair(claim="Eq(beta1_alg, 4*beta1_thm)",
                      note="the algorithm's beta_1 = 40960 log(...) is four times the theorem's 10240 log(...)"),
        finding="R8",
        notes=("lg stands for log(3/2 floor(log n) |H|^2/delta) > 0.",
               "FINDINGS R8 already records the disagreement; the reference follows the algorithm box."),
    ),
    # ---------------------------------------------------------------- Corollary 5.1
    Step(
        id="calruption_main.coro.accuracy",
        lemma=_CORO,
        location=_CORO_LOC + ": 'C_epoch l/N_l <= 1/32 for all epochs ... R_*(h_out) - R^* <= eps + 24 R^* C_total/n'",
        premises=(*_R, "n > 0", "Csum >= 0", "Csum <= C_total", "Eq(Cbar, R_star*Csum)",
                  "Delta_out <= eps + 24*Cbar/n"),
        claim="Delta_out <= eps + 24*R_star*C_total/n",
        justification="every indicator 1{C_l/N_l <= 1/32} is 1, so C-bar_total = R^* sum_l C_l <= R^* C_total",
        notes=("Csum = sum over epochs 1..floor(log_4(n/beta1)) of C_epoch l, a part of C_total.",
               "The premise is the theorem's accuracy, itself resting on the refuted last correctness step "
               "(FINDINGS F6): with 64 in place of 24 the same link gives eps + 64 R^* C_total/n."),
    ),
    Step(
        id="calruption_main.coro.theta_argument",
        lemma=_CORO,
        location=_CORO_LOC + ": the label complexity's 'theta^*(R^* + 3 sqrt(R^* beta_1/n) + 64 R^* C_total/n)' "
                             "against the theorem's 'theta^*(R^* + 3 sqrt(beta_1/n) + 64 C-bar_total/n)'",
        premises=(*_R, *_POS, "Csum >= 0", "Eq(C_total, Csum)", "Eq(Cbar, R_star*Csum)"),
        claim="R_star + 3*sqrt(R_star*beta1/n) + 64*R_star*C_total/n <= R_star + 3*sqrt(beta1/n) + 64*Cbar/n",
        justification="theta^* is non-increasing, so a smaller argument gives a larger (weaker) bound",
        notes=("C_total = sum of the complete epochs' corruption: the proof's assumption of no corruption in the "
               "last unfinished epoch (Appendix D.6, first paragraph). Without it the corollary's argument can "
               "exceed the theorem's by 64 R^* C_last/n.",),
    ),
    Step(
        id="calruption_main.coro.second_factor",
        lemma=_CORO,
        location=_CORO_LOC + ": '(R^*)^2 n + (R^* C_total + 1) log(n)' against the theorem's "
                             "'(R^*)^2 n + log(n)(1 + C-bar_total)'",
        premises=(*_R, "n > 0", "lgn >= 0", "Csum >= 0", "Csum <= C_total", "Eq(Cbar, R_star*Csum)"),
        claim="R_star**2*n + lgn*(1 + Cbar) <= R_star**2*n + (R_star*C_total + 1)*lgn",
        justification="C-bar_total = R^* sum_l C_l <= R^* C_total under the corollary's assumption",
        notes=("lgn stands for log(n) >= 0.",),
    ),
    # ---------------------------------------------------------------- Lemma 5.2 (main text)
    Step(
        id="calruption_main.lem52.from_lemma51",
        lemma=_LEM52_MAIN,
        location="Section 5.3, Lemma 5.2: 'Based on this lemma [5.1], we can directly get ... "
                 "max_{h in V_l^j} rho_*(h,h^*) <= 2R^* + 3 eps_j + 3 g_{l-1}'",
        premises=("rho_h <= R_h + R_star", "Eq(Delta_h, R_h - R_star)",
                  "Delta_h <= 3/2*Dhat + 3/2*eps_lm1 + 3*g_lm1", "Dhat <= eps_j", "0 < eps_lm1",
                  "eps_lm1 <= eps_j", "g_lm1 >= 0"),
        claim="rho_h <= 2*R_star + 3*eps_j + 3*g_lm1",
        justification="rho_*(h,h^*) <= R(h) + R^*, Lemma 5.1's lower bound at l-1, and h in V_l^j",
        finding="F5",
        notes=("The algebra holds for every h in V_l^j (Dhat = Delta^^{l-1}_h <= eps_j by the layer's definition, "
               "eps_{l-1} <= eps_j as j <= l-1); the lemma inherits Lemma 5.1's failure on the events (F5).",),
    ),
    *_SKETCH_STEPS,
    # ---------------------------------------------------------------- Appendix D.5
    Step(
        id="calruption_main.auxd5.triangle_pointwise",
        lemma=_LEM52,
        location=_AUX + ": 'the fact the rho_*(h,h^*) <= R_*(h) + R^*'",
        premises=("0 <= hx", "hx <= 1", "0 <= hsx", "hsx <= 1", "0 <= y", "y <= 1"),
        claim="Abs(hx - hsx) <= Abs(hx - y) + Abs(hsx - y)",
        justification="1{h(x) != h^*(x)} <= 1{h(x) != y} + 1{h^*(x) != y}, then take expectations",
        integers=("hx", "hsx", "y"),
        notes=("Pointwise for labels in {0,1}; the expectation over (x, y) ~ (nu_*, eta_*) gives "
               "rho_*(h,h^*) <= R_*(h) + R^*.",),
    ),
    Step(
        id="calruption_main.auxd5.distance_to_gap",
        lemma=_LEM52,
        location=_AUX + ", first line: 'max_{h in V_l^j} rho_*(h,h^*) <= 2R^* + max_{h in V_l^j} Delta_h'",
        premises=("rho_h <= R_h + R_star", "Eq(Delta_h, R_h - R_star)", "Delta_h <= Delta_max"),
        claim="rho_h <= 2*R_star + Delta_max",
        justification="rho_*(h,h^*) <= R_*(h) + R^* = 2R^* + Delta_h",
        notes=("For every h in V_l^j, with Delta_max = max_{h in V_l^j} Delta_h.",),
    ),
    Step(
        id="calruption_main.auxd5.lemma51_lower",
        lemma=_LEM52,
        location=_AUX + ", second line: '<= 2R^* + max_{h in V_l^j} (3/2 Delta^^{l-1}_h + 3/2 eps_{l-1} + 3 g_{l-1})'",
        premises=("Delta_h <= 3/2*Dhat + 3/2*eps_lm1 + 3*g_lm1",),
        claim="2*R_star + Delta_h <= 2*R_star + 3/2*Dhat + 3/2*eps_lm1 + 3*g_lm1",
        justification="the lower bound of Lemma 'upper and lower bound' at epoch l-1",
        finding="F5",
        notes=("The algebra holds; the premise, Lemma 5.1 on E_gap, does not (FINDINGS F5).",),
    ),
    Step(
        id="calruption_main.auxd5.layer_definition",
        lemma=_LEM52,
        location=_AUX + ", third line: '<= 2R^* + 3 eps_j + 3 g_{l-1}'",
        premises=("Dhat <= eps_j", "0 < eps_lm1", "eps_lm1 <= eps_j"),
        claim="2*R_star + 3/2*Dhat + 3/2*eps_lm1 + 3*g_lm1 <= 2*R_star + 3*eps_j + 3*g_lm1",
        justification="the definition of V_l^j: Delta^^{l-1}_h <= eps_j; and j <= l-1",
        notes=("V_l^j is built at the end of epoch l-1 from Delta^^{l-1} (Algorithm 2, line 12); its layers are "
               "j = 0..l-1, so eps_{l-1} <= eps_j.",),
    ),
    # ---------------------------------------------------------------- Appendix D.6: epochs
    Step(
        id="calruption_main.proof.epoch_count",
        lemma=_THM,
        location=_MAIN + ", first paragraph: 'we assume log_4(n/beta_1) not in N and there are no corruptions in the "
                         "last unfinished epoch ceil(log_4(n/beta_1))' (so epochs 1..floor(log_4(n/beta_1)) are "
                         "complete, as C-bar_total's range in Theorem 5.1 takes)",
        premises=("beta1 > 0", _pow4("Pm"), "beta1*Pm < n", "n < 4*beta1*Pm"),
        claim="beta1*(4*Pm - 4)/3 <= n",
        justification="epoch m = floor(log_4(n/beta_1)) ends by round n",
        repair=Repair(
            claim="beta1*(Pm - 4)/3 <= n",
            premises=("beta1 > 0", "Pm >= 4", "beta1*Pm <= n"),
            note="epoch m-1 is complete (Pm = 4^m <= n/beta1); epoch m is complete only when "
                 "n >= beta1 (4^(m+1) - 4)/3, i.e. the last complete epoch is floor(log_4(3n/beta1 + 4)) - 1"),
        finding="F6",
        notes=("Epoch l has N_l = beta1 4^l rounds after the previous ones, so epoch m ends at round "
               "beta1 (4^(m+1) - 4)/3, which exceeds n when beta1 4^m <= n < beta1 (4^(m+1) - 4)/3 (m >= 2). "
               "This is why eps_{L-1}^2 reaches 16 beta1/(3n) rather than 4 beta1/n (F6); see also R14.",
               "Pm = 4^m with m = floor(log_4(n/beta_1)), i.e. beta_1 Pm <= n < 4 beta_1 Pm, strict on the left as "
               "log_4(n/beta_1) is not an integer; Pm ranges over 4^1..4^6 (a finite disjunction) so that the "
               "counterexample is a real schedule; the repair is decided for every real Pm >= 4."),
    ),
    Step(
        id="calruption_main.proof.series_layers_4",
        lemma=_THM,
        location=_EPOCH + ": the layer sum sum_{i=0}^{l-1} eps_i^-2 = sum_{i=0}^{l-1} 4^i = (4^l - 1)/3",
        premises=(),
        claim="And(Eq((4**1 - 1)/3, 4**0), Eq((P - 1)/3 + P, (4*P - 1)/3))",
        justification="the geometric series, by induction on l (base l = 1; step with P = 4^l)",
        notes=("The closed form used as a definition in the per-epoch steps (S4 = (Tl^2 - 1)/3, Tl = 2^l).",),
    ),
    Step(
        id="calruption_main.proof.series_layers_2",
        lemma=_THM,
        location=_EPOCH + ": the layer sum sum_{i=0}^{l-1} eps_i^-1 = sum_{i=0}^{l-1} 2^i = 2^l - 1",
        premises=(),
        claim="And(Eq(2**1 - 1, 2**0), Eq((T - 1) + T, 2*T - 1))",
        justification="the geometric series, by induction on l (base l = 1; step with T = 2^l)",
    ),
    Step(
        id="calruption_main.proof.series_epochs_4",
        lemma=_THM,
        location=_TOTAL + ": the epoch sum sum_{l=1}^{L} eps_l^-2 = sum_{l=1}^{L} 4^l = (4^(L+1) - 4)/3 (also the "
                          "rounds of epochs 1..m and sum_s N_s)",
        premises=(),
        claim="And(Eq((4**2 - 4)/3, 4**1), Eq((4*P - 4)/3 + 4*P, (16*P - 4)/3))",
        justification="the geometric series, by induction on L (base L = 1; step with P = 4^L)",
    ),
    Step(
        id="calruption_main.proof.series_epochs_2",
        lemma=_THM,
        location=_TOTAL + ": the epoch sum sum_{l=1}^{L} eps_l^-1 = sum_{l=1}^{L} 2^l = 2^(L+1) - 2",
        premises=(),
        claim="And(Eq(2**2 - 2, 2**1), Eq((2*T - 2) + 2*T, 4*T - 2))",
        justification="the geometric series, by induction on L (base L = 1; step with T = 2^L)",
    ),
    # ---------------------------------------------------------------- Appendix D.6: E[Q_t]
    Step(
        id="calruption_main.proof.query_expectation",
        lemma=_THM,
        location=_QUERY + ", first line: 'E[Q_t] = sum_x P(x_t = x) q_l^x'",
        premises=(),
        claim="Eq(EQt, sum_x_Pq)",
        justification="Q_t ~ Ber(q_l^{x_t}) given x_t",
        kind=NOT_MECHANICAL,
        reason="an expectation (the tower rule over x_t), not algebra",
    ),
    Step(
        id="calruption_main.proof.query_definition",
        lemma=_THM,
        location=_QUERY + ", second line: '= sum_x P(x_t = x) max_{(h,h') in Z(x)} beta_1 rho^_{l-1}(h,h')/N_l "
                          "eps_{k(h,h',l)}^-2'",
        premises=(),
        claim="Eq(sum_x_Pq, sum_x_Pqdef)",
        justification="the definition of q_l^x (Algorithm 2, line 13)",
        kind=NOT_MECHANICAL,
        reason="substitutes the definition of q_l^x; there is no algebra to decide",
    ),
    Step(
        id="calruption_main.proof.query_dis2",
        lemma=_THM,
        location=_QUERY + ", third line: '<= beta_1/N_l sum_x P max rho_*(h,h') eps_k^-2 + 4 beta_1/N_l sum_x P "
                          "sqrt(rho_*(h,h') eps_k^-2) + 4 beta_1/N_l'",
        premises=("beta3 > 0", "Eq(beta1, 32*640*beta3)", "0 < eps_l", "Eq(eps_lm1, 2*eps_l)", "eps_lm1 <= eps_k",
                  "eps_k <= 1", "Eq(N_l, beta1/eps_l**2)", "Eq(N_lm1, beta1/eps_lm1**2)", "0 <= rho", "rho <= 1",
                  "rho_hat <= rho + sqrt(beta3*rho/N_lm1) + beta3/N_lm1"),
        claim="beta1*rho_hat/(N_l*eps_k**2) <= beta1/N_l*(rho/eps_k**2 + 4*sqrt(rho/eps_k**2) + 4)",
        justification="the event E_dis2",
        notes=("Per pair (h,h') in Z(x) with k = k(h,h',l) <= l-1: rho^ = rho^_{l-1}(h,h'), rho = rho_*(h,h'). "
               "The max over pairs and the sum over x keep the bound (the printed middle term leaves (h,h') free; "
               "it is read with the max).",
               "E_dis2 for rho^_{l-1} has epoch l-1's width; the step only needs beta3 <= 16 beta1 (beta1 = "
               "32*640 beta3 from Algorithm 2, R8)."),
    ),
    Step(
        id="calruption_main.proof.query_sqrt_fact",
        lemma=_THM,
        location=_QUERY + ": 'the fact that sqrt(rho_*(h,h') eps_k^-2) <= rho_*(h,h') eps_k^-2 + 1'",
        premises=("a >= 0",),
        claim="sqrt(a) <= a + 1",
        justification="stated fact",
    ),
    Step(
        id="calruption_main.proof.query_relax",
        lemma=_THM,
        location=_QUERY + ", fourth line: '<= 5 beta_1/N_l sum_x P max rho_*(h,h') eps_k^-2 + 8 beta_1/N_l'",
        premises=("a >= 0", "beta1 > 0", "N_l > 0"),
        claim="beta1/N_l*(a + 4*sqrt(a) + 4) <= 5*beta1/N_l*a + 8*beta1/N_l",
        justification="sqrt(a) <= a + 1",
        notes=("Per point x, a = max_{(h,h') in Z(x)} rho_*(h,h') eps_k^-2; sum_x P(x_t = x) = 1.",),
    ),
    Step(
        id="calruption_main.proof.query_argmax",
        lemma=_THM,
        location=_QUERY + ", fifth line: "
                          "'= 5 beta_1/N_l sum_x P(x_t = x) rho_*(h_1^x,h_2^x) eps_{j^x}^-2 + 8 beta_1/N_l'",
        premises=(),
        claim="Eq(sum_x_max, sum_x_argmax)",
        justification="(h_1^x, h_2^x) is the argmax and j^x = k(h_1^x, h_2^x, l)",
        kind=NOT_MECHANICAL,
        reason="the definition of an argmax over a finite set, not algebra",
    ),
    Step(
        id="calruption_main.proof.query_same_layer",
        lemma=_THM,
        location=_QUERY + ", sixth line: "
                          "'<= 5 beta_1/N_l sum_x P max_{h_3,h_4 in V_l^{j^x}} rho_*(h_3,h_4) eps_{j^x}^-2 "
                          "+ 8 beta_1/N_l'",
        premises=(),
        claim="sum_x_argmax <= sum_x_layer_max",
        justification="h_1^x, h_2^x in V_l^{j^x} by the definition of k",
        kind=NOT_MECHANICAL,
        reason="a membership in a layer, then a max over a larger set; no algebra",
    ),
    Step(
        id="calruption_main.proof.query_triangle",
        lemma=_THM,
        location=_QUERY + ", seventh line: '<= 10 beta_1/N_l sum_x P max_{h in V_l^{j^x}} rho_*(h,h^*) eps_{j^x}^-2 "
                          "+ 8 beta_1/N_l'",
        premises=("beta1 > 0", "N_l > 0", "0 < eps_j", "rho34 <= rho3 + rho4", "rho3 <= rho_max", "rho4 <= rho_max"),
        claim="5*beta1/N_l*rho34/eps_j**2 <= 10*beta1/N_l*rho_max/eps_j**2",
        justification="rho_*(h_3,h_4) <= rho_*(h_3,h^*) + rho_*(h^*,h_4) (triangle inequality of the disagreement)",
    ),
    Step(
        id="calruption_main.proof.query_lemma52",
        lemma=_THM,
        location=_QUERY + ", eighth line: '<= 10 beta_1/N_l sum_x P (2R^* eps_{j^x}^-2 + 3 eps_{j^x}^-1 + "
                          "3 g_{l-1} eps_{j^x}^-2) + 8 beta_1/N_l'",
        premises=("beta1 > 0", "N_l > 0", "0 < eps_j", "g_lm1 >= 0", "rho_max <= 2*R_star + 3*eps_j + 3*g_lm1"),
        claim="10*beta1/N_l*rho_max/eps_j**2 <= 10*beta1/N_l*(2*R_star/eps_j**2 + 3/eps_j + 3*g_lm1/eps_j**2)",
        justification="Lemma 'upper bound the difference of classifiers'",
    ),
    Step(
        id="calruption_main.proof.query_regroup",
        lemma=_THM,
        location=_QUERY + ", ninth line: '= 10 beta_1/N_l sum_{i=1}^{l-1} (...) sum_x P(x_t = x) 1{j^x = i} + "
                          "8 beta_1/N_l'",
        premises=(),
        claim="Eq(sum_x_layer, sum_i_layer)",
        justification="group the points by the value of j^x",
        kind=NOT_MECHANICAL,
        reason="regrouping a finite sum by an index, not algebra",
        notes=("The printed sum starts at i = 1; j^x = 0 is possible (layer V_l^0), and the next line sums from "
               "i = 0, so the intended range is i = 0..l-1 (a typo).",),
    ),
    Step(
        id="calruption_main.proof.query_layer_dis",
        lemma=_THM,
        location=_QUERY + ", last line: '<= 10 beta_1/N_l sum_{i=0}^{l-1} (...) P(x in Dis(V_l^i)) + 8 beta_1/N_l'",
        premises=(),
        claim="P_layer_i <= P_dis_i",
        justification="j^x = i implies h_1^x, h_2^x in V_l^i disagree at x",
        kind=NOT_MECHANICAL,
        reason="an inclusion of events, not algebra",
    ),
    Step(
        id="calruption_main.proof.dis_definition",
        lemma=_THM,
        location=_DIS + ", first two lines: 'P(x in Dis(V_l^i)) = P(exists h,h' in V_l^i: h(x) != h'(x)) <= "
                        "P(exists h in V_l^i: h(x) != h^*(x))'",
        premises=(),
        claim="P_dis_i <= P_dis_hstar",
        justification="if h and h' disagree at x, one of them disagrees with h^*",
        kind=NOT_MECHANICAL,
        reason="the definition of Dis and an inclusion of events, not algebra",
    ),
    Step(
        id="calruption_main.proof.dis_lemma52",
        lemma=_THM,
        location=_DIS + ", third line: "
                        "'<= P(exists h in H: h(x) != h^*(x), rho_*(h,h^*) <= 2R^* + 3 eps_i + 3 g_{l-1})'",
        premises=(),
        claim="P_dis_hstar <= P_ball",
        justification="Lemma 'upper bound the difference of classifiers'",
        kind=NOT_MECHANICAL,
        reason="an inclusion of events given the lemma (its algebra is calruption_main.auxd5.*), not algebra",
    ),
    Step(
        id="calruption_main.proof.dis_theta",
        lemma=_THM,
        location=_DIS + ", last line: '<= theta^*(2R^* + 3 eps_i + g_{l-1}) (2R^* + 3 eps_i + 3 g_{l-1})'",
        premises=("0 <= R_star", "0 < eps_i", "g_lm1 >= 0", "theta0 >= 0", "P_dis <= D_r",
                  "Eq(r0, 2*R_star + 3*eps_i + g_lm1)", "Eq(r, 2*R_star + 3*eps_i + 3*g_lm1)",
                  "Or(r < r0, D_r <= theta0*r)"),
        claim="P_dis <= theta0*(2*R_star + 3*eps_i + 3*g_lm1)",
        justification="the definition of the disagreement coefficient theta^*(r0) = sup_{r >= r0} P(Dis(B(h^*,r)))/r",
        notes=("D_r = P(x in Dis(B(h^*, r))) with the closed ball (R2); the Or premise is the sup's definition.",),
    ),
    # ---------------------------------------------------------------- Appendix D.6: one epoch
    Step(
        id="calruption_main.proof.epoch_product",
        lemma=_THM,
        location=_EPOCH + ", first line: '(4(R^*)^2 eps_i^-2 + 12 R^* eps_i^-1 + 12 R^* g_{l-1} eps_i^-2 + "
                          "18 g_{l-1} eps_i^-1 + 9 g_{l-1}^2 eps_i^-2 + 9)'",
        premises=("eps_i > 0",),
        claim="Eq((2*R_star/eps_i**2 + 3/eps_i + 3*g_lm1/eps_i**2)*(2*R_star + 3*eps_i + 3*g_lm1), "
              "4*R_star**2/eps_i**2 + 12*R_star/eps_i + 12*R_star*g_lm1/eps_i**2 + 18*g_lm1/eps_i "
              "+ 9*g_lm1**2/eps_i**2 + 9)",
        justification="multiply the per-layer query weight by the P(Dis) bound's radius",
    ),
    Step(
        id="calruption_main.proof.epoch_drop_constant",
        lemma=_THM,
        location=_EPOCH + ", first line: 'sum_{t in I_l} E[Q_t] = 10 beta_1 sum_{i=0}^{l-1} theta^*(...)(...)': "
                          "N_l times the per-round bound '10 beta_1/N_l sum_i (...) + 8 beta_1/N_l'",
        premises=("beta1 > 0", "N_l > 0", "Y >= 0"),
        claim="Eq(N_l*(10*beta1/N_l*Y + 8*beta1/N_l), 10*beta1*Y)",
        justification="sum the per-round bound over the N_l rounds of the epoch",
        repair=Repair(claim="Eq(N_l*(10*beta1/N_l*Y + 8*beta1/N_l), 10*beta1*Y + 8*beta1)",
                      note="the epoch's 8 beta_1 stays; at the O-level it adds 8 beta_1 L to the label complexity"),
        finding="F11",
        notes=("Y = sum_{i=0}^{l-1} (2R^* eps_i^-2 + 3 eps_i^-1 + 3 g_{l-1} eps_i^-2) theta_i (2R^* + 3 eps_i + "
               "3 g_{l-1}) >= 0.",
               "The epoch has ceil(N_l) rounds (R10); the paper's N_l is kept."),
    ),
    Step(
        id="calruption_main.proof.epoch_theta_monotone",
        lemma=_THM,
        location=_EPOCH + ", second line: 'theta^*(2R^* + 3 eps_i + g_{l-1}) <= theta^*(2R^* + 3 eps_{l-1} + g_{l-1})' "
                          "for i <= l-1 (implicit)",
        premises=("0 < eps_lm1", "eps_lm1 <= eps_i"),
        claim="2*R_star + 3*eps_lm1 + g_lm1 <= 2*R_star + 3*eps_i + g_lm1",
        justification="theta^* is non-increasing (a sup over a smaller set of radii); eps_i >= eps_{l-1}",
    ),
    Step(
        id="calruption_main.proof.epoch_layer_sums",
        lemma=_THM,
        location=_EPOCH + ", second line: '<= 20 beta_1 theta^*(2R^* + 3 eps_{l-1} + g_{l-1}) (4(R^*)^2 eps_l^-2 + "
                          "12 R^* eps_l^-1 + 24/beta_1 R^* C-bar_{l-1} + 36/beta_1 C-bar_{l-1} eps_{l-1} + "
                          "36/beta_1^2 C-bar_{l-1}^2 eps_{l-1}^2 + 9)'",
        premises=(_layer_cases(), *_R, "beta1 > 0", "theta >= 0", "Cb >= 0", *_LAYER_SUMS, "Z <= " + _LINE1_BOUND),
        claim="Z <= " + _LINE2,
        justification="sum over the layers i = 0..l-1 and g_{l-1} = 2/beta_1 eps_{l-1}^2 C-bar_{l-1}",
        repair=Repair(
            claim="Z <= " + _LINE2.replace("+ 9)", "+ 9*l/2)"),
            premises=("l >= 1", "Tl >= 2", *_R, "beta1 > 0", "theta >= 0", "Cb >= 0", *_LAYER_SUMS,
                      "Z <= " + _LINE1_BOUND),
            note="the constant 9 appears once per layer: sum_{i=0}^{l-1} 9 = 9l, so the bracket needs 9l/2"),
        finding="F11",
        notes=(_NOTE_LAYERS,
               "Z is the first line's value (10 beta_1 sum_i theta_i (...)); its premise applies theta_i <= theta "
               "(calruption_main.proof.epoch_theta_monotone) and the closed-form layer sums "
               "(series_layers_4, series_layers_2; sum_{i=0}^{l-1} 1 = l).",
               "Consequence: summed over the L epochs the constant term gives 90 beta_1 theta sum_l l "
               "~ 45 beta_1 theta L^2, a beta_1 log^2(n) term where the theorem has beta_1 log(n) (inside the O): "
               "the theorem's log factor does not follow from the printed chain (each layer i contributes "
               "3 eps_i^-1 P(x in Dis(V_l^i)) ~ 9 theta, and there are l layers)."),
    ),
    Step(
        id="calruption_main.proof.epoch_cbar_terms",
        lemma=_THM,
        location=_EPOCH + ", third line: '<= 20 beta_1 theta^*(...) (4(R^*)^2 eps_l^-2 + 12 R^* eps_l^-1 + "
                          "132/beta_1 C-bar_{l-1} + 10)'",
        premises=(*_R, "beta1 > 0", "theta >= 0", "0 < eps_lm1", "eps_lm1 <= 1", "Cb >= 0",
                  "Cb <= 2*beta1/eps_lm1**2"),
        claim=_LINE2 + " <= " + _LINE3,
        justification="C-bar_{l-1} <= 2 beta_1 eps_{l-1}^-2, R^* <= 1, eps_{l-1} <= 1",
    ),
    Step(
        id="calruption_main.proof.cbar_weights",
        lemma=_THM,
        location=_EPOCH + ": 'the fact that C-bar_{l-1} <= sum_{s=1}^{l-1} C_s', per epoch s",
        premises=(*_R, "R_star < 1", "Cs >= 0", "Or(Eq(w, 2*R_star), Eq(w, 1))"),
        claim="Cs*w <= Cs",
        justification="stated fact",
        repair=Repair(claim="Cs*w <= Cs", premises=("0 <= R_star", "R_star <= 1/2", "Cs >= 0",
                                                    "Or(Eq(w, 2*R_star), Eq(w, 1))"),
                      note="holds when R^* <= 1/2 (e.g. H closed under complement); in general C-bar_{l-1} <= "
                           "2 sum_s C_s, which doubles the 24 R^* C-bar and 36 C-bar terms' allowance"),
        finding="F11",
        notes=("C-bar_{l-1} is the sum in g_{l-1} (Lemma 5.1), each epoch weighted by w = 2R^* (C_s/N_s <= 1/32) or "
               "1, as 'g_l = 2/beta_1 eps_l^2 C-bar_l' requires.",),
    ),
    Step(
        id="calruption_main.proof.corruption_budget",
        lemma=_THM,
        location=_EPOCH + ": 'sum_{s=1}^{l-1} C_s <= 2 beta_1 eps_{l-1}^-2'",
        premises=("beta1 > 0", "0 < eps_lm1", "eps_lm1 <= 1", "Csum >= 0", "Csum <= beta1*(4/eps_lm1**2 - 4)/3"),
        claim="Csum <= 2*beta1/eps_lm1**2",
        justification="C_s <= N_s = beta_1 4^s (c_t <= 1) and sum_{s=1}^{l-1} 4^s = (4^l - 4)/3",
        notes=("The premise is sum_s C_s <= sum_s N_s in closed form (series_epochs_4 with eps_{l-1}^-2 = 4^(l-1)). "
               "With ceil(N_s) rounds per epoch (R10) the sum gains at most l-1, still below 2 beta_1 eps_{l-1}^-2 "
               "for beta_1 >= 1.",),
    ),
    # ---------------------------------------------------------------- Appendix D.6: all epochs
    Step(
        id="calruption_main.proof.total_linearity",
        lemma=_THM,
        location=_TOTAL + ", first line: 'Query complexity <= sum_{l=1}^{L} sum_{t in I_l} E[Q_t]'",
        premises=(),
        claim="queries <= sum_epochs",
        justification="linearity of expectation over the rounds of epochs 1..L",
        kind=NOT_MECHANICAL,
        reason="an expectation of a count of queries, not algebra",
    ),
    Step(
        id="calruption_main.proof.total_theta_argument",
        lemma=_THM,
        location=_TOTAL + ", second line: every epoch's theta^*(2R^* + 3 eps_{l-1} + g_{l-1}) is bounded by the last "
                          "epoch's theta^*(2R^* + 3 eps_{L-1} + g_{L-1}) (implicit in factoring theta out of the sum)",
        premises=(_epoch_pairs(), "beta1 > 0", "0 <= R_star", "R_star <= 1/2",
                  "Eq(g_lm1, 2/beta1*eps_lm1**2*Cb_l)", "Eq(g_Lm1, 2/beta1*eps_Lm1**2*Cb_L)",
                  "Cb_l >= 0", "Cb_l <= beta1*(4/eps_lm1**2 - 4)/3", "Cb_l <= Cb_L",
                  "Cb_L - Cb_l <= beta1*(4/eps_Lm1**2 - 4/eps_lm1**2)/3"),
        claim="2*R_star + 3*eps_Lm1 + g_Lm1 <= 2*R_star + 3*eps_lm1 + g_lm1",
        justification="theta^* is non-increasing, so theta^*(a_l) <= theta^*(a_L) needs a_L <= a_l",
        repair=Repair(
            claim="2*R_star + 3*eps_Lm1 <= 2*R_star + 3*eps_lm1 + g_lm1",
            premises=("beta1 > 0", "0 < eps_Lm1", "eps_Lm1 <= eps_lm1", "Eq(g_lm1, 2/beta1*eps_lm1**2*Cb_l)",
                      "Cb_l >= 0"),
            note="a common bound is theta^*(2R^* + 3 eps_{L-1}), without g_{L-1}; so the C-bar_total/n inside theta^* "
                 "in the final bound (and the theorem's 64 C-bar_total/n) is not supported"),
        finding="F12",
        notes=("Epochs l-1 < L-1 both complete: (eps_{l-1}, eps_{L-1}) = (2^-a, 2^-b), 1 <= a < b <= 7. Cb_l, Cb_L are "
               "the g-weighted corruption sums of epochs before l and before L; the corruption of epochs l..L-1 is at "
               "most their rounds (weights <= 1 with R^* <= 1/2, a restriction that only narrows the search).",
               "A late, fully corrupted epoch makes g_{L-1} large (up to 8/3) while g_{l-1} = 0."),
    ),
    Step(
        id="calruption_main.proof.total_epoch_sums",
        lemma=_THM,
        location=_TOTAL + ", second line: '<= 40 beta_1 theta^*(2R^* + 3 eps_{L-1} + g_{L-1}) (4(R^*)^2 eps_L^-2 + "
                          "12 R^* eps_L^-1) + 40 beta_1 theta^*(...) L (132/beta_1 C-bar_total + 10)'",
        premises=("L >= 1", "TL >= 2", *_R, "beta1 > 0", "theta >= 0", "Cbar >= 0",
                  "Eq(S4L, (4*TL**2 - 4)/3)", "Eq(S2L, 2*TL - 2)", "SCb >= 0", "SCb <= L*Cb_Lm1", "Cb_Lm1 <= 2*Cbar",
                  "Qtot <= 20*beta1*theta*(4*R_star**2*S4L + 12*R_star*S2L + 132*SCb/beta1 + 10*L)"),
        claim="Qtot <= 40*beta1*theta*(4*R_star**2*TL**2 + 12*R_star*TL) + 40*beta1*theta*L*(132*Cbar/beta1 + 10)",
        justification="sum the per-epoch bound over l = 1..L with the geometric sums",
        notes=("TL = 2^L = eps_L^-1; S4L = sum_{l=1}^{L} 4^l, S2L = sum 2^l (series_epochs_4, series_epochs_2); "
               "SCb = sum_{l=1}^{L} C-bar_{l-1} <= L C-bar_{L-1}, and C-bar_{L-1} (g's weights 2R^*) <= "
               "2 C-bar_total (the theorem's weights R^*).",
               "The premise on Qtot bounds every epoch's theta^* by the last one's, which "
               "calruption_main.proof.total_theta_argument refutes; the per-epoch bound is the printed one "
               "(see epoch_layer_sums)."),
    ),
    Step(
        id="calruption_main.proof.total_substitute_beta1_terms",
        lemma=_THM,
        location=_TOTAL + ", third line: '= 40 beta_1 theta^*(...) (4(R^*)^2 n/beta_1 + 12 R^* sqrt(n/beta_1) + "
                          "5 log(n/beta_1)) + ...', the terms without C-bar_total",
        premises=("beta1 >= 1", "n >= 4*beta1", "theta > 0", *_R, *_EXACT_L, "log(n/beta1)/log(4) < L"),
        claim="Eq(40*beta1*theta*(4*R_star**2*TL**2 + 12*R_star*TL) + 400*beta1*theta*L, "
              "40*beta1*theta*(4*R_star**2*n/beta1 + 12*R_star*sqrt(n/beta1) + 5*lgnb))",
        justification="eps_L^-2 = n/beta_1 and L = 1/2 log(n/beta_1)",
        repair=Repair(
            claim="40*beta1*theta*(4*R_star**2*TL**2 + 12*R_star*TL) + 400*beta1*theta*L <= "
                  "40*beta1*theta*(16*R_star**2*n/beta1 + 24*R_star*sqrt(n/beta1) + 5*lgnb + 10)",
            premises=("beta1 > 0", "n > 0", "theta >= 0", *_R, "TL > 0", "TL**2 < 4*n/beta1", "L < lgnb/2 + 1"),
            note="with L = ceil(log_4(n/beta_1)): eps_L^-2 = 4^L < 4n/beta_1, eps_L^-1 < 2 sqrt(n/beta_1), "
                 "L < log_4(n/beta_1) + 1"),
        finding="F11",
        notes=("L = ceil(log_4(n/beta_1)) is the number of epochs (with the last, unfinished one), "
               "TL = 2^L = eps_L^-1, "
               "lgnb = log_2(n/beta_1) (the base-2 reading, see sketch.epoch_count_base). The '=' holds only when "
               "log_4(n/beta_1) is an integer, which the proof's first paragraph excludes.",
               "Decided by the exact search (log and ceiling certified by interval arithmetic); the repair by z3 "
               "with log-free relaxations (TL^2 < 4n/beta_1 and L < lgnb/2 + 1 from the ceiling)."),
    ),
    Step(
        id="calruption_main.proof.total_substitute_cbar_term",
        lemma=_THM,
        location=_TOTAL + ", third line: '... + 2450 theta^*(...) log(n/beta_1) C-bar_total', the C-bar_total term "
                          "'40 beta_1 theta^*(...) L 132/beta_1 C-bar_total'",
        premises=("beta1 >= 1", "n >= 4*beta1", "theta > 0", "Cbar > 0", *_EXACT_L, "log(n/beta1)/log(4) < L"),
        claim="Eq(40*beta1*theta*L*132*Cbar/beta1, 2450*theta*lgnb*Cbar)",
        justification="L = 1/2 log(n/beta_1)",
        repair=Repair(
            claim="40*beta1*theta*L*132*Cbar/beta1 <= K*theta*(lgnb + 2)*Cbar",
            premises=("beta1 > 0", "theta >= 0", "Cbar >= 0", "lgnb > 0", "L >= lgnb/2", "L < lgnb/2 + 1"),
            note="40*132 L C-bar = 5280 L C-bar <= 2640 (log_2(n/beta_1) + 2) C-bar; even with L = log_4(n/beta_1) "
                 "exactly the coefficient of log_2(n/beta_1) is 2640, not 2450",
            sharp=("K", "0", "5280")),
        finding="F11",
        notes=("As total_substitute_beta1_terms: exact search for the printed '=', z3 for the repair.",),
    ),
    Step(
        id="calruption_main.proof.total_expand",
        lemma=_THM,
        location=_TOTAL + ", fourth line: '= theta^*(...) (160(R^*)^2 n + 480 R^* sqrt(n beta_1) + "
                          "200 beta_1 log(n/beta_1))'",
        premises=_POS,
        claim="Eq(40*beta1*theta*(4*R_star**2*n/beta1 + 12*R_star*sqrt(n/beta1) + 5*lgnb), "
              "theta*(160*R_star**2*n + 480*R_star*sqrt(n*beta1) + 200*beta1*lgnb))",
        justification="multiply out; beta_1 sqrt(n/beta_1) = sqrt(n beta_1)",
    ),
    Step(
        id="calruption_main.proof.total_big_o",
        lemma=_THM,
        location=_TOTAL + ", last line: '<= O(theta^*(...) ((R^*)^2 n + log(n/beta_1)) beta_1) + "
                          "O(theta^*(...) log(n/beta_1) C-bar_total)'",
        premises=("beta1 >= 1", "lgnb >= 1", "n > 0", *_R, "theta >= 0", "Cbar >= 0"),
        claim="theta*(160*R_star**2*n + 480*R_star*sqrt(n*beta1) + 200*beta1*lgnb) + 2450*theta*lgnb*Cbar <= "
              "440*theta*(R_star**2*n + lgnb)*beta1 + 2450*theta*lgnb*Cbar",
        justification="the O-bound: 480 R^* sqrt(n beta_1) <= 240 ((R^*)^2 n + beta_1)",
        notes=("The constant 440 is ours (the O hides it): AM-GM on the middle term, beta_1 >= 1, and "
               "lgnb = log_2(n/beta_1) >= 1 since n >= 72 eps^-2 beta_1 >= 72 beta_1.",
               "The theta^* argument is lowered separately (lower_bound_*)."),
    ),
    Step(
        id="calruption_main.proof.lower_bound_identity",
        lemma=_THM,
        location=_MAIN + ", the lower bound after the query display: '3 eps_{L-1} + g_{L-1} = 3 eps_{L-1} + "
                         "2/beta_1 C-bar_total eps_{L-1}^2'",
        premises=("Eq(g_Lm1, 2/beta1*eps_Lm1**2*Cbar)", "beta1 > 0"),
        claim="Eq(3*eps_Lm1 + g_Lm1, 3*eps_Lm1 + 2/beta1*Cbar*eps_Lm1**2)",
        justification="g_l = 2/beta_1 eps_l^2 C-bar_l",
        notes=("Read with C-bar_{L-1} = C-bar_total, as the proof writes (the g-weights are 2R^*, the theorem's R^*: "
               "C-bar_{L-1} >= C-bar_total, the direction the lower bound needs).",),
    ),
    Step(
        id="calruption_main.proof.lower_bound",
        lemma=_THM,
        location=_MAIN + ", the lower bound after the query display: '... >= 3 sqrt(beta_1/n) + 2 C-bar_total/n'",
        premises=(*_SCHEDULE, "Cbar >= 0"),
        claim="3*eps_Lm1 + 2/beta1*Cbar*eps_Lm1**2 >= 3*sqrt(beta1/n) + 2*Cbar/n",
        justification="eps_{L-1}^2 >= beta_1/n",
        notes=("eps_{L-1}^2 >= beta_1/n because epoch L-1 is complete: n >= beta_1 (4/eps_{L-1}^2 - 4)/3 >= "
               "beta_1/eps_{L-1}^2 when eps_{L-1} <= 1/2 (L >= 2). The R^* of theta^*'s argument is dropped from "
               "2R^* to R^* in the final line, which only lowers it.",),
    ),
    # ---------------------------------------------------------------- Appendix D.6: correctness
    Step(
        id="calruption_main.proof.correctness_lemma51",
        lemma=_THM,
        location=_CORRECT + ", first line: 'Delta_{h_out} <= 3/2 Delta^^{L-1}_{h_out} + 3/2 eps_{L-1} + 3 g_{L-1}'",
        premises=(),
        claim="Delta_out <= 3/2*Dhat + 3/2*eps_Lm1 + 3*g_Lm1",
        justification="Lemma 'upper and lower bound' at epoch L-1",
        kind=NOT_MECHANICAL,
        reason="an instance of Lemma 5.1 on the events (which FINDINGS F5 shows false there), not algebra",
        finding="F5",
    ),
    Step(
        id="calruption_main.proof.correctness_output",
        lemma=_THM,
        location=_CORRECT + ", second line: '<= 3 eps_{L-1} + 3 g_{L-1}'",
        premises=("eps_Lm1 <= Dhat", "Dhat <= eps_Lm1",),
        claim="3/2*Dhat + 3/2*eps_Lm1 + 3*g_Lm1 <= 3*eps_Lm1 + 3*g_Lm1",
        justification="the definition of h_out and V_L^{L-1}: Delta^^{L-1}_{h_out} <= eps_{L-1}",
        notes=("h_out in V_L^{L-1} (R13).",),
    ),
    Step(
        id="calruption_main.proof.correctness_eps",
        lemma=_THM,
        location=_CORRECT + ", third line: '<= 6 sqrt(2 beta_1/n) + 3 g_{L-1}'",
        premises=_SCHEDULE,
        claim="3*eps_Lm1 + 3*g_Lm1 <= 6*sqrt(2*beta1/n) + 3*g_Lm1",
        justification="replacing the value of eps_{L-1}",
        notes=("Holds on the real schedule: eps_{L-1}^2 < 16 beta_1/(3n) <= 8 beta_1/n.",),
    ),
    Step(
        id="calruption_main.proof.correctness_g",
        lemma=_THM,
        location=_CORRECT + ", last line: '<= 6 sqrt(2 beta_1/n) + 24 C-bar_total/n'",
        premises=(*_SCHEDULE, _pow2("eps_Lm1", 1, 4), "Eq(g_Lm1, 2/beta1*eps_Lm1**2*Cg)", *_WEIGHTS),
        claim="6*sqrt(2*beta1/n) + 3*g_Lm1 <= 6*sqrt(2*beta1/n) + 24*Cbar/n",
        justification="replacing the value of g_{L-1}",
        repair=Repair(
            claim="6*sqrt(2*beta1/n) + 3*g_Lm1 <= 6*sqrt(2*beta1/n) + K*Cbar/n",
            premises=(*_SCHEDULE, "Eq(g_Lm1, 2/beta1*eps_Lm1**2*Cg)", *_WEIGHTS),
            note="the smallest constant is 64: 3 g_{L-1} = 6 eps^2 Cg/beta_1 < 32 Cg/n <= 64 C-bar_total/n",
            sharp=("K", "0", "128")),
        finding="F6",
        notes=(_NOTE_POW2,
               "Two causes: eps_{L-1}^2 < 16 beta_1/(3n) on the real schedule (not 4 beta_1/n; "
               "calruption_main.proof.epoch_count), and g's weights 2R^* against C-bar_total's R^* (Cg <= 2 C-bar)."),
    ),
    Step(
        id="calruption_main.proof.epsilon_form",
        lemma=_THM,
        location=_MAIN + ", last paragraph: 'Set 6 sqrt(2 beta_1/n) := eps, we have n = 72 beta_1/eps^2'",
        premises=(*_POS, "Eq(eps, 6*sqrt(2*beta1/n))"),
        claim="Eq(n, 72*beta1/eps**2)",
        justification="solve for n",
    ),
    # ---------------------------------------------------------------- Theorem 5.1 from the proof
    Step(
        id="calruption_main.thm.accuracy",
        lemma=_THM,
        location=_STATEMENT + ": 'With n >= 72 eps^-2 beta_1 ... R_*(h_out) - R^* <= eps + 24 C-bar_total/n'",
        premises=(*_POS, "eps > 0", "n >= 72*beta1/eps**2", "Delta_out <= 6*sqrt(2*beta1/n) + 24*Cbar/n"),
        claim="Delta_out <= eps + 24*Cbar/n",
        justification="6 sqrt(2 beta_1/n) <= eps when n >= 72 beta_1/eps^2",
        finding="F6",
        notes=("The link holds; its premise is the correctness chain, whose last step needs 64 for 24 (F6).",),
    ),
    Step(
        id="calruption_main.thm.theta_argument",
        lemma=_THM,
        location=_STATEMENT + ": the label complexity's 'theta^*(R^* + 3 sqrt(beta_1/n) + 64 C-bar_total/n)' "
                              "against the proof's 'theta^*(R^* + 3 sqrt(beta_1/n) + C-bar_total/n)'",
        premises=(*_R, *_POS, "Cbar >= 0"),
        claim="R_star + 3*sqrt(beta1/n) + 64*Cbar/n <= 64*(R_star + 3*sqrt(beta1/n) + Cbar/n)",
        justification="theta^*(r) <= c theta^*(c r) for c >= 1, absorbed in the O",
        notes=("theta^*(r) <= c theta^*(c r): for r <= r' < c r, P(Dis(B(h^*, r')))/r' <= P(Dis(B(h^*, c r)))/r "
               "<= c theta^*(c r). So theta^*(a) <= 64 theta^*(b) whenever b <= 64 a.",
               "The proof's own argument keeps C-bar_total/n only through g_{L-1}, which "
               "calruption_main.proof.total_theta_argument refutes."),
    ),
    Step(
        id="calruption_main.thm.label_factor",
        lemma=_THM,
        location=_STATEMENT + ": '((R^*)^2 n + log(n)(1 + C-bar_total))' with the factor log(log(n)|H|^2/delta), "
                              "from the proof's '((R^*)^2 n + log(n/beta_1)) beta_1 + log(n/beta_1) C-bar_total'",
        premises=("beta1 >= 1", "n > 0", "0 <= lgnb", "lgnb <= lgn", "Cbar >= 0", *_R),
        claim="(R_star**2*n + lgnb)*beta1 + lgnb*Cbar <= beta1*(R_star**2*n + lgn*(1 + Cbar))",
        justification="beta_1 = Theta(log(log(n)|H|^2/delta)) >= 1 and log(n/beta_1) <= log(n)",
        notes=("lgn = log n, lgnb = log(n/beta_1) <= lgn as beta_1 >= 1.",),
    ),
)

# Literal first: a printed line these steps repair stays a step as printed; its corrected reading is a
# separate step whose `reading_of` names it (proofs_check/step.py).
STEPS = split_literal(STEPS, {
    "calruption_main.proof.query_dis2": dict(
        ill_formed="the printed middle term sum_x P 4 sqrt(rho_*(h,h') eps_k^-2) leaves the pair (h,h') (and "
                   "so k) free: it is not a quantity of x alone",
        note="the middle term read with the max over (h,h') in Z(x), as the first term has it."),
    "calruption_main.proof.query_regroup": dict(
        claim="Eq(P0*a0 + P1*a1, P1*a1)",
        premises=("P0 >= 0", "P1 >= 0", "P0 + P1 <= 1", "a0 >= 3", "a1 >= 0"),
        justification="group the points by the value of j^x (two layers: i = 0 with mass P0 and term a0, i = 1)",
        finding="F16",
        note="the sum over layers read from i = 0 (j^x = 0 is possible; the next line sums from i = 0)."),
    "calruption_main.proof.lower_bound_identity": dict(
        claim="Eq(3*eps_Lm1 + g_Lm1, 3*eps_Lm1 + 2/beta1*Cbar*eps_Lm1**2)",
        premises=("Eq(g_Lm1, 2/beta1*eps_Lm1**2*Cbar_Lm1)", "beta1 > 0", "eps_Lm1 > 0", "Cbar >= 0",
                  "Cbar_Lm1 >= Cbar", "Cbar_Lm1 <= 2*Cbar",
                  "eps_Lm1 <= Rational(1, 2)"),  # standing: eps_l = 2^-l, l >= 1 (domain.STANDING)
        finding="F16",
        note="C-bar_{L-1} (g's corruption sum, weights 2R^* and 1) read as C-bar_total (weights R^* and 1); "
             "as printed the '=' holds only when they agree, the '>=' the lower bound needs holds always."),
})
