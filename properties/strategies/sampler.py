"""Tapes for the sampler's checks (properties/checks/sampler.py): rounds, seeds and block
edges."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

from properties.core.example_types import tagged
from properties.strategies.instances import adversaries_for, instances
from reference import Adversary, Instance
from reference import adversary as adversaries
from reference import instances as _instances

# -- tape samplers (properties/checks/sampler.py) -------------------------------------------
# cral-tape-v1 hashes rounds in blocks of 1024 (reference/tape.py): the rounds on either side
# of a block's end, and the ends of the first two blocks, are where a sampler that gets the
# block arithmetic wrong differs.
SAMPLER_MAX_ROUNDS = 3000
BLOCK_EDGE_ROUNDS = (1023, 1024, 1025, 2047, 2048, 2049)
SEED_EDGES = (0, 1, 2**64 - 1)


@tagged("cral-sampler-case/v1")
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
    def from_json(cls, data) -> SamplerCase:
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
    kept = [adversaries.Segment(s.start, min(s.end, n), s.gamma, s.target) for s in adversary.segments if s.start <= n]
    return adversaries.piecewise(n, kept)


@tagged("cral-sampler-prefix-case/v1")
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
        return {
            "instance": self.instance.to_json(),
            "adversary": self.adversary.to_json(),
            "n": self.n,
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data) -> SamplerPrefixCase:
        return cls(
            Instance.from_json(data["instance"]), Adversary.from_json(data["adversary"]), data["n"], data["seed"]
        )

    def reproducer(self) -> str:
        return (
            f"properties.strategies.SamplerPrefixCase.from_json(json.loads({json.dumps(json.dumps(self.to_json()))}))"
        )

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
    a = Instance(
        (Fraction(1, 2), Fraction(1, 4), Fraction(3, 16), Fraction(1, 16)),
        (Fraction(1, 10), Fraction(1, 2), Fraction(9, 10), Fraction(1, 4)),
        ((0, 0, 0, 0), (1, 1, 1, 1), (0, 1, 1, 1)),
    )
    a_adversary = adversaries.piecewise(
        12000,
        [
            {"start": 1, "end": 3000, "gamma": 1, "target": (Fraction(9, 10), Fraction(1, 10), None, Fraction(3, 4))},
            {"start": 3001, "end": 7000, "gamma": Fraction(1, 4), "target": (1, 0, 0, 1)},
            {"start": 7001, "end": 12000},
        ],
    )
    c = Instance(
        (Fraction(0), Fraction(1, 3), Fraction(2, 3)),
        (Fraction(1, 2), Fraction(0), Fraction(1)),
        ((0, 0, 1), (1, 1, 0)),
    )
    return (
        SamplerLawSetting("A: four points, burst / 1/4-misspecification / clean, n=12000", a, a_adversary, 101),
        SamplerLawSetting(
            "B: counterexample(1/2, 1/16), counterexample adversary tau=3000, n=6000",
            _instances.counterexample(Fraction(1, 2), Fraction(1, 16)),
            adversaries.counterexample(3000, 6000),
            202,
        ),
        SamplerLawSetting(
            "C: mass-0 point, deterministic labels flipped for 2048 of 4096 rounds",
            c,
            adversaries.early_burst((0, 1, 0), 2048, 4096),
            303,
        ),
    )


SAMPLER_LAW_EXPERIMENT = SamplerLawExperiment(_sampler_law_settings(), Fraction(1, 10**6))
