"""CALruption at |H| in the thousands: how the fast path and the exact reference scale.

    python bench/calruption_scaling.py [--sizes 128,256,512,1024] [--skip-tape] [--skip-reference]
        [--reference-epochs 64x256:10,256x256:10] [--reference-timeout 3600] [--json PATH]
        [--backend numpy] [--workers 1] [--timeout 1800]

Each measurement runs in a fresh subprocess (BLAS and OpenMP pinned to one thread before
numpy loads), which reports its wall time, its CPU time (process time: all its threads;
the figure to read on a machine shared with other work) and its own peak resident set
size (VmHWM of /proc/self/status, i.e. the whole process: interpreter, instance, run).
Beside each counts-mode size it prints a floor estimate: the time of one
vectorised pass over every pair's Catoni slots (|H|(|H|-1)/2 x (2 G_l + 1) per epoch,
G_l the q groups of epoch l) plus one pass over the hypothesis matrix per epoch, at this
machine's measured float64 pass rate -- the data line 8 needs, read once; the run's
ratio to it says how far the whole epoch (Catoni's iterations, the LP of line 9 and line
13 included) is from that floor. Figures:

* counts mode: fast CALruption, thresholds with |X| = |H| (bench/run.py's
  thresholds_instance), n = 10^12, Params.paper(n, |H|, 1/10), a clean adversary, seed 1,
  for each |H| of --sizes: seconds of `fast.calruption_counts` (building the instance is
  timed apart, `setup_s`), CPU seconds, peak RSS, the floor estimate, epochs completed, q
  groups per epoch, output against instance.best; the growth exponents
  log(t_1024 / t_128) / log 8 and log(t_4096 / t_1024) / log 4 (wall and CPU) when the
  sizes ran; --backend picks fast's array backend (fast/backends.py), --workers the threads
  of line 8's Catoni roots (BLAS stays at one thread); the run keeps no |H| x |H| field of
  finished epochs (keep_pairs=False), and each size prints its CPU seconds by line;
* tape mode: fast CALruption on 1024 hypotheses x 1024 points, paper constants, clean
  stream, seed 1, n = 2^24: the smallest power of two for which two epochs complete with
  the paper's constants at |H| = 1024 (|I_1| + |I_2| = 16.18 million rounds; the rest of
  the tape is the unfinished third epoch). Tape sampling (fast.sample_tape) is timed apart;
* the exact reference per epoch (reference.calruption.calruption_epoch) at the sizes of
  --reference-epochs (|H| x |X|: epochs), paper constants, n = 10^12, its counts drawn by
  fast.counts' sampler from the reference's own exact q (converted to float only to
  sample): seconds of each of the first epochs. A size that runs past --reference-timeout
  seconds is stopped; the epochs it finished are reported.

Targets (TARGETS below) are reported met or not as in bench/run.py. Writes JSON to
bench/results/calruption_scaling.json (or --json). bench/run.py calls `counts_scaling`
for its sub-report (counts mode only: the tape and reference parts take minutes)."""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from fractions import Fraction  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _report  # noqa: E402

DELTA = Fraction(1, 10)
COUNTS_N = 10**12
TAPE_SIZE = 1024
TAPE_N = 2**24
SIZES = (128, 256, 512, 1024)
REFERENCE_EPOCHS = ((64, 256, 10), (256, 256, 10))
TARGETS = {
    "growth_exponent_128_1024": ("<=", 2.3),
    # on the 2-core machine: the paper's scale |H| = |X| = 4096 within a minute
    "counts_4096_s": ("<=", 60.0),
    "counts_4096_peak_rss_mb": ("<=", 8192.0),
    "growth_exponent_1024_4096": ("<=", 2.2),
    "counts_1024_s": ("<=", 60.0),
    "counts_1024_peak_rss_mb": ("<=", 4096.0),
    "counts_512_s": ("<=", 10.0),
    "reference_64x256_slowest_epoch_s": ("<=", 1.0),
    "reference_256x256_slowest_epoch_s": ("<=", 60.0),
}


def _peak_rss_mb() -> float:
    """This process's peak resident set size (VmHWM), in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    import resource  # no /proc: ru_maxrss (KiB on Linux and the BSDs, bytes on macOS)

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _emit(record: dict) -> None:
    print(json.dumps(record), flush=True)


# -- children: one measurement each, one JSON line per result on stdout ---------------------
def pass_seconds_per_element(repeats: int = 5) -> float:
    """Seconds per element of one vectorised float64 pass (a + b into a preallocated out,
    2^22 elements: out of cache), the best of a few: the floor estimate's unit."""
    import numpy as np

    a, b = np.ones(2**22), np.ones(2**22)
    out = np.empty_like(a)
    best = math.inf
    for _ in range(repeats):
        started = time.perf_counter()
        np.add(a, b, out=out)
        best = min(best, time.perf_counter() - started)
    return best / a.size


def floor_estimate(hypotheses: int, points: int, groups_per_epoch, per_element: float) -> float:
    """One pass over every pair's Catoni slots plus one over H, per epoch (module notes)."""
    pairs = hypotheses * (hypotheses - 1) // 2
    return per_element * sum(pairs * (2 * g + 1) + hypotheses * points for g in groups_per_epoch)


def _child_counts(size: int, backend: str = "numpy", workers: str = "1") -> None:
    import numpy as np
    from _instances import best_hypothesis, thresholds_instance

    import fast
    import reference as R

    started = time.perf_counter()
    instance = thresholds_instance(size, size)
    params = R.Params.paper(COUNTS_N, size, DELTA)
    adversary = R.adversary.clean(COUNTS_N)
    setup_s = time.perf_counter() - started
    from fast import counts as counts_mode

    started, cpu = time.perf_counter(), time.process_time()
    draw = counts_mode.epoch_counts

    def epoch_counts(env, rng):  # one progress line as each epoch's counts are drawn
        inner = draw(env, rng)
        calls = []

        def counts(start, end, q):
            if calls:
                _emit(
                    {
                        "progress": {
                            "hypotheses": size,
                            "epochs_done": len(calls),
                            "seconds": time.perf_counter() - started,
                            "cpu_s": time.process_time() - cpu,
                            "peak_rss_mb": _peak_rss_mb(),
                        }
                    }
                )
            calls.append(start)
            return inner(start, end, q)

        return counts

    counts_mode.epoch_counts = epoch_counts
    timings: dict = {}
    # keep_pairs=False: the run keeps no |H| x |H| field of finished epochs (the same
    # computation; at 4096 the fields are 640 MiB an epoch, fast.calruption.calruption_run)
    run = fast.calruption_counts(
        instance,
        adversary,
        params,
        1,
        raw=True,
        backend=backend,
        keep_pairs=False,
        timings=timings,
        workers=int(workers),
    )
    seconds, cpu_s = time.perf_counter() - started, time.process_time() - cpu
    peak_rss_mb = _peak_rss_mb()  # before the pass-rate measurement's arrays
    best = best_hypothesis(instance)
    groups = [len(np.unique(e.q[e.seen > 0])) for e in run.epochs]
    per_element = pass_seconds_per_element()
    _emit(
        {
            "hypotheses": size,
            "points": size,
            "n": COUNTS_N,
            "backend": backend,
            "workers": int(workers),
            "seconds": seconds,
            "cpu_s": cpu_s,
            "setup_s": setup_s,
            "peak_rss_mb": peak_rss_mb,
            "q_groups_per_epoch": groups,
            "pass_ns_per_element": per_element * 1e9,
            "floor_s": floor_estimate(size, size, groups, per_element),
            "epochs_completed": len(run.epochs),
            "labels_requested": run.labels_requested,
            "output": run.output,
            "best": best,
            "output_is_best": run.output == best,
            "seconds_by_line": timings,
        }
    )


def _child_tape(size: int, n: int) -> None:
    from _instances import thresholds_instance

    import fast
    import reference as R
    from fast.constants import FloatParams

    instance = thresholds_instance(size, size)
    params = R.Params.paper(n, size, DELTA)
    lengths = [FloatParams.of(params).epoch_length(l) for l in (1, 2)]
    started = time.perf_counter()
    tape = fast.sample_tape(instance, R.adversary.clean(n), 1)
    sampling_s = time.perf_counter() - started
    started = time.perf_counter()
    run = fast.calruption(instance.hypotheses, tape, params, raw=True)
    seconds = time.perf_counter() - started
    _emit(
        {
            "hypotheses": size,
            "points": size,
            "n": n,
            "epoch_lengths_1_2": lengths,
            "seconds": seconds,
            "samples_per_s": n / seconds,
            "tape_sampling_s": sampling_s,
            "peak_rss_mb": _peak_rss_mb(),
            "epochs_completed": len(run.epochs),
            "labels_requested": run.labels_requested,
            "output": run.output,
            "best": instance.best,
        }
    )


def _child_reference(hypotheses: int, points: int, epochs: int) -> None:
    """The reference's epoch update driven epoch by epoch; one line per finished epoch."""
    import importlib

    import numpy as np
    from _instances import thresholds_instance

    import reference as R
    from fast import counts as counts_mode

    C = importlib.import_module("reference.calruption")  # the package's `calruption` is the function
    instance = thresholds_instance(points, hypotheses)
    params = R.Params.paper(COUNTS_N, hypotheses, DELTA)
    draw = counts_mode.epoch_counts(
        counts_mode.Environment(instance, R.adversary.clean(COUNTS_N)), np.random.default_rng(1)
    )
    state = C.initial_state(points, hypotheses, params)
    for _ in range(epochs):
        seen, queried = draw(state.tau, state.tau + state.length - 1, np.array([float(v) for v in state.q]))
        counts = C.EpochCounts(tuple(int(s) for s in seen), tuple((int(a), int(b)) for a, b in queried))
        started = time.perf_counter()
        record, state = C.calruption_epoch(instance.hypotheses, state, counts, params)
        seconds = time.perf_counter() - started
        _emit(
            {
                "l": record.l,
                "seconds": seconds,
                "q_groups": len(set(record.q)),
                "lp_method": record.lp_method,
                "h_star_hat": record.h_star_hat,
                "peak_rss_mb": _peak_rss_mb(),
            }
        )


def _child(argv) -> int:
    kind, *numbers = argv
    if kind == "counts":
        _child_counts(int(numbers[0]), *numbers[1:])
        return 0
    numbers = [int(v) for v in numbers]
    {"tape": _child_tape, "reference": _child_reference}[kind](*numbers)
    return 0


# -- the parent --------------------------------------------------------------------------
def _run_child(args, timeout: float | None = None, progress: list | None = None) -> tuple[list[dict], str]:
    """Run one child; (its JSON lines, how it ended: "ok", "timeout after N s" or the error).
    Lines with a "progress" key (one per epoch of a counts-mode child) are printed as they
    come and collected into `progress` instead, so a size stopped by the timeout still
    reports the epochs it finished."""
    import threading

    command = [sys.executable, str(Path(__file__).resolve()), "--child", *map(str, args)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as child:
        timed_out = threading.Event()

        def stop():
            timed_out.set()
            child.kill()

        timer = threading.Timer(timeout, stop) if timeout else None
        if timer:
            timer.start()
        lines = []
        for line in child.stdout:
            if not line.startswith("{"):
                continue
            record = json.loads(line)
            if "progress" in record:
                if progress is not None:
                    progress.append(record["progress"])
                print(f"    {json.dumps(record['progress'])}", flush=True)
            else:
                lines.append(record)
        err = child.stderr.read()
        child.wait()
        if timer:
            timer.cancel()
        if timed_out.is_set():
            ended = f"timeout after {timeout:g} s"
        else:
            ended = "ok" if child.returncode == 0 else f"exit {child.returncode}: {err.strip().splitlines()[-1:]}"
    return lines, ended


def _exponent(by_size: dict, small: int, large: int, field: str = "seconds"):
    if small in by_size and large in by_size:
        return math.log(by_size[large][field] / by_size[small][field]) / math.log(large / small)
    return None


def counts_scaling(sizes=SIZES, backend: str = "numpy", timeout: float | None = None, workers: int = 1) -> dict:
    """Counts mode at each size, each in a fresh process; the growth exponents 128 -> 1024
    and 1024 -> 4096 (wall and CPU), and between consecutive sizes."""
    rows, unfinished = [], []
    for size in sizes:
        progress = []
        lines, ended = _run_child(["counts", size, backend, workers], timeout, progress)
        if ended != "ok" or not lines:
            print(f"counts |H| = |X| = {size:>5}: not finished ({ended})", flush=True)
            unfinished.append({"hypotheses": size, "ended": ended, "progress": progress})
            break  # larger sizes would not finish either
        r = lines[0]
        rows.append(r)
        print(
            f"counts |H| = |X| = {size:>5}: {r['seconds']:8.2f} s, CPU {r['cpu_s']:8.2f} s, peak RSS "
            f"{r['peak_rss_mb']:7.0f} MiB, floor ~{r['floor_s']:6.2f} s (x{r['cpu_s'] / r['floor_s']:.0f} CPU), "
            f"{r['epochs_completed']} epochs, q groups {r['q_groups_per_epoch']}, output h{r['output']} "
            f"(best h{r['best']})",
            flush=True,
        )
        if r.get("seconds_by_line"):
            print("    by line: " + ", ".join(f"{k} {v:.1f} s" for k, v in r["seconds_by_line"].items()), flush=True)
    by_size = {r["hypotheses"]: r for r in rows}
    result = {
        "n": COUNTS_N,
        "params": "paper, delta = 1/10",
        "adversary": "clean",
        "seed": 1,
        "backend": backend,
        "sizes": rows,
        "unfinished": unfinished,
    }
    for small, large in ((128, 1024), (1024, 4096)):
        for field, suffix in (("seconds", ""), ("cpu_s", "_cpu")):
            value = _exponent(by_size, small, large, field)
            if value is not None:
                result[f"growth_exponent_{small}_{large}{suffix}"] = value
    result["consecutive_exponents_cpu"] = [
        {
            "from": a["hypotheses"],
            "to": b["hypotheses"],
            "exponent": math.log(b["cpu_s"] / a["cpu_s"]) / math.log(b["hypotheses"] / a["hypotheses"]),
        }
        for a, b in zip(rows, rows[1:])
    ]
    for e in result["consecutive_exponents_cpu"]:
        print(f"  CPU growth exponent {e['from']} -> {e['to']}: {e['exponent']:.2f}")
    return result


def tape_run(size: int = TAPE_SIZE, n: int = TAPE_N) -> dict:
    lines, ended = _run_child(["tape", size, n])
    if ended != "ok" or not lines:
        raise RuntimeError(f"tape mode at {size} x {size} failed: {ended}")
    r = lines[0]
    print(
        f"tape {size} x {size}, n = {n}: {r['seconds']:.2f} s ({r['samples_per_s']:.3g} rounds/s), "
        f"{r['epochs_completed']} epochs, sampling {r['tape_sampling_s']:.2f} s, peak RSS {r['peak_rss_mb']:.0f} MiB",
        flush=True,
    )
    return r


def reference_epochs(sizes=REFERENCE_EPOCHS, timeout: float = 3600.0) -> list[dict]:
    result = []
    for hypotheses, points, epochs in sizes:
        lines, ended = _run_child(["reference", hypotheses, points, epochs], timeout)
        result.append(
            {
                "hypotheses": hypotheses,
                "points": points,
                "epochs_asked": epochs,
                "ended": ended,
                "epoch_s": [r["seconds"] for r in lines],
                "epochs": lines,
            }
        )
        print(
            f"reference {hypotheses} x {points}: epochs "
            + ", ".join(f"{r['seconds']:.2f}" for r in lines)
            + f" s ({ended})",
            flush=True,
        )
    return result


def _targets(report: dict) -> dict:
    counts = {r["hypotheses"]: r for r in report.get("counts_mode", {}).get("sizes", [])}
    figures = {
        "growth_exponent_128_1024": report.get("counts_mode", {}).get("growth_exponent_128_1024"),
        "counts_4096_s": counts.get(4096, {}).get("seconds"),
        "counts_4096_peak_rss_mb": counts.get(4096, {}).get("peak_rss_mb"),
        "growth_exponent_1024_4096": report.get("counts_mode", {}).get("growth_exponent_1024_4096"),
        "counts_1024_s": counts.get(1024, {}).get("seconds"),
        "counts_1024_peak_rss_mb": counts.get(1024, {}).get("peak_rss_mb"),
        "counts_512_s": counts.get(512, {}).get("seconds"),
    }
    unfinished = {f"counts_{u['hypotheses']}_s" for u in report.get("counts_mode", {}).get("unfinished", [])}
    for run in report.get("reference_per_epoch", []):
        name = f"reference_{run['hypotheses']}x{run['points']}_slowest_epoch_s"
        figures[name] = max(run["epoch_s"], default=None)
        if run["ended"] != "ok" or len(run["epoch_s"]) < run["epochs_asked"]:
            unfinished.add(name)  # an epoch that did not finish in time is not met, whatever the others took
    return {
        name: {
            "value": figures.get(name),
            "target": f"{op} {bound:g}",
            "met": False
            if name in unfinished
            else None
            if figures.get(name) is None
            else (figures[name] <= bound if op == "<=" else figures[name] >= bound),
        }
        for name, (op, bound) in TARGETS.items()
    }


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--sizes must be comma-separated integers, got {text!r}") from None
    if not sizes or min(sizes) < 2:
        raise argparse.ArgumentTypeError(f"--sizes must be integers >= 2, got {text!r}")
    return sizes


def _reference_sizes(text: str):
    try:
        result = []
        for item in text.split(","):
            shape, epochs = item.split(":")
            hypotheses, points = shape.split("x")
            result.append((int(hypotheses), int(points), int(epochs)))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--reference-epochs must look like 64x256:3,256x256:2, got {text!r}"
        ) from None
    if any(h < 2 or m < h or e < 1 for h, m, e in result):
        raise argparse.ArgumentTypeError(f"--reference-epochs needs |H| >= 2, |X| >= |H|, epochs >= 1, got {text!r}")
    return tuple(result)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return _child(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=_sizes, default=SIZES, help="counts-mode |H| = |X| (default 128,256,512,1024)")
    parser.add_argument("--skip-tape", action="store_true", help="skip the 1024 x 1024 tape-mode run")
    parser.add_argument("--skip-reference", action="store_true", help="skip the exact reference's epochs")
    parser.add_argument(
        "--reference-epochs",
        type=_reference_sizes,
        default=REFERENCE_EPOCHS,
        help="|H|x|X|:epochs for the reference (default 64x256:10,256x256:10)",
    )
    parser.add_argument(
        "--reference-timeout",
        type=float,
        default=3600.0,
        help="seconds per reference size before it is stopped (default 3600)",
    )
    parser.add_argument(
        "--json", default=str(_report.RESULTS / "calruption_scaling.json"), help="where to write the JSON"
    )
    parser.add_argument("--backend", default="numpy", help="fast's array backend (fast/backends.py; default numpy)")
    parser.add_argument(
        "--workers", type=int, default=1, help="threads for line 8's Catoni roots in counts mode (default 1)"
    )
    parser.add_argument(
        "--timeout", type=float, default=1800.0, help="seconds per counts-mode size before it is stopped (default 1800)"
    )
    args = parser.parse_args(argv)
    from fast.backends import get_backend

    try:
        get_backend(args.backend)
    except ValueError as error:
        print(f"error: --backend: {error}", file=sys.stderr)
        return 2
    report = {
        "benchmark": "calruption_scaling",
        "threads": f"BLAS 1 (OPENBLAS/OMP/MKL_NUM_THREADS=1); line 8 on {args.workers}",
        "counts_mode": counts_scaling(args.sizes, args.backend, args.timeout, args.workers),
    }
    if not args.skip_tape:
        report["tape_mode"] = tape_run()
    if not args.skip_reference:
        report["reference_per_epoch"] = reference_epochs(args.reference_epochs, args.reference_timeout)
    report["targets"] = _targets(report)
    for name, t in report["targets"].items():
        shown = "-" if t["value"] is None else f"{t['value']:.4g}"
        print(f"{name:<34} {shown:>10}   target {t['target']:<8} met: {t['met']}")
    _report.write(report, args.json)
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
