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


def _on_sigint(signum, frame):
    _seen.set()
    raise KeyboardInterrupt


def install() -> None:
    """Record every SIGINT from now on (main thread only: signal handlers live there), and
    keep Python's "Exception ignored in ..." report of a swallowed KeyboardInterrupt off
    stderr: the interrupt is recorded, and the one-line message says it."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _on_sigint)
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
    """From now on SIGINT does nothing: the run is already stopping because of one."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


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
    """Exit with `status`. After Ctrl-C (status 130) the interpreter's shutdown is skipped
    once every `atexit` handler has run: objects a SIGINT cut short while they were being
    built (z3's contexts) would otherwise print "Exception ignored" tracebacks as they are
    collected, and a SIGINT re-delivered by a library that caught it would turn the exit
    status into a signal."""
    if status != 130:
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
