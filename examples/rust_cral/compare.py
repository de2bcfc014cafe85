"""Compare the Rust program with the Python reference on the cross-check's fixed cases,
through the run protocol (docs/protocol.md) but without the harness: this script writes
each request itself, runs the program, and compares its trace with the reference's.

    python examples/rust_cral/compare.py [--binary PATH] [--cases 50] [--seed S]
                                         [--algorithms passive robust_cal ...] [--npy-every K] [--json]

What must agree: every field of the trace exactly (after parsing the "p/q" texts),
except the enclosures of irrational quantities (beta, threshold), where the program's
enclosure must contain the reference's enclosure of the same quantity at 256 bits (so it
contains the true value unless that lies within 2^-256 of one of its ends); how many are
also identical to the reference's own (64-bit) enclosures is counted. The run's params
must come back as the request sent them. Every K-th case (--npy-every) sends the tape in
the .npy layout instead of inline JSON.

Exit status: 0 when every case agrees for every algorithm, 1 otherwise, 2 on bad usage."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reference import passive, robust_cal, trace_to_json  # noqa: E402
from reference.exact import as_fraction  # noqa: E402
from reference.robust_cal import threshold_enclosure  # noqa: E402
from reference.serialization import to_jsonable  # noqa: E402

ALGORITHMS = ("passive", "robust_cal", "robust_cal_vanilla")
CHECK_BITS = 256  # precision of the reference enclosures the program's must contain
ENCLOSURE_FIELDS = ("beta", "threshold")


def write_npy_tape(tape, folder: Path) -> dict:
    """The tape in the protocol's binary layout (coins must be multiples of 2^-64)."""
    import numpy as np

    words = []
    for u in tape.u:
        scaled = u * (1 << 64)
        if scaled.denominator != 1:
            raise ValueError("a coin is not a multiple of 2^-64: the tape cannot be sent as .npy")
        words.append(int(scaled))
    paths = {}
    for key, values, dtype in (("x", tape.x, "<i8"), ("y", tape.y, "|u1"), ("u_words", words, "<u8")):
        paths[key] = str(folder / f"{key}.npy")
        np.save(paths[key], np.array(values, dtype=np.dtype(dtype)))
    return {
        "format": "cral-tape-npy",
        "version": 1,
        "n": tape.n,
        **paths,
        "seed": tape.seed,
        "generator": tape.generator,
    }


def request_for(case, algorithm: str, folder: Path, npy: bool) -> dict:
    tape = case.tape
    return {
        "format": "cral-run-request",
        "version": 1,
        "algorithm": algorithm,
        "output": str(folder / "result.json"),
        "hypotheses": [list(h) for h in case.instance.hypotheses],
        "tape": write_npy_tape(tape, folder) if npy else tape.to_json(),
        "params": to_jsonable(case.params),
    }


def run_binary(binary: str, request: dict, folder: Path, timeout: float = 60.0):
    """(result document, seconds); the request is passed as a path, as the harness does."""
    path = folder / "request.json"
    path.write_text(json.dumps(request))
    start = time.perf_counter()
    proc = subprocess.run([binary, str(path)], capture_output=True, timeout=timeout)
    seconds = time.perf_counter() - start
    out = Path(request["output"])
    text = out.read_text() if out.exists() else proc.stdout.decode()
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise AssertionError(
            f"exit {proc.returncode}, invalid JSON ({error}); stderr: {proc.stderr.decode()[:500]}"
        ) from None
    if proc.returncode != 0:
        raise AssertionError(f"exit {proc.returncode}: {document}")
    return document, seconds


def reference_trace(case, algorithm: str):
    H, tape, params = case.instance.hypotheses, case.tape, case.params
    if algorithm == "passive":
        return passive(H, tape, params)
    return robust_cal(H, tape, params, vanilla=algorithm == "robust_cal_vanilla")


def _exact(value):
    """ "p/q" texts as Fractions, recursively, so that spelling cannot hide a difference."""
    if isinstance(value, str) and "/" in value:
        return as_fraction(value, "value")
    if isinstance(value, list):
        return [_exact(v) for v in value]
    if isinstance(value, dict):
        return {k: _exact(v) for k, v in value.items()}
    return value


def compare(case, algorithm: str, ours: dict, stats: dict) -> list[str]:
    """The differences between the program's trace and the reference's (empty: agree)."""
    ref = reference_trace(case, algorithm)
    theirs = trace_to_json(ref)
    problems = []
    if set(ours) != set(theirs):
        return [f"fields differ: {sorted(set(ours) ^ set(theirs))}"]
    if ours["params"] != to_jsonable(case.params):
        problems.append(f"params not echoed: {ours['params']} != {to_jsonable(case.params)}")
    for key in theirs:
        if key in ("checkpoints", "params"):
            continue
        if _exact(ours[key]) != _exact(theirs[key]):
            problems.append(f"{key}: {ours[key]!r} != {theirs[key]!r}")
    if "checkpoints" not in theirs:
        return problems
    if len(ours["checkpoints"]) != len(theirs["checkpoints"]):
        return problems + [f"{len(ours['checkpoints'])} checkpoints, reference {len(theirs['checkpoints'])}"]
    beta_fn = case.params.robust_cal_beta
    for mine, c, ref_c in zip(ours["checkpoints"], theirs["checkpoints"], ref.checkpoints):
        where = f"t={c['t']}"
        if set(mine) != set(c):
            problems.append(f"{where}: fields differ: {sorted(set(mine) ^ set(c))}")
            continue
        for key in c:
            if key not in ENCLOSURE_FIELDS and _exact(mine[key]) != _exact(c[key]):
                problems.append(f"{where} {key}: {mine[key]!r} != {c[key]!r}")
        # enclosures: the program's must contain the reference's 256-bit enclosure
        beta_fine = beta_fn(ref_c.t).enclosure(CHECK_BITS)
        fine = {"beta": [beta_fine]}
        fine["threshold"] = [
            None
            if r is None
            else threshold_enclosure(beta_fine, r, ref_c.t, algorithm == "robust_cal_vanilla", CHECK_BITS)
            for r in ref_c.disagreement
        ]
        pairs = [("beta", mine["beta"], fine["beta"][0], c["beta"])]
        pairs += [
            (f"threshold[{h}]", m, f, r)
            for h, (m, f, r) in enumerate(zip(mine["threshold"], fine["threshold"], c["threshold"]))
        ]
        for name, m, f, r in pairs:
            if (m is None) != (f is None):
                problems.append(f"{where} {name}: {m!r}, reference {r!r}")
                continue
            if m is None:
                continue
            lo, hi = as_fraction(m["lo"], "lo"), as_fraction(m["hi"], "hi")
            stats["enclosures"] += 1
            if not (lo <= f.lo and f.hi <= hi):
                problems.append(
                    f"{where} {name}: [{m['lo']}, {m['hi']}] does not contain the reference's "
                    f"256-bit enclosure [{f.lo}, {f.hi}]"
                )
            if _exact(m) == _exact(r):
                stats["identical_enclosures"] += 1
    return problems


def main(argv=None) -> int:
    from properties.strategies import CROSSCHECK_SEED, fixed_crosscheck_cases

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / "examples/rust_cral/target/release/rust_cral"))
    parser.add_argument("--cases", type=int, default=50)
    parser.add_argument("--seed", type=int, default=CROSSCHECK_SEED)
    parser.add_argument("--algorithms", nargs="+", choices=ALGORITHMS, default=list(ALGORITHMS))
    parser.add_argument("--npy-every", type=int, default=5, metavar="K", help="every K-th case as .npy (0: never)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not Path(args.binary).is_file():
        print(f"compare.py: no program at {args.binary} (build it with examples/rust_cral/build.sh)", file=sys.stderr)
        return 2
    cases = fixed_crosscheck_cases(args.cases, args.seed)
    stats = {"enclosures": 0, "identical_enclosures": 0}
    report = {a: {"agree": 0, "disagree": 0, "seconds": 0.0, "first_problems": []} for a in args.algorithms}
    for i, case in enumerate(cases):
        npy = args.npy_every > 0 and i % args.npy_every == args.npy_every - 1
        for algorithm in args.algorithms:
            with tempfile.TemporaryDirectory() as folder:
                try:
                    ours, seconds = run_binary(
                        args.binary, request_for(case, algorithm, Path(folder), npy), Path(folder)
                    )
                    report[algorithm]["seconds"] += seconds
                    problems = compare(case, algorithm, ours, stats)
                except (AssertionError, subprocess.TimeoutExpired) as error:
                    problems = [f"the program failed: {error}"]
            entry = report[algorithm]
            if problems:
                entry["disagree"] += 1
                if len(entry["first_problems"]) < 3:
                    entry["first_problems"].append({"case": i, "npy": npy, "problems": problems[:3]})
            else:
                entry["agree"] += 1
    result = {"binary": args.binary, "cases": len(cases), "seed": args.seed, **stats, "algorithms": report}
    if args.json:
        print(json.dumps(result, default=str))
    else:
        for algorithm, entry in report.items():
            print(
                f"{algorithm:20s} agree {entry['agree']:3d} / {len(cases)}   "
                f"disagree {entry['disagree']:3d}   program time {entry['seconds']:.2f} s"
            )
            for p in entry["first_problems"]:
                print(f"    case {p['case']} ({'npy' if p['npy'] else 'json'} tape): {p['problems'][0][:300]}")
        print(f"enclosures checked {stats['enclosures']}, identical to the reference's {stats['identical_enclosures']}")
    return 0 if all(e["disagree"] == 0 for e in report.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
