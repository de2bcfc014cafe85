"""The certified exact LP solver (reference/lp.py) against an independent oracle.

The oracle enumerates every vertex exactly: each way of holding some variables at a
finite bound, with as many rows as free variables forming a non-singular square system
(solved by Fraction Gauss–Jordan), keeping the feasible points. A bounded feasible LP over
a pointed region attains its minimum at a vertex, so the least objective over them is
the optimum. The oracle shares no code with the solver.
"""

from __future__ import annotations

import functools
import random
from fractions import Fraction as F
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import lp
from reference.lp import (
    METHOD_CERTIFIED,
    METHOD_SIMPLEX,
    LPInfeasible,
    LPSolution,
    LPUnbounded,
    check_optimal,
    solve_lp,
    solve_lp_exact,
)

METHODS = (METHOD_CERTIFIED, METHOD_SIMPLEX)


def examples(n: int) -> settings:
    """`n` examples under the dev/ci profiles (30 examples), proportionally more under fuzz:
    the brute-force oracle is what costs time here."""
    return settings(max_examples=max(3, n * settings.default.max_examples // 30))


# -- the oracle: exact vertex enumeration -------------------------------------------------


def _inverse(M):
    # the fits' submatrices repeat (rows from a small pool of patterns): each is inverted once
    return _inverse_of(tuple(map(tuple, M)))


@functools.lru_cache(maxsize=1 << 16)
def _inverse_of(M):
    n = len(M)
    a = [[F(v) for v in row] + [F(int(i == j)) for j in range(n)] for i, row in enumerate(M)]
    for k in range(n):
        piv = next((i for i in range(k, n) if a[i][k] != 0), None)
        if piv is None:
            return None
        a[k], a[piv] = a[piv], a[k]
        rowk = a[k] = [v / a[k][k] for v in a[k]]
        for i in range(n):
            if i != k and a[i][k] != 0:
                f = a[i][k]
                a[i] = [u - f * v for u, v in zip(a[i], rowk)]
    return tuple(tuple(row[n:]) for row in a)


def vertices(A, b, lower, upper):
    """Every vertex of {x : A x ≤ b, lower ≤ x ≤ upper}, exactly (possibly repeated)."""
    n, m = len(lower), len(A)
    for f in range(min(n, m) + 1):
        for free in combinations(range(n), f):
            fixed = [j for j in range(n) if j not in free]
            options = [sorted({v for v in (lower[j], upper[j]) if v is not None}) for j in fixed]
            if any(not o for o in options):
                continue  # a variable without finite bound cannot be held at one
            choices = list(product(*options))
            for R in combinations(range(m), f):
                inv = _inverse([[A[r][j] for j in free] for r in R])
                if inv is None:
                    continue
                for choice in choices:
                    x = [None] * n
                    for j, v in zip(fixed, choice):
                        x[j] = F(v)
                    rhs = [b[r] - sum(A[r][j] * x[j] for j in fixed) for r in R]
                    ok = True
                    for a, j in enumerate(free):
                        v = sum(u * w for u, w in zip(inv[a], rhs))
                        if (lower[j] is not None and v < lower[j]) or (upper[j] is not None and v > upper[j]):
                            ok = False
                            break
                        x[j] = v
                    if ok and all(sum(u * w for u, w in zip(A[r], x)) <= b[r] for r in range(m)):
                        yield tuple(x)


def brute_force_min(c, A, b, lower, upper):
    # repeated rows do not change the feasible set; dropping them saves the oracle time
    unique = list(dict.fromkeys((tuple(F(v) for v in row), F(rhs)) for row, rhs in zip(A, b)))
    A, b = [row for row, _ in unique], [rhs for _, rhs in unique]
    values = [sum(F(ci) * xi for ci, xi in zip(c, x)) for x in vertices(A, b, lower, upper)]
    return min(values) if values else None


def objective(c, x):
    return sum(F(ci) * xi for ci, xi in zip(c, x))


def assert_feasible(A, b, lower, upper, x):
    for j, v in enumerate(x):
        assert lower[j] is None or v >= lower[j], (j, v)
        assert upper[j] is None or v <= upper[j], (j, v)
    for r, row in enumerate(A):
        assert sum(F(a) * v for a, v in zip(row, x)) <= b[r], r


def assert_certified(lp_data, sol):
    c, A, b, lower, upper = lp_data
    assert sol.method in METHODS
    assert check_optimal(c, A, b, lower, upper, sol) == []
    assert_feasible(A, b, lower, upper, sol.x)
    assert sol.objective == objective(c, sol.x)


# -- strategies ----------------------------------------------------------------------------


def small_fractions(lo, hi, den=6):
    return st.fractions(min_value=lo, max_value=hi, max_denominator=den)


@st.composite
def boxed_lps(draw, max_vars=6, max_rows=10):
    """A feasible LP in a finite box: b = A x0 + slack for a point x0 of the box (slack ≥ 0,
    often 0, and x0 often at a corner, so degenerate vertices are common). The number of
    rows is also capped by n + m ≤ 12 so the brute-force oracle stays fast."""
    n = draw(st.integers(1, max_vars), label="n")
    m = draw(st.integers(0, min(max_rows, 12 - n)), label="m")
    c = draw(st.lists(small_fractions(-4, 4), min_size=n, max_size=n), label="c")
    A = draw(st.lists(st.lists(small_fractions(-4, 4), min_size=n, max_size=n), min_size=m, max_size=m), label="A_ub")
    lower = draw(st.lists(small_fractions(-3, 1, 4), min_size=n, max_size=n), label="lower")
    width = draw(st.lists(small_fractions(0, 3, 4), min_size=n, max_size=n), label="width")
    upper = [lo + w for lo, w in zip(lower, width)]
    t = draw(st.lists(st.sampled_from([F(0), F(1, 3), F(1, 2), F(1)]), min_size=n, max_size=n), label="x0 position")
    x0 = [lo + ti * w for lo, ti, w in zip(lower, t, width)]
    slack = draw(st.lists(st.sampled_from([F(0), F(0), F(1, 4), F(1), F(3, 2)]), min_size=m, max_size=m), label="slack")
    b = [sum(a * v for a, v in zip(row, x0)) + s for row, s in zip(A, slack)]
    return c, A, b, lower, upper


@st.composite
def linf_fits(draw):
    """A degenerate L∞ fit, 12 rows × 5 variables: minimise s over η ∈ [0, 1]⁴ and a free s
    subject to ±(a_r·η − W_r) ≤ s for six pairs. The a_r ∈ {−1, 0, 1}⁴ come from a pool of
    one to three patterns and the W_r from a coarse grid, so rows repeat and tie."""
    pool = draw(
        st.lists(st.lists(st.sampled_from([-1, 0, 1]), min_size=4, max_size=4), min_size=1, max_size=3),
        label="pattern pool",
    )
    A, b = [], []
    for i in range(6):
        a = draw(st.sampled_from(pool), label=f"pattern {i}")
        W = draw(st.sampled_from([F(-1), F(-1, 2), F(0), F(0), F(1, 2), F(1)]), label=f"W {i}")
        A.append([F(v) for v in a] + [F(-1)])
        b.append(W)
        A.append([F(-v) for v in a] + [F(-1)])
        b.append(-W)
    return [F(0)] * 4 + [F(1)], A, b, [F(0)] * 4 + [None], [F(1)] * 4 + [None]


def fit_shape(seed: int, hypotheses: int = 16, points: int = 32):
    """CALruption's line-9 LP: rows w·(a + Σ b_x η_x − W) ≤ s over η ∈ [0, 1]^points and a
    free s, b_x ∈ {−2p_x, 0, 2p_x} with p_x = k_x/N, 64-bit weights and 64-bit denominators."""
    rng = random.Random(seed)
    hyps = set()
    while len(hyps) < hypotheses:
        hyps.add(tuple(rng.randint(0, 1) for _ in range(points)))
    hyps = sorted(hyps)
    counts = [rng.randint(1, 1000) for _ in range(points)]
    p = [F(k, sum(counts)) for k in counts]
    eta = [F(rng.randint(0, 100), 100) for _ in range(points)]
    A, b = [], []
    for h in hyps:
        for g in hyps:
            if h == g:
                continue
            sigma = [(1 if h[x] else -1) if h[x] != g[x] else 0 for x in range(points)]
            a = sum(p[x] * sigma[x] for x in range(points))
            diff = a - sum(2 * p[x] * sigma[x] * eta[x] for x in range(points))
            den = rng.randrange(2**62, 2**64)
            W = F(round((diff + F(rng.randint(-100, 100), 1000)) * den), den)
            w = F(rng.randrange(2**62, 2**64), rng.randrange(2**62, 2**64))
            A.append([w * (-2 * p[x] * sigma[x]) for x in range(points)] + [F(-1)])
            b.append(w * (W - a))
    return [F(0)] * points + [F(1)], A, b, [F(0)] * points + [None], [F(1)] * points + [None]


# -- solve_lp against the oracle ----------------------------------------------------------


# Each drawn LP is solved by solve_lp and by the exact simplex alone (and a fit also by solve_lp's
# fallback from a wrong active set) against one run of the oracle, which is what costs time.


def _solved_by_the_exact_simplex(lp_data, optimum):
    sol = solve_lp_exact(*lp_data)
    assert sol.method == METHOD_SIMPLEX
    assert_certified(lp_data, sol)
    assert sol.objective == optimum


def _solved_from_a_wrong_active_set(lp_data, seed, optimum):
    """solve_lp's fallback: HiGHS's active set replaced by an arbitrary one (some bases
    primal feasible, some not) — the warm-started exact simplex still finds the optimum.
    (Patched by hand: a function-scoped monkeypatch fixture does not reset per example.)"""
    rng = random.Random(seed)
    original = lp._FloatLP.orders

    def shuffled_orders(self, res):
        ids = list(range(self.p.m)) + [self.p.m + j for j in range(4)] + [self.p.m + 5 + j for j in range(4)]
        for _ in original(self, res):
            rng.shuffle(ids)
            yield list(ids)

    lp._FloatLP.orders = shuffled_orders
    try:
        sol = solve_lp(*lp_data)
    finally:
        lp._FloatLP.orders = original
    assert_certified(lp_data, sol)
    assert sol.objective == optimum


@examples(30)
@given(boxed_lps())
def test_random_boxed_lps_match_vertex_enumeration(lp_data):
    optimum = brute_force_min(*lp_data)
    sol = solve_lp(*lp_data)
    assert_certified(lp_data, sol)
    assert sol.objective == optimum
    _solved_by_the_exact_simplex(lp_data, optimum)


@examples(20)
@given(linf_fits(), st.integers(0, 2**32))
def test_degenerate_linf_fits_certify_and_match_oracle(lp_data, seed):
    optimum = brute_force_min(*lp_data)
    sol = solve_lp(*lp_data)
    assert_certified(lp_data, sol)
    assert sol.objective == optimum
    _solved_by_the_exact_simplex(lp_data, optimum)
    _solved_from_a_wrong_active_set(lp_data, seed, optimum)


def test_calruption_fit_shape_240_by_33_certifies():
    lp_data = fit_shape(seed=1)
    assert len(lp_data[1]) == 240 and len(lp_data[0]) == 33
    sol = solve_lp(*lp_data)
    assert_certified(lp_data, sol)


def test_near_tie_fit_certifies():
    """W consistent with some D̂ up to 64-bit rounding: the optimum (~1e-18) and the ties
    among the active rows lie far below HiGHS's tolerances; still certified."""
    c, A, b, lower, upper = fit_shape(seed=2, hypotheses=8, points=16)
    # Replace every W by the value the first row set would give at η = 1/2: all rows then
    # tie at s = 0 up to the rounding of the 64-bit denominators.
    rng = random.Random(3)
    b = [F(round(sum(a * F(1, 2) for a in row[:-1]) * d), d) for row in A for d in (rng.randrange(2**62, 2**64),)]
    sol = solve_lp(c, A, b, lower, upper)
    assert_certified((c, A, b, lower, upper), sol)
    assert abs(sol.objective) < F(1, 10**12)


def test_same_input_same_answer():
    lp_data = fit_shape(seed=4, hypotheses=8, points=8)
    assert solve_lp(*lp_data) == solve_lp(*lp_data)


def test_negative_lower_bound_is_honoured():
    """sympy's linprog returned 0 here (a known defect of sympy's exact LP, noted when the solver was chosen)."""
    for solve in (solve_lp, solve_lp_exact):
        sol = solve([1], [], [], [-1], [1])
        assert sol.x == (F(-1),) and sol.objective == -1
        assert sol.lower_duals == (F(1),) and sol.upper_duals == (F(0),)


# -- check_optimal rejects wrong candidates -----------------------------------------------

# minimise x + y  s.t.  x + y ≥ 1 (as −x − y ≤ −1), 0 ≤ x, y ≤ 1: optimum 1.
SMALL = ([1, 1], [[-1, -1]], [-1], [0, 0], [1, 1])


def test_check_optimal_accepts_a_correct_certificate():
    sol = LPSolution((F(1), F(0)), F(1), (F(1),), (F(0), F(0)), (F(0), F(0)))
    assert check_optimal(*SMALL, sol) == []
    assert check_optimal(*SMALL, solve_lp(*SMALL)) == []


def test_check_optimal_rejects_feasible_suboptimal_point():
    for duals in ((F(1),), (F(0),)):
        sol = LPSolution((F(1), F(1)), F(2), duals, (F(0), F(0)), (F(0), F(0)))
        problems = check_optimal(*SMALL, sol)
        assert problems and not any(p.startswith("primal") for p in problems)


def test_check_optimal_rejects_wrong_duals_at_the_optimum():
    for duals in ((F(2),), (F(0),), (F(1, 2),)):
        sol = LPSolution((F(1), F(0)), F(1), duals, (F(0), F(0)), (F(0), F(0)))
        problems = check_optimal(*SMALL, sol)
        assert problems and all(p.startswith(("dual", "gap")) for p in problems)
    # stationarity restored by upper-bound multipliers: only the duality gap is left
    sol = LPSolution((F(1), F(0)), F(1), (F(2),), (F(0), F(0)), (F(1), F(1)))
    problems = check_optimal(*SMALL, sol)
    assert problems and all(p.startswith("gap") for p in problems)
    # a negative multiplier is named
    sol = LPSolution((F(1), F(0)), F(1), (F(1),), (F(0), F(0)), (F(-1), F(0)))
    assert any("upper_duals[0]" in p for p in check_optimal(*SMALL, sol))


def test_check_optimal_rejects_infeasible_points_and_wrong_objective():
    # x + y = 1/2 < 1 violates the row; claimed objective 1/2 with duals that balance
    sol = LPSolution((F(1, 2), F(0)), F(1, 2), (F(1),), (F(0), F(0)), (F(0), F(0)))
    assert any(p.startswith("primal: row 0") for p in check_optimal(*SMALL, sol))
    sol = LPSolution((F(2), F(-1)), F(1), (F(1),), (F(0), F(0)), (F(0), F(0)))
    problems = check_optimal(*SMALL, sol)
    assert any("upper[0]" in p for p in problems) and any("lower[1]" in p for p in problems)
    sol = LPSolution((F(1), F(0)), F(0), (F(1),), (F(0), F(0)), (F(0), F(0)))
    assert any(p.startswith("objective") for p in check_optimal(*SMALL, sol))


def test_check_optimal_rejects_a_multiplier_on_an_absent_bound():
    # minimise x over x ≥ 0 written as a row, x free: λ on the missing lower bound is wrong
    sol = LPSolution((F(0),), F(0), (F(0),), (F(1),), (F(0),))
    assert any("absent bound" in p for p in check_optimal([1], [[-1]], [0], [None], [None], sol))


@examples(15)
@given(boxed_lps(max_vars=4, max_rows=6))
def test_check_optimal_rejects_every_suboptimal_vertex(lp_data):
    """Any feasible vertex worse than the optimum is rejected, even with the optimal duals."""
    sol = solve_lp(*lp_data)
    for x in set(vertices(*lp_data[1:])):
        value = objective(lp_data[0], x)
        candidate = LPSolution(x, value, sol.row_duals, sol.lower_duals, sol.upper_duals)
        assert (check_optimal(*lp_data, candidate) == []) == (value == sol.objective)


# -- solve_lp's fallback to the exact simplex --------------------------------------------


def test_fallback_when_highs_gives_nothing(monkeypatch):
    monkeypatch.setattr(lp._FloatLP, "solve", lambda self: None)
    lp_data = fit_shape(seed=5, hypotheses=4, points=4)
    sol = solve_lp(*lp_data)
    assert sol.method == METHOD_SIMPLEX
    assert_certified(lp_data, sol)
    assert sol.objective == brute_force_min(*lp_data)


@pytest.mark.parametrize("solve", [solve_lp, solve_lp_exact])
@pytest.mark.parametrize(
    "lp_data",
    [
        pytest.param(([1], [[1], [-1]], [0, -1], [None], [None]), id="x<=0 and x>=1"),
        pytest.param(([1, 1], [[1, 1]], [-3], [0, -1], [1, 1]), id="row outside the box"),
        pytest.param(([0, 0], [[0, 0]], [-1], [None, None], [None, None]), id="0 <= -1 with a lineality space"),
        pytest.param(([1], [], [], [2], [1]), id="crossed bounds"),
        pytest.param(
            ([1, 0, 0], [[1, 1, 0], [-1, -1, 0], [0, 0, 1]], [1, -2, 5], [None] * 3, [None] * 3),
            id="parallel rows, free variables",
        ),
    ],
)
def test_infeasible_is_proved(solve, lp_data):
    with pytest.raises(LPInfeasible, match="infeasible"):
        solve(*lp_data)


@pytest.mark.parametrize("solve", [solve_lp, solve_lp_exact])
@pytest.mark.parametrize(
    "lp_data",
    [
        pytest.param(([-1, 0], [[1, -1]], [0], [0, None], [None, None]), id="ray x = y up"),
        pytest.param(([1], [], [], [None], [None]), id="free variable, no rows"),
        pytest.param(([0, 1], [[1, 0]], [1], [None, None], [None, None]), id="objective along the lineality space"),
        pytest.param(([-1, -1], [[1, -1], [-1, 1]], [1, 1], [0, 0], [None, None]), id="degenerate strip"),
    ],
)
def test_unbounded_is_proved(solve, lp_data):
    with pytest.raises(LPUnbounded, match="unbounded"):
        solve(*lp_data)


def test_lineality_space_with_objective_orthogonal_to_it():
    """y appears nowhere and costs nothing: the optimum is attained (y is pinned at 0)."""
    lp_data = ([1, 0], [[-1, 0]], [-1], [None, None], [None, None])
    for solve in (solve_lp, solve_lp_exact):
        sol = solve(*lp_data)
        assert sol.objective == 1
        assert check_optimal(*lp_data, sol) == []


def test_infeasible_and_unbounded_are_value_errors():
    assert issubclass(LPInfeasible, ValueError) and issubclass(LPUnbounded, ValueError)


# -- the integer linear algebra ---------------------------------------------------------


@given(
    st.integers(1, 6).flatmap(
        lambda n: st.lists(st.lists(st.integers(-9, 9), min_size=n, max_size=n), min_size=n, max_size=n)
    )
)
def test_fraction_free_inverse_and_solve(M):
    n = len(M)
    got = lp._adjugate(M)
    inv = _inverse(M)
    assert (got is None) == (inv is None)
    if got is None:
        assert lp._bareiss_solve(M, [1] * n) is None
        return
    d, adj = got
    assert all(F(adj[i][j], d) == inv[i][j] for i in range(n) for j in range(n))
    d2, X = lp._bareiss_solve(M, list(range(n)))
    assert [F(v, d2) for v in X] == [sum(inv[i][j] * j for j in range(n)) for i in range(n)]


# -- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, pattern",
    [
        (([1, 2], [[1, 2]] * 3 + [[1, F(1, 2)], [1, 0.5]], [1] * 5, [0, 0], [1, 1]), r"A_ub\[4\]\[1\].*0\.5"),
        (([True, 1], [], [], [0, 0], [1, 1]), r"c\[0\].*bool True"),
        (([1.0], [], [], [0], [1]), r"c\[0\].*float 1\.0"),
        (([1], [[1]], [0.25], [0], [1]), r"b_ub\[0\].*0\.25"),
        (([1], [], [], [-0.5], [1]), r"lower\[0\].*-0\.5"),
        (([1], [], [], [0], [2.5]), r"upper\[0\].*2\.5"),
        (([1, 2], [[1, 2], [1]], [0, 0], [0, 0], [1, 1]), r"A_ub\[1\] has 1 entries, expected 2"),
        (([1], [[1]], [0, 1], [0], [1]), r"b_ub has 2 entries, expected 1"),
        (([1, 2], [], [], [0], [1, 1]), r"lower has 1 entries, expected 2"),
        (([1], 5, [], [0], [1]), r"A_ub must be a sequence.*int 5"),
        (([1], [], [], "0", [1]), r"lower must be a sequence.*str '0'"),
        (([], [], [], [], []), r"c must have at least one entry"),
        (([1], [["x"]], [0], [0], [1]), r"A_ub\[0\]\[0\].*'x'"),
    ],
)
def test_bad_input_names_field_and_value(args, pattern):
    with pytest.raises(ValueError, match=pattern):
        solve_lp(*args)
    with pytest.raises(ValueError, match=pattern):
        solve_lp_exact(*args)


def test_bad_solution_input():
    with pytest.raises(ValueError, match=r"LPSolution\.x\[1\].*float 0\.5"):
        LPSolution((F(1), 0.5), F(1), (F(1),), (F(0), F(0)), (F(0), F(0)))
    with pytest.raises(ValueError, match=r"solution\.row_duals has 2 entries, expected 1"):
        check_optimal(*SMALL, LPSolution((F(1), F(0)), F(1), (F(1), F(0)), (F(0), F(0)), (F(0), F(0))))
    with pytest.raises(ValueError, match=r"solution must be an LPSolution.*tuple"):
        check_optimal(*SMALL, (F(1), F(0)))
