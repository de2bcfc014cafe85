"""The property suite as one Python call, for a repository that checks its own
implementation from its own tests (as scikit-learn's check_estimator does):

    import properties
    properties.check_implementation("mypkg")                      # raises on a failing check
    results = properties.check_implementation(mypkg, checks=["check_passive_output_is_erm"],
                                              on_fail="collect")
    with properties.load_candidate(cmd="./my_impl") as candidate:  # any language (docs/protocol.md)
        properties.check_implementation(candidate, on_fail="warn")

The results are properties.run.runner.CheckResult objects, the same that `python -m
properties check --json` prints (CheckResult.to_json). A check fails as on that command
line: it failed, or it passed although it is an expected failure (a finding about the
paper, FINDINGS.md) and the candidate is the reference -- on any other candidate such a
pass is not the candidate's failure."""

from __future__ import annotations

import math
import numbers
import warnings
from types import SimpleNamespace

from properties.checks.registry import all_checks
from properties.core.budget import deadline_in
from properties.core.candidate import DEFAULT_MEMORY_LIMIT, Candidate, InProcessCandidate, check_required
from properties.core.profiles import PROFILES, explores
from properties.core.seeds import resolve_seed
from properties.judge.load import load_candidate
from properties.reports import xfails_file
from properties.reports.root_cause import root_cause_order
from properties.run.runner import NOT_RUN, XPASS, CheckResult, run_check

ON_FAIL = ("raise", "warn", "collect")
SHOWN_VIOLATIONS = 3  # per check in a failure's description; the result keeps them all


class ImplementationCheckFailed(AssertionError):
    """check_implementation(on_fail="raise") found failing checks; `results` holds every
    check's result, `failures` the failing ones."""

    def __init__(self, message: str, results: list[CheckResult], failures: list[CheckResult]):
        super().__init__(message)
        self.results, self.failures = results, failures


class CheckFailureWarning(UserWarning):
    """One failing check, warned by check_implementation(on_fail="warn")."""


def is_failure(result: CheckResult, impl_path: str, strict_xfail: bool = False) -> bool:
    """The command line's rule (properties/cli.py): a failure, or an expected failure
    that passed on the reference (our record of the finding is then stale), or under
    strict_xfail one of the candidate's own expected failures that passed."""
    return xfails_file.is_failure(result, impl_path, strict_xfail)


def describe_failure(result: CheckResult, violations: int = 1) -> str:
    """The failing check in a few lines: what it cites, its first violations and the line
    of Python that rebuilds its counterexample."""
    if result.status == xfails_file.YOUR_XPASS:
        return f"{result.name} ({result.cites}) unexpectedly passed: {result.reason}"
    if result.status == NOT_RUN:
        return f"{result.name} ({result.cites}) not run: {result.reason}"
    if result.status == XPASS:
        return (
            f"{result.name} ({result.cites}) unexpectedly passed on the reference: {result.reason} -- "
            "the finding no longer reproduces, so its record in FINDINGS.md and the registry is stale"
        )
    lines = [
        f"{result.name} ({result.cites}) failed after {result.examples} examples: "
        + (result.violations[0] if result.violations else "(no violation recorded)")
    ]
    lines += [f"  {v}" for v in result.violations[1:violations]]
    if len(result.violations) > max(violations, 1):
        lines.append(f"  ... and {len(result.violations) - max(violations, 1)} more")
    if result.counterexample:
        lines.append(f"  reproduce{f' ({result.unshrunk})' if result.unshrunk else ''}: {result.counterexample}")
    if result.reproducer_call:
        lines.append(f"  call your function: {result.reproducer_call}")
    if result.requests:  # a command candidate's request files of that example (docs/protocol.md)
        lines.append(f"  request files: {', '.join(result.requests)}")
    return "\n".join(lines)


def _selected(checks) -> dict:
    registered = all_checks()
    if checks is None:
        return registered
    if isinstance(checks, str):
        raise ValueError(
            f"checks must be None or an iterable of check names, got the string {checks!r} (write [{checks!r}])"
        )
    try:
        names = list(dict.fromkeys(checks))  # order kept, repeats dropped
    except TypeError:
        raise ValueError(f"checks must be None or an iterable of check names, got {checks!r}") from None
    if not names:
        raise ValueError("checks is empty: give None for every check, or the names of some")
    unknown = [name for name in names if name not in registered]
    if unknown:
        raise ValueError(f"checks names unknown checks: {', '.join(map(repr, unknown))}")
    return {name: registered[name] for name in names}


def _candidate(candidate, timeout, memory_limit, isolate) -> tuple[Candidate, bool]:
    """(the Candidate, whether this call loaded it and so must close it)."""
    if isinstance(candidate, str):
        return load_candidate(candidate, isolate=isolate, timeout=timeout, memory_limit=memory_limit), True
    if isinstance(candidate, Candidate):
        given = [name for name, value in (("timeout", timeout), ("isolate", isolate)) if value is not None]
        if memory_limit != DEFAULT_MEMORY_LIMIT:
            given.append("memory_limit")
        if given:
            raise ValueError(
                f"{', '.join(given)} apply when a candidate is loaded: pass them to "
                "properties.load_candidate, not with a loaded candidate"
            )
        return candidate, False
    if candidate is None or isinstance(candidate, (bytes, int, float, bool, list, tuple)):
        raise ValueError(
            "candidate must be an import path, a module or namespace of functions, or a "
            f"properties.core.candidate.Candidate, got {candidate!r}"
        )
    # a module object, a class or namespace of functions, or a dict of them: already in
    # this process, so it runs here (memory_limit applies to worker processes only)
    if isinstance(candidate, dict):
        candidate = SimpleNamespace(**candidate)
    if isolate:
        raise ValueError(
            "isolate=True needs the candidate's import path (a string): a module or namespace "
            f"object already lives in this process, got {candidate!r}"
        )
    path = getattr(candidate, "__name__", None) or f"<{type(candidate).__name__}>"
    loaded = InProcessCandidate(candidate, path, timeout)
    check_required(loaded)
    return loaded, True


def check_implementation(
    candidate,
    profile: str = "ci",
    checks=None,
    on_fail: str = "raise",
    *,
    timeout: float | None = None,
    memory_limit: int | None = DEFAULT_MEMORY_LIMIT,
    isolate: bool | None = None,
    xfails=None,
    skips=None,
    strict_xfail: bool = False,
    budget: float | None = None,
    seed: int | str | None = None,
    quick: bool = False,
) -> list[CheckResult]:
    """Run the registered checks (all, or those named in `checks`) against `candidate`
    under the Hypothesis profile `profile` (dev, ci or fuzz; properties/core/profiles.py) and
    return their CheckResults, in registry order (or the order of `checks`).

    candidate: an import path ("mypkg": isolated in a worker process unless it is the
    reference or `isolate` is False; see properties.load_candidate), a module object or
    namespace of functions (a dict too: run in this process), or a loaded
    properties.core.candidate.Candidate (e.g. properties.load_candidate(cmd="./my_impl"), which the
    caller closes). timeout: seconds per call (default properties.core.candidate.DEFAULT_TIMEOUT_S);
    memory_limit: bytes of a worker's address space (None: no limit).

    on_fail: "raise" -- ImplementationCheckFailed listing each failing check with its first
    violation and reproducer; "warn" -- one CheckFailureWarning per failing check; "collect"
    -- nothing. Bad arguments (an unknown check, profile or on_fail, a candidate that
    cannot be loaded or lacks a required function) are ValueErrors.

    xfails, skips: paths of the candidate's own expected-failures and skips files
    (properties/reports/xfails_file.py; a bad one is a ListFileError, a ValueError naming the
    file and line). A listed check that fails is "expected failure (yours)", one that
    passes "unexpectedly passed (yours)" -- a failure only under strict_xfail; a skipped
    check is not run ("skipped (yours)").

    seed: the run's base seed, as `check --seed` (properties/core/seeds.py): None for the
    profile's own (a fixed one under dev and ci: the same results every call; a fresh one
    under fuzz), an integer in [0, 2^64), or "random". Each check draws its examples from
    (base seed, check id) alone. quick: as `check --quick` (few examples, the same seed).

    budget: seconds the whole call may take (None: no limit; properties/core/budget.py, as
    `check --budget`): a check that has not started when it is spent is "not run", a
    failure of the run (incomplete is not a pass)."""
    if on_fail not in ON_FAIL:
        raise ValueError(f"on_fail must be one of {', '.join(ON_FAIL)}, got {on_fail!r}")
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {', '.join(PROFILES)}, got {profile!r}")
    if budget is not None:
        try:  # numbers.Real: int, float, numpy scalars; huge ints overflow float
            seconds = float(budget) if isinstance(budget, numbers.Real) and not isinstance(budget, bool) else math.nan
        except OverflowError:
            seconds = math.inf
        if not (seconds > 0 and math.isfinite(seconds)):
            raise ValueError(f"budget must be a positive, finite number of seconds or None, got {budget!r}")
        budget = seconds
    base_seed = resolve_seed(seed, explores(profile))  # one for every check of the call
    selected = _selected(checks)
    lists = xfails_file.load(xfails, skips, strict_xfail=strict_xfail)
    deadline = deadline_in(budget)  # the candidate's import included, as the CLI's
    loaded, owned = _candidate(candidate, timeout, memory_limit, isolate)
    try:
        results = [
            xfails_file.skipped_result(check, lists.skip_of(name))
            if lists.skip_of(name)
            else xfails_file.apply(
                run_check(check, loaded, profile=profile, seed=base_seed, deadline=deadline, quick=quick), lists
            )
            for name, check in selected.items()
        ]
    finally:
        if owned:
            loaded.close()
    # the check naming the root cause first (properties/reports/root_cause.py)
    failures = root_cause_order([result for result in results if is_failure(result, loaded.path, strict_xfail)])
    if failures and on_fail == "raise":
        where = loaded.runs_in
        message = (
            f"{len(failures)} of {len(results)} checks failed on {loaded.path} ({where}, profile {profile}, "
            f"seed {base_seed}):\n" + "\n".join("  " + describe_failure(r).replace("\n", "\n  ") for r in failures)
        )
        raise ImplementationCheckFailed(message, results, failures)
    if on_fail == "warn":
        for result in failures:
            # stacklevel 2: the warning points at the caller's line
            warnings.warn(f"{loaded.path}: {describe_failure(result)}", CheckFailureWarning, stacklevel=2)
    return results


__all__ = [
    "CheckFailureWarning",
    "ImplementationCheckFailed",
    "ON_FAIL",
    "check_implementation",
    "describe_failure",
    "is_failure",
]
