"""The paper's formulas as a correct computation in a candidate's arithmetic evaluates
them: each returns a `Bounded` (properties/checks/judgement.py), the exact value with the error
a correct float computation may add. The checks (properties/checks/*.py) and the
cross-check (properties/checks/crosscheck.py) take their float judgements from these, so both
call the same things a rounding and the same decisions a legitimate tie."""

from __future__ import annotations

from fractions import Fraction

from properties.checks.free_choices import accepted_minimisers
from properties.checks.judgement import Bounded, Judgement


def robust_cal_beta(J: Judgement, params, t: int):
    """beta_t = beta_scale ln(3 k |H|^2 / delta) (Algorithm 1, line 9) as a correct
    computation in the candidate's arithmetic reports it (DERIVATIONS["beta_t"])."""
    k = t.bit_length() - 1
    argument = J.div(J.count(3 * k * params.num_hypotheses**2), J.stored(params.delta))
    return J.mul(J.stored(params.beta_scale), J.ln(argument))


def robust_cal_threshold(J: Judgement, beta, rho, t: int, vanilla: bool):
    """Line 10's right-hand side in the candidate's arithmetic (DERIVATIONS["threshold"])."""
    root = J.sqrt(J.div(J.mul(J.mul(J.value(2), beta), rho), J.count(t)))
    total = J.add(root, J.div(J.mul(J.value(3), beta), J.count(2 * t)))
    return total if vanilla else J.add(total, J.scaled(rho, Fraction(1, 2)))


def risk_under_fit(J: Judgement, labels, rec) -> Bounded:
    """R_D^(h) = sum_{x in S_l} p^_x (1 - eta^_x if h(x) = 1 else eta^_x) from the record
    (DERIVATIONS["risk_hat"]), p^ and eta^ as reported (each possibly held unrounded).

    Two families of evaluation orders, the bound the larger of their two analyses:
    * term by term, p^_x (1 - eta^_x) or p^_x eta^_x, summed in any order: the terms'
      own bounds plus gamma_{k-1} times their total size (`Judgement.sum`);
    * regrouped, as a program computing every risk at once writes it: the matrix form
      sum_x p^_x eta^_x + sum_{h(x) = 1} p^_x (1 - 2 eta^_x), or p^_x - p^_x eta^_x where
      h(x) = 1. Its partial sums are not the terms of R_D(h): their sizes are at most
      p^_x (1 + eta^_x) per point (eta + |1 - 2 eta| <= 1 + eta on [0, 1]), two sums of
      at most k terms with up to two roundings per term and one addition: gamma_{k+1}
      sum p^_x (1 + eta^_x), plus the inputs' errors carried through: e_p (1 + eta) +
      3 p e_eta per point (|1 - 2 eta| moves by 2 e_eta, eta by e_eta)."""
    terms, carried, size = [], Fraction(0), Fraction(0)
    for x in rec.support:
        eta = J.given(rec.eta_hat[x])
        p = J.given(rec.empirical_x[x])
        loss = J.sub(J.value(1), eta) if labels[x] == 1 else eta
        terms.append(J.mul(p, loss))
        carried += p.err * (1 + eta.magnitude + eta.err) + 3 * (p.magnitude + p.err) * eta.err
        size += (p.magnitude + p.err) * (1 + eta.magnitude + eta.err)
    termwise = J.sum(terms)
    regrouped = carried + J.gamma(len(terms) + 1) * size
    return Bounded(termwise.lo, termwise.hi, max(termwise.err, regrouped))


def penalised_risk(J: Judgement, params, risk, prev_gap) -> Bounded:
    """R_D^(h) + beta2 Delta^^{l-1}_h (line 10, DERIVATIONS["penalised"])."""
    return J.add(J.given(risk), J.mul(J.stored(params.beta2), J.given(prev_gap)))


def accepted_h_star(J: Judgement, penalised) -> list[int]:
    """Line 10's accepted h^*_l: the exact minimisers the free-choice table accepts
    (`calruption.h_star_tie`) and, for a float candidate, every hypothesis whose penalised
    value may be the minimum within the bounds (a tie within rounding)."""
    exact = [p.lo for p in penalised]  # the candidate's inputs are rationals: lo == hi
    accepted = set(accepted_minimisers("calruption.h_star_tie", exact, range(len(penalised))))
    if not J.exact:
        ceiling = min(p.high for p in penalised)
        accepted |= {h for h, p in enumerate(penalised) if p.low <= ceiling}
    return sorted(accepted)


def next_query_probability(J: Judgement, rho, k: int, l: int) -> Bounded:
    """One pair's term of Algorithm 2, line 13: beta1 rho^_l(h,h') / N_{l+1} eps_k^-2 =
    rho^_l 4^(k - l - 1), rho^ as the candidate reported it (DERIVATIONS["next_q"]).

    The printed order, left to right, rounds twice: fl(fl(beta1 rho^) / N_{l+1}), then
    the exact power of 4. beta1 is one float in both places: N_{l+1} = beta1 4^{l+1} (or
    beta1 / eps_{l+1}^2, or 4 N_l) is that float times a power of two, exactly, so
    beta1's own error cancels and the result is rho^ 4^(k-l-1) (1 + d1)(1 + d2),
    |d_i| <= u. The other natural orders round less: rho^ (beta1 / N_{l+1}) 4^k and the
    cancelled rho^ 4^(k-l-1) are exact; beta1 rho^ 4^k / N_{l+1} rounds twice. Each
    rounding is counted ROUNDINGS_PER_OPERATION times, as everywhere in the judgement."""
    return J.scaled(J.rounded(J.given(rho), 2), Fraction(4**k, 4 ** (l + 1)))


def layer_decision_accepted(J: Judgement, gap, eps_i, member: bool) -> bool:
    """Whether h in V^i_{l+1} (`member`) is line 12's decision {h : Delta^^l_h <= eps_i} for
    the reported Delta^ = gap (DERIVATIONS["layer"]): always the exact one; for a float
    candidate also the other where it may have decided on its unrounded Delta^ (within
    u/(1-u) of eps_i), but a reported Delta^ equal to eps_i is in V^i in every arithmetic."""
    if member == (gap <= eps_i):
        return True
    return not J.exact and gap != eps_i and J.given(eps_i).accepts(gap)


def catoni_alpha_bounded(J: Judgement, params, length: int, mq, rho) -> Bounded:
    """alpha = sqrt(2 beta3 min q / (5 |I_l| rho^)) (R10) in a float candidate's arithmetic
    (DERIVATIONS["alpha"])."""
    numerator = J.mul(J.mul(J.value(2), J.constant(params.beta3)), J.given(mq))
    denominator = J.mul(J.mul(J.value(5), J.count(length)), J.given(rho))
    return J.sqrt(J.div(numerator, denominator))


__all__ = [
    "accepted_h_star",
    "catoni_alpha_bounded",
    "layer_decision_accepted",
    "next_query_probability",
    "penalised_risk",
    "risk_under_fit",
    "robust_cal_beta",
    "robust_cal_threshold",
]
