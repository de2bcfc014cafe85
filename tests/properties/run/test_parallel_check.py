"""`python -m properties check -j N`: the same report for every N (properties/run/parallel.py),
each check with its own seed from the base seed and its id (properties.core.seeds.check_seed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from properties.checks.registry import all_checks
from properties.core.seeds import check_seed
from properties.run.parallel import LONG_KINDS, schedule
from tests.support import REPO_ROOT

ROOT = REPO_ROOT
# cheap checks, one of them an expected failure with its counterexample and cause
CHECKS = (
    "check_counterexample_instance_values",
    "check_passive_learning_lemma_c1",
    "check_corruption_effect_lemma_1",
    "check_counterexample_corruption_favours_h2",
)
TIMES = ("seconds", "statistics")


def test_check_seed_is_stable_and_differs_by_id_and_base():
    assert check_seed(0, "check_a") == check_seed(0, "check_a")
    assert check_seed(0, "check_a") != check_seed(0, "check_b")
    assert check_seed(0, "check_a") != check_seed(1, "check_a")
    assert 0 <= check_seed(2**62, "x") < 2**64


def test_check_seed_value_is_fixed():
    import hashlib

    digest = hashlib.sha256(b"7/check_x").digest()
    assert check_seed(7, "check_x") == int.from_bytes(digest[:8], "big")


def test_schedule_hands_out_long_experiments_first_and_every_check_once():
    checks = all_checks()
    order = schedule(checks)
    assert sorted(order) == sorted(checks)
    kinds = [checks[name].kind in LONG_KINDS for name in order]
    assert kinds == sorted(kinds, reverse=True), "a long experiment is handed out after a short check"


def _report(jobs: int, tmp_path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CRAL_RESULTS_DIR": str(tmp_path / f"results-{jobs}")}
    env.pop("CRAL_JOBS", None)
    done = subprocess.run(
        [sys.executable, "-m", "properties", "check", "--profile", "ci", "--seed", "7", "-j", str(jobs), "--json"]
        + ["--only", *CHECKS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    report.pop("seconds")
    for entry in report["checks"]:
        for key in TIMES:
            entry.pop(key)
    return report


def test_one_and_two_workers_give_the_same_report(tmp_path):
    serial, parallel = _report(1, tmp_path), _report(2, tmp_path)
    assert [c["name"] for c in parallel["checks"]] == list(CHECKS)  # the registry's (here --only's) order
    assert {c["status"] for c in serial["checks"]} == {"passed", "expected failure"}
    assert serial == parallel


@pytest.mark.parametrize("value", ["0", "two"])
def test_bad_jobs_is_one_line_and_exit_2(value):
    done = subprocess.run(
        [sys.executable, "-m", "properties", "check", "-j", value, "--only", CHECKS[0]],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "-j/--jobs" in done.stderr and repr(value) in done.stderr


def test_workers_take_the_judges_describe_answer_of_a_command(tmp_path):
    """check -j 2 through a command: the judge asks the program to describe itself once,
    the workers take its answer and each starts its own serving process."""
    log = tmp_path / "starts.log"
    program = tmp_path / "answer.py"
    program.write_text(
        "import runpy, sys\n"
        f"open({str(log)!r}, 'a').write(('serve' if '--serve' in sys.argv else 'one shot') + '\\n')\n"
        "sys.argv = ['properties', 'answer', '--impl', 'reference', *sys.argv[1:]]\n"
        "runpy.run_module('properties', run_name='__main__', alter_sys=True)\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "properties", "check", "--profile", "ci", "--seed", "7", "-j", "2", "--json"]
        + ["--candidate-cmd", f"{sys.executable} {program}"]
        + ["--only", "check_passive_output_is_erm", "check_catoni_root_certified"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert {c["status"] for c in json.loads(done.stdout)["checks"]} == {"passed"}
    assert sorted(log.read_text().split("\n")[:-1]) == ["one shot", "serve", "serve"]
