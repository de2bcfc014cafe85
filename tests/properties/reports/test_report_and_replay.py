"""The check's report (short lines, --verbose,
--json-indent/--json-file, the arithmetic line, progress), the import-name hint, and
saved failures replayed through an import path and through a command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from properties.checks.registry import all_checks
from properties.core.progress import CheckProgress, CountProgress
from properties.run.runner import FAILED, run_check
from tests.support import REPO_ROOT

REPO = REPO_ROOT
CHECK = "check_passive_output_is_erm"
CATONI = "check_catoni_root_certified"  # Appendix D.2: the root enclosed, at most 2^-64 wide
# a candidate with one planted bug: passive outputs the wrong hypothesis when there are two or more
BROKEN = textwrap.dedent("""
    from dataclasses import replace
    import reference
    from reference import calruption, catoni_root, robust_cal  # noqa: F401
    from reference.calruption import calruption_epoch  # noqa: F401

    def passive(hypotheses, tape, params):
        trace = reference.passive(hypotheses, tape, params)
        return replace(trace, output=(trace.output + 1) % len(hypotheses))
""")


def properties_cli(*args, cwd, pythonpath=()) -> subprocess.CompletedProcess:
    paths = [str(REPO), *map(str, pythonpath)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "CI": "true"}
    env.pop("CRAL_RESULTS_DIR", None)  # these runs check the default folder
    return subprocess.run(
        [sys.executable, "-m", "properties", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=300,
    )


@pytest.fixture(scope="module")
def broken_run(tmp_path_factory):
    """One failing run of the planted candidate, its results folder and JSON report."""
    root = tmp_path_factory.mktemp("broken")
    (root / "broken_cand.py").write_text(BROKEN)
    result = properties_cli(
        "check",
        "--impl",
        "broken_cand",
        "--only",
        CHECK,
        "check_passive_learning_lemma_c1",
        "--json-file",
        root / "report.json",
        "--json-indent",
        "2",
        cwd=root,
        pythonpath=[root],
    )
    return root, result


def test_failure_short_form_and_saved_case(broken_run):
    root, result = broken_run
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    line = next(i for i, text in enumerate(lines) if text.startswith(f"  {CHECK} (failed) on Case: "))
    assert "n = " in lines[line]
    saved = sorted((root / "cral-results").glob(f"{CHECK}-*.json"))
    assert len(saved) == 1, list((root / "cral-results").iterdir())
    assert lines[line + 2] == f"    replay: python -m properties replay cral-results/{saved[0].name}"
    # the short form holds no reproducer; the table stays on the first screen
    assert "from_json(json.loads" not in result.stdout
    doc = json.loads(saved[0].read_text())
    assert (doc["check"], doc["verdict"], doc["candidate"]["impl"]) == (CHECK, FAILED, "broken_cand")
    # the case by its stable type tag, not by the module that holds its code
    assert doc["case"]["type"] == "cral-case/v1" and doc["reproducer"].startswith("properties.core.case.Case")
    assert doc["candidate_trace"]["algorithm"] == "passive"
    # the candidate's own output differs from the reference's ERM on the saved case
    assert doc["violations"] and CHECK in doc["violations"][0]


def test_json_file_is_indented_and_carries_full_reproducers(broken_run):
    root, result = broken_run
    text = (root / "report.json").read_text()
    assert text.startswith('{\n  "format": "cral-check-report"')
    report = json.loads(text)
    assert report["impl"] == "broken_cand"
    from properties.reports.report import _validator

    assert not list(_validator().iter_errors(report))  # the schema knows case, short, replay_file
    by_name = {c["name"]: c for c in report["checks"]}
    assert report["candidate"]["arithmetic"] == "exact"
    assert by_name[CHECK]["counterexample"].startswith("properties.core.case.Case.from_json")
    assert by_name[CHECK]["replay_file"].startswith("cral-results/")
    assert by_name["check_passive_learning_lemma_c1"]["status"] == "expected failure"


@pytest.mark.parametrize("route", ["import", "command"])
def test_replay_reproduces_the_verdict(broken_run, route):
    root, _ = broken_run
    saved = next((root / "cral-results").glob(f"{CHECK}-*.json"))
    extra = (
        [] if route == "import" else ["--candidate-cmd", f"{sys.executable} -m properties answer --impl broken_cand"]
    )
    again = properties_cli("replay", saved, *extra, cwd=root, pythonpath=[root])
    assert again.returncode == 1, again.stderr
    assert again.stdout.startswith(f"{CHECK} on ") and ": failed (recorded: failed)" in again.stdout.splitlines()[0]


def test_replay_with_a_correct_candidate_passes_the_saved_case(broken_run):
    root, _ = broken_run
    saved = next((root / "cral-results").glob(f"{CHECK}-*.json"))
    fixed = properties_cli("replay", saved, "--impl", "reference", cwd=root)
    assert fixed.returncode == 0 and ": passed (recorded: failed)" in fixed.stdout, fixed.stderr


@pytest.mark.parametrize(
    "case_type, shown",
    [
        ("properties.core.case:Case", 'is "properties.core.case:Case"'),
        ("cral-case/v2", 'is "cral-case/v2"'),
        (None, "missing"),
    ],
)
def test_replay_of_a_file_whose_type_tag_is_missing_or_unknown_is_one_line(broken_run, tmp_path, case_type, shown):
    root, _ = broken_run
    doc = json.loads(next((root / "cral-results").glob(f"{CHECK}-*.json")).read_text())
    if case_type is None:
        del doc["case"]["type"]
    else:
        doc["case"]["type"] = case_type
    path = tmp_path / "tagged.json"
    path.write_text(json.dumps(doc))
    result = properties_cli("replay", path, cwd=root, pythonpath=[root])
    assert result.returncode == 2 and result.stdout == "", result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert f'{path}: field "case.type" {shown}, expected one of "cral-case/v1", ' in result.stderr


def test_replay_of_a_bad_file_is_one_line(tmp_path):
    (tmp_path / "bad.json").write_bytes(b"\xff\xfe")
    result = properties_cli("replay", tmp_path / "bad.json", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "bad.json" in result.stderr


def test_verbose_prints_the_full_blocks_and_nothing_saved_when_all_pass(tmp_path):
    result = properties_cli("check", "--only", "check_passive_learning_lemma_c1", "--verbose", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "reproduce: properties.core.case.Case.from_json(json.loads(" in result.stdout
    assert not (tmp_path / "cral-results").exists()  # an expected failure is not a failing run


def test_import_name_hint_for_a_file_path(tmp_path):
    result = properties_cli("check", "--impl", "src/my_impl.py", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "import name" in result.stderr and "PYTHONPATH=src" in result.stderr and "--impl my_impl" in result.stderr


def test_float_results_without_arithmetic_get_the_hint(tmp_path):
    (tmp_path / "floaty.py").write_text("from fast import passive, robust_cal, calruption, catoni_root  # noqa\n")
    result = properties_cli(
        "check",
        "--impl",
        "floaty",
        "--only",
        "check_robust_cal_elimination_recomputed",
        cwd=tmp_path,
        pythonpath=[tmp_path],
    )
    assert result.returncode == 1
    assert "arithmetic: exact (assumed: the module has no ARITHMETIC attribute)" in result.stdout
    assert 'declare it: ARITHMETIC = "float64"' in result.stdout


def test_crosscheck_of_float_results_without_arithmetic_gets_the_hint(tmp_path):
    (tmp_path / "floaty.py").write_text("from fast import passive, robust_cal, calruption, catoni_root  # noqa\n")
    undeclared = properties_cli(
        "crosscheck",
        "--candidate",
        "floaty",
        "--cases",
        "2",
        "--algorithms",
        "robust_cal",
        cwd=tmp_path,
        pythonpath=[tmp_path],
    )
    assert undeclared.returncode == 1
    assert "show float values, but the candidate declares exact arithmetic" in undeclared.stdout, undeclared.stdout
    declared = properties_cli(
        "crosscheck", "--candidate", "fast", "--cases", "2", "--algorithms", "robust_cal", cwd=tmp_path
    )
    assert declared.returncode == 0, declared.stdout + declared.stderr
    assert "arithmetic: float64 (declared)" in declared.stdout and "hint:" not in declared.stdout
    exact = properties_cli(
        "crosscheck", "--candidate", "reference", "--cases", "2", "--algorithms", "robust_cal", cwd=tmp_path
    )
    assert exact.returncode == 0 and "arithmetic" not in exact.stdout.split("mismatches")[-1]


def test_a_float64_candidate_is_judged_by_derived_bounds_and_passes(tmp_path):
    """The checks that recompute exact quantities (here line 10's certified
    threshold) judge a float64 candidate by the derived error bounds of
    properties/checks/judgement.py: fast passes them, and the summary says how it was judged."""
    result = properties_cli(
        "check", "--impl", "fast", "--only", "check_robust_cal_elimination_recomputed", cwd=tmp_path
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "arithmetic: float64 (declared): every value is judged within the error a correct float64" in result.stdout


def test_failed_check_counts_examples_up_to_the_failure_not_shrinks():
    import reference
    from reference.certified import Enclosure

    def catoni_root(values, counts, alpha, **options):
        # Appendix D.2's root, widened by 1 each side: wider than 2^-64 on every problem,
        # whose Catoni problems shrink in a fraction of what learning cases cost
        root = reference.catoni_root(values, counts, alpha, **options)
        return Enclosure(root.lo - 1, root.hi + 1)

    impl = {
        "passive": reference.passive,
        "robust_cal": reference.robust_cal,
        "calruption": reference.calruption,
        "catoni_root": catoni_root,
    }
    result = run_check(all_checks()[CATONI], impl, profile="ci")
    assert result.status == FAILED
    tried = sum(result.statistics.get(phase, {}).get("examples", 0) for phase in ("reuse", "generate", "shrink"))
    assert result.examples <= result.statistics.get("generate", {}).get("examples", result.examples) + 1
    assert result.examples < tried or "shrink" not in result.statistics


class _Stream:
    def __init__(self, terminal):
        self.text, self.terminal = "", terminal

    def write(self, text):
        self.text += text

    def flush(self):
        pass

    def isatty(self):
        return self.terminal


@pytest.mark.parametrize("terminal", [False, True])
def test_heartbeat_inside_a_long_check(terminal):
    import time

    stream = _Stream(terminal)
    with CheckProgress(1, 2, "check_x", stream=stream, every=0.05) as progress:
        progress.update(7)
        time.sleep(0.3)
        progress.finish("passed (9 examples)")
    if terminal:
        assert "\r\033[K[1/2] check_x ... 7 examples" in stream.text
        assert stream.text.endswith("\r\033[K[1/2] check_x ... passed (9 examples)\n")
    else:
        assert "\r" not in stream.text
        lines = stream.text.splitlines()
        assert lines[0] == "[1/2] check_x ..." and lines[1].startswith("  still running: 7 examples after")
        assert lines[-1] == "[1/2] check_x ... passed (9 examples)"


def test_quick_check_prints_one_line():
    stream = _Stream(False)
    with CheckProgress(3, 3, "check_y", stream=stream, every=60) as progress:
        progress.finish("passed (1 examples)")
    assert stream.text == "[3/3] check_y ... passed (1 examples)\n"


@pytest.mark.parametrize("terminal", [False, True])
def test_case_progress_rewrites_a_terminal_line_and_keeps_a_log_short(terminal):
    """crosscheck's progress: no carriage return in a log, nor a line per case."""
    stream = _Stream(terminal)
    progress = CountProgress(50, stream=stream, every=3600)
    for done in range(1, 51):
        progress.update(done, f"cases, {done // 10} failing runs")
    progress.close()
    if terminal:
        assert stream.text.count("\r\033[K") == 50 and stream.text.endswith("[50/50] cases, 5 failing runs\n")
    else:
        assert stream.text == "[1/50] cases, 0 failing runs\n[50/50] cases, 5 failing runs\n"


def test_a_flaky_candidate_is_a_failing_check_not_a_crash_of_the_suite():
    """A candidate that fails an example once and passes it when Hypothesis replays it
    (state kept between calls) is reported as failing, with the failing example and the
    word that it was flaky, not as a FlakyFailure traceback."""
    from dataclasses import replace as replaced

    import reference

    calls = {"n": 0}

    def passive(hypotheses, tape, params):
        calls["n"] += 1
        trace = reference.passive(hypotheses, tape, params)
        if calls["n"] == 3:  # the third call only: a replay of the same example passes
            return replaced(trace, labels_requested=trace.labels_requested + 1)
        return trace

    impl = {
        "passive": passive,
        "robust_cal": reference.robust_cal,
        "calruption": reference.calruption,
        "catoni_root": reference.catoni_root,
    }
    result = run_check(all_checks()[CHECK], impl, profile="ci")
    assert result.status == FAILED, result
    assert result.unshrunk and "flaky" in result.unshrunk
