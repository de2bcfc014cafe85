"""A command line called in the test's own process: the `main(argv)` that `python -m X`
calls (X/__main__.py), with the working folder and environment a subprocess would get,
its status, stdout and stderr returned as subprocess.run returns them. For tests of what a
command says and does on its input; the process boundary itself (`__main__`, the exit
status a shell sees, a closed pipe) keeps its subprocess tests."""

from __future__ import annotations

import importlib
import signal
import subprocess
import sys

MAINS = {"properties": "properties.cli", "proofs_check": "proofs_check.cli", "reference": "reference.cli"}


def main_in_process(module: str, args, *, cwd, monkeypatch, capsys, env=None) -> subprocess.CompletedProcess:
    main = importlib.import_module(MAINS[module]).main
    argv = [str(arg) for arg in args]
    monkeypatch.chdir(cwd)
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    capsys.readouterr()  # what the test printed before is not the command's
    # the command line installs its Ctrl-C and SIGTERM handling (reference/command_line.py's
    # install): the test run's own is put back after it
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)
    handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        status = main(argv)
    except SystemExit as error:  # as the interpreter turns it into the exit status
        status = error.code if isinstance(error.code, int) else 1
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
    found = capsys.readouterr()
    return subprocess.CompletedProcess(["python", "-m", module, *argv], status, found.out, found.err)
