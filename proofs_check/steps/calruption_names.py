"""Shared names of Theorem 5.1's encoding (calruption_main.py's conventions): the results' labels, the
locations, the schedule's premises and the finite disjunctions of powers. In a module of their own (no module
over 800 lines) so that calruption_main.py and calruption_sketch.py use the same ones."""
from __future__ import annotations

_THM = "them: main"
_CORO = "coro: main"
_LEM52_MAIN = "lem(main): upper bound the difference of classifiers"
_LEM52 = "lem: upper bound the difference of classifiers"

_STATEMENT = "Section 5, Theorem 5.1 (CALruption) statement"
_CORO_LOC = "Section 5, Corollary 5.1 (after Theorem 5.1)"
_SKETCH = "Section 5.3, proof sketch for Theorem 5.1"
_AUX = "Appendix D.5, proof of Lemma 'upper bound the difference of classifiers'"
_MAIN = "Appendix D.6 (Main proof for Theorem 5.1)"
_QUERY = _MAIN + ", sample complexity, the E[Q_t] display"
_DIS = _MAIN + ", the display bounding P(x in Dis(V_l^i))"
_EPOCH = _MAIN + ", the display 'expected number of queries inside a complete epoch l'"
_TOTAL = _MAIN + ", the display 'Query complexity'"
_CORRECT = _MAIN + ", 'Now we will deal with the correctness'"

_POS = ("beta1 > 0", "n > 0")
# L-1 the last complete epoch of n rounds (module docstring); eps_Lm1 = eps_{L-1}, L >= 2.
_SCHEDULE = ("beta1 > 0", "n > 0", "0 < eps_Lm1", "eps_Lm1 <= 1/2",
             "beta1*(4/eps_Lm1**2 - 4)/3 <= n", "n < beta1*(16/eps_Lm1**2 - 4)/3")
# Cbar <= Cg <= 2 Cbar (weights R^* or 1 against 2R^* or 1); the corruption of epochs 1..L-1 is at most
# their rounds, and the weights are at most 1 (Cbar) and 2 (Cg).
_WEIGHTS = ("Cbar >= 0", "Cbar <= Cg", "Cg <= 2*Cbar", "Cbar <= beta1*(4/eps_Lm1**2 - 4)/3")
_R = ("0 <= R_star", "R_star <= 1")


def _pow2(var: str, low: int = 1, high: int = 12) -> str:
    """var is one of 2^-low, ..., 2^-high."""
    return "Or(" + ", ".join(f"Eq({var}, 1/{2 ** k})" for k in range(low, high + 1)) + ")"


def _pow4(var: str, low: int = 1, high: int = 6) -> str:
    """var is one of 4^low, ..., 4^high."""
    return "Or(" + ", ".join(f"Eq({var}, {4 ** k})" for k in range(low, high + 1)) + ")"


def _layer_cases(high: int = 12) -> str:
    """(l, Tl) = (l, 2^l) for l = 1..high."""
    return "Or(" + ", ".join(f"And(Eq(l, {k}), Eq(Tl, {2 ** k}))" for k in range(1, high + 1)) + ")"


def _epoch_pairs(high: int = 7) -> str:
    """(eps_{l-1}, eps_{L-1}) = (2^-a, 2^-b) for 1 <= a < b <= high: two complete epochs."""
    return "Or(" + ", ".join(f"And(Eq(eps_lm1, 1/{2 ** a}), Eq(eps_Lm1, 1/{2 ** b}))"
                             for a in range(1, high + 1) for b in range(a + 1, high + 1)) + ")"


_NOTE_POW2 = ("eps_Lm1 ranges over 2^-1..2^-4 (a finite disjunction: z3 cannot express 2^-k for a symbolic k), "
              "so the counterexample is a real schedule; the repair is decided for every real 0 < eps_Lm1 <= 1/2.")
_NOTE_LAYERS = ("(l, Tl) ranges over (k, 2^k), k = 1..12 (a finite disjunction), so the counterexample is a real "
                "epoch; the repair is decided for every real Tl >= 2 and l >= 1.")
# The layer sums of the per-epoch display: sum_{i=0}^{l-1} 4^i = (Tl^2 - 1)/3, sum 2^i = Tl - 1, sum 1 = l.
_LAYER_SUMS = ("Eq(S4, (Tl**2 - 1)/3)", "Eq(S2, Tl - 1)", "Eq(eps_lm1, 2/Tl)",
               "Eq(g_lm1, 2/beta1*eps_lm1**2*Cb)")
_LINE1_BOUND = "10*beta1*theta*(4*R_star**2*S4 + 12*R_star*S2 + 12*R_star*g_lm1*S4 + 18*g_lm1*S2 + 9*g_lm1**2*S4 + 9*l)"
_LINE2 = ("20*beta1*theta*(4*R_star**2*Tl**2 + 12*R_star*Tl + 24/beta1*R_star*Cb + 36/beta1*Cb*eps_lm1"
          " + 36/beta1**2*Cb**2*eps_lm1**2 + 9)")
_LINE3 = "20*beta1*theta*(4*R_star**2*Tl**2 + 12*R_star*Tl + 132/beta1*Cb + 10)"
# log2(n/beta1) and the number of epochs L = ceil(log_4(n/beta1)), exactly (for the search).
_EXACT_L = ("Eq(L, ceiling(log(n/beta1)/log(4)))", "Eq(TL, 2**L)", "Eq(lgnb, log(n/beta1)/log(2))")
