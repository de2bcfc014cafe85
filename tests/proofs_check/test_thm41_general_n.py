"""Theorem 4.1's accuracy at n = 2^13 - 1 (not a checkpoint): a realisable run violates it
(FINDINGS F19; proofs_check/thm41_general_n.py)."""

from fractions import Fraction

import pytest

from proofs_check import thm41_general_n as T


def test_witness_satisfies_the_theorem_premises():
    assert T.premise_holds(), "C_[0,t] <= t/8 must hold at every checkpoint t <= n"
    assert T.sample_condition_holds(), f"n = {T.N_ROUNDS} must satisfy the sample condition at eps = {T.EPS}"
    assert T.P_A > T.EPS, "Delta_h must exceed eps for the run to violate the statement"
    assert T.clean_and_flipped_rounds() == (3584, 4607)


def test_violation_probability_certified_lower_bound():
    bound = T.violation_lower_bound()
    terms = {k: float(v) for k, v in T.failure_terms().items()}
    assert bound > Fraction(999, 1000), f"P(Delta(h_out) = 3/32 > 1/16) >= {float(bound)}; failure terms {terms}"
    assert bound > T.DELTA, "the statement allows a failure probability of at most delta"


def test_forced_factor_on_eps():
    assert T.forced_factor_lower() > Fraction(196, 100), float(T.forced_factor_lower())


def test_reference_runs_output_the_bad_hypothesis():
    for seed in range(3):
        instance, adversary, trace = T.reference_run(seed)
        gap = instance.risk(trace.output) - instance.best_risk
        assert instance.best_risk == 0 and gap == T.P_A, f"seed {seed}: output {trace.output}, gap {gap}"
        assert all(adversary.total(instance, 1, c.t) <= Fraction(c.t, 8) for c in trace.checkpoints)


@pytest.mark.slow
def test_monte_carlo_violation_rate():
    runs = 400
    bad = 0
    for seed in range(runs):
        instance, _, trace = T.reference_run(seed)
        bad += instance.risk(trace.output) - instance.best_risk > T.EPS
    # the certified bound is 0.99985; 400 runs with at most 2 misses is consistent with it
    assert bad >= runs - 2, f"{bad} of {runs} runs violate the printed accuracy (reproduce: reference_run(seed))"
