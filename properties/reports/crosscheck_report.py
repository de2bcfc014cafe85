"""The JSON report of `python -m properties crosscheck --json` (schema
reference/schemas/v1/crosscheck-report.schema.json, format `cral-crosscheck-report` v1).

It holds the run's summary -- the candidate's name as a string, `algorithms` (runs,
agreements, divergence counts), `mismatches`, `skipped`, `worst_error_over_tolerance`
(Summary.to_json) and the command's own keys -- with the format, version and code version
(properties/reports/report.py) and `checks`: one entry per algorithm compared or skipped, id `crosscheck_<algorithm>` (the id the candidate's xfails
and skips files use), in the check report's shape where the two overlap (name, status,
failing, listed, reason, counterexample, seconds), so that `compare`
(properties/reports/compare.py) and `--junitxml` (properties/reports/junit.py) read both kinds alike."""

from __future__ import annotations

from properties.checks.free_choices import DIVERGENCE_KINDS
from properties.core.outcomes import NOT_RUN
from properties.reports.first_difference import first_difference
from properties.reports.report import CROSSCHECK_FORMAT, VERSION, code_version
from properties.reports.verdict import crosscheck_verdict
from properties.reports.xfails_file import YOUR_SKIP, status_fails_run


def _failing_runs(reports, algorithm: str, saved: dict) -> list[dict]:
    return [
        {
            "case": r.case_index,
            "mismatches": [{"message": v.message, "values": v.values} for v in r.mismatches],
            "reproduce": r.reproducer,
            "replay_file": saved.get((algorithm, r.case_index)),
            "series": first_difference(r),
        }
        for r in reports
        if r.mismatches
    ]


def _entry(summary, algorithm: str, status: str, listed, lists, saved: dict, row: dict | None) -> dict:
    mine = [r for r in summary.reports if r.algorithm == algorithm]
    runs = _failing_runs(mine, algorithm, saved)
    if listed is not None:
        reason = listed.describe()
    elif status == NOT_RUN:  # why the runs were not made: the budget (a hang is a mismatch of its own)
        reason = next(r.skipped for r in mine if r.skipped)
    else:
        reason = None
    return {
        "name": f"crosscheck_{algorithm}",
        "algorithm": algorithm,
        "status": status,
        "failing": status_fails_run(status, lists.strict_xfail),
        "cases": row["cases"] if row else 0,
        "agreed": row["agreed"] if row else 0,
        "not_run": row["skipped"] if row else 0,
        "divergences": row["divergences"] if row else {kind: 0 for kind in DIVERGENCE_KINDS},
        "cases_with_divergences": row["cases_with_divergences"] if row else 0,
        "seconds": round(sum(r.seconds for r in mine), 3),
        "listed": listed.to_json() if listed is not None else None,
        "reason": reason,
        "counterexample": runs[0]["reproduce"] if runs else None,
        "failing_runs": runs,
    }


def crosscheck_report(
    summary,
    candidate,
    *,
    algorithms,
    statuses: dict,
    skipped: dict,
    lists,
    cases: int,
    seed: int,
    large: bool,
    budget,
    seconds: float,
    output,
    saved: dict | None = None,
) -> dict:
    """The report of one run. `algorithms`: those asked for, in order; `statuses`:
    xfails_file.crosscheck_statuses of the compared ones; `skipped`: {algorithm: the skips
    line} of those not run; `saved`: {(algorithm, case index): failure file}
    (properties/reports/crosscheck_failures.py)."""
    saved = saved or {}
    base = summary.to_json()
    checks = []
    for algorithm in algorithms:
        if algorithm in skipped:
            checks.append(_entry(summary, algorithm, YOUR_SKIP, skipped[algorithm], lists, saved, None))
        elif algorithm in statuses:  # not in either: a command that does not implement it (not compared)
            status, entry = statuses[algorithm]
            checks.append(_entry(summary, algorithm, status, entry, lists, saved, base["algorithms"][algorithm]))
    report = {
        "format": CROSSCHECK_FORMAT,
        "version": VERSION,
        "code_version": code_version(),
        **base,
        "runs_in": candidate.runs_in,
        "isolated": candidate.isolated,
        "candidate_output": output,
        "cases": cases,
        "seed": seed,
        "large": large,
        "seconds": round(seconds, 2),
        "candidate_lists": lists.to_json(),
        "budget": budget,
        "checks": checks,
        # the unknown fields of its results that were ignored (properties/core/representations.py)
        "ignored_fields": dict(sorted((getattr(candidate, "ignored_fields", None) or {}).items())),
    }
    report["verdict"] = crosscheck_verdict(report)  # what the run means (properties/reports/verdict.py)
    return report


__all__ = ["crosscheck_report"]
