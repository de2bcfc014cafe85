"""Meta-tests of properties/checks/sampler.py and its strategies: the strategies reach the
edges they claim; the exact tail bound is a bound; the law check accepts the reference
and rejects broken samplers by its own statistics (with the numbers); the equality and
prefix checks name what is wrong; a legitimate sampler of its own (teeth/legit/own_sampler.py)
passes all three checks, run isolated as any candidate."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference
from properties.checks.conditional import binomial_upper_tail
from properties.checks.registry import all_checks
from properties.checks.sampler import (
    binomial_tail_bound,
    check_sample_tape_law,
    check_sample_tape_matches_cral_tape_v1,
    check_sample_tape_prefix,
    law_plan,
    law_report,
)
from properties.core.candidate import as_candidate
from properties.core.violation import CallFailed
from properties.judge.load import load_impl
from properties.run.runner import NOT_APPLICABLE, PASSED, run_check
from properties.strategies import (
    BLOCK_EDGE_ROUNDS,
    SAMPLER_LAW_EXPERIMENT,
    SamplerCase,
    SamplerPrefixCase,
    prefix_adversary,
    sampler_cases,
    sampler_prefix_cases,
)
from reference import Instance, Tape
from reference import adversary as adversaries
from tests.support.sampling import sample

SAMPLER_CHECKS = ("check_sample_tape_matches_cral_tape_v1", "check_sample_tape_law", "check_sample_tape_prefix")


def _clean(adversary):
    return adversaries.clean(adversary.n)


def _retag(tape, generator):
    return Tape._trusted(tape.x, tape.y, tape.u, tape.seed, generator)


# -- broken samplers (in-process fakes; teeth/broken/mutants.py has isolated copies) -------
def ignores_adversary(instance, adversary, seed):
    """Labels from eta* (a clean adversary); claims no generator."""
    return _retag(reference.sample_tape(instance, _clean(adversary), seed), None)


def x_uniform(instance, adversary, seed):
    """x_t uniform over the points of positive mass (labels from eta_t^{x_t}, coins uniform)."""
    uniform = Instance(
        [F(1 if p else 0, sum(1 for q in instance.nu if q)) for p in instance.nu], instance.eta, instance.hypotheses
    )
    return _retag(reference.sample_tape(uniform, adversary, seed), "x-uniform")


def coin_is_label_word(instance, adversary, seed):
    """The query coin knows the label: u_t < 1/2 iff y_t = 1 (u_t still spread over its half)."""
    tape = reference.sample_tape(instance, adversary, seed)
    u = tuple(v / 2 if y == 1 else (1 + v) / 2 for v, y in zip(tape.u, tape.y))
    return Tape._trusted(tape.x, tape.y, u, seed, "coin-is-label")


def repeats_first_block(instance, adversary, seed):
    """The coin stream restarts every block: u_(t+1024) = u_t (x_t and y_t as they should be)."""
    tape = reference.sample_tape(instance, adversary, seed)
    u = tuple(tape.u[(t - 1) % 1024] for t in range(1, tape.n + 1))
    return Tape._trusted(tape.x, tape.y, u, seed, "coins-repeat-block-0")


def reversed_tape(instance, adversary, seed):
    tape = reference.sample_tape(instance, adversary, seed)
    return Tape._trusted(tape.x[::-1], tape.y[::-1], tape.u[::-1], seed, "reversed")


def _report(sampler):
    return law_report("check_sample_tape_law", as_candidate({"sample_tape": sampler}), SAMPLER_LAW_EXPERIMENT)


def _log10_min_bound(report):
    return min(o.ln_bound for o in report.outcomes) / math.log(10)


# -- strategies --------------------------------------------------------------------------
DRAWS = 200  # generated once per module (about 8 ms a draw); every edge below is reached within them


@pytest.fixture(scope="module")
def drawn_cases():
    return sample(sampler_cases(), DRAWS)


@pytest.fixture(scope="module")
def drawn_prefix_cases():
    return sample(sampler_prefix_cases(), DRAWS)


def test_sampler_cases_are_valid(drawn_cases):
    for case in drawn_cases:
        assert 1 <= case.adversary.n <= 3000 and 0 <= case.seed < 2**64
        case.adversary.bind(case.instance)  # the adversary fits the instance
        assert SamplerCase.from_json(case.to_json()) == case


@pytest.mark.parametrize(
    "what, predicate",
    [
        ("n at a block edge (1024)", lambda c: c.adversary.n == 1024),
        ("n just past a block (1025)", lambda c: c.adversary.n == 1025),
        ("a segment across a block edge", lambda c: any(s.start <= 1024 < s.end for s in c.adversary.segments)),
        ("three or more segments", lambda c: len(c.adversary.segments) >= 3),
        ("three segments on a tape over two blocks", lambda c: len(c.adversary.segments) >= 3 and c.adversary.n > 1024),
        (
            "a corrupted segment (eta_t != eta*)",
            lambda c: any(e != c.instance.eta for _, _, e, _ in c.adversary.bind(c.instance)),
        ),
        ("the largest seed", lambda c: c.seed == 2**64 - 1),
        ("a point of mass 0", lambda c: 0 in c.instance.nu),
        (
            "eta_t in {0, 1} somewhere",
            lambda c: any(v in (0, 1) for _, _, e, _ in c.adversary.bind(c.instance) for v in e),
        ),
    ],
)
def test_sampler_cases_reach(what, predicate, drawn_cases):
    assert any(predicate(case) for case in drawn_cases), what


@pytest.mark.parametrize(
    "what, predicate",
    [
        ("the short tape ends at a block edge", lambda c: c.n in BLOCK_EDGE_ROUNDS),
        ("the short tape is one round", lambda c: c.n == 1),
        ("the cut inside a segment", lambda c: any(s.start <= c.n < s.end for s in c.adversary.segments)),
        (
            "the cut on a segment's end, more segments after",
            lambda c: any(s.end == c.n for s in c.adversary.segments[:-1]),
        ),
        (
            "a clean adversary over two blocks",
            lambda c: (
                len(c.adversary.segments) == 1 and c.adversary.segments[0].target is None and c.adversary.n > 1024
            ),
        ),
    ],
)
def test_sampler_prefix_cases_reach(what, predicate, drawn_prefix_cases):
    assert any(predicate(case) for case in drawn_prefix_cases), what


@settings(max_examples=30, deadline=None)
@given(case=sampler_prefix_cases(max_rounds=200))
def test_prefix_adversary_keeps_the_first_rounds(case):
    short = case.short_adversary
    assert short.n == case.n < case.adversary.n
    assert all(short.eta(case.instance, t) == case.adversary.eta(case.instance, t) for t in range(1, case.n + 1))
    assert SamplerPrefixCase.from_json(case.to_json()) == case


def test_prefix_adversary_rejects_a_bad_n():
    with pytest.raises(ValueError, match="n must lie in 1..5"):
        prefix_adversary(adversaries.clean(5), 6)


# -- the exact tail bound --------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(N=st.integers(1, 40), p=st.fractions(F(1, 20), F(19, 20), max_denominator=20), data=st.data())
def test_tail_bound_is_at_least_the_exact_tail(N, p, data):
    k = data.draw(st.integers(0, N), label="k")
    bound = binomial_tail_bound(N, p, k)
    exact = binomial_upper_tail(N, p, k) if k >= N * p else 1 - binomial_upper_tail(N, p, k + 1)
    assert exact <= bound <= 1


def test_tail_bound_edges():
    assert binomial_tail_bound(10, F(1, 2), 5) == 1
    assert binomial_tail_bound(10, F(1, 3), 10) == F(1, 3) ** 10
    assert binomial_tail_bound(10, F(1, 3), 0) == F(2, 3) ** 10
    with pytest.raises(ValueError, match="p must lie in"):
        binomial_tail_bound(3, F(0), 0)


def test_the_plan_has_90_tests_and_alpha_is_one_in_a_million():
    """The docstring of check_sample_tape_law states both."""
    assert [len(law_plan(s)) for s in SAMPLER_LAW_EXPERIMENT.settings] == [44, 26, 20]
    assert SAMPLER_LAW_EXPERIMENT.alpha == F(1, 10**6)
    assert sum(s.adversary.n for s in SAMPLER_LAW_EXPERIMENT.settings) == 22096


# -- the law: the reference passes, broken samplers fail by the statistics ------------------
def test_law_accepts_the_reference_with_room():
    report = law_report("check_sample_tape_law", reference, SAMPLER_LAW_EXPERIMENT)
    assert report.certain == () and report.rejections == []
    # the smallest single-test bound is nowhere near the Bonferroni threshold (~5.6e-9)
    assert _log10_min_bound(report) > -4


def test_law_rejects_a_sampler_that_ignores_the_adversary():
    report = _report(ignores_adversary)
    assert report.generators == (None, None, None)
    statistical = [o for o in report.rejections if o.setting.startswith("A:")]
    assert len(statistical) >= 5 and _log10_min_bound(report) < -100
    # setting C's labels are deterministic: eta* instead of eta_t gives impossible labels
    assert any("probability 0 given x_t" in v.message for v in report.certain)


@pytest.mark.parametrize(
    "sampler, test_prefix, below",
    [
        (x_uniform, "#{x_t", -30),
        (coin_is_label_word, "#{u_t < 1/2} among (x_t, y_t)", -100),
        (repeats_first_block, "#{[u_t < 1/2] = [u_(t+1024)", -100),
    ],
)
def test_law_rejects_other_broken_samplers(sampler, test_prefix, below):
    report = _report(sampler)
    assert report.certain == ()
    hits = [o for o in report.rejections if o.what.startswith(test_prefix)]
    assert hits and min(o.ln_bound for o in hits) / math.log(10) < below
    assert check_sample_tape_law(as_candidate({"sample_tape": sampler}), SAMPLER_LAW_EXPERIMENT)


def _shifted(shift):
    return replace(
        SAMPLER_LAW_EXPERIMENT, settings=tuple(replace(s, seed=s.seed + shift) for s in SAMPLER_LAW_EXPERIMENT.settings)
    )


def test_law_accepts_the_reference_on_other_seeds():
    """The settings with other seeds: a correct sampler is rejected with probability
    <= 1e-6 whatever the seeds (a smoke test of the error rate, not a measurement)."""
    report = law_report("check_sample_tape_law", reference, _shifted(1000))
    assert report.certain == () and report.rejections == []


@pytest.mark.slow
def test_law_accepts_the_reference_on_many_seeds():
    """40 seed sets: no rejection, and the smallest single-test bound stays far from the
    Bonferroni threshold (ln ~ -19): the test is conservative, not tuned to the seeds."""
    smallest = []
    for shift in range(1, 41):
        report = law_report("check_sample_tape_law", reference, _shifted(10_000 * shift))
        assert report.certain == () and report.rejections == [], shift
        smallest.append(_log10_min_bound(report))
    assert max(smallest) < 0 and min(smallest) > -6


# -- equality with cral-tape-v1, and what no sampler may produce --------------------------------
CASE = SamplerCase(
    Instance([F(0), F(1, 3), F(2, 3)], [F(1, 2), F(0), F(3, 4)], ((0, 1, 1), (1, 0, 0))),
    adversaries.early_burst([None, None, F(1, 10)], 1100, 1500),
    7,
)


def _matches(sampler):
    return check_sample_tape_matches_cral_tape_v1(as_candidate({"sample_tape": sampler}), CASE)


def test_matches_accepts_the_reference_and_an_unclaimed_retag():
    assert _matches(reference.sample_tape) == []
    assert _matches(lambda i, a, s: _retag(reference.sample_tape(i, a, s), "mine")) == []


def test_matches_names_the_round_where_a_claimed_tape_differs():
    def one_coin_off(instance, adversary, seed):
        tape = reference.sample_tape(instance, adversary, seed)
        u = list(tape.u)
        u[1024] = (u[1024] + F(1, 2)) % 1
        return Tape._trusted(tape.x, tape.y, tuple(u), tape.seed, tape.generator)

    found = _matches(one_coin_off)
    assert len(found) == 1 and "u_t differs" in found[0].message and found[0].values["round"] == "1025"


def test_matches_catches_the_ignoring_sampler_only_when_it_claims_cral_tape_v1():
    claimed = _matches(lambda i, a, s: reference.sample_tape(i, _clean(a), s))
    assert any("y_t differs" in v.message for v in claimed)
    assert _matches(ignores_adversary) == []  # eta_t^x in (0, 1) here: nothing impossible


def test_matches_rejects_impossible_tapes_whatever_the_generator():
    def at_mass_zero(instance, adversary, seed):
        tape = reference.sample_tape(instance, adversary, seed)
        return Tape._trusted((0,) + tape.x[1:], tape.y, tape.u, seed, "mine")

    def one_round_too_many(instance, adversary, seed):
        tape = reference.sample_tape(instance, adversaries.clean(adversary.n + 1), seed)
        return _retag(tape, "mine")

    def impossible_label(instance, adversary, seed):
        tape = reference.sample_tape(instance, adversary, seed)
        t = tape.x.index(1)  # eta^{x=1} = 0 throughout
        return Tape._trusted(tape.x, tape.y[:t] + (1,) + tape.y[t + 1 :], tape.u, None, "mine")

    assert "nu*(x_t) = 0" in _matches(at_mass_zero)[0].message
    assert "length" in _matches(one_round_too_many)[0].message
    found = _matches(impossible_label)
    assert len(found) == 1 and "probability 0 given x_t" in found[0].message


def test_matches_reports_a_point_outside_the_instance():
    def point_three(instance, adversary, seed):
        tape = reference.sample_tape(instance, adversary, seed)
        return Tape._trusted(tape.x[:-1] + (3,), tape.y, tape.u, seed, "mine")

    found = _matches(point_three)
    assert "not a point" in found[0].message and found[0].values["round"] == "1500"


@pytest.mark.parametrize(
    "field, value, text", [("u", "1/1", "tape.u[1024] must lie in [0, 1)"), ("y", 2, "tape.y[1024]")]
)
def test_matches_reports_a_coin_or_label_out_of_range_as_malformed(field, value, text):
    """decode_tape (properties/core/contract.py) refuses them, naming the 0-based index (round - 1)."""

    def out_of_range(instance, adversary, seed):
        plain = reference.sample_tape(instance, adversary, seed).to_json()
        plain[field][1024] = value
        return plain

    with pytest.raises(CallFailed) as failure:  # the runner reports it as the check's failure
        _matches(out_of_range)
    assert "malformed tape" in failure.value.violation.message and text in failure.value.violation.message


# -- the prefix property ----------------------------------------------------------------------
PREFIX_CASE = SamplerPrefixCase(CASE.instance, CASE.adversary, 1024, 7)


def test_prefix_accepts_the_reference_and_rejects_a_reversed_tape():
    assert check_sample_tape_prefix(reference, PREFIX_CASE) == []
    found = check_sample_tape_prefix(as_candidate({"sample_tape": reversed_tape}), PREFIX_CASE)
    assert found and "differs from the 1500-round tape's" in found[0].message


# -- candidates ---------------------------------------------------------------------------------
def test_a_candidate_without_sample_tape_is_not_applicable():
    plain = as_candidate({"passive": reference.passive})
    checks = all_checks()
    for name in SAMPLER_CHECKS:
        assert run_check(checks[name], plain, max_examples=1).status == NOT_APPLICABLE


def test_legit_own_sampler_passes_all_three_checks():
    """A sampler with its own generator and its own randomness (PCG64) passes, isolated;
    it is really not cral-tape-v1 (so the equality part does not pass it vacuously)."""
    checks = all_checks()
    with load_impl("teeth.legit.own_sampler") as legit:
        assert legit.isolated
        results = {name: run_check(checks[name], legit, max_examples=10) for name in SAMPLER_CHECKS}
        report = law_report("check_sample_tape_law", legit, SAMPLER_LAW_EXPERIMENT)
    assert {name: r.status for name, r in results.items()} == dict.fromkeys(SAMPLER_CHECKS, PASSED), results
    assert report.generators == ("pcg64-grid-v1",) * 3
    from teeth.legit.own_sampler import sample_tape as own

    setting = SAMPLER_LAW_EXPERIMENT.settings[0]
    ours = own(setting.instance, setting.adversary, setting.seed)
    theirs = reference.sample_tape(setting.instance, setting.adversary, setting.seed)
    assert sum(a != b for a, b in zip(ours["x"], theirs.x)) > 1000
