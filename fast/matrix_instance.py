"""An instance whose hypotheses are one integer matrix, for counts mode at paper scale.

Why: `reference.Instance` holds H as tuples of Python ints and checks every label one by
one: at |H| = |X| = 16384 that is 2.7e8 labels, minutes to build and ~12 s more for fast's
`np.array(instance.hypotheses)` inside the timed run (measured at 4096: 41.6 s to build
the bench's thresholds instance, 0.7 s to convert it; 126 s and 3.1 s at 8192). A
MatrixInstance takes H as a 0/1 numpy matrix, checked in one vectorised pass, and nu*,
eta* exactly as `reference.Instance` does (`reference.instance.validate_distribution`:
O(|X|) Fractions, so the adversaries' `bind` and counts mode's environment read them as
from a reference instance). Only fast's counts mode takes it (`fast.calruption_counts`,
`fast.passive_counts`, ...): the exact reference needs `reference.Instance`
(`to_instance()` builds one, slowly)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from reference.instance import Instance, validate_distribution


class MatrixInstance:
    """nu*, eta* as exact Fractions (validated as `reference.Instance` does) and H as a
    read-only C-contiguous int64 matrix `matrix`, |H| x |X|, of 0/1 labels (a view of the
    caller's array when that already is one: not a copy)."""

    def __init__(self, nu, eta, hypotheses):
        self.nu, self.eta = validate_distribution(nu, eta)
        H = np.asarray(hypotheses)
        if H.ndim != 2 or H.shape[0] == 0:
            raise ValueError(f"hypotheses must be a non-empty 2-D 0/1 matrix (|H| x |X|), got shape {H.shape}")
        if H.shape[1] != len(self.nu):
            raise ValueError(f"hypotheses has {H.shape[1]} columns, expected {len(self.nu)} (one per point of nu)")
        if H.dtype != np.bool_ and not np.issubdtype(H.dtype, np.integer):
            raise ValueError(f"hypotheses must hold integer (or bool) labels, got dtype {H.dtype}")
        if H.dtype != np.bool_ and (H.min() < 0 or H.max() > 1):  # two passes, no temporaries
            h, x = (int(v) for v in np.argwhere((H != 0) & (H != 1))[0])
            raise ValueError(f"hypotheses[{h}][{x}] must be a label 0 or 1, got {H[h, x]!r}")
        # a read-only view where H is already C-contiguous int64 (a copy is 2 GiB and ~5 s of
        # page faults at 16384): the caller's array stays writable, and changing it later
        # changes this instance
        self.matrix = np.ascontiguousarray(H, dtype=np.int64).view()
        self.matrix.flags.writeable = False

    @property
    def num_points(self) -> int:
        return len(self.nu)

    @property
    def num_hypotheses(self) -> int:
        return self.matrix.shape[0]

    def to_instance(self) -> Instance:
        """The same instance as a reference.Instance (every label checked again: slow at scale)."""
        return Instance(self.nu, self.eta, tuple(map(tuple, self.matrix.tolist())))

    def risks(self) -> tuple[Fraction, ...]:
        """R*(h) for every h, exactly: over one common denominator, in int64 where the
        numerators fit (else Fractions)."""
        import math

        den = math.lcm(*{f.denominator for f in self.nu}, *{f.denominator for f in self.eta})
        nu = [int(f * den) for f in self.nu]
        eta = [int(f * den) for f in self.eta]
        if sum(nu) * den < 2**62:  # every risk x den^2 fits in int64
            nu_, eta_ = np.array(nu, np.int64), np.array(eta, np.int64)
            scaled = self.matrix @ (nu_ * (den - eta_)) + (1 - self.matrix) @ (nu_ * eta_)
            return tuple(Fraction(int(v), den * den) for v in scaled)
        with_h = [n * (den - e) for n, e in zip(nu, eta)]
        without = [n * e for n, e in zip(nu, eta)]
        return tuple(
            Fraction(sum(w if label else o for w, o, label in zip(with_h, without, row)), den * den)
            for row in self.matrix.tolist()
        )

    @property
    def best(self) -> int:
        """argmin R*(h), the lowest index on a tie (as reference.Instance.best)."""
        risks = self.risks()
        return min(range(len(risks)), key=lambda h: (risks[h], h))
