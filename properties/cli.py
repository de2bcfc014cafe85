"""`python -m properties check`: run every registered check against an implementation.

Exit status: 0 when every check passed or failed as expected, 1 on any unexpected
failure or unexpected pass, 2 on bad command-line input (one line on stderr)."""
from __future__ import annotations

import json
import sys
import time

from reference.cli import OneLineParser, UsageError, run

from . import profiles
from .crosscheck import ALGORITHMS, crosscheck, summary_text
from .impl import ENV_VAR, impl_path, load_impl
from .registry import all_checks
from .runner import FAILED, XPASS, run_check
from .strategies import CROSSCHECK_SEED, fixed_crosscheck_cases


def _cmd_check(args) -> int:
    profile = profiles.load(args.profile)
    impl = load_impl(args.impl)
    checks = all_checks()
    if args.only:
        unknown = [name for name in args.only if name not in checks]
        if unknown:
            raise UsageError(f"--only names unknown checks: {', '.join(unknown)}")
        checks = {name: checks[name] for name in args.only}
    results = []
    started = time.perf_counter()
    for i, check in enumerate(checks.values(), start=1):
        print(f"[{i}/{len(checks)}] {check.name} ...", end="", file=sys.stderr, flush=True)
        result = run_check(check, impl)
        results.append(result)
        print(f" {result.status} ({result.examples} examples)", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    bad = [r for r in results if r.status in (FAILED, XPASS)]
    if args.json:
        print(json.dumps({"impl": impl_path(args.impl), "profile": profile, "seconds": round(elapsed, 2),
                          "checks": [r.to_json() for r in results]}))
    else:
        width = max(len(r.name) for r in results)
        print(f"implementation {impl_path(args.impl)}, profile {profile}, {elapsed:.1f} s")
        print(f"{'check':<{width}}  {'status':<19}  {'examples':>8}  cites")
        for r in results:
            print(f"{r.name:<{width}}  {r.status:<19}  {r.examples:>8}  {r.cites}")
        for r in results:
            if r.counterexample:
                print(f"\n{r.name} ({r.status}{': ' + r.reason if r.reason else ''})")
                for v in r.violations[:3]:
                    print(f"  {v}")
                print(f"  reproduce: {r.counterexample}")
        counts = {s: sum(r.status == s for r in results) for s in sorted({r.status for r in results})}
        print("\n" + ", ".join(f"{n} {s}" for s, n in counts.items()))
    return 1 if bad else 0


def _cmd_crosscheck(args) -> int:
    if args.cases < 1:
        raise UsageError(f"--cases must be >= 1, got {args.cases}")
    candidate = load_impl(args.candidate)
    algorithms = tuple(args.algorithms or ALGORITHMS)
    cases = fixed_crosscheck_cases(args.cases, args.seed)
    started = time.perf_counter()

    def progress(index, reports):
        bad = sum(not r.ok for r in reports)
        print(f"\r[{index + 1}/{len(cases)}] cases, {bad} failing runs", end="", file=sys.stderr, flush=True)

    summary = crosscheck(candidate, args.candidate, cases, algorithms, progress)
    print(file=sys.stderr)
    elapsed = time.perf_counter() - started
    if args.json:
        print(json.dumps({**summary.to_json(), "cases": len(cases), "seed": args.seed, "seconds": round(elapsed, 2)}))
    else:
        print(summary_text(summary))
        print(f"{len(cases)} cases (seed {args.seed}) in {elapsed:.1f} s")
    return 1 if summary.mismatches else 0


def build_parser():
    parser = OneLineParser(prog="python -m properties", description="The property suite of Corruption Robust Active Learning")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    check = sub.add_parser("check", help="run the checks against an implementation")
    check.add_argument("--impl", help=f"import path of the implementation (default ${ENV_VAR} or 'reference')")
    check.add_argument("--profile", choices=profiles.PROFILES, help="Hypothesis profile (default ci under CI, else dev)")
    check.add_argument("--only", nargs="+", metavar="CHECK", help="run only these checks")
    check.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    check.set_defaults(handler=_cmd_check)
    cross = sub.add_parser("crosscheck", help="run a candidate and the reference on the same tapes and compare")
    cross.add_argument("--candidate", required=True, help="import path of the candidate implementation (e.g. fast)")
    cross.add_argument("--cases", type=int, default=50, help="how many fixed generated cases (default 50)")
    cross.add_argument("--seed", type=int, default=CROSSCHECK_SEED, help="seed of the fixed case set")
    cross.add_argument("--algorithms", nargs="+", choices=ALGORITHMS, help="compare only these algorithms")
    cross.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    cross.set_defaults(handler=_cmd_crosscheck)
    return parser


def main(argv=None) -> int:
    return run(build_parser(), argv)
