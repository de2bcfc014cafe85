"""Expected failures explained by their cause: each expected failure
names its finding's cause; the finding's own counterexample is classified as explained;
a counterexample the cause does not explain is reported as a failure, not as the
expected one; and the `fuzz` profile's search goes on past explained counterexamples."""

from __future__ import annotations

import re

import pytest

from properties.checks import causes
from properties.checks.registry import EXPECTED_FAILURES, all_checks
from properties.core import profiles
from properties.judge.load import load_impl
from properties.run.runner import FAILED, XFAIL, run_check

CHECKS = all_checks()
# pure algebra on the case: the cheapest expected failure to search with
CHEAP = "check_calruption_correctness_final_step"


def test_every_expected_failure_names_the_cause_of_its_own_finding():
    assert set(causes.CAUSES) == set(EXPECTED_FAILURES)
    for name, reason in EXPECTED_FAILURES.items():
        finding = re.match(r"FINDINGS (F\d+)", reason).group(1)
        assert causes.CAUSES[name].finding == finding, (name, reason)
        assert causes.CAUSES[name].text


@pytest.mark.parametrize("name", sorted(EXPECTED_FAILURES))
def test_the_findings_own_counterexample_is_explained_by_its_cause(name):
    result = run_check(CHECKS[name], load_impl("reference"), max_examples=1, explore=False)
    assert result.status == XFAIL, result.violations[:2]
    assert result.cause["explained"] is True and result.cause["finding"] in EXPECTED_FAILURES[name], result.cause
    assert all(value is True or value is False for value in result.cause["events"].values()), result.cause


def test_a_counterexample_the_cause_does_not_explain_is_a_failure(monkeypatch):
    real = causes.CAUSES[CHEAP]
    monkeypatch.setitem(
        causes.CAUSES,
        CHEAP,
        causes.Cause(real.finding, "a cause that explains nothing", real.events, lambda events: False),
    )
    result = run_check(CHECKS[CHEAP], load_impl("reference"), max_examples=1, explore=False)
    assert result.status == FAILED
    assert result.violations[0].startswith(f"not explained by FINDINGS {real.finding} (a cause that explains nothing)")
    assert result.cause["explained"] is False


def test_a_classifier_that_raises_leaves_the_counterexample_unexplained(monkeypatch):
    def broken(impl, example, violations):
        raise ZeroDivisionError("no events")

    monkeypatch.setitem(causes.CAUSES, CHEAP, causes.Cause("F6", "broken", broken, lambda events: True))
    result = run_check(CHECKS[CHEAP], load_impl("reference"), max_examples=1, explore=False)
    assert result.status == FAILED and "classification failed" in result.violations[0], result.violations[0]


def test_exploring_goes_past_explained_counterexamples_and_finds_an_unexplained_one(monkeypatch):
    stop = run_check(CHECKS[CHEAP], load_impl("reference"), max_examples=10, explore=False)
    assert stop.status == XFAIL and stop.examples == 1  # the known example ends the search
    going = run_check(CHECKS[CHEAP], load_impl("reference"), max_examples=10, explore=True)
    assert going.status == XFAIL and going.examples > 1 and going.cause["explained_counterexamples"] >= 1
    # a second cause behind other counterexamples: a cause that explains the known
    # example's run length only must not let any other counterexample pass as explained
    from properties.checks.registry import known_examples

    real, known_n = causes.CAUSES[CHEAP], known_examples(CHEAP)[0].tape.n

    def events(impl, case, violations):
        return {**real.events(impl, case, violations), "the known example's n": case.tape.n == known_n}

    monkeypatch.setitem(
        causes.CAUSES,
        CHEAP,
        causes.Cause(real.finding, "only at the known n", events, lambda found: all(found.values())),
    )
    hidden = run_check(CHECKS[CHEAP], load_impl("reference"), max_examples=200, explore=True)
    assert hidden.status == FAILED, "the second cause stayed hidden behind the first"
    assert hidden.violations[0].startswith("not explained by") and "the known example's n: no" in hidden.violations[0]


def test_only_the_fuzz_profile_explores_past_explained_counterexamples():
    assert profiles.explores_past_explained("fuzz")
    assert not profiles.explores_past_explained("ci") and not profiles.explores_past_explained("dev")
