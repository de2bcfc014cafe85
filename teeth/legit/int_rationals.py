"""A legitimate representation, not a variant of the algorithm: the reference's public
names, but every rational that is an integer (a risk of 1, an eta^ of 0, a coin of 0)
is returned as a Python int or a numpy integer instead of a Fraction, as an exact
implementation written without Fractions for its integral values would. Its values are
the reference's exactly, so every check must pass it (representations are not
verdicts: properties/core/representations.py, tests/properties/checks/test_representations.py)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np

import reference
from reference import calruption_epoch as _epoch
from reference import loss_difference_samples, sample_tape  # noqa: F401 (public names, unchanged)
from teeth.legit.wrapping import traces

ARITHMETIC = "exact"
_flip = [False]  # alternate int and numpy.int64, so both integer types cross the boundary


def integral_as_int(value):
    """`value` with every integral Fraction replaced by an int (or numpy.int64)."""
    if isinstance(value, Fraction):
        if value.denominator != 1:
            return value
        _flip[0] = not _flip[0]
        return np.int64(value.numerator) if _flip[0] and abs(value.numerator) < 1 << 62 else int(value.numerator)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(
            value, **{f.name: integral_as_int(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
        )
    if isinstance(value, tuple):
        return tuple(integral_as_int(v) for v in value)
    if isinstance(value, list):
        return [integral_as_int(v) for v in value]
    return value


passive, robust_cal, calruption = traces(reference, integral_as_int)


def calruption_epoch(hypotheses, state, counts, params):
    return integral_as_int(_epoch(hypotheses, state, counts, params))


def catoni_root(values, counts, alpha):
    enclosure = reference.catoni_root(values, counts, alpha)
    return integral_as_int((enclosure.lo, enclosure.hi))
