"""`python -m proofs_check [--json] [--only ID] [--markdown FILE]`

Exit status: 0 when every step is proved (possibly from a refuted premise), not mechanical,
not well-formed as printed (with the reason), or refuted with a finding cross-linked in
FINDINGS.md (a known error of the paper); 1 when a step is refuted with
no finding or left unknown (something to look at); 2 on bad command-line input."""

from __future__ import annotations

import json
import sys
import time

from reference.command_line import OneLineParser, UsageError, output_file, run

from .decide import NOT_MECH, NOT_WELL_FORMED, PROVED, PROVED_FROM_REFUTED, REFUTED
from .errata import errata_markdown
from .report import markdown, run_steps, table, to_json
from .steps import all_steps, select


def _cmd(args) -> int:
    # a path that cannot be written fails now, not after deciding every step
    output_file("--markdown", args.markdown)
    output_file("--errata", args.errata)
    steps = select(all_steps(), args.only)
    if not steps:
        raise UsageError(f"--only: no step id, id prefix or lemma label matches {args.only!r}")
    started = time.perf_counter()
    results = run_steps(steps, progress=sys.stderr)
    elapsed = time.perf_counter() - started
    if args.json:
        print(json.dumps(to_json(results), indent=1))
    else:
        print(table(results))
        print(f"{len(results)} steps decided in {elapsed:.1f} s")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as handle:
            handle.write(markdown(results))
    if args.errata:
        with open(args.errata, "w", encoding="utf-8") as handle:
            handle.write(errata_markdown(results))
    unexplained = [
        s
        for s, v in results
        if v.status not in (PROVED, PROVED_FROM_REFUTED, NOT_MECH, NOT_WELL_FORMED)
        and not (v.status == REFUTED and s.finding)
    ]
    return 1 if unexplained else 0


def main(argv=None) -> int:
    parser = OneLineParser(
        prog="python -m proofs_check", description="Decide every encoded algebraic step of the paper's proofs."
    )
    parser.add_argument("--json", action="store_true", help="print one JSON list of steps instead of the table")
    parser.add_argument("--only", metavar="ID", help="a step id, an id prefix (e.g. passive) or a lemma label")
    parser.add_argument("--markdown", metavar="FILE", help="also write the markdown report to FILE")
    parser.add_argument("--errata", metavar="FILE", help="also write the errata (ERRATA.md) to FILE")
    parser.set_defaults(handler=_cmd)
    return run(parser, argv)
