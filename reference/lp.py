"""Certified exact linear programming: the solver behind the fit of D̂ (Algorithm 2, line 9).

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
instances of line 9; DESIGN.md). `solve_lp` returns the certified vertex built from HiGHS's
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

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from operator import mul

from .exact import as_fraction, as_int, common_denominator, shown

__all__ = [
    "LPInfeasible", "LPSolution", "LPUnbounded", "METHOD_CERTIFIED", "METHOD_SIMPLEX",
    "check_optimal", "solve_lp", "solve_lp_exact",
]

METHOD_CERTIFIED = "highs+certificate"
METHOD_SIMPLEX = "exact-simplex"

# Relative tolerances used only to *guess* the active set from the float candidate; the
# guess is then checked exactly, so these affect speed, never correctness.
_ATTEMPTS = (("duals", 1e-9), ("duals", 1e-6), ("slack", 1e-6))
_DUAL_TOL = 1e-9
_INDEPENDENCE_TOL = 1e-7
# Rounds of iterative refinement (re-solving in float around the exact vertex, scaled up)
# before the exact simplex; and how far (in refined units) a constraint is "far away".
_REFINEMENTS = 2
_FAR = 1e9
# A safety net against an implementation bug; Bland's rule terminates by itself.
_MAX_PIVOTS = 1_000_000


class LPInfeasible(ValueError):
    """The LP has no feasible point (proved by the exact simplex's phase 1)."""


class LPUnbounded(ValueError):
    """The LP is feasible and its objective is unbounded below (proved by an exact ray)."""


@dataclass(frozen=True)
class LPSolution:
    """An optimal point with its optimality certificate.

    `row_duals[r]` ≥ 0 multiplies row r of A_ub x ≤ b_ub; `lower_duals[j]` / `upper_duals[j]`
    ≥ 0 multiply the bounds (0 for a None bound). `method` says which path certified it
    ("highs+certificate" or "exact-simplex"; "candidate" for a hand-made one), `basis` the
    tight constraints defining the vertex as ("row" | "lower" | "upper", index) — n of them,
    fewer when variables had to be pinned (a lineality space) —, `pivots` the number of
    exact simplex pivots used (0 on the direct certificate path) and `refinements` the
    number of iterative-refinement re-solves before the certificate held. These extra
    fields are diagnostics; `check_optimal` ignores them.
    """

    x: tuple[Fraction, ...]
    objective: Fraction
    row_duals: tuple[Fraction, ...]
    lower_duals: tuple[Fraction, ...]
    upper_duals: tuple[Fraction, ...]
    method: str = "candidate"
    basis: tuple[tuple[str, int], ...] = ()
    pivots: int = 0
    refinements: int = 0

    def __post_init__(self):
        for name in ("x", "row_duals", "lower_duals", "upper_duals"):
            seq = getattr(self, name)
            _require_sequence(seq, f"LPSolution.{name}")
            object.__setattr__(
                self, name, tuple(as_fraction(v, f"LPSolution.{name}[{i}]") for i, v in enumerate(seq))
            )
        object.__setattr__(self, "objective", as_fraction(self.objective, "LPSolution.objective"))
        if not isinstance(self.method, str):
            raise ValueError(f"LPSolution.method must be a str, got {shown(self.method)}")
        object.__setattr__(self, "basis", tuple(tuple(b) for b in self.basis))
        as_int(self.pivots, "LPSolution.pivots", minimum=0)
        as_int(self.refinements, "LPSolution.refinements", minimum=0)


# -- input -----------------------------------------------------------------------------


def _require_sequence(seq, field: str) -> None:
    if isinstance(seq, (str, bytes)) or not isinstance(seq, Sequence):
        raise ValueError(f"{field} must be a sequence (list or tuple), got {shown(seq)}")


def _exact_row(values, field: str) -> tuple[Fraction, ...]:
    """`values` as Fractions via `as_fraction` (field name `field[i]`); Fractions and ints
    skip the generic path, since validating a 992 × 65 matrix entry by entry otherwise costs
    more than solving the LP."""
    out = []
    for i, v in enumerate(values):
        t = type(v)
        if t is Fraction:
            out.append(v)
        elif t is int:
            out.append(Fraction(v))
        else:
            out.append(as_fraction(v, f"{field}[{i}]"))
    return tuple(out)


def _integer_row(row: tuple[Fraction, ...]) -> tuple[list[int], Fraction]:
    """(ints, scale) with ints = scale·row a primitive integer vector and scale > 0.

    Multiplying an inequality by a positive number keeps its solution set; integer rows
    let the exact linear algebra run on Python ints, which is far faster than Fractions
    (no gcd after every operation)."""
    den = math.lcm(*(v.denominator for v in row)) if row else 1
    ints = [v.numerator * (den // v.denominator) for v in row]
    g = math.gcd(*ints) if ints else 0
    if g == 0:
        return ints, Fraction(1)
    if g != 1:
        ints = [v // g for v in ints]
    return ints, Fraction(den, g)


class _Problem:
    """The validated LP, plus each row scaled to primitive integers.

    Constraint k (used for Bland's order and in `LPSolution.basis`):
      0 ≤ k < m          row k:          row_int[k]·x ≤ row_rhs[k]
      m ≤ k < m+n        lower bound j:  −x_j ≤ −lower[j]      (j = k − m)
      m+n ≤ k < m+2n     upper bound j:   x_j ≤ upper[j]       (j = k − m − n)
    (a bound that is None is simply absent)."""

    def __init__(self, c, A_ub, b_ub, lower, upper):
        _require_sequence(c, "c")
        if len(c) == 0:
            raise ValueError("c must have at least one entry (one per variable), got an empty sequence")
        n = len(c)
        self.c = _exact_row(c, "c")
        _require_sequence(A_ub, "A_ub")
        _require_sequence(b_ub, "b_ub")
        rows = []
        for r, row in enumerate(A_ub):
            _require_sequence(row, f"A_ub[{r}]")
            if len(row) != n:
                raise ValueError(f"A_ub[{r}] has {len(row)} entries, expected {n} (one per entry of c)")
            rows.append(_exact_row(row, f"A_ub[{r}]"))
        if len(b_ub) != len(rows):
            raise ValueError(f"b_ub has {len(b_ub)} entries, expected {len(rows)} (one per row of A_ub)")
        self.A = tuple(rows)
        self.b = _exact_row(b_ub, "b_ub")
        bounds = []
        for name, seq in (("lower", lower), ("upper", upper)):
            _require_sequence(seq, name)
            if len(seq) != n:
                raise ValueError(f"{name} has {len(seq)} entries, expected {n} (one per entry of c)")
            bounds.append(tuple(None if v is None else as_fraction(v, f"{name}[{j}]") for j, v in enumerate(seq)))
        self.lower, self.upper = bounds
        self.n, self.m = n, len(rows)
        scaled = [_integer_row(row) for row in self.A]
        self.row_int = [ints for ints, _ in scaled]
        self.row_scale = [scale for _, scale in scaled]
        self.row_rhs = [scale * b for (_, scale), b in zip(scaled, self.b)]

    def label(self, k: int) -> tuple[str, int]:
        if k < self.m:
            return ("row", k)
        if k < self.m + self.n:
            return ("lower", k - self.m)
        return ("upper", k - self.m - self.n)

    def crossed_bounds(self) -> int | None:
        for j, (lo, hi) in enumerate(zip(self.lower, self.upper)):
            if lo is not None and hi is not None and lo > hi:
                return j
        return None


# -- the certificate -----------------------------------------------------------------------


def _short(q: Fraction) -> str:
    """A huge rational in one readable token (exact when short, else approximate)."""
    text = str(q)
    return text if len(text) <= 40 else f"~{float(q):.6g}"


def _check(p: _Problem, sol: LPSolution) -> list[str]:
    n, m = p.n, p.m
    for name, seq, size in (("x", sol.x, n), ("row_duals", sol.row_duals, m),
                            ("lower_duals", sol.lower_duals, n), ("upper_duals", sol.upper_duals, n)):
        if len(seq) != size:
            raise ValueError(f"solution.{name} has {len(seq)} entries, expected {size}")
    bad: list[str] = []
    x = sol.x
    # (P) bounds, then rows on a common denominator: row_int·X ≤ row_rhs·D in integers.
    for j in range(n):
        if p.lower[j] is not None and x[j] < p.lower[j]:
            bad.append(f"primal: x[{j}] = {_short(x[j])} < lower[{j}] = {_short(p.lower[j])}")
        if p.upper[j] is not None and x[j] > p.upper[j]:
            bad.append(f"primal: x[{j}] = {_short(x[j])} > upper[{j}] = {_short(p.upper[j])}")
    X, D = common_denominator(x)
    for r in range(m):
        rhs = p.row_rhs[r]
        lhs = sum(map(mul, p.row_int[r], X))
        if lhs * rhs.denominator > rhs.numerator * D:
            excess = (Fraction(lhs, D) - rhs) / p.row_scale[r]
            bad.append(f"primal: row {r} violated, A_ub[{r}]·x − b_ub[{r}] = {_short(excess)} > 0")
    # (D) signs, and no multiplier on an absent bound.
    for name, seq, bounds in (("row_duals", sol.row_duals, None), ("lower_duals", sol.lower_duals, p.lower),
                              ("upper_duals", sol.upper_duals, p.upper)):
        for i, v in enumerate(seq):
            if v < 0:
                bad.append(f"dual: {name}[{i}] = {_short(v)} < 0")
            elif v != 0 and bounds is not None and bounds[i] is None:
                side = name.split("_")[0]
                bad.append(f"dual: {name}[{i}] = {_short(v)} ≠ 0 on the absent bound {side}[{i}] = None")
    # (D) stationarity c + A_ubᵀ y − λ + μ = 0. y_r·A_r = (y_r / scale_r)·row_int[r]; with the
    # z_r = y_r / scale_r on one denominator E the column sums are integer dot products.
    support = [r for r in range(m) if sol.row_duals[r] != 0]
    Z, E = common_denominator(sol.row_duals[r] / p.row_scale[r] for r in support)
    for j in range(n):
        column = sum(p.row_int[r][j] * zr for r, zr in zip(support, Z))
        residual = p.c[j] + Fraction(column, E) - sol.lower_duals[j] + sol.upper_duals[j]
        if residual != 0:
            bad.append(f"dual: stationarity fails in column {j}, (c + A_ubᵀy − λ + μ)[{j}] = {_short(residual)}")
    # (Z) the objectives.
    primal = sum(cj * xj for cj, xj in zip(p.c, x) if cj)
    dual = -sum(p.b[r] * sol.row_duals[r] for r in support)
    # (a multiplier on an absent bound has no term here; it is already reported above)
    dual += sum(lo * v for lo, v in zip(p.lower, sol.lower_duals) if v and lo is not None)
    dual -= sum(hi * v for hi, v in zip(p.upper, sol.upper_duals) if v and hi is not None)
    if sol.objective != primal:
        bad.append(f"objective: claimed {_short(sol.objective)} but c·x = {_short(primal)}")
    if dual != primal:
        bad.append(f"gap: c·x = {_short(primal)} ≠ dual objective {_short(dual)}")
    return bad


def check_optimal(c, A_ub, b_ub, lower, upper, solution: LPSolution) -> list[str]:
    """The violated optimality conditions (P), (D), (Z) of `solution`, checked exactly;
    an empty list certifies that `solution.x` is optimal with value `solution.objective`.

    Malformed input (floats, wrong lengths) raises ValueError instead."""
    if not isinstance(solution, LPSolution):
        raise ValueError(f"solution must be an LPSolution, got {shown(solution)}")
    return _check(_Problem(c, A_ub, b_ub, lower, upper), solution)


# -- exact linear algebra on integers ----------------------------------------------------


def _eliminate(a: list[list[int]], n: int, jordan: bool) -> int | None:
    """Fraction-free elimination (Bareiss 1968) on the first n columns of the integer rows
    `a`, in place: d = ±det of the n×n block, or None if it is singular.

    Every entry after step k is a k×k minor of the matrix, so the division by the previous
    pivot is exact and the integers grow only linearly in k. With `jordan` the pivot column
    is cleared above the pivot too (Gauss–Jordan): the left block ends as d·I."""
    prev = 1
    for k in range(n):
        piv = next((i for i in range(k, n) if a[i][k]), None)
        if piv is None:
            return None
        if piv != k:
            a[k], a[piv] = a[piv], a[k]
        rowk = a[k]
        akk = rowk[k]
        for i in (range(n) if jordan else range(k + 1, n)):
            if i == k:
                continue
            a[i] = bareiss_update(a[i], rowk, k, akk, prev)
        prev = akk
    return prev


def bareiss_update(rowi: list[int], rowk: list[int], col: int, akk: int, prev: int) -> list[int]:
    """Row i after eliminating column `col` with pivot row k (pivot akk), fraction-free:
    (akk·row_i − a_i,col·row_k) / prev, an exact division (Bareiss)."""
    aik = rowi[col]
    if aik:
        return [(akk * u - aik * v) // prev for u, v in zip(rowi, rowk)]
    if akk != prev:
        return [akk * u // prev for u in rowi]
    return rowi


def _bareiss_solve(M: list[list[int]], rhs: list[int]) -> tuple[int, list[int]] | None:
    """(d, X) with M x = rhs solved as x = X / d (d = ±det M), or None if M is singular."""
    n = len(M)
    a = [row[:] + [v] for row, v in zip(M, rhs)]
    d = _eliminate(a, n, jordan=False)
    if d is None:
        return None
    # Back substitution in integers: X_i = d·x_i is an integer (Cramer's rule), so each
    # division is exact.
    X = [0] * n
    for i in range(n - 1, -1, -1):
        rowi = a[i]
        s = d * rowi[n] - sum(rowi[j] * X[j] for j in range(i + 1, n))
        X[i] = s // rowi[i]
    return d, X


def _adjugate(M: list[list[int]]) -> tuple[int, list[list[int]]] | None:
    """(d, A) with A = d·M⁻¹ integer and d = ±det M ≠ 0, or None if M is singular.

    Gauss–Jordan on [M | I]: the row operations amount to a left factor L with
    L·M = d·I, so the right half ends as L = d·M⁻¹."""
    n = len(M)
    a = [row[:] + [1 if i == j else 0 for j in range(n)] for i, row in enumerate(M)]
    d = _eliminate(a, n, jordan=True)
    return None if d is None else (d, [row[n:] for row in a])


# -- steps 1-4: HiGHS candidates and their certificates --------------------------------------


class _FloatLP:
    """A float64 copy of the LP (or of a refined LP around an exact point) for HiGHS.

    Row i of the float LP is row `rows[i]` of the exact one; constraint ids (for the
    bases handed to the exact side) are always those of `_Problem`."""

    def __init__(self, p: _Problem, c, A, b, lo, up, rows, A_full=None):
        self.p, self.c, self.A, self.b, self.lo, self.up, self.rows = p, c, A, b, lo, up, rows
        self.A_full = A if A_full is None else A_full  # every row, for later refinements

    @classmethod
    def of(cls, p: _Problem) -> "_FloatLP | None":
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

    def refined(self, x0: tuple[Fraction, ...]) -> "_FloatLP | None":
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
                rest = sorted((kind, abs(s), k) for k, kind, s in zip(ks, kinds, slacks)
                              if k not in chosen and abs(s) <= tol)
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
            q = Q[:, :len(basis)]
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
        rhs = [p.row_rhs[r] - sum(p.row_int[r][j] * v for j, (_, v) in fixed.items() if p.row_int[r][j])
               for r in rows]
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
    return LPSolution(tuple(x), objective, tuple(row_duals), tuple(lower_duals), tuple(upper_duals),
                      METHOD_CERTIFIED, tuple(p.label(k) for k in sorted(basis)), 0)


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


def solve_lp_exact(c, A_ub, b_ub, lower, upper) -> LPSolution:
    """The exact simplex alone (Bland's rule, two phases), from its own starting basis:
    no floating point anywhere. Slower; the reference for `solve_lp`'s fallback."""
    p = _Problem(c, A_ub, b_ub, lower, upper)
    _refuse_crossed_bounds(p)
    return _exact_simplex(p, None)


def _refuse_crossed_bounds(p: _Problem) -> None:
    j = p.crossed_bounds()
    if j is not None:
        raise LPInfeasible(f"LP is infeasible: lower[{j}] = {p.lower[j]} > upper[{j}] = {p.upper[j]}")


# -- step 5: the exact simplex ---------------------------------------------------------------


class _Constraints:
    """Constraints g_k·x ≤ h_k over `dim` free variables: g_k a sparse integer normal (a
    tuple of (j, v)), kept dense too when it has many entries (C-level dot products are
    much faster than a Python loop over pairs). Ids follow `_Problem`; pins and the
    phase-1 bound t ≥ 0 get ids after all of the problem's constraints."""

    def __init__(self, dim: int, pin_base: int):
        self.dim = dim
        self.g: dict[int, tuple[tuple[int, int], ...]] = {}
        self.dense: dict[int, list[int] | None] = {}
        self.h: dict[int, Fraction] = {}
        self.pin_base = pin_base  # the pin of variable j (x_j = 0) has id pin_base + j
        self.t_id = pin_base + dim  # phase 1: −t ≤ 0

    @classmethod
    def of(cls, p: _Problem) -> "_Constraints":
        m, n = p.m, p.n
        cons = cls(n, m + 2 * n)
        for r in range(m):
            cons.add(r, [(j, v) for j, v in enumerate(p.row_int[r]) if v], p.row_rhs[r])
        for j in range(n):
            if p.lower[j] is not None:
                cons.add(m + j, [(j, -1)], -p.lower[j])
        for j in range(n):
            if p.upper[j] is not None:
                cons.add(m + n + j, [(j, 1)], p.upper[j])
        return cons

    def add(self, k: int, sparse, h: Fraction) -> None:
        self.g[k] = tuple(sparse)
        self.h[k] = h
        if len(self.g[k]) > 2:
            v = [0] * self.dim
            for j, a in self.g[k]:
                v[j] = a
            self.dense[k] = v
        else:
            self.dense[k] = None

    def dot(self, k: int, vec: list[int]) -> int:
        d = self.dense[k]
        if d is not None:
            return sum(map(mul, d, vec))
        return sum(v * vec[j] for j, v in self.g[k])

    def coefficient(self, k: int, j: int) -> int:
        d = self.dense[k]
        if d is not None:
            return d[j]
        return next((v for i, v in self.g[k] if i == j), 0)


class _Tableau:
    """A basis (constraint ids, one per position) with the integer pair (d, adj),
    adj = d·G_B⁻¹ (rows: variables, columns: basis positions) and d = ±det G_B ≠ 0."""

    def __init__(self, cons: _Constraints, basis: list[int], d: int, adj: list[list[int]]):
        self.cons, self.dim, self.basis, self.d, self.adj = cons, cons.dim, list(basis), d, adj

    @classmethod
    def build(cls, cons: _Constraints, basis: list[int]) -> "_Tableau | None":
        """The tableau of `basis`, or None if it is singular.

        Unit normals ±e_j (bounds, pins) fix their variable; only the square block of the
        other rows on the remaining variables needs an elimination:
        G_B = [[R_F, R_X], [0, diag(σ)]] gives G_B⁻¹ = [[R_F⁻¹, −R_F⁻¹ R_X diag(σ)], [0, diag(σ)]]."""
        dim = cons.dim
        fixed: dict[int, int] = {}  # variable -> basis position of its unit normal
        dense_pos = []
        for pos, k in enumerate(basis):
            g = cons.g[k]
            if len(g) == 1 and g[0][1] in (1, -1) and g[0][0] not in fixed:
                fixed[g[0][0]] = pos
            else:
                dense_pos.append(pos)
        free = [j for j in range(dim) if j not in fixed]
        if len(free) != len(dense_pos):
            return None
        rows = [[cons.coefficient(basis[pos], j) for j in range(dim)] for pos in dense_pos]
        if rows:
            got = _adjugate([[row[j] for j in free] for row in rows])
            if got is None:
                return None
            d, adj_f = got
        else:
            d, adj_f = 1, []
        adj = [[0] * dim for _ in range(dim)]
        for a, j in enumerate(free):
            for b, pos in enumerate(dense_pos):
                adj[j][pos] = adj_f[a][b]
        for j, pos in fixed.items():
            sigma = cons.g[basis[pos]][0][1]
            adj[j][pos] = d * sigma
            column = [row[j] for row in rows]
            if any(column):
                for a, jf in enumerate(free):
                    adj[jf][pos] = -sigma * sum(map(mul, adj_f[a], column))
        return cls(cons, basis, d, adj)

    def point(self) -> tuple[list[int], int]:
        """x = X / den at the basis vertex (den may be negative)."""
        H, q = common_denominator(self.cons.h[k] for k in self.basis)
        return [sum(map(mul, row, H)) for row in self.adj], self.d * q

    def duals(self, c: list[Fraction]) -> tuple[list[int], int]:
        """y = Y / den with G_Bᵀ y = −c, one multiplier per basis position."""
        C, q = common_denominator(c)
        Y = [0] * self.dim
        for i, ci in enumerate(C):
            if ci:
                Y = [y - ci * a for y, a in zip(Y, self.adj[i])]
        return Y, self.d * q

    def pivot(self, pos: int, k_new: int) -> None:
        """Replace the constraint at `pos` by `k_new`: with col = adj[:, pos],
        d' = g_new·col and adj' = (d'·adj − col ⊗ (g_new − g_old)ᵀadj) / d (Sherman–Morrison
        multiplied through by the determinants; adj' is again an adjugate up to sign, so
        the division is exact)."""
        g_new, g_old = self.cons.g[k_new], self.cons.g[self.basis[pos]]
        adj, d = self.adj, self.d
        col = [row[pos] for row in adj]
        d_new = sum(v * col[j] for j, v in g_new)
        delta: dict[int, int] = {}
        for j, v in g_new:
            delta[j] = delta.get(j, 0) + v
        for j, v in g_old:
            delta[j] = delta.get(j, 0) - v
        vrow = [0] * self.dim
        for j, dv in delta.items():
            if dv:
                vrow = [a + dv * b for a, b in zip(vrow, adj[j])]
        self.adj = [[(d_new * a - ci * vq) // d for a, vq in zip(row, vrow)] if ci else
                    ([(d_new * a) // d for a in row] if d_new != d else row)
                    for row, ci in zip(adj, col)]
        self.d = d_new
        self.basis[pos] = k_new


def _simplex(tab: _Tableau, c: list[Fraction], ids: list[int], pinned: set[int]) -> tuple[str, int]:
    """Primal simplex with Bland's rule from the primal-feasible basis in `tab`, over the
    constraints `ids` (sorted). Returns ("optimal" | "unbounded", pivots)."""
    cons = tab.cons
    pivots = 0
    while True:
        Y, yden = tab.duals(c)
        sign = 1 if yden > 0 else -1
        # Bland: the basis constraint whose slack enters is the smallest id with y < 0.
        best = None
        for pos, k in enumerate(tab.basis):
            if k not in pinned and Y[pos] * sign < 0 and (best is None or k < tab.basis[best]):
                best = pos
        if best is None:
            return "optimal", pivots
        # Direction: keep the other basis constraints tight, loosen this one: d = −G_B⁻¹e_pos,
        # a positive multiple of −sign(d)·adj[:, pos].
        s = 1 if tab.d > 0 else -1
        direction = [-s * row[best] for row in tab.adj]
        X, xden = tab.point()
        sx = 1 if xden > 0 else -1
        in_basis = set(tab.basis)
        # Ratio test in integers (no gcd per candidate): the step to constraint k is
        # slack_k / (g_k·d) = (hn·xden − hd·g_k·X) / (hd·xden·g_k·d) with h_k = hn/hd; drop
        # the common factor 1/|xden| and compare the fractions rn/rd (rd > 0) crosswise.
        enter = None
        enter_rn = enter_rd = 0
        for k in ids:
            if k in in_basis:
                continue
            gd = cons.dot(k, direction)
            if gd <= 0:
                continue
            h = cons.h[k]
            hn, hd = h.numerator, h.denominator
            rn = (hn * xden - hd * cons.dot(k, X)) * sx
            rd = hd * gd
            if enter is None or rn * enter_rd < enter_rn * rd:  # ids ascend: ties keep the smallest
                enter, enter_rn, enter_rd = k, rn, rd
                if rn == 0:  # a degenerate step: no ratio is below 0 and later ids lose ties
                    break
        if enter is None:
            return "unbounded", pivots
        tab.pivot(best, enter)
        pivots += 1
        if pivots > _MAX_PIVOTS:
            raise RuntimeError("exact simplex exceeded its pivot limit (a bug: Bland's rule terminates)")


def _subtract_multiple(target: dict, source: dict, f) -> None:
    """target -= f·source for sparse rows {column: value}, dropping entries that become 0."""
    if not f:
        return
    for j, v in source.items():
        w = target.get(j, 0) - f * v
        if w:
            target[j] = w
        else:
            target.pop(j, None)


def _initial_basis(cons: _Constraints, ids: list[int]) -> tuple[list[int], list[int]]:
    """A maximal independent set of constraint normals, scanned in id order (exact reduced
    row echelon form over Fractions), plus the variables to pin (e_j completing it to a
    basis of Rⁿ)."""
    n = cons.dim
    echelon: dict[int, dict[int, Fraction]] = {}
    chosen: list[int] = []
    for k in ids:
        vec = {j: Fraction(v) for j, v in cons.g[k]}
        for pc, prow in echelon.items():
            _subtract_multiple(vec, prow, vec.get(pc))
        if not vec:
            continue
        pc = min(vec)
        lead = vec[pc]
        vec = {j: v / lead for j, v in vec.items()}
        for prow in echelon.values():
            _subtract_multiple(prow, vec, prow.get(pc))
        echelon[pc] = vec
        chosen.append(k)
        if len(chosen) == n:
            break
    return chosen, [j for j in range(n) if j not in echelon]


def _phase1(cons: _Constraints, tab: _Tableau, ids: list[int], pinned: set[int]) -> tuple[_Tableau, int]:
    """From a non-singular basis B0 (`tab`), a primal-feasible basis, or LPInfeasible.

    Phase-1 LP in (x, t): minimise t subject to the constraints of B0 and the pins as they
    are, every other constraint relaxed to g_k·x − t ≤ h_k, and t ≥ 0. B0 plus the most
    violated constraint w is a vertex of it: G1 = [[G_B0, 0], [g_w, −1]], whose inverse
    [[G⁻¹, 0], [g_w G⁻¹, −1]] borders the current one, so no new elimination is needed.
    The optimum is t = 0 exactly when the LP is feasible."""
    n = cons.dim
    X, xden = tab.point()
    basis0 = set(tab.basis)
    worst, worst_rn, worst_rd = None, 0, 1
    for k in ids:
        if k in basis0:
            continue
        h = cons.h[k]
        # violation (g_k·x − h_k) = (g_k·X − h·xden) / xden, compared crosswise as rn/rd
        rn = (h.denominator * cons.dot(k, X) - h.numerator * xden) * (1 if xden > 0 else -1)
        rd = h.denominator
        if rn > 0 and rn * worst_rd > worst_rn * rd:
            worst, worst_rn, worst_rd = k, rn, rd
    if worst is None:
        return tab, 0
    t = n
    cons1 = _Constraints(n + 1, cons.pin_base)
    for k in ids:
        cons1.add(k, cons.g[k] + (() if k in basis0 else ((t, -1),)), cons.h[k])
    for k in pinned:
        cons1.add(k, cons.g[k], cons.h[k])
    cons1.add(cons.t_id, [(t, -1)], Fraction(0))
    border = [sum(v * row[pos] for j, v in cons.g[worst] for row in (tab.adj[j],)) for pos in range(n)]
    adj1 = [row + [0] for row in tab.adj] + [border + [-tab.d]]
    tab1 = _Tableau(cons1, tab.basis + [worst], tab.d, adj1)
    status, pivots = _simplex(tab1, [Fraction(0)] * n + [Fraction(1)], ids + [cons.t_id], pinned)
    assert status == "optimal"  # t ≥ 0 bounds the phase-1 objective below
    X1, den1 = tab1.point()
    if X1[t] != 0:
        raise LPInfeasible("LP is infeasible: the exact phase-1 simplex ends with total infeasibility "
                           f"t = {_short(Fraction(X1[t], den1))} > 0")
    # Back to n tight independent constraints at the same point (t = 0): drop the bound
    # t ≥ 0 if it is in the basis, else a position whose cofactor in the t column is
    # non-zero (the smallest id). Deleting row i and column t of G1: by Jacobi's identity
    # the new pair is d' = A[t][i], adj' = (A[t][i]·A[j][p] − A[j][i]·A[t][p]) / d.
    A, d = tab1.adj, tab1.d
    if cons.t_id in tab1.basis:
        drop = tab1.basis.index(cons.t_id)
    else:
        drop = min((pos for pos in range(n + 1) if A[t][pos] and tab1.basis[pos] not in pinned),
                   key=lambda pos: tab1.basis[pos])
    keep = [pos for pos in range(n + 1) if pos != drop]
    d2 = A[t][drop]
    adj2 = [[(d2 * A[j][p] - A[j][drop] * A[t][p]) // d for p in keep] for j in range(n)]
    return _Tableau(cons, [tab1.basis[p] for p in keep], d2, adj2), pivots


def _exact_simplex(p: _Problem, start: list[int] | None) -> LPSolution:
    n, m = p.n, p.m
    cons = _Constraints.of(p)
    ids = sorted(cons.g)
    pins: list[int] = []
    if start is None:
        start, pins = _initial_basis(cons, ids)
    for j in pins:
        cons.add(cons.pin_base + j, [(j, 1)], Fraction(0))
    pinned = {cons.pin_base + j for j in pins}
    tab = _Tableau.build(cons, list(start) + sorted(pinned))
    if tab is None:
        raise RuntimeError("exact simplex: singular starting basis (a bug)")
    # With pins, c must lie in the span of the real constraints (zero pin multipliers);
    # otherwise the objective falls along a lineality direction — decided once feasible.
    Y, _ = tab.duals(list(p.c))
    c_in_row_space = all(Y[pos] == 0 for pos, k in enumerate(tab.basis) if k in pinned)
    tab, pivots = _phase1(cons, tab, ids, pinned)
    if not c_in_row_space:
        raise LPUnbounded("LP is unbounded: the objective decreases along a line contained in the feasible set")
    status, more = _simplex(tab, list(p.c), ids, pinned)
    pivots += more
    if status == "unbounded":
        raise LPUnbounded("LP is unbounded: the exact simplex found a feasible ray along which c·x decreases")
    X, xden = tab.point()
    x = tuple(Fraction(Xj, xden) for Xj in X)
    Y, yden = tab.duals(list(p.c))
    row_duals, lower_duals, upper_duals = [Fraction(0)] * m, [Fraction(0)] * n, [Fraction(0)] * n
    for pos, k in enumerate(tab.basis):
        y = Fraction(Y[pos], yden)
        if k < m:
            row_duals[k] = y * p.row_scale[k]
        elif k < m + n:
            lower_duals[k - m] = y
        elif k < m + 2 * n:
            upper_duals[k - m - n] = y
    objective = sum(cj * xj for cj, xj in zip(p.c, x) if cj)
    sol = LPSolution(x, objective, tuple(row_duals), tuple(lower_duals), tuple(upper_duals), METHOD_SIMPLEX,
                     tuple(p.label(k) for k in sorted(tab.basis) if k < cons.pin_base), pivots)
    problems = _check(p, sol)
    if problems:  # never return an uncertified answer
        raise RuntimeError(f"exact simplex produced an uncertified solution (a bug): {problems[:3]}")
    return sol
