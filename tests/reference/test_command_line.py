"""`python -m reference` end to end, in a subprocess, without installing the package.

Good input: each subcommand's output agrees with the library called in-process.
Bad input: exit status 2, nothing on stdout, and exactly one stderr line that starts
with "error:" and names the offending option or field (and its value where there is one).
The bad-input rows marked SUBPROCESS (a parser error and a library ValueError) run as a
process; the others call the same main(argv) in this process (tests/support/in_process.py).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import reference
from reference import adversary as adversaries
from reference import instances
from tests.support import REPO_ROOT
from tests.support.in_process import main_in_process

REPO = REPO_ROOT
DELTA = Fraction(1, 20)


def cli(*args) -> subprocess.CompletedProcess:
    existing = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONPATH": str(REPO) + (os.pathsep + existing if existing else "")}
    return subprocess.run(
        [sys.executable, "-m", "reference", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=900,
    )


@pytest.fixture
def cli_here(monkeypatch, capsys):
    """`cli` as main(argv) in this process, same working folder."""
    return lambda *args: main_in_process("reference", args, cwd=REPO, monkeypatch=monkeypatch, capsys=capsys)


def ok(*args) -> str:
    """Run, assert success with a quiet stderr, return stdout."""
    result = cli(*args)
    assert result.returncode == 0, (result.returncode, result.stderr)
    assert result.stderr == ""
    return result.stdout


def write_json(path: Path, data) -> Path:
    path.write_text(json.dumps(data))
    return path


# -- good input ---------------------------------------------------------------------------


def test_run_robust_cal_summary():
    out = ok("run", "robust_cal", "--instance", "thresholds", "--n", 2000, "--params", "scaled")
    lines = out.splitlines()
    for label in ("labels requested", "output", "excess risk"):
        assert any(line.startswith(label) for line in lines), (label, out)
    # The summary agrees with the library.
    inst = instances.thresholds()
    tape = reference.sample_tape(inst, adversaries.clean(2000), 0)
    trace = reference.robust_cal(inst.hypotheses, tape, reference.Params.scaled(2000, inst.num_hypotheses, DELTA))
    assert f"labels requested {trace.labels_requested} of 2000" in lines
    assert any(line.startswith("output") and f"h{trace.output} =" in line for line in lines), out
    assert any(line.startswith("excess risk") and f"= {inst.gap(trace.output)} " in line for line in lines), out


def test_run_calruption_summary_and_json_match_in_process():
    args = ("run", "calruption", "--instance", "thresholds", "--n", 64 + 256 + 100, "--params", "scaled")
    out = ok(*args)
    assert "epochs           2 completed, epoch 3 cut after 100 rounds" in out, out
    inst = instances.thresholds()
    tape = reference.sample_tape(inst, adversaries.clean(420), 0)
    trace = reference.calruption(inst.hypotheses, tape, reference.Params.scaled(420, inst.num_hypotheses, DELTA))
    assert f"labels requested {trace.labels_requested} of 420" in out
    assert reference.trace_from_json(json.loads(ok(*args, "--json"))) == trace


def test_run_passive_json_matches_in_process():
    data = json.loads(ok("run", "passive", "--json"))
    trace = reference.trace_from_json(data)
    # The defaults: counterexample instance, clean adversary, n = 4096, seed 0,
    # delta = 1/20, paper constants.
    inst = instances.BUILTIN["counterexample"]()
    tape = reference.sample_tape(inst, adversaries.clean(4096), 0)
    expected = reference.passive(inst.hypotheses, tape, reference.Params.paper(4096, inst.num_hypotheses, DELTA))
    assert trace.output == expected.output
    assert trace == expected


def test_tape_then_run_with_tape_file(tmp_path):
    data = json.loads(ok("tape", "--instance", "thresholds", "--n", 50, "--seed", 3))
    inst = instances.thresholds()
    expected_tape = reference.sample_tape(inst, adversaries.clean(50), 3)
    assert data == expected_tape.to_json()

    path = write_json(tmp_path / "tape.json", data)
    out = ok("run", "passive", "--instance", "thresholds", "--tape", path)
    assert any(line.startswith("output") for line in out.splitlines()), out
    trace = reference.trace_from_json(
        json.loads(ok("run", "passive", "--instance", "thresholds", "--tape", path, "--json"))
    )
    params = reference.Params.paper(50, inst.num_hypotheses, DELTA)
    assert trace == reference.passive(inst.hypotheses, expected_tape, params)


def test_show_output_is_accepted_by_instance_from_json():
    """What `show` prints is instance JSON that `Instance.from_json` accepts."""
    data = json.loads(ok("show", "--instance", "intervals"))
    assert reference.Instance.from_json(data) == instances.intervals()


def test_show_adversary_output_is_accepted_by_adversary_from_json():
    data = json.loads(
        ok("show", "--instance", "counterexample", "--adversary", "counterexample", "--n", 64, "--tau", 8)
    )
    assert adversaries.Adversary.from_json(data) == adversaries.counterexample(8, 64)


def test_instance_and_adversary_files_round_trip(tmp_path):
    """`show` output saved to files and passed back with --instance / --adversary."""
    inst_path = tmp_path / "instance.json"
    inst_path.write_text(ok("show", "--instance", "intervals"))
    adv_path = tmp_path / "adversary.json"
    adv_path.write_text(
        ok("show", "--instance", "intervals", "--adversary", "burst", "--eta", "1,-,-,-,-,0", "--tau", 20, "--n", 100)
    )
    inst = instances.intervals()
    adv = adversaries.early_burst((1, None, None, None, None, 0), 20, 100)
    data = json.loads(
        ok(
            "run",
            "robust_cal",
            "--instance",
            inst_path,
            "--adversary",
            adv_path,
            "--seed",
            5,
            "--params",
            "scaled",
            "--json",
        )
    )
    tape = reference.sample_tape(inst, adv, 5)
    expected = reference.robust_cal(inst.hypotheses, tape, reference.Params.scaled(100, inst.num_hypotheses, DELTA))
    assert reference.trace_from_json(data) == expected

    # A hand-written instance file (not from `show`) works too.
    own = reference.Instance((Fraction(1, 4), Fraction(3, 4)), (0, 1), ((0, 1), (1, 1), (0, 0)))
    own_path = write_json(tmp_path / "own.json", own.to_json())
    tape_data = json.loads(ok("tape", "--instance", own_path, "--n", 20, "--seed", 1))
    assert tape_data == reference.sample_tape(own, adversaries.clean(20), 1).to_json()


def test_demo_small():
    result = cli("demo", "--seeds", 2, "--n", 4096, "--tau", 512)
    assert result.returncode == 0, result.stderr
    assert "vanilla wrong on" in result.stdout
    # progress on stderr, a plain line per seed when stderr is not a terminal
    assert result.stderr.splitlines() == ["demo: seed 1/2", "demo: seed 2/2"]
    # the header says CALruption runs at scaled constants, which, and why
    header = result.stdout.splitlines()[:3]
    assert "CALruption at scaled constants (beta1 = 16" in header[2], header
    assert re.search(r"first epoch alone needs [\d,]+ rounds", header[2]), header


# -- bad input ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli_bad_input")
    (d / "broken.json").write_text('{"nu": ["1/2", ')
    write_json(d / "nu_sums_to_2.json", {"nu": ["1/1", "1/1"], "eta": ["0/1", "1/1"], "hypotheses": [[0, 1]]})
    inst = instances.BUILTIN["counterexample"]()  # 3 points
    tape = reference.sample_tape(inst, adversaries.clean(6), 0).to_json()
    tape["x"][2] = 99
    write_json(d / "tape_x_99.json", tape)
    return d


# rows that also hold the process boundary: argparse's refusal and a library ValueError
SUBPROCESS = {"unknown-subcommand", "instance-nu-sums-to-2"}


def _bad(id_, args, *patterns):
    return pytest.param(args, patterns, id_ in SUBPROCESS, id=id_)


BAD_INPUT = [
    _bad("unknown-algorithm", ["run", "nosuch"], r"\balgorithm\b", r"'nosuch'"),
    _bad("delta-decimal-0.1", ["run", "passive", "--delta", "0.1"], r"--delta\b", r"'?0\.1'?"),
    # The option may be named as typed (--delta) or as the Params field (params.delta).
    _bad("delta-2", ["run", "passive", "--delta", "2"], r"(--|params\.)delta\b", r"got '?2'?$"),
    _bad("n-0", ["run", "passive", "--n", "0"], r"--n\b", r"got 0$"),
    _bad("tape-n-0", ["tape", "--n", "0"], r"--n\b", r"got 0$"),
    _bad("seed-negative", ["run", "passive", "--seed", "-1"], r"--seed\b", r"got -1$"),
    _bad("tape-seed-negative", ["tape", "--seed", "-1"], r"--seed\b", r"got -1$"),
    _bad("adversary-unknown", ["run", "passive", "--adversary", "nosuch"], r"--adversary\b", r"'nosuch'"),
    _bad("burst-without-eta", ["run", "passive", "--adversary", "burst"], r"--eta\b"),
    _bad(
        "misspecification-without-gamma",
        ["run", "passive", "--adversary", "misspecification", "--eta", "1/2,1/2,1/2"],
        r"--gamma\b",
    ),
    _bad(
        "tau-above-n",
        ["run", "passive", "--tau", "99999", "--n", "100", "--adversary", "counterexample"],
        r"--tau\b",
        r"\b99999\b",
    ),
    _bad("instance-unknown", ["run", "passive", "--instance", "nosuch"], r"--instance\b", r"'nosuch'"),
    _bad(
        "instance-file-missing",
        ["run", "passive", "--instance", "/nonexistent.json"],
        r"\binstance\b",
        r"/nonexistent\.json",
    ),
    _bad(
        "instance-file-invalid-json",
        ["run", "passive", "--instance", "{d}/broken.json"],
        r"\binstance\b",
        r"broken\.json",
        r"JSON",
    ),
    _bad("instance-nu-sums-to-2", ["run", "passive", "--instance", "{d}/nu_sums_to_2.json"], r"\bnu\b", r"\b2$"),
    _bad("tape-x-beyond-points", ["run", "passive", "--tape", "{d}/tape_x_99.json"], r"\btape\.x\[2\]", r"\b99\b"),
    _bad("unknown-subcommand", ["runn"], r"\brunn\b"),
]


@pytest.mark.parametrize("args, patterns, in_subprocess", BAD_INPUT)
def test_bad_input_exits_2_with_one_error_line(args, patterns, in_subprocess, files, cli_here):
    result = (cli if in_subprocess else cli_here)(*(a.format(d=files) for a in args))
    report = f"exit {result.returncode}\nstdout: {result.stdout!r}\nstderr: {result.stderr!r}"
    assert result.returncode == 2, report
    assert result.stdout == "", report
    lines = result.stderr.splitlines()
    assert len(lines) == 1, report
    assert result.stderr.endswith("\n"), report
    line = lines[0]
    assert line.startswith("error:"), report
    for pattern in patterns:
        assert re.search(pattern, line), f"{pattern!r} not in the error line\n{report}"


@pytest.mark.parametrize(
    "args, option",
    [
        (("run", "passive", "--adversary", "clean", "--tau", 5), "--tau"),
        (("run", "passive", "--adversary", "counterexample", "--gamma", "1/8"), "--gamma"),
        (
            ("run", "passive", "--adversary", "misspecification", "--gamma", "1/8", "--eta", "1/2,1/2,1/2", "--tau", 3),
            "--tau",
        ),
    ],
)
def test_options_that_do_not_apply_are_refused(args, option, cli_here):
    result = cli_here(*args)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and option in lines[0], result.stderr


def test_tape_file_refuses_stream_options(tmp_path, cli_here):
    tape = reference.sample_tape(instances.thresholds(), adversaries.clean(20), 1)
    path = write_json(tmp_path / "tape.json", tape.to_json())
    result = cli_here("run", "passive", "--instance", "thresholds", "--tape", path, "--seed", 3)
    assert result.returncode == 2 and "--seed does not apply to --tape" in result.stderr
