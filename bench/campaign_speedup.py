"""One local Dask worker against two, on the same label-complexity campaign: wall-clock
speedup, and whether the two results files agree (target >= 1.8x on the 2-core
machine; results identical aside from timings and order).

    python bench/campaign_speedup.py [--replicates R] [--workers-list 1 2] [--json PATH]

The spec is the built-in "curves" campaign (docs/label_curves.png: passive, RobustCAL and
CALruption at paper constants in counts mode, 64 thresholds on 256 points, three
adversaries, n = 10^3 .. 10^12) with R seeds per point instead of 20 (default 5: 855
tasks). Each run starts its own LocalCluster
(one worker process per --workers, one thread each) and writes a fresh results file; the
time measured is the whole campaign, cluster start and shutdown included, as a user
sees it. Prints the figures and writes them as JSON (default
bench/results/campaign_speedup.json)."""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report  # noqa: E402

from properties.campaign import experiments  # noqa: E402
from properties.campaign.cluster import execute  # noqa: E402
from properties.campaign.results import ResultsFile, read_results  # noqa: E402
from reference.command_line import OneLineParser, UsageError  # noqa: E402

TARGET = 1.8


def speedup_spec(replicates: int) -> dict:
    return experiments.validate_spec(dict(experiments.BUILTIN_SPECS["curves"], replicates=replicates))


def timed_campaign(spec: dict, workers: int, folder: Path) -> tuple[float, list[dict], dict, float]:
    """(wall seconds, rows without timings sorted by task, summary, summed task seconds)."""
    digest = experiments.spec_digest(spec)
    results = ResultsFile(folder / f"w{workers}.jsonl", "speedup", spec, digest)
    started = time.perf_counter()
    outcome = execute(
        "experiment",
        "speedup",
        spec,
        digest,
        experiments.tasks(spec),
        results,
        is_failure=lambda row: "error" in row,
        workers=workers,
        quiet=True,
    )
    seconds = time.perf_counter() - started
    if outcome.stopped != "complete" or outcome.failures:
        raise RuntimeError(f"{workers} workers: campaign {outcome.stopped}, {outcome.failures} failures")
    rows = read_results(results.path)[1]
    task_seconds = sum(row["seconds"] for row in rows)
    plain = sorted(
        ({k: v for k, v in row.items() if k not in ("seconds", "code_version")} for row in rows),
        key=lambda row: row["task"],
    )
    return seconds, plain, experiments.summarize(spec, rows), task_seconds


def main(argv=None) -> int:
    parser = OneLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--replicates", type=int, default=5, help="seeds per point (default 5: 855 tasks; 20 is the docs' campaign)"
    )
    parser.add_argument("--workers-list", type=int, nargs="+", default=[1, 2], help="worker counts (default 1 2)")
    parser.add_argument("--json", default=str(_report.RESULTS / "campaign_speedup.json"), help="where the JSON goes")
    try:
        args = parser.parse_args(argv)
        if args.replicates < 1:
            raise UsageError(f"--replicates must be >= 1, got {args.replicates}")
        if any(w < 1 for w in args.workers_list) or 1 not in args.workers_list:
            raise UsageError(f"--workers-list must hold counts >= 1, 1 among them, got {args.workers_list}")
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    spec = speedup_spec(args.replicates)
    runs = {}
    with tempfile.TemporaryDirectory() as folder:
        for workers in args.workers_list:
            seconds, rows, summary, task_seconds = timed_campaign(spec, workers, Path(folder))
            runs[workers] = {
                "seconds": round(seconds, 2),
                "task_seconds": round(task_seconds, 2),
                "rows": rows,
                "summary": summary,
            }
            print(f"{workers} worker{'s' * (workers != 1)}: {seconds:.1f} s wall, {task_seconds:.1f} s in tasks")
    one = runs[1]
    report = {"spec": spec, "tasks": len(experiments.tasks(spec)), "target_speedup": TARGET, "runs": {}}
    for workers, run in runs.items():
        speedup = one["seconds"] / run["seconds"]
        same = run["rows"] == one["rows"] and run["summary"] == one["summary"]
        report["runs"][str(workers)] = {
            "workers": workers,
            "seconds": run["seconds"],
            "task_seconds": run["task_seconds"],
            "speedup": round(speedup, 3),
            "identical_results": same,
        }
        if workers != 1:
            print(
                f"{workers} workers vs 1: speedup {speedup:.2f}x (target >= {TARGET}x: "
                f"{'met' if speedup >= TARGET else 'NOT met'}); results identical: {same}"
            )
    _report.write(report, args.json)
    print(json.dumps({k: v for k, v in report["runs"].items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
