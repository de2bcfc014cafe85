"""Meta-tests of properties/strategies/: the strategies produce what they claim and
reach their edge cases (`reach` looks for an example of each among fixed-seed draws)."""

import json
import math
from fractions import Fraction as F

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

import properties
from properties import strategies as S
from properties.checks.registry import KNOWN_EXAMPLES, all_checks, known_examples
from properties.strategies import MAX_HYPOTHESES, MAX_POINTS, SPECIAL_ETAS, adversaries_for, cases, instances
from tests.support.sampling import reach, sample

# a reach test asks whether some draw has the edge case: the first one found is enough, so
# the draws are generated from a fixed seed and never shrunk
SEARCH = 2000


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
        (
            "a tie for h*",
            lambda i: (
                sum(i.risk(h) == i.best_risk for h in range(i.num_hypotheses)) >= 2 and len(set(i.hypotheses)) >= 2
            ),
        ),
        ("a duplicated hypothesis", lambda i: len(set(i.hypotheses)) < i.num_hypotheses),
        (
            "six points and eight hypotheses",
            lambda i: i.num_points == MAX_POINTS and i.num_hypotheses >= MAX_HYPOTHESES,
        ),
    ],
)
def test_instances_reach_edge_cases(what, predicate):
    reach(instances(), predicate, count=SEARCH)


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

    pairs = instances().flatmap(lambda i: st.tuples(st.just(i), adversaries_for(i, 20, kinds=("theorem41_violated",))))
    reach(pairs, violating, count=SEARCH)


def test_special_etas_include_the_edges():
    assert {F(0), F(1, 2), F(1)} <= set(SPECIAL_ETAS)


# -- Corollary 5.1's adversary kinds ---------------------------------------------------------
MANY = settings(max_examples=150, database=None, deadline=None)  # six times the ci profile's 25


def corollary51_epochs(beta1, n):
    """(tau_l, |I_l|) of the prescheduled epochs l <= floor(log4(n / beta1)), i.e. beta1 4^l
    <= n (the last may be unfinished), computed here independently of the strategies:
    |I_l| = ceil(beta1 4^l) (FINDINGS R10)."""
    epochs, tau, l = [], 1, 1
    while beta1 * 4**l <= n:
        length = math.ceil(beta1 * 4**l)
        epochs.append((tau, length))
        tau, l = tau + length, l + 1
    return epochs


def per_round_corruption(inst, adv):
    """[c_1, ..., c_n], c_t = max_x |eta_t^x - eta*^x| as the adversary computes it exactly
    (its segments' c, one lookup per segment rather than per round)."""
    return [F(0)] + [c for start, end, _, c in adv.bind(inst) for _ in range(start, end + 1)]


def epoch_rates(inst, adv, beta1):
    """(C_l / N_l, complete?) per epoch, C_l = sum of c_t over I_l within 1..n, N_l read as
    |I_l| (with beta1 in {1, 2, 4} beta1 4^l is an integer, so |I_l| = N_l)."""
    c = per_round_corruption(inst, adv)
    return [
        (sum(c[tau : min(adv.n, tau + length - 1) + 1], F(0)) / length, tau + length - 1 <= adv.n)
        for tau, length in corollary51_epochs(beta1, adv.n)
    ]


@st.composite
def corollary51_draws(draw, kind):
    """(instance, beta1, adversary of `kind`) over n <= 400 rounds; n >= |I_1| for the
    violated kind, which needs a complete epoch."""
    inst = draw(instances(), label="instance")
    beta1 = draw(st.sampled_from(S.BETA1_CHOICES), label="beta1")
    low = 4 * beta1 if kind == "corollary51_violated" else 1
    n = draw(st.integers(int(low), 400), label="n")
    return inst, beta1, draw(adversaries_for(inst, n, (kind,), beta1), label="adversary")


@MANY
@given(drawn=corollary51_draws("corollary51_ok"))
def test_corollary51_ok_keeps_every_epoch_within_1_32(drawn):
    inst, beta1, adv = drawn
    assert max(per_round_corruption(inst, adv)) <= F(1, 32)
    assert all(rate <= F(1, 32) for rate, _ in epoch_rates(inst, adv, beta1))


@MANY
@given(drawn=corollary51_draws("corollary51_violated"))
def test_corollary51_violated_breaks_a_complete_epoch(drawn):
    inst, beta1, adv = drawn
    assert any(rate > F(1, 32) and complete for rate, complete in epoch_rates(inst, adv, beta1))


@pytest.mark.parametrize("n, beta1", [(3, F(1)), (100, None)], ids=["no complete epoch", "no beta1"])
def test_corollary51_violated_needs_a_complete_epoch(n, beta1):
    strategy = adversaries_for(S.CATONI_EXPERIMENT.instance, n, ("corollary51_violated",), beta1)
    with pytest.raises(ValueError, match="corollary51_violated"):
        find(strategy, lambda _: True, settings=settings(database=None))


def test_calruption_cases_reach_both_corollary51_kinds():
    def ok_at_the_budget(case):
        if S.beta1_of(case.params) in S.FRACTIONAL_BETA1_CHOICES:  # no Corollary 5.1 adversaries there
            return False
        rates = epoch_rates(case.instance, case.adversary, case.params.beta1.value)
        return any(rate == F(1, 32) for rate, complete in rates if complete) and all(r <= F(1, 32) for r, _ in rates)

    def one_epoch_fully_corrupted(case):
        # the violated kind's shape: one complete epoch with c_t >= 1/2 throughout, every
        # other round within 1/32
        if S.beta1_of(case.params) in S.FRACTIONAL_BETA1_CHOICES:
            return False
        c = per_round_corruption(case.instance, case.adversary)
        heavy = [t for t in range(1, len(c)) if c[t] > F(1, 32)]
        return all(c[t] >= F(1, 2) for t in heavy) and any(
            heavy == list(range(tau, tau + length))
            for tau, length in corollary51_epochs(case.params.beta1.value, len(c) - 1)
            if tau + length <= len(c)
        )

    reach(S.calruption_cases(), ok_at_the_budget)
    reach(S.calruption_cases(), one_epoch_fully_corrupted)


# -- reproducers of the generated-example types -----------------------------------------


@pytest.mark.parametrize(
    "strategy",
    [S.epoch_examples(), S.one_epoch_cases(regimes=("scaled",)), S.crafted_tape_cases()],
    ids=["EpochExample", "OneEpochCase", "CraftedCase"],
)
def test_reproducers_rebuild_the_example(strategy):
    example = sample(strategy, 1)[0]
    assert example.reproducer().startswith("properties.strategies.")
    assert eval(example.reproducer(), {"json": json, "properties": properties}) == example


# -- the findings' counterexamples (registry.KNOWN_EXAMPLES) ------------------------------
@pytest.mark.parametrize("name", sorted(KNOWN_EXAMPLES))
def test_known_examples_have_their_strategys_type_and_rebuild_from_their_reproducer(name):
    check = all_checks()[name]
    types = {type(example) for example in sample(check.strategy, 12)}
    for example in known_examples(name):
        assert type(example) in types, (name, type(example), types)
        assert eval(example.reproducer(), {"json": json, "properties": properties}) == example


# -- one-epoch cases as deep as the lemmas go ----------------------------------------------
def test_one_epoch_cases_reach_the_deepest_epoch_at_the_papers_constants():
    def deepest(case):
        return case.state.l == S.MAX_ONE_EPOCH and case.params.regime == "paper"

    found = reach(S.one_epoch_cases(), deepest)
    assert found.state.length > 10**9  # an epoch of ~10^10 rounds, drawn as counts


def test_population_counts_are_the_expectations_rounded_down():
    def population_with_support(case):
        return case.mode == "population" and sum(v > 0 for v in case.instance.nu) >= 2

    case = reach(S.one_epoch_cases(), population_with_support)
    nu, length = case.instance.nu, case.state.length
    top = max(range(len(nu)), key=lambda x: nu[x])
    for x, count in enumerate(case.counts.seen):
        if x != top:
            assert count == math.floor(length * nu[x]), (x, count, length * nu[x])
    assert sum(case.counts.seen) == length
    for x, (zeros, ones) in enumerate(case.counts.queried):
        asked = zeros + ones
        assert asked == math.floor(case.counts.seen[x] * case.state.q[x])
        assert ones == math.floor(asked * case.epoch_eta[x])
