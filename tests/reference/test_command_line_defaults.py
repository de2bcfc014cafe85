"""The reference's command line: defaults that could look like bugs and the smaller
surprises a newcomer may meet, each run as a newcomer runs it: as a process where the
process is the point (the usage with no subcommand, a warning on stderr, a closed pipe,
the files a run leaves), else the same main(argv) in this process
(tests/support/in_process.py), which says the same on the same input."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from fractions import Fraction

import pytest

from reference import cli as reference_cli
from reference.calruption import epoch_length
from reference.params import Params
from tests.support import REPO_ROOT
from tests.support.in_process import main_in_process

REPO = REPO_ROOT


def run(module: str, *args, env=None) -> subprocess.CompletedProcess:
    existing = os.environ.get("PYTHONPATH")
    merged = {**os.environ, "PYTHONPATH": str(REPO) + (os.pathsep + existing if existing else ""), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", module, *map(str, args)],
        capture_output=True,
        text=True,
        env=merged,
        cwd=REPO,
        timeout=900,
    )


@pytest.fixture
def run_here(monkeypatch, capsys):
    """`run` as main(argv) in this process, same working folder."""
    return lambda module, *args: main_in_process(module, args, cwd=REPO, monkeypatch=monkeypatch, capsys=capsys)


@pytest.mark.parametrize(
    "module, subcommands, as_a_process",
    [
        ("reference", ["run", "demo", "tape", "show"], True),
        # the same usage rule (reference/command_line.py's run) in this process
        ("properties", ["check", "crosscheck", "replay", "answer", "campaign", "schemas"], False),
    ],
)
def test_no_subcommand_prints_usage_with_the_subcommands(module, subcommands, as_a_process, run_here):
    result = (run if as_a_process else run_here)(module)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"usage: python -m {module}"), result.stderr
    listed = set(re.findall(r"^    (\w+) ", result.stderr, re.MULTILINE))
    assert set(subcommands) <= listed, (listed, result.stderr)


def test_calruption_at_paper_constants_says_the_first_epoch_is_longer_than_the_run():
    result = run("reference", "run", "calruption", "--instance", "thresholds")
    assert result.returncode == 0, result.stderr
    first = epoch_length(Params.paper(4096, 9, Fraction(1, 20)), 1)
    assert first > 10**6  # the paper's 4 beta1
    assert result.stderr.startswith(f"warning: CALruption's first epoch needs {first:,} rounds"), result.stderr
    assert "--params scaled" in result.stderr
    assert f"(it needs {first})" in result.stdout and "note " in result.stdout


def test_calruption_that_completes_an_epoch_gets_no_warning(run_here):
    result = run_here("reference", "run", "calruption", "--instance", "thresholds", "--params", "scaled", "--n", 400)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert "2 completed" in result.stdout


def test_run_without_adversary_says_clean_labels(run_here):
    result = run_here("reference", "run", "passive", "--n", 64)
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("adversary"))
    assert line.split(None, 1)[1].startswith("none (clean labels), C_total = 0"), line


def test_option_values_starting_with_a_dash(run_here):
    eta = run_here("reference", "run", "passive", "--adversary", "burst", "--eta", "-,1/2,-", "--n", 64, "--tau", 8)
    assert eta.returncode == 0, eta.stderr
    delta = run_here("reference", "run", "passive", "--delta", "-1/2")
    assert delta.returncode == 2 and delta.stderr.count("\n") == 1
    assert "params.delta" in delta.stderr and "-1/2" in delta.stderr, delta.stderr


@pytest.mark.parametrize(
    "args, option",
    [
        (["show", "--instance", "intervals", "--seed", "3"], "--seed"),
        (["show", "--adversary", "counterexample", "--n", "100", "--seed", "2"], "--seed"),
        (["show", "--n", "100"], "--n"),
    ],
)
def test_show_refuses_options_it_would_ignore(args, option, run_here):
    result = run_here("reference", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: {option} does not apply to show"), result.stderr


def test_a_tape_too_large_for_memory_is_refused_up_front(monkeypatch, capsys):
    monkeypatch.setattr(reference_cli, "available_memory", lambda: 10**6)
    assert reference_cli.main(["run", "passive", "--n", "100000"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --n 100000: the exact tape needs about 20 MB in memory"), err
    assert f"{reference_cli.TAPE_BYTES_PER_ROUND} bytes per round" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "value, profile",
    [("true", "ci"), ("1", "ci"), ("false", "dev"), ("0", "dev"), ("", "dev"), ("No", "dev"), ("OFF", "dev")],
)
def test_ci_false_or_0_does_not_select_the_ci_profile(monkeypatch, value, profile):
    from properties import pytest_plugin
    from properties.core import profiles

    monkeypatch.delenv("HYPOTHESIS_PROFILE", raising=False)
    monkeypatch.setenv("CI", value)
    assert profiles.default_profile() == profile
    assert pytest_plugin.default_profile() == profile


def test_default_runs_leave_no_example_database_anywhere(tmp_path):
    """dev and ci keep no example database (the same report every run, whatever ran
    before): `check --profile dev` writes no .hypothesis/ in the working directory and
    nothing in $CRAL_HYPOTHESIS_DIR, the fuzz profile's folder
    (tests/properties/core/test_deterministic_verdicts.py: fuzz keeps its database there)."""
    from hypothesis import settings

    assert settings.get_profile("dev").database is None and settings.get_profile("ci").database is None
    database = tmp_path / "db"
    work = tmp_path / "work"
    work.mkdir()
    existing = os.environ.get("PYTHONPATH")
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO) + (os.pathsep + existing if existing else ""),
        "CRAL_HYPOTHESIS_DIR": str(database),
    }
    env.pop("CI", None)
    result = subprocess.run(
        [sys.executable, "-m", "properties", "check", "--profile", "dev", "--quick"]
        + ["--only", "check_passive_learning_lemma_c1", "check_passive_output_is_erm"],
        capture_output=True,
        text=True,
        env=env,
        cwd=work,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr
    assert not (work / ".hypothesis").exists() and list(work.iterdir()) == []
    assert not database.exists()


def test_proofs_check_group_headings_are_readable():
    from proofs_check.report import heading

    assert heading("lem: corruption related  1") == "Lemma A.1 (lem: corruption related  1)"
    assert heading("them: main") == "Theorem 5.1 (them: main)"
    assert heading("lem: est helper") == "lemma 'est helper' (lem: est helper)"
    assert heading("sec: preliminary") == "section 'preliminary' (sec: preliminary)"


def test_findings_r14_before_r15_and_no_future_encoding():
    text = (REPO / "FINDINGS.md").read_text()
    numbers = [int(n) for n in re.findall(r"^### R(\d+)\.", text, re.MULTILINE)]
    assert numbers == sorted(numbers), numbers
    assert "will be encoded" not in text


@pytest.mark.parametrize(
    "argv",
    [
        ["reference", "run", "robust_cal", "--json"],
        ["reference", "demo", "--seeds", "1", "--n", "4096", "--tau", "512"],
        [
            "properties",
            "check",
            "--only",
            "check_passive_learning_lemma_c1",
            "check_calruption_estimation_lemma",
            "--json-indent",
            "1",
        ],
        ["proofs_check", "--only", "passive.a1"],  # Lemma A.1: eight lines; the reader stops after one
    ],
)
def test_every_cli_under_head_gives_no_traceback(argv):
    """`... | head -1`: the reader closes the pipe after one line; the program ends quietly
    (141 when it was still writing, 0 when it had finished)."""
    existing = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONPATH": str(REPO) + (os.pathsep + existing if existing else ""), "CI": "true"}
    process = subprocess.Popen(
        [sys.executable, "-m", *argv], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=900) in (0, 141), err
    assert "Traceback" not in err and "BrokenPipeError" not in err and "Exception ignored" not in err, err
