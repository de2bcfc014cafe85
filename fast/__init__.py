"""A fast float64 implementation of "Corruption Robust Active Learning" under the
reference's public names (CONTRACT.md), vectorised with numpy, the LP of Algorithm 2
line 9 by HiGHS.

Two ways to feed it: tape mode (the reference's tapes, so its traces can be
cross-checked against the reference round for round: `python -m properties crosscheck
--candidate fast`) and counts mode (`*_counts`: per-point counts drawn per update, so
the cost does not grow with n; `MatrixInstance` gives it H as one matrix at paper scale).

CALruption's per-pair statistics run on any array library of the array API standard
(numpy by default, array-api-strict, PyTorch, CuPy): `backend=`/`device=` on the entry
points, or $CRAL_FAST_BACKEND (fast/backends.py, docs/fast.md)."""

import numpy as np

from .api import (
    calruption,
    calruption_counts,
    calruption_epoch,
    passive,
    passive_counts,
    robust_cal,
    robust_cal_counts,
)
from .catoni import catoni_root
from .matrix_instance import MatrixInstance
from .precision import FLOAT
from .scale_record import calruption_counts_record
from .tape import TapeArrays, from_tape
from .tape import sample_tape_arrays as sample_tape

# Declared for the cross-check (properties/checks/crosscheck.py) and `check`: float results are
# judged as floats of this width, not by exact equality ("float64"; "float32" in the copy
# of teeth/legit/float_variants.py).
ARITHMETIC = np.dtype(FLOAT).name

__all__ = [
    "ARITHMETIC",
    "MatrixInstance",
    "TapeArrays",
    "calruption",
    "calruption_counts",
    "calruption_counts_record",
    "calruption_epoch",
    "catoni_root",
    "from_tape",
    "passive",
    "passive_counts",
    "robust_cal",
    "robust_cal_counts",
    "sample_tape",
]
