"""CALruption (Algorithm 2), fast path: one epoch update is a handful of matrix products,
blocked so that nothing of size |H|^2 x |X| is ever built (memory O(|H|^2 + |H| |X|)).

Like the reference (reference/calruption.py, whose readings R8-R14 this follows line by
line), the stream enters only through per-epoch counts: `epoch_counts(start, end, q)`
returns for rounds start..end how often each point was seen and, among the rounds whose
coin came up (Q_t = 1 iff u_t < q^{x_t}, line 4), with which label. Tape mode reads them
off a tape, counts mode draws them; both feed `calruption_run`.

Float64 throughout (FLOAT, fast/precision.py), except the schedule (exact integers, see
fast/constants.py) and the counts (int64). Where the reference keeps exact values this path has floats:
rho^ (one rounding), alpha and the weights (a square root of a quotient), the Catoni
root W (safeguarded Newton, fast/catoni.py), the LP of line 9 (HiGHS by row generation,
fast/line9.py: a vertex within its feasibility tolerance), and everything computed from
D^. Per-pair sums over points (min q, Catoni's samples) come from per-q-group matrix
products (fast/pair_stats.py), line 13's max over pairs from a sweep of the pairs in
descending value (same file). The cross-check
(properties/checks/crosscheck.py) holds each against the exact value, with the tolerances of
properties/checks/tolerances.py."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import numpy as np

from .backends import resident_default
from .catoni import catoni_roots
from .constants import FloatParams
from .epoch_device import epoch_update_device
from .epoch_types import Clock, Epoch, State, decide
from .line9 import fit_distribution, risks
from .nested import Nested
from .pair_kernel import PairKernel
from .pair_stats import (
    BLOCK_ELEMENTS,
    disagreement_counts,
    loss_difference_batches,
    min_q_on_disagreement,
    next_query_probabilities,
    q_groups,
)
from .precision import FLOAT
from .workspace import Workspace, array

EpochCountsFn = Callable[[int, int, np.ndarray], tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class CALruptionRun:
    n: int
    epochs: tuple[Epoch, ...]
    final_epoch: int
    unfinished_rounds: int
    labels_requested: int
    output: int


def initial_state(m: int, num_h: int, fparams: FloatParams) -> State:
    """Line 1: tau_1 = 1, q_1 = 1, Delta^^0 = 0."""
    return State(1, 1, fparams.epoch_length(1), np.ones(m, FLOAT), np.zeros(num_h, FLOAT))


def epoch_update(
    H: np.ndarray,
    state: State,
    seen: np.ndarray,
    queried: np.ndarray,
    fparams: FloatParams,
    kernel: PairKernel | None = None,
    *,
    backend=None,
    nested=False,
    timings: dict | None = None,
    workers: int = 1,
    workspace: Workspace | None = None,
):
    """Lines 7-14 at the end of epoch l = state.l; returns (Epoch, next State).

    Memory O(|H|^2 + |H| |X|): pair quantities are |H| x |H| matrices, and whatever runs
    over pairs and points at once goes in blocks (fast/pair_stats.py, fast/line9.py).
    The pair statistics run on `kernel`'s backend (fast/pair_kernel.py; built from H on
    `backend` when not given: a run builds it once). `nested`: H's fast.nested.Nested
    (None: H is not nested; False, the default: found here), which lines 9 and 13 use.
    `timings`, if given, gains the CPU seconds of each part (keys "line 7" .. "line 13").
    workers > 1 solves line 8's Catoni blocks, and line 9's dense passes for a nested
    class, on that many threads (numpy releases the GIL in its loops; the results do not
    depend on it). `workspace`
    (fast/workspace.py): arrays reused from the last epoch where nothing holds them."""
    clock = Clock(timings)
    l, length, q = state.l, state.length, state.q
    num_h, m = H.shape
    if kernel is None:
        kernel = PairKernel(H, backend)
    if nested is False:
        nested = Nested.of(H)
    support = np.flatnonzero(seen > 0)
    p_hat = (seen / length).astype(FLOAT, copy=False)

    pairs = (num_h, num_h)
    rho_counts = disagreement_counts(  # line 7
        kernel, seen, out=array(workspace, "rho_counts", pairs, np.int64), nested=nested
    )
    rho = array(workspace, "rho", pairs, FLOAT)
    np.divide(rho_counts, length, out=rho)  # in float64, then to FLOAT
    clock("line 7")
    groups = q_groups(q, support)
    # nan where rho^ = 0
    min_q = min_q_on_disagreement(
        kernel, seen, groups, rho_counts, out=array(workspace, "min_q", pairs, q.dtype), nested=nested, q=q
    )
    clock("line 8 min q")
    W = array(workspace, "W", pairs, FLOAT)
    W.fill(np.nan)
    np.copyto(W, 0.0, where=rho_counts == 0)  # agrees on all of S_l: W = 0, no LP row
    np.fill_diagonal(W, np.nan)
    active = (rho_counts > 0) & (min_q > 0)  # min q = 0: weight 0, no row
    # alpha = sqrt(2 beta3 mq / (5 |I_l| rho^)) (appendix lemma "Concentration inequality in
    # our case") and weight = sqrt(mq / rho^), in place on the active pairs (nan elsewhere):
    # no |H| x |H| temporary, each a page-fault bill at |H| in the thousands (fast/workspace.py)
    # (computed everywhere, then nan off the active pairs: unmasked loops are the faster)
    inactive = ~active
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = array(workspace, "alpha", pairs, FLOAT)
        np.multiply(min_q, 2 * fparams.beta3, out=alpha)
        weight = array(workspace, "weight", pairs, FLOAT)
        np.multiply(rho, 5 * length, out=weight)
        np.divide(alpha, weight, out=alpha)
        np.sqrt(alpha, out=alpha)
        np.copyto(alpha, np.nan, where=inactive)
        np.divide(min_q, rho, out=weight)
        np.sqrt(weight, out=weight)
        np.copyto(weight, np.nan, where=inactive)
    del inactive
    clock("line 8 weights")
    batches = loss_difference_batches(kernel, groups, queried, length, active)  # line 8
    for ai, aj, roots in _catoni_blocks(batches, alpha, workers):
        W[ai, aj], W[aj, ai] = roots, -roots
    clock("line 8 Catoni")

    # line 9; row generation's spanning tree from the kernel's Hamming distances on S_l
    # (computed only if it runs, and freed before the LP's rounds)
    eta_support, objective = fit_distribution(
        H,
        support,
        p_hat,
        weight,
        W,
        distance=lambda: disagreement_counts(kernel, (seen > 0).astype(np.int64)),
        nested=nested.on(support) if nested is not None else True,
        workspace=workspace,
        workers=workers,
    )
    clock("line 9")
    eta = np.full(m, np.nan, FLOAT)
    eta[support] = eta_support
    risk_hat = risks(H, p_hat, eta, workspace)
    h_star, gap_hat, layers, level = decide(risk_hat, state.gap_hat, fparams.beta2, l)  # lines 10-12
    # line 13: q_{l+1}^x = max over pairs disagreeing at x of rho^ 4^(k - l - 1), k = min level
    clock("lines 10-12")
    pair_value = array(workspace, "pair_value", pairs, FLOAT)
    step = max(1, BLOCK_ELEMENTS // num_h)
    for r0 in range(0, num_h, step):  # by row blocks: no |H| x |H| integer temporary
        r1 = min(num_h, r0 + step)
        k = np.minimum(level[r0:r1, None], level[None, :])
        np.ldexp(rho[r0:r1], 2 * (k - l - 1), out=pair_value[r0:r1])
    next_q = next_query_probabilities(H, pair_value, nested=nested)  # a nested class: fast/pairs_device.py
    clock("line 13")
    record = Epoch(
        l=l,
        tau=state.tau,
        length=length,
        q=q,
        labels_requested=int(queried.sum()),
        seen=seen,
        rho_counts=rho_counts,
        min_q=min_q,
        alpha=alpha,
        W=W,
        weight=weight,
        eta_hat=eta,
        lp_objective=objective,
        risk_hat=risk_hat,
        h_star_hat=h_star,
        gap_hat=gap_hat,
        layers=layers,
        next_q=next_q,
    )
    next_state = State(l + 1, state.tau + length, fparams.epoch_length(l + 1), next_q, gap_hat)  # line 14
    return record, next_state


def _catoni_blocks(batches, alpha: np.ndarray, workers: int):
    """(hi, hj, roots) per block of line 8's problems, batch by batch (fast/pair_stats.py's
    `loss_difference_batches`), here or on `workers` threads: each thread computes a batch's
    counts and solves its blocks (at most 2 x workers batches in flight, results in order)."""

    def solve(batch):
        return [
            (ai, aj, catoni_roots(values, counts, alpha[ai, aj], trusted=True))  # blocks built valid
            for ai, aj, values, counts in batch()
        ]

    if workers <= 1:
        for batch in batches:
            yield from solve(batch)
        return
    with ThreadPoolExecutor(workers) as pool:
        pending: deque = deque()
        for batch in batches:
            pending.append(pool.submit(solve, batch))
            while len(pending) > 2 * workers:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


PAIR_FIELDS = ("rho_counts", "min_q", "alpha", "W", "weight")  # the |H| x |H| fields of an Epoch


def calruption_run(
    H: np.ndarray,
    n: int,
    fparams: FloatParams,
    epoch_counts: EpochCountsFn,
    backend=None,
    timings: dict | None = None,
    *,
    on_epoch: Callable[[Epoch], None] | None = None,
    keep_pairs: bool = True,
    workers: int = 1,
    resident: bool | None = None,
) -> CALruptionRun:
    """The whole run. `on_epoch(record)` sees each epoch as it completes (fast/scale_record.py
    writes it out there); keep_pairs=False drops the |H| x |H| fields (PAIR_FIELDS, set to
    None) from the records the run keeps, after on_epoch: at |H| = 4096 they are 5 x 128 MiB
    an epoch, the bulk of a run's memory. The computation is the same either way.
    `workers`: threads for line 8's Catoni roots (epoch_update). `resident`: whether the
    epochs keep their pair arrays on the backend's device (fast/epoch_device.py, for a
    nested class only); None, the default: $CRAL_FAST_RESIDENT (auto, yes, no) for a
    nested class, the host epoch for any other; auto is on an accelerator (a GPU), not on
    the host, where `epoch_update`'s blocked in-place passes are the faster. An explicit
    True on a class that is not nested is a ValueError."""
    kernel = PairKernel(H, backend)  # one pass over H: which kernel, and H on the device
    nested = Nested.of(H)  # once per run (fast/nested.py)
    if resident is None:  # $CRAL_FAST_RESIDENT (auto: on an accelerator) for a nested class
        chosen = resident_default()
        resident = nested is not None and (kernel.backend.accelerator if chosen is None else chosen)
    elif resident and nested is None:
        raise ValueError("resident=True needs a nested class (fast/nested.py): H's rows are not a chain")
    workspace = Workspace()  # arrays reused by the next epoch where nothing keeps them
    state = initial_state(H.shape[1], H.shape[0], fparams)
    epochs = []
    labels = 0
    while state.tau + state.length - 1 <= n:
        seen, queried = epoch_counts(state.tau, state.tau + state.length - 1, state.q)
        if resident:
            record, state = epoch_update_device(
                H,
                state,
                seen,
                queried,
                fparams,
                kernel.backend,
                nested,
                materialise=keep_pairs or on_epoch is not None,
                timings=timings,
            )
        else:
            record, state = epoch_update(
                H,
                state,
                seen,
                queried,
                fparams,
                kernel,
                nested=nested,
                timings=timings,
                workers=workers,
                workspace=workspace,
            )
        if on_epoch is not None:
            on_epoch(record)
        if not keep_pairs:
            record = replace(record, **dict.fromkeys(PAIR_FIELDS))
        epochs.append(record)
        labels += record.labels_requested
    if state.tau <= n:  # the unfinished epoch still asks for labels
        _, queried = epoch_counts(state.tau, n, state.q)
        labels += int(queried.sum())
    output = epochs[-1].h_star_hat if epochs else 0
    return CALruptionRun(n, tuple(epochs), state.l, n - state.tau + 1, labels, output)
