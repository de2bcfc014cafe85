"""Certified rational enclosures (logs and square roots) and exact decisions."""

from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.certified import Enclosure, Rational, ScaledLog, decide_le, ln_enclosure, sqrt_enclosure


def _mp(value: F):
    return mpmath.mpf(value.numerator) / value.denominator


@given(r=st.fractions(F(1, 10**6), 10**6, max_denominator=10**6), bits=st.sampled_from([64, 128, 512]))
def test_ln_enclosure_contains_mpmath_value_and_is_tight(r, bits):
    with mpmath.workdps(bits // 3 + 60):
        e = ln_enclosure(r, bits)
        value = mpmath.log(_mp(r))
        assert _mp(e.lo) <= value <= _mp(e.hi), (r, bits)
    assert e.width <= F(1, 2**bits), (r, bits, e.width)


def test_ln_of_one_is_exact_and_bad_argument_rejected():
    assert ln_enclosure(F(1)) == Enclosure.point(0)
    with pytest.raises(ValueError, match="r > 0"):
        ln_enclosure(F(0))


@given(a=st.fractions(0, 10**4, max_denominator=10**4), bits=st.sampled_from([64, 200]))
def test_sqrt_enclosure(a, bits):
    e = sqrt_enclosure(Enclosure.point(a), bits)
    assert e.lo * e.lo <= a <= e.hi * e.hi
    assert e.width <= F(2, 2**bits)


def test_sqrt_of_a_rational_square_is_exact():
    assert sqrt_enclosure(Enclosure.point(F(9, 49))) == Enclosure.point(F(3, 7))


def test_decide_le_exact_at_equality_and_refines_near_it():
    three_halves = lambda bits: sqrt_enclosure(Enclosure.point(F(9, 4)), bits)
    assert decide_le(F(3, 2), three_halves)[0] is True
    assert decide_le(F(3, 2) + F(1, 10**30), three_halves)[0] is False
    # ln 2 = 0.693147180559945309417232121458176568...: rationals 1e-40 away on each side
    ln2 = F(693147180559945309417232121458176568075500134360255254120680009, 10**63)
    log2 = ScaledLog(F(1), F(2))
    assert decide_le(ln2 - F(1, 10**40), log2.enclosure)[0] is True
    assert decide_le(ln2 + F(1, 10**40), log2.enclosure)[0] is False
    assert Rational(F(5)).enclosure() == Enclosure.point(5)
