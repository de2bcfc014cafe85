"""Meta-tests of the boundary-tape strategies (properties/strategies/, "boundary tapes")
and of the cross-check on them.

What the strategies claim, measured on fixed samples (derandomised, generation only):
* CALruption: rounds with u_t == q_l^{x_t} exactly (q_l as the reference computes it for
  the tape), in most examples; at q > 0, at q = 0 (u_t = 0), at a non-dyadic q, in the
  unfinished last epoch, at an epoch's first and last rounds, at several points of one
  epoch;
* RobustCAL: n in {2^k - 1, 2^k, 2^k + 1}; checkpoint rounds t = 2^k (and rounds t + 1) in
  Dis(V_t) but not in Dis(V_{t+1}), for the modified or the vanilla rule; coins on simple
  rationals there;
* passive: exact ties of R^_[1,n] between distinct hypotheses at the minimum, also ties
  of pairs the stream separated;
* every tape has positive probability: x_t in supp(nu), y_t in supp(Ber(eta_t^{x_t})),
  u_t in [0, 1).
The cross-check of the reference against itself on boundary cases has no divergence and
no mismatch; fast (float64) has no mismatch, and its coin divergences are exactly the
coins on a non-dyadic q whose double lies above q (it decides u_t < q for its float q's
exact value: a coin on a dyadic q, or on a q its double rounds down, is decided as the
reference decides it). A slow test shows that the two coin mutants of
teeth/broken/mutants.py escape every other CALruption check."""

from __future__ import annotations

from fractions import Fraction

import pytest

import reference
from properties.checks.crosscheck import crosscheck_case
from properties.judge.load import load_impl
from properties.strategies import (
    BOUNDARY_BETA1_CHOICES,
    BOUNDARY_MAX_ROUNDS,
    MAX_CHECKPOINT_EXPONENT,
    SIMPLE_COINS,
    CraftedCase,
    calruption_boundary_cases,
    checkpoint_boundary_cases,
    checkpoint_rounds,
    erm_tie_cases,
    spread_instances,
)
from reference.instance import disagreement_region
from tests.support.sampling import sample


def _distinct(cases):
    seen, result = set(), []
    for case in cases:
        if repr(case) not in seen:
            seen.add(repr(case))
            result.append(case)
    return result


@pytest.fixture(scope="module")
def calruption_sample():
    return _distinct(sample(calruption_boundary_cases(), 20))


@pytest.fixture(scope="module")
def checkpoint_sample():
    return _distinct(sample(checkpoint_boundary_cases(), 25))


@pytest.fixture(scope="module")
def tie_sample():
    return _distinct(sample(erm_tie_cases(), 25))


def _positive_probability(case) -> bool:
    tape, instance = case.tape, case.instance
    for t, (x, y, u) in enumerate(zip(tape.x, tape.y, tape.u), start=1):
        eta = case.adversary.eta(instance, t)[x]
        if instance.nu[x] == 0 or (eta == 0 and y == 1) or (eta == 1 and y == 0) or not 0 <= u < 1:
            return False
    return True


# -- CALruption: coins on q ------------------------------------------------------------------
def _coins_on_q(case):
    """The rounds with u_t == q_l^{x_t} exactly, q_l from the reference's trace of the case
    (the unfinished epoch with the last q_{l+1}): (t, l, x_t, q, where) with where in
    {"first", "last", "inside", "unfinished"}."""
    trace = reference.calruption(case.instance.hypotheses, case.tape, case.params)
    blocks = [(e.l, e.tau, e.length, e.q, False) for e in trace.epochs]
    if trace.unfinished_rounds:
        last_q = trace.epochs[-1].next_q if trace.epochs else (Fraction(1),) * case.instance.num_points
        blocks.append(
            (trace.final_epoch, case.tape.n - trace.unfinished_rounds + 1, trace.unfinished_rounds, last_q, True)
        )
    found = []
    for l, tau, length, q, unfinished in blocks:
        for t in range(tau, tau + length):
            x = case.tape.x[t - 1]
            if case.tape.u[t - 1] == q[x]:
                where = (
                    "unfinished"
                    if unfinished
                    else "first"
                    if t == tau
                    else "last"
                    if t == tau + length - 1
                    else "inside"
                )
                found.append((t, l, x, q[x], where))
    return found


def test_calruption_boundary_cases_are_valid_and_bounded(calruption_sample):
    assert len(calruption_sample) >= 10
    for case in calruption_sample:
        assert isinstance(case, CraftedCase) and _positive_probability(case)
        assert case.params.n == case.tape.n == case.adversary.n <= BOUNDARY_MAX_ROUNDS
        assert case.params.beta1.value in BOUNDARY_BETA1_CHOICES
        assert case.params.num_hypotheses == case.instance.num_hypotheses
        epoch_1 = case.params.beta1.value * 4
        assert case.tape.n > epoch_1  # epoch 2 starts: coins can sit on some q_l <= 1/4 < 1


def test_calruption_boundary_coins_sit_exactly_on_q(calruption_sample):
    on = [_coins_on_q(case) for case in calruption_sample]
    assert sum(bool(rounds) for rounds in on) >= 0.9 * len(on)
    assert sum(any(q > 0 for *_, q, _ in rounds) for rounds in on) >= 0.5 * len(on)
    rounds = [r for case_rounds in on for r in case_rounds]
    assert all(l >= 2 for _, l, *_ in rounds)  # q_1 = 1 and coins are < 1
    assert any(q == 0 for *_, q, _ in rounds), "a coin u_t = 0 on q = 0"
    assert any(q.denominator & (q.denominator - 1) for *_, q, _ in rounds), "a coin on a non-dyadic q"
    assert any(Fraction(float(q)) > q for *_, q, _ in rounds), "a coin on a q whose double lies above it"
    for where in ("first", "last", "inside", "unfinished"):
        assert any(w == where for *_, w in rounds), where
    assert any(
        len({x for _, l, x, _, w in case_rounds if l == epoch}) >= 2
        for case_rounds in on
        for epoch in {l for _, l, *_ in case_rounds}
    ), "several points in one epoch"


def test_spread_instances_have_no_complementary_pair():
    for instance in sample(spread_instances(), 30):
        H = instance.hypotheses
        assert all(p > 0 for p in instance.nu) and len(set(H)) >= 2
        assert not any(all(a != b for a, b in zip(H[i], H[j])) for i in range(len(H)) for j in range(i))


# -- RobustCAL: checkpoint rounds leaving Dis(V) -----------------------------------------------
def _leaving(case, vanilla: bool):
    """(rounds t = 2^k, rounds t + 1) whose x lies in Dis(V_t) \\ Dis(V_{t+1}) under the rule."""
    H = case.instance.hypotheses
    trace = reference.robust_cal(H, case.tape, case.params, vanilla=vanilla)
    at, after = [], []
    for c in trace.checkpoints:
        gone = disagreement_region(H, c.version_space) - disagreement_region(H, c.next_version_space)
        if case.tape.x[c.t - 1] in gone:
            at.append(c.t)
        if c.t < case.tape.n and case.tape.x[c.t] in gone:
            after.append(c.t + 1)
    return at, after


def test_checkpoint_boundary_cases_are_valid_with_n_at_a_power_of_two(checkpoint_sample):
    offsets = set()
    for case in checkpoint_sample:
        assert isinstance(case, CraftedCase) and _positive_probability(case)
        n = case.tape.n
        k = min(range(1, MAX_CHECKPOINT_EXPONENT + 1), key=lambda k: abs(n - 2**k))
        assert abs(n - 2**k) <= 1 and case.params.n == n == case.adversary.n
        offsets.add(n - 2**k)
    assert offsets == {-1, 0, 1}


def test_checkpoint_rounds_leave_the_disagreement_region(checkpoint_sample):
    either = [(_leaving(c, False), _leaving(c, True)) for c in checkpoint_sample]
    at = [bool(m[0] or v[0]) for m, v in either]
    after = [bool(m[1] or v[1]) for m, v in either]
    assert sum(at) >= 0.5 * len(either) and sum(after) >= 0.5 * len(either), (sum(at), sum(after), len(either))
    assert any(m[0] and m[1] for m, _ in either), "both rounds, modified rule"
    assert any(v[0] and v[1] for _, v in either), "both rounds, vanilla rule"
    assert any(len(m[0]) >= 2 for m, _ in either), "two checkpoints of one run"


def test_checkpoint_coins_are_simple_rationals_somewhere(checkpoint_sample):
    coins = [case.tape.u[t - 1] for case in checkpoint_sample for t in checkpoint_rounds(case.tape.n)]
    assert Fraction(0) in coins and any(u in SIMPLE_COINS and u != 0 for u in coins)


# -- passive: exact ERM ties ---------------------------------------------------------------------
def test_erm_tie_cases_tie_distinct_hypotheses_at_the_minimum(tie_sample):
    tied, at_minimum, separated = 0, 0, 0
    for case in tie_sample:
        assert _positive_probability(case)
        H = case.instance.hypotheses
        risks = reference.passive(H, case.tape, case.params).empirical_risk
        tied += any(risks[h] == risks[g] and H[h] != H[g] for h in range(len(H)) for g in range(h))
        best = [h for h in range(len(H)) if risks[h] == min(risks)]
        if len({H[h] for h in best}) >= 2:
            at_minimum += 1
            visited = any(
                case.tape.x[t] in {x for x in range(len(H[0])) if H[a][x] != H[b][x]}
                for a in best
                for b in best
                if H[a] != H[b]
                for t in range(case.tape.n)
            )
            separated += visited
    # not always reachable: labels forced by eta in {0, 1} may leave no way to close the gap
    assert tied >= 0.6 * len(tie_sample) and at_minimum >= 0.4 * len(tie_sample), (tied, at_minimum, len(tie_sample))
    assert separated >= 1, "a tie of two hypotheses the stream did tell apart"


# -- the cross-check on boundary cases (item 4) ---------------------------------------------------
@pytest.fixture(scope="module")
def fast_candidate():
    with load_impl("fast") as candidate:
        yield candidate


def test_reference_against_itself_on_boundary_cases(calruption_sample, checkpoint_sample, tie_sample):
    """Exact q's and u == q: no divergence and no mismatch."""
    for i, case in enumerate(calruption_sample[:8]):
        for report in crosscheck_case(reference, case, i, algorithms=("calruption",)):
            assert report.ok and not report.divergences, (report.mismatches[:1], report.divergences[:1])
    for i, case in enumerate(checkpoint_sample[:6] + tie_sample[:4]):
        for report in crosscheck_case(reference, case, i):
            assert report.ok and not report.divergences, (report.algorithm, report.mismatches[:1])


def test_fast_decides_coins_on_q_as_its_float_q_says(calruption_sample, checkpoint_sample, fast_candidate):
    """fast (float64) on boundary cases: no mismatch; a coin exactly on a dyadic q (or on a q
    its double rounds down) is decided like the reference (not a query); the only coin
    divergences are the coins on a non-dyadic q whose double lies above it, exactly
    those."""
    expected_total = 0
    for i, case in enumerate(calruption_sample[:12]):
        (report,) = crosscheck_case(fast_candidate, case, i, algorithms=("calruption",))
        assert report.ok, report.mismatches[:1]
        above = sum(1 for *_, q, _ in _coins_on_q(case) if Fraction(float(q)) > q)
        assert report.divergence_counts()["coin"] == above, (i, report.divergences)
        expected_total += above
    assert expected_total >= 1  # the sample holds such coins, so the equality above can fail
    for i, case in enumerate(checkpoint_sample[:4]):
        for report in crosscheck_case(fast_candidate, case, i, algorithms=("robust_cal", "robust_cal_vanilla")):
            assert report.ok and not report.divergence_counts()["coin"], report.mismatches[:1]


# -- the boundary mutants need these strategies ---------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("name", ["calruption_queries_at_coin_equal_q", "calruption_coin_against_float_q"])
def test_coin_mutants_escape_every_check_on_sampled_tapes(name, tmp_path, monkeypatch):
    """The two coin mutants of teeth/broken/mutants.py pass every other registered check of
    CALruption under the loaded profile: on sampled tapes a 64-bit coin lies in [q, float(q)]
    (or equals q) with probability ~2^-64, so only the boundary tapes tell them from the
    reference (about 1 min; the RobustCAL boundary mutants, by contrast, are caught on
    sampled cases in about half of the random 25-example runs)."""
    from properties.checks.registry import all_checks
    from properties.run.runner import FAILED, run_check
    from teeth.broken.mutants import BY_NAME, build

    monkeypatch.syspath_prepend(str(tmp_path))
    broken = load_impl(build(BY_NAME[name], tmp_path))
    others = [c for n, c in all_checks().items() if "calruption" in c.covers and "boundary" not in n]
    assert len(others) >= 10
    results = {c.name: run_check(c, broken) for c in others}
    assert {n: r.violations[:1] for n, r in results.items() if r.status == FAILED} == {}
    assert run_check(all_checks()[BY_NAME[name].caught_by], broken).status == FAILED
