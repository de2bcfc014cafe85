"""Lines 7, 8 (min q) and 13 of a nested class through its one route (fast/pairs_device.py,
on the backend named) against the general host routes that hold for any class
(fast/pair_stats.py's kernel counts, grouped search and sweep, and np.ldexp for line 13's
pair value): time and bitwise agreement per size.

    python bench/pairs_device.py [--backend numpy|array-api-strict|torch|cupy] [--device DEV]
        [--sizes 1024,4096] [--json PATH]

Workload: thresholds of one orientation with |X| = |H|, prefix lengths 0 .. |X| - 1 in a
shuffled hypothesis order and a shuffled point order (seed 0), seen counts in 0..2, q in
{0, 1/8, 1/4, 1}, levels in 0..9 at l = 12. Per size and function: wall and CPU seconds
of the general host route and of the nested one (the device synchronised before the clock
stops; inputs already on the device, outputs left there, except next q's host vector),
and whether the results are equal bit for bit (they must be: see the module notes).
Writes JSON to bench/results/pairs_device.json (or --json)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _report  # noqa: E402

from fast import pair_stats  # noqa: E402
from fast import pairs_device as PD  # noqa: E402
from fast.backends import get_backend  # noqa: E402
from fast.nested import Nested  # noqa: E402
from fast.pair_kernel import PairKernel  # noqa: E402

LEVELS, L = 10, 12


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be comma-separated integers, got {text!r}") from None
    if not sizes or min(sizes) < 2:
        raise argparse.ArgumentTypeError(f"must be integers >= 2, got {text!r}")
    return sizes


def _clock(b, function):
    c0, w0 = time.process_time(), time.perf_counter()
    result = function()
    if b is not None:
        b.synchronize()
    return result, time.perf_counter() - w0, time.process_time() - c0


def _host_pair_value(rho, level):
    """fast/calruption.py's line 13 pair value (np.ldexp by row blocks)."""
    num_h = len(level)
    out = np.empty_like(rho)
    step = max(1, pair_stats.BLOCK_ELEMENTS // num_h)
    for r0 in range(0, num_h, step):
        r1 = min(num_h, r0 + step)
        k = np.minimum(level[r0:r1, None], level[None, :])
        np.ldexp(rho[r0:r1], 2 * (k - L - 1), out=out[r0:r1])
    return out


def one_size(b, num_h: int) -> dict:
    rng = np.random.default_rng(0)
    order = rng.permutation(num_h)
    lengths = rng.permutation(np.arange(num_h, dtype=np.int64))
    nested = Nested(lengths, order)
    H = np.zeros((num_h, num_h), np.int64)  # the host's kernel needs H (line 7's signature)
    H[np.arange(num_h)[:, None], order[None, :]] = np.arange(num_h)[None, :] < lengths[:, None]
    seen = rng.integers(0, 3, num_h)
    q = rng.choice([0.0, 0.125, 0.25, 1.0], num_h)
    level = rng.integers(0, LEVELS, num_h)
    rho = rng.integers(0, 1000, (num_h, num_h)) / 1000
    rho = np.maximum(rho, rho.T)
    kernel = PairKernel(H)
    groups = pair_stats.q_groups(q, np.flatnonzero(seen > 0))
    rho_counts = pair_stats.disagreement_counts(kernel, seen)
    rho_device = b.asarray(rho)
    b.synchronize()
    host = {
        "line 7": lambda: pair_stats.disagreement_counts(kernel, seen),
        "line 8 min q": lambda: pair_stats.min_q_on_disagreement(kernel, seen, groups, rho_counts),
        "line 13 pair value": lambda: _host_pair_value(rho, level),
    }
    device = {
        "line 7": lambda: PD.disagreement_counts_device(b, nested, seen),
        "line 8 min q": lambda: PD.min_q_device(b, nested, seen, q),
        "line 13 pair value": lambda: PD.line13_pair_value_device(b, rho_device, level, L),
    }
    rows = {}
    pair_value = None
    for name in host:
        expected, host_wall, host_cpu = _clock(None, host[name])
        got, wall, cpu = _clock(b, device[name])
        if name == "line 13 pair value":
            pair_value = got
        rows[name] = {
            "host_s": host_wall,
            "host_cpu_s": host_cpu,
            "device_s": wall,
            "device_cpu_s": cpu,
            "bitwise_equal": bool(np.array_equal(b.to_numpy(got), expected, equal_nan=True)),
        }
        del expected, got
    expected, host_wall, host_cpu = _clock(
        None, lambda: pair_stats.next_query_probabilities(H, _host_pair_value(rho, level))
    )
    got, wall, cpu = _clock(b, lambda: PD.next_q_device(b, nested, pair_value))
    rows["line 13 next q"] = {
        "host_s": host_wall,
        "host_cpu_s": host_cpu,
        "device_s": wall,
        "device_cpu_s": cpu,
        "bitwise_equal": bool(np.array_equal(got, expected)),
        "note": "host time includes its pair value",
    }
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="bench/pairs_device.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", default="numpy")
    parser.add_argument("--device", default=None)
    parser.add_argument("--sizes", type=_sizes, default=[1024, 4096])
    parser.add_argument("--json", default=str(_report.RESULTS / "pairs_device.json"), help="where to write the JSON")
    args = parser.parse_args(argv)
    b = get_backend(args.backend, args.device)
    report = {"backend": b.name, "device": str(b.device), "block_elements": PD.BLOCK_ELEMENTS, "sizes": {}}
    for num_h in args.sizes:
        rows = one_size(b, num_h)
        report["sizes"][str(num_h)] = rows
        for name, row in rows.items():
            print(
                f"|H| = |X| = {num_h:6d}  {name:20s} host {row['host_s']:8.3f} s (cpu {row['host_cpu_s']:8.3f})"
                f"  device {row['device_s']:8.3f} s (cpu {row['device_cpu_s']:8.3f})  equal {row['bitwise_equal']}",
                flush=True,
            )
    _report.write(report, args.json)
    return 0 if all(row["bitwise_equal"] for rows in report["sizes"].values() for row in rows.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
