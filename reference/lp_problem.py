"""The exact LP of reference/lp.py as data: its input checked and held in integers
(`_Problem`), the certified answer (`LPSolution`) and the errors that carry an exact
proof, the optimality certificate that decides a proposed solution (`check_optimal`:
primal feasibility, dual feasibility, complementary slackness, all in rationals), and
the fraction-free integer linear algebra (Bareiss) both solvers build vertices with.
No floating point here; reference/lp.py documents the method as a whole."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import mul

from .exact import as_fraction, as_int, common_denominator, shown

METHOD_CERTIFIED = "highs+certificate"
METHOD_SIMPLEX = "exact-simplex"
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
            object.__setattr__(self, name, tuple(as_fraction(v, f"LPSolution.{name}[{i}]") for i, v in enumerate(seq)))
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
    for name, seq, size in (
        ("x", sol.x, n),
        ("row_duals", sol.row_duals, m),
        ("lower_duals", sol.lower_duals, n),
        ("upper_duals", sol.upper_duals, n),
    ):
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
    for name, seq, bounds in (
        ("row_duals", sol.row_duals, None),
        ("lower_duals", sol.lower_duals, p.lower),
        ("upper_duals", sol.upper_duals, p.upper),
    ):
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
        for i in range(n) if jordan else range(k + 1, n):
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
