"""The public names of CONTRACT.md for the fast path, in tape mode and in counts mode.

Tape mode takes the same tapes as the reference (a reference.Tape, or its array form
fast.TapeArrays, which fast.sample_tape produces directly) and returns the reference's
trace dataclasses. Counts mode (`*_counts`) takes the environment instead of a tape.
`raw=True` returns the engine's numpy records (fast/passive.py, fast/robust_cal.py,
fast/calruption.py) without building the Fraction-valued trace.

CALruption's entry points take `backend=` ("numpy", "array-api-strict", "torch",
"cupy", or "name:device") and `device=`: the array library and device of the per-pair
statistics (fast/backends.py); the default is $CRAL_FAST_BACKEND, else numpy. The result
does not depend on it: the statistics are exact integers on every backend."""

from __future__ import annotations

import numpy as np

from reference.calruption import EpochCounts, EpochState, check_epoch_inputs
from reference.empirical import check_params_match
from reference.instance import validate_hypotheses
from reference.params import Params
from reference.tape import Tape

from . import convert, tape_mode
from . import counts as counts_mode
from .backends import get_backend
from .calruption import State, calruption_run, epoch_update
from .constants import FloatParams
from .hypotheses import as_matrix
from .matrix_instance import MatrixInstance
from .passive import passive_run
from .precision import FLOAT
from .robust_cal import robust_cal_run
from .tape import TapeArrays, from_tape


def _inputs(hypotheses, tape, params):
    H = as_matrix(hypotheses)
    if isinstance(tape, Tape):
        tape = from_tape(tape)
    elif not isinstance(tape, TapeArrays):
        raise ValueError(f"tape must be a reference.Tape or a fast.TapeArrays, got {type(tape).__name__}")
    fparams = FloatParams.of(params)
    check_params_match(params, tape.n, H.shape[0])
    top = int(tape.x.max())
    if top >= H.shape[1]:
        raise ValueError(
            f"tape.x[{int(np.argmax(tape.x))}] is {top}, but the hypotheses label only points 0..{H.shape[1] - 1}"
        )
    return H, tape, fparams


def _environment(instance, adversary, params):
    env = counts_mode.Environment(instance, adversary)
    # an Instance validated its hypotheses when it was built (0/1 labels of its m points),
    # so they go straight to an array: validating |H| x m labels again one by one in
    # Python took ~2 s at |H| = m = 1024
    # (a fast.MatrixInstance brings its matrix: at |H| = 16384 the conversion alone is ~12 s)
    H = instance.matrix if isinstance(instance, MatrixInstance) else np.array(instance.hypotheses, dtype=np.int64)
    fparams = FloatParams.of(params)
    check_params_match(params, env.n, H.shape[0], "the adversary")
    return H, env, fparams


def _vanilla(vanilla):
    if not isinstance(vanilla, bool):
        raise ValueError(f"vanilla must be True or False, got {vanilla!r}")
    return vanilla


# -- tape mode -----------------------------------------------------------------------------
def passive(hypotheses, tape, params, *, raw=False):
    H, tape, _ = _inputs(hypotheses, tape, params)
    run = passive_run(H, tape_mode.label_counts(tape, H.shape[1]), tape.n)
    return run if raw else convert.passive_trace(run, params)


def robust_cal(hypotheses, tape, params, vanilla=False, *, raw=False):
    vanilla = _vanilla(vanilla)
    H, tape, fparams = _inputs(hypotheses, tape, params)
    run = robust_cal_run(H, tape.n, fparams, vanilla, tape_mode.interval_counts(tape, H.shape[1]))
    return run if raw else convert.robust_cal_trace(run, params)


def calruption(hypotheses, tape, params, *, raw=False, backend=None, device=None):
    H, tape, fparams = _inputs(hypotheses, tape, params)
    run = calruption_run(H, tape.n, fparams, tape_mode.epoch_counts(tape, H.shape[1]), get_backend(backend, device))
    return run if raw else convert.calruption_trace(run, params, fparams)


def calruption_epoch(hypotheses, state: EpochState, counts: EpochCounts, params: Params, *, backend=None, device=None):
    """One epoch update (lines 7-14) on the reference's state and counts types."""
    backend = get_backend(backend, device)
    H_tuple = validate_hypotheses(hypotheses)
    check_epoch_inputs(H_tuple, state, counts, params)
    fparams = FloatParams.of(params)
    fstate = State(
        state.l,
        state.tau,
        state.length,
        np.array([float(v) for v in state.q], FLOAT),
        np.array([float(v) for v in state.gap_hat], FLOAT),
    )
    record, _ = epoch_update(
        np.array(H_tuple, dtype=np.int64),
        fstate,
        np.array(counts.seen, dtype=np.int64),
        np.array(counts.queried, dtype=np.int64).reshape(-1, 2),
        fparams,
        backend=backend,
    )
    return convert.epoch_record(record, fparams), convert.next_epoch_state(record, fparams)


# -- counts mode ----------------------------------------------------------------------------
def passive_counts(instance, adversary, params, seed, *, raw=False):
    H, env, _ = _environment(instance, adversary, params)
    run = passive_run(H, counts_mode.label_counts(env, np.random.default_rng(seed)), env.n)
    return run if raw else convert.passive_trace(run, params)


def robust_cal_counts(instance, adversary, params, seed, vanilla=False, *, raw=False):
    vanilla = _vanilla(vanilla)
    H, env, fparams = _environment(instance, adversary, params)
    run = robust_cal_run(H, env.n, fparams, vanilla, counts_mode.interval_counts(env, np.random.default_rng(seed)))
    return run if raw else convert.robust_cal_trace(run, params)


def calruption_counts(
    instance,
    adversary,
    params,
    seed,
    *,
    raw=False,
    backend=None,
    device=None,
    timings=None,
    keep_pairs=True,
    workers=1,
    resident=None,
):
    """Counts mode: the draws on the host (numpy's Generator, the same counts for a seed on
    every backend), the pair statistics on `backend`/`device`. `timings`, a dict, gains
    the seconds of each line's part (fast.calruption.epoch_update); keep_pairs=False (with
    raw=True only: the trace needs them) keeps no |H| x |H| field of the epochs
    (fast.calruption.calruption_run); workers > 1: line 8 on that many threads;
    `resident` (fast.calruption.calruption_run): the pair arrays of a nested class kept on
    the device (None: on a GPU)."""
    if not keep_pairs and not raw:
        raise ValueError("keep_pairs=False needs raw=True: the trace reports every pair's fields")
    backend = get_backend(backend, device)
    H, env, fparams = _environment(instance, adversary, params)
    run = calruption_run(
        H,
        env.n,
        fparams,
        counts_mode.epoch_counts(env, np.random.default_rng(seed)),
        backend,
        timings=timings,
        keep_pairs=keep_pairs,
        workers=workers,
        resident=resident,
    )
    return run if raw else convert.calruption_trace(run, params, fparams)
