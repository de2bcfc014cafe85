"""The judge at scale's fast routes, each against the route it shortcuts:
nested pair counts and line 13's quadrant max against the product path and a pair scan;
the float64 Catoni filter against the exact sign, near the root too; the line-9 cycle
bound against the exact LP optimum (reference/calruption.py), and a non-optimal D^ still
caught through it."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from properties.checks.catoni_sign import catoni_sign
from properties.scale import catoni as scale_catoni
from properties.scale import lp, lp_cycle, nested
from properties.scale.epoch import EpochJudge, PairCounts
from reference.calruption import fit_distribution
from reference.catoni import catoni_sign_exact
from tests.support.scale_records import judge_copy, record_fast


def _chain(rng, num_h, m, flip=False):
    """A random nested class: prefixes of a random point order, with repeats (and the
    empty and full sets possible); flip takes complements (still a chain)."""
    lengths = rng.integers(0, m + 1, num_h)
    H = (np.arange(m)[None, :] < lengths[:, None]).astype(np.int64)[:, np.argsort(rng.permutation(m))]
    return 1 - H if flip else H


def _epoch_counts(rng, m, big=False):
    seen = rng.integers(0, 6, m) * (rng.random(m) < 0.8)
    if big:  # counts of an epoch of ~10^12 rounds: beyond 2^53 in sums
        seen = seen * rng.integers(2**45, 2**50, m)
    q = rng.choice([0.0, 1 / 16, 0.25, 1.0], m)
    q0 = np.minimum(seen, rng.integers(0, 4, m))
    q1 = np.minimum(seen - q0, rng.integers(0, 4, m))
    queried = np.stack([q0, q1], axis=1) * (q > 0)[:, None]
    queried[q == 1, 0] = seen[q == 1] - queried[q == 1, 1]  # q = 1: every round is queried
    return q, seen, queried


def _same_pairs(a: PairCounts, b: PairCounts, num_h, length):
    assert np.array_equal(a.rho_counts, b.rho_counts)
    assert np.array_equal(np.isnan(a.min_q), np.isnan(b.min_q))
    assert np.array_equal(np.nan_to_num(a.min_q, nan=-1), np.nan_to_num(b.min_q, nan=-1))
    i, j = np.nonzero(np.ones((num_h, num_h), bool))
    va, ea, ca = a.samples(i, j, length)
    vb, eb, cb = b.samples(i, j, length)
    assert ea == eb and np.array_equal(va, vb) and np.array_equal(ca, cb)


@pytest.mark.parametrize("seed", range(6))
def test_nested_pair_counts_equal_the_product_path(seed):
    rng = np.random.default_rng(seed)
    for _ in range(15):
        m, num_h = int(rng.integers(1, 40)), int(rng.integers(2, 25))
        H = _chain(rng, num_h, m, flip=bool(rng.integers(2)))
        nest = nested.nesting(H)
        assert nest is not None
        q, seen, queried = _epoch_counts(rng, m, big=bool(rng.integers(2)))
        exact = PairCounts(H, q, seen, queried)  # the product path
        _same_pairs(exact, PairCounts(H, q, seen, queried, nest), num_h, int(seen.sum()))


def test_non_nested_classes_are_refused_and_keep_the_product_path():
    rng = np.random.default_rng(11)
    x, t = np.arange(12), np.arange(13)
    both = np.vstack([x[None, :] >= t[:, None], x[None, :] < t[:, None]]).astype(np.int64)  # both orientations
    assert nested.nesting(both) is None and nested.nesting(both[:13]) is not None
    refused = 0
    for _ in range(200):
        H = rng.integers(0, 2, size=(int(rng.integers(2, 8)), int(rng.integers(2, 8))))
        found = nested.nesting(H)
        assert (found is not None) == _is_chain(H)
        if found is None:
            refused += 1
            judge = EpochJudge(None, H, SimpleNamespace(beta2=1), Fraction(1))
            assert judge.nest is None  # the general routes
    assert refused > 50


def _is_chain(H) -> bool:
    sets = [frozenset(np.flatnonzero(row).tolist()) for row in H]
    return all(a <= b or b <= a for a in sets for b in sets)


def test_nesting_order_makes_every_hypothesis_a_prefix():
    rng = np.random.default_rng(2)
    H = _chain(rng, 30, 50)
    nest = nested.nesting(H)
    assert np.array_equal(H[:, nest.order], (np.arange(50)[None, :] < nest.lengths[:, None]).astype(np.int64))


@pytest.mark.parametrize("seed", range(4))
def test_quadrant_max_equals_the_pair_scan(seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(20):
        m, num_h = int(rng.integers(1, 30)), int(rng.integers(2, 20))
        H = _chain(rng, num_h, m, flip=bool(rng.integers(2)))
        V = rng.random((num_h, num_h)).astype(np.longdouble) * (rng.random((num_h, num_h)) < 0.7)
        V = np.maximum(V, V.T)
        np.fill_diagonal(V, 0)
        scan = np.zeros(m, np.longdouble)
        for x in range(m):
            disagree = H[:, x][:, None] != H[:, x][None, :]
            if disagree.any():
                scan[x] = V[disagree].max()
        assert np.array_equal(nested.cut_max(V, nested.nesting(H)), scan)


# -- the float64 Catoni filter ------------------------------------------------------------------
def test_float64_log1p_is_within_an_eighth_of_the_assumed_error():
    """The filter takes numpy's float64 log1p within F64_LOG1P_U units of u64 (catoni.py's
    notes): measured here against longdouble's, on psi's arguments over many magnitudes."""
    rng = np.random.default_rng(0)
    t = np.concatenate([np.ldexp(rng.random(200000), rng.integers(-60, 40, 200000)), np.linspace(0, 4, 100001)])
    got = np.log1p(t).astype(np.longdouble)
    want = np.log1p(t.astype(np.longdouble))
    ok = want > 0
    rel = np.abs(got[ok] - want[ok]) / want[ok] / np.longdouble(scale_catoni.U64)
    assert float(rel.max()) <= scale_catoni.F64_LOG1P_U / 8, float(rel.max())


def _exact(values_exact, counts, alpha, z) -> int:
    """The exact sign: reference/catoni.py's for small counts, the certified route the judge
    falls back to (properties/checks/catoni_sign.py) for epoch-sized ones (the reference's
    exact sum is too slow at counts ~2^40)."""
    pairs = [(v, int(c)) for v, c in zip(values_exact, counts) if c]
    args = (
        [v for v, _ in pairs],
        [c for _, c in pairs],
        Fraction(float(alpha)),
        Fraction(*np.longdouble(z).as_integer_ratio()),
    )
    if max(c for _, c in pairs) < 2**20:
        return catoni_sign_exact(*args)
    sign, how = catoni_sign(*args)
    assert how == "certified"
    return sign


def _problems(rng, rows):
    q = np.array([1.0, 0.25, 1 / 64])
    values = np.concatenate([1 / q, -1 / q, [0.0]]).astype(np.longdouble)
    exact_values = [1 / Fraction(v) for v in q] + [-1 / Fraction(v) for v in q] + [Fraction(0)]
    counts = rng.integers(0, 50, size=(rows, 7)) * rng.choice([1, 1, 2**40], size=(rows, 1))
    counts[:, -1] += 1
    alpha = rng.uniform(1e-4, 2.0, size=rows)
    return values, exact_values, counts, alpha


def test_float64_filter_decides_signs_as_the_exact_route():
    rng = np.random.default_rng(7)
    values, exact_values, counts, alpha = _problems(rng, 150)
    z = rng.uniform(-70, 70, size=150).astype(np.longdouble)
    f, err = scale_catoni.catoni_f64(np.array([float(v) for v in exact_values]), counts, alpha, z)
    decided = np.abs(f) > err
    assert decided.mean() > 0.9  # the filter does decide the easy ones
    signs, _ = scale_catoni.signs(values, exact_values, counts, alpha, z)
    for r in range(150):
        expected = _exact(exact_values, counts[r], alpha[r], z[r])
        assert signs[r] == expected, r
        if decided[r]:
            assert np.sign(f[r]) == expected, r


def test_float64_filter_near_the_root_defers_rather_than_errs():
    """z within a few ulps of the root, where f's sign is lost in float64: the filter must
    leave those to longdouble / exact, and every sign it takes must be the exact one."""
    rng = np.random.default_rng(9)
    values, exact_values, counts, alpha = _problems(rng, 40)
    values64 = np.array([float(v) for v in exact_values])
    deferred = 0
    for r in range(40):
        lo, hi = np.longdouble(-70), np.longdouble(70)  # bisect to the root in longdouble
        for _ in range(140):
            mid = (lo + hi) / 2
            f, _ = scale_catoni.catoni_f(values, counts[r : r + 1], alpha[r : r + 1].astype(np.longdouble), mid[None])
            lo, hi = (mid, hi) if f[0] > 0 else (lo, mid)
        for z in [lo + k * np.spacing(np.float64(lo)) for k in range(-6, 7)] + [lo, hi]:
            z = np.longdouble(z)
            f, err = scale_catoni.catoni_f64(values64, counts[r : r + 1], alpha[r : r + 1], np.array([z]))
            expected = _exact(exact_values, counts[r], alpha[r], z)
            if abs(f[0]) > err[0]:
                assert np.sign(f[0]) == expected, (r, z)
            else:
                deferred += 1
            signs, _ = scale_catoni.signs(values, exact_values, counts[r : r + 1], alpha[r : r + 1], np.array([z]))
            assert signs[0] == expected
    assert deferred > 0  # the hard cases were reached


# -- line 9: the cycle bound --------------------------------------------------------------------
def _lp_instance(rng, num_h, m):
    H = _chain(rng, num_h, m)
    seen = rng.integers(1, 9, m) * (rng.random(m) < 0.85)
    seen[0] += 1
    length = int(seen.sum())
    support = np.flatnonzero(seen > 0)
    weight = np.zeros((num_h, num_h))
    W = np.full((num_h, num_h), np.nan)
    for a in range(num_h):
        for b in range(a + 1, num_h):
            if (H[a, support] != H[b, support]).any() and rng.random() < 0.9:
                weight[a, b] = weight[b, a] = float(rng.uniform(0.5, 4.0))
                W[a, b] = float(rng.uniform(-0.4, 0.4))
                W[b, a] = -W[a, b]
    usable = weight > 0
    return H, seen, length, support, weight, W, lp.all_rows(usable)


def _exact_optimum(H, seen, length, support, weight, W, rows):
    p_hat = {int(x): Fraction(int(seen[x]), length) for x in support}
    exact_rows = [(int(a), int(b), Fraction(weight[a, b]), Fraction(W[a, b])) for a, b in rows]
    eta, optimum, _ = fit_distribution(H.tolist(), [int(x) for x in support], p_hat, exact_rows)
    return eta, optimum


@pytest.mark.parametrize("seed", range(8))
def test_cycle_bound_is_a_lower_bound_and_tight_at_the_optimum(seed):
    rng = np.random.default_rng(seed)
    H, seen, length, support, weight, W, rows = _lp_instance(rng, int(rng.integers(3, 7)), int(rng.integers(3, 9)))
    if not len(rows):
        pytest.skip("no rows drawn")
    eta_exact, optimum = _exact_optimum(H, seen, length, support, weight, W, rows)
    nest = nested.nesting(H)
    eta = np.full(H.shape[1], 0.5)
    eta[support] = [float(v) for v in eta_exact]
    R = lp.risks(H, seen, length, eta, support)
    _, values = lp.objective_at(R, weight, W, rows)
    bound, tried = lp_cycle.cycle_bound(nest, H, support, seen, length, weight, W, rows, values, eta, (1e-12, 1e-9))
    assert isinstance(bound, Fraction) and bound <= optimum  # exact: weak duality
    assert tried >= 1 and optimum - bound <= Fraction(1, 10**9), (float(optimum), float(bound))
    # far from the optimum the bound is still a lower bound (any cycle is), just a weak one
    eta_far = np.where(seen > 0, 0.5, 0.5)
    _, far = lp.objective_at(lp.risks(H, seen, length, eta_far, support), weight, W, rows)
    weak, _ = lp_cycle.cycle_bound(nest, H, support, seen, length, weight, W, rows, far, eta_far, (1e-12, 1.0))
    assert weak <= optimum


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """fast's record at |H| = 64 (in-process)."""
    return record_fast(str(tmp_path_factory.mktemp("record")), 64)


def test_fast_record_is_certified_by_cycles_alone(recorded, tmp_path):
    report, sizes = judge_copy(recorded, str(tmp_path / "copy"))
    assert report.mismatches == [] and nested.nesting(recorded[0]) is not None
    assert (sizes.cycle_bounds, sizes.lp_solves) == (sizes.epochs, 0)  # reported per size


@pytest.mark.parametrize("pull", [0.5, 1e-3])
def test_non_optimal_D_is_caught_through_the_cycle_route(recorded, tmp_path, pull):
    """Every epoch's eta^ pulled toward 1/2: feasible, not optimal. No cycle certifies it,
    the LP fallback's bound does not either, and the mismatch names line 9's optimality."""

    def tamper(fields):
        on = fields["seen"] > 0
        fields["eta_hat"][on] = (1 - pull) * fields["eta_hat"][on] + pull * 0.5

    report, sizes = judge_copy(recorded, str(tmp_path / "copy"), tamper, epochs=None)
    assert any("optimal D^" in v.message for v in report.mismatches), [v.message for v in report.mismatches]
    assert sizes.lp_solves > 0  # the fallback ran: the cycles were not enough
