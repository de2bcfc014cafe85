"""The suite has teeth: every deliberately broken copy of the reference in
teeth/broken/mutants.py is caught by the check it names.

For each mutant: its snippet occurs once in the reference (so the copy differs from it),
and `run_check(check, broken copy)` fails, for the reason the mutant expects (the
check's own logic, a crash, or a timeout). A control shows that the unpatched copy
returns exactly the reference's traces, so a mutant is never caught because copying
alone broke something.

Hypothesis: the configuration of a default `check` run -- the loaded profile's examples
(dev and ci: 25), the fixed base seed (properties/core/seeds.py), each check's known and
targeted examples first, no example database -- so a mutant caught here is caught by
`python -m properties check` on every run, and one that a default run would miss fails
here (tests/teeth/test_broken_caught_default_seed.py runs the whole command on every copy, slow).
Shrinking is off: a caught mutant needs one failing example, not a minimal one, and
shrinking cannot turn a failure back into a pass. The harness's per-call time limit is
cut to HANG_TIMEOUT_S for the mutant that hangs and to TIMEOUT_S for the others.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from fractions import Fraction

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from properties.checks.registry import all_checks
from properties.core import candidate as harness
from properties.core.candidate import call, run_algorithm
from properties.core.contract import TRACE_MODES, decode_enclosure
from properties.judge.load import load_impl
from properties.run.runner import FAILED, PASSED, run_check
from properties.strategies import cases
from reference.trace import trace_to_json
from teeth.broken.mutants import MUTANTS, PREFIX, build, copy_reference, patched_source
from teeth.reference_copies import importable
from tests.support import REPO_ROOT

TIMEOUT_S = 20.0  # a copy call that runs longer is a finding anyway; keeps a wild mutant from stalling the file
HANG_TIMEOUT_S = 1.0
CRASH_MARKERS = ("crashed: ",)
TIMEOUT_MARKERS = ("hung after",)
# the harness's own findings (impl.call, the decoders of properties/core/contract.py): a
# "violation" mutant must be caught by the check's logic, not by one of these
HARNESS_MARKERS = (
    CRASH_MARKERS
    + TIMEOUT_MARKERS
    + ("has no callable", "malformed", "asked for", "exited with", "out of memory", "not plain data")
)


@pytest.fixture(scope="session")
def broken_dir(tmp_path_factory):
    with importable(tmp_path_factory.mktemp("broken"), PREFIX) as directory:
        yield directory


@contextmanager
def teeth_profile():
    """The loaded profile without shrinking and without an example database (run_check
    seeds every check from the run's base seed, DEFAULT_SEED unless one is given)."""
    previous = getattr(settings, "_current_profile", None)
    current = settings.default
    phases = tuple(p for p in current.phases if p != Phase.shrink)
    settings.register_profile("teeth", parent=current, database=None, phases=phases)
    settings.load_profile("teeth")
    try:
        yield
    finally:
        if previous is not None:
            settings.load_profile(previous)
        else:  # pragma: no cover - older Hypothesis without _current_profile
            settings.register_profile("teeth-restore", parent=current)
            settings.load_profile("teeth-restore")


@contextmanager
def per_call_timeout(seconds: float):
    """The harness reads DEFAULT_TIMEOUT_S at call time."""
    saved = harness.DEFAULT_TIMEOUT_S
    harness.DEFAULT_TIMEOUT_S = seconds
    try:
        yield
    finally:
        harness.DEFAULT_TIMEOUT_S = saved


def _param(mutant):
    marks = [pytest.mark.xfail(reason=mutant.xfail, strict=True, raises=AssertionError)] if mutant.xfail else []
    return pytest.param(mutant, marks=marks, id=mutant.name)


def test_there_are_at_least_12_mutants():
    assert len(MUTANTS) >= 12
    assert len({m.name for m in MUTANTS}) == len(MUTANTS)


@pytest.mark.parametrize("mutant", [_param(m) for m in MUTANTS])
def test_mutant_is_caught(mutant, broken_dir):
    original, patched = patched_source(mutant)  # asserts the snippet occurs exactly once
    assert patched != original
    name = build(mutant, broken_dir)
    assert (broken_dir / name / mutant.file).read_text() == patched
    broken = load_impl(name)

    checks = all_checks()
    assert mutant.caught_by in checks, f"no registered check {mutant.caught_by!r}"
    seconds = HANG_TIMEOUT_S if mutant.expect == "timeout" else TIMEOUT_S
    with teeth_profile(), per_call_timeout(seconds):
        # the default run's examples (no max_examples); prefer_violations only looks on past a
        # crash for the check's own finding, among the same examples
        result = run_check(checks[mutant.caught_by], broken, prefer_violations=mutant.expect == "violation")
    assert result.status == FAILED, (
        f"{mutant.caught_by} did not catch {mutant.name} ({mutant.description}) in {result.examples} examples"
    )
    text = "\n".join(result.violations)
    if mutant.expect == "crash":
        assert any(marker in text for marker in CRASH_MARKERS), f"expected a crash of the copy, got: {text}"
    elif mutant.expect == "timeout":
        assert any(marker in text for marker in TIMEOUT_MARKERS), f"expected a timeout of the copy, got: {text}"
    else:
        assert not any(marker in text for marker in HARNESS_MARKERS), (
            f"{mutant.caught_by} failed only through the harness (crash, timeout, missing name, malformed "
            f"trace): {text}"
        )


# -- control: copying alone changes nothing -----------------------------------------------
@pytest.fixture(scope="session")
def unpatched(broken_dir):
    return load_impl(copy_reference(broken_dir, "broken_unpatched_copy"))


def test_unpatched_copy_returns_the_reference_traces(unpatched):
    import reference

    @settings(max_examples=15, derandomize=True, database=None, phases=(Phase.explicit, Phase.generate))
    @given(case=cases(max_rounds=300))
    def same_traces(case):
        for mode in TRACE_MODES:
            ours = run_algorithm("control", unpatched, mode, case)
            theirs = run_algorithm("control", reference, mode, case)
            assert trace_to_json(ours) == trace_to_json(theirs), mode

    same_traces()


def test_unpatched_copy_returns_the_reference_catoni_roots(unpatched):
    import reference

    values = st.lists(st.fractions(-8, 8, max_denominator=16), min_size=1, max_size=5)

    @settings(max_examples=20, derandomize=True, database=None, phases=(Phase.explicit, Phase.generate))
    @given(values=values, data=st.data(), alpha=st.fractions(Fraction(1, 64), 4, max_denominator=64))
    def same_roots(values, data, alpha):
        counts = data.draw(st.lists(st.integers(1, 30), min_size=len(values), max_size=len(values)))
        ours = decode_enclosure("control", call("control", unpatched, "catoni_root", values, counts, alpha))
        theirs = reference.catoni_root(values, counts, alpha)
        assert ours == (theirs.lo, theirs.hi)

    same_roots()


def test_unpatched_copy_passes_every_target_check(unpatched):
    """The checks that catch the mutants pass on the unpatched copy (few examples, a fixed
    experiment in its `check --quick` form on the first of its seeds: the trace comparison
    above is the real control)."""
    checks = all_checks()
    targets = sorted({m.caught_by for m in MUTANTS if m.caught_by in checks and not m.xfail})
    with teeth_profile():
        failing = {name: run_check(checks[name], unpatched, max_examples=5, quick=True) for name in targets}
    assert {n: r.violations[:1] for n, r in failing.items() if r.status != PASSED} == {}


def test_a_crash_in_a_checks_recomputation_is_that_checks_failure(broken_dir):
    """The copy that updates at t = 3 gives check_robust_cal_elimination_recomputed a round
    where beta_t is undefined (Params.robust_cal_beta(3) raises): through the command line
    that check names the candidate's checkpoint instead of crashing on it, the other checks
    run, exit 1, JSON parses."""
    import json
    import os
    import subprocess

    from teeth.broken.mutants import BY_NAME

    name = build(BY_NAME["robust_cal_update_at_round_3"], broken_dir)
    root = REPO_ROOT
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(broken_dir), str(root)]), "CI": "true"}
    only = [
        "check_robust_cal_elimination_recomputed",
        "check_robust_cal_checkpoints_at_powers_of_two",
        "check_passive_output_is_erm",
    ]
    result = subprocess.run(
        [sys.executable, "-m", "properties", "check", "--impl", name, "--json", "--only", *only],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 1, result.stderr[-2000:]
    checks = {c["name"]: c for c in json.loads(result.stdout)["checks"]}
    crashed = checks["check_robust_cal_elimination_recomputed"]
    assert crashed["status"] == FAILED
    assert "a checkpoint at a round that is not 2^k, k >= 1 (line 7) (t = 3)" in crashed["violations"][0]
    assert checks["check_robust_cal_checkpoints_at_powers_of_two"]["status"] == FAILED
    assert checks["check_passive_output_is_erm"]["status"] == PASSED


def test_the_broken_vanilla_rule_escapes_every_check_but_the_vanilla_trace_checks(broken_dir):
    """Why the vanilla rule needs trace checks of its own: without them only the
    counter-example experiment runs it, and this copy still loses h* there."""
    from teeth.broken.mutants import BY_NAME

    broken = load_impl(build(BY_NAME["robust_cal_vanilla_threshold_constant_half"], broken_dir))
    checks = all_checks()
    with teeth_profile():
        assert run_check(checks["check_counterexample_vanilla_loses_best"], broken).status == PASSED
        assert run_check(checks["check_robust_cal_elimination_recomputed"], broken).status == PASSED
        assert run_check(checks["check_robust_cal_vanilla_elimination_recomputed"], broken).status == FAILED
    broken.close()
