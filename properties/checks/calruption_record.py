"""What one epoch record of CALruption's trace must satisfy, line by line of Algorithm 2:
its shape, the query probabilities (line 13), the counts and definitions recomputed
(lines 7, 10-13 and the remark), Catoni's estimates (line 8), the fit of D^ (line 9) and
soft elimination. Each function returns the record's violations; the checks that run
them on whole traces and on single epochs are in properties/checks/calruption.py."""

from __future__ import annotations

from fractions import Fraction

from properties.checks.catoni_sign import catoni_sign
from properties.checks.formulas import (
    accepted_h_star,
    catoni_alpha_bounded,
    layer_decision_accepted,
    next_query_probability,
    penalised_risk,
    risk_under_fit,
)
from properties.checks.free_choices import cite, rounding_bound
from properties.checks.judgement import Bounded, Judgement, current
from properties.core.contract import epoch_shape_problems
from properties.core.epochs import eps
from properties.core.terms import alpha_terms, catoni_terms, gap_terms, mismatch_values, next_q_terms
from properties.core.violation import Violation
from reference.catoni import catoni_alpha, catoni_root

# =====================================================================================
# shared helpers
# =====================================================================================
CERTIFY_BITS = (64, 256, 1024, 4096)
MAX_W_WIDTH = Fraction(1, 2**64)  # FINDINGS R12: |W~ - W| <= 2^-65, W~ the midpoint
# honoured by `_fit_violations` (any optimal D^, vertex or not; any eta^ without rows)
cite("calruption.fit", "calruption.fit_without_rows")


def _s(values) -> list[str | None]:
    return [None if v is None else str(v) for v in values]


def _pairs(num_h: int):
    return ((h, h2) for h in range(num_h) for h2 in range(h + 1, num_h))


def _ceil_of_constant(constant, factor: int) -> int | None:
    """ceil(factor * c) decided from certified enclosures c.enclosure(bits) alone (None if
    no precision in CERTIFY_BITS decides it)."""
    for bits in CERTIFY_BITS:
        enclosure = constant.enclosure(bits)
        lo, hi = enclosure.lo * factor, enclosure.hi * factor
        if lo == hi:
            return -((-lo.numerator) // lo.denominator)
        lo_floor, hi_floor = lo.numerator // lo.denominator, hi.numerator // hi.denominator
        if lo_floor == hi_floor and lo != lo_floor:
            return lo_floor + 1
    return None


def _ceil(value: Fraction) -> int:
    return -((-value.numerator) // value.denominator)


def _epoch_lengths(J: Judgement, beta1, l: int) -> tuple[int, ...]:
    """|I_l| = ceil(beta1 4^l) (line 6, R10): exactly for an exact candidate; for a float
    one every integer ceil(x) for x within the bound of N_l (DERIVATIONS["N_l"]) -- two
    when N_l lies within rounding of an integer, one otherwise. None if undecided."""
    if J.exact:
        length = _ceil_of_constant(beta1, 4**l)
        return () if length is None else (length,)
    n_l = J.scaled(J.constant(beta1), Fraction(4**l))
    return tuple(range(_ceil(n_l.low), _ceil(n_l.high) + 1))


def _n_l_bounded(J: Judgement, beta1, l: int) -> Bounded:
    return J.scaled(J.constant(beta1), Fraction(4**l))


def _compare_with_constant(value: Fraction, factor: Fraction, constant) -> int | None:
    """The sign of value - factor * c (c > 0 a certified constant), or None if undecided."""
    for bits in CERTIFY_BITS:
        enclosure = constant.enclosure(bits)
        if value < enclosure.lo * factor:
            return -1
        if value > enclosure.hi * factor:
            return 1
        if enclosure.exact:
            return 0
    return None


def _shape_violations(name, H, rec, where) -> list[Violation]:
    """The record's tuples have the sizes of X and H (otherwise the other checks of the
    epoch cannot index them)."""
    return [Violation.of(name, problem, **where) for problem in epoch_shape_problems(rec, len(H[0]), len(H))]


def _tape_counts(tape, m, tau, length, q, J: Judgement | None = None):
    """seen[x], queried[x][y] and undecided[x][y] over rounds tau..tau+length-1, querying
    iff u_t < q^{x_t} (Algorithm 2, line 4 with the tape's coin). A round whose coin a
    correct float candidate may decide either way (`Judgement.coin_undecided`: u_t not a
    number of its format, within one ulp of its q) is counted in `undecided`, not in
    `queried`: the candidate queried between queried and queried + undecided there."""
    J = J or current()
    seen = [0] * m
    queried = [[0, 0] for _ in range(m)]
    undecided = [[0, 0] for _ in range(m)]
    for t in range(tau, tau + length):
        x, y, u = tape.x[t - 1], tape.y[t - 1], tape.u[t - 1]
        seen[x] += 1
        if J.coin_undecided(u, q[x]):
            undecided[x][y] += 1
        elif u < q[x]:
            queried[x][y] += 1
    return tuple(seen), tuple(map(tuple, queried)), tuple(map(tuple, undecided))


def _epoch_on_tape(name, case, e):
    """(seen, queried) of epoch record e recomputed from the tape with e's own q, or a
    violation when the epoch lies outside the tape."""
    m = case.instance.num_points
    if e.tau < 1 or e.length < 1 or e.tau + e.length - 1 > case.tape.n or len(e.q) != m:
        return None, [
            Violation.of(name, "the epoch does not lie on the tape", l=e.l, tau=e.tau, length=e.length, n=case.tape.n)
        ]
    return _tape_counts(case.tape, m, e.tau, e.length, e.q), []


def _zmax(H, rho, x) -> Fraction:
    """max_{(h,h') in Z(x)} rho(h,h') (0 if Z(x) is empty)."""
    return max((rho[h][h2] for h, h2 in _pairs(len(H)) if H[h][x] != H[h2][x]), default=Fraction(0))


# -- line 13 / R10: the query probabilities ------------------------------------------------
def _query_probability_violations(name, H, rec, prev_rho=None) -> list[Violation]:
    """q_l in [0,1], q_1 = 1, q_l^x <= 1/4 max_{Z(x)} rho^_{l-1} (given prev_rho), and the
    same bound for q_{l+1} = next_q from this epoch's rho^ (FINDINGS R10)."""
    J = current()
    found = []
    for x, v in enumerate(rec.q):
        if not 0 <= v <= 1:
            found.append(Violation.of(name, "q_l^x outside [0, 1]", l=rec.l, x=x, q=v))
        if rec.l == 1 and v != 1:
            found.append(Violation.of(name, "q_1^x must be 1 (line 1)", l=rec.l, x=x, q=v))
        if rec.l >= 2 and prev_rho is not None:
            # DERIVATIONS["query_bound"]: line 13 of epoch l - 1 at its largest k, l - 1
            bound = next_query_probability(J, _zmax(H, prev_rho, x), rec.l - 1, rec.l - 1)
            if v > bound.high:
                found.append(
                    Violation.of(
                        name,
                        "q_l^x exceeds 1/4 max_{Z(x)} rho^_{l-1} (line 13, R10)",
                        l=rec.l,
                        x=x,
                        q=v,
                        bound=bound.hi,
                        allowed=bound.high,
                        **mismatch_values(v, bound.hi),
                    )
                )
    for x, v in enumerate(rec.next_q):
        bound = next_query_probability(J, _zmax(H, rec.rho, x), rec.l, rec.l)  # k <= l
        if not 0 <= v <= 1:
            found.append(Violation.of(name, "q_{l+1}^x outside [0, 1]", l=rec.l, x=x, next_q=v))
        if v > bound.high:
            found.append(
                Violation.of(
                    name,
                    "q_{l+1}^x exceeds 1/4 max_{Z(x)} rho^_l (line 13, R10)",
                    l=rec.l,
                    x=x,
                    next_q=v,
                    bound=bound.hi,
                    allowed=bound.high,
                    **mismatch_values(v, bound.hi),
                )
            )
    return found


# -- lines 7, 10-13 and the remark: definitions recomputed ----------------------------------
def _counts_violations(name, H, rec, seen, queried=None) -> list[Violation]:
    """Line 7 and the remark after Algorithm 2: S_l, the x-marginal seen[x]/|I_l|, rho^_l
    and min_{x in Dis(h,h') on S_l} q_l^x (R11) from the epoch's counts; labels requested."""
    J = current()
    found = []
    m, length = len(H[0]), rec.length
    where = {"l": rec.l}
    support = tuple(x for x in range(m) if seen[x] > 0)
    if rec.support != support:
        found.append(
            Violation.of(
                name, "S_l is not the set of points seen in the epoch", **where, got=rec.support, expected=support
            )
        )
    p_hat = tuple(Fraction(s, length) for s in seen)
    bad = [x for x in range(m) if J.off(rec.empirical_x[x], J.ratio(seen[x], length))]
    if bad:
        found.append(
            Violation.of(
                name,
                "the x-marginal of D^_l is not seen[x] / |I_l|",
                **where,
                got=_s(rec.empirical_x),
                expected=_s(p_hat),
                x=bad[0],
                **J.describe(rec.empirical_x[bad[0]], J.ratio(seen[bad[0]], length), "count_ratio"),
            )
        )
    for h in range(len(H)):
        for h2 in range(len(H)):
            dis = [x for x in range(m) if H[h][x] != H[h2][x]]
            count = sum(seen[x] for x in dis)
            rho = Fraction(count, length)
            rho_bounded = J.ratio(count, length, terms=sum(1 for x in dis if seen[x]))
            if J.off(rec.rho[h][h2], rho_bounded):
                found.append(
                    Violation.of(
                        name,
                        "rho^_l(h,h') differs from line 7",
                        **where,
                        pair=(h, h2),
                        got=rec.rho[h][h2],
                        expected=rho,
                        **J.describe(rec.rho[h][h2], rho_bounded, "count_ratio"),
                    )
                )
            seen_dis = [x for x in dis if seen[x] > 0]
            min_q = min((rec.q[x] for x in seen_dis), default=None) if rho > 0 else None
            if h != h2 and rec.min_q[h][h2] != min_q:
                found.append(
                    Violation.of(
                        name,
                        "min q over Dis(h,h') on S_l differs (lines 8-9, R11)",
                        **where,
                        pair=(h, h2),
                        got=rec.min_q[h][h2],
                        expected=min_q,
                    )
                )
    if queried is not None:
        labels = sum(a + b for a, b in queried)
        if rec.labels_requested != labels:
            found.append(
                Violation.of(
                    name,
                    "labels requested in the epoch differ from the counts",
                    **where,
                    got=rec.labels_requested,
                    expected=labels,
                )
            )
    return found


def _definitions_violations(name, H, params, rec, prev_gap) -> list[Violation]:
    """Lines 10-13 from the record alone: R_D^(h) from eta^ and the x-marginal; h^*_l a
    minimiser of R_D^(h) + beta2 Delta^^{l-1}_h (line 10, R13: any exact minimiser, free
    choice `calruption.h_star_tie`); Delta^^l_h =
    max(eps_l, R_D^(h) - R_D^(h^*) - beta2 Delta^^{l-1}_{h^*}) (line 11); V^i_{l+1} =
    {h : Delta^^l_h <= eps_i}, i = 0..l, nested (line 12); q_{l+1}^x = max_{Z(x)} rho^_l
    4^(k - l - 1), k = max{i : h, h' in V^i_{l+1}} (line 13, R10)."""
    J = current()
    found = []
    num_h, l = len(H), rec.l
    where = {"l": l}
    # R_D^(h)
    if all(rec.eta_hat[x] is not None for x in rec.support):
        for h in range(num_h):
            risk = risk_under_fit(J, H[h], rec)
            if J.off(rec.risk_hat[h], risk):
                found.append(
                    Violation.of(
                        name,
                        "R_D^(h) differs from eta^ and the x-marginal",
                        **where,
                        h=h,
                        got=_s(rec.risk_hat),
                        **J.describe(rec.risk_hat[h], risk, "risk_hat"),
                    )
                )
                break
    else:
        found.append(Violation.of(name, "eta^ is missing on the support", **where, eta_hat=_s(rec.eta_hat)))
    # line 10
    penalised = [penalised_risk(J, params, rec.risk_hat[h], prev_gap[h]) for h in range(num_h)]
    accepted = accepted_h_star(J, penalised)
    if rec.h_star_hat not in accepted:
        found.append(
            Violation.of(
                name,
                "h^*_l is not a minimiser of line 10",
                **where,
                got=rec.h_star_hat,
                minimisers=accepted,
                penalised=[p.shown() for p in penalised],
            )
        )
    # line 11 (with the record's h^*_l, so a wrong h^* is reported once, above)
    hs = rec.h_star_hat
    for h in range(num_h):
        gap = J.maximum(J.value(eps(l)), J.sub(J.given(rec.risk_hat[h]), penalised[hs]))
        if J.off(rec.gap_hat[h], gap):
            found.append(
                Violation.of(
                    name, "Delta^^l differs from line 11", **where, h=h, **J.describe(rec.gap_hat[h], gap, "gap_hat")
                ).with_terms(
                    gap_terms(l, rec.risk_hat[h], rec.risk_hat[hs], params.beta2, prev_gap[hs], rec.gap_hat[h])
                )
            )
            break
    for h, g in enumerate(rec.gap_hat):
        if g < eps(l):
            found.append(Violation.of(name, "Delta^^l_h < eps_l (line 11)", **where, h=h, gap_hat=g, eps=eps(l)))
    # line 12
    if len(rec.layers) != l + 1:
        found.append(Violation.of(name, "there must be l + 1 layers V^0..V^l", **where, layers=len(rec.layers)))
    else:
        for i, layer in enumerate(rec.layers):
            expected = tuple(h for h in range(num_h) if rec.gap_hat[h] <= eps(i))
            differing = set(layer) ^ set(expected)
            # DERIVATIONS["layer"]: a float candidate may decide on its unrounded Delta^ -- but a
            # reported Delta^ exactly eps_i is in V^i for every arithmetic (line 12's <=)
            members = set(layer)
            if any(not layer_decision_accepted(J, rec.gap_hat[h], eps(i), h in members) for h in differing):
                found.append(
                    Violation.of(
                        name,
                        "V^i_{l+1} is not {h : Delta^^l_h <= eps_i} (line 12)",
                        **where,
                        i=i,
                        got=layer,
                        expected=expected,
                    )
                )
            if i and not set(layer) <= set(rec.layers[i - 1]):
                found.append(
                    Violation.of(
                        name, "the layers are not nested (line 12)", **where, i=i, inner=layer, outer=rec.layers[i - 1]
                    )
                )
        # line 13, with k from the record's layers
        member = [[h in set(layer) for layer in rec.layers] for h in range(num_h)]
        next_q, attained = [], []  # q_{l+1}^x and the (rho^, k) of the pair that attains it
        for x in range(len(H[0])):
            best, by, by_value = J.value(0), (Fraction(0), 0), Fraction(-1)
            for h, h2 in _pairs(num_h):
                if H[h][x] != H[h2][x]:
                    common = [i for i in range(l + 1) if member[h][i] and member[h2][i]]
                    if not common:
                        found.append(
                            Violation.of(name, "a pair lies in no common layer (k undefined)", **where, pair=(h, h2))
                        )
                        return found
                    best = J.maximum(best, next_query_probability(J, rec.rho[h][h2], max(common), l))
                    value = Fraction(rec.rho[h][h2]) * Fraction(4 ** max(common), 4 ** (l + 1))
                    if value > by_value:
                        by, by_value = (rec.rho[h][h2], max(common)), value
            next_q.append(best)
            attained.append(by)
        bad = [x for x in range(len(next_q)) if J.off(rec.next_q[x], next_q[x])]
        if bad:
            found.append(
                Violation.of(
                    name,
                    "q_{l+1} differs from line 13 (R10)",
                    **where,
                    points=bad,
                    got=_s(rec.next_q[x] for x in bad),
                    expected=[next_q[x].shown() for x in bad],
                    **J.describe(rec.next_q[bad[0]], next_q[bad[0]], "next_q"),
                ).with_terms(next_q_terms(l, *attained[bad[0]], rec.next_q[bad[0]]))
            )
    return found


def _symmetry_violations(name, H, rec) -> list[Violation]:
    found = []
    for h, h2 in _pairs(len(H)):
        for field in ("rho", "min_q", "alpha", "weight"):
            matrix = getattr(rec, field)
            if matrix[h][h2] != matrix[h2][h]:
                found.append(
                    Violation.of(
                        name,
                        f"{field} is not symmetric",
                        l=rec.l,
                        pair=(h, h2),
                        forward=matrix[h][h2],
                        backward=matrix[h2][h],
                    )
                )
    for h in range(len(H)):
        if rec.rho[h][h] != 0:
            found.append(Violation.of(name, "rho^(h,h) must be 0", l=rec.l, h=h, rho=rec.rho[h][h]))
    return found


# -- line 8: Catoni's estimates ---------------------------------------------------------------
def _loss_differences(H, h, h2, q, queried, length):
    """The values l^_t(h) - l^_t(h') over the epoch, grouped: a queried round at x in
    Dis(h,h') with q^x > 0 gives (1{h(x) != y} - 1{h'(x) != y}) / q^x; every other round 0
    (line 5, R11)."""
    grouped: dict[Fraction, int] = {}
    nonzero = 0
    for x in range(len(q)):
        if H[h][x] == H[h2][x] or q[x] == 0:
            continue
        for y in (0, 1):
            if queried[x][y]:
                v = Fraction(int(H[h][x] != y) - int(H[h2][x] != y)) / q[x]
                grouped[v] = grouped.get(v, 0) + queried[x][y]
                nonzero += queried[x][y]
    if length > nonzero:
        grouped[Fraction(0)] = grouped.get(Fraction(0), 0) + length - nonzero
    values = sorted(grouped)
    return values, [grouped[v] for v in values]


def _branch_queries(H, h, h2, q, queried, undecided, sign: int):
    """The queried counts of the branch of undecided coins that moves pair (h, h')'s
    samples furthest in direction `sign`: an undecided round is taken as queried exactly
    where its sample (1{h(x) != y} - 1{h'(x) != y}) / q has that sign. Catoni's root is
    increasing in every sample, so the roots of sign -1 and +1 bound the root of every
    branch a float candidate may have taken (DERIVATIONS["coin"])."""
    if undecided is None:
        return queried
    result = []
    for x, (pair, extra) in enumerate(zip(queried, undecided)):
        row = []
        for y in (0, 1):
            moves = (int(H[h][x] != y) - int(H[h2][x] != y)) * sign > 0
            row.append(pair[y] + (extra[y] if moves else 0))
        result.append(tuple(row))
    return tuple(result)


def _alpha_breakdown(params, rec, h, h2, alpha) -> list[dict]:
    """Catoni's alpha term by term from the record's min q and rho^ (properties/core/terms.py)."""
    return alpha_terms(params.beta3.enclosure(128), rec.length, rec.min_q[h][h2], rec.rho[h][h2], alpha)


def _float_catoni_violations(
    name, J: Judgement, H, params, rec, queried, undecided, h, h2, alpha, W, W_back, where
) -> list[Violation]:
    """Line 8 for a float candidate: alpha within its derived bound, W^{h',h} = -W^{h,h'}
    within twice the root's bound, and the root of each direction within the bound
    DERIVATIONS["W"] of the exact root of the recomputed samples (with the candidate's
    alpha), decided by exact signs of f: f(W - B) >= 0 >= f(W + B)."""
    found = []
    try:
        expected = catoni_alpha_bounded(J, params, rec.length, rec.min_q[h][h2], rec.rho[h][h2])
    except ValueError as error:  # a negative min q or rho^: no alpha of the paper
        return [
            Violation.of(
                name,
                f"alpha's inputs are out of range: {error}",
                **where,
                min_q=rec.min_q[h][h2],
                rho=rec.rho[h][h2],
                alpha=alpha,
            )
        ]
    if J.off(alpha, expected):
        found.append(
            Violation.of(
                name,
                "alpha differs from sqrt(2 beta3 min q / (5 |I_l| rho^))",
                **where,
                **J.describe(alpha, expected, "alpha"),
            ).with_terms(_alpha_breakdown(params, rec, h, h2, alpha))
        )
    for a, b, got in ((h, h2, W), (h2, h, W_back)):
        low = _loss_differences(H, a, b, rec.q, _branch_queries(H, a, b, rec.q, queried, undecided, -1), rec.length)
        high = _loss_differences(H, a, b, rec.q, _branch_queries(H, a, b, rec.q, queried, undecided, 1), rec.length)
        bound = J.catoni_bound(low[0] + high[0], alpha, rec.length)  # psi summed over I_l's rounds
        mid = (got.lo + got.hi) / 2
        sign_low, how = catoni_sign(*low, alpha, mid + bound)
        sign_high, _ = catoni_sign(*high, alpha, mid - bound)
        if sign_low > 0 or sign_high < 0:
            found.append(
                Violation.of(
                    name,
                    "W is not within the float bound of the Catoni root of the recomputed samples "
                    "(need f(W - B) >= 0 >= f(W + B))",
                    l=rec.l,
                    pair=(a, b),
                    W=mid,
                    bound=bound,
                    alpha=alpha,
                    sign_f_W_minus_B=sign_high,
                    sign_f_W_plus_B=sign_low,
                    samples=dict(zip(_s(low[0]), low[1])),
                    derivation=J.describe(mid, Bounded(mid, mid, bound), "W")["derivation"],
                    decided=how,
                )
            )
    # mirrored: root(-X) = -root(X), so the two answers are within twice the bound of each
    # other -- when the candidate took one branch of the undecided coins for both, which
    # the trace does not say: with undecided coins each direction is held above alone
    if not (undecided and any(a + b for a, b in undecided)):
        samples = _loss_differences(H, h, h2, rec.q, queried, rec.length)[0]
        if abs((W.lo + W.hi) / 2 + (W_back.lo + W_back.hi) / 2) > 2 * J.catoni_bound(samples, alpha, rec.length):
            found.append(
                Violation.of(
                    name,
                    "W^{h',h} is not -W^{h,h'} within twice the float bound",
                    **where,
                    W=(W.lo, W.hi),
                    W_back=(W_back.lo, W_back.hi),
                )
            )
    return found


def _alpha_violations(name, params, rec, mq, rho, alpha, where) -> list[Violation]:
    """Catoni's alpha = sqrt(2 beta3 min q / (5 |I_l| rho^)) (R10) as a rational: any within
    relative 2^-62 of it (the table's bound), either side (free choice `calruption.alpha_rounding`),
    decided by certified bounds; if the table pins the rounding, exactly catoni_alpha's."""
    bound = rounding_bound("calruption.alpha_rounding")
    if bound is None:
        documented = catoni_alpha(params.beta3, mq, rec.length, rho)
        if alpha != documented:
            return [
                Violation.of(
                    name,
                    "alpha differs from catoni_alpha(beta3, min q, |I_l|, rho^)",
                    **where,
                    got=alpha,
                    expected=documented,
                ).with_terms(alpha_terms(params.beta3.enclosure(128), rec.length, mq, rho, alpha))
            ]
        return []
    found = []
    ratio = 2 * mq / (5 * rec.length * rho)
    if _compare_with_constant((alpha / (1 + bound)) ** 2, ratio, params.beta3) == 1:
        found.append(
            Violation.of(
                name, f"alpha above (1 + {bound}) sqrt(2 beta3 min q / (5 |I_l| rho^))", **where, alpha=alpha
            ).with_terms(alpha_terms(params.beta3.enclosure(128), rec.length, mq, rho, alpha))
        )
    if _compare_with_constant((alpha / (1 - bound)) ** 2, ratio, params.beta3) == -1:
        found.append(
            Violation.of(
                name, f"alpha below (1 - {bound}) sqrt(2 beta3 min q / (5 |I_l| rho^))", **where, alpha=alpha
            ).with_terms(alpha_terms(params.beta3.enclosure(128), rec.length, mq, rho, alpha))
        )
    return found


def _catoni_violations(name, H, params, rec, queried, undecided=None) -> list[Violation]:
    """Line 8 with Catoni's estimator: for every pair with rho^ > 0 and min q > 0 (R11),
    W encloses the root of f(z) = sum psi(alpha (X_t - z)) of the recomputed samples
    (f(lo) >= 0 >= f(hi), decided exactly), W^{h',h} = -W^{h,h'} (their enclosures
    intersect after negation), width <= 2^-64 (R12), and alpha = sqrt(2 beta3 min q /
    (5 |I_l| rho^)) within relative 2^-62 (`_alpha_violations`).
    Pairs with rho^ = 0 have no alpha and W (if given) contains 0; pairs with min q = 0
    have neither W nor alpha. A float candidate: `_float_catoni_violations`."""
    J = current()
    found = []
    for h, h2 in _pairs(len(H)):
        where = {"l": rec.l, "pair": (h, h2)}
        rho, mq, alpha, W, W_back = rec.rho[h][h2], rec.min_q[h][h2], rec.alpha[h][h2], rec.W[h][h2], rec.W[h2][h]
        if rho == 0 or mq is None or mq == 0:
            if alpha is not None:
                found.append(
                    Violation.of(
                        name,
                        "alpha given for a pair with rho^ = 0 or min q = 0 (R11)",
                        **where,
                        rho=rho,
                        min_q=mq,
                        alpha=alpha,
                    )
                )
            if rho == 0:
                for got in (W, W_back):
                    if got is not None and 0 not in got:
                        found.append(
                            Violation.of(
                                name,
                                "W of a pair with rho^ = 0 must be 0 (all samples are 0)",
                                **where,
                                W=(got.lo, got.hi),
                            )
                        )
            elif W is not None or W_back is not None:
                found.append(Violation.of(name, "W computed for a pair with min q = 0 (R11)", **where, min_q=mq))
            continue
        if alpha is None or W is None or W_back is None:
            found.append(
                Violation.of(
                    name,
                    "alpha or W missing for a pair with rho^ > 0 and min q > 0",
                    **where,
                    rho=rho,
                    min_q=mq,
                    alpha=alpha,
                    W=W,
                    W_back=W_back,
                )
            )
            continue
        # alpha
        if alpha <= 0:
            found.append(Violation.of(name, "alpha must be > 0", **where, alpha=alpha))
            continue
        if not J.exact:
            found += _float_catoni_violations(
                name, J, H, params, rec, queried, undecided, h, h2, alpha, W, W_back, where
            )
            continue
        found += _alpha_violations(name, params, rec, mq, rho, alpha, where)
        # mirrored enclosures
        if max(W.lo, -W_back.hi) > min(W.hi, -W_back.lo):
            found.append(
                Violation.of(
                    name,
                    "W^{h',h} is not -W^{h,h'}: the enclosures are disjoint after negation",
                    **where,
                    W=(W.lo, W.hi),
                    W_back=(W_back.lo, W_back.hi),
                )
            )
        for got in (W, W_back):
            if got.width > MAX_W_WIDTH:
                found.append(Violation.of(name, "W's enclosure is wider than 2^-64 (R12)", **where, W=(got.lo, got.hi)))
        # the root
        values, counts = _loss_differences(H, h, h2, rec.q, queried, rec.length)
        for a, b, got in ((h, h2, W), (h2, h, W_back)):
            vals = values if a == h else [-v for v in reversed(values)]
            cnts = counts if a == h else list(reversed(counts))
            sign_lo, how = catoni_sign(vals, cnts, alpha, got.lo)
            sign_hi, _ = catoni_sign(vals, cnts, alpha, got.hi)
            if sign_lo < 0 or sign_hi > 0:
                found.append(
                    Violation.of(
                        name,
                        "W does not enclose the Catoni root of the recomputed samples (need f(lo) >= 0 >= f(hi))",
                        l=rec.l,
                        pair=(a, b),
                        W=(got.lo, got.hi),
                        sign_f_lo=sign_lo,
                        sign_f_hi=sign_hi,
                        alpha=alpha,
                        samples=dict(zip(_s(vals), cnts)),
                        decided=how,
                    ).with_terms(_root_breakdown(vals, cnts, alpha, got))
                )
    return found


def _root_breakdown(values, counts, alpha, got) -> list[dict]:
    """W against the exact Catoni root of the recomputed samples (properties/core/terms.py)."""
    try:
        root = catoni_root(values, counts, alpha)
    except ValueError:  # samples or alpha outside the estimator's domain: no root to show
        root = None
    return catoni_terms(alpha, values, counts, got, root)
