"""Ctrl-C, SIGTERM and closed pipes on the command lines: SIGINT (SIGTERM) to the whole process group, as a terminal (a CI runner)
sends it, stops at once with one line, exit 130 (143), no verdict, no process left and
no file written, wherever it lands: moments across start-up (counted in finished module
imports) and inside the work (on a progress line, or after some CPU time of the run:
inside Hypothesis, whose garbage-collector callback could swallow it, and inside z3).
Every moment is an event of the run, never a delay, so a busy machine moves nothing. A reader that closes the
pipe early ends the run without a traceback.

Covered from the package's first import on: every import that finishes after `signal`'s (the
first module the package loads, reference/command_line.py's first line) comes after the
handler is in place. Not covered, and not coverable from Python: the interpreter's own
start-up, before the first line of the package runs, and `signal`'s import (a few
milliseconds in all)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import REPO_ROOT

ROOT = REPO_ROOT
INTERRUPTED = "interrupted (Ctrl-C): stopped, no verdict"
TERMINATED = "terminated (SIGTERM): stopped, no verdict"
EXPECTED = {signal.SIGINT: (130, INTERRUPTED), signal.SIGTERM: (143, TERMINATED)}
COMMANDS = {
    "check": ("-m", "properties", "check"),
    "demo": ("-m", "reference", "demo"),
    "proofs": ("-m", "proofs_check"),
}
IMPORT_LINE = "import time:"


def _stop_when(argv, signum, ready, folder: Path, importtime: bool = False) -> subprocess.CompletedProcess:
    """Run `python ARGV` in its own session, in `folder`; send `signum` to its whole
    process group (as a terminal does) once `ready(line)` is true of a line it wrote on
    stderr -- an event of the run, never a delay -- and return what it printed, with the
    import-time lines (-X importtime) left out."""
    extra = ("-X", "importtime") if importtime else ()
    process = subprocess.Popen(
        [sys.executable, *extra, *argv],
        cwd=folder,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "CI": "true", "PYTHONPATH": str(ROOT)},
    )
    seen = []
    try:
        if isinstance(ready, float):
            _wait_for_cpu_seconds(process, ready)
            os.killpg(process.pid, signum)
        else:
            for line in process.stderr:
                seen.append(line)
                if ready(line):
                    os.killpg(process.pid, signum)
                    break
            else:
                pytest.fail(f"the run ended before the moment to stop it: {''.join(seen)[-2000:]}")
        out, err = process.communicate(timeout=600)  # a guard against a hang, not a speed bound
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    err = "".join(line for line in [*seen, *err.splitlines(keepends=True)] if not line.startswith(IMPORT_LINE))
    return subprocess.CompletedProcess(argv, process.returncode, out, err), process.pid


def _wait_for_cpu_seconds(process, seconds: float) -> None:
    """Until the process has run `seconds` of CPU time: a moment of its own work, which a
    busy machine delays but does not move."""
    import psutil

    watched = psutil.Process(process.pid)
    while True:
        assert process.poll() is None, f"the run ended before {seconds} s of CPU time: {process.stderr.read()[-2000:]}"
        times = watched.cpu_times()
        if times.user + times.system >= seconds:
            return
        time.sleep(0.01)


def _assert_stopped(found, session: int, signum: int, folder: Path) -> None:
    status, line = EXPECTED[signum]
    assert found.returncode == status, (found.returncode, found.stderr[-2000:])
    assert found.stderr.rstrip().endswith(line), found.stderr[-2000:]
    assert "Traceback" not in found.stderr and "Exception ignored" not in found.stderr, found.stderr[-2000:]
    # the check table's last line ("58 passed, 8 expected failure") and the demo's verdict lines
    assert " passed" not in found.stdout and "vanilla wrong on" not in found.stdout, found.stdout[-2000:]
    # nothing of it runs on (a candidate's worker dies with the judge: waited for, as an
    # event, with a guard; a killed process not yet reaped is no process), and it wrote
    # nothing where it ran
    import psutil

    guard = time.monotonic() + 600
    while True:
        strays = [
            p.info
            for p in psutil.process_iter(["pid", "status", "cmdline"])
            if _session_of(p.info["pid"]) == session and p.info["status"] != psutil.STATUS_ZOMBIE
        ]
        if not strays:
            break
        assert time.monotonic() < guard, strays
        time.sleep(0.05)
    # (.hypothesis/ is Hypothesis's own cache folder, made by any run of it)
    left = [path for path in folder.iterdir() if path.name != ".hypothesis"]
    assert left == [], left


def _session_of(pid: int) -> int | None:
    try:
        return os.getsid(pid)
    except (ProcessLookupError, PermissionError):
        return None


def _nth_import_after(count: int, anchors):
    """ready(): the `count`-th module import finished after the modules `anchors` names,
    in order, have each finished (a moment inside start-up)."""
    state = {"anchors": list(anchors), "seen": None}

    def ready(line: str) -> bool:
        if not line.startswith(IMPORT_LINE):
            return False
        module = line.rsplit("|", 1)[-1].strip()
        if state["seen"] is None:
            if state["anchors"][0](module):
                state["anchors"].pop(0)
                state["seen"] = None if state["anchors"] else 0
            return False
        state["seen"] += 1
        return state["seen"] >= count

    return ready


def _nth_import_after_reference(count: int):
    """The `count`-th import after reference's own (the first of its submodules other
    than reference.command_line)."""
    return _nth_import_after(count, [lambda m: m.startswith("reference.") and m != "reference.command_line"])


def _nth_import_after_signal(count: int):
    """The `count`-th import after `signal`'s, the first module the package loads once
    `runpy` (the `-m` machinery) has run: a moment before any other module of the package,
    reference/command_line.py's second import on."""
    return _nth_import_after(count, [lambda m: m == "runpy", lambda m: m == "signal"])


# the first moments of the package's own code, before any of reference's modules is loaded
@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("imports", [1, 2, 3])
def test_a_stop_at_the_package_first_imports_is_one_line_and_130(command, imports, tmp_path):
    found, session = _stop_when(
        COMMANDS[command], signal.SIGINT, _nth_import_after_signal(imports), tmp_path, importtime=True
    )
    _assert_stopped(found, session, signal.SIGINT, tmp_path)


# moments while the modules load, swept across start-up by counting finished imports
# (each command imports more than 110 modules after reference's first)
@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(
    "signum, imports",
    [(signal.SIGINT, 1), (signal.SIGINT, 40), (signal.SIGINT, 100), (signal.SIGTERM, 1), (signal.SIGTERM, 100)],
)
def test_a_stop_while_the_modules_load_is_one_line_and_128_plus_the_signal(command, signum, imports, tmp_path):
    found, session = _stop_when(
        COMMANDS[command], signum, _nth_import_after_reference(imports), tmp_path, importtime=True
    )
    _assert_stopped(found, session, signum, tmp_path)


# moments inside the work: on a progress line the run writes, or once it has run a given
# CPU time (its imports take under 2 s of it)
@pytest.mark.parametrize(
    "command, moment, signum",
    [
        ("check", "[3/", signal.SIGINT),  # inside the checks, a candidate worker and Hypothesis running
        ("check", "[3/", signal.SIGTERM),
        ("demo", 2.5, signal.SIGINT),
        ("proofs", 3.0, signal.SIGINT),  # inside z3, which catches SIGINT itself and answers "unknown"
    ],
)
def test_a_stop_inside_the_run_is_one_line_and_no_verdict(command, moment, signum, tmp_path):
    ready = moment if isinstance(moment, float) else (lambda line: line.startswith(moment))
    found, session = _stop_when(COMMANDS[command], signum, ready, tmp_path)
    _assert_stopped(found, session, signum, tmp_path)


def test_a_reader_that_closes_the_pipe_early_gets_no_traceback():
    # a tape of 20000 rounds is ~1 MB of JSON: far more than a pipe holds
    process = subprocess.Popen(
        [sys.executable, "-m", "reference", "tape", "--instance", "thresholds", "--n", "20000"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.stdout.read(100)
    process.stdout.close()  # `| head -c 100`
    err = process.stderr.read().decode()
    assert process.wait(timeout=900) == 141, err
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
