"""Line 9 for a nested class as a minimum cycle ratio (fast/line9_chain.py), held against the
whole LP solved exactly (every row, no row generation, no cycle: reference.lp.solve_lp on
the float inputs read as Fractions).

Random nested classes: a few points, hypotheses that are prefixes of one point order (some
empty, some whole, some repeated), random p^ on the support, a random symmetric set of rows
with weights spread over six orders of magnitude and antisymmetric W. The cycle route must
be taken (no fallback on such inputs), its certified lower bound must lie below the LP's
optimum and the value of its eta^ over every row above it, both within the LP's tolerance;
a class that is not nested must go to row generation; a planted fault in Howard's values
must fail the certificate and fall back, with the same optimum."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from fast import line9, line9_chain
from fast.nested import Nested
from reference.lp import solve_lp

LP_TOL = (
    1e-9  # ours against the exact optimum, relative to the rows' scale (HiGHS's feasibility 1e-10 in the rows' units)
)


@st.composite
def nested_lp(draw):
    """(H on its support, p^, weight, W) with H nested: every row a prefix of one order."""
    k = draw(st.integers(1, 7), label="points")
    num_h = draw(st.integers(2, 7), label="hypotheses")
    lengths = draw(st.lists(st.integers(0, k), min_size=num_h, max_size=num_h), label="prefix lengths")
    order = draw(st.permutations(range(k)), label="point order")
    H = np.zeros((num_h, k), np.int64)
    for h, c in enumerate(lengths):
        H[h, list(order[:c])] = 1
    mass = np.array(draw(st.lists(st.integers(1, 20), min_size=k, max_size=k), label="p^ numerators"), float)
    p = mass / mass.sum()
    weight = np.full((num_h, num_h), np.nan)
    W = np.full((num_h, num_h), np.nan)
    for i in range(num_h):
        for j in range(i + 1, num_h):
            if lengths[i] == lengths[j] or not draw(st.booleans(), label=f"row {i},{j}"):
                continue  # identical on S: rho^ = 0, no row (fast/calruption.py)
            w = 10.0 ** draw(st.integers(-3, 3), label=f"log10 w {i},{j}") * draw(st.floats(1, 2), label=f"w {i},{j}")
            v = draw(st.floats(-1, 1, allow_nan=False), label=f"W {i},{j}")
            weight[i, j] = weight[j, i] = w
            W[i, j], W[j, i] = v, -v
    return H, p, weight, W


def dense_optimum(H, p, weight, W) -> float:
    """The LP of fast/line9.py with every row, in eta^ and s directly, solved exactly
    (reference.lp.solve_lp on the float inputs read as Fractions), returned as a float:
    HiGHS's own optimum is only within its feasibility tolerance, which at weights near
    1e-3 is more than LP_TOL of the rows' scale (the fuzz profile found optima of 4e-8 and
    4e-11 read as 0 there)."""
    k = H.shape[1]
    i, j = np.nonzero(np.isfinite(weight))
    if not len(i):
        return 0.0
    P = [Fraction(float(v)) for v in p]
    A_ub, b_ub = [], []
    for a, b in zip(i.tolist(), j.tolist()):
        # w (R(h) - R(h') - W) = w sum_x p_x (h - h')(x) (1 - 2 eta_x) - w W <= s
        w, diff = Fraction(float(weight[a, b])), [int(H[a, x]) - int(H[b, x]) for x in range(k)]
        A_ub.append([-2 * w * d * P[x] for x, d in enumerate(diff)] + [Fraction(-1)])
        b_ub.append(w * Fraction(float(W[a, b])) - w * sum(d * P[x] for x, d in enumerate(diff)))
    c = [Fraction(0)] * k + [Fraction(1)]
    solution = solve_lp(c, A_ub, b_ub, [Fraction(0)] * k + [None], [Fraction(1)] * k + [None])
    return float(solution.objective)


def value_over_rows(H, p, eta, weight, W) -> float:
    HS = H.astype(float)
    R = HS @ (p * (1 - eta)) + (1 - HS) @ (p * eta)
    return line9.lp_value(R, weight, W)


@given(nested_lp())
def test_cycle_ratio_matches_the_whole_lp(problem):
    H, p, weight, W = problem
    if not np.isfinite(weight).any():
        return
    optimum = dense_optimum(H, p, weight, W)
    stats: dict = {}
    fitted = line9_chain.fit_nested(H.astype(float), p, weight, W, stats)
    note(f"optimum {optimum!r}, stats {stats}")
    assert fitted is not None, f"a nested class fell back: {stats}"
    eta, lower = fitted
    scale = float(np.nanmax(weight * (np.abs(W) + 1)))
    upper = value_over_rows(H, p, eta, weight, W)
    assert ((eta >= 0) & (eta <= 1)).all(), eta
    assert lower <= optimum + LP_TOL * scale, f"certified lower bound {lower!r} above the optimum {optimum!r}"
    assert upper <= optimum + LP_TOL * scale, f"eta^ {eta} has value {upper!r}, the optimum is {optimum!r}"
    assert upper - lower <= line9_chain.CHAIN_RTOL * abs(lower) + line9_chain.CHAIN_ATOL * scale, (lower, upper)


@given(nested_lp())
def test_fit_distribution_takes_the_cycle_route_for_a_nested_class(problem):
    H, p, weight, W = problem
    if not np.isfinite(weight).any():
        return
    support = np.arange(H.shape[1])
    stats: dict = {}
    eta, objective = line9.fit_distribution(H, support, p, weight, W, stats=stats)
    _, objective_rowgen = line9.fit_distribution(H, support, p, weight, W, nested=False)
    scale = float(np.nanmax(weight * (np.abs(W) + 1)))
    assert stats.get("method") == "cycle_ratio", stats
    assert abs(objective - objective_rowgen) <= LP_TOL * scale, (objective, objective_rowgen)
    assert abs(objective - value_over_rows(H, p, eta, weight, W)) <= 1e-12 * scale  # the value of its own eta^


def test_a_class_that_is_not_nested_goes_to_row_generation():
    H = np.array([[1, 1, 0], [0, 1, 1], [0, 0, 0]])  # two intervals overlap, neither holds the other
    p = np.array([0.2, 0.5, 0.3])
    weight = np.array([[np.nan, 2.0, 1.0], [2.0, np.nan, 3.0], [1.0, 3.0, np.nan]])
    W = np.array([[np.nan, 0.1, 0.4], [-0.1, np.nan, 0.2], [-0.4, -0.2, np.nan]])
    assert Nested.of(H) is None
    stats: dict = {}
    _, objective = line9.fit_distribution(H, np.arange(3), p, weight, W, stats=stats)
    assert stats["method"] == "row_generation" and not stats["chain_fallback"], stats
    assert abs(objective - dense_optimum(H, p, weight, W)) <= LP_TOL * 4


def test_nested_order_reads_prefixes_of_one_order():
    H = np.array([[0, 1, 1, 0], [0, 1, 0, 0], [1, 1, 1, 0], [0, 0, 0, 0]], float)
    nested = Nested.of(H)
    c, order = nested.lengths, nested.order
    assert c.tolist() == [2, 1, 3, 0]
    for h in range(4):  # each h is the first c_h points of the order
        assert H[h, order[: c[h]]].all() and not H[h, order[c[h] :]].any()


def thresholds_lp(size: int, rng):
    """Thresholds on `size` points (prefixes of lengths size-1..0), random p^, symmetric
    weights in [0.5, 2] on every pair and antisymmetric W in [-0.6, 0.6]."""
    H = np.tril(np.ones((size, size)), -1)[::-1].copy()
    p = rng.uniform(1, 2, size)
    p /= p.sum()
    weight = rng.uniform(0.5, 2, (size, size))
    weight = (weight + weight.T) / 2
    np.fill_diagonal(weight, np.nan)
    W = rng.uniform(-0.3, 0.3, (size, size))
    W = W - W.T
    np.fill_diagonal(W, np.nan)
    return H, p, weight, W


@pytest.mark.parametrize("fault", ["values", "cycle"])
def test_a_planted_fault_fails_the_certificate_and_falls_back(monkeypatch, fault):
    """A wrong potential (values) or a cycle that is not one (cycle): the certificate must
    not hold, and the answer must still be the optimum (row generation's)."""
    rng = np.random.default_rng(3)
    H, p, weight, W = thresholds_lp(12, rng)
    k = 12
    original = line9_chain.min_cycle_ratio

    def faulty(*args, **kwargs):
        d, (src, dst, chain) = original(*args, **kwargs)
        if fault == "values":
            return d + rng.normal(0, 1e-3, len(d)), (src, dst, chain)
        return d, (src, np.roll(dst, 1), chain)

    monkeypatch.setattr(line9_chain, "min_cycle_ratio", faulty)
    stats: dict = {}
    _, objective = line9.fit_distribution(H, np.arange(k), p, weight, W, stats=stats)
    assert stats["method"] == "row_generation" and stats["chain_fallback"], stats
    assert abs(objective - dense_optimum(H, p, weight, W)) <= LP_TOL * 4


def test_workers_and_block_sizes_do_not_change_the_answer(monkeypatch):
    """The dense passes by row blocks, on one thread or two (the blocks split between them)."""
    num_h = 40
    H, p, weight, W = thresholds_lp(num_h, np.random.default_rng(11))
    whole = line9_chain.fit_nested(H, p, weight, W)
    monkeypatch.setattr(line9_chain, "ROW_BLOCK_ELEMENTS", 3 * num_h)  # 3 rows a block: 14 blocks
    for workers in (1, 2, 3):
        eta, lower = line9_chain.fit_nested(H, p, weight, W, workers=workers)
        assert np.array_equal(eta, whole[0]) and lower == whole[1], workers
    assert abs(whole[1] - dense_optimum(H.astype(np.int64), p, weight, W)) <= LP_TOL * 4
