"""What a run says about a check: its status (STATUSES) and its result (CheckResult),
and the algorithms the cross-check compares. Here, below the runner that decides them
(properties/run/runner.py), the reports that write them (properties/reports/) and the
cross-check (properties/checks/crosscheck.py), because all of them name the same values."""

from __future__ import annotations

from dataclasses import dataclass, field

# the words the published schemas name (NOT_RUN: the time budget, properties/core/budget.py, ended first)
from reference.report_vocabulary import FAILED, NOT_APPLICABLE, NOT_RUN, PASSED, STATUSES, XFAIL, XPASS

# the algorithms `crosscheck` compares, one id `crosscheck_<algorithm>` each
ALGORITHMS = ("passive", "robust_cal", "robust_cal_vanilla", "calruption")
BUDGET_SKIP = "not run: the time budget was spent"  # an algorithm the cross-check had no time left for


@dataclass
class CheckResult:
    name: str
    cites: str
    kind: str
    status: str
    examples: int
    counterexample: str | None = None
    violations: list[str] = field(default_factory=list)
    reason: str | None = None  # for expected failures and checks that do not apply
    output: dict | None = None  # what the candidate wrote to stdout/stderr during the check
    # None when Hypothesis shrank the counterexample to a minimal one; else why not
    unshrunk: str | None = None
    # a command candidate's request files of the minimal example (docs/protocol.md): a
    # reproducer in any language
    requests: list[str] | None = None
    # how the run went (run_statistics): seconds, and Hypothesis's own per-phase counts
    statistics: dict | None = None
    # an expected failure's counterexample classified by its finding's cause
    # (properties/checks/causes.py), and how many explained counterexamples the search saw
    cause: dict | None = None
    # the line of the candidate's own xfails or skips file that applied (properties/reports/xfails_file.py)
    listed: dict | None = None
    # the failing example as data (properties/reports/saved.py: encode_example) and a one-line
    # description of it for the table; the full reproducer is `counterexample`
    case: dict | None = None
    short: str | None = None
    # the formula breakdown, term by term, of the first violation that has one (properties/core/terms.py), or []
    terms: list = field(default_factory=list)
    # the reproducer that calls the candidate's own function (properties/reports/reproducer.py), or None
    reproducer_call: str | None = None

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "cites": self.cites,
            "kind": self.kind,
            "status": self.status,
            "examples": self.examples,
            "counterexample": self.counterexample,
            "violations": self.violations,
            "reason": self.reason,
            "candidate_output": self.output,
            "unshrunk": self.unshrunk,
            "requests": self.requests,
            "statistics": self.statistics,
            "cause": self.cause,
            "seconds": (self.statistics or {}).get("seconds", 0.0),
            "listed": self.listed,
            "case": self.case,
            "short": self.short,
            "terms": self.terms,
            "reproducer_call": self.reproducer_call,
        }


__all__ = [
    "ALGORITHMS",
    "BUDGET_SKIP",
    "FAILED",
    "NOT_APPLICABLE",
    "NOT_RUN",
    "PASSED",
    "STATUSES",
    "XFAIL",
    "XPASS",
    "CheckResult",
]
