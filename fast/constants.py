"""The run parameters as float64, computed once per run (fast path).

Integer quantities that the schedule depends on (the epoch lengths |I_l| = ceil(beta1 4^l)
of Algorithm 2, line 1) are taken from the reference's certified ceiling: they are
integers, cheap to get exactly once per epoch, and a float ceiling of beta1 4^l could be
off by one when beta1 4^l lies within an ulp of an integer."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from reference.calruption import epoch_length as _exact_epoch_length
from reference.certified import as_float
from reference.params import Params


@dataclass(frozen=True)
class FloatParams:
    params: Params
    beta1: float
    beta2: float
    beta3: float
    beta_scale: float
    delta: float

    @classmethod
    def of(cls, params: Params) -> FloatParams:
        if not isinstance(params, Params):
            raise ValueError(f"params must be a reference.Params, got {type(params).__name__}")
        return cls(
            params,
            as_float(params.beta1),
            float(params.beta2),
            as_float(params.beta3),
            float(params.beta_scale),
            float(params.delta),
        )

    def robust_cal_beta(self, t: int) -> float:
        """beta_t = beta_scale ln(3 log2(t) |H|^2 / delta) at t = 2^k (Algorithm 1, line 9; FINDINGS R3)."""
        k = t.bit_length() - 1
        return self.beta_scale * math.log(3 * k * self.params.num_hypotheses**2 / self.delta)

    def epoch_length(self, l: int) -> int:
        return _epoch_length(self.params, l)


@lru_cache(maxsize=4096)
def _epoch_length(params: Params, l: int) -> int:
    return _exact_epoch_length(params, l)
