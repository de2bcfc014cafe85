"""Every registered check of the property suite against the implementation under test
(--impl / $CRAL_IMPL, default the reference). Expected failures come from
properties.checks.registry.EXPECTED_FAILURES, each naming its FINDINGS.md entry, and each has its
finding's counterexample as a known example (KNOWN_EXAMPLES) that runs first.

In the default run (the reference, in-process) each check runs, in its quick form, on a
recording twin of the reference (tests/support/recording.py), and what the check declares it
covers is what it called; `-m slow` holds the same on the loaded profile's examples, every
example the main job runs."""

import pytest

from properties.checks.registry import EXPECTED_FAILURES, KNOWN_EXAMPLES, all_checks, known_examples
from properties.core.candidate import DEFAULT_IMPL
from properties.judge.load import load_impl
from properties.run.runner import NOT_APPLICABLE, PASSED, XFAIL, XPASS, run_check
from tests.support.recording import recording_of

CHECKS = all_checks()


class FindingReproduced(AssertionError):
    """The check failed as its expected failure says, for the cause its finding states."""


def _param(name):
    reason = EXPECTED_FAILURES.get(name)
    # only the finding itself is the expected failure: a counterexample its cause does not
    # explain (properties/checks/causes.py) is an AssertionError, which fails the test
    marks = [pytest.mark.xfail(reason=reason, strict=True, raises=FindingReproduced)] if reason else []
    return pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("name", [_param(name) for name in CHECKS])
def test_check(name, impl):
    # On the built-in reference the full profile's run of every check is the main job
    # (`python -m properties check`, the first line CI runs): here its quick form (the known
    # examples, profiles.QUICK_EXAMPLES generated ones, the fixed experiments on fewer seeds)
    # holds the statuses and the coverage claim, and test_check_on_the_full_profile (slow) runs
    # the full profile. A candidate named by --impl is judged on the full profile.
    _check_passes_and_calls_what_it_covers(name, impl, quick=impl.path == DEFAULT_IMPL)


@pytest.mark.slow
@pytest.mark.parametrize("name", [_param(name) for name in CHECKS])
def test_check_on_the_full_profile(name, impl):
    _check_passes_and_calls_what_it_covers(name, impl, quick=False)


def _check_passes_and_calls_what_it_covers(name, impl, quick: bool):
    recording = recording_of(impl)
    result = run_check(CHECKS[name], recording or impl, quick=quick)
    if recording is not None:
        covers = set(CHECKS[name].covers)
        assert recording.modes <= covers, f"{name} calls {sorted(recording.modes - covers)}"
        assert recording.modes == covers, f"{name} never called {sorted(covers - recording.modes)}"
    if result.status == NOT_APPLICABLE:
        pytest.skip(result.reason)
    if result.status == XPASS and impl.path != DEFAULT_IMPL:  # see properties/cli.py: not the candidate's failure
        pytest.skip(f"{name}: the paper's counterexample does not arise with {impl.path}")
    if result.status == XFAIL:
        raise FindingReproduced(f"{name}: {result.reason}; {result.cause}")
    assert result.status in (PASSED, "unexpectedly passed"), (
        f"{name} ({result.cites}) failed after {result.examples} examples:\n  "
        + "\n  ".join(result.violations[:3])
        + f"\nreproduce: {result.counterexample}"
    )


@pytest.mark.parametrize("name", sorted(EXPECTED_FAILURES))
def test_each_expected_failure_fails_on_its_known_example_on_the_reference(name):
    """Deterministic: the finding's counterexample alone breaks the check on the reference."""
    examples = known_examples(name)
    assert examples, f"{name} has no known example"
    for example in examples:
        assert CHECKS[name].execute(load_impl("reference"), example), name


def test_known_examples_are_registered_for_known_checks():
    assert set(EXPECTED_FAILURES) <= set(KNOWN_EXAMPLES) <= set(CHECKS)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_flaky_expected_failure_is_found_under_the_random_dev_profile(seed):
    """Under `dev` (random, 25 examples) the generated examples of this check sometimes
    miss the finding; its known example runs first, whatever the seed."""
    check = CHECKS["check_calruption_estimation_lemma"]
    result = run_check(check, load_impl("reference"), max_examples=3, profile="dev", seed=seed)
    assert result.status == XFAIL and result.examples == 1
    assert result.counterexample == known_examples(check.name)[0].reproducer()
