"""Hypothesis strategies for the suite, valid by construction (no filtering), and the
generated-example types and fixed experiments they produce. Check modules import from
here; this module imports no check module.

Sizes are bounded (points <= 6, hypotheses <= 8, rounds <= MAX_ROUNDS) and every
rational has a bounded denominator, so examples are small and shrink well. Every
`draw` carries a label, so a failing example reads as a list of named choices.

Sections: core instances and classes; adversaries; parameters (and CALruption's epoch
schedule); CALruption cases; one-epoch states; RobustCAL / Theorem 4.1 cases; lemma
cases; fixed experiments."""
from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt

from hypothesis import strategies as st

from reference import Adversary, Instance, Params, Tape, adversary as adversaries, sample_tape
from reference import instances as _instances
from reference.calruption import EpochCounts, EpochState, calruption_epoch, initial_state
from reference.certified import ScaledLog, certified_ceil
from reference.instance import disagreement_region
from reference.params import BETA1_OVER_BETA3, PAPER_BETA2
from reference.robust_cal import checkpoint_update
from reference.serialization import from_jsonable, to_jsonable

from properties.core.case import Case
from properties.core.epochs import eps, g_value, rho_matrix

# -- core instances and hypothesis classes ------------------------------------------------
MAX_POINTS = 6
MAX_HYPOTHESES = 8
MAX_ROUNDS = 600
MAX_DENOMINATOR = 64

# Labels whose edges the suite must reach: deterministic and fair coins, and a "noisy" 1/10.
SPECIAL_ETAS = (Fraction(0), Fraction(1, 2), Fraction(1), Fraction(1, 10), Fraction(9, 10))


def probabilities(max_denominator: int = MAX_DENOMINATOR):
    return st.one_of(st.sampled_from(SPECIAL_ETAS), st.fractions(0, 1, max_denominator=max_denominator))


@st.composite
def distributions(draw, num_points: int):
    """nu over num_points points: integer weights, so exact; some weights 0 (mass-0
    points), some tiny (weight 1 against a large total)."""
    weights = draw(st.lists(st.integers(0, 20), min_size=num_points, max_size=num_points), label="nu_weights")
    if sum(weights) == 0:
        weights[draw(st.integers(0, num_points - 1), label="nu_nonzero_point")] = 1
    if draw(st.booleans(), label="nu_tiny_mass"):
        weights = [w * 50 for w in weights]
        weights[draw(st.integers(0, num_points - 1), label="nu_tiny_point")] = 1
    total = sum(weights)
    return tuple(Fraction(w, total) for w in weights)


def _thresholds(m):
    return [tuple(1 if x >= k else 0 for x in range(m)) for k in range(m + 1)]


def _intervals(m):
    return [tuple(0 for _ in range(m))] + [
        tuple(1 if a <= x < b else 0 for x in range(m)) for a in range(m) for b in range(a + 1, m + 1)
    ]


@st.composite
def hypothesis_classes(draw, num_points: int):
    """Thresholds, intervals, unions of two intervals, arbitrary label sets, each
    possibly with duplicates; at most MAX_HYPOTHESES hypotheses."""
    kind = draw(st.sampled_from(["thresholds", "intervals", "unions", "arbitrary"]), label="class_kind")
    m = num_points
    if kind == "thresholds":
        pool = _thresholds(m)
    elif kind == "intervals":
        pool = _intervals(m)
    elif kind == "unions":
        pool = sorted({tuple(a | b for a, b in zip(u, v)) for u in _intervals(m) for v in _intervals(m)})
    else:
        pool = None
    if pool is None:
        size = draw(st.integers(1, MAX_HYPOTHESES), label="num_hypotheses")
        H = draw(st.lists(st.tuples(*[st.integers(0, 1)] * m), min_size=size, max_size=size), label="labels")
    else:
        H = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=MAX_HYPOTHESES), label="members")
    if draw(st.booleans(), label="add_duplicate") and len(H) < MAX_HYPOTHESES:
        H = list(H) + [H[draw(st.integers(0, len(H) - 1), label="duplicated")]]
    return tuple(H)


@st.composite
def instances(draw, max_points: int = MAX_POINTS):
    m = draw(st.integers(1, max_points), label="num_points")
    nu = draw(distributions(m), label="nu")
    eta = draw(st.lists(probabilities(), min_size=m, max_size=m), label="eta")
    H = draw(hypothesis_classes(m), label="hypotheses")
    return Instance(nu, eta, H)


@st.composite
def low_noise_instances(draw, max_points: int = MAX_POINTS):
    """Like `instances`, with eta* in {0, 1/20, 1/10, 9/10, 19/20, 1}: large
    gaps relative to the noise, so RobustCAL's modified rule eliminates within a few
    hundred rounds and the correctness check has eliminations to judge."""
    m = draw(st.integers(1, max_points), label="num_points")
    nu = draw(distributions(m), label="nu")
    levels = [Fraction(0), Fraction(1, 20), Fraction(1, 10), Fraction(9, 10), Fraction(19, 20), Fraction(1)]
    eta = draw(st.lists(st.sampled_from(levels), min_size=m, max_size=m), label="eta")
    H = draw(hypothesis_classes(m), label="hypotheses")
    return Instance(nu, eta, H)


@st.composite
def rich_instances(draw, max_points: int = 5):
    """An instance of `instances` with at least two distinct hypotheses (the
    complement of the first is added when all coincide) and, half the time, low label noise
    (eta* in {0, 1/10, 9/10, 1}: large gaps Delta_h, so the gap bounds bite)."""
    base = draw(instances(max_points=max_points), label="base_instance")
    H = list(base.hypotheses)
    if len(set(H)) == 1:
        complement = tuple(1 - v for v in H[0])
        H = H + [complement] if len(H) < 8 else H[:-1] + [complement]
    eta = base.eta
    if draw(st.booleans(), label="low_noise"):
        eta = draw(st.lists(st.sampled_from([Fraction(0), Fraction(1, 10), Fraction(9, 10), Fraction(1)]),
                            min_size=base.num_points, max_size=base.num_points), label="low_noise_eta")
    return Instance(base.nu, eta, H)


# -- adversaries --------------------------------------------------------------------------
ADVERSARY_KINDS = ("clean", "misspecification", "burst", "piecewise", "theorem41_ok", "theorem41_violated")
COROLLARY51_KINDS = ("corollary51_ok", "corollary51_violated")
CALRUPTION_ADVERSARY_KINDS = ADVERSARY_KINDS + COROLLARY51_KINDS
COROLLARY51_RATE = Fraction(1, 32)  # Corollary 5.1: C_l / N_l <= 1/32 for every epoch l


def _piecewise_segments(draw, m: int, first: int, last: int, cap: Fraction) -> list[dict]:
    """Segments covering rounds first..last (none if last < first): up to 4 drawn cuts,
    each segment a drawn target mixed in with a drawn gamma <= cap, so c_t <= cap."""
    cuts = sorted(draw(st.sets(st.integers(first, last - 1), max_size=4), label="cuts")) if last > first else []
    bounds = [first - 1, *cuts, last] if last >= first else []
    segments = []
    for a, b in zip(bounds, bounds[1:]):
        gamma = draw(st.fractions(0, cap, max_denominator=32), label="segment_gamma")
        target = draw(st.lists(st.one_of(st.none(), probabilities()), min_size=m, max_size=m), label="segment_target")
        segments.append({"start": a + 1, "end": b, "gamma": gamma, "target": target})
    return segments


@st.composite
def adversaries_for(draw, instance: Instance, n: int, kinds=ADVERSARY_KINDS, beta1: Fraction | None = None):
    """An oblivious adversary for `instance` over n rounds, of one of `kinds`:
    clean; gamma-misspecification; early burst (any eta until tau, then clean); random
    piecewise within a drawn corruption budget; one that satisfies Theorem 4.1's
    C_[0,t] <= t/8 (every segment's c_t <= 1/8); one that violates it (a burst of c = 1
    at the start); one that satisfies Corollary 5.1's C_l / N_l <= 1/32 on every epoch
    (every c_t <= 1/32, so on any epoch with N_l read as |I_l|: half the time c_t = 1/32, else
    piecewise with segment gamma <= 1/32); one that violates it on a whole
    complete epoch of CALruption's schedule |I_l| = ceil(beta1 4^l) (FINDINGS R10), which
    needs `beta1` and n >= |I_1|."""
    m = instance.num_points
    if "corollary51_violated" in kinds and (beta1 is None or not epoch_schedule(beta1, n)):
        raise ValueError(f"corollary51_violated needs beta1 and a complete epoch within n = {n} (beta1 = {beta1})")
    kind = draw(st.sampled_from(kinds), label="adversary_kind")
    if kind == "clean":
        return adversaries.clean(n)
    if kind == "misspecification":
        gamma = draw(st.fractions(0, Fraction(1, 4), max_denominator=32), label="gamma")
        eta_tilde = draw(st.lists(probabilities(), min_size=m, max_size=m), label="eta_tilde")
        return adversaries.misspecification(gamma, eta_tilde, n)
    if kind == "burst":
        tau = draw(st.integers(0, n), label="tau")
        target = draw(st.lists(st.one_of(st.none(), probabilities()), min_size=m, max_size=m), label="eta_burst")
        return adversaries.early_burst(target, tau, n)
    if kind == "theorem41_violated":
        # eta flipped to 1 - eta* where it is furthest from 1/2 makes c_t = max|1 - 2 eta*|;
        # with eta* in {0, 1} somewhere c_t = 1 > 1/8 from round 1 on.
        flipped = tuple(1 - e for e in instance.eta)
        tau = draw(st.integers(1, n), label="tau")
        return adversaries.early_burst(flipped, tau, n)
    # eta_t^x = the label furthest from eta*^x moves eta by max(eta*^x, 1 - eta*^x) >= 1/2 at
    # x, so a mixing weight gamma gives c_t = gamma * far_distance exactly, whatever the instance
    far = tuple(Fraction(0) if e >= Fraction(1, 2) else Fraction(1) for e in instance.eta)
    far_distance = max(max(e, 1 - e) for e in instance.eta)
    if kind == "corollary51_ok" and draw(st.booleans(), label="at_budget"):
        # the corollary's own example, the 1/32-misspecification at its edge: c_t = 1/32 in
        # every round, so C_l / N_l = 1/32 on every complete epoch
        return adversaries.misspecification(COROLLARY51_RATE / far_distance, far, n)
    if kind == "corollary51_violated":
        # Section 5's "fully corrupts some early epoch, then C_l / N_l <= 1/32": gamma = 1 on
        # all of I_l gives c_t >= 1/2 there, so C_l / N_l >= C_l / |I_l| >= 1/2 > 1/32.
        _, tau, length = draw(st.sampled_from(epoch_schedule(beta1, n)), label="corrupted_epoch")
        burst = {"start": tau, "end": tau + length - 1, "gamma": Fraction(1), "target": far}
        return adversaries.piecewise(n, [*_piecewise_segments(draw, m, 1, tau - 1, COROLLARY51_RATE), burst,
                                         *_piecewise_segments(draw, m, tau + length, n, COROLLARY51_RATE)])
    # piecewise schedules: gamma <= 1/8 keeps every c_t <= 1/8 (Theorem 4.1's condition),
    # gamma <= 1/32 every C_l <= |I_l| / 32 (Corollary 5.1's, N_l = |I_l| for rational beta1)
    cap = {"theorem41_ok": Fraction(1, 8), "corollary51_ok": COROLLARY51_RATE}.get(kind, Fraction(1))
    return adversaries.piecewise(n, _piecewise_segments(draw, m, 1, n, cap))


@st.composite
def deterministic_adversaries(draw, m: int, n: int):
    """Adversaries that keep every eta_t^x in {0, 1} when eta* is: clean, or up to three
    segments that set chosen points to a drawn label (c_t in {0, 1})."""
    kind = draw(st.sampled_from(["clean", "flips"]), label="adversary_kind")
    if kind == "clean" or n == 1:
        return adversaries.clean(n)
    cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=2), label="cuts"))
    bounds = [0, *cuts, n]
    segments = []
    for a, b in zip(bounds, bounds[1:]):
        target = draw(st.lists(st.sampled_from([None, Fraction(0), Fraction(1)]), min_size=m, max_size=m),
                      label="segment_target")
        segments.append({"start": a + 1, "end": b, "gamma": Fraction(1), "target": target})
    return adversaries.piecewise(n, segments)


@st.composite
def edge_adversaries(draw, instance: Instance, n: int):
    """The adversary Theorem 4.1's correctness proof must withstand: c_t = 1/8 (its
    budget C_[0,t] <= t/8 used to the full where there is room), spent in favour of a
    competitor h against h*: on Dis(h, h*), eta moves by 1/8 towards h's label, until a
    drawn tau (tau = n: the whole run)."""
    H, best = instance.hypotheses, instance.best
    h = draw(st.integers(0, len(H) - 1), label="favoured")
    tau = draw(st.one_of(st.just(n), st.integers(0, n)), label="tau")
    d = Fraction(1, 8)
    target = tuple(
        None if H[h][x] == H[best][x] else (min(Fraction(1), e + d) if H[h][x] == 1 else max(Fraction(0), e - d))
        for x, e in enumerate(instance.eta)
    )
    return adversaries.early_burst(target, tau, n)


def room(eta_star: Fraction, label: int) -> Fraction:
    """How far eta can move at a point in the direction that raises the risk of a
    hypothesis with this label there (label 1 errs on y = 0: lower eta; label 0: raise it)."""
    return eta_star if label == 1 else 1 - eta_star


def aligned_target(instance: Instance, against: int, d: Fraction, points) -> tuple:
    """eta_t^x = eta*^x moved by d (clipped to [0, 1]) at each x in `points`, in the
    direction that raises R_t(h) for h = hypotheses[against]; None elsewhere.

    On a point where the room is at least d this raises the risk of `against` by exactly
    d nu*(x) and moves every other hypothesis by -d nu*(x) where it disagrees with it:
    equality in Lemma A.1 (for `against`) and Lemma A.2 (for every pair (against, h'))
    when every point of positive mass has room >= d."""
    labels = instance.hypotheses[against]
    chosen = set(points)
    target = []
    for x, e in enumerate(instance.eta):
        if x not in chosen:
            target.append(None)
        elif labels[x] == 1:
            target.append(max(Fraction(0), e - d))
        else:
            target.append(min(Fraction(1), e + d))
    return tuple(target)


@st.composite
def aligned_adversaries(draw, instance: Instance, n: int):
    """An early burst that shifts eta against one hypothesis by a common amount d on a
    region (the support of nu*, all of X, or Dis(h, h*)), until a drawn tau. With d = the
    smallest positive room on the region ("fill") the corruption is used up exactly on
    every point of positive mass that has that room: the lemmas' bounds are attained."""
    H = instance.hypotheses
    against = draw(st.integers(0, len(H) - 1), label="against")
    region = draw(st.sampled_from(("support", "all", "dis_best")), label="aligned_region")
    if region == "support":
        points = [x for x, p in enumerate(instance.nu) if p > 0]
    elif region == "all":
        points = list(range(instance.num_points))
    else:
        best = H[instance.best]
        points = [x for x in range(instance.num_points) if H[against][x] != best[x]]
    rooms = [room(instance.eta[x], H[against][x]) for x in points if instance.nu[x] > 0]
    positive = [r for r in rooms if r > 0]
    if draw(st.booleans(), label="fill_room") and positive:
        d = min(positive)
    else:
        d = draw(st.fractions(0, 1, max_denominator=32), label="shift")
    tau = draw(st.integers(0, n), label="tau")
    return adversaries.early_burst(aligned_target(instance, against, d, points), tau, n)


# -- parameters ---------------------------------------------------------------------------
DELTA_CHOICES = (Fraction(1, 20), Fraction(1, 10), Fraction(1, 3))
BETA1_CHOICES = (Fraction(1), Fraction(2), Fraction(4))  # epochs of 4, 8 or 16 rounds first
# The full-run and one-epoch checks also draw constants whose N_l = beta1 4^l is not an
# integer, so |I_l| = ceil(N_l) rounds (issue 28): a rational 7/3 (N_l = 9.33.., 37.33..,
# ...) and an irrational ln 3 (N_l = 4.39.., 17.57.., ...; the paper's beta1 is a log too).
# An implementation that rounds epoch lengths otherwise than the contract is caught there.
FRACTIONAL_BETA1_CHOICES = (Fraction(7, 3), ScaledLog(Fraction(1), Fraction(3)))
FULL_RUN_BETA1_CHOICES = BETA1_CHOICES + FRACTIONAL_BETA1_CHOICES


def beta1_of(params):
    """beta1 as the strategies draw it: a Fraction, or the ScaledLog itself."""
    return getattr(params.beta1, "value", params.beta1)
BETA2_CHOICES = (PAPER_BETA2, Fraction(0), Fraction(1))  # the paper's 5/32, no penalty, a large one
BETA3_CHOICES = (None, Fraction(1, 2), Fraction(8))  # None: the paper's 2 log(3/2 floor(log n) |H|^2 / delta)


@st.composite
def params_for(draw, n: int, num_hypotheses: int, regimes=("paper", "scaled")):
    regime = draw(st.sampled_from(regimes), label="regime")
    delta = draw(st.sampled_from(DELTA_CHOICES), label="delta")
    if regime == "paper":
        return Params.paper(n, num_hypotheses, delta)
    beta_scale = draw(st.sampled_from([Fraction(1, 16), Fraction(1, 4), Fraction(1)]), label="beta_scale")
    beta1 = draw(st.sampled_from(BETA1_CHOICES), label="beta1")
    return Params.scaled(n, num_hypotheses, delta, beta_scale, beta1)


def rational_epoch_length(beta1, l: int) -> int:
    """|I_l| = ceil(beta1 4^l) (FINDINGS R10), for a rational beta1 or a certified
    constant (ScaledLog)."""
    if isinstance(beta1, ScaledLog):
        return certified_ceil(beta1, 4**l)
    value = Fraction(beta1) * 4**l
    return -((-value.numerator) // value.denominator)


def epoch_schedule(beta1: Fraction, max_rounds: int) -> list[tuple[int, int, int]]:
    """(l, tau_l, |I_l|) of the epochs l = 1, 2, ... that end by round max_rounds, for a
    rational beta1."""
    schedule, tau, l = [], 1, 1
    while tau + rational_epoch_length(beta1, l) - 1 <= max_rounds:
        schedule.append((l, tau, rational_epoch_length(beta1, l)))
        tau += rational_epoch_length(beta1, l)
        l += 1
    return schedule


def epoch_blocks(beta1: Fraction, n: int) -> list[tuple[int, int]]:
    """(tau, length) of the epochs that end by round n, then of the unfinished rest (if any):
    n rounds in all, for a rational beta1."""
    blocks = [(tau, length) for _, tau, length in epoch_schedule(beta1, n)]
    done = sum(length for _, length in blocks)
    return blocks + [(done + 1, n - done)] if done < n else blocks


def premise_params(n: int, num_hypotheses: int, beta1, beta3, delta: Fraction = Fraction(1, 10)) -> Params:
    """Params.scaled with beta_scale 1/4, the paper's beta2 = 5/32 and the given beta1, beta3:
    the paper premises (beta1 >= 20480 beta3, beta2 >= 5/32) hold when beta1 >= 20480 beta3."""
    return Params.scaled(n, num_hypotheses, delta, Fraction(1, 4), beta1, PAPER_BETA2, beta3)


@st.composite
def calruption_params(draw, n: int, num_hypotheses: int, beta1: Fraction):
    """Scaled constants for CALruption (every regime the checks must hold in): beta1
    given, beta2 in {5/32, 0, 1}, beta3 the paper's log or a rational."""
    delta = draw(st.sampled_from(DELTA_CHOICES), label="delta")
    beta2 = draw(st.sampled_from(BETA2_CHOICES), label="beta2")
    beta3 = draw(st.sampled_from(BETA3_CHOICES), label="beta3")
    return Params.scaled(n, num_hypotheses, delta, Fraction(1, 4), beta1, beta2, beta3)


# -- generic cases ------------------------------------------------------------------------
@st.composite
def cases(draw, max_rounds: int = MAX_ROUNDS, adversary_kinds=ADVERSARY_KINDS, regimes=("paper", "scaled")):
    """instance + adversary + seed + params: everything a run needs."""
    instance = draw(instances(), label="instance")
    n = draw(st.integers(1, max_rounds), label="n")
    adversary = draw(adversaries_for(instance, n, adversary_kinds), label="adversary")
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    params = draw(params_for(n, instance.num_hypotheses, regimes), label="params")
    return Case(instance, adversary, seed, params)


# -- CALruption cases ---------------------------------------------------------------------
@st.composite
def calruption_cases(draw, max_rounds: int = MAX_ROUNDS, adversary_kinds=CALRUPTION_ADVERSARY_KINDS):
    """A Case for CALruption: beta1 in FULL_RUN_BETA1_CHOICES ({1, 2, 4, 7/3, ln 3}), n <= max_rounds, n often at an epoch's
    last round or one off it (unfinished_rounds 0, |I_l| - 1 or 1). The adversary kinds
    include Corollary 5.1's; corollary51_violated only where n holds a complete epoch."""
    instance = draw(instances(), label="instance")
    beta1 = draw(st.sampled_from(FULL_RUN_BETA1_CHOICES), label="beta1")
    ends = [tau + length - 1 for _, tau, length in epoch_schedule(beta1, max_rounds + 1)]
    boundaries = sorted({e + d for e in ends for d in (-1, 0, 1) if 1 <= e + d <= max_rounds})
    n = draw(st.one_of(st.integers(1, max_rounds), st.sampled_from(boundaries)), label="n")
    if beta1 in FRACTIONAL_BETA1_CHOICES:
        # Corollary 5.1's adversaries budget C_l <= |I_l| / 32, which is N_l / 32 only when
        # N_l is an integer
        adversary_kinds = tuple(k for k in adversary_kinds if k not in COROLLARY51_KINDS)
    if not epoch_schedule(beta1, n):
        adversary_kinds = tuple(k for k in adversary_kinds if k != "corollary51_violated")
    adversary = draw(adversaries_for(instance, n, adversary_kinds, beta1), label="adversary")
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    params = draw(calruption_params(n, instance.num_hypotheses, beta1), label="params")
    return Case(instance, adversary, seed, params)


def _rounds_choice(draw, beta1: Fraction, first_epochs: int):
    """n in [end of epoch `first_epochs`, MAX_ROUNDS], often an epoch's last round."""
    ends = [tau + length - 1 for _, tau, length in epoch_schedule(beta1, MAX_ROUNDS)]
    low = ends[min(first_epochs, len(ends)) - 1]
    return draw(st.one_of(st.integers(low, MAX_ROUNDS), st.sampled_from([e for e in ends if e >= low])),
                label="n")


@st.composite
def scaled_regime_cases(draw):
    """Regime "scaled": Params.scaled(n, |H|, delta, 1/4, beta1) with beta1 in {1, 2, 4},
    the paper's beta3 = 2 log(3/2 floor(log2 n) |H|^2/delta) and beta2 = 5/32; any instance
    and adversary of `adversaries_for`; n from the end of epoch 2 up to 600 rounds.
    beta1 < 20480 beta3 here: the paper-premise checks are vacuous on these cases."""
    instance = draw(instances(), label="instance")
    beta1 = draw(st.sampled_from(BETA1_CHOICES), label="beta1")
    n = _rounds_choice(draw, beta1, 2)
    adversary = draw(adversaries_for(instance, n), label="adversary")
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    delta = draw(st.sampled_from(DELTA_CHOICES), label="delta")
    return Case(instance, adversary, seed, Params.scaled(n, instance.num_hypotheses, delta, Fraction(1, 4), beta1))


def _premise_setup(draw, families=("constant_on_support", "any"), min_points=1, contrarian=False):
    """(instance, beta1, beta3, n, adversary) of the premise regime (see premise_regime_cases).
    contrarian: sometimes give the least likely support point the opposite label of the
    most likely one (a short tape concentrated there then favours the wrong class)."""
    m = draw(st.integers(min_points, 4), label="num_points")
    weights = draw(st.lists(st.integers(0, 4), min_size=m, max_size=m), label="nu_weights")
    if sum(weights) == 0:
        weights[draw(st.integers(0, m - 1), label="nu_nonzero_point")] = 1
    nu = [Fraction(w, sum(weights)) for w in weights]
    if draw(st.booleans(), label="nu_tiny_mass") and sum(1 for w in weights if w) > 1:
        # one point of the support gets a tiny mass: rare x, R* far from what a short tape shows
        heavy = [100 * w for w in weights]
        heavy[weights.index(next(w for w in weights if w))] = 1
        nu = [Fraction(w, sum(heavy)) for w in heavy]
    eta = draw(st.lists(st.sampled_from([Fraction(0), Fraction(1)]), min_size=m, max_size=m), label="eta")
    support = [x for x in range(m) if nu[x] > 0]
    if contrarian and len(support) > 1 and draw(st.sampled_from([True, True, True, False]),
                                                 label="contrarian_rare_point"):
        rare, top = min(support, key=lambda x: nu[x]), max(support, key=lambda x: nu[x])
        if rare != top:
            eta[rare] = 1 - eta[top]
    family = draw(st.sampled_from(families), label="instance_family")
    if family == "constant_on_support":
        k = draw(st.integers(2, 5), label="num_hypotheses")
        H = []
        for _ in range(k):
            side = draw(st.integers(0, 1), label="side_on_support")
            H.append(tuple(side if nu[x] > 0 else draw(st.integers(0, 1), label="label_off_support")
                           for x in range(m)))
    else:
        H = draw(hypothesis_classes(m), label="hypotheses")
    instance = Instance(nu, eta, H)
    beta1 = draw(st.sampled_from(BETA1_CHOICES), label="beta1")
    k3 = draw(st.sampled_from([1, 2, 8]), label="beta3_divisor")
    n = _rounds_choice(draw, beta1, 2)
    adversary = draw(deterministic_adversaries(m, n), label="adversary")
    return instance, beta1, beta1 / (BETA1_OVER_BETA3 * k3), n, adversary


@st.composite
def premise_regime_cases(draw):
    """Regime "paper premises" for full runs: Params.scaled with beta1 in {1, 2, 4},
    beta2 = 5/32 and a rational beta3 = beta1 / (20480 k), k in {1, 2, 8}, so
    beta1 >= 20480 beta3 and beta2 >= 5/32 hold. Labels are deterministic (eta*, eta_t in
    {0, 1}): with q_1 = 1 the first epoch's loss differences are exact, so condition (1)
    holds there despite the tiny beta3; later epochs meet it only when the importance
    weights happen to average exactly. Instances are either "constant on the support"
    (every hypothesis is constant on {x : nu(x) > 0}, so every rho* is 0 or 1 and
    rho^ = rho*: E_dis1 and E_dis2 hold) or any small class; nu sometimes puts a tiny mass
    on one point. The tape is sampled from the seed."""
    instance, beta1, beta3, n, adversary = _premise_setup(draw)
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    delta = draw(st.sampled_from(DELTA_CHOICES), label="delta")
    params = premise_params(n, instance.num_hypotheses, beta1, beta3, delta)
    return Case(instance, adversary, seed, params)


@dataclass(frozen=True)
class CraftedCase:
    """A case whose tape is chosen by the strategy (not sampled from a seed): every
    x_t in the support of nu, y_t in the support of Ber(eta_t^{x_t}), u_t in [0, 1), so the
    tape has positive probability and the lemmas' "on the events" statements apply."""

    instance: Instance
    adversary: Adversary
    params: Params
    tape: Tape
    seed = None

    def to_json(self) -> dict:
        return {"instance": self.instance.to_json(), "adversary": self.adversary.to_json(),
                "params": to_jsonable(self.params), "tape": self.tape.to_json()}

    @classmethod
    def from_json(cls, data) -> "CraftedCase":
        return cls(Instance.from_json(data["instance"]), Adversary.from_json(data["adversary"]),
                   from_jsonable(Params, data["params"], "params"), Tape.from_json(data["tape"]))

    def reproducer(self) -> str:
        return ("properties.strategies.CraftedCase.from_json("
                f"json.loads({json.dumps(json.dumps(self.to_json()))}))")

    def __repr__(self) -> str:
        return f"CraftedCase.from_json({json.dumps(self.to_json())})"


def balanced_coins(M: int) -> list[Fraction]:
    """u = (i + 1/2)/M, i = 0..M-1: exactly ceil(qM - 1/2) of them are < q, i.e. qM when qM
    is an integer (the query count equals its expectation)."""
    return [Fraction(2 * i + 1, 2 * M) for i in range(M)]


def crafted_case(instance: Instance, params: Params, x, adversary: Adversary | None = None) -> CraftedCase:
    """The CraftedCase of the tape x (n = len(x) rounds, every x_t in the support of nu)
    with deterministic labels y_t = eta_t^{x_t} (eta_t in {0, 1}) and balanced coins per
    (epoch, point) (`balanced_coins`, in order of appearance), for a rational beta1; the
    adversary is clean unless given."""
    x = list(x)
    adversary = adversary or adversaries.clean(len(x))
    u = []
    for tau, length in epoch_blocks(params.beta1.value, len(x)):
        segment = x[tau - 1:tau - 1 + length]
        coins = {p: iter(balanced_coins(segment.count(p))) for p in set(segment)}
        u += [next(coins[p]) for p in segment]
    y = [int(adversary.eta(instance, t)[p]) for t, p in enumerate(x, start=1)]
    return CraftedCase(instance, adversary, params, Tape(x, y, u))


@st.composite
def crafted_tape_cases(draw):
    """Regime "paper premises" (the instance, constants and adversary of
    premise_regime_cases) with a crafted tape: per epoch (and the unfinished rest) the
    x-counts are drawn ("typical": |I| nu within 3 sd; "one_point": every round at one
    point of the support; "wild": any proportions) and laid out in blocks; y_t is the
    deterministic label eta_t^{x_t}; the coins are balanced per (epoch, point)
    (`balanced_coins`), so the number of queries at x is q M exactly whenever q M is an
    integer (always when every rho^ is 0 or 1), and condition (1) holds with the tiny
    beta3. Pattern "rare_point": every round at the support point of least mass (lowest
    index on ties), the tape furthest from nu that keeps E_dis exact on a class constant on
    the support. This reaches the events after epoch 1, which sampled tapes rarely do;
    instances are constant on the support 3 times in 4, have >= 2 points, and often give the
    least likely point the opposite label of the most likely one."""
    instance, beta1, beta3, n, adversary = _premise_setup(
        draw, ("constant_on_support", "constant_on_support", "constant_on_support", "any"), 2, True)
    delta = draw(st.sampled_from(DELTA_CHOICES), label="delta")
    params = premise_params(n, instance.num_hypotheses, beta1, beta3, delta)
    support = [x for x in range(instance.num_points) if instance.nu[x] > 0]
    xs = []
    pattern = draw(st.sampled_from(["rare_point", "rare_point", "per_epoch"]), label="tape_pattern")
    rare = min(support, key=lambda x: instance.nu[x])
    for _, length in epoch_blocks(beta1, n):
        mode = "rare_point" if pattern == "rare_point" else draw(
            st.sampled_from(["typical", "one_point", "wild"]), label="epoch_x_mode")
        if mode == "rare_point":
            counts = [length if x == rare else 0 for x in range(instance.num_points)]
        elif mode == "one_point":
            point = draw(st.sampled_from(support), label="epoch_point")
            counts = [length if x == point else 0 for x in range(instance.num_points)]
        else:
            counts = _composition(draw, "epoch_x", length, instance.nu, mode)
        for x, c in enumerate(counts):
            xs += [x] * c
    return crafted_case(instance, params, xs, adversary)


def paper_premise_cases():
    """Crafted tapes twice as often as sampled ones."""
    return st.one_of(crafted_tape_cases(), premise_regime_cases(), crafted_tape_cases())


def any_regime_cases():
    return st.one_of(scaled_regime_cases(), premise_regime_cases(), crafted_tape_cases())


@st.composite
def burst_then_clean_cases(draw):
    """Regime "scaled" (beta1 in {1, 2, 4}, the paper's beta3): corruption (an early burst,
    c_t up to 1) during the first epochs only, then clean, and n inside the epoch after
    the last completed one: the corner where g_{L-1} (corruption of completed epochs,
    scaled by 2/N_{L-1}) is largest against C-bar_total/n (the correctness chain's last
    step)."""
    instance = draw(instances(), label="instance")
    beta1 = draw(st.sampled_from(BETA1_CHOICES), label="beta1")
    epochs = epoch_schedule(beta1, MAX_ROUNDS)
    ends = [tau + length - 1 for _, tau, length in epochs]
    L = draw(st.integers(1, len(ends) - 1), label="completed_epochs")
    n = draw(st.one_of(st.integers(ends[L - 1], ends[L] - 1), st.just(ends[L] - 1)), label="n")
    tau = draw(st.one_of(st.sampled_from(ends[:L]), st.integers(1, ends[L - 1])), label="burst_end")
    flip = draw(st.booleans(), label="flip_labels")
    if flip:
        target = tuple(1 - e for e in instance.eta)
    else:
        target = draw(st.lists(st.one_of(st.none(), probabilities()), min_size=instance.num_points,
                               max_size=instance.num_points), label="eta_burst")
    adversary = adversaries.early_burst(target, tau, n)
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    delta = draw(st.sampled_from(DELTA_CHOICES), label="delta")
    return Case(instance, adversary, seed, Params.scaled(n, instance.num_hypotheses, delta, Fraction(1, 4), beta1))


# -- one-epoch states ---------------------------------------------------------------------
MAX_EPOCH_INDEX = 4  # one-epoch states: l = 1..4


@dataclass(frozen=True)
class EpochExample:
    """One epoch's input: H, the state at the start of epoch l, the epoch's counts, params."""

    hypotheses: tuple[tuple[int, ...], ...]
    state: EpochState
    counts: EpochCounts
    params: Params

    def to_json(self) -> dict:
        return {"hypotheses": [list(h) for h in self.hypotheses], "state": to_jsonable(self.state),
                "counts": to_jsonable(self.counts), "params": to_jsonable(self.params)}

    @classmethod
    def from_json(cls, data) -> "EpochExample":
        return cls(tuple(tuple(h) for h in data["hypotheses"]),
                   from_jsonable(EpochState, data["state"], "state"),
                   from_jsonable(EpochCounts, data["counts"], "counts"),
                   from_jsonable(Params, data["params"], "params"))

    def reproducer(self) -> str:
        """A line of Python that rebuilds this example."""
        return ("properties.strategies.EpochExample.from_json("
                f"json.loads({json.dumps(json.dumps(self.to_json()))}))")

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
        numerators = draw(st.lists(st.one_of(st.just(0), st.just(top), st.integers(1, top)), min_size=m, max_size=m),
                          label="q_numerators")
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
        return {"instance": self.instance.to_json(), "params": to_jsonable(self.params),
                "state": to_jsonable(self.state), "counts": to_jsonable(self.counts),
                "prev_seen": list(self.prev_seen), "past_corruption": to_jsonable(self.past_corruption),
                "epoch_eta": to_jsonable(self.epoch_eta), "mode": self.mode}

    @classmethod
    def from_json(cls, data) -> "OneEpochCase":
        return cls(Instance.from_json(data["instance"]), from_jsonable(Params, data["params"], "params"),
                   from_jsonable(EpochState, data["state"], "state"),
                   from_jsonable(EpochCounts, data["counts"], "counts"), tuple(data["prev_seen"]),
                   from_jsonable(tuple[Fraction, ...], data["past_corruption"], "past_corruption"),
                   from_jsonable(tuple[Fraction, ...], data["epoch_eta"], "epoch_eta"), data["mode"])

    def reproducer(self) -> str:
        return ("properties.strategies.OneEpochCase.from_json("
                f"json.loads({json.dumps(json.dumps(self.to_json()))}))")

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
        weights = draw(st.lists(st.integers(0, 20), min_size=len(support), max_size=len(support)),
                       label=f"{label}_weights")
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
def one_epoch_cases(draw, regimes=("paper",), modes=("typical", "typical", "wild_seen", "wild_prev", "one_point_seen",
                                                     "population"),
                    first_epoch: int = 1):
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
    fractions = [Fraction(0), Fraction(0), Fraction(0), Fraction(1, 1000), Fraction(1, 32), Fraction(1, 16),
                 Fraction(1, 4), Fraction(1)]
    past = tuple(draw(st.sampled_from(fractions), label="past_corruption_rate") * lengths[s] for s in range(l - 1))
    # the epoch's eta_t (constant on I_l)
    kind = draw(st.sampled_from(["clean", "clean", "misspecification", "burst"]), label="epoch_adversary")
    if kind == "clean":
        epoch_eta = instance.eta
    else:
        gamma = Fraction(1) if kind == "burst" else draw(st.fractions(0, Fraction(1, 4), max_denominator=32),
                                                          label="gamma")
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
        candidates = [h for h in range(num_h)
                      if max(e_prev, Fraction(2, 3) * gaps[h] - e_prev - 2 * g_prev) == e_prev]
        values[draw(st.sampled_from(candidates), label="previous_h_star")] = e_prev
        gap_prev = tuple(values)
        prev_seen = _composition(draw, "prev_seen", lengths[l - 2], instance.nu,
                                 "wild" if mode == "wild_prev" else "population" if mode == "population" else "typical")
        rho_prev = rho_matrix(H, prev_seen, lengths[l - 2])
    q = line13_q(H, rho_prev, gap_prev, l)
    if mode == "one_point_seen":  # a point where H disagrees if there is one, the rarest first
        support = sorted((x for x in range(m) if instance.nu[x] > 0), key=lambda x: instance.nu[x])
        disputed = [x for x in support if len({labels[x] for labels in H}) > 1]
        point = draw(st.sampled_from(disputed or support), label="seen_point")
        seen = tuple(length if x == point else 0 for x in range(m))
    else:
        seen = _composition(draw, "seen", length, instance.nu, "wild" if mode == "wild_seen" else
                            "population" if mode == "population" else "typical")
    spread = 0 if mode == "population" else 3
    queried = []
    for x in range(m):
        asked = _near(draw, "queried_deviation", seen[x], q[x], spread)
        ones = _near(draw, "label_deviation", asked, epoch_eta[x], spread)
        queried.append((asked - ones, ones))
    state = EpochState(l, tau, length, q, gap_prev)
    return OneEpochCase(instance, params, state, EpochCounts(seen, tuple(queried)), prev_seen, past,
                        tuple(epoch_eta), mode)


# the gap bounds bite from l = 2 on, and break when the epoch's x-counts are far from nu
GAP_BOUND_MODES = ("typical", "one_point_seen", "one_point_seen", "one_point_seen", "wild_seen", "wild_prev",
                   "population")


# -- RobustCAL / Theorem 4.1 cases --------------------------------------------------------
THEOREM41_KINDS = ("clean", "misspecification", "theorem41_ok")


@st.composite
def theorem41_cases(draw, max_rounds: int = 1024):
    """Cases whose adversary is meant to satisfy Theorem 4.1's C_[0,t] <= t/8: the kinds
    clean / misspecification / theorem41_ok of `adversaries_for` and
    `edge_adversaries`. theorem41_ok (segment gamma <= 1/8), clean and edge always
    satisfy it; misspecification (gamma <= 1/4) does not always: the checks decide it
    exactly per example and skip (with hypothesis.event) the examples where it fails."""
    instance = draw(st.one_of(instances(), low_noise_instances()), label="instance")
    n = draw(st.one_of(st.integers(2, 64), st.integers(2, max_rounds)), label="n")
    if draw(st.booleans(), label="edge_adversary"):
        adversary = draw(edge_adversaries(instance, n), label="adversary")
    else:
        adversary = draw(adversaries_for(instance, n, THEOREM41_KINDS), label="adversary")
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    params = draw(params_for(n, instance.num_hypotheses), label="params")
    return Case(instance, adversary, seed, params)


def sharp_lemma_c1_case(g: Fraction, n: int, seed: int, delta: Fraction = Fraction(1, 10)) -> Case:
    """One point, eta* = (1 + Delta)/2 with Delta = 1/4 - g, H = {h* = (1), h = (0)}
    (rho*(h, h*) = 1 = R*(h) + R*: they never err together), and c_t = 1/8 in every round
    (eta_t = eta* - 1/8: the 1/8-misspecification regime of Theorem 4.1) in favour of h.
    Then R-bar_t(h) - R-bar_t(h*) = -g, so h^_t = h at large t, and
    Delta_h = 1/4 - g > R*/2 + O(sqrt(R* log/t)): Lemma C.1's second line fails."""
    eta = (1 + Fraction(1, 4) - g) / 2
    instance = Instance((Fraction(1),), (eta,), ((1,), (0,)))
    adversary = adversaries.early_burst((eta - Fraction(1, 8),), n, n)
    return Case(instance, adversary, seed, Params.paper(n, 2, delta))


@st.composite
def sharp_lemma_c1_cases(draw):
    """`sharp_lemma_c1_case` over g in {1/32, 1/16}, n in {2^12, 2^14, 2^16}, any seed."""
    g = draw(st.sampled_from([Fraction(1, 32), Fraction(1, 16)]), label="g")
    n = draw(st.sampled_from([2**16, 2**14, 2**12]), label="n")
    seed = draw(st.integers(0, 2**16), label="seed")
    return sharp_lemma_c1_case(g, n, seed)


def lemma_c1_cases():
    """Generic Theorem 4.1 cases (short runs: the lemma's premise binds, its conclusion
    rarely) and the sharp one-point family where the conclusion is tight."""
    return st.one_of(theorem41_cases(), sharp_lemma_c1_cases())


# -- lemma cases --------------------------------------------------------------------------
ALL_INTERVALS_MAX_N = 24  # up to this horizon every interval [a, b] is checked
MAX_LEMMA_ROUNDS = 400


@st.composite
def lemma_cases(draw, max_rounds: int = MAX_LEMMA_ROUNDS):
    """instance + adversary (the paper's models, or an aligned burst that attains the
    lemmas' bounds) over a horizon that is mostly small enough to check every interval.
    The seed only picks the sampled intervals of a long horizon."""
    instance = draw(instances(), label="instance")
    n = draw(st.one_of(st.integers(1, ALL_INTERVALS_MAX_N), st.integers(1, max_rounds)), label="n")
    family = draw(st.sampled_from(("paper_models", "aligned")), label="adversary_family")
    if family == "paper_models":
        adversary = draw(adversaries_for(instance, n), label="adversary")
    else:
        adversary = draw(aligned_adversaries(instance, n), label="adversary")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    return Case(instance, adversary, seed, Params.scaled(n, instance.num_hypotheses))


# -- population cases (issue 15, item 1) -------------------------------------------------
# Exact expectations under nu*, eta* and the adversary's eta_t, no sampling: the corruption
# terms of the proofs (properties/checks/corruption_population.py) on CALruption's epochs.
POPULATION_INTERIOR_ETAS = tuple(Fraction(k, 16) for k in (1, 2, 4, 6, 10, 12, 14, 15))
POPULATION_EDGE_ETAS = (Fraction(0), Fraction(1, 2), Fraction(1))
CORRUPTION_LEVELS = (Fraction(1, 32), Fraction(1, 16), Fraction(1, 8), Fraction(1, 4))  # 1/8: Theorem 4.1's budget
POPULATION_BETA1 = (Fraction(1, 4), Fraction(1, 2), Fraction(1))  # first epochs of 1, 2 or 4 rounds
MAX_POPULATION_HYPOTHESES = 6
MAX_POPULATION_EPOCHS = 3  # at most 4 + 16 + 64 = 84 rounds


@dataclass(frozen=True)
class PopulationCase:
    """An instance and an oblivious adversary over `epochs` complete epochs of CALruption's
    schedule |I_l| = ceil(beta1 4^l) (FINDINGS R10): everything a corruption term depends on,
    and nothing sampled."""

    instance: Instance
    adversary: Adversary
    beta1: Fraction

    @property
    def epochs(self) -> list[tuple[int, int, int]]:
        """(l, tau_l, |I_l|) of the complete epochs within 1..n."""
        return epoch_schedule(self.beta1, self.adversary.n)

    def to_json(self) -> dict:
        return {"instance": self.instance.to_json(), "adversary": self.adversary.to_json(), "beta1": str(self.beta1)}

    @classmethod
    def from_json(cls, data) -> "PopulationCase":
        return cls(Instance.from_json(data["instance"]), Adversary.from_json(data["adversary"]),
                   Fraction(data["beta1"]))

    def reproducer(self) -> str:
        """A line of Python that rebuilds this case."""
        return f"properties.strategies.PopulationCase.from_json(json.loads({json.dumps(json.dumps(self.to_json()))}))"

    def __repr__(self) -> str:
        return f"PopulationCase.from_json({json.dumps(self.to_json())})"


def population_etas(mode: str):
    """eta* at one point: strictly inside (0, 1) ("interior"), at {0, 1/2, 1} ("edges"),
    or either ("mixed")."""
    interior = st.one_of(st.sampled_from(POPULATION_INTERIOR_ETAS),
                         st.fractions(Fraction(1, 64), Fraction(63, 64), max_denominator=64))
    edge = st.sampled_from(POPULATION_EDGE_ETAS)
    return {"interior": interior, "edges": edge, "mixed": st.one_of(edge, interior)}[mode]


@st.composite
def noisy_instances(draw, max_points: int = MAX_POINTS, max_hypotheses: int = MAX_POPULATION_HYPOTHESES):
    """Noisy instances: eta* strictly inside (0, 1) (so R* > 0 wherever nu* has mass and
    every eta can be moved both ways), at {0, 1/2, 1}, or mixed; an arbitrary class of at
    most `max_hypotheses` labelings, half the time with the complement of its first member
    (a pair that disagrees everywhere: rho* = 1)."""
    m = draw(st.integers(1, max_points), label="num_points")
    nu = draw(distributions(m), label="nu")
    mode = draw(st.sampled_from(("interior", "interior", "edges", "mixed")), label="eta_mode")
    eta = draw(st.lists(population_etas(mode), min_size=m, max_size=m), label="eta")
    H = draw(st.lists(st.tuples(*[st.integers(0, 1)] * m), min_size=1, max_size=max_hypotheses), label="labels")
    if draw(st.booleans(), label="add_complement") and len(H) < max_hypotheses:
        H = H + [tuple(1 - v for v in H[0])]
    return Instance(nu, eta, tuple(H))


def disagreement_points(instance: Instance, h: int, g: int) -> list[int]:
    """Dis(h, g) (every point, whatever its mass)."""
    H = instance.hypotheses
    return [x for x in range(instance.num_points) if H[h][x] != H[g][x]]


@st.composite
def epoch_corruption(draw, instance: Instance, start: int, end: int) -> list[dict]:
    """Segments covering rounds start..end (one epoch): clean; "aimed" -- eta moved by c in
    {1/32, 1/16, 1/8, 1/4} against one hypothesis on its disagreement region with another
    (or h*), in the direction that raises its risk (clipped to [0, 1]: c_t <= c, = c where
    there is room); or "random" -- any eta_t on any points. The corruption covers a drawn
    prefix of the epoch (all of it, half the time); the rest is clean."""
    kind = draw(st.sampled_from(("clean", "aimed", "aimed", "random")), label="epoch_kind")
    if kind == "clean":
        return [{"start": start, "end": end}]
    length = end - start + 1
    active = draw(st.one_of(st.just(length), st.integers(1, length)), label="corrupted_rounds")
    H = instance.hypotheses
    if kind == "aimed":
        against = draw(st.integers(0, len(H) - 1), label="against")
        other = draw(st.one_of(st.just(instance.best), st.integers(0, len(H) - 1)), label="other")
        c = draw(st.sampled_from(CORRUPTION_LEVELS), label="c")
        points = disagreement_points(instance, against, other) or list(range(instance.num_points))
        target = aligned_target(instance, against, c, points)
    else:
        target = draw(st.lists(st.one_of(st.none(), st.fractions(0, 1, max_denominator=32)),
                               min_size=instance.num_points, max_size=instance.num_points), label="random_eta")
    segments = [{"start": start, "end": start + active - 1, "gamma": Fraction(1), "target": target}]
    if active < length:
        segments.append({"start": start + active, "end": end})
    return segments


@st.composite
def population_cases(draw, max_epochs: int = MAX_POPULATION_EPOCHS):
    """A noisy instance and an adversary drawn epoch by epoch (`epoch_corruption`) over
    1..max_epochs complete epochs of the schedule with beta1 in {1/4, 1/2, 1}."""
    instance = draw(noisy_instances(), label="instance")
    beta1 = draw(st.sampled_from(POPULATION_BETA1), label="beta1")
    k = draw(st.integers(1, max_epochs), label="num_epochs")
    segments = []
    tau = 1
    for l in range(1, k + 1):
        length = rational_epoch_length(beta1, l)
        segments += draw(epoch_corruption(instance, tau, tau + length - 1), label=f"epoch_{l}")
        tau += length
    return PopulationCase(instance, adversaries.piecewise(tau - 1, segments), beta1)


@dataclass(frozen=True)
class CounterexampleSetting:
    """The appendix's instance counterexample(xi1, xi2) with its adversary
    counterexample(tau, n)."""

    xi1: Fraction
    xi2: Fraction
    tau: int
    n: int

    @property
    def instance(self) -> Instance:
        return _instances.counterexample(self.xi1, self.xi2)

    @property
    def adversary(self) -> Adversary:
        return adversaries.counterexample(self.tau, self.n)

    def reproducer(self) -> str:
        return (f"CounterexampleSetting(Fraction('{self.xi1}'), Fraction('{self.xi2}'), "
                f"tau={self.tau}, n={self.n})")


@st.composite
def counterexample_settings(draw, max_rounds: int = 2000):
    """xi1 in [1/64, 1] (1/2 and 1 included), xi2 = u xi1 / 64 with u in [0, 1] (the
    proposition's xi2 <= xi1/64, both ends reached), capped so that xi1 + xi2 <= 1;
    tau in [0, n] (no corruption, corruption to the end, and in between)."""
    xi1 = draw(st.one_of(st.sampled_from([Fraction(1, 2), Fraction(1)]),
                         st.fractions(Fraction(1, 64), 1, max_denominator=64)), label="xi1")
    u = draw(st.one_of(st.sampled_from([Fraction(0), Fraction(1)]), st.fractions(0, 1, max_denominator=16)),
             label="xi2_over_xi1_64")
    xi2 = min(xi1 * u / 64, 1 - xi1)
    n = draw(st.integers(1, max_rounds), label="n")
    tau = draw(st.one_of(st.sampled_from([0, n]), st.integers(0, n)), label="tau")
    return CounterexampleSetting(xi1, xi2, tau, n)


@dataclass(frozen=True)
class ThetaExample:
    """An instance, an r0 > 0 and finitely many r >= r0 to compare theta*(r0) with."""

    instance: Instance
    r0: Fraction
    rs: tuple[Fraction, ...]

    def reproducer(self) -> str:
        return (f"ThetaExample(Instance.from_json({self.instance.to_json()!r}), Fraction('{self.r0}'), "
                f"{tuple(str(r) for r in self.rs)!r})")


@st.composite
def theta_examples(draw):
    """r0: a drawn positive rational or one of the distances rho*(h, h*) (where the
    numerator jumps); rs: r0, distances >= r0, points just below a distance, and points
    further out (up to r0 + 2)."""
    instance = draw(instances(), label="instance")
    best = instance.best
    distances = sorted({instance.disagreement(h, best) for h in range(instance.num_hypotheses)} - {Fraction(0)})
    if distances and draw(st.booleans(), label="r0_at_a_distance"):
        r0 = draw(st.sampled_from(distances), label="r0")
    else:
        r0 = draw(st.fractions(Fraction(1, 256), Fraction(3, 2), max_denominator=256), label="r0")
    step = Fraction(1, 1024)
    special = [d for d in distances if d >= r0] + [d - step for d in distances if d - step >= r0]
    further = draw(st.lists(st.fractions(0, 2, max_denominator=64), max_size=6), label="offsets")
    rs = tuple(sorted({r0, *special, *(r0 + f for f in further)}))
    return ThetaExample(instance, r0, rs)


# -- fixed experiments --------------------------------------------------------------------
@dataclass(frozen=True)
class VanillaExperiment:
    """Appendix C.2's experiment: instance counterexample(xi1, xi2), adversary
    counterexample(tau, n) (eta^{x1} = 15/32 up to tau, c_t = 1/32), a fixed seed set."""

    xi1: Fraction
    xi2: Fraction
    n: int
    tau: int
    delta: Fraction
    seeds: tuple[int, ...]
    min_vanilla_eliminations: int  # "most seeds"

    def reproducer(self) -> str:
        return repr(self)


# Measured with the reference (seeds 0..19): vanilla loses h1 on 19 of 20 seeds (first at
# t = 2^13, 2^14 or 2^15; seed 12 keeps it), modified keeps it on all 20; seeds 0..7 all
# lose it under vanilla. At half the scale (n = 2^15, tau = 2^14) vanilla loses it on only
# 12 of 20. The check takes about 5 s (8 seeds x 3 runs of 2^16 rounds).
VANILLA_EXPERIMENT = VanillaExperiment(
    xi1=Fraction(1, 2), xi2=Fraction(1, 128), n=2**16, tau=2**15, delta=Fraction(1, 10),
    seeds=tuple(range(8)), min_vanilla_eliminations=6,
)


@dataclass(frozen=True)
class PassiveSetting:
    name: str
    instance: Instance
    adversary: object

    def __repr__(self) -> str:
        return f"PassiveSetting({self.name!r})"


@dataclass(frozen=True)
class PassiveExperiment:
    settings: tuple[PassiveSetting, ...]
    seeds: tuple[int, ...]
    delta: Fraction
    alpha: Fraction  # the binomial test's level

    def reproducer(self) -> str:
        return repr(self)


def _passive_settings(n: int = 1024) -> tuple[PassiveSetting, ...]:
    """Four small settings with C_total <= n/8. With n = 1024 the bound is about 0.08,
    0.19, 0.39 and 0.10, below the largest gap of the class in the first, second and
    fourth setting (0.4, 0.4, 0.75), so a wrong output there violates it. In the third
    the corruption makes ERM output h2 (gap 1/16, within the bound) on every seed."""
    thresholds = _instances.thresholds(4)
    flipped = tuple(1 - e for e in thresholds.eta)
    realizable = _instances.intervals(4, eta=(Fraction(0), Fraction(1), Fraction(1), Fraction(0)))
    counter = _instances.counterexample(Fraction(1, 2), Fraction(1, 16))
    return (
        PassiveSetting(f"thresholds(4), clean, n={n}", thresholds, adversaries.clean(n)),
        PassiveSetting(f"thresholds(4), 1/8-misspecification towards 1 - eta*, n={n}", thresholds,
                       adversaries.misspecification(Fraction(1, 8), flipped, n)),
        PassiveSetting(f"counterexample(1/2, 1/16), eta^{{x1}} = 3/8 throughout (c = 1/8), n={n}", counter,
                       adversaries.early_burst((Fraction(3, 8), None, None), n, n)),
        PassiveSetting(f"intervals(4) realizable, labels flipped for the first n/8 rounds, n={n}", realizable,
                       adversaries.early_burst(tuple(1 - e for e in realizable.eta), n // 8, n)),
    )


PASSIVE_EXPERIMENT = PassiveExperiment(_passive_settings(), tuple(range(200)), Fraction(1, 10), Fraction(1, 1000))


@dataclass(frozen=True)
class CatoniFrequencyExperiment:
    """A fixed small CALruption setting run on a fixed seed set (the statistical check)."""

    instance: Instance
    adversary: Adversary
    params: Params
    seeds: tuple[int, ...]
    alpha: Fraction  # level of the test

    def __repr__(self) -> str:
        return (f"CatoniFrequencyExperiment(instance={json.dumps(self.instance.to_json())}, "
                f"adversary={json.dumps(self.adversary.to_json())}, params={to_jsonable(self.params)}, "
                f"seeds=range({self.seeds[0]}, {self.seeds[-1] + 1}), alpha={self.alpha})")


def _catoni_experiment() -> CatoniFrequencyExperiment:
    """Thresholds 1[x >= k], k = 0..4, on 4 equally likely points with eta* = (1/10, 3/10,
    7/10, 9/10); a 1/8-misspecification towards (1, 1, 0, 0); n = 80 = |I_1| + |I_2| with
    beta1 = 4; beta3 = 2 log 4 (so e^-beta3 = 1/16 exactly, and |I_l| >= 16 >= 4 beta3,
    the premise of the lemma "Concentration inequality in our case"); 150 seeds."""
    nu = (Fraction(1, 4),) * 4
    eta = (Fraction(1, 10), Fraction(3, 10), Fraction(7, 10), Fraction(9, 10))
    H = tuple(tuple(1 if x >= k else 0 for x in range(4)) for k in range(5))
    n = 80
    params = Params.scaled(n, len(H), Fraction(1, 10), Fraction(1, 4), Fraction(4), PAPER_BETA2,
                           ScaledLog(Fraction(2), Fraction(4)))
    adversary = adversaries.misspecification(Fraction(1, 8), (1, 1, 0, 0), n)
    return CatoniFrequencyExperiment(Instance(nu, eta, H), adversary, params, tuple(range(150)), Fraction(1, 1000))


CATONI_EXPERIMENT = _catoni_experiment()


# -- the findings' counterexamples --------------------------------------------------------
# Each is the minimal counterexample of a FINDINGS.md entry, of the type its check's
# strategy produces; properties/checks/registry.py (KNOWN_EXAMPLES) runs it first, as an explicit
# example, in every profile. Verified exactly in the meta-tests.
def finding_f2_lemma_c1_case() -> Case:
    """FINDINGS F2 (Lemma C.1, lines 1-2): one point, eta* = 39/64 (g = 1/32 in
    `sharp_lemma_c1_case`), eta_t = 31/64 in every round (c_t = 1/8, C_[0,t] = t/8), the
    paper's constants, delta = 1/10, n = 2^16, tape seed 0: h^_t = (0) with gap 7/32 > line 2
    = 0.208270 at t = n."""
    return sharp_lemma_c1_case(Fraction(1, 32), 2**16, 0)


def finding_f5_estimation_lemma_case() -> CraftedCase:
    """FINDINGS F5 (lemma "Estimation accuracy for D^_l" on E_gap), paper premises: nu
    uniform on 3 points, eta* = (0, 0, 1), H = {000, 111}, 20 clean rounds all at x = 0,
    beta1 = 1, beta3 = 1/20480. Epoch 1 fits D^ exactly: R_D^(000) - R_D^(111) = -1 against
    R*(000) - R*(111) = -1/3, so 2/3 > 1/32."""
    instance = Instance([Fraction(1, 3)] * 3, [Fraction(0), Fraction(0), Fraction(1)], ((0, 0, 0), (1, 1, 1)))
    return crafted_case(instance, premise_params(20, 2, Fraction(1), Fraction(1, 20480)), [0] * 20)


def finding_f5_lemma_51_case() -> CraftedCase:
    """FINDINGS F5 (Lemma 5.1, Lemma 5.2 and Theorem 5.1 on E_gap, E_dis1, E_dis2), paper
    premises: nu = (99/100, 1/100), eta* = (0, 1), H = {00, 11}, 84 clean rounds (three
    epochs, beta1 = 1, beta3 = 1/20480) all at the rare point x1, coins balanced: D^ prefers
    11 (Delta = 49/50) in every epoch, h_out = 11 and (49/50)^2 > 72/84."""
    instance = Instance([Fraction(99, 100), Fraction(1, 100)], [Fraction(0), Fraction(1)], ((0, 0), (1, 1)))
    return crafted_case(instance, premise_params(84, 2, Fraction(1), Fraction(1, 20480)), [1] * 84)


def finding_f5_estimation_lemma_one_epoch_case() -> OneEpochCase:
    """FINDINGS F5, one epoch with the paper's own constants (Params.paper): the
    est-helper lemma fails at epoch 1 of 1283198 rounds all at x0 (nu = (1/51, 50/51),
    eta* = 0, H = {11, 01}): R_D^ difference 1, R* difference 1/51, 50/51 > 1/32."""
    return OneEpochCase.from_json({
        "instance": {"nu": ["1/51", "50/51"], "eta": ["0/1", "0/1"], "hypotheses": [[1, 1], [0, 1]]},
        "params": {"regime": "paper", "n": 2097152, "num_hypotheses": 2, "delta": "1/20", "beta_scale": "1/1",
                   "beta1": {"coefficient": "40960/1", "argument": "2520/1"}, "beta2": "5/32",
                   "beta3": {"coefficient": "2/1", "argument": "2520/1"}},
        "state": {"l": 1, "tau": 1, "length": 1283198, "q": ["1/1", "1/1"], "gap_hat": ["0/1", "0/1"]},
        "counts": {"seen": [1283198, 0], "queried": [[1283198, 0], [0, 0]]},
        "prev_seen": [], "past_corruption": [], "epoch_eta": ["0/1", "0/1"], "mode": "one_point_seen"})


def finding_f5_gap_bounds_one_epoch_case() -> OneEpochCase:
    """FINDINGS F5, one epoch with the paper's own constants: the upper bound of the
    estimated gap fails at l = 2 with every round at the rare disputed x4 (nu(x4) = 1/5,
    eta* = 0): Delta^^2 of 00011 is 1 - 5/64 - (tiny) > 2 (Delta + eps_2) = 9/10."""
    return OneEpochCase.from_json({
        "instance": {"nu": ["0/1", "0/1", "4/5", "0/1", "1/5"], "eta": ["0/1"] * 5,
                     "hypotheses": [[0, 0, 0, 1, 1], [0, 0, 0, 0, 0]]},
        "params": {"regime": "paper", "n": 8388608, "num_hypotheses": 2, "delta": "1/20", "beta_scale": "1/1",
                   "beta1": {"coefficient": "40960/1", "argument": "2760/1"}, "beta2": "5/32",
                   "beta3": {"coefficient": "2/1", "argument": "2760/1"}},
        "state": {"l": 2, "tau": 1298104, "length": 5192409, "q": ["0/1", "0/1", "0/1", "21635/432701", "21635/432701"],
                  "gap_hat": ["1/2", "1/2"]},
        "counts": {"seen": [0, 0, 0, 0, 5192409], "queried": [[0, 0], [0, 0], [0, 0], [0, 0], [259619, 0]]},
        "prev_seen": [0, 0, 1038483, 0, 259620], "past_corruption": ["0/1"], "epoch_eta": ["0/1"] * 5,
        "mode": "one_point_seen"})


def finding_f6_final_step_case() -> Case:
    """FINDINGS F6 (the correctness chain's last step, 24 C-bar/n): nu = (1/2, 1/2),
    eta* = (0, 1), H = {01, 10}, beta1 = 1, n = 330 (3 completed epochs), c = 1 on epoch 1
    and 1/8 on epoch 2 (towards (1, 0)), clean after: 3 eps_3 + 3 g_3 = 15/16 >
    6 sqrt(2/330) + 144/330."""
    n = 330
    instance = Instance([Fraction(1, 2)] * 2, [Fraction(0), Fraction(1)], ((0, 1), (1, 0)))
    adversary = adversaries.piecewise(n, [dict(start=1, end=4, gamma=1, target=[1, 0]),
                                          dict(start=5, end=20, gamma=Fraction(1, 8), target=[1, 0]),
                                          dict(start=21, end=n)])
    return Case(instance, adversary, 0, Params.scaled(n, 2, Fraction(1, 10), Fraction(1, 4), 1))


def _population_case(nu, eta, H, etas, beta1) -> PopulationCase:
    """One noisy instance, eta_t = etas[i] on the i-th round, beta1 (every round in epochs)."""
    n = len(etas)
    adversary = adversaries.piecewise(n, [dict(start=t + 1, end=t + 1, gamma=1, target=list(e))
                                          for t, e in enumerate(etas)])
    return PopulationCase(Instance(nu, eta, H), adversary, Fraction(beta1))


def finding_f17_estimation_term_case() -> PopulationCase:
    """FINDINGS F17 (the estimation lemma's corruption term, population level): nu = (1/2, 1/2),
    eta* = (0, 1/4), H = {00, 01, 10} (h* = 00, R* = 1/8), one round with eta_1 = (1/4, 0)
    (c = 1/4): err(01, 10) = 1/2 > 4 c R* + 2 c max{Delta} = 3/8 (= 2 c rho*(01, 10), tex 889)."""
    half = Fraction(1, 2)
    return _population_case((half, half), (Fraction(0), Fraction(1, 4)), ((0, 0), (0, 1), (1, 0)),
                            [(Fraction(1, 4), Fraction(0))], Fraction(1, 4))


def finding_f17_gap_upper_small_case() -> PopulationCase:
    """FINDINGS F17 (upper gap lemma, line 4, small branch): nu = (1/2, 1/2), eta* = (0, 1/8),
    H = {00, 01, 10} (R* = 1/16), one round with eta_1 = (1/32, 3/32) (c = 1/32, 2c = 1/16):
    err(01, 10) = 1/16 > max{Delta}/16 + 4 c R* = 5/128."""
    half = Fraction(1, 2)
    return _population_case((half, half), (Fraction(0), Fraction(1, 8)), ((0, 0), (0, 1), (1, 0)),
                            [(Fraction(1, 32), Fraction(3, 32))], Fraction(1, 4))


def finding_f10_lower_large_case() -> PopulationCase:
    """FINDINGS F10 (lower gap lemma, line 3, large branch) at population: one point,
    eta* = 1/2, H = {(0), (1)} (h* = (0), R* = 1/2, Delta = 0), eta_1 = 1 (c = 1/2):
    -err((1), h*) = 1 > Delta/16 + c = 1/2."""
    return _population_case((Fraction(1),), (Fraction(1, 2),), ((0,), (1,)), [(Fraction(1),)], Fraction(1, 4))


def finding_f10_upper_line8_case() -> PopulationCase:
    """FINDINGS F10 (upper gap lemma, line 8): one point, eta* = 0, H = {(0)} (R* = 0),
    eta_1 = 1 (c = 1, large branch): the Corruption Term 2c = 2 > 4 R* c = 0."""
    return _population_case((Fraction(1),), (Fraction(0),), ((0,),), [(Fraction(1),)], Fraction(1, 4))


def finding_f10_lower_bookkeeping_case() -> PopulationCase:
    """FINDINGS F10 (lower gap lemma, last line): one point, eta* = 0, H = {(1)} (R* = 1),
    eta_1 = 1 (c = 1, large branch): 4 R* c + c = 5 > (18/8) g_1 = 9/2."""
    return _population_case((Fraction(1),), (Fraction(0),), ((1,),), [(Fraction(1),)], Fraction(1, 4))


def finding_f2_lemma_c1_population_case() -> PopulationCase:
    """FINDINGS F2 at population level (Lemma C.1, lines 1-2): one point, eta* = 3/8,
    H = {(0), (1)} (h* = (0), R* = 3/8), eta_t = 1/2 in both rounds of epoch 1 (beta1 = 1/2;
    c_t = 1/8, C_t = t/8 at the checkpoint t = 2): R-bar_2((1)) = R-bar_2((0)) = 1/2, so (1) is a
    minimiser, and its gap 1/4 > 4 (C_t/t) R* = R*/2 = 3/16."""
    return _population_case((Fraction(1),), (Fraction(3, 8),), ((0,), (1,)), [(Fraction(1, 2),)] * 2,
                            Fraction(1, 2))


def finding_f13_a2_middle_case() -> PopulationCase:
    """FINDINGS F13 (Lemma A.2's middle line): nu = (1/2, 1/2), eta* = (0, 0), H = the four
    labelings, one round with eta_1 = (0, 1/2): err(00, 01) = 1/2 > rho* 2 max_h (R_1(h) - R*(h))
    = 1/2 * 2 * 1/4 = 1/4."""
    half = Fraction(1, 2)
    return _population_case((half, half), (Fraction(0), Fraction(0)), ((0, 0), (0, 1), (1, 0), (1, 1)),
                            [(Fraction(0), half)], Fraction(1, 4))


# -- cross-check cases ---------------------------------------------------------------------
CROSSCHECK_SEED = 20261121
CROSSCHECK_MAX_ROUNDS = 1500
# Epoch lengths that are powers of two make every rho^ and q exact in binary floating
# point; 3, 5/2 and a log make them inexact, so the float candidate's rounding shows.
CROSSCHECK_BETA1_CHOICES = BETA1_CHOICES + (Fraction(3), Fraction(5, 2), ScaledLog(Fraction(1, 2), Fraction(20)))


def fixed_crosscheck_cases(count: int = 50, seed: int = CROSSCHECK_SEED) -> list[Case]:
    """The first `count` cases of crosscheck_case_stream(seed), as a list."""
    return list(crosscheck_case_stream(count, seed))


def crosscheck_case_stream(count: int | None = 50, seed: int = CROSSCHECK_SEED):
    """The cases of fixed_crosscheck_cases one at a time (count None: without end), so a
    run under a time budget generates only the cases it reaches. A fixed, reproducible set of (instance, adversary, seed, params) for the cross-check
    (properties/checks/crosscheck.py), from a seeded random.Random so that it does not move with
    Hypothesis's version: up to 8 points and 8 hypotheses (duplicated and complementary
    hypotheses included, for argmin ties and non-unique LP optima), nu with mass-0 points,
    eta with 0, 1/2 and 1, the paper's adversaries (clean, misspecification, early burst,
    the appendix's counter-example) and piecewise ones, scaled CALruption constants with
    several completed epochs (CROSSCHECK_BETA1_CHOICES) and sometimes the paper regime."""
    rng = random.Random(seed)

    def prob():
        return rng.choice(SPECIAL_ETAS) if rng.random() < 0.4 else Fraction(rng.randint(0, 64), 64)

    for i in itertools.count() if count is None else range(count):
        n = rng.randint(64, CROSSCHECK_MAX_ROUNDS)
        if i % 10 == 9:
            xi = Fraction(rng.randint(1, 7), 8)
            instance = _instances.counterexample(xi, (1 - xi) * Fraction(rng.randint(1, 7), 8))
            adversary = adversaries.counterexample(rng.randint(0, n), n)
        else:
            m, k = rng.randint(2, 8), rng.randint(2, 8)
            weights = [rng.choice((0, 1, 1, 3, 8, 20)) for _ in range(m)]
            weights[rng.randrange(m)] += 1
            nu = [Fraction(w, sum(weights)) for w in weights]
            eta = [prob() for _ in range(m)]
            H = [tuple(rng.randint(0, 1) for _ in range(m)) for _ in range(k)]
            if k >= 3 and rng.random() < 0.5:
                H[-1] = H[0]  # a duplicate: exact ties everywhere
            if k >= 3 and rng.random() < 0.5:
                H[-2] = tuple(1 - v for v in H[1])  # a complement: disagrees everywhere
            instance = Instance(nu, eta, H)
            kind = rng.choice(("clean", "misspecification", "burst", "piecewise"))
            if kind == "clean":
                adversary = adversaries.clean(n)
            elif kind == "misspecification":
                adversary = adversaries.misspecification(Fraction(1, rng.choice((4, 8, 32))), [prob() for _ in range(m)], n)
            elif kind == "burst":
                adversary = adversaries.early_burst([prob() for _ in range(m)], rng.randint(0, n), n)
            else:
                cut = rng.randint(1, n)
                segments = [{"start": 1, "end": cut, "gamma": Fraction(1, 2), "target": [prob() for _ in range(m)]}]
                if cut < n:
                    segments.append({"start": cut + 1, "end": n})
                adversary = adversaries.piecewise(n, segments)
        num_h = instance.num_hypotheses
        delta = rng.choice(DELTA_CHOICES)
        if i % 7 == 6:
            params = Params.paper(n, num_h, delta)
        else:
            beta3 = rng.choice(BETA3_CHOICES)
            params = Params.scaled(n, num_h, delta, Fraction(1, 4), rng.choice(CROSSCHECK_BETA1_CHOICES),
                                   rng.choice(BETA2_CHOICES), beta3)
        yield Case(instance, adversary, rng.getrandbits(64), params)


LARGE_CROSSCHECK_SEED = 20261124
LARGE_CROSSCHECK_HYPOTHESES = 256


def fixed_large_crosscheck_cases(count: int = 10, seed: int = LARGE_CROSSCHECK_SEED) -> list[Case]:
    """The first `count` cases of large_crosscheck_case_stream(seed), as a list."""
    return list(large_crosscheck_case_stream(count, seed))


def large_crosscheck_case_stream(count: int | None = 10, seed: int = LARGE_CROSSCHECK_SEED):
    """One at a time (count None: without end), as crosscheck_case_stream: a fixed set of cross-check cases with |H| >= 256 (issue 13: where a fast candidate's
    speed matters, and where the reference fits line 9 by row generation): alternately all
    intervals [a, b) of a line of 23-24 points (277-301 hypotheses) and 256 random labelings
    of 10-16 points with duplicates and complements; nu with mass-0 points; eta with 0, 1/2
    and 1; clean, misspecified and bursty adversaries; scaled constants with beta1 = 16 and
    2-3 completed CALruption epochs (64, 256 and 1024 rounds)."""
    rng = random.Random(seed)
    for i in itertools.count() if count is None else range(count):
        if i % 2 == 0:
            m = rng.choice((23, 24))
            H = [tuple(int(a <= x < b) for x in range(m)) for a in range(m) for b in range(a + 1, m + 1)]
            H.insert(0, (0,) * m)
        else:
            m = rng.randint(10, 16)
            H = [tuple(rng.randint(0, 1) for _ in range(m)) for _ in range(LARGE_CROSSCHECK_HYPOTHESES)]
            for j in range(0, len(H) - 1, 17):
                H[j + 1] = H[j] if j % 2 else tuple(1 - v for v in H[j])
        weights = [rng.choice((0, 1, 1, 3, 8)) for _ in range(m)]
        weights[rng.randrange(m)] += 1
        nu = [Fraction(w, sum(weights)) for w in weights]
        eta = [rng.choice(SPECIAL_ETAS) if rng.random() < 0.4 else Fraction(rng.randint(0, 64), 64) for _ in range(m)]
        instance = Instance(nu, eta, H)
        n = rng.randint(64 + 256 + 1, 64 + 256 + 1024 + 200)
        kind = rng.choice(("clean", "misspecification", "burst"))
        if kind == "clean":
            adversary = adversaries.clean(n)
        elif kind == "misspecification":
            adversary = adversaries.misspecification(Fraction(1, 8), [Fraction(rng.randint(0, 8), 8) for _ in range(m)], n)
        else:
            adversary = adversaries.early_burst([Fraction(rng.randint(0, 8), 8) for _ in range(m)], rng.randint(0, n), n)
        params = Params.scaled(n, len(H), rng.choice(DELTA_CHOICES), Fraction(1, 4), Fraction(16))
        yield Case(instance, adversary, rng.getrandbits(64), params)


# -- tape samplers (properties/checks/sampler.py) -------------------------------------------
# cral-tape-v1 hashes rounds in blocks of 1024 (reference/tape.py): the rounds on either side
# of a block's end, and the ends of the first two blocks, are where a sampler that gets the
# block arithmetic wrong differs.
SAMPLER_MAX_ROUNDS = 3000
BLOCK_EDGE_ROUNDS = (1023, 1024, 1025, 2047, 2048, 2049)
SEED_EDGES = (0, 1, 2**64 - 1)


@dataclass(frozen=True)
class SamplerCase:
    """What `sample_tape` receives: an instance, an adversary (its n is the tape's length)
    and a seed."""

    instance: Instance
    adversary: Adversary
    seed: int

    def to_json(self) -> dict:
        return {"instance": self.instance.to_json(), "adversary": self.adversary.to_json(), "seed": self.seed}

    @classmethod
    def from_json(cls, data) -> "SamplerCase":
        return cls(Instance.from_json(data["instance"]), Adversary.from_json(data["adversary"]), data["seed"])

    def reproducer(self) -> str:
        return f"properties.strategies.SamplerCase.from_json(json.loads({json.dumps(json.dumps(self.to_json()))}))"

    def __repr__(self) -> str:
        return f"SamplerCase.from_json({json.dumps(self.to_json())})"


def sampler_rounds(min_rounds: int = 1, max_rounds: int = SAMPLER_MAX_ROUNDS):
    """n: small, anywhere up to max_rounds, or at a block edge of cral-tape-v1."""
    edges = [e for e in BLOCK_EDGE_ROUNDS if min_rounds <= e <= max_rounds]
    choices = [st.integers(min_rounds, min(600, max_rounds)), st.integers(min_rounds, max_rounds)]
    return st.one_of(*choices, *([st.sampled_from(edges)] if edges else []))


def sampler_seeds():
    return st.one_of(st.sampled_from(SEED_EDGES), st.integers(0, 2**64 - 1))


@st.composite
def sampler_cases(draw, max_rounds: int = SAMPLER_MAX_ROUNDS):
    """An instance of `instances` (mass-0 points, eta in {0, 1/2, 1}), n across the
    1024-round block edges, an adversary of `adversaries_for` (clean, misspecification,
    bursts, piecewise with up to 5 segments) and a seed (0, 1, 2^64 - 1 or any)."""
    instance = draw(instances(), label="instance")
    n = draw(sampler_rounds(1, max_rounds), label="n")
    adversary = draw(adversaries_for(instance, n), label="adversary")
    seed = draw(sampler_seeds(), label="seed")
    return SamplerCase(instance, adversary, seed)


def prefix_adversary(adversary: Adversary, n: int) -> Adversary:
    """The adversary's first n rounds: its segments up to round n, the last one cut at n
    (eta_t unchanged for t <= n)."""
    if not 1 <= n <= adversary.n:
        raise ValueError(f"n must lie in 1..{adversary.n}, got {n}")
    kept = [adversaries.Segment(s.start, min(s.end, n), s.gamma, s.target) for s in adversary.segments
            if s.start <= n]
    return adversaries.piecewise(n, kept)


@dataclass(frozen=True)
class SamplerPrefixCase:
    """A seed, an instance, an adversary of n_long rounds and a shorter horizon n: the tape
    of `prefix_adversary(adversary, n)` must be the first n rounds of the adversary's."""

    instance: Instance
    adversary: Adversary
    n: int
    seed: int

    @property
    def short_adversary(self) -> Adversary:
        return prefix_adversary(self.adversary, self.n)

    def to_json(self) -> dict:
        return {"instance": self.instance.to_json(), "adversary": self.adversary.to_json(), "n": self.n,
                "seed": self.seed}

    @classmethod
    def from_json(cls, data) -> "SamplerPrefixCase":
        return cls(Instance.from_json(data["instance"]), Adversary.from_json(data["adversary"]), data["n"],
                   data["seed"])

    def reproducer(self) -> str:
        return ("properties.strategies.SamplerPrefixCase.from_json("
                f"json.loads({json.dumps(json.dumps(self.to_json()))}))")

    def __repr__(self) -> str:
        return f"SamplerPrefixCase.from_json({json.dumps(self.to_json())})"


@st.composite
def sampler_prefix_cases(draw, max_rounds: int = SAMPLER_MAX_ROUNDS):
    """A `sampler_cases` draw with n_long >= 2 and a shorter n in 1..n_long - 1: anywhere,
    or at round 1 or a block edge (so the short tape ends inside, at, or just past a
    block of cral-tape-v1, and the cut falls inside a segment or on its end)."""
    instance = draw(instances(), label="instance")
    n_long = draw(sampler_rounds(2, max_rounds), label="n_long")
    adversary = draw(adversaries_for(instance, n_long), label="adversary")
    edges = [e for e in (1, *BLOCK_EDGE_ROUNDS) if e < n_long]
    ends = [s.end for s in adversary.segments if s.end < n_long]
    n = draw(st.one_of(st.integers(1, n_long - 1), st.sampled_from(edges + ends)), label="n")
    seed = draw(sampler_seeds(), label="seed")
    return SamplerPrefixCase(instance, adversary, n, seed)


@dataclass(frozen=True)
class SamplerLawSetting:
    name: str
    instance: Instance
    adversary: Adversary
    seed: int

    def __repr__(self) -> str:
        return f"SamplerLawSetting({self.name!r})"


@dataclass(frozen=True)
class SamplerLawExperiment:
    """Fixed settings (each one tape, from its seed) and the overall error rate of the
    test (split by Bonferroni over every test it makes)."""

    settings: tuple[SamplerLawSetting, ...]
    alpha: Fraction

    def reproducer(self) -> str:
        return repr(self)


def _sampler_law_settings() -> tuple[SamplerLawSetting, ...]:
    """Three settings, 22096 rounds in all, every one across several 1024-round blocks:
    A: four points, nu = (1/2, 1/4, 3/16, 1/16), eta* = (1/10, 1/2, 9/10, 1/4); a burst
       (eta_t = (9/10, 1/10, 9/10, 3/4), rounds 1..3000), a 1/4-misspecification towards
       (1, 0, 0, 1) (eta_t = (13/40, 3/8, 27/40, 7/16), 3001..7000), then clean (..12000):
       eta_t is far from eta* on hundreds to thousands of rounds per point and segment, so
       a sampler that draws labels from eta* is rejected with overwhelming probability;
    B: the appendix's counterexample(1/2, 1/16) with its adversary counterexample(3000, 6000)
       (eta^{x1} = 15/32 up to tau, then 1/2; deterministic labels at x2, x3);
    C: a mass-0 point and deterministic labels, nu = (0, 1/3, 2/3), eta* = (1/2, 0, 1),
       labels flipped for the first 2048 rounds (early_burst((0, 1, 0), 2048, 4096))."""
    a = Instance((Fraction(1, 2), Fraction(1, 4), Fraction(3, 16), Fraction(1, 16)),
                 (Fraction(1, 10), Fraction(1, 2), Fraction(9, 10), Fraction(1, 4)),
                 ((0, 0, 0, 0), (1, 1, 1, 1), (0, 1, 1, 1)))
    a_adversary = adversaries.piecewise(12000, [
        {"start": 1, "end": 3000, "gamma": 1, "target": (Fraction(9, 10), Fraction(1, 10), None, Fraction(3, 4))},
        {"start": 3001, "end": 7000, "gamma": Fraction(1, 4), "target": (1, 0, 0, 1)},
        {"start": 7001, "end": 12000}])
    c = Instance((Fraction(0), Fraction(1, 3), Fraction(2, 3)), (Fraction(1, 2), Fraction(0), Fraction(1)),
                 ((0, 0, 1), (1, 1, 0)))
    return (
        SamplerLawSetting("A: four points, burst / 1/4-misspecification / clean, n=12000", a, a_adversary, 101),
        SamplerLawSetting("B: counterexample(1/2, 1/16), counterexample adversary tau=3000, n=6000",
                          _instances.counterexample(Fraction(1, 2), Fraction(1, 16)),
                          adversaries.counterexample(3000, 6000), 202),
        SamplerLawSetting("C: mass-0 point, deterministic labels flipped for 2048 of 4096 rounds", c,
                          adversaries.early_burst((0, 1, 0), 2048, 4096), 303),
    )


SAMPLER_LAW_EXPERIMENT = SamplerLawExperiment(_sampler_law_settings(), Fraction(1, 10**6))


# -- Catoni problems (catoni_root called directly; properties/checks/catoni.py) ------------
# catoni_root(values, counts, alpha) encloses the root of f(z) = sum_i counts[i] psi(alpha
# (values[i] - z)) (appendix lemma "Concentration inequality for Catoni's estimator").
# The algorithms only ever pass it sorted, grouped data of moderate size; these problems
# are what the contract allows beyond that: entries in any order, a value repeated over
# several entries, one entry, all entries equal, magnitudes from 2^-40 to 2^40 and
# integers beyond 2^53 (not floats), counts up to 10^12, alpha from ~2^-40 to ~2^40, and
# data whose root is rational (so an exact implementation may return a point).
CATONI_MAX_ENTRIES = 8
CATONI_MAX_COUNT = 10**12
CATONI_EXPONENT = 40  # the extreme magnitudes: 2^-40 .. 2^40
CATONI_KINDS = ("small", "single", "constant", "symmetric", "rational_root", "extreme", "large_integers")


@dataclass(frozen=True)
class CatoniProblem:
    """One call catoni_root(values, counts, alpha) with valid arguments (counts >= 1),
    the kind of data it is, and a reordering of its entries (for the invariance check)."""

    values: tuple[Fraction, ...]
    counts: tuple[int, ...]
    alpha: Fraction
    kind: str
    permutation: tuple[int, ...]

    @property
    def max_abs(self) -> Fraction:
        return max(abs(v) for v in self.values)

    def reproducer(self) -> str:
        values = ", ".join(f"Fraction('{v}')" for v in self.values)
        return (f"properties.strategies.CatoniProblem(values=({values},), counts={self.counts!r}, "
                f"alpha=Fraction('{self.alpha}'), kind={self.kind!r}, permutation={self.permutation!r})")

    def __repr__(self) -> str:
        return self.reproducer()


def _catoni_counts(draw, k: int) -> list[int]:
    """Counts from 1 to 10^12, the ends themselves included often."""
    return [draw(st.one_of(st.sampled_from((1, 2, CATONI_MAX_COUNT)), st.integers(1, 50),
                           st.integers(1, CATONI_MAX_COUNT)), label=f"count_{i}") for i in range(k)]


def _catoni_alpha(draw) -> Fraction:
    scale = draw(st.sampled_from(("moderate", "tiny", "huge")), label="alpha_scale")
    base = draw(st.fractions(Fraction(1, 16), 16, max_denominator=16), label="alpha_base")
    if scale == "tiny":
        return base / 2 ** draw(st.integers(CATONI_EXPONENT - 4, CATONI_EXPONENT), label="alpha_exponent")
    if scale == "huge":
        return base * 2 ** draw(st.integers(CATONI_EXPONENT - 4, CATONI_EXPONENT), label="alpha_exponent")
    return base


def _catoni_value(draw, label: str, kind: str) -> Fraction:
    if kind == "extreme":
        # +-m 2^e over the whole range of exponents: tiny and huge values in one problem
        mantissa = draw(st.fractions(Fraction(-8), 8, max_denominator=7), label=f"{label}_mantissa")
        exponent = draw(st.one_of(st.sampled_from((-CATONI_EXPONENT, CATONI_EXPONENT)),
                                  st.integers(-CATONI_EXPONENT, CATONI_EXPONENT)), label=f"{label}_exponent")
        return mantissa * Fraction(2) ** exponent
    if kind == "large_integers":
        # around 10^18 and 2^64: beyond 2^53, so float64 cannot hold them exactly
        centre = draw(st.sampled_from((10**18, 2**64, -(2**62))), label=f"{label}_centre")
        return Fraction(centre + draw(st.integers(-1000, 1000), label=f"{label}_offset"))
    return draw(st.fractions(Fraction(-8), 8, max_denominator=16), label=label)


@st.composite
def catoni_problems(draw):
    """Valid catoni_root arguments of the kinds of CATONI_KINDS (see the section notes).
    Entries come in draw order (unsorted), and values are drawn from a small pool so that
    the same value often fills several entries; "symmetric" data (values c +- d_j with
    matching counts) and "rational_root" data (c + 2s, c - 6s with counts 2k, k and
    alpha = 1/s: 2 ln(1 + 2 + 2) = ln(1 + 6 + 18), plus entries at c) have the rational
    root c."""
    kind = draw(st.sampled_from(CATONI_KINDS), label="catoni_kind")
    if kind == "single":
        values = [_catoni_value(draw, "value", draw(st.sampled_from(("small", "extreme", "large_integers")),
                                                    label="single_scale"))]
        counts = _catoni_counts(draw, 1)
        alpha = _catoni_alpha(draw)
    elif kind == "constant":
        k = draw(st.integers(2, CATONI_MAX_ENTRIES), label="entries")
        value = _catoni_value(draw, "value", draw(st.sampled_from(("small", "extreme", "large_integers")),
                                                  label="constant_scale"))
        values, counts, alpha = [value] * k, _catoni_counts(draw, k), _catoni_alpha(draw)
    elif kind == "symmetric":
        centre = _catoni_value(draw, "centre", "small")
        pairs = draw(st.integers(1, (CATONI_MAX_ENTRIES - 1) // 2), label="pairs")
        values, counts = [], []
        for j, count in enumerate(_catoni_counts(draw, pairs)):
            d = draw(st.fractions(Fraction(1, 16), 8, max_denominator=16), label=f"offset_{j}")
            values += [centre + d, centre - d]
            counts += [count, count]
        if draw(st.booleans(), label="entry_at_centre"):
            values.append(centre)
            counts += _catoni_counts(draw, 1)
        alpha = _catoni_alpha(draw)
    elif kind == "rational_root":
        centre = _catoni_value(draw, "centre", draw(st.sampled_from(("small", "extreme")), label="centre_scale"))
        s = draw(st.sampled_from((Fraction(1), Fraction(1, 3), Fraction(1, 2**CATONI_EXPONENT),
                                  Fraction(2**CATONI_EXPONENT), Fraction(5, 7))), label="root_scale")
        k = draw(st.integers(1, CATONI_MAX_COUNT // 2), label="root_count")
        values, counts, alpha = [centre + 2 * s, centre - 6 * s], [2 * k, k], 1 / s
        if draw(st.booleans(), label="entry_at_centre"):
            values.append(centre)
            counts += _catoni_counts(draw, 1)
    else:  # small, extreme, large_integers: a pool of values spread over the entries
        k = draw(st.integers(2, CATONI_MAX_ENTRIES), label="entries")
        pool = [_catoni_value(draw, f"pool_{j}", kind)
                for j in range(draw(st.integers(2, k), label="distinct_values"))]
        values = [pool[draw(st.integers(0, len(pool) - 1), label=f"entry_{i}")] for i in range(k)]
        counts, alpha = _catoni_counts(draw, k), _catoni_alpha(draw)
    if kind in ("symmetric", "rational_root"):
        order = draw(st.permutations(range(len(values))), label="entry_order")  # not sorted by construction
        values, counts = [values[i] for i in order], [counts[i] for i in order]
    permutation = draw(st.permutations(range(len(values))), label="permutation")
    return CatoniProblem(tuple(values), tuple(counts), alpha, kind, tuple(permutation))


# -- boundary tapes -------------------------------------------------------------------------
# Tapes whose coins, checkpoint rounds or risks sit exactly on a decision boundary of the
# algorithms (issue 11, item 4). A sampled 64-bit coin equals a query probability q with
# probability ~2^-64, so "Q_t = 1 iff u_t < q" (Algorithm 2, line 4; DESIGN) and "u_t <= q"
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
        picks = draw(st.lists(st.integers(0, len(rounds) - 1), min_size=k, max_size=k, unique=True),
                     label="boundary_round_picks")
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
        return checkpoint_update(self.H, self.V, seen, queried, self.labels + asked, t, self.params,
                                 self.vanilla).next_version_space

    def step(self, t: int, x: int, y: int, checkpoint: bool) -> None:
        self.seen[x] += 1
        if x in self.dis:  # line 4
            self.queried[x][y] += 1
            self.labels += 1
        if checkpoint:  # lines 7-10
            self.V = checkpoint_update(self.H, self.V, self.seen, self.queried, self.labels, t, self.params,
                                       self.vanilla).next_version_space


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
        closing = [(x, y) for x in disputed for y in allowed_labels(eta_t[x])
                   if (y == H[a][x] and gap < 0) or (y == H[b][x] and gap > 0)]
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
