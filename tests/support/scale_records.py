"""fast's counts-mode record at a small size, and the judge at scale run on a copy of it
with fields tampered with (tests/properties/scale/test_scale_judge.py, tests/properties/scale/test_scale_judge_routes.py)."""

from __future__ import annotations

import os

import numpy as np

import reference as R
from properties.checks.crosscheck import AlgorithmReport, _Comparer
from properties.checks.judgement import Judgement
from properties.checks.tolerances import table
from properties.scale import run as scale

N = 10**12


def record_fast(directory: str, size: int = 64):
    """(H, params, the record function's result, directory): fast's record, in-process
    (only the record matters)."""
    instance = scale.thresholds_instance(size)
    params = R.Params.paper(N, size, scale.DELTA)
    candidate = scale.load_candidate("fast", in_process=True)
    result = candidate.invoke(scale.RECORD_FUNCTION, (instance, R.adversary.clean(N), params, 1, directory), {}, None)
    return np.array(instance.hypotheses, dtype=np.int64), params, result, directory


def judge_copy(recorded, copy: str, tamper=None, epochs=("epoch_004.npz",)):
    """(report, SizeResult) of the judge on a copy of the record in the new folder `copy`,
    with tamper(fields) applied to the epoch files named in `epochs` (None: every epoch)."""
    H, params, result, directory = recorded
    os.mkdir(copy)
    for name in os.listdir(directory):
        with np.load(os.path.join(directory, name), allow_pickle=False) as data:
            fields = {k: data[k].copy() for k in data.files}
        chosen = name.startswith("epoch_") if epochs is None else name in epochs
        if tamper and chosen:
            tamper(fields)
        np.savez(os.path.join(copy, name), **fields)
    report = AlgorithmReport(0, "calruption")
    cmp = _Comparer(report, table("float64"), Judgement("float64"))
    sizes = scale.SizeResult(H.shape[0], params.n)
    scale.judge_record(cmp, H, params, dict(result), copy, sizes)
    return report, sizes
