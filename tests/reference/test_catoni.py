"""Catoni's estimator (appendix lemma "Concentration inequality for Catoni's estimator"):
certified enclosures of the root, exact roots, agreement with mpmath, and alpha.

The certificate f(lo) >= 0 >= f(hi) is checked with `catoni_sign_exact`, which decides
on integers alone and shares nothing with the fixed-point path that produced it."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference import catoni
from reference.catoni import _is_exact_root, _ln_bounds, catoni_alpha, catoni_root, catoni_sign_exact
from reference.certified import Enclosure, Rational, ScaledLog

# -- strategies (bounded denominators throughout) ---------------------------------------
values_st = st.fractions(-20, 20, max_denominator=60)
alpha_st = st.one_of(
    st.fractions(F(1, 1000), 10, max_denominator=1000),
    st.integers(1, 2**64).map(lambda k: F(k, 2**64)),  # dyadic, like catoni_alpha's output
)
width_st = st.sampled_from([F(1, 2**64), F(1, 1000), F(3, 7), F(1, 2**100)])


@st.composite
def data(draw, max_distinct=6, max_count=25):
    k = draw(st.integers(1, max_distinct), label="distinct values")
    values = draw(st.lists(values_st, min_size=k, max_size=k), label="values")
    counts = draw(st.lists(st.integers(1, max_count), min_size=k, max_size=k), label="counts")
    return values, counts


@st.composite
def importance_weighted(draw, min_count=1, max_count=25):
    """CALruption's loss differences: 0 and +-1/q for query probabilities q in (0, 1]."""
    k = draw(st.integers(2, 8), label="distinct values")
    qs = draw(
        st.lists(
            st.fractions(F(1, 100), 1, max_denominator=1000).filter(lambda q: q > 0), min_size=k - 1, max_size=k - 1
        ),
        label="q",
    )
    signs = draw(st.lists(st.sampled_from([-1, 1]), min_size=k - 1, max_size=k - 1), label="signs")
    values = [F(0)] + [s / q for s, q in zip(signs, qs)]
    counts = draw(st.lists(st.integers(min_count, max_count), min_size=k, max_size=k), label="counts")
    return values, counts


def grouped(values, counts):
    merged = {}
    for v, c in zip(values, counts):
        merged[F(v)] = merged.get(F(v), 0) + c
    return sorted(merged.items())


def assert_certified(values, counts, alpha, enclosure, width=F(1, 2**64)):
    lo, hi = enclosure
    assert hi - lo <= width
    assert min(values) <= lo <= hi <= max(values)
    s_lo = catoni_sign_exact(values, counts, alpha, lo)
    s_hi = catoni_sign_exact(values, counts, alpha, hi)
    assert s_lo >= 0 >= s_hi, (values, counts, alpha, enclosure, s_lo, s_hi)
    if lo == hi:
        assert s_lo == 0


def mpmath_root(values, counts, alpha):
    """An independent 50-digit solve of the grouped sum (mpmath.findroot, a bracketing
    solver started on [min, max])."""
    groups = grouped(values, counts)
    with mpmath.workdps(50):
        a = mpmath.mpf(alpha.numerator) / alpha.denominator
        vs = [(mpmath.mpf(v.numerator) / v.denominator, c) for v, c in groups]

        def f(z):
            total = mpmath.mpf(0)
            for v, c in vs:
                y = a * (v - z)
                total += c * (mpmath.log(1 + y + y * y / 2) if y >= 0 else -mpmath.log(1 - y + y * y / 2))
            return total

        return mpmath.findroot(f, (vs[0][0], vs[-1][0]), solver="anderson")


def assert_agrees_with_mpmath(values, counts, alpha, enclosure):
    root = mpmath_root(values, counts, alpha)
    with mpmath.workdps(50):
        slack = mpmath.mpf(10) ** -45
        lo = mpmath.mpf(enclosure.lo.numerator) / enclosure.lo.denominator
        hi = mpmath.mpf(enclosure.hi.numerator) / enclosure.hi.denominator
        assert lo - slack <= root <= hi + slack, (values, counts, alpha, enclosure, root)


def mirrored(e: Enclosure) -> Enclosure:
    return Enclosure(-e.hi, -e.lo)


def intersect(e1: Enclosure, e2: Enclosure) -> bool:
    return max(e1.lo, e2.lo) <= min(e1.hi, e2.hi)


# -- the certificate ------------------------------------------------------------------------
@given(d=data(), alpha=alpha_st, width=width_st)
def test_enclosure_is_certified_narrow_and_within_the_data(d, alpha, width):
    values, counts = d
    e = catoni_root(values, counts, alpha, width=width)
    assert_certified(values, counts, alpha, e, width)


@given(d=importance_weighted(), alpha=alpha_st)
def test_importance_weighted_data_certified(d, alpha):
    values, counts = d
    assert_certified(values, counts, alpha, catoni_root(values, counts, alpha))


@given(d=data(), alpha=alpha_st)
def test_odd_symmetry(d, alpha):
    """psi is odd: the root of the negated data is minus the root. The search is not
    mirror-symmetric (float seed, grid rounding), so we require both enclosures to be
    certified and the mirrored one to meet the other."""
    values, counts = d
    e = catoni_root(values, counts, alpha)
    neg_values = [-v for v in values]
    e_neg = catoni_root(neg_values, counts, alpha)
    assert_certified(neg_values, counts, alpha, e_neg)
    assert intersect(e, mirrored(e_neg))
    if e.exact and e.lo.denominator**2 <= 2**64:
        # -root has the same small denominator, so it must be found exactly too
        assert e_neg == mirrored(e)


@given(d=data(), alpha=alpha_st, shift=st.fractions(-10, 10, max_denominator=100))
def test_translation_equivariance(d, alpha, shift):
    values, counts = d
    e = catoni_root(values, counts, alpha)
    e_shift = catoni_root([v + shift for v in values], counts, alpha)
    assert intersect(Enclosure(e.lo + shift, e.hi + shift), e_shift)
    if e.exact and (e.lo + shift).denominator ** 2 <= 2**64:
        # the shifted root is rational with a small denominator: it must be found exactly
        assert e_shift == Enclosure.point(e.lo + shift)


@given(d=data(max_count=10**6), alpha=alpha_st)
def test_agrees_with_mpmath(d, alpha):
    values, counts = d
    e = catoni_root(values, counts, alpha)
    if len(set(values)) > 1:
        assert_agrees_with_mpmath(values, counts, alpha, e)


def test_grouping_merges_duplicates():
    assert catoni_root([1, 1, F(5, 2)], [1, 2, 3], F(1, 3)) == catoni_root([1, F(5, 2)], [3, 3], F(1, 3))


# -- exact roots -------------------------------------------------------------------------------
@given(value=values_st, count=st.integers(1, 10**9), copies=st.integers(1, 4), alpha=alpha_st)
def test_constant_data_gives_the_value(value, count, copies, alpha):
    assert catoni_root([value] * copies, [count] * copies, alpha) == Enclosure.point(value)


@given(
    centre=values_st,
    offsets=st.lists(st.fractions(F(1, 60), 10, max_denominator=60), min_size=1, max_size=4, unique=True),
    counts=st.lists(st.integers(1, 10**9), min_size=4, max_size=4),
    with_centre=st.booleans(),
    alpha=alpha_st,
)
def test_symmetric_data_gives_the_centre(centre, offsets, counts, with_centre, alpha):
    values, cs = [], []
    for off, c in zip(offsets, counts):
        values += [centre - off, centre + off]
        cs += [c, c]
    if with_centre:
        values.append(centre)
        cs.append(counts[-1])
    assert catoni_root(values, cs, alpha) == Enclosure.point(centre)


@given(
    centre=st.fractions(-10, 10, max_denominator=1000),
    scale=st.fractions(F(1, 10), 10, max_denominator=30),
    n=st.sampled_from([1, 3, 10**6, 10**9]),
)
def test_rational_root_without_symmetry_is_found(centre, scale, n):
    """alpha (v - z) = 2 (count 2n) and -6 (count n): ln 5 twice against ln 25, so the
    root is exactly the centre, though the data are not symmetric (mean centre - 2/3 scale)."""
    values = [centre + 2 * scale, centre - 6 * scale]
    counts = [2 * n, n]
    e = catoni_root(values, counts, 1 / scale)
    assert e == Enclosure.point(centre)
    if n <= 3:
        assert catoni_sign_exact(values, counts, 1 / scale, centre) == 0


def test_exact_root_test_matches_the_integer_sign():
    groups = grouped([2, -6, 0], [2, 1, 5])
    assert _is_exact_root(grouped([2, -6], [2, 1]), F(1), F(0))
    for z in (F(0), F(1, 3), F(-1, 2), F(2)):
        assert _is_exact_root(groups, F(1), z) == (catoni_sign_exact([2, -6, 0], [2, 1, 5], 1, z) == 0)


@given(d=data(max_distinct=4, max_count=6), alpha=alpha_st, z=values_st)
def test_exact_root_test_agrees_with_sign_exact(d, alpha, z):
    values, counts = d
    assert _is_exact_root(grouped(values, counts), alpha, z) == (catoni_sign_exact(values, counts, alpha, z) == 0)


def test_sign_exact_at_the_ends_and_the_root():
    assert catoni_sign_exact([0, 1, 3], [1, 2, 3], F(1, 2), 0) == 1
    assert catoni_sign_exact([0, 1, 3], [1, 2, 3], F(1, 2), 3) == -1
    assert catoni_sign_exact([2, -6], [2, 1], 1, 0) == 0
    assert catoni_sign_exact([5], [7], 1, 5) == 0


# -- large counts ---------------------------------------------------------------------------------
@given(d=importance_weighted(min_count=10**6, max_count=10**9), alpha=alpha_st)
def test_large_counts(d, alpha):
    values, counts = d
    e = catoni_root(values, counts, alpha)
    assert e.width <= F(1, 2**64)
    assert min(values) <= e.lo <= e.hi <= max(values)
    assert_agrees_with_mpmath(values, counts, alpha, e)


def test_large_counts_with_catoni_alpha():
    values = [F(-10, 3), F(0), F(5, 2), F(10, 3)]
    counts = [123_456_789, 10**9 - 3, 7 * 10**8, 10**8 + 1]
    alpha = catoni_alpha(ScaledLog(F(2), F(10**6)), F(3, 10), sum(counts), F(1, 3))
    e = catoni_root(values, counts, alpha)
    assert e.width <= F(1, 2**64)
    assert_agrees_with_mpmath(values, counts, alpha, e)


# -- the search's other paths: floats only propose, so any seed must still give a certificate ------
@pytest.mark.parametrize("seed", ["none", "far-left", "far-right", "tiny-slope"])
@given(d=data(max_distinct=4, max_count=10), alpha=alpha_st)
def test_any_seed_still_certified(seed, d, alpha):
    values, counts = d
    with pytest.MonkeyPatch.context() as mp:
        if seed == "none":
            mp.setattr(catoni._Problem, "float_seed", lambda self: None)
            mp.setattr(catoni._Problem, "slope", lambda self, z: None)
        elif seed == "far-left":
            mp.setattr(catoni._Problem, "float_seed", lambda self: self.floats[0][0])
        elif seed == "far-right":
            mp.setattr(catoni._Problem, "float_seed", lambda self: self.floats[-1][0] - 1e-9)
        else:
            mp.setattr(catoni._Problem, "slope", lambda self, z: 1e-300)  # absurd Newton steps
        e = catoni_root(values, counts, alpha)
    assert_certified(values, counts, alpha, e)


@given(d=data(max_distinct=3, max_count=4), alpha=alpha_st)
def test_integer_fallback_when_precision_is_capped(d, alpha):
    """With the precision cap below the starting precision every sign comes from
    `catoni_sign_exact`'s integer comparison: slow, but the same certificate."""
    values, counts = d
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(catoni, "_MAX_PREC", 32)
        e = catoni_root(values, counts, alpha, width=F(1, 2**20))
    assert_certified(values, counts, alpha, e, F(1, 2**20))


def test_data_beyond_float_range():
    """No float seed (the values overflow a double): certified bisection."""
    values, counts, alpha = [10**400, -(10**400) + 1, 3], [1, 2, 1], F(1)
    e = catoni_root(values, counts, alpha, width=F(10**385))
    assert_certified(values, counts, alpha, e, F(10**385))


@given(d=data(max_distinct=4, max_count=10), alpha=st.sampled_from([F(10**7), F(10**12), F(1, 10**15)]))
def test_extreme_alpha(d, alpha):
    values, counts = d
    assert_certified(values, counts, alpha, catoni_root(values, counts, alpha))


# -- the fixed-point ln kernel ---------------------------------------------------------------------
@given(num=st.integers(1, 2**300), extra=st.integers(0, 2**300), prec=st.sampled_from([64, 96, 160, 512]))
def test_ln_kernel_encloses_ln(num, extra, prec):
    den, num = num, num + extra  # num >= den: the kernel's domain (r >= 1)
    lo, hi = _ln_bounds(num, den, prec)
    with mpmath.workprec(prec + 80):
        value = mpmath.log(mpmath.mpf(num) / den) * mpmath.mpf(2) ** prec
        assert lo <= value <= hi
    assert hi - lo <= 4 * prec + 64 + 4 * (num.bit_length() - den.bit_length() + 1)


# -- bad input ----------------------------------------------------------------------------------
def assert_names(excinfo, field, value):
    message = str(excinfo.value)
    assert field in message and value in message[message.index(field) + len(field) :], message


@pytest.mark.parametrize(
    "kwargs, field, value",
    [
        (dict(values=5), "values", "5"),
        (dict(values="12"), "values", "'12'"),
        (dict(values=[]), "values", "[]"),
        (dict(counts={1: 1}), "counts", "{1: 1}"),
        (dict(values=[1], counts=[]), "counts", "[]"),
        (dict(values=[1, 2], counts=[1]), "counts", "2 and 1"),
        (dict(values=[0.5]), "values[0]", "0.5"),
        (dict(values=[1, True]), "values[1]", "True"),
        (dict(values=[1, "x"]), "values[1]", "'x'"),
        (dict(counts=[0]), "counts[0]", "0"),
        (dict(counts=[-3]), "counts[0]", "-3"),
        (dict(counts=[1.0]), "counts[0]", "1.0"),
        (dict(counts=[True]), "counts[0]", "True"),
        (dict(counts=[F(3, 2)]), "counts[0]", "Fraction(3, 2)"),
        (dict(alpha=0), "alpha", "0"),
        (dict(alpha=F(-1, 2)), "alpha", "-1/2"),
        (dict(alpha=0.5), "alpha", "0.5"),
        (dict(alpha=True), "alpha", "True"),
        (dict(width=0), "width", "0"),
        (dict(width=-F(1, 4)), "width", "-1/4"),
        (dict(width=1e-3), "width", "0.001"),
    ],
)
def test_bad_input_names_field_and_value(kwargs, field, value):
    args = dict(values=[1], counts=[1], alpha=1, width=F(1, 2**64))
    args.update(kwargs)
    if "values" in kwargs and "counts" not in kwargs:
        args["counts"] = [1] * len(kwargs["values"]) if isinstance(kwargs["values"], list) else [1]
    if "counts" in kwargs and "values" not in kwargs:
        args["values"] = list(range(len(kwargs["counts"]))) if isinstance(kwargs["counts"], list) else [1]
    with pytest.raises(ValueError) as excinfo:
        catoni_root(args["values"], args["counts"], args["alpha"], width=args["width"])
    assert_names(excinfo, field, value)


def test_sign_exact_validates_z():
    with pytest.raises(ValueError) as excinfo:
        catoni_sign_exact([1], [1], 1, 0.25)
    assert_names(excinfo, "z", "0.25")


# -- alpha ----------------------------------------------------------------------------------------
def true_alpha_bounds_hold(alpha, log_term, min_q, n, rho_hat):
    lo, hi = log_term.enclosure(256)
    assert alpha > 0
    assert alpha * alpha * 5 * n * rho_hat <= 2 * lo * min_q  # alpha <= the true value
    assert (alpha * (1 + F(1, 2**60))) ** 2 * 5 * n * rho_hat >= 2 * hi * min_q  # within 2^-60
    assert alpha.denominator & (alpha.denominator - 1) == 0  # dyadic
    assert alpha.numerator.bit_length() <= 64


@given(
    coefficient=st.fractions(F(1, 10), 10, max_denominator=100),
    argument=st.fractions(F(11, 10), 10**6, max_denominator=10),
    min_q=st.fractions(F(1, 10**4), 1, max_denominator=10**4).filter(lambda x: x > 0),
    n=st.integers(1, 10**9),
    rho_hat=st.fractions(F(1, 10**4), 1, max_denominator=10**4).filter(lambda x: x > 0),
)
def test_catoni_alpha_is_a_certified_lower_rounding(coefficient, argument, min_q, n, rho_hat):
    log_term = ScaledLog(coefficient, argument)
    alpha = catoni_alpha(log_term, min_q, n, rho_hat)
    true_alpha_bounds_hold(alpha, log_term, min_q, n, rho_hat)


def test_catoni_alpha_with_a_rational_log_term():
    # 2 * (5/2) * (1/2) / (5 * 1 * (1/2)) = 1: alpha is exactly 1
    assert catoni_alpha(Rational(F(5, 2)), F(1, 2), 1, F(1, 2)) == 1
    alpha = catoni_alpha(Rational(F(3)), F(1, 7), 100, F(1, 3))
    true_alpha_bounds_hold(alpha, Rational(F(3)), F(1, 7), 100, F(1, 3))


@pytest.mark.parametrize(
    "args, field, value",
    [
        ((Rational(F(1)), 0, 10, F(1, 2)), "min_q", "0"),
        ((Rational(F(1)), F(-1, 3), 10, F(1, 2)), "min_q", "-1/3"),
        ((Rational(F(1)), 0.5, 10, F(1, 2)), "min_q", "0.5"),
        ((Rational(F(1)), F(1, 2), 10, 0), "rho_hat", "0"),
        ((Rational(F(1)), F(1, 2), 10, F(-2)), "rho_hat", "-2"),
        ((Rational(F(1)), F(1, 2), 0, F(1, 2)), "n", "0"),
        ((Rational(F(1)), F(1, 2), 2.0, F(1, 2)), "n", "2.0"),
        ((3, F(1, 2), 10, F(1, 2)), "log_term", "3"),
        ((Rational(F(0)), F(1, 2), 10, F(1, 2)), "log_term", "0"),
    ],
)
def test_catoni_alpha_bad_input(args, field, value):
    with pytest.raises(ValueError) as excinfo:
        catoni_alpha(*args)
    assert_names(excinfo, field, value)
