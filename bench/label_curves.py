"""Label-complexity curves at paper scale: labels requested against n, as a CSV and a PNG.

    python bench/label_curves.py [--max-exponent 12] [--seeds 3] [--csv PATH] [--png PATH] [--quick]

Passive ERM (labels = n), RobustCAL (Algorithm 1, enlarged threshold) and CALruption
(Algorithm 2), both with the paper's constants, in counts mode (fast.*_counts: a run
costs the same at n = 10^3 and 10^12), on |H| = 64 thresholds over |X| = 256 points
(bench/run.py's thresholds_instance: nu uniform, eta* = 1/10 left of the middle and
9/10 from it on, h* the middle threshold), delta = 1/10, for n = 10^3, 10^3.5, ...,
10^max-exponent and three oblivious adversaries:

* clean: eta_t = eta*.
* misspecified: gamma-misspecification, gamma = 1/32, eta~ = 1 - eta*, so every label
  is pushed against h*. c_t = (1/32)(4/5) = 1/40 each round: inside Corollary 5.1's
  regime (C_l/N_l <= 1/32 on every epoch) and Theorem 4.1's (C_[0,t] <= t/8), and h* is
  still the best hypothesis under every eta_t, so a correct run outputs h*.
* early burst: eta_t = 1 - eta* (every label flipped in distribution) for t <= tau =
  n/10, clean afterwards. A fixed fraction keeps the attack the same shape at every n
  of the grid. It is Section 4's early poisoning: C_[0,t] = (4/5) t breaks Theorem
  4.1's C_[0,t] <= t/8 at every checkpoint t <= tau, yet the total C_[0,n] = (2/25) n
  meets it at t = n. Under the flipped labels the edge thresholds are best and h*'s
  excess risk over them, (4/5) rho, exceeds the enlarged threshold's rho/2 slack, so
  once the burst lasts a few thousand rounds RobustCAL's checkpoints eliminate h* for
  good. CALruption's later epochs are clean (each is 4 times the previous one), its
  estimates are re-made from each epoch's counts and nothing is eliminated for good, so
  it can recover.

Each (algorithm, adversary, n, seed index) has its own fixed seed (the list [algorithm
index, adversary index, n, seed index] given to numpy's default_rng), so a row does not
depend on the grid around it and reruns are identical.

Output: one CSV row per (algorithm, adversary, n) with the mean, min and max labels over
the seeds, the fraction of seeds whose output is instance.best (h*), and the mean
wall-clock seconds per run; written to --csv (default bench/results/label_curves.csv)
and beside the PNG (docs/label_curves.png -> docs/label_curves.csv), so the committed
figure and its numbers stay together. The PNG (1200 x 450, three log-log panels, one per
adversary) is drawn by bench/png_plot.py with numpy and the standard library: no
matplotlib needed. CALruption outputs hypothesis 0 (not h*) until its first epoch
completes (n >= |I_1| ~ 2.4 * 10^6 with these constants).

On one core the default grid (19 values of n up to 10^12, 3 seeds: 513 runs) takes
about 100 s, nearly all of it CALruption's epoch updates (one HiGHS LP each, 10 epochs
at n = 10^12, ~1.5 s a run).
--quick (n up to 10^6, 1 seed: no CALruption epoch completes) takes a few seconds.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# first: its module body pins BLAS/OpenMP to one thread before numpy loads
import run  # noqa: E402

import csv  # noqa: E402
import time  # noqa: E402
from fractions import Fraction  # noqa: E402

import _report  # noqa: E402
import png_plot  # noqa: E402

import fast  # noqa: E402
import reference as R  # noqa: E402
from reference.cli import OneLineParser, UsageError  # noqa: E402

ALGORITHMS = ("passive", "RobustCAL", "CALruption")
ADVERSARIES = ("clean", "misspecified", "early_burst")
PANEL_TITLES = {"clean": "clean", "misspecified": "misspecified, gamma = 1/32", "early_burst": "early burst, tau = n/10"}
COLORS = {"passive": (150, 150, 150), "RobustCAL": (31, 100, 200), "CALruption": (220, 90, 20)}
# passive's labels = n coincide with CALruption's before its first epoch: a wide band under a narrow line
LINE_WIDTHS = {"passive": 8, "RobustCAL": 2, "CALruption": 2}
COLUMNS = ("algorithm", "adversary", "n", "seeds", "labels_mean", "labels_min", "labels_max",
           "output_is_best_fraction", "seconds")
POINTS, HYPOTHESES = 256, 64
GAMMA = Fraction(1, 32)
BURST_FRACTION = 10  # tau = n // BURST_FRACTION
WIDTH, HEIGHT = 1200, 450
MIN_EXPONENT, MAX_EXPONENT = 3, 15
DEFAULT_CSV = _report.RESULTS / "label_curves.csv"
DEFAULT_PNG = Path(__file__).resolve().parent.parent / "docs" / "label_curves.png"


def grid(max_exponent: int) -> list[int]:
    """n = 10^e for e = 3, 3.5, ..., max_exponent (exact powers of ten at whole e)."""
    return [10 ** (k // 2) if k % 2 == 0 else round(10 ** (k / 2)) for k in range(2 * MIN_EXPONENT, 2 * max_exponent + 1)]


def adversary(name: str, instance: R.Instance, n: int) -> R.adversary.Adversary:
    against = [1 - e for e in instance.eta]
    if name == "clean":
        return R.adversary.clean(n)
    if name == "misspecified":
        return R.adversary.misspecification(GAMMA, against, n)
    if name == "early_burst":
        return R.adversary.early_burst(against, n // BURST_FRACTION, n)
    raise ValueError(f"adversary must be one of {ADVERSARIES}, got {name!r}")


def run_once(algorithm: str, instance, adv, params, seed) -> tuple[int, int]:
    """(labels requested, output hypothesis) of one counts-mode run."""
    if algorithm == "passive":
        result = fast.passive_counts(instance, adv, params, seed, raw=True)
        return result.n, result.output  # ERM asks for every label; its raw run keeps no count
    if algorithm == "RobustCAL":
        result = fast.robust_cal_counts(instance, adv, params, seed, vanilla=False, raw=True)
    elif algorithm == "CALruption":
        result = fast.calruption_counts(instance, adv, params, seed, raw=True)
    else:
        raise ValueError(f"algorithm must be one of {ALGORITHMS}, got {algorithm!r}")
    return result.labels_requested, result.output


def measure(max_exponent: int, seeds: int, log=print) -> list[dict]:
    instance = run.thresholds_instance(POINTS, HYPOTHESES)
    best = instance.best
    rows = []
    for a, adversary_name in enumerate(ADVERSARIES):
        for n in grid(max_exponent):
            params = R.Params.paper(n, HYPOTHESES, run.DELTA)
            adv = adversary(adversary_name, instance, n)
            for g, algorithm in enumerate(ALGORITHMS):
                labels, correct = [], 0
                started = time.perf_counter()
                for s in range(seeds):
                    used, output = run_once(algorithm, instance, adv, params, [g, a, n, s])
                    labels.append(used)
                    correct += output == best
                seconds = (time.perf_counter() - started) / seeds
                rows.append({
                    "algorithm": algorithm, "adversary": adversary_name, "n": n, "seeds": seeds,
                    "labels_mean": sum(labels) / seeds, "labels_min": min(labels), "labels_max": max(labels),
                    "output_is_best_fraction": correct / seeds, "seconds": seconds,
                })
                log(f"{adversary_name:<13} n={n:<14.4g} {algorithm:<11} labels {sum(labels) / seeds:<11.4g} "
                    f"h* {correct}/{seeds}  {seconds:.3f} s/run")
    return rows


def write_csv(rows: list[dict], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow({**row, "labels_mean": f"{row['labels_mean']:.15g}", "seconds": f"{row['seconds']:.4f}",
                             "output_is_best_fraction": f"{row['output_is_best_fraction']:.4g}"})


def figure(rows: list[dict], seeds: int):
    panels = []
    for adversary_name in ADVERSARIES:
        series = []
        for algorithm in ALGORITHMS:
            mine = [r for r in rows if r["algorithm"] == algorithm and r["adversary"] == adversary_name]
            series.append(png_plot.Series(
                label=algorithm if algorithm != "passive" else "passive ERM", color=COLORS[algorithm],
                x=[r["n"] for r in mine], y=[r["labels_mean"] for r in mine],
                low=[r["labels_min"] for r in mine], high=[r["labels_max"] for r in mine],
                flagged=[r["output_is_best_fraction"] < 1 for r in mine], width=LINE_WIDTHS[algorithm]))
        panels.append(png_plot.Panel(PANEL_TITLES[adversary_name], series))
    per = "1 seed" if seeds == 1 else f"mean of {seeds} seeds"
    return png_plot.render(
        panels, title=f"Labels requested vs n: {HYPOTHESES} thresholds on {POINTS} points, delta = 1/10, "
                      f"paper constants, {per}",
        x_label="n (rounds)", y_label="labels requested", note="square: every seed output h*, x: not every seed",
        width=WIDTH, height=HEIGHT)


def main(argv=None) -> int:
    parser = OneLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-exponent", type=int, default=None,
                        help=f"largest n is 10^this, {MIN_EXPONENT}..{MAX_EXPONENT} (default 12, 6 with --quick)")
    parser.add_argument("--seeds", type=int, default=None, help="runs per point (default 3, 1 with --quick)")
    parser.add_argument("--csv", default=str(DEFAULT_CSV), help=f"where to write the CSV (default {DEFAULT_CSV})")
    parser.add_argument("--png", default=str(DEFAULT_PNG),
                        help=f"where to write the PNG; the CSV is copied beside it (default {DEFAULT_PNG})")
    parser.add_argument("--quick", action="store_true", help="n up to 10^6 and 1 seed: a smoke run of seconds")
    try:
        args = parser.parse_args(argv)
        max_exponent = args.max_exponent if args.max_exponent is not None else (6 if args.quick else 12)
        seeds = args.seeds if args.seeds is not None else (1 if args.quick else 3)
        if not MIN_EXPONENT <= max_exponent <= MAX_EXPONENT:
            raise UsageError(f"--max-exponent must be in {MIN_EXPONENT}..{MAX_EXPONENT}, got {max_exponent}")
        if seeds < 1:
            raise UsageError(f"--seeds must be >= 1, got {seeds}")
        csv_path, png_path = Path(args.csv), Path(args.png)
        if png_path.suffix.lower() != ".png":
            raise UsageError(f"--png must name a .png file, got {args.png!r}")
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2

    started = time.perf_counter()
    rows = measure(max_exponent, seeds)
    written = list(dict.fromkeys([csv_path, png_path.with_suffix(".csv")]))
    for path in written:
        write_csv(rows, path)
    png_path.parent.mkdir(parents=True, exist_ok=True)
    png_path.write_bytes(png_plot.encode_png(figure(rows, seeds)))
    print(f"wrote {', '.join(map(str, written + [png_path]))} in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
