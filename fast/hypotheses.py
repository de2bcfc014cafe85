"""Hypotheses as a 0/1 matrix (fast path): row h is (h(0), ..., h(m-1))."""

from __future__ import annotations

import numpy as np

from reference.instance import validate_hypotheses


def as_matrix(hypotheses) -> np.ndarray:
    """|H| x m int64 matrix of labels, validated like the reference's input."""
    if isinstance(hypotheses, np.ndarray):
        if hypotheses.ndim != 2 or hypotheses.shape[0] == 0 or hypotheses.shape[1] == 0:
            raise ValueError(f"hypotheses must be a non-empty |H| x m matrix, got shape {hypotheses.shape}")
        bad = np.argwhere((hypotheses != 0) & (hypotheses != 1))
        if len(bad):
            h, x = bad[0]
            raise ValueError(f"hypotheses[{h}][{x}] must be 0 or 1, got {hypotheses[h, x]!r}")
        return hypotheses.astype(np.int64)
    return np.array(validate_hypotheses(hypotheses), dtype=np.int64)


def mistakes(H: np.ndarray, label_counts: np.ndarray) -> np.ndarray:
    """#{recorded rounds with h(x) != y} per h, exact in int64: label_counts[x, y] counts
    the recorded rounds with (x_t, y_t) = (x, y); h errs on label 1 - h(x)."""
    return (1 - H) @ label_counts[:, 1] + H @ label_counts[:, 0]


# Integers below 2^53 are exact in float64, and so is every partial sum of a dgemm whose
# terms are non-negative integers adding up to less than that: the float product is then
# the exact count, and BLAS's float64 matmul is many times faster than numpy's int64 one.
EXACT_FLOAT_SUM = 2**53


def exact_in_float(total) -> bool:
    """Whether non-negative integer terms with this sum give exact float64 partial sums,
    also after a doubling (the a + b - 2c forms below)."""
    return 2 * int(total) < EXACT_FLOAT_SUM


def disagreement_counts(H: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """sum_x seen[x] 1{h(x) != h'(x)} for all pairs, |H| x |H|, exact in int64.

    With per-hypothesis sums a_h = sum_x seen[x] h(x), the count is
    a_h + a_h' - 2 sum_x seen[x] h(x) h'(x): one matmul, in float64 when exact (above)."""
    seen = np.asarray(seen, dtype=np.int64)
    if not exact_in_float(seen.sum()):
        weighted = H * seen
        return weighted @ (1 - H).T + ((1 - H) * seen) @ H.T
    Hf = H.astype(np.float64)
    weighted = Hf * seen.astype(np.float64)
    a = weighted.sum(axis=1)
    return np.rint(a[:, None] + a[None, :] - 2 * (Hf @ weighted.T)).astype(np.int64)
