"""Running a campaign's tasks on Dask distributed, writing each finished row at once.

By default an embedded LocalCluster: one worker process per core, one thread each (the
tasks are CPU-bound Python). `--scheduler tcp://HOST:PORT` (or $CRAL_DASK_SCHEDULER)
connects to an existing Dask cluster instead, unchanged; its workers need this package
installed. Dask does the scheduling, retries on lost workers and load balancing; this
module only submits, collects and records.

Only the client writes the results file, one row per finished task, synced as it lands
(results.ResultsFile): a crash, a kill or Ctrl-C loses nothing finished, and the next run
of the same spec runs only the tasks without a row (a task whose row is an error is run
again). `--minutes` stops submitting work when the budget is spent and cancels what is
still running; Ctrl-C does the same and exits 130."""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from properties.campaign.results import ResultsFile
from properties.campaign.seeds import task_seed
from reference.command_line import require

SCHEDULER_ENV = "CRAL_DASK_SCHEDULER"
LOOPBACK = "127.0.0.1"  # every server of the embedded cluster listens here only
POLL_S = 0.2
PLAIN_PROGRESS_EVERY_S = 30.0  # progress lines when stderr is not a terminal
clock = time.monotonic  # the --minutes budget's clock (a test moves it instead of waiting)


@functools.cache
def _code_version() -> str:
    from properties.campaign.results import code_version

    return code_version()


def run_row(kind: str, spec: dict, digest: str, key: str, params: dict, seed: int, database: str | None) -> dict:
    """One task on a worker, as its results row; an exception is the row's "error" (the
    campaign goes on, and the task is run again on the next run)."""
    started = time.perf_counter()
    row = {"task": key, "spec": digest, "code_version": _code_version(), "params": params, "seed": seed}
    try:
        if kind == "fuzz":
            from properties.campaign.fuzz import run_fuzz_task

            row["result"] = run_fuzz_task(spec, params, seed, database)
        elif kind == "theory":  # theory against practice: properties/campaign/sweeps.py
            from .sweeps import run_sweep_task

            row["result"] = run_sweep_task(spec, params, seed)
        else:
            from properties.campaign.experiments import run_task

            row["result"] = run_task(spec, params, seed)
    except Exception as error:
        row["error"] = f"{type(error).__name__}: {error} | " + " | ".join(
            traceback.format_exc().strip().splitlines()[-6:]
        )
    row["seconds"] = round(time.perf_counter() - started, 3)
    return row


@dataclass
class Outcome:
    total: int
    done_before: int
    ran: int
    failures: int  # rows the campaign counts as failures (a failing check; a task's error)
    stopped: str  # "complete", "time budget" or "interrupted"
    seconds: float


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


class _Progress:
    """One line on stderr: rewritten in place on a terminal, printed now and then otherwise."""

    def __init__(self, total: int, done_before: int, quiet: bool):
        self.total, self.done_before, self.quiet = total, done_before, quiet
        self.tty = sys.stderr.isatty()
        self.started = self.last_line = time.monotonic()

    def update(self, ran: int, failures: int, final: bool = False) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        if not final and not self.tty and now - self.last_line < PLAIN_PROGRESS_EVERY_S:
            return
        self.last_line = now
        elapsed = now - self.started
        done = self.done_before + ran
        remaining = self.total - done
        eta = f"ETA {_duration(elapsed / ran * remaining)}" if ran and remaining else ""
        text = (
            f"{done}/{self.total} tasks done ({ran} this run), {failures} failure{'s' * (failures != 1)}, "
            f"{_duration(elapsed)} elapsed{', ' + eta if eta else ''}"
        )
        if self.tty:
            print(f"\r{text}\033[K", end="\n" if final else "", file=sys.stderr, flush=True)
        else:
            print(text, file=sys.stderr, flush=True)


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _client(workers: int, scheduler: str | None, quiet: bool):
    """(client, cluster or None, dashboard link or None)."""
    # the `campaign` extra: a base install (judging only) has no Dask (reference/command_line.py)
    distributed = require(
        "distributed", package="dask[distributed]", extra="campaign", needed_by="python -m properties campaign"
    )
    Client, LocalCluster = distributed.Client, distributed.LocalCluster

    if scheduler:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as error:
            raise ValueError(f"--scheduler {scheduler!r}: cannot connect ({type(error).__name__}: {error})") from None
        try:
            link = client.dashboard_link
        except Exception:  # a scheduler without a dashboard
            link = None
        return client, None, link
    # a free port for the scheduler's HTTP server (a second campaign must not collide on 8787);
    # the dashboard on it needs bokeh, which is not a dependency: without it no link is shown
    dashboard = importlib.util.find_spec("bokeh") is not None
    # Ctrl-C in a terminal reaches the whole process group: the workers, started while
    # SIGINT is ignored, keep ignoring it (an interpreter leaves an ignored SIGINT alone),
    # so only this process handles it, by shutting the cluster down
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if _main_thread() else None
    try:
        # loopback only, the dashboard included (Dask's default ":0" listens on every
        # interface): a campaign on a laptop opens no port to the network
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host=LOOPBACK,
            dashboard_address=f"{LOOPBACK}:0",
            silence_logs=logging.CRITICAL,
        )
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    client = Client(cluster)
    return client, cluster, client.dashboard_link if dashboard else None


def execute(
    kind: str,
    name: str,
    spec: dict,
    digest: str,
    task_list,
    results: ResultsFile,
    *,
    is_failure: Callable[[dict], bool],
    workers: int | None = None,
    scheduler: str | None = None,
    minutes: float | None = None,
    database: str | None = None,
    quiet: bool = False,
) -> Outcome:
    """Run every task of `task_list` that has no row in `results` yet; rows are appended as
    tasks finish. KeyboardInterrupt is caught: the outcome says "interrupted"."""
    started = clock()
    finished = results.finished()
    todo = [task for task in task_list if task.key not in finished]
    failures_before = sum(is_failure(row) for key, row in finished.items())
    total = len(task_list)
    progress = _Progress(total, total - len(todo), quiet)
    if not quiet:
        where = (
            f"the Dask cluster at {scheduler}"
            if scheduler
            else f"{workers} local worker process" + ("es" if workers != 1 else "")
        )
        resumed = f", {total - len(todo)} already done in {results.path}" if len(todo) < total else ""
        print(f"campaign {name}: {total} tasks{resumed}; running {len(todo)} on {where}", file=sys.stderr, flush=True)
    if not todo:
        return Outcome(total, total, 0, failures_before, "complete", 0.0)
    deadline = None if minutes is None else started + 60 * minutes
    ran, failures, stopped = 0, failures_before, "complete"
    client = cluster = None
    pending: list = []
    # Dask's own log lines (a comm closed while the cluster shuts down after Ctrl-C or the
    # budget, lost data of cancelled tasks) are not the campaign's: every task's outcome
    # is a row (a lost worker's too), so they stay off stderr while the campaign runs
    quiet_dask = _QuietDaskLogs()
    try:
        client, cluster, link = _client(workers, scheduler, quiet)
        if link and not quiet:
            print(f"Dask dashboard: {link}", file=sys.stderr, flush=True)
        from distributed import as_completed

        pending = [
            client.submit(
                run_row,
                kind,
                spec,
                digest,
                task.key,
                task.params,
                task_seed(spec["master_seed"], task.key),
                database,
                pure=False,
                priority=len(todo) - i,
            )
            for i, task in enumerate(todo)
        ]
        waiting = as_completed(pending)
        remaining = set(pending)
        while remaining:
            if deadline is not None and clock() >= deadline:
                stopped = "time budget"
                break
            if not waiting.has_ready():
                time.sleep(POLL_S)
                progress.update(ran, failures)
                continue
            for future in waiting.next_batch(block=False):
                remaining.discard(future)
                try:
                    row = future.result()
                except Exception as error:  # the worker died under it (Dask's retries spent)
                    row = _lost_row(future, todo, pending, digest, spec, error)
                results.append(row)
                ran += 1
                failures += is_failure(row)
                progress.update(ran, failures)
    except KeyboardInterrupt:
        stopped = "interrupted"
    finally:
        if client is not None and cluster is None:  # someone else's cluster: free it of ours, then leave
            try:
                client.cancel([f for f in pending if not f.done()])
            except Exception:
                pass
            client.close()
        elif client is not None:
            if stopped != "complete":
                # stop now, not when the running tasks end (their rows are not kept): the
                # worker processes are killed before the cluster is closed, which would
                # otherwise wait for each worker to finish its task
                _kill_workers(cluster)
            # our own cluster goes first, scheduler and workers: closing the client first
            # leaves the scheduler writing updates to a closed connection
            cluster.close()
            client.close()
        quiet_dask.restore()
    progress.update(ran, failures, final=True)
    return Outcome(total, total - len(todo), ran, failures, stopped, clock() - started)


def _kill_workers(cluster) -> None:
    """SIGKILL the local cluster's worker processes (each nanny's child)."""
    for nanny in list(getattr(cluster, "workers", {}).values()):
        process = getattr(getattr(nanny, "process", None), "process", None)
        pid = getattr(process, "pid", None)
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


class _QuietDaskLogs:
    """Every `distributed` logger silenced until restore(): the scheduler's children carry
    levels of their own (Dask's logging config), so the parent's level is not enough, and
    a comm closed during shutdown is logged at CRITICAL itself."""

    def __init__(self):
        names = ["distributed"] + [name for name in logging.root.manager.loggerDict if name.startswith("distributed.")]
        self.levels = {name: logging.getLogger(name).level for name in names}
        for name in names:
            logging.getLogger(name).setLevel(logging.CRITICAL + 10)

    def restore(self) -> None:
        for name, level in self.levels.items():
            logging.getLogger(name).setLevel(level)


def _lost_row(future, todo, pending, digest, spec, error) -> dict:
    task = todo[pending.index(future)]
    return {
        "task": task.key,
        "spec": digest,
        "code_version": _code_version(),
        "params": task.params,
        "seed": task_seed(spec["master_seed"], task.key),
        "error": f"{type(error).__name__}: {error}",
        "seconds": None,
    }
