"""`check`'s loop over the checks: in turn in the judge's process (-j 1) or on worker
processes (-j N, properties/run/parallel.py), the results in the registry's order either way."""

from __future__ import annotations

import sys

from properties.core.progress import CheckProgress
from properties.reports import xfails_file
from properties.run.parallel import CandidateSpec, run_parallel
from properties.run.runner import run_check
from reference import command_line


def run_in_turn(args, candidate, checks: dict, lists, base_seed: int, deadline) -> list:
    """The checks one after another in the judge's process (`check -j 1`), in the registry's
    order, with a progress line each."""
    results = []
    for i, check in enumerate(checks.values(), start=1):
        command_line.raise_if_interrupted()
        with CheckProgress(i, len(checks), check.name) as progress:
            skip = lists.skip_of(check.name)
            if skip is not None:  # the candidate's skip: not run
                result = xfails_file.skipped_result(check, skip)
            else:
                result = xfails_file.apply(
                    run_check(
                        check,
                        candidate,
                        quick=args.quick,
                        seed=base_seed,
                        progress=progress.update,
                        deadline=deadline,
                    ),
                    lists,
                )
            command_line.raise_if_interrupted()  # no verdict after Ctrl-C, even one a check swallowed
            progress.finish(f"{result.status} ({result.examples} examples)")
        results.append(result)
    return results


def run_on_workers(args, candidate, checks: dict, lists, profile: str, jobs: int, base_seed: int, deadline) -> list:
    """The checks on `jobs` worker processes (properties/run/parallel.py), each loading the
    candidate as `candidate` was loaded; the results in the registry's order."""
    skipped = {name: lists.skip_of(name) for name in checks}
    to_run = {name: check for name, check in checks.items() if skipped[name] is None}
    spec = CandidateSpec(
        args.impl,
        args.candidate_cmd,
        True if args.isolate else False if args.in_process else None,
        args.timeout,
        args.memory_limit,
        args.tape_format,
        args.keep_requests,
        getattr(candidate, "description", None),
    )
    done = []

    def on_done(name, finished):
        command_line.raise_if_interrupted()
        done.append(name)
        result = finished.result
        print(f"[{len(done)}/{len(to_run)}] {name} ... {result.status} ({result.examples} examples)", file=sys.stderr)

    print(f"{len(to_run)} checks on {jobs} worker processes (-j {jobs})", file=sys.stderr)
    finished = run_parallel(to_run, spec, profile, jobs, base_seed, deadline, on_done, quick=args.quick)
    command_line.raise_if_interrupted()
    results = []
    for name, check in checks.items():
        if skipped[name] is not None:
            results.append(xfails_file.skipped_result(check, skipped[name]))
            continue
        one = finished[name]
        candidate.note_ignored(one.ignored)
        if one.normalised and hasattr(candidate, "normalised"):
            candidate.normalised.update(one.normalised)
        if one.kept_root and one.kept_root != candidate.kept_root:
            print(f"request files of failing calls kept under {one.kept_root}", file=sys.stderr)
        results.append(xfails_file.apply(one.result, lists))
    return results


__all__ = ["run_in_turn", "run_on_workers"]
