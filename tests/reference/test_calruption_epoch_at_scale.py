"""CALruption's epoch at scale: the per-pair integer statistics, line 9 by row
generation and line 13 by a sweep compute exactly what the pointwise definitions say."""

import importlib
import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference as R
from properties.checks.registry import all_checks
from properties.run.runner import PASSED, run_check
from properties.strategies import epoch_examples
from reference.calruption import (
    EpochCounts,
    EpochState,
    calruption_epoch,
    epoch_length,
    fit_distribution,
    loss_difference_samples,
    lp_rows,
    lp_value,
    next_query_probabilities,
)
from reference.fit_rows import fit_by_row_generation
from reference.pair_counts import pair_counts

C = importlib.import_module("reference.calruption")
FR = importlib.import_module("reference.fit_rows")


@settings(max_examples=60)
@given(example=epoch_examples(max_points=8))
def test_pair_counts_equal_the_pointwise_sums(example):
    H, state, counts = example.hypotheses, example.state, example.counts
    stats = pair_counts(H, state.q, counts.seen, counts.queried, state.length)
    support = [x for x, s in enumerate(counts.seen) if s > 0]
    for h in range(len(H)):
        for h2 in range(len(H)):
            dis = [x for x in range(len(H[0])) if H[h][x] != H[h2][x]]
            assert stats.rho_counts[h][h2] == sum(counts.seen[x] for x in dis), (h, h2)
            on_support = [state.q[x] for x in dis if x in support]
            assert stats.min_q(h, h2) == (min(on_support) if on_support else None), (h, h2)
            if h != h2:
                assert stats.loss_differences(h, h2, state.length) == loss_difference_samples(
                    H, h, h2, state.q, counts, state.length
                ), (h, h2)


@settings(max_examples=60)
@given(example=epoch_examples(max_points=8))
def test_next_q_sweep_is_the_max_over_disagreeing_pairs(example):
    H, l = example.hypotheses, example.state.l
    rng = random.Random(len(H) * 31 + l)
    rho = [[F(0)] * len(H) for _ in H]
    for h in range(len(H)):
        for h2 in range(h + 1, len(H)):
            rho[h][h2] = rho[h2][h] = F(rng.randint(0, 5), rng.randint(1, 7))
    level = [rng.randint(0, l) for _ in H]
    expected = tuple(
        max(
            [F(0)]
            + [
                rho[h][h2] * F(4 ** min(level[h], level[h2]), 4 ** (l + 1))
                for h in range(len(H))
                for h2 in range(h + 1, len(H))
                if H[h][x] != H[h2][x]
            ]
        )
        for x in range(len(H[0]))
    )
    assert next_query_probabilities(H, rho, level, l) == expected


def _record(example):
    record, _ = calruption_epoch(example.hypotheses, example.state, example.counts, example.params)
    return record


@settings(max_examples=40, deadline=None)
@given(example=epoch_examples(max_points=8))
def test_row_generation_certifies_the_whole_lps_optimum(example, monkeypatch_module):
    """Whatever the starting rows and however few are added per round, the row-generated
    D^ attains the whole LP's optimum (reference.lp on every row at once)."""
    record = _record(example)
    rows = lp_rows(record)
    H, support = example.hypotheses, record.support
    _, optimum, _ = fit_distribution(H, support, record.empirical_x, rows)
    fitted, objective, _ = fit_by_row_generation(H, support, example.counts.seen, record.length, rows)
    assert objective == optimum
    eta = [None] * len(H[0])
    for x, e in zip(support, fitted):
        assert 0 <= e <= 1
        eta[x] = e
    assert lp_value(H, support, record.empirical_x, rows, eta) == optimum


@pytest.fixture(scope="module")
def monkeypatch_module():
    """One row to start from and one added per round: the most rounds row generation can take."""
    patch = pytest.MonkeyPatch()
    for name, value in (
        ("INITIAL_PAIRS", 1),
        ("INITIAL_PAIRS_PER_COLUMN", 0),
        ("ROWS_PER_ROUND", 1),
        ("ROWS_PER_ROUND_PER_COLUMN", 0),
    ):
        patch.setattr(FR, name, value)
    yield patch
    patch.undo()


@settings(max_examples=40, deadline=None)
@given(example=epoch_examples(max_points=8), data=st.data())
def test_dual_simplex_repair_reaches_the_whole_lps_optimum(example, data):
    """From a certified vertex of the LP of a few pairs' rows (dual feasible for the whole
    LP), the exact dual simplex repair ends at a point feasible for every row whose value
    is the whole LP's optimum (reference.lp on every row at once)."""
    record = _record(example)
    rows = lp_rows(record)
    H, support = example.hypotheses, record.support
    if not rows:
        return
    _, optimum, _ = fit_distribution(H, support, record.empirical_x, rows)
    pairs = sorted({(min(h, h2), max(h, h2)) for h, h2, _, _ in rows})
    table = FR._Rows(
        H, support, [(h, h2, *next((w, W) for a, b, w, W in rows if (a, b) == (h, h2))) for h, h2 in pairs]
    )
    chosen = data.draw(
        st.lists(st.integers(0, len(pairs) - 1), min_size=1, max_size=3, unique=True), label="starting_pairs"
    )
    start = [(i, sign) for i in sorted(chosen) for sign in (1, -1)]
    p_support = [F(example.counts.seen[x], record.length) for x in support]
    arguments, _ = FR._v_problem(table, start, p_support)
    solution = R.lp.solve_lp(*arguments, vertex=FR._structured_vertex)
    k = len(support)
    basis = FR._basis_of(solution, start, k)
    violated = table.exact_violations(solution.x[:k], solution.x[k])
    if basis is None or not violated:
        return
    repaired = FR._dual_simplex_repair(table, p_support, solution, *basis)
    assert repaired is not None, (chosen, violated)
    assert repaired.objective == optimum
    assert table.exact_violations(repaired.x[:k], repaired.x[k]) == []
    eta = [None] * len(H[0])
    for x, p, v in zip(support, p_support, repaired.x[:k]):
        eta[x] = (p - v) / (2 * p)
        assert 0 <= eta[x] <= 1
    assert lp_value(H, support, record.empirical_x, rows, eta) == optimum


def test_rows_must_come_in_pairs():
    H = ((0, 1), (1, 1))
    with pytest.raises(ValueError, match="in pairs"):
        fit_by_row_generation(H, (0, 1), (1, 1), 2, [(0, 1, F(1), F(1, 3))])
    with pytest.raises(ValueError, match="in pairs"):
        fit_by_row_generation(H, (0, 1), (1, 1), 2, [(0, 1, F(1), F(1, 3)), (1, 0, F(1), F(1, 3))])


def test_a_large_epoch_takes_the_row_generation_path_and_is_optimal():
    """32 thresholds on 32 points: 992 rows, above FULL_LP_MAX_ROWS; the certified D^ attains
    the optimum of the whole LP."""
    instance = R.instances.thresholds(32)
    H = instance.hypotheses[:32]
    params = R.Params.scaled(10**6, 32, beta1=F(16))
    length = epoch_length(params, 2)
    rng = random.Random(5)
    seen = [0] * 32
    for _ in range(length):
        seen[rng.randrange(32)] += 1
    q = tuple(F(rng.choice((1, 2, 3, 4)), 16) for _ in range(32))
    queried = []
    for x in range(32):
        asked = sum(rng.random() < q[x] for _ in range(seen[x]))
        ones = sum(rng.random() < (0.1 if x < 16 else 0.9) for _ in range(asked))
        queried.append((asked - ones, ones))
    state = EpochState(2, 1 + epoch_length(params, 1), length, q, tuple(F(1, 2) for _ in range(32)))
    record, _ = calruption_epoch(H, state, EpochCounts(tuple(seen), tuple(queried)), params)
    rows = lp_rows(record)
    assert len(rows) > C.FULL_LP_MAX_ROWS
    _, optimum, _ = fit_distribution(H, record.support, record.empirical_x, rows)
    assert record.lp_objective == optimum
    assert lp_value(H, record.support, record.empirical_x, rows, record.eta_hat) == optimum


def test_property_checks_of_line_9_pass_with_row_generation_forced(monkeypatch):
    """The property suite's exact LP-optimality check, on the reference with every LP solved
    by row generation."""
    monkeypatch.setattr(C, "FULL_LP_MAX_ROWS", 0)
    monkeypatch.setattr(FR, "ROWS_PER_ROUND", 1)
    monkeypatch.setattr(FR, "ROWS_PER_ROUND_PER_COLUMN", 0)
    result = run_check(all_checks()["check_calruption_fit_is_optimal"], R, max_examples=25)
    assert result.status == PASSED, result
