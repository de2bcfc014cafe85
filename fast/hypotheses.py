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


def disagreement_counts(H: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """sum_x seen[x] 1{h(x) != h'(x)} for all pairs, |H| x |H|, exact in int64."""
    weighted = H * seen
    return weighted @ (1 - H).T + ((1 - H) * seen) @ H.T
