"""A legitimate variant: the reference's public names with a tape sampler of its own
("pcg64-grid-v1"), not cral-tape-v1. The suite must accept it (tests/properties/checks/test_sampler.py):
its law is the model's up to 2^-64 per probability, and it has the prefix property.

Each round t takes three consecutive raw 64-bit outputs of numpy's PCG64 seeded with the
seed, in the order (u, x, y) -- a stream read round after round, so the first n rounds do
not depend on n. With w uniform on {0, ..., 2^64 - 1}:
  x_t = min{i : w_x < ceil(F_i 2^64)}, F_i = nu_0 + ... + nu_i   (P(x_t = i) = nu_i + O(2^-64),
        exactly 0 where nu_i = 0);
  y_t = [w_y < ceil(eta_t^{x_t} 2^64)]                             (exactly 0 or 1 at eta 0 or 1);
  u_t = w_u / 2^64, returned as the word (field u_words).
Integers only; no float."""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction

import numpy as np

from reference import (
    ARITHMETIC,
    calruption,
    calruption_epoch,
    catoni_root,
    loss_difference_samples,
    passive,
    robust_cal,
)

GENERATOR = "pcg64-grid-v1"
_SCALE = 1 << 64


def _ceil_scaled(p: Fraction) -> int:
    return -((-p.numerator * _SCALE) // p.denominator)


def sample_tape(instance, adversary, seed):
    n = adversary.n
    words = np.random.PCG64(seed).random_raw(3 * n).tolist()
    cdf, acc = [], Fraction(0)
    for p in instance.nu:
        acc += p
        cdf.append(_ceil_scaled(acc))
    x, y = [], []
    for start, end, eta_t, _ in adversary.bind(instance):
        label_rule = [_ceil_scaled(e) for e in eta_t]
        for t in range(start, end + 1):
            point = bisect_right(cdf, words[3 * t - 2])
            x.append(point)
            y.append(int(words[3 * t - 1] < label_rule[point]))
    return {"x": x, "y": y, "u_words": words[0::3], "seed": seed, "generator": GENERATOR}


# the reference's public names, unchanged, and the sampler of its own
__all__ = [
    "ARITHMETIC",
    "GENERATOR",
    "calruption",
    "calruption_epoch",
    "catoni_root",
    "loss_difference_samples",
    "passive",
    "robust_cal",
    "sample_tape",
]
