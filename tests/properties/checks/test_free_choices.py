"""The table of free choices and pinned conventions (properties/checks/free_choices.py).

* it is well formed, and accounts for every reading decision of FINDINGS.md;
* the cross-check's classes for free choices come from it;
* it drives the checks and the cross-check: with an entry pinned, the check that honours
  it rejects the legitimate variant that makes that choice otherwise (on as many examples
  as tests/teeth/test_legit_pass.py runs, so those examples do exercise the choice), and the
  cross-check reports it as a mismatch;
* the copy in docs/property-suite.md is current."""

from __future__ import annotations

import dataclasses
import re

import pytest

from properties.checks import free_choices
from properties.checks.crosscheck import DIVERGENCE_KINDS, crosscheck_case
from properties.checks.free_choices import (
    BY_ID,
    CHOICES,
    FREE,
    NOT_IMPLEMENTATION_CHOICES,
    PINNED,
    RULES,
    cite,
    divergence_classes,
    render_markdown,
)
from properties.checks.registry import all_checks
from properties.judge.load import load_impl
from properties.run.runner import FAILED, PASSED, run_check
from teeth.legit.variants import BY_NAME, PREFIX, build
from teeth.legit.variants import CHECK_EXAMPLES as MAX_EXAMPLES
from teeth.legit.variants import FIXED_CASES as FIXED
from teeth.reference_copies import importable
from tests.support import REPO_ROOT
from tests.teeth.test_broken_caught import teeth_profile

ROOT = REPO_ROOT


def test_the_table_is_well_formed():
    assert len({c.id for c in CHOICES}) == len(CHOICES)
    for c in CHOICES:
        assert all((c.id, c.where, c.open, c.accepted, c.reference, c.reason)), c.id
        if c.free:
            assert c.rule in RULES
            # the cross-check holds roundings to its tolerances and never passes a count of 0
            assert (c.divergence is None) == (c.rule in ("rounding", "refuse_or_ignore")), c.id
    assert {c.rule for c in CHOICES if c.free} == set(RULES)


def test_every_reading_decision_is_accounted_for():
    """Each R entry of FINDINGS.md is cited by an entry or said to ask nothing of an
    implementation; no entry cites an R that does not exist."""
    headings = set(re.findall(r"^### (R\d+)\.", (ROOT / "FINDINGS.md").read_text(), flags=re.M))
    cited = {r for c in CHOICES for r in c.findings}
    assert headings, "no reading decisions found in FINDINGS.md"
    assert cited | set(NOT_IMPLEMENTATION_CHOICES) >= headings
    assert cited <= headings and set(NOT_IMPLEMENTATION_CHOICES) <= headings


def test_cross_check_classes_come_from_the_table():
    assert divergence_classes() == ("argmin_tie", "lp_non_unique", "output_member")
    assert DIVERGENCE_KINDS == ("coin", *divergence_classes(), "threshold_boundary", "layer_boundary")


def test_cite_refuses_a_pinned_or_unknown_entry(monkeypatch):
    cite("calruption.fit")
    monkeypatch.setitem(BY_ID, "calruption.fit", _pinned("calruption.fit"))
    with pytest.raises(ValueError, match="calruption.fit"):
        cite("calruption.fit")
    with pytest.raises(KeyError):
        cite("no.such.choice")


def test_minimisers_are_exact():
    from fractions import Fraction

    values = [Fraction(1, 3), Fraction(1, 3), Fraction(1, 3) + Fraction(1, 2**80), None]
    assert free_choices.minimisers(values, [2, 0, 1]) == (0, 1)
    assert free_choices.accepted_minimisers("passive.erm_tie", values, [2, 1]) == (1,)


def _pinned(choice_id):
    return dataclasses.replace(BY_ID[choice_id], status=PINNED, rule=None, divergence=None, relative=None)


# (entry, the variant that makes it otherwise, the check that honours it)
DRIVEN = [
    ("passive.erm_tie", "passive_erm_highest_index", "check_passive_output_is_erm"),
    ("robust_cal.h_hat_tie", "robust_cal_highest_index", "check_robust_cal_empirical_risks_and_output"),
    ("robust_cal.output_tie", "robust_cal_highest_index", "check_robust_cal_vanilla_empirical_risks_and_output"),
    ("calruption.h_star_tie", "calruption_h_star_highest_index", "check_calruption_recomputed_from_trace"),
    ("calruption.output", "calruption_output_highest_member", "check_calruption_recomputed_from_trace"),
    ("calruption.alpha_rounding", "catoni_alpha_rounded_up", "check_calruption_catoni_enclosures_certified"),
    ("calruption.weight_rounding", "calruption_weights_rounded_up", "check_calruption_fit_is_optimal"),
    ("catoni.zero_count", "catoni_root_ignores_zero_counts", "check_catoni_root_rejects_bad_arguments"),
]


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    loaded = {}
    with importable(tmp_path_factory.mktemp("legit_driven"), PREFIX) as directory:

        def get(name):
            if name not in loaded:
                loaded[name] = load_impl(build(BY_NAME[name], directory))
            return loaded[name]

        yield get
        for candidate in loaded.values():
            candidate.close()


@pytest.mark.parametrize("choice_id, variant, check", DRIVEN, ids=[d[0] for d in DRIVEN])
def test_the_table_drives_the_checks(choice_id, variant, check, copies, monkeypatch):
    candidate = copies(variant)
    assert run_check(all_checks()[check], candidate, max_examples=MAX_EXAMPLES).status == PASSED
    monkeypatch.setitem(BY_ID, choice_id, _pinned(choice_id))
    with teeth_profile():  # one failing example is enough: no shrinking
        result = run_check(all_checks()[check], candidate, max_examples=MAX_EXAMPLES)
    assert result.status == FAILED, f"with {choice_id} pinned, {check} still accepts {variant}"


@pytest.mark.parametrize(
    "choice_id, variant",
    [
        ("passive.erm_tie", "passive_erm_highest_index"),
        ("calruption.output", "calruption_output_highest_member"),
        ("calruption.fit", "calruption_fit_midpoint"),
    ],
    ids=["passive.erm_tie", "calruption.output", "calruption.fit"],
)
def test_the_table_drives_the_cross_check(choice_id, variant, copies, monkeypatch):
    candidate = copies(variant)
    algorithm = BY_NAME[variant].modes[0]
    cases = FIXED[:4]
    assert not any(r.mismatches for case in cases for r in crosscheck_case(candidate, case, algorithms=(algorithm,)))
    monkeypatch.setitem(BY_ID, choice_id, _pinned(choice_id))
    assert any(r.mismatches for case in cases for r in crosscheck_case(candidate, case, algorithms=(algorithm,)))


def test_render_lists_every_entry_once():
    text = render_markdown()
    for c in CHOICES:
        assert text.count(f"`{c.id}`") == 1, c.id
    assert text.count("\n| `") == len(CHOICES)
    assert sum(c.status == FREE for c in CHOICES) == sum(
        1
        for line in text.splitlines()
        if line.startswith("| `")
        and line.endswith(("argmin_tie |", "lp_non_unique |", "output_member |", "tolerance |"))
    )


def test_docs_copy_is_current():
    """docs/property-suite.md carries render_markdown()'s text verbatim (regenerate it with
    `python -c "from properties.checks.free_choices import render_markdown; print(render_markdown())"`)."""
    assert render_markdown() in (ROOT / "docs" / "property-suite.md").read_text(), (
        "docs/property-suite.md's copy of the free-choices table is stale"
    )
