"""The judge at scale, end to end: run the candidate's counts-mode CALruption with its
per-epoch record (`calruption_counts_record`, format of fast/scale_record.py) in a worker
process of its own (properties/judge/isolation.py, the cross-check's route), then judge each
epoch from the counts it drew (properties/scale/epoch.py), and report as the small
cross-check does (properties/checks/crosscheck.py's Summary: text and JSON).

The instance at size s: thresholds with |X| = |H| = s (bench/run.py's thresholds_instance),
n = 10^12, paper constants (delta = 1/10), a clean adversary, the given seed."""

from __future__ import annotations

import importlib
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

import reference as R
from fast.counts import MAX_ROUNDS
from properties.checks.crosscheck import AlgorithmReport, Summary, _Comparer, summary_text
from properties.checks.free_choices import divergence_of
from properties.checks.judgement import Judgement
from properties.checks.tolerances import table
from properties.core.candidate import CandidateFault, InProcessCandidate, arithmetic_of_module
from properties.judge.isolation import IsolatedCandidate
from reference.calruption import epoch_length
from reference.command_line import bytes_text, seconds_text, within_limit
from reference.version import code_version, suite_line

from .epoch import EpochJudge, Expect

RECORD_FUNCTION = "calruption_counts_record"
RECORD_FORMAT, RECORD_VERSION = "cral-counts-record", 1  # fast/scale_record.py
ALGORITHM = "calruption"
DEFAULT_CANDIDATE = "fast"
DEFAULT_SIZES = (1024, 4096)
DEFAULT_N = 10**12
DEFAULT_SEED = 1
DEFAULT_TIMEOUT_S = 3600.0  # one whole run at |H| = 4096 (the cross-check's 60 s is per small call)
DELTA = Fraction(1, 10)
# the fields of one epoch's file, and their shapes in (|H|, m, l): fast/scale_record.py writes them
SCALARS = ("l", "tau", "length", "labels_requested", "h_star_hat", "lp_objective")
SHAPES = {
    "q": "m",
    "seen": "m",
    "queried": "m2",
    "eta_hat": "m",
    "next_q": "m",
    "risk_hat": "h",
    "gap_hat": "h",
    "rho_counts": "hh",
    "min_q": "hh",
    "alpha": "hh",
    "W": "hh",
    "weight": "hh",
    "layers": "lh",
}
INTEGER = ("seen", "queried", "rho_counts")


class RecordError(ValueError):
    """A record file the judge cannot read as the format says."""


class _RecordingCandidate(IsolatedCandidate):
    """The isolated worker, asked for the record function too (not one of the contract's
    public names: a candidate without it fails the call, as for any missing name)."""

    def provides(self, name: str) -> bool:
        return name == RECORD_FUNCTION or super().provides(name)


def load_candidate(
    path: str, *, in_process: bool = False, timeout: float | None = DEFAULT_TIMEOUT_S, memory_limit: int | None = None
):
    if in_process:
        try:
            module = importlib.import_module(path)
        except Exception as error:  # noqa: BLE001 (whatever its import raises: bad input)
            raise ValueError(f"implementation {path!r} cannot be imported: {type(error).__name__}: {error}") from None
        candidate = InProcessCandidate(module, path, timeout)
        candidate.arithmetic = arithmetic_of_module(module, path)
        return candidate
    return _RecordingCandidate(path, timeout=timeout, memory_limit=memory_limit)


def thresholds_instance(size: int) -> R.Instance:
    base = R.instances.thresholds(size)
    return R.Instance(base.nu, base.eta, base.hypotheses[:size])


@dataclass
class SizeResult:
    size: int
    n: int
    epochs: int = 0
    candidate_s: float | None = None  # the candidate's own run (its record writing excluded)
    candidate_cpu_s: float | None = None
    judge_s: float = 0.0  # reading the record and judging it
    judge_cpu_s: float = 0.0
    roots_certified: int = 0
    exact_sign_tests: int = 0
    cycle_bounds: int = 0  # epochs whose line-9 optimality one cycle certified (nested classes, lp_cycle.py)
    lp_solves: int = 0  # restricted LPs (HiGHS) solved for line 9's bound where no cycle was enough
    notes: list = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        return self.judge_s / self.candidate_s if self.candidate_s else None

    def to_json(self) -> dict:
        return {
            "size": self.size,
            "n": self.n,
            "epochs": self.epochs,
            "candidate_s": self.candidate_s,
            "candidate_cpu_s": self.candidate_cpu_s,
            "judge_s": self.judge_s,
            "judge_cpu_s": self.judge_cpu_s,
            "ratio": self.ratio,
            "roots_certified": self.roots_certified,
            "exact_sign_tests": self.exact_sign_tests,
            "cycle_bounds": self.cycle_bounds,
            "lp_solves": self.lp_solves,
        }


def _load(path: str, num_h: int, m: int) -> dict:
    try:
        with np.load(path, allow_pickle=False) as data:
            record = {k: data[k] for k in data.files}
    except Exception as error:  # noqa: BLE001 -- not an npz, a pickled member, truncated
        raise RecordError(f"{os.path.basename(path)} cannot be read: {type(error).__name__}: {error}") from None
    for key in SCALARS:
        if key not in record or record[key].shape != ():
            raise RecordError(f"{os.path.basename(path)}: {key} must be a scalar")
    l = int(record["l"])
    shapes = {"m": (m,), "m2": (m, 2), "h": (num_h,), "hh": (num_h, num_h), "lh": (l + 1, num_h)}
    for key, kind in SHAPES.items():
        if key not in record:
            raise RecordError(f"{os.path.basename(path)}: {key} is missing")
        if kind != "lh" and record[key].shape != shapes[kind]:
            raise RecordError(f"{os.path.basename(path)}: {key} has shape {record[key].shape}, not {shapes[kind]}")
        if key in INTEGER and not np.issubdtype(record[key].dtype, np.integer):
            raise RecordError(f"{os.path.basename(path)}: {key} must be integer counts, got {record[key].dtype}")
    for key in INTEGER:
        record[key] = record[key].astype(np.int64)
    for key in set(SHAPES) - set(INTEGER) - {"layers"}:
        record[key] = record[key].astype(np.float64)
    record["layers"] = record["layers"].astype(bool)
    return record


def judge_record(cmp: _Comparer, H: np.ndarray, params, result: dict, directory: str, sizes: SizeResult) -> None:
    """Every epoch of the record in `directory`, then the run's totals and output."""
    num_h, m = H.shape
    n = params.n
    if result.get("format") != RECORD_FORMAT or result.get("version") != RECORD_VERSION:
        cmp.fail(
            "record",
            "is not a cral-counts-record, version 1",
            format=result.get("format"),
            version=result.get("version"),
        )
        return
    files = result.get("epochs")
    if not isinstance(files, list) or not all(isinstance(f, str) and os.path.basename(f) == f for f in files):
        cmp.fail("record", "epochs must list the epoch files by name", epochs=files)
        return
    schedule, tau, l = [], 1, 1
    while tau + epoch_length(params, l) - 1 <= n:
        schedule.append((l, tau, epoch_length(params, l)))
        tau, l = tau + epoch_length(params, l), l + 1
    if len(files) != len(schedule):
        cmp.fail(
            "epochs", "are not the schedule's completed epochs (line 1)", candidate=len(files), exact=len(schedule)
        )
        return
    beta3 = params.beta3.enclosure()
    judge = EpochJudge(cmp, H, params, (beta3.lo + beta3.hi) / 2)
    q, gap_prev, labels = np.ones(m), np.zeros(num_h), 0
    last = None
    for (l, tau, length), name in zip(schedule, files):
        try:
            record = _load(os.path.join(directory, name), num_h, m)
        except RecordError as error:
            cmp.fail(f"epoch {l}", f"malformed record: {error}")
            return
        state = judge.judge(record, Expect(l, tau, length, q, gap_prev))
        sizes.epochs += 1
        sizes.roots_certified, sizes.exact_sign_tests = judge.roots_certified, judge.exact_sign_tests
        sizes.cycle_bounds, sizes.lp_solves = judge.cycle_bounds, judge.lp_solves
        labels += int(record["queried"].sum())
        if state is None:
            return
        q, gap_prev = state
        last = record
    start = schedule[-1][1] + schedule[-1][2] if schedule else 1
    cmp.same("final_epoch", result.get("final_epoch"), len(schedule) + 1)
    cmp.same("unfinished_rounds", result.get("unfinished_rounds"), n - start + 1)
    if start <= n:
        try:
            with np.load(os.path.join(directory, "unfinished.npz"), allow_pickle=False) as data:
                rest = {k: data[k] for k in data.files}
            seen, queried = rest["seen"].astype(np.int64), rest["queried"].astype(np.int64)
        except Exception as error:  # noqa: BLE001 (a missing or odd file: the candidate's fault)
            cmp.fail("unfinished epoch", f"malformed record: {type(error).__name__}: {error}")
            return
        if not np.array_equal(rest["q"], q) or int(seen.sum()) != n - start + 1 or (queried.sum(axis=1) > seen).any():
            cmp.fail(
                "unfinished epoch",
                "counts are not rounds start..n under the last next_q",
                seen=int(seen.sum()),
                rounds=n - start + 1,
            )
        labels += int(queried.sum())
    cmp.same("labels_requested (total)", result.get("labels_requested"), labels)
    output = result.get("output")
    documented = int(last["h_star_hat"]) if last is not None else 0
    if output != documented:
        top = np.flatnonzero(last["layers"][-1]).tolist() if last is not None else list(range(num_h))
        kind = divergence_of("calruption.output")
        if kind is not None and output in top:
            cmp.diverge(kind, "output", f"h {output} instead of {documented}, both in V_L^(L-1)")
        else:
            cmp.fail(
                "output",
                "is not in V_l^{l-1}, the last completed epoch's top layer (R13)",
                candidate=output,
                h_star=documented,
            )


def judge_size(
    candidate,
    size: int,
    index: int,
    *,
    seed: int = DEFAULT_SEED,
    n: int = DEFAULT_N,
    timeout: float | None = DEFAULT_TIMEOUT_S,
) -> tuple[AlgorithmReport, SizeResult]:
    reproducer = (
        f"python -m properties crosscheck --candidate {candidate.path} --counts --sizes {size} "
        f"--seed {seed}" + (f" --n {n}" if n != DEFAULT_N else "")
    )
    report = AlgorithmReport(index, ALGORITHM, reproducer)
    sizes = SizeResult(size, n)
    cmp = _Comparer(report, table(candidate.arithmetic), Judgement(candidate.arithmetic))
    instance = thresholds_instance(size)
    params = R.Params.paper(n, size, DELTA)
    adversary = R.adversary.clean(n)
    H = np.array(instance.hypotheses, dtype=np.int64)
    with tempfile.TemporaryDirectory(prefix="cral-scale-") as directory:
        started = time.perf_counter()
        try:
            result = candidate.invoke(RECORD_FUNCTION, (instance, adversary, params, seed, directory), {}, timeout)
        except CandidateFault as fault:
            report.mismatches.append(fault.violation("crosscheck"))
            report.seconds = time.perf_counter() - started
            return report, sizes
        if not isinstance(result, dict):
            cmp.fail("record", "the record function must return a dict", candidate=type(result).__name__)
            return report, sizes
        for key in ("seconds", "cpu_seconds"):
            if not isinstance(result.get(key), (int, float)):
                result[key] = None
        sizes.candidate_s, sizes.candidate_cpu_s = result["seconds"], result["cpu_seconds"]
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            judge_record(cmp, H, params, result, directory, sizes)
        except Exception as error:  # noqa: BLE001 -- a structurally odd record is the candidate's fault
            cmp.fail("record", f"crashed: {type(error).__name__}: {error} (judging it)")
        sizes.judge_s, sizes.judge_cpu_s = time.perf_counter() - wall, time.process_time() - cpu
    report.seconds = time.perf_counter() - started
    return report, sizes


def judge_counts(
    path: str,
    sizes,
    *,
    seed: int = DEFAULT_SEED,
    n: int = DEFAULT_N,
    in_process: bool = False,
    timeout: float | None = DEFAULT_TIMEOUT_S,
    memory_limit: int | None = None,
):
    """(Summary, [SizeResult]) of the candidate at import path `path` at each size."""
    for size in sizes:
        if not isinstance(size, int) or size < 2:
            raise ValueError(f"sizes must be integers >= 2, got {size!r}")
    candidate = load_candidate(path, in_process=in_process, timeout=timeout, memory_limit=memory_limit)
    try:
        reports, results = [], []
        for index, size in enumerate(sizes):
            report, result = judge_size(candidate, size, index, seed=seed, n=n, timeout=timeout)
            reports.append(report)
            results.append(result)
    finally:
        candidate.close()
    return Summary(path, candidate.arithmetic, reports), results


def report_json(summary: Summary, results, seed: int | None = None) -> dict:
    """The --json report; `code_version` and `seed` say which judge and which cases (reference/version.py)."""
    return {
        **summary.to_json(),
        "mode": "counts",
        "sizes": [r.to_json() for r in results],
        "code_version": code_version(),
        "seed": seed,
    }


def report_text(summary: Summary, results, seed: int | None = None) -> str:
    lines = [summary_text(summary), "counts mode, thresholds |X| = |H|, paper constants, clean adversary:"]
    for index, r in enumerate(results):
        ratio = f"{r.ratio:.2f}x" if r.ratio is not None else "-"
        candidate = f"{r.candidate_s:.2f} s" if r.candidate_s is not None else "-"
        lines.append(
            f"  case {index}: |H| = {r.size}, n = {r.n}: {r.epochs} epochs judged; candidate {candidate}, "
            f"judge {r.judge_s:.2f} s ({ratio}); {r.roots_certified} Catoni roots certified "
            f"({r.exact_sign_tests} signs by the exact route)"
        )
    lines.append(suite_line(code_version(), seed=seed))  # which judge gave the verdict
    return "\n".join(lines)


# above MAX_SIZE a run needs --yes: the |H| x |X| matrix dominates, about ENTRY_BYTES and
# ENTRY_SECONDS an entry for the candidate (fast) and the judge together (measured with
# `crosscheck --counts --in-process` at sizes 1024 and 2048: 330 MB, 25 s and 875 MB, 72 s)
MAX_SIZE = 8192
ENTRY_BYTES, ENTRY_SECONDS = 175, 15e-6


def size_estimate(size: int) -> str:
    entries = size * size
    return (
        f"|H| = |X| = {size:,} is a matrix of {entries:,} entries, about {bytes_text(entries * ENTRY_BYTES)} "
        f"and {seconds_text(entries * ENTRY_SECONDS)}"
    )


def parse_sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise ValueError(f"--sizes must be comma-separated integers, got {text!r}") from None
    if not sizes or min(sizes) < 2:
        raise ValueError(f"--sizes must be integers >= 2, got {text!r}")
    return sizes


def main(args) -> int:
    """`python -m properties crosscheck --counts` (properties/cli.py hands its args here)."""
    if getattr(args, "candidate_cmd", None) is not None:
        raise ValueError("--counts judges an import-path candidate (--candidate), not --candidate-cmd")
    sizes = parse_sizes(args.sizes)
    for size in sizes:
        within_limit("--sizes", args.sizes, size, MAX_SIZE, size_estimate(size), yes=args.yes)
    timeout = DEFAULT_TIMEOUT_S if args.timeout is None else args.timeout
    n = args.n if args.n is not None else DEFAULT_N
    if not 1 <= n <= MAX_ROUNDS:
        raise ValueError(f"--n must be in [1, 2^62 = {MAX_ROUNDS}] (counts mode counts rounds in int64), got {n}")
    summary, results = judge_counts(
        args.candidate or DEFAULT_CANDIDATE,
        sizes,
        seed=(seed := DEFAULT_SEED if args.seed is None else args.seed),
        n=n,
        in_process=args.in_process,
        timeout=timeout,
        memory_limit=args.memory_limit,
    )
    if args.json:
        print(json.dumps(report_json(summary, results, seed), indent=2))
    else:
        print(report_text(summary, results, seed))
    sys.stdout.flush()
    return 1 if summary.mismatches else 0
