"""The blocked fast CALruption epoch (fast/pair_stats.py, fast/line9.py) against a
straightforward unblocked computation of the same quantities.

Random small classes with a distinct q per point (so the number G of q groups is about
|X|, the general path), some q = 0 and some unseen points, duplicated hypotheses and
constant columns; the block budgets are cut to a few elements so that every blocked loop
runs over many blocks. The unblocked side builds the |pairs| x |X| arrays the blocked
side avoids: line 7's counts by loops, line 8's min q and Catoni samples pair by pair,
line 9's LP with all 2 x #pairs rows in one dense HiGHS call, line 13's max over pairs."""

from __future__ import annotations

import importlib
from fractions import Fraction

import numpy as np
import pytest
from scipy.optimize import linprog

import reference as R
from fast import line9, pair_stats
from fast.catoni import catoni_roots, root_tolerance
from fast.constants import FloatParams
from fast.hypotheses import disagreement_counts

FC = importlib.import_module("fast.calruption")  # the package's `calruption` is the function


def random_epoch(seed: int):
    """H, State and counts of one epoch with many distinct q values."""
    rng = np.random.default_rng(seed)
    num_h, m = int(rng.integers(3, 11)), int(rng.integers(8, 40))
    H = (rng.random((num_h, m)) < rng.uniform(0.2, 0.8)).astype(np.int64)
    H[-1] = H[0]  # a duplicated hypothesis: rho^ = 0, W = 0
    H[:, 0] = 1  # a constant column: no pair disagrees there, q_{l+1} = 0
    l = int(rng.integers(1, 4))
    params = R.Params.scaled(10**6, num_h, Fraction(1, 10), Fraction(1, 4), Fraction(3))
    fparams = FloatParams.of(params)
    length = fparams.epoch_length(l)
    q = rng.uniform(0.01, 1.0, m)  # distinct per point: G ~ |X|
    q[rng.choice(m, size=2, replace=False)] = 0.0  # a pair whose Dis meets one on S_l has min q = 0: no row
    q[rng.random(m) < 0.15] = q[0]  # a few shared values too
    nu = rng.random(m) * (rng.random(m) < 0.85)
    nu[1] = 1.0  # at least one seen point
    seen = rng.multinomial(length, nu / nu.sum())
    asked = rng.binomial(seen, q)
    ones = rng.binomial(asked, rng.random(m))
    queried = np.stack([asked - ones, ones], axis=1)
    gap = np.where(rng.random(num_h) < 0.5, 0.0, rng.uniform(0, 0.5, num_h))
    state = FC.State(l, 1, length, q, gap)
    return H, state, seen, queried, fparams


def unblocked_pairs(H, q, seen, queried, length):
    """rho counts, min q (nan where rho = 0), and Catoni's (values, counts) per pair, by loops."""
    num_h, m = H.shape
    rho = np.zeros((num_h, num_h), dtype=np.int64)
    min_q = np.full((num_h, num_h), np.nan)
    samples = {}
    for h in range(num_h):
        for g in range(num_h):
            dis = H[h] != H[g]
            rho[h, g] = int(seen[dis].sum())
            on = dis & (seen > 0)
            if rho[h, g]:
                min_q[h, g] = q[on].min()
            grouped = {}
            for x in np.flatnonzero(dis & (q > 0)):
                for y in (0, 1):
                    if queried[x, y]:
                        value = (int(H[h, x] != y) - int(H[g, x] != y)) / q[x]
                        grouped[value] = grouped.get(value, 0) + int(queried[x, y])
            grouped[0.0] = grouped.get(0.0, 0) + length - sum(grouped.values())
            samples[h, g] = grouped
    return rho, min_q, samples


def full_lp(H, support, p_hat, weight, W):
    """Line 9 with every row at once (the formulation fast used before row generation)."""
    hi, hj = np.nonzero(np.triu(np.isfinite(weight), 1))
    k = len(support)
    if len(hi) == 0:
        return 0.0
    signed = (H[hi][:, support] - H[hj][:, support]) * p_hat[support] * weight[hi, hj][:, None]
    constant, target = signed.sum(axis=1), weight[hi, hj] * W[hi, hj]
    ones = np.ones((len(hi), 1))
    A = np.block([[-2 * signed, -ones], [2 * signed, -ones]])
    b = np.concatenate([target - constant, constant - target])
    c = np.zeros(k + 1)
    c[-1] = 1.0
    tol = line9.HIGHS_TOLERANCE
    result = linprog(
        c,
        A_ub=A,
        b_ub=b,
        bounds=[(0, 1)] * k + [(None, None)],
        method="highs-ds",
        options={"presolve": False, "primal_feasibility_tolerance": tol, "dual_feasibility_tolerance": tol},
    )
    assert result.status == 0, result.message
    return float(result.fun)


def all_rows_value(H, p_hat, eta, weight, W) -> float:
    """max over ordered pairs with a weight of w (R_D(h) - R_D(h') - W), by loops."""
    eta0 = np.where(p_hat > 0, eta, 0.0)
    risk = [float(np.sum(p_hat * np.where(H[h] == 1, 1 - eta0, eta0))) for h in range(len(H))]
    best = 0.0
    for h in range(len(H)):
        for g in range(len(H)):
            if np.isfinite(weight[h, g]):
                best = max(best, weight[h, g] * (risk[h] - risk[g] - W[h, g]))
    return best


def one_row_at_a_time(monkeypatch):
    """Row generation from one row, adding one per round: many rounds even on small LPs."""
    for name, value in (
        ("FIRST_ROWS", 1),
        ("FIRST_ROWS_PER_COLUMN", 0.0),
        ("ROWS_PER_ROUND", 1),
        ("ROWS_PER_ROUND_PER_COLUMN", 0.0),
    ):
        monkeypatch.setattr(line9, name, value)


@pytest.fixture
def tiny_blocks(monkeypatch):
    """Every blocked loop over many blocks (pair rows, Catoni chunks, LP row blocks, line 13's
    sweep) and many rounds of row generation."""
    monkeypatch.setattr(pair_stats, "BLOCK_ELEMENTS", 7)
    monkeypatch.setattr(pair_stats, "CATONI_ELEMENTS", 5)
    monkeypatch.setattr(line9, "ROW_BLOCK_ELEMENTS", 3)
    one_row_at_a_time(monkeypatch)


@pytest.mark.parametrize("seed", range(12))
def test_blocked_epoch_equals_the_unblocked_computation(seed, tiny_blocks, monkeypatch):
    H, state, seen, queried, fparams = random_epoch(seed)
    num_h, m = H.shape
    length = state.length
    support = np.flatnonzero(seen > 0)
    assert len(pair_stats.q_groups(state.q, support)) >= len(support) // 2  # the many-groups path
    stats = {}
    original = line9.fit_distribution
    monkeypatch.setattr(FC, "fit_distribution", lambda *args, **kwargs: original(*args, **kwargs, stats=stats))
    e, _ = FC.epoch_update(H, state, seen, queried, fparams)

    rho, min_q, samples = unblocked_pairs(H, state.q, seen, queried, length)
    assert np.array_equal(e.rho_counts, rho)
    assert np.array_equal(np.isnan(e.min_q), np.isnan(min_q)) and np.array_equal(
        e.min_q[~np.isnan(min_q)], min_q[~np.isnan(min_q)]
    )
    active = (rho > 0) & (min_q > 0)
    assert np.array_equal(np.isfinite(e.weight), active) and np.array_equal(np.isfinite(e.alpha), active)
    agree = (rho == 0) & ~np.eye(num_h, dtype=bool)
    assert agree.any() and np.all(e.W[agree] == 0.0)  # the duplicated hypothesis at least
    assert np.all(np.isnan(e.W[(rho > 0) & ~active]))
    assert active.any(), "the draw should have pairs with a Catoni estimate"
    for h, g in zip(*np.nonzero(active)):
        values, counts = zip(*sorted(samples[h, g].items()))
        expected = catoni_roots(np.array([values]), np.array([counts], dtype=float), np.array([e.alpha[h, g]]))[0]
        tolerance = 2 * root_tolerance(max(abs(v) for v in values), e.alpha[h, g])
        assert abs(e.W[h, g] - expected) <= tolerance, (h, g, e.W[h, g], expected)
        assert e.W[g, h] == -e.W[h, g]

    # line 9: the reported objective is the value of the reported eta^ over ALL rows, and it
    # is the full LP's optimum (within the row-generation and HiGHS tolerances)
    value = all_rows_value(H, seen / length, e.eta_hat, e.weight, e.W)
    assert e.lp_objective == pytest.approx(value, rel=1e-12, abs=1e-15)
    optimum = full_lp(H, support, seen / length, e.weight, e.W)
    scale = float(np.nanmax(e.weight * (np.abs(e.W) + 1)))
    assert abs(e.lp_objective - optimum) <= 1e-7 * abs(optimum) + 1e-8 * scale, (e.lp_objective, optimum)
    assert stats["rounds"] >= 1 and stats["working_rows"] <= stats["rows"]
    assert np.all((0 <= e.eta_hat[support]) & (e.eta_hat[support] <= 1)) and np.all(
        np.isnan(np.delete(e.eta_hat, support))
    )

    # line 13 from the epoch's own levels: the max over disagreeing pairs
    level = e.layers.sum(axis=0) - 1
    expected_q = np.zeros(m)
    for h in range(num_h):
        for g in range(h + 1, num_h):
            value = np.ldexp(rho[h, g] / length, 2 * (min(level[h], level[g]) - state.l - 1))
            expected_q = np.where(H[h] != H[g], np.maximum(expected_q, value), expected_q)
    assert np.array_equal(e.next_q, expected_q)
    assert e.next_q[0] == 0.0  # the constant column


@pytest.mark.parametrize("seed", range(6))
def test_row_generation_warm_and_linprog_fallback_reach_the_full_lp_optimum(seed, monkeypatch):
    H, state, seen, queried, fparams = random_epoch(100 + seed)
    e, _ = FC.epoch_update(H, state, seen, queried, fparams)
    one_row_at_a_time(monkeypatch)
    assert np.isfinite(e.weight).any()
    support = np.flatnonzero(seen > 0)
    p_hat = seen / state.length
    optimum = full_lp(H, support, p_hat, e.weight, e.W)
    scale = float(np.nanmax(e.weight * (np.abs(e.W) + 1)))
    for warm in (True, False):
        stats = {}
        eta, objective = line9.fit_distribution(H, support, p_hat, e.weight, e.W, warm=warm, stats=stats)
        assert stats["rounds"] > 1 and stats["working_rows"] < stats["rows"]
        full_eta = np.full(H.shape[1], np.nan)
        full_eta[support] = eta
        assert objective == pytest.approx(all_rows_value(H, p_hat, full_eta, e.weight, e.W), rel=1e-12, abs=1e-15)
        assert abs(objective - optimum) <= 1e-7 * abs(optimum) + 1e-8 * scale, (warm, objective, optimum)


def test_no_rows_gives_one_half_and_zero():
    H = np.array([[0, 1], [0, 1]])
    nan = np.full((2, 2), np.nan)
    eta, objective = line9.fit_distribution(H, np.array([0, 1]), np.array([0.5, 0.5]), nan, nan)
    assert np.array_equal(eta, [0.5, 0.5]) and objective == 0.0


def test_spanning_tree_equalities_give_the_risk_differences():
    """r_h = sum_x p^_x h(x) (1 - 2 eta^_x) satisfies every tree equality, for any eta^."""
    rng = np.random.default_rng(5)
    HS = (rng.random((9, 17)) < 0.5).astype(np.float64)
    HS[3] = HS[7]
    p = rng.random(17)
    A, rhs = line9.tree_equalities(HS, p)
    for _ in range(3):
        eta = rng.random(17)
        r = HS @ (p * (1 - 2 * eta))
        x = np.concatenate([eta, r, [rng.normal()]])
        assert np.allclose(A @ x, rhs, atol=1e-14)
    parent = line9.spanning_tree(HS)
    for h in range(9):  # the parent links end at the virtual root: a tree, no cycle
        path = {h}
        while parent[h] >= 0:
            h = int(parent[h])
            assert h not in path
            path.add(h)
    assert parent[7] == 3 or parent[3] == 7  # a duplicate hangs off its twin (distance 0)


@pytest.mark.parametrize("chunk_words", [1, 2, 5, pair_stats.BLOCK_ELEMENTS])
def test_line13_sweep_is_the_max_over_disagreeing_pairs(chunk_words):
    rng = np.random.default_rng(chunk_words)
    for _ in range(40):
        num_h, m = int(rng.integers(1, 12)), int(rng.integers(1, 150))  # > 64 points: several bit words
        H = (rng.random((num_h, m)) < rng.random()).astype(np.int64)
        V = np.triu(np.round(rng.random((num_h, num_h)) * 4) / 4 * (rng.random((num_h, num_h)) < 0.7), 1)
        V = V + V.T  # ties and zeros included
        hi, hj = np.triu_indices(num_h, 1)
        expected = ((H[hi] != H[hj]) * V[hi, hj][:, None]).max(axis=0) if len(hi) else np.zeros(m)
        assert np.array_equal(pair_stats.next_query_probabilities(H, V, chunk_words), expected)


def test_disagreement_counts_float_path_is_exact_and_falls_back_to_int64():
    rng = np.random.default_rng(3)
    H = (rng.random((13, 21)) < 0.5).astype(np.int64)
    for seen in (rng.integers(0, 10**6, 21), rng.integers(0, 2**47, 21), np.full(21, 2**58)):
        expected = np.array([[int(seen[H[h] != H[g]].sum()) for g in range(13)] for h in range(13)], dtype=object)
        got = disagreement_counts(H, seen)
        assert got.dtype == np.int64 and (got.astype(object) == expected).all()


def test_warm_highs_retries_at_default_tolerances_before_giving_up(monkeypatch):
    """A round HiGHS does not finish at the tight tolerances is solved again at its
    defaults; a round it cannot finish at all is a RuntimeError, not a wrong D^."""
    import highspy

    class Flaky:
        def __init__(self, inner, failures):
            self.inner, self.failures, self.retried_at = inner, failures, None

        def __getattr__(self, name):
            return getattr(self.inner, name)

        def getModelStatus(self):
            if self.failures:
                self.failures -= 1
                self.retried_at = self.inner.getOptionValue("primal_feasibility_tolerance")
                return highspy.HighsModelStatus.kUnknown
            return self.inner.getModelStatus()

    H, state, seen, queried, fparams = random_epoch(302)
    e, _ = FC.epoch_update(H, state, seen, queried, fparams)
    assert np.isfinite(e.weight).any()
    support, p_hat = np.flatnonzero(seen > 0), seen / state.length
    original = line9._solver
    made = []

    for failures in (1, 2):

        def flaky_solver(*model, warm=True):
            lp = original(*model, warm=warm)
            lp.highs = Flaky(lp.highs, failures)
            made.append(lp.highs)
            return lp

        monkeypatch.setattr(line9, "_solver", flaky_solver)
        if failures == 1:
            eta, objective = line9.fit_distribution(H, support, p_hat, e.weight, e.W)
            assert objective == pytest.approx(e.lp_objective, rel=1e-6, abs=1e-9)
            assert made[-1].retried_at[1] == line9.HIGHS_TOLERANCE  # it failed at the tight tolerance
            assert (
                made[-1].inner.getOptionValue("primal_feasibility_tolerance")[1] == 1e-7
            )  # and went on at the default
        else:
            with pytest.raises(RuntimeError, match="could not solve the LP"):
                line9.fit_distribution(H, support, p_hat, e.weight, e.W)
