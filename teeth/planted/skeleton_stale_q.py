"""A copy of the skeleton (examples/skeleton/my_cral.py) with CALruption's loop written out
and one bug planted: the coin of each later epoch's first round is compared with the
previous epoch's q (Algorithm 2, line 4 says q_l), because the loop hands the new q to the
coin one round late. The first quantity that differs is the coin of round tau_2, so the
check that names the coin must come first in the report (tests/properties/reports/test_failure_order.py)."""

from __future__ import annotations

import importlib

import reference
from reference.calruption import EpochCounts, initial_state
from reference.calruption import calruption_epoch as _reference_epoch
from reference.trace import CALruptionTrace

_epochs = importlib.import_module("reference.calruption")  # the module: reference.calruption is also a function

ARITHMETIC = "exact"


def passive(hypotheses, tape, params):
    return reference.passive(hypotheses, tape, params)


def robust_cal(hypotheses, tape, params, vanilla=False):
    return reference.robust_cal(hypotheses, tape, params, vanilla=vanilla)


def calruption(hypotheses, tape, params):
    """Algorithm 2's loop around the reference's epoch update, the coin's q one round late."""
    H = tuple(tuple(h) for h in hypotheses)
    m = len(H[0])
    state = initial_state(m, len(H), params)
    records, labels = [], 0
    seen, queried = [0] * m, [[0, 0] for _ in range(m)]
    epoch_end = state.tau + state.length - 1
    coin_q = state.q
    for t, (x, y, u) in enumerate(zip(tape.x, tape.y, tape.u), start=1):
        seen[x] += 1
        if u < coin_q[x]:
            queried[x][y] += 1
            labels += 1
        coin_q = state.q  # planted: set before the epoch's update below, so round tau_{l+1} sees q_l
        if t == epoch_end:
            record, state = _unchecked_epoch(H, state, EpochCounts(tuple(seen), tuple(map(tuple, queried))), params)
            records.append(record)
            seen, queried = [0] * m, [[0, 0] for _ in range(m)]
            epoch_end = state.tau + state.length - 1
    return CALruptionTrace(
        algorithm="calruption",
        params=params,
        n=tape.n,
        epochs=tuple(records),
        final_epoch=state.l,
        unfinished_rounds=tape.n - state.tau + 1,
        labels_requested=labels,
        output=records[-1].h_star_hat if records else 0,
    )


def _unchecked_epoch(H, state, counts, params):
    """The reference's epoch update without its input check, which refuses a query where
    q_l^x = 0 (the stale coin makes such queries; a program without that check goes on)."""
    checked = _epochs.check_epoch_inputs
    _epochs.check_epoch_inputs = lambda *args: None
    try:
        return _reference_epoch(H, state, counts, params)
    finally:
        _epochs.check_epoch_inputs = checked


def calruption_epoch(hypotheses, state, counts, params):
    return _reference_epoch(hypotheses, state, counts, params)


def catoni_root(values, counts, alpha):
    return reference.catoni_root(values, counts, alpha)
