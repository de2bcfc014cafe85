"""Saved failing cross-check runs and their replay (`python -m properties replay FILE`).

`crosscheck` writes one failure file (properties/reports/saved.py's format, `kind` "crosscheck")
per failing (case, algorithm) -- at most SAVED_PER_ALGORITHM per algorithm, the first
ones, so a candidate broken everywhere does not write a file per case -- holding the case
(its own JSON form), its index in the fixed set and the set's seed, the candidate (import
path or command), the mismatches and the one-line reproducer. Only an algorithm whose
verdict is *failed* has its runs saved: a run the candidate's xfails file expects to
mismatch is not a failing case of the run.

Replaying re-runs the cross-check of that one algorithm on that one case
(properties/crosscheck.crosscheck_case, the same stepwise comparison and tolerance table)
on the recorded candidate or another one, and prints the verdict: exit 1 while it still
mismatches, 0 once it agrees."""
from __future__ import annotations

import os
import time

SAVED_PER_ALGORITHM = 3
KIND = "crosscheck"


def failure_document(run, case, candidate, cmd: str | None, *, seed: int, large: bool, status: str) -> dict:
    from properties.reports.saved import FORMAT, VERSION, encode_example

    return {
        "format": FORMAT, "version": VERSION, "kind": KIND, "check": f"crosscheck_{run.algorithm}",
        "algorithm": run.algorithm, "verdict": status, "case_index": run.case_index,
        "case_set": {"seed": seed, "large": large},
        "mismatches": [{"message": v.message, "values": v.values} for v in run.mismatches],
        "candidate": {"impl": None if cmd else candidate.path, "cmd": cmd,
                      "arithmetic": getattr(candidate, "arithmetic", None)},
        "case": encode_example(case), "reproducer": run.reproducer,
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def save_crosscheck_failures(summary, cases, statuses: dict, candidate, cmd: str | None, folder: str, *, seed: int,
                             large: bool) -> dict:
    """Write the first SAVED_PER_ALGORITHM failing runs of each failed algorithm;
    {(algorithm, case index): path}. Nothing is written (not even the folder) when none
    failed."""
    from properties.run.runner import FAILED

    chosen, per_algorithm = [], {}
    for run in summary.reports:
        if run.mismatches and statuses.get(run.algorithm, (None,))[0] == FAILED \
                and per_algorithm.get(run.algorithm, 0) < SAVED_PER_ALGORITHM:
            per_algorithm[run.algorithm] = per_algorithm.get(run.algorithm, 0) + 1
            chosen.append(run)
    if not chosen:
        return {}
    from properties.reports.saved import results_folder, write_new

    root, stamp = results_folder(folder)
    written = {}
    for run in chosen:
        doc = failure_document(run, cases[run.case_index], candidate, cmd, seed=seed, large=large,
                               status=statuses[run.algorithm][0])
        written[run.algorithm, run.case_index] = write_new(root, f"crosscheck_{run.algorithm}-case{run.case_index}-"
                                                                 f"{stamp}", doc)
    return written


def replay_crosscheck(doc: dict, path: str, impl: str | None, cmd: str | None, *, timeout=None,
                      in_process: bool = False, out=print) -> int:
    """Re-run the saved (case, algorithm) of the cross-check; 1 while it mismatches, 0 when
    it agrees."""
    from properties.core import candidate as harness
    from properties.checks.crosscheck import ALGORITHMS, crosscheck_case
    from properties.core.case import Case
    from properties.reports.saved import decode_example, recorded_candidate
    from properties.run.runner import FAILED, PASSED

    algorithm, index = doc.get("algorithm"), doc.get("case_index")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"replay: {path}: algorithm {algorithm!r} is not one of {', '.join(ALGORITHMS)}")
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise ValueError(f"replay: {path}: case_index must be an integer >= 0, got {index!r}")
    case = decode_example(doc.get("case"), f"replay: {path}")
    if not isinstance(case, Case):
        raise ValueError(f"replay: {path}: case is a {type(case).__name__}, a crosscheck file holds a "
                         "properties.core.case.Case")
    impl, cmd = recorded_candidate(doc, path, impl, cmd, "--candidate/--impl or --candidate-cmd")
    isolate = False if in_process else None
    with harness.load_candidate(impl, cmd, isolate=isolate, timeout=timeout) as candidate:
        if candidate.declares_modes and not candidate.implements(algorithm):
            raise ValueError(f"replay: {candidate.path} does not implement {algorithm}")
        (run,) = crosscheck_case(candidate, case, index, (algorithm,))
    status = FAILED if run.mismatches else PASSED
    out(f"crosscheck_{algorithm} on {candidate.path} ({os.path.basename(path)}), case {index}: {status} "
        f"(recorded: {doc.get('verdict')})")
    if len(run.mismatches) > 3:
        out(f"  {len(run.mismatches)} mismatches, the first 3:")
    for violation in run.mismatches[:3]:
        out(f"  {violation}")
    return 1 if run.mismatches else 0


__all__ = ["KIND", "SAVED_PER_ALGORITHM", "failure_document", "replay_crosscheck", "save_crosscheck_failures"]
