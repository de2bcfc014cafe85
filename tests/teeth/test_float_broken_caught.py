"""The suite keeps its teeth for a float implementation: every broken
copy of fast in teeth/broken/fast_mutants.py is caught by `check` alone, through each
registered check its `caught_by` names, and the catch means something.

* each mutant is a bug, not a rounding: on the fixed cross-check cases its trace differs
  from fast's by a discrete field (an index, a count, a set) or by a relative change
  above BEYOND_ROUNDING; a mutant with from_epoch = 2 leaves epoch 1's record of every
  examined case bit for bit as fast's, and changes a later epoch;
* properties.run.runner.run_check on the copy FAILS, through the check's own logic (not a
  crash or a malformed result of the copy), and plain fast PASSES the very example that
  caught the mutant: that control is what makes the catch a bug and not a float
  artefact;
* plain fast passes every catching check on a few generated examples.

The checks judge a float candidate by derived error bounds (properties/checks/judgement.py):
before they did, plain fast failed the checks that recompute exact quantities (Catoni
enclosures, LP optimality, Delta^, RobustCAL's threshold) on rounding alone, and a catch
there meant nothing; the control now shows it does.

Hypothesis: the configuration of a default `check` run (the profile's examples, the fixed
seed, the known and targeted examples), without shrinking and without an example database
(tests/teeth/test_broken_caught.py's teeth_profile, for the same reasons); the copies run in this
process (the check logic is the same as in a worker; it saves a worker start per mutant).
Default run: the first check of each mutant's `caught_by`; slow: every named check."""

from __future__ import annotations

import importlib
import math
from dataclasses import fields, is_dataclass
from fractions import Fraction

import pytest

from properties.checks.registry import all_checks
from properties.core.candidate import run_algorithm
from properties.core.contract import TRACE_MODES
from properties.judge.load import load_impl
from properties.run.runner import FAILED, PASSED, violations_of
from properties.strategies import fixed_crosscheck_cases
from teeth.broken.fast_mutants import FROM_EPOCH_2, MUTANTS, PREFIX, build, first_catch
from teeth.reference_copies import importable
from tests.teeth.test_broken_caught import HARNESS_MARKERS, teeth_profile

CONTROL_EXAMPLES = 5
BEYOND_ROUNDING = 1e-6  # relative; float64 rounding in fast is ~1e-15 (properties/checks/tolerances.py)
DIFF_CASES = 20  # fixed cases examined for the differences (the first 20 of the cross-check's 50)


@pytest.fixture(scope="module")
def broken_dir(tmp_path_factory):
    with importable(tmp_path_factory.mktemp("broken_fast"), PREFIX) as directory:
        yield directory


@pytest.fixture(scope="module")
def plain_fast():
    with load_impl("fast", isolate=False) as candidate:
        yield candidate


def test_there_are_enough_float_mutants():
    checks = all_checks()
    assert len(MUTANTS) >= 12 and len(FROM_EPOCH_2) >= 3
    for m in MUTANTS:
        assert m.caught_by, f"{m.name} names no check"
        assert set(m.caught_by) <= set(checks), (m.name, set(m.caught_by) - set(checks))


# -- each mutant is a bug, not a rounding -------------------------------------------------
def largest_difference(a, b) -> float:
    """inf where the two traces differ in a discrete way (type, length, an int, an index,
    a string), else the largest relative difference of two rationals (0.0: equal)."""
    if is_dataclass(a) or is_dataclass(b):
        if type(a) is not type(b):
            return math.inf
        return max((largest_difference(getattr(a, f.name), getattr(b, f.name)) for f in fields(a)), default=0.0)
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        if not (isinstance(a, (tuple, list)) and isinstance(b, (tuple, list))) or len(a) != len(b):
            return math.inf
        return max(map(largest_difference, a, b), default=0.0)
    if isinstance(a, Fraction) or isinstance(b, Fraction):
        if a is None or b is None:
            return math.inf
        if a == b:
            return 0.0
        return float(abs(Fraction(a) - Fraction(b)) / max(abs(Fraction(a)), abs(Fraction(b))))
    return 0.0 if a == b else math.inf


def modes_of(mutant) -> list[str]:
    checks = all_checks()
    modes = [mode for mode in TRACE_MODES if any(mode in checks[c].covers for c in mutant.caught_by)]
    return modes or ["calruption"]  # catoni_root alone: CALruption's line 8 calls the same root


_FAST_TRACES: dict = {}  # (case index, mode) -> fast's trace, shared by the mutants


def differences(mutant, module, cases):
    """[(case index, mode, largest difference, epoch-1 difference or None)] on `cases`; a
    mutant of every epoch stops at its first difference beyond rounding, one from epoch 2
    on runs every case (epoch 1 must be fast's on all of them)."""
    import fast

    found = []
    for index, case in enumerate(cases):
        for mode in modes_of(mutant):
            ours = run_algorithm("float-teeth", module, mode, case)
            if (index, mode) not in _FAST_TRACES:
                _FAST_TRACES[index, mode] = run_algorithm("float-teeth", fast, mode, case)
            theirs = _FAST_TRACES[index, mode]
            first = None
            if mode == "calruption" and ours.epochs and theirs.epochs:
                first = largest_difference(ours.epochs[0], theirs.epochs[0])
            found.append((index, mode, largest_difference(ours, theirs), first))
        if mutant.from_epoch < 2 and any(d > BEYOND_ROUNDING for _, _, d, _ in found):
            break
    return found


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_mutant_differs_from_fast_beyond_rounding(mutant, broken_dir):
    module = importlib.import_module(build(mutant, broken_dir))
    cases = fixed_crosscheck_cases(50)[:DIFF_CASES]
    found = differences(mutant, module, cases)
    beyond = [(i, mode, d) for i, mode, d, _ in found if d > BEYOND_ROUNDING]
    assert beyond, (
        f"{mutant.name} changes fast's traces by at most {max(d for _, _, d, _ in found)} on {len(cases)} cases"
    )
    print(f"\n{mutant.name}: differs beyond rounding on {len(beyond)} of {len(found)} (case, mode); first {beyond[0]}")
    if mutant.from_epoch >= 2:
        changed_first = [(i, d1) for i, _, _, d1 in found if d1]
        assert changed_first == [], f"{mutant.name} changes epoch 1's record: {changed_first}"
        later = [(i, d) for i, mode, d, d1 in found if mode == "calruption" and d1 == 0.0 and d > BEYOND_ROUNDING]
        assert later, f"{mutant.name}: no case where a later epoch changes"


# -- each mutant is caught by `check` alone, and plain fast passes its example ------------------
def _catch(mutant, check_name, broken_dir, plain_fast, max_examples):
    check = all_checks()[check_name]
    with load_impl(build(mutant, broken_dir), isolate=False) as broken, teeth_profile():
        result, example, seconds = first_catch(check, broken, max_examples=max_examples, prefer_violations=True)
    assert result.status == FAILED, (
        f"{check_name} did not catch {mutant.name} ({mutant.description}) in {result.examples} examples"
    )
    text = "\n".join(result.violations)
    assert not any(marker in text for marker in HARNESS_MARKERS), f"caught only through the harness: {text}"
    assert example is not None
    print(
        f"\n{mutant.name} caught by {check_name} after {seconds:.2f} s ({result.examples} examples): "
        f"{result.violations[0][:300]}"
    )
    control = violations_of(check, plain_fast, example)
    assert control == [], f"plain fast fails the example that caught {mutant.name}: {control[:1]}"


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_mutant_is_caught_by_its_first_check(mutant, broken_dir, plain_fast):
    _catch(mutant, mutant.caught_by[0], broken_dir, plain_fast, None)


@pytest.mark.slow
@pytest.mark.parametrize(
    "mutant,check_name",
    [(m, c) for m in MUTANTS for c in m.caught_by],
    ids=[f"{m.name}-{c}" for m in MUTANTS for c in m.caught_by],
)
def test_mutant_is_caught_by_every_named_check(mutant, check_name, broken_dir, plain_fast):
    _catch(mutant, check_name, broken_dir, plain_fast, None)


CATCHING = sorted({c for m in MUTANTS for c in m.caught_by})


@pytest.mark.parametrize("check_name", CATCHING)
def test_plain_fast_passes_the_catching_check(check_name, plain_fast):
    with teeth_profile():
        result, _, _ = first_catch(all_checks()[check_name], plain_fast, max_examples=CONTROL_EXAMPLES)
    assert result.status == PASSED, result.violations[:1]
