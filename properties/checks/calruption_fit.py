"""Line 9's fit of D^ (feasibility and optimality, certified exactly) and the soft
elimination remark, checked on one epoch record. Split from
properties/checks/calruption_record.py (the other lines of an epoch record)."""

from __future__ import annotations

from fractions import Fraction

from properties.checks.calruption_record import _pairs, _s
from properties.checks.free_choices import rounding_bound
from properties.checks.judgement import Bounded, current
from properties.core.violation import Violation
from reference.certified import sqrt_lower
from reference.lp import LPInfeasible, LPUnbounded, solve_lp


# -- line 9: the fit of D^ ---------------------------------------------------------------------
def _fit_violations(name, H, rec) -> list[Violation]:
    """Line 9 (R11, R12): the weights are sqrt(min q / rho^) within relative 2^-64, either
    side (free choice `calruption.weight_rounding`), present exactly for pairs with rho^ > 0
    and min q > 0; eta^ in [0,1] on S_l and None elsewhere; and eta^ is an optimal solution
    of the LP "minimise s subject to w (R_D(h) - R_D(h') - mid W^{h,h'}) <= s for every
    weighted ordered pair, 0 <= eta <= 1" built from the trace's weights and W midpoints
    (pinned: `calruption.lp_stand_in`): the objective eta^ attains equals the exact optimum
    (reference.lp.solve_lp) and lp_objective. Any optimal D^ passes, vertex or not, and any
    eta^ when no pair gives a row (free choices `calruption.fit`, `calruption.fit_without_rows`)."""
    weight_bound = rounding_bound("calruption.weight_rounding")  # None: pinned to sqrt_lower's rounding
    J = current()
    slack = J.lp_tolerance(len(rec.support))  # DERIVATIONS["lp"]: 0 for an exact candidate
    found = []
    m, num_h = len(H[0]), len(H)
    where = {"l": rec.l}
    support = set(rec.support)
    for x in range(m):
        v = rec.eta_hat[x]
        if x in support and (v is None or not -slack <= v <= 1 + slack):
            found.append(Violation.of(name, "eta^_x must lie in [0, 1] on the support", **where, x=x, eta_hat=v))
        if x not in support and v is not None:
            found.append(Violation.of(name, "eta^_x must be None off the support", **where, x=x, eta_hat=v))
    if found:
        return found
    rows = []
    for h in range(num_h):
        for h2 in range(num_h):
            if h == h2:
                continue
            w, rho, mq = rec.weight[h][h2], rec.rho[h][h2], rec.min_q[h][h2]
            wanted = rho > 0 and mq is not None and mq > 0
            if (w is not None) != wanted:
                found.append(
                    Violation.of(
                        name,
                        "a weight must be given exactly for pairs with rho^ > 0 and min q > 0",
                        **where,
                        pair=(h, h2),
                        weight=w,
                        rho=rho,
                        min_q=mq,
                    )
                )
                continue
            if w is None:
                continue
            target = mq / rho
            if not J.exact:
                expected = J.sqrt(J.div(J.given(mq), J.given(rho)))
                if J.off(w, expected):
                    found.append(
                        Violation.of(
                            name,
                            "weight differs from sqrt(min q / rho^)",
                            **where,
                            pair=(h, h2),
                            **J.describe(w, expected, "weight"),
                        )
                    )
            elif weight_bound is None:
                if w != sqrt_lower(target):
                    found.append(
                        Violation.of(
                            name,
                            "weight differs from sqrt_lower(min q/rho^)",
                            **where,
                            pair=(h, h2),
                            weight=w,
                            expected=sqrt_lower(target),
                        )
                    )
            elif not (w > 0 and (w / (1 + weight_bound)) ** 2 <= target <= (w / (1 - weight_bound)) ** 2):
                found.append(
                    Violation.of(
                        name,
                        f"weight not within relative {weight_bound} of sqrt(min q/rho^)",
                        **where,
                        pair=(h, h2),
                        weight=w,
                        min_q=mq,
                        rho=rho,
                    )
                )
            if rec.W[h][h2] is None:
                found.append(Violation.of(name, "a weighted pair has no W", **where, pair=(h, h2)))
                continue
            W = rec.W[h][h2]
            rows.append((h, h2, w, (W.lo + W.hi) / 2))
    if found:
        return found
    if not rows:
        return found  # every D^ is optimal (R11); nothing more to decide

    def difference(h, h2, eta):  # R_D(h) - R_D(h')
        return sum(
            (
                rec.empirical_x[x] * (1 if H[h][x] == 1 else -1) * (1 - 2 * eta[x])
                for x in rec.support
                if H[h][x] != H[h2][x]
            ),
            Fraction(0),
        )

    attained = max(w * (difference(h, h2, rec.eta_hat) - mid) for h, h2, w, mid in rows)
    k = len(rec.support)
    c = [Fraction(0)] * k + [Fraction(1)]
    A, b = [], []
    for h, h2, w, mid in rows:
        coefficients, constant = [Fraction(0)] * k + [Fraction(-1)], Fraction(0)
        for j, x in enumerate(rec.support):
            if H[h][x] != H[h2][x]:
                sgn = 1 if H[h][x] == 1 else -1
                coefficients[j] = -2 * w * rec.empirical_x[x] * sgn
                constant += w * rec.empirical_x[x] * sgn
        A.append(coefficients)
        b.append(w * mid - constant)
    try:
        optimum = solve_lp(c, A, b, [Fraction(0)] * k + [None], [Fraction(1)] * k + [None]).objective
    except (LPInfeasible, LPUnbounded) as error:  # impossible: the box is bounded and non-empty
        return [Violation.of(name, f"the line-9 LP could not be solved: {error}", **where)]
    # a float solver stops within its tolerance, relative to the rows' scale
    allowed = slack * max([Fraction(1)] + [w * (abs(mid) + 1) for _, _, w, mid in rows])
    if abs(attained - optimum) > allowed:
        found.append(
            Violation.of(
                name,
                "eta^ is not an optimal solution of the line-9 LP",
                **where,
                attained=attained,
                optimum=optimum,
                eta_hat=_s(rec.eta_hat),
                bound=allowed,
                arithmetic=J.arithmetic,
                derivation=J.describe(0, Bounded(optimum, optimum), "lp")["derivation"],
            )
        )
    if abs(rec.lp_objective - optimum) > allowed:
        found.append(
            Violation.of(
                name,
                "lp_objective is not the optimum of the line-9 LP",
                **where,
                lp_objective=rec.lp_objective,
                optimum=optimum,
                bound=allowed,
                arithmetic=J.arithmetic,
            )
        )
    return found


# -- soft elimination --------------------------------------------------------------------------
def _never_hard_eliminates_violations(name, H, rec) -> list[Violation]:
    """For every pair with rho^_l(h,h') > 0, q_{l+1}^x > 0 at every x of Dis(h,h')."""
    found = []
    for h, h2 in _pairs(len(H)):
        if rec.rho[h][h2] > 0:
            for x in range(len(H[0])):
                if H[h][x] != H[h2][x] and rec.next_q[x] <= 0:
                    found.append(
                        Violation.of(
                            name,
                            "a separated pair lost every query at a point where it disagrees",
                            l=rec.l,
                            pair=(h, h2),
                            x=x,
                            rho=rec.rho[h][h2],
                            next_q=rec.next_q[x],
                        )
                    )
    return found
