"""The judge never shares a process with the implementation it judges.

The planted candidates of teeth/planted/ misbehave outside the algorithms. Each runs
through the three routes a user has -- `python -m properties check`, `python -m
properties crosscheck` and pytest (`tests/properties/checks/test_every_check.py --impl`) -- each in a
subprocess of its own, as a user would run them: every route must give a named failing
result for what the candidate did (or, for the one that only prints, passing results
with its output attached), run every other check, exit 1 (0 for the printer), and keep
--json parseable. For the two candidates that tamper with the judge or with their
inputs, the same crosscheck run `--in-process` shows they did fool an unprotected
judge, so the tests here are about the protection, not about a bug found another way.

The route commands run concurrently (a module fixture), to keep the wall time down."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from properties.checks.registry import all_checks
from properties.core.candidate import CallFailed, call, run_algorithm
from properties.core.contract import MODES, TRACE_MODES
from properties.judge.isolation import CAPTURE_BYTES
from properties.judge.load import load_impl
from properties.strategies import fixed_crosscheck_cases
from reference.trace import trace_to_json
from tests.support import REPO_ROOT

ROOT = REPO_ROOT
TIMEOUT = "3"  # per call, for the candidate that hangs
# one check per mode, and a statement about the paper that calls no implementation
ONLY = (
    "check_calruption_epoch_schedule",
    "check_passive_output_is_erm",
    "check_robust_cal_elimination_recomputed",
    "check_robust_cal_empirical_risks_and_output",
    "check_corruption_effect_lemma_1",
)
PAPER_ONLY = "check_corruption_effect_lemma_1"


@dataclass(frozen=True)
class Planted:
    name: str
    fails: tuple[str, ...]  # the checks of ONLY that must fail
    marker: str | None  # in their violations (None: caught by the check's own logic)
    algorithms: tuple[str, ...]  # the cross-check's algorithms that must report mismatches


PLANTED = (
    Planted("segfault", ("check_calruption_epoch_schedule",), "crashed: SIGSEGV (in calruption", ("calruption",)),
    Planted("os_exit", ("check_passive_output_is_erm",), "exited with 3 (in passive", ("passive",)),
    Planted("sys_exit", ("check_passive_output_is_erm",), "exited with 4 (sys.exit in passive", ("passive",)),
    Planted("memory_hog", ("check_passive_output_is_erm",), "out of memory", ("passive",)),
    Planted(
        "orphan_child", ("check_calruption_epoch_schedule",), f"hung after {TIMEOUT} s (in calruption", ("calruption",)
    ),
    Planted("tampers_with_judge", ("check_robust_cal_elimination_recomputed",), None, ("robust_cal",)),
    Planted(
        "mutates_tape",
        ("check_robust_cal_elimination_recomputed", "check_robust_cal_empirical_risks_and_output"),
        None,
        ("robust_cal", "robust_cal_vanilla"),
    ),
    Planted("chatty", (), None, ()),
)
BY_NAME = {p.name: p for p in PLANTED}


def _module(name: str) -> str:
    return f"teeth.planted.{name}"


# The in-repo pytest route (a pytest process per candidate) runs in the default suite for a
# crash, a hang and a candidate that passes; the others are the slow run's (~20 s).
PYTEST_ROUTE_DEFAULT = ("segfault", "orphan_child", "chatty")


def _pytest_route_command(name: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-m",
        "not slow",
        "tests/properties/checks/test_every_check.py::test_check",
        "--impl",
        _module(name),
        "--cral-timeout",
        TIMEOUT,
        "-k",
        " or ".join(f"[{check}]" for check in ONLY),
    ]


# The cross-check route of the candidates that exit or exhaust memory is the slow run's: the
# check route above catches the same faults through the same worker.
CROSSCHECK_ROUTE_SLOW = ("os_exit", "sys_exit", "memory_hog")


def _crosscheck_route_command(name: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "properties",
        "crosscheck",
        "--candidate",
        _module(name),
        "--cases",
        "2",
        "--json",
        "--timeout",
        TIMEOUT,
    ]


# The default run holds the candidate that raises everywhere to the first check of each mode
# (and a statement about the paper); every check, ~30 s, is the slow run's.
ONE_PER_MODE = tuple(
    dict.fromkeys(
        [
            next(name for name, check in all_checks().items() if mode in check.covers)
            for mode in MODES
            if any(mode in check.covers for check in all_checks().values())
        ]
        + [PAPER_ONLY]
    )
)


def _raises_everywhere_command(*only: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "properties",
        "check",
        "--impl",
        _module("raises_everywhere"),
        "--json",
        *(("--only", *only) if only else ()),
    ]


def _commands(pid_file: Path) -> dict:
    runs = {}
    for p in PLANTED:
        runs[p.name, "check"] = [
            sys.executable,
            "-m",
            "properties",
            "check",
            "--impl",
            _module(p.name),
            "--json",
            "--timeout",
            TIMEOUT,
            "--only",
            *ONLY,
        ]
        if p.name not in CROSSCHECK_ROUTE_SLOW:
            runs[p.name, "crosscheck"] = _crosscheck_route_command(p.name)
        if p.name in PYTEST_ROUTE_DEFAULT:
            runs[p.name, "pytest"] = _pytest_route_command(p.name)
    runs["raises_everywhere", "check (one per mode)"] = _raises_everywhere_command(*ONE_PER_MODE)
    for name in ("tampers_with_judge", "mutates_tape"):
        runs[name, "crosscheck --in-process"] = [
            sys.executable,
            "-m",
            "properties",
            "crosscheck",
            "--candidate",
            _module(name),
            "--cases",
            "2",
            "--json",
            "--in-process",
            "--algorithms",
            "robust_cal",
        ]
    return runs


@pytest.fixture(scope="module")
def routes(tmp_path_factory):
    pid_file = tmp_path_factory.mktemp("planted") / "pids"
    env = {**os.environ, "CRAL_PLANTED_PID_FILE": str(pid_file), "CI": "true"}
    commands = _commands(pid_file)

    def run(command):
        return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)

    with ThreadPoolExecutor(max_workers=3) as pool:
        results = dict(zip(commands, pool.map(run, commands.values())))
    return results, pid_file


def _json(result) -> dict:
    try:
        return json.loads(result.stdout)
    except ValueError:
        pytest.fail(
            f"stdout is not one JSON object (exit {result.returncode}):\n{result.stdout[:2000]}\n"
            f"stderr:\n{result.stderr[-2000:]}"
        )


@pytest.mark.parametrize("name", [p.name for p in PLANTED])
def test_check_route(routes, name):
    planted = BY_NAME[name]
    result = routes[0][name, "check"]
    report = _json(result)
    assert result.returncode == (1 if planted.fails else 0), result.stderr[-2000:]
    statuses = {c["name"]: c for c in report["checks"]}
    assert list(statuses) == list(ONLY), "the report lists every check asked for"
    for check, entry in statuses.items():
        if check == PAPER_ONLY:
            assert entry["status"] == "not applicable", entry
        elif check in planted.fails:
            assert entry["status"] == "failed", entry
            if planted.marker:
                assert planted.marker in entry["violations"][0], entry["violations"]
            else:  # the check's own logic, not the harness
                assert not any(m in entry["violations"][0] for m in ("crashed", "hung", "exited")), entry
        else:
            assert entry["status"] == "passed", (check, entry)
    if name == "chatty":
        output = statuses["check_passive_output_is_erm"]["candidate_output"]
        assert "chatty: passive called" in output["stdout"] and "debug line on stderr" in output["stderr"]
        assert output["stdout_bytes"] >= 25 * len("chatty: passive called\n")


@pytest.mark.parametrize(
    "name",
    [pytest.param(p.name, marks=pytest.mark.slow) if p.name in CROSSCHECK_ROUTE_SLOW else p.name for p in PLANTED],
)
def test_crosscheck_route(routes, name):
    planted = BY_NAME[name]
    result = routes[0].get((name, "crosscheck"))
    if result is None:  # a slow-run case: its own process, with the fixture's environment
        env = {**os.environ, "CRAL_PLANTED_PID_FILE": str(routes[1]), "CI": "true"}
        result = subprocess.run(
            _crosscheck_route_command(name), cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
        )
    report = _json(result)
    assert result.returncode == (1 if planted.algorithms else 0), result.stderr[-2000:]
    for algorithm in TRACE_MODES:
        row = report["algorithms"][algorithm]
        if algorithm in planted.algorithms:
            assert row["agreed"] == 0, row
            messages = [m["message"] for m in report["mismatches"] if m["algorithm"] == algorithm]
            assert messages
            if planted.marker:
                assert planted.marker in messages[0], messages[0]
        else:
            assert row["agreed"] == row["cases"] == 2, (algorithm, row)
    if name == "chatty":
        assert "chatty: calruption called" in report["candidate_output"]["stdout"]


@pytest.mark.parametrize(
    "name",
    [p.name if p.name in PYTEST_ROUTE_DEFAULT else pytest.param(p.name, marks=pytest.mark.slow) for p in PLANTED],
)
def test_pytest_route(routes, name):
    planted = BY_NAME[name]
    result = routes[0].get((name, "pytest"))
    if result is None:  # a slow-run case: its own process, with the fixture's environment
        env = {**os.environ, "CRAL_PLANTED_PID_FILE": str(routes[1]), "CI": "true"}
        result = subprocess.run(
            _pytest_route_command(name), cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
        )
    assert result.returncode == (1 if planted.fails else 0), result.stdout[-3000:]
    summary = result.stdout.strip().splitlines()[-1]
    assert f"{len(planted.fails)} failed" in summary if planted.fails else "failed" not in summary, summary
    assert "1 skipped" in summary, summary  # the statement about the paper
    if planted.marker:
        assert planted.marker in result.stdout, result.stdout[-3000:]


@pytest.mark.parametrize("scope", ["one per mode", pytest.param("every check", marks=pytest.mark.slow)])
def test_a_candidate_that_raises_everywhere_fails_every_check_that_calls_it(routes, scope):
    """Every check reported, each that calls the implementation as crashed, the
    statements about the paper as not applicable, exit 1 (in about the time the reference
    takes: a fault shrinks for at most FAULT_SHRINK_BUDGET steps). The default run: the
    first check of each mode; the slow run: every check."""
    if scope == "every check":
        env = {**os.environ, "CI": "true"}
        result = subprocess.run(
            _raises_everywhere_command(), cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
        )
    else:
        result = routes[0]["raises_everywhere", "check (one per mode)"]
    report = _json(result)
    assert result.returncode == 1
    checks = all_checks() if scope == "every check" else {name: all_checks()[name] for name in ONE_PER_MODE}
    assert len(checks) >= 5
    assert [c["name"] for c in report["checks"]] == list(checks)
    for entry in report["checks"]:
        if checks[entry["name"]].covers:
            assert entry["status"] == "failed", entry
            assert "crashed: RuntimeError: not implemented yet" in entry["violations"][0], entry
        else:
            assert entry["status"] == "not applicable", entry


@pytest.mark.parametrize("name", ["tampers_with_judge", "mutates_tape"])
def test_an_unprotected_judge_is_fooled_by_them(routes, name):
    """--in-process: the same candidate, the same cases, no mismatch -- what isolation prevents."""
    report = _json(routes[0][name, "crosscheck --in-process"])
    assert report["algorithms"]["robust_cal"]["agreed"] == 2 and not report["mismatches"], report


def test_children_of_a_hung_candidate_are_killed(routes):
    _, pid_file = routes
    pids = [int(line) for line in pid_file.read_text().split()]
    assert len(pids) >= 3  # one per route
    for pid in pids:
        status = Path(f"/proc/{pid}/status")
        if status.exists():  # killed but not yet reaped by its new parent is dead too
            assert "State:\tZ" in status.read_text(), f"child {pid} of the hung candidate still runs"


# -- the harness in-process ---------------------------------------------------------------
CASES = fixed_crosscheck_cases(4)


def test_an_isolated_reference_returns_the_reference_traces():
    import reference

    with load_impl("reference", isolate=True) as isolated:
        assert isolated.isolated
        for case in CASES:
            for mode in TRACE_MODES:
                ours = trace_to_json(run_algorithm("t", isolated, mode, case))
                assert ours == trace_to_json(run_algorithm("t", reference, mode, case)), mode


def test_the_judge_keeps_its_own_inputs():
    case = CASES[0]
    before = (case.tape.x, case.tape.y, case.tape.u)
    with load_impl(_module("mutates_tape")) as candidate:
        run_algorithm("t", candidate, "robust_cal", case)
    assert (case.tape.x, case.tape.y, case.tape.u) == before


def test_a_worker_that_dies_is_replaced():
    case = CASES[0]
    with load_impl(_module("segfault")) as candidate:
        with pytest.raises(CallFailed) as failure:
            run_algorithm("t", candidate, "calruption", case)
        assert failure.value.fatal and "crashed: SIGSEGV" in failure.value.violation.message
        assert "Segmentation fault" in failure.value.violation.values.get("stderr", "")  # faulthandler's traceback
        assert run_algorithm("t", candidate, "passive", case).output >= 0
        assert candidate.starts == 2


def test_sys_exit_in_a_call_keeps_the_worker():
    with load_impl(_module("sys_exit")) as candidate:
        with pytest.raises(CallFailed) as failure:
            run_algorithm("t", candidate, "passive", CASES[0])
        assert not failure.value.fatal and candidate.starts == 1


def test_captured_output_is_bounded_and_counted():
    case = CASES[0]
    with load_impl(_module("chatty")) as candidate:
        candidate.take_output()
        calls = 2 * CAPTURE_BYTES // len("chatty: passive called\n") + 1
        for _ in range(calls):
            call("t", candidate, "passive", case.instance.hypotheses, case.tape, case.params)
        output = candidate.take_output()
    assert len(output["stdout"]) == CAPTURE_BYTES and output["stdout_truncated"]
    assert output["stdout_bytes"] == calls * len("chatty: passive called\n")


# -- a candidate that cannot even be loaded is bad input: exit 2, one line -------------------
def _cli(*args, tmp_path=None):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path or ""), str(ROOT)]))}
    return subprocess.run(
        [sys.executable, "-m", "properties", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
    )


@pytest.mark.parametrize(
    "body, expected",
    [
        ("raise RuntimeError('no GPU here')", "RuntimeError: no GPU here"),
        ("def passive(:\n    pass", "SyntaxError"),
        ("import sys\nsys.exit(3)", "SystemExit: 3"),
        ("import time\ntime.sleep(60)", "hung after 2 s (importing it)"),
        ("import os\nos._exit(5)", "exited with 5 (importing it)"),
        ("passive = robust_cal = calruption = None", "lacks passive, robust_cal, calruption, catoni_root"),
    ],
)
def test_a_candidate_that_fails_to_load_is_one_line_and_exit_2(tmp_path, body, expected):
    (tmp_path / "unloadable_candidate.py").write_text(body + "\n")
    for command in ("check", "crosscheck"):
        option = "--impl" if command == "check" else "--candidate"
        result = _cli(command, option, "unloadable_candidate", "--timeout", "2", tmp_path=tmp_path)
        assert result.returncode == 2, result.stderr
        assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert expected in result.stderr, result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--impl", ""],
        ["--impl", "x", "--timeout", "0"],
        ["--impl", "x", "--memory-limit", "lots"],
        ["--impl", "x", "--in-process", "--isolate"],
    ],
)
def test_bad_candidate_options_are_one_line_and_exit_2(args):
    result = _cli("check", *args)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.parametrize(
    "kind, expected",
    [
        ("deep", "sent a garbled reply (in passive)"),
        ("values", "x"),
        ("count", "sent a garbled reply (in passive)"),
        ("list", "sent a garbled reply (in passive)"),
    ],
)
def test_forged_replies_are_failures_not_crashes_of_the_judge(monkeypatch, kind, expected):
    monkeypatch.setenv("CRAL_PLANTED_FORGE", kind)
    case = CASES[0]
    with load_impl(_module("forges_replies")) as candidate:
        with pytest.raises(CallFailed) as failure:
            run_algorithm("t", candidate, "passive", case)
        assert failure.value.violation.message == expected
        assert failure.value.violation.check == "t"  # a forged "check" value cannot rename it


def test_a_forged_hello_is_bad_input():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "properties",
            "check",
            "--impl",
            _module("forges_replies"),
            "--only",
            "check_passive_output_is_erm",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "CRAL_PLANTED_FORGE": "hello"},
        timeout=900,
    )
    assert result.returncode == 2 and "sent a garbled reply (importing it)" in result.stderr, result.stderr


def test_an_oversized_exception_text_is_clipped():
    from properties.core.candidate import CandidateFault, fault_of_exception

    fault = fault_of_exception("passive", ValueError("x" * 10**6))
    assert isinstance(fault, CandidateFault) and len(fault.message) < 3000


def test_a_dropped_candidate_takes_its_worker_with_it():
    import gc

    candidate = load_impl("reference", isolate=True)
    process = candidate._slot.worker.process
    del candidate
    gc.collect()
    assert process.poll() is not None, "the worker of a dropped candidate still runs"


def test_the_worker_dies_with_a_judge_killed_outright(tmp_path):
    """SIGKILL leaves the judge no chance to clean up; the worker goes with it (Linux)."""
    import signal
    import time

    script = (
        "import os, sys, time; from properties.judge.load import load_impl; "
        "c = load_impl('reference', isolate=True); print(c._slot.worker.process.pid, flush=True); time.sleep(60)"
    )
    judge = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    worker = int(judge.stdout.readline())
    judge.send_signal(signal.SIGKILL)
    judge.wait()
    guard = time.monotonic() + 600  # waits for the worker's end (an event); only a worker that never dies fails
    while time.monotonic() < guard:
        status = Path(f"/proc/{worker}/status")
        if not status.exists() or "State:\tZ" in status.read_text():
            return
        time.sleep(0.1)
    pytest.fail(f"worker {worker} outlived its judge")


def test_load_impl_timeout_is_the_per_call_timeout(monkeypatch, tmp_path):
    monkeypatch.setenv("CRAL_PLANTED_PID_FILE", str(tmp_path / "pids"))
    with load_impl(_module("orphan_child"), timeout=1) as candidate:
        with pytest.raises(CallFailed) as failure:
            run_algorithm("t", candidate, "calruption", CASES[0])
    assert "hung after 1 s" in failure.value.violation.message


def test_each_call_of_a_batch_has_its_own_inputs_and_timeout():
    import reference
    from properties.core.candidate import call_many
    from properties.core.contract import decode_enclosure

    values, counts = [-1, 2, 5], [3, 1, 2]
    exact = reference.catoni_root(values, counts, 1)
    with load_impl(_module("slow_and_mutating")) as candidate:
        results = call_many("t", candidate, "catoni_root", [((values, counts, 1), {})] * 4, timeout=1)
    assert [decode_enclosure("t", r) for r in results] == [(exact.lo, exact.hi)] * 4
    assert (values, counts) == ([-1, 2, 5], [3, 1, 2])


def test_a_hang_while_shrinking_keeps_the_failure_found_first():
    from hypothesis import strategies as st

    from properties.checks.registry import Check
    from properties.core.violation import Violation
    from properties.run.runner import FAILED, run_check

    failed_once = []

    def execute(impl, x):
        if x >= 1000:
            failed_once.append(x)
            return [Violation.of("c", "a property the check decided false", x=x)]
        # a smaller example once a failure is found, as the shrinker tries them: the call
        # "hangs" (before that, the search may meet such values in any order: they pass)
        if x >= 10 and failed_once:
            raise CallFailed(Violation.of("c", "hung after 1 s (in passive)"), fatal=True)
        return []

    check = Check("c", "nowhere", "deterministic", st.integers(0, 10**6), execute, covers=("passive",))
    result = run_check(check, {"passive": None}, max_examples=200)
    assert result.status == FAILED and "decided false" in result.violations[0]
    assert result.unshrunk.startswith("shrinking stopped when a smaller example cost the worker: hung after")


_GRAB = (
    "import signal\n"
    "def _grab():\n"
    "    for number in (signal.SIGALRM, signal.SIGINT, signal.SIGTERM):\n"
    "        signal.signal(number, signal.SIG_IGN)\n"
    "    signal.alarm(0)\n"
    "_grab()\n"
)
SIGNAL_GRABBERS = {
    # right answers, with the process's signals its own: at import and in every call
    "grabs_signals": _GRAB + "import reference\n"
    "def _wrapped(name):\n"
    "    def call(*args, **kwargs):\n"
    "        _grab()\n"
    "        return getattr(reference, name)(*args, **kwargs)\n"
    "    return call\n"
    "for _name in ('passive', 'robust_cal', 'calruption', 'calruption_epoch', 'catoni_root'):\n"
    "    globals()[_name] = _wrapped(_name)\n",
    # and one that also hangs: only a timeout from outside its process ends it
    "grabs_signals_and_hangs": _GRAB + "from reference import calruption, calruption_epoch, catoni_root, robust_cal\n"
    "def passive(hypotheses, tape, params):\n"
    "    _grab()\n"
    "    while True:\n"
    "        pass\n",
}
ONE_EPOCH = (
    "check_calruption_one_epoch_recomputed",
    "check_calruption_one_epoch_fit_is_optimal",
    "check_calruption_estimation_lemma_one_epoch",
)


def test_a_candidate_that_takes_over_the_signals_is_judged_as_any_other(tmp_path):
    """SIG_IGN for SIGALRM, SIGINT and SIGTERM and alarm(0), at import and in each call:
    its right answers pass (nothing of the judge's relies on those signals in its
    process), and its hang is still found by the judge's own timeout, from outside."""
    for name, text in SIGNAL_GRABBERS.items():
        (tmp_path / f"{name}.py").write_text(text)
    env = {**os.environ, "CI": "true", "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    env.pop("CRAL_CMD", None)
    right = subprocess.run(
        [
            sys.executable,
            "-m",
            "properties",
            "check",
            "--impl",
            "grabs_signals",
            "--timeout",
            "10",
            "--json",
            "--only",
            *ONE_EPOCH,
            "check_passive_output_is_erm",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = json.loads(right.stdout)
    assert right.returncode == 0, right.stderr[-2000:]
    statuses = {c["name"]: c["status"] for c in report["checks"]}
    assert statuses == {
        **{name: "passed" for name in statuses},
        "check_calruption_estimation_lemma_one_epoch": "expected failure",
    }, statuses
    hung = subprocess.run(
        [
            sys.executable,
            "-m",
            "properties",
            "check",
            "--impl",
            "grabs_signals_and_hangs",
            "--timeout",
            TIMEOUT,
            "--json",
            "--only",
            "check_passive_output_is_erm",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    check = json.loads(hung.stdout)["checks"][0]
    assert hung.returncode == 1 and check["status"] == "failed", hung.stderr[-2000:]
    assert check["violations"][0].endswith(f"hung after {TIMEOUT} s (in passive)"), check["violations"]
    assert check["examples"] == 1, check


def test_an_in_process_candidate_does_not_keep_the_judges_signals(tmp_path, monkeypatch):
    import signal

    (tmp_path / "grabs_signals.py").write_text(SIGNAL_GRABBERS["grabs_signals"])
    monkeypatch.syspath_prepend(str(tmp_path))
    before = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM)}
    candidate = load_impl("grabs_signals", isolate=False)
    assert {number: signal.getsignal(number) for number in before} == before, "its import kept the signals"
    check = all_checks()["check_passive_output_is_erm"]
    from properties.run.runner import run_check

    assert run_check(check, candidate, profile="ci", max_examples=3).status == "passed"
    assert {number: signal.getsignal(number) for number in before} == before, "its calls kept the signals"
