"""The cross-check's adoption tooling: its versioned JSON report
(crosscheck-report.schema.json), --junitxml, `compare` of two cross-check reports, saved
failing runs and `replay` of one.

The command-line runs happen in a scratch folder (tmp_path) with a planted candidate whose
passive learner returns the wrong hypothesis (every passive run mismatches; the other
algorithms are the reference's), against the reference itself as the agreeing candidate.
Only passive and robust_cal on 4 small cases, so each run takes about a second."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from properties.checks.crosscheck import DIVERGENCE_KINDS
from properties.reports.compare import compare
from properties.reports.crosscheck_failures import SAVED_PER_ALGORITHM
from properties.reports.report import CROSSCHECK_FORMAT, ReportError, load, validate
from properties.reports.saved import load_failure
from properties.reports.xfails_file import YOUR_SKIP, YOUR_XFAIL, YOUR_XPASS
from properties.run.runner import FAILED, NOT_RUN, PASSED
from tests.support import REPO_ROOT

ROOT = REPO_ROOT
CASES = 4
BROKEN = textwrap.dedent("""
    from dataclasses import replace
    import reference
    from reference import calruption, catoni_root, robust_cal  # noqa: F401
    from reference.calruption import calruption_epoch  # noqa: F401

    def passive(hypotheses, tape, params):
        trace = reference.passive(hypotheses, tape, params)
        return replace(trace, output=(trace.output + 1) % len(hypotheses))
""")
CROSS = ["crosscheck", "--cases", str(CASES), "--algorithms", "passive", "robust_cal"]
# the run's summary beside `checks` (scripts read them)
SUMMARY_KEYS = {
    "candidate",
    "arithmetic",
    "algorithms",
    "worst_error_over_tolerance",
    "skipped",
    "mismatches",
    "isolated",
    "candidate_output",
    "cases",
    "seed",
    "large",
    "seconds",
    "candidate_lists",
    "budget",
}


def cral(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "CI": "true", "PYTHONPATH": os.pathsep.join([str(ROOT), str(folder)])}
    env.pop("CRAL_RESULTS_DIR", None)  # the default folder, cral-results/ in `folder`
    return subprocess.run(
        [sys.executable, "-m", "properties", *args], cwd=folder, env=env, capture_output=True, text=True, timeout=300
    )


def compare_in_process(folder: Path, monkeypatch, capsys, *args: str) -> subprocess.CompletedProcess:
    """`python -m properties compare ...` run in this process (properties.cli.main, the
    command's own entry) in `folder`: compare reads two JSON files, so a start-up of the
    suite per call would cost more than the comparison."""
    from properties.cli import main

    monkeypatch.chdir(folder)
    capsys.readouterr()
    status = main(["compare", *args])
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["compare", *args], status, out, err)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("xreport")
    (folder / "brk.py").write_text(BROKEN)
    (folder / "x.txt").write_text("crosscheck_passive   # wrong output, our bug 3\n")
    (folder / "s.txt").write_text("crosscheck_robust_cal   # not ours to judge\n")
    listed = folder / "listed"  # its own folder: an expected mismatch saves nothing there
    listed.mkdir()
    (listed / "brk.py").write_text(BROKEN)
    commands = {
        "red": (folder, *CROSS, "--candidate", "brk", "--json-file", "red.json", "--junitxml", "red.xml"),
        "green": (folder, *CROSS, "--candidate", "reference", "--json"),
        "listed": (
            listed,
            *CROSS,
            "--candidate",
            "brk",
            "--xfails-file",
            "../x.txt",
            "--skips-file",
            "../s.txt",
            "--json",
            "--junitxml",
            "listed.xml",
        ),
        "strict": (
            folder,
            *CROSS,
            "--candidate",
            "reference",
            "--xfails-file",
            "x.txt",
            "--strict-xfail",
            "--json",
            "--results-dir",
            "strict-results",
        ),
    }
    with ThreadPoolExecutor(max_workers=3) as pool:
        found = dict(zip(commands, pool.map(lambda command: cral(*command), commands.values())))
    for name in ("green", "listed", "strict"):
        (folder / f"{name}.json").write_text(found[name].stdout)
    found["folder"] = folder
    return found


def by_name(report: dict) -> dict:
    return {c["name"]: c for c in report["checks"]}


def test_every_report_is_valid_and_its_checks_agree_with_its_summary(runs):
    folder = runs["folder"]
    for name in ("red", "green", "listed", "strict"):
        report = load(folder / f"{name}.json", (CROSSCHECK_FORMAT,))
        assert report["format"] == CROSSCHECK_FORMAT and report["version"] == 1
        assert SUMMARY_KEYS <= set(report), SUMMARY_KEYS - set(report)
        assert report["code_version"]["package"] and report["cases"] == CASES and not report["large"]
        assert [c["name"] for c in report["checks"]] == ["crosscheck_passive", "crosscheck_robust_cal"]
        for entry in report["checks"]:  # the per-algorithm entry agrees with the summary
            row = report["algorithms"].get(entry["algorithm"])
            if row is not None:
                assert (entry["cases"], entry["agreed"], entry["not_run"], entry["divergences"]) == (
                    row["cases"],
                    row["agreed"],
                    row["skipped"],
                    row["divergences"],
                )
    bad = json.loads((folder / "red.json").read_text())
    bad["checks"][1]["agreed"] = -1
    with pytest.raises(ReportError, match=r"at \.checks\[1\]\.agreed"):
        validate(bad, "bad", CROSSCHECK_FORMAT)


def test_the_failing_algorithm_has_its_runs_reproducers_and_at_most_three_saved(runs):
    red = runs["red"]
    assert red.returncode == 1, red.stderr
    report = json.loads((runs["folder"] / "red.json").read_text())
    passive, robust_cal = by_name(report)["crosscheck_passive"], by_name(report)["crosscheck_robust_cal"]
    assert (passive["status"], passive["failing"], passive["agreed"]) == (FAILED, True, 0)
    assert [r["case"] for r in passive["failing_runs"]] == list(range(CASES))
    assert passive["counterexample"] == passive["failing_runs"][0]["reproduce"]
    assert passive["counterexample"].startswith("properties.core.case.Case.from_json(")
    assert "output" in passive["failing_runs"][0]["mismatches"][0]["message"]
    replay_files = [r["replay_file"] for r in passive["failing_runs"]]
    assert all(replay_files[:SAVED_PER_ALGORITHM]) and not any(replay_files[SAVED_PER_ALGORITHM:])
    saved = sorted(p.name for p in (runs["folder"] / "cral-results").iterdir())
    assert saved == sorted(Path(f).name for f in replay_files[:SAVED_PER_ALGORITHM])
    assert (robust_cal["status"], robust_cal["failing"], robust_cal["agreed"]) == (PASSED, False, CASES)
    assert robust_cal["failing_runs"] == [] and robust_cal["counterexample"] is None
    # the table's summary names the replay command, as check's does
    assert (
        f"{SAVED_PER_ALGORITHM} failing case(s) saved under cral-results/ (at most {SAVED_PER_ALGORITHM} per "
        f"algorithm; replay: python -m properties replay cral-results/crosscheck_passive-case0-"
    ) in red.stdout


def test_listed_algorithms_and_strict_xpass(runs):
    listed = runs["listed"]
    assert listed.returncode == 0, listed.stderr
    entries = by_name(json.loads(listed.stdout))
    passive, robust_cal = entries["crosscheck_passive"], entries["crosscheck_robust_cal"]
    assert (passive["status"], passive["failing"]) == (YOUR_XFAIL, False)
    assert passive["reason"] == "wrong output, our bug 3 (../x.txt:1)" and passive["listed"]["line"] == 1
    assert all(r["replay_file"] is None for r in passive["failing_runs"]) and len(passive["failing_runs"]) == CASES
    assert not (runs["folder"] / "listed" / "cral-results").exists()  # an expected mismatch is not saved
    assert (robust_cal["status"], robust_cal["cases"], robust_cal["failing"]) == (YOUR_SKIP, 0, False)
    assert robust_cal["divergences"] == {kind: 0 for kind in DIVERGENCE_KINDS}
    strict = runs["strict"]
    assert strict.returncode == 1, strict.stderr
    entry = by_name(json.loads(strict.stdout))["crosscheck_passive"]
    assert (entry["status"], entry["failing"]) == (YOUR_XPASS, True)


def test_junit_xml_has_one_testcase_per_algorithm(runs):
    suite = ET.parse(runs["folder"] / "red.xml").getroot().find("testsuite")
    assert (suite.get("name"), suite.get("tests"), suite.get("failures")) == ("cral-crosscheck", "2", "1")
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert set(cases) == {"crosscheck_passive", "crosscheck_robust_cal"}
    failure = cases["crosscheck_passive"].find("failure")
    assert failure is not None and failure.get("message").startswith("failed: case 0: passive, output:")
    assert "reproduce: properties.core.case.Case.from_json(" in failure.text
    assert "replay: python -m properties replay cral-results/crosscheck_passive-case0-" in failure.text
    assert cases["crosscheck_robust_cal"].find("failure") is None
    assert cases["crosscheck_robust_cal"].find("skipped") is None
    props = {p.get("name"): p.get("value") for p in cases["crosscheck_robust_cal"].iter("property")}
    assert props["agreed"] == str(CASES) and props["status"] == PASSED
    listed = {c.get("name"): c for c in ET.parse(runs["folder"] / "listed" / "listed.xml").getroot().iter("testcase")}
    assert listed["crosscheck_passive"].find("skipped").get("type") == "pytest.xfail"
    assert listed["crosscheck_robust_cal"].find("skipped").get("type") == "pytest.skip"
    assert all(c.find("failure") is None for c in listed.values())


@pytest.mark.parametrize("route", ["recorded", "command"])
def test_replay_reruns_the_one_case_and_algorithm(runs, route):
    folder = runs["folder"]
    saved = sorted((folder / "cral-results").glob("crosscheck_passive-case1-*.json"))
    assert len(saved) == 1
    doc = load_failure(saved[0])
    assert (doc["kind"], doc["algorithm"], doc["case_index"], doc["candidate"]["impl"]) == (
        "crosscheck",
        "passive",
        1,
        "brk",
    )
    extra = [] if route == "recorded" else ["--candidate-cmd", f"{sys.executable} -m properties answer --impl brk"]
    again = cral(folder, "replay", str(saved[0]), *extra)
    assert again.returncode == 1, again.stderr
    first = again.stdout.splitlines()[0]
    assert first.startswith("crosscheck_passive on ") and first.endswith(", case 1: failed (recorded: failed)")
    assert doc["mismatches"][0]["message"] in again.stdout  # the same mismatch, recomputed


def test_replay_with_a_correct_candidate_passes_the_recorded_case(runs):
    saved = sorted((runs["folder"] / "cral-results").glob("crosscheck_passive-case1-*.json"))
    fixed = cral(runs["folder"], "replay", str(saved[0]), "--candidate", "reference")
    assert fixed.returncode == 0 and fixed.stdout.endswith("case 1: passed (recorded: failed)\n"), fixed.stderr


def test_compare_two_crosscheck_reports(runs, monkeypatch, capsys):
    folder = runs["folder"]
    regression = compare_in_process(folder, monkeypatch, capsys, "green.json", "red.json")
    assert regression.returncode == 1, regression.stderr
    assert "note: candidate: reference -> brk" in regression.stdout
    assert "new failures: 1\n  crosscheck_passive (passed -> failed)\nfixed: 0\nstill failing: 0" in regression.stdout
    fixed = compare_in_process(folder, monkeypatch, capsys, "red.json", "green.json", "--json")
    assert fixed.returncode == 0 and json.loads(fixed.stdout)["fixed"] == ["crosscheck_passive"]
    red = load(folder / "red.json", (CROSSCHECK_FORMAT,))
    same = compare(red, red)
    assert same.still_failing == ["crosscheck_passive"] and not same.changed_reproducers and not same.settings
    moved = json.loads(json.dumps(red))  # the first failing case moved: a changed reproducer
    entry = by_name(moved)["crosscheck_passive"]
    entry["counterexample"] = entry["failing_runs"][1]["reproduce"]
    assert compare(red, moved).changed_reproducers == ["crosscheck_passive"]


def test_compare_refuses_a_check_report_against_a_crosscheck_one_and_an_invalid_report(
    runs, tmp_path, monkeypatch, capsys
):
    folder = runs["folder"]
    check = cral(folder, "check", "--impl", "reference", "--only", "check_passive_output_is_erm", "--json")
    (folder / "check.json").write_text(check.stdout)
    mixed = compare_in_process(folder, monkeypatch, capsys, "check.json", "red.json")
    assert mixed.returncode == 2 and mixed.stdout == "" and len(mixed.stderr.splitlines()) == 1
    assert "check.json is a cral-check-report and red.json a cral-crosscheck-report" in mixed.stderr
    bad = json.loads((folder / "red.json").read_text())
    bad["checks"][0]["status"] = "sort of passed"
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    refused = compare_in_process(folder, monkeypatch, capsys, "green.json", str(tmp_path / "bad.json"))
    assert refused.returncode == 2 and refused.stdout == "" and len(refused.stderr.splitlines()) == 1
    assert f"{tmp_path / 'bad.json'}: not a cral-crosscheck-report v1 report: at .checks[0].status" in refused.stderr


def test_junitxml_into_a_missing_folder_is_one_line(tmp_path):
    done = cral(tmp_path, *CROSS, "--candidate", "reference", "--junitxml", "nosuch/j.xml")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "error: --junitxml nosuch/j.xml: its folder does not exist\n"


def test_a_failure_file_needs_its_version_and_kind(tmp_path):
    path = tmp_path / "f.json"
    for doc, message in (
        ({"version": 1, "check": "check_passive_output_is_erm"}, "version 1, this suite reads version 2"),
        ({"version": 2}, "kind None is not one of check, crosscheck"),
        ({"version": 2, "kind": "bench"}, "kind 'bench' is not one of"),
        ({"version": 3, "kind": "check"}, "version 3, this suite reads version 2"),
    ):
        path.write_text(json.dumps({"format": "cral-failure", **doc}))
        with pytest.raises(ValueError, match=message):
            load_failure(path)


# -- the review's findings (two runs sharing a folder, malformed files, late errors) ---------
def test_a_saved_failure_never_overwrites_another(tmp_path):
    """Two runs in the same second, or a CI matrix sharing cral-results/: each file is new."""
    from properties.reports.saved import write_new

    first = write_new(tmp_path, "crosscheck_passive-case0-20261124-120000", {"run": 1})
    second = write_new(tmp_path, "crosscheck_passive-case0-20261124-120000", {"run": 2})
    assert Path(first).name == "crosscheck_passive-case0-20261124-120000.json"
    assert Path(second).name == "crosscheck_passive-case0-20261124-120000-2.json"
    assert json.loads(Path(first).read_text()) == {"run": 1} and json.loads(Path(second).read_text()) == {"run": 2}


@pytest.mark.parametrize(
    "edit, message",
    [
        ({"candidate": "brk"}, "candidate must be an object with an 'impl' or 'cmd' string, got 'brk'"),
        ({"candidate": {"impl": 5, "cmd": None}}, "candidate must be an object with an 'impl' or 'cmd' string"),
        ({"candidate": {"impl": None, "cmd": ["a"]}}, "candidate must be an object with an 'impl' or 'cmd' string"),
        ({"candidate": None}, "names no candidate"),
        ({"case": "pickle-of-a-dict"}, 'field "case.type" is "pickle", expected "cral-case/v1"'),
    ],
)
def test_replay_of_a_malformed_crosscheck_file_is_a_value_error_naming_it(runs, tmp_path, edit, message):
    from properties.reports.saved import encode_example
    from properties.run.replay import replay

    saved = sorted((runs["folder"] / "cral-results").glob("crosscheck_passive-case1-*.json"))[0]
    doc = json.loads(saved.read_text())
    if edit.get("case") == "pickle-of-a-dict":
        edit = {"case": encode_example({"a": 1})}
    doc.update(edit)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")) as raised:
        replay(str(path), None, None)
    assert str(path) in str(raised.value)


@pytest.mark.parametrize(
    "args, env, message",
    [
        (["--results-dir", ""], {}, "error: --results-dir is empty: give a folder"),
        (["--results-dir", "afile/sub"], {}, "afile is not a folder"),
        (["--results-dir", "afile"], {}, "error: --results-dir afile: is not a folder"),
        ([], {"CRAL_RESULTS_DIR": ""}, "error: $CRAL_RESULTS_DIR is set but empty"),
        (["--junitxml", ""], {}, "error: --junitxml is empty: give a file path"),
        (["--junitxml", "."], {}, "error: --junitxml .: is a folder, give a file path"),
        (["--json-file", ""], {}, "error: --json-file is empty: give a file path"),
        (["--json-file", "."], {}, "error: --json-file .: is a folder, give a file path"),
        (["--json-file", "nosuch/r.json"], {}, "error: --json-file nosuch/r.json: its folder does not exist"),
    ],
)
@pytest.mark.parametrize("command", ["crosscheck", "check"])
def test_bad_report_and_results_paths_are_refused_before_the_run(
    tmp_path, monkeypatch, capsys, command, args, env, message
):
    """A run of minutes must not end in a lost report: these are refused up front."""
    from properties.cli import main

    (tmp_path / "afile").write_text("")
    monkeypatch.chdir(tmp_path)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    target = ["--candidate", "brk"] if command == "crosscheck" else ["--impl", "brk"]  # never loaded
    assert main([command, *target, *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and message in err, err


def test_compare_refuses_an_unversioned_crosscheck_json_and_duplicate_or_misnamed_entries(
    runs, tmp_path, monkeypatch, capsys
):
    folder = runs["folder"]
    red = json.loads((folder / "red.json").read_text())
    old = {k: v for k, v in red.items() if k not in ("format", "version", "code_version", "checks", "runs_in")}
    twice = json.loads(json.dumps(red))
    twice["checks"].append({**twice["checks"][0], "status": PASSED, "failing": False})
    misnamed = json.loads(json.dumps(red))
    misnamed["checks"][0]["algorithm"] = "calruption"
    for name, doc, message in (
        ("old", old, "a crosscheck --json from before the versioned report"),
        ("twice", twice, "check 'crosscheck_passive' is listed twice (at .checks[2])"),
        ("misnamed", misnamed, "name 'crosscheck_passive' is not crosscheck_calruption"),
    ):
        (tmp_path / f"{name}.json").write_text(json.dumps(doc))
        refused = compare_in_process(folder, monkeypatch, capsys, str(tmp_path / f"{name}.json"), "red.json")
        assert refused.returncode == 2 and refused.stdout == "" and len(refused.stderr.splitlines()) == 1, name
        assert message in refused.stderr, refused.stderr


def test_junit_of_a_budget_stop_says_not_run_once_and_booleans_as_json(runs):
    from properties.checks.crosscheck import BUDGET_SKIP
    from properties.reports.junit import junit_xml

    report = json.loads((runs["folder"] / "red.json").read_text())
    entry = by_name(report)["crosscheck_robust_cal"]
    entry.update(status=NOT_RUN, failing=True, reason=BUDGET_SKIP, failing_runs=[], counterexample=None)
    root = junit_xml(report).getroot()
    case = next(c for c in root.iter("testcase") if c.get("name") == "crosscheck_robust_cal")
    assert case.find("failure").get("message") == BUDGET_SKIP  # "not run: the time budget was spent", once
    settings = {p.get("name"): p.get("value") for p in root.find("testsuite").find("properties")}
    assert settings["large"] == "false"
