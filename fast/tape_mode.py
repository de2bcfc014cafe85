"""Tape mode: the counts each update needs, read off a tape (the same tapes as the
reference's, CONTRACT.md "Tape"), one numpy pass per epoch or checkpoint interval."""

from __future__ import annotations

import numpy as np

from .tape import TapeArrays, coins, exact_coins


def _slice(tape: TapeArrays, start: int, end: int):
    return tape.x[start - 1 : end], tape.y[start - 1 : end], tape.u_words[start - 1 : end]


def _by_label(xs, ys, m):
    return np.bincount(2 * xs + ys, minlength=2 * m).reshape(m, 2)


def label_counts(tape: TapeArrays, m: int) -> np.ndarray:
    """counts[x, y] over the whole tape (passive ERM asks for every label)."""
    return _by_label(tape.x, tape.y.astype(np.int64), m)


def interval_counts(tape: TapeArrays, m: int):
    """For RobustCAL: Q_t = 1 iff x_t in Dis(V_t) (line 4); u_t is not used."""

    def counts(start, end, dis):
        xs, ys, _ = _slice(tape, start, end)
        asked = dis[xs]
        return np.bincount(xs, minlength=m), _by_label(xs[asked], ys[asked].astype(np.int64), m)

    return counts


def epoch_counts(tape: TapeArrays, m: int):
    """For CALruption: Q_t = 1 iff u_t < q^{x_t} (line 4), decided exactly on the 64-bit coin."""

    def counts(start, end, q):
        xs, ys, us = _slice(tape, start, end)
        asked = coins(us, xs, q)
        if tape.u_exact:  # a hand-written tape's non-dyadic coins
            asked = exact_coins(tape, start, end, xs, q, asked)
        return np.bincount(xs, minlength=m), _by_label(xs[asked], ys[asked].astype(np.int64), m)

    return counts
