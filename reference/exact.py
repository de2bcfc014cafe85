"""Exact-value validation and the "p/q" text form of rationals.

Every public constructor funnels its numbers through these helpers so that a float,
a bool or an out-of-range value is rejected with a `ValueError` that names the field
and the value, instead of being silently coerced.
"""

from __future__ import annotations

import math
import numbers
import re
from fractions import Fraction

_RATIONAL_TEXT = re.compile(r"-?[0-9]+(/[0-9]+)?")


def as_fraction(value, field: str) -> Fraction:
    """`value` as an exact Fraction; ints, Fractions and "p/q" strings are accepted.

    Floats and Decimals are refused (their decimal spelling is not the value they hold),
    and so are bools (a label or a flag, never a probability).
    """
    if isinstance(value, bool):
        raise ValueError(f"{field} must be an exact rational (int, Fraction or 'p/q'), got bool {value!r}")
    if isinstance(value, str):
        if not _RATIONAL_TEXT.fullmatch(value.strip()):
            raise ValueError(f"{field} must be a rational written 'p/q', got {value!r}")
        text = value.strip()
        if "/" in text and int(text.split("/")[1]) == 0:
            raise ValueError(f"{field} has a zero denominator: {value!r}")
        return Fraction(text)
    if isinstance(value, numbers.Rational):
        return Fraction(value)
    raise ValueError(
        f"{field} must be an exact rational (int, Fraction or 'p/q'), got {type(value).__name__} {value!r}"
    )


def as_probability(value, field: str) -> Fraction:
    """A rational in [0, 1]."""
    p = as_fraction(value, field)
    if not 0 <= p <= 1:
        raise ValueError(f"{field} must lie in [0, 1], got {p}")
    return p


def as_int(value, field: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer (bools and integral floats refused) within the given bounds."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{field} must be an integer, got {type(value).__name__} {value!r}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{field} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{field} must be <= {maximum}, got {value}")
    return value


def as_label(value, field: str) -> int:
    """A binary label: the integer 0 or 1."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value not in (0, 1):
        raise ValueError(f"{field} must be the integer 0 or 1, got {value!r}")
    return int(value)


def shown(value, limit: int = 60) -> str:
    """The type and repr of a bad value for an error message, cut to one short line."""
    text = repr(value)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{type(value).__name__} {text}"


def fraction_text(value: Fraction) -> str:
    """The lossless text form used in every JSON file of the project: always "p/q"."""
    if type(value) is not Fraction:  # a Fraction is normalised already (a tape's coins: ~10x faster)
        value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


def common_denominator(values) -> tuple[list[int], int]:
    """(N, D) with values[i] = N[i] / D for Fractions, D > 0 the lcm of their denominators:
    sums and comparisons of many rationals on one denominator are integer operations."""
    values = list(values)
    d = math.lcm(*(v.denominator for v in values)) if values else 1
    return [v.numerator * (d // v.denominator) for v in values], d
