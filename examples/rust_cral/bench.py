"""Time one call of the Rust program per algorithm on a 2^14-round tape (inline JSON and
.npy), next to the Python reference on the same case.

    python examples/rust_cral/bench.py [--binary PATH] [--rounds 16384] [--repeat 5]

The case: 8 points, 8 hypotheses (one duplicated, one complement), a misspecification
adversary, the scaled parameters. Each figure is the median wall time of --repeat calls
of the whole process (reading the request, the run, writing the trace)."""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import ALGORITHMS, ROOT, compare, reference_trace, request_for, run_binary  # noqa: E402

from properties.core.case import Case  # noqa: E402
from reference import Instance, Params, adversary  # noqa: E402


def bench_case(n: int) -> Case:
    F = Fraction
    nu = [F(w, 64) for w in (20, 8, 8, 3, 1, 12, 4, 8)]
    eta = [F(0), F(1), F(1, 2), F(1, 8), F(7, 8), F(1, 4), F(3, 4), F(1, 16)]
    H = [
        tuple((h >> x) & 1 for x in range(8))
        for h in (0b10110010, 0b10110011, 0b00110010, 0b11110000, 0b10010110, 0b01001101, 0b10110010, 0b00000110)
    ]
    instance = Instance(nu, eta, H)
    adv = adversary.misspecification(F(1, 8), [F(1, 2)] * 8, n)
    return Case(instance, adv, 7, Params.scaled(n, len(H)))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / "examples/rust_cral/target/release/rust_cral"))
    parser.add_argument("--rounds", type=int, default=1 << 14)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    case = bench_case(args.rounds)
    _ = case.tape  # sampled once, outside the timings
    print(f"{args.rounds} rounds, |H| = 8, m = 8; median of {args.repeat} calls")
    for algorithm in ALGORITHMS:
        figures = {}
        for npy in (False, True):
            times = []
            for _ in range(args.repeat):
                with tempfile.TemporaryDirectory() as folder:
                    ours, seconds = run_binary(
                        args.binary, request_for(case, algorithm, Path(folder), npy), Path(folder)
                    )
                times.append(seconds)
            stats = {"enclosures": 0, "identical_enclosures": 0}
            problems = compare(case, algorithm, ours, stats)
            figures["npy" if npy else "json"] = (statistics.median(times), not problems)
        start = time.perf_counter()
        reference_trace(case, algorithm)
        ref_seconds = time.perf_counter() - start
        print(
            f"{algorithm:20s} json tape {figures['json'][0] * 1000:7.1f} ms   npy tape {figures['npy'][0] * 1000:7.1f} ms"
            f"   agrees with the reference: {figures['json'][1] and figures['npy'][1]}"
            f"   (reference in-process: {ref_seconds * 1000:.1f} ms)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
