"""Certified exact LP (reference/lp.py) on the shape of CALruption's fit (Algorithm 2, line 9).

    python bench/lp_bench.py [--instances 10] [--sizes 56x8,240x16,240x32,992x64] [--json PATH]

An instance with H hypotheses and m support points has H(H−1) rows (ordered pairs) and
m + 1 variables: η_x ∈ [0, 1] and a free s; each row is
w_r·(a_r + Σ_x b_{r,x} η_x − W_r) ≤ s with b_{r,x} ∈ {−2p_x, 0, 2p_x}, p_x = k_x/N, a
rational weight w_r > 0 with ~64-bit numerator and denominator, and W_r a rational with
~64-bit denominator; minimise s. Variants: "random" (W_r = the true difference plus noise
of up to 0.1); "near-tie" (W_r = the true difference rounded to its 64-bit denominator, so
the optimum is ~1e-18 and the active rows tie to within rounding, far below HiGHS's
tolerances); "degenerate" (uniform p_x scaled to entries in {−1, 0, 1}, unit weights, W_r
on a coarse grid and duplicated rows, so many rows tie exactly).

For each size and variant, prints the median seconds of HiGHS alone (one solve of the
float copy), of the rest of `solve_lp` (input validation, active-set guesses, exact
certificate, refinement re-solves, fallback), and of the whole `solve_lp`; the fraction of
instances that needed iterative refinement and the fraction that needed the exact-simplex
fallback, and the most simplex pivots. Writes the figures as JSON (default
bench/results/lp.json)."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report  # noqa: E402

from reference import lp  # noqa: E402

VARIANTS = ("random", "near-tie", "degenerate")


def fit_instance(num_hypotheses: int, m: int, seed: int, variant: str = "random"):
    """(c, A_ub, b_ub, lower, upper) of line 9 for random hypotheses on m points.

    R_D(h) − R_D(h') = Σ_{x ∈ Dis(h,h')} p_x·σ_x·(1 − 2η_x) with σ_x = +1 if h(x) = 1 else −1,
    i.e. a_r = Σ p_x σ_x and b_{r,x} = −2 p_x σ_x. W is antisymmetric and w symmetric in
    (h, h'), as the RobustEstimator and sqrt(min q / ρ̂) are."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    degenerate = variant == "degenerate"
    rng = random.Random(seed * 7919 + m * 31 + num_hypotheses + 10**6 * VARIANTS.index(variant))
    hyps: list[tuple[int, ...]] = []
    while len(hyps) < num_hypotheses:
        h = tuple(rng.randint(0, 1) for _ in range(m))
        if h not in hyps or (degenerate and rng.random() < 0.1):
            hyps.append(h)
    if degenerate:
        p = [Fraction(1, m)] * m
    else:
        counts = [rng.randint(1, 1000) for _ in range(m)]
        N = sum(counts)
        p = [Fraction(k, N) for k in counts]
    eta_true = [Fraction(rng.randint(0, 100), 100) for _ in range(m)]
    W, w = {}, {}
    for i in range(num_hypotheses):
        for k in range(i + 1, num_hypotheses):
            diff = sum(
                p[x] * (1 if hyps[i][x] else -1) * (1 - 2 * eta_true[x]) for x in range(m) if hyps[i][x] != hyps[k][x]
            )
            if degenerate:
                # coarse grid in the scaled units (m/2)·difference: many exact ties
                W[i, k] = Fraction(round(float(diff) * m / 2 + rng.choice([-1, 0, 0, 1])), 1) * 2 / m
                w[i, k] = Fraction(1)
            else:
                den = rng.randrange(2**62, 2**64)
                noise = Fraction(rng.randint(-100, 100), 1000) if variant == "random" else 0
                W[i, k] = Fraction(round((diff + noise) * den), den)
                w[i, k] = Fraction(rng.randrange(2**62, 2**64), rng.randrange(2**62, 2**64)) * rng.randint(1, 20)
            W[k, i], w[k, i] = -W[i, k], w[i, k]
    A, b = [], []
    for i in range(num_hypotheses):
        for k in range(num_hypotheses):
            if i == k:
                continue
            a = Fraction(0)
            coef = [Fraction(0)] * m
            for x in range(m):
                if hyps[i][x] != hyps[k][x]:
                    sigma = 1 if hyps[i][x] else -1
                    a += p[x] * sigma
                    coef[x] = -2 * p[x] * sigma
            scale = w[i, k] * (Fraction(m, 2) if degenerate else 1)
            A.append([scale * v for v in coef] + [Fraction(-1)])
            b.append(scale * (W[i, k] - a))
    if degenerate:  # duplicated rows
        for r in rng.sample(range(len(A)), len(A) // 8):
            A.append(list(A[r]))
            b.append(b[r])
    c = [Fraction(0)] * m + [Fraction(1)]
    lower = [Fraction(0)] * m + [None]
    upper = [Fraction(1)] * m + [None]
    return c, A, b, lower, upper


def hyps_for_rows(rows: int) -> int:
    h = 2
    while h * (h - 1) < rows:
        h += 1
    if h * (h - 1) != rows:
        raise ValueError(f"{rows} rows is not H(H−1) for an integer H")
    return h


def time_instance(inst):
    """(HiGHS seconds, total seconds, solution) for one instance."""
    # HiGHS alone, on the float copy solve_lp builds (private API: bench only)
    view = lp._FloatLP.of(lp._Problem(*inst))
    start = time.perf_counter()
    view.solve()
    t_highs = time.perf_counter() - start
    start = time.perf_counter()
    sol = lp.solve_lp(*inst)
    t_total = time.perf_counter() - start
    return t_highs, t_total, sol


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=10)
    parser.add_argument("--sizes", default="56x8,240x16,240x32,992x64")
    parser.add_argument("--json", default=str(Path(__file__).parent / "results" / "lp.json"))
    args = parser.parse_args(argv)

    rows_out = []
    print(
        f"{'rows x pts':>11} {'variant':>10} {'highs s':>9} {'exact s':>9} {'total s':>9} {'max total':>9} "
        f"{'refined':>7} {'fallback':>8} {'pivots':>6}"
    )
    for size in args.sizes.split(","):
        rows, m = (int(v) for v in size.split("x"))
        H = hyps_for_rows(rows)
        for variant in VARIANTS:
            highs, exact, total, refined, fallback, pivots = [], [], [], 0, 0, []
            for seed in range(args.instances):
                inst = fit_instance(H, m, seed, variant)
                t_h, t_t, sol = time_instance(inst)
                assert not lp.check_optimal(*inst, sol)
                highs.append(t_h)
                total.append(t_t)
                exact.append(max(0.0, t_t - t_h))
                fallback += sol.method == lp.METHOD_SIMPLEX
                refined += sol.refinements > 0
                pivots.append(sol.pivots)
            row = {
                "rows": len(inst[1]),
                "support_points": m,
                "hypotheses": H,
                "variables": m + 1,
                "variant": variant,
                "instances": args.instances,
                "median_highs_s": statistics.median(highs),
                "median_exact_s": statistics.median(exact),
                "median_total_s": statistics.median(total),
                "max_total_s": max(total),
                "refinement_fraction": refined / args.instances,
                "fallback_fraction": fallback / args.instances,
                "max_pivots": max(pivots),
            }
            rows_out.append(row)
            print(
                f"{size:>11} {variant:>10} {row['median_highs_s']:>9.4f} {row['median_exact_s']:>9.4f} "
                f"{row['median_total_s']:>9.4f} {row['max_total_s']:>9.4f} {row['refinement_fraction']:>7.2f} "
                f"{row['fallback_fraction']:>8.2f} "
                f"{row['max_pivots']:>6}"
            )
    report = {
        "benchmark": "lp",
        "what": "reference.lp.solve_lp on CALruption line-9 fit instances (bench/lp_bench.py fit_instance)",
        "timing": "median over instances, wall clock; exact = total − one HiGHS solve",
        "rows": rows_out,
    }
    _report.write(report, args.json)
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
