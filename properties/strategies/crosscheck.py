"""The cross-check's fixed case sets (`crosscheck`, `crosscheck --large`): reproducible
streams of cases from a seed."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from properties.core.case import Case
from properties.strategies.instances import BETA1_CHOICES, BETA2_CHOICES, BETA3_CHOICES, DELTA_CHOICES, SPECIAL_ETAS
from reference import Instance, Params
from reference import adversary as adversaries
from reference import instances as _instances
from reference.certified import ScaledLog

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
                adversary = adversaries.misspecification(
                    Fraction(1, rng.choice((4, 8, 32))), [prob() for _ in range(m)], n
                )
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
            params = Params.scaled(
                n, num_h, delta, Fraction(1, 4), rng.choice(CROSSCHECK_BETA1_CHOICES), rng.choice(BETA2_CHOICES), beta3
            )
        yield Case(instance, adversary, rng.getrandbits(64), params)


LARGE_CROSSCHECK_SEED = 20261124
LARGE_CROSSCHECK_HYPOTHESES = 256


def fixed_large_crosscheck_cases(count: int = 10, seed: int = LARGE_CROSSCHECK_SEED) -> list[Case]:
    """The first `count` cases of large_crosscheck_case_stream(seed), as a list."""
    return list(large_crosscheck_case_stream(count, seed))


def large_crosscheck_case_stream(count: int | None = 10, seed: int = LARGE_CROSSCHECK_SEED):
    """One at a time (count None: without end), as crosscheck_case_stream: a fixed set of cross-check cases with |H| >= 256 (where a fast candidate's
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
            adversary = adversaries.misspecification(
                Fraction(1, 8), [Fraction(rng.randint(0, 8), 8) for _ in range(m)], n
            )
        else:
            adversary = adversaries.early_burst(
                [Fraction(rng.randint(0, 8), 8) for _ in range(m)], rng.randint(0, n), n
            )
        params = Params.scaled(n, len(H), rng.choice(DELTA_CHOICES), Fraction(1, 4), Fraction(16))
        yield Case(instance, adversary, rng.getrandbits(64), params)
