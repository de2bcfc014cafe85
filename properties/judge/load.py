"""Loading a candidate: by import path, in this process or in a worker process
(properties/judge/isolation.py), or by command line, a program speaking docs/protocol.md
(properties/judge/command.py). The one place that chooses among the three kinds of
candidate, above all of them (properties/core/candidate.py holds what they share)."""

from __future__ import annotations

import importlib
import os

from properties.core import candidate as harness
from properties.core.candidate import (
    CMD_ENV_VAR,
    DEFAULT_IMPL,
    DEFAULT_MEMORY_LIMIT,
    ENV_VAR,
    Candidate,
    InProcessCandidate,
    _judges_signals,
    _time_limit,
    _Timeout,
    check_required,
    env_cmd,
    impl_path,
)


def load_impl(
    path: str | None = None,
    *,
    isolate: bool | None = None,
    timeout: float | None = None,
    memory_limit: int | None = DEFAULT_MEMORY_LIMIT,
) -> Candidate:
    """The candidate at import path `path` (default $CRAL_IMPL or the reference). Isolated
    in a worker process unless it is the built-in reference (or `isolate` says otherwise).
    A candidate that cannot be imported, or lacks a required name, is a ValueError (bad
    input: the command lines exit with 2)."""
    path = impl_path(path)
    if isolate is None:
        isolate = path != DEFAULT_IMPL
    if isolate:
        # imported when first needed: loading the reference in-process starts no isolation machinery
        from properties.judge.isolation import IsolatedCandidate

        return IsolatedCandidate(path, timeout=timeout, memory_limit=memory_limit)
    # the import runs under the call timeout, as a worker's does (properties/judge/isolation.py)
    # read when called, as call() does (tests and the CLI may change it)
    limit = harness.DEFAULT_TIMEOUT_S if timeout is None else timeout
    try:
        with _judges_signals(), _time_limit(limit):
            module = importlib.import_module(path)
    except _Timeout:
        raise ValueError(
            f"implementation {path!r} failed while importing: hung after {limit:g} s (importing it)"
        ) from None
    except (Exception, SystemExit) as error:  # ImportError, SyntaxError, sys.exit, whatever its import raises
        raise ValueError(f"implementation {path!r} cannot be imported: {type(error).__name__}: {error}") from None
    candidate = InProcessCandidate(module, path, timeout)
    check_required(candidate)
    return candidate


def load_candidate(
    impl: str | None = None,
    cmd: str | None = None,
    *,
    isolate: bool | None = None,
    timeout: float | None = None,
    memory_limit: int | None = DEFAULT_MEMORY_LIMIT,
    tape_format: str = "auto",
    keep_dir: str | None = None,
    described: dict | None = None,
) -> Candidate:
    """The candidate named by an import path (`impl`, see load_impl) or by a command line
    (`cmd`: a program of any language that speaks docs/protocol.md, run once per call);
    with neither, $CRAL_CMD if it is set, else $CRAL_IMPL or the reference.
    Bad input (both given, an empty command, a program that cannot describe itself) is a
    ValueError. `tape_format`, `keep_dir` (where request files are kept as reproducers;
    default a temporary folder) and `described` (the program's describe answer, when the
    judge has it already: it is not asked again) concern commands only."""
    if impl is not None and cmd is not None:
        raise ValueError("give the implementation's import path or its command, not both")
    if impl is None and cmd is None and env_cmd() is not None:
        if os.environ.get(ENV_VAR):
            raise ValueError(f"${ENV_VAR} and ${CMD_ENV_VAR} are both set: choose the implementation by one of them")
        cmd = env_cmd()
    if cmd is not None:
        if isolate is False:
            raise ValueError("a command candidate always runs in processes of its own (--in-process does not apply)")
        from properties.judge.command import CommandCandidate

        return CommandCandidate(
            cmd,
            timeout=timeout,
            memory_limit=memory_limit,
            tape_format=tape_format,
            keep_dir=keep_dir,
            described=described,
        )
    return load_impl(impl, isolate=isolate, timeout=timeout, memory_limit=memory_limit)


__all__ = ["load_candidate", "load_impl"]
