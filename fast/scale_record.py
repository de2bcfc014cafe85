"""Counts-mode CALruption with a per-epoch record on disk, for the judge at scale
(`python -m properties crosscheck --counts`, properties/scale/).

`calruption_counts_record(instance, adversary, params, seed, directory)` runs exactly
what `calruption_counts(..., raw=True)` runs (same engine, same draws for the same seed)
and writes, per completed epoch l, `epoch_<l>.npz` holding the counts the epoch saw and
queried (which the raw run does not keep: only their total) and every field of its
`Epoch` record. The rounds after the last completed epoch go to `unfinished.npz`. Files,
not plain data: at |H| = 4096 one epoch's pair matrices are ~1 GB, beyond what a reply
of the worker protocol carries (properties/judge/isolation.py); the judge reads them with
numpy's loader without pickles.

Each epoch's file is written as the epoch completes (`calruption_run`'s on_epoch), and the
run keeps no pair field of finished epochs (keep_pairs=False): memory stays at one
epoch's. Returns plain data: the run's scalars, the files, and the seconds the run itself
took (writing the record excluded), which the judge's cost is measured against."""

from __future__ import annotations

import os
import time

import numpy as np

from . import counts as counts_mode
from .api import _environment
from .calruption import calruption_run

RECORD_FORMAT = "cral-counts-record"
RECORD_VERSION = 1
EPOCH_FIELDS = (
    "l",
    "tau",
    "length",
    "q",
    "labels_requested",
    "seen",
    "rho_counts",
    "min_q",
    "alpha",
    "W",
    "weight",
    "eta_hat",
    "lp_objective",
    "risk_hat",
    "h_star_hat",
    "gap_hat",
    "layers",
    "next_q",
)


def calruption_counts_record(instance, adversary, params, seed, directory):
    if not isinstance(directory, str) or not os.path.isdir(directory):
        raise ValueError(f"directory must be an existing folder, got {directory!r}")
    H, env, fparams = _environment(instance, adversary, params)
    draw = counts_mode.epoch_counts(env, np.random.default_rng(seed))
    drawn = []  # (start, end, seen, queried) of the last call: an epoch's, then the unfinished rest's
    files = []
    writing = [0.0, 0.0]  # wall and CPU seconds spent writing, taken off the run's

    def epoch_counts(start, end, q):
        seen, queried = draw(start, end, q)
        drawn[:] = [(start, end, seen.copy(), queried.copy())]
        return seen, queried

    def write(epoch):  # as each epoch completes: the run keeps no pair field of finished epochs
        wall, cpu = time.perf_counter(), time.process_time()
        start, end, _, queried = drawn[0]
        assert (start, end) == (epoch.tau, epoch.tau + epoch.length - 1)
        path = os.path.join(directory, f"epoch_{epoch.l:03d}.npz")
        np.savez(path, queried=queried, **{name: np.asarray(getattr(epoch, name)) for name in EPOCH_FIELDS})
        files.append(os.path.basename(path))
        writing[0] += time.perf_counter() - wall
        writing[1] += time.process_time() - cpu

    started = time.perf_counter()
    cpu = time.process_time()
    run = calruption_run(H, env.n, fparams, epoch_counts, on_epoch=write, keep_pairs=False)
    seconds = time.perf_counter() - started - writing[0]
    cpu_seconds = time.process_time() - cpu - writing[1]
    unfinished = None
    if run.unfinished_rounds:
        start, end, seen, queried = drawn[0]
        q = run.epochs[-1].next_q if run.epochs else np.ones(H.shape[1])
        np.savez(os.path.join(directory, "unfinished.npz"), start=start, end=end, seen=seen, queried=queried, q=q)
        unfinished = "unfinished.npz"
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "n": run.n,
        "final_epoch": run.final_epoch,
        "unfinished_rounds": run.unfinished_rounds,
        "labels_requested": run.labels_requested,
        "output": run.output,
        "epochs": files,
        "unfinished": unfinished,
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
    }
