"""A fast float64 implementation of "Corruption Robust Active Learning" under the
reference's public names (DESIGN.md), vectorised with numpy, the LP of Algorithm 2
line 9 by HiGHS.

Two ways to feed it: tape mode (the reference's tapes, so its traces can be
cross-checked against the reference round for round: `python -m properties crosscheck
--candidate fast`) and counts mode (`*_counts`: per-point counts drawn per update, so
the cost does not grow with n)."""
from .api import (
    calruption, calruption_counts, calruption_epoch, passive, passive_counts, robust_cal, robust_cal_counts,
)
from .catoni import catoni_root
from .tape import TapeArrays, from_tape, sample_tape_arrays as sample_tape

# Declared for the cross-check (properties/crosscheck.py): float results are held to the
# tolerance table, not to exact equality.
ARITHMETIC = "float64"

__all__ = [
    "ARITHMETIC", "TapeArrays", "calruption", "calruption_counts", "calruption_epoch", "catoni_root", "from_tape",
    "passive", "passive_counts", "robust_cal", "robust_cal_counts", "sample_tape",
]
