"""`check -j N`: the checks on N worker processes at once.

Each worker is a fresh interpreter (multiprocessing's "spawn": nothing of the judge's
state is inherited) that loads the candidate the way the command line does -- its own
isolated worker for a module, its own program (or served process) for a command -- and
runs whole checks, one at a time, as they are handed out. A check's result does not depend
on the worker that ran it nor on what ran before it there: each check gets its seed from
the run's base seed and its id alone (properties.core.seeds.check_seed), and
its known examples come first, as in a serial run. The report keeps the registry's order,
whatever order the checks finish in.

What the candidate tells the judge along the way (fields it ignored, representations read
as the reference's, where request files were kept) comes back with each result and is
added to the judge's own candidate, so the report says what a serial run says."""

from __future__ import annotations

import collections
import multiprocessing
import os
import queue
import signal
import traceback
from dataclasses import dataclass

# checks of these kinds run a fixed, long experiment: handed out first, so that no worker
# starts one when the others are nearly done (the report's order is unaffected)
LONG_KINDS = ("counterexample", "statistical")


def default_jobs() -> int:
    """The cores this process may run on (sched_getaffinity where there is one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class CandidateSpec:
    """How to load the candidate again in a worker: load_candidate's arguments."""

    impl: str | None
    cmd: str | None
    isolate: bool | None
    timeout: float | None
    memory_limit: int | None
    tape_format: str = "auto"
    keep_dir: str | None = None
    # a command's describe answer, as the judge's own candidate got it: each worker's
    # candidate takes it instead of starting the program once more to ask
    described: dict | None = None

    def load(self):
        from properties.judge.load import load_candidate

        return load_candidate(
            self.impl,
            self.cmd,
            isolate=self.isolate,
            timeout=self.timeout,
            memory_limit=self.memory_limit,
            tape_format=self.tape_format,
            keep_dir=self.keep_dir,
            described=self.described,
        )


@dataclass
class Finished:
    """One check's result from a worker, with what the candidate noted while it ran."""

    name: str
    result: object  # CheckResult
    ignored: dict  # field path -> calls (Candidate.ignored_fields)
    normalised: dict  # representation -> times (CommandCandidate.normalised)
    kept_root: str | None


class WorkerFailed(RuntimeError):
    """A worker could not load the candidate, or the judge's own code raised in it."""


def schedule(checks: dict) -> list[str]:
    """The order in which checks are handed out: long experiments first, then the rest in
    the registry's order."""
    names = list(checks)
    return [n for n in names if checks[n].kind in LONG_KINDS] + [n for n in names if checks[n].kind not in LONG_KINDS]


def _counts(counter) -> collections.Counter:
    return collections.Counter(dict(counter or {}))


def _worker(spec: CandidateSpec, profile: str, tasks, results) -> None:
    # the judge decides what an interrupt means; a worker stops when it is told to
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(143))
    try:
        from properties.checks.registry import all_checks
        from properties.core import profiles
        from properties.run.runner import run_check

        profiles.load(profile)
        checks = all_checks()
        candidate = spec.load()
    except BaseException:
        results.put(("error", None, traceback.format_exc()))
        return
    with candidate:
        while True:
            task = tasks.get()
            if task is None:
                break
            name, seed, quick, deadline = task
            ignored_before = _counts(candidate.ignored_fields)
            normalised_before = _counts(getattr(candidate, "normalised", None))
            try:
                result = run_check(checks[name], candidate, seed=seed, quick=quick, deadline=deadline)
            except BaseException:
                results.put(("error", name, traceback.format_exc()))
                return
            ignored = _counts(candidate.ignored_fields) - ignored_before
            normalised = _counts(getattr(candidate, "normalised", None)) - normalised_before
            results.put(("done", name, Finished(name, result, dict(ignored), dict(normalised), candidate.kept_root)))


def run_parallel(
    checks: dict, spec: CandidateSpec, profile: str, jobs: int, base_seed, deadline, on_done=None, quick: bool = False
):
    """{name: Finished} for every check of `checks` (a name -> Check mapping), run on
    `jobs` worker processes. `base_seed` is the run's base seed (each check draws from it and
    its id; None: the profile's); `quick`: `check --quick`;
    `on_done(name, finished)` is called in the judge as each check finishes."""
    context = multiprocessing.get_context("spawn")
    tasks, results = context.Queue(), context.Queue()
    order = schedule(checks)
    for name in order:
        tasks.put((name, base_seed, quick, deadline))
    count = max(1, min(jobs, len(order)))
    for _ in range(count):
        tasks.put(None)
    workers = [context.Process(target=_worker, args=(spec, profile, tasks, results), daemon=True) for _ in range(count)]
    for worker in workers:
        worker.start()
    finished: dict = {}
    try:
        while len(finished) < len(order):
            try:
                kind, name, payload = results.get(timeout=0.5)
            except queue.Empty:
                if not any(worker.is_alive() for worker in workers):
                    missing = [n for n in order if n not in finished]
                    raise WorkerFailed(
                        f"every worker process ended before {len(missing)} check(s) finished: {', '.join(missing[:5])}"
                    ) from None
                continue
            if kind == "error":
                where = f" running {name}" if name else " loading the candidate"
                raise WorkerFailed(f"a worker process failed{where}:\n{payload}")
            finished[name] = payload
            if on_done is not None:
                on_done(name, payload)
        for worker in workers:
            worker.join(timeout=30)
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
        for worker in workers:
            worker.join(timeout=5)
        tasks.cancel_join_thread()
        results.cancel_join_thread()
    return finished


__all__ = ["CandidateSpec", "Finished", "WorkerFailed", "default_jobs", "run_parallel", "schedule"]
