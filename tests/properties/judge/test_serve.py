"""Serve mode of the command route (docs/protocol.md, "Serve mode"): a program that
declares `"serve": true` is started once and answers one request per line.

A planted serving program (teeth/planted_cmd/serving.py) misbehaves on its K-th request
(counted across its processes); each misbehaviour must be the failure the one-shot route
reports, with the request kept as a one-shot reproducer, the serving process replaced,
and the next call answered. `answer --impl M` serves, and gets the verdicts of the import
route. No test here times anything: they count process starts and read the reports."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from properties.checks.registry import all_checks
from properties.core.candidate import CallFailed, run_algorithm
from properties.judge.command import CommandCandidate
from properties.judge.load import load_candidate, load_impl
from properties.run.runner import FAILED, PASSED, run_check
from properties.strategies import fixed_crosscheck_cases
from reference import documents
from tests.support import REPO_ROOT

ROOT = REPO_ROOT
SERVING = f"{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'teeth' / 'planted_cmd' / 'serving.py'))}"
ANSWER = f"{shlex.quote(sys.executable)} -m properties answer --impl"
CHECKS = all_checks()
CASES = fixed_crosscheck_cases(3, 20261124)


def serving(mode: str, state: Path, k: int = 2, **options) -> CommandCandidate:
    options.setdefault("keep_dir", str(state))
    return CommandCandidate(f"{SERVING} {mode} {shlex.quote(str(state))} {k}", **options)


def starts(state: Path) -> list[int]:
    path = state / "starts"
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_serving_program_is_started_once_and_answers_every_call(tmp_path):
    with serving("correct", tmp_path) as candidate:
        assert candidate.serving and "serving" in candidate.runs_in
        reference = load_impl("reference")
        for case in CASES:
            for mode in ("passive", "robust_cal", "calruption"):
                assert run_algorithm("test", candidate, mode, case) == run_algorithm("test", reference, mode, case)
        assert len(starts(tmp_path)) == 1 and candidate.server_starts == 1
        # passing calls write no request files (they are written when kept)
        assert not [name for name in os.listdir(candidate._root) if name.startswith("call-")]
        pid = starts(tmp_path)[0]
        assert _alive(pid)
    assert not _alive(pid), "close() left the serving process running"


@pytest.mark.parametrize(
    "mode, message, fatal",
    [
        ("crash", "crashed: SIGSEGV (in passive)", False),
        ("exit", "exited with 3 (in passive)", False),
        ("partial", "crashed: SIGSEGV (in passive)", False),
        ("garbage", "wrote an invalid result document (in passive)", False),
        ("print", "wrote an invalid result document (in passive)", False),
        ("missing-field", "wrote an invalid result document (in passive)", False),
    ],
)
def test_a_misbehaving_server_fails_that_call_and_is_replaced(tmp_path, mode, message, fatal):
    with serving(mode, tmp_path) as candidate:
        run_algorithm("test", candidate, "passive", CASES[0])
        with pytest.raises(CallFailed) as caught:
            run_algorithm("test", candidate, "passive", CASES[1])
        violation = caught.value.violation
        assert violation.message.startswith(message), violation
        assert caught.value.fatal is fatal
        kept = violation.values["request"]
        with open(kept) as handle:  # the reproducer: a one-shot request, with its output path
            request = json.load(handle)
        documents.validate(request, "run-request")
        assert request["algorithm"] == "passive" and request["output"].startswith(os.path.dirname(kept))
        assert len(request["tape"]["x"]) == CASES[1].tape.n
        first = starts(tmp_path)[0]
        assert not _alive(first), "the failed server was not stopped"
        assert run_algorithm("test", candidate, "passive", CASES[2]).output >= 0  # the run goes on
        assert len(starts(tmp_path)) == 2 and candidate.server_starts == 2


def test_a_hung_server_is_killed_with_its_group_and_the_next_call_restarts_it(tmp_path):
    with serving("hang", tmp_path) as candidate:  # only the hanging call runs under a short timeout
        run_algorithm("test", candidate, "passive", CASES[0])
        with pytest.raises(CallFailed) as caught:
            run_algorithm("test", candidate, "passive", CASES[1], timeout=2.0)
        assert caught.value.violation.message == "hung after 2 s (in passive)" and caught.value.fatal
        assert os.path.isfile(caught.value.violation.values["request"])
        found = subprocess.run(["pgrep", "-f", "cral-serving-hang-marker"], capture_output=True, text=True)
        assert found.stdout.strip() == "", f"a child of the hung server survived: {found.stdout}"
        assert run_algorithm("test", candidate, "passive", CASES[2]).output >= 0
        assert len(starts(tmp_path)) == 2


def test_a_result_line_over_the_size_limit_fails_the_call_and_the_server_is_replaced(tmp_path):
    with serving("flood", tmp_path, k=1) as candidate:
        with pytest.raises(CallFailed) as caught:
            run_algorithm("test", candidate, "passive", CASES[0])
        assert caught.value.violation.message == "wrote more than 33554432 bytes to stdout (in passive)"
        assert caught.value.fatal and os.path.isfile(caught.value.violation.values["request"])
        assert not _alive(starts(tmp_path)[0])
        assert run_algorithm("test", candidate, "passive", CASES[1]).output >= 0
        assert len(starts(tmp_path)) == 2


def test_a_hang_ends_the_check_and_the_next_check_runs_on_a_new_server(tmp_path):
    with serving("hang", tmp_path, k=1, timeout=2.0) as candidate:
        result = run_check(CHECKS["check_passive_output_is_erm"], candidate, max_examples=5)
        assert result.status == FAILED and result.examples == 1, result
        assert "hung after 2 s (in passive)" in result.violations[0]
        candidate.timeout = None  # the default again: the next check's calls do not race a short limit
        assert run_check(CHECKS["check_passive_output_is_erm"], candidate, max_examples=3).status == PASSED


@pytest.mark.parametrize("mode", ["two-lines", "exit-after"])
def test_an_answer_followed_by_more_output_or_an_exit_counts_and_the_server_is_replaced(tmp_path, mode):
    with serving(mode, tmp_path) as candidate:
        reference = load_impl("reference")
        for case in CASES:  # the second call's answer is judged; the third goes to a new process
            assert run_algorithm("test", candidate, "passive", case) == run_algorithm(
                "test", reference, "passive", case
            )
        assert len(starts(tmp_path)) == 2
        output = candidate.take_output()
    if mode == "two-lines":  # the line out of turn is shown as the program's stdout
        assert output and '"cral-trace"' in output["stdout"]


def test_blank_lines_are_skipped_and_stderr_is_attached_to_the_check(tmp_path):
    with serving("blank-lines", tmp_path) as candidate:
        assert run_check(CHECKS["check_passive_output_is_erm"], candidate, max_examples=3).status == PASSED
    assert len(starts(tmp_path)) == 1
    logging = tmp_path / "stderr"
    logging.mkdir()
    with serving("stderr", logging) as candidate:
        result = run_check(CHECKS["check_passive_output_is_erm"], candidate, max_examples=3)
    assert result.status == PASSED, result
    assert "serving request 1" in result.output["stderr"]
    assert len(starts(logging)) == 1


def test_serve_false_keeps_one_process_per_call():
    with load_candidate(cmd=f"{ANSWER} reference") as served:
        assert served.serving
    with CommandCandidate(f"{ANSWER} reference", serve=False) as one_shot:
        assert not one_shot.serving
        assert run_algorithm("test", one_shot, "passive", CASES[0]).output >= 0
        assert one_shot.server_starts == 0
    with CommandCandidate(f"{ANSWER} reference --one-shot") as one_shot:
        assert not one_shot.serving and "serve" not in one_shot.description


# one check per mode, bad input included (answered with error documents while serving)
SAME_VERDICT_CHECKS = (
    "check_passive_output_is_erm",
    "check_robust_cal_elimination_recomputed",
    "check_robust_cal_vanilla_empirical_risks_and_output",
    "check_calruption_one_epoch_query_probabilities",
    "check_catoni_root_certified",
    "check_catoni_root_rejects_bad_arguments",
    "check_sample_tape_matches_cral_tape_v1",
)


@pytest.mark.parametrize(
    "module",
    ["reference", pytest.param("fast", marks=pytest.mark.slow), pytest.param("mutant", marks=pytest.mark.slow)],
)
def test_answer_serving_a_module_gets_the_verdicts_of_its_import_route(module, tmp_path, monkeypatch):
    def verdicts(candidate):
        # the same examples for both routes: a fixed seed, no example database
        return {
            name: run_check(CHECKS[name], candidate, max_examples=3, seed=20261127, database=None).status
            for name in SAME_VERDICT_CHECKS
        }

    if module == "mutant":  # a broken copy of the reference (teeth/broken/mutants.py): failures must match too
        from teeth.broken.mutants import BY_NAME, build
        from teeth.reference_copies import importable

        context = importable(tmp_path, "broken_")
        directory = context.__enter__()
        module = build(BY_NAME["robust_cal_threshold_constant_one"], directory)
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(directory), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    else:
        context = None
    try:
        by_import, by_serving = _import_and_serving_verdicts(module, verdicts)
    finally:
        if context is not None:
            context.__exit__(None, None, None)
    assert by_serving == by_import
    if module == "reference":
        assert set(by_import.values()) == {PASSED}
    if module.startswith("broken_"):
        assert by_import["check_robust_cal_elimination_recomputed"] == FAILED


def _import_and_serving_verdicts(module, verdicts):
    with load_candidate(module, isolate=True) as imported, load_candidate(cmd=f"{ANSWER} {module}") as served:
        assert served.serving
        by_import, by_serving = verdicts(imported), verdicts(served)
        assert served.server_starts == 1  # every call of every check went to one process
    return by_import, by_serving


def test_the_command_line_reports_a_serving_crash_and_goes_on(tmp_path):
    keep = tmp_path / "kept"
    keep.mkdir()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "properties",
            "check",
            "--candidate-cmd",
            f"{SERVING} crash-passive {shlex.quote(str(tmp_path))} 0",
            "--json",
            "--keep-requests",
            str(keep),
            "--only",
            "check_passive_output_is_erm",
            "check_robust_cal_elimination_recomputed",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "CI": "true"},
    )
    assert done.returncode == 1, done.stderr
    by_name = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    failed = by_name["check_passive_output_is_erm"]
    assert failed["status"] == FAILED and "crashed: SIGSEGV (in passive)" in failed["violations"][0]
    assert failed["requests"] and all(os.path.isfile(p) and p.startswith(str(keep)) for p in failed["requests"])
    assert by_name["check_robust_cal_elimination_recomputed"]["status"] == PASSED
    assert len(starts(tmp_path)) >= 2  # the check's crashing calls (Hypothesis replays the failure), then one more
    assert all(not _alive(pid) for pid in starts(tmp_path)), "the judge left a serving process behind"


def test_answer_serve_reads_lines_and_refuses_bad_ones():
    lines = [
        {"format": "cral-run-request", "version": 1, "algorithm": "describe"},
        "",
        "{not json",
        {
            "format": "cral-run-request",
            "version": 1,
            "algorithm": "catoni_root",
            "values": ["1/2"],
            "counts": [-1],
            "alpha": "1/3",
        },
        {
            "format": "cral-run-request",
            "version": 1,
            "algorithm": "catoni_root",
            "values": ["1/2"],
            "counts": [1],
            "alpha": "1/3",
        },
    ]
    text = "".join((json.dumps(line) if isinstance(line, dict) else line) + "\n" for line in lines)
    done = subprocess.run(
        [*shlex.split(ANSWER), "reference", "--serve"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["format"] for a in answers] == ["cral-describe", "cral-error", "cral-error", "cral-catoni-root"]
    assert answers[0]["serve"] is True
    assert "request line 3" in answers[1]["message"] and "counts" in answers[2]["message"]
    both = subprocess.run(
        [*shlex.split(ANSWER), "reference", "--serve", "request.json"], capture_output=True, text=True, cwd=ROOT
    )
    assert both.returncode == 2 and len(both.stderr.strip().splitlines()) == 1


def test_the_describe_schema_takes_serve_as_an_optional_boolean():
    base = {"format": "cral-describe", "version": 1, "implements": ["passive"], "arithmetic": "exact"}
    documents.validate(base, "describe")
    documents.validate({**base, "serve": True}, "describe")
    with pytest.raises(documents.DocumentError, match="serve"):
        documents.validate({**base, "serve": "yes"}, "describe")
