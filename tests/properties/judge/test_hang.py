"""Hanging and misbehaving candidates as a newcomer meets them, and
"stdout carries only the report" for Hypothesis's own notes.

Every command line runs in a subprocess, as a user runs it, with a short --timeout; the
commands that wait out a timeout run concurrently (the module fixture `runs`) so the
file stays well under a minute. No assertion bounds a wall time (a busy machine would
fail it): a hanging candidate costs a check one timeout, never one per shrink step, and
the tests read that from what the judge reported -- the hang found by its own timeout on
the first example, no shrink step, the remaining runs skipped.

The candidates are tiny modules written into a temporary folder: passive loops, sleeps,
exits or prints; the module hangs, raises or exits at import."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

import properties
from properties.checks.registry import all_checks
from properties.reports.report import CROSSCHECK_FORMAT, validate
from properties.run.runner import FAILED, NOT_RUN, PASSED, run_check
from tests.support import REPO_ROOT

ROOT = REPO_ROOT
TIMEOUT = 2  # seconds per call, for the candidates that hang
PASSIVE_CHECKS = ("check_passive_output_is_erm", "check_passive_empirical_risks_recomputed")
NO_PASSIVE = "check_catoni_root_certified"  # calls catoni_root only: runs on after passive misbehaved

_HEAD = "import reference\nfrom reference import calruption, calruption_epoch, catoni_root, robust_cal\n"
CANDIDATES = {
    "hang_busy": _HEAD + "def passive(hypotheses, tape, params):\n    while True:\n        pass\n",
    "hang_sleepy": _HEAD + "import time\ndef passive(hypotheses, tape, params):\n    time.sleep(1000)\n",
    # each call takes a while and is right: only a budget bounds a run of it
    "hang_slow": _HEAD + "import time\ndef passive(hypotheses, tape, params):\n    time.sleep(0.5)\n"
    "    return reference.passive(hypotheses, tape, params)\n",
    "hang_sys_exit": _HEAD + "import sys\ndef passive(hypotheses, tape, params):\n    sys.exit(3)\n",
    "hang_os_exit": _HEAD + "import os\ndef passive(hypotheses, tape, params):\n    os._exit(3)\n",
    "hang_chatty": _HEAD + "def passive(hypotheses, tape, params):\n    print('chatty passive on stdout')\n"
    "    return reference.passive(hypotheses, tape, params)\n",
    # a wrong answer (a check's own violation, not a fault), so Hypothesis shrinks it
    "hang_wrong": _HEAD + "import dataclasses\ndef passive(hypotheses, tape, params):\n"
    "    trace = reference.passive(hypotheses, tape, params)\n"
    "    return dataclasses.replace(trace, output=(trace.output + 1) % len(hypotheses))\n",
    "hang_import_loop": "while True:\n    pass\n",
    "hang_import_sleep": "import time\ntime.sleep(1000)\n",
    "hang_import_error": "raise RuntimeError('boom at import')\n",
    "hang_import_syntax": "def passive(:\n    pass\n",
    "hang_import_exit": "import sys\nsys.exit(3)\n",
}


@pytest.fixture(scope="module")
def candidates(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("hang_candidates")
    for name, text in CANDIDATES.items():
        (folder / f"{name}.py").write_text(text)
    return folder


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    seconds: float

    def json(self) -> dict:
        try:
            return json.loads(self.stdout)
        except ValueError:
            pytest.fail(
                f"stdout is not one JSON object (exit {self.returncode}):\n{self.stdout[:2000]}\n"
                f"stderr:\n{self.stderr[-2000:]}"
            )

    def one_line_error(self, *fragments: str) -> None:
        """Bad input: exit 2, nothing on stdout, one line on stderr naming what is wrong."""
        assert self.returncode == 2, (self.returncode, self.stderr)
        assert self.stdout == "" and len(self.stderr.strip().splitlines()) == 1, self.stderr
        for fragment in fragments:
            assert fragment in self.stderr, self.stderr


def _env(folder: Path, **extra) -> dict:
    env = {**os.environ, "CI": "true", "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}
    env.pop("CRAL_CMD", None)  # a test that wants one passes it in `extra`
    return {**env, **extra}


def _run(command: list[str], env: dict, cwd: Path) -> Run:
    """In `cwd`, the test's folder: what a run writes there (cral-results/) stays out of the repository."""
    started = time.monotonic()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    return Run(result.returncode, result.stdout, result.stderr, time.monotonic() - started)


def _cli(folder: Path, *args, **env) -> Run:
    return _run([sys.executable, "-m", "properties", *args], _env(folder, **env), folder)


PLANTED_CMD = f"{sys.executable} {ROOT / 'teeth' / 'planted_cmd' / 'misbehave.py'}"
T = str(TIMEOUT)
# A worker process is killed on the judge's clock (properties/judge/isolation.py), whatever
# it does while it hangs, so the worker routes hang asleep (no CPU spent waiting out the
# timeouts); the in-process routes loop busily, as the SIGALRM limit there must interrupt
# pure-Python code (properties/core/candidate.py).
COMMANDS = {
    "sleepy": ["check", "--impl", "hang_sleepy", "--timeout", T, "--json", "--only", *PASSIVE_CHECKS, NO_PASSIVE],
    "busy in-process": [
        "check",
        "--impl",
        "hang_busy",
        "--in-process",
        "--timeout",
        T,
        "--json",
        "--only",
        PASSIVE_CHECKS[0],
    ],
    "sleepy crosscheck": [
        "crosscheck",
        "--candidate",
        "hang_sleepy",
        "--timeout",
        T,
        "--cases",
        "12",
        "--algorithms",
        "passive",
        "robust_cal",
        "--json",
    ],
    "command hang": [
        "check",
        "--candidate-cmd",
        f"{PLANTED_CMD} hang",
        "--timeout",
        T,
        "--json",
        "--only",
        PASSIVE_CHECKS[0],
    ],
    "command hang crosscheck": [
        "crosscheck",
        "--candidate-cmd",
        f"{PLANTED_CMD} hang",
        "--timeout",
        T,
        "--cases",
        "6",
        "--algorithms",
        "passive",
    ],
    "slow budget": ["check", "--impl", "hang_slow", "--budget", "4", "--json", "--only", *PASSIVE_CHECKS],
    "slow budget text": ["check", "--impl", "hang_slow", "--budget", "4", "--only", *PASSIVE_CHECKS],
    "slow crosscheck budget": [
        "crosscheck",
        "--candidate",
        "hang_slow",
        "--budget",
        "4",
        "--cases",
        "30",
        "--algorithms",
        "passive",
        "--json",
    ],
    "import sleep": ["check", "--impl", "hang_import_sleep", "--timeout", T],
    "import loop in-process": ["check", "--impl", "hang_import_loop", "--timeout", T, "--in-process"],
    "import sleep crosscheck": ["crosscheck", "--candidate", "hang_import_sleep", "--timeout", T],
}


@pytest.fixture(scope="module")
def runs(candidates) -> dict[str, Run]:
    """The commands that wait out timeouts or budgets, run concurrently."""

    def run(args):
        if "--candidate-cmd" in args:  # its request files stay in the test's folder, not /tmp
            args = [*args, "--keep-requests", str(candidates)]
        return _cli(candidates, *args)

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(COMMANDS, pool.map(run, COMMANDS.values())))


# -- item 1: a hang costs one timeout, and the check says so ---------------------------------
@pytest.mark.parametrize("name", ["sleepy", "busy in-process", "command hang"])
def test_a_hanging_call_ends_its_check_at_once_and_json_stays_valid(runs, name):
    run = runs[name]
    report = run.json()
    assert run.returncode == 1, run.stderr
    hung = [c for c in report["checks"] if c["name"] in PASSIVE_CHECKS]
    assert hung
    for check in hung:
        assert check["status"] == FAILED
        assert f": hung after {TIMEOUT} s (in passive)" in check["violations"][0], check["violations"]
        # reported on the first hanging call: no shrink step re-ran it
        assert check["examples"] == 1 and "shrink" not in check["statistics"], check
        assert check["unshrunk"].startswith("not shrunk"), check
    others = [c for c in report["checks"] if c["name"] not in PASSIVE_CHECKS]
    assert all(c["status"] == PASSED for c in others), others  # the suite went on


def test_crosscheck_stops_calling_what_hung_and_says_so(runs):
    run = runs["sleepy crosscheck"]
    report = run.json()
    assert run.returncode == 1
    passive, robust_cal = report["algorithms"]["passive"], report["algorithms"]["robust_cal"]
    # one timeout for the 12 cases, not one per case
    assert passive == {**passive, "cases": 12, "agreed": 0, "skipped": 11}, passive
    assert robust_cal == {**robust_cal, "cases": 12, "agreed": 12, "skipped": 0}, robust_cal
    assert report["skipped"] == {"not run: the candidate hung on passive in case 0": 11}, report["skipped"]
    assert [m["message"] for m in report["mismatches"]] == [f"hung after {TIMEOUT} s (in passive)"]
    assert "note: the candidate hung on passive in case 0: its remaining cases of passive are not run" in run.stderr
    # the versioned report says the same per algorithm (the hang is a failing run, the rest not run)
    entry = validate(report, "sleepy crosscheck", CROSSCHECK_FORMAT)["checks"][0]
    assert (entry["name"], entry["status"], entry["failing"], entry["not_run"]) == (
        "crosscheck_passive",
        FAILED,
        True,
        11,
    )
    assert [r["case"] for r in entry["failing_runs"]] == [0] and entry["failing_runs"][0]["replay_file"]


def test_crosscheck_of_a_hanging_command_costs_one_timeout(runs):
    run = runs["command hang crosscheck"]
    assert run.returncode == 1, run.stderr
    assert "5 runs skipped from case 1 on: not run: the candidate hung on passive in case 0" in run.stdout, run.stdout


# -- item 1: the total budget ----------------------------------------------------------------
def test_the_budget_stops_a_slow_check_and_not_run_is_not_a_pass(runs):
    run = runs["slow budget"]
    report = run.json()
    assert run.returncode == 1, run.stderr  # nothing failed, but not everything ran
    first, second = report["checks"]
    # 25 examples at 0.5 s a call would take 12.5 s: the budget stopped the first check
    # (between examples; on a machine so busy that start-up spent the budget, before its
    # first: how many examples ran depends on the machine, test_the_budget_is_looked_at_
    # before_each_example counts them on a clock of its own)
    assert first["status"] == NOT_RUN and first["examples"] < 25, first
    assert first["reason"].startswith(("stopped by the time budget after", "the time budget was spent")), first
    assert first["failing"] and second["failing"]  # the report's rule is the exit status's
    assert second == {
        **second,
        "status": NOT_RUN,
        "examples": 0,
        "reason": "the time budget was spent before it started",
    }, second
    text = runs["slow budget text"]
    assert text.returncode == 1
    assert "2 not run" in text.stdout
    assert "2 checks not run: the time budget (--budget 4 s) was spent" in text.stdout, text.stdout


def test_the_budget_stops_a_crosscheck_between_runs(runs):
    run = runs["slow crosscheck budget"]
    report = run.json()
    assert run.returncode == 1, run.stderr
    passive = report["algorithms"]["passive"]
    skipped = report["skipped"].get("not run: the time budget was spent", 0)
    # 30 runs at 0.5 s each would take 15 s: the budget of 4 s skipped some (how many depends on the machine)
    assert 0 < skipped <= 30 and passive["skipped"] == skipped and passive["agreed"] == 30 - skipped, report
    assert not report["mismatches"]
    assert report["budget"] == 4 and report["checks"][0]["status"] == NOT_RUN, report["checks"]
    entry = validate(report, "slow crosscheck budget", CROSSCHECK_FORMAT)["checks"][0]
    assert (entry["status"], entry["failing"], entry["reason"]) == (NOT_RUN, True, "not run: the time budget was spent")


class _CallClock:
    """The budget's clock, moved by `step` seconds per call of the candidate: a budget of
    N steps is spent after exactly N calls, however fast the machine."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def monotonic(self) -> float:
        return self.now

    def counting(self, invoke):
        def counted(*args, **kwargs):
            self.now += self.step
            return invoke(*args, **kwargs)

        return counted


def test_the_budget_while_shrinking_keeps_the_failure_found(candidates, monkeypatch):
    import properties.core.budget

    monkeypatch.syspath_prepend(str(candidates))
    check = all_checks()[PASSIVE_CHECKS[0]]
    clock = _CallClock(0.2)
    monkeypatch.setattr(properties.core.budget, "time", clock)
    with properties.load_candidate("hang_wrong") as candidate:
        candidate.invoke = clock.counting(candidate.invoke)
        result = run_check(check, candidate, profile="ci", deadline=1.5)
    assert result.status == FAILED and result.counterexample, result
    assert result.unshrunk == "shrinking stopped: the time budget was spent", result.unshrunk


def test_the_budget_is_looked_at_before_each_example(candidates, monkeypatch):
    import properties.core.budget

    monkeypatch.syspath_prepend(str(candidates))
    check = all_checks()[PASSIVE_CHECKS[0]]
    clock = _CallClock(1.0)
    monkeypatch.setattr(properties.core.budget, "time", clock)
    with properties.load_candidate("reference", isolate=True) as candidate:
        candidate.invoke = clock.counting(candidate.invoke)
        result = run_check(check, candidate, profile="ci", deadline=3.5)
    # one call per example: examples 1-4 start before the clock reaches 3.5, the fifth does not
    assert result.status == NOT_RUN and result.examples == 4, result
    assert result.reason == "stopped by the time budget after 4 examples, before it finished", result.reason


@pytest.mark.parametrize("budget", ["0", "-1", "soon"])
def test_a_bad_budget_is_one_line_and_exit_2(candidates, budget):
    _cli(candidates, "check", "--budget", budget).one_line_error("--budget")


def test_a_missing_folder_for_kept_requests_is_one_line_and_exit_2(candidates, tmp_path):
    missing = str(tmp_path / "no" / "such")
    _cli(candidates, "check", "--candidate-cmd", f"{PLANTED_CMD} hang", "--keep-requests", missing).one_line_error(
        missing, "--keep-requests"
    )


# -- item 1: the import runs under the same timeout ------------------------------------------
@pytest.mark.parametrize(
    "name, module",
    [
        ("import sleep", "hang_import_sleep"),
        ("import loop in-process", "hang_import_loop"),
        ("import sleep crosscheck", "hang_import_sleep"),
    ],
)
def test_an_import_that_hangs_is_one_line_and_exit_2(runs, name, module):
    run = runs[name]
    run.one_line_error(module, f"hung after {TIMEOUT} s (importing it)")


# -- item 2: misbehaving outside a call ------------------------------------------------------
@pytest.mark.parametrize(
    "module, expected",
    [
        ("hang_import_error", "RuntimeError: boom at import"),
        ("hang_import_syntax", "SyntaxError"),
        ("hang_import_exit", "SystemExit: 3"),
    ],
)
@pytest.mark.parametrize("route", [[], ["--in-process"]])
def test_an_import_that_fails_is_one_line_and_exit_2(candidates, module, expected, route):
    _cli(candidates, "check", "--impl", module, *route).one_line_error(module, expected)


@pytest.mark.parametrize(
    "module, expected",
    [
        ("hang_sys_exit", "exited with 3 (sys.exit in passive)"),
        ("hang_os_exit", "exited with 3 (in passive)"),
    ],
)
def test_an_exit_inside_a_call_fails_that_check_and_the_suite_goes_on(candidates, module, expected):
    run = _cli(candidates, "check", "--impl", module, "--json", "--only", *PASSIVE_CHECKS, NO_PASSIVE)
    report = run.json()
    assert run.returncode == 1, run.stderr  # the suite's verdict, not the candidate's exit status
    statuses = {c["name"]: c for c in report["checks"]}
    for name in PASSIVE_CHECKS:
        assert statuses[name]["status"] == FAILED and expected in statuses[name]["violations"][0], statuses[name]
        assert statuses[name]["counterexample"], statuses[name]  # its example, to rebuild
    assert statuses[NO_PASSIVE]["status"] == PASSED


@pytest.mark.parametrize(
    "args, env",
    [
        (["check", "--impl", ""], {}),
        (["check", "--impl", "  "], {}),
        (["check"], {"CRAL_IMPL": ""}),
        (["check", "--only", PASSIVE_CHECKS[0]], {"CRAL_IMPL": " "}),
        (["crosscheck", "--candidate", ""], {}),
        (["check"], {"CRAL_CMD": ""}),
        (["check", "--only", PASSIVE_CHECKS[0]], {"CRAL_CMD": "  "}),
        (["campaign", "fuzz", "--minutes", "1"], {"CRAL_CMD": ""}),
    ],
)
def test_an_empty_implementation_is_a_usage_error_not_the_reference(candidates, args, env):
    _cli(candidates, *args, **env).one_line_error("empty")


def test_an_empty_command_variable_stops_pytest_before_any_test(candidates):
    """CRAL_CMD= (an unset shell variable) under the repository's own tests: a usage error,
    not a silent run of the reference."""
    env = _env(candidates, CRAL_CMD="")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--co",
            str(ROOT / "tests" / "properties" / "judge" / "test_hang.py"),
        ],
        cwd=candidates,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 4, (run.returncode, run.stdout[-500:], run.stderr[-500:])
    assert "$CRAL_CMD is set but empty" in run.stderr, run.stderr[-500:]


# -- item 6 (part): stdout carries only the report --------------------------------------------
def test_an_in_process_candidate_that_prints_keeps_json_valid(candidates):
    run = _cli(candidates, "check", "--impl", "hang_chatty", "--in-process", "--json", "--only", PASSIVE_CHECKS[0])
    assert run.returncode == 0, run.stderr
    assert run.json()["checks"][0]["status"] == PASSED
    assert "chatty passive on stdout" in run.stderr


def test_hypothesis_slow_shrinking_warning_goes_to_stderr(candidates):
    """Hypothesis's "spent more than five minutes" note, provoked at once by a zero
    shrinking allowance: it must not break `check --json`."""
    program = (
        "import sys; import hypothesis.internal.conjecture.engine as engine; engine.MAX_SHRINKING_SECONDS = 0; "
        "from properties.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    run = _run(
        [sys.executable, "-c", program, "check", "--impl", "hang_wrong", "--json", "--only", PASSIVE_CHECKS[0]],
        _env(candidates),
        candidates,
    )
    report = run.json()
    assert run.returncode == 1 and report["checks"][0]["status"] == FAILED, run.stderr
    assert "spent more than five minutes" in run.stderr
    assert "five minutes" not in run.stdout


# -- the Python API does not hang either ------------------------------------------------------
def test_check_implementation_reports_a_hang_in_one_timeout(candidates, monkeypatch):
    monkeypatch.syspath_prepend(str(candidates))
    results = properties.check_implementation("hang_sleepy", checks=[PASSIVE_CHECKS[0]], on_fail="collect", timeout=1)
    assert results[0].status == FAILED and results[0].violations[0].endswith("hung after 1 s (in passive)")
    assert results[0].examples == 1, results[0]  # the first hanging call ended the check: one timeout
    with pytest.raises(ValueError, match=r"hang_import_sleep.*hung after 1 s \(importing it\)"):
        properties.check_implementation("hang_import_sleep", checks=[PASSIVE_CHECKS[0]], timeout=1)
