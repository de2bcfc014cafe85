"""Meta-tests of properties/strategies.py: the strategies produce what they claim and
reach their edge cases (Hypothesis's `find` searches for an example of each)."""
from fractions import Fraction as F

import pytest
from hypothesis import find, given, settings, strategies as st

from properties.strategies import MAX_HYPOTHESES, MAX_POINTS, SPECIAL_ETAS, adversaries_for, cases, instances

SEARCH = settings(max_examples=2000, database=None, deadline=None)


@given(case=cases(max_rounds=200))
def test_cases_are_valid_and_bounded(case):
    inst = case.instance
    assert 1 <= inst.num_points <= MAX_POINTS and 1 <= inst.num_hypotheses <= MAX_HYPOTHESES + 1
    assert sum(inst.nu) == 1 and all(isinstance(v, F) for v in inst.nu + inst.eta)
    assert case.params.n == case.adversary.n == case.tape.n
    assert case.params.num_hypotheses == inst.num_hypotheses


@pytest.mark.parametrize(
    "what, predicate",
    [
        ("a point of mass 0", lambda i: any(p == 0 for p in i.nu)),
        ("a tiny mass (<= 1/100)", lambda i: any(0 < p <= F(1, 100) for p in i.nu)),
        ("eta = 0, 1/2 and 1 together", lambda i: {F(0), F(1, 2), F(1)} <= set(i.eta)),
        ("a tie for h*", lambda i: sum(i.risk(h) == i.best_risk for h in range(i.num_hypotheses)) >= 2
         and len(set(i.hypotheses)) >= 2),
        ("a duplicated hypothesis", lambda i: len(set(i.hypotheses)) < i.num_hypotheses),
        ("six points and eight hypotheses", lambda i: i.num_points == MAX_POINTS and i.num_hypotheses >= MAX_HYPOTHESES),
    ],
)
def test_instances_reach_edge_cases(what, predicate):
    find(instances(), predicate, settings=SEARCH)


def _theorem41_holds(inst, adv):
    return all(adv.total(inst, 1, t) <= F(t, 8) for t in range(1, adv.n + 1))


@given(data=st.data())
def test_theorem41_kinds_do_what_they_say(data):
    inst = data.draw(instances(), label="instance")
    n = data.draw(st.integers(1, 60), label="n")
    ok = data.draw(adversaries_for(inst, n, kinds=("clean", "theorem41_ok")), label="adversary_ok")
    assert _theorem41_holds(inst, ok)


def test_theorem41_violations_are_reached():
    def violating(example):
        inst, adv = example
        return not _theorem41_holds(inst, adv)

    pairs = instances().flatmap(
        lambda i: st.tuples(st.just(i), adversaries_for(i, 20, kinds=("theorem41_violated",)))
    )
    find(pairs, violating, settings=SEARCH)


def test_special_etas_include_the_edges():
    assert {F(0), F(1, 2), F(1)} <= set(SPECIAL_ETAS)
