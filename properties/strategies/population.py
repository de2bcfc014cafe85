"""Corruption-population cases (properties/checks/corruption_population.py): noisy instances, per-epoch corruption,
and the counterexample settings and theta examples of the lemmas."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

from properties.core.example_types import tagged
from properties.strategies.instances import (
    MAX_POINTS,
    aligned_target,
    distributions,
    epoch_schedule,
    instances,
    rational_epoch_length,
)
from reference import Adversary, Instance
from reference import adversary as adversaries
from reference import instances as _instances

# -- population cases ----------------------------------------------------------------------
# Exact expectations under nu*, eta* and the adversary's eta_t, no sampling: the corruption
# terms of the proofs (properties/checks/corruption_population.py) on CALruption's epochs.
POPULATION_INTERIOR_ETAS = tuple(Fraction(k, 16) for k in (1, 2, 4, 6, 10, 12, 14, 15))
POPULATION_EDGE_ETAS = (Fraction(0), Fraction(1, 2), Fraction(1))
CORRUPTION_LEVELS = (Fraction(1, 32), Fraction(1, 16), Fraction(1, 8), Fraction(1, 4))  # 1/8: Theorem 4.1's budget
POPULATION_BETA1 = (Fraction(1, 4), Fraction(1, 2), Fraction(1))  # first epochs of 1, 2 or 4 rounds
MAX_POPULATION_HYPOTHESES = 6
MAX_POPULATION_EPOCHS = 3  # at most 4 + 16 + 64 = 84 rounds


@tagged("cral-population-case/v1")
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
    def from_json(cls, data) -> PopulationCase:
        return cls(
            Instance.from_json(data["instance"]), Adversary.from_json(data["adversary"]), Fraction(data["beta1"])
        )

    def reproducer(self) -> str:
        """A line of Python that rebuilds this case."""
        return f"properties.strategies.PopulationCase.from_json(json.loads({json.dumps(json.dumps(self.to_json()))}))"

    def __repr__(self) -> str:
        return f"PopulationCase.from_json({json.dumps(self.to_json())})"


def population_etas(mode: str):
    """eta* at one point: strictly inside (0, 1) ("interior"), at {0, 1/2, 1} ("edges"),
    or either ("mixed")."""
    interior = st.one_of(
        st.sampled_from(POPULATION_INTERIOR_ETAS), st.fractions(Fraction(1, 64), Fraction(63, 64), max_denominator=64)
    )
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
        target = draw(
            st.lists(
                st.one_of(st.none(), st.fractions(0, 1, max_denominator=32)),
                min_size=instance.num_points,
                max_size=instance.num_points,
            ),
            label="random_eta",
        )
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
        return f"CounterexampleSetting(Fraction('{self.xi1}'), Fraction('{self.xi2}'), tau={self.tau}, n={self.n})"


@st.composite
def counterexample_settings(draw, max_rounds: int = 2000):
    """xi1 in [1/64, 1] (1/2 and 1 included), xi2 = u xi1 / 64 with u in [0, 1] (the
    proposition's xi2 <= xi1/64, both ends reached), capped so that xi1 + xi2 <= 1;
    tau in [0, n] (no corruption, corruption to the end, and in between)."""
    xi1 = draw(
        st.one_of(st.sampled_from([Fraction(1, 2), Fraction(1)]), st.fractions(Fraction(1, 64), 1, max_denominator=64)),
        label="xi1",
    )
    u = draw(
        st.one_of(st.sampled_from([Fraction(0), Fraction(1)]), st.fractions(0, 1, max_denominator=16)),
        label="xi2_over_xi1_64",
    )
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
        return (
            f"ThetaExample(Instance.from_json({self.instance.to_json()!r}), Fraction('{self.r0}'), "
            f"{tuple(str(r) for r in self.rs)!r})"
        )


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
