"""`python -m properties check` / `crosscheck`: run every registered check, or the
cross-check, against an implementation.

Exit status: 0 when every check passed (or failed as expected, or does not apply), 1 on
any failure or unexpected pass -- whatever the candidate did, crash, hang or garbage
included -- or when the --budget ended the run before every check ran
(properties/core/budget.py), and 2 only on bad command-line input (one line on stderr),
which includes a candidate that cannot be imported or lacks a required name. stdout
carries only the report: the candidate's own output is captured (and shown with its
check), Hypothesis's notes go to stderr."""

from __future__ import annotations

import json
import os
import re
import sys
import time

from properties.campaign.cli import add_campaign_parser
from properties.checks.crosscheck import ALGORITHMS, crosscheck, summary_text
from properties.checks.registry import all_checks
from properties.core import candidate as harness
from properties.core import profiles, seeds
from properties.core.budget import deadline_in
from properties.core.candidate import CMD_ENV_VAR, DEFAULT_MEMORY_LIMIT, ENV_VAR, impl_path
from properties.core.contract import PROTOCOL_ALGORITHMS
from properties.core.progress import CountProgress
from properties.core.representations import ignored_line
from properties.judge.command import TAPE_FORMATS
from properties.judge.load import load_candidate
from properties.reports import junit, xfails_file
from properties.reports.crosscheck_failures import SAVED_PER_ALGORITHM, save_crosscheck_failures
from properties.reports.crosscheck_report import crosscheck_report
from properties.reports.declared_arithmetic import arithmetic_lines, crosscheck_arithmetic_lines, normalised_lines
from properties.reports.failure_lines import print_short, print_short_header, status_phrase
from properties.reports.html_report import write_html
from properties.reports.import_hints import file_path_hint
from properties.reports.report import check_report
from properties.reports.report_files import write_json_file
from properties.reports.root_cause import root_cause_order
from properties.reports.saved import DEFAULT_RESULTS_DIR, RESULTS_DIR_ENV, replay_command, results_dir, save_failures
from properties.run.check_all import run_in_turn, run_on_workers
from properties.run.parallel import default_jobs
from properties.run.replay import replay
from properties.run.runner import NOT_APPLICABLE, NOT_RUN
from properties.strategies import (
    CROSSCHECK_SEED,
    LARGE_CROSSCHECK_SEED,
    crosscheck_case_stream,
    large_crosscheck_case_stream,
)
from reference.command_line import OneLineParser, UsageError, output_file, positive_number, run
from reference.version import suite_line

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
MIN_MEMORY_LIMIT = 256 << 20  # a worker under less fails while importing, whatever the candidate


def parse_size(text: str) -> int | None:
    """'16G', '512M', '2048' (bytes) or 'none' -> bytes (None: no limit)."""
    if text.strip().lower() == "none":
        return None
    match = re.fullmatch(r"\s*(\d+)\s*([KMGT]?)(?:i?B)?\s*", text, re.IGNORECASE)
    if not match or int(match.group(1)) == 0:
        raise UsageError(f"--memory-limit must be a size such as 16G, 512M or 'none', got {text!r}")
    size = int(match.group(1)) * _UNITS[match.group(2).upper()]
    if size < MIN_MEMORY_LIMIT:
        raise UsageError(
            f"--memory-limit {text}: below the minimum of 256M, the address space the candidate's worker "
            "needs for its interpreter and the judge's modules before the candidate is imported (fast "
            "starts from about 192M)"
        )
    return size


_timeout = positive_number("--timeout", "seconds")


def _seed(text: str) -> int | str:
    """--seed: an integer in [0, 2^64) or 'random' (properties/core/seeds.py)."""
    try:
        return seeds.parse_seed(text)
    except ValueError as error:
        raise UsageError(str(error)) from None


_budget = positive_number("--budget", "seconds")


JOBS_ENV_VAR = "CRAL_JOBS"  # check's -j when it is not given


def _jobs_count(text: str, what: str = "-j/--jobs") -> int:
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise UsageError(f"{what} must be a whole number >= 1, got {text!r}")
    return jobs


def _candidate(args, path: str | None):
    """The candidate (a module, or a command with --candidate-cmd), isolated unless it is
    the reference or --in-process is given."""
    if args.in_process and args.isolate:
        raise UsageError("--in-process and --isolate exclude each other")
    cmd = args.candidate_cmd
    if path is not None:
        file_path_hint(path, *(("--candidate", "crosscheck") if hasattr(args, "candidate") else ("--impl", "check")))
    if cmd is not None and path is not None:
        raise UsageError("give the implementation's import path or --candidate-cmd, not both")
    if cmd is not None and args.in_process:
        raise UsageError("--in-process does not apply to --candidate-cmd (a program runs in processes of its own)")
    isolate = True if args.isolate else False if args.in_process else None
    candidate = load_candidate(
        path,
        cmd,
        isolate=isolate,
        timeout=args.timeout,
        memory_limit=args.memory_limit,
        tape_format=args.tape_format,
        keep_dir=args.keep_requests,
    )
    if not candidate.declares_modes and (args.tape_format != "auto" or args.keep_requests is not None):
        candidate.close()
        raise UsageError(
            f"--tape-format and --keep-requests apply to a command (--candidate-cmd or ${CMD_ENV_VAR}) only"
        )
    if candidate.declares_modes:
        not_implemented = [m for m in PROTOCOL_ALGORITHMS if not candidate.implements(m)]
        if not_implemented:
            print(
                f"note: {candidate.path} does not implement {', '.join(not_implemented)}: the checks of those "
                "are not applicable",
                file=sys.stderr,
            )
    if args.in_process and candidate.path != harness.DEFAULT_IMPL:
        print(
            f"warning: {candidate.path} runs in the judge's own process (--in-process): a crash, exit or "
            "change it makes to the interpreter can change the verdict, which is then not protected",
            file=sys.stderr,
        )
    return candidate


def _seed_text(given, base_seed: int) -> str:
    """How the report names its seed: fixed, given or fresh."""
    if given is None and base_seed == seeds.DEFAULT_SEED:
        return f"seed {base_seed} (fixed: the same examples every run; --seed random explores)"
    if given is None or given == seeds.RANDOM:
        return f"seed {base_seed} (fresh; --seed {base_seed} repeats this run)"
    return f"seed {base_seed}"


def _output_lines(output: dict | None) -> list[str]:
    if not output:
        return []
    lines = []
    for stream in ("stdout", "stderr"):
        total = output.get(f"{stream}_bytes", 0)
        if total:
            shown = output[stream].rstrip("\n").splitlines()
            more = " (first lines)" if output.get(f"{stream}_truncated") or len(shown) > 5 else ""
            lines.append(f"  candidate {stream}, {total} bytes{more}:")
            lines += [f"    | {line}" for line in shown[:5]]
    return lines


def _lists(args) -> xfails_file.CandidateLists:
    """The candidate's own xfails and skips files (bad ones: ListFileError, exit 2)."""
    return xfails_file.load(args.xfails_file, args.skips_file, strict_xfail=args.strict_xfail)


def _check_report_options(args) -> None:
    if args.json_indent is not None and args.json_indent < 0:
        raise UsageError(f"--json-indent must be >= 0, got {args.json_indent}")
    output_file("--json-file", args.json_file)
    output_file("--junitxml", args.junitxml)
    output_file("--html", args.html)
    args.results_dir = results_dir(args.results_dir)


def _write_reports(report: dict, args) -> None:
    """--junitxml, --html, --json-file and --json, the same for both commands."""
    if args.junitxml is not None:
        junit.write(report, args.junitxml)
    if args.html is not None:
        write_html(report, args.html)
    if args.json_file:
        write_json_file(report, args.json_file, args.json_indent)
    if args.json:
        print(json.dumps(report, indent=args.json_indent))


def _exit_status(report: dict) -> int:
    """1 when an entry fails the run (its `failing`: xfails_file.is_failure / status_fails_run)."""
    return 1 if any(entry["failing"] for entry in report["checks"]) else 0


def _jobs(args, checks: int) -> int:
    """-j, else $CRAL_JOBS, else the machine's cores (one with --in-process: the judge's own
    process, for a debugger); never more than there are checks."""
    jobs = args.jobs
    if jobs is None and os.environ.get(JOBS_ENV_VAR, "").strip():
        jobs = _jobs_count(os.environ[JOBS_ENV_VAR], f"${JOBS_ENV_VAR}")
    if jobs is None:
        jobs = 1 if args.in_process else default_jobs()
    return max(1, min(jobs, checks))


def _cmd_check(args) -> int:
    if args.list:  # the ids --only, --xfails-file and pytest -k take, without running anything
        return _list_checks(args)
    _check_report_options(args)
    profile = profiles.load(args.profile)
    lists = _lists(args)
    checks = all_checks()
    if args.only:
        unknown = [name for name in args.only if name not in checks]
        if unknown:
            raise UsageError(f"--only names unknown checks: {', '.join(unknown)}")
        checks = {name: checks[name] for name in args.only}
    # one base seed for the run; each check draws from seeds.check_seed(base, its id)
    base_seed = seeds.resolve_seed(args.seed, profiles.explores(profile))
    deadline = deadline_in(args.budget)  # the whole run, the candidate's import included
    jobs = _jobs(args, len(checks))
    with _candidate(args, args.impl) as candidate:
        started = time.perf_counter()
        if jobs > 1:
            results = run_on_workers(args, candidate, checks, lists, profile, jobs, base_seed, deadline)
        else:
            results = run_in_turn(args, candidate, checks, lists, base_seed, deadline)
        elapsed = time.perf_counter() - started
        _note_kept(candidate)
        saved = save_failures(results, checks, candidate, args.candidate_cmd, profile, args.results_dir)
    # each entry's `failing` is the run's rule (xfails_file.is_failure): an expected failure
    # of ours that passes says our record of it is stale when the reference runs (on a
    # candidate, only that its run does not reproduce the paper's counterexample, which other
    # checks judge); the candidate's own expected failure that passes fails under --strict-xfail
    report = check_report(candidate, profile, base_seed, elapsed, results, lists, quick=args.quick)
    for entry in report["checks"]:
        entry["replay_file"] = saved.get(entry["name"])
    _write_reports(report, args)
    if not args.json:
        mode = candidate.runs_in
        width = max(len(r.name) for r in results)
        quick = f", --quick ({profiles.QUICK_EXAMPLES} generated examples per check)" if args.quick else ""
        print(
            f"implementation {candidate.path} ({mode}), profile {profile}, {_seed_text(args.seed, base_seed)}{quick}, {elapsed:.1f} s"
        )
        swidth = max(19, *(len(r.status) for r in results))
        print(f"{'check':<{width}}  {'status':<{swidth}}  {'examples':>8}  cites")
        for r in results:
            # a check that does not apply says why in the table too, not only in --json
            why = f"  (not applicable: {r.reason})" if r.status == NOT_APPLICABLE and r.reason else ""
            print(f"{r.name:<{width}}  {r.status:<{swidth}}  {r.examples:>8}  {r.cites}{why}")
        if not args.verbose:
            print_short_header(results)
        listed = root_cause_order(results)  # the check naming the root cause first
        for r in listed if not args.verbose else ():
            print_short(r, saved.get(r.name))
        for r in listed if args.verbose else ():
            if r.counterexample or r.output or r.listed:  # a list line's reason is printed with the result
                print(f"\n{r.name} ({status_phrase(r.status, r.reason)})")
                if r.listed and r.status not in xfails_file.YOUR_STATUSES:  # ours; the candidate lists it too
                    print(f"  also in your xfails: {r.listed['file']}:{r.listed['line']} ({r.listed['reason']})")
                for v in r.violations[:3]:
                    print(f"  {v}")
                if r.cause and r.cause["explained"]:
                    events = ", ".join(f"{k}: {'yes' if v else 'no'}" for k, v in r.cause["events"].items())
                    print(
                        f"  explained by FINDINGS {r.cause['finding']} ({r.cause['cause']}): {events}; "
                        f"{r.cause['explained_counterexamples']} explained counterexample(s) seen"
                    )
                if r.counterexample:
                    print(f"  reproduce{f' ({r.unshrunk})' if r.unshrunk else ''}: {r.counterexample}")
                if r.reproducer_call:
                    print(f"  call your function: {r.reproducer_call}")
                for path in r.requests or ():
                    print(f"  request file: {path}")
                if saved.get(r.name):
                    print(f"  replay: {replay_command(saved[r.name])}")
                for line in _output_lines(r.output):
                    print(line)
        counts = {s: sum(r.status == s for r in results) for s in sorted({r.status for r in results})}
        print("\n" + ", ".join(f"{n} {s}" for s, n in counts.items()))
        for line in arithmetic_lines(candidate, results) + normalised_lines(candidate):
            print(line)
        if ignored_line(candidate.ignored_fields):
            print(ignored_line(candidate.ignored_fields))
        if saved:
            print(
                f"{len(saved)} failing case(s) saved under {args.results_dir}/ (replay: "
                f"{replay_command(next(iter(saved.values())))})"
            )
        not_run = counts.get(NOT_RUN, 0)
        if not_run:
            print(
                f"{not_run} checks not run: the time budget (--budget {args.budget:g} s) was spent; no verdict "
                "on them, so the run is not a pass"
            )
        print(suite_line(report["code_version"], profile, base_seed))  # which judge gave the verdict
        print(f"\n{report['verdict']}")
    return _exit_status(report)


def _cmd_crosscheck(args) -> int:
    if args.seed == seeds.RANDOM:  # a fresh case set (or run, with --counts), printed with the report
        args.seed = seeds.fresh_seed()
    if args.counts or args.sizes is not None or args.n is not None or args.yes:
        return _cmd_crosscheck_counts(args)
    _check_report_options(args)
    if (args.candidate is None) == (args.candidate_cmd is None):
        raise UsageError("give the candidate's import path (--candidate) or its command (--candidate-cmd), one of them")
    if args.cases is not None and args.cases < 1:
        raise UsageError(f"--cases must be >= 1, got {args.cases}")
    algorithms = requested = tuple(args.algorithms or ALGORITHMS)
    lists = _lists(args)
    skipped = {a: lists.skip_of(f"crosscheck_{a}") for a in algorithms if lists.skip_of(f"crosscheck_{a}")}
    for algorithm, entry in skipped.items():  # the candidate's skips: not compared
        print(f"note: crosscheck_{algorithm} skipped (yours: {entry.describe()})", file=sys.stderr)
    algorithms = tuple(a for a in algorithms if a not in skipped)
    # the budget covers the whole run: generating the cases too, one at a time as the run
    # reaches them (any --cases: those the budget leaves unreached are never generated)
    deadline = deadline_in(args.budget)
    if args.large:
        seed = LARGE_CROSSCHECK_SEED if args.seed is None else args.seed
        total, stream = args.cases or 10, large_crosscheck_case_stream(args.cases or 10, seed)
    else:
        seed = CROSSCHECK_SEED if args.seed is None else args.seed
        total, stream = args.cases or 50, crosscheck_case_stream(args.cases or 50, seed)
    cases: list = []  # the cases generated, by index (saved failures name theirs)
    with _candidate(args, args.candidate) as candidate:
        started = time.perf_counter()

        counter = CountProgress(total)

        def progress(index, reports):
            for r in reports:  # say so when it happens, not only in the summary
                if r.case_index == index and r.mismatches and r.mismatches[0].message.startswith("hung after"):
                    counter.close()
                    print(
                        f"note: the candidate hung on {r.algorithm} in case {index}: its remaining cases of "
                        f"{r.algorithm} are not run",
                        file=sys.stderr,
                    )
            bad = sum(bool(r.mismatches) for r in reports)
            skipped = sum(r.runs for r in reports if r.skipped is not None)
            more = f", {skipped} not run" if skipped else ""
            counter.update(index + 1, f"cases, {bad} failing runs{more}")

        if args.candidate_cmd is not None:
            absent = [a for a in algorithms if not candidate.implements(a)]
            if args.algorithms and absent:
                raise UsageError(f"--algorithms: {candidate.path} does not implement {', '.join(absent)}")
            if absent:
                print(f"note: {candidate.path} does not implement {', '.join(absent)}: not compared", file=sys.stderr)
            algorithms = tuple(a for a in algorithms if candidate.implements(a))
        generated = (cases.append(case) or case for case in stream)
        summary = crosscheck(candidate, candidate.path, generated, algorithms, progress, deadline=deadline, total=total)
        counter.close()
        output = candidate.take_output()
        _note_kept(candidate)
        statuses = xfails_file.crosscheck_statuses(summary.reports, lists)
        saved = save_crosscheck_failures(
            summary, cases, statuses, candidate, args.candidate_cmd, args.results_dir, seed=seed, large=args.large
        )
    elapsed = time.perf_counter() - started
    report = crosscheck_report(
        summary,
        candidate,
        algorithms=requested,
        statuses=statuses,
        skipped=skipped,
        lists=lists,
        cases=total,
        seed=seed,
        large=args.large,
        budget=args.budget,
        seconds=elapsed,
        output=output,
        saved=saved,
    )
    _write_reports(report, args)
    if not args.json:
        print(summary_text(summary))
        for line in _output_lines(output):
            print(line)
        for algorithm, (status, entry) in statuses.items():
            if entry is not None:
                print(f"crosscheck_{algorithm}: {status}: {entry.describe()}")
        print(f"{total} cases (seed {seed}) in {elapsed:.1f} s")
        for line in crosscheck_arithmetic_lines(summary) + normalised_lines(candidate):
            print(line)
        if ignored_line(candidate.ignored_fields):
            print(ignored_line(candidate.ignored_fields))
        if saved:
            print(
                f"{len(saved)} failing case(s) saved under {args.results_dir}/ (at most "
                f"{SAVED_PER_ALGORITHM} per algorithm; replay: {replay_command(next(iter(saved.values())))})"
            )
        print(suite_line(report["code_version"], seed=seed))  # which judge gave the verdict
        print(f"\n{report['verdict']}")
    return _exit_status(report)


def _cmd_crosscheck_counts(args) -> int:
    """crosscheck --counts: the judge at scale (properties/scale/, docs/scale_judge.md)."""
    from .scale import run as scale

    if not args.counts:
        raise UsageError("--sizes, --n and --yes belong to --counts")
    for flag, given in (
        ("--large", args.large),
        ("--cases", args.cases is not None),
        ("--algorithms", args.algorithms),
        ("--junitxml", args.junitxml),
        ("--html", args.html),
        ("--isolate", args.isolate),
    ):
        if given:
            raise UsageError(f"{flag} does not apply to --counts")
    if args.timeout == harness.DEFAULT_TIMEOUT_S:  # the per-call default is for small calls: one whole run here
        args.timeout = scale.DEFAULT_TIMEOUT_S
    args.sizes = args.sizes or ",".join(map(str, scale.DEFAULT_SIZES))
    try:
        return scale.main(args)
    except ValueError as error:  # bad sizes, a candidate that cannot be imported
        raise UsageError(str(error)) from None


def _note_kept(candidate) -> None:
    kept = candidate.kept_root
    if kept:
        print(f"request files of failing calls kept under {kept}", file=sys.stderr)


def _add_list_options(parser):
    parser.add_argument(
        "--xfails-file",
        metavar="FILE",
        help="the candidate's own expected failures: one check id or glob per line, '# reason' "
        "(properties/reports/xfails_file.py)",
    )
    parser.add_argument("--skips-file", metavar="FILE", help="the candidate's checks not to run, same format")
    parser.add_argument(
        "--strict-xfail",
        action="store_true",
        help="an expected failure of --xfails-file that passes fails the run (remove its line)",
    )


def _add_candidate_options(parser):
    parser.add_argument(
        "--timeout",
        type=_timeout,
        default=harness.DEFAULT_TIMEOUT_S,
        metavar="S",
        help=f"seconds one call of the implementation may take, its import too (default "
        f"{harness.DEFAULT_TIMEOUT_S:g}); a call that hangs ends its check at once",
    )
    parser.add_argument(
        "--budget",
        type=_budget,
        default=None,
        metavar="S",
        help="seconds the whole run may take (default: no limit): what has not started when it is "
        "spent is reported as not run, and the exit status is then 1",
    )
    parser.add_argument(
        "--memory-limit",
        type=parse_size,
        default=DEFAULT_MEMORY_LIMIT,
        metavar="SIZE",
        help="address space of the worker process (RLIMIT_AS), e.g. 4G or 'none' (default 16G)",
    )
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="run the implementation in the judge's own process (for a debugger; the verdict is "
        "then not protected from it)",
    )
    parser.add_argument(
        "--isolate",
        action="store_true",
        help="run even the built-in reference in a worker process (it runs in-process by default)",
    )
    parser.add_argument(
        "--candidate-cmd",
        metavar="CMD",
        help="a program of any language that answers run requests (docs/protocol.md), run once per "
        "call: a shell command line, the request's path appended (or where {request} stands); "
        'one whose describe says "serve": true is started once with --serve instead',
    )
    parser.add_argument(
        "--tape-format",
        choices=TAPE_FORMATS,
        default="auto",
        help="how --candidate-cmd gets tapes: inline JSON, .npy files, or auto (.npy from "
        "4096 rounds on, when the program reads them)",
    )
    parser.add_argument(
        "--keep-requests",
        metavar="DIR",
        help="--candidate-cmd: keep the request files of failing calls under DIR (default: a new "
        "temporary folder, named at the end)",
    )


def build_parser():
    parser = OneLineParser(
        prog="python -m properties", description="The property suite of Corruption Robust Active Learning"
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    check = sub.add_parser("check", help="run the checks against an implementation")
    check.add_argument(
        "--impl",
        help=f"import path of the implementation (default: the command ${CMD_ENV_VAR} if set, "
        f"else ${ENV_VAR} or 'reference')",
    )
    check.add_argument(
        "--profile", choices=profiles.PROFILES, help="Hypothesis profile (default ci under CI, else dev)"
    )
    check.add_argument("--only", nargs="+", metavar="CHECK", help="run only these checks")
    check.add_argument(
        "--list",
        action="store_true",
        help="list the check ids, one per line with the paper's line or lemma each cites, and run "
        "nothing (with --json: one JSON object)",
    )
    check.add_argument(
        "--json",
        action="store_true",
        help="print the report as one JSON object (schema: check-report.schema.json) instead of the table",
    )
    check.add_argument(
        "--seed",
        type=_seed,
        metavar="N|random",
        help=f"the run's base seed: each check draws its examples from (N, its id) alone; 'random' "
        f"draws a fresh one (printed with the report). Default: {seeds.DEFAULT_SEED} under dev and ci, the "
        "same examples every run; a fresh one under fuzz",
    )
    check.add_argument(
        "--quick",
        action="store_true",
        help=f"a first look in seconds: every check with its known examples and {profiles.QUICK_EXAMPLES} "
        "generated examples, from the same seed",
    )
    check.add_argument(
        "-j",
        "--jobs",
        type=_jobs_count,
        metavar="N",
        help="run the checks on N worker processes at once (default $CRAL_JOBS, else the machine's cores; 1 "
        "with --in-process); the report is the same for every N",
    )
    check.add_argument("--junitxml", metavar="PATH", help="also write the results as JUnit XML to PATH")
    _add_list_options(check)
    _add_report_options(check)
    check.add_argument(
        "--verbose",
        action="store_true",
        help="after the table, every expected failure and failure in full: violations, the finding's "
        "cause, the one-line Python reproducer (default: one short line each)",
    )
    check.add_argument(
        "--results-dir",
        default=None,
        metavar="DIR",
        help=f"save every failing case there as a file for `replay` (default ${RESULTS_DIR_ENV}, else "
        f"{DEFAULT_RESULTS_DIR}/ in the working directory; nothing is written when no check fails)",
    )
    _add_candidate_options(check)
    check.set_defaults(handler=_cmd_check)
    cross = sub.add_parser("crosscheck", help="run a candidate and the reference on the same tapes and compare")
    cross.add_argument(
        "--candidate", help="import path of the candidate implementation (e.g. fast); or --candidate-cmd"
    )
    cross.add_argument("--cases", type=int, help="how many fixed generated cases (default 50; 10 with --large)")
    cross.add_argument(
        "--seed",
        type=_seed,
        metavar="N|random",
        help="seed of the case set (default: the fixed set's own; 'random': a fresh one)",
    )
    cross.add_argument(
        "--large",
        action="store_true",
        help="the fixed cases with |H| >= 256 (intervals and random classes; minutes per case)",
    )
    cross.add_argument("--algorithms", nargs="+", choices=ALGORITHMS, help="compare only these algorithms")
    cross.add_argument(
        "--counts",
        action="store_true",
        help="the judge at scale: the candidate's counts-mode CALruption with its per-epoch record, "
        "judged epoch by epoch (docs/scale_judge.md; default candidate fast)",
    )
    cross.add_argument("--sizes", metavar="S,S", help="--counts: |H| = |X| of each run (default 1024,4096)")
    cross.add_argument("--n", type=int, metavar="N", help="--counts: rounds of each run (default 10^12)")
    cross.add_argument(
        "--yes",
        action="store_true",
        help="--counts: run sizes above the limit (|H| = |X| > 8192, hours and tens of GB): without it "
        "they are refused before any work, with the estimate",
    )
    cross.add_argument(
        "--json",
        action="store_true",
        help="print the report as one JSON object (schema: crosscheck-report.schema.json) instead of the table",
    )
    cross.add_argument(
        "--junitxml",
        metavar="PATH",
        help="also write the results as JUnit XML to PATH (one test per algorithm, crosscheck_<name>)",
    )
    cross.add_argument(
        "--results-dir",
        default=None,
        metavar="DIR",
        help=f"save failing runs there as files for `replay`, the first {SAVED_PER_ALGORITHM} of each "
        f"algorithm (default ${RESULTS_DIR_ENV}, else {DEFAULT_RESULTS_DIR}/)",
    )
    _add_list_options(cross)
    _add_report_options(cross)
    _add_candidate_options(cross)
    cross.set_defaults(handler=_cmd_crosscheck)
    again = sub.add_parser(
        "replay",
        help="re-run the check (or cross-check run) of a saved failing case (from "
        "check's or crosscheck's results folder)",
    )
    again.add_argument(
        "file",
        help="a failure file, e.g. cral-results/check_passive_output_is_erm-....json or "
        "cral-results/crosscheck_passive-case3-....json",
    )
    again.add_argument(
        "--impl", "--candidate", dest="impl", help="import path of the implementation (default: the one the file names)"
    )
    again.add_argument("--candidate-cmd", metavar="CMD", help="a command candidate instead (docs/protocol.md)")
    again.add_argument(
        "--timeout",
        type=_timeout,
        default=harness.DEFAULT_TIMEOUT_S,
        metavar="S",
        help=f"seconds one call of the implementation may take (default {harness.DEFAULT_TIMEOUT_S:g})",
    )
    again.add_argument(
        "--in-process",
        action="store_true",
        help="run an import-path implementation in this process (for a debugger: breakpoints work)",
    )
    again.set_defaults(handler=_cmd_replay)
    answer = sub.add_parser("answer", help="answer one run request (docs/protocol.md) with a Python module")
    answer.add_argument("--impl", required=True, help="import path of the module that answers")
    answer.add_argument("request", nargs="?", help="the request file (default: read the request from stdin)")
    answer.add_argument(
        "--serve", action="store_true", help="serve requests, one JSON line each way (docs/protocol.md)"
    )
    answer.add_argument("--one-shot", action="store_true", help="describe does not declare serve mode")
    answer.set_defaults(handler=_cmd_answer)
    add_campaign_parser(sub)
    comparison = sub.add_parser(
        "compare",
        help="compare two check --json reports, or two crosscheck --json "
        "reports: new failures, fixed, still failing, changed reproducers "
        "(exit 1 on a new failure)",
    )
    comparison.add_argument("old", metavar="OLD.json")
    comparison.add_argument("new", metavar="NEW.json")
    comparison.add_argument("--json", action="store_true", help="print one JSON object instead of the lists")
    comparison.set_defaults(handler=_cmd_compare)
    schemas = sub.add_parser("schemas", help="print the folder of the published JSON Schemas")
    schemas.set_defaults(handler=_cmd_schemas)
    kit = sub.add_parser(
        "conformance",
        help="send a program each request kind once and report, per document, what "
        "the judge cannot read (JSON path, value, rule), before any check runs",
    )
    kit.add_argument(
        "--candidate-cmd",
        metavar="CMD",
        required=True,
        help="the program (docs/protocol.md), as for check --candidate-cmd",
    )
    kit.add_argument(
        "--timeout",
        type=_timeout,
        default=harness.DEFAULT_TIMEOUT_S,
        metavar="S",
        help=f"seconds one call may take (default {harness.DEFAULT_TIMEOUT_S:g})",
    )
    kit.add_argument("--json", action="store_true", help="print one JSON object instead of the list")
    kit.set_defaults(handler=_cmd_conformance)
    return parser


def _list_checks(args) -> int:
    checks = all_checks()
    if args.json:
        print(json.dumps({"checks": [{"name": c.name, "cites": c.cites, "kind": c.kind} for c in checks.values()]}))
    else:
        width = max(len(name) for name in checks)
        for check in checks.values():
            print(f"{check.name:<{width}}  {check.cites}")
    return 0


def _cmd_replay(args) -> int:
    if args.impl is not None and args.candidate_cmd is not None:
        raise UsageError("give --impl (or --candidate) or --candidate-cmd, not both")
    if args.impl is not None:
        file_path_hint(args.impl, "--impl", "replay FILE")
    return replay(args.file, args.impl, args.candidate_cmd, timeout=args.timeout, in_process=args.in_process)


def _add_report_options(parser):
    parser.add_argument(
        "--json-indent", type=int, metavar="N", help="indent the JSON report by N spaces (default: one line)"
    )
    parser.add_argument(
        "--json-file", metavar="PATH", help="also write the JSON report to PATH (the table stays on stdout)"
    )
    parser.add_argument(
        "--html",
        metavar="PATH",
        help="also write the report as one self-contained HTML file to PATH (the verdict, each failure "
        "with its terms and reproducer, every check; no network needed to open it)",
    )


def _cmd_answer(args) -> int:
    from properties.judge.answer import command_line

    return command_line(
        [
            a
            for a, on in (
                (f"--impl={args.impl}", True),
                ("--serve", args.serve),
                ("--one-shot", args.one_shot),
                (args.request, args.request is not None),
            )
            if on
        ]
    )


def _cmd_compare(args) -> int:
    from properties.reports.compare import main as compare_main

    return compare_main(args.old, args.new, args.json)


def _cmd_conformance(args) -> int:
    from properties.judge.conformance import conformance, report_text

    try:
        described, reports = conformance(args.candidate_cmd, timeout=args.timeout)
    except ValueError as error:  # the program cannot describe itself: bad input
        raise UsageError(str(error)) from None
    if args.json:
        print(
            json.dumps(
                {
                    "format": "cral-conformance",
                    "version": 1,
                    "candidate": args.candidate_cmd,
                    "describe": described,
                    "documents": [r.to_json() for r in reports],
                    "ok": all(r.ok for r in reports),
                }
            )
        )
    else:
        print(report_text(reports))
    return 0 if all(r.ok for r in reports) else 1


def _cmd_schemas(args) -> int:
    from reference import documents

    print(documents.schema_dir())
    return 0


def main(argv=None) -> int:
    # SIGTERM (a CI timeout, kill) stops the run as Ctrl-C does (reference/command_line.py),
    # through the clean-up that closes the candidate's worker and its children
    return run(build_parser(), argv)


__all__ = ["build_parser", "impl_path", "main", "parse_size"]
