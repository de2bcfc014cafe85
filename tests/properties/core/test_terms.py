"""Failure messages show the wrong term (properties/core/terms.py): decimals and the
difference beside the exact rationals, and a formula's breakdown term by term, on the
broken copy whose line-10 threshold adds rho^/4 for rho^/2 (teeth/broken/mutants.py,
robust_cal_threshold_rho_quarter)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from properties.checks.registry import all_checks
from properties.core import terms
from properties.core.violation import Violation
from properties.run.runner import run_check
from reference.certified import Enclosure
from tests.support.broken_copies import broken_copy

RHO_QUARTER = "robust_cal_threshold_rho_quarter"


def _rational(cell: str) -> Fraction:
    """A cell "1/4 = 0.25" or "3" as its rational."""
    return Fraction(cell.split(" = ")[0])


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    with broken_copy(RHO_QUARTER, tmp_path_factory.mktemp("broken")) as module:
        yield module


@pytest.fixture(scope="module")
def planted_failure(planted):
    check = all_checks()["check_robust_cal_elimination_recomputed"]
    return run_check(check, planted, max_examples=30, seed=0, database=None)


def test_the_planted_threshold_names_the_rho_term_with_both_values(planted_failure):
    result = planted_failure
    assert result.status == "failed", result
    rows = {row["term"]: row for row in result.terms}
    assert rows["sqrt(2 beta_t rho^ / t)"]["difference"] == "0 (agrees)", result.terms
    assert rows["3 beta_t / (2t)"]["difference"] == "0 (agrees)", result.terms
    implied = [row for term, row in rows.items() if term.startswith("rho^ / 2 as the reported total implies")]
    assert len(implied) == 1, result.terms
    assert "(1/2 x the formula's)" in implied[0]["term"]
    assert _rational(implied[0]["candidate"]) * 2 == _rational(implied[0]["exact"]) > 0
    assert implied[0]["difference"].endswith("(-50%)")
    # the message a person reads shows the same table, aligned under the sentence
    text = result.violations[0]
    assert "rho^ / 2 as the reported total implies" in text and "sqrt(2 beta_t rho^ / t)" in text
    assert "candidate_decimal" in text and "difference" in text


def test_the_terms_travel_in_the_json_report(planted_failure):
    entry = json.loads(json.dumps(planted_failure.to_json()))
    assert entry["terms"] and all(set(row) == {"term", "candidate", "exact", "difference"} for row in entry["terms"])
    assert all(isinstance(v, str) for row in entry["terms"] for v in row.values())


def test_a_correct_candidate_shows_no_terms():
    import reference

    check = all_checks()["check_robust_cal_elimination_recomputed"]
    result = run_check(check, reference, max_examples=3, seed=0, database=None)
    assert result.status == "passed" and result.terms == []


@pytest.mark.parametrize(
    "value, shown",
    [
        (Fraction(1, 3), "0.3333333333"),
        (Fraction(10**40 + 1, 3), "3.333333333e+39"),
        (Enclosure(Fraction(1, 4), Fraction(1, 4) + Fraction(1, 2**70)), "0.25"),
        (0.1, "0.1"),
        (None, "None"),
        ("x", "'x'"),
        (float("nan"), "nan"),
    ],
)
def test_decimals_of_any_value(value, shown):
    assert terms.decimal(value) == shown


def test_the_difference_is_absolute_and_relative():
    assert terms.difference(Fraction(3, 4), Fraction(1, 2)) == "+0.25 (+50%)"
    assert terms.difference(Fraction(1, 2), Fraction(1, 2)) == "0 (agrees)"
    assert terms.difference(Enclosure(Fraction(0), Fraction(1)), Fraction(1, 2)) == "0 (agrees)"
    assert terms.difference("garbage", Fraction(1)) == "undefined (not a number)"
    line = terms.mismatch("beta_t", Fraction(1), Fraction(2))
    assert line == "beta_t: candidate 1 (~ 1), exact 2 (~ 2), difference -1 (-50%)"


def test_a_difference_no_single_term_explains_names_none():
    """Both terms wrong: the table shows the total off, and claims no single culprit."""
    rows = terms.threshold_terms(Fraction(2), Fraction(1), 2, False, Fraction(100), Fraction(2), Fraction(1))
    assert not any("implies" in r["term"] for r in rows)
    assert rows[-1]["term"] == "threshold (the sum)" and rows[-1]["difference"] != "0 (agrees)"


def test_a_dropped_term_is_named():
    """The vanilla total on the modified rule: rho^ / 2 times 0 explains it, and no other term does."""
    beta, rho, t = Fraction(5480638923, 10**9), Fraction(1, 2), 4  # beta_t as ln(240) is: far from a simple rational
    vanilla_total = terms._sqrt(2 * beta * rho / t) + 3 * beta / (2 * t)
    rows = terms.threshold_terms(beta, rho, t, False, vanilla_total, beta, rho)
    implied = [r for r in rows if "implies" in r["term"]]
    assert len(implied) == 1 and implied[0]["term"].startswith("rho^ / 2") and "(0 x" in implied[0]["term"]


def test_a_violation_prints_its_terms_as_an_aligned_table():
    rows = [terms.row("a", Fraction(1), Fraction(1)), terms.row("longer term", Fraction(1, 4), Fraction(1, 2))]
    violation = Violation.of("check_x", "differs", t=2).with_terms(rows)
    lines = str(violation).splitlines()
    assert lines[0] == "check_x: differs (t = 2)"
    assert lines[1].split() == ["term", "candidate", "exact", "difference"]
    starts = {line.index(word) for line, word in zip(lines[1:], ("candidate", "1", "1/4"))}
    assert len(starts) == 1, lines  # the candidate column starts at one place
    assert violation == Violation.of("check_x", "differs", t=2)  # terms do not change what the violation is


def test_the_reproducer_calls_the_candidates_own_function(planted, planted_failure, capsys, monkeypatch):
    """The failure's reproducer rebuilds the case and calls the planted module's robust_cal
    on it (properties/reports/reproducer.py): run, it reaches the user's code."""
    import sys

    line = planted_failure.reproducer_call
    name = planted.__name__
    assert line and f"{name}.robust_cal(example.instance.hypotheses, example.tape, example.params)" in line
    module = sys.modules[name]
    calls = []
    original = module.robust_cal
    monkeypatch.setattr(module, "robust_cal", lambda *a, **k: calls.append(a) or original(*a, **k))
    exec(line, {})
    assert len(calls) == 1 and "RobustCALTrace(" in capsys.readouterr().out


def test_a_check_of_several_functions_or_a_program_has_no_calling_reproducer():
    from properties.reports.reproducer import calling_reproducer

    checks = all_checks()
    several = next(c for c in checks.values() if len(c.covers) > 1)
    assert calling_reproducer(several, "my_cral", object(), "x") is None
    assert (
        calling_reproducer(checks["check_robust_cal_elimination_recomputed"], "command 'node x.js'", None, "x") is None
    )


def test_a_beta_t_with_the_wrong_k_shows_the_argument_it_implies():
    """beta_t computed with k = log2(t) + 1: the argument the reported beta_t implies is
    3 (k + 1) |H|^2 / delta, beside the formula's 3 k |H|^2 / delta."""
    from reference.params import Params

    params = Params.paper(64, 3, Fraction(1, 20))
    t, k = 8, 3
    wrong = params.beta_scale * terms._ln(Fraction(3 * (k + 1) * 9) / params.delta)
    rows = {r["term"]: r for r in terms.beta_terms(params, t, wrong)}
    implied = rows["3 k |H|^2 / delta as the reported beta_t implies"]
    assert Fraction(implied["exact"]) == 3 * k * 9 / params.delta
    assert abs(Fraction(implied["candidate"].lstrip("~ ")) - 3 * (k + 1) * 9 / params.delta) < Fraction(1, 10**6)
    assert rows["beta_t"]["difference"] != "0 (agrees)"


def test_the_other_breakdowns_name_their_terms():
    alpha = terms.alpha_terms(Fraction(2), 16, Fraction(1, 4), Fraction(1, 2), Fraction(1, 3))
    assert [r["term"] for r in alpha][-2:] == ["alpha", "2 beta3 min q / (5 |I_l| rho^) as the reported alpha implies"]
    gap = terms.gap_terms(1, Fraction(1, 2), Fraction(1, 2), Fraction(5, 32), Fraction(0), Fraction(0))
    assert gap[-1] == terms.row("Delta^^l_h = max(eps_l, that)", Fraction(0), Fraction(1, 2))
    q = terms.next_q_terms(1, Fraction(1, 2), 0, Fraction(1, 2))
    assert q[-1]["term"] == "4^(k - l - 1) as the reported q implies" and q[-1]["candidate"] == "1"
    root = terms.catoni_terms(Fraction(1, 8), [Fraction(-1), Fraction(1)], [1, 1], Fraction(1, 2), Fraction(0))
    assert root[-1]["difference"] == "+0.5" and root[2]["exact"] == "0"
