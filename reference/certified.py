"""Certified rational enclosures of the irrational quantities the algorithms compare.

RobustCAL's threshold (Algorithm 1, line 10) contains beta_t = ln(3 log t |H|^2 / delta)
and a square root; CALruption's constants contain logs too. We never compare floats:
each irrational is enclosed in a rational interval [lo, hi] computed with integer
arithmetic and directed rounding, and a comparison is decided once the enclosure
lies on one side. `decide_le` doubles the precision until that happens.

Termination: the value compared is always rational, and the threshold is either
rational (then the enclosures become exact points and the comparison is exact) or of
the form sqrt(a + b ln r) + c + d ln r with rationals a, b, c, d, r. For r != 1, ln r is
transcendental (Lindemann), so such a threshold is irrational unless the log cancels,
and an irrational number never equals a rational: doubling precision separates them.
A hard cap (`MAX_BITS`) turns the impossible non-terminating case into an error
instead of a hang.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt

from .exact import as_fraction

START_BITS = 64
MAX_BITS = 1 << 15


@dataclass(frozen=True)
class Enclosure:
    """A closed rational interval [lo, hi] certified to contain a real number."""

    lo: Fraction
    hi: Fraction

    def __post_init__(self):
        if self.lo > self.hi:
            raise ValueError(f"enclosure lo {self.lo} exceeds hi {self.hi}")

    @classmethod
    def point(cls, value) -> Enclosure:
        value = Fraction(value)
        return cls(value, value)

    @property
    def width(self) -> Fraction:
        return self.hi - self.lo

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    def __add__(self, other: Enclosure) -> Enclosure:
        return Enclosure(self.lo + other.lo, self.hi + other.hi)

    def scale(self, factor: Fraction) -> Enclosure:
        """factor * [lo, hi] for a rational factor >= 0."""
        if factor < 0:
            raise ValueError(f"scale factor must be >= 0, got {factor}")
        return Enclosure(self.lo * factor, self.hi * factor)

    def __contains__(self, value) -> bool:
        return self.lo <= value <= self.hi

    def __iter__(self):
        """So that `lo, hi = enclosure` works (CONTRACT.md's "(lo, hi)" form)."""
        yield self.lo
        yield self.hi


# -- elementary enclosures -------------------------------------------------------------
def _floor_div(a: int, b: int) -> int:
    return a // b


def _ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


def _atanh_series_bounds(z: Fraction, precision: int) -> tuple[int, int]:
    """Integers L <= 2^P * 2 atanh(z) <= U for rational 0 <= z <= 1/3, P = precision.

    2 atanh(z) = sum_j 2 z^(2j+1)/(2j+1); after N terms the tail is at most
    2 z^(2N+1) / ((2N+1)(1 - z^2)) (a geometric bound with ratio z^2)."""
    scale = 1 << precision
    p, q = z.numerator, z.denominator
    lower = upper = 0
    j = 0
    power_p, power_q = p, q  # z^(2j+1)
    while True:
        num, den = 2 * power_p * scale, (2 * j + 1) * power_q
        lower += _floor_div(num, den)
        upper += _ceil_div(num, den)
        j += 1
        power_p, power_q = power_p * p * p, power_q * q * q
        # tail after j terms: 2 z^(2j+1) / ((2j+1)(1 - z^2)), scaled
        tail_num = 2 * power_p * scale * q * q
        tail_den = (2 * j + 1) * power_q * (q * q - p * p)
        tail = _ceil_div(tail_num, tail_den)
        if tail <= 1 or p == 0:
            return lower, upper + tail


def ln_enclosure(r, bits: int = START_BITS) -> Enclosure:
    """[lo, hi] containing ln r for a rational r > 0, of width <= 2^-bits. ln 1 is
    returned exactly as 0.

    With r = 2^k s, s in [1, 2): ln r = ln s + k ln 2. Each series term is rounded
    down and up by one unit of 2^-P, so the width is at most (|k| + 1)(N + 2) units for
    N ~ P/3 terms; P carries enough guard bits for that to stay below 2^-bits."""
    r = as_fraction(r, "r")
    if r <= 0:
        raise ValueError(f"ln needs r > 0, got {r}")
    if r == 1:
        return Enclosure.point(0)
    k = r.numerator.bit_length() - r.denominator.bit_length()
    s = r / (Fraction(2) ** k)
    if s < 1:
        k -= 1
        s *= 2
    # s in [1, 2): ln s = 2 atanh((s - 1)/(s + 1)), (s-1)/(s+1) in [0, 1/3)
    precision = bits + 4 + (abs(k) + 1).bit_length() + bits.bit_length()
    s_lo, s_hi = _atanh_series_bounds((s - 1) / (s + 1), precision)
    two_lo, two_hi = _atanh_series_bounds(Fraction(1, 3), precision)  # ln 2
    if k >= 0:
        lo, hi = s_lo + k * two_lo, s_hi + k * two_hi
    else:
        lo, hi = s_lo + k * two_hi, s_hi + k * two_lo
    scale = 1 << precision
    return Enclosure(Fraction(lo, scale), Fraction(hi, scale))


def sqrt_enclosure(value: Enclosure, bits: int = START_BITS) -> Enclosure:
    """[lo, hi] containing sqrt(v) for every v in `value` (value.lo >= 0). Exact when
    value is a point whose square root is rational."""
    if value.lo < 0:
        raise ValueError(f"sqrt needs a non-negative argument, got lower end {value.lo}")
    if value.exact:
        a = value.lo
        rn, rd = isqrt(a.numerator), isqrt(a.denominator)
        if rn * rn == a.numerator and rd * rd == a.denominator:
            return Enclosure.point(Fraction(rn, rd))
    scale = 1 << bits
    lo_scaled = value.lo * scale * scale
    hi_scaled = value.hi * scale * scale
    lo = isqrt(_floor_div(lo_scaled.numerator, lo_scaled.denominator))
    hi = isqrt(_ceil_div(hi_scaled.numerator, hi_scaled.denominator)) + 1
    return Enclosure(Fraction(lo, scale), Fraction(hi, scale))


# -- certified constants ------------------------------------------------------------------
@dataclass(frozen=True)
class ScaledLog:
    """coefficient * ln(argument) for rationals coefficient >= 0 and argument >= 1:
    the form of every log constant of the paper (beta_t, beta_1, beta_3)."""

    coefficient: Fraction
    argument: Fraction

    def __post_init__(self):
        coefficient = as_fraction(self.coefficient, "coefficient")
        argument = as_fraction(self.argument, "argument")
        if coefficient < 0:
            raise ValueError(f"coefficient must be >= 0, got {coefficient}")
        if argument < 1:
            raise ValueError(f"argument must be >= 1 (a non-negative log), got {argument}")
        object.__setattr__(self, "coefficient", coefficient)
        object.__setattr__(self, "argument", argument)

    def enclosure(self, bits: int = START_BITS) -> Enclosure:
        return ln_enclosure(self.argument, bits).scale(self.coefficient)

    def describe(self) -> str:
        return f"{self.coefficient}*ln({self.argument})"


@dataclass(frozen=True)
class Rational:
    """An exactly known constant (scaled parameter sets may fix constants this way)."""

    value: Fraction

    def __post_init__(self):
        object.__setattr__(self, "value", as_fraction(self.value, "value"))

    def enclosure(self, bits: int = START_BITS) -> Enclosure:
        return Enclosure.point(self.value)

    def describe(self) -> str:
        return str(self.value)


def as_float(constant) -> float:
    """A certified constant (ScaledLog or Rational) as the float nearest its enclosure's midpoint
    (for the float paths: fast/ and the bounds' figures)."""
    enclosure = constant.enclosure()
    return float((enclosure.lo + enclosure.hi) / 2)


def decide_le(value: Fraction, bound: Callable[[int], Enclosure]) -> tuple[bool, Enclosure]:
    """Whether value <= B, where bound(bits) encloses the real B ever more tightly as
    bits grows. Returns the decision and the enclosure that settled it."""
    bits = START_BITS
    while bits <= MAX_BITS:
        enclosure = bound(bits)
        if value <= enclosure.lo:
            return True, enclosure
        if value > enclosure.hi:
            return False, enclosure
        bits *= 2
    raise ArithmeticError(f"could not separate {value} from a bound enclosed in {bound(MAX_BITS)} at {MAX_BITS} bits")


def sqrt_lower(a, rel_bits: int = 64) -> Fraction:
    """A rational w with sqrt(a) (1 - 2^-rel_bits) <= w <= sqrt(a), exact when sqrt(a) is
    rational; a > 0. Used where an irrational weight must become a rational input."""
    a = a if type(a) is Fraction else as_fraction(a, "a")
    if a <= 0:
        raise ValueError(f"sqrt_lower needs a > 0, got {a}")
    num, den = a.numerator, a.denominator
    # sqrt(a) >= 2^-(e+1) where 2^-e ~ a^(1/2); take that many extra bits so the
    # absolute error 2^-bits is a relative error <= 2^-rel_bits.
    extra = max(0, (den.bit_length() - num.bit_length()) // 2 + 2)
    bits = rel_bits + extra + 1
    # sqrt_enclosure(Enclosure.point(a), bits).lo without the Fractions in between
    root_num, root_den = isqrt(num), isqrt(den)
    if root_num * root_num == num and root_den * root_den == den:
        return Fraction(root_num, root_den)
    return Fraction(isqrt((num << 2 * bits) // den), 1 << bits)


def certified_ceil(constant, factor: int) -> int:
    """ceil(factor * c) for a certified constant c (ScaledLog or Rational) and an integer
    factor >= 1. A transcendental c * factor is never an integer, so refining its
    enclosure until both ends share a floor always ends."""
    if isinstance(factor, bool) or not isinstance(factor, int) or factor < 1:
        raise ValueError(f"factor must be an integer >= 1, got {factor!r}")
    bits = START_BITS
    while bits <= MAX_BITS:
        enclosure = constant.enclosure(bits).scale(Fraction(factor))
        if enclosure.exact:
            value = enclosure.lo
            return -((-value.numerator) // value.denominator)
        lo_floor = enclosure.lo.numerator // enclosure.lo.denominator
        hi_floor = enclosure.hi.numerator // enclosure.hi.denominator
        if lo_floor == hi_floor and enclosure.lo != lo_floor:
            return lo_floor + 1
        bits *= 2
    raise ArithmeticError(f"could not decide the ceiling of {factor} * {constant.describe()}")
