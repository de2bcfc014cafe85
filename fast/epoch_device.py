"""CALruption's epoch update (Algorithm 2, lines 7-14) with every |H| x |H| array on an
array backend's device, for a nested class.

Why: at |H| = |X| = 16384 an epoch has 1.3e8 pairs. fast/calruption.py's `epoch_update`
computes the per-pair integer statistics on the backend but everything after them (the
weights, Catoni's roots, line 9's dense passes, line 13) on the host in numpy: minutes an
epoch there, milliseconds on a GPU. Here only vectors of length |H| or |X|, the sparse
edges of line 9's cycle route and the few Catoni problems that need the host's full
search cross to the host. A class that is not nested has no such form for lines 9 and 13
and keeps `epoch_update`.

What runs where:
* line 7: |S(c_h) - S(c_h')| from the prefix sums of seen in the nesting order
  (fast/pairs_device.py), int64, exact: equal to the host's bit for bit;
* line 8: min q as a running min of block minima (fast/pairs_device.py, exact), alpha
  and the weights by the host's operations in the host's order (IEEE sqrt and division:
  the same bits), and Catoni's samples as dense blocks of rows x columns x slots: for a
  nested class the points both h and h' hold are the first min(c_h, c_h') of the order,
  so `common` is a gather of the per-group tables at the smaller hypothesis; the roots
  by the one-step rule on the device (fast/catoni_device.py), the rest on the host;
* line 9: the minimum-cycle-ratio route with its dense passes on the device
  (fast/line9_device.py); where its certificate fails, row generation on the host, as in
  `epoch_update`;
* lines 10-12 on the host: R_D(h) is line 9's, two prefix sums along the nesting
  (fast/line9_device.py's `nested_risks`, O(|H| + |X|): no copy of H on the device);
* line 13: the pair values rho^ 4^(k - l - 1) and the quadrant max on the device
  (fast/pairs_device.py), exact.
So the integer fields and min q, line 13's values and the layers equal `epoch_update`'s bit
for bit given the same inputs; W differs in the last bits where the device sums Catoni's
slots in another order (within `catoni.root_tolerance`), and whatever follows W (D^, the
risks, q) within properties/checks/tolerances.py, as any correct float implementation."""

from __future__ import annotations

import numpy as np

from .catoni_device import catoni_roots_device
from .constants import FloatParams
from .epoch_types import Clock, Epoch, State, decide
from .line9 import fit_distribution
from .line9_device import fit_nested_device, nested_risks
from .nested import Nested
from .pair_stats import QGroups, catoni_slots, q_groups
from .pairs_device import disagreement_counts_device, line13_pair_value_device, min_q_device, next_q_device
from .precision import FLOAT

# elements (rows x columns x slots) of one block of Catoni problems; about ten float64
# temporaries of this size live at once. On a GPU (1.3 GiB at 2^24) large blocks keep the
# launches few; on the host cache-sized ones win: at |H| = 1024 (numpy, 2 cores) a run's
# Catoni part took 14.1 s of CPU at 2^24 against 2.7 s at 2^18
DEVICE_BLOCK_ELEMENTS = 2**24
HOST_BLOCK_ELEMENTS = 2**18


def group_tables(nested: Nested, groups: QGroups, queried: np.ndarray):
    """(values_row, e0, e1, both) on the host: Catoni's slot values (+1/v_g, -1/v_g for each
    asked group g, then 0) and the |H| x asked tables e_y[h, g] = sum over the points x of
    group g that h holds of queried[x, y] (y = 0, 1, and both labels). h holds the first
    c_h points of the nesting order, so each is a prefix sum over the order read at c_h."""
    asked, values_row = catoni_slots(groups, queried)
    m = len(nested.order)
    group_of = np.full(m, -1, np.int64)
    for k, g in enumerate(asked):
        group_of[groups.members(g)] = k
    ranked = group_of[nested.order]
    ranks = np.flatnonzero(ranked >= 0)
    tables = []
    for y in (queried[:, 0], queried[:, 1], queried.sum(axis=1)):
        table = np.zeros((m + 1, len(asked)), np.int64)
        table[ranks + 1, ranked[ranks]] = y[nested.order[ranks]]  # one group per rank: no repeats
        np.cumsum(table, axis=0, out=table)
        tables.append(np.ascontiguousarray(table[nested.lengths]))
    return values_row, tables[0], tables[1], tables[2]


def catoni_device(b, nested: Nested, groups: QGroups, queried: np.ndarray, length: int, alpha, active, W):
    """Line 8's roots W^{h,h'} for the active pairs, on the device, into W (returned).

    Per block of rows h and every column h' > h: plus_g = e0_h + e1_h' - common_g and
    minus_g = e1_h + e0_h' - common_g (fast/pair_stats.py's `loss_difference_blocks`), with
    common_g(h, h') = both_g of the one of h, h' with the smaller prefix, and the epoch's
    other rounds in the 0 slot; W^{h',h} = -W^{h,h'} (the samples of (h', h) are those of
    (h, h') negated, and the root of negated data is the negated root)."""
    xp = b.xp
    num_h = len(nested.lengths)
    values_row, e0, e1, both = group_tables(nested, groups, queried)
    asked = e0.shape[1]
    slots = len(values_row)
    c = b.asarray(nested.lengths, xp.int64)
    e0, e1, both = (b.asarray(t, xp.int64) for t in (e0, e1, both))
    values = b.asarray(values_row, xp.float64)
    index = b.asarray(np.arange(num_h), xp.int64)
    budget = DEVICE_BLOCK_ELEMENTS if b.accelerator else HOST_BLOCK_ELEMENTS
    r0 = 0
    while r0 < num_h - 1:
        # rows r0.. need the columns past r0 only: the blocks widen in rows down the triangle
        r1, c0 = min(num_h, r0 + max(1, budget // ((num_h - r0 - 1) * slots))), r0 + 1
        rows, cols = r1 - r0, num_h - c0
        upper = (index[None, c0:] > index[r0:r1, None]) & active[r0:r1, c0:]
        if not bool(xp.any(upper)):
            r0 = r1
            continue
        if asked:
            smaller = xp.where(c[r0:r1, None] <= c[None, c0:], index[r0:r1, None], index[None, c0:])
            common = xp.reshape(xp.take(both, xp.reshape(smaller, (-1,)), axis=0), (rows, cols, asked))
            plus = e0[r0:r1, None, :] + e1[None, c0:, :] - common
            minus = e1[r0:r1, None, :] + e0[None, c0:, :] - common
            rest = length - xp.sum(plus, axis=2) - xp.sum(minus, axis=2)  # exact, as length >= queried
            counts = xp.concat([plus, minus, rest[:, :, None]], axis=2)
        else:
            counts = xp.full((rows, cols, 1), length, dtype=xp.int64, device=b.device)
        C = xp.astype(xp.reshape(counts, (rows * cols, slots)), xp.float64)
        V = xp.broadcast_to(values[None, :], C.shape)
        valid = xp.reshape(upper, (-1,))
        roots = catoni_roots_device(b, V, C, xp.reshape(alpha[r0:r1, c0:], (-1,)), valid)
        W[r0:r1, c0:] = xp.where(upper, xp.reshape(roots, (rows, cols)), W[r0:r1, c0:])
        r0 = r1
    lower = (index[:, None] > index[None, :]) & active
    return xp.where(lower, -xp.matrix_transpose(W), W)


def _pair_fields(b, materialise: bool, **fields):
    return {name: (b.to_numpy(value) if materialise else None) for name, value in fields.items()}


def epoch_update_device(
    H: np.ndarray,
    state: State,
    seen: np.ndarray,
    queried: np.ndarray,
    fparams: FloatParams,
    b,
    nested: Nested,
    *,
    materialise: bool = True,
    timings: dict | None = None,
):
    """Lines 7-14 of epoch l = state.l for a nested class (`nested`, H's fast.nested.Nested)
    with the pair arrays on backend b's device; returns (Epoch, next State) as
    fast.calruption.epoch_update does. materialise=False leaves the record's |H| x |H|
    fields (fast.calruption.PAIR_FIELDS) None instead of copying them to the host: at
    |H| = 16384 they are 5 x 2 GiB an epoch. `timings` as in epoch_update (with a device
    that queues work, a part's time lands where the host next waits for it)."""
    xp = b.xp
    clock = Clock(timings)
    l, length, q = state.l, state.length, state.q
    num_h, m = H.shape
    support = np.flatnonzero(seen > 0)
    p_hat = (seen / length).astype(FLOAT, copy=False)

    rho_counts = disagreement_counts_device(b, nested, seen)  # line 7
    rho = xp.astype(rho_counts, xp.float64) / float(length)
    clock("line 7")
    groups = q_groups(q, support)
    min_q = min_q_device(b, nested, seen, q)  # nan where rho^ = 0
    clock("line 8 min q")
    index = b.asarray(np.arange(num_h), xp.int64)
    diagonal = index[:, None] == index[None, :]
    W = xp.full((num_h, num_h), xp.nan, dtype=xp.float64, device=b.device)
    W = xp.where(rho_counts == 0, 0.0, W)  # agrees on all of S_l: W = 0, no LP row
    W = xp.where(diagonal, xp.nan, W)
    active = (rho_counts > 0) & (min_q > 0)  # min q = 0 (or nan): weight 0, no row
    # the host's operations in its order (epoch_update): the same bits
    alpha = xp.sqrt((min_q * (2 * fparams.beta3)) / (rho * (5 * length)))
    alpha = xp.where(active, alpha, xp.nan)
    weight = xp.where(active, xp.sqrt(min_q / rho), xp.nan)
    clock("line 8 weights")
    W = catoni_device(b, nested, groups, queried, length, alpha, active, W)  # line 8
    clock("line 8 Catoni")

    # line 9; the nesting on the support is all it needs of H (no |H| x |S| host copy)
    on_support = nested.on(support)
    fitted = fit_nested_device(b, None, p_hat[support], weight, W, on_support)
    if fitted is not None:
        eta_support, risk_hat, objective = fitted[0], fitted[1], fitted[2]
    else:  # the cycle certificate failed: the host's row generation, as in epoch_update
        # (W and the weights to the host: 2 x 8 |H|^2 bytes; the spanning tree's Hamming
        # distances from the device's line 7 on the support)
        eta_support, objective = fit_distribution(
            H,
            support,
            p_hat,
            b.to_numpy(weight),
            b.to_numpy(W),
            nested=False,
            distance=lambda: b.to_numpy(disagreement_counts_device(b, nested, (seen > 0).astype(np.int64))),
        )
        risk_hat = nested_risks(on_support, p_hat[support], eta_support)
    clock("line 9")
    eta = np.full(m, np.nan, FLOAT)
    eta[support] = eta_support
    # line 10's R_D(h): line 9's, from two prefix sums along the nesting (fast/line9_device.py's
    # nested_risks; the points off the support have p^ = 0)
    h_star, gap_hat, layers, level = decide(risk_hat, state.gap_hat, fparams.beta2, l)  # lines 10-12
    clock("lines 10-12")
    pair_value = line13_pair_value_device(b, rho, level, l)  # level: host, O(|H|)
    next_q = next_q_device(b, nested, pair_value)  # line 13
    del pair_value
    clock("line 13")
    record = Epoch(
        l=l,
        tau=state.tau,
        length=length,
        q=q,
        labels_requested=int(queried.sum()),
        seen=seen,
        **_pair_fields(b, materialise, rho_counts=rho_counts, min_q=min_q, alpha=alpha, W=W, weight=weight),
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
