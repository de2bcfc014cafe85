"""What the README's two commands cost on this machine, beside a fixed calibration loop.

    python bench/test_cost.py [--skip-tests] [--check-jobs N ...] [--pytest-args ARGS] [--log PATH] [--json PATH]

1. The calibration: a fixed pure-Python loop (exact Fraction arithmetic, the reference's
   kind of work), its best CPU seconds of CALIBRATION_REPEATS. A figure divided by it is
   in "calibration units", comparable across machines.
2. The main job, `python -m properties check --profile ci -j N` on the built-in
   reference, for each N of --check-jobs (default: 1 and the machine's cores): wall
   seconds and CPU seconds (the command and every process it waited for).
3. The test run, the README's `python -m pytest -q -n 2 --dist loadfile` (plus
   --pytest-args), unless --skip-tests: wall and CPU seconds, and the counts of its summary line.

The load average before and after each command is recorded: on a shared machine the wall
times grow with it, the CPU times much less. Prints a table and writes JSON (default
bench/results/test_cost.json)."""

from __future__ import annotations

import argparse
import os
import re
import resource
import shlex
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._report import RESULTS, write  # noqa: E402

CALIBRATION_REPEATS = 3
CHECK = [sys.executable, "-m", "properties", "check", "--profile", "ci"]
TESTS = [sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadfile"]


def calibration_loop() -> float:
    """CPU seconds of a fixed loop of exact rational arithmetic (best of CALIBRATION_REPEATS)."""
    best = None
    for _ in range(CALIBRATION_REPEATS):
        started = time.process_time()
        total = Fraction(0)
        for i in range(1, 400_001):
            total += Fraction(i % 97 + 1, i % 89 + 2)
            if i % 1000 == 0:
                total = Fraction(total.numerator % 1_000_003, total.denominator % 1_000_003 + 1)
        seconds = time.process_time() - started
        best = seconds if best is None else min(best, seconds)
    return best


def measured(command: list[str], log: str | None = None) -> dict:
    """Wall and CPU seconds (user + system of the command and the children it waited for);
    its stdout and stderr written to `log` if given."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    done = subprocess.run(
        command, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if log:
        Path(log).write_text(done.stdout + done.stderr)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "command": " ".join(shlex.quote(part) for part in command),
        "returncode": done.returncode,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "tail": done.stdout.strip().splitlines()[-1:] or done.stderr.strip().splitlines()[-1:],
    }


def main(argv=None) -> int:
    from properties.run.parallel import default_jobs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check-jobs", type=int, nargs="*", help="-j of each main-job run (default 1 and the cores)")
    parser.add_argument("--skip-tests", action="store_true", help="measure the main job only")
    parser.add_argument("--pytest-args", default="", help="more arguments for the test run (e.g. --durations=60)")
    parser.add_argument("--log", help="write the test run's output to this file")
    parser.add_argument("--json", default=str(RESULTS / "test_cost.json"))
    args = parser.parse_args(argv)
    cores = default_jobs()
    jobs = args.check_jobs if args.check_jobs is not None else sorted({1, cores})
    calibration = calibration_loop()
    print(f"calibration loop: {calibration:.3f} CPU s (best of {CALIBRATION_REPEATS}); cores: {cores}")
    report: dict = {"calibration_cpu_s": round(calibration, 4), "cores": cores, "main_job": [], "tests": None}
    for n in jobs:
        entry = {"jobs": n, **measured([*CHECK, "-j", str(n)])}
        entry["cpu_units"] = round(entry["cpu_s"] / calibration, 1)
        entry["wall_units"] = round(entry["wall_s"] / calibration, 1)
        report["main_job"].append(entry)
        print(
            f"main job -j {n}: {entry['wall_s']:.1f} s wall, {entry['cpu_s']:.1f} s CPU "
            f"({entry['wall_units']:.0f} / {entry['cpu_units']:.0f} calibration units), load "
            f"{entry['load_before']:.1f} -> {entry['load_after']:.1f}, exit {entry['returncode']}"
        )
    if not args.skip_tests:
        entry = measured([*TESTS, *shlex.split(args.pytest_args)], args.log)
        entry["cpu_units"] = round(entry["cpu_s"] / calibration, 1)
        entry["wall_units"] = round(entry["wall_s"] / calibration, 1)
        line = " ".join(entry["tail"])
        entry["counts"] = {word: int(n) for n, word in re.findall(r"(\d+) (\w+)", line)}
        report["tests"] = entry
        print(
            f"test run: {entry['wall_s']:.0f} s wall, {entry['cpu_s']:.0f} s CPU ({entry['wall_units']:.0f} / "
            f"{entry['cpu_units']:.0f} calibration units), load {entry['load_before']:.1f} -> "
            f"{entry['load_after']:.1f}: {line}"
        )
    write(report, args.json)
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
