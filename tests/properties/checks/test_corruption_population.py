"""Tests of properties/checks/corruption_population.py: every check holds
(or is its expected failure) on generated examples; each expected failure's known example is
re-verified by a hand computation with Fractions that uses none of the module's helpers; and
every check that holds catches a planted wrong bound (a smaller constant) on a tight example."""

from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings

from properties import strategies as S
from properties.checks import corruption_population as M
from properties.checks.registry import EXPECTED_FAILURES, KNOWN_EXAMPLES

CHECKS = {check.name: check for check in M.CHECKS}
QUICK = settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_check_holds_or_is_the_expected_failure_on_generated_examples(name):
    check = CHECKS[name]

    @QUICK
    @given(case=S.population_cases())
    def run(case):
        found = check.execute(None, case)
        if name not in EXPECTED_FAILURES:
            assert found == [], found

    run()


def test_expected_failures_are_registered_with_known_examples_and_no_implementation():
    failing = {name for name in CHECKS if name in EXPECTED_FAILURES}
    assert failing == {
        "check_estimation_lemma_corruption_term",
        "check_gap_upper_corruption_term_small_branch",
        "check_gap_lower_corruption_term_large_branch",
        "check_gap_upper_line8_corruption_term",
        "check_gap_lower_corruption_bookkeeping",
        "check_lemma_c1_corruption_term",
        "check_lemma_a2_middle_line",
    }
    for name in failing:
        assert EXPECTED_FAILURES[name].startswith("FINDINGS F")
        for build in KNOWN_EXAMPLES[name]:
            assert CHECKS[name].execute(None, build()), name
    assert all(check.covers == () and check.kind == "lemma" for check in M.CHECKS)


# -- the known examples, by hand ---------------------------------------------------------
def risk(nu, eta, labels):
    """P(h(x) != y) under (nu, eta), written out again (independent of the module)."""
    return sum((p * (1 - e) if a == 1 else p * e) for p, e, a in zip(nu, eta, labels))


def test_f17_estimation_term_by_hand():
    nu, eta, eta1 = (F(1, 2), F(1, 2)), (F(0), F(1, 4)), (F(1, 4), F(0))
    h, g = (0, 1), (1, 0)
    R_star = risk(nu, eta, (0, 0))
    assert (R_star, risk(nu, eta, h), risk(nu, eta, g)) == (F(1, 8), F(3, 8), F(5, 8))
    c = max(abs(a - b) for a, b in zip(eta, eta1))
    err = (risk(nu, eta1, h) - risk(nu, eta1, g)) - (risk(nu, eta, h) - risk(nu, eta, g))
    assert (c, err) == (F(1, 4), F(1, 2))
    printed = 4 * c * R_star + 2 * c * max(F(3, 8) - R_star, F(5, 8) - R_star)
    assert printed == F(3, 8) < err
    assert err <= 2 * c * 1  # rho*(01, 10) = 1: Lemma A.2's term, attained
    assert M.check_estimation_lemma_corruption_term(S.finding_f17_estimation_term_case())


def test_f17_gap_upper_small_branch_by_hand():
    nu, eta, eta1 = (F(1, 2), F(1, 2)), (F(0), F(1, 8)), (F(1, 32), F(3, 32))
    h, g = (0, 1), (1, 0)
    R_star = risk(nu, eta, (0, 0))
    gaps = (risk(nu, eta, h) - R_star, risk(nu, eta, g) - R_star)
    c = max(abs(a - b) for a, b in zip(eta, eta1))
    assert (R_star, gaps, c) == (F(1, 16), (F(3, 8), F(1, 2)), F(1, 32)) and 2 * c <= F(1, 16)
    err = (risk(nu, eta1, h) - risk(nu, eta1, g)) - (risk(nu, eta, h) - risk(nu, eta, g))
    assert err == F(1, 16) > max(gaps) / 16 + 4 * c * R_star == F(5, 128)
    assert M.check_gap_upper_corruption_term_small_branch(S.finding_f17_gap_upper_small_case())


def test_f10_population_examples_by_hand():
    # lower line 3, large branch: eta* = 1/2, eta_1 = 1, h* = (0), h = (1)
    c = F(1, 2)
    minus_err = (risk((1,), (F(1, 2),), (1,)) - risk((1,), (F(1, 2),), (0,))) - (
        risk((1,), (F(1),), (1,)) - risk((1,), (F(1),), (0,))
    )
    assert minus_err == 1 > 0 / 16 + c and 2 * c > F(1, 16)
    # upper line 8: R* = 0, c = 1: Corruption Term 2c = 2 > 4 R* c = 0
    assert risk((1,), (F(0),), (0,)) == 0
    # lower lines 6-7: R* = 1, c = 1, g_1 = (2/N_1) C_1 = 2
    R_star, c, g1 = risk((1,), (F(0),), (1,)), F(1), F(2, 1) * 1
    assert R_star == 1 and 4 * R_star * c + c == 5 > F(18, 8) * g1 == F(9, 2)
    assert c <= F(18, 8) * g1  # the repair (no extra 4 R* c) holds
    for build in (S.finding_f10_lower_large_case, S.finding_f10_upper_line8_case, S.finding_f10_lower_bookkeeping_case):
        name = next(n for n, builders in KNOWN_EXAMPLES.items() if build in builders)
        assert CHECKS[name].execute(None, build())


def test_f2_population_example_by_hand():
    eta, eta_t = F(3, 8), F(1, 2)
    R0, R1 = risk((1,), (eta,), (0,)), risk((1,), (eta,), (1,))
    assert (R0, R1) == (F(3, 8), F(5, 8))
    c = abs(eta - eta_t)
    assert c == F(1, 8)  # C_t = t/8: Theorem 4.1's assumption with equality
    assert risk((1,), (eta_t,), (1,)) <= risk((1,), (eta_t,), (0,))  # (1) minimises R-bar_2
    gap = R1 - R0
    assert gap == F(1, 4) > 4 * c * R0 == R0 / 2 == F(3, 16)
    assert gap <= R0 and gap <= 8 * c * R0  # line 3 and the repair hold
    found = M.check_lemma_c1_corruption_term(S.finding_f2_lemma_c1_population_case())
    assert {v.values["line"] for v in found} == {"line 1", "line 2"}


def test_f13_population_example_by_hand():
    nu, eta, eta1 = (F(1, 2), F(1, 2)), (F(0), F(0)), (F(0), F(1, 2))
    H = ((0, 0), (0, 1), (1, 0), (1, 1))
    lhs = (risk(nu, eta1, (0, 0)) - risk(nu, eta1, (0, 1))) - (risk(nu, eta, (0, 0)) - risk(nu, eta, (0, 1)))
    biggest = max(risk(nu, eta1, h) - risk(nu, eta, h) for h in H)
    assert (lhs, biggest) == (F(1, 2), F(1, 4)) and lhs > F(1, 2) * 2 * biggest
    assert M.check_lemma_a2_middle_line(S.finding_f13_a2_middle_case())


# -- planted wrong bounds ----------------------------------------------------------------
def one_point(eta, H, etas, beta1=F(1, 4)):
    return S._population_case((F(1),), (eta,), H, [(e,) for e in etas], beta1)


class DoubledEffect(M.CumulativeRisks):
    """The corruption's effect counted twice: every bound of a shift holds only with its
    constant halved, so a check of a tight bound must fail."""

    def prefix(self, t):
        return [2 * v for v in super().prefix(t)]


HALF, COIN = F(1, 2), ((0,), (1,))
PLANTED = [
    # (check, patch, tight example)
    ("check_estimation_lemma_corruption_term_corrected", "doubled", S.finding_f17_estimation_term_case),
    ("check_gap_upper_corruption_term_large_branch", "doubled", lambda: one_point(HALF, COIN, [F(1)])),
    ("check_gap_lower_corruption_term_small_branch", "doubled", lambda: one_point(HALF, COIN, [HALF + F(1, 32)])),
    ("check_passive_proof_corruption_terms", "doubled", lambda: one_point(HALF, COIN, [F(1)])),
    (
        "check_robust_cal_proof_corruption_terms",
        "doubled",
        lambda: one_point(HALF, COIN, [HALF + F(1, 8)] * 2, F(1, 2)),
    ),
    ("check_lemma_c1_corruption_term_corrected", "half_rho", S.finding_f2_lemma_c1_population_case),
    ("check_catoni_condition_corruption_term", "half_rho", lambda: one_point(F(0), COIN, [F(1)])),
    ("check_gap_upper_corruption_bookkeeping", "fifth_g", lambda: one_point(HALF, COIN, [HALF + F(1, 32)])),
    ("check_gap_lower_corruption_bookkeeping_corrected", "fifth_g", lambda: one_point(HALF, COIN, [HALF + F(1, 32)])),
    ("check_corruption_budget_per_epoch", "double_eps", lambda: one_point(F(0), COIN, [F(1)] * 20, F(1))),
]


@pytest.mark.parametrize("name, plant, build", PLANTED, ids=[p[0] for p in PLANTED])
def test_check_catches_a_planted_wrong_bound(name, plant, build, monkeypatch):
    case = build()
    assert CHECKS[name].execute(None, case) == [], "the example must satisfy the true bound"
    if plant == "doubled":
        monkeypatch.setattr(M, "CumulativeRisks", DoubledEffect)
    elif plant == "half_rho":
        real = M.Population.__init__

        def halved(self, case):
            real(self, case)
            self.rho = tuple(tuple(r / 2 for r in row) for row in self.rho)

        monkeypatch.setattr(M.Population, "__init__", halved)
    elif plant == "fifth_g":
        real_g = M.g_value
        monkeypatch.setattr(M, "g_value", lambda *args: real_g(*args) / 5)
    else:
        monkeypatch.setattr(M, "eps", lambda i: F(2, 2**i))
    assert CHECKS[name].execute(None, case), f"{name} missed a planted wrong bound"


def test_every_check_that_holds_has_a_planted_test():
    holding = {name for name in CHECKS if name not in EXPECTED_FAILURES}
    assert holding == {p[0] for p in PLANTED}
