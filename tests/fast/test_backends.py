"""fast/ on the array API: the pair statistics on the interval and the general kernel, on
numpy and on array-api-strict, equal the plain per-q-group matrix products bit for bit
(tests/support/fast_pair_oracle.py), and whole runs give the same record as fast run on
those plain products for the same seed."""

from __future__ import annotations

import importlib
from fractions import Fraction

import numpy as np
import pytest

import reference as R
from fast import backends, pair_kernel, pair_stats
from fast.hypotheses import disagreement_counts as old_disagreement_counts
from tests.support import fast_pair_oracle as oracle

FC = importlib.import_module("fast.calruption")
API = importlib.import_module("fast.api")

STRICT = pytest.importorskip("array_api_strict") and "array-api-strict"
BACKENDS = ["numpy", STRICT, f"{STRICT}:device1"]  # device1: a stand-in device (fast/backends.py)


def interval_rows(rng, num_h: int, m: int) -> np.ndarray:
    """Rows s + (1 - 2 s) 1[lo, hi): thresholds both ways, intervals, complements, constants."""
    H = np.zeros((num_h, m), dtype=np.int64)
    for h in range(num_h):
        lo, hi = sorted(rng.integers(0, m + 1, 2))
        kind = rng.integers(0, 4)
        if kind == 0:
            lo, hi = lo, m  # threshold 1[x >= lo]
        elif kind == 1:
            lo, hi = 0, hi  # 1[x < hi]
        H[h, lo:hi] = 1
        if rng.random() < 0.3:
            H[h] = 1 - H[h]
    H[-1] = H[0]  # a duplicate: rho = 0
    return H


def random_case(seed: int, interval: bool):
    rng = np.random.default_rng(seed)
    num_h, m = int(rng.integers(3, 14)), int(rng.integers(6, 50))
    H = interval_rows(rng, num_h, m) if interval else (rng.random((num_h, m)) < 0.5).astype(np.int64)
    q = rng.choice(np.array([0.0, 1 / 16, 1 / 4, 0.3, 1.0]), m)  # shared values: few groups
    if rng.random() < 0.5:
        q = rng.uniform(0.01, 1.0, m)  # distinct: G ~ |X|
        q[rng.random(m) < 0.1] = 0.0
    length = int(rng.integers(10, 10**6))
    nu = rng.random(m) * (rng.random(m) < 0.8)
    nu[0] += 0.1
    seen = rng.multinomial(length, nu / nu.sum())
    asked = rng.binomial(seen, q)
    ones = rng.binomial(asked, rng.random(m))
    return H, q, seen, np.stack([asked - ones, ones], axis=1), length


def _collect(blocks):
    out = [list(block) for block in blocks]
    return [np.asarray(part).copy() for block in out for part in block]


def _equal(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("interval", [True, False])
@pytest.mark.parametrize("seed", range(10))
def test_pair_statistics_equal_the_plain_oracle(seed, interval, backend, monkeypatch):
    H, q, seen, queried, length = random_case(seed, interval)
    if seed % 2:  # many blocks and batches
        monkeypatch.setattr(pair_stats, "BLOCK_ELEMENTS", 7)
        monkeypatch.setattr(pair_stats, "CATONI_ELEMENTS", 5)
        monkeypatch.setattr(pair_stats, "PAIR_BATCH", 3)
        monkeypatch.setattr(oracle, "BLOCK_ELEMENTS", 7)
        monkeypatch.setattr(oracle, "CATONI_ELEMENTS", 5)
    kernel = pair_kernel.PairKernel(H, backend)
    assert kernel.interval == interval or not interval and pair_kernel.interval_form(H) is not None
    support = np.flatnonzero(seen > 0)
    groups = pair_stats.q_groups(q, support)

    rho = pair_stats.disagreement_counts(kernel, seen)
    assert _equal(rho, old_disagreement_counts(H, seen))
    min_q = pair_stats.min_q_on_disagreement(kernel, seen, groups, rho)
    assert _equal(min_q, oracle.min_q_on_disagreement(H, seen, groups, rho))
    active = (rho > 0) & (min_q > 0)
    new = _collect(pair_stats.loss_difference_blocks(kernel, groups, queried, length, active))
    old = _collect(oracle.loss_difference_blocks(H, groups, queried, length, active))
    assert len(new) == len(old) and all(_equal(a, b) for a, b in zip(new, old))
    # the Hamming distances on the support that line 9's spanning tree uses
    distance = pair_stats.disagreement_counts(kernel, (seen > 0).astype(np.int64))
    HS = H[:, support]
    assert _equal(distance, old_disagreement_counts(HS, np.ones(len(support), dtype=np.int64)))


@pytest.mark.parametrize("seed", range(4))
def test_interval_and_general_kernels_agree_beyond_float_exactness(seed):
    """Counts above 2^53 (the general kernel's int64 path) and below: both kernels exact."""
    rng = np.random.default_rng(50 + seed)
    H = interval_rows(rng, 9, 23)
    for scale in (10**6, 2**58):
        c = rng.integers(0, scale, 23, dtype=np.int64) // 4
        expected = np.array(
            [[sum(int(c[x]) for x in range(23) if H[a, x] != H[b, x]) for b in range(9)] for a in range(9)],
            dtype=object,
        )
        for force in (False, True):
            kernel = pair_kernel.PairKernel(H, "numpy", force_general=force)
            assert kernel.interval != force
            got = pair_stats.disagreement_counts(kernel, c)
            assert got.dtype == np.int64 and (got.astype(object) == expected).all(), (scale, force)


def test_a_device_without_integer_matmul_computes_large_counts_on_the_host():
    """The general kernel above 2^53 on a device without int64 matmul (torch on CUDA, CuPy:
    fast/backends.py's table) goes to the host, exactly."""
    import array_api_compat.numpy as xp

    rng = np.random.default_rng(9)
    H = (rng.random((6, 15)) < 0.5).astype(np.int64)
    c = rng.integers(2**55, 2**58, 15, dtype=np.int64)
    kernel = pair_kernel.PairKernel(H, backends.Backend("numpy", xp, None, integer_matmul=False))
    assert not kernel.interval and kernel.prepare(c).general[2] == "host"
    expected = np.array(
        [[sum(int(c[x]) for x in range(15) if H[a, x] != H[b, x]) for b in range(6)] for a in range(6)], dtype=object
    )
    assert (pair_stats.disagreement_counts(kernel, c).astype(object) == expected).all()


def test_the_statistics_take_the_hypothesis_matrix_itself():
    H, q, seen, queried, length = random_case(3, True)
    groups = pair_stats.q_groups(q, np.flatnonzero(seen > 0))
    rho = pair_stats.disagreement_counts(H, seen)
    assert _equal(rho, old_disagreement_counts(H, seen))
    min_q = pair_stats.min_q_on_disagreement(H, seen, groups, rho)
    assert _equal(min_q, oracle.min_q_on_disagreement(H, seen, groups, rho))
    active = (rho > 0) & (min_q > 0)
    new = _collect(pair_stats.loss_difference_blocks(H, groups, queried, length, active))
    old = _collect(oracle.loss_difference_blocks(H, groups, queried, length, active))
    assert len(new) == len(old) and all(_equal(a, b) for a, b in zip(new, old))


def test_interval_form_recognises_at_most_two_changes():
    H = np.array([[0, 0, 1, 1], [1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 0, 1], [0, 0, 0, 0], [1, 1, 1, 1]])
    s, lo, hi = pair_kernel.interval_form(H)
    assert s.tolist() == [0, 1, 0, 1, 0, 1] and lo.tolist() == [2, 2, 1, 1, 0, 0] and hi.tolist() == [4, 4, 3, 3, 0, 0]
    assert pair_kernel.interval_form(np.array([[0, 1, 0, 1]])) is None


def _into(out, value):
    """value, written into `out` when the caller passes one (fast.calruption's workspace)."""
    if out is None:
        return value
    np.copyto(out, value)
    return out


def _old_epoch_functions(monkeypatch):
    """fast.calruption on the oracle's pair statistics, for whole-run comparisons."""
    monkeypatch.setattr(
        FC,
        "disagreement_counts",
        lambda kernel, seen, out=None, nested=None: _into(out, old_disagreement_counts(kernel.H_host, seen)),
    )
    monkeypatch.setattr(
        FC,
        "min_q_on_disagreement",
        lambda kernel, *args, out=None, nested=None, q=None: _into(
            out, oracle.min_q_on_disagreement(kernel.H_host, *args)
        ),
    )
    monkeypatch.setattr(
        FC,
        "loss_difference_batches",
        lambda kernel, *args: [lambda: list(oracle.loss_difference_blocks(kernel.H_host, *args))],
    )
    original = FC.fit_distribution
    monkeypatch.setattr(FC, "fit_distribution", lambda *args, distance=None, **kw: original(*args, **kw))


def _records_equal(a, b):
    assert (a.n, a.final_epoch, a.unfinished_rounds, a.labels_requested, a.output) == (
        b.n,
        b.final_epoch,
        b.unfinished_rounds,
        b.labels_requested,
        b.output,
    )
    assert len(a.epochs) == len(b.epochs)
    for x, y in zip(a.epochs, b.epochs):
        for field in x.__dataclass_fields__:
            u, v = getattr(x, field), getattr(y, field)
            if isinstance(u, np.ndarray):
                assert _equal(u, v), (x.l, field)
            else:
                assert u == v, (x.l, field)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("points,hypotheses", [(16, 16), (24, 8)])
def test_same_seed_same_record_as_on_the_plain_oracle(points, hypotheses, backend, monkeypatch):
    """Counts mode, thresholds (the interval kernel), paper constants: the array-API path on any
    backend gives the record of fast on the oracle's statistics, array for array, bit for bit."""
    base = R.instances.thresholds(points)
    instance = R.Instance(base.nu, base.eta, base.hypotheses[:: points // hypotheses][:hypotheses])
    n = 10**9
    params = R.Params.paper(n, hypotheses, Fraction(1, 10))
    adversary = R.adversary.clean(n)
    new = API.calruption_counts(instance, adversary, params, 3, raw=True, backend=backend)
    with monkeypatch.context() as patch:
        _old_epoch_functions(patch)
        old = API.calruption_counts(instance, adversary, params, 3, raw=True)
    assert len(new.epochs) >= 3
    _records_equal(new, old)


def test_same_record_on_a_general_class_in_tape_mode(monkeypatch):
    rng = np.random.default_rng(7)
    H = (rng.random((7, 12)) < 0.5).astype(np.int64)
    assert pair_kernel.interval_form(H) is None
    instance = R.Instance(
        tuple(Fraction(1, 12) for _ in range(12)),
        tuple(Fraction(1, 5) for _ in range(12)),
        tuple(tuple(int(v) for v in row) for row in H),
    )
    n = 3000
    params = R.Params.scaled(n, 7, Fraction(1, 10), Fraction(1, 4), Fraction(3))
    from fast import sample_tape

    tape = sample_tape(instance, R.adversary.clean(n), 2)
    new = API.calruption(instance.hypotheses, tape, params, raw=True, backend=STRICT)
    with monkeypatch.context() as patch:
        _old_epoch_functions(patch)
        old = API.calruption(instance.hypotheses, tape, params, raw=True)
    assert len(new.epochs) >= 2
    _records_equal(new, old)


@pytest.mark.parametrize(
    "spec,field",
    [
        ("tensorflow", "backend"),
        (3, "backend"),
        ("numpy:cuda", "device"),
        ("array-api-strict:gpu", "device"),
    ],
)
def test_bad_backend_is_a_value_error_naming_the_field(spec, field):
    with pytest.raises(ValueError, match=field):
        backends.get_backend(spec)


def test_missing_backends_are_refused_not_imported_half_way():
    for name in ("torch", "cupy"):
        try:
            importlib.import_module(name)
        except ImportError:
            with pytest.raises(ValueError, match="not installed"):
                backends.get_backend(name)


def test_environment_variable_chooses_the_default(monkeypatch):
    monkeypatch.setenv(backends.ENVIRONMENT, "array-api-strict")
    assert backends.get_backend().name == "array-api-strict"
    monkeypatch.delenv(backends.ENVIRONMENT)
    assert backends.get_backend().name == "numpy"
    assert "numpy" in backends.available()
