"""A legitimate float64 candidate that decides CALruption's coins the way most float
programs do (Algorithm 2, line 4's coin): Q_t = 1 iff float(u_t) < q, its own double q against the
double nearest the tape's coin -- where fast compares the coin exactly with its q.

On a boundary tape whose coin sits exactly on a non-dyadic q (u_t = 7/192, say), the two
disagree: fast's double q of 7/192 may lie above 7/192, so fast queries (u_t < q), while
float(7/192) == q here, and this program does not. Both are correct float computations of
line 4; the judge must accept both (properties/checks/judgement.py, `coin_undecided`).

`LESS_EQUAL` = True turns it into a real bug (u_t <= q: a tie is a query), which the
boundary tapes must still catch where the coin is a number of the format.

The module patches fast's coin functions only for the duration of each call, so fast
itself is unchanged for anyone else in the process."""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

import fast
import fast.tape_mode as tape_mode
from fast import catoni_root, passive, robust_cal  # noqa: F401  (the public names, unchanged)

ARITHMETIC = "float64"
LESS_EQUAL = False
_WORD = 2.0**-64


def _decide(u: float, q: float) -> bool:
    return u <= q if LESS_EQUAL else u < q


def _float_coins(u_words, xs, q):
    # the float of u_t = w / 2^64 (rounded to 53 bits) against the float q
    us = np.asarray(u_words).astype(np.float64) * _WORD
    qs = np.asarray(q, dtype=np.float64)[np.asarray(xs)]
    return us <= qs if LESS_EQUAL else us < qs


def _float_exact_coins(tape, start, end, x, q, asked):
    for i, u in tape.u_exact:
        if start - 1 <= i < end:
            asked[i - start + 1] = _decide(float(u), float(q[x[i - start + 1]]))
    return asked


@contextmanager
def _float_decisions():
    saved = tape_mode.coins, tape_mode.exact_coins
    tape_mode.coins, tape_mode.exact_coins = _float_coins, _float_exact_coins
    try:
        yield
    finally:
        tape_mode.coins, tape_mode.exact_coins = saved


def calruption(hypotheses, tape, params):
    with _float_decisions():
        return fast.calruption(hypotheses, tape, params)


def calruption_epoch(hypotheses, state, counts, params):
    return fast.calruption_epoch(hypotheses, state, counts, params)
