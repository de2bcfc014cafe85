"""Line 9 of Algorithm 2 by row generation, certified exactly.

The LP (see `reference.calruption.fit_distribution`, which builds it whole) has one row per
weighted ordered pair:  w (R_D(h) - R_D(h') - W) <= s,  over eta^_x in [0, 1] (x in S_l)
and s. The two rows of an unordered pair say |w (R_D(h) - R_D(h') - W)| <= s. With |H| in
the hundreds that is tens of thousands of rows of |S_l| + 1 coefficients each, yet at the
optimum only a few bind.

Variables. With v_x = p^_x (1 - 2 eta^_x), in [-p^_x, p^_x], the risk difference is
R_D(h) - R_D(h') = sum_x (h(x) - h'(x)) v_x, and dividing row (h, h') by w > 0 gives
    sum_{x in S_l} (h(x) - h'(x)) v_x - s / w <= W:
coefficients -1, 0, +1 on v and one rational, -1/w, on s. The change of variables is an
affine bijection coordinate by coordinate and the row scaling is positive, so optimal
points, vertices and the optimal value s correspond exactly (eta^_x = (p^_x - v_x) / (2 p^_x)).

Row generation. Floats first: HiGHS solves the LP on a working set of rows, every row is
evaluated at its solution (a row's value needs no coefficients: r(h) = sum_x h(x) v_x once
per hypothesis, then w (r(h) - r(h') - W) per pair), the most violated rows join the working
set, until no row is violated beyond rounding. Then exactly: the working-set LP is solved
with a certificate (below), every row of the full LP is checked at the exact point in
integer arithmetic, and any violated row sends the loop back to floats with it added.

Certificate. At the end the point (v, s) is
* feasible for every row of the full LP (each row checked exactly),
* optimal for the working-set LP, with multipliers y >= 0 on the working rows and on the
  bounds satisfying stationarity and equal objectives (`reference.lp.check_optimal`'s
  conditions (P), (D), (Z), checked by `reference.lp`'s own checker).
Extending y by 0 on the rows outside the working set keeps stationarity and the dual
objective, so the same multipliers certify optimality for the full LP: the returned D^ is
an exactly optimal solution of line 9's LP, and `objective` its optimal value. It is a
vertex of the full LP too (the tight constraints defining it are constraints of the full
LP). Which optimal vertex comes out may differ from solving the full LP at once where the
optimum is not unique, as `solve_lp` already documents; the optimal value never does.

The exact vertex. HiGHS's solution of the working set proposes a basis (`reference.lp`'s
candidate bases); the vertex and its multipliers are then solved for exactly, exploiting
the structure: with B the integer (-1/0/+1) columns of the basis rows over the free v,
d the column of s and b the right-hand side, a left null vector z of B (z^T B = 0, found
by fraction-free elimination on integers, whose entries stay minors of B) gives
s = z.b / z.d, the row multipliers y = -z / z.d (stationarity on the free columns: B^T y = 0,
d.y = -1), and v from B v = b - d s. Only z.b, z.d and the last solve touch the large
rationals; `reference.lp.solve_lp`'s generic path scales every row to integers and
eliminates with ~170-bit entries, which measured 0.2-0.7 s per vertex at 64 hypotheses.
If no proposed basis passes the check, `solve_lp` solves the working set (same
certificate, slower).

Exact repair. HiGHS works to a tolerance (1e-10), and line 9's optimum can be ~1e-6: at
256 x 256 (epoch 3 of the paper's constants) the exact vertex of HiGHS's final basis
violated one row by 6.6e-10. Re-solving the floats cannot settle that, and a certified
vertex of a smaller set of rows can sit anywhere on that set's optimal face (there it
violated 32,012 rows by up to 0.2, round after round). Instead the certified vertex, dual
feasible for the full LP, is repaired by exact dual simplex pivots
(`_dual_simplex_repair`): the violated row (or bound) enters, the ratio test (proposed in
floats, decided by the new basis's exact multipliers) picks the constraint that leaves,
until no constraint of the full LP is violated. Measured there: one pivot, 0.5 s, where the
row generation had not finished in 5 minutes.
"""

from __future__ import annotations

import math
from fractions import Fraction
from operator import mul

from .exact import common_denominator
from .lp import (
    METHOD_CERTIFIED,
    LPSolution,
    _bareiss_solve,
    _check,
    _FloatLP,
    _Problem,
    bareiss_update,
    solve_lp,
    split_basis,
)

# Rows added at the start (the pairs with the largest |w W|, both directions) and per round
# (the most violated): at least these many, and at least a share of |S_l| + 1 (a vertex has
# |S_l| + 1 tight constraints, so fewer would take as many rounds). Speed only: any positive
# numbers give the same certified optimum.
INITIAL_PAIRS, INITIAL_PAIRS_PER_COLUMN = 16, 0.5
ROWS_PER_ROUND, ROWS_PER_ROUND_PER_COLUMN = 64, 0.5
# A float row counts as violated above this relative excess (the float loop's stopping
# rule; the exact check decides in the end, so this only trades rounds for exact checks).
FLOAT_SLACK = 1e-12
DECIDE_BITS = 192
NEAR_SLACK = 1e-8  # rows this close to s (relative) at HiGHS's point enter the exact LP
# Exact dual simplex pivots tried before going back to floats, and leaving constraints
# proposed per pivot (speed only: the certificate is checked whatever they are).
REPAIR_PIVOTS, LEAVING_TRIES = 64, 4


class _Rows:
    """The unordered weighted pairs (h < h', w, W); row (i, +1) is (h, h', w, W) and row
    (i, -1) its reverse (h', h, w, -W): value +-w (r(h) - r(h') - W) at a point v."""

    def __init__(self, H, support, pairs):
        import numpy as np

        self.H, self.support, self.pairs = H, support, pairs
        self.ints = [(h, h2, w.numerator, w.denominator, W.numerator, W.denominator) for h, h2, w, W in pairs]
        self.labels = np.array([[H[h][x] for x in support] for h in range(len(H))], dtype=float)
        self.h = np.array([p[0] for p in pairs])
        self.h2 = np.array([p[1] for p in pairs])
        self.w = np.array([float(p[2]) for p in pairs])
        self.W = np.array([float(p[3]) for p in pairs])

    def v_row(self, i: int, sign: int):
        """Row (i, sign) over (v, s): sum_x (h(x) - h'(x)) v_x - s / w <= W, reversed for sign -1."""
        h, h2, w, W = self.pairs[i]
        if sign < 0:
            h, h2, W = h2, h, -W
        coefficients = [Fraction(self.H[h][x] - self.H[h2][x]) for x in self.support] + [-1 / w]
        return coefficients, W

    def float_row(self, i: int, sign: int):
        """Row (i, sign)'s coefficients over (v, s) in floats."""
        import numpy as np

        h, h2 = self.pairs[i][0], self.pairs[i][1]
        return np.append(sign * (self.labels[h] - self.labels[h2]), -1.0 / self.w[i])

    def float_values(self, x):
        """(value, scale, s) at the float point x = (v, s): every pair's w (r(h) - r(h') - W)
        (row (i, +1); row (i, -1) has its negative) and the size it is rounded against."""
        import numpy as np

        k = len(self.support)
        s = float(x[k])
        r = self.labels @ x[:k]
        value = self.w * (r[self.h] - r[self.h2] - self.W)
        scale = self.w * (np.abs(r[self.h]) + np.abs(r[self.h2]) + np.abs(self.W)) + abs(s)
        return value, scale, s

    def float_violations(self, x):
        """[(excess, i, sign)] of the rows whose float value exceeds s at x (ranking and the
        float loop's stopping rule only)."""
        import numpy as np

        value, scale, s = self.float_values(x)
        found = []
        for sign in (1, -1):
            excess = sign * value - s
            (index,) = np.nonzero(excess > FLOAT_SLACK * scale)
            found += [(float(excess[i]), int(i), sign) for i in index]
        return found

    def exact_violations(self, v, s: Fraction):
        """The rows violated at (v, s), decided on integers: [(excess as float, i, sign)].

        A vertex's coordinates share a denominator of thousands of bits (a determinant), so
        each row is first decided on integer enclosures at the scale 2^-DECIDE_BITS (floors
        of r(h) and s, exact integer division): a row whose enclosure excludes a violation
        is satisfied, one whose enclosure lies above s is violated; only rows within about
        2^-DECIDE_BITS of s -- the tight ones -- are decided on the exact values."""
        V, D = common_denominator(v)
        r = [sum(V[j] for j, x in enumerate(self.support) if labels[x] == 1) for labels in self.H]  # D r(h)
        shift = DECIDE_BITS
        r_fix = [(value << shift) // D for value in r]  # floor(2^P r(h)): r(h) in [f, f + 1] / 2^P
        s_lo = (s.numerator << shift) // s.denominator
        s_hi = s_lo + 1
        one = 1 << shift
        sn, sd = s.numerator, s.denominator
        found = []
        for i, (h, h2, wn, wd, Wn, Wd) in enumerate(self.ints):
            base = r_fix[h] - r_fix[h2]  # 2^P (r(h) - r(h')) in [base - 1, base + 1]
            scale = wd * Wd
            # with A = 2^P (r(h) - r(h')), the row value is U(A) / (wd Wd 2^P),
            # U(A) = wn (A Wd - Wn 2^P), increasing in A
            upper = wn * ((base + 1) * Wd - Wn * one)
            lower = wn * ((base - 1) * Wd - Wn * one)
            for sign, hi, lo in ((1, upper, lower), (-1, -lower, -upper)):
                if hi <= s_lo * scale:
                    continue  # value <= s: satisfied
                if lo > s_hi * scale:
                    found.append((float(Fraction(lo, scale * one)) - float(s), i, sign))
                    continue
                T = sign * wn * ((r[h] - r[h2]) * Wd - Wn * D)  # exactly: value = T / (wd D Wd)
                if T * sd > sn * wd * D * Wd:
                    found.append((float(Fraction(T, wd * D * Wd) - s), i, sign))
        return found


def _left_null_vector(B: list[list[int]]):
    """(z, pivot_rows): integers z != 0 with z^T B = 0 for a k x (k - 1) integer matrix B of
    full column rank, and k - 1 rows of B that are independent; None if B is rank deficient.

    Fraction-free (Bareiss) row reduction of [B | I]: every entry stays a minor of [B | I],
    so divisions are exact and the integers stay small for small entries. After k - 1
    pivots the one remaining row of B is 0, and its identity part records the combination."""
    k = len(B)
    a = [list(row) + [1 if i == j else 0 for j in range(k)] for i, row in enumerate(B)]
    order = list(range(k))  # original row of each position
    prev = 1
    for col in range(k - 1):
        piv = next((i for i in range(col, k) if a[i][col]), None)
        if piv is None:
            return None
        a[col], a[piv] = a[piv], a[col]
        order[col], order[piv] = order[piv], order[col]
        rowk, akk = a[col], a[col][col]
        for i in range(col + 1, k):
            a[i] = bareiss_update(a[i], rowk, col, akk, prev)
        prev = akk
    z = a[k - 1][k - 1 :]
    g = math.gcd(*z)
    return [t // g for t in z], order[: k - 1]


def _solve_integer(M: list[list[int]], rhs: list[Fraction]) -> list[Fraction] | None:
    """x with M x = rhs for a square integer M (fraction-free elimination), None if singular."""
    R, q = common_denominator(rhs)
    solved = _bareiss_solve(M, R)
    if solved is None:
        return None
    d, X = solved
    return [Fraction(Xi, d * q) for Xi in X]


def _structured_vertex(p: _Problem, basis: list[int]) -> LPSolution | None:
    """The vertex of `basis` of the working-set LP in (v, s) and its multipliers (module
    notes), or None when the basis does not have the expected shape or is singular."""
    n, m = p.n, p.m
    s_col = n - 1
    split = split_basis(p, basis)
    if split is None or s_col in split[1]:
        return None
    rows, fixed = split
    free = [j for j in range(n - 1) if j not in fixed]
    if len(free) + 1 != len(rows) or not rows:
        return None
    x = [Fraction(0)] * n
    for j, (_, value) in fixed.items():
        x[j] = value
    B = [[int(p.A[r][j]) for j in free] for r in rows]  # -1/0/+1 by construction
    d = [p.A[r][s_col] for r in rows]
    b = [p.b[r] - sum(p.A[r][j] * value for j, (_, value) in fixed.items() if p.A[r][j]) for r in rows]
    found = _left_null_vector(B) if free else ([1], [])
    if found is None:
        return None
    z, independent = found
    zd = sum(map(mul, z, d))
    if zd == 0:
        return None
    s = sum(map(mul, z, b)) / zd
    x[s_col] = s
    if free:
        v = _solve_integer([B[i] for i in independent], [b[i] - d[i] * s for i in independent])
        if v is None:
            return None
        for j, value in zip(free, v):
            x[j] = value
    row_duals = [Fraction(0)] * m
    for r, zr in zip(rows, z):
        row_duals[r] = Fraction(-zr) / zd
    lower_duals, upper_duals = [Fraction(0)] * n, [Fraction(0)] * n
    for j, (side, _) in fixed.items():
        reduced = p.c[j] + sum(p.A[r][j] * row_duals[r] for r in rows if p.A[r][j])
        if side == "lower":
            lower_duals[j] = reduced
        else:
            upper_duals[j] = -reduced
    return LPSolution(
        tuple(x),
        s,
        tuple(row_duals),
        tuple(lower_duals),
        tuple(upper_duals),
        METHOD_CERTIFIED,
        tuple(p.label(k) for k in sorted(basis)),
        0,
    )


def _v_problem(rows: _Rows, working, p_support):
    k = len(rows.support)
    A, b = [], []
    for i, sign in working:
        coefficients, rhs = rows.v_row(i, sign)
        A.append(coefficients)
        b.append(rhs)
    c = [Fraction(0)] * k + [Fraction(1)]
    lower = [-p for p in p_support] + [None]
    upper = list(p_support) + [None]
    return (c, A, b, lower, upper), _Problem(c, A, b, lower, upper)


def _near_rows(rows: _Rows, working, x) -> list[tuple[int, int]]:
    """The working rows within a relative NEAR_SLACK of s at the float point x."""
    value, scale, s = rows.float_values(x)
    return [(i, sign) for i, sign in working if s - sign * value[i] <= NEAR_SLACK * scale[i]]


def _certified_working_optimum(rows: _Rows, working, p_support, solved, forced=()):
    """A certified optimum of an LP on working rows that include `forced` (working rows found
    violated at an earlier certified point). In order: HiGHS's own final basis (its nonbasic
    rows and bounds) on those rows and `forced`; bases guessed by `reference.lp` from a
    float solve of the rows within NEAR_SLACK of s at HiGHS's point (and `forced`);
    `solve_lp` on every working row. Vertices come from `_structured_vertex`, and each is checked
    ((P), (D), (Z)) on the LP it claims to solve. Returns the solution and the rows of that
    LP, in order (its basis names rows by their position there)."""
    k = len(rows.support)
    if solved.row_status is not None and solved.column_status[k] == "basic":
        tight = [working[n] for n, status in enumerate(solved.row_status) if status != "basic"]
        fixed = [(j, status) for j, status in enumerate(solved.column_status[:k]) if status in ("lower", "upper")]
        if len(tight) == k + 1 - len(fixed):
            extra = [row for row in forced if row not in set(tight)]
            _, problem = _v_problem(rows, tight + extra, p_support)
            m, n = problem.m, problem.n
            basis = list(range(len(tight))) + [m + j if status == "lower" else m + n + j for j, status in fixed]
            solution = _structured_vertex(problem, basis)
            if solution is not None and not _check(problem, solution):
                return solution, tight + extra
    near = _near_rows(rows, working, solved.x)
    near += [row for row in forced if row not in set(near)]
    _, problem = _v_problem(rows, near, p_support)
    view = _FloatLP.of(problem)
    result = view.solve() if view is not None else None
    if result is not None:
        for order in view.orders(result):
            basis = view.basis(order)
            if basis is None:
                continue
            solution = _structured_vertex(problem, basis)
            if solution is not None and not _check(problem, solution):
                return solution, near
    arguments, _ = _v_problem(rows, working, p_support)
    return solve_lp(*arguments, vertex=_structured_vertex), list(working)


def _basis_of(solution: LPSolution, problem_rows, k: int):
    """(tight rows as (i, sign), {variable: "lower" | "upper"}) of a certified vertex whose
    basis has the shape the repair needs (|free v| + 1 rows, s free), else None."""
    tight, fixed = [], {}
    for kind, index in solution.basis:
        if kind == "row":
            tight.append(problem_rows[index])
        elif index < k:
            fixed[index] = kind
        else:
            return None
    if not tight or len(tight) != k + 1 - len(fixed):
        return None
    return tight, fixed


def _basis_vertex(rows: _Rows, p_support, tight, fixed):
    """(problem, solution): the vertex of the basis (tight rows, fixed bounds) and its
    multipliers when they are >= 0 (dual feasible; stationarity holds by construction),
    else None. The vertex may violate other bounds and rows: that is the dual simplex's
    state between pivots."""
    _, problem = _v_problem(rows, tight, p_support)
    m, n = problem.m, problem.n
    basis = list(range(m)) + [m + j if side == "lower" else m + n + j for j, side in sorted(fixed.items())]
    solution = _structured_vertex(problem, basis)
    if solution is None or min(solution.row_duals + solution.lower_duals + solution.upper_duals) < 0:
        return None
    return problem, solution


def _violated_constraints(rows: _Rows, p_support, fixed, solution: LPSolution):
    """The constraints of the full LP violated at the vertex, most urgent first: bounds
    -p^_x <= v_x <= p^_x of free variables (as ("lower" | "upper", j)), then rows by excess
    (as ("row", (i, sign)))."""
    k = len(rows.support)
    bounds = [
        ("lower", j) if v < -p else ("upper", j)
        for j, (v, p) in enumerate(zip(solution.x[:k], p_support))
        if j not in fixed and abs(v) > p
    ]
    violated = rows.exact_violations(solution.x[:k], solution.x[k])
    return bounds + [("row", (i, sign)) for _, i, sign in sorted(violated, reverse=True)]


def _float_normal(rows: _Rows, constraint):
    """The normal of a constraint written as normal . (v, s) <= bound, in floats."""
    import numpy as np

    kind, key = constraint
    if kind == "row":
        return rows.float_row(*key)
    normal = np.zeros(len(rows.support) + 1)
    normal[key] = 1.0 if kind == "upper" else -1.0
    return normal


def _leaving_candidates(rows: _Rows, tight, fixed, solution: LPSolution, entering):
    """The basis constraints that may leave when `entering` enters, best first by the dual
    simplex's ratio test y_c / lambda_c over lambda_c > 0, where lambda expresses the
    entering normal in the basis normals. In floats: a proposal only, the new basis's exact
    multipliers decide (`_basis_vertex`)."""
    import numpy as np

    k = len(rows.support)
    A = np.array([rows.float_row(i, sign) for i, sign in tight])
    a = _float_normal(rows, entering)
    free = [j for j in range(k) if j not in fixed] + [k]
    try:
        lam_rows = np.linalg.solve(A[:, free].T, a[free])
    except np.linalg.LinAlgError:
        return []
    # bound normals: +e_j (upper), -e_j (lower)
    lam_bounds = {j: (1 if side == "upper" else -1) * (a[j] - A[:, j] @ lam_rows) for j, side in fixed.items()}
    size = max([abs(t) for t in lam_rows] + [abs(t) for t in lam_bounds.values()] + [1e-300])
    ratios = []
    for position, lam in enumerate(lam_rows):
        if lam > 1e-9 * size:
            ratios.append((float(solution.row_duals[position]) / lam, -lam, ("row", position)))
    for j, lam in lam_bounds.items():
        if lam > 1e-9 * size:
            dual = solution.upper_duals[j] if fixed[j] == "upper" else solution.lower_duals[j]
            ratios.append((float(dual) / lam, -lam, ("bound", j)))
    return [leaving for *_, leaving in sorted(ratios)]


def _pivot(tight, fixed, leaving, entering):
    """The basis after `entering` replaces `leaving`."""
    tight, fixed = list(tight), dict(fixed)
    if leaving[0] == "row":
        del tight[leaving[1]]
    else:
        del fixed[leaving[1]]
    kind, key = entering
    if kind == "row":
        tight.append(key)
    else:
        fixed[key] = kind
    return tight, fixed


def _dual_simplex_repair(rows: _Rows, p_support, solution: LPSolution, tight, fixed):
    """An optimum of the full LP reached from a certified vertex of a sub-LP by exact dual
    simplex pivots, or None after REPAIR_PIVOTS pivots (or when no proposed pivot is exact).

    A certified vertex of the LP of some rows is dual feasible for the full LP (multipliers
    extended by 0). While a constraint of the full LP (a row or a bound) is violated, the
    most urgent one enters the basis and the ratio test picks the constraint that leaves,
    which keeps the multipliers >= 0; the new vertex and multipliers are solved for exactly
    and their signs checked. The loop ends at a vertex feasible for every constraint,
    certified ((P), (D), (Z)) on its tight rows and checked exactly on every other row: the
    same certificate as row generation's. This is what HiGHS's tolerance leaves to do: its
    basis can be off by ~1e-10 in a row where the optimum itself is ~1e-6 (measured at
    256 x 256, epoch 3 of the paper's constants)."""
    for _ in range(REPAIR_PIVOTS):
        violated = _violated_constraints(rows, p_support, fixed, solution)
        if not violated:
            _, problem = _v_problem(rows, tight, p_support)
            return solution if not _check(problem, solution) else None
        entering = violated[0]
        for leaving in _leaving_candidates(rows, tight, fixed, solution, entering)[:LEAVING_TRIES]:
            new_tight, new_fixed = _pivot(tight, fixed, leaving, entering)
            found = _basis_vertex(rows, p_support, new_tight, new_fixed)
            if found is not None:
                break
        else:
            return None
        solution, tight, fixed = found[1], new_tight, new_fixed
    return None


def _add_rows(lp, rows: _Rows, new) -> None:
    """Rows (i, sign) into the float LP: sign (h - h') on v, -1/w on s, <= sign W."""
    import numpy as np

    k = len(rows.support)
    indptr, indices, data, upper = [0], [], [], []
    for i, sign in new:
        h, h2 = rows.pairs[i][0], rows.pairs[i][1]
        difference = rows.labels[h] - rows.labels[h2]
        (where,) = np.nonzero(difference)
        indices.extend(where.tolist())
        data.extend((sign * difference[where]).tolist())
        indices.append(k)
        data.append(-1.0 / rows.w[i])
        indptr.append(len(indices))
        upper.append(sign * rows.W[i])
    lp.add(np.array(indptr), np.array(indices), np.array(data), np.array(upper))


def fit_by_row_generation(H, support, seen, length: int, rows, *, warm: bool = True):
    """(eta^ by support position, objective, method) as `fit_distribution` returns them: an
    exactly optimal D^ of line 9's LP with the given rows (h, h', w, W), which must come in
    pairs (h, h', w, W), (h', h, w, -W) as `calruption_epoch` builds them.
    `warm=False` proposes through scipy.optimize.linprog instead of the warm HiGHS model
    (reference/highs.py): the same certified optimum, more slowly."""
    from .highs import new_lp

    k = len(support)
    if not rows:
        return (Fraction(1, 2),) * k, Fraction(0), "no-rows"
    by_pair = {(h, h2): (w, W) for h, h2, w, W in rows}
    pairs = []
    for (h, h2), (w, W) in sorted(by_pair.items()):
        if h < h2:
            if by_pair.get((h2, h)) != (w, -W):
                raise ValueError(f"rows must come in pairs (h, h', w, W), (h', h, w, -W); pair {(h, h2)} does not")
            pairs.append((h, h2, w, W))
    if 2 * len(pairs) != len(rows):
        raise ValueError("rows must come in pairs (h, h', w, W), (h', h, w, -W), each once")
    table = _Rows(H, support, pairs)
    p_support = [Fraction(seen[x], length) for x in support]
    bound = [float(p) for p in p_support]
    lp = new_lp([0.0] * k + [1.0], [-b for b in bound] + [-float("inf")], bound + [float("inf")], warm=warm)
    first = max(INITIAL_PAIRS, int(INITIAL_PAIRS_PER_COLUMN * (k + 1)))
    per_round = max(ROWS_PER_ROUND, int(ROWS_PER_ROUND_PER_COLUMN * (k + 1)))
    # start: at v = 0 (eta^ = 1/2) a row's value is -+w W
    largest = sorted(range(len(pairs)), key=lambda i: -abs(pairs[i][2] * pairs[i][3]))[:first]
    new = [(i, sign) for i in sorted(largest) for sign in (1, -1)]
    working: list[tuple[int, int]] = []
    present: set[tuple[int, int]] = set()
    forced: set[tuple[int, int]] = set()
    while True:
        while new:  # floats: grow the working set until its optimum looks feasible
            _add_rows(lp, table, new)
            working += new
            present.update(new)
            solved = lp.solve()
            violated = table.float_violations(solved.x)
            new = [(i, sign) for _, i, sign in sorted(violated, reverse=True) if (i, sign) not in present][:per_round]
        solution, problem_rows = _certified_working_optimum(table, working, p_support, solved, sorted(forced))
        v, s = solution.x[:k], solution.x[k]
        violated = table.exact_violations(v, s)
        basis = _basis_of(solution, problem_rows, k) if violated else None
        if basis is not None:
            repaired = _dual_simplex_repair(table, p_support, solution, *basis)
            if repaired is not None:
                solution, violated = repaired, []
                v = solution.x[:k]
        if not violated:
            eta = tuple((p - vx) / (2 * p) for p, vx in zip(p_support, v))
            return eta, solution.objective, solution.method
        ranked = [(i, sign) for _, i, sign in sorted(violated, reverse=True)]
        new = [row for row in ranked if row not in present][:per_round]
        if not new:
            # every violated row is a working row the certified LP left out: certify again with
            # them in (a row of the certified LP cannot be violated at its optimum)
            if forced.issuperset(ranked):
                raise AssertionError("a row of the certified LP is violated at its certified optimum")
            forced.update(ranked)
