"""fast/pairs_device.py (lines 7, 8's min q and 13 of a nested class, every |H| x |H| array
on the device) against the general routes that hold for any class -- fast/pair_stats.py's
kernel counts, grouped search and sweep, and np.ldexp for line 13's pair value -- bit for
bit, on the numpy namespace and on array-api-strict (which refuses anything outside the
array API standard).

Random nested classes: thresholds of one orientation (prefixes of a shuffled point order)
in shuffled, sorted and reversed hypothesis order, with repeated and constant (empty and
full) hypotheses and points no hypothesis holds; seen counts with zeros (and large ones
for line 7); q with ties, zeros and several distinct values, in float64 and float32. Each
function runs with its row-block constant as shipped and monkeypatched small (one row per
block, a few rows, a block that does not divide |H|), so block edges are crossed."""

from __future__ import annotations

import importlib.util
import json
import sys
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fast import pair_stats
from fast import pairs_device as PD
from fast.backends import get_backend
from fast.nested import Nested
from tests.support import REPO_ROOT

STRICT = pytest.importorskip("array_api_strict") and "array-api-strict"
BACKENDS = ("numpy", STRICT, f"{STRICT}:device1")  # device1: a stand-in device (fast/backends.py)
# the shipped block (one block at these sizes), one row per block, and blocks that split |H| unevenly
BLOCKS = (PD.BLOCK_ELEMENTS, 1, 7, 64)
Q_VALUES = (0.0, 2.0**-40, 0.125, 0.25, 0.5, 1.0)


def _class(m: int, order, lengths, arrangement: str) -> np.ndarray:
    if arrangement == "sorted":
        lengths = sorted(lengths)
    elif arrangement == "reversed":
        lengths = sorted(lengths, reverse=True)
    H = np.zeros((len(lengths), m), np.int64)
    for h, c in enumerate(lengths):
        H[h, list(order[:c])] = 1
    return H


@st.composite
def nested_class(draw, max_h: int = 70):
    m = draw(st.integers(1, 24), label="points")
    num_h = draw(st.integers(1, max_h), label="hypotheses")
    order = draw(st.permutations(range(m)), label="point order")
    # a few distinct lengths, so that repeats are common; 0 and m are the constant hypotheses
    choices = draw(st.lists(st.integers(0, m), min_size=1, max_size=6), label="lengths used")
    lengths = draw(st.lists(st.sampled_from(choices), min_size=num_h, max_size=num_h), label="prefix lengths")
    arrangement = draw(st.sampled_from(["shuffled", "shuffled", "sorted", "reversed"]), label="hypothesis order")
    return _class(m, order, lengths, arrangement)


def _each_backend_and_block(num_h: int):
    """Each backend with each block of BLOCKS that splits |H| x |H| into rows of its own
    size: every function blocks rows of |H| entries (pairs_device._blocks), so two blocks
    of the same rows per block run the same computation."""
    rows = {max(1, block // max(1, num_h)): block for block in reversed(BLOCKS)}
    for name in BACKENDS:
        for block in BLOCKS:
            if rows[max(1, block // max(1, num_h))] != block:
                continue
            with patch.object(PD, "BLOCK_ELEMENTS", block):
                yield get_backend(name), block


def _host_min_q(H, seen, q):
    """Line 8's min q by the grouped search, which holds for any class."""
    groups = pair_stats.q_groups(q, np.flatnonzero(seen > 0))
    rho_counts = pair_stats.disagreement_counts(H, seen)
    return pair_stats.min_q_on_disagreement(H, seen, groups, rho_counts, out=np.empty(rho_counts.shape, q.dtype))


def _on_device(b, array) -> bool:
    return b.name != STRICT or type(array).__module__.startswith("array_api_strict")


@given(nested_class(), st.data())
def test_line_7_counts_on_the_device_are_the_kernel_counts(H, data):
    m = H.shape[1]
    big = data.draw(st.booleans(), label="large counts")
    seen = np.array(
        data.draw(st.lists(st.integers(0, 10**12 if big else 3), min_size=m, max_size=m), label="seen"), np.int64
    )
    nested = Nested.of(H)
    expected = pair_stats.disagreement_counts(H, seen)
    for b, block in _each_backend_and_block(len(H)):
        out = PD.disagreement_counts_device(b, nested, seen)
        assert _on_device(b, out)
        got = b.to_numpy(out)
        assert got.dtype == expected.dtype and np.array_equal(got, expected), (b.name, block, H, seen)


@given(nested_class(), st.data())
def test_line_8_min_q_on_the_device_is_the_grouped_search(H, data):
    m = H.shape[1]
    seen = np.array(data.draw(st.lists(st.integers(0, 3), min_size=m, max_size=m), label="seen"), np.int64)
    dtype = data.draw(st.sampled_from([np.float64, np.float64, np.float32]), label="q dtype")
    values = data.draw(st.lists(st.sampled_from(Q_VALUES), min_size=1, max_size=4), label="q values used")
    q = np.array(data.draw(st.lists(st.sampled_from(values), min_size=m, max_size=m), label="q"), dtype)
    nested = Nested.of(H)
    expected = _host_min_q(H, seen, q)
    for b, block in _each_backend_and_block(len(H)):
        out = PD.min_q_device(b, nested, seen, q)
        assert _on_device(b, out)
        got = b.to_numpy(out)
        assert got.dtype == q.dtype
        assert np.array_equal(got, expected, equal_nan=True), (b.name, block, H, seen, q)


@given(nested_class(), st.data())
def test_line_13_next_q_on_the_device_is_the_sweep(H, data):
    num_h = H.shape[0]
    pool = data.draw(
        st.lists(
            st.one_of(
                st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0**-40, 5e-324]),
                st.floats(0.0, 1.0, allow_subnormal=True),
            ),
            min_size=1,
            max_size=5,
        ),
        label="pair values used",
    )
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    V = rng.choice(np.array(pool), (num_h, num_h))
    V = np.maximum(V, V.T)  # rho^ 4^(k-l-1) is symmetric
    nested = Nested.of(H)
    expected = pair_stats.next_query_probabilities(H, V.copy())
    for b, block in _each_backend_and_block(num_h):
        pair_value = b.asarray(V)
        got = PD.next_q_device(b, nested, pair_value)
        assert isinstance(got, np.ndarray) and got.dtype == expected.dtype
        assert np.array_equal(got, expected), (b.name, block, H, V)
        assert np.array_equal(b.to_numpy(pair_value), V)  # the caller's matrix is left as it was


# the smallest normal and subnormal magnitudes, exact fractions count/length, and 1
RHO_POOL = (0.0, 1.0, 5e-324, 3 * 5e-324, 2.0**-1022, 2.0**-1000, 1.75 * 2.0**-1060, 1 / 3, 0.7, 1 - 2.0**-53)


@given(st.data())
def test_line_13_pair_value_on_the_device_is_ldexp(data):
    num_h = data.draw(st.integers(1, 40), label="hypotheses")
    # epochs as a run reaches them, and past the point where 4^(k-l-1) leaves float64's normals
    # (2(l+1) > 1022), reaches the least subnormal (l = 536) and underflows to 0 (l >= 537)
    l = data.draw(st.sampled_from([0, 1, 2, 7, 40, 510, 511, 536, 537, 600, 5000]), label="l")
    level = np.array(data.draw(st.lists(st.integers(0, l), min_size=num_h, max_size=num_h), label="level"), np.int64)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    if data.draw(st.booleans(), label="frequencies"):
        rho = rng.integers(0, 10**6, (num_h, num_h)) / 10**6
    else:
        rho = rng.choice(np.array(RHO_POOL), (num_h, num_h))
    k = np.minimum(level[:, None], level[None, :])
    expected = np.ldexp(rho, 2 * (k - l - 1))  # fast/calruption.py's line 13
    for b, block in _each_backend_and_block(num_h):
        out = PD.line13_pair_value_device(b, b.asarray(rho), level, l)
        assert _on_device(b, out)
        got = b.to_numpy(out)
        assert got.dtype == expected.dtype and np.array_equal(got, expected), (b.name, block, l, level)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "lengths,m",
    [
        ([3], 5),  # one hypothesis: no pair
        ([0, 0, 0], 4),  # all empty: no pair disagrees anywhere
        ([4, 4], 4),  # the same constant twice
        ([0, 4], 4),  # the two constants
        ([2, 0, 2, 5, 1, 5, 3], 6),  # repeats, both constants, point 5 held by none
    ],
)
def test_edge_classes(backend, lengths, m):
    b = get_backend(backend)
    rng = np.random.default_rng(len(lengths) * 31 + m)
    H = _class(m, rng.permutation(m), lengths, "shuffled")
    nested = Nested.of(H)
    seen = rng.integers(0, 3, m)
    seen[0] = 0
    q = rng.choice(np.array(Q_VALUES), m)
    V = rng.choice(np.array([0.0, 0.5, 1.0]), (len(lengths),) * 2)
    V = np.maximum(V, V.T)
    for block in BLOCKS:
        with patch.object(PD, "BLOCK_ELEMENTS", block):
            assert np.array_equal(
                b.to_numpy(PD.disagreement_counts_device(b, nested, seen)),
                pair_stats.disagreement_counts(H, seen),
            )
            assert np.array_equal(
                b.to_numpy(PD.min_q_device(b, nested, seen, q)), _host_min_q(H, seen, q), equal_nan=True
            )
            assert np.array_equal(PD.next_q_device(b, nested, b.asarray(V)), pair_stats.next_query_probabilities(H, V))


@pytest.mark.parametrize("backend", BACKENDS)
def test_seventy_hypotheses_many_blocks(backend):
    """One larger class with every q value and a row block that leaves a ragged last block."""
    b = get_backend(backend)
    rng = np.random.default_rng(33)
    m, num_h = 60, 70
    H = _class(m, rng.permutation(m), list(rng.integers(0, m - 3, num_h)), "shuffled")
    nested = Nested.of(H)
    seen = rng.integers(0, 4, m)
    q = rng.choice(np.array(Q_VALUES), m)
    V = rng.integers(0, 50, (num_h, num_h)) / 64
    V = np.maximum(V, V.T)
    min_q = _host_min_q(H, seen, q)
    next_q = pair_stats.next_query_probabilities(H, V.copy())
    assert np.isnan(min_q).any() and (~np.isnan(min_q)).any()  # both kinds of pair occur
    for block in (num_h * 9, num_h * 13 + 5, 3):
        with patch.object(PD, "BLOCK_ELEMENTS", block):
            assert np.array_equal(b.to_numpy(PD.min_q_device(b, nested, seen, q)), min_q, equal_nan=True)
            assert np.array_equal(PD.next_q_device(b, nested, b.asarray(V)), next_q)


def test_the_comparison_has_teeth():
    """A row-block loop that drops its last block, or a quadrant that leaves out the
    earlier blocks' rows, is caught by the same comparisons."""
    b = get_backend("numpy")
    rng = np.random.default_rng(7)
    m, num_h = 30, 20
    H = _class(m, rng.permutation(m), list(rng.integers(1, m, num_h)), "shuffled")
    nested = Nested.of(H)
    seen = np.ones(m, np.int64)
    q = rng.choice(np.array(Q_VALUES[1:]), m)
    V = rng.integers(1, 50, (num_h, num_h)) / 64
    V = np.maximum(V, V.T)
    shipped = PD._blocks

    def drop_last(num_rows, row_length, b=None):
        return list(shipped(num_rows, row_length, b))[:-1]

    with patch.object(PD, "BLOCK_ELEMENTS", 3 * num_h), patch.object(PD, "_blocks", drop_last):
        got = b.to_numpy(PD.min_q_device(b, nested, seen, q))
    assert not np.array_equal(got, _host_min_q(H, seen, q), equal_nan=True)
    V[np.ix_(nested.chain[:1], nested.chain[1:])] = 10.0  # the first chain row dominates every Q(a)
    V = np.maximum(V, V.T)
    expected = pair_stats.next_query_probabilities(H, V.copy())
    scan = PD._running_max

    def no_earlier_rows(xp, x, axis, reverse):  # the suffix max of acc: earlier blocks' rows, b > a
        return xp.full_like(x, -np.inf) if x.ndim == 1 and reverse else scan(xp, x, axis, reverse)

    with patch.object(PD, "BLOCK_ELEMENTS", num_h):  # one row per block: row 0 reaches Q(a > 0) only through acc
        assert np.array_equal(PD.next_q_device(b, nested, b.asarray(V)), expected)
        with patch.object(PD, "_running_max", no_earlier_rows):
            assert not np.array_equal(PD.next_q_device(b, nested, b.asarray(V)), expected)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_bench_runs_and_finds_agreement(backend, tmp_path):
    """bench/pairs_device.py at a small size: every function agrees bit for bit, JSON written."""
    root = REPO_ROOT
    sys.path.insert(0, str(root / "bench"))
    spec = importlib.util.spec_from_file_location("pairs_device_bench", root / "bench" / "pairs_device.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    path = tmp_path / "pairs_device.json"
    assert bench.main(["--backend", backend, "--sizes", "3,40", "--json", str(path)]) == 0
    report = json.loads(path.read_text())
    rows = [row for size in report["sizes"].values() for row in size.values()]
    assert len(rows) == 8 and all(row["bitwise_equal"] for row in rows)
