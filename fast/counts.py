"""Counts mode: draw the per-point counts of each update directly, so that a run costs the
same for n = 10^4 and n = 10^12.

Every algorithm here sees the stream only through per-point counts over an interval of
rounds (an epoch of CALruption, the rounds between two checkpoints of RobustCAL, the
whole stream for passive ERM). Over a piece of the interval where the adversary's eta_t
is constant (one segment of the oblivious schedule, Section 2), the rounds are i.i.d.:
x_t ~ nu*, y_t ~ Ber(eta_t^{x_t}), and the coin Q_t ~ Ber(q^{x_t}) independently. So
  seen ~ Multinomial(L, nu*),
  queried[x] ~ Binomial(seen[x], q^x)                   (CALruption; RobustCAL: seen[x] on Dis, 0 off it),
  queried[x, 1] ~ Binomial(queried[x], eta_t^x),
independently across pieces, is exactly the law of the tape's counts (up to the 2^-64
grid of the tape's coins). tests/fast/test_counts.py checks the two modes against each
other statistically.

Unlike tape mode, counts mode needs the environment (nu*, the adversary): it simulates
the world, it does not replay one."""

from __future__ import annotations

import numpy as np

from reference.adversary import Adversary
from reference.instance import Instance

from .matrix_instance import MatrixInstance

# the counts are int64: a horizon up to 2^62 leaves room for the sums of counts and labels
MAX_ROUNDS = 2**62


class Environment:
    """nu* and the adversary's segments as float64 (the sampling probabilities)."""

    def __init__(self, instance: Instance, adversary: Adversary):
        if not isinstance(instance, (Instance, MatrixInstance)):
            raise ValueError(
                f"instance must be a reference.Instance or a fast.MatrixInstance, got {type(instance).__name__}"
            )
        if not isinstance(adversary, Adversary):
            raise ValueError(f"adversary must be a reference.adversary.Adversary, got {type(adversary).__name__}")
        self.n = adversary.n
        self.m = instance.num_points
        self.nu = np.array([float(p) for p in instance.nu])
        self.segments = [
            (start, end, np.array([float(e) for e in eta])) for start, end, eta, _ in adversary.bind(instance)
        ]

    def pieces(self, start: int, end: int):
        """(length, eta_t) for each segment's overlap with rounds start..end."""
        for seg_start, seg_end, eta in self.segments:
            lo, hi = max(start, seg_start), min(end, seg_end)
            if lo <= hi:
                yield hi - lo + 1, eta


def _labelled(rng, asked, eta):
    ones = rng.binomial(asked, eta)
    return np.stack([asked - ones, ones], axis=1)


def label_counts(env: Environment, rng) -> np.ndarray:
    total = np.zeros((env.m, 2), dtype=np.int64)
    for length, eta in env.pieces(1, env.n):
        total += _labelled(rng, rng.multinomial(length, env.nu), eta)
    return total


def _per_update(env: Environment, rng, asked):
    """counts(start, end, rule) for the engines; asked(drawn, rule) is how many of the drawn
    rounds per point are queried."""

    def counts(start, end, rule):
        seen = np.zeros(env.m, dtype=np.int64)
        queried = np.zeros((env.m, 2), dtype=np.int64)
        for length, eta in env.pieces(start, end):
            drawn = rng.multinomial(length, env.nu)
            seen += drawn
            queried += _labelled(rng, asked(drawn, rule), eta)
        return seen, queried

    return counts


def interval_counts(env: Environment, rng):
    """RobustCAL: every round at x in Dis(V_t) is queried (line 4)."""
    return _per_update(env, rng, lambda drawn, dis: np.where(dis, drawn, 0))


def epoch_counts(env: Environment, rng):
    """CALruption: each round at x is queried with probability q^x, independently (line 4)."""
    return _per_update(env, rng, lambda drawn, q: rng.binomial(drawn, q))
