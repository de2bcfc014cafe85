"""`python -m properties replay FILE`: re-run exactly the check (or the cross-check's
run) that a saved failure file records (properties/reports/saved.py), on exactly its case,
on the recorded candidate or another one, and print the verdict: exit 1 while the case
still fails, 0 once it passes."""

from __future__ import annotations

import os

from properties.checks.causes import CAUSES, classify
from properties.checks.crosscheck import ALGORITHMS, crosscheck_case
from properties.checks.registry import EXPECTED_FAILURES, all_checks
from properties.core.outcomes import FAILED, PASSED, XFAIL, XPASS
from properties.judge.load import load_candidate
from properties.reports.saved import decode_example, load_failure, recorded_candidate
from properties.run.runner import _FatalCall, violations_of
from reference.report_vocabulary import CASE_TAG


def verdict_of(check, candidate, example):
    """(status, violations as text) of one check on one example, as run_check decides it."""
    reason = EXPECTED_FAILURES.get(check.name)
    try:
        found = violations_of(check, candidate, example)
    except _FatalCall as stop:
        found = [stop.args[0]]
    if not found:
        return (XPASS if reason else PASSED), []
    shown = [str(v) for v in found]
    expected = reason is not None and not any(v.fault for v in found)
    cause = CAUSES.get(check.name) if expected else None
    if cause is not None:
        verdict = classify(cause, candidate, example, found)
        if not verdict.explained:
            expected = False
            shown.insert(0, f"not explained by {verdict.describe()}")
    return (XFAIL if expected else FAILED), shown


def replay(path: str, impl: str | None, cmd: str | None, *, timeout=None, in_process: bool = False, out=print) -> int:
    """Re-run the saved case's check (or cross-check run); 1 while it still fails (failed
    or expected failure), 0 when it passes."""
    doc = load_failure(path)
    if doc["kind"] == "crosscheck":
        return replay_crosscheck(doc, path, impl, cmd, timeout=timeout, in_process=in_process, out=out)
    checks = all_checks()
    if doc.get("check") not in checks:
        raise ValueError(f"replay: {path}: check {doc.get('check')!r} is not a check of this suite")
    check = checks[doc["check"]]
    example = decode_example(doc.get("case"), f"replay: {path}")
    impl, cmd = recorded_candidate(doc, path, impl, cmd, "--impl or --candidate-cmd")
    isolate = False if in_process else None
    with load_candidate(impl, cmd, isolate=isolate, timeout=timeout) as candidate:
        status, shown = verdict_of(check, candidate, example)
    out(f"{check.name} on {candidate.path} ({os.path.basename(path)}): {status} (recorded: {doc.get('verdict')})")
    for line in shown[:3]:
        out(f"  {line}")
    return 1 if status in (FAILED, XFAIL) else 0


def replay_crosscheck(
    doc: dict, path: str, impl: str | None, cmd: str | None, *, timeout=None, in_process: bool = False, out=print
) -> int:
    """Re-run the saved (case, algorithm) of the cross-check; 1 while it mismatches, 0 when
    it agrees."""
    algorithm, index = doc.get("algorithm"), doc.get("case_index")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"replay: {path}: algorithm {algorithm!r} is not one of {', '.join(ALGORITHMS)}")
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise ValueError(f"replay: {path}: case_index must be an integer >= 0, got {index!r}")
    case = decode_example(doc.get("case"), f"replay: {path}", (CASE_TAG,))  # a cross-check runs whole cases
    impl, cmd = recorded_candidate(doc, path, impl, cmd, "--candidate/--impl or --candidate-cmd")
    isolate = False if in_process else None
    with load_candidate(impl, cmd, isolate=isolate, timeout=timeout) as candidate:
        if candidate.declares_modes and not candidate.implements(algorithm):
            raise ValueError(f"replay: {candidate.path} does not implement {algorithm}")
        (run,) = crosscheck_case(candidate, case, index, (algorithm,))
    status = FAILED if run.mismatches else PASSED
    out(
        f"crosscheck_{algorithm} on {candidate.path} ({os.path.basename(path)}), case {index}: {status} "
        f"(recorded: {doc.get('verdict')})"
    )
    if len(run.mismatches) > 3:
        out(f"  {len(run.mismatches)} mismatches, the first 3:")
    for violation in run.mismatches[:3]:
        out(f"  {violation}")
    return 1 if run.mismatches else 0


__all__ = ["replay", "replay_crosscheck", "verdict_of"]
