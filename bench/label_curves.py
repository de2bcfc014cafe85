"""Label-complexity curves at paper scale, from a campaign: labels requested against n,
with 95% confidence bands over seeds, as PNG, SVG and CSV.

    python bench/label_curves.py [--quick] [--workers N] [--results PATH] [--out PREFIX] [--report PATH]

Runs the built-in "curves" campaign (properties/campaign/experiments.py; the same as
`python -m properties campaign experiment curves`) on a local Dask cluster, one worker
per core: passive ERM, RobustCAL (enlarged threshold) and CALruption, paper constants,
counts mode, on 64 thresholds over 256 points (nu uniform, eta* = 1/10 left of the
middle and 9/10 from it on, h* the middle threshold), delta = 1/10, n = 10^3, 10^3.5, ...,
10^12, three oblivious adversaries (clean; gamma = 1/32 misspecification against h*; an
early burst flipping every label in distribution for t <= n/10), 20 seeds per point, each
seed from (master seed, task key) only. The campaign's results file resumes: an
interrupted run goes on where it stopped.

Then draws the summary with properties/campaign/plots.py (matplotlib, the `plots` extra):
one log-log panel per adversary, the mean with its Student-t 95% band, a filled marker
where every seed output h* and a hollow one where some seed did not. CALruption outputs
hypothesis 0 (not h*) until its first epoch completes (n >= |I_1| ~ 2.4e6 here).

Default output: bench/results/label_curves.{png,svg,csv} and bench/results/label_curves.json.
The committed figure, docs/label_curves.{png,svg,csv}, is replaced only when asked for by
name (`--out docs/label_curves`): a documented command never overwrites a committed file.
--quick runs the "curves-quick" spec (n <= 10^5, 2 seeds: seconds) and writes under
bench/results/ too."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report  # noqa: E402

from properties.campaign import experiments  # noqa: E402
from properties.campaign.cli import write_csv  # noqa: E402
from properties.campaign.cluster import default_workers, execute  # noqa: E402
from properties.campaign.results import ResultsFile, read_results  # noqa: E402
from reference.command_line import OneLineParser, UsageError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = _report.RESULTS / "label_curves"  # docs/label_curves only with --out
QUICK_OUT = _report.RESULTS / "label_curves_quick"
CAMPAIGNS = _report.RESULTS / "campaigns"


def main(argv=None) -> int:
    parser = OneLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="the curves-quick spec (seconds), output under bench/results"
    )
    parser.add_argument("--workers", type=int, default=None, help="local worker processes (default: one per core)")
    parser.add_argument(
        "--results", help="the campaign's results file (default bench/results/campaigns/NAME-DIGEST.jsonl)"
    )
    parser.add_argument("--report", help="the JSON report (default bench/results/label_curves[_quick].json)")
    parser.add_argument(
        "--out",
        help=f"output prefix: PREFIX.png, .svg, .csv (default {DEFAULT_OUT.relative_to(ROOT)}, "
        f"{QUICK_OUT.relative_to(ROOT)} with --quick)",
    )
    try:
        args = parser.parse_args(argv)
        if args.workers is not None and args.workers < 1:
            raise UsageError(f"--workers must be >= 1, got {args.workers}")
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    name, spec = experiments.load_spec("curves-quick" if args.quick else "curves")
    digest = experiments.spec_digest(spec)
    results = ResultsFile(args.results or CAMPAIGNS / f"{name}-{digest[:8]}.jsonl", name, spec, digest)
    out = Path(args.out) if args.out else (QUICK_OUT if args.quick else DEFAULT_OUT)

    from properties.campaign.plots import plot_label_curves  # before the campaign: a missing matplotlib fails fast

    workers = args.workers or default_workers()
    started = time.perf_counter()
    outcome = execute(
        "experiment",
        name,
        spec,
        digest,
        experiments.tasks(spec),
        results,
        is_failure=lambda row: "error" in row,
        workers=workers,
    )
    if outcome.stopped != "complete":
        print(f"{outcome.stopped}: rows kept in {results.path}; run again to finish", file=sys.stderr)
        return 130 if outcome.stopped == "interrupted" else 3
    summary = experiments.summarize(spec, read_results(results.path)[1])
    if summary["errors"]:
        print(
            f"error: {len(summary['errors'])} tasks raised, e.g. {summary['errors'][0]} (see {results.path})",
            file=sys.stderr,
        )
        return 1
    out.parent.mkdir(parents=True, exist_ok=True)  # --out is a prefix: its folder is the bench's to make
    write_csv(summary["rows"], out.with_name(out.name + ".csv"))
    written = plot_label_curves(
        summary["rows"], out, titles=experiments.ADVERSARY_TITLES, title=experiments.curves_title(spec)
    )
    seconds = time.perf_counter() - started
    _report.write(
        {
            "campaign": name,
            "spec": spec,
            "workers": workers,
            "seconds": round(seconds, 2),
            "tasks_run": outcome.ran,
            "summary": summary,
        },
        args.report or _report.RESULTS / ("label_curves_quick.json" if args.quick else "label_curves.json"),
    )
    print(
        f"wrote {', '.join(map(str, written))}, {out.name}.csv; {outcome.ran} tasks run in {seconds:.1f} s "
        f"on {workers} workers"
    )
    print(json.dumps({"seconds": round(seconds, 2), "tasks_run": outcome.ran, "workers": workers}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
