"""fast.MatrixInstance (fast/matrix_instance.py): the same instance as reference.Instance
for counts mode, with H as one matrix; bad input refused naming the field."""

from __future__ import annotations

import sys
from fractions import Fraction

import numpy as np
import pytest

import fast
import reference as R
from fast.nested import Nested
from tests.support import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "bench"))
from _instances import thresholds_instance, thresholds_matrix  # noqa: E402


@pytest.mark.parametrize("points,hypotheses", [(16, 16), (24, 8), (7, 3), (10, 10), (1, 1)])
def test_the_bench_matrix_is_the_reference_instance(points, hypotheses):
    a, b = thresholds_instance(points, hypotheses), thresholds_matrix(points, hypotheses)
    assert a.nu == b.nu and a.eta == b.eta and np.array_equal(np.array(a.hypotheses), b.matrix)
    assert b.risks() == tuple(a.risk(h) for h in range(a.num_hypotheses)) and b.best == a.best
    assert b.to_instance() == a


@pytest.mark.parametrize("instance", [R.instances.thresholds(12), R.instances.intervals(5)])
def test_counts_mode_gives_the_same_run(instance):
    matrix = fast.MatrixInstance(instance.nu, instance.eta, np.array(instance.hypotheses))
    n = 10**8
    params, adversary = R.Params.paper(n, instance.num_hypotheses, Fraction(1, 10)), R.adversary.clean(n)
    a = fast.calruption_counts(instance, adversary, params, 4, raw=True)
    b = fast.calruption_counts(matrix, adversary, params, 4, raw=True)
    assert a.output == b.output and len(a.epochs) == len(b.epochs)
    for x, y in zip(a.epochs, b.epochs):
        assert np.array_equal(x.W, y.W, equal_nan=True) and np.array_equal(x.next_q, y.next_q)
    flip = R.adversary.misspecification(Fraction(1, 5), [Fraction(1, 2)] * instance.num_points, n)
    assert fast.passive_counts(matrix, flip, params, 2) == fast.passive_counts(instance, flip, params, 2)


def test_the_matrix_is_a_read_only_view_and_the_caller_keeps_writing():
    H = np.tril(np.ones((4, 4), np.int64))
    matrix = fast.MatrixInstance([Fraction(1, 4)] * 4, [Fraction(1, 2)] * 4, H)
    assert not matrix.matrix.flags.writeable and H.flags.writeable
    with pytest.raises(ValueError):
        matrix.matrix[0, 0] = 0
    assert fast.MatrixInstance([1], [0], [[True], [False]]).matrix.dtype == np.int64


@pytest.mark.parametrize(
    "nu,eta,H,field",
    [
        ([Fraction(1, 2)] * 2, [0, 1], [[0, 2]], r"hypotheses\[0\]\[1\]"),
        ([Fraction(1, 2)] * 2, [0, 1], [[0, -1], [1, 1]], r"hypotheses\[0\]\[1\]"),
        ([Fraction(1, 2)] * 2, [0, 1], [[0.0, 1.0]], "dtype"),
        ([Fraction(1, 2)] * 2, [0, 1], [[0, 1, 1]], "columns"),
        ([Fraction(1, 2)] * 2, [0, 1], np.zeros((0, 2), np.int64), "non-empty"),
        ([Fraction(1, 2)] * 2, [0, 1], [0, 1], "2-D"),
        ([Fraction(1, 3)] * 2, [0, 1], [[0, 1]], "sum"),
        ([Fraction(1, 2)] * 2, [0, 2], [[0, 1]], r"eta\[1\]"),
    ],
)
def test_bad_input_names_the_field(nu, eta, H, field):
    with pytest.raises(ValueError, match=field):
        fast.MatrixInstance(nu, eta, np.asarray(H))


def test_nested_of_is_the_prefix_definition():
    """Nested.of's one-pass test (largest held rank = c_h - 1) against the definition: every
    row is the first c_h points of the order, on random chains, broken chains and noise."""
    rng = np.random.default_rng(7)
    for _ in range(3000):
        num_h, m = int(rng.integers(1, 7)), int(rng.integers(1, 7))
        order = rng.permutation(m)
        H = np.zeros((num_h, m), np.int64)
        for h in range(num_h):
            H[h, order[: rng.integers(0, m + 1)]] = 1
        if rng.random() < 0.3:
            H[rng.integers(num_h), rng.integers(m)] ^= 1
        if rng.random() < 0.2:
            H = rng.integers(0, 2, (num_h, m))
        nested = Nested.of(H)
        held = H.sum(axis=0)
        by_count = np.argsort(-held, kind="stable")
        is_chain = all(np.array_equal(row[by_count], np.arange(m) < row.sum()) for row in H)
        assert (nested is not None) == is_chain, H
        if nested is not None:
            assert np.array_equal(nested.order, by_count) and np.array_equal(nested.lengths, H.sum(axis=1))
