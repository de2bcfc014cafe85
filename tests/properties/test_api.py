"""properties.check_implementation (properties/api.py): the property suite as one Python
call. The reference passes a selection; a candidate with one wrong function (catoni_root
answering an enclosure 2 wide, not at most 2^-64) fails the check that holds it to
Appendix D.2's Catoni root, and check_implementation raises, warns or collects as asked;
bad arguments are ValueErrors naming what is wrong."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import pytest

import properties
import reference
from properties.api import describe_failure, is_failure
from properties.checks.registry import EXPECTED_FAILURES, all_checks
from properties.core.contract import PUBLIC_NAMES
from properties.run.runner import FAILED, NOT_RUN, PASSED, XFAIL, XPASS, CheckResult
from reference.certified import Enclosure
from tests.support import REPO_ROOT

ERM = "check_passive_output_is_erm"  # Theorem 3.1: passive learning outputs an ERM
CATONI = "check_catoni_root_certified"
FINDING = "check_passive_learning_lemma_c1"  # an expected failure (FINDINGS F2)


def _wide_catoni_root(values, counts, alpha, **options):
    """The reference's Catoni root, widened by 1 on each side: it still encloses the root
    but is wider than 2^-64 on every problem. Catoni problems are cheap to draw, so the
    failure shrinks in a fraction of what a failing check on learning cases costs."""
    root = reference.catoni_root(values, counts, alpha, **options)
    return Enclosure(root.lo - 1, root.hi + 1)


def broken() -> dict:
    functions = {name: getattr(reference, name) for name in PUBLIC_NAMES if callable(getattr(reference, name, None))}
    return {**functions, "catoni_root": _wide_catoni_root}


def test_the_api_is_exported_from_the_package():
    assert properties.check_implementation is properties.api.check_implementation
    assert issubclass(properties.ImplementationCheckFailed, AssertionError)
    assert issubclass(properties.CheckFailureWarning, UserWarning)
    assert properties.load_candidate is properties.judge.load.load_candidate
    with pytest.raises(AttributeError, match="no_such_name"):
        getattr(properties, "no_such_name")  # noqa: B009 (the attribute access is the test)


def test_importing_the_package_stays_light_until_the_api_is_used():
    code = (
        "import sys, properties; print('hypothesis' in sys.modules, 'properties.api' in sys.modules); "
        "properties.check_implementation; print('properties.api' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out == ["False", "False", "True"]


def test_the_reference_passes_a_selection_and_its_finding_is_an_expected_failure():
    names = [ERM, CATONI, FINDING]
    assert FINDING in EXPECTED_FAILURES
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing to warn about
        results = properties.check_implementation("reference", checks=names)
    assert [r.name for r in results] == names
    assert all(isinstance(r, CheckResult) for r in results)
    assert [r.status for r in results] == [PASSED, PASSED, XFAIL]
    assert results[2].reason == EXPECTED_FAILURES[FINDING]
    # what the command line's --json prints for each check, statistics included
    data = json.loads(json.dumps([r.to_json() for r in results]))
    assert data[0]["statistics"]["seconds"] >= 0 and data[0]["statistics"]["generate"]["examples"] >= 1
    assert data[0]["examples"] == results[0].examples > 0


def test_a_spent_budget_leaves_checks_not_run_which_is_a_failure():
    """budget= as `check --budget` (properties/core/budget.py): what has not started when it is
    spent is 'not run' -- no verdict, so never a pass."""
    names = [ERM, CATONI]
    results = properties.check_implementation("reference", checks=names, budget=1e-9, on_fail="collect")
    assert [r.status for r in results] == [NOT_RUN, NOT_RUN], [(r.name, r.status) for r in results]
    assert all(is_failure(r, "reference") for r in results)
    with pytest.raises(properties.ImplementationCheckFailed, match=f"{ERM} .* not run: the time budget was spent"):
        properties.check_implementation("reference", checks=names, budget=1e-9)
    import numpy as np

    for generous in (3600, np.int64(3600), np.float64(3600.5)):
        assert [r.status for r in properties.check_implementation("reference", checks=[ERM], budget=generous)] == [
            PASSED
        ], generous


def test_a_module_object_and_an_isolated_import_path_give_the_same_verdicts():
    as_module = properties.check_implementation(reference, checks=[ERM])
    isolated = properties.check_implementation("reference", checks=[ERM], isolate=True, timeout=30)
    assert [r.status for r in as_module] == [r.status for r in isolated] == [PASSED]
    # the fixed seed (profile ci): the same examples either way
    assert as_module[0].examples == isolated[0].examples


def test_a_loaded_candidate_is_used_as_is_and_left_open():
    with properties.load_candidate("reference", isolate=True) as candidate:
        first = properties.check_implementation(candidate, checks=[CATONI])
        again = properties.check_implementation(candidate, checks=[CATONI])  # still usable: not closed
    assert [r.status for r in first + again] == [PASSED, PASSED]


def _check_broken(on_fail):
    return properties.check_implementation(broken(), checks=[CATONI, ERM], on_fail=on_fail)


def test_a_broken_candidate_raises_with_each_failing_check_its_violation_and_reproducer():
    with pytest.raises(properties.ImplementationCheckFailed) as raised:
        _check_broken("raise")
    error = raised.value
    assert isinstance(error, AssertionError)
    assert [r.name for r in error.results] == [CATONI, ERM]
    assert [r.name for r in error.failures] == [CATONI]
    assert error.results[0].status == FAILED and error.results[1].status == PASSED
    message = str(error)
    assert message.startswith("1 of 2 checks failed on <SimpleNamespace> (in-process, profile ci, seed 0)")
    assert f"{CATONI} (Appendix D.2" in message and "FINDINGS R12) failed after" in message
    assert "catoni_root is wider than 2^-64" in message
    assert error.results[0].violations[0] in message
    assert f"reproduce: {error.results[0].counterexample}" in message
    assert error.results[0].counterexample.startswith("properties.strategies.CatoniProblem(")
    assert ERM not in message


def test_a_broken_candidate_warns_once_per_failing_check():
    with pytest.warns(properties.CheckFailureWarning) as caught:
        results = _check_broken("warn")
    assert len(caught) == 1
    text = str(caught[0].message)
    assert CATONI in text and "catoni_root is wider than 2^-64" in text and "reproduce: " in text
    assert caught[0].filename == __file__  # stacklevel: the warning points at the caller
    assert [r.status for r in results] == [FAILED, PASSED]


def test_a_broken_candidate_is_collected_silently():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        results = _check_broken("collect")
    assert [r.status for r in results] == [FAILED, PASSED]
    assert results[0].violations and results[0].counterexample


def _result(status):
    return CheckResult(
        "check_x", "Lemma 1", "lemma", status, 1, reason="FINDINGS F0" if status in (XFAIL, XPASS) else None
    )


@pytest.mark.parametrize(
    "status, path, failing",
    [
        (FAILED, "mypkg", True),
        (FAILED, "reference", True),
        (XFAIL, "reference", False),
        (PASSED, "reference", False),
        # an expected failure that passes: the record of the finding is stale on the
        # reference; on a candidate it is not the candidate's failure (properties/cli.py)
        (XPASS, "reference", True),
        (XPASS, "mypkg", False),
    ],
)
def test_failing_follows_the_command_lines_rule(status, path, failing):
    assert is_failure(_result(status), path) is failing


def test_a_failure_is_described_by_its_first_violations_and_reproducers():
    result = CheckResult(
        "check_x",
        "Lemma 1",
        "lemma",
        FAILED,
        3,
        "Case.from_json(...)",
        ["v1", "v2", "v3"],
        requests=["/kept/request.json"],
    )
    assert describe_failure(result, violations=2).splitlines() == [
        "check_x (Lemma 1) failed after 3 examples: v1",
        "  v2",
        "  ... and 1 more",
        "  reproduce: Case.from_json(...)",
        "  request files: /kept/request.json",
    ]


def test_an_xpass_on_the_reference_is_described_as_a_stale_finding():
    text = describe_failure(_result(XPASS))
    assert "unexpectedly passed on the reference" in text and "FINDINGS F0" in text and "stale" in text


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"checks": ["check_nope", ERM, "check_nada"]}, "unknown checks: 'check_nope', 'check_nada'"),
        ({"checks": ERM}, "got the string 'check_passive_output_is_erm'"),
        ({"checks": []}, "checks is empty"),
        ({"checks": 7}, "iterable of check names, got 7"),
        ({"on_fail": "ignore"}, "on_fail must be one of raise, warn, collect, got 'ignore'"),
        ({"profile": "quick"}, "profile must be one of dev, ci, fuzz, got 'quick'"),
        ({"budget": 0}, "budget must be a positive, finite number of seconds or None, got 0"),
        ({"budget": -1.5}, "budget must be a positive, finite number of seconds or None, got -1.5"),
        ({"budget": "60"}, "budget must be a positive, finite number of seconds or None, got '60'"),
        ({"budget": float("nan")}, "budget must be a positive, finite number of seconds or None, got nan"),
        ({"budget": True}, "budget must be a positive, finite number of seconds or None, got True"),
        ({"budget": 10**400}, "budget must be a positive, finite number of seconds or None, got 1000"),
        ({"budget": float("inf")}, "budget must be a positive, finite number of seconds or None, got inf"),
    ],
)
def test_bad_arguments_are_value_errors_naming_them(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        properties.check_implementation("reference", **kwargs)


@pytest.mark.parametrize(
    "candidate, kwargs, message",
    [
        ("no_such_module_anywhere", {"isolate": False}, "'no_such_module_anywhere' cannot be imported"),
        ("", {}, "import path is empty"),
        (42, {}, "candidate must be an import path"),
        (None, {}, "candidate must be an import path"),
        ({"passive": reference.passive}, {}, "lacks robust_cal, calruption, catoni_root"),
        (reference, {"isolate": True}, "isolate=True needs the candidate's import path"),
    ],
)
def test_bad_candidates_are_value_errors(candidate, kwargs, message):
    with pytest.raises(ValueError, match=message):
        properties.check_implementation(candidate, checks=[ERM], **kwargs)


def test_loading_options_with_a_loaded_candidate_are_refused():
    with properties.load_candidate("reference") as candidate:
        with pytest.raises(ValueError, match="timeout, isolate apply when a candidate is loaded"):
            properties.check_implementation(candidate, checks=[ERM], timeout=5, isolate=True)
        with pytest.raises(ValueError, match="memory_limit apply when"):
            properties.check_implementation(candidate, checks=[ERM], memory_limit=1 << 30)


def test_every_registered_check_can_be_named():
    """`checks` accepts exactly the registry's names (the CLI's --only does too)."""
    names = list(all_checks())
    with pytest.raises(ValueError, match="unknown checks: 'check_'"):
        properties.check_implementation("reference", checks=names + ["check_"])
