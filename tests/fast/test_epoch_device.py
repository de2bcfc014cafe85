"""The device-resident epoch (fast/epoch_device.py) against the host's
`epoch_update`, on the numpy namespace and on array-api-strict (which refuses anything
outside the array API standard, as a GPU library would not have it).

Its contract (fast/epoch_device.py's notes): the integer fields, min q, alpha, the weights,
line 13's values and the layers equal the host's bit for bit given the same inputs; W
within fast/catoni.py's `root_tolerance` (the sum over Catoni's slots is ordered
otherwise); D^, the risks and the LP value within properties/checks/tolerances.py, as
for any float implementation. Random nested classes come from tests/fast/test_nested.py
(prefixes of a shuffled point order, rows sorted, reversed or shuffled)."""

from __future__ import annotations

import importlib.util
import math
from fractions import Fraction
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference as R
from fast import catoni, catoni_device, epoch_device, pair_stats
from fast.api import calruption_counts
from fast.backends import get_backend
from fast.calruption import State, epoch_update
from fast.constants import FloatParams
from fast.nested import Nested
from properties.checks.tolerances import FLOAT64
from tests.fast.test_nested import nested_class

pytest.importorskip("array_api_strict")
# torch (CPU) where installed (not in CI): its vectorised sqrt and log1p were measured to
# differ from IEEE's in the last ulp, so alpha and the weights are held to the table there
# array-api-strict:device1 is a stand-in device: an array made without device= fails to
# combine there, as it would on a GPU (fast/backends.py)
BACKENDS = ["numpy", "array-api-strict", "array-api-strict:device1"]
BACKENDS += ["torch"] if importlib.util.find_spec("torch") else []
EXACT_FIELDS = ("rho_counts", "min_q", "alpha", "weight")
IEEE_SQRT = {"numpy", "array-api-strict", "array-api-strict:device1"}


def _params(num_h: int, n: int = 10**9):
    return FloatParams.of(R.Params.paper(n, num_h, Fraction(1, 10)))


def _close(name, got, expected, scale=1.0):
    """Within twice the table's float64 tolerance: each run is within one of the exact value."""
    tolerance = FLOAT64[name]
    bound = 2 * (tolerance.rel * np.abs(expected) + tolerance.abs * scale)
    both_nan = np.isnan(got) & np.isnan(expected)
    return bool(np.all(both_nan | (np.abs(got - expected) <= bound)))


def _compare(host, device, label, backend="numpy", H=None, beta2=None, gap_prev=None):
    for field in EXACT_FIELDS:
        if field in ("alpha", "weight") and backend not in IEEE_SQRT:
            assert _close(field, getattr(device, field), getattr(host, field)), (field, label)
            continue
        a, b = getattr(host, field), getattr(device, field)
        assert np.array_equal(a, b, equal_nan=True), f"{field} differs ({label}):\n{a}\n{b}"
        assert np.asarray(a).dtype == np.asarray(b).dtype, (field, label)
    # W: within the root's tolerance, max(1, 1/min q) the scale of the pair's samples
    scale = np.where(np.isnan(host.min_q), 1.0, 1 / np.where(host.min_q > 0, host.min_q, 1.0))
    assert _close("W", device.W, host.W, np.maximum(1.0, scale)), f"W ({label}):\n{host.W}\n{device.W}"
    assert np.array_equal(np.isnan(host.W), np.isnan(device.W)), label
    assert _close("risk_hat", device.risk_hat, host.risk_hat), label
    assert _close("gap_hat", device.gap_hat, host.gap_hat, 1 + (beta2 or 0)), label
    rows = host.weight * (np.abs(host.W) + 1)
    lp_scale = float(np.nanmax(rows)) if np.isfinite(rows).any() else 1.0
    assert _close("lp_objective", np.array(device.lp_objective), np.array(host.lp_objective), lp_scale), label
    if H is None:
        return
    # line 10: the device's h^* minimises the host's penalised risks up to their tolerance
    penalised = host.risk_hat + beta2 * gap_prev
    slack = 2 * FLOAT64["penalised"].abs * (1 + beta2)
    assert penalised[device.h_star_hat] <= penalised.min() + slack, (device.h_star_hat, host.h_star_hat, label)
    # line 12 from the device's own Delta^, and the host's layers wherever no Delta^ is
    # within the tolerance of a threshold 2^-i (there either side is right)
    l = device.l
    thresholds = np.ldexp(1.0, -np.arange(l + 1))[:, None]
    assert np.array_equal(device.layers, device.gap_hat[None, :] <= thresholds), label
    near = np.abs(host.gap_hat[None, :] - thresholds) <= 2 * FLOAT64["gap_hat"].abs * (1 + beta2)
    assert np.array_equal(device.layers | near, host.layers | near), label
    # line 13 against an independent oracle: the sweep over bit sets of points (no nesting)
    level = device.layers.sum(axis=0) - 1
    k = np.minimum(level[:, None], level[None, :])
    pair_value = np.ldexp(device.rho_counts / device.length, 2 * (k - l - 1))
    assert np.array_equal(device.next_q, pair_stats.next_query_probabilities(H, pair_value)), label


@settings(deadline=None)
@given(nested_class(), st.sampled_from(BACKENDS), st.data())
def test_one_epoch_equals_the_host_epoch(H, backend, data):
    num_h, m = H.shape
    seen = np.array(data.draw(st.lists(st.integers(0, 40), min_size=m, max_size=m), label="seen"), np.int64)
    length = int(seen.sum()) + data.draw(st.integers(1, 5), label="unseen rounds")
    q = np.array(
        data.draw(st.lists(st.sampled_from([0.0, 1 / 16, 0.25, 1.0]), min_size=m, max_size=m), label="q"), np.float64
    )
    # among the rounds whose coin came up at x (about q seen[x]), which label
    label1 = [
        data.draw(st.integers(0, int(s * qq)), label=f"label-1 rounds at {x}") for x, (s, qq) in enumerate(zip(seen, q))
    ]
    label0 = [
        data.draw(st.integers(0, int(s * qq) - a), label=f"label-0 rounds at {x}")
        for x, (s, qq, a) in enumerate(zip(seen, q, label1))
    ]
    queried = np.stack([np.array(label0, np.int64), np.array(label1, np.int64)], axis=1)
    gap = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.25, 1.0]), min_size=num_h, max_size=num_h), label="gap"))
    l = data.draw(st.integers(1, 3), label="epoch")
    state = State(l, 1, length, q, gap)
    fparams = _params(max(2, num_h))
    host, host_next = epoch_update(H, state, seen, queried, fparams)
    b = get_backend(backend)
    nested = Nested.of(H)
    device, device_next = epoch_device.epoch_update_device(H, state, seen, queried, fparams, b, nested)
    label = f"{backend}, H={H.tolist()}, seen={seen.tolist()}, q={q.tolist()}, queried={queried.tolist()}"
    _compare(host, device, label, backend, H, fparams.beta2, gap)
    assert np.array_equal(device_next.q, device.next_q) and np.array_equal(device_next.gap_hat, device.gap_hat)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_whole_run_on_thresholds_equals_the_host_run(backend):
    size, n = 48, 10**12
    instance = R.instances.thresholds(size)
    params = R.Params.paper(n, size + 1, Fraction(1, 10))
    adversary = R.adversary.clean(n)
    host = calruption_counts(instance, adversary, params, 3, raw=True)
    device = calruption_counts(instance, adversary, params, 3, raw=True, backend=backend, resident=True)
    assert len(host.epochs) == len(device.epochs) and host.output == device.output
    beta2 = FloatParams.of(params).beta2
    gap_prev = np.zeros(size + 1)
    for a, b in zip(host.epochs, device.epochs):
        _compare(a, b, f"{backend}, epoch {a.l}", backend, np.array(instance.hypotheses), beta2, gap_prev)
        assert np.array_equal(a.next_q, b.next_q), a.l  # this instance has no near-tie: q bit for bit
        gap_prev = a.gap_hat


def test_catoni_blocks_do_not_change_the_roots():
    H = np.tril(np.ones((9, 12), np.int64), 2)[::-1]  # nested, reversed chain
    rng = np.random.default_rng(5)
    seen = rng.integers(0, 30, 12)
    queried = np.stack([rng.integers(0, 5, 12), rng.integers(0, 5, 12)], axis=1)
    q = rng.choice([0.125, 0.5, 1.0], 12)
    state = State(2, 1, int(seen.sum()) + 3, q, np.zeros(9))
    b = get_backend("array-api-strict")
    args = (H, state, seen, queried, _params(9), b, Nested.of(H))
    whole, _ = epoch_device.epoch_update_device(*args)
    with patch.object(epoch_device, "HOST_BLOCK_ELEMENTS", 7):  # one row a block
        blocked, _ = epoch_device.epoch_update_device(*args)
    assert np.array_equal(whole.W, blocked.W, equal_nan=True)
    assert np.isfinite(whole.W[np.isfinite(whole.weight)]).all()


def test_records_without_pair_fields_and_refusals():
    H = np.tril(np.ones((6, 6), np.int64))
    seen, queried = np.full(6, 4), np.ones((6, 2), np.int64)
    b = get_backend("numpy")
    state = State(1, 1, 30, np.ones(6), np.zeros(6))
    record, _ = epoch_device.epoch_update_device(
        H, state, seen, queried, _params(6), b, Nested.of(H), materialise=False
    )
    assert record.W is None and record.rho_counts is None and record.eta_hat is not None
    interval = np.array([[0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 1, 1]], np.int64)  # not a chain
    instance = R.Instance((Fraction(1, 4),) * 4, (Fraction(1, 2),) * 4, tuple(map(tuple, interval)))
    with pytest.raises(ValueError, match="nested"):
        calruption_counts(
            instance, R.adversary.clean(100), R.Params.paper(100, 3, Fraction(1, 10)), 1, raw=True, resident=True
        )


@pytest.mark.parametrize("backend", BACKENDS)
def test_device_one_step_is_the_host_one_step(backend):
    rng = np.random.default_rng(11)
    P = 3000
    v = rng.uniform(1e-6, 1, (P, 3))
    V = np.concatenate([1 / v, -1 / v, np.zeros((P, 1))], axis=1)
    C = rng.integers(0, 40, (P, 7)).astype(np.float64)
    C[:, -1] += np.floor(np.exp(rng.uniform(0, math.log(1e12), P)))  # rounds without a sample
    C[:10, :-1] = 0  # constant data: the root is 0
    A = np.exp(rng.uniform(math.log(1e-9), math.log(30.0), P))
    b = get_backend(backend)
    got = b.to_numpy(catoni_device.catoni_roots_device(b, b.asarray(V), b.asarray(C), b.asarray(A)))
    expected = catoni.catoni_roots(V, C, A, trusted=True)
    if backend in IEEE_SQRT:  # the same operations in the same order: the same bits
        assert np.array_equal(got, expected)
    else:
        tolerance = [catoni.root_tolerance(float(np.max(np.abs(V[p]))), float(A[p])) for p in range(P)]
        assert np.all(np.abs(got - expected) <= 2 * np.array(tolerance))
    assert np.all(got[:10] == 0)
    roots, done = catoni_device.one_step(b.xp, b.asarray(V), b.asarray(C), b.asarray(A))
    assert 0 < np.mean(b.to_numpy(done)) < 1  # both the rule and the host's search are exercised


def test_the_environment_variable_chooses_the_route(monkeypatch):
    from fast import backends

    instance = R.instances.thresholds(12)
    params, adversary = R.Params.paper(10**9, 13, Fraction(1, 10)), R.adversary.clean(10**9)
    forced = calruption_counts(instance, adversary, params, 2, raw=True, resident=True)
    host = calruption_counts(instance, adversary, params, 2, raw=True, resident=False)
    # the routes tell apart here: some W differs in its last bits (Catoni's slots summed otherwise)
    assert any(not np.array_equal(a.W, b.W, equal_nan=True) for a, b in zip(forced.epochs, host.epochs))
    monkeypatch.setenv(backends.RESIDENT_ENVIRONMENT, "yes")
    chosen = calruption_counts(instance, adversary, params, 2, raw=True)
    assert all(np.array_equal(a.W, b.W, equal_nan=True) for a, b in zip(chosen.epochs, forced.epochs))
    monkeypatch.setenv(backends.RESIDENT_ENVIRONMENT, "no")
    chosen = calruption_counts(instance, adversary, params, 2, raw=True)
    assert all(np.array_equal(a.W, b.W, equal_nan=True) for a, b in zip(chosen.epochs, host.epochs))
    monkeypatch.setenv(backends.RESIDENT_ENVIRONMENT, "sometimes")
    with pytest.raises(ValueError, match="CRAL_FAST_RESIDENT"):
        calruption_counts(instance, adversary, params, 2, raw=True)


def test_an_accelerator_takes_the_resident_route_with_its_blocks(monkeypatch):
    """On an accelerator (here array-api-strict's stand-in device, declared one) a nested
    class's run is resident without being asked, with the GPU's block sizes (made small:
    many blocks), and equals the host run as every resident run does."""
    from fast import backends, pairs_device

    FC = importlib.import_module("fast.calruption")
    monkeypatch.setattr(backends.Backend, "accelerator", property(lambda self: self.device is not None))
    monkeypatch.setattr(epoch_device, "DEVICE_BLOCK_ELEMENTS", 50)
    monkeypatch.setattr(pairs_device, "DEVICE_BLOCK_ELEMENTS", 40)
    calls = []
    resident_epoch = FC.epoch_update_device
    monkeypatch.setattr(FC, "epoch_update_device", lambda *a, **k: calls.append(a[0]) or resident_epoch(*a, **k))
    size, n = 20, 10**10
    instance = R.instances.thresholds(size)
    params, adversary = R.Params.paper(n, size + 1, Fraction(1, 10)), R.adversary.clean(n)
    host = calruption_counts(instance, adversary, params, 5, raw=True)
    assert not calls  # numpy: the host epoch
    device = calruption_counts(instance, adversary, params, 5, raw=True, backend="array-api-strict:device1")
    assert len(calls) == len(device.epochs) == len(host.epochs)
    beta2, gap_prev = FloatParams.of(params).beta2, np.zeros(size + 1)
    for a, b in zip(host.epochs, device.epochs):
        _compare(a, b, f"epoch {a.l}", "array-api-strict:device1", np.array(instance.hypotheses), beta2, gap_prev)
        gap_prev = a.gap_hat
