"""The integer helpers of reference.catoni and reference.certified against plain Fraction
definitions: the search on the integer grid must make the decisions of the same search
written on Fractions (`root_by_fractions`, the same search in its plainest form: same
probes, so the same enclosures), catoni_alpha and sqrt_lower must return
the rationals of their sqrt_enclosure definitions, and the quick disproof must never
reject an exact root."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from reference import catoni
from reference.catoni import (
    _f_bounds,
    _grid_exponent,
    _grouped,
    _is_exact_root,
    _Problem,
    _round_half_even,
    _simplest_between,
    _simplest_between_int,
    catoni_alpha,
    catoni_sign_exact,
)
from reference.certified import Enclosure, Rational, ScaledLog, sqrt_enclosure, sqrt_lower
from tests.reference.test_catoni import alpha_st, data, importance_weighted, width_st

small_fractions = st.fractions(-5, 5, max_denominator=40)


# -- the simplest rational of an interval ---------------------------------------------------
def simplest_by_search(a: F, b: F) -> F:
    """The rational of [a, b] with the smallest denominator, smallest |value| among those
    (the continued-fraction answer: 0 if the interval holds it, else the one nearest 0):
    denominators tried in increasing order."""
    d = 1
    while True:
        lo, hi = math.ceil(a * d), math.floor(b * d)  # numerators with a <= n/d <= b
        if lo <= hi:
            n = 0 if lo <= 0 <= hi else (lo if lo > 0 else hi)
            return F(n, d)
        d += 1


@given(a=small_fractions, b=small_fractions)
def test_simplest_between_is_the_smallest_denominator(a, b):
    a, b = min(a, b), max(a, b)
    s = _simplest_between(a, b)
    assert a <= s <= b
    assert s == simplest_by_search(a, b)


@given(a=small_fractions, b=small_fractions, ka=st.integers(1, 5), kb=st.integers(1, 5))
def test_simplest_between_ignores_the_representation(a, b, ka, kb):
    a, b = min(a, b), max(a, b)
    n, d = _simplest_between_int(a.numerator * ka, a.denominator * ka, b.numerator * kb, b.denominator * kb)
    assert math.gcd(n, d) == 1 and d > 0
    assert F(n, d) == simplest_by_search(a, b)


def test_simplest_between_refuses_a_reversed_interval():
    try:
        _simplest_between(F(1, 2), F(1, 3))
    except ValueError as error:
        assert "a <= b" in str(error)
    else:
        raise AssertionError("a reversed interval was accepted")


# -- grid, rounding, the ln arguments ---------------------------------------------------------
@given(width=st.fractions(F(1, 2**200), 10**6))
def test_grid_exponent_matches_its_definition(width):
    m = _grid_exponent(width)
    assert F(2) ** -m <= width / 2 < F(2) ** (1 - m)


@given(n=st.integers(-(10**6), 10**6), d=st.integers(1, 1000))
def test_round_half_even_is_round_of_a_fraction(n, d):
    assert _round_half_even(n, d) == round(F(n, d))


@given(
    values=st.lists(small_fractions, min_size=2, max_size=4, unique=True),
    alpha=st.fractions(F(1, 100), 10, max_denominator=100),
    z=small_fractions,
    k=st.integers(2, 2**70),
    prec=st.sampled_from([64, 128]),
)
def test_f_bounds_depend_on_the_value_of_z_only(values, alpha, z, k, prec):
    """The search hands _f_bounds z = k GD / GN unreduced: the ln arguments are the same."""
    problem = _Problem(_grouped(values, [1] * len(values)), alpha)
    assert _f_bounds(problem, z.numerator, z.denominator, prec) == _f_bounds(
        problem, z.numerator * k, z.denominator * k, prec
    )


# -- the quick disproof before the exact-root test ------------------------------------------------
def test_quick_disproof_keeps_exact_roots():
    """alpha (v - z) = 2 (count 2n) and -6 (count n) with counts whose residues modulo the
    quick prime matter: 2 ln 5 = ln 25 holds as integers, so every prime passes it."""
    for n in (1, 7, catoni._QUICK_PRIME - 1, catoni._QUICK_PRIME, 10**12):
        groups = _grouped([F(2), F(-6)], [2 * n, n])
        assert _is_exact_root(groups, F(1), F(0))
        assert not _is_exact_root(groups, F(1), F(1, 3))


@given(
    values=st.lists(st.fractions(-6, 6, max_denominator=6), min_size=2, max_size=3, unique=True),
    counts=st.lists(st.integers(1, 6), min_size=3, max_size=3),
    alpha=st.sampled_from([F(1), F(1, 2), F(2)]),
    z=st.fractions(-6, 6, max_denominator=6),
)
def test_exact_root_test_with_the_quick_disproof_agrees_with_integers(values, counts, alpha, z):
    counts = counts[: len(values)]
    assert _is_exact_root(_grouped(values, counts), alpha, z) == (catoni_sign_exact(values, counts, alpha, z) == 0)


# -- catoni_alpha and sqrt_lower against their sqrt_enclosure definitions ---------------------------
def alpha_by_fractions(log_term, min_q, n, rho_hat) -> F:
    """catoni_alpha's definition: the lower end of sqrt_enclosure(L 2 min_q / (5 n rho^), bits)
    at the first bits = 64, 128, ... of relative width <= 2^-64, rounded down to 64
    significant bits."""
    ratio = 2 * min_q / (5 * n * rho_hat)
    bits = 64
    while True:
        root = sqrt_enclosure(log_term.enclosure(bits).scale(ratio), bits)
        if root.lo > 0 and root.width * 2**64 <= root.lo:
            break
        bits *= 2
    e = math.floor(math.log2(root.lo))  # then corrected exactly
    while F(2) ** e > root.lo:
        e -= 1
    while F(2) ** (e + 1) <= root.lo:
        e += 1
    scaled = root.lo * F(2) ** (63 - e)
    return F(math.floor(scaled)) / F(2) ** (63 - e)


log_terms = st.one_of(
    st.builds(
        ScaledLog, st.fractions(F(1, 10), 10, max_denominator=100), st.fractions(F(11, 10), 10**7, max_denominator=10)
    ),
    st.builds(Rational, st.fractions(F(1, 100), 100, max_denominator=100)),
    st.integers(1, 30).map(lambda k: Rational(F(k * k, 4))),  # with square ratios: an exact root
)
positive = st.fractions(F(1, 10**4), 1, max_denominator=10**4)


@given(
    log_term=log_terms,
    min_q=st.one_of(positive, st.integers(1, 20).map(lambda k: F(k * k, 400))),
    n=st.one_of(st.integers(1, 10**12), st.integers(1, 40).map(lambda k: 5 * k * k)),
    rho_hat=st.one_of(positive, st.integers(1, 20).map(lambda k: F(2, 5 * k * k))),
)
def test_catoni_alpha_matches_its_fraction_definition(log_term, min_q, n, rho_hat):
    assert catoni_alpha(log_term, min_q, n, rho_hat) == alpha_by_fractions(log_term, min_q, n, rho_hat)


def test_catoni_alpha_of_an_exact_square():
    # 2 * (25/4) * 1 / (5 * 10 * (1/4)) = 1: alpha is exactly 1, and 1/2 with min_q / 4
    assert catoni_alpha(Rational(F(25, 4)), F(1), 10, F(1, 4)) == 1
    assert catoni_alpha(Rational(F(25, 4)), F(1, 4), 10, F(1, 4)) == F(1, 2)


@given(
    a=st.one_of(
        st.fractions(F(1, 10**6), 10**6, max_denominator=10**6),
        st.tuples(st.integers(1, 10**4), st.integers(1, 10**4)).map(lambda t: F(t[0] ** 2, t[1] ** 2)),
        st.integers(1, 2**64).map(lambda k: F(1, k)),
    ),
    rel_bits=st.sampled_from([1, 10, 64, 128]),
)
def test_sqrt_lower_matches_its_fraction_definition(a, rel_bits):
    extra = max(0, (a.denominator.bit_length() - a.numerator.bit_length()) // 2 + 2)
    assert sqrt_lower(a, rel_bits) == sqrt_enclosure(Enclosure.point(a), rel_bits + extra + 1).lo


# -- the search: integers against Fractions -------------------------------------------------------
def root_by_fractions(values, counts, alpha, width=F(1, 2**64)) -> Enclosure:
    """catoni_root's search on Fractions: the same seed, precision, probes, Newton steps,
    bisections and exact-root tests, each a Fraction operation (module notes, "Search")."""
    groups = _grouped(values, counts)
    vmin, vmax = groups[0][0], groups[-1][0]
    centre = (vmin + vmax) / 2
    if all(v + w == 2 * centre and c == d for (v, c), (w, d) in zip(groups, reversed(groups))):
        return Enclosure.point(centre)
    problem = _Problem(groups, alpha)
    m = _grid_exponent(width)
    step = F(2) ** -m

    def on_grid(x, how=round):
        return how(x / step) * step

    a, b = vmin, vmax
    seed = problem.float_seed()
    candidate = None if seed is None else F(seed)
    slope = None if candidate is None else problem.slope(candidate)
    if slope:
        log_slope = math.floor(math.log2(slope))
    else:
        log_slope = problem.alpha_num.bit_length() - problem.alpha_den.bit_length()
    problem.prec = catoni._round_prec(m + problem.total.bit_length() + 14 - log_slope)
    trusted, failures = False, 0
    while b - a > width:
        before = b - a
        if candidate is None or not a < candidate < b or failures >= 2:
            probes = [on_grid((a + b) / 2, math.floor)]
            failures = 0
        elif trusted:
            g = on_grid(candidate)
            probes = [p for p in (g - step, g + step) if a < p < b] or [on_grid((a + b) / 2, math.floor)]
        else:
            g = on_grid(candidate)
            probes = [g] if a < g < b else [on_grid((a + b) / 2, math.floor)]
        best = None
        for z in probes:
            if not a < z < b:
                continue
            sign, value = problem.certified_sign(z)
            if sign == 0:
                return Enclosure.point(z)
            if sign > 0:
                a = z
            else:
                b = z
            slope = problem.slope(z)
            if value is not None and slope is not None:
                delta = value / F(slope)
                if best is None or abs(delta) < abs(best[1]):
                    best = (z, delta)
        if best is None:
            candidate, trusted = None, False
        else:
            z, delta = best
            candidate = z + delta
            trusted = abs(delta) * F(1, 2**36) + alpha * delta * delta * 4 <= step / 8
        failures = failures + 1 if (b - a) * 2 > before else 0
    s = _simplest_between(a, b)
    if a < s < b and s.denominator**2 * (b - a) <= 1 and _is_exact_root(groups, alpha, s):
        return Enclosure.point(s)
    return Enclosure(a, b)


@given(d=data(), alpha=alpha_st, width=width_st)
# nearly symmetric data and a huge alpha: Newton candidates that leave the bracket
@example(
    d=([F(29767, 253), F(27457, 253), F(1244, 11)], [776177347, 776177346, 420857296]),
    alpha=F(2**200),
    width=F(1, 2**64),
)
def test_search_on_integers_matches_fractions(d, alpha, width):
    values, counts = d
    assert catoni.catoni_root(values, counts, alpha, width=width) == root_by_fractions(values, counts, alpha, width)


@given(
    d=importance_weighted(max_count=10**9),
    alpha=alpha_st,
    width=st.sampled_from([F(1, 2**64), F(5), F(10**6), F(1, 3 * 2**40)]),
)
def test_search_on_integers_matches_fractions_on_loss_differences(d, alpha, width):
    values, counts = d
    assert catoni.catoni_root(values, counts, alpha, width=width) == root_by_fractions(values, counts, alpha, width)


@pytest.mark.parametrize("seed", ["none", "far-left", "far-right", "tiny-slope"])
@given(d=data(max_distinct=4, max_count=10), alpha=alpha_st)
# a candidate outside the bracket after a round that failed to halve it (found by comparing
# the two searches on many draws: a transcription that kept the failure count there differed)
@example(d=([F(-177, 20), F(138, 37), F(20)], [1, 2, 5]), alpha=F(10))
@example(d=([F(-47, 7), F(74, 9), F(74, 9)], [5, 10, 6]), alpha=F(10))
@example(d=([F(233, 25), F(-95, 6), F(233, 25), F(-2)], [8, 1, 1, 1]), alpha=F(233, 1000))
def test_search_on_integers_matches_fractions_from_any_seed(seed, d, alpha):
    """The rarer paths (bisection, a candidate outside the bracket, failures) from the
    seeds of tests/reference/test_catoni.py's test_any_seed_still_certified."""
    values, counts = d
    with pytest.MonkeyPatch.context() as mp:
        if seed == "none":
            mp.setattr(_Problem, "float_seed", lambda self: None)
            mp.setattr(_Problem, "slope", lambda self, z: None)
        elif seed == "far-left":
            mp.setattr(_Problem, "float_seed", lambda self: self.floats[0][0])
        elif seed == "far-right":
            mp.setattr(_Problem, "float_seed", lambda self: self.floats[-1][0] - 1e-9)
        else:
            mp.setattr(_Problem, "slope", lambda self, z: 1e-300)
        assert catoni.catoni_root(values, counts, alpha) == root_by_fractions(values, counts, alpha)
