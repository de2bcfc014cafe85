"""Meta-tests of the population strategies (properties/strategies/): valid
and bounded examples that reach R* > 0, eta* strictly inside (0, 1) and at {0, 1/2, 1},
aimed adversaries at each c in CORRUPTION_LEVELS, random adversaries, both branches of the
gap lemmas and Theorem 4.1's budget edge."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings

from properties import strategies as S
from tests.support.sampling import reach

# a reach test asks whether some draw has the edge case: the first one found is enough, so
# the draws are generated from a fixed seed and never shrunk
SEARCH = 3000


@given(case=S.population_cases())
@settings(max_examples=60, deadline=None, database=None)
def test_population_cases_are_valid_and_bounded(case):
    inst, epochs = case.instance, case.epochs
    assert 1 <= inst.num_points <= S.MAX_POINTS and 1 <= inst.num_hypotheses <= S.MAX_POPULATION_HYPOTHESES
    assert 1 <= len(epochs) <= S.MAX_POPULATION_EPOCHS and case.beta1 in S.POPULATION_BETA1
    assert sum(length for _, _, length in epochs) == case.adversary.n <= 84  # the epochs cover every round
    assert S.PopulationCase.from_json(case.to_json()) == case


def _epoch_cs(case):
    return [case.adversary.total(case.instance, tau, tau + length - 1) / length for _, tau, length in case.epochs]


def _interior(case):
    return all(0 < e < 1 for e in case.instance.eta)


@pytest.mark.parametrize(
    "what, predicate",
    [
        (
            "R* > 0 with eta* strictly inside (0, 1) and two or more points",
            lambda c: c.instance.best_risk > 0 and _interior(c) and c.instance.num_points >= 2,
        ),
        ("eta* at 0, 1/2 and 1 together", lambda c: {F(0), F(1, 2), F(1)} <= set(c.instance.eta)),
        (
            "a pair that disagrees everywhere",
            lambda c: any(
                c.instance.disagreement(h, g) == 1 for h in range(c.instance.num_hypotheses) for g in range(h)
            ),
        ),
        (
            "a random (non-aimed) corrupted epoch",
            lambda c: (
                any(
                    s.target is not None
                    and any(
                        t is not None and t not in (F(0), F(1)) and t != e for t, e in zip(s.target, c.instance.eta)
                    )
                    for s in c.adversary.segments
                )
                and max(_epoch_cs(c)) not in S.CORRUPTION_LEVELS
            ),
        ),
        (
            "three epochs, the small branch in one and the large in another",
            lambda c: len(c.epochs) == 3 and min(_epoch_cs(c)) * 2 <= F(1, 16) < max(_epoch_cs(c)) * 2,
        ),
        ("R* > 7/8 (F10's lower bookkeeping)", lambda c: c.instance.best_risk > F(7, 8)),
    ],
)
def test_population_cases_reach(what, predicate):
    reach(S.population_cases(), predicate, count=SEARCH)


@pytest.mark.parametrize("c", S.CORRUPTION_LEVELS)
def test_aimed_adversaries_reach_each_level_on_interior_instances(c):
    """A whole epoch corrupted at exactly c (the aimed shift has room at every point of
    its region), on an instance with eta* strictly inside (0, 1) and R* > 0."""
    reach(
        S.population_cases(),
        lambda case: _interior(case) and case.instance.best_risk > 0 and c in _epoch_cs(case),
        count=SEARCH,
    )


def test_theorem41_budget_edge_is_reached():
    """C_[0,t] = t/8 exactly at a checkpoint (Lemma C.1's assumption with equality)."""
    reach(
        S.population_cases(),
        lambda case: case.adversary.n >= 2 and case.adversary.total(case.instance, 1, 2) == F(1, 4),
        count=SEARCH,
    )
