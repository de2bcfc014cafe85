"""What one CALruption epoch hands the next (State) and what it records (Epoch), shared by
the host epoch (fast/calruption.py) and the resident one (fast/epoch_device.py); and the
per-part CPU clock both report with."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class State:
    """What epoch l needs from the past (line 14): tau_l, |I_l|, q_l, Delta^^{l-1}."""

    l: int
    tau: int
    length: int
    q: np.ndarray
    gap_hat: np.ndarray


@dataclass(frozen=True)
class Epoch:
    """One completed epoch; pair matrices are |H| x |H| with nan where the reference has None."""

    l: int
    tau: int
    length: int
    q: np.ndarray
    labels_requested: int
    seen: np.ndarray  # int64 per point; the support S_l is seen > 0
    rho_counts: np.ndarray  # int64, |I_l| rho^_l(h, h') (line 7)
    min_q: np.ndarray
    alpha: np.ndarray
    W: np.ndarray  # line 8; 0 where rho^ = 0, nan where min q = 0
    weight: np.ndarray
    eta_hat: np.ndarray  # line 9, on the support; nan elsewhere
    lp_objective: float
    risk_hat: np.ndarray
    h_star_hat: int  # line 10
    gap_hat: np.ndarray  # line 11
    layers: np.ndarray  # bool (l+1) x |H|: row i is V_{l+1}^i (line 12)
    next_q: np.ndarray  # line 13


def decide(risk_hat: np.ndarray, gap_prev: np.ndarray, beta2: float, l: int):
    """Lines 10-12 from the risks R_D^(h) and the previous Delta^^{l-1}: (h^*_l, Delta^^l,
    the layers V_{l+1}^i as a bool (l+1) x |H| array, each h's deepest layer i)."""
    penalised = risk_hat + beta2 * gap_prev  # line 10
    h_star = int(np.argmin(penalised))
    # line 11; exactly, eps_l <= Delta^ <= 1 (risks lie in [0, 1], the penalty is >= 0), and
    # a risk rounded to 1 + ulp must not push h out of V^0 = H (it would cut q by 4)
    gap_hat = np.clip(risk_hat - penalised[h_star], 2.0**-l, 1.0)
    layers = gap_hat[None, :] <= np.ldexp(1.0, -np.arange(l + 1))[:, None]  # line 12
    level = layers.sum(axis=0) - 1  # nested: the deepest i with Delta^ <= eps_i
    return h_star, gap_hat, layers, level


class Clock:
    """Adds the CPU seconds (process time: every thread, and not another process's load)
    since the last call to timings[name] (nothing without timings)."""

    def __init__(self, timings: dict | None):
        self.timings = timings
        self.last = time.process_time()

    def __call__(self, name: str) -> None:
        if self.timings is not None:
            now = time.process_time()
            self.timings[name] = self.timings.get(name, 0.0) + now - self.last
            self.last = now
