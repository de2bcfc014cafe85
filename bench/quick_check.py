"""How long `python -m properties check --quick` takes, wall clock and CPU, on the reference
(in the judge's process) and on examples/skeleton (in a worker process), with the
machine's load average beside each figure (the target, under 10 s on two cores, is for a
machine others share), and the slowest checks of each run.

    python bench/quick_check.py [--repeats 3] [--json PATH]

Each run is a fresh process, as a user's is; writes the figures as JSON (default
bench/results/quick_check.json)."""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CANDIDATES = {
    "reference": ("reference", str(ROOT)),
    "skeleton": ("my_cral", os.pathsep.join([str(ROOT / "examples" / "skeleton"), str(ROOT)])),
}


def one_run(impl: str, path: str) -> dict:
    env = {**os.environ, "PYTHONPATH": path}
    env.pop("CI", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "properties", "check", "--quick", "--impl", impl, "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    report = json.loads(result.stdout)
    slowest = sorted(report["checks"], key=lambda c: -c["seconds"])[:3]
    return {
        "exit": result.returncode,
        "wall_s": round(wall, 2),
        # the worker process of an isolated candidate is a child of the child: counted once it is reaped
        "cpu_s": round((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), 2),
        "load_average_1min": round(load, 2),
        "checks": len(report["checks"]),
        "slowest": [(c["name"], c["seconds"]) for c in slowest],
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", default=str(_report.RESULTS / "quick_check.json"))
    args = parser.parse_args(argv)
    found = {}
    for name, (impl, path) in CANDIDATES.items():
        runs = [one_run(impl, path) for _ in range(args.repeats)]
        found[name] = {"median_wall_s": statistics.median(r["wall_s"] for r in runs), "runs": runs}
        each = ", ".join(f"{r['wall_s']:.2f} s at load {r['load_average_1min']:.1f}" for r in runs)
        slowest = ", ".join(f"{n} {s:.2f} s" for n, s in runs[0]["slowest"])
        print(
            f"{name}: check --quick, median {found[name]['median_wall_s']:.2f} s wall over {len(runs)} runs "
            f"({each}); slowest checks: {slowest}"
        )
    _report.write({"bench": "quick_check", "candidates": found}, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
