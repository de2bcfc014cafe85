"""catoni_root takes 0.4 s, then appends to the lists it was given (in place): within a
batch of calls each call must still get its own inputs and its own timeout."""

import time

import reference
from reference import calruption, calruption_epoch, passive, robust_cal


def catoni_root(values, counts, alpha):
    time.sleep(0.4)
    result = reference.catoni_root(values, counts, alpha)
    values.append(10**9)
    counts.append(1)
    return result


__all__ = ["calruption", "calruption_epoch", "catoni_root", "passive", "robust_cal"]
