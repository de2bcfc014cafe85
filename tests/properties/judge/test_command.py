"""The command route (docs/protocol.md): a program in any language, run once per call.

A planted program (teeth/planted_cmd/misbehave.py) answers `describe` and then misbehaves
in one way per mode; each misbehaviour must be a named failing result of the check that
made the call, with the request file kept as the reproducer, and the run goes on. The
correct modes (stderr noise, float64 numbers, .npy tapes) must pass. A Python module
through the command route (`python -m properties answer --impl M`) must get the verdicts
it gets through its import path."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

import pytest

from properties.checks.registry import all_checks
from properties.core.candidate import CallFailed, run_algorithm
from properties.judge.command import CommandCandidate
from properties.judge.load import load_candidate, load_impl
from properties.run.runner import FAILED, NOT_APPLICABLE, PASSED, run_check
from properties.strategies import fixed_crosscheck_cases
from tests.support import REPO_ROOT

ROOT = REPO_ROOT
PLANTED = f"{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'teeth' / 'planted_cmd' / 'misbehave.py'))}"
ANSWER = f"{shlex.quote(sys.executable)} -m properties answer --impl"
CHECKS = all_checks()
CASES = fixed_crosscheck_cases(3, 20261124)


KEPT = {}  # where the candidates of this module keep their request files (a temporary folder)


@pytest.fixture(autouse=True, scope="module")
def _keep_under_a_temporary_folder(tmp_path_factory):
    KEPT["dir"] = str(tmp_path_factory.mktemp("kept"))
    yield


def planted(mode: str, *declare: str, **options) -> CommandCandidate:
    options.setdefault("keep_dir", KEPT.get("dir"))
    return CommandCandidate(" ".join([PLANTED, mode, *map(shlex.quote, declare)]), **options)


def fault_of(candidate, mode="passive", case=None) -> CallFailed:
    with pytest.raises(CallFailed) as caught:
        run_algorithm("test", candidate, mode, case or CASES[0])
    return caught.value


def request_kept(violation) -> dict:
    path = violation.values["request"]
    assert os.path.isfile(path), f"the reproducer {path} is gone"
    with open(path) as handle:
        request = json.load(handle)
    assert request["format"] == "cral-run-request" and request["version"] == 1
    return request


@pytest.mark.parametrize(
    "mode, message, fatal",
    [
        ("segfault", "crashed: SIGSEGV (in passive)", False),
        ("exit", "exited with 3 (in passive)", False),
        ("garbage", "wrote an invalid result document (in passive)", False),
        ("stdout-noise", "wrote an invalid result document (in passive)", False),
        ("missing-field", "wrote an invalid result document (in passive)", False),
    ],
)
def test_a_misbehaving_program_is_a_named_failure_with_its_request_kept(mode, message, fatal):
    with planted(mode) as candidate:
        failure = fault_of(candidate)
        assert failure.violation.message.startswith(message), failure.violation
        assert failure.fatal is fatal
        request = request_kept(failure.violation)
        assert request["algorithm"] == "passive" and len(request["tape"]["x"]) == CASES[0].tape.n


def test_a_schema_violation_names_the_json_path():
    with planted("missing-field") as candidate:
        violation = fault_of(candidate).violation
    assert "$" in violation.message and ("output" in violation.message or "labels_requested" in violation.message), (
        violation
    )


def test_a_hang_is_killed_with_its_process_group_and_ends_the_check():
    with planted("hang", timeout=2.0) as candidate:
        failure = fault_of(candidate)
        assert failure.violation.message == "hung after 2 s (in passive)" and failure.fatal
        request_kept(failure.violation)
        result = run_check(CHECKS["check_passive_output_is_erm"], candidate, max_examples=5)
    assert result.status == FAILED and result.examples == 1, result


def test_children_left_behind_are_killed():
    with planted("orphan") as candidate:
        run_algorithm("test", candidate, "passive", CASES[0])
    found = subprocess.run(["pgrep", "-f", "cral-orphan-marker"], capture_output=True, text=True)
    assert found.stdout.strip() == "", f"a child of the program survived: {found.stdout}"


def test_a_kept_request_keeps_its_npy_tape():
    with planted("exit", 'tape_formats=["json","npy"]', tape_format="npy") as candidate:
        violation = fault_of(candidate).violation
    tape = request_kept(violation)["tape"]  # closed: the tape's own .npy files are gone
    assert tape["format"] == "cral-tape-npy" and os.path.dirname(tape["x"]) == os.path.dirname(
        violation.values["request"]
    )
    from reference import documents

    assert documents.load_tape(tape) == CASES[0].tape


@pytest.mark.parametrize("kind", ["fifo", "directory", "symlink"])
def test_a_result_path_that_is_not_a_regular_file_is_a_failure_not_a_hang(kind, tmp_path):
    program = tmp_path / "odd.py"
    program.write_text(
        "import json, os, sys\n"
        "request = json.load(open(sys.argv[-1]))\n"
        "if request['algorithm'] == 'describe':\n"
        "    json.dump({'format': 'cral-describe', 'version': 1, 'implements': ['passive'], 'arithmetic': 'exact'},"
        " open(request['output'], 'w'))\n"
        f"elif {kind!r} == 'fifo':\n    os.mkfifo(request['output'])\n"
        f"elif {kind!r} == 'directory':\n    os.mkdir(request['output'])\n"
        "else:\n    os.symlink('/dev/zero', request['output'])\n"
    )
    with CommandCandidate(
        f"{shlex.quote(sys.executable)} {shlex.quote(str(program))}", timeout=5, keep_dir=str(tmp_path)
    ) as candidate:
        violation = fault_of(candidate).violation
    assert violation.message.startswith("left something other than a regular file as its result"), violation


def test_a_relative_program_and_a_leading_assignment_run_from_the_callers_folder(tmp_path, monkeypatch):
    (tmp_path / "mymod.py").write_text("from reference import *\nfrom reference import catoni_root\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", f"{tmp_path}{os.pathsep}{ROOT}")
    script = tmp_path / "my_impl"
    script.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m properties answer --impl mymod "$@"\n')
    script.chmod(0o755)
    for command in ("./my_impl", "CRAL_EXAMPLE=1 ./my_impl", f"{ANSWER} mymod"):
        with load_candidate(cmd=command, keep_dir=str(tmp_path)) as candidate:
            assert run_algorithm("test", candidate, "passive", CASES[0]).output >= 0


def test_a_trace_of_another_algorithm_is_a_failure():
    with planted("wrong-algorithm") as candidate:
        violation = fault_of(candidate, "robust_cal").violation
    assert "format" in violation.message or "asked for robust_cal" in violation.message, violation


def test_stderr_is_free_and_attached_to_the_check():
    with planted("stderr-noise") as candidate:
        result = run_check(CHECKS["check_passive_output_is_erm"], candidate, max_examples=3)
    assert result.status == PASSED, result
    assert "progress: 50%" in result.output["stderr"]


def test_a_float64_program_may_write_numbers_and_is_judged_by_the_tolerance_table():
    from properties.checks.crosscheck import crosscheck

    with planted("floats", 'arithmetic="float64"') as candidate:
        assert candidate.arithmetic == "float64"
        summary = crosscheck(candidate, "floats", CASES, ("passive", "robust_cal"))
    assert not summary.mismatches, summary.mismatches[:3]


def test_the_same_program_declaring_exact_arithmetic_may_not_write_numbers():
    with planted("floats") as candidate:
        violation = fault_of(candidate).violation
    assert violation.message.startswith("wrote an invalid result document"), violation


def test_tapes_go_as_npy_files_to_a_program_that_reads_them():
    with planted("correct", 'tape_formats=["json","npy"]', tape_format="npy") as candidate:
        requests = []
        trace = run_algorithm("test", candidate, "robust_cal", CASES[1])
        requests = candidate.keep_requests()
        with open(requests[-1]) as handle:
            tape = json.load(handle)["tape"]
    assert tape["format"] == "cral-tape-npy" and tape["n"] == CASES[1].tape.n
    assert trace == run_algorithm("test", load_impl("reference"), "robust_cal", CASES[1])


def test_modes_a_program_does_not_declare_are_not_applicable():
    with planted("correct", 'implements=["passive"]') as candidate:
        assert run_check(CHECKS["check_robust_cal_elimination_recomputed"], candidate).status == NOT_APPLICABLE
        assert run_check(CHECKS["check_passive_output_is_erm"], candidate, max_examples=2).status == PASSED


@pytest.mark.parametrize(
    "command, message",
    [
        ("", "empty"),
        ("/nonexistent/program", "cannot describe itself: cannot be started: .*No such file"),
        ("cd /nonexistent/folder && ./program", "cannot describe itself: exited with 2"),
        (f"{PLANTED} describe-garbage", "cannot describe itself"),
        (f"{PLANTED} correct implements=[]", "cannot describe itself|implements none"),
        (f"{PLANTED} correct arithmetic='\"decimal\"'", "cannot describe itself|declares arithmetic 'decimal'"),
    ],
)
def test_a_program_that_cannot_describe_itself_is_bad_input(command, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        load_candidate(cmd=command)


def test_the_command_line_exits_2_on_a_program_that_cannot_describe_itself():
    done = subprocess.run(
        [sys.executable, "-m", "properties", "check", "--candidate-cmd", "/nonexistent/program"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, done


def test_the_command_line_reports_a_crash_keeps_the_request_and_goes_on(tmp_path):
    keep = tmp_path / "kept"
    keep.mkdir()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "properties",
            "check",
            "--candidate-cmd",
            f"{PLANTED} segfault",
            "--json",
            "--keep-requests",
            str(keep),
            "--only",
            "check_passive_output_is_erm",
            "check_corruption_effect_lemma_1",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "CI": "true"},
    )
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    by_name = {c["name"]: c for c in report["checks"]}
    failed = by_name["check_passive_output_is_erm"]
    assert failed["status"] == FAILED and "crashed: SIGSEGV (in passive)" in failed["violations"][0]
    assert failed["requests"] and all(os.path.isfile(p) and p.startswith(str(keep)) for p in failed["requests"])
    assert by_name["check_corruption_effect_lemma_1"]["status"] == NOT_APPLICABLE


def test_the_command_can_come_from_the_environment(tmp_path):
    env = {**os.environ, "CI": "true", "CRAL_CMD": f"{PLANTED} correct"}
    env.pop("CRAL_IMPL", None)
    args = [
        sys.executable,
        "-m",
        "properties",
        "check",
        "--only",
        "check_passive_output_is_erm",
        "--json",
        "--keep-requests",
        str(tmp_path),
    ]
    done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["impl"].startswith("command ") and report["checks"][0]["status"] == PASSED
    both = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env={**env, "CRAL_IMPL": "reference"})
    assert both.returncode == 2 and "both set" in both.stderr and len(both.stderr.strip().splitlines()) == 1


def test_crosscheck_through_a_command_compares_what_it_implements():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "properties",
            "crosscheck",
            "--candidate-cmd",
            f"{PLANTED} correct implements='[\"passive\"]'",
            "--cases",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert list(report["algorithms"]) == ["passive"], report["algorithms"]
    assert "does not implement" in done.stderr


# a module through the command route gets the verdicts of its import path: one check per
# mode, few examples (each call starts a Python process); the whole suite is `slow`
SAME_VERDICT_CHECKS = (
    "check_passive_output_is_erm",
    "check_robust_cal_elimination_recomputed",
    "check_robust_cal_vanilla_empirical_risks_and_output",
    "check_calruption_one_epoch_query_probabilities",
    "check_catoni_root_certified",
    "check_sample_tape_matches_cral_tape_v1",
)


def _verdicts(candidate, names, max_examples):
    return {name: run_check(CHECKS[name], candidate, max_examples=max_examples).status for name in names}


@pytest.mark.slow  # ~16 s; the default run keeps the command route's crash, hang and environment tests, and
# test_rust_example's cross-check through a program; the slow run also has the whole suite below
def test_fast_through_the_command_route_gets_the_verdicts_of_its_import_path():
    with load_candidate("fast") as imported, load_candidate(cmd=f"{ANSWER} fast") as command:
        by_import = _verdicts(imported, SAME_VERDICT_CHECKS, 3)
        by_command = _verdicts(command, SAME_VERDICT_CHECKS, 3)
    assert by_command == by_import
    # a float64 candidate is judged by derived bounds, so fast passes the checks
    # that recompute exact quantities (properties/checks/judgement.py)
    assert set(by_import.values()) <= {PASSED, NOT_APPLICABLE} and PASSED in by_import.values(), by_import


@pytest.mark.slow
@pytest.mark.parametrize("module", ["fast", "reference"])
def test_the_whole_suite_through_the_command_route_gets_the_verdicts_of_the_import_path(module):
    names = [name for name, check in CHECKS.items() if check.covers and "loss_difference_samples" not in check.covers]
    with load_candidate(module, isolate=True) as imported, load_candidate(cmd=f"{ANSWER} {module}") as command:
        assert _verdicts(command, names, 5) == _verdicts(imported, names, 5)
