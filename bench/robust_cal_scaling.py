"""How the exact reference scales with n: tape sampling, passive ERM and RobustCAL
(modified and vanilla) on the appendix counter-example with the burst adversary.

    python bench/robust_cal_scaling.py [--max-log2-n 18] [--repeats 3] [--json PATH]

Prints one row per n (best of `repeats` wall-clock times, microseconds per round)
and writes the figures as JSON (default bench/results/robust_cal_scaling.json)."""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report  # noqa: E402

import reference as R  # noqa: E402


def best_of(repeats, fn):
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-log2-n", type=int, default=10)
    parser.add_argument("--max-log2-n", type=int, default=18)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", default=str(Path(__file__).parent / "results" / "robust_cal_scaling.json"))
    args = parser.parse_args(argv)

    inst = R.instances.counterexample(Fraction(1, 2), Fraction(1, 128))
    rows = []
    print(f"{'n':>8} {'tape s':>8} {'passive s':>9} {'robust_cal s':>12} {'vanilla s':>9} {'us/round (tape+rcal)':>21}")
    for k in range(args.min_log2_n, args.max_log2_n + 1):
        n = 2**k
        adv = R.adversary.counterexample(n // 8, n)
        params = R.Params.paper(n, inst.num_hypotheses, Fraction(1, 20))
        t_tape, tape = best_of(args.repeats, lambda: R.sample_tape(inst, adv, 0))
        t_passive, _ = best_of(args.repeats, lambda: R.passive(inst.hypotheses, tape, params))
        t_rcal, _ = best_of(args.repeats, lambda: R.robust_cal(inst.hypotheses, tape, params))
        t_van, _ = best_of(args.repeats, lambda: R.robust_cal(inst.hypotheses, tape, params, vanilla=True))
        per_round = (t_tape + t_rcal) / n * 1e6
        rows.append(
            {
                "n": n,
                "tape_s": t_tape,
                "passive_s": t_passive,
                "robust_cal_s": t_rcal,
                "robust_cal_vanilla_s": t_van,
                "us_per_round_tape_plus_robust_cal": per_round,
            }
        )
        print(f"{n:>8} {t_tape:>8.3f} {t_passive:>9.3f} {t_rcal:>12.3f} {t_van:>9.3f} {per_round:>21.2f}")
    report = {
        "benchmark": "robust_cal_scaling",
        "instance": "counterexample(1/2, 1/128)",
        "adversary": "counterexample(tau = n/8, n)",
        "timing": f"best of {args.repeats}, wall clock",
        "rows": rows,
    }
    _report.write(report, args.json)
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
