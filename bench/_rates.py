"""Growth exponents from a theory sweep's rows: log-log least-squares slopes of a per-point
mean against n (or C_total), with a percentile bootstrap interval over seeds, set beside the
slope of the theorem's own bound over the same points (its log factors included, at the
paper's constants) and the rate the theorem states.

The label fits use the upper half of the n grid (at least two points): the exponent of a
bound is a statement about large n, and at small n every active learner still asks for
nearly every label. Excess risk is exactly 0 from some finite n on (h_out = h^*): its fit
uses the grid points with a positive mean, and the n from which it is 0 is reported. CALruption points where no epoch completes are left out (no epoch, no algorithm).
"""

from __future__ import annotations

import math

import numpy as np

BOOTSTRAP_REPS = 400
BOOTSTRAP_SEED = 20261204  # fixed: the same rows give the same intervals

# the rate each theorem states, read off reference/bounds.py's forms (beta, beta1 ~ log log n)
STATED = {
    ("RobustCAL", "labels", "n"): "theta beta (R* n + log n): n^1 log log n when R* > 0 (Thm 4.1)",
    (
        "CALruption",
        "labels",
        "n",
    ): "theta (R*^2 n + R* sqrt(n beta1) + beta1 log^2 n + Cbar log n): n^1 when R* > 0 (Thm 5.1)",
    ("passive", "excess_risk", "n"): "sqrt(R* log(|H|/delta)/n) + R* C/n: n^-1/2, n^0 when C ~ n (Thm 3.1)",
    (
        "RobustCAL",
        "excess_risk",
        "n",
    ): "sqrt(R* beta/n) + beta/n + R* C/n: n^-1/2 (log log n)^1/2, n^0 when C ~ n (Thm 4.1)",
    ("CALruption", "excess_risk", "n"): "sqrt(beta1/n) + Cbar/n: n^-1/2 (log log n)^1/2, n^0 when C ~ n (Thm 5.1)",
    ("RobustCAL", "labels", "c_total"): "no C_total term (within C_[0,t] <= t/8): C^0 (Thm 4.1)",
    ("CALruption", "labels", "c_total"): "theta(.. + 64 Cbar/n) Cbar log n: up to C^1 (Thm 5.1)",
}
BOUND_OF = {"passive": "3.1", "RobustCAL": "4.1", "CALruption": "5.1"}


def slope(xs, ys) -> float:
    """The least-squares slope of log y against log x (every x, y > 0)."""
    lx, ly = np.log(np.asarray(xs, dtype=float)), np.log(np.asarray(ys, dtype=float))
    lx = lx - lx.mean()
    return float((lx * (ly - ly.mean())).sum() / (lx * lx).sum())


def bootstrap_slope(points, reps: int = BOOTSTRAP_REPS, seed: int = BOOTSTRAP_SEED) -> dict | None:
    """points: [(x, [value per seed])], x distinct and > 0. The slope of the seeds' means, and
    its 95% percentile interval from resampling the seeds of every point (each point's runs
    are independent of the others'). None when fewer than two points have a positive mean;
    a resample with a mean of 0 somewhere has no log and is dropped (the interval is None when
    more than half are)."""
    points = [(x, np.asarray(v, dtype=float)) for x, v in points if len(v)]
    if len(points) < 2 or any(v.mean() <= 0 for _, v in points):
        return None
    xs = [x for x, _ in points]
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(reps):
        means = [rng.choice(v, size=len(v), replace=True).mean() for _, v in points]
        if min(means) > 0:
            found.append(slope(xs, means))
    interval = (float(np.percentile(found, 2.5)), float(np.percentile(found, 97.5))) if len(found) * 2 > reps else None
    return {
        "slope": slope(xs, [v.mean() for _, v in points]),
        "ci_low": interval[0] if interval else None,
        "ci_high": interval[1] if interval else None,
        "x_low": min(xs),
        "x_high": max(xs),
        "points": len(xs),
    }


def fit_grid(ns) -> list[int]:
    """The upper half of the n grid in log scale, at least its two largest values."""
    ns = sorted(set(ns))
    middle = (math.log(ns[0]) + math.log(ns[-1])) / 2
    upper = [n for n in ns if math.log(n) >= middle - 1e-9]
    return upper if len(upper) >= 2 else ns[-2:]


def _bound_value(row, theorem: str, quantity: str, form: str = "corrected"):
    for b in row["bounds"]:
        if b["theorem"] == theorem and b["quantity"] == quantity and b["form"] == form:
            return b["value"]
    return None


def _bound_slope(rows, theorem, quantity, x_of) -> float | None:
    pts = [(x_of(r), _bound_value(r, theorem, quantity)) for r in rows]
    if len(pts) < 2 or any(v is None or v <= 0 or x <= 0 for x, v in pts):
        return None
    return slope([x for x, _ in pts], [v for _, v in pts])


def rates(summary, runs, order) -> list[dict]:
    """Per (algorithm, family, budget): labels ~ n^a and excess risk ~ n^b over the fit grid;
    per (algorithm, family) at the largest n: labels ~ C_total^c over the budgets with
    C_total > 0. `runs` maps (family, algorithm, budget, n) to the rows' results."""
    rows = {(r["family"], r["algorithm"], r["budget"], r["n"]): r for r in summary["rows"]}
    keys = sorted(
        {(f, a, b) for f, a, b, _ in rows},
        key=lambda k: (order["families"].index(k[0]), order["algorithms"].index(k[1]), order["budgets"].index(k[2])),
    )
    grid = fit_grid([n for *_, n in rows]) if rows else []
    out = []
    for fam, algorithm, budget in keys:
        everything = [rows[(fam, algorithm, budget, n)] for n in grid if (fam, algorithm, budget, n) in rows]
        here = [r for r in everything if not r.get("no_epoch")]
        # excess risk reaches exactly 0 (h_out = h^*) at finite n, where a log does not exist: its
        # exponent is fitted over the grid points (all of them, not only the upper half) where the
        # mean is positive, and zero_from says from which n on every seed's excess risk is 0
        series = sorted(
            (r for r in summary["rows"] if (r["family"], r["algorithm"], r["budget"]) == (fam, algorithm, budget)),
            key=lambda r: r["n"],
        )
        series = [r for r in series if not r.get("no_epoch")]
        zero_from = None
        for r in reversed(series):
            if r["excess_risk_max"] > 0:
                break
            zero_from = r["n"]
        for quantity, field in (("labels", "labels"), ("excess_risk", "excess_risk")):
            fitted = here if quantity == "labels" else [r for r in series if r["excess_risk_mean"] > 0]
            values = [
                (r["n"], [float(_number(x[field])) for x in runs[(fam, algorithm, budget, r["n"])]]) for r in fitted
            ]
            fit = bootstrap_slope(values)
            theorem = BOUND_OF.get(algorithm)
            out.append(
                {
                    "family": fam,
                    "algorithm": algorithm,
                    "budget": budget,
                    "against": "n",
                    "quantity": quantity,
                    "fit": fit,
                    "zero_from": zero_from if quantity == "excess_risk" else None,
                    "no_epoch": bool(everything) and not here,
                    "bound_slope": _bound_slope(fitted, theorem, quantity, lambda r: r["n"]) if theorem else None,
                    "stated": STATED.get((algorithm, quantity, "n")),
                }
            )
    top = max(grid) if grid else None
    for fam in order["families"]:
        for algorithm in order["algorithms"]:
            here = [
                rows[(fam, algorithm, b, top)]
                for b in order["budgets"]
                if (fam, algorithm, b, top) in rows and rows[(fam, algorithm, b, top)]["c_total"] > 0
            ]
            here = [r for r in here if not r.get("no_epoch")]
            if len(here) < 2:
                continue
            values = [
                (r["c_total"], [float(x["labels"]) for x in runs[(fam, algorithm, r["budget"], top)]]) for r in here
            ]
            theorem = BOUND_OF.get(algorithm)
            out.append(
                {
                    "family": fam,
                    "algorithm": algorithm,
                    "budget": "all > 0",
                    "against": "c_total",
                    "n": top,
                    "quantity": "labels",
                    "fit": bootstrap_slope(values),
                    "zero_from": None,
                    "no_epoch": False,
                    "bound_slope": _bound_slope(here, theorem, "labels", lambda r: r["c_total"])
                    if theorem and algorithm != "passive"
                    else None,
                    "stated": STATED.get((algorithm, "labels", "c_total")),
                }
            )
    return out


def _number(text):
    from fractions import Fraction

    return Fraction(text) if isinstance(text, str) else text
