"""Theorem 5.1's proof sketch (Section 5.3, main text) as steps, in a module of their own to keep
calruption_main.py under 800 lines; calruption_main.py places these steps in the paper's order."""
from __future__ import annotations

from ..step import NOT_MECHANICAL, Repair, Step
from .calruption_names import (
    _LAYER_SUMS,
    _LINE1_BOUND,
    _LINE3,
    _NOTE_LAYERS,
    _NOTE_POW2,
    _POS,
    _R,
    _SCHEDULE,
    _SKETCH,
    _THM,
    _WEIGHTS,
    _layer_cases,
    _pow2,
)

STEPS = (
    # ---------------------------------------------------------------- proof sketch (main text)
    Step(
        id="calruption_main.sketch.correctness",
        lemma=_THM,
        location=_SKETCH + ", 'Correctness': 'Delta_{h_out} <= 3/2 Delta^^{L-1}_{h_out} + 3/2 eps_{L-1} + 3 g_{L-1} "
                           "<= 6 sqrt(2 beta_1/n) + 24 C-bar_total/n', the second inequality",
        premises=(*_SCHEDULE, _pow2("eps_Lm1", 1, 4), "eps_Lm1 <= Dhat", "Dhat <= eps_Lm1",
                  "Eq(g_Lm1, 2/beta1*eps_Lm1**2*Cg)", *_WEIGHTS),
        claim="3/2*Dhat + 3/2*eps_Lm1 + 3*g_Lm1 <= 6*sqrt(2*beta1/n) + 24*Cbar/n",
        justification="h_out in V_L^{L-1} and the values of eps_{L-1} and g_{L-1}",
        repair=Repair(
            claim="3/2*Dhat + 3/2*eps_Lm1 + 3*g_Lm1 <= 6*sqrt(2*beta1/n) + K*Cbar/n",
            premises=(*_SCHEDULE, "eps_Lm1 <= Dhat", "Dhat <= eps_Lm1", "Eq(g_Lm1, 2/beta1*eps_Lm1**2*Cg)", *_WEIGHTS),
            note="the smallest constant for C-bar_total/n is 64 (eps_{L-1}^2 < 16 beta1/(3n) and Cg <= 2 C-bar)",
            sharp=("K", "0", "128")),
        finding="F6",
        notes=(_NOTE_POW2, "Dhat is Delta^^{L-1}_{h_out} <= eps_{L-1} (h_out in V_L^{L-1}, FINDINGS R13).",
               "The same chain as calruption_main.proof.correctness_* in one link."),
    ),
    Step(
        id="calruption_main.sketch.query_closeness",
        lemma=_THM,
        location=_SKETCH + ", 'Sample complexity', first line: 'E[Q_t] <= 10 beta_1/N_l sum_x P(x_t = x) "
                           "max_{h in V_l^{j_l^x}} rho_*(h,h^*) eps_{j_l^x}^-2 + 8 beta_1/N_l'",
        premises=("beta3 > 0", "Eq(beta1, 32*640*beta3)", "0 < eps_l", "Eq(eps_lm1, 2*eps_l)", "eps_lm1 <= eps_k",
                  "eps_k <= 1", "Eq(N_l, beta1/eps_l**2)", "Eq(N_lm1, beta1/eps_lm1**2)", "0 <= rho", "rho <= 1",
                  "rho <= 2*rho_max", "rho_hat <= rho + sqrt(beta3*rho/N_lm1) + beta3/N_lm1"),
        claim="beta1*rho_hat/(N_l*eps_k**2) <= 10*beta1/N_l*rho_max/eps_k**2 + 8*beta1/N_l",
        justification="closeness of rho^_{l-1} and rho_* (E_dis2) and 'some careful relaxation'",
        notes=("Per point x with its maximising pair (h1, h2) in layer k = j_l^x: q_l^x = beta1 rho^_{l-1}(h1,h2) "
               "eps_k^-2/N_l; rho = rho_*(h1,h2) <= rho_*(h1,h^*) + rho_*(h^*,h2) <= 2 rho_max (triangle inequality, "
               "rho_max = max_{h in V_l^k} rho_*(h,h^*)). The sum over x with weights P(x_t = x) preserves the bound.",
               "E_dis2 for rho^_{l-1} has the width of epoch l-1 (N_{l-1} = beta1 eps_{l-1}^-2); k <= l-1.",
               "beta1 = 32*640 beta3 (Algorithm 2, R8); the step only needs beta3 <= 16 beta1."),
    ),
    Step(
        id="calruption_main.sketch.query_lemma52",
        lemma=_THM,
        location=_SKETCH + ", 'Sample complexity', second line: "
                           "'... (2R^* eps_j^-2 + 3 eps_j^-1 + 3 g_{l-1} eps_j^-2)'",
        premises=("beta1 > 0", "N_l > 0", "0 < eps_j", "g_lm1 >= 0", "rho_max <= 2*R_star + 3*eps_j + 3*g_lm1"),
        claim="10*beta1/N_l*rho_max/eps_j**2 <= 10*beta1/N_l*(2*R_star/eps_j**2 + 3/eps_j + 3*g_lm1/eps_j**2)",
        justification="Lemma 5.2",
    ),
    Step(
        id="calruption_main.sketch.query_layers",
        lemma=_THM,
        location=_SKETCH + ", 'Sample complexity', third line: '<= 10 beta_1/N_l sum_{i=0}^{l-1} (...) "
                           "P(x in Dis(V_l^i)) + 8 beta_1/N_l'",
        premises=(),
        claim="sum_x_layer <= sum_i_dis",
        justification="group the points by their layer j_l^x = i; j_l^x = i implies x in Dis(V_l^i)",
        kind=NOT_MECHANICAL,
        reason="regrouping a sum over points by a layer index and an inclusion of events, not algebra",
    ),
    Step(
        id="calruption_main.sketch.dis_lemma52",
        lemma=_THM,
        location=_SKETCH + ", the P(Dis(V_l^i)) display, first line: 'P(exists h in V_l^i: h(x) != h^*(x)) <= "
                           "P(exists h in H: h(x) != h^*(x), rho_*(h,h^*) <= 2R^* + 3 eps_i + 3 g_{l-1})'",
        premises=(),
        claim="P_dis_hstar <= P_ball",
        justification="Lemma 5.2: every h in V_l^i lies in the ball",
        kind=NOT_MECHANICAL,
        reason="an inclusion of events given Lemma 5.2 (whose algebra is calruption_main.lem52.*), not algebra",
    ),
    Step(
        id="calruption_main.sketch.dis_theta",
        lemma=_THM,
        location=_SKETCH + ", the P(Dis(V_l^i)) display, second line: '<= theta^*(2R^* + 3 eps_i + g_{l-1}) "
                           "(2R^* + 3 eps_i + 3 g_{l-1})'",
        premises=("0 <= R_star", "0 < eps_i", "g_lm1 >= 0", "theta0 >= 0", "P_dis <= D_r",
                  "Eq(r0, 2*R_star + 3*eps_i + g_lm1)", "Eq(r, 2*R_star + 3*eps_i + 3*g_lm1)",
                  "Or(r < r0, D_r <= theta0*r)"),
        claim="P_dis <= theta0*(2*R_star + 3*eps_i + 3*g_lm1)",
        justification="the definition of theta^*(r0) as a sup over radii r >= r0",
        notes=("D_r = P(x in Dis(B(h^*, r))); the premise Or(r < r0, D_r <= theta0 r) is the definition "
               "theta0 = theta^*(r0) = sup_{r >= r0} D_r/r. The paper's argument has g_{l-1} where the radius has "
               "3 g_{l-1}; the step holds because the radius is at least the argument.",),
    ),
    Step(
        id="calruption_main.sketch.epoch_queries",
        lemma=_THM,
        location=_SKETCH + ", 'we get the expected number of queries inside a complete epoch l as sum_{t in I_l} "
                           "E[Q_t] <= 20 beta_1 theta^*(2R^* + 3 eps_{l-1} + g_{l-1}) (4(R^*)^2 eps_l^-2 + "
                           "12 R^* eps_l^-1 + 132/beta_1 C-bar_{l-1} + 10)'",
        premises=(_layer_cases(), *_R, "beta1 > 0", "theta > 0", "Cb >= 0",
                  "Cb <= 2*beta1/eps_lm1**2", *_LAYER_SUMS,
                  "Qep <= 10*beta1*Y + 8*beta1", "Y <= " + _LINE1_BOUND.replace("10*beta1*", "")),
        claim="Qep <= " + _LINE3,
        justification="combining the per-round bound, the P(Dis) bound, g_{l-1} and "
                      "C-bar_{l-1} <= 2 beta_1 eps_{l-1}^-2",
        repair=Repair(
            claim="Qep <= 20*beta1*theta*(4*R_star**2*Tl**2 + 12*R_star*Tl + 132/beta1*Cb + 5*l) + 8*beta1",
            premises=("l >= 1", "Tl >= 2", *_R, "beta1 > 0", "theta > 0", "Cb >= 0",
                      "Cb <= 2*beta1/eps_lm1**2", *_LAYER_SUMS,
                      "Qep <= 10*beta1*Y + 8*beta1", "Y <= " + _LINE1_BOUND.replace("10*beta1*", "")),
            note="the constant term grows with the number of layers l, and the 8 beta_1 of the per-round bound stays"),
        finding="F11",
        notes=(_NOTE_LAYERS,
               "theta > 0: with theta^* = 0 no point is in any disagreement region and nothing is queried.",
               "Qep <= 10 beta_1 Y + 8 beta_1 is N_l times the per-round bound (the N_l cancel: "
               "calruption_main.proof.epoch_drop_constant's repair); "
               "Y = sum_{i=0}^{l-1} (2R^* eps_i^-2 + 3 eps_i^-1 + 3 g_{l-1} eps_i^-2) P(x in Dis(V_l^i)); its premise "
               "combines P(Dis(V_l^i)) <= theta_i (2R^* + 3 eps_i + 3 g_{l-1}), theta_i <= theta and the closed-form "
               "layer sums, each decided in calruption_main.proof.* (epoch_product, epoch_theta_monotone, series).",
               "g_{l-1} = 2/beta1 eps_{l-1}^2 C-bar_{l-1} as in the appendix (the sketch prints C-bar_{l-2} there).",
               "The same two slips as calruption_main.proof.epoch_drop_constant and .epoch_layer_sums."),
    ),
    Step(
        id="calruption_main.sketch.epoch_count_base",
        lemma=_THM,
        location=_SKETCH + ", 'summing over all L = ceil(1/2 log(n/beta_1)) number of epochs' against the "
                           "theorem's floor(log_4(n/beta_1)) and Appendix D.6's ceil(log_4(n/beta_1))",
        premises=_POS,
        claim="Eq(ceiling(log(n/beta1)/(2*log(2))), ceiling(log(n/beta1)/log(4)))",
        justification="1/2 log_2 = log_4",
        notes=("Holds with the base-2 reading of log (as FINDINGS R9 reads log n in beta3); with the natural log "
               "the sketch's L would not be the number of epochs.",),
    ),
)
