"""The `cral` pytest plugin (properties/pytest_plugin.py) as another repository sees it.

(a) Scratch projects run by pytester in pytest subprocesses: without options the plugin
changes nothing; with --cral-impl each registered check is one item, -k selects,
JUnit XML records the checks with their statistics, an expected failure is an xfail with
its finding, a broken candidate's failure names its violation, and so on.
(b) A fresh virtual environment outside this repository, into which the package is
installed with pip (not editable), so the plugin is found through its pytest11 entry
point exactly as in any repository that installs the package.

The subprocesses import this checkout (PYTHONPATH) and find the plugin by its entry
point where the environment running these tests has it installed, else by module name
(an editable install made before the entry point existed lacks it). Subprocesses, not
pytester's inline runs: an inline run removes from sys.modules what it imported, and
numpy refuses to be imported twice in one process, so a check run inline (which imports
numpy and scipy lazily) would break every later test that needs them."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from properties import pytest_plugin
from properties.checks.registry import EXPECTED_FAILURES, all_checks
from properties.core import profiles
from reference.version import DISTRIBUTION, code_version
from tests.support import REPO_ROOT

pytest_plugins = ["pytester"]

ROOT = REPO_ROOT
CHECKS = list(all_checks())
ERM = "check_passive_output_is_erm"  # Theorem 3.1: passive learning outputs an ERM
FINDING = "check_passive_learning_lemma_c1"  # an expected failure (FINDINGS F2)
SELECTION = "check_robust_cal_checkpoints or check_passive"
# the reference's public functions, re-exported: a candidate that is the reference under another name
SAME = "from reference import passive, robust_cal, calruption, calruption_epoch, catoni_root\n"
CATONI = "check_catoni_root_certified"  # Appendix D.2: catoni_root encloses the root, at most 2^-64 wide
# catoni_root answers the root's enclosure widened by 1 each side (Catoni problems shrink
# cheaply); it prints on every call (the failure must show the candidate's output)
BROKEN = """
import reference
from reference import passive, robust_cal, calruption, calruption_epoch
from reference.certified import Enclosure

def catoni_root(values, counts, alpha, **options):
    print("brokenpkg.catoni_root was called")
    root = reference.catoni_root(values, counts, alpha, **options)
    return Enclosure(root.lo - 1, root.hi + 1)
"""


ENTRY_POINT_INSTALLED = any(
    entry.name == pytest_plugin.PLUGIN_NAME and entry.value == pytest_plugin.__name__
    for entry in importlib.metadata.entry_points(group="pytest11")
)
LOAD_PLUGIN = [] if ENTRY_POINT_INSTALLED else ["-p", pytest_plugin.__name__]
NO_PLUGIN = ["-p", f"no:{pytest_plugin.PLUGIN_NAME}"] if ENTRY_POINT_INSTALLED else []


@pytest.fixture(autouse=True)
def _this_checkout(monkeypatch):
    """pytester's subprocesses import this checkout's packages (their working directory,
    the scratch project, comes first)."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))


def run(pytester, *args, plugin=True):
    return pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", *(LOAD_PLUGIN if plugin else NO_PLUGIN), *args, timeout=300
    )


def selected(expression_words) -> list[str]:
    """The registered checks an `-k 'a or b'` of plain words selects (substrings)."""
    return [name for name in CHECKS if any(word in name for word in expression_words)]


def junit_cases(path: Path) -> dict:
    """name -> (classname, {property: value}, outcome element tag or None) from JUnit XML."""
    found = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        properties = {p.get("name"): p.get("value") for p in case.iter("property")}
        outcome = next((child for child in case if child.tag in ("failure", "error", "skipped")), None)
        found[case.get("name")] = (case.get("classname"), properties, outcome)
    return found


# -- (a) inline runs ------------------------------------------------------------------------------
OWN_TESTS = "def test_one():\n    assert 1 + 1 == 2\n\ndef test_two():\n    assert 'a' < 'b'\n"


def _comparable(lines) -> list[str]:
    # the run's duration and the list of plugins loaded from distributions differ between runs
    return [line for line in lines if not line.startswith("plugins:") and " in " not in line]


def test_without_options_a_project_runs_its_own_tests_untouched(pytester):
    pytester.makepyfile(test_own=OWN_TESTS)
    with_plugin = run(pytester, "-v")
    without = run(pytester, "-v", plugin=False)
    with_plugin.assert_outcomes(passed=2)
    assert with_plugin.ret == without.ret == 0
    assert _comparable(with_plugin.outlines) == _comparable(without.outlines)
    # nothing of the plugin's own; pytest's `plugins:` line names the installed distribution, cral-verify
    assert not any("cral" in line for line in with_plugin.outlines if not line.startswith("plugins:")), (
        with_plugin.outlines
    )
    collected = run(pytester, "--co", "-q")
    assert [line for line in collected.outlines if "::" in line] == ["test_own.py::test_one", "test_own.py::test_two"]


def test_every_registered_check_is_an_item_even_in_a_project_without_tests(pytester):
    result = run(pytester, "--cral-impl=reference", "--co", "-q")
    assert [line for line in result.outlines if "::" in line] == [f"cral::{name}" for name in CHECKS]
    assert result.ret == 0


def test_selected_checks_pass_on_the_reference_and_junit_lists_them(pytester):
    pytester.makepyfile(test_own=OWN_TESTS)
    result = run(
        pytester, "--cral-impl", "reference", "--cral-profile", "ci", "-k", SELECTION, "-rx", "--junitxml=out.xml"
    )
    names = selected(SELECTION.split(" or "))
    expected_failures = [name for name in names if name in EXPECTED_FAILURES]
    assert FINDING in expected_failures and len(names) > len(expected_failures) > 0
    result.assert_outcomes(passed=len(names) - len(expected_failures), xfailed=len(expected_failures))
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        [
            "cral: implementation under test: reference (in-process); hypothesis profile ci, seed 0",
            f"XFAIL cral::{FINDING} - shows where the paper is wrong: {EXPECTED_FAILURES[FINDING]}",
        ]
    )
    cases = junit_cases(pytester.path / "out.xml")
    assert sorted(cases) == sorted(names)  # the project's own tests were deselected by -k
    for name, (classname, props, outcome) in cases.items():
        assert classname == "cral"
        assert props["cites"] == all_checks()[name].cites
        assert int(props["examples"]) >= 1 and float(props["seconds"]) >= 0
        if name in EXPECTED_FAILURES:
            assert props["status"] == "expected failure"
            assert (
                outcome.tag == "skipped"
                and outcome.get("message") == "shows where the paper is wrong: " + EXPECTED_FAILURES[name]
            )
        else:
            assert props["status"] == "passed" and outcome is None
            # Hypothesis's statistics of its generate phase
            assert int(props["hypothesis_generate_examples"]) >= 1 and props["hypothesis_stopped_because"]


def test_a_broken_candidate_fails_with_its_violation_reproducer_and_output(pytester):
    pytester.makepyfile(brokenpkg=BROKEN)
    result = run(
        pytester,
        "--cral-impl",
        "brokenpkg",
        "-k",
        f"{CATONI} or check_theta_star or check_sample_tape_prefix",
        "-rs",
        "--junitxml=out.xml",
    )
    result.assert_outcomes(failed=1, skipped=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "cral: implementation under test: brokenpkg (isolated worker process); hypothesis profile *",
            f"{CATONI} (Appendix D.2, *FINDINGS R12; deterministic) failed on brokenpkg after * examples:",
            f"  {CATONI}: catoni_root is wider than 2^-64 *",
            "reproduce: properties.strategies.CatoniProblem(*",
            "candidate stdout, * bytes*:",
            "  | brokenpkg.catoni_root was called",
            # checks that cannot say anything about this candidate are skipped, with the reason
            "SKIPPED * a statement about the paper: it does not call the implementation*",
            "SKIPPED * the implementation does not provide sample_tape (optional)",
        ]
    )
    failure = junit_cases(pytester.path / "out.xml")[CATONI][2]
    assert failure.tag == "failure" and "catoni_root is wider than 2^-64" in failure.text
    assert "brokenpkg.catoni_root was called" in failure.text


@pytest.mark.parametrize(
    "impl, in_process, outcome",
    [
        ("reference", False, "failed"),  # the record of the finding would be stale
        ("samepkg", True, "passed"),  # a candidate's run not reproducing it is not its failure
    ],
)
def test_an_unexpected_pass_fails_only_on_the_reference(pytester, impl, in_process, outcome):
    """A check that passes, registered (in the scratch project's run only) as an expected failure."""
    pytester.makeconftest(
        f"from properties.checks import registry\nregistry.EXPECTED_FAILURES[{ERM!r}] = 'FINDINGS F0: a pretend finding'\n"
    )
    pytester.makepyfile(samepkg=SAME)
    result = run(pytester, f"--cral-impl={impl}", *(["--cral-in-process"] if in_process else []), "-k", ERM)
    result.assert_outcomes(**{outcome: 1})
    if outcome == "failed":
        result.stdout.fnmatch_lines([f"{ERM} (Theorem 3.1) unexpectedly passed on the reference: FINDINGS F0*stale"])
    else:
        result.stdout.fnmatch_lines(
            [
                "cral: implementation under test: samepkg (in pytest's process: --cral-in-process, the verdict is not "
                "protected)*",
                f"note: {ERM}: passed, but it is an expected failure on the reference (FINDINGS F0: a pretend finding)*",
            ]
        )


def test_a_failures_text_has_every_violation_the_reproducers_and_the_output():
    from properties.run.runner import FAILED, CheckResult

    lines = [f"line {i}" for i in range(pytest_plugin.OUTPUT_LINES + 5)]
    result = CheckResult(
        ERM,
        "Theorem 3.1",
        "deterministic",
        FAILED,
        7,
        "Case.from_json(...)",
        ["first violation", "second violation"],
        None,
        {
            "stdout": "\n".join(lines) + "\n",
            "stdout_bytes": 999,
            "stdout_truncated": True,
            "stderr": "",
            "stderr_bytes": 0,
        },
        "not shrunk: why",
        ["/kept/1/request.json", "/kept/2/request.json"],
    )
    text = pytest_plugin.failure_text(result, "mypkg").splitlines()
    assert text[:4] == [
        f"{ERM} (Theorem 3.1; deterministic) failed on mypkg after 7 examples:",
        "  first violation",
        "  second violation",
        "reproduce (not shrunk: why): Case.from_json(...)",
    ]
    assert text[4:7] == [
        "request file: /kept/1/request.json",
        "request file: /kept/2/request.json",
        "candidate stdout, 999 bytes (first lines):",
    ]
    assert text[7:] == [f"  | {line}" for line in lines[: pytest_plugin.OUTPUT_LINES]]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--cral-impl=reference", "--cral-cmd=./x"], "*--cral-impl and --cral-cmd exclude each other*"),
        (["--cral-cmd=./x", "--cral-in-process"], "*--cral-in-process does not apply to --cral-cmd*"),
        (["--cral-impl="], "*--cral-impl is empty*"),
        (["--cral-memory-limit=lots"], "*--cral-memory-limit must be a size such as 16G*'lots'*"),
        (["--cral-timeout=0"], "*--cral-timeout: must be a number of seconds > 0, got '0'*"),
        (["--cral-budget=-3"], "*--cral-budget: must be a number of seconds > 0, got '-3'*"),
        (["--cral-profile=quick"], "*--cral-profile: invalid choice: 'quick'*"),
        (["--cral-seed=soon"], "*--cral-seed: must be an integer in *0, 2^64) or 'random', got 'soon'*"),
        (["--cral-impl=reference", "--cral-tape-format=npy"], "*apply to --cral-cmd only*"),
        (["--cral-impl=reference", "--cral-keep-requests=/tmp"], "*apply to --cral-cmd only*"),
        (["--cral-impl=reference", "--cral-html=/absent/r.html"], "*--cral-html /absent/r.html: its folder does not*"),
    ],
)
def test_bad_options_are_usage_errors(pytester, args, message):
    result = run(pytester, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_cral_seed_sets_the_sessions_base_seed_and_random_names_it(pytester):
    """--cral-seed as `check --seed`: the header and the summary name the base seed; a
    fresh one (random) is printed, so it can be given again."""
    result = run(pytester, "--cral-impl=reference", "--cral-seed=7", "-k", ERM)
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        ["cral: implementation under test: *; hypothesis profile *, seed 7", "*, seed 7: 1 checks*"]
    )
    fresh = run(pytester, "--cral-impl=reference", "--cral-seed=random", "-k", ERM)
    header = next(line for line in fresh.stdout.lines if line.startswith("cral: implementation under test"))
    assert fresh.ret == 0 and int(header.rsplit("seed ", 1)[1]) >= 0


def test_a_spent_budget_fails_the_checks_it_left_not_run(pytester):
    """--cral-budget as `check --budget`: a check that has not started when it is spent
    fails as 'not run' (incomplete is not a pass)."""
    result = run(pytester, "--cral-impl=reference", "--cral-budget=0.000001", "-k", ERM)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"*{ERM} (*) not run: the time budget was spent before it started*"])


def test_a_candidate_that_cannot_be_loaded_ends_the_run_as_a_usage_error(pytester):
    pytester.makepyfile(test_own=OWN_TESTS)
    result = run(pytester, "--cral-impl=no_such_module_anywhere", "-k", ERM)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    # pytest's own usage-error form, as for its own options: one line on stderr, no Exit
    result.stderr.fnmatch_lines(["ERROR: cral: implementation 'no_such_module_anywhere' cannot be imported*"])
    assert "_pytest.outcomes.Exit" not in result.stdout.str() + result.stderr.str()
    assert run(pytester, "--cral-impl=no_such_module_anywhere", "-k", "test_one").ret == 0  # never loaded


def test_a_command_candidate_runs_through_the_plugin(pytester):
    """docs/protocol.md: `python -m properties answer --impl MODULE` answers requests for a
    module, so the reference behind a command is a candidate of any language."""
    command = f"{shlex.quote(sys.executable)} -m properties answer --impl reference"
    result = run(pytester, "--cral-cmd", command, "-k", "check_catoni_root_certified or check_theta_star")
    result.assert_outcomes(passed=1, skipped=1)  # a statement about the paper does not apply to a candidate
    result.stdout.fnmatch_lines([f"cral: implementation under test: command {command!r} *"])
    bad = run(pytester, "--cral-cmd", "false", "-k", "check_catoni_root_certified")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    bad.stderr.fnmatch_lines(["ERROR: cral: *"])


def test_a_failing_command_keeps_its_requests_where_asked(pytester, tmp_path):
    planted = ROOT / "teeth" / "planted_cmd" / "misbehave.py"
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(planted))} exit"
    result = run(pytester, "--cral-cmd", command, "--cral-keep-requests", str(tmp_path), "-k", ERM)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"*request file: {tmp_path}*request.json*"])
    assert list(tmp_path.glob("cral-requests-*/call-*/request.json"))


def test_the_profile_follows_the_suites_rule(monkeypatch):
    assert pytest_plugin.PROFILES == profiles.PROFILES
    for name in ("CI", "HYPOTHESIS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    assert pytest_plugin.default_profile() == "dev"
    monkeypatch.setenv("CI", "true")
    assert pytest_plugin.default_profile() == "ci"
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "fuzz")
    assert pytest_plugin.default_profile() == "fuzz"
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "another_projects_own")  # not one of the suite's
    assert pytest_plugin.default_profile() == "ci"


def test_loading_the_plugin_imports_nothing_of_the_suite():
    """pytest imports the plugin in every run of every project that installs the package:
    beyond the package's own __init__, it imports pytest only (the suite, Hypothesis and
    numpy wait until --cral-impl or --cral-cmd asks for them)."""
    code = (
        "import sys, pytest, properties; before = set(sys.modules); import properties.pytest_plugin; "
        "print(sorted(set(sys.modules) - before - {'properties.pytest_plugin'})); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('reference', 'hypothesis', 'numpy')))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[:2] == ["[]", "[]"], out


# cheap checks of three kinds and two findings' expected failures
XDIST_SELECTION = (
    "check_counterexample_instance_values",
    "check_corruption_effect_lemma_1",
    ERM,
    FINDING,
    "check_lemma_a2_middle_line",
)


def test_the_plugin_under_pytest_xdist(pytester):
    """With -n 2 every worker collects the same items and loads the candidate once; passes
    and expected failures report as they do in one process
    (every check's outcome on the reference: tests/properties/checks/test_every_check.py and the main job;
    the plugin's whole suite in one process: the slow test below)."""
    pytest.importorskip("xdist")
    names = selected(XDIST_SELECTION)  # -k matches substrings: check_x selects check_x_corrected too
    selection = " or ".join(XDIST_SELECTION)
    result = run(
        pytester, "--cral-impl=reference", "--cral-profile=ci", "-n", "2", "-k", selection, "--junitxml=out.xml"
    )
    failures = [name for name in names if name in EXPECTED_FAILURES]
    assert len(failures) >= 2 and len(names) - len(failures) >= 3
    result.assert_outcomes(passed=len(names) - len(failures), xfailed=len(failures))
    assert sorted(junit_cases(pytester.path / "out.xml")) == sorted(names)


@pytest.mark.slow
def test_the_whole_suite_through_the_plugin_on_the_reference(pytester):
    result = run(pytester, "--cral-impl=reference", "--cral-profile=ci", "--junitxml=out.xml")
    result.assert_outcomes(passed=len(CHECKS) - len(EXPECTED_FAILURES), xfailed=len(EXPECTED_FAILURES))
    assert sorted(junit_cases(pytester.path / "out.xml")) == sorted(CHECKS)


# -- (b) a fresh virtual environment outside the repository ----------------------------------------
def _builds_wheels_without_isolation() -> bool:
    """Whether the running interpreter's setuptools can build this package's wheel by itself:
    at least the version pyproject.toml's build-system asks for, and from 70.1 on (before, it
    needs the `wheel` package)."""
    if importlib.util.find_spec("setuptools") is None:
        return False
    import setuptools

    requires = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]
    minimum = next(
        tuple(map(int, re.findall(r"\d+", r.split(">=")[1]))) for r in requires if r.startswith("setuptools")
    )
    version = tuple(int(part) for part in setuptools.__version__.split(".")[:2] if part.isdigit())
    return version >= minimum and (version >= (70, 1) or importlib.util.find_spec("wheel") is not None)


def test_a_repository_that_installs_the_package_runs_the_suite_with_its_own_pytest(tmp_path):
    """In tmp_path (outside this repository): a fresh virtual environment, and the package
    installed into it by pip, not editable (`pip install --no-deps <a copy of the repository
    root>`: a copy, because setuptools writes build/ and *.egg-info into the tree it builds,
    and a stale build/ would leak into the wheel; `--ignore-installed`, so pip never touches
    the installation the .pth below makes visible). --no-build-isolation when the running
    interpreter's setuptools builds wheels by itself; otherwise pip fetches the build
    backend (setuptools) as `.ci/run`'s own install does. The runtime dependencies (numpy,
    scipy, hypothesis, pytest, ...) are not installed again: a .pth file in the new
    environment's site-packages names the site-packages of the interpreter running this
    test, computed from its sysconfig. The project: `mypkg.py`, the reference's functions
    under its own name, and a test of its own; `python -m pytest --cral-impl mypkg -k ...
    --junitxml=out.xml` there must pass, and the XML list those checks."""
    venv, source, project = tmp_path / "venv", tmp_path / "source", tmp_path / "project"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    ours = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
    (site / "_running_interpreters_site_packages.pth").write_text("".join(f"{path}\n" for path in sorted(ours)))
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "*.egg-info", "__pycache__", ".hypothesis", ".pytest_cache"
        ),
    )
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(CI="true", PIP_DISABLE_PIP_VERSION_CHECK="1")
    isolation = ["--no-build-isolation"] if _builds_wheels_without_isolation() else []
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--ignore-installed", *isolation, str(source)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stdout + install.stderr

    project.mkdir()
    (project / "mypkg.py").write_text(SAME + "from reference import sample_tape, loss_difference_samples\n")
    (project / "test_mine.py").write_text(OWN_TESTS)
    where = subprocess.run(
        [str(python), "-c", "import properties, reference; print(properties.__file__); print(reference.__file__)"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )
    assert all(Path(line).is_relative_to(site) for line in where.stdout.split()), where.stdout + where.stderr

    def pytest_run(*args):
        return subprocess.run(
            [str(python), "-m", "pytest", "-p", "no:cacheprovider", *args],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    own = pytest_run()
    said = [line for line in own.stdout.splitlines() if not line.startswith("plugins:")]  # that names cral-verify
    assert own.returncode == 0 and "2 passed" in own.stdout and "cral" not in "\n".join(said), own.stdout + own.stderr
    words = ["check_passive_output", "check_catoni_root_certified", FINDING]
    run_ = pytest_run("--cral-impl", "mypkg", "-k", " or ".join(words), "--junitxml=out.xml")
    assert run_.returncode == 0, run_.stdout + run_.stderr
    assert "cral: implementation under test: mypkg (isolated worker process)" in run_.stdout
    assert DISTRIBUTION in run_.stdout  # the plugins line: loaded by its entry point
    cases = junit_cases(project / "out.xml")
    assert sorted(cases) == sorted(selected(words)) and len(cases) >= 3
    assert all(
        classname == "cral" and props["status"] in ("passed", "expected failure")
        for classname, props, _ in cases.values()
    )
    # the judge that gave each verdict: this version; the commit unknown, since the copy built here
    # has no .git and no build record (a wheel built from a checkout records it: .ci/wheel)
    assert all((props["package"], props["commit"]) == (code_version()["package"], "") for _, props, _ in cases.values())


def test_cral_html_writes_the_report_of_the_checks_run(pytester):
    """--cral-html PATH: the page `check --html` writes, of the checks the session ran."""
    result = run(pytester, "--cral-impl=reference", "-k", f"{ERM} or {FINDING}", "--cral-html=report.html")
    passing = len(selected([ERM, FINDING])) - 1
    result.assert_outcomes(passed=passing, xfailed=1)
    page = (pytester.path / "report.html").read_text(encoding="utf-8")
    assert (
        f"reference passes every check that applies to it ({passing} of {passing}); 1 check shows where the paper "
        "itself is wrong (FINDINGS F2)."
    ) in page
    assert ERM in page and "where the paper is wrong (F2)" in page
