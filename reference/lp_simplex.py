"""Step 5 of reference/lp.py: the exact simplex (Bland's rule, two phases) on the
integer data of `_Problem`, the fallback when no basis HiGHS proposes is certified, and
`solve_lp_exact`, the same simplex from its own starting basis. It decides infeasibility
and unboundedness with exact proofs; no floating point."""

from __future__ import annotations

from fractions import Fraction
from operator import mul

from .exact import common_denominator
from .lp_problem import (
    _MAX_PIVOTS,
    METHOD_SIMPLEX,
    LPInfeasible,
    LPSolution,
    LPUnbounded,
    _adjugate,
    _check,
    _Problem,
    _short,
)


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
    def of(cls, p: _Problem) -> _Constraints:
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
    def build(cls, cons: _Constraints, basis: list[int]) -> _Tableau | None:
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
        self.adj = [
            [(d_new * a - ci * vq) // d for a, vq in zip(row, vrow)]
            if ci
            else ([(d_new * a) // d for a in row] if d_new != d else row)
            for row, ci in zip(adj, col)
        ]
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
        raise LPInfeasible(
            "LP is infeasible: the exact phase-1 simplex ends with total infeasibility "
            f"t = {_short(Fraction(X1[t], den1))} > 0"
        )
    # Back to n tight independent constraints at the same point (t = 0): drop the bound
    # t ≥ 0 if it is in the basis, else a position whose cofactor in the t column is
    # non-zero (the smallest id). Deleting row i and column t of G1: by Jacobi's identity
    # the new pair is d' = A[t][i], adj' = (A[t][i]·A[j][p] − A[j][i]·A[t][p]) / d.
    A, d = tab1.adj, tab1.d
    if cons.t_id in tab1.basis:
        drop = tab1.basis.index(cons.t_id)
    else:
        drop = min(
            (pos for pos in range(n + 1) if A[t][pos] and tab1.basis[pos] not in pinned),
            key=lambda pos: tab1.basis[pos],
        )
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
    sol = LPSolution(
        x,
        objective,
        tuple(row_duals),
        tuple(lower_duals),
        tuple(upper_duals),
        METHOD_SIMPLEX,
        tuple(p.label(k) for k in sorted(tab.basis) if k < cons.pin_base),
        pivots,
    )
    problems = _check(p, sol)
    if problems:  # never return an uncertified answer
        raise RuntimeError(f"exact simplex produced an uncertified solution (a bug): {problems[:3]}")
    return sol
