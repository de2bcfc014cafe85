"""fast's closed forms for a nested class (fast/nested.py) against the general paths they
replace, and the run-level options that came with them (fast/workspace.py, keep_pairs,
workers, timings).

Random nested classes: hypotheses that are prefixes of one point order (some empty, some
whole, some repeated), in sorted, reversed and shuffled index order; random seen counts with unseen points and random q with zeros and
repeats. Line 13's quadrant max and line 8's running min must equal the sweep and the
grouped search bit for bit: both take only maxima or minima of the same numbers."""

from __future__ import annotations

import importlib
from fractions import Fraction
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import reference as R
from fast import pair_stats, pairs_device
from fast.api import calruption_counts
from fast.nested import Nested
from fast.workspace import Workspace

FC = importlib.import_module("fast.calruption")  # the package's `calruption` is the function


@st.composite
def nested_class(draw):
    m = draw(st.integers(1, 10), label="points")
    num_h = draw(st.integers(1, 9), label="hypotheses")
    order = draw(st.permutations(range(m)), label="point order")
    lengths = draw(st.lists(st.integers(0, m), min_size=num_h, max_size=num_h), label="prefix lengths")
    arrangement = draw(st.sampled_from(["sorted", "reversed", "shuffled"]), label="index order")
    if arrangement == "sorted":
        lengths = sorted(lengths)
    elif arrangement == "reversed":
        lengths = sorted(lengths, reverse=True)
    H = np.zeros((num_h, m), np.int64)
    for h, c in enumerate(lengths):
        H[h, list(order[:c])] = 1
    return H


@given(nested_class(), st.data())
def test_line_13_quadrant_max_is_the_sweep(H, data):
    num_h = H.shape[0]
    values = data.draw(
        st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0**-40]), min_size=num_h**2, max_size=num_h**2),
        label="pair values",
    )
    V = np.array(values).reshape(num_h, num_h)
    V = np.maximum(V, V.T)  # line 13's rho^ 4^(k-l-1) is symmetric
    np.fill_diagonal(V, 0.0)
    nested = Nested.of(H)
    assert nested is not None
    expected = pair_stats.next_query_probabilities(H, V)
    assert np.array_equal(pair_stats.next_query_probabilities(H, V, nested=nested), expected)


@given(nested_class(), st.data())
def test_line_7_prefix_differences_are_the_kernel(H, data):
    m = H.shape[1]
    seen = np.array(data.draw(st.lists(st.integers(0, 10**12), min_size=m, max_size=m), label="seen"), np.int64)
    expected = pair_stats.disagreement_counts(H, seen)
    for block in (pair_stats.BLOCK_ELEMENTS, 5):
        with patch.object(pairs_device, "BLOCK_ELEMENTS", block):
            got = pair_stats.disagreement_counts(H, seen, nested=Nested.of(H))
        assert np.array_equal(got, expected), (H, seen, block)


@given(nested_class(), st.data())
def test_line_8_min_q_running_min_is_the_grouped_search(H, data):
    m = H.shape[1]
    seen = np.array(data.draw(st.lists(st.integers(0, 3), min_size=m, max_size=m), label="seen"), np.int64)
    q = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.125, 0.25, 1.0]), min_size=m, max_size=m), label="q"))
    support = np.flatnonzero(seen > 0)
    groups = pair_stats.q_groups(q, support)
    rho_counts = pair_stats.disagreement_counts(H, seen)
    expected = pair_stats.min_q_on_disagreement(H, seen, groups, rho_counts)
    for block in (pairs_device.BLOCK_ELEMENTS, 7):  # one row block, and many
        out = np.empty_like(expected)
        with patch.object(pairs_device, "BLOCK_ELEMENTS", block):
            got = pair_stats.min_q_on_disagreement(H, seen, groups, rho_counts, out=out, nested=Nested.of(H), q=q)
        assert got is out
        assert np.array_equal(got, expected, equal_nan=True), (H, seen, q, block)


def test_nested_detects_chains_only():
    assert Nested.of(np.array([[1, 1, 0], [1, 0, 0], [0, 0, 0]])) is not None
    assert Nested.of(np.array([[1, 1, 0], [0, 1, 1]])) is None  # overlapping intervals
    nested = Nested.of(np.array([[0, 1, 1, 0], [0, 1, 0, 0], [1, 1, 1, 0]]))
    on = nested.on(np.array([1, 2]))  # the chain restricted to points 1 and 2, as positions 0 and 1
    assert on.lengths.tolist() == [2, 1, 2] and sorted(on.order.tolist()) == [0, 1]


def test_workspace_never_hands_back_an_array_someone_holds():
    ws = Workspace()
    first = ws.get("a", (4, 4), float)
    second = ws.get("a", (4, 4), float)
    assert second is not first  # `first` is still held: a fresh one (the workspace's from now on)
    released = id(second)
    del second
    again = ws.get("a", (4, 4), float)
    assert id(again) == released  # nothing held it: handed back
    view = again[1:]
    del again
    assert ws.get("a", (4, 4), float).base is None and view.base is not None  # a view holds it: fresh
    assert ws.get("a", (5, 4), float).shape == (5, 4)


@pytest.fixture(scope="module")
def small_runs():
    instance = R.instances.thresholds(96)
    params = R.Params.paper(10**12, instance.num_hypotheses, Fraction(1, 10))
    adversary = R.adversary.clean(10**12)
    full = calruption_counts(instance, adversary, params, 5, raw=True)
    timings: dict = {}
    light = calruption_counts(instance, adversary, params, 5, raw=True, keep_pairs=False, workers=2, timings=timings)
    return full, light, timings


def test_keep_pairs_and_workers_change_nothing_but_what_is_kept(small_runs):
    full, light, _ = small_runs
    assert (full.output, full.labels_requested, len(full.epochs)) == (
        light.output,
        light.labels_requested,
        len(light.epochs),
    )
    for a, b in zip(full.epochs, light.epochs):
        for field in FC.PAIR_FIELDS:
            assert getattr(b, field) is None and getattr(a, field) is not None
        for field in ("eta_hat", "risk_hat", "gap_hat", "next_q", "layers", "q"):
            assert np.array_equal(getattr(a, field), getattr(b, field), equal_nan=True), (a.l, field)
        assert a.lp_objective == b.lp_objective and a.h_star_hat == b.h_star_hat


def test_the_kept_records_are_not_overwritten_by_later_epochs(small_runs):
    """With keep_pairs=True every epoch's arrays are its own (the workspace sees them held)."""
    full, _, _ = small_runs
    ids = {id(getattr(e, f)) for e in full.epochs for f in FC.PAIR_FIELDS}
    assert len(ids) == len(full.epochs) * len(FC.PAIR_FIELDS)


def test_timings_name_every_line(small_runs):
    _, _, timings = small_runs
    assert set(timings) == {
        "line 7",
        "line 8 min q",
        "line 8 weights",
        "line 8 Catoni",
        "line 9",
        "lines 10-12",
        "line 13",
    }
    assert all(v >= 0 for v in timings.values())


def test_keep_pairs_false_needs_raw():
    instance = R.instances.thresholds(8)
    params = R.Params.paper(100, instance.num_hypotheses, Fraction(1, 10))
    with pytest.raises(ValueError, match="keep_pairs"):
        calruption_counts(instance, R.adversary.clean(100), params, 1, keep_pairs=False)
