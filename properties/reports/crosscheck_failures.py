"""Saved failing cross-check runs and their replay (`python -m properties replay FILE`).

`crosscheck` writes one failure file (properties/reports/saved.py's format, `kind` "crosscheck")
per failing (case, algorithm) -- at most SAVED_PER_ALGORITHM per algorithm, the first
ones, so a candidate broken everywhere does not write a file per case -- holding the case
(its own JSON form), its index in the fixed set and the set's seed, the candidate (import
path or command), the mismatches and the one-line reproducer. Only an algorithm whose
verdict is *failed* has its runs saved: a run the candidate's xfails file expects to
mismatch is not a failing case of the run.

Replaying re-runs the cross-check of that one algorithm on that one case
(properties/checks/crosscheck.py: crosscheck_case, the same stepwise comparison and tolerance table)
on the recorded candidate or another one, and prints the verdict: exit 1 while it still
mismatches, 0 once it agrees."""

from __future__ import annotations

import time

from properties.core.outcomes import FAILED
from properties.reports.saved import FORMAT, VERSION, encode_example, results_folder, write_new

SAVED_PER_ALGORITHM = 3
KIND = "crosscheck"


def failure_document(run, case, candidate, cmd: str | None, *, seed: int, large: bool, status: str) -> dict:
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": KIND,
        "check": f"crosscheck_{run.algorithm}",
        "algorithm": run.algorithm,
        "verdict": status,
        "case_index": run.case_index,
        "case_set": {"seed": seed, "large": large},
        "mismatches": [{"message": v.message, "values": v.values} for v in run.mismatches],
        "candidate": {
            "impl": None if cmd else candidate.path,
            "cmd": cmd,
            "arithmetic": getattr(candidate, "arithmetic", None),
        },
        "case": encode_example(case),
        "reproducer": run.reproducer,
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def save_crosscheck_failures(
    summary, cases, statuses: dict, candidate, cmd: str | None, folder: str, *, seed: int, large: bool
) -> dict:
    """Write the first SAVED_PER_ALGORITHM failing runs of each failed algorithm;
    {(algorithm, case index): path}. Nothing is written (not even the folder) when none
    failed."""
    chosen, per_algorithm = [], {}
    for run in summary.reports:
        if (
            run.mismatches
            and statuses.get(run.algorithm, (None,))[0] == FAILED
            and per_algorithm.get(run.algorithm, 0) < SAVED_PER_ALGORITHM
        ):
            per_algorithm[run.algorithm] = per_algorithm.get(run.algorithm, 0) + 1
            chosen.append(run)
    if not chosen:
        return {}
    root, stamp = results_folder(folder)
    written = {}
    for run in chosen:
        doc = failure_document(
            run, cases[run.case_index], candidate, cmd, seed=seed, large=large, status=statuses[run.algorithm][0]
        )
        written[run.algorithm, run.case_index] = write_new(
            root, f"crosscheck_{run.algorithm}-case{run.case_index}-{stamp}", doc
        )
    return written


__all__ = ["KIND", "SAVED_PER_ALGORITHM", "failure_document", "save_crosscheck_failures"]
