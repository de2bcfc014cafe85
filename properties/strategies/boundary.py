"""Boundary tapes: cases placed at the edges the paper's algorithms branch on (ties of the
ERM, the update rule's threshold, CALruption's layers; properties/checks/boundary.py)."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import strategies as st

from properties.strategies.cases import CraftedCase
from properties.strategies.instances import (
    BETA1_CHOICES,
    CALRUPTION_ADVERSARY_KINDS,
    DELTA_CHOICES,
    adversaries_for,
    calruption_params,
    epoch_blocks,
    epoch_schedule,
    hypothesis_classes,
    params_for,
    probabilities,
    rational_epoch_length,
    rich_instances,
)
from properties.strategies.one_epoch import _composition
from reference import Adversary, Instance, Params, Tape, sample_tape
from reference.calruption import EpochCounts, calruption_epoch, initial_state
from reference.instance import disagreement_region
from reference.robust_cal import checkpoint_update

# -- boundary tapes -------------------------------------------------------------------------
# Tapes whose coins, checkpoint rounds or risks sit exactly on a decision boundary of the
# algorithms. A sampled 64-bit coin equals a query probability q with
# probability ~2^-64, so "Q_t = 1 iff u_t < q" (Algorithm 2, line 4; CONTRACT.md, Tape) and "u_t <= q"
# agree on every sampled tape; a round at t = 2^k lies in Dis(V_t) but not in Dis(V_{t+1})
# only when the stream happens to make line 10 eliminate there. These strategies build
# such tapes on purpose, from the reference's own run on the tape so far. Every tape has
# positive probability: x_t in the support of nu, y_t in the support of Ber(eta_t^{x_t}),
# u_t in [0, 1). The cases are CraftedCases (the checks read instance, params and tape).
#
# BOUNDARY_BETA1_CHOICES adds beta1 = 3 to {1, 2, 4}: epochs of 3 * 4^l rounds, so rho^ and
# q_{l+1} have a factor 3 in their denominators and are not dyadic (a float q differs from
# them, and a coin exactly on q tells `u < q` from `u < float(q)`).
BOUNDARY_BETA1_CHOICES = BETA1_CHOICES + (Fraction(3),)
BOUNDARY_MAX_ROUNDS = 340  # beta1 = 1: four complete epochs (4 + 16 + 64 + 256)
MAX_CHECKPOINT_EXPONENT = 7  # RobustCAL/passive: n = 2^k - 1, 2^k, 2^k + 1 with k <= 7
# small widths, so that line 10 eliminates from the first checkpoints on
BOUNDARY_BETA_SCALES = (Fraction(1, 256), Fraction(1, 64), Fraction(1, 16))
# RobustCAL ignores u_t (Algorithm 1, line 4 queries iff x_t in Dis(V_t)): coins on simple
# rationals at the rounds that matter show that no coin rule crept in
SIMPLE_COINS = (Fraction(0), Fraction(1, 2), Fraction(1, 4), Fraction(3, 4), Fraction(1, 3), Fraction(2, 3))
_COIN_SCALE = 1 << 64


def allowed_labels(eta: Fraction) -> tuple[int, ...]:
    """The support of Ber(eta): the labels a tape of positive probability may carry."""
    return (0,) if eta == 0 else (1,) if eta == 1 else (0, 1)


def _sampled_coin(rng: random.Random) -> Fraction:
    return Fraction(rng.getrandbits(64), _COIN_SCALE)


def _crafted_calruption_tape(draw, instance: Instance, adversary: Adversary, beta1: Fraction, n: int) -> Tape:
    """x-counts per epoch block ("typical" within 3 sd of |I| nu, "wild" proportions, or every
    round at one point of the support), shuffled within the block; labels drawn from the
    support of Ber(eta_t^{x_t}); 64-bit coins. All from a drawn seed."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1), label="crafted_tape_seed"))
    support = [x for x in range(instance.num_points) if instance.nu[x] > 0]
    xs = []
    for _, length in epoch_blocks(beta1, n):
        mode = draw(st.sampled_from(["typical", "wild", "one_point"]), label="epoch_x_mode")
        if mode == "one_point":
            point = draw(st.sampled_from(support), label="epoch_point")
            block = [point] * length
        else:
            counts = _composition(draw, "epoch_x", length, instance.nu, mode)
            block = [x for x, c in enumerate(counts) for _ in range(c)]
            rng.shuffle(block)
        xs += block
    ys = [rng.choice(allowed_labels(adversary.eta(instance, t)[x])) for t, x in enumerate(xs, start=1)]
    return Tape(xs, ys, [_sampled_coin(rng) for _ in xs])


def _without_complements(instance: Instance) -> Instance:
    """The instance without the hypotheses that disagree on all of supp(nu) with an earlier
    kept one (unless fewer than two distinct hypotheses would remain). Such a pair has
    rho^ = 1 in every epoch, so q_{l+1}^x = 4^(k - l - 1) at every point, a power of two;
    without it the max of line 13 is often a rho^ with the epoch length's odd factor in
    its denominator."""
    support = [x for x in range(instance.num_points) if instance.nu[x] > 0]
    kept = []
    for h in instance.hypotheses:
        if not any(all(h[x] != g[x] for x in support) for g in kept):
            kept.append(h)
    return Instance(instance.nu, instance.eta, kept) if len(set(kept)) >= 2 else instance


@st.composite
def spread_instances(draw, max_points: int = 5):
    """2..max_points points, every one of positive mass (weights 1..6), any eta, a drawn
    class without pairs that disagree on all of X (`_without_complements`), at least two
    distinct hypotheses: the rho^ of line 7 are then proper fractions of the epoch length."""
    m = draw(st.integers(2, max_points), label="num_points")
    weights = draw(st.lists(st.integers(1, 6), min_size=m, max_size=m), label="nu_weights")
    eta = draw(st.lists(probabilities(), min_size=m, max_size=m), label="eta")
    H = list(draw(hypothesis_classes(m), label="hypotheses"))
    if len(set(H)) == 1:  # a second hypothesis that differs from the first at one point
        point = draw(st.integers(0, m - 1), label="differing_point")
        H.append(tuple(1 - v if x == point else v for x, v in enumerate(H[0])))
    return _without_complements(Instance([Fraction(w, sum(weights)) for w in weights], eta, H))


def _coin_counts(xs, ys, us, start: int, length: int, q, m: int) -> EpochCounts:
    """An epoch's counts, querying iff u_t < q^{x_t} (Algorithm 2, line 4)."""
    seen = [0] * m
    queried = [[0, 0] for _ in range(m)]
    for i in range(start - 1, start - 1 + length):
        seen[xs[i]] += 1
        if us[i] < q[xs[i]]:
            queried[xs[i]][ys[i]] += 1
    return EpochCounts(tuple(seen), tuple(map(tuple, queried)))


def _boundary_rounds(draw, xs, start: int, length: int) -> set[int]:
    """0-based rounds of one epoch block whose coin goes on the boundary: 1 to 3 rounds at
    every point seen in the block (drawn among that point's rounds) and, if drawn, the
    block's first and last rounds (the epoch's edges)."""
    by_point: dict[int, list[int]] = {}
    for i in range(start - 1, start - 1 + length):
        by_point.setdefault(xs[i], []).append(i)
    chosen = set()
    for x in sorted(by_point):
        rounds = by_point[x]
        k = min(len(rounds), draw(st.integers(1, 3), label="boundary_rounds_at_point"))
        picks = draw(
            st.lists(st.integers(0, len(rounds) - 1), min_size=k, max_size=k, unique=True), label="boundary_round_picks"
        )
        chosen |= {rounds[j] for j in picks}
    if draw(st.booleans(), label="boundary_epoch_edges"):
        chosen |= {start - 1, start - 2 + length}
    return chosen


@st.composite
def calruption_boundary_cases(draw):
    """CALruption (Algorithm 2) on a tape whose coins sit exactly on q_l^{x_t}. Scaled
    constants (calruption_params); n = the end of a complete epoch L >= 1 plus
    0 .. |I_{L+1}| - 1 rounds (>= 1 if L = 1, so that epoch 2 starts), n <=
    BOUNDARY_MAX_ROUNDS. Two families: "odd_epochs", a `spread_instances` instance with
    beta1 = 3 on a sampled tape (q's with a factor 3 in their denominators, whose nearest
    double lies above or below them); "any", a `rich_instances` instance with beta1 in
    {1, 2, 4, 3} on a tape sampled from a seed or crafted (`_crafted_calruption_tape`: a
    block at one point reaches q = 0 at a seen disputed point). Then, epoch by epoch from l = 2 (q_1 = 1, and a coin must be < 1), the coins of
    1-3 rounds per point seen in the epoch (and, if drawn, of its first and last rounds)
    are set to exactly q_l^{x_t} (u_t = 0 where q_l^{x_t} = 0). q_l depends only on epochs
    < l, so it is taken from the reference's update (`calruption_epoch`) of the modified
    tape so far; the unfinished last epoch (FINDINGS R14) gets boundary coins too, with
    the last q_{l+1}."""
    family = draw(st.sampled_from(["odd_epochs", "any"]), label="boundary_family")
    if family == "odd_epochs":
        instance = draw(spread_instances(), label="instance")
        beta1 = Fraction(3)
    else:
        instance = draw(rich_instances(), label="instance")
        beta1 = draw(st.sampled_from(BOUNDARY_BETA1_CHOICES), label="beta1")
    m = instance.num_points
    schedule = epoch_schedule(beta1, BOUNDARY_MAX_ROUNDS)
    L = draw(st.integers(1, len(schedule)), label="complete_epochs")
    end = schedule[L - 1][1] + schedule[L - 1][2] - 1
    room = rational_epoch_length(beta1, L + 1) - 1
    extra = draw(st.one_of(st.sampled_from([0, 1, room]), st.integers(0, room)), label="unfinished_rounds")
    if L == 1:
        extra = max(extra, 1)
    n = min(end + extra, BOUNDARY_MAX_ROUNDS)
    adversary = draw(adversaries_for(instance, n, CALRUPTION_ADVERSARY_KINDS, beta1), label="adversary")
    params = draw(calruption_params(n, instance.num_hypotheses, beta1), label="params")
    if family == "odd_epochs" or draw(st.sampled_from(["sampled", "crafted"]), label="base_tape") == "sampled":
        base = sample_tape(instance, adversary, draw(st.integers(0, 2**64 - 1), label="seed"))
    else:
        base = _crafted_calruption_tape(draw, instance, adversary, beta1, n)
    xs, ys, us = base.x, base.y, list(base.u)
    H = instance.hypotheses
    state = initial_state(m, len(H), params)
    for tau, length in epoch_blocks(beta1, n):
        if state.l >= 2:
            for i in _boundary_rounds(draw, xs, tau, length):
                us[i] = state.q[xs[i]]
        if length == state.length:  # a complete epoch (not the unfinished rest): line 6's update
            _, state = calruption_epoch(H, state, _coin_counts(xs, ys, us, tau, length, state.q, m), params)
    return CraftedCase(instance, adversary, params, Tape(xs, ys, us))


def checkpoint_rounds(n: int) -> list[int]:
    """Algorithm 1's checkpoints t = 2^k <= n, k >= 1 (line 7, FINDINGS R3)."""
    return [1 << k for k in range(1, n.bit_length()) if 1 << k <= n]


def _checkpoint_n(draw) -> int:
    """n in {2^k - 1, 2^k, 2^k + 1}, 1 <= k <= MAX_CHECKPOINT_EXPONENT: the last checkpoint
    at n, one round before it, and one round after it."""
    k = draw(st.integers(1, MAX_CHECKPOINT_EXPONENT), label="log2_checkpoint")
    return max(1, (1 << k) + draw(st.sampled_from([-1, 0, 1]), label="n_offset"))


def _ignored_coin(rng: random.Random) -> Fraction:
    """A coin for an algorithm that must ignore it: a simple rational or a 64-bit one."""
    return rng.choice(SIMPLE_COINS) if rng.random() < 0.5 else _sampled_coin(rng)


class _RobustCALRun:
    """Algorithm 1 followed round by round on a tape being written: the counts of lines 8-9
    and V_t, updated by the reference's own `checkpoint_update`."""

    def __init__(self, H, params, vanilla: bool):
        self.H, self.params, self.vanilla = H, params, vanilla
        self.V = tuple(range(len(H)))
        self.seen = [0] * len(H[0])
        self.queried = [[0, 0] for _ in H[0]]
        self.labels = 0

    @property
    def dis(self) -> frozenset:
        return disagreement_region(self.H, self.V)

    def next_version_space(self, t: int, x: int, y: int) -> tuple[int, ...]:
        """V_{t+1} if round t = 2^k were (x, y): lines 4 and 8-10 on a copy of the counts."""
        seen = list(self.seen)
        queried = [list(c) for c in self.queried]
        seen[x] += 1
        asked = x in self.dis
        queried[x][y] += asked
        return checkpoint_update(
            self.H, self.V, seen, queried, self.labels + asked, t, self.params, self.vanilla
        ).next_version_space

    def step(self, t: int, x: int, y: int, checkpoint: bool) -> None:
        self.seen[x] += 1
        if x in self.dis:  # line 4
            self.queried[x][y] += 1
            self.labels += 1
        if checkpoint:  # lines 7-10
            self.V = checkpoint_update(
                self.H, self.V, self.seen, self.queried, self.labels, t, self.params, self.vanilla
            ).next_version_space


@st.composite
def checkpoint_boundary_cases(draw, vanilla: bool | None = None):
    """RobustCAL (Algorithm 1) on a stream built around its checkpoints t = 2^k: n in
    {2^k - 1, 2^k, 2^k + 1} (k <= 7); scaled widths beta_scale in {1/256, 1/64, 1/16}, so line
    10 eliminates early. The stream is written round by round while the reference's
    update (`checkpoint_update`, for the given rule, or a drawn one if `vanilla` is None)
    follows it:
    * at a checkpoint t, the round is a pair (x, y) with x in Dis(V_t) but not in
      Dis(V_{t+1}) -- V_{t+1} computed with that very round -- when one exists: the last
      round queried with V_t (lines 4, 7-10) is one V_{t+1} would not query;
    * at round t + 1, x in Dis(V_t) \\ Dis(V_{t+1}) when that set meets the support of nu:
      the first round queried with V_{t+1} is one V_t would query;
    * otherwise x is a point of Dis(V_t) (3 times in 4) or of the support, labelled as a
      drawn hypothesis labels it where eta_t^x allows, so that the others are eliminated.
    Coins are ignored by RobustCAL: at the rounds above they are simple rationals
    (SIMPLE_COINS) half the time, 64-bit otherwise. Every x_t is in the support of nu and
    every y_t in the support of Ber(eta_t^{x_t})."""
    instance = draw(rich_instances(), label="instance")
    H = instance.hypotheses
    n = _checkpoint_n(draw)
    adversary = draw(adversaries_for(instance, n), label="adversary")
    delta = draw(st.sampled_from(DELTA_CHOICES), label="delta")
    beta_scale = draw(st.sampled_from(BOUNDARY_BETA_SCALES), label="beta_scale")
    params = Params.scaled(n, len(H), delta, beta_scale)
    if vanilla is None:
        vanilla = draw(st.booleans(), label="vanilla_rule")
    winner = draw(st.integers(0, len(H) - 1), label="winner")
    rng = random.Random(draw(st.integers(0, 2**32 - 1), label="stream_seed"))
    support = [x for x in range(instance.num_points) if instance.nu[x] > 0]
    checkpoints = set(checkpoint_rounds(n))
    run = _RobustCALRun(H, params, vanilla)
    removed: frozenset = frozenset()  # Dis(V_t) \ Dis(V_{t+1}) of the last checkpoint t
    xs, ys, us = [], [], []
    for t in range(1, n + 1):
        eta_t = adversary.eta(instance, t)
        dis = run.dis
        pick = None
        if t in checkpoints:
            options = [(x, y) for x in support if x in dis for y in allowed_labels(eta_t[x])]
            leaving = [(x, y) for x, y in options if x not in disagreement_region(H, run.next_version_space(t, x, y))]
            if leaving:
                pick = leaving[rng.randrange(len(leaving))]
        elif t - 1 in checkpoints and removed & set(support):
            x = rng.choice(sorted(removed & set(support)))
            pick = (x, rng.choice(allowed_labels(eta_t[x])))
        if pick is None:
            inside = [x for x in support if x in dis]
            x = rng.choice(inside if inside and rng.random() < 0.75 else support)
            labels = allowed_labels(eta_t[x])
            pick = (x, H[winner][x] if H[winner][x] in labels else labels[0])
        x, y = pick
        boundary = t in checkpoints or t - 1 in checkpoints
        us.append(_ignored_coin(rng) if boundary else _sampled_coin(rng))
        xs.append(x)
        ys.append(y)
        run.step(t, x, y, t in checkpoints)
        if t in checkpoints:
            removed = dis - run.dis
    return CraftedCase(instance, adversary, params, Tape(xs, ys, us))


@st.composite
def erm_tie_cases(draw):
    """Passive ERM (Theorem 3.1) with an exact tie of R^_[1,n] between two distinct
    hypotheses a and b, n in {2^k - 1, 2^k, 2^k + 1}: on Dis(a, b) the stream gives as many
    labels a(x) as b(x) (a label that closes the gap whenever eta_t^x allows one; the last
    rounds are spent closing it), elsewhere a's label where allowed, so a and b tie low
    in the ranking, often at the minimum (where the reference's ERM takes the lowest
    index). When a
    and b disagree on all of supp(nu), every round is on Dis(a, b) and an odd n cannot
    tie: n is then 2^k. Coins are simple rationals half the time (ERM ignores them).
    The tie is exact when the labels allow closing the gap (the meta-tests measure how
    often)."""
    instance = draw(rich_instances(), label="instance")
    H = instance.hypotheses
    a = draw(st.integers(0, len(H) - 1), label="tie_a")
    others = [h for h in range(len(H)) if H[h] != H[a]]
    b = draw(st.sampled_from(others), label="tie_b")
    support = [x for x in range(instance.num_points) if instance.nu[x] > 0]
    disputed = [x for x in support if H[a][x] != H[b][x]]
    undisputed = [x for x in support if x not in disputed]
    n = _checkpoint_n(draw)
    if not undisputed and n % 2:
        n = n + 1 if n & (n + 1) == 0 else n - 1  # 2^k - 1 -> 2^k, 2^k + 1 -> 2^k
    adversary = draw(adversaries_for(instance, n), label="adversary")
    params = draw(params_for(n, len(H)), label="params")
    rng = random.Random(draw(st.integers(0, 2**32 - 1), label="stream_seed"))
    gap = 0  # rounds on Dis(a, b) labelled a(x) minus those labelled b(x): R^(b) - R^(a), times n
    xs, ys, us = [], [], []
    for t in range(1, n + 1):
        eta_t = adversary.eta(instance, t)
        left = n - t  # rounds after this one
        closing = [
            (x, y)
            for x in disputed
            for y in allowed_labels(eta_t[x])
            if (y == H[a][x] and gap < 0) or (y == H[b][x] and gap > 0)
        ]
        if closing and (left < abs(gap) or rng.random() < 0.5):
            x, y = closing[rng.randrange(len(closing))]
        else:
            # off Dis(a, b) when the rounds left could not close a new gap
            x = rng.choice(undisputed if undisputed and left <= abs(gap) else support)
            labels = allowed_labels(eta_t[x])
            y = H[a][x] if H[a][x] in labels else labels[0]
            if x in disputed and len(labels) == 2 and gap > 0:
                y = H[b][x]
        if x in disputed:
            gap += 1 if y == H[a][x] else -1
        xs.append(x)
        ys.append(y)
        us.append(_ignored_coin(rng))
    return CraftedCase(instance, adversary, params, Tape(xs, ys, us))


def update_boundary_cases(vanilla: bool | None = None):
    """Boundary cases for RobustCAL: checkpoint streams (built for the given rule) and the
    ERM-tie streams (tied risks, which h^_t and the output break towards the lowest index)."""
    return st.one_of(checkpoint_boundary_cases(vanilla), erm_tie_cases())
