"""Run a check against an implementation without pytest: Hypothesis drives the
examples (the check's known examples first, see registry.KNOWN_EXAMPLES), shrinks a
failure to a minimal one, and the result is plain data.

Nothing a candidate does stops the run: whatever is raised while checking it -- by the
candidate, by decoding its results, or by the check's own recomputation from them -- is
a failing result of that check ("crashed: ..."). A call that cost the candidate its
worker (a hang, a crash of the process, exhausted memory) ends the check at once with
the example that caused it, unshrunk: shrinking would run the hanging or crashing call
again and again."""

from __future__ import annotations

import functools
import sys
import time
from collections import Counter
from dataclasses import replace

from hypothesis import example as explicit_example
from hypothesis import given, settings
from hypothesis import seed as fixed_seed
from hypothesis.errors import Flaky, InvalidArgument
from hypothesis.reporting import with_reporter
from hypothesis.statistics import collector as statistics_collector

from properties.checks.causes import CAUSES, Verdict, classify
from properties.checks.registry import EXPECTED_FAILURES, Check, known_examples

# importing profiles registers dev/ci/fuzz: profile="ci" is the suite's, not Hypothesis's built-in "ci"
from properties.core import profiles
from properties.core.budget import BudgetSpent, check_budget, spent
from properties.core.candidate import DEFAULT_IMPL, as_candidate, raised_at
from properties.core.contract import CHECKED_IF_PRESENT
from properties.core.outcomes import FAILED, NOT_APPLICABLE, NOT_RUN, PASSED, STATUSES, XFAIL, XPASS, CheckResult  # noqa: F401
from properties.core.seeds import check_seed, resolve_seed, seed_alone
from properties.core.spec_citations import cite_failure
from properties.core.violation import CallFailed, Violation
from properties.reports.reproducer import calling_reproducer
from properties.reports.saved import encode_example, short_form
from reference import command_line

# A candidate's fault (a crash, a malformed result) usually happens on every input: after
# this many failing examples of faults alone, shrinking stops with the smallest so far.
FAULT_SHRINK_BUDGET = 16
_PROFILE_DATABASE = object()  # run_check's default: the profile's example database


class CheckFailed(AssertionError):
    pass


class _FatalCall(BaseException):
    """Ends a Hypothesis run at once (Hypothesis does not catch BaseExceptions, so it
    neither shrinks nor retries); args: (violation, why the example is not minimal,
    whether the example is the recorded failure)."""


def crash_violation(check: str, error: Exception) -> Violation:
    """An exception raised by the check's own code while judging the candidate's results."""
    return Violation.with_values(
        check,
        f"crashed: {type(error).__name__}: {error} (in the check, recomputing from the candidate's results)",
        {"at": raised_at(error)},
        fault=True,
    )


def violations_of(check: Check, impl, example) -> list:
    """The check's violations on one example; a fatal call raises _FatalCall."""
    try:
        return check.execute(impl, example)
    except CallFailed as failure:
        violation = replace(failure.violation, fault=True)
        if failure.fatal:
            raise _FatalCall(violation, "not shrunk: the call cost the candidate its worker", False) from None
        return [violation]
    except Exception as error:  # the check's own recomputation choked on the candidate's results
        return [crash_violation(check.name, error)]


def not_applicable_reason(check: Check, impl) -> str | None:
    """Why the check cannot say anything about this candidate, or None."""
    candidate = as_candidate(impl)
    if not check.covers and candidate.path != DEFAULT_IMPL:
        return "a statement about the paper: it does not call the implementation (checked against the reference)"
    if candidate.declares_modes:
        missing = [mode for mode in check.covers if not candidate.implements(mode)]
        if missing and not set(check.covers) <= set(CHECKED_IF_PRESENT):
            # as for a module: an optional mode a check also covers is checked when present
            missing = [mode for mode in missing if mode not in CHECKED_IF_PRESENT]
        if missing:
            return f"the implementation does not implement {', '.join(missing)} (not among the modes it declares)"
        return None
    absent = [name for name in CHECKED_IF_PRESENT if name in check.covers and not candidate.provides(name)]
    if absent and set(check.covers) <= set(CHECKED_IF_PRESENT):
        return f"the implementation does not provide {', '.join(absent)} (optional)"
    return None


def run_check(
    check: Check,
    impl,
    *,
    max_examples: int | None = None,
    profile: str | None = None,
    seed: int | None = None,
    known: bool = True,
    prefer_violations: bool = False,
    database=_PROFILE_DATABASE,
    explore: bool | None = None,
    progress=None,
    deadline: float | None = None,
    quick: bool = False,
) -> CheckResult:
    """Run one check under the loaded Hypothesis profile (or the named one), optionally with
    fewer examples. `seed` is the run's base seed (properties/core/seeds.py: an int,
    "random", or None for the profile's own: seeds.DEFAULT_SEED, fresh under fuzz); the
    check draws from check_seed(base seed, check id), so its examples do not depend on
    what ran before it. Its known examples run first (unless `known` is
    false: the strategy alone); a failure there ends the run, as any failure does.
    `prefer_violations`: a non-fatal fault (a raise, a malformed result) does not end the
    run; the search goes on for an example on which the check's own logic fails, and the
    fault is reported only if none is found (tests/teeth/test_broken_caught.py: a broken copy that also
    crashes on some inputs must still be caught by the property it breaks).
    `database`: a Hypothesis ExampleDatabase (or None) instead of the profile's, so a
    campaign's workers share the failures they find (properties/campaign/fuzz.py); the
    profile's is none under dev and ci, and under fuzz one per (candidate, check)
    (profiles.fuzz_database).
    An expected failure's counterexample is classified by its finding's cause
    (properties/checks/causes.py): one the cause does not explain is a failure, reported as
    such. `explore` (default: the profile's, profiles.EXPLORES_PAST_EXPLAINED) goes on
    searching past explained counterexamples for one that is not. `progress(examples)`, if
    given, is called before each example (the command line's heartbeat).
    `deadline` (time.monotonic() seconds; properties/core/budget.py): no example starts after
    it; a check stopped before it found anything is NOT_RUN, one stopped while shrinking
    reports its failure unshrunk. `quick` (`check --quick`): profiles.QUICK_EXAMPLES generated
    examples (unless `max_examples` says otherwise), a fixed experiment on fewer seeds
    (Check.quick_strategy), the same seed."""
    candidate = as_candidate(impl)
    reason = EXPECTED_FAILURES.get(check.name)
    skip = not_applicable_reason(check, candidate)
    if skip:
        return CheckResult(check.name, check.cites, check.kind, NOT_APPLICABLE, 0, reason=skip)
    if spent(deadline):
        return CheckResult(check.name, check.cites, check.kind, NOT_RUN, 0, reason=_BUDGET_BEFORE)
    seen = {
        "examples": 0,
        "current": None,
        "failure": None,
        "faults": 0,
        "first_fault": None,
        "verdict": None,
        "explained": 0,
        "first_explained": None,
    }
    cause = CAUSES.get(check.name) if reason is not None else None
    if explore is None:
        explore = profiles.explores_past_explained(profile)

    def body(example):
        candidate.begin_example()  # a command candidate's request files
        seen["examples"] += 1
        seen["current"] = example
        if progress is not None:
            progress(seen["examples"])
        found = violations_of(check, candidate, example)
        verdict = None
        if found:
            if all(v.fault for v in found):
                if prefer_violations:
                    seen["first_fault"] = seen["first_fault"] or (example, found)
                    return
                seen["faults"] += 1
            elif cause is not None:
                verdict = classify(cause, candidate, example, found)
                if verdict.explained:
                    seen["explained"] += 1
                    if explore:  # look on for a counterexample the finding does not explain
                        seen["first_explained"] = seen["first_explained"] or (example, found, verdict)
                        return
            seen["verdict"] = verdict
            seen["failure"] = (example, found)  # after shrinking, the last one is the minimal one
            # the examples column counts the search up to the first failure, not shrink attempts
            seen.setdefault("until_failure", seen["examples"])
            if seen["faults"] > FAULT_SHRINK_BUDGET:
                raise _FatalCall(
                    found[0],
                    f"shrunk for {FAULT_SHRINK_BUDGET} steps: the candidate failed as a program every time",
                    True,
                )
            raise CheckFailed("; ".join(map(str, found[:3])))

    if quick and max_examples is None:
        max_examples = profiles.QUICK_EXAMPLES
    options = {} if max_examples is None else {"max_examples": max_examples}
    if database is not _PROFILE_DATABASE:
        options["database"] = database
    elif profiles.keeps_database(profile):
        options["database"] = profiles.fuzz_database(candidate.path, check.name)
    strategy = check.quick_strategy if quick and check.quick_strategy is not None else check.strategy
    test = given(example=strategy)(_with_deadline(body, deadline))
    for known_example in reversed(known_examples(check.name) if known else ()):
        test = explicit_example(example=known_example)(test)  # the last applied runs first
    test = fixed_seed(check_seed(resolve_seed(seed, profiles.explores(profile)), check.name))(test)
    try:
        parent = settings.get_profile(profile) if profile else settings.default
    except InvalidArgument:
        raise ValueError(
            f"profile {profile!r} is not a registered Hypothesis profile (the suite's: {', '.join(profiles.PROFILES)})"
        ) from None
    test = settings(parent, **options)(test)
    candidate.take_output()  # what an earlier check left is not this check's
    fatal, unshrunk, out_of_budget, flaky = None, None, False, False
    engine: dict = {}
    started = time.perf_counter()
    try:
        # Hypothesis's notes must not mix with a report on stdout; its engine hands its
        # statistics to the collector when the generated examples ran (not after explicit
        # examples that failed, nor after a _FatalCall)
        with with_reporter(_to_stderr), statistics_collector.with_value(engine.update), seed_alone():
            test()
    except CheckFailed:
        pass
    except _FatalCall as stop:
        fatal, unshrunk, is_the_failure = stop.args
    except BudgetSpent:
        out_of_budget = True
    except Flaky:  # the candidate failed an example, then passed it when Hypothesis replayed it
        flaky = True
    statistics = run_statistics(time.perf_counter() - started, engine)
    output = candidate.take_output()
    example, found = seen["failure"] or seen["first_fault"] or (None, None)
    verdict = seen["verdict"]
    if found is None and seen["first_explained"] is not None:
        example, found, verdict = seen["first_explained"]
    if fatal is not None and not is_the_failure:
        if found:  # shrinking an earlier failure ran into a hang or crash: report that failure
            unshrunk = f"shrinking stopped when a smaller example cost the worker: {fatal.message}"
        else:
            example, found = seen["current"], [fatal]
    if found and out_of_budget and unshrunk is None:
        unshrunk = "shrinking stopped: the time budget was spent"
    if found and flaky and unshrunk is None:
        unshrunk = (
            "not shrunk: the candidate's answer changed when the same example was run again (it failed "
            "once and passed on the replay): a flaky candidate"
        )
    if found:
        reproducer = example.reproducer() if hasattr(example, "reproducer") else repr(example)
        # a crash, hang or malformed result is never the paper's finding an expected failure names,
        # nor is a counterexample its cause does not explain
        expected = reason is not None and not any(v.fault for v in found) and (verdict is None or verdict.explained)
        # the spec conventions the check enforces (not for a failure as a program: a crash, a hang,
        # a malformed result), and the meaning of any FINDINGS id: one table
        shown = cite_failure(
            check.name,
            [str(v) for v in found],
            getattr(candidate, "arithmetic", "exact"),
            conventions=not all(v.fault for v in found),
        )
        if verdict is not None and not verdict.explained:
            shown.insert(0, f"not explained by {verdict.describe()}")
        return CheckResult(
            check.name,
            check.cites,
            check.kind,
            XFAIL if expected else FAILED,
            seen.get("until_failure", seen["examples"]),
            reproducer,
            shown,
            reason,
            output,
            unshrunk,
            # request files reproduce a failure; the paper's known finding on a
            # right answer is none, and a green run leaves nothing behind
            None if expected else candidate.keep_requests(),
            statistics=statistics,
            cause=_cause_record(verdict, seen["explained"]),
            case=_encoded(example),
            short=short_form(example),
            terms=next((list(v.terms) for v in found if v.terms), []),
            reproducer_call=calling_reproducer(check, candidate.path, example, reproducer),
        )
    if out_of_budget:  # some examples passed, but the check did not finish: no verdict
        return CheckResult(
            check.name,
            check.cites,
            check.kind,
            NOT_RUN,
            seen["examples"],
            reason=f"stopped by the time budget after {seen['examples']} examples, before it finished",
            output=output,
            statistics=statistics,
        )
    return CheckResult(
        check.name,
        check.cites,
        check.kind,
        XPASS if reason else PASSED,
        seen["examples"],
        reason=reason,
        output=output,
        statistics=statistics,
    )


_BUDGET_BEFORE = "the time budget was spent before it started"


def _with_deadline(body, deadline: float | None):
    """body, checking the budget before each example. Not by a line in body itself:
    Hypothesis keys its example database (fuzz's) by a digest of the test function's
    source, so any edit of body would orphan every saved failure. The wrapper keeps body's digest (functools.wraps: inspect.getsource and the
    signature follow __wrapped__), and without a deadline body is used as it is."""
    if deadline is None:
        return body

    @functools.wraps(body)
    def budgeted(example):
        check_budget(deadline)
        return body(example)

    return budgeted


def _encoded(example) -> dict | None:
    try:
        return encode_example(example)
    except Exception:  # an example that neither serialises nor pickles: the reproducer remains
        return None


def _cause_record(verdict: Verdict | None, explained: int) -> dict | None:
    if verdict is None:
        return None
    return {**verdict.to_json(), "explained_counterexamples": explained}


def run_statistics(seconds: float, engine: dict) -> dict:
    """JSON-ready statistics of one run: its wall-clock seconds and, when Hypothesis's
    engine ran, per phase (reuse: the example database; generate; shrink) the examples it
    tried by outcome and the phase's seconds, and why it stopped. Hypothesis documents the
    shape of its statistics as unstable (hypothesis.statistics.describe_statistics), so
    every key is read defensively."""
    found = {"seconds": round(seconds, 3)}
    for phase in ("reuse", "generate", "shrink"):
        data = engine.get(f"{phase}-phase") or {}
        cases = data.get("test-cases") or []
        if not cases:
            continue
        outcomes = Counter(case.get("status") for case in cases)
        summary = {
            "examples": len(cases),
            "passing": outcomes["valid"],
            "failing": outcomes["interesting"],
            "invalid": outcomes["invalid"] + outcomes["overrun"],
            "seconds": round(float(data.get("duration-seconds", 0.0)), 3),
        }
        if phase == "shrink" and "shrinks-successful" in data:
            summary["successful"] = data["shrinks-successful"]
        found[phase] = summary
    if engine.get("stopped-because"):
        found["stopped_because"] = str(engine["stopped-because"])
    return found


def _to_stderr(text: str) -> None:
    if command_line.interrupted():  # Hypothesis's "reproduce with @seed(...)" for a Ctrl-C is noise
        return
    print(text, file=sys.stderr)
