"""The implementation under test: chosen by import path, called defensively.

An implementation is a module (or package) that provides the public names of
DESIGN.md that the checks use:

    passive(hypotheses, tape, params)            -> trace
    robust_cal(hypotheses, tape, params, vanilla=False) -> trace
    calruption(hypotheses, tape, params)         -> trace
    calruption_epoch(hypotheses, state, counts, params) -> (epoch record, next state)
    catoni_root(values, counts, alpha)           -> (lo, hi)

Inputs are the reference's objects (reference.Tape, reference.Params, tuples of
Fractions). A trace may be returned as the reference's dataclasses, as any dataclasses
with the same fields, or as the lossless JSON dict of `reference.trace_to_json`; it is
normalised by a JSON round trip through the reference's typed decoder, so a trace with a
missing field, a float where a rational belongs, or an index out of range is reported
as a violation, not a crash of the suite. A call that raises, or runs longer than the
per-call timeout, is a violation too.
"""
from __future__ import annotations

import importlib
import os
import signal
import threading
import traceback
from contextlib import contextmanager

from reference.serialization import from_jsonable, to_jsonable
from reference.trace import TRACE_TYPES, trace_from_json, trace_to_json

from .violation import Violation

DEFAULT_IMPL = "reference"
ENV_VAR = "CRAL_IMPL"
DEFAULT_TIMEOUT_S = 60.0
REQUIRED = ("passive", "robust_cal", "calruption", "catoni_root")


def impl_path(explicit: str | None = None) -> str:
    return explicit or os.environ.get(ENV_VAR) or DEFAULT_IMPL


def load_impl(path: str | None = None):
    """Import the implementation; a missing module or public name is a ValueError."""
    path = impl_path(path)
    try:
        module = importlib.import_module(path)
    except ImportError as error:
        raise ValueError(f"implementation {path!r} cannot be imported: {error}") from None
    missing = [name for name in REQUIRED if not callable(getattr(module, name, None))]
    if missing:
        raise ValueError(f"implementation {path!r} lacks {', '.join(missing)}")
    return module


class CallFailed(Exception):
    """The implementation raised, timed out or returned garbage: carries the Violation."""

    def __init__(self, violation: Violation):
        super().__init__(str(violation))
        self.violation = violation


class _Timeout(BaseException):
    """BaseException so an implementation's `except Exception` cannot swallow it."""


@contextmanager
def _time_limit(seconds: float):
    """SIGALRM-based limit: works in the main thread for code that returns to the
    interpreter (pure Python, numpy between calls); elsewhere no limit is applied."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        raise _Timeout()

    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


_USE_DEFAULT = object()


def call(check: str, impl, name: str, *args, timeout=_USE_DEFAULT, **kwargs):
    """impl.name(*args, **kwargs), turning a raise or a timeout into CallFailed. The
    timeout defaults to DEFAULT_TIMEOUT_S as it is when called (so tests may lower it)."""
    if timeout is _USE_DEFAULT:
        timeout = DEFAULT_TIMEOUT_S
    function = getattr(impl, name, None)
    if not callable(function):
        raise CallFailed(Violation.of(check, f"the implementation has no callable {name!r}"))
    try:
        with _time_limit(timeout):
            return function(*args, **kwargs)
    except _Timeout:
        raise CallFailed(Violation.of(check, f"{name} did not return within {timeout} s")) from None
    except Exception as error:  # the suite goes on: an implementation's crash is a finding
        where = traceback.extract_tb(error.__traceback__)[-1]
        raise CallFailed(Violation.of(
            check, f"{name} raised {type(error).__name__}: {error}", at=f"{where.filename}:{where.lineno}"
        )) from None


def normalise_trace(check: str, trace, algorithm: str):
    """The trace as the reference's dataclasses, or CallFailed if it is malformed."""
    try:
        data = trace if isinstance(trace, dict) else trace_to_json(trace)
        result = trace_from_json(data)
    except (ValueError, TypeError, AttributeError) as error:
        raise CallFailed(Violation.of(check, f"{algorithm} returned a malformed trace: {error}")) from None
    if not isinstance(result, TRACE_TYPES.get(algorithm, object)) or getattr(result, "algorithm", None) not in (
        algorithm, f"{algorithm}_vanilla"
    ):
        raise CallFailed(Violation.of(check, f"{algorithm} returned a trace of algorithm {getattr(result, 'algorithm', None)!r}"))
    return result


def normalise(check: str, value, tp, what: str):
    """Any dataclass-shaped value as the reference type `tp` (JSON round trip)."""
    try:
        return from_jsonable(tp, value if isinstance(value, dict) else to_jsonable(value), what)
    except (ValueError, TypeError, AttributeError) as error:
        raise CallFailed(Violation.of(check, f"malformed {what}: {error}")) from None


def run_algorithm(check: str, impl, algorithm: str, case, timeout=_USE_DEFAULT):
    """Run `algorithm` of impl on a Case and return its normalised trace."""
    hypotheses, tape, params = case.instance.hypotheses, case.tape, case.params
    if algorithm == "robust_cal_vanilla":
        trace = call(check, impl, "robust_cal", hypotheses, tape, params, vanilla=True, timeout=timeout)
    else:
        trace = call(check, impl, algorithm, hypotheses, tape, params, timeout=timeout)
    result = normalise_trace(check, trace, "robust_cal" if algorithm == "robust_cal_vanilla" else algorithm)
    if result.n != tape.n:
        raise CallFailed(Violation.of(check, "trace.n differs from the tape", trace_n=result.n, tape_n=tape.n))
    if not 0 <= result.output < len(hypotheses):
        raise CallFailed(Violation.of(check, "trace.output is not a hypothesis index", output=result.output))
    return result
