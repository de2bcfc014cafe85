"""A 4-epoch CALruption run on 16 points x 16 hypotheses (scaled constants,
beta1 = 16: epochs of 64, 256, 1024 and 4096 rounds), timed per epoch.

    python bench/calruption_bench.py [--seeds 3] [--json PATH]

Prints the per-epoch and total wall-clock seconds (tape sampling excluded) and writes
them as JSON (default bench/results/calruption.json)."""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report  # noqa: E402

import reference as R  # noqa: E402

# the package exports the function `calruption`, which hides the module of that name
C = importlib.import_module("reference.calruption")


def instance_16x16():
    base = R.instances.thresholds(16)
    return R.Instance(base.nu, base.eta, base.hypotheses[:16])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--json", default=str(Path(__file__).parent / "results" / "calruption.json"))
    args = parser.parse_args(argv)
    inst = instance_16x16()
    n = 64 + 256 + 1024 + 4096
    params = R.Params.scaled(n, inst.num_hypotheses)
    runs = []
    epoch_times = []
    original = C.calruption_epoch

    def timed_epoch(*a, **k):
        start = time.perf_counter()
        result = original(*a, **k)
        epoch_times.append(time.perf_counter() - start)
        return result

    C.calruption_epoch = timed_epoch
    try:
        for seed in range(args.seeds):
            tape = R.sample_tape(inst, R.adversary.misspecification(Fraction(1, 16), [Fraction(1, 2)] * 16, n), seed)
            epoch_times.clear()
            start = time.perf_counter()
            trace = C.calruption(inst.hypotheses, tape, params)
            total = time.perf_counter() - start
            runs.append(
                {
                    "seed": seed,
                    "total_s": total,
                    "epoch_s": list(epoch_times),
                    "output": trace.output,
                    "best": inst.best,
                    "labels": trace.labels_requested,
                    "lp_methods": [e.lp_method for e in trace.epochs],
                }
            )
            print(
                f"seed {seed}: total {total:.2f} s, epochs "
                + ", ".join(f"{t:.2f}" for t in epoch_times)
                + f" s; output h{trace.output} (h* = h{inst.best}), labels {trace.labels_requested}/{n}"
            )
    finally:
        C.calruption_epoch = original
    report = {
        "benchmark": "calruption_4_epochs_16x16",
        "rounds": n,
        "runs": runs,
        "max_total_s": max(r["total_s"] for r in runs),
    }
    _report.write(report, args.json)
    print(f"max total {report['max_total_s']:.2f} s; wrote {args.json}")


if __name__ == "__main__":
    main()
