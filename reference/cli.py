"""`python -m reference`: run the exact algorithms from the command line.

Bad input ends the program with exit status 2 and one line on stderr."""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction

from . import adversary as adversaries
from .calruption import calruption, epoch_length
from .command_line import OneLineParser, UsageError, run
from .demo import CALRUPTION_CONSTANTS as DEMO_CALRUPTION_CONSTANTS
from .demo import SEEDS, TAU, N, run_demo
from .documents import load_adversary, load_instance, load_tape
from .exact import as_fraction, as_int
from .instance import Instance
from .instances import BUILTIN
from .params import Params
from .passive import passive
from .robust_cal import robust_cal
from .serialization import to_jsonable
from .tape import sample_tape
from .trace import trace_to_json

ALGORITHMS = ("passive", "robust_cal", "robust_cal_vanilla", "calruption")
ADVERSARIES = ("clean", "counterexample", "burst", "misspecification")


def _instance(spec: str) -> Instance:
    if spec in BUILTIN:
        return BUILTIN[spec]()
    if spec.endswith(".json"):
        return load_instance(spec)  # a bad file: DocumentError, one line naming the file and the path
    raise UsageError(f"--instance must be one of {sorted(BUILTIN)} or a .json file, got {spec!r}")


def _vector(text: str | None, field: str):
    if text is None:
        raise UsageError(f"{field} is required for this adversary")
    return [
        None if part.strip() in ("", "-") else as_fraction(part, f"{field}[{i}]")
        for i, part in enumerate(text.split(","))
    ]


# which of --n/--tau/--gamma/--eta each adversary takes; giving another is an error,
# not something to ignore silently
_ADVERSARY_OPTIONS = {
    "clean": {"n"},
    "counterexample": {"n", "tau"},
    "burst": {"n", "tau", "eta"},
    "misspecification": {"n", "gamma", "eta"},
    "file": set(),
}


def _refuse_unused(args, allowed: set, what: str):
    for option in ("n", "tau", "gamma", "eta", "seed", "adversary"):
        if option not in allowed and getattr(args, option, None) is not None:
            raise UsageError(f"--{option} does not apply to {what}")


def _adversary(args, instance: Instance):
    spec = args.adversary or "clean"
    kind = "file" if spec.endswith(".json") else spec
    if kind in _ADVERSARY_OPTIONS:
        _refuse_unused(args, _ADVERSARY_OPTIONS[kind] | {"seed", "adversary"}, f"--adversary {spec}")
    if args.n is None:
        args.n = 4096
    if spec.endswith(".json"):
        adversary = load_adversary(spec)
    elif spec not in ADVERSARIES:
        raise UsageError(f"--adversary must be one of {list(ADVERSARIES)} or a .json file, got {spec!r}")
    else:
        n = as_int(args.n, "--n", minimum=1)
        if spec == "clean":
            adversary = adversaries.clean(n)
        elif spec == "counterexample":
            adversary = adversaries.counterexample(_tau(args, n), n)
        elif spec == "burst":
            adversary = adversaries.early_burst(_vector(args.eta, "--eta"), _tau(args, n), n)
        else:
            if args.gamma is None:
                raise UsageError("--gamma is required for the misspecification adversary")
            adversary = adversaries.misspecification(as_fraction(args.gamma, "--gamma"), _vector(args.eta, "--eta"), n)
    adversary.bind(instance)  # checks the adversary fits the instance's points
    return adversary


def _seed(args) -> int:
    return 0 if args.seed is None else as_int(args.seed, "--seed", minimum=0)


def _tau(args, n: int) -> int:
    return as_int(args.tau if args.tau is not None else n // 8, "--tau", minimum=0, maximum=n)


def _params(args, n: int, num_hypotheses: int) -> Params:
    delta = as_fraction(args.delta, "--delta")
    if args.params == "paper":
        return Params.paper(n, num_hypotheses, delta)
    return Params.scaled(n, num_hypotheses, delta)


def _show_fraction(value: Fraction) -> str:
    return f"{value} (~{float(value):.6g})"


# A sampled tape holds three Python lists (x, y, u) of n entries: measured 190 bytes per
# round at its peak (`run robust_cal --n 2000000`: 0.40 GB; 20000000: 3.8 GB), rounded up
TAPE_BYTES_PER_ROUND = 200


def available_memory() -> int | None:
    """Bytes the system can still give (MemAvailable, Linux), or None where unknown."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _gb(size: int) -> str:
    return f"{size / 1e9:.1f} GB" if size >= 1e9 else f"{size / 1e6:.0f} MB"


def _check_tape_memory(n: int) -> None:
    """Say before sampling, not by a MemoryError after minutes, that a tape of n rounds
    does not fit; a large one that fits gets a note (it takes a while)."""
    need = n * TAPE_BYTES_PER_ROUND
    have = available_memory()
    if have is not None and need > have:
        raise UsageError(
            f"--n {n}: the exact tape needs about {_gb(need)} in memory ({TAPE_BYTES_PER_ROUND} bytes "
            f"per round) and {_gb(have)} is available; use a smaller --n, or the fast implementation's "
            "counts mode for long streams (fast.robust_cal_counts, docs/fast.md)"
        )
    if need > 1 << 30:
        print(f"note: --n {n}: the exact tape takes about {_gb(need)} in memory and minutes to sample", file=sys.stderr)


def _sample_or_explain(instance, adversary, seed):
    try:
        return sample_tape(instance, adversary, seed)
    except MemoryError:
        raise UsageError(
            f"--n {adversary.n}: out of memory sampling the tape (about {TAPE_BYTES_PER_ROUND} bytes per "
            "round); use a smaller --n"
        ) from None


def _calruption_too_short(algorithm: str, params: Params, n: int) -> str | None:
    """Why a CALruption run of n rounds completes no epoch, or None. At the paper's
    constants the first epoch has ceil(4 beta1) rounds (Algorithm 2, line 1; beta1 =
    32*640*beta3), about 10^6: a default run of 4096 rounds then queries every label and
    outputs h0 by convention (no epoch completed), which looks like a bug unless said."""
    if algorithm != "calruption":
        return None
    first = epoch_length(params, 1)
    if n >= first:
        return None
    hint = " (use --params scaled: epochs of 64, 256, 1024, ... rounds)" if params.regime == "paper" else ""
    return (
        f"CALruption's first epoch needs {first:,} rounds at the {params.regime} constants and n = {n:,}: no epoch "
        f"completes, every label is queried and the output is h0 by convention, not a learned hypothesis; "
        f"give --n {first:,} or more{hint}"
    )


def _cmd_run(args) -> int:
    instance = _instance(args.instance)
    if args.tape:
        _refuse_unused(args, set(), "--tape (the tape fixes the rounds)")
        tape = load_tape(args.tape)  # inline (cral-tape) or .npy files (cral-tape-npy)
        adversary = None
    else:
        adversary = _adversary(args, instance)
        _check_tape_memory(adversary.n)
        tape = _sample_or_explain(instance, adversary, _seed(args))
    params = _params(args, tape.n, instance.num_hypotheses)
    too_short = _calruption_too_short(args.algorithm, params, tape.n)
    if too_short:
        print(f"warning: {too_short}", file=sys.stderr)
    if args.algorithm == "passive":
        trace = passive(instance.hypotheses, tape, params)
    elif args.algorithm == "calruption":
        trace = calruption(instance.hypotheses, tape, params)
    else:
        trace = robust_cal(instance.hypotheses, tape, params, vanilla=args.algorithm == "robust_cal_vanilla")
    if args.json:
        print(json.dumps(trace_to_json(trace)))
        return 0
    out = trace.output
    print(f"algorithm        {trace.algorithm} ({params.regime} constants, delta = {params.delta})")
    print(f"instance         {args.instance}: {instance.num_points} points, {instance.num_hypotheses} hypotheses")
    if adversary is not None:
        c_total = adversary.total(instance, 1, tape.n)
        shown = args.adversary or "none (clean labels)"
        print(f"adversary        {shown}, C_total = {_show_fraction(c_total)}")
        print(f"tape             n = {tape.n}, seed = {tape.seed}")
    else:
        print(f"tape             {args.tape}, n = {tape.n}")
    print(f"labels requested {trace.labels_requested} of {tape.n}")
    if getattr(trace, "checkpoints", None):
        shrink = [
            f"t={c.t}: {len(c.version_space)}->{len(c.next_version_space)}"
            for c in trace.checkpoints
            if len(c.next_version_space) < len(c.version_space)
        ]
        print(f"eliminations     {', '.join(shrink) if shrink else 'none'}")
    if getattr(trace, "epochs", None) is not None:
        print(
            f"epochs           {len(trace.epochs)} completed, epoch {trace.final_epoch} cut after "
            f"{trace.unfinished_rounds} rounds (it needs {epoch_length(params, trace.final_epoch)})"
        )
        if too_short:
            print(f"note             {too_short}")
        for e in trace.epochs:
            print(
                f"  epoch {e.l}: rounds {e.tau}..{e.tau + e.length - 1}, labels {e.labels_requested}, "
                f"h*_hat = h{e.h_star_hat}, |V^{e.l}| = {len(e.layers[-1])}, LP objective ~{float(e.lp_objective):.3g}"
            )
    print(f"output           h{out} = {''.join(map(str, instance.hypotheses[out]))}; h* = h{instance.best}")
    print(f"R*(output)       {_show_fraction(instance.risk(out))}")
    print(f"excess risk      Delta_out = {_show_fraction(instance.gap(out))}")
    return 0


def stderr_progress(what: str):
    """A progress(done, total) callback writing to stderr: one line rewritten in place
    (and cleared at the end) on a terminal, a plain line per step otherwise (a log)."""
    terminal = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if terminal:
            end = "\r\033[K" if done == total else ""
            print(f"\r{what} {done}/{total}", end=end, file=sys.stderr, flush=True)
        else:
            print(f"{what} {done}/{total}", file=sys.stderr, flush=True)

    return progress


def _cmd_demo(args) -> int:
    seeds = tuple(range(as_int(args.seeds, "--seeds", minimum=1)))
    _check_tape_memory(as_int(args.n, "--n", minimum=2))  # one seed's tape at a time
    result = run_demo(
        seeds=seeds,
        n=as_int(args.n, "--n", minimum=2),
        tau=as_int(args.tau, "--tau", minimum=0, maximum=args.n),
        progress=stderr_progress("demo: seed"),
    )
    if args.json:
        print(json.dumps(to_jsonable(result)))
        return 0
    best = result.best
    print("Appendix counter-example: xi1 = 1/2, xi2 = 1/128, eta^{x1} = 15/32 for t <= tau, then clean")
    print("outputs per seed: RobustCAL vanilla / modified and passive at the paper's constants;")
    print(
        f"CALruption at scaled constants ({DEMO_CALRUPTION_CONSTANTS}; at the paper's its first epoch "
        f"alone needs {result.calruption_paper_first_epoch:,} rounds)"
    )
    print(f"n = {result.n}, tau = {result.tau}, delta = {result.delta}; h* = h{best} (index {best})")
    print(
        f"{'seed':>4}  {'vanilla':>7}  {'h* lost at':>10}  {'modified':>8}  {'passive':>7}  {'CALruption':>10}  "
        f"{'h* queried':>10}  {'labels vanilla/modified/CALruption':>34}"
    )
    for row in result.rows:
        lost = "-" if row.vanilla_eliminated_best_at is None else str(row.vanilla_eliminated_best_at)
        labels = f"{row.vanilla_labels}/{row.modified_labels}/{row.calruption_labels}"
        print(
            f"{row.seed:>4}  {'h%d' % row.vanilla_output:>7}  {lost:>10}  {'h%d' % row.modified_output:>8}  "
            f"{'h%d' % row.passive_output:>7}  {'h%d' % row.calruption_output:>10}  "
            f"{'yes' if row.calruption_keeps_best_queried else 'NO':>10}  {labels:>34}"
        )
    rows = result.rows
    print(
        f"vanilla wrong on {sum(r.vanilla_output != best for r in rows)}/{len(rows)} seeds; right: "
        f"modified {sum(r.modified_output == best for r in rows)}/{len(rows)}, "
        f"passive {sum(r.passive_output == best for r in rows)}/{len(rows)}, "
        f"CALruption {sum(r.calruption_output == best for r in rows)}/{len(rows)} "
        f"(scaled constants, beta1 = 16; it kept querying where h* disagrees on "
        f"{sum(r.calruption_keeps_best_queried for r in rows)}/{len(rows)})"
    )
    return 0


def _cmd_tape(args) -> int:
    instance = _instance(args.instance)
    adversary = _adversary(args, instance)
    _check_tape_memory(adversary.n)
    tape = _sample_or_explain(instance, adversary, _seed(args))
    print(json.dumps(tape.to_json()))
    return 0


def _cmd_show(args) -> int:
    """The instance as JSON or, with --adversary, that adversary (bound to the instance)."""
    instance = _instance(args.instance)
    if args.seed is not None:
        raise UsageError("--seed does not apply to show (an instance or adversary has no tape; `tape` takes --seed)")
    if not args.adversary:
        _refuse_unused(args, set(), "show without --adversary (the instance alone)")
    data = _adversary(args, instance).to_json() if args.adversary else instance.to_json()
    print(json.dumps(data, indent=1))
    return 0


def _add_source_options(parser):
    parser.add_argument("--instance", default="counterexample", help=f"{' | '.join(sorted(BUILTIN))} | FILE.json")
    parser.add_argument("--adversary", help=f"{' | '.join(ADVERSARIES)} | FILE.json (default clean)")
    parser.add_argument("--n", type=int, help="rounds (default 4096)")
    parser.add_argument("--tau", type=int, help="last corrupted round for counterexample/burst (default n // 8)")
    parser.add_argument("--gamma", help="mixing weight of the misspecification adversary, e.g. 1/8")
    parser.add_argument("--eta", help="comma-separated eta vector (burst target or eta~), '-' keeps a point clean")
    parser.add_argument("--seed", type=int, help="tape seed (default 0)")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="python -m reference", description="Exact reference for Corruption Robust Active Learning"
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)

    run = sub.add_parser("run", help="run one algorithm and print a summary (or the trace with --json)")
    run.add_argument("algorithm", choices=ALGORITHMS)
    _add_source_options(run)
    run.add_argument("--tape", help="a tape JSON file (replaces --adversary/--n/--seed)")
    run.add_argument("--params", choices=("paper", "scaled"), default="paper")
    run.add_argument("--delta", default="1/20", help="confidence (a rational, default 1/20)")
    run.add_argument("--json", action="store_true", help="print the full trace as JSON")
    run.set_defaults(handler=_cmd_run)

    demo = sub.add_parser("demo", help="the appendix counter-example: vanilla vs modified RobustCAL vs passive")
    demo.add_argument("--seeds", type=int, default=len(SEEDS), help="run seeds 0..K-1 (default 10)")
    demo.add_argument("--n", type=int, default=N)
    demo.add_argument("--tau", type=int, default=TAU)
    demo.add_argument("--json", action="store_true")
    demo.set_defaults(handler=_cmd_demo)

    tape = sub.add_parser("tape", help="print the tape JSON for an instance, adversary and seed")
    _add_source_options(tape)
    tape.set_defaults(handler=_cmd_tape)

    show = sub.add_parser("show", help="print an instance, or with --adversary that adversary, as JSON")
    _add_source_options(show)
    show.set_defaults(handler=_cmd_show, adversary=None)
    return parser


def main(argv=None) -> int:
    return run(build_parser(), argv)
