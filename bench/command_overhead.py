"""What the command route (docs/protocol.md) costs per call on top of the program's own
time -- one process per call, serve mode, and the worker (import) route side by side --
and what `check` costs in wall time through each route.

    python bench/command_overhead.py [--repeats 15] [--program CMD] [--module fast] [--out PATH]
                                     [--no-check]

Per call: for each algorithm and n in 2^10 .. 2^14 (|H| = 8 thresholds on 8 points, a
clean stream, scaled constants) the program answers with a result prepared beforehand,
so its own work is next to nothing and the difference is the route:

- one process per call: a shell line that reads the request's first bytes and cats the
  prepared document; its own time is the same command run on its own (a shell, a head,
  a cat). Overhead = the call through the harness minus that.
- serve mode: a Python server (started once) that reads a request line and writes the
  prepared line; its own time is one bare round trip to a second copy of it (write the
  same request line, read the answer line: the program's reading and writing included).
  Overhead = the call through the harness minus that.
- worker (import) route: a module whose functions return the prepared trace, in an
  isolated worker (properties/judge/isolation.py); its own time is a dict look-up, taken as 0.

Every call pays for the request's encoding (the tape as JSON, or -- `auto`, n >= 4096 --
as .npy files: the cache of tape encodings is cleared before each call, as the first
algorithm on a tape pays it; the worker route pickles the tape), and for reading,
schema-validating and decoding the result into the reference's trace (the worker route:
its JSON reply and the decoding). Serve mode is also measured with the tape encoded
already (a second algorithm on the same tape), and the judge's handling of the result
(properties/judge/plain_trace.py: parse, schema check, decoding into the trace
in one pass, as for every exact trace written as the reference writes it) is timed on
its own, so the rest is what serving itself costs per call; so is the general reading
(parse_json, representations, schema, decoder) that any other result gets.

`check`: the same checks (CHECKS below, one per algorithm, bad input included), the same
seed, through `--impl MODULE` (a worker), `--candidate-cmd 'python -m properties answer
--impl MODULE'` (serve mode) and the same with `--one-shot` (one process per call); wall
time of the whole command and the verdicts, side by side.

Writes bench/results/command_overhead.json. Targets: serve mode at most 5 ms
per call on top of the program's own time for n <= 2^14; `check` through a serving
program within 1.3x the worker route's wall time. One process per call (no serve mode) has
a target of under 50 ms per call."""

from __future__ import annotations

import argparse
import json
import os
import pickle
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report  # noqa: E402

import reference as R  # noqa: E402
from properties.core import representations  # noqa: E402
from properties.core.candidate import run_algorithm  # noqa: E402
from properties.core.contract import decode_trace  # noqa: E402
from properties.judge.command import CommandCandidate  # noqa: E402
from properties.judge.load import load_impl  # noqa: E402
from properties.judge.plain_trace import plain_trace  # noqa: E402
from reference import documents  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ALGORITHMS = ("passive", "robust_cal", "calruption")
SIZES = (2**10, 2**11, 2**12, 2**13, 2**14)
TARGET_SERVE_MS = 5.0
TARGET_ONE_SHOT_MS = 50.0
TARGET_CHECK_RATIO = 1.3
CHECKS = (
    "check_passive_output_is_erm",
    "check_robust_cal_elimination_recomputed",
    "check_robust_cal_vanilla_empirical_risks_and_output",
    "check_calruption_one_epoch_query_probabilities",
    "check_calruption_epoch_schedule",
    "check_catoni_root_certified",
    "check_catoni_root_rejects_bad_arguments",
    "check_sample_tape_matches_cral_tape_v1",
)

PREPARED_SERVER = """import json, sys
describe, results = sys.argv[1], json.loads(sys.argv[2])
if sys.argv[-1] != "--serve":  # describe, one shot
    request = json.load(open(sys.argv[-1]))
    with open(request["output"], "w") as out:
        out.write(open(describe).read())
    sys.exit(0)
prepared = {name.encode(): open(path, "rb").read().strip() + b"\\n" for name, path in results.items()}
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    at = line.index(b'"algorithm":"') + 13
    out.write(prepared[line[at:line.index(b'"', at)]])
    out.flush()
"""

PREPARED_MODULE = """import os, pickle
from reference import calruption_epoch, catoni_root, sample_tape  # the names it must provide
with open(os.environ["CRAL_BENCH_PREPARED"], "rb") as handle:
    _TRACES = pickle.load(handle)  # (algorithm, n) -> trace


def passive(hypotheses, tape, params):
    return _TRACES[("passive", tape.n)]


def robust_cal(hypotheses, tape, params, vanilla=False):
    return _TRACES[("robust_cal", tape.n)]


def calruption(hypotheses, tape, params):
    return _TRACES[("calruption", tape.n)]
"""


class _Case:
    def __init__(self, n: int):
        self.instance = R.instances.thresholds(8)
        self.tape = R.sample_tape(self.instance, R.adversary.clean(n), seed=1)
        self.params = R.Params.scaled(n, self.instance.num_hypotheses, Fraction(1, 10))


def _median_ms(function, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def _standalone(argv: list[str], stdin: bytes) -> None:
    subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def _prepared_files(scratch: str, cases: dict) -> tuple[str, dict, str]:
    """The describe document, the prepared results ((algorithm, n) -> result file) and a
    pickle of the traces, for the prepared programs and module."""
    describe_path = os.path.join(scratch, "describe.json")
    with open(describe_path, "w") as handle:
        json.dump(
            {
                "format": "cral-describe",
                "version": 1,
                "implements": list(ALGORITHMS),
                "arithmetic": "exact",
                "tape_formats": ["json", "npy"],
                "serve": True,
            },
            handle,
        )
    results, traces = {}, {}
    for n, case in cases.items():
        for algorithm in ALGORITHMS:
            trace = getattr(R, algorithm)(case.instance.hypotheses, case.tape, case.params)
            traces[(algorithm, n)] = trace
            results[(algorithm, n)] = os.path.join(scratch, f"{algorithm}-{n}.json")
            with open(results[(algorithm, n)], "w") as handle:
                json.dump(R.trace_to_json(trace), handle, separators=(",", ":"))
    pickled = os.path.join(scratch, "traces.pickle")
    with open(pickled, "wb") as handle:
        pickle.dump(traces, handle)
    return describe_path, results, pickled


def _harness_ms(candidate, case: _Case, algorithm: str, repeats: int, fresh_tape: bool = True) -> float:
    def call():
        if fresh_tape and hasattr(candidate, "_tapes"):
            candidate._tapes.clear()  # every timed call pays for the tape's encoding
        run_algorithm("bench", candidate, algorithm, case)
        candidate.begin_example()

    call()  # warm
    return _median_ms(call, repeats)


def _request(candidate, case: _Case, algorithm: str) -> tuple[str, bytes]:
    """One more call, untimed: its request file (kept) and bytes."""
    run_algorithm("bench", candidate, algorithm, case)
    path = candidate.keep_requests()[-1]
    with open(path, "rb") as handle:
        return path, handle.read()


def one_shot(
    case: _Case, algorithm: str, repeats: int, scratch: str, describe: str, result: str, program: str | None
) -> dict:
    # the prepared program: the describe document for describe, else the result
    prepared = (
        f'case "$(head -c 80 {{request}})" in *describe*) cat {shlex.quote(describe)};; '
        f"*) cat {shlex.quote(result)};; esac"
    )
    candidate = CommandCandidate(program or prepared, serve=False, keep_dir=scratch)
    try:
        total = _harness_ms(candidate, case, algorithm, repeats)
        path, request = _request(candidate, case, algorithm)
        argv = (
            ["/bin/sh", "-c", prepared.replace("{request}", shlex.quote(path))]
            if program is None
            else shlex.split(program) + [path]
        )
        own = _median_ms(lambda: _standalone(argv, request), repeats)
    finally:
        candidate.close()
    return {
        "total_ms": round(total, 2),
        "program_ms": round(own, 2),
        "overhead_ms": round(total - own, 2),
        "request_bytes": len(request),
    }


def served(case: _Case, algorithm: str, repeats: int, scratch: str, server_argv: list[str]) -> dict:
    candidate = CommandCandidate(shlex.join(server_argv), keep_dir=scratch)
    assert candidate.serving
    try:
        total = _harness_ms(candidate, case, algorithm, repeats)
        cached = _harness_ms(candidate, case, algorithm, repeats, fresh_tape=False)
        request = json.loads(_request(candidate, case, algorithm)[1])
        request.pop("output")
        line = json.dumps(request, separators=(",", ":")).encode() + b"\n"
    finally:
        candidate.close()
    bare = subprocess.Popen([*server_argv, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:

        def round_trip():
            bare.stdin.write(line)
            bare.stdin.flush()
            bare.stdout.readline()

        round_trip()
        own = _median_ms(round_trip, repeats)
    finally:
        bare.stdin.close()
        bare.kill()
        bare.wait()
    return {
        "total_ms": round(total, 2),
        "program_ms": round(own, 2),
        "overhead_ms": round(total - own, 2),
        "request_bytes": len(line),
        "cached_tape_total_ms": round(cached, 2),
        "cached_tape_overhead_ms": round(cached - own, 2),
    }


def result_decoding_ms(algorithm: str, result: str, repeats: int) -> tuple[float, float]:
    """What the judge does with a result line that reads JSON: (its one-pass reading of an
    exact trace as the reference writes it -- parse, schema check, decoding -- and the
    general reading any other result gets: parse_json, representations, schema, decoder)."""
    with open(result, "rb") as handle:
        data = handle.read()

    def one_pass():
        read = plain_trace(data)
        assert read is not None, "the prepared result is the reference's own trace"
        decode_trace("bench", read[0], algorithm)

    def general():
        document = documents.parse_json(data, "result")
        document, _ = representations.accept_document(algorithm, document, "exact")
        documents.validate(document, "trace", source="result")
        decode_trace("bench", document, algorithm)

    one_pass()
    general()
    return _median_ms(one_pass, repeats), _median_ms(general, repeats)


def worker(case: _Case, algorithm: str, repeats: int, candidate) -> dict:
    total = _harness_ms(candidate, case, algorithm, repeats)
    return {"total_ms": round(total, 2), "program_ms": 0.0, "overhead_ms": round(total, 2)}


ROUTES = ("one_shot", "serve", "worker")


def per_call(args, scratch: str) -> list[dict]:
    cases = {n: _Case(n) for n in SIZES}
    describe, results, pickled = _prepared_files(scratch, cases)
    server = os.path.join(scratch, "prepared_server.py")
    Path(server).write_text(PREPARED_SERVER)
    Path(scratch, "cral_bench_prepared.py").write_text(PREPARED_MODULE)
    os.environ["CRAL_BENCH_PREPARED"] = pickled
    sys.path.insert(0, scratch)
    rows = []
    with load_impl("cral_bench_prepared", isolate=True) as module:
        for n, case in cases.items():
            for algorithm in ALGORITHMS:
                result = results[(algorithm, n)]
                server_argv = [sys.executable, server, describe, json.dumps({a: results[(a, n)] for a in ALGORITHMS})]
                row = {
                    "algorithm": algorithm,
                    "n": n,
                    "one_shot": one_shot(case, algorithm, args.repeats, scratch, describe, result, args.program),
                    "serve": served(case, algorithm, args.repeats, scratch, server_argv),
                    "worker": worker(case, algorithm, args.repeats, module),
                }
                reading, general = result_decoding_ms(algorithm, result, args.repeats)
                row["result_decoding_ms"], row["general_reading_ms"] = round(reading, 2), round(general, 2)
                row["serve"]["route_ms"] = round(row["serve"]["cached_tape_overhead_ms"] - row["result_decoding_ms"], 2)
                rows.append(row)
                print(
                    f"{algorithm:<11} n = {n:>6}  "
                    + "  ".join(
                        f"{route} {row[route]['total_ms']:7.2f} - {row[route]['program_ms']:5.2f} = "
                        f"{row[route]['overhead_ms']:6.2f}"
                        for route in ROUTES
                    )
                    + f"  serve, tape encoded already: {row['serve']['cached_tape_overhead_ms']:6.2f}"
                    + f" (of which the result's parse + schema + decoding {row['result_decoding_ms']:6.2f}, "
                    f"the rest {row['serve']['route_ms']:6.2f}; the general reading {row['general_reading_ms']:6.2f})",
                    flush=True,
                )
    return rows


def check_wall_times(module: str, seed: int) -> dict:
    answer = f"{shlex.quote(sys.executable)} -m properties answer --impl {module}"
    routes = {
        "worker": ["--impl", module],
        "serve": ["--candidate-cmd", answer],
        "one_shot": ["--candidate-cmd", f"{answer} --one-shot"],
    }
    out = {}
    for route, how in routes.items():
        with tempfile.TemporaryDirectory() as kept:
            keep = ["--keep-requests", kept] if route != "worker" else []
            started = time.perf_counter()
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "properties",
                    "check",
                    *how,
                    "--only",
                    *CHECKS,
                    "--seed",
                    str(seed),
                    "--profile",
                    "dev",
                    "--json",
                    *keep,
                ],
                capture_output=True,
                text=True,
                cwd=ROOT,
                env={**os.environ, "CRAL_RESULTS_DIR": kept},
            )
            wall = time.perf_counter() - started
        if done.returncode not in (0, 1):
            raise SystemExit(f"check through {route} exited with {done.returncode}: {done.stderr[-2000:]}")
        report = json.loads(done.stdout)
        out[route] = {"wall_s": round(wall, 2), "verdicts": {c["name"]: c["status"] for c in report["checks"]}}
        print(f"check, {len(CHECKS)} checks, module {module}, {route:<8}: {wall:7.2f} s", flush=True)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument(
        "--program",
        help="a real program to measure one process per call instead of the prepared "
        "sh + cat answer (e.g. the Rust example's binary)",
    )
    parser.add_argument("--module", default="fast", help="the module for the check wall times (default fast)")
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument("--no-check", action="store_true", help="per-call overhead only")
    parser.add_argument("--out", default=str(_report.RESULTS / "command_overhead.json"))
    args = parser.parse_args(argv)
    scratch = tempfile.mkdtemp(prefix="cral-bench-")
    try:
        print("per call, median ms: through the harness - the program's own = overhead")
        rows = per_call(args, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    worst = {route: max(r[route]["overhead_ms"] for r in rows) for route in ROUTES}
    worst["serve_tape_encoded_already"] = max(r["serve"]["cached_tape_overhead_ms"] for r in rows)
    worst["serve_beyond_encoding_and_decoding"] = max(r["serve"]["route_ms"] for r in rows)
    print(
        "largest overhead per call, n <= 2^14: "
        + ", ".join(f"{r} {v:.2f} ms" for r, v in worst.items())
        + f" (targets: serve <= {TARGET_SERVE_MS:g} ms, one process per call < {TARGET_ONE_SHOT_MS:g} ms)"
    )
    report = {
        "rows": rows,
        "largest_overhead_ms": worst,
        "target_serve_ms": TARGET_SERVE_MS,
        "target_one_shot_ms": TARGET_ONE_SHOT_MS,
        "repeats": args.repeats,
        "program": args.program or "prepared answer (sh + cat; a Python server; a module in a worker)",
    }
    if not args.no_check:
        walls = check_wall_times(args.module, args.seed)
        ratio = walls["serve"]["wall_s"] / walls["worker"]["wall_s"]
        same = walls["serve"]["verdicts"] == walls["worker"]["verdicts"] == walls["one_shot"]["verdicts"]
        print(
            f"check wall time: worker {walls['worker']['wall_s']:.2f} s, serve {walls['serve']['wall_s']:.2f} s "
            f"({ratio:.2f}x the worker; target <= {TARGET_CHECK_RATIO:g}x), one process per call "
            f"{walls['one_shot']['wall_s']:.2f} s; verdicts {'the same' if same else 'DIFFER'}"
        )
        report["check"] = {
            "module": args.module,
            "checks": list(CHECKS),
            "seed": args.seed,
            "profile": "dev",
            "routes": walls,
            "serve_over_worker": round(ratio, 3),
            "same_verdicts": same,
            "target_ratio": TARGET_CHECK_RATIO,
        }
    _report.write(report, args.out)
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
