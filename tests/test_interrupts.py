"""Ctrl-C and closed pipes on the command lines (issue 16, items 3 and 6): SIGINT to the
whole process group, as a terminal sends it, stops at once with one line and exit 130
and never a verdict, wherever it lands (several moments of the run are tried, including
inside Hypothesis, whose garbage-collector callback used to swallow it); a reader that
closes the pipe early ends the run without a traceback."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INTERRUPTED = "interrupted (Ctrl-C): stopped, no verdict"


def _interrupt_after(seconds: float, *argv: str) -> subprocess.CompletedProcess:
    process = subprocess.Popen([sys.executable, *argv], cwd=ROOT, start_new_session=True, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "CI": "true"})
    time.sleep(seconds)
    os.killpg(process.pid, signal.SIGINT)
    try:
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return subprocess.CompletedProcess(argv, process.returncode, out, err)


@pytest.mark.parametrize("argv, seconds", [
    (("-m", "properties", "check"), 5.0),  # inside the checks (the run takes ~18 s)
    (("-m", "reference", "demo"), 4.0),
    (("-m", "proofs_check"), 2.5),  # inside z3, which catches SIGINT itself and answers "unknown"
    (("-m", "proofs_check"), 0.2),  # while the modules load
])
def test_ctrl_c_stops_with_one_line_exit_130_and_no_verdict(argv, seconds):
    found = _interrupt_after(seconds, *argv)
    assert found.returncode == 130, (found.returncode, found.stderr[-2000:])
    assert found.stderr.rstrip().endswith(INTERRUPTED), found.stderr[-2000:]
    assert "Traceback" not in found.stderr and "Exception ignored" not in found.stderr, found.stderr[-2000:]
    # the check table's last line ("58 passed, 8 expected failure") and the demo's verdict lines
    assert " passed" not in found.stdout and "vanilla wrong on" not in found.stdout, found.stdout[-2000:]


def test_a_reader_that_closes_the_pipe_early_gets_no_traceback():
    # a tape of 20000 rounds is ~1 MB of JSON: far more than a pipe holds
    process = subprocess.Popen([sys.executable, "-m", "reference", "tape", "--instance", "thresholds", "--n", "20000"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.read(100)
    process.stdout.close()  # `| head -c 100`
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 141, err
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
