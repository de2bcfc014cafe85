"""CALruption's counts mode on a GPU: one command, under 5 minutes.

    python bench/gpu_scaling.py [--backend auto|torch|cupy|numpy|array-api-strict] [--device DEV]
        [--sizes 1024,2048,4096,8192,16384] [--compare-sizes 256,1024] [--budget 270] [--n 10**12]
        [--resident auto|yes|no] [--json PATH]

--backend auto (the default) takes torch with CUDA, else CuPy; with neither it exits 2
with one line on stderr (no GPU backend). --backend numpy (or array-api-strict) runs the
same script on the CPU: the tests run it that way at --sizes 64.

Workload: bench/calruption_scaling.py's: thresholds with |X| = |H| (as a fast.MatrixInstance,
bench/_instances.py's thresholds_matrix: the same instance, its H built by numpy), n =
10^12, Params.paper(n, |H|, 1/10), a clean adversary, seed 1,
`fast.calruption_counts(..., backend=, device=)`. Per size: seconds, CPU seconds, the
instance's setup seconds (not in the run's), the device's peak memory
(torch.cuda.max_memory_allocated, or CuPy's memory pool), the host's peak RSS, epochs,
output. Sizes run in increasing order; a size whose predicted time (the last size's run
times the size ratio to the GROWTH, plus its setup times the ratio squared) would not fit
in what is left of --budget seconds is skipped and reported.

Agreement (--compare-sizes, sizes the numpy path can run too): each epoch of the run
replayed by numpy's host epoch from that epoch's own inputs (its q, the previous Delta^,
the counts drawn for it: `replay`), so a float near-tie that sends the routes apart shows
in the one epoch where it happens; integer quantities (seen, rho counts, layers, h^*,
labels, the schedule) must be equal bit for bit, float quantities equal or within twice
the float64 tolerance of properties/checks/tolerances.py (each route within one tolerance
of the exact value). The resident epoch sums Catoni's slots in another order than the
host (and a GPU's log1p may round otherwise), so W and what follows from it agree within
tolerance, not bit for bit; the counts and min q are bitwise by construction.

What runs on the GPU (--resident auto: on a GPU, for a nested class such as these
thresholds): every |H| x |H| pass of an epoch (fast/epoch_device.py): the pair
statistics of lines 7, 8 and 13, the weights, Catoni's roots by the one-step rule (the
few problems it does not settle are solved on the host), line 9's dense passes (Howard's
iteration on its sparse graph runs on the host) and line 13's quadrant max. On the host:
the counts' draws and vectors of length |H| or |X|. --resident no keeps the host epoch
(only the pair kernel on the device), to measure what the resident epoch gains. Writes JSON to
bench/results/gpu_scaling.json (or --json) after each size, so a run cut short keeps what
it measured."""

from __future__ import annotations

import argparse
import resource
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _report  # noqa: E402

DELTA = Fraction(1, 10)
N = 10**12
SIZES = (1024, 2048, 4096, 8192, 16384)
COMPARE_SIZES = (256, 1024)
BUDGET_S = 270.0
# for skipping sizes: the work's growth in |H| = |X|; the resident epoch is O(|H|^2) a pass
# (times the epochs' count), 3 for the host epoch; 2.5 leaves room for the host's
# share and small sizes' fixed costs
GROWTH = 2.5

INTEGER_FIELDS = ("l", "tau", "length", "labels_requested", "seen", "rho_counts", "h_star_hat", "layers")
# Epoch field -> properties/checks/tolerances.py entry (None: a q value, compared exactly)
FLOAT_FIELDS = {
    "q": "next_q",
    "min_q": None,
    "alpha": "alpha",
    "W": "W",
    "weight": "weight",
    "eta_hat": "eta_hat",
    "lp_objective": "lp_objective",
    "risk_hat": "risk_hat",
    "gap_hat": "gap_hat",
    "next_q": "next_q",
}


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(v) for v in text.split(",") if v.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be comma-separated integers, got {text!r}") from None
    if not sizes or min(sizes) < 2:
        raise argparse.ArgumentTypeError(f"must be integers >= 2, got {text!r}")
    return sizes


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text!r}")
    return value


def _n(text: str) -> int:
    try:
        base, _, power = text.partition("**")  # "10**12" or "1000000"
        value = int(base) ** int(power) if power else int(base)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer such as 10**12, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {text!r}")
    return value


def parse(argv):
    parser = argparse.ArgumentParser(prog="bench/gpu_scaling.py", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--backend", default="auto", help="auto (torch+CUDA, else CuPy), torch, cupy, numpy, array-api-strict"
    )
    parser.add_argument("--device", default=None, help="the backend's device (default: cuda for torch, 0 for cupy)")
    parser.add_argument("--sizes", type=_sizes, default=SIZES, help="|H| = |X| to run (default 1024,...,16384)")
    parser.add_argument(
        "--compare-sizes",
        type=_sizes,
        default=COMPARE_SIZES,
        help="sizes also run on numpy to compare (default 256,1024)",
    )
    parser.add_argument("--budget", type=_positive, default=BUDGET_S, help="seconds for the whole script (default 270)")
    parser.add_argument("--n", type=_n, default=N, help="rounds (default 10**12)")
    parser.add_argument(
        "--resident",
        choices=("auto", "yes", "no"),
        default="auto",
        help="keep the epoch's pair arrays on the device (auto: on a GPU, for a nested class)",
    )
    parser.add_argument("--json", default=str(_report.RESULTS / "gpu_scaling.json"), help="where to write the JSON")
    return parser.parse_args(argv)


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class _DeviceMemory:
    """Peak device memory of what runs between reset() and peak_mb()."""

    def __init__(self, backend):
        self.backend = backend

    def reset(self):
        if self.backend.name == "torch" and self.backend.device.type == "cuda":
            import torch

            torch.cuda.reset_peak_memory_stats(self.backend.device)
        elif self.backend.name == "cupy":
            import cupy

            cupy.get_default_memory_pool().free_all_blocks()

    def peak_mb(self):
        if self.backend.name == "torch" and self.backend.device.type == "cuda":
            import torch

            return torch.cuda.max_memory_allocated(self.backend.device) / 2**20
        if self.backend.name == "cupy":
            import cupy

            return cupy.get_default_memory_pool().total_bytes() / 2**20  # the pool's size: an upper bound
        return None


def workload(size: int, n: int):
    """The instance as a fast.MatrixInstance (bench/_instances.py's thresholds_matrix: H
    built by numpy; the reference's label-by-label Instance takes minutes at 16384), the
    clean adversary, the paper's parameters."""
    from _instances import thresholds_matrix

    import reference as R

    return thresholds_matrix(size, size), R.adversary.clean(n), R.Params.paper(n, size, DELTA)


def run_once(size: int, n: int, backend, keep_pairs: bool = True, resident=None, record_draws: bool = False):
    """(run, seconds, CPU seconds, best hypothesis, setup seconds, draws). keep_pairs=False
    where no comparison needs the pair fields: at 16384 they are 5 x 2 GiB an epoch
    (fast.calruption.calruption_run), and a resident epoch then never copies them to the
    host. record_draws: keep each epoch's (seen, queried) for `replay`."""
    import fast
    from fast import counts as counts_mode

    set_up = time.perf_counter()
    instance, adversary, params = workload(size, n)
    setup_s = time.perf_counter() - set_up
    draws = []
    draw = counts_mode.epoch_counts
    if record_draws:

        def recording(env, rng):
            inner = draw(env, rng)

            def counts(start, end, q):
                seen, queried = inner(start, end, q)
                draws.append((start, end, seen, queried))
                return seen, queried

            return counts

        counts_mode.epoch_counts = recording
    try:
        backend.synchronize()
        started, cpu = time.perf_counter(), time.process_time()
        run = fast.calruption_counts(
            instance, adversary, params, 1, raw=True, backend=backend, keep_pairs=keep_pairs, resident=resident
        )
        backend.synchronize()
        seconds, cpu_s = time.perf_counter() - started, time.process_time() - cpu
    finally:
        counts_mode.epoch_counts = draw
    return run, seconds, cpu_s, instance.best, setup_s, (instance, params, draws)


def replay(run, draws):
    """The run's epochs recomputed by numpy's host epoch (fast.calruption.epoch_update) from
    each epoch's own inputs -- the record's q and the previous epoch's Delta^, the counts
    drawn for it -- as a run-shaped object for `compare`. Epoch by epoch, so a float
    near-tie that sends the two routes apart (another h^* or layer, then other q and other
    draws) shows as the one epoch where it happens, not as every epoch after it."""
    from types import SimpleNamespace

    import numpy as np

    from fast.calruption import State, epoch_update
    from fast.constants import FloatParams

    instance, params, counts = draws
    fparams = FloatParams.of(params)
    H = instance.matrix
    epochs = []
    gap_prev = np.zeros(H.shape[0])
    for record, (start, end, seen, queried) in zip(run.epochs, counts):
        if (start, end) != (record.tau, record.tau + record.length - 1):  # the draws are this epoch's
            raise ValueError(
                f"epoch {record.l}: counts drawn for rounds {start}..{end}, the record says tau {record.tau}"
            )
        state = State(record.l, record.tau, record.length, record.q, gap_prev)
        replayed, _ = epoch_update(H, state, seen, queried, fparams)
        epochs.append(replayed)
        gap_prev = record.gap_hat
    return SimpleNamespace(
        n=run.n,
        final_epoch=run.final_epoch,
        unfinished_rounds=run.unfinished_rounds,
        labels_requested=run.labels_requested,
        output=epochs[-1].h_star_hat if epochs else 0,
        epochs=tuple(epochs),
    )


def compare(a, b) -> dict:
    """Field-by-field agreement of two raw runs: {"bitwise": bool, "mismatches": [...]}."""
    import numpy as np

    from properties.checks.tolerances import FLOAT64

    mismatches = []
    for field in ("n", "final_epoch", "unfinished_rounds", "labels_requested", "output"):
        if getattr(a, field) != getattr(b, field):
            mismatches.append({"field": field, "a": getattr(a, field), "b": getattr(b, field)})
    bitwise = not mismatches
    for ea, eb in zip(a.epochs, b.epochs):
        for field in INTEGER_FIELDS:
            u, v = np.asarray(getattr(ea, field)), np.asarray(getattr(eb, field))
            if u.shape != v.shape or not np.array_equal(u, v):
                bitwise = False
                mismatches.append({"epoch": ea.l, "field": field, "kind": "integer"})
        for field, entry in FLOAT_FIELDS.items():
            u, v = np.asarray(getattr(ea, field), float), np.asarray(getattr(eb, field), float)
            if u.shape == v.shape and np.array_equal(u, v, equal_nan=True):
                continue
            bitwise = False
            if u.shape != v.shape or not np.array_equal(np.isnan(u), np.isnan(v)) or entry is None:
                mismatches.append({"epoch": ea.l, "field": field, "kind": "shape, nan pattern or exact value"})
                continue
            t = FLOAT64[entry]
            if field == "W":
                scale = np.maximum(1.0, 1.0 / np.where(np.isnan(ea.min_q) | (ea.min_q == 0), 1.0, ea.min_q))
            elif field == "lp_objective":
                scale = float(np.nanmax(ea.weight * (np.abs(ea.W) + 1))) if np.isfinite(ea.weight).any() else 1.0
            else:
                scale = 1.0
            finite = ~np.isnan(u)
            error = np.abs(u - v)[finite] if u.ndim else np.abs(u - v)
            bound = 2 * (t.rel * np.abs(v) + t.abs * scale)
            bound = bound[finite] if u.ndim and np.ndim(bound) else bound
            worst = float(np.max(error / np.maximum(bound, 1e-300))) if np.size(error) else 0.0
            if worst > 1:
                mismatches.append(
                    {"epoch": ea.l, "field": field, "kind": "float beyond tolerance", "error_over_bound": worst}
                )
    if len(a.epochs) != len(b.epochs):
        mismatches.append({"field": "epochs", "a": len(a.epochs), "b": len(b.epochs)})
    return {"bitwise": bitwise and not mismatches, "within_tolerance": not mismatches, "mismatches": mismatches[:20]}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = parse(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    from fast.backends import get_backend, gpu_backend

    name, device = args.backend, args.device
    if name == "auto":
        found = gpu_backend()
        if found is None:
            print(
                "error: no GPU backend: neither torch with CUDA nor CuPy with a device is available here "
                "(--backend numpy runs the script on the CPU)",
                file=sys.stderr,
            )
            return 2
        name, device = found[0], device or found[1]
    try:
        backend = get_backend(name, device)
    except ValueError as error:
        print(f"error: --backend: {error}", file=sys.stderr)
        return 2

    started = time.perf_counter()
    memory = _DeviceMemory(backend)
    report = {
        "benchmark": "gpu_scaling",
        "backend": backend.name,
        "device": str(backend.device),
        "n": args.n,
        "params": "paper, delta = 1/10",
        "adversary": "clean",
        "seed": 1,
        "budget_s": args.budget,
        "resident": args.resident,
        "sizes": [],
        "skipped": [],
        "agreement": [],
    }
    last = None
    for size in sorted(set(args.sizes)):
        left = args.budget - (time.perf_counter() - started)
        # the run grows like the size to GROWTH, the instance's setup like its |H| x |X| matrix
        predicted = None if last is None else last[1] * (size / last[0]) ** GROWTH + last[2] * (size / last[0]) ** 2
        if predicted is not None and predicted > left:
            report["skipped"].append({"hypotheses": size, "predicted_s": predicted, "left_s": left})
            print(f"|H| = |X| = {size:>6}: skipped (predicted {predicted:.0f} s, {left:.0f} s left)", flush=True)
            continue
        memory.reset()
        resident = {"auto": None, "yes": True, "no": False}[args.resident]
        compared = size in args.compare_sizes
        run, seconds, cpu_s, best, setup_s, draws = run_once(
            size, args.n, backend, keep_pairs=compared, resident=resident, record_draws=compared
        )
        row = {
            "hypotheses": size,
            "points": size,
            "seconds": seconds,
            "cpu_s": cpu_s,
            "setup_s": setup_s,
            "device_peak_mb": memory.peak_mb(),
            "host_peak_rss_mb": _peak_rss_mb(),
            "epochs_completed": len(run.epochs),
            "labels_requested": run.labels_requested,
            "output": run.output,
            "best": best,
        }
        report["sizes"].append(row)
        _report.write(report, args.json)  # after each size: a run cut short keeps its figures
        last = (size, seconds, setup_s)
        device_mb = "-" if row["device_peak_mb"] is None else f"{row['device_peak_mb']:.0f}"
        print(
            f"|H| = |X| = {size:>6}: {seconds:8.2f} s (CPU {cpu_s:8.2f} s), device peak {device_mb} MiB, "
            f"host peak RSS {row['host_peak_rss_mb']:.0f} MiB, {len(run.epochs)} epochs, output h{run.output} "
            f"(best h{best})",
            flush=True,
        )
        if size in args.compare_sizes:
            left = args.budget - (time.perf_counter() - started)
            if seconds * 2 > left:
                report["agreement"].append({"hypotheses": size, "skipped": "over budget"})
                continue
            agreement = {"hypotheses": size, **compare(run, replay(run, draws))}
            report["agreement"].append(agreement)
            _report.write(report, args.json)
            print(
                f"   agreement with numpy's host epoch, epoch by epoch, at {size}: bitwise {agreement['bitwise']}, within tolerance "
                f"{agreement['within_tolerance']}",
                flush=True,
            )
    report["total_s"] = time.perf_counter() - started
    _report.write(report, args.json)
    print(f"wrote {args.json}")
    failed = any(not a.get("within_tolerance", True) for a in report["agreement"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
