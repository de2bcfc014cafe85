"""`python -m properties campaign fuzz | experiment | summary`.

Exit status: 0 when every task finished and none failed; 1 when a check failed (fuzz) or
a task raised (experiment); 3 when --minutes ran out first (re-run the same command to
go on); 130 on Ctrl-C (finished rows and found examples are kept); 2 on bad input, one
line on stderr."""

from __future__ import annotations

import csv
import json
import os
import sys
from pathlib import Path

from properties.campaign import experiments, fuzz
from properties.campaign.cluster import SCHEDULER_ENV, default_workers, execute
from properties.campaign.experiments import load_spec, spec_digest
from properties.campaign.results import ResultsFile, read_results
from properties.reports.saved import DEFAULT_RESULTS_DIR, RESULTS_DIR_ENV, replay_command, results_dir
from reference import command_line
from reference.command_line import UsageError, output_file, positive_number, require, within_limit

RESULTS_DIR = Path("campaigns")
EXIT_BUDGET = 3


def _positive_int(field: str):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise UsageError(f"{field} must be an integer >= 1, got {text!r}") from None
        if value < 1:
            raise UsageError(f"{field} must be an integer >= 1, got {text!r}")
        return value

    return parse


def _add_run_options(parser) -> None:
    parser.add_argument(
        "--results",
        metavar="PATH",
        help=f"the results file, JSON lines (default {RESULTS_DIR}/NAME-DIGEST.jsonl: one file per "
        "spec, so the same command resumes)",
    )
    parser.add_argument(
        "--workers", type=_positive_int("--workers"), metavar="N", help="local worker processes (default: one per core)"
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help=f"an existing Dask scheduler, e.g. tcp://HOST:8786 (default ${SCHEDULER_ENV}; unset: a local cluster)",
    )
    parser.add_argument(
        "--minutes",
        type=positive_number("--minutes", "minutes"),
        metavar="M",
        help="time budget: stop after M minutes, keeping every finished row (exit 3)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.add_argument(
        "--yes",
        action="store_true",
        help=f"run a campaign above the size limits (more than {experiments.MAX_TASKS:,} tasks, more than "
        f"{experiments.MAX_POINTS} points): without it such a spec is refused before any work, with the estimate",
    )


def add_campaign_parser(sub) -> None:
    campaign = sub.add_parser("campaign", help="fuzzing and Monte-Carlo experiments on Dask, resumable")
    verbs = campaign.add_subparsers(dest="verb", required=True, parser_class=type(campaign))

    fuzzing = verbs.add_parser("fuzz", help="every check (or --checks) in seed blocks, sharing an example database")
    fuzzing.add_argument(
        "--impl", help="import path of the implementation (default: $CRAL_CMD if set, else $CRAL_IMPL or 'reference')"
    )
    fuzzing.add_argument(
        "--candidate-cmd",
        metavar="CMD",
        help="a program that answers run requests (docs/protocol.md), instead of --impl",
    )
    fuzzing.add_argument("--checks", nargs="+", metavar="CHECK", help="only these checks (default: all)")
    fuzzing.add_argument(
        "--blocks", type=_positive_int("--blocks"), default=8, help="seed blocks per check, one task each (default 8)"
    )
    fuzzing.add_argument(
        "--examples", type=_positive_int("--examples"), default=200, help="generated examples per block (default 200)"
    )
    fuzzing.add_argument(
        "--profile",
        choices=fuzz.FUZZ_PROFILES,
        default="fuzz",
        help="Hypothesis profile of each block (default fuzz; --examples overrides its count)",
    )
    fuzzing.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    fuzzing.add_argument(
        "--timeout",
        type=positive_number("--timeout", "seconds"),
        metavar="S",
        help="seconds one call of the implementation may take (default 60)",
    )
    fuzzing.add_argument(
        "--database",
        metavar="LOCATION",
        help=f"the shared Hypothesis example database: a folder (default {fuzz.DEFAULT_DATABASE}) "
        "or redis://HOST:PORT/DB",
    )
    fuzzing.add_argument(
        "--results-dir",
        metavar="DIR",
        help=f"save each failing check's first failure there as a file for `replay`, as `check` does "
        f"(default ${RESULTS_DIR_ENV}, else {DEFAULT_RESULTS_DIR}/; nothing is written when no block fails)",
    )
    _add_run_options(fuzzing)
    fuzzing.set_defaults(handler=_cmd_fuzz)

    experiment = verbs.add_parser(
        "experiment",
        help=f"a Monte-Carlo experiment: a built-in spec ({', '.join(experiments.BUILTIN_SPECS)}) or a JSON file",
    )
    experiment.add_argument("spec", help="built-in name or path of a JSON spec")
    _add_run_options(experiment)
    experiment.set_defaults(handler=_cmd_experiment)

    summary = verbs.add_parser("summary", help="aggregate a results file")
    summary.add_argument("results", help="the results file (JSON lines)")
    summary.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    summary.add_argument("--csv", metavar="PATH", help="also write the summary's table as CSV")
    summary.add_argument("--plot", metavar="PATH", help="curves: also draw PATH.png and PATH.svg (the plots extra)")
    summary.set_defaults(handler=_cmd_summary)


def _results_path(args, name: str, digest: str) -> Path:
    return Path(args.results) if args.results else RESULTS_DIR / f"{name}-{digest[:8]}.jsonl"


def _scheduler(args) -> str | None:
    return args.scheduler or os.environ.get(SCHEDULER_ENV) or None


def _run(args, kind: str, name: str, spec: dict, tasks, is_failure, summarize, database=None, save=None) -> int:
    """`tasks()`: the task list, expanded once every input has been checked; `save(rows,
    digest)`: the replay files of the failures, {check: path}, named in the summary."""
    # the `campaign` extra, named before the campaign prints anything (reference/command_line.py)
    require("distributed", package="dask[distributed]", extra="campaign", needed_by="python -m properties campaign")
    digest = spec_digest(spec)
    if args.results is not None:
        output_file("--results", args.results)
    task_list = tasks()
    results = ResultsFile(_results_path(args, name, digest), name, spec, digest)
    scheduler = _scheduler(args)
    workers = args.workers or default_workers()
    if scheduler and args.workers:
        raise UsageError("--workers applies to the local cluster only, not with --scheduler")
    outcome = execute(
        kind,
        name,
        spec,
        digest,
        task_list,
        results,
        is_failure=is_failure,
        workers=workers,
        scheduler=scheduler,
        minutes=args.minutes,
        database=database,
        quiet=args.quiet,
    )
    rows = read_results(results.path)[1] if results.path.exists() else []
    summary = summarize(spec, rows)
    if save is not None:
        saved = save(rows, digest)
        for row in summary["rows"]:
            if row.get("failure") is not None and row["check"] in saved:
                row["failure"]["replay_file"] = saved[row["check"]]
    _print_summary(summary, args.json)
    # counted from the file, not the outcome: a Ctrl-C between a row's write and its count
    # must not make the message disagree with the rows kept
    done = len({row["task"] for row in rows})
    if outcome.stopped != "complete":
        why = "time budget spent" if outcome.stopped == "time budget" else "interrupted"
        print(
            f"{why}: {done} of {outcome.total} tasks done, rows kept in {results.path}; run the same command "
            "again to finish",
            file=sys.stderr,
        )
        return EXIT_BUDGET if outcome.stopped == "time budget" else command_line.status()  # 130, or 143: SIGTERM
    print(f"results: {results.path}", file=sys.stderr)
    # a fuzz campaign's verdicts are per check over every block (an expected failure need
    # only fail somewhere), not per row
    return 1 if outcome.failures or summary.get("failing_checks") else 0


def _cmd_experiment(args) -> int:
    name, spec = load_spec(args.spec)
    for field, value, amount, limit, estimate in experiments.size_limits(spec):
        within_limit(field, value, amount, limit, estimate, yes=args.yes)
    return _run(
        args,
        "experiment",
        name,
        spec,
        lambda: experiments.tasks(spec),
        lambda row: "error" in row,
        experiments.summarize,
    )


def _cmd_fuzz(args) -> int:
    from properties.core.candidate import env_cmd, impl_path
    from properties.judge.load import load_candidate

    impl, cmd = args.impl, args.candidate_cmd
    if impl is not None and cmd is not None:
        raise UsageError("give --impl or --candidate-cmd, not both")
    if impl is None and cmd is None:
        # resolved here, so the spec names what ran and workers elsewhere need no environment
        cmd = env_cmd()
        impl = None if cmd else impl_path(None)
    spec = fuzz.fuzz_spec(
        master_seed=args.seed,
        impl=impl,
        cmd=cmd,
        checks=args.checks,
        blocks=args.blocks,
        examples=args.examples,
        profile=args.profile,
        timeout=args.timeout,
    )
    count = len(spec["checks"]) * spec["blocks"]
    within_limit("--blocks", args.blocks, count, experiments.MAX_TASKS, experiments.tasks_estimate(count), yes=args.yes)
    folder = results_dir(args.results_dir)  # where the failures' replay files go, checked before the run
    load_candidate(impl, cmd).close()  # an import path that does not load is bad input, before any worker starts
    database = fuzz.database_location(args.database)
    fuzz.open_database(database)  # a Redis server that does not answer, likewise
    name = "fuzz-" + (impl if cmd is None else "cmd")
    return _run(
        args,
        "fuzz",
        name,
        spec,
        lambda: fuzz.fuzz_tasks(spec),
        lambda row: fuzz.is_failing_row(spec, row),
        fuzz.summarize_fuzz,
        database,
        save=lambda rows, digest: fuzz.save_fuzz_failures(spec, rows, folder, digest),
    )


def _cmd_summary(args) -> int:
    output_file("--csv", args.csv)
    if args.plot is not None:  # PATH.png and PATH.svg
        output_file("--plot", args.plot)
        for suffix in (".png", ".svg"):
            if Path(args.plot + suffix).is_dir():
                raise UsageError(f"--plot {args.plot}: {args.plot + suffix} is a folder")
    header, rows = read_results(args.results)
    spec = header.get("spec")
    kind = spec.get("experiment") if isinstance(spec, dict) else None
    if kind == "fuzz":
        summary = fuzz.summarize_fuzz(fuzz.validate_fuzz_spec(spec), rows)
    elif kind in experiments.EXPERIMENTS:
        summary = experiments.summarize(experiments.validate_spec(spec), rows)
    else:
        raise ValueError(f"results file {args.results!r}: header spec has experiment {kind!r}")
    if args.plot and kind != "curves":
        raise UsageError(f"--plot draws label-complexity curves; {args.results!r} holds a {kind!r} campaign")
    _print_summary(summary, args.json)
    if args.csv:
        write_csv(summary["rows"], args.csv)
    if args.plot:
        from properties.campaign.plots import plot_label_curves

        written = plot_label_curves(
            summary["rows"], args.plot, titles=experiments.ADVERSARY_TITLES, title=experiments.curves_title(spec)
        )
        print("wrote " + ", ".join(map(str, written)), file=sys.stderr)
    return 0


def write_csv(rows: list[dict], path) -> None:
    path = Path(path)
    columns = list(rows[0]) if rows else []
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: json.dumps(v) if isinstance(v, (list, dict)) else v for k, v in row.items()})


def _print_summary(summary: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(summary, sort_keys=True))
        return
    print(summary_text(summary))


def summary_text(summary: dict) -> str:
    kind = summary["experiment"]
    lines = [
        f"{kind}: {summary['finished']} of {summary['tasks']} tasks finished"
        + (
            f", {len(summary['errors'])} with errors (run again to retry): {', '.join(summary['errors'][:3])}"
            if summary["errors"]
            else ""
        )
    ]
    if kind == "curves":
        lines.append(
            f"{'algorithm':<11} {'adversary':<13} {'n':>14} {'seeds':>5} {'labels (mean)':>15} "
            f"{'95% CI':>29} {'h* output':>9}"
        )
        for r in summary["rows"]:
            lines.append(
                f"{r['algorithm']:<11} {r['adversary']:<13} {r['n']:>14} {r['seeds']:>5} "
                f"{r['labels_mean']:>15.1f} {'[%.1f, %.1f]' % (r['labels_ci_low'], r['labels_ci_high']):>29} "
                + (f"{'no epoch':>9}" if r.get("no_epoch") else f"{r['output_is_best_fraction']:>9.2f}")
            )
        if summary["rows"]:
            lines.append(
                f"95% CI of the labels: {summary['rows'][0]['labels_ci_method']} (the range of the seeds' "
                "means: it cannot leave [0, n], and on few seeds it is narrow, not wide); the h* output "
                f"fraction's interval ({summary['rows'][0]['output_is_best_ci_method']}) is in --json and --csv"
            )
        if any(r.get("no_epoch") for r in summary["rows"]):
            lines.append(
                "no epoch: CALruption completed no epoch (n below its first epoch's length |I_1| = ceil(4 beta1), "
                "Algorithm 2 line 1): its output is hypothesis 0 by construction, not a wrong output"
            )
    elif kind == "coverage":
        worst = max(summary["rows"], key=lambda r: r["frequency"], default=None)
        lines.append(
            f"{len(summary['rows'])} (epoch, pair) slots, delta_pair = {summary['delta_pair']}, "
            f"Clopper-Pearson level {summary['level']:.6f} each (Bonferroni)"
        )
        if worst:
            lines.append(
                f"highest violation frequency {worst['frequency']:.4g} "
                f"({worst['violations']}/{worst['trials']}, epoch {worst['l']}, pair {worst['pair']}), "
                f"interval [{worst['ci_low']:.4g}, {worst['ci_high']:.4g}]"
            )
        lines.append(f"slots whose interval lies above delta_pair: {summary['slots_exceeding_delta']}")
    else:
        width = max((len(r["check"]) for r in summary["rows"]), default=5)
        lines.append(f"{'check':<{width}}  {'blocks':>6}  {'examples':>8}  {'verdict':<19}  statuses per block")
        for r in summary["rows"]:
            statuses = ", ".join(f"{k} {v}" for k, v in sorted(r["statuses"].items()))
            lines.append(
                f"{r['check']:<{width}}  {r['blocks']:>6}  {r['examples']:>8}  "
                f"{r.get('verdict') or 'not run':<19}  {statuses}"
            )
        for r in summary["rows"]:
            if r["failure"]:
                f = r["failure"]
                found = f" on {f['counterexample']}" if f["counterexample"] is not None else ""
                lines.append(f"{r['check']} {f['status']} in block {f['block']}{found}")
                lines += [f"  - {v}" for v in f["violations"]]
                if f.get("replay_file"):
                    lines.append(f"  replay: {replay_command(f['replay_file'])}")
            elif r["check"] in summary["failing_checks"]:  # an expected failure no block found
                lines.append(
                    f"{r['check']} unexpectedly passed in every finished block ({r['blocks']} blocks, "
                    f"{r['examples']} examples): its finding was not reproduced"
                )
    return "\n".join(lines)
