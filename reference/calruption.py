"""CALruption (Algorithm 2): soft elimination through query probabilities.

The stream enters only through per-epoch counts (how often each point was seen and,
among queried rounds, with which label), so one epoch's update is a pure function
`calruption_epoch(hypotheses, state, counts, params) -> (record, next state)` and
`calruption` is the loop that cuts the tape into epochs around it.

Readings of the pseudo-code (FINDINGS.md R8-R14 give the reasons):
* epoch l has |I_l| = ceil(N_l) rounds, N_l = beta1 4^l (eps_l = 2^-l); averages over the
  epoch (rho^_l, the empirical x-distribution) divide by |I_l|;
* in line 13, beta1 / N_{l+1} = eps_{l+1}^2 exactly (the definition of N_l), so
  q_{l+1}^x = max_{(h,h') in Z(x)} rho^_l(h,h') 4^(k - l - 1): rational, <= 1/4;
  q is 0 where no pair of H disagrees (nothing to learn there);
* Q_t = 1 iff u_t < q_l^{x_t}; l^_t(h) = 1{h(x_t) != y_t} Q_t / q_l^{x_t}, read as 0 when
  Q_t = 0 (also when q = 0, where the paper's formula is 0/0 * 0);
* min_{x in Dis(h,h')} q_l^x runs over the epoch's support S_l (the remark after
  Algorithm 2: D^ lives on S_l, and only x in S_l enter the estimator's variance);
* a pair with rho^_l = 0 agrees on all of S_l: its risk difference under any D^ on S_l is
  0 and so is its Catoni estimate; it gives no row of the LP (its weight would be 0/0).
  A pair with min q = 0 has weight 0: condition (1) says nothing about it and it gives
  no row either; its W is not computed;
* W^{h',h} = -W^{h,h'} exactly (psi is odd), so each unordered pair is estimated once;
* the LP of line 9 uses rational stand-ins for the irrational W (the midpoint of its
  enclosure, width <= 2^-64) and weights sqrt(min q / rho^) (a lower bound within
  relative 2^-64): D^ is exactly optimal for those, see `fit_distribution`;
* with no row at all every D^ is optimal; we take eta^ = 1/2 on S_l;
* ties in lines 10 and the output go to the lowest index; the output is h^*_{L} of the
  last completed epoch L (it lies in V_{L+1}^L, whose members all have
  Delta^ <= eps_L), and hypothesis 0 if no epoch completed (V_1^0 = H).

Cost. The functions below state each line pointwise (`loss_difference_samples`,
`fit_distribution`, ...); `calruption_epoch` computes the same values at scale: the per-pair
sums of lines 7-8 as integer matrix products over the points grouped by q
(reference/pair_counts.py), each distinct Catoni problem once (pairs with equal data and
alpha have equal roots), line 9's LP whole up to FULL_LP_MAX_ROWS rows and by certified
row generation above (reference/fit_rows.py), and line 13 as one sweep over the pairs by
decreasing value. bench/calruption_scaling.py measures it per epoch.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .catoni import catoni_alpha, catoni_root
from .certified import Enclosure, certified_ceil, sqrt_lower
from .empirical import check_run_inputs
from .exact import as_fraction, as_int, as_probability, common_denominator
from .fit_rows import fit_by_row_generation
from .instance import validate_hypotheses
from .lp import solve_lp
from .pair_counts import pair_counts
from .trace import CALruptionEpoch, CALruptionTrace

# Line 9's LP is solved whole up to this many rows, by row generation above (both certify an
# exactly optimal D^; where the optimum is not unique they may pick different ones). Small
# LPs keep the whole-LP path, whose choices the fixed cross-check cases were recorded with.
FULL_LP_MAX_ROWS = 512


@dataclass(frozen=True)
class EpochState:
    """What epoch l needs from the past: tau_l, |I_l|, q_l and Delta^^{l-1}."""

    l: int
    tau: int
    length: int
    q: tuple[Fraction, ...]
    gap_hat: tuple[Fraction, ...]


@dataclass(frozen=True)
class EpochCounts:
    """The epoch's stream, aggregated: seen[x] rounds with x_t = x; queried[x][y] rounds
    with x_t = x, Q_t = 1 and y_t = y."""

    seen: tuple[int, ...]
    queried: tuple[tuple[int, int], ...]


def epsilon(i: int) -> Fraction:
    return Fraction(1, 2**i)


def epoch_length(params, l: int) -> int:
    """|I_l| = ceil(N_l), N_l = beta1 * eps_l^-2 (Algorithm 2, line 1)."""
    return certified_ceil(params.beta1, 4**l)


def initial_state(num_points: int, num_hypotheses: int, params) -> EpochState:
    """Line 1: tau_1 = 1, q_1 = 1, Delta^^0 = 0 (V_1^0 = all of H)."""
    return EpochState(
        l=1,
        tau=1,
        length=epoch_length(params, 1),
        q=(Fraction(1),) * num_points,
        gap_hat=(Fraction(0),) * num_hypotheses,
    )


def loss_difference_samples(H, h, h2, q, counts: EpochCounts, length: int):
    """The values of l^_t(h) - l^_t(h') over the epoch, grouped: (values, counts).

    A queried round at x in Dis(h,h') contributes +-1/q^x (sign: which of h, h' errs);
    every other round contributes 0."""
    grouped: dict[Fraction, int] = {}
    nonzero = 0
    for x, (a, b) in enumerate(zip(H[h], H[h2])):
        if a == b or q[x] == 0:
            continue
        for y in (0, 1):
            c = counts.queried[x][y]
            if c:
                value = Fraction(int(a != y) - int(b != y)) / q[x]
                grouped[value] = grouped.get(value, 0) + c
                nonzero += c
    if length > nonzero:
        grouped[Fraction(0)] = grouped.get(Fraction(0), 0) + length - nonzero
    values = sorted(grouped)
    return tuple(values), tuple(grouped[v] for v in values)


def lp_row(H, support, p_hat, h: int, h2: int, w: Fraction, W: Fraction):
    """The row w (R_D(h) - R_D(h') - W) <= s of line 9 in the variables (eta^ on S_l, s), as
    (coefficients, rhs): R_D(h) - R_D(h') = sum_{x in S, h(x) != h'(x)} p^_x sgn_x (1 - 2 eta^_x),
    sgn_x = +1 if h(x) = 1."""
    coefficients = [Fraction(0)] * len(support) + [Fraction(-1)]
    constant = Fraction(0)
    for j, x in enumerate(support):
        if H[h][x] != H[h2][x]:
            sgn = 1 if H[h][x] == 1 else -1
            coefficients[j] = -2 * w * p_hat[x] * sgn
            constant += w * p_hat[x] * sgn
    return coefficients, w * W - constant


def fit_distribution(H, support, p_hat, rows):
    """Line 9 as an LP over eta^_x (x in S_l) and s: minimise s subject to, for each
    ordered pair with weight w and estimate W,
        w * (R_D(h) - R_D(h') - W) <= s,   0 <= eta^_x <= 1,
    where R_D(h) - R_D(h') = sum_{x in S, h(x) != h'(x)} p^_x sgn_x (1 - 2 eta^_x), sgn_x = +1 if
    h(x) = 1. Returns (eta^ by support position, objective, method).

    The whole LP at once: the definition. `calruption_epoch` solves the same LP by row
    generation (reference/fit_rows.py), which certifies the same optimal value."""
    k = len(support)
    if not rows:
        return (Fraction(1, 2),) * k, Fraction(0), "no-rows"
    c = [Fraction(0)] * k + [Fraction(1)]
    A, b = [], []
    for h, h2, w, W in rows:
        coefficients, rhs = lp_row(H, support, p_hat, h, h2, w, W)
        A.append(coefficients)
        b.append(rhs)
    solution = solve_lp(c, A, b, [Fraction(0)] * k + [None], [Fraction(1)] * k + [None])
    return tuple(solution.x[:k]), solution.objective, solution.method


def lp_value(H, support, p_hat, rows, eta_hat) -> Fraction:
    """The objective of line 9 at a given D^ (eta_hat indexed by point, None off S_l):
    max over rows of w (R_D(h) - R_D(h') - W), 0 without rows (s >= 0 is implied by
    the pair of rows each unordered pair gives). R_D(h) - R_D(h') is the sum over
    Dis(h, h') of `fit_distribution`: points where h and h' agree cancel in the difference
    of the risks, which are computed once per hypothesis."""
    risk = risks_under(H, support, p_hat, eta_hat)
    return max([Fraction(0)] + [w * (risk[h] - risk[h2] - W) for h, h2, w, W in rows])


def lp_rows(record) -> list:
    """The rows (h, h', w, W) of line 9's LP as `calruption_epoch` built them, read back
    from its record: one pair of rows per unordered pair with a weight, W the midpoint of
    the enclosure."""
    rows = []
    num_h = len(record.weight)
    for h in range(num_h):
        for h2 in range(h + 1, num_h):
            w = record.weight[h][h2]
            if w is not None:
                mid = (record.W[h][h2].lo + record.W[h][h2].hi) / 2
                rows.append((h, h2, w, mid))
                rows.append((h2, h, w, -mid))
    return sorted(rows)


def risks_under(H, support, p_hat, eta_hat) -> tuple[Fraction, ...]:
    """R_D^(h) = sum_{x in S_l} p^_x P_D^(y != h(x) | x).

    Summed on one common denominator: an optimal vertex of line 9 has coordinates with
    denominators of thousands of bits, and a Fraction sum would reduce every partial sum."""
    k = len(support)
    numerators, d = common_denominator(
        [p_hat[x] * (1 - eta_hat[x]) for x in support] + [p_hat[x] * eta_hat[x] for x in support]
    )
    on_one, on_zero = numerators[:k], numerators[k:]
    return tuple(
        Fraction(sum(a if labels[x] == 1 else b for x, a, b in zip(support, on_one, on_zero)), d) for labels in H
    )


def penalised_risks(risk_hat, gap_prev, beta2) -> list[Fraction]:
    """Line 10's objective R_D^(h) + beta2 Delta^^{l-1}_h; h^*_l is its argmin, ties -> lowest index."""
    return [r + beta2 * g for r, g in zip(risk_hat, gap_prev)]


def gap_estimates(risk_hat, best_penalised, l: int) -> tuple[Fraction, ...]:
    """Line 11: Delta^^l_h = max(eps_l, R_D^(h) - R_D^(h^*_l) - beta2 Delta^^{l-1}_{h^*_l})."""
    return tuple(max(epsilon(l), r - best_penalised) for r in risk_hat)


def layers_of(gap_hat, l: int):
    """Line 12: V_{l+1}^i = {h : Delta^^l_h <= eps_i}, i = 0..l (nested), and each h's
    level, the largest such i."""
    num_h = len(gap_hat)
    layers = tuple(tuple(h for h in range(num_h) if gap_hat[h] <= epsilon(i)) for i in range(l + 1))
    level = [max(i for i in range(l + 1) if gap_hat[h] <= epsilon(i)) for h in range(num_h)]
    return layers, level


def next_query_probabilities(H, rho, level, l: int) -> tuple[Fraction, ...]:
    """Line 13: q_{l+1}^x = max_{(h,h') in Z(x)} rho^_l(h,h') 4^(k - (l+1)), k = min of the
    pair's levels; 0 where no pair disagrees.

    The max over Z(x) for every x at once: take the pairs by decreasing value; each point
    gets the value of the first pair that disagrees there. Pairs with rho^ = 0 have
    value 0, the value of a point no pair reaches."""
    num_h, m = len(H), len(H[0])
    masks = [sum(1 << x for x, v in enumerate(labels) if v == 1) for labels in H]
    positive = [(h, h2) for h in range(num_h) for h2 in range(h + 1, num_h) if rho[h][h2] > 0]
    numerators, common = common_denominator(rho[h][h2] for h, h2 in positive)
    # integer keys rho^ 4^k common, k the pair's lower level
    pairs = sorted(
        ((r << 2 * min(level[h], level[h2]), h, h2) for r, (h, h2) in zip(numerators, positive)),
        key=lambda p: p[0],
        reverse=True,
    )
    next_q = [Fraction(0)] * m
    unassigned = (1 << m) - 1
    for key, h, h2 in pairs:
        disagree = masks[h] ^ masks[h2]
        new = disagree & unassigned
        if not new:
            continue
        value = Fraction(key, common * 4 ** (l + 1))
        unassigned &= ~disagree
        while new:
            low = new & -new
            next_q[low.bit_length() - 1] = value
            new ^= low
        if not unassigned:
            break
    return tuple(next_q)


def check_epoch_inputs(H, state: EpochState, counts: EpochCounts, params) -> None:
    """What an epoch update may assume; a ValueError naming the field otherwise."""
    m, num_h = len(H[0]), len(H)
    l = as_int(state.l, "state.l", minimum=1)
    if state.length != epoch_length(params, l):
        raise ValueError(
            f"state.length is {state.length}, but epoch {l} has ceil(beta1 4^l) = {epoch_length(params, l)} rounds"
        )
    as_int(state.tau, "state.tau", minimum=1)
    if len(state.q) != m:
        raise ValueError(f"state.q has {len(state.q)} entries, expected {m}")
    for x, q in enumerate(state.q):
        as_probability(q, f"state.q[{x}]")
    if len(state.gap_hat) != num_h:
        raise ValueError(f"state.gap_hat has {len(state.gap_hat)} entries, expected {num_h}")
    for h, g in enumerate(state.gap_hat):
        if as_fraction(g, f"state.gap_hat[{h}]") < 0:
            raise ValueError(f"state.gap_hat[{h}] must be >= 0, got {g}")
    if len(counts.seen) != m or len(counts.queried) != m:
        raise ValueError(
            f"counts.seen and counts.queried must have {m} entries, got {len(counts.seen)} and {len(counts.queried)}"
        )
    for x, (s, pair) in enumerate(zip(counts.seen, counts.queried)):
        as_int(s, f"counts.seen[{x}]", minimum=0)
        if len(pair) != 2:
            raise ValueError(f"counts.queried[{x}] must be a pair (label 0, label 1), got {pair!r}")
        a, b = (as_int(v, f"counts.queried[{x}][{y}]", minimum=0) for y, v in enumerate(pair))
        if a + b > s:
            raise ValueError(f"counts.queried[{x}] = {pair!r} exceeds counts.seen[{x}] = {s}")
        if state.q[x] == 0 and a + b:
            raise ValueError(f"counts.queried[{x}] = {pair!r} but state.q[{x}] = 0: nothing can be queried there")
    if sum(counts.seen) != state.length:
        raise ValueError(
            f"counts.seen sums to {sum(counts.seen)}, but the epoch has state.length = {state.length} rounds"
        )


def calruption_epoch(H, state: EpochState, counts: EpochCounts, params):
    """Lines 7-14 at the end of epoch l = state.l. Returns (CALruptionEpoch, next state).

    Per-pair sums come from integer matrix products (reference/pair_counts.py), line 9's LP
    is solved by row generation (reference/fit_rows.py); both compute exactly what the
    definitions above (`loss_difference_samples`, `fit_distribution`) say."""
    H = validate_hypotheses(H)
    check_epoch_inputs(H, state, counts, params)
    l, length, q = state.l, state.length, state.q
    m, num_h = len(H[0]), len(H)
    support = tuple(x for x in range(m) if counts.seen[x] > 0)
    p_hat = tuple(Fraction(s, length) for s in counts.seen)
    stats = pair_counts(H, q, counts.seen, counts.queried, length)

    # line 7: rho^_l(h, h')
    rho = tuple(tuple(Fraction(c, length) for c in row) for row in stats.rho_counts)
    # line 8: W_l^{h,h'} by Catoni's estimator; min q over Dis(h,h') on S_l; LP weights
    min_q = [[None] * num_h for _ in range(num_h)]
    alpha = [[None] * num_h for _ in range(num_h)]
    W = [[None] * num_h for _ in range(num_h)]
    weight = [[None] * num_h for _ in range(num_h)]
    rows = []
    roots: dict[tuple, Enclosure] = {}  # equal data and alpha, equal root (duplicated hypotheses, symmetric pairs)
    for h in range(num_h):
        for h2 in range(h + 1, num_h):
            r = rho[h][h2]
            if r == 0:
                W[h][h2] = W[h2][h] = Enclosure.point(0)
                continue
            mq = stats.min_q(h, h2)
            min_q[h][h2] = min_q[h2][h] = mq
            if mq == 0:
                continue
            a = catoni_alpha(params.beta3, mq, length, r)
            alpha[h][h2] = alpha[h2][h] = a
            values, multiplicities = stats.loss_differences(h, h2, length)
            key = (a, values, multiplicities)
            if key not in roots:
                roots[key] = catoni_root(values, multiplicities, a)
            enclosure = roots[key]
            W[h][h2] = enclosure
            W[h2][h] = Enclosure(-enclosure.hi, -enclosure.lo)
            w = sqrt_lower(mq / r)
            weight[h][h2] = weight[h2][h] = w
            mid = (enclosure.lo + enclosure.hi) / 2
            rows.append((h, h2, w, mid))
            rows.append((h2, h, w, -mid))
    rows.sort()
    # line 9: D^_l on the support
    if len(rows) <= FULL_LP_MAX_ROWS:
        eta_on_support, objective, method = fit_distribution(H, support, p_hat, rows)
    else:
        eta_on_support, objective, method = fit_by_row_generation(H, support, counts.seen, length, rows)
    eta_hat = [None] * m
    for x, e in zip(support, eta_on_support):
        eta_hat[x] = e
    risk_hat = risks_under(H, support, p_hat, eta_hat)
    penalised = penalised_risks(risk_hat, state.gap_hat, params.beta2)  # line 10
    h_star = penalised.index(min(penalised))
    gap_hat = gap_estimates(risk_hat, penalised[h_star], l)  # line 11
    layers, level = layers_of(gap_hat, l)  # line 12
    next_q = next_query_probabilities(H, rho, level, l)  # line 13
    record = CALruptionEpoch(
        l=l,
        tau=state.tau,
        length=length,
        N=params.beta1.enclosure().scale(Fraction(4**l)),
        q=q,
        support=support,
        empirical_x=p_hat,
        rho=rho,
        min_q=tuple(map(tuple, min_q)),
        alpha=tuple(map(tuple, alpha)),
        W=tuple(map(tuple, W)),
        weight=tuple(map(tuple, weight)),
        eta_hat=tuple(eta_hat),
        lp_objective=objective,
        lp_method=method,
        risk_hat=risk_hat,
        h_star_hat=h_star,
        gap_hat=gap_hat,
        layers=layers,
        next_q=next_q,
        labels_requested=sum(a + b for a, b in counts.queried),
    )
    # line 14
    next_state = EpochState(
        l=l + 1, tau=state.tau + length, length=epoch_length(params, l + 1), q=next_q, gap_hat=gap_hat
    )
    return record, next_state


def calruption(hypotheses, tape, params) -> CALruptionTrace:
    H = check_run_inputs(hypotheses, tape, params)
    m = len(H[0])
    state = initial_state(m, len(H), params)
    records = []
    seen, queried = [0] * m, [[0, 0] for _ in range(m)]
    labels = 0
    epoch_end = state.tau + state.length - 1
    for t, (x, y, u) in enumerate(zip(tape.x, tape.y, tape.u), start=1):
        seen[x] += 1
        if u < state.q[x]:  # line 4: Q_t ~ Ber(q_l^x) through the tape's coin
            queried[x][y] += 1
            labels += 1
        if t == epoch_end:  # line 6
            counts = EpochCounts(tuple(seen), tuple(map(tuple, queried)))
            record, state = calruption_epoch(H, state, counts, params)
            records.append(record)
            seen, queried = [0] * m, [[0, 0] for _ in range(m)]
            epoch_end = state.tau + state.length - 1
    return CALruptionTrace(
        algorithm="calruption",
        params=params,
        n=tape.n,
        epochs=tuple(records),
        final_epoch=state.l,
        unfinished_rounds=tape.n - state.tau + 1,
        labels_requested=labels,
        output=records[-1].h_star_hat if records else 0,
    )
