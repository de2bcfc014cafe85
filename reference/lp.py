"""Certified exact linear programming: the solver behind the fit of D̂ (Algorithm 2, line 9).

Three modules, by what they trust: reference/lp_problem.py holds the exact data, the
certificate and the integer linear algebra (no floats); this module, steps 1-4, takes
HiGHS's float candidates and certifies them; reference/lp_simplex.py, step 5, is the exact
simplex fallback. `reference.lp` is the public module and re-exports all of them.

Problem.  minimise c·x  subject to  A_ub x ≤ b_ub  and  lower[j] ≤ x[j] ≤ upper[j],
where a bound of None means "unbounded on that side". Every number is an exact rational
(int or Fraction; floats and bools are refused with a ValueError naming the field).

Certificate.  With multipliers y ≥ 0 for the rows, λ ≥ 0 for the lower bounds and μ ≥ 0
for the upper bounds (λ_j = 0 where lower[j] is None, μ_j = 0 where upper[j] is None),
x is optimal if and only if such multipliers exist with, exactly in rationals,

  (P) x primal feasible: A_ub x ≤ b_ub and every bound holds;
  (D) the multipliers dual feasible: all ≥ 0, and stationarity c + A_ubᵀ y − λ + μ = 0;
  (Z) equal objectives: c·x = −b_ub·y + lower·λ − upper·μ.

("If": weak duality gives c·x' ≥ −b_ub·y + lower·λ − upper·μ for every feasible x', so (Z)
makes x optimal; (Z) is equivalent to complementary slackness. "Only if": LP strong
duality.) `check_optimal` decides (P), (D), (Z) and the claimed objective value and returns
the violated conditions; `solve_lp` returns only solutions for which that list is empty.

Method of `solve_lp`.
  1. Candidate: scipy's HiGHS (`linprog(method="highs")`) in float64. Nothing it says is
     trusted: neither its point, nor its duals, nor its "infeasible"/"unbounded" status.
  2. Active set: from the candidate, an ordered list of constraints (rows and bounds)
     that look tight — first those with a positive HiGHS multiplier, then those with zero
     multiplier but (relative) slack ≤ tol — is scanned greedily, keeping a constraint
     when its normal is linearly independent (float Gram–Schmidt) of those kept, until n
     are kept: a candidate basis. Three orders are tried (tol 1e-9 and 1e-6 after the
     positive duals; slack order alone).
  3. Exact vertex: bound constraints in the basis fix their variables; the remaining
     square system (rows × free variables) is solved for x, and its transpose for the
     row multipliers, by fraction-free (Bareiss) elimination on integers (each row is
     scaled by a positive rational to a primitive integer row first — scaling a row does
     not change the feasible set, and the multiplier is scaled back). The bound
     multipliers follow from stationarity. A zero pivot means the basis was singular.
  4. The certificate (P), (D), (Z) is checked exactly; the first basis that passes is
     returned.
  5. Iterative refinement: if no basis passes and none even gave a primal-feasible
     vertex, the active rows probably differ by less than HiGHS's tolerances (rows that
     tie to within 1e-18 after 64-bit rounding, say). HiGHS then re-solves the LP in
     d = S·(x − x0) around the exact vertex x0 of the first basis, S = 1/(its largest
     violation), where those differences are O(1) again, and steps 2–4 repeat (at most
     two rounds).
  6. Fallback: the exact simplex below, warm-started from the first candidate basis
     whose vertex was primal feasible (phase 2 only), else from any non-singular candidate
     basis (phase 1 first), else from scratch (when HiGHS failed, or the feasible region
     has no vertex). Its answer is checked the same way.

Exact simplex (`solve_lp_exact`, also the fallback).  All constraints, rows and finite
bounds alike, are treated as inequalities g_k·x ≤ h_k over free variables x. A basis is
n linearly independent constraints held tight; the basis inverse is carried as an integer
pair (d, d·G_B⁻¹) and updated by a fraction-free rank-one formula. Pricing and the ratio
test use Bland's rule (smallest constraint index enters; ties in the ratio test leave by
smallest index), which guarantees termination on degenerate problems. Phase 1 starts from
any non-singular basis B0 and minimises a single auxiliary t ≥ 0 subtracted from the rows
outside B0; optimum t > 0 proves infeasibility (`LPInfeasible`). A pricing step with no
blocking constraint is an exact ray of improvement, proving unboundedness (`LPUnbounded`).
When the constraint normals do not span Rⁿ (a lineality space, so no vertex exists), the
missing directions are pinned at 0 by equality rows that never leave the basis; that
loses no optimum when c lies in the row space of the constraints, and proves
unboundedness (once feasible) when not. Only the exact simplex raises `LPInfeasible` /
`LPUnbounded`; a HiGHS status alone never does.

What is guaranteed.  A returned `LPSolution` satisfies (P), (D), (Z) exactly — it is
optimal, and `objective` is the optimal value. `LPInfeasible` / `LPUnbounded` are raised
only with an exact proof. No float decides anything: floats only propose bases.

Which optimum is returned.  The optimum is often not unique (ties are common on small
instances of line 9; CONTRACT.md, the free choice `calruption.fit`). `solve_lp` returns the certified vertex built from HiGHS's
candidate (method "highs+certificate"), or the vertex where the exact simplex stops
(method "exact-simplex"; with a lineality space, the optimal point with the pinned
variables at 0). Both are deterministic functions of the input (HiGHS is deterministic),
so the same input gives the same answer; but callers must not rely on which optimal point
it is, nor on the multipliers — the optimal value `objective` is the only unique output.

Cost (bench/lp_bench.py).  The fit shape of line 9 at 240 rows × 33 variables certifies in
about 20 ms (HiGHS about 5 ms of it), 992 × 65 in about 0.15 s; the fallback is the slow
path (one fraction-free rank-one update and an integer ratio test over all constraints per
pivot).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from operator import mul

from .exact import common_denominator
from .lp_problem import (  # noqa: F401  (re-exported: reference.lp is the public module)
    _MAX_PIVOTS,
    METHOD_CERTIFIED,
    METHOD_SIMPLEX,
    LPInfeasible,
    LPSolution,
    LPUnbounded,
    _adjugate,
    _bareiss_solve,
    _check,
    _eliminate,
    _exact_row,
    _integer_row,
    _Problem,
    _require_sequence,
    _short,
    bareiss_update,
    check_optimal,
)
from .lp_simplex import _exact_simplex, _refuse_crossed_bounds, solve_lp_exact  # noqa: F401

__all__ = [
    "LPInfeasible",
    "LPSolution",
    "LPUnbounded",
    "METHOD_CERTIFIED",
    "METHOD_SIMPLEX",
    "check_optimal",
    "solve_lp",
    "solve_lp_exact",
]

# Relative tolerances used only to *guess* the active set from the float candidate; the
# guess is then checked exactly, so these affect speed, never correctness.
_ATTEMPTS = (("duals", 1e-9), ("duals", 1e-6), ("slack", 1e-6))
_DUAL_TOL = 1e-9
_INDEPENDENCE_TOL = 1e-7
# Rounds of iterative refinement (re-solving in float around the exact vertex, scaled up)
# before the exact simplex; and how far (in refined units) a constraint is "far away".
_REFINEMENTS = 2
_FAR = 1e9

# -- steps 1-4: HiGHS candidates and their certificates --------------------------------------


class _FloatLP:
    """A float64 copy of the LP (or of a refined LP around an exact point) for HiGHS.

    Row i of the float LP is row `rows[i]` of the exact one; constraint ids (for the
    bases handed to the exact side) are always those of `_Problem`."""

    def __init__(self, p: _Problem, c, A, b, lo, up, rows, A_full=None):
        self.p, self.c, self.A, self.b, self.lo, self.up, self.rows = p, c, A, b, lo, up, rows
        self.A_full = A if A_full is None else A_full  # every row, for later refinements

    @classmethod
    def of(cls, p: _Problem) -> _FloatLP | None:
        import numpy as np

        try:
            c = np.array([float(v) for v in p.c])
            A = np.array([[float(v) for v in row] for row in p.A]).reshape(p.m, p.n)
            b = np.array([float(v) for v in p.b])
            lo = np.array([-np.inf if v is None else float(v) for v in p.lower])
            up = np.array([np.inf if v is None else float(v) for v in p.upper])
        except OverflowError:  # a number beyond float range: go exact
            return None
        return cls(p, c, A, b, lo, up, list(range(p.m)))

    def refined(self, x0: tuple[Fraction, ...]) -> _FloatLP | None:
        """The LP in d = S·(x − x0), S = 1 / (largest violation at x0): iterative refinement.

        When the optimum's active rows differ by less than HiGHS's tolerances (ties that are
        broken only at, say, 1e-18), the float solve cannot see which rows are active. The
        exact residuals b − A x0, scaled up by S, make those differences O(1) again; rows
        and bounds that end far away (> _FAR) are dropped, as they cannot be active."""
        import numpy as np

        p = self.p
        X, D = common_denominator(x0)
        resid = [(p.row_rhs[r] - Fraction(sum(map(mul, p.row_int[r], X)), D)) / p.row_scale[r] for r in range(p.m)]
        lo_gap = [None if lo is None else x - lo for x, lo in zip(x0, p.lower)]
        up_gap = [None if up is None else up - x for x, up in zip(x0, p.upper)]
        worst = max([0] + [-v for v in resid] + [-v for v in lo_gap + up_gap if v is not None])
        if worst == 0:
            return None
        S = 1 / worst
        try:
            b = np.array([float(S * v) for v in resid])
            lo = np.array([-np.inf if v is None else -float(S * v) for v in lo_gap])
            up = np.array([np.inf if v is None else float(S * v) for v in up_gap])
        except OverflowError:
            return None
        keep = [r for r in range(p.m) if b[r] <= _FAR]
        lo[lo < -_FAR] = -np.inf
        up[up > _FAR] = np.inf
        return _FloatLP(p, self.c, self.A_full[keep], b[keep], lo, up, keep, self.A_full)

    def solve(self):
        """HiGHS's result, or None when it does not report an optimum."""
        import numpy as np
        from scipy.optimize import linprog

        m = len(self.rows)
        bounds = [(None if np.isinf(lo) else lo, None if np.isinf(up) else up) for lo, up in zip(self.lo, self.up)]
        res = linprog(self.c, A_ub=self.A if m else None, b_ub=self.b if m else None, bounds=bounds, method="highs")
        if res.status != 0 or res.x is None or not np.all(np.isfinite(res.x)):
            return None
        return res

    def orders(self, res):
        """For each attempt, constraint ids ordered by how surely they are active.

        HiGHS's duals are marginals: rows ≤ 0, lower ≥ 0, upper ≤ 0 (for a minimisation); a
        positive multiplier means the constraint is active at HiGHS's vertex. Zero-multiplier
        constraints with small relative slack come next (degenerate vertices have many);
        among those, bounds first because they make the exact system smaller."""
        import numpy as np

        p, x = self.p, res.x
        m, n = p.m, p.n
        cscale = max(1.0, float(np.max(np.abs(self.c))))
        ks, kinds, slacks, duals = [], [], [], []
        if self.rows:
            slack = (self.b - self.A @ x) / (1.0 + np.abs(self.b) + np.abs(self.A) @ np.abs(x))
            dual = -np.asarray(res.ineqlin.marginals) * np.max(np.abs(self.A), axis=1) / cscale
            ks += self.rows
            kinds += [1] * len(self.rows)
            slacks += list(slack)
            duals += list(dual)
        for j in range(n):
            if np.isfinite(self.lo[j]):
                ks.append(m + j)
                kinds.append(0)
                slacks.append((x[j] - self.lo[j]) / (1.0 + abs(self.lo[j])))
                duals.append(res.lower.marginals[j] / cscale)
        for j in range(n):
            if np.isfinite(self.up[j]):
                ks.append(m + n + j)
                kinds.append(0)
                slacks.append((self.up[j] - x[j]) / (1.0 + abs(self.up[j])))
                duals.append(-res.upper.marginals[j] / cscale)
        for mode, tol in _ATTEMPTS:
            if mode == "duals":
                first = sorted((-d, k) for k, d in zip(ks, duals) if d > _DUAL_TOL)
                chosen = {k for _, k in first}
                rest = sorted(
                    (kind, abs(s), k) for k, kind, s in zip(ks, kinds, slacks) if k not in chosen and abs(s) <= tol
                )
                yield [k for _, k in first] + [k for *_, k in rest]
            else:
                yield [k for _, k in sorted((abs(s), k) for k, s in zip(ks, slacks) if abs(s) <= tol)]

    def basis(self, order) -> list[int] | None:
        """The first n constraints of `order` whose normals are (numerically) independent."""
        import numpy as np

        p = self.p
        n = p.n
        Q = np.zeros((n, n))
        basis: list[int] = []
        for k in order:
            if k < p.m:
                v = np.array([float(a) for a in p.row_int[k]])
            else:
                v = np.zeros(n)
                v[(k - p.m) % n] = -1.0 if k < p.m + n else 1.0
            norm = np.linalg.norm(v)
            if not norm or not np.isfinite(norm):
                continue
            v = v / norm
            q = Q[:, : len(basis)]
            w = v - q @ (q.T @ v)
            w -= q @ (q.T @ w)  # re-orthogonalise: one Gram–Schmidt pass loses orthogonality
            nw = np.linalg.norm(w)
            if nw > _INDEPENDENCE_TOL:
                Q[:, len(basis)] = w / nw
                basis.append(k)
                if len(basis) == n:
                    return basis
        return None


def split_basis(p: _Problem, basis: list[int]):
    """(rows, fixed) of a basis: its row ids, and {variable: (side, bound value)} for its
    bound constraints; None if a variable's bound appears twice."""
    n, m = p.n, p.m
    fixed: dict[int, tuple[str, Fraction]] = {}
    rows = []
    for k in basis:
        if k < m:
            rows.append(k)
        else:
            side, j = ("lower", k - m) if k < m + n else ("upper", k - m - n)
            if j in fixed:
                return None
            fixed[j] = (side, p.lower[j] if side == "lower" else p.upper[j])
    return rows, fixed


def _vertex(p: _Problem, basis: list[int]) -> LPSolution | None:
    """The vertex of `basis` and its multipliers, exactly; None if the basis is singular.

    Bounds in the basis fix their variables; the rows in the basis then form a square
    system in the remaining ("free") variables. Primal: row_int[R, F] x_F = rhs. Dual, with
    λ = μ = 0 on free variables: row_int[R, F]ᵀ y' = −c_F, where y' multiplies the scaled
    rows (y_r = y'_r·scale_r); the bound multipliers are the reduced costs of the fixed
    variables."""
    n, m = p.n, p.m
    split = split_basis(p, basis)
    if split is None:
        return None
    rows, fixed = split
    free = [j for j in range(n) if j not in fixed]
    if len(free) != len(rows):
        return None
    x = [Fraction(0)] * n
    for j, (_, v) in fixed.items():
        x[j] = v
    yprime: dict[int, Fraction] = {}
    if rows:
        M = [[p.row_int[r][j] for j in free] for r in rows]
        rhs = [p.row_rhs[r] - sum(p.row_int[r][j] * v for j, (_, v) in fixed.items() if p.row_int[r][j]) for r in rows]
        R, q = common_denominator(rhs)
        solved = _bareiss_solve(M, R)
        if solved is None:
            return None
        d, X = solved
        for j, Xj in zip(free, X):
            x[j] = Fraction(Xj, d * q)
        C, q2 = common_denominator(-p.c[j] for j in free)
        solved = _bareiss_solve([list(col) for col in zip(*M)], C)
        if solved is None:  # cannot happen (same determinant up to sign), kept for safety
            return None
        d2, Y = solved
        yprime = {r: Fraction(Yr, d2 * q2) for r, Yr in zip(rows, Y)}
    row_duals = [Fraction(0)] * m
    for r, v in yprime.items():
        row_duals[r] = v * p.row_scale[r]
    lower_duals = [Fraction(0)] * n
    upper_duals = [Fraction(0)] * n
    for j, (side, _) in fixed.items():
        reduced = p.c[j] + sum(p.row_int[r][j] * v for r, v in yprime.items())
        if side == "lower":
            lower_duals[j] = reduced
        else:
            upper_duals[j] = -reduced
    objective = sum(cj * xj for cj, xj in zip(p.c, x) if cj)
    return LPSolution(
        tuple(x),
        objective,
        tuple(row_duals),
        tuple(lower_duals),
        tuple(upper_duals),
        METHOD_CERTIFIED,
        tuple(p.label(k) for k in sorted(basis)),
        0,
    )


def solve_lp(c, A_ub, b_ub, lower, upper, *, vertex=None) -> LPSolution:
    """A certified optimal solution of min c·x s.t. A_ub x ≤ b_ub, lower ≤ x ≤ upper.

    Raises LPInfeasible / LPUnbounded only when the exact simplex proves it. See the
    module docstring for the method and for which optimum is returned. `vertex(problem,
    basis)` may replace step 3's exact vertex (an LPSolution or None) for LPs whose
    structure allows a cheaper solve (reference/fit_rows.py); its answers pass the same
    check (P), (D), (Z)."""
    vertex = vertex or _vertex
    p = _Problem(c, A_ub, b_ub, lower, upper)
    _refuse_crossed_bounds(p)
    start_feasible = start_any = None
    view = _FloatLP.of(p)
    tried: set[frozenset[int]] = set()
    for rounds in range(1 + _REFINEMENTS):
        res = view.solve() if view is not None else None
        if res is None:
            break
        refine_at = None
        for order in view.orders(res):
            basis = view.basis(order)
            if basis is None or frozenset(basis) in tried:
                continue
            tried.add(frozenset(basis))
            sol = vertex(p, basis)
            if sol is None:
                continue
            problems = _check(p, sol)
            if not problems:
                return replace(sol, refinements=rounds)
            primal_ok = not any(msg.startswith("primal") for msg in problems)
            if start_feasible is None and primal_ok:
                start_feasible = basis
            if start_any is None:
                start_any = basis
            if refine_at is None and not primal_ok:
                refine_at = sol.x
        if start_feasible is not None or refine_at is None:
            break
        view = view.refined(refine_at)
    return _exact_simplex(p, start_feasible or start_any)
