"""No float rounding is a false alarm: the legitimate float variants of
teeth/legit/float_variants.py -- fast declared float64, fast as a program through
--candidate-cmd, and a float32 copy of fast -- pass `check` with 0 failures and 0 errors.

* default run: the float32 copy really computes in float32 (its float quantities are
  float32 arrays, its counts int64, and its traces differ from fast's beyond float64
  rounding), and it passes every non-statistical check on CHECK_EXAMPLES examples each;
* slow: fast, the float32 copy and the fast program (one process per call) each pass
  every registered check with the loaded profile's examples.

`check` judges them by derived error bounds (properties/checks/judgement.py; "float32" is one of
properties.core.contract.ARITHMETICS): before it did, fast failed 11 checks on rounding alone
and the float32 copy was refused.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from properties.api import check_implementation, is_failure
from properties.checks.registry import all_checks
from properties.judge.load import load_impl
from properties.run.runner import run_check
from properties.strategies import fixed_crosscheck_cases
from teeth.legit.float_variants import COMMAND, PREFIX, build_float32
from teeth.reference_copies import importable
from tests.support import REPO_ROOT
from tests.teeth.test_float_broken_caught import largest_difference

CHECK_EXAMPLES = 5
SLOW_KINDS = ("statistical", "counterexample")
ROOT = REPO_ROOT


@pytest.fixture(scope="module")
def float32_name(tmp_path_factory):
    with importable(tmp_path_factory.mktemp("legit_fast"), PREFIX) as directory:
        yield build_float32(directory)


def _failures(results, path):
    return {r.name: (r.status, r.violations[:1]) for r in results if is_failure(r, path)}


def test_the_float32_copy_computes_in_float32(float32_name):
    copy = importlib.import_module(float32_name)
    import fast

    assert copy.ARITHMETIC == "float32" and fast.ARITHMETIC == "float64"
    cases = fixed_crosscheck_cases(50)[:10]
    largest = 0.0
    for case in cases:
        H, tape, params = case.instance.hypotheses, case.tape, case.params
        run = copy.calruption(H, tape, params, raw=True)
        for e in run.epochs:
            for field in ("q", "min_q", "alpha", "W", "weight", "eta_hat", "risk_hat", "gap_hat", "next_q"):
                assert getattr(e, field).dtype == np.float32, (field, getattr(e, field).dtype)
            for field in ("seen", "rho_counts"):
                assert getattr(e, field).dtype == np.int64, field
        for c in copy.robust_cal(H, tape, params, raw=True).checkpoints:
            assert c.threshold.dtype == np.float32 and c.mistakes.dtype == np.int64
        ours, theirs = copy.calruption(H, tape, params), fast.calruption(H, tape, params)
        largest = max(largest, largest_difference(ours, theirs))
    # float32 rounds at 2^-24 relative, float64 at 2^-53: a copy that secretly stayed in
    # float64 would agree with fast to ~1e-15
    assert largest > 2.0**-40, largest


def test_the_float32_copy_passes_every_non_statistical_check(float32_name):
    checks = {name: c for name, c in all_checks().items() if c.kind not in SLOW_KINDS}
    with load_impl(float32_name) as candidate:
        results = [run_check(check, candidate, max_examples=CHECK_EXAMPLES) for check in checks.values()]
        assert _failures(results, candidate.path) == {}


@pytest.mark.slow
def test_the_float32_copy_passes_check(float32_name):
    results = check_implementation(float32_name, profile="ci", on_fail="collect")
    assert _failures(results, float32_name) == {}


@pytest.mark.slow
def test_fast_passes_check():
    results = check_implementation("fast", profile="ci", on_fail="collect")
    assert _failures(results, "fast") == {}


@pytest.mark.slow
def test_fast_as_a_program_passes_check(tmp_path):
    """`python -m properties check --candidate-cmd 'python -m properties answer --impl fast'`:
    one process per call, so slow; exit 0 and no failing check in its JSON report."""
    env = {**os.environ, "CI": "true", "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "properties",
            "check",
            "--candidate-cmd",
            COMMAND,
            "--json",
            "--results-dir",
            str(tmp_path / "results"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    report = json.loads(result.stdout)
    failing = {c["name"]: (c["status"], c["violations"][:1]) for c in report["checks"] if c["failing"]}
    assert failing == {} and result.returncode == 0, (failing, result.stderr[-2000:])
