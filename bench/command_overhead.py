"""What the command route (docs/protocol.md) costs per call on top of the program's own time.

    python bench/command_overhead.py [--repeats 15] [--program CMD] [--out PATH]

For each algorithm and n in 2^10, 2^12, 2^14 (|H| = 8 thresholds on 8 points, a clean
stream, scaled constants), the program answers with a result prepared beforehand
(a shell line that reads the request's first bytes and cats the prepared
document, so its own work is a shell, a head and a cat). The
overhead is the median wall time of one call through the harness (write the request --
the tape inline as JSON, or as .npy files -- start the program in its own process
group, read, parse and schema-validate the result, decode it into the reference's
trace) minus the median wall time of the same command run on its own. With --program, a
real program (e.g. the Rust example) is measured the same way (its own time: the
program run on the same request file, directly).

Writes bench/results/command_overhead.json; the issue's target is under 50 ms per call
for n <= 2^14."""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report  # noqa: E402

import reference as R  # noqa: E402
from properties.command import CommandCandidate  # noqa: E402
from properties.impl import run_algorithm  # noqa: E402

ALGORITHMS = ("passive", "robust_cal", "calruption")
SIZES = (2**10, 2**12, 2**14)
TARGET_MS = 50.0


class _Case:
    def __init__(self, n: int):
        self.instance = R.instances.thresholds(8)
        self.tape = R.sample_tape(self.instance, R.adversary.clean(n), seed=1)
        self.params = R.Params.scaled(n, self.instance.num_hypotheses, Fraction(1, 10))


def _median_ms(function, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def _standalone(argv: list[str], stdin: bytes) -> None:
    subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def measure(case: _Case, algorithm: str, repeats: int, tape_format: str, program: str | None) -> dict:
    scratch = tempfile.mkdtemp(prefix="cral-bench-")
    run = getattr(R, algorithm.replace("_vanilla", ""))
    result_path = os.path.join(scratch, "result.json")
    with open(result_path, "w") as handle:
        json.dump(R.trace_to_json(run(case.instance.hypotheses, case.tape, case.params)), handle)
    describe_path = os.path.join(scratch, "describe.json")
    with open(describe_path, "w") as handle:
        json.dump({"format": "cral-describe", "version": 1, "implements": list(ALGORITHMS), "arithmetic": "exact",
                   "tape_formats": ["json", "npy"]}, handle)
    # the prepared program: the describe document for describe, else the result
    prepared = (f'case "$(head -c 80 {{request}})" in *describe*) cat {shlex.quote(describe_path)};; '
                f'*) cat {shlex.quote(result_path)};; esac')
    command = program or prepared
    candidate = CommandCandidate(command, tape_format=tape_format)
    try:
        run_algorithm("bench", candidate, algorithm, case)  # warm: the tape's encoding is cached per tape,
        candidate._tapes.clear()  # so every timed call pays for it again
        keep = candidate.keep_requests()
        with open(keep[-1], "rb") as handle:
            request = handle.read()

        def through_harness():
            candidate._tapes.clear()
            run_algorithm("bench", candidate, algorithm, case)
            candidate.begin_example()

        total = _median_ms(through_harness, repeats)
        if program is None:
            argv = ["/bin/sh", "-c", prepared.replace("{request}", shlex.quote(keep[-1]))]
        else:
            argv = shlex.split(program) + [keep[-1]]
        own = _median_ms(lambda: _standalone(argv, request), repeats)
    finally:
        candidate.close()
        shutil.rmtree(candidate._root, ignore_errors=True)  # the requests it kept for the timing
        shutil.rmtree(scratch, ignore_errors=True)
    return {"algorithm": algorithm, "n": case.tape.n, "tape_format": tape_format, "request_bytes": len(request),
            "total_ms": round(total, 2), "program_ms": round(own, 2), "overhead_ms": round(total - own, 2)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--program", help="a real program to measure instead of the prepared answer (e.g. the Rust "
                                          "example's binary); it must implement the algorithms measured")
    parser.add_argument("--out", default=str(_report.RESULTS / "command_overhead.json"))
    args = parser.parse_args(argv)
    rows = []
    for n in SIZES:
        case = _Case(n)
        for algorithm in ALGORITHMS:
            formats = ("json", "npy") if args.program is None else ("json",)
            for tape_format in formats:
                row = measure(case, algorithm, args.repeats, tape_format, args.program)
                rows.append(row)
                print(f"{algorithm:<11} n = {n:>6}  tape {tape_format:<4}  request {row['request_bytes']:>8} B  "
                      f"call {row['total_ms']:7.2f} ms  program alone {row['program_ms']:6.2f} ms  "
                      f"overhead {row['overhead_ms']:6.2f} ms")
    worst = max(r["overhead_ms"] for r in rows)
    print(f"largest overhead {worst:.2f} ms per call (target < {TARGET_MS:g} ms for n <= 2^14)")
    _report.write({"rows": rows, "largest_overhead_ms": worst, "target_ms": TARGET_MS,
                   "program": args.program or "prepared answer (sh + cat)", "repeats": args.repeats}, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
