"""One-epoch states of CALruption (Algorithm 2, one epoch l from a given state): the
examples of properties/checks/calruption.py and properties/checks/calruption_events.py."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt

from hypothesis import strategies as st

from properties.core.epochs import eps, g_value, rho_matrix
from properties.core.example_types import tagged
from properties.strategies.instances import (
    BETA1_CHOICES,
    DELTA_CHOICES,
    FULL_RUN_BETA1_CHOICES,
    MAX_POINTS,
    calruption_params,
    hypothesis_classes,
    instances,
    probabilities,
    rational_epoch_length,
)
from reference import Instance, Params
from reference.calruption import EpochCounts, EpochState
from reference.certified import certified_ceil
from reference.serialization import from_jsonable, to_jsonable

# -- one-epoch states ---------------------------------------------------------------------
MAX_EPOCH_INDEX = 4  # one-epoch states: l = 1..4


@tagged("cral-epoch-example/v1")
@dataclass(frozen=True)
class EpochExample:
    """One epoch's input: H, the state at the start of epoch l, the epoch's counts, params."""

    hypotheses: tuple[tuple[int, ...], ...]
    state: EpochState
    counts: EpochCounts
    params: Params

    def to_json(self) -> dict:
        return {
            "hypotheses": [list(h) for h in self.hypotheses],
            "state": to_jsonable(self.state),
            "counts": to_jsonable(self.counts),
            "params": to_jsonable(self.params),
        }

    @classmethod
    def from_json(cls, data) -> EpochExample:
        return cls(
            tuple(tuple(h) for h in data["hypotheses"]),
            from_jsonable(EpochState, data["state"], "state"),
            from_jsonable(EpochCounts, data["counts"], "counts"),
            from_jsonable(Params, data["params"], "params"),
        )

    def reproducer(self) -> str:
        """A line of Python that rebuilds this example."""
        return f"properties.strategies.EpochExample.from_json(json.loads({json.dumps(json.dumps(self.to_json()))}))"

    def __repr__(self) -> str:
        return f"EpochExample.from_json({json.dumps(self.to_json())})"


@st.composite
def epoch_examples(draw, max_points: int = MAX_POINTS, max_l: int = MAX_EPOCH_INDEX):
    """A valid state at the start of epoch l in 1..max_l and that epoch's counts:
    q = 1 and Delta^^0 = 0 at l = 1; for l >= 2, q^x in {0} U {j / 4^l : 1 <= j <= 4^(l-1)}
    (so q <= 1/4, FINDINGS R10) and Delta^^(l-1)_h in [eps_{l-1}, 1] (line 11 gives
    eps_{l-1} <= Delta^ <= 1); tau_l and |I_l| = beta1 4^l from the schedule; sum(seen) =
    |I_l|; queried[x][0] + queried[x][1] <= seen[x], = seen[x] where q^x = 1 (u_t < 1
    always) and 0 where q^x = 0. Points unseen in the epoch and q = 0 on seen points
    are both reached."""
    m = draw(st.integers(1, max_points), label="num_points")
    H = draw(hypothesis_classes(m), label="hypotheses")
    beta1 = draw(st.sampled_from(FULL_RUN_BETA1_CHOICES), label="beta1")
    l = draw(st.integers(1, max_l), label="l")
    tau = 1 + sum(rational_epoch_length(beta1, i) for i in range(1, l))
    length = rational_epoch_length(beta1, l)
    params = draw(calruption_params(tau + length - 1, len(H), beta1), label="params")
    if l == 1:
        q = (Fraction(1),) * m
        gap = (Fraction(0),) * len(H)
    else:
        top = 4 ** (l - 1)
        numerators = draw(
            st.lists(st.one_of(st.just(0), st.just(top), st.integers(1, top)), min_size=m, max_size=m),
            label="q_numerators",
        )
        q = tuple(Fraction(j, 4**l) for j in numerators)
        e_prev = eps(l - 1)
        steps = draw(st.lists(st.integers(0, 16), min_size=len(H), max_size=len(H)), label="gap_steps")
        gap = tuple(e_prev + (1 - e_prev) * Fraction(j, 16) for j in steps)
    weights = draw(st.lists(st.integers(0, 6), min_size=m, max_size=m), label="seen_weights")
    if sum(weights) == 0:
        weights[draw(st.integers(0, m - 1), label="seen_point")] = 1
    total = sum(weights)
    seen = [length * w // total for w in weights]
    seen[weights.index(max(weights))] += length - sum(seen)
    queried = []
    for x in range(m):
        if q[x] == 0 or seen[x] == 0:
            queried.append((0, 0))
            continue
        asked = seen[x] if q[x] == 1 else draw(st.integers(0, seen[x]), label="queried")
        zeros = draw(st.integers(0, asked), label="queried_label_0")
        queried.append((zeros, asked - zeros))
    state = EpochState(l, tau, length, q, gap)
    return EpochExample(H, state, EpochCounts(tuple(seen), tuple(queried)), params)


@tagged("cral-one-epoch-case/v1")
@dataclass(frozen=True)
class OneEpochCase:
    """One epoch l of Algorithm 2 generated directly: the state at its start (tau_l,
    |I_l|, q_l by line 13, Delta^^{l-1}), its counts, and what the harness knows about the
    past: the previous epoch's x-counts (rho^_{l-1}, l >= 2) and corruptions C_1..C_{l-1}.
    eta_t is constant on the epoch (`epoch_eta`)."""

    instance: Instance
    params: Params
    state: EpochState
    counts: EpochCounts
    prev_seen: tuple[int, ...]  # x-counts of epoch l-1 (empty for l = 1)
    past_corruption: tuple[Fraction, ...]  # C_s, s = 1..l-1
    epoch_eta: tuple[Fraction, ...]  # eta_t on I_l
    mode: str  # how the counts were drawn

    def to_json(self) -> dict:
        return {
            "instance": self.instance.to_json(),
            "params": to_jsonable(self.params),
            "state": to_jsonable(self.state),
            "counts": to_jsonable(self.counts),
            "prev_seen": list(self.prev_seen),
            "past_corruption": to_jsonable(self.past_corruption),
            "epoch_eta": to_jsonable(self.epoch_eta),
            "mode": self.mode,
        }

    @classmethod
    def from_json(cls, data) -> OneEpochCase:
        return cls(
            Instance.from_json(data["instance"]),
            from_jsonable(Params, data["params"], "params"),
            from_jsonable(EpochState, data["state"], "state"),
            from_jsonable(EpochCounts, data["counts"], "counts"),
            tuple(data["prev_seen"]),
            from_jsonable(tuple[Fraction, ...], data["past_corruption"], "past_corruption"),
            from_jsonable(tuple[Fraction, ...], data["epoch_eta"], "epoch_eta"),
            data["mode"],
        )

    def reproducer(self) -> str:
        return f"properties.strategies.OneEpochCase.from_json(json.loads({json.dumps(json.dumps(self.to_json()))}))"

    def __repr__(self) -> str:
        return f"OneEpochCase.from_json({json.dumps(self.to_json())})"


def _near(draw, label: str, trials: int, p: Fraction, spread: int) -> int:
    """An integer in [0, trials] near trials * p: floor(trials p) plus a drawn deviation of
    at most `spread` standard deviations (rounded up); exactly trials * p if p is 0 or 1."""
    if p <= 0:
        return 0
    if p >= 1:
        return trials
    mean = trials * p
    variance = mean * (1 - p)
    sd = isqrt(variance.numerator // variance.denominator) + 1
    deviation = draw(st.integers(-spread * sd, spread * sd), label=label)
    return min(trials, max(0, mean.numerator // mean.denominator + deviation))


def _composition(draw, label: str, total: int, nu, mode: str) -> tuple[int, ...]:
    """x-counts summing to `total`, zero where nu = 0. "typical": total * nu plus at most 3
    standard deviations per point; "population": total * nu rounded down (the most
    probable point gets the remainder), the population limit as far as integer counts
    allow; "wild": any drawn proportions (a tape of positive probability, however
    unlikely)."""
    m = len(nu)
    support = [x for x in range(m) if nu[x] > 0]
    top = max(support, key=lambda x: nu[x])
    if mode == "wild":
        weights = draw(
            st.lists(st.integers(0, 20), min_size=len(support), max_size=len(support)), label=f"{label}_weights"
        )
        if sum(weights) == 0:
            weights[0] = 1
        counts = [0] * m
        for x, w in zip(support, weights):
            counts[x] = total * w // sum(weights)
        heaviest = support[weights.index(max(weights))]
        counts[heaviest] += total - sum(counts)
        return tuple(counts)
    counts = [0] * m
    spread = 0 if mode == "population" else 3
    for x in support:
        if x != top:
            counts[x] = _near(draw, f"{label}_deviation", total, nu[x], spread)
    counts[top] = total - sum(counts)
    if counts[top] < 0:  # deviations overshot: fall back to the rounded expectation
        counts = [total * nu[x].numerator // nu[x].denominator if x != top else 0 for x in range(m)]
        counts[top] = total - sum(counts)
    return tuple(counts)


def _levels(gap_prev, l: int) -> list[int]:
    """k-level of each h at the start of epoch l: max{i in 0..l-1 : Delta^^{l-1}_h <= eps_i} (line 12)."""
    return [max((i for i in range(l) if g <= eps(i)), default=0) for g in gap_prev]


def line13_q(H, rho_prev, gap_prev, l: int) -> tuple[Fraction, ...]:
    """q_l^x = max_{(h,h') in Z(x)} rho^_{l-1}(h,h') 4^(k(h,h',l) - l) (line 13 with
    beta1/N_l = eps_l^2, FINDINGS R10); q_1 = 1."""
    m = len(H[0])
    if l == 1:
        return (Fraction(1),) * m
    level = _levels(gap_prev, l)
    q = []
    for x in range(m):
        best = Fraction(0)
        for h in range(len(H)):
            for h2 in range(h + 1, len(H)):
                if H[h][x] != H[h2][x]:
                    best = max(best, rho_prev[h][h2] * Fraction(4 ** min(level[h], level[h2]), 4**l))
        q.append(best)
    return tuple(q)


# the lemmas are inductions over epochs: generated one-epoch cases go this deep (at the
# paper's constants epoch 7 has ~10^10 rounds; drawn as counts, it costs what epoch 1 does)
MAX_ONE_EPOCH = 7


@st.composite
def one_epoch_cases(
    draw,
    regimes=("paper",),
    modes=("typical", "typical", "wild_seen", "wild_prev", "one_point_seen", "population"),
    first_epoch: int = 1,
):
    """A OneEpochCase satisfying the previous-epoch hypotheses of the lemmas "Upper bound of
    the estimated gap" and "Lower bound of the estimated gap" by construction:
      Delta_h <= 3/2 Delta^^{l-1}_h + 3/2 eps_{l-1} + 3 g_{l-1}  and
      Delta^^{l-1}_h <= 2 (Delta_h + eps_{l-1} + g_{l-1})
    (g_{l-1} from the drawn past corruptions), with eps_{l-1} <= Delta^^{l-1} <= 1 and
    Delta^^{l-1} = eps_{l-1} for one h (line 11: the previous h^*); q_l built from the
    previous epoch's rho^ and layers exactly as line 13 does. Regime "paper": the paper's
    constants (Params.paper, n a power of two large enough for epoch l, l in 1..MAX_ONE_EPOCH,
    epochs of ~10^5..10^10 rounds); regime "scaled": Params.scaled with beta1 in {1, 2, 4} and the
    paper's beta3. Counts: "typical" (x-counts within 3 sd of |I| nu, query and label
    counts within 3 sd of their means), "population" (every count at its expectation,
    rounded down: the population limit, N nu, in integers), "wild_seen" (this epoch's x-counts arbitrary),
    "one_point_seen" (every round of the epoch at one point of the support where H
    disagrees, if any), "wild_prev"
    (the previous epoch's x-counts arbitrary, so rho^_{l-1} may be far from rho^_l); all are
    tapes of positive probability. The epoch's eta_t is eta* (clean), a gamma-misspecification (gamma <= 1/4) or
    a burst (gamma = 1)."""
    instance = draw(instances(max_points=5), label="instance")
    H, m, num_h = instance.hypotheses, instance.num_points, instance.num_hypotheses
    regime = draw(st.sampled_from(regimes), label="regime")
    l = draw(st.integers(first_epoch, MAX_ONE_EPOCH), label="l")
    delta = draw(st.sampled_from(DELTA_CHOICES), label="delta")
    if regime == "paper":
        n = 2**20
        while True:
            params = Params.paper(n, num_h, delta)
            lengths = [certified_ceil(params.beta1, 4**s) for s in range(1, l + 1)]
            if sum(lengths) <= n:
                break
            n *= 2
    else:
        beta1 = draw(st.sampled_from(BETA1_CHOICES), label="beta1")
        lengths = [rational_epoch_length(beta1, s) for s in range(1, l + 1)]
        params = Params.scaled(sum(lengths), num_h, delta, Fraction(1, 4), beta1)
    tau, length = 1 + sum(lengths[:-1]), lengths[-1]
    mode = draw(st.sampled_from(modes), label="counts_mode")
    R_star = instance.best_risk
    gaps = [instance.gap(h) for h in range(num_h)]
    fractions = [
        Fraction(0),
        Fraction(0),
        Fraction(0),
        Fraction(1, 1000),
        Fraction(1, 32),
        Fraction(1, 16),
        Fraction(1, 4),
        Fraction(1),
    ]
    past = tuple(draw(st.sampled_from(fractions), label="past_corruption_rate") * lengths[s] for s in range(l - 1))
    # the epoch's eta_t (constant on I_l)
    kind = draw(st.sampled_from(["clean", "clean", "misspecification", "burst"]), label="epoch_adversary")
    if kind == "clean":
        epoch_eta = instance.eta
    else:
        gamma = (
            Fraction(1) if kind == "burst" else draw(st.fractions(0, Fraction(1, 4), max_denominator=32), label="gamma")
        )
        target = draw(st.lists(st.one_of(st.none(), probabilities()), min_size=m, max_size=m), label="target")
        epoch_eta = tuple(e if t is None else (1 - gamma) * e + gamma * t for e, t in zip(instance.eta, target))
    # the previous epoch: Delta^^{l-1}, rho^_{l-1}
    if l == 1:
        gap_prev = (Fraction(0),) * num_h
        prev_seen: tuple[int, ...] = ()
        rho_prev = None
    else:
        g_prev = g_value(past, lengths[: l - 1], R_star)
        e_prev = eps(l - 1)
        values = []
        for h in range(num_h):
            lo = max(e_prev, Fraction(2, 3) * gaps[h] - e_prev - 2 * g_prev)
            hi = min(Fraction(1), 2 * (gaps[h] + e_prev + g_prev))
            j = draw(st.integers(0, 8), label="gap_prev_step")
            values.append(lo + (hi - lo) * Fraction(j, 8))
        candidates = [h for h in range(num_h) if max(e_prev, Fraction(2, 3) * gaps[h] - e_prev - 2 * g_prev) == e_prev]
        values[draw(st.sampled_from(candidates), label="previous_h_star")] = e_prev
        gap_prev = tuple(values)
        prev_seen = _composition(
            draw,
            "prev_seen",
            lengths[l - 2],
            instance.nu,
            "wild" if mode == "wild_prev" else "population" if mode == "population" else "typical",
        )
        rho_prev = rho_matrix(H, prev_seen, lengths[l - 2])
    q = line13_q(H, rho_prev, gap_prev, l)
    if mode == "one_point_seen":  # a point where H disagrees if there is one, the rarest first
        support = sorted((x for x in range(m) if instance.nu[x] > 0), key=lambda x: instance.nu[x])
        disputed = [x for x in support if len({labels[x] for labels in H}) > 1]
        point = draw(st.sampled_from(disputed or support), label="seen_point")
        seen = tuple(length if x == point else 0 for x in range(m))
    else:
        seen = _composition(
            draw,
            "seen",
            length,
            instance.nu,
            "wild" if mode == "wild_seen" else "population" if mode == "population" else "typical",
        )
    spread = 0 if mode == "population" else 3
    queried = []
    for x in range(m):
        asked = _near(draw, "queried_deviation", seen[x], q[x], spread)
        ones = _near(draw, "label_deviation", asked, epoch_eta[x], spread)
        queried.append((asked - ones, ones))
    state = EpochState(l, tau, length, q, gap_prev)
    return OneEpochCase(
        instance, params, state, EpochCounts(seen, tuple(queried)), prev_seen, past, tuple(epoch_eta), mode
    )


# the gap bounds bite from l = 2 on, and break when the epoch's x-counts are far from nu
GAP_BOUND_MODES = (
    "typical",
    "one_point_seen",
    "one_point_seen",
    "one_point_seen",
    "wild_seen",
    "wild_prev",
    "population",
)
