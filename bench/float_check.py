"""What judging a float candidate costs, and whether `check` still has teeth for one
(every broken copy of fast/ caught through a float candidate's derived error bounds).

    python bench/float_check.py [--profile ci] [--mutants NAME ...] [--no-full] [--json PATH]

1. `python -m properties check` wall time for fast (float64) and for the exact reference,
   each a subprocess of the command line with the same profile, with its counts of
   statuses and its failing checks.
2. For each broken copy of fast (teeth/broken/fast_mutants.py): its named checks
   (`caught_by`) run in turn through properties.run.runner.run_check under the profile (a
   worker process per copy, as `check` runs it; Hypothesis shrinks as in `check`):
   whether a check FAILED it, the first catch time (seconds from the copy's first check
   to the first example on which a check's own logic found a violation), the minimal
   (shrunk) example, and the control: whether plain fast passes that same example (a
   catch whose example plain fast also fails may be a rounding, not the bug).

Prints a table and writes JSON (default bench/results/float_check.json)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import _report  # noqa: E402

from properties.checks.registry import all_checks  # noqa: E402
from properties.judge.load import load_impl  # noqa: E402
from properties.run.runner import FAILED, violations_of  # noqa: E402
from teeth.broken.fast_mutants import MUTANTS, PREFIX, build, first_catch  # noqa: E402
from teeth.reference_copies import importable  # noqa: E402


def full_check(impl: str, profile: str) -> dict:
    """`python -m properties check --impl IMPL --profile PROFILE`, timed."""
    with tempfile.TemporaryDirectory() as tmp:
        report_path = Path(tmp) / "report.json"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        started = time.perf_counter()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "properties",
                "check",
                "--impl",
                impl,
                "--profile",
                profile,
                "--json-file",
                str(report_path),
                "--results-dir",
                str(Path(tmp) / "results"),
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - started
        report = json.loads(report_path.read_text()) if report_path.exists() else {"checks": []}
    statuses: dict[str, int] = {}
    for check in report["checks"]:
        statuses[check["status"]] = statuses.get(check["status"], 0) + 1
    return {
        "impl": impl,
        "profile": profile,
        "wall_s": seconds,
        "exit": done.returncode,
        "statuses": statuses,
        "failing": [c["name"] for c in report["checks"] if c.get("failing")],
        "stderr_tail": done.stderr[-500:] if done.returncode not in (0, 1) else "",
    }


def mutant_catch(mutant, directory, plain_fast, profile: str) -> dict:
    """The copy's named checks in turn until one fails it; the first catch time counts from
    the start of its first check."""
    checks = all_checks()
    entry = {
        "name": mutant.name,
        "description": mutant.description,
        "from_epoch": mutant.from_epoch,
        "caught_by": list(mutant.caught_by),
        "caught": False,
        "first_catch_s": None,
        "check": None,
    }
    with load_impl(build(mutant, directory)) as broken:
        started = time.perf_counter()
        for name in mutant.caught_by:
            before = time.perf_counter() - started
            result, example, seconds, minimal = first_catch(
                checks[name], broken, profile=profile, prefer_violations=True, with_last=True
            )
            if result.status != FAILED or example is None:
                continue
            control = violations_of(checks[name], plain_fast, minimal)
            entry.update(
                caught=True,
                check=name,
                first_catch_s=before + seconds,
                examples=result.examples,
                check_s=(result.statistics or {}).get("seconds"),
                violation=result.violations[0][:400],
                minimal_example=result.short,
                reproducer=(result.counterexample or "")[:2000],
                unshrunk=result.unshrunk,
                control_passes=not control,
                control_violation=str(control[0])[:400] if control else None,
            )
            break
    return entry


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="ci")
    parser.add_argument("--mutants", nargs="*", help="only these mutants (default: all)")
    parser.add_argument("--no-full", action="store_true", help="skip the two full `check` runs")
    parser.add_argument("--json", default=str(ROOT / "bench" / "results" / "float_check.json"))
    args = parser.parse_args(argv)
    from properties.core import profiles

    profiles.load(args.profile)
    report: dict = {"benchmark": "float_check", "profile": args.profile}
    if not args.no_full:
        report["full_check"] = [full_check(impl, args.profile) for impl in ("fast", "reference")]
        for run in report["full_check"]:
            print(
                f"check --impl {run['impl']:9s} --profile {run['profile']}: {run['wall_s']:7.1f} s wall, "
                f"exit {run['exit']}, {run['statuses']}; failing: {', '.join(run['failing']) or '-'}"
            )
        fast_s, reference_s = (run["wall_s"] for run in report["full_check"])
        report["fast_over_reference"] = fast_s / reference_s
        print(f"fast / reference wall time: {report['fast_over_reference']:.2f}")
    chosen = [m for m in MUTANTS if not args.mutants or m.name in args.mutants]
    entries = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        importable(Path(tmp), PREFIX) as directory,
        load_impl("fast", isolate=False) as plain_fast,
    ):
        for mutant in chosen:
            entry = mutant_catch(mutant, directory, plain_fast, args.profile)
            entries.append(entry)
            when = f"{entry['first_catch_s']:6.2f} s" if entry["caught"] else "   never"
            control = "-" if not entry["caught"] else "passes" if entry["control_passes"] else "FAILS too"
            print(
                f"{mutant.name:42s} epoch>={mutant.from_epoch} {'caught' if entry['caught'] else 'MISSED':6s} "
                f"{when} by {entry['check'] or '-'}; plain fast on its example: {control}"
                + (f"; minimal: {entry['minimal_example']}" if entry["caught"] else "")
            )
    caught = sum(e["caught"] for e in entries)
    meaningful = sum(e["caught"] and e["control_passes"] for e in entries)
    report.update(
        mutants=entries,
        caught=caught,
        total=len(entries),
        caught_fraction=caught / max(1, len(entries)),
        caught_with_passing_control=meaningful,
    )
    print(
        f"caught {caught}/{len(entries)} ({100 * caught / max(1, len(entries)):.0f} %); "
        f"plain fast passes the catching example for {meaningful} of them"
    )
    _report.write(report, args.json)
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
