"""`fast` (ARITHMETIC = "float64") with its results written as a float implementation in
Python would write them: a Python float wherever fast/convert.py reports the exact Fraction
of a double (Fraction(float) is lossless, so float(fraction) is that very double); the
ratios of counts it reports exactly stay "p/q". The judge must read these floats as their
exact values on the import route, as it reads a float64 program's JSON numbers on the
command route (representations are not verdicts): the same values as `fast`'s, so the same verdicts
(tests/properties/checks/test_representations.py)."""

from __future__ import annotations

import re
from fractions import Fraction

import fast
import reference
from fast import sample_tape  # noqa: F401 (a public name, unchanged)
from reference.serialization import to_jsonable
from teeth.legit.wrapping import traces

ARITHMETIC = "float64"
_RATIONAL = re.compile(r"-?[0-9]+/[0-9]+")


def as_floats(value):
    """The plain data of `value` (reference/serialization.py's, rationals "p/q") with
    every non-integral rational that is exactly a double replaced by that float; the
    others (fast's exact ratios of counts, mistakes / t) stay "p/q", and integral ones
    stay exact too (counts and indices are not floats in fast either)."""
    return _floats(reference.trace_to_json(value) if hasattr(value, "algorithm") else to_jsonable(value))


def _floats(plain):
    if isinstance(plain, str) and _RATIONAL.fullmatch(plain):
        value = Fraction(plain)
        return float(value) if value.denominator != 1 and Fraction(float(value)) == value else plain
    if isinstance(plain, dict):
        return {k: _floats(v) for k, v in plain.items()}
    if isinstance(plain, list):
        return [_floats(v) for v in plain]
    return plain


passive, robust_cal, calruption = traces(fast, as_floats)


def calruption_epoch(hypotheses, state, counts, params):
    return as_floats(fast.calruption_epoch(hypotheses, state, counts, params))


def catoni_root(values, counts, alpha):
    return as_floats(list(fast.catoni_root(values, counts, alpha)))
