"""One epoch of a counts-mode CALruption record, judged from the counts it drew
(Algorithm 2, lines 4-14).

Exact where the quantity is an integer or a choice among the candidate's own numbers
(the schedule, the counts' consistency, labels, rho^ |I_l|, min q, which quantities are
undefined, layers from the candidate's own Delta^). Certified where it is a root (W: a
rigorous sign test, properties/scale/catoni.py) or an optimum (D^: an exact dual bound,
properties/scale/lp.py). Otherwise within the cross-check's tolerance table
(properties/checks/tolerances.py), against values the judge computes in 64-bit-significand
arithmetic (numpy's longdouble): their error, <= ~2^-60 relative plus a |S_l| u term
for sums, is below 1/100 of the smallest tolerance used (2 eps = 2^-51); an entry fails
only when its error exceeds tolerance + JUDGE_MARGIN of it.

The divergence classes are the small cross-check's: argmin_tie (h^*_l, line 10, where the
free-choice table allows it), layer_boundary (line 12), output_member (the output).
coin does not arise (counts mode draws its own coins: the judge checks them against q
through the counts' consistency, not round by round) and lp_non_unique is not counted:
without the reference's D^ the judge asks only that the candidate's be optimal."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from properties.checks.free_choices import divergence_of
from properties.checks.tolerances import support_sum_scale, table

from . import catoni as cat
from . import lp, lp_cycle, nested

LD = np.longdouble
TOL = table("float64")
JUDGE_MARGIN = 1e-3
WEIGHT_BLOCK = 1 << 18  # pairs per block of the alpha and weight checks (longdouble temporaries)
MAX_SHOWN = 3  # entries named in a mismatch message
CATONI_ROWS = 1 << 15  # pairs per vectorised Catoni evaluation (pairs x slots longdouble temporaries)
EXACT_FLOAT = 2**53
# rows this close to the top value at the candidate's D^ bind there, up to HiGHS's feasibility
# tolerance (1e-7 in the rows' own units, fast/line9.py): they seed the judge's dual
NEAR = 1e-6


@dataclass
class Expect:
    """What the epoch must continue from: the schedule and the candidate's previous q and Delta^."""

    l: int
    tau: int
    length: int
    q: np.ndarray
    gap_prev: np.ndarray


# -- exact integer products ----------------------------------------------------------------
def count_product(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """A @ B.T exactly, A non-negative int64 (counts), B 0/1: in float64 BLAS when every
    partial sum is an integer below 2^53 (then every float operation is exact, in any
    order or blocking), else split A = hi 2^26 + lo and recombined in int64."""
    bound = int(A.sum(axis=1).max()) if A.size else 0
    if bound < EXACT_FLOAT:
        return np.rint(A.astype(np.float64) @ B.astype(np.float64).T).astype(np.int64)
    hi, lo = A >> 26, A & ((1 << 26) - 1)
    return (count_product(hi, B) << 26) + count_product(lo, B)


class PairCounts:
    """rho^ |I_l|, min q and the Catoni counts of every pair, from the counts, exactly.

    Per q group g (the support split by the candidate's q^x, ascending): D_g(h, h') =
    sum_{x in g, h(x) != h'(x)} seen[x], and P_g(h, h') the queried rounds in g where h
    errs and h' does not (h(x) = 1, h'(x) = 0, label 0; or 0, 1, label 1): the samples
    l^(h) - l^(h') = +1/v_g there; -1/v_g on P_g(h', h); 0 elsewhere (line 8).

    With `nest` (H is a chain, properties/scale/nested.py) both are differences of int64
    prefix sums along the nesting order, and P_g is kept as two prefix arrays, evaluated per
    block of pairs; else exact products (`count_product`) and |H| x |H| tables. The counts
    are the epoch's, checked to sum to |I_l| <= n before this runs: no int64 overflow."""

    def __init__(self, H: np.ndarray, q: np.ndarray, seen: np.ndarray, queried: np.ndarray, nest=None):
        num_h = H.shape[0]
        support = np.flatnonzero(seen > 0)
        self.values = np.unique(q[support])
        order = support[np.argsort(q[support], kind="stable")]
        bounds = np.append(np.searchsorted(q[order], self.values, side="left"), len(order))
        self.rho_counts = np.zeros((num_h, num_h), np.int64)
        self.min_q = np.full((num_h, num_h), np.nan)
        self.nest = nest
        self.plus, self.asked = [], []
        for g, v in enumerate(self.values):
            cols = order[bounds[g] : bounds[g + 1]]
            if nest is None:
                Hg = H[:, cols]
                one_zero = count_product(Hg * seen[cols], 1 - Hg)  # sum seen over h = 1, h' = 0
                D = one_zero + one_zero.T
            else:
                # a nested class: the pair's disagreement is one run of the nesting order (properties/scale/nested.py)
                D = nest.differences(nest.prefix(_on(seen, cols)))
            first = (D > 0) & np.isnan(self.min_q)
            self.min_q[first] = v
            self.rho_counts += D
            del D
            q0, q1 = queried[cols, 0], queried[cols, 1]
            if v > 0 and (q0.sum() + q1.sum()) > 0:
                if nest is None:
                    A = np.concatenate([Hg * q0, (1 - Hg) * q1], axis=1)
                    B = np.concatenate([1 - Hg, Hg], axis=1)
                    self.plus.append(count_product(A, B))
                else:
                    # h errs where h' does not: ranks c_h'..c_h-1 (h = 1, h' = 0) with label 0 when
                    # c_h > c_h'; ranks c_h..c_h'-1 (h = 0, h' = 1) with label 1 when c_h < c_h'
                    self.plus.append((nest.prefix(_on(queried[:, 0], cols)), nest.prefix(_on(queried[:, 1], cols))))
                self.asked.append(v)
        self.asked = np.array(self.asked, dtype=np.float64)

    def plus_counts(self, g: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """P_g(h_i, h_j) for the index arrays i, j."""
        P = self.plus[g]
        if self.nest is None:
            return P[i, j]
        Q0, Q1 = P
        ci, cj = self.nest.lengths[i], self.nest.lengths[j]
        return np.where(ci > cj, Q0[ci] - Q0[cj], Q1[cj] - Q1[ci])

    def samples(self, i: np.ndarray, j: np.ndarray, length: int):
        """(values (k,) longdouble, the same as Fractions, counts (pairs, k) int64) of pairs (i, j)."""
        v = self.asked.astype(LD)
        values = np.concatenate([1 / v, -1 / v, [LD(0)]])
        exact = [1 / Fraction(x) for x in self.asked] + [-1 / Fraction(x) for x in self.asked] + [Fraction(0)]
        counts = np.empty((len(i), len(values)), np.int64)
        k = len(self.asked)
        for g in range(k):
            counts[:, g] = self.plus_counts(g, i, j)
            counts[:, k + g] = self.plus_counts(g, j, i)
        counts[:, -1] = length - counts[:, :-1].sum(axis=1)
        return values, exact, counts


def _on(per_point: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """per_point on cols, 0 elsewhere."""
    out = np.zeros_like(per_point)
    out[cols] = per_point[cols]
    return out


class EpochJudge:
    def __init__(self, cmp, H: np.ndarray, params, beta3: Fraction):
        self.cmp, self.H, self.params, self.beta3 = cmp, H, params, beta3
        self.nest = nested.nesting(H)  # None: the general routes (products, pair scans)
        self.beta2 = Fraction(params.beta2)
        self.roots_certified = 0  # Catoni roots shown within tolerance (both triangles), over the epochs judged
        self.exact_sign_tests = 0  # signs the vectorised bound left undecided, taken by the exact route
        self.cycle_bounds = 0  # line 9 optimality certified by one cycle of binding constraints (nested classes)
        self.lp_solves = 0  # restricted LPs solved (HiGHS) for line 9's bound

    # -- reporting -------------------------------------------------------------------------
    def fail(self, where, message, **values):
        self.cmp.fail(where, message, **values)

    def entries(self, where: str, name: str, bad: np.ndarray, candidate, exact, **extra) -> bool:
        """One mismatch naming how many entries fail and the first few."""
        idx = np.argwhere(bad)
        if not len(idx):
            return True
        shown = [tuple(int(v) for v in row) for row in idx[:MAX_SHOWN]]
        self.fail(
            where,
            f"{name}: {len(idx)} entries differ from the judge's value",
            first=shown,
            candidate=[_show(candidate[t]) for t in shown],
            exact=[_show(exact[t]) for t in shown],
            **extra,
        )
        return False

    @staticmethod
    def _ratio(name: str, candidate: np.ndarray, exact: np.ndarray, mask, scale=1.0) -> np.ndarray:
        """|candidate - exact| over tolerance `name`'s bound on mask (0 off it; inf for a nan
        candidate on it)."""
        t = TOL[name]
        bound = t.rel * np.abs(exact.astype(np.float64)) + t.abs * np.asarray(scale, dtype=np.float64)
        err = np.abs(candidate.astype(LD) - exact).astype(np.float64)
        err = np.where(mask, err, 0.0)
        bound = np.where(mask, bound, 1.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(bound > 0, err / bound, np.where(err > 0, np.inf, 0.0))
        return np.where(np.isnan(ratio), np.inf, ratio)  # a nan candidate on the mask is outside

    def _verdict(self, name: str, where: str, ratio_max: float, bad: np.ndarray, candidate, exact) -> bool:
        self.cmp.report.worst[name] = max(self.cmp.report.worst.get(name, 0.0), ratio_max)
        t = TOL[name]
        return self.entries(
            where,
            f"outside the tolerance of {name!r} (rel {t.rel:g}, abs {t.abs:g} x {t.scale})",
            bad,
            candidate,
            exact,
        )

    def close(self, name: str, where: str, candidate: np.ndarray, exact: np.ndarray, mask, scale=1.0) -> bool:
        """candidate within tolerance `name` of exact on mask; nan must match nan off it."""
        ratio = self._ratio(name, candidate, exact, mask, scale)
        worst = float(ratio.max()) if ratio.size else 0.0
        return self._verdict(name, where, worst, ratio > 1 + JUDGE_MARGIN, candidate, exact)

    def defined_as(self, where: str, candidate: np.ndarray, defined: np.ndarray) -> bool:
        bad = np.isnan(candidate) == defined
        return self.entries(
            where,
            "is undefined where the exact value is defined, or the reverse",
            bad,
            candidate,
            np.where(defined, 1.0, np.nan),
        )

    # -- the epoch ---------------------------------------------------------------------------
    def judge(self, r: dict, expect: Expect):
        """Judge record r; returns the (q, Delta^) the next epoch continues from, or None
        when the record is too broken to go on."""
        H, l, L = self.H, expect.l, expect.length
        num_h = H.shape[0]
        where = f"epoch {l}"
        found = (int(r["l"]), int(r["tau"]), int(r["length"]))
        if found != (expect.l, expect.tau, expect.length):
            self.fail(
                f"{where} schedule",
                "is not l, tau_l, |I_l| = ceil(beta1 4^l) (line 1)",
                candidate=found,
                exact=(expect.l, expect.tau, expect.length),
            )
            return None
        if not np.array_equal(r["q"], expect.q):
            self.entries(f"{where} q (the previous next_q)", "q", r["q"] != expect.q, r["q"], expect.q)
            return None
        seen, queried, q = r["seen"], r["queried"], r["q"]
        if not self._counts(where, seen, queried, q, L, int(r["labels_requested"])):
            return None
        pairs = PairCounts(H, q, seen, queried, self.nest)
        off = ~np.eye(num_h, dtype=bool)
        self.entries(
            f"{where} rho_counts (line 7, rho^ |I_l|)",
            "rho_counts",
            r["rho_counts"] != pairs.rho_counts,
            r["rho_counts"],
            pairs.rho_counts,
        )
        rho_c = pairs.rho_counts
        mq = pairs.min_q
        same_mq = (np.isnan(r["min_q"]) & np.isnan(mq)) | (r["min_q"] == mq)
        self.entries(f"{where} min_q (line 8)", "min_q", off & ~same_mq, r["min_q"], mq)
        active = off & (rho_c > 0) & (mq > 0)
        self._weights(where, r, rho_c, mq, L, active)
        self._W(where, r, pairs, rho_c, mq, L, active)
        fit = self._fit(where, r, seen, L, active)
        if fit is None:
            return None
        R, s_size = fit
        if not self._decisions(where, r, R, s_size, expect):
            return None
        self._next_q(where, r, rho_c, L, s_size)
        return r["next_q"], r["gap_hat"]

    def _counts(self, where, seen, queried, q, L, labels) -> bool:
        ok = True
        if (seen < 0).any() or int(seen.sum()) != L:
            self.fail(
                f"{where} seen",
                "must be non-negative counts summing to |I_l| (line 3)",
                total=int(seen.sum()),
                length=L,
                negative=int((seen < 0).sum()),
            )
            ok = False
        asked = queried.sum(axis=1)
        bad = (queried < 0).any(axis=1) | (asked > seen) | ((q == 0) & (asked > 0)) | ((q == 1) & (asked != seen))
        ok = self.entries(f"{where} queried (line 4: Q_t = 1 iff u_t < q^x)", "queried", bad, asked, seen) and ok
        if labels != int(queried.sum()):
            self.fail(
                f"{where} labels_requested",
                "differs from the queried counts",
                candidate=labels,
                exact=int(queried.sum()),
            )
        return ok

    def _weights(self, where, r, rho_c, mq, L, active):
        """alpha = sqrt(2 beta3 min q / (5 |I_l| rho^)) = sqrt(2 beta3 min q / (5 rho^ |I_l|)) with
        rho^ |I_l| the count; weight = sqrt(min q / rho^) (the appendix lemma)."""
        b3 = LD(self.beta3.numerator) / LD(self.beta3.denominator)

        def exact(name, rows):
            with np.errstate(invalid="ignore", divide="ignore"):
                if name == "alpha":
                    return np.sqrt(2 * b3 * mq[rows].astype(LD) / (5 * rho_c[rows].astype(LD)))
                return np.sqrt(mq[rows].astype(LD) * LD(L) / rho_c[rows].astype(LD))

        # by row blocks: |H| x |H| longdouble temporaries are 256 MiB each at |H| = 4096, and
        # fresh memory costs page faults (fast/workspace.py); the values are the same
        num_h = rho_c.shape[0]
        step = max(1, WEIGHT_BLOCK // max(1, num_h))
        for name in ("alpha", "weight"):
            cand = r[name]
            if not self.defined_as(f"{where} {name}", cand, active):
                continue
            bad = np.zeros(cand.shape, bool)
            worst = 0.0
            for r0 in range(0, num_h, step):
                rows = slice(r0, min(num_h, r0 + step))
                ratio = self._ratio(name, cand[rows], exact(name, rows), active[rows])
                if ratio.size:
                    worst = max(worst, float(ratio.max()))
                bad[rows] = ratio > 1 + JUDGE_MARGIN
            self._verdict(name, f"{where} {name}", worst, bad, cand, _Rows(lambda rows, n=name: exact(n, rows)))

    def _W(self, where, r, pairs: PairCounts, rho_c, mq, L, active):
        """Line 8: 0 where rho^ = 0 (every sample is 0; nan accepted, docs/protocol.md section 6),
        undefined where min q = 0, else certified within W's tolerance of the root."""
        W = r["W"]
        num_h = W.shape[0]
        off = ~np.eye(num_h, dtype=bool)
        zero = off & (rho_c == 0)
        self.entries(f"{where} W (rho^ = 0: W = 0)", "W", zero & ~((W == 0) | np.isnan(W)), W, np.zeros_like(W))
        undefined = off & (rho_c > 0) & ~(mq > 0)
        self.entries(f"{where} W (min q = 0: undefined)", "W", undefined & ~np.isnan(W), W, np.full_like(W, np.nan))
        if not self.defined_as(f"{where} W", np.where(active, W, np.nan), active):
            return
        alpha = r["alpha"]
        usable = np.isfinite(alpha) & (alpha > 0)
        if not self.entries(
            f"{where} W (line 8)",
            "no certificate: the candidate's alpha is not a positive number",
            active & ~usable,
            alpha,
            np.ones_like(alpha),
        ):
            return
        i, j = np.nonzero(np.triu(active, 1))
        # the lower triangle: the root for (h', h) is minus (h, h')'s (the samples negate);
        # an exact negation is certified with it, anything else on its own below
        alone = W[j, i] != -W[i, j]
        bad_lo, bad_hi, exact_route = [], [], 0
        for rows_i, rows_j, sign in ((i, j, 1), (j[alone], i[alone], -1)):
            for b in range(0, len(rows_i), CATONI_ROWS):
                bi, bj = rows_i[b : b + CATONI_ROWS], rows_j[b : b + CATONI_ROWS]
                lo_i, lo_j = (bi, bj) if sign == 1 else (bj, bi)  # the pair's samples for h < h'
                values, exact, counts = pairs.samples(lo_i, lo_j, L)
                if sign == -1:
                    values, exact = -values, [-v for v in exact]
                bound = TOL["W"].abs / mq[bi, bj]  # abs 1e-12 x max(1, 1 / min q)
                ok, s_lo, _, n = cat.roots_within(values, exact, counts, r["alpha"][bi, bj], W[bi, bj], bound)
                exact_route += n
                mirrored = ok & ~alone[b : b + CATONI_ROWS] if sign == 1 else np.zeros_like(ok)
                self.roots_certified += int(ok.sum() + mirrored.sum())  # W[h', h] = -W[h, h'] exactly: with it
                self.exact_sign_tests += n
                for t in np.flatnonzero(~ok):
                    (bad_lo if s_lo[t] < 0 else bad_hi).append((int(bi[t]), int(bj[t])))
        bad = bad_lo + bad_hi
        # a sign test certifies the root within the tolerance or not: no error to measure (and
        # W 0 in the "largest error / tolerance" line would read as none), so only a failure shows
        if bad:
            self.cmp.report.worst["W"] = float("inf")
        if bad:
            shown = bad[:MAX_SHOWN]
            self.fail(
                f"{where} W (line 8)",
                f"{len(bad)} Catoni roots are not within the tolerance of 'W' of the "
                "candidate's value: the sign test of f at W -/+ (1e-12 / min q) fails",
                first=shown,
                candidate=[repr(float(W[t])) for t in shown],
                root_below=len(bad_lo),
                root_above=len(bad_hi),
                exact_sign_tests=exact_route,
            )

    def _fit(self, where, r, seen, L, active):
        """Line 9: D^ defined exactly on the support, a probability; its objective over every
        row against the reported one (feasibility) and against the judge's exact lower bound
        on the optimum (optimality, tolerance lp_optimality)."""
        H = self.H
        eta = r["eta_hat"]
        support = np.flatnonzero(seen > 0)
        on = seen > 0
        if not self.defined_as(f"{where} eta_hat", eta, on):
            return None
        outside = on & ~((eta >= 0) & (eta <= 1))
        if not self.entries(f"{where} eta_hat", "eta_hat is not a probability", outside, eta, np.clip(eta, 0, 1)):
            return None
        R = lp.risks(H, seen, L, eta, support)
        W, weight = r["W"], r["weight"]
        usable = active & np.isfinite(W) & np.isfinite(weight)
        rows = lp.all_rows(usable)
        value, values = lp.objective_at(R, weight, W, rows)
        scale = float(np.max(weight[usable] * (np.abs(W[usable]) + 1))) if len(rows) else 1.0
        error = scale * lp.risk_error(len(support)) * 2 + 8 * lp.U * scale
        reported = float(r["lp_objective"])
        t = TOL["lp_objective"]
        allowed = t.rel * abs(float(value)) + t.abs * scale
        excess = abs(reported - float(value)) - error
        self.cmp.report.worst["lp_objective"] = max(
            self.cmp.report.worst.get("lp_objective", 0.0), max(0.0, excess) / allowed
        )
        if excess > allowed:
            self.fail(
                f"{where} lp_objective (line 9)",
                "is not the objective of the candidate's D^ over every row (within the tolerance of 'lp_objective')",
                candidate=reported,
                at_its_D=float(value),
            )
        first = max(64, 2 * (len(support) + 1))
        upper = Fraction(float(value)) + Fraction(error)
        t = TOL["lp_optimality"]

        def allowance(bound):
            return Fraction(t.rel) * abs(bound) + Fraction(t.abs) * Fraction(scale)

        def enough(b):
            return upper - b <= allowance(b) / 10

        bound, rounds = Fraction(0), 0
        if self.nest is not None:
            # a nested class: one cycle of the binding constraints, verified exactly (properties/scale/lp_cycle.py)
            top = abs(float(value))
            nears = (1e-12 * top + 1e-15 * scale, 1e-9 * top + 1e-12 * scale, NEAR)
            bound, _ = lp_cycle.cycle_bound(self.nest, H, support, seen, L, weight, W, rows, values, eta, nears, enough)
            self.cycle_bounds += int(enough(bound))
        if not enough(bound):
            found, rounds = lp.optimality_bound(
                H, support, seen, L, weight, W, rows, values, first, enough=enough, near=NEAR
            )
            bound = max(bound, found)
            self.lp_solves += rounds
        allowed = allowance(bound)
        gap = upper - bound
        self.cmp.report.worst["lp_optimality"] = max(
            self.cmp.report.worst.get("lp_optimality", 0.0), float(max(gap, Fraction(0)) / allowed)
        )
        if gap > allowed:
            self.fail(
                f"{where} eta_hat (line 9)",
                "is not an optimal D^: its objective exceeds the judge's exact "
                "lower bound on the optimum (a dual certificate) by more than the tolerance of 'lp_optimality'",
                objective_at_candidate=float(value),
                lower_bound=float(bound),
                rounds=rounds,
            )
        return R, len(support)

    def _decisions(self, where, r, R, s_size, expect: Expect) -> bool:
        """Lines 10-12 from the judge's R_D and the candidate's previous Delta^."""
        l = expect.l
        num_h = self.H.shape[0]
        err_R = lp.risk_error(s_size)
        # R_D sums over S_l: the candidate's bound (and those derived from it) grows with |S_l|
        sum_scale = float(support_sum_scale(s_size))
        self.close("risk_hat", f"{where} risk_hat", r["risk_hat"], R, np.ones(num_h, bool), sum_scale)
        b2 = LD(self.beta2.numerator) / LD(self.beta2.denominator)
        P = R + b2 * expect.gap_prev.astype(LD)
        own = r["risk_hat"].astype(LD) + b2 * expect.gap_prev.astype(LD)
        h = int(r["h_star_hat"])
        penalty_scale = (1 + float(self.beta2)) * sum_scale
        tol_p = TOL["penalised"].abs * penalty_scale * (1 + JUDGE_MARGIN) + err_R
        if not 0 <= h < num_h:
            self.fail(f"{where} h_star_hat (line 10)", "is not a hypothesis index", candidate=h)
            return False
        best = int(np.argmin(P))
        if h != best:
            kind = divergence_of("calruption.h_star_tie")
            if kind is None:
                self.fail(
                    f"{where} h_star_hat (line 10)",
                    "is not the lowest-index argmin, which the table pins",
                    candidate=h,
                    exact=best,
                )
                return False
            if float(own[h] - own.min()) > tol_p:
                self.fail(
                    f"{where} h_star_hat (line 10)",
                    "is not a minimiser of the candidate's own reported values",
                    candidate=h,
                    its_value=float(own[h]),
                    its_minimum=float(own.min()),
                )
                return False
            if float(P[h] - P[best]) > tol_p:
                self.fail(
                    f"{where} h_star_hat (line 10)",
                    "is not a minimiser",
                    candidate=h,
                    exact=best,
                    candidate_value=float(P[h]),
                    minimum=float(P[best]),
                )
                return False
            self.cmp.diverge(
                kind,
                f"{where} h_star_hat",
                f"h {h} instead of {best}: exact values {float(P[h])!r} and {float(P[best])!r}",
            )
        gap = np.maximum(LD(2.0) ** -l, R - P[h])  # line 11
        self.close("gap_hat", f"{where} gap_hat (line 11)", r["gap_hat"], gap, np.ones(num_h, bool), penalty_scale)
        layers = r["layers"]
        if layers.shape != (l + 1, num_h):
            self.fail(f"{where} layers", "must be V^0..V^l", candidate=list(layers.shape), exact=[l + 1, num_h])
            return False
        eps = np.ldexp(1.0, -np.arange(l + 1))
        own_layers = r["gap_hat"][None, :] <= eps[:, None]
        if not self.entries(
            f"{where} layers (from the candidate's own gap_hat, line 12)",
            "layers",
            layers != own_layers,
            layers,
            own_layers,
        ):
            return False
        if not layers[0].all():
            self.fail(f"{where} layers[0]", "V^0 = H: Delta^ <= 1 always", missing=np.flatnonzero(~layers[0])[:5])
            return False
        exact_layers = gap[None, :] <= eps[:, None].astype(LD)
        tol_g = TOL["gap_hat"].abs * penalty_scale * (1 + JUDGE_MARGIN) + err_R
        for i, hh in np.argwhere(layers != exact_layers):
            if abs(float(gap[hh] - LD(eps[i]))) <= tol_g:
                self.cmp.diverge("layer_boundary", f"{where} V^{i} h {hh}", f"Delta^ {float(gap[hh])!r} at eps_{i}")
            else:
                self.fail(
                    f"{where} layer V^{i}", "membership differs from the exact one", h=int(hh), exact_gap=float(gap[hh])
                )
                return False
        return True

    def _next_q(self, where, r, rho_c, L, s_size):
        """Line 13 from the exact rho^ and the candidate's levels: q^x = max over pairs h < h'
        disagreeing at x of rho^ 4^(min level - l - 1); 0 where no pair disagrees. The pairs
        in decreasing value, each open point closed by the first that disagrees there. The
        tolerance's scale: |S_l| times the largest q (the candidate's rho^ may be a sum of
        its rounded marginals)."""
        H = self.H
        l = int(r["l"])
        m = H.shape[1]
        level = r["layers"].sum(axis=0) - 1
        if self.nest is not None:
            # a nested class: the pairs disagreeing at a point are a quadrant in the nesting order
            k = np.minimum(level[:, None], level[None, :])
            values = rho_c.astype(LD) / LD(L) * np.ldexp(LD(1), 2 * (k - l - 1))
            del k
            exact = nested.cut_max(values, self.nest)
            scale = float(s_size * exact.max()) if exact.size else 0.0
            self.close("next_q", f"{where} next_q (line 13)", r["next_q"], exact, np.ones(m, bool), scale)
            return
        i, j = np.nonzero(np.triu(rho_c > 0, 1))
        k = np.minimum(level[i], level[j])
        values = rho_c[i, j].astype(LD) / LD(L) * np.ldexp(LD(1), 2 * (k - l - 1))
        order = np.argsort(-values, kind="stable")
        exact = np.zeros(m, LD)
        open_ = H.min(axis=0) != H.max(axis=0)
        for b in range(0, len(order), 256):
            if not open_.any():
                break
            chunk = order[b : b + 256]
            cols = np.flatnonzero(open_)
            dis = H[i[chunk]][:, cols] != H[j[chunk]][:, cols]
            hit = dis.any(axis=0)
            exact[cols[hit]] = values[chunk[dis[:, hit].argmax(axis=0)]]
            open_[cols[hit]] = False
        scale = float(s_size * exact.max()) if exact.size else 0.0
        self.close("next_q", f"{where} next_q (line 13)", r["next_q"], exact, np.ones(m, bool), scale)


class _Rows:
    """exact[t] for an index (row, col) without the whole array: computes row `row`."""

    def __init__(self, rows_of):
        self.rows_of = rows_of

    def __getitem__(self, index):
        row, col = index
        return self.rows_of(slice(row, row + 1))[0, col]


def _show(value):
    if isinstance(value, (np.floating, float)):
        return repr(float(value))
    if isinstance(value, (np.integer, np.bool_)):
        return int(value)
    return str(value)
