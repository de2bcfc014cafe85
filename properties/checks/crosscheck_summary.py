"""The cross-check's summary over every case and algorithm: divergence counts, the worst
error over tolerance, skipped runs, its JSON and its text table. Split from
properties/checks/crosscheck.py, which re-exports `Summary` and `summary_text`."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from properties.checks.free_choices import DIVERGENCE_KINDS
from properties.core.violation import Violation


@dataclass
class Summary:
    candidate: str
    arithmetic: str
    reports: list  # properties.checks.crosscheck.AlgorithmReport, one per (case, algorithm)

    @property
    def mismatches(self) -> list[Violation]:
        return [v for r in self.reports for v in r.mismatches]

    def divergence_counts(self) -> dict[str, dict[str, int]]:
        """{algorithm: {kind: count}} over every case, every kind listed."""
        result = {}
        for algorithm in dict.fromkeys(r.algorithm for r in self.reports):
            total = Counter()
            for r in self.reports:
                if r.algorithm == algorithm:
                    total += r.divergence_counts()
            result[algorithm] = {kind: total.get(kind, 0) for kind in DIVERGENCE_KINDS}
        return result

    def worst(self) -> dict[str, float]:
        worst: dict[str, float] = {}
        for r in self.reports:
            for name, ratio in r.worst.items():
                worst[name] = max(worst.get(name, 0.0), ratio)
        return dict(sorted(worst.items()))

    def to_json(self) -> dict:
        per_algorithm = {}
        for algorithm, kinds in self.divergence_counts().items():
            mine = [r for r in self.reports if r.algorithm == algorithm]
            per_algorithm[algorithm] = {
                "cases": sum(r.runs for r in mine),
                "agreed": sum(r.ok for r in mine),
                "skipped": sum(r.runs for r in mine if r.skipped is not None),
                "divergences": kinds,
                "cases_with_divergences": sum(bool(r.divergences) for r in mine),
            }
        return {
            "candidate": self.candidate,
            "arithmetic": self.arithmetic,
            "algorithms": per_algorithm,
            "worst_error_over_tolerance": self.worst(),
            "skipped": _skipped_runs(self.reports),  # why: runs
            "mismatches": [
                {
                    "case": r.case_index,
                    "algorithm": r.algorithm,
                    "message": v.message,
                    "values": v.values,
                    "reproduce": r.reproducer,
                }
                for r in self.reports
                for v in r.mismatches
            ],
        }


def _skipped_runs(reports) -> dict[str, int]:
    """{why: runs} of the skipped runs."""
    counts: Counter = Counter()
    for r in reports:
        if r.skipped:
            counts[r.skipped] += r.runs
    return dict(counts)


def summary_text(summary: Summary) -> str:
    lines = [f"candidate {summary.candidate} ({summary.arithmetic}) against the reference"]
    data = summary.to_json()
    kinds = "  ".join(f"{k:>18}" for k in DIVERGENCE_KINDS)
    lines.append(f"{'algorithm':<20}{'agreed':>10}  {kinds}")
    for algorithm, row in data["algorithms"].items():
        counts = "  ".join(f"{row['divergences'][k]:>18}" for k in DIVERGENCE_KINDS)
        lines.append(f"{algorithm:<20}{row['agreed']:>5}/{row['cases']:<4}  {counts}")
    if data["worst_error_over_tolerance"]:
        lines.append(
            "largest error / tolerance: "
            + ", ".join(f"{k} {v:.2g}" for k, v in data["worst_error_over_tolerance"].items())
        )
    failing = [r for r in summary.reports if r.mismatches]
    for r in failing[:5]:
        lines.append(f"MISMATCH case {r.case_index}, {r.algorithm}: {len(r.mismatches)} mismatches, the first:")
        lines.append(f"  {r.mismatches[0]}")
        lines.append(f"  reproduce: {r.reproducer}")
    if len(failing) > 5:
        lines.append(f"... and {len(failing) - 5} more failing runs")
    skipped = [r for r in summary.reports if r.skipped]
    for why, count in _skipped_runs(skipped).items():  # one line per hung algorithm, one for the budget
        first = next(r for r in skipped if r.skipped == why)
        lines.append(f"{count} runs skipped from case {first.case_index} on: {why}")
    lines.append(f"{len(summary.mismatches)} mismatches")
    return "\n".join(lines)
