"""Evidence that a candidate computes in floating point: a value it reported that is exactly
a float64 lying within a rounding error of the exact value it approximates. It backs the
hint to declare `ARITHMETIC = "float64"` (properties/reports/declared_arithmetic.py)."""

from __future__ import annotations

import re
from fractions import Fraction

# Evidence of float arithmetic: a value the candidate reported that is
# exactly a float64 (a power-of-two denominator and at most 53 significant bits), lying
# within a rounding error (relative 2^-40) of a value in the same violation that is not a
# float64 -- the exact one it approximates. A power-of-two denominator alone is no
# evidence: a certified enclosure (lo < hi) has one too, so the endpoints of such an
# enclosure are never the candidate's float; a point enclosure [x, x] may be.
ROUNDING = Fraction(1, 1 << 40)
MAX_NUMBERS = 64  # numbers of one violation looked at (pairs are compared)
_NUMBER = r"-?\d+"
_RATIONAL = re.compile(rf"Fraction\(({_NUMBER}), ({_NUMBER})\)|(?<![\w.])({_NUMBER})/({_NUMBER})(?![\w.])")
_ENCLOSURE = re.compile(r"Enclosure\(lo=(Fraction\([^)]*\)|[-\d/]+), hi=(Fraction\([^)]*\)|[-\d/]+)\)")
# an exact candidate returned a float (reference/serialization.py, properties/core/contract.py)
_FLOAT_RETURNED = "got the float "


def _rationals(text: str) -> list[Fraction]:
    found = []
    for match in _RATIONAL.finditer(text):
        numerator, denominator = match.group(1, 2) if match.group(1) else match.group(3, 4)
        if int(denominator) != 0:
            found.append(Fraction(int(numerator), int(denominator)))
        if len(found) >= MAX_NUMBERS:
            break
    return found


def is_float64(value: Fraction) -> bool:
    """Whether `value` is exactly a double (finite)."""
    d = value.denominator
    if d & (d - 1):
        return False
    try:
        return Fraction(float(value)) == value
    except OverflowError:
        return False


def float_like(candidate: Fraction, exact: Fraction) -> bool:
    """`candidate` looks like `exact` rounded to float64."""
    return (
        candidate != exact
        and exact != 0
        and is_float64(candidate)
        and not is_float64(exact)
        and abs(candidate - exact) <= ROUNDING * abs(exact)
    )


def looks_float(text: str) -> bool:
    """Whether a violation's text shows float arithmetic (see ROUNDING above)."""
    if _FLOAT_RETURNED in text:
        return True
    certified = set()  # endpoints of enclosures lo < hi: certified, not a float
    for match in _ENCLOSURE.finditer(text):
        lo, hi = (_rationals(group) for group in match.groups())
        if lo and hi and lo[0] != hi[0]:
            certified.update((lo[0], hi[0]))
    numbers = _rationals(text)
    doubles = [v for v in numbers if v not in certified and is_float64(v)]
    return any(float_like(c, e) for c in doubles for e in numbers)


__all__ = ["float_like", "is_float64", "looks_float"]
