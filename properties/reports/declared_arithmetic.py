"""What the report says about the arithmetic a candidate declared (docs/spec.md's float
rule): what the declaration changed, the representations read as the reference writes them,
and the hint to declare float64 when the failures show float values
(properties/reports/float_evidence.py)."""

from __future__ import annotations

from properties.core.outcomes import FAILED
from properties.reports.float_evidence import looks_float


def arithmetic_lines(candidate, results) -> list[str]:
    """The arithmetic the candidate declared and what it changed, and a hint where the
    verdict suggests the declaration is wrong."""
    from properties.reports.verdict import arithmetic_source

    arithmetic = getattr(candidate, "arithmetic", "exact")
    source = arithmetic_source(candidate)
    lines = []
    if arithmetic in ("float64", "float32"):
        unit = "2^-53" if arithmetic == "float64" else "2^-24"
        lines.append(
            f"arithmetic: {arithmetic} ({source}): every value is judged within the error a correct "
            f"{arithmetic} computation of the paper's formula may make (unit roundoff {unit}; bounds derived "
            "per quantity from the case, properties/checks/judgement.py), and near-tie decisions (line 10's test, "
            "a coin on q, an argmin, a ceiling) may go either way"
        )
    else:
        lines.append(f"arithmetic: exact ({source}): results must be exact rationals, floats are refused")
        floats = [r.name for r in results if r.status == FAILED and any(looks_float(v) for v in r.violations)]
        if floats:
            lines.append(
                f"  hint: {len(floats)} failed check(s) show float values: if the implementation computes in "
                'floating point, declare it: ARITHMETIC = "float64" in the module (or "arithmetic": '
                '"float64" in a program\'s describe)'
            )
    return lines


def normalised_lines(candidate) -> list[str]:
    """The representations the judge read as the reference writes them (docs/protocol.md
    section 6's *either*): said, not failed."""
    normalised = getattr(candidate, "normalised", None)
    if not normalised:
        return []
    return [
        "read as the reference writes them (docs/protocol.md, section 6): "
        + ", ".join(f"{what} ({count} times)" for what, count in sorted(normalised.items()))
    ]


def crosscheck_arithmetic_lines(summary) -> list[str]:
    """crosscheck's word on arithmetic: a candidate held to exact comparison (no
    ARITHMETIC declared) whose mismatches show float values gets the hint to declare it;
    a float64 one is told its tolerances come from one table."""
    if summary.arithmetic in ("float64", "float32"):
        return [
            f"arithmetic: {summary.arithmetic} (declared): every value is compared within the tolerances of "
            "properties/checks/tolerances.py, each with its reason"
        ]
    floats = [
        r
        for r in summary.reports
        for v in r.mismatches[:1]
        if looks_float(" ".join([v.message, *map(str, v.values.values())]))
    ]
    if not floats:
        return []
    return [
        f"hint: {len(floats)} failing run(s) show float values, but the candidate declares exact arithmetic (or "
        'nothing): if it computes in floating point, declare it -- ARITHMETIC = "float64" in the module (or '
        '"arithmetic": "float64" in a program\'s describe) -- and it is compared within tolerances'
    ]


__all__ = [
    "arithmetic_lines",
    "crosscheck_arithmetic_lines",
    "normalised_lines",
]
