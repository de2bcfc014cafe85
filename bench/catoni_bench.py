"""Cost of one certified Catoni root (reference.catoni.catoni_root, width 2^-64) against
the number of distinct values k and the total count N, and of the alpha and the weight
CALruption computes with it for every pair of hypotheses.

    python bench/catoni_bench.py [--cases 50] [--seed 0] [--json PATH]

Data as in CALruption's line 8: importance-weighted loss differences 0 and +-1/q for
query probabilities q in [1/100, 1] (denominators <= 1000), the counts a random
composition of N into k positive parts, and alpha = catoni_alpha(beta3, min q, N, rho^)
with the paper's beta3 = 2 ln(3/2 log2(N) |H|^2 / delta) (|H| = 8, delta = 1/20).
Two families: "random" (k - 1 values +-1/q with random signs and q) and "paired", the
shape of a real CALruption epoch's loss differences for a pair of hypotheses (0 and
+1/q_j, -1/q_j for one or two q_j, so k = 3 or 5; N of an epoch of ~10^6-10^7 rounds;
beta3 of the paper's constants at n = 10^12, |H| = 64, delta = 1/10).
Prints one row per (family, k, N): median, 90th percentile and maximum wall-clock ms per
root over `cases` random cases; then the median microseconds per `catoni_alpha` and per
weight `sqrt_lower(min q / rho^)` over all cases (each call repeated, the
beta3 enclosure being shared by all of them as in an epoch). Writes the figures as JSON
(default bench/results/catoni.json). The ln table is built once per process (a cold
start, timed separately) before the timed cases."""

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

from reference.catoni import catoni_alpha, catoni_root  # noqa: E402
from reference.certified import ScaledLog, sqrt_lower  # noqa: E402
from reference.params import calruption_log_argument  # noqa: E402

DISTINCT = (2, 4, 8)
TOTALS = (10**3, 10**6, 10**9)
PAIRED_DISTINCT = (3, 5)
PAIRED_TOTALS = (10**6, 10**7)
# beta3 of the paper's constants for n = 10^12 rounds, |H| = 64, delta = 1/10
PAIRED_BETA3 = ScaledLog(Fraction(2), calruption_log_argument(10**12, 64, Fraction(1, 10)))


def random_case(rng: random.Random, k: int, total: int):
    values = {Fraction(0)}
    qs = {}
    while len(values) < k:
        q = Fraction(rng.randint(10, 1000), 1000)
        v = rng.choice((-1, 1)) / q
        if v not in values:
            values.add(v)
            qs[v] = q
    values = sorted(values)
    cuts = sorted(rng.sample(range(1, total), k - 1))
    counts = [b - a for a, b in zip([0] + cuts, cuts + [total])]
    beta3 = ScaledLog(Fraction(2), calruption_log_argument(total, 8, Fraction(1, 20)))
    rho_hat = Fraction(rng.randint(1, 1000), 1000)
    alpha = catoni_alpha(beta3, min(qs.values()), total, rho_hat)
    return values, counts, alpha


def paired_case(rng: random.Random, k: int, total: int):
    """0 and +-1/q_j for (k - 1)/2 query probabilities q_j: the loss differences of two
    hypotheses on the points where they disagree, weighted by 1/q."""
    qs = set()
    while len(qs) < (k - 1) // 2:
        qs.add(Fraction(rng.randint(10, 1000), 1000))
    values = sorted([Fraction(0)] + [s / q for q in qs for s in (-1, 1)])
    cuts = sorted(rng.sample(range(1, total), k - 1))
    counts = [b - a for a, b in zip([0] + cuts, cuts + [total])]
    rho_hat = Fraction(rng.randint(1, 1000), 1000)
    alpha = catoni_alpha(PAIRED_BETA3, min(qs), total, rho_hat)
    return values, counts, alpha, (PAIRED_BETA3, min(qs), total, rho_hat)


def per_call_us(fn, args, repeats=20):
    start = time.perf_counter()
    for _ in range(repeats):
        fn(*args)
    return (time.perf_counter() - start) / repeats * 1e6


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", default=str(Path(__file__).parent / "results" / "catoni.json"))
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    cold_s, _ = timed(lambda: catoni_root(*random_case(rng, 2, 1000)))
    print(f"cold start (first call, builds the ln table): {cold_s * 1e3:.1f} ms")
    rows = []
    alpha_us, weight_us = [], []
    print(f"{'family':>7} {'k':>3} {'N':>12} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} {'exact':>6}")
    families = [("random", k, total) for k in DISTINCT for total in TOTALS]
    families += [("paired", k, total) for k in PAIRED_DISTINCT for total in PAIRED_TOTALS]
    for family, k, total in families:
        times, exact = [], 0
        for _ in range(args.cases):
            if family == "random":
                values, counts, alpha = random_case(rng, k, total)
            else:
                values, counts, alpha, alpha_args = paired_case(rng, k, total)
                alpha_us.append(per_call_us(catoni_alpha, alpha_args))
                weight_us.append(per_call_us(sqrt_lower, (alpha_args[1] / alpha_args[3],)))
            seconds, enclosure = timed(lambda: catoni_root(values, counts, alpha))
            assert enclosure.width <= Fraction(1, 2**64)
            times.append(seconds * 1e3)
            exact += enclosure.exact
        times.sort()
        row = {
            "family": family,
            "k": k,
            "N": total,
            "cases": args.cases,
            "median_ms": statistics.median(times),
            "p90_ms": times[int(0.9 * (len(times) - 1))],
            "max_ms": times[-1],
            "exact_points": exact,
        }
        rows.append(row)
        print(
            f"{family:>7} {k:>3} {total:>12} {row['median_ms']:>10.3f} {row['p90_ms']:>8.3f} {row['max_ms']:>8.3f}"
            f" {exact:>6}"
        )
    alpha_median, weight_median = statistics.median(alpha_us), statistics.median(weight_us)
    print(
        f"catoni_alpha: median {alpha_median:.1f} us per call; weight sqrt_lower(min q / rho^): median "
        f"{weight_median:.1f} us per call ({len(alpha_us)} paired cases)"
    )
    report = {
        "benchmark": "catoni_root",
        "width": "2^-64",
        "data": "0 and +-1/q, q in [1/100, 1] with denominator <= 1000; counts a random composition of N; "
        "random: k - 1 values with random signs; paired: +1/q_j and -1/q_j for (k - 1)/2 q_j",
        "alpha": "random: catoni_alpha(2 ln(3/2 log2(N) 8^2 / (1/20)), min q, N, rho^ ~ U{1/1000..1}); "
        "paired: catoni_alpha(2 ln(3/2 39 64^2 / (1/10)), min q, N, rho^)",
        "timing": "wall clock per call, after a warm-up call (the ln table is built once per process)",
        "cold_start_ms": cold_s * 1e3,
        "seed": args.seed,
        "rows": rows,
        "catoni_alpha_median_us": alpha_median,
        "sqrt_lower_median_us": weight_median,
    }
    _report.write(report, args.json)
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
