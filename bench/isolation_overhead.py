"""What it costs to judge a candidate in a worker process (properties/judge/isolation.py)
rather than in the judge's own process: per call, on small cases and on a large tape.

    python bench/isolation_overhead.py [--repeats 30] [--json PATH]

The candidate is the reference itself, once in-process and once isolated, so the
difference is the isolation alone: pickling the inputs, two pipe hops, turning the
result into plain data and JSON in the worker, and decoding JSON in the judge (the typed
decoding of a trace into the reference's dataclasses is paid by both routes). Prints
the median wall-clock ms per call of each and their difference, plus the start-up of
a worker, and writes the figures as JSON (default bench/results/isolation_overhead.json).
Target: <= 5 ms of overhead per call on small cases."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report  # noqa: E402

from properties.core.candidate import call, run_algorithm  # noqa: E402
from properties.core.contract import decode_enclosure, decode_epoch_result  # noqa: E402
from properties.judge.load import load_impl  # noqa: E402
from properties.strategies import fixed_crosscheck_cases  # noqa: E402
from reference import adversary, instances, sample_tape  # noqa: E402
from reference.calruption import EpochCounts, EpochState  # noqa: E402
from reference.params import Params  # noqa: E402


def _cases():
    small = min(fixed_crosscheck_cases(20), key=lambda c: c.tape.n)
    medium = max(fixed_crosscheck_cases(20), key=lambda c: c.tape.n)
    xi = instances.counterexample(Fraction(1, 2), Fraction(1, 128))
    big_tape = sample_tape(xi, adversary.counterexample(1 << 15, 1 << 16), 0)
    big = type(small)(
        xi, adversary.counterexample(1 << 15, 1 << 16), 0, Params.paper(1 << 16, xi.num_hypotheses, Fraction(1, 10))
    )
    assert big.tape == big_tape
    H = medium.instance.hypotheses
    m = len(H[0])
    state = EpochState(1, 1, 64, (Fraction(1),) * m, (Fraction(0),) * len(H))
    counts = EpochCounts(tuple([64 // m] * (m - 1) + [64 - (64 // m) * (m - 1)]), tuple((1, 1) for _ in range(m)))
    params = Params.scaled(600, len(H), Fraction(1, 10), Fraction(1, 4), Fraction(16))  # |I_1| = 64
    return [
        (
            "catoni_root (3 values)",
            lambda c: decode_enclosure("b", call("b", c, "catoni_root", [-2, 1, 3], [5, 7, 2], 1)),
        ),
        (f"passive, n = {small.tape.n}", lambda c: run_algorithm("b", c, "passive", small)),
        (f"robust_cal, n = {small.tape.n}", lambda c: run_algorithm("b", c, "robust_cal", small)),
        (f"calruption, n = {small.tape.n}", lambda c: run_algorithm("b", c, "calruption", small)),
        (
            f"calruption_epoch, |H| = {len(H)}, |X| = {m}",
            lambda c: decode_epoch_result("b", call("b", c, "calruption_epoch", H, state, counts, params), m, len(H)),
        ),
        (f"robust_cal, n = {medium.tape.n}", lambda c: run_algorithm("b", c, "robust_cal", medium)),
        (f"calruption, n = {medium.tape.n}", lambda c: run_algorithm("b", c, "calruption", medium)),
        (f"robust_cal, n = {big.tape.n} (large tape)", lambda c: run_algorithm("b", c, "robust_cal", big)),
    ]


def _median_ms(function, candidate, repeats: int) -> float:
    function(candidate)  # warm: caches, the worker's first imports
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function(candidate)
        times.append(time.perf_counter() - started)
    return 1000 * statistics.median(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--json", default=str(_report.RESULTS / "isolation_overhead.json"))
    args = parser.parse_args(argv)
    starts = []
    for _ in range(5):
        started = time.perf_counter()
        load_impl("reference", isolate=True).close()
        starts.append(1000 * (time.perf_counter() - started))
    rows = []
    with load_impl("reference") as in_process, load_impl("reference", isolate=True) as isolated:
        for label, function in _cases():
            repeats = args.repeats if "large" not in label else max(3, args.repeats // 10)
            a, b = _median_ms(function, in_process, repeats), _median_ms(function, isolated, repeats)
            rows.append(
                {
                    "call": label,
                    "in_process_ms": round(a, 3),
                    "isolated_ms": round(b, 3),
                    "overhead_ms": round(b - a, 3),
                }
            )
    print(f"worker start-up (import of the reference included): median {statistics.median(starts):.0f} ms")
    print(f"{'call':<44}{'in-process ms':>15}{'isolated ms':>13}{'overhead ms':>13}")
    for row in rows:
        print(f"{row['call']:<44}{row['in_process_ms']:>15.2f}{row['isolated_ms']:>13.2f}{row['overhead_ms']:>13.2f}")
    _report.write(
        {"worker_start_ms": round(statistics.median(starts), 1), "calls": rows, "target_overhead_ms_small_cases": 5},
        args.json,
    )
    print(f"written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
