"""Ctrl-C that is never lost.

Python turns SIGINT into a KeyboardInterrupt wherever the main thread happens to be, and
some places drop it: an exception raised inside a garbage-collector callback (Hypothesis
installs one) is printed as "Exception ignored" and the run goes on to a verdict. The
handler here also records the interrupt, so a command line can stop at its next
checkpoint (`raise_if_interrupted`) and never print a verdict after Ctrl-C."""

from __future__ import annotations

import os
import signal
import sys
import threading

_seen = threading.Event()
_signal: list[int] = []  # the first stopping signal seen (SIGINT or SIGTERM)
COMMAND_MODULES = ("reference.__main__", "properties.__main__", "proofs_check.__main__")
MESSAGES = {
    signal.SIGINT: "interrupted (Ctrl-C): stopped, no verdict",
    signal.SIGTERM: "terminated (SIGTERM): stopped, no verdict",
}


def _on_sigint(signum, frame):
    if not _signal:
        _signal.append(signum)
    _seen.set()
    raise KeyboardInterrupt


def _stop_before_anything_is_written(signum, frame):
    """A stop while a command line's modules load: nothing is written or started yet, so
    the process ends here, with the one line and status the command gives later."""
    os.write(2, (MESSAGES[signum] + "\n").encode())
    os._exit(128 + signum)


def stop_early_in_a_command() -> None:
    """Called first thing when `reference` is imported: if this process is one of the
    project's command lines starting up (`python -m reference | properties |
    proofs_check`), SIGINT and SIGTERM end it at once with one line and 130 / 143 until
    the command installs its own handlers (install()). Its modules take a second or two
    to load (z3, Hypothesis, numpy); Python's default would print a traceback instead.
    A process that is not such a command, or that set its own handlers, is left alone."""
    if threading.current_thread() is not threading.main_thread():
        return
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    # `python -m PACKAGE` imports the package (argv[0] is "-m" meanwhile), then runs PACKAGE.__main__
    starting = getattr(sys, "argv", [])[:1] == ["-m"] or getattr(spec, "name", None) in COMMAND_MODULES
    if not starting:
        return
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _stop_before_anything_is_written)
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _stop_before_anything_is_written)


def status() -> int:
    """The exit status of a stopped run: 128 + the signal that stopped it (130 for
    Ctrl-C, 143 for SIGTERM)."""
    return 128 + (_signal[0] if _signal else signal.SIGINT)


def message() -> str:
    """The one line a stopped run ends with."""
    return MESSAGES.get(_signal[0] if _signal else signal.SIGINT)


def install() -> None:
    """Record every SIGINT from now on (main thread only: signal handlers live there), and
    keep Python's "Exception ignored in ..." report of a swallowed KeyboardInterrupt off
    stderr: the interrupt is recorded, and the one-line message says it."""
    if threading.current_thread() is threading.main_thread():
        # SIGTERM (a CI timeout, `kill`) stops the run as Ctrl-C does: the same clean-up
        # (the candidate's worker, a campaign's cluster), no verdict, its own line and 143
        signal.signal(signal.SIGINT, _on_sigint)
        signal.signal(signal.SIGTERM, _on_sigint)
        if sys.unraisablehook is not _quiet_unraisable:
            _previous_hook[:] = [sys.unraisablehook]
            sys.unraisablehook = _quiet_unraisable


_previous_hook: list = []


def _quiet_unraisable(unraisable) -> None:
    # after Ctrl-C, objects it cut short complain as they are collected: not news
    if isinstance(unraisable.exc_value, KeyboardInterrupt) or _seen.is_set():
        return
    (_previous_hook[0] if _previous_hook else sys.__unraisablehook__)(unraisable)


def ignore_more() -> None:
    """From now on SIGINT and SIGTERM do nothing: the run is already stopping."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


def note() -> None:
    """Record an interrupt that a library caught before our handler saw it (z3 does)."""
    _seen.set()


def interrupted() -> bool:
    return _seen.is_set()


def raise_if_interrupted() -> None:
    """A checkpoint between units of work: an interrupt swallowed on the way stops here."""
    if _seen.is_set():
        raise KeyboardInterrupt


def exit_now(status: int) -> None:
    """Exit with `status`. After Ctrl-C or SIGTERM (130, 143) the interpreter's shutdown is skipped
    once every `atexit` handler has run: objects a SIGINT cut short while they were being
    built (z3's contexts) would otherwise print "Exception ignored" tracebacks as they are
    collected, and a SIGINT re-delivered by a library that caught it would turn the exit
    status into a signal."""
    if status not in (130, 143):
        sys.exit(status)
    ignore_more()
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a closed pipe: nothing more can be said
            pass
    os._exit(status)
