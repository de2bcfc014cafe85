"""Hypothesis strategies for the suite, valid by construction (no filtering).

Sizes are bounded (points <= 6, hypotheses <= 8, rounds <= MAX_ROUNDS) and every
rational has a bounded denominator, so examples are small and shrink well. Every
`draw` carries a label, so a failing example reads as a list of named choices."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from reference import Instance, Params, adversary as adversaries

from .case import Case

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


# -- adversaries ------------------------------------------------------------------------
ADVERSARY_KINDS = ("clean", "misspecification", "burst", "piecewise", "theorem41_ok", "theorem41_violated")


@st.composite
def adversaries_for(draw, instance: Instance, n: int, kinds=ADVERSARY_KINDS):
    """An oblivious adversary for `instance` over n rounds, of one of `kinds`:
    clean; gamma-misspecification; early burst (any eta until tau, then clean); random
    piecewise within a drawn corruption budget; one that satisfies Theorem 4.1's
    C_[0,t] <= t/8 (every segment's c_t <= 1/8); one that violates it (a burst of c = 1
    at the start)."""
    m = instance.num_points
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
    # piecewise schedules: gamma <= 1/8 keeps every c_t <= 1/8 (Theorem 4.1's condition)
    cap = Fraction(1, 8) if kind == "theorem41_ok" else Fraction(1)
    cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=4), label="cuts")) if n > 1 else []
    bounds = [0, *cuts, n]
    segments = []
    for a, b in zip(bounds, bounds[1:]):
        gamma = draw(st.fractions(0, cap, max_denominator=32), label="segment_gamma")
        target = draw(st.lists(st.one_of(st.none(), probabilities()), min_size=m, max_size=m), label="segment_target")
        segments.append({"start": a + 1, "end": b, "gamma": gamma, "target": target})
    return adversaries.piecewise(n, segments)


# -- parameters ---------------------------------------------------------------------------
@st.composite
def params_for(draw, n: int, num_hypotheses: int, regimes=("paper", "scaled")):
    regime = draw(st.sampled_from(regimes), label="regime")
    delta = draw(st.sampled_from([Fraction(1, 20), Fraction(1, 10), Fraction(1, 3)]), label="delta")
    if regime == "paper":
        return Params.paper(n, num_hypotheses, delta)
    beta_scale = draw(st.sampled_from([Fraction(1, 16), Fraction(1, 4), Fraction(1)]), label="beta_scale")
    beta1 = draw(st.sampled_from([Fraction(1), Fraction(2), Fraction(4)]), label="beta1")
    return Params.scaled(n, num_hypotheses, delta, beta_scale, beta1)


@st.composite
def cases(draw, max_rounds: int = MAX_ROUNDS, adversary_kinds=ADVERSARY_KINDS, regimes=("paper", "scaled")):
    """instance + adversary + seed + params: everything a run needs."""
    instance = draw(instances(), label="instance")
    n = draw(st.integers(1, max_rounds), label="n")
    adversary = draw(adversaries_for(instance, n, adversary_kinds), label="adversary")
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    params = draw(params_for(n, instance.num_hypotheses, regimes), label="params")
    return Case(instance, adversary, seed, params)
