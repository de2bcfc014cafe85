"""Small synthetic reports (check and crosscheck) built through the suite's own report
builders, without running a check: for the tests of the verdict sentence and of the HTML
report (tests/properties/reports/test_html_report.py, tests/properties/reports/test_html_browser.py)."""

from __future__ import annotations

from types import SimpleNamespace

from properties.core.outcomes import FAILED, NOT_APPLICABLE, PASSED, XFAIL, CheckResult
from properties.reports.report import check_report
from properties.reports.xfails_file import CandidateLists

FAILING = "check_robust_cal_elimination_recomputed"
TERM_VALUE = "0.4291833303"  # the wrong term's candidate value in the sample's term table
TERMS = [
    {"term": "sqrt(2 beta rho / t)", "candidate": "0.8583666606", "exact": "0.8583666606", "difference": "0"},
    {"term": "3 beta / (2 t)", "candidate": TERM_VALUE, "exact": "0.6437749955", "difference": "-0.2145916652"},
]


def candidate(path: str = "mypkg", arithmetic: str = "exact", declared: bool | None = True):
    return SimpleNamespace(
        path=path,
        runs_in="isolated worker process",
        isolated=True,
        arithmetic=arithmetic,
        arithmetic_declared=declared,
        ignored_fields={},
    )


def results(failing: bool = True) -> list[CheckResult]:
    stats = {"seconds": 0.5}
    found = [
        CheckResult("check_passive_output_is_erm", "Theorem 3.1", "deterministic", PASSED, 25, statistics=stats),
        CheckResult(
            "check_passive_learning_lemma_c1",
            "Appendix C.1, Lemma C.1",
            "lemma",
            XFAIL,
            1,
            counterexample="properties.core.case.Case(...)",
            violations=["check_passive_learning_lemma_c1: the bound is exceeded"],
            reason="FINDINGS F2: Lemma C.1's lines 1-2 are false (corruption term R*/2 too small)",
            statistics=stats,
        ),
        CheckResult(
            "check_sample_tape_law",
            "Section 2",
            "statistical",
            NOT_APPLICABLE,
            0,
            reason="the implementation does not provide sample_tape (optional)",
        ),
    ]
    if failing:
        failure = CheckResult(
            FAILING,
            "Algorithm 1, lines 9-10",
            "deterministic",
            FAILED,
            3,
            counterexample="properties.core.case.Case.from_json(...)",
            violations=[f"{FAILING}: the reported threshold misses the threshold (t = 2, h = 0)"],
            statistics={"seconds": 1.25},
            short="Case: 1 point x 1 hypothesis, n = 2",
        )
        found.insert(1, failure)
    return found


def check_sample(failing: bool = True, terms=TERMS) -> dict:
    """A check report of four checks (one failing, with a term table, unless `failing` is
    false), as `check --json` writes it."""
    report = check_report(candidate(), "ci", 0, 3.5, results(failing), CandidateLists())
    for entry in report["checks"]:
        entry["replay_file"] = None  # as check does when it saved nothing
        if entry["name"] == FAILING and terms is not None:
            entry["terms"] = terms
    return report


def crosscheck_sample() -> dict:
    """A cross-check report of two algorithms, robust_cal failing with a series."""
    from properties.checks.free_choices import DIVERGENCE_KINDS
    from properties.reports.verdict import crosscheck_verdict

    none = {k: 0 for k in DIVERGENCE_KINDS}
    series = {
        "quantity": "threshold[0]",
        "axis": "checkpoint t",
        "points": [{"x": 2**k, "candidate": 1.0 / 2**k, "exact": 1.5 / 2**k} for k in range(1, 9)],
        "at": 2,
    }
    run = {
        "case": 0,
        "mismatches": [
            {
                "message": "robust_cal, checkpoint t = 2 threshold[0]: is outside the tolerance of 'threshold'",
                "values": {"candidate": "1/2", "exact": "3/4", "difference": "-1/4"},
                "terms": TERMS,
            }
        ],
        "reproduce": "properties.core.case.Case.from_json(...)",
        "replay_file": None,
        "series": series,
    }

    def entry(algorithm, failing):
        return {
            "name": f"crosscheck_{algorithm}",
            "algorithm": algorithm,
            "status": FAILED if failing else PASSED,
            "failing": failing,
            "cases": 6,
            "agreed": 0 if failing else 6,
            "not_run": 0,
            "divergences": {**none, "argmin_tie": 0 if failing else 2},
            "cases_with_divergences": 0 if failing else 1,
            "seconds": 0.25,
            "listed": None,
            "reason": None,
            "counterexample": run["reproduce"] if failing else None,
            "failing_runs": [run] if failing else [],
        }

    report = {
        "format": "cral-crosscheck-report",
        "version": 1,
        "code_version": {"package": None, "commit": None, "dirty": None},
        "candidate": "mypkg",
        "arithmetic": "float64",
        "algorithms": {},
        "worst_error_over_tolerance": {"threshold": 3.5e12},
        "skipped": {},
        "mismatches": [],
        "runs_in": "isolated worker process",
        "isolated": True,
        "candidate_output": None,
        "cases": 6,
        "seed": 20261121,
        "large": False,
        "seconds": 1.5,
        "candidate_lists": {"xfails": None, "skips": None, "strict_xfail": False},
        "budget": None,
        "checks": [entry("passive", False), entry("robust_cal", True)],
        "ignored_fields": {},
    }
    report["verdict"] = crosscheck_verdict(report)
    return report
