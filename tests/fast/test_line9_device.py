"""Line 9's cycle route with its dense passes on an array backend (fast/line9_device.py), on
the numpy namespace and on array-api-strict (held to the 2023.12 standard, no
data-dependent shapes), held against the whole LP in one dense HiGHS call and against the
host route (fast/line9.py's fit_distribution).

Random nested classes: thresholds of one orientation on shuffled points, hypotheses in
shuffled order with duplicates and the constant ones, supports that miss points, |H| from
1 to 70, random symmetric rows with weights over six orders of magnitude and antisymmetric
W. Both routes are certified within CHAIN_RTOL |s| + CHAIN_ATOL x scale of their own lower
bound, so each is compared to the HiGHS optimum; the device route's maxima (scale, the
value of an R over every row) equal the host's bit for bit, and its answer does not depend
on the row-block size or on which of the two backends runs it. Planted faults (a gather
that reads the transposed pair, a dense check that drops a block's violated edges, wrong
potentials) must fail the certificate: None, and the caller's fallback."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
from hypothesis import given

from fast import line9, line9_chain, line9_device
from fast.backends import get_backend
from fast.nested import Nested
from tests.fast.test_line9_chain import LP_TOL, dense_optimum, nested_lp, thresholds_lp

BACKENDS = ("numpy", "array-api-strict", "array-api-strict:device1")  # device1: a stand-in device (fast/backends.py)


@contextlib.contextmanager
def backend(name: str):
    """The Backend, with array-api-strict held to the 2023.12 standard for the duration."""
    if name != "array-api-strict":
        yield get_backend(name)
        return
    strict = pytest.importorskip("array_api_strict")
    with strict.ArrayAPIStrictFlags(api_version="2023.12", boolean_indexing=False, data_dependent_shapes=False):
        yield get_backend(name)


def host_R(HS, pS, eta):
    HS = HS.astype(float)
    return HS @ (pS * (1 - eta)) + (1 - HS) @ (pS * eta)


def fit(name, HS, pS, weight, W, nested=None, stats=None):
    with backend(name) as b:
        return line9_device.fit_nested_device(
            b, HS, pS, b.asarray(weight, b.xp.float64), b.asarray(W, b.xp.float64), nested, stats
        )


def scale_of(weight, W) -> float:
    return float(np.nanmax(weight * (np.abs(W) + 1)))


def check_against_lp(name, HS, pS, weight, W, nested=None):
    """The device route's answer: certified, near the LP's optimum, as the host route's is."""
    optimum = dense_optimum(HS, pS, weight, W)
    scale = scale_of(weight, W)
    stats: dict = {}
    fitted = fit(name, HS, pS, weight, W, nested, stats)
    assert fitted is not None, f"a nested class fell back: {stats}"
    eta, R, value, lower = fitted
    assert stats["method"] == "cycle_ratio" and stats["rows"] == int(np.isfinite(weight).sum()), stats
    assert eta.shape == (HS.shape[1],) and ((eta >= 0) & (eta <= 1)).all(), eta
    # value >= s* >= lower in the reals; both are float computations (a row's w (R_h - R_h' - W),
    # the cycle's -A/B), each a few roundings of quantities below the scale
    assert value >= lower - 1e-14 * scale, (value, lower)
    assert value - lower <= line9_chain.CHAIN_RTOL * abs(lower) + line9_chain.CHAIN_ATOL * scale, (lower, value)
    assert np.allclose(R, host_R(HS, pS, eta), rtol=0, atol=1e-14), (R, host_R(HS, pS, eta))
    assert abs(value - line9.lp_value(host_R(HS, pS, eta), weight, W)) <= 1e-12 * scale
    assert lower <= optimum + LP_TOL * scale, f"certified lower bound {lower!r} above the optimum {optimum!r}"
    assert value <= optimum + LP_TOL * scale, f"eta^ {eta} has value {value!r}, the optimum is {optimum!r}: {stats}"
    host_stats: dict = {}
    _, host_value = line9.fit_distribution(
        HS, np.arange(HS.shape[1]), pS, weight, W, stats=host_stats, nested=nested or True
    )
    assert host_stats["method"] == "cycle_ratio", host_stats
    assert abs(host_value - optimum) <= LP_TOL * scale and abs(value - host_value) <= 2 * LP_TOL * scale
    return fitted


@pytest.mark.parametrize("name", BACKENDS)
@given(problem=nested_lp())
def test_device_route_matches_the_whole_lp(name, problem):
    H, p, weight, W = problem
    if not np.isfinite(weight).any():
        return
    check_against_lp(name, H, p, weight, W)


def random_nested(rng, num_h: int, m: int):
    """(H on its m points, the support, p^ on it, weight, W): thresholds of one orientation
    on shuffled points, hypotheses in shuffled order with repeats and the two constants,
    a support that may miss points, rows on a random symmetric set of pairs that differ
    on the support."""
    order = rng.permutation(m)
    lengths = rng.integers(0, m + 1, num_h)
    lengths[rng.random(num_h) < 0.1] = 0
    lengths[rng.random(num_h) < 0.1] = m
    if num_h > 3:
        lengths[: num_h // 4] = rng.choice(lengths, num_h // 4)  # repeats
    lengths = rng.permutation(lengths)
    H = np.zeros((num_h, m), np.int64)
    for h, c in enumerate(lengths):
        H[h, order[:c]] = 1
    support = np.flatnonzero(rng.random(m) < 0.8)
    if not len(support):
        support = np.array([int(rng.integers(m))])
    p = rng.integers(1, 20, len(support)).astype(float)
    p /= p.sum()
    HS = H[:, support]
    differ = (HS[:, None, :] != HS[None, :, :]).any(axis=2)
    keep = np.triu(differ & (rng.random((num_h, num_h)) < 0.7), 1)
    keep = keep | keep.T
    weight = 10.0 ** rng.uniform(-3, 3, (num_h, num_h))
    weight = np.where(keep, np.triu(weight) + np.triu(weight, 1).T, np.nan)
    W = np.triu(rng.uniform(-1, 1, (num_h, num_h)), 1)
    W = np.where(keep, W - W.T, np.nan)
    return H, support, p, weight, W


# seed 27: |H| = 1, no row; 23: |H| = 3. The default run tries FAST_SEEDS (the shapes
# above among them, |H| up to 59 with up to 2026 rows, up to 52 points); the other seeds
# of the same fuzz (0, 4, 5 and 7 the costliest of the first ten) run under -m slow
FAST_SEEDS = (1, 2, 3, 6, 8, 9, 23, 27)


@pytest.mark.parametrize(
    "seed", [seed if seed in FAST_SEEDS else pytest.param(seed, marks=pytest.mark.slow) for seed in range(30)]
)
def test_random_nested_classes_on_both_backends_and_any_block_size(monkeypatch, seed):
    rng = np.random.default_rng(seed)
    num_h = int(rng.integers(1, 71))
    H, support, p, weight, W = random_nested(rng, num_h, int(rng.integers(1, 60)))
    HS = H[:, support]
    nested = Nested.of(H).on(support)
    scale = line9._scale(weight, W)
    answers = []
    for name in BACKENDS:
        for rows_per_block in (num_h, 7, 1):
            monkeypatch.setattr(line9_device, "ROW_BLOCK_ELEMENTS", rows_per_block * num_h)
            with backend(name) as b:
                weight_d, W_d = b.asarray(weight, b.xp.float64), b.asarray(W, b.xp.float64)
                scale_d, rows = line9_device.scale_and_rows(b, weight_d, W_d)
                assert scale_d == scale and rows == int(np.isfinite(weight).sum())  # a maximum: bit for bit
                R = rng.uniform(0, 1, num_h)
                value_d = line9_device.lp_value(b, b.asarray(R, b.xp.float64), weight_d, W_d)
                assert value_d == line9.lp_value(R, weight, W), (value_d, line9.lp_value(R, weight, W))
            if scale is None:  # no rows: every D^ is optimal
                eta, R, value, lower = fit(name, HS, p, weight, W, nested)
                assert (eta == 0.5).all() and value == lower == 0.0 and np.allclose(R, host_R(HS, p, eta), atol=1e-15)
                continue
            if rows_per_block == num_h and name == BACKENDS[0]:  # the exact LP once; the rest equal this
                answers.append(check_against_lp(name, HS, p, weight, W, nested))
            else:
                answers.append(fit(name, HS, p, weight, W, nested))
    for other in answers[1:]:  # exact maxima and minima, the same sums: the same answer bit for bit
        assert np.array_equal(other[0], answers[0][0]) and np.array_equal(other[1], answers[0][1])
        assert other[2:] == answers[0][2:], (other[2:], answers[0][2:])


def test_a_class_that_is_not_nested_returns_none():
    H = np.array([[1, 1, 0], [0, 1, 1], [0, 0, 0]])  # two intervals overlap, neither holds the other
    p = np.array([0.2, 0.5, 0.3])
    weight = np.array([[np.nan, 2.0, 1.0], [2.0, np.nan, 3.0], [1.0, 3.0, np.nan]])
    W = np.array([[np.nan, 0.1, 0.4], [-0.1, np.nan, 0.2], [-0.4, -0.2, np.nan]])
    for name in BACKENDS:
        stats: dict = {}
        assert fit(name, H, p, weight, W, None, stats) is None
        assert stats == {"nested": False, "chain_fallback": False}, stats


def drop_last_block(original):
    def violated(self, *args):
        return original(self, *args)[:-1]

    return violated


def transposed_gather(self, rows, cols):
    return original_gather(self, cols, rows)


original_gather = line9_device._DevicePasses.gather


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize("fault", [None, "transposed gather", "dropped block", "values"])
def test_a_planted_fault_fails_the_certificate(monkeypatch, name, fault):
    """Each fault makes Howard solve another graph, or report other potentials, than the
    certificate's (recomputed from the device's W and weights): None, with the fallback
    recorded. Without a fault (None) the same problem is certified."""
    num_h = 24
    H, p, weight, W = thresholds_lp(num_h, np.random.default_rng(5))
    # few first candidates and 3-row blocks: the dense checks must add edges, block by block
    monkeypatch.setattr(line9_device, "ROW_BLOCK_ELEMENTS", 3 * num_h)
    monkeypatch.setattr(line9_device, "CANDIDATES_FIRST", 2)
    if fault == "transposed gather":
        monkeypatch.setattr(line9_device._DevicePasses, "gather", transposed_gather)
    elif fault == "dropped block":
        monkeypatch.setattr(
            line9_device._DevicePasses, "violated", drop_last_block(line9_device._DevicePasses.violated)
        )
    elif fault == "values":
        original = line9_chain.edge_rounds

        def faulty(*args, **kwargs):
            found = original(*args, **kwargs)
            return None if found is None else (found[0] + np.random.default_rng(0).normal(0, 1e-3, num_h), found[1])

        monkeypatch.setattr(line9_device, "edge_rounds", faulty)
    stats: dict = {}
    fitted = fit(name, H, p, weight, W, None, stats)
    if fault is None:
        assert fitted is not None and stats["rounds"] > 1, stats
        assert abs(fitted[2] - dense_optimum(H.astype(np.int64), p, weight, W)) <= LP_TOL * 4
    else:
        assert fitted is None and stats["chain_fallback"], stats


@pytest.mark.parametrize("name", BACKENDS)
def test_the_dense_checks_add_each_violated_edge_once(monkeypatch, name):
    """With lambda so large that every pair edge's reduced cost is below -tol and room for
    all of them, the first check adds exactly the rows' edges not chosen first, and the
    next adds none: the chosen set keeps an edge from entering the sparse graph twice."""
    rng = np.random.default_rng(2)
    H, support, p, weight, W = random_nested(rng, 30, 20)
    num_h = H.shape[0]
    monkeypatch.setattr(line9_device, "ROW_BLOCK_ELEMENTS", 4 * num_h)
    monkeypatch.setattr(line9_device, "CANDIDATES_ADDED", num_h)
    with backend(name) as b:
        passes = line9_device._DevicePasses(b, b.asarray(weight, b.xp.float64), b.asarray(W, b.xp.float64))
        d, first = passes.first()
        first_keys = np.concatenate([rows * num_h + cols for rows, cols in first])
        assert len(first_keys) == len(set(first_keys)) <= line9_device.CANDIDATES_FIRST * num_h
        added = np.concatenate([rows * num_h + cols for rows, cols in passes.violated(1e9, d, 1e-9)])
        every = np.flatnonzero(np.isfinite(weight).ravel())
        assert np.array_equal(np.sort(np.concatenate([first_keys, added])), every)
        assert passes.edges() == len(every) and not sum(len(rows) for rows, _ in passes.violated(1e9, d, 1e-9))
        a, b_ = passes.gather(every // num_h, every % num_h)  # the sparse edges' a and b, as fit_nested's A and B
        assert np.array_equal(a, W.ravel()[every]) and np.array_equal(b_, 1.0 / weight.ravel()[every])
