"""fast.catoni (float64 Catoni roots, the appendix lemma "Concentration inequality for
Catoni's estimator") against the certified enclosures of reference.catoni.

Both sides get the same problem: the float data are handed to the reference as the exact
rationals they hold (Fraction(float)), so the comparison measures the float solver alone,
not the rounding of 1/q to a double. A float root z agrees with an enclosure [lo, hi]
when |z - (lo + hi)/2| <= (hi - lo)/2 + root_tolerance(max|X|, alpha), the bound derived
in fast/catoni.py's notes; the largest error seen is printed (run with -s)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from fast.catoni import _psi_and_slope, catoni_root, catoni_roots, root_tolerance
from reference.catoni import catoni_root as reference_root

EPS = 2.0**-53


# -- data generators (fixed seeds) -------------------------------------------------------
def importance_weighted(rng, k_max=8):
    """CALruption's loss differences: 0 and +-1/q, q in (0, 1] dyadic or not, down to 1e-12."""
    k = int(rng.integers(2, k_max + 1))
    if rng.random() < 0.5:
        q = rng.integers(1, 2**20, k - 1) / 2.0**20 * 2.0 ** -rng.integers(0, 21, k - 1)
    else:
        q = rng.uniform(0, 1, k - 1) ** rng.integers(1, 8)
    q = np.maximum(q, 1e-12)
    values = np.concatenate([[0.0], rng.choice([-1.0, 1.0], k - 1) / q])
    counts = rng.integers(1, 10 ** int(rng.integers(1, 10)), k).astype(float)  # up to 1e9
    alpha = 10 ** rng.uniform(-6, 1)
    return values, counts, alpha


def far_from_root(rng, k_max=4):
    """Data spread over many 1/alpha, where psi is logarithmic and the error bound has its ln."""
    k = int(rng.integers(2, k_max + 1))
    scale = 10 ** rng.uniform(-3, 12)
    values = np.sort(rng.uniform(-1, 1, k)) * scale
    counts = rng.integers(1, 10 ** int(rng.integers(1, 13)), k).astype(float)
    alpha = 10 ** rng.uniform(0, 12) / np.abs(values).max()
    return values, counts, alpha


def batch(problems, K):
    """Pad to K slots with count 0 (value 0)."""
    V = np.zeros((len(problems), K))
    C = np.zeros((len(problems), K))
    A = np.empty(len(problems))
    for i, (v, c, a) in enumerate(problems):
        V[i, : len(v)], C[i, : len(c)], A[i] = v, c, a
    return V, C, A


def reference_enclosure(values, counts, alpha):
    used = np.asarray(counts) > 0
    return reference_root(
        [F(float(x)) for x in np.asarray(values)[used]], [int(c) for c in np.asarray(counts)[used]], F(float(alpha))
    )


def error_over_tolerance(z, values, counts, alpha):
    """(error beyond the enclosure, in units of eps max(1, max|X|); the same in units of
    root_tolerance). Raises if z is outside [min X, max X]."""
    used = np.asarray(counts) > 0
    data = np.asarray(values)[used]
    assert data.min() <= z <= data.max()
    lo, hi = reference_enclosure(values, counts, alpha)
    m = float(np.abs(data).max())
    err = float(abs(F(float(z)) - (lo + hi) / 2) - (hi - lo) / 2)
    return err / (EPS * max(1.0, m)), err / root_tolerance(m, float(alpha))


# -- agreement with the certified reference ------------------------------------------------
@pytest.mark.parametrize("generator, seed, n", [(importance_weighted, 1, 300), (far_from_root, 2, 100)])
def test_agrees_with_reference(generator, seed, n):
    rng = np.random.default_rng(seed)
    problems = [generator(rng) for _ in range(n)]
    V, C, A = batch(problems, 8)
    roots = catoni_roots(V, C, A)
    ratios = [error_over_tolerance(roots[i], V[i], C[i], A[i]) for i in range(n)]
    worst_eps = max(r[0] for r in ratios)
    worst_tol = max(r[1] for r in ratios)
    print(
        f"\n{generator.__name__}: largest error {worst_eps:.2f} eps max(1, max|X|), {worst_tol:.3f} of root_tolerance"
    )
    assert worst_tol <= 1


@pytest.mark.parametrize("generator, seed, n", [(importance_weighted, 3, 200), (far_from_root, 4, 60)])
def test_trusted_route_agrees_with_reference(generator, seed, n):
    """trusted=True (fast.calruption's blocks: the lean first evaluation and its one-step
    rule, then the general search for the rest) is held to the same enclosure."""
    rng = np.random.default_rng(seed)
    problems = [generator(rng) for _ in range(n)]
    V, C, A = batch(problems, 8)
    roots, iterations = catoni_roots(V, C, A, trusted=True, return_iterations=True)
    assert (iterations == 1).any() and (iterations > 1).any()  # both routes ran
    worst = max(error_over_tolerance(roots[i], V[i], C[i], A[i])[1] for i in range(n))
    assert worst <= 1, worst


def test_extremes_agree_with_reference():
    """Counts of 1e13, alpha down to 1e-12, values up to 1e12, alpha max|X| up to 1e18."""
    cases = [
        ([1e12, -1e12, 0.0], [1e13, 3, 5], 1e-12),
        ([1e12, -1e12, 0.0], [1e13, 1e13 - 1, 1], 1e-12),
        ([1e12, -1e12, 0.0], [3, 1e13, 5], 1e-6),
        ([1e12, -4.0, 0.0, 2.0], [1, 1e13, 1e9, 7], 10.0),
        ([-1e12, 1e12], [1e13, 1e13 - 1], 1e-12),
        ([0.0, 1.0], [1, 2], 1e20),  # root 1 - 1.19e-10
        ([-3.0, 1e6, 7.5], [10**12, 1, 10**12], 1e-9),
    ]
    for values, counts, alpha in cases:
        z = catoni_roots(np.array([values]), np.array([counts], dtype=float), np.array([alpha]))[0]
        _, over = error_over_tolerance(z, values, counts, alpha)
        assert over <= 1, (values, counts, alpha, z)


# -- exact and structural cases -------------------------------------------------------------
def test_constant_data_exact():
    V = np.array([[2.5, 2.5, 9.0], [-1e12, -1e12, -1e12], [1 / 3, 0.0, 0.0]])
    C = np.array([[3, 10**13, 0], [1, 1, 1], [7, 0, 0]], dtype=float)
    roots = catoni_roots(V, C, np.array([1.0, 1e-12, 10.0]))
    assert roots.tolist() == [2.5, -1e12, 1 / 3]
    assert catoni_root([1 / 3, 1 / 3], [1, 5], 0.25) == (F(1 / 3), F(1 / 3))


def test_symmetric_data_root_is_centre():
    rng = np.random.default_rng(3)
    problems, centres = [], []
    for _ in range(200):
        k = int(rng.integers(1, 5))
        centre = float(rng.integers(-(2**20), 2**20)) / 2**10  # dyadic: c +- d are exact doubles
        offsets = rng.integers(1, 2**30, k) / 2.0 ** int(rng.integers(0, 20))
        counts = rng.integers(1, 10**9, k).astype(float)
        values = np.concatenate([centre - offsets, centre + offsets, [centre]])
        problems.append((values, np.concatenate([counts, counts, [rng.integers(0, 5)]]), 10 ** rng.uniform(-6, 1)))
        centres.append(centre)
    V, C, A = batch(problems, 9)
    roots = catoni_roots(V, C, A)
    for z, c, (values, _, alpha) in zip(roots, centres, problems):
        assert abs(z - c) <= root_tolerance(float(np.abs(values).max()), alpha)
    print(f"\nsymmetric: {np.mean(roots == np.array(centres)):.0%} exactly the centre")


def test_padding_is_ignored():
    rng = np.random.default_rng(4)
    V, C, A = batch([importance_weighted(rng) for _ in range(300)], 12)
    clean = catoni_roots(V, C, A)
    garbage = V.copy()
    pad = C == 0
    garbage[pad] = rng.choice([1e300, -1e300, np.nan, np.inf, -np.inf, 0.0], pad.sum())
    assert np.array_equal(catoni_roots(garbage, C, A), clean)
    # moving the padding around or adding slots only reorders the sum over slots
    wider_v = np.concatenate([np.full((300, 5), 1e300), garbage], axis=1)
    wider_c = np.concatenate([np.zeros((300, 5)), C], axis=1)
    wider = catoni_roots(wider_v, wider_c, A)
    for i in range(300):
        used = C[i] > 0
        assert abs(wider[i] - clean[i]) <= 2 * root_tolerance(float(np.abs(V[i][used]).max()), A[i])


def test_extreme_inputs_finite_and_in_bracket():
    V = np.array(
        [
            [1e12, -1e12, 0.0],
            [1e300, -1e300, 0.0],  # alpha |X - z| ~ 1e600: y itself overflows
            [1.7e308, -1.7e308, 1.0],  # X - z would overflow without the scaling
            [1e-300, -2e-300, 0.0],  # y underflows: the root is the weighted mean
            [1e-300, -2e-300, 0.0],
            [1.0, 2.0, 1e200],  # alpha |y| > 1e150: the logarithmic branch
        ]
    )
    C = np.array([[1e13, 3, 5], [1, 2, 5], [1, 2, 5], [1, 2, 5], [1, 2, 5], [1e13, 1e13, 1]])
    A = np.array([1e-12, 1e300, 1e-300, 1e-300, 1e300, 1.0])
    roots, iterations = catoni_roots(V, C, A, return_iterations=True)
    assert np.all(np.isfinite(roots))
    assert np.all((V.min(axis=1) <= roots) & (roots <= V.max(axis=1)))
    assert roots[3] == pytest.approx(-3e-300 / 8, rel=1e-15)  # the weighted mean
    assert np.all(iterations <= 200)


def test_max_iter_still_in_bracket():
    rng = np.random.default_rng(5)
    V, C, A = batch([far_from_root(rng) for _ in range(100)], 4)
    for max_iter in (1, 2):
        roots = catoni_roots(V, C, A, max_iter=max_iter)
        used = C > 0
        assert np.all(np.where(used, V, np.inf).min(axis=1) <= roots)
        assert np.all(roots <= np.where(used, V, -np.inf).max(axis=1))


def test_one_and_many_problems():
    rng = np.random.default_rng(6)
    V, C, A = batch([importance_weighted(rng) for _ in range(5000)], 8)
    roots = catoni_roots(V, C, A)
    assert roots.shape == (5000,) and roots.dtype == np.float64
    # each problem is solved on its own: a batch of one gives the same bits
    for i in rng.choice(5000, 40, replace=False):
        assert catoni_roots(V[i : i + 1], C[i : i + 1], A[i : i + 1])[0] == roots[i]
        lo, hi = catoni_root(list(V[i]), list(C[i]), A[i])
        assert lo == hi == F(roots[i])
    for i in range(0, 5000, 250):
        assert error_over_tolerance(roots[i], V[i], C[i], A[i])[1] <= 1
    assert catoni_roots(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0)).shape == (0,)


def test_large_argument_branch_matches_direct_formula():
    """psi and psi' through u = 1/|y| agree with the direct formulas where both are finite."""
    t = np.geomspace(1e149, 1e153, 41)
    d = np.concatenate([t, -t])
    psi, slope = _psi_and_slope(d[None, :], np.array([[1.0]]), np.array([[0.0]]), False)
    for x, p, s in zip(d, psi[0], slope[0]):
        ax = abs(x)
        assert p == pytest.approx(math.copysign(math.log1p(ax + ax * ax / 2), x), rel=4 * EPS)
        assert s == pytest.approx((1 + ax) / (1 + ax + ax * ax / 2), rel=4 * EPS)


# -- validation --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "values, counts, alpha, field",
    [
        ([1, 2], [1], 1, "values and counts"),
        ([], [], 1, "values"),
        ([1, 2], [0, 0], 1, "counts"),
        ([1, 2], [1, -1], 1, "counts[1]"),
        ([1, 2], [1.5, 1], 1, "counts[0]"),
        ([1, 2], [True, 1], 1, "counts[0]"),
        ([1, 2], [1, math.inf], 1, "counts[1]"),
        ([math.nan, 2], [1, 1], 1, "values[0]"),
        ([1, math.inf], [1, 1], 1, "values[1]"),
        ([1, F(10**400)], [1, 1], 1, "values[1]"),
        ([1, "2"], [1, 1], 1, "values[1]"),
        ([1, 2], [1, 1], 0, "alpha"),
        ([1, 2], [1, 1], -1.0, "alpha"),
        ([1, 2], [1, 1], math.inf, "alpha"),
        ([1, 2], [1, 1], F(1, 10**400), "alpha"),
        ("12", [1, 1], 1, "values"),
        ([1, 2], 3, 1, "counts"),
    ],
)
def test_catoni_root_validation(values, counts, alpha, field):
    with pytest.raises(ValueError, match=field.replace("[", r"\[").replace("]", r"\]")):
        catoni_root(values, counts, alpha)


@pytest.mark.parametrize(
    "values, counts, alpha, field",
    [
        (np.zeros((2, 3)), np.ones((2, 4)), np.ones(2), "values and counts"),
        (np.zeros(3), np.ones(3), np.ones(1), "values"),
        (np.zeros((2, 3)), np.ones((2, 3)), np.ones(3), "alpha"),
        (np.zeros((2, 3)), np.ones((2, 3)), np.array([1.0, 0.0]), "alpha"),
        (np.zeros((2, 3)), -np.ones((2, 3)), np.ones(2), "counts"),
        (np.zeros((2, 3)), np.full((2, 3), 0.5), np.ones(2), "counts"),
        (np.zeros((2, 3)), np.array([[1, 1, 1], [0, 0, 0]]), np.ones(2), "counts"),
        (np.array([[np.nan, 0, 0], [0, 0, 0]]), np.ones((2, 3)), np.ones(2), "values"),
    ],
)
def test_catoni_roots_validation(values, counts, alpha, field):
    with pytest.raises(ValueError, match=field):
        catoni_roots(values, counts, alpha)


def test_catoni_root_accepts_exact_and_zero_counts():
    """Ints, Fractions and floats alike; a 0 count is padding (the reference refuses it)."""
    a = catoni_root([F(1, 3), 2, -0.5, 7], [2, 3, 1, 0], F(1, 4))
    b = catoni_root([1 / 3, 2.0, -0.5], [2.0, 3.0, 1.0], 0.25)
    assert a == b and a[0] == a[1]
    lo, hi = reference_root([F(1 / 3), 2, F(-1, 2)], [2, 3, 1], F(1, 4))
    assert abs(a[0] - (lo + hi) / 2) <= (hi - lo) / 2 + F(root_tolerance(2.0, 0.25))
