"""The judge at scale: its cost against the candidate's own run, per size.

    python bench/scale_judge.py [--sizes 256,512,1024] [--candidate fast] [--mutants] [--json PATH]

For each size, `python -m properties crosscheck --counts` does it (properties/scale/run.py
`judge_counts`): the candidate's counts-mode CALruption with its record (thresholds,
|X| = |H|, n = 10^12, paper constants, clean adversary, seed 1) in its worker process,
then the judge. Printed per size: the candidate's seconds (its run, the record's writing
excluded), the judge's (reading the record and judging it), wall and CPU (process time;
the candidate's is its worker's), the ratios, and the verdict. Target: judge <= 3x the
candidate. With --mutants, also each planted scale-only bug (teeth/broken/scale_mutants.py)
at the size where it shows: caught or not.

BLAS is left as configured; on a loaded machine prefer the CPU ratio. Writes JSON to
bench/results/scale_judge.json (or --json). Exit 1 when the judge finds a mismatch in the
candidate at one of --sizes (a candidate that crashes has no time: '-', and its first
mismatch is printed), else 0. CRAL_FAST_RESIDENT=yes judges fast's resident epochs
(fast/epoch_device.py) instead of its host ones."""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _report  # noqa: E402 (bench's own module, after the path above)

from properties.scale.run import judge_counts  # noqa: E402

TARGET_RATIO = 3.0


def _size_row(path: str, size: int, n: int = 10**12) -> dict:
    started = time.perf_counter()
    summary, results = judge_counts(path, (size,), n=n)
    r = results[0]
    cpu_ratio = r.judge_cpu_s / r.candidate_cpu_s if r.candidate_cpu_s else None
    row = {
        **r.to_json(),
        "cpu_ratio": cpu_ratio,
        "mismatches": len(summary.mismatches),
        "first_mismatch": str(summary.mismatches[0]) if summary.mismatches else None,
        "total_s": time.perf_counter() - started,
        # this process's peak resident set so far (the judge runs here, the candidate in its
        # worker): monotone over the run, so per size with the sizes ascending
        "judge_peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "load_average_1m": os.getloadavg()[0],
    }
    return row


def _figure(value, spec: str, unit: str = "") -> str:
    """value formatted, or '-' where the run gave none (a candidate that failed has no time)."""
    return "-" if value is None else f"{value:{spec}}{unit}"


def _size_line(size: int, row: dict) -> str:
    line = (
        f"|H| = |X| = {size:>5}: candidate {_figure(row['candidate_s'], '8.2f', ' s')} "
        f"(cpu {_figure(row['candidate_cpu_s'], '7.2f', ' s')}), judge {_figure(row['judge_s'], '8.2f', ' s')} "
        f"(cpu {_figure(row['judge_cpu_s'], '7.2f', ' s')}): ratio {_figure(row['ratio'], '.2f', 'x')} wall, "
        f"{_figure(row['cpu_ratio'], '.2f', 'x')} cpu; {row['epochs']} epochs, {row['mismatches']} mismatches; "
        f"peak rss {row['judge_peak_rss_mb']:.0f} MB, load {row['load_average_1m']:.1f}"
    )
    return line if row["first_mismatch"] is None else f"{line}\n    first: {row['first_mismatch']}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="256,512,1024")
    parser.add_argument("--candidate", default="fast")
    parser.add_argument("--mutants", action="store_true")
    parser.add_argument("--json", default=str(_report.RESULTS / "scale_judge.json"))
    args = parser.parse_args(argv)
    sizes = [int(v) for v in args.sizes.split(",")]
    rows = []
    for size in sizes:
        row = _size_row(args.candidate, size)
        rows.append(row)
        print(_size_line(size, row), flush=True)
    planted = []
    if args.mutants:
        from teeth.broken.fast_mutants import build
        from teeth.broken.scale_mutants import MUTANTS, PREFIX

        with tempfile.TemporaryDirectory() as directory:
            sys.path.insert(0, directory)
            for m in MUTANTS:
                package = build(m.mutant, directory, PREFIX)
                for label, (size, n) in (("hidden", m.hidden_at), ("shows", m.shows_at)):
                    row = _size_row(package, size, n)
                    row.update(mutant=m.mutant.name, at=label, caught=row["mismatches"] > 0)
                    planted.append(row)
                    print(
                        f"{m.mutant.name:<20} {label:<6} |H| = {size:>5}, n = {n:.0e}: "
                        f"{'caught' if row['caught'] else 'passed'} ({row['mismatches']} mismatches), judge "
                        f"{row['judge_s']:.2f} s",
                        flush=True,
                    )
    worst = max((r["ratio"] for r in rows if r["ratio"] is not None), default=None)
    report = {
        "candidate": args.candidate,
        "n": 10**12,
        "instance": "thresholds |X| = |H|, paper constants, clean, seed 1",
        "sizes": rows,
        "planted": planted,
        "target": {
            "judge_over_candidate": f"<= {TARGET_RATIO:g}",
            "worst_wall_ratio": worst,
            "met": None if worst is None else worst <= TARGET_RATIO,
        },
        "load_note": "wall ratios on a shared 2-core machine are noisy; cpu_ratio is process time",
    }
    _report.write(report, args.json)
    print(f"written {args.json}")
    return 1 if any(row["mismatches"] for row in rows) else 0  # the candidate's own sizes; planted ones must fail


if __name__ == "__main__":
    sys.exit(main())
