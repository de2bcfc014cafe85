"""Adoption by another project's CI: the candidate's own expected failures and
skips, strict XPASS, the versioned JSON report, `compare` and JUnit XML from the CLI.

The command-line runs happen in a scratch project outside this repository (tmp_path), as
tests/properties/test_pytest_plugin.py's do: a package `mycand` with one known deviation (catoni_root
answers an enclosure 2 wide, so check_catoni_root_certified fails; its Catoni problems
shrink cheaply), its xfails file with reasons, and this checkout on PYTHONPATH. Two cheap
checks only (--only / -k), so the whole file takes seconds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from properties import api
from properties.checks.registry import EXPECTED_FAILURES, all_checks
from properties.reports.report import ReportError, validate
from properties.reports.xfails_file import (
    YOUR_SKIP,
    YOUR_XFAIL,
    YOUR_XPASS,
    ListFileError,
    crosscheck_ids,
    load,
    read,
)
from tests.support import REPO_ROOT

ROOT = REPO_ROOT
ERM = "check_passive_output_is_erm"  # Theorem 3.1
FAILING = "check_catoni_root_certified"  # Appendix D.2's Catoni root: fails on the deviation below
OTHER = ERM  # passes on it
ONLY = ["--only", FAILING, OTHER]
DEVIATION = """
import reference
from reference import passive, robust_cal, calruption, calruption_epoch
from reference.certified import Enclosure

def catoni_root(values, counts, alpha, **options):
    # the known deviation: the root's enclosure widened by 1 each side, not at most 2^-64 wide
    root = reference.catoni_root(values, counts, alpha, **options)
    return Enclosure(root.lo - 1, root.hi + 1)
"""
# crosscheck compares the learning algorithms only: its deviation is passive's
PASSIVE_DEVIATION = """
import dataclasses
import reference
from reference import robust_cal, calruption, calruption_epoch, catoni_root

def passive(hypotheses, tape, params):
    # the hypothesis of highest empirical risk, an ERM only on ties
    trace = reference.passive(hypotheses, tape, params)
    risks = trace.empirical_risk
    return dataclasses.replace(trace, output=max(range(len(risks)), key=lambda i: (risks[i], i)))
"""
FIXED = "from reference import passive, robust_cal, calruption, calruption_epoch, catoni_root\n"
XFAILS = f"""# mycand's known deviations

# catoni_root answers an interval 2 wide (mycand bug 7)
{FAILING}
check_calruption_one_epoch_*   # one-epoch mode not written yet
"""
REASON = "catoni_root answers an interval 2 wide (mycand bug 7)"


def scratch_project(tmp_path: Path, passive_source: str) -> Path:
    project = tmp_path / "downstream"
    (project / "mycand").mkdir(parents=True, exist_ok=True)
    (project / "mycand" / "__init__.py").write_text(passive_source)
    (project / "xfails.txt").write_text(XFAILS)
    (project / "skips.txt").write_text(f"{OTHER}  # slow on our CI runners\n")
    return project


def cral(project: Path, *args: str) -> subprocess.CompletedProcess:
    """`python -m properties ARGS` run from the scratch project, importing this checkout."""
    env = {**os.environ, "CI": "true", "PYTHONPATH": os.pathsep.join([str(ROOT), str(project)])}
    return subprocess.run(
        [sys.executable, "-m", "properties", *args], cwd=project, env=env, capture_output=True, text=True, timeout=300
    )


def statuses(report: dict) -> dict:
    return {c["name"]: c["status"] for c in report["checks"]}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The scratch project's runs, before and after its deviation is fixed."""
    project = scratch_project(tmp_path_factory.mktemp("adopt"), DEVIATION)
    fixed = scratch_project(tmp_path_factory.mktemp("adopt_fixed"), FIXED)  # the same project after the fix
    commands = {
        "red": (project, "check", "--impl", "mycand", *ONLY, "--json", "--junitxml", "red.xml"),
        "green": (project, "check", "--impl", "mycand", *ONLY, "--xfails-file", "xfails.txt"),
        "green_json": (
            project,
            "check",
            "--impl",
            "mycand",
            *ONLY,
            "--xfails-file",
            "xfails.txt",
            "--skips-file",
            "skips.txt",
            "--json",
        ),
        "xpass": (fixed, "check", "--impl", "mycand", *ONLY, "--xfails-file", "xfails.txt"),
        "strict": (
            fixed,
            "check",
            "--impl",
            "mycand",
            *ONLY,
            "--xfails-file",
            "xfails.txt",
            "--strict-xfail",
            "--json",
        ),
        "fixed_a": (fixed, "check", "--impl", "mycand", *ONLY, "--json"),
        "fixed_b": (fixed, "check", "--impl", "mycand", *ONLY, "--json"),
    }
    with ThreadPoolExecutor(max_workers=3) as pool:  # independent runs: their time overlaps
        found = dict(zip(commands, pool.map(lambda command: cral(*command), commands.values())))
    for name in ("red", "green_json", "strict", "fixed_a", "fixed_b"):
        (project / f"{name}.json").write_text(found[name].stdout)
    found["project"] = project
    return found


# -- must show: green with the xfails file, red without; XPASS after the fix, strict fails --
def test_known_deviation_is_red_without_the_xfails_file_and_green_with_it(runs):
    red, green = runs["red"], runs["green"]
    assert red.returncode == 1, red.stderr
    assert statuses(json.loads(red.stdout)) == {FAILING: "failed", OTHER: "passed"}
    assert green.returncode == 0, green.stdout + green.stderr
    row = next(line for line in green.stdout.splitlines() if line.startswith(FAILING))
    assert YOUR_XFAIL in row
    # the reason (the comment above the line) and the line are printed with the result
    assert f"{FAILING} ({YOUR_XFAIL}: {REASON} (xfails.txt:4))" in green.stdout
    assert "1 expected failure (yours), 1 passed" in green.stdout


def test_a_skipped_check_is_not_run_and_says_why(runs):
    report = json.loads(runs["green_json"].stdout)
    assert runs["green_json"].returncode == 0
    skipped = next(c for c in report["checks"] if c["name"] == OTHER)
    assert skipped["status"] == YOUR_SKIP and skipped["examples"] == 0 and not skipped["failing"]
    assert skipped["reason"] == "slow on our CI runners (skips.txt:1)"
    assert skipped["listed"] == {
        "list": "skips",
        "file": "skips.txt",
        "line": 1,
        "pattern": OTHER,
        "reason": "slow on our CI runners",
    }
    assert report["candidate_lists"] == {"xfails": "xfails.txt", "skips": "skips.txt", "strict_xfail": False}


def test_after_the_fix_the_run_reports_xpass_with_its_line_and_strict_fails(runs):
    xpass, strict = runs["xpass"], runs["strict"]
    assert xpass.returncode == 0, xpass.stdout + xpass.stderr
    assert (
        f"{FAILING} ({YOUR_XPASS}: listed as an expected failure but passed: remove line xfails.txt:4" in xpass.stdout
    )
    assert strict.returncode == 1
    check = next(c for c in json.loads(strict.stdout)["checks"] if c["name"] == FAILING)
    assert check["status"] == YOUR_XPASS and check["failing"] and check["listed"]["line"] == 4


# -- the report: schema, code version, compare ----------------------------------------------
def test_every_report_is_valid_against_the_versioned_schema(runs):
    for name in ("red", "green_json", "strict", "fixed_a"):
        report = validate(json.loads(runs[name].stdout), name)
        assert report["format"] == "cral-check-report" and report["version"] == 1
        assert report["candidate"]["path"] == "mycand" and report["profile"] == "ci" and report["seed"] == 0
        assert report["code_version"]["package"]  # installed in the test environment
        for check in report["checks"]:
            assert check["seconds"] >= 0 and check["examples"] >= 0
    failed = next(c for c in json.loads(runs["red"].stdout)["checks"] if c["name"] == FAILING)
    assert failed["failing"] and failed["counterexample"].startswith("properties.strategies.CatoniProblem(")
    bad = json.loads(runs["red"].stdout)
    bad["checks"][0]["status"] = "sort of passed"
    with pytest.raises(ReportError, match=r"at \.checks\[0\]\.status"):
        validate(bad, "bad")


def test_junit_xml_from_the_command_line(runs):
    cases = {c.get("name"): c for c in ET.parse(runs["project"] / "red.xml").getroot().iter("testcase")}
    assert set(cases) == {FAILING, OTHER}
    failure = cases[FAILING].find("failure")
    assert failure is not None and "catoni_root is wider than 2^-64" in failure.get("message")
    assert "reproduce: properties.strategies.CatoniProblem(" in failure.text
    assert cases[OTHER].find("failure") is None and cases[OTHER].find("skipped") is None
    assert cases[FAILING].get("classname") == "cral"


def test_compare_lists_exactly_the_planted_regression_and_nothing_for_identical_runs(runs):
    project = runs["project"]
    same = cral(project, "compare", "fixed_a.json", "fixed_b.json", "--json")
    assert same.returncode == 0, same.stderr
    assert json.loads(same.stdout) == {
        "new_failures": [],
        "fixed": [],
        "still_failing": [],
        "changed_reproducers": [],
        "only_in_old": [],
        "only_in_new": [],
        "settings_differ": [],
    }
    regression = cral(project, "compare", "fixed_a.json", "red.json")
    assert regression.returncode == 1
    assert f"new failures: 1\n  {FAILING} (passed -> failed)\nfixed: 0\nstill failing: 0" in regression.stdout
    fixed = cral(project, "compare", "red.json", "fixed_a.json", "--json")
    assert fixed.returncode == 0 and json.loads(fixed.stdout)["fixed"] == [FAILING]


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "no such file"),
        ("{not json", ":1: not JSON"),
        ('{"format": "cral-check-report", "version": 2}', "version 2; this suite reads version 1"),
        ('{"format": "cral-check-report", "version": 1}', "not a cral-check-report v1 report"),
    ],
)
def test_compare_refuses_bad_input_with_one_line(runs, tmp_path, content, message):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    done = cral(runs["project"], "compare", str(path), "fixed_a.json")
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr and str(path) in done.stderr


# -- the xfails and skips files ------------------------------------------------------------
def test_reasons_globs_and_which_line_applies(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text(
        "\ufeff# first\n# reason above\ncheck_calruption_*\n\n# cut off by the blank line\n\n"
        "check_calruption_fit_is_optimal   # exact only\ncrosscheck_calruption\n"
    )
    found = read(path, "xfails")
    assert [(e.line, e.pattern, e.reason) for e in found.entries] == [
        (3, "check_calruption_*", "first reason above"),
        (7, "check_calruption_fit_is_optimal", "exact only"),
        (8, "crosscheck_calruption", None),
    ]
    assert found.match("check_calruption_fit_is_optimal").line == 7  # the exact line wins over the glob
    assert found.match("check_calruption_epoch_schedule").line == 3
    assert found.match(ERM) is None
    assert "crosscheck_passive" in crosscheck_ids()


BAD_FILES = [
    (
        b"check_passive_output_is_er\n",
        1,
        "unknown check id 'check_passive_output_is_er' (did you mean check_passive_output_is_erm",
    ),
    (b"# reason\n\n*   # everything\n", 3, "empty pattern '*'"),
    (b"check_passive_output_is_erm\n\x00\x01\x02binary", 2, "not a text file (a NUL byte)"),
    (b"check_passive_output_is_erm\n\xff\xfe\n", 2, "not a text file (byte 0xff is not UTF-8 text)"),
    (b"check_passive_*\n\ncheck_passive_*   # again\n", 3, "duplicate line 'check_passive_*' (first at line 1)"),
    (b"check_nothing_*\n", 1, "pattern 'check_nothing_*' matches no check"),
    (b"check_passive_output_is_erm check_theta_star_is_a_supremum\n", 1, "is not one check id or glob pattern"),
]


@pytest.mark.parametrize("content, line, message", BAD_FILES)
@pytest.mark.parametrize("kind", ["xfails", "skips"])
def test_bad_files_name_the_file_and_line(tmp_path, content, line, message, kind):
    path = tmp_path / "list.txt"
    path.write_bytes(content)
    with pytest.raises(ListFileError) as raised:
        read(path, kind)
    assert str(raised.value).startswith(f"{path}:{line}: ") and message in str(raised.value)


def test_missing_file_and_a_check_in_both_files(tmp_path):
    with pytest.raises(ListFileError, match=r"nosuch\.txt: no such file"):
        read(tmp_path / "nosuch.txt", "xfails")
    (tmp_path / "x.txt").write_text(f"{ERM}\n")
    (tmp_path / "s.txt").write_text("check_passive_*\n")
    with pytest.raises(ListFileError, match=rf"x\.txt:1: {ERM} is also skipped by .*s\.txt:1"):
        load(tmp_path / "x.txt", tmp_path / "s.txt")


@pytest.mark.parametrize("content, line, message", [BAD_FILES[i] for i in (0, 1, 2, 4)])
@pytest.mark.parametrize("option", ["--xfails-file", "--skips-file"])
def test_bad_files_on_the_command_line_exit_2_with_one_line(runs, content, line, message, option):
    path = runs["project"] / "bad-list.txt"
    path.write_bytes(content)
    done = cral(runs["project"], "check", "--impl", "mycand", *ONLY, option, "bad-list.txt")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith(f"error: bad-list.txt:{line}: ") and message in done.stderr


# -- crosscheck, check_implementation, the pytest plugin -----------------------------------
def test_crosscheck_applies_its_own_ids(tmp_path):
    project = scratch_project(tmp_path, PASSIVE_DEVIATION)
    (project / "x.txt").write_text("crosscheck_passive   # highest-risk output\n")
    args = ["crosscheck", "--candidate", "mycand", "--algorithms", "passive", "--cases", "3"]
    assert cral(project, *args).returncode == 1
    listed = cral(project, *args, "--xfails-file", "x.txt", "--json")
    assert listed.returncode == 0, listed.stderr
    passive = json.loads(listed.stdout)["checks"][0]
    assert {key: passive[key] for key in ("status", "listed")} == {
        "status": YOUR_XFAIL,
        "listed": {
            "list": "xfails",
            "file": "x.txt",
            "line": 1,
            "pattern": "crosscheck_passive",
            "reason": "highest-risk output",
        },
    }


def _namespace(source: str) -> dict:
    scope: dict = {}
    exec(compile(source, "<mycand>", "exec"), scope)
    return {name: scope[name] for name in ("passive", "robust_cal", "calruption", "calruption_epoch", "catoni_root")}


def test_check_implementation_takes_the_files(tmp_path):
    (tmp_path / "x.txt").write_text(XFAILS)
    results = api.check_implementation(_namespace(DEVIATION), checks=[FAILING], xfails=tmp_path / "x.txt")
    assert [r.status for r in results] == [YOUR_XFAIL] and results[0].listed["line"] == 4
    fixed = _namespace(FIXED)
    assert [r.status for r in api.check_implementation(fixed, checks=[FAILING], xfails=tmp_path / "x.txt")] == [
        YOUR_XPASS
    ]
    with pytest.raises(api.ImplementationCheckFailed, match="remove line .*x.txt:4"):
        api.check_implementation(fixed, checks=[FAILING], xfails=tmp_path / "x.txt", strict_xfail=True)
    (tmp_path / "bad.txt").write_text("check_nope\n")
    with pytest.raises(ValueError, match=r"bad\.txt:1: unknown check id"):
        api.check_implementation(fixed, checks=[FAILING], xfails=tmp_path / "bad.txt")


def test_our_finding_stays_ours_when_the_candidate_also_lists_it(tmp_path):
    finding = "check_passive_learning_lemma_c1"
    assert finding in EXPECTED_FAILURES and finding in all_checks()
    (tmp_path / "x.txt").write_text(f"{finding}   # we copied the paper\n")
    [result] = api.check_implementation("reference", checks=[finding], xfails=tmp_path / "x.txt", on_fail="collect")
    assert result.status == "expected failure" and result.reason == EXPECTED_FAILURES[finding]
    assert result.listed["line"] == 1


def pytest_run(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "CI": "true", "PYTHONPATH": os.pathsep.join([str(ROOT), str(project)])}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--cral-impl",
            "mycand",
            "-k",
            FAILING,
            "-rxX",
            *args,
        ],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_plugin_xfails_and_xfail_strict(tmp_path):
    from tests.properties.test_pytest_plugin import LOAD_PLUGIN

    project = scratch_project(tmp_path, DEVIATION)
    (project / "pytest.ini").write_text("[pytest]\n")
    xfailed = pytest_run(project, *LOAD_PLUGIN, "--cral-xfails", "xfails.txt")
    assert xfailed.returncode == 0, xfailed.stdout
    assert f"XFAIL cral::{FAILING} - yours: {REASON} (xfails.txt:4)" in xfailed.stdout
    (project / "mycand" / "__init__.py").write_text(FIXED)
    xpassed = pytest_run(project, *LOAD_PLUGIN, "--cral-xfails", "xfails.txt")
    assert xpassed.returncode == 0 and f"XPASS cral::{FAILING} - yours: {REASON} (xfails.txt:4)" in xpassed.stdout
    assert pytest_run(project, *LOAD_PLUGIN, "--cral-xfails", "xfails.txt", "--cral-strict-xfail").returncode == 1
    (project / "pytest.ini").write_text("[pytest]\nxfail_strict = true\n")
    strict = pytest_run(project, *LOAD_PLUGIN, "--cral-xfails", "xfails.txt")
    assert strict.returncode == 1 and "[XPASS(strict)] yours:" in strict.stdout
    (project / "bad.txt").write_text("\n\ncheck_nope\n")
    bad = pytest_run(project, *LOAD_PLUGIN, "--cral-xfails", "bad.txt")
    assert bad.returncode == 4 and "cral: bad.txt:3: unknown check id 'check_nope'" in bad.stderr


# -- examples/downstream -------------------------------------------------------------------
EXAMPLE = ROOT / "examples" / "downstream"


def test_the_downstream_example_is_green_with_its_xfails_file():
    xfails = read(EXAMPLE / "cral-xfails.txt", "xfails")
    assert all(entry.reason for entry in xfails.entries)  # every line says why
    one_epoch = ["check_calruption_one_epoch_query_probabilities", "check_calruption_estimation_lemma_one_epoch"]
    done = cral(
        EXAMPLE,
        "check",
        "--impl",
        "mycral",
        "--only",
        *one_epoch,
        ERM,
        "--xfails-file",
        "cral-xfails.txt",
        "--strict-xfail",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    report = validate(json.loads(done.stdout))
    # the unfinished mode's checks fail (NotImplementedError) as the file expects; the rest passes
    assert statuses(report) == {**{name: YOUR_XFAIL for name in one_epoch}, ERM: "passed"}
    assert all("NotImplementedError" in c["violations"][0] for c in report["checks"] if c["name"] in one_epoch)


def test_the_downstream_workflow_runs_the_suite_and_keeps_the_reports():
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load((EXAMPLE / ".github" / "workflows" / "cral.yml").read_text())
    steps = workflow["jobs"]["property-suite"]["steps"]
    commands = "\n".join(step.get("run", "") for step in steps)
    for needed in (
        "python -m properties check --impl mycral --xfails-file cral-xfails.txt --strict-xfail",
        "--junitxml cral-junit.xml --json --results-dir cral-results > cral-report.json",
        "python -m properties compare",
        'pip install "$CRAL_PACKAGE"',
    ):
        assert needed in commands
    upload = next(step for step in steps if step.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["if"] == "always()" and "cral-report.json" in upload["with"]["path"]
    assert "cral-results/" in upload["with"]["path"]  # the saved failing cases, for `properties replay`
    # the cross-check: its own JSON report and JUnit XML, kept and compared too
    assert "cral-crosscheck.json" in upload["with"]["path"] and "cral-crosscheck-junit.xml" in upload["with"]["path"]
    assert "python -m properties compare baseline/cral-crosscheck.json cral-crosscheck.json" in commands


def test_the_downstream_workflow_crosscheck_step_is_green(tmp_path):
    """The workflow's crosscheck command, as written, in a copy of the example (its outputs
    stay out of the repository): exit 0 and a valid report of all four algorithms."""
    import shlex
    import shutil

    yaml = pytest.importorskip("yaml")
    from properties.reports.report import CROSSCHECK_FORMAT

    workflow = yaml.safe_load((EXAMPLE / ".github" / "workflows" / "cral.yml").read_text())
    step = next(s for s in workflow["jobs"]["property-suite"]["steps"] if "properties crosscheck" in s.get("run", ""))
    args = shlex.split(step["run"].replace("\\\n", " "))
    assert args[:4] == ["python", "-m", "properties", "crosscheck"] and "--cases" in args
    project = shutil.copytree(EXAMPLE, tmp_path / "downstream")
    done = cral(project, *args[3:])
    assert done.returncode == 0, done.stdout + done.stderr
    report = validate(json.loads((project / "cral-crosscheck.json").read_text()), "crosscheck", CROSSCHECK_FORMAT)
    assert [(c["name"], c["status"]) for c in report["checks"]] == [
        (f"crosscheck_{a}", "passed") for a in ("passive", "robust_cal", "robust_cal_vanilla", "calruption")
    ]
    assert (project / "cral-crosscheck-junit.xml").is_file()


@pytest.mark.slow
def test_the_downstream_workflow_steps_run_green_on_the_whole_suite(tmp_path):
    """The workflow's own shell lines (not only their text), on a copy of the example: the
    whole suite is green with its xfails file under --strict-xfail, the reports are
    written, and compare of a report with itself finds nothing new. (About 30 s.)"""
    import shutil

    yaml = pytest.importorskip("yaml")
    project = tmp_path / "downstream"
    shutil.copytree(EXAMPLE, project)
    steps = yaml.safe_load((EXAMPLE / ".github" / "workflows" / "cral.yml").read_text())["jobs"]["property-suite"][
        "steps"
    ]
    suite = next(step["run"] for step in steps if step.get("name") == "Run the property suite")
    env = {**os.environ, "CI": "true", "PYTHONPATH": os.pathsep.join([str(ROOT), str(project)])}
    env.pop("CRAL_RESULTS_DIR", None)  # the workflow names its own folder
    # the runner's python is this one (the workflow's setup-python step)
    bin_dir = Path(sys.executable).parent
    env["PATH"] = os.pathsep.join([str(bin_dir), env.get("PATH", "")])
    done = subprocess.run(
        ["bash", "-e", "-c", suite], cwd=project, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = validate(json.loads((project / "cral-report.json").read_text()))
    assert not any(c["failing"] for c in report["checks"])
    assert {c["status"] for c in report["checks"]} >= {"passed", "expected failure (yours)"}
    assert ET.parse(project / "cral-junit.xml").getroot().find("testsuite").get("failures") == "0"
    again = subprocess.run(
        [sys.executable, "-m", "properties", "compare", "cral-report.json", "cral-report.json"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert again.returncode == 0 and "new failures: 0" in again.stdout, again.stdout + again.stderr
