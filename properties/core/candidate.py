"""The implementation under test (the candidate): chosen by import path, called through
plain data only.

A candidate is any module (or package) that provides the public names of
properties/core/contract.py. Every candidate except the built-in reference runs in a worker
process of its own (properties/judge/isolation.py): the judge's process never imports it,
hands it copies of the inputs, and receives only plain data (properties/core/plain.py),
decoded and validated here. So whatever the candidate does -- crash the interpreter,
call os._exit, print, replace functions of `reference`, change its inputs in place,
hang, leave children behind, exhaust memory -- it can change its own verdict only
through what it returns, and every such outcome is a failing result of the check that
called it. The reference, trusted, runs in-process (fast); `--in-process` runs any
candidate that way, for stepping through it in a debugger, and the verdict is then not
protected.

`call(check, impl, name, *args)` returns the candidate's result as plain data or raises
`CallFailed` carrying a Violation ("crashed: ...", "hung after ...", "exited with ...",
"out of memory ...", or a malformed result); `run_algorithm` returns a decoded trace."""

from __future__ import annotations

import collections
import os
import signal
import sys
import threading
import traceback
from contextlib import contextmanager, redirect_stdout
from types import SimpleNamespace

from properties.core import representations
from properties.core.contract import (
    ARITHMETICS,
    PUBLIC_NAMES,
    REQUIRED,
    decode_trace,
    function_of,
    trace_shape_problems,
)
from properties.core.plain import NotPlain, encode_result
from properties.core.violation import CallFailed, Violation, clip

DEFAULT_IMPL = "reference"
ENV_VAR = "CRAL_IMPL"
CMD_ENV_VAR = "CRAL_CMD"  # a program speaking docs/protocol.md, instead of an import path
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MEMORY_LIMIT = 16 << 30  # bytes of address space per worker (RLIMIT_AS); generous on purpose


def impl_path(explicit: str | None = None) -> str:
    if explicit is not None and not explicit.strip():
        raise ValueError("the implementation's import path is empty")
    if explicit is None and ENV_VAR in os.environ and not os.environ[ENV_VAR].strip():
        # set but empty is a mistake (CRAL_IMPL=$UNSET_VAR), not a request for the reference
        raise ValueError(f"${ENV_VAR} is set but empty: give an import path, or unset it for the reference")
    return explicit or os.environ.get(ENV_VAR) or DEFAULT_IMPL


def env_cmd() -> str | None:
    """$CRAL_CMD, or None when it is unset. Set but empty (CRAL_CMD=$UNSET_VAR) is a
    mistake, not a request for the import-path candidate: a ValueError, like $CRAL_IMPL's."""
    if CMD_ENV_VAR not in os.environ:
        return None
    if not os.environ[CMD_ENV_VAR].strip():
        raise ValueError(f"${CMD_ENV_VAR} is set but empty: give a command, or unset it")
    return os.environ[CMD_ENV_VAR]


class CandidateFault(Exception):
    """What went wrong in one call of the candidate, before the check is known; `values`
    is a mapping (a candidate's names cannot collide with the constructor's)."""

    def __init__(self, message: str, fatal: bool = False, values=None):
        super().__init__(message)
        self.message, self.fatal, self.values = clip(message), fatal, dict(values or {})

    def violation(self, check: str) -> Violation:
        return Violation.with_values(check, self.message, self.values)


class Candidate:
    """The judge's handle on an implementation under test."""

    path: str
    isolated: bool
    arithmetic: str  # the candidate's declared ARITHMETIC: "exact" (default) or "float64"
    # whether the candidate declared its arithmetic (ARITHMETIC in a module, "arithmetic" in a
    # program's describe) or the judge assumed "exact"; None where unknown
    arithmetic_declared: bool | None = None
    names: frozenset  # the public names it provides as callables
    timeout: float | None = None  # seconds per call; None: DEFAULT_TIMEOUT_S when called

    def provides(self, name: str) -> bool:
        return name in self.names

    # a candidate that says which modes it implements (a command candidate's describe):
    # checks of the others do not apply to it. A module must provide every REQUIRED name.
    declares_modes = False

    def implements(self, mode: str) -> bool:
        return self.provides(function_of(mode))

    @property
    def runs_in(self) -> str:
        """Where its code runs, for reports."""
        return "isolated worker process" if self.isolated else "in-process"

    def invoke(self, name: str, args: tuple, kwargs: dict, timeout: float | None):
        """name(*args, **kwargs) as plain data, or CandidateFault."""
        raise NotImplementedError

    def invoke_many(self, name: str, calls: list[tuple[tuple, dict]], timeout: float | None) -> list:
        """Several calls of one function (one round trip when isolated), each on its own
        copy of the inputs and under its own timeout; the first failure raises
        CandidateFault."""
        return [self.invoke(name, args, kwargs, timeout) for args, kwargs in calls]

    def take_output(self):
        """The candidate's captured stdout/stderr since the last take (isolated only)."""
        return None

    # unknown fields of its results that were ignored: path -> calls (properties/core/representations.py)
    ignored_fields: collections.Counter | None = None

    def note_ignored(self, paths) -> None:
        if paths:
            if self.ignored_fields is None:
                self.ignored_fields = collections.Counter()
            self.ignored_fields.update(paths)

    def accept_result(self, name: str, plain):
        """A result as the decoders take it, read for its meaning (properties/
        representations.py: integers and, from a float candidate, floats where rationals
        belong; unknown fields ignored and noted). A MissingField is a ValueError."""
        plain, ignored = representations.accept(name, plain, self.arithmetic)
        self.note_ignored(ignored)
        return plain

    # request files as reproducers (a command candidate's; nothing for the others)
    def begin_example(self) -> None:
        """A new example of a check begins: the last one's requests are not needed."""

    def keep_requests(self) -> list[str] | None:
        """The request files of the last example's calls, kept for the report."""
        return None

    kept_root: str | None = None  # where kept request files are, if any

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _Timeout(BaseException):
    """BaseException so an implementation's `except Exception` cannot swallow it."""


@contextmanager
def _time_limit(seconds: float | None):
    """SIGALRM-based limit for in-process calls: works in the main thread for code that
    returns to the interpreter; elsewhere no limit is applied."""
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


@contextmanager
def _judges_signals():
    """The judge's SIGINT and SIGTERM handlers, put back after an in-process candidate ran
    (its import or a call): a candidate that ignores them must not take Ctrl-C away from
    the judge. Its own alarms are undone by _time_limit. (In-process, a candidate that
    disables the alarm and then hangs cannot be stopped: the isolated worker, the
    default, is timed from outside.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in saved.items():
            if handler is not None and signal.getsignal(number) is not handler:
                signal.signal(number, handler)


@contextmanager
def _stdout_to_stderr():
    """What an in-process candidate prints goes to stderr: stdout carries only the report
    (`check --json` stays valid JSON). Main thread only, as _time_limit: sys.stdout is
    global, and threads restoring it out of order would leave it redirected."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    with redirect_stdout(sys.stderr):
        yield


def raised_at(error: BaseException) -> str:
    """file:line where the exception was raised ("?" if unknown)."""
    frames = traceback.extract_tb(error.__traceback__)
    return f"{frames[-1].filename}:{frames[-1].lineno}" if frames else "?"


def fault_of_exception(name: str, error: BaseException) -> CandidateFault:
    """A Python exception raised by the candidate, as a fault naming its type and place."""
    where = raised_at(error)
    if isinstance(error, SystemExit):
        return CandidateFault(f"exited with {clip(str(error.code), 100)} (sys.exit in {name})", values={"at": where})
    if isinstance(error, MemoryError):
        return CandidateFault(f"out of memory (MemoryError in {name})", values={"at": where})
    values = {"at": where, "exception": type(error).__name__}
    if type(error).__module__ != "builtins":
        # the candidate's own exception class: name the built-in one it derives from, so a
        # check can accept, say, a subclass of ValueError for bad input
        values["builtin_base"] = next(c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins")
    return CandidateFault(f"crashed: {type(error).__name__}: {clip(str(error))} (in {name})", values=values)


class InProcessCandidate(Candidate):
    """A module (or any namespace of functions) called in the judge's own process."""

    isolated = False

    def __init__(self, module, path: str, timeout: float | None = None):
        self.module, self.path, self.timeout = module, path, timeout
        self.arithmetic = arithmetic_of_module(module, path)
        self.arithmetic_declared = hasattr(module, "ARITHMETIC")
        self.names = frozenset(name for name in PUBLIC_NAMES if callable(getattr(module, name, None)))

    def invoke(self, name, args, kwargs, timeout):
        function = getattr(self.module, name, None)
        if not callable(function):
            raise CandidateFault(f"the implementation has no callable {name!r}")
        try:
            with _judges_signals(), _time_limit(timeout), _stdout_to_stderr():
                value = function(*args, **kwargs)
        except _Timeout:
            raise CandidateFault(f"hung after {timeout:g} s (in {name})", fatal=True) from None
        except (Exception, SystemExit) as error:  # the suite goes on: the candidate's crash is a finding
            raise fault_of_exception(name, error) from None
        try:
            return encode_result(name, value)
        except NotPlain as error:
            raise CandidateFault(f"{name} returned something that is not plain data: {error}") from None


def arithmetic_of_module(module, path: str) -> str:
    """The module's ARITHMETIC ("exact" if absent); anything else is bad input."""
    arithmetic = getattr(module, "ARITHMETIC", "exact")
    if arithmetic not in ARITHMETICS:
        raise ValueError(f"implementation {path!r} declares ARITHMETIC = {arithmetic!r}, not one of {ARITHMETICS}")
    return arithmetic


def check_required(candidate: Candidate) -> None:
    missing = [name for name in REQUIRED if not candidate.provides(name)]
    if missing:
        raise ValueError(f"implementation {candidate.path!r} lacks {', '.join(missing)}")


def as_candidate(impl, path: str | None = None) -> Candidate:
    """A Candidate as is; a module or namespace of functions wrapped to run in-process
    (for the Python API and tests that build candidates on the fly)."""
    if isinstance(impl, Candidate):
        return impl
    if isinstance(impl, dict):
        impl = SimpleNamespace(**impl)
    return InProcessCandidate(impl, path or getattr(impl, "__name__", type(impl).__name__))


_USE_DEFAULT = object()


def _timeout(timeout, candidate: Candidate):
    """The timeout asked for; else the candidate's own (load_impl(..., timeout=T)); else
    DEFAULT_TIMEOUT_S as it is now."""
    if timeout is not _USE_DEFAULT:
        return timeout
    return DEFAULT_TIMEOUT_S if candidate.timeout is None else candidate.timeout


def call(check: str, impl, name: str, *args, timeout=_USE_DEFAULT, **kwargs):
    """impl.name(*args, **kwargs) as plain data; a fault becomes CallFailed. The timeout
    defaults to DEFAULT_TIMEOUT_S as it is when called (so tests and the CLI may change it)."""
    candidate = as_candidate(impl)
    try:
        plain = candidate.invoke(name, args, kwargs, _timeout(timeout, candidate))
    except CandidateFault as fault:
        raise CallFailed(fault.violation(check), fatal=fault.fatal) from None
    return _accepted(check, candidate, name, plain)


def call_many(check: str, impl, name: str, calls, timeout=_USE_DEFAULT) -> list:
    """[impl.name(*args, **kwargs) for (args, kwargs) in calls] as plain data."""
    candidate = as_candidate(impl)
    try:
        plains = candidate.invoke_many(name, list(calls), _timeout(timeout, candidate))
    except CandidateFault as fault:
        raise CallFailed(fault.violation(check), fatal=fault.fatal) from None
    return [_accepted(check, candidate, name, plain) for plain in plains]


def _accepted(check: str, candidate: Candidate, name: str, plain):
    try:
        return candidate.accept_result(name, plain)
    except representations.MissingField as error:  # a misspelt field: malformed, as the decoders say it
        raise CallFailed(Violation.of(check, f"returned a malformed {name} result: {error}")) from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError) as error:
        # reading a result of the wrong shape (a list where an object belongs, ...): the candidate's fault
        raise CallFailed(
            Violation.of(check, f"returned a malformed {name} result: {type(error).__name__}: {clip(str(error), 300)}")
        ) from None


def run_algorithm(check: str, impl, mode: str, case, timeout=_USE_DEFAULT):
    """Run `mode` (passive, robust_cal, robust_cal_vanilla, calruption) of impl on a Case
    and return its decoded trace."""
    hypotheses, tape, params = case.instance.hypotheses, case.tape, case.params
    extra = {"vanilla": True} if mode == "robust_cal_vanilla" else {}
    plain = call(check, impl, function_of(mode), hypotheses, tape, params, timeout=timeout, **extra)
    result = decode_trace(check, plain, mode)
    for c in getattr(result, "checkpoints", ()):
        members = c.version_space if isinstance(c.version_space, (list, tuple)) else None
        if (
            members is not None
            and isinstance(c.h_hat, int)
            and 0 <= c.h_hat < len(hypotheses)
            and c.h_hat not in members
        ):
            # a wrong value, not a wrong shape: the argmin taken over all of H instead of V_t
            raise CallFailed(
                Violation.of(
                    check,
                    "h^_t lies outside V_t (Algorithm 1, line 8: h^_t minimises L^_t over V_t; spec S13)",
                    t=c.t,
                    h_hat=c.h_hat,
                    version_space=list(c.version_space),
                )
            )
    problems = trace_shape_problems(result, len(hypotheses[0]), len(hypotheses))
    if problems:
        raise CallFailed(Violation.of(check, f"returned a malformed {mode} trace: " + "; ".join(problems[:3])))
    if result.n != tape.n:
        raise CallFailed(Violation.of(check, "trace.n differs from the tape", trace_n=result.n, tape_n=tape.n))
    if not 0 <= result.output < len(hypotheses):
        raise CallFailed(Violation.of(check, "trace.output is not a hypothesis index", output=result.output))
    return result


__all__ = [
    "CMD_ENV_VAR",
    "CallFailed",
    "Candidate",
    "CandidateFault",
    "DEFAULT_IMPL",
    "DEFAULT_MEMORY_LIMIT",
    "DEFAULT_TIMEOUT_S",
    "ENV_VAR",
    "InProcessCandidate",
    "as_candidate",
    "call",
    "call_many",
    "check_required",
    "env_cmd",
    "impl_path",
    "run_algorithm",
]
