"""Line 9's row generation (Algorithm 2, line 9; fast/line9.py) with HiGHS kept warm between
rounds (reference/highs.py's WarmLP) against linprog re-solving every round (ColdLP).

    python bench/highs_warm.py [--sizes 64,128,256,512] [--cold-sizes 64,128,256] [--repeats 3] [--json PATH]

An LP of the shape CALruption builds: thresholds with |X| = |H| (|H| = size), every point
in the support with p_x = 1/|X|, a weight w in [1/2, 1] per unordered pair and W = the true
difference R(h) - R(h') at eta = 0.3 plus noise of up to 0.05 (antisymmetric), so the fit
needs many rounds. Prints, per size and solver, the median seconds of
`fast.line9.fit_distribution` (process CPU time and wall time), its rounds and working
rows, and the backend of the warm solver. Writes JSON (default bench/results/highs_warm.json)."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report  # noqa: E402
import numpy as np  # noqa: E402

from fast import line9  # noqa: E402
from reference import highs  # noqa: E402


def instance(size: int, seed: int = 1):
    rng = np.random.default_rng(seed)
    H = (np.arange(size)[None, :] >= np.arange(size)[:, None]).astype(np.int64)  # thresholds
    support = np.arange(size)
    p_hat = np.full(size, 1.0 / size)
    R = H @ (p_hat * 0.7) + (1 - H) @ (p_hat * 0.3)
    noise = rng.uniform(-0.05, 0.05, (size, size))
    W = R[:, None] - R[None, :] + np.triu(noise, 1) - np.triu(noise, 1).T
    weight = rng.uniform(0.5, 1.0, (size, size))
    weight = np.triu(weight, 1) + np.triu(weight, 1).T
    np.fill_diagonal(weight, np.nan)
    np.fill_diagonal(W, np.nan)
    return H, support, p_hat, weight, W


def measure(size: int, warm: bool, repeats: int) -> dict:
    data = instance(size)
    cpu, wall, stats, value = [], [], {}, None
    for _ in range(repeats):
        c0, w0 = time.process_time(), time.perf_counter()
        _, value = line9.fit_distribution(*data, warm=warm, stats=stats)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return {
        "size": size,
        "solver": "warm" if warm else "cold",
        "median_cpu_s": statistics.median(cpu),
        "median_wall_s": statistics.median(wall),
        "objective": value,
        **stats,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="64,128,256,512")
    parser.add_argument("--cold-sizes", default="64,128,256")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, default=_report.RESULTS / "highs_warm.json")
    args = parser.parse_args(argv)
    probe = highs.new_lp([1.0], [0.0], [1.0])
    backend = type(probe).__name__ + (f" ({highs.BACKEND})" if hasattr(highs, "BACKEND") else "")
    rows = [measure(int(s), True, args.repeats) for s in args.sizes.split(",") if s]
    rows += [measure(int(s), False, args.repeats) for s in args.cold_sizes.split(",") if s]
    print(f"warm solver: {backend}")
    print(f"{'|H|':>5} {'solver':>6} {'cpu s':>8} {'wall s':>8} {'rounds':>7} {'rows':>7} {'objective':>12}")
    for r in rows:
        print(
            f"{r['size']:>5} {r['solver']:>6} {r['median_cpu_s']:>8.3f} {r['median_wall_s']:>8.3f} "
            f"{r['rounds']:>7} {r['working_rows']:>7} {r['objective']:>12.4g}"
        )
    _report.write({"backend": backend, "rows": rows}, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
