"""What `python -m properties check` says to someone meeting it for the first time: the short form of each failure after the table, the arithmetic the
candidate declared and what that changed, the hint that an import path (not a file) is
needed, and the JSON report written to a file."""

from __future__ import annotations

import json
import os
import re
from fractions import Fraction
from pathlib import Path

from properties.core.outcomes import FAILED, NOT_APPLICABLE, PASSED, XFAIL
from properties.core.terms import table
from reference.command_line import UsageError

CLIP = 160  # a short line's violation, clipped


def importable_advice(folder, name: str, option: str, command_line: str) -> str:
    """How to make a module importable: the one wording of check --impl, crosscheck
    --candidate, replay and pytest --cral-impl."""
    return (
        f"put its folder on PYTHONPATH and give the module's name, e.g. PYTHONPATH={folder or '.'} "
        f"{command_line} {option} {name}"
    )


def file_path_hint(path: str, option: str, command: str = "check", command_line: str | None = None) -> None:
    """`--impl path/to/file.py` (or a folder): one line saying an import name is needed and
    how to get one. `command_line` is the program the advice names (default `python -m
    properties COMMAND`)."""
    looks_like_file = path.endswith(".py") or os.sep in path or "/" in path
    if not looks_like_file:
        return
    target = Path(path)
    folder, name = (target.parent, target.stem) if path.endswith(".py") else (target.parent, target.name)
    raise UsageError(
        f"{option} takes an import name, not a file path ({path!r}): "
        + importable_advice(folder, name, option, command_line or f"python -m properties {command}")
    )


def current_folder_hint(name: str, option: str, command_line: str) -> str | None:
    """A module name that is a file or folder of the current folder but cannot be imported
    from here (the `pytest` program, unlike `python -m`, does not put the current folder on
    sys.path): one line saying how to make it importable; None otherwise."""
    import importlib.util

    top = name.split(".")[0]
    here = Path.cwd()
    if not ((here / f"{top}.py").is_file() or (here / top).is_dir()):
        return None
    try:
        if importlib.util.find_spec(top) is not None:
            return None
    except (ImportError, ValueError):
        pass
    return f"{option} {name}: {top!r} is in the current folder but not importable from here: " + importable_advice(
        ".", name, option, command_line
    )


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= CLIP else text[: CLIP - 3] + "..."


def print_short(result, saved: str | None, out=print) -> None:
    """One line per expected failure, unexpected pass or listed result (two more for a
    failure: its first violation and the replay command); --verbose prints the full blocks
    instead."""
    from properties.reports.saved import replay_command

    if result.status in (PASSED, NOT_APPLICABLE) and not result.listed:
        return
    # the same heading as --verbose's block, "name (status: reason)", then the example
    line = f"  {result.name} ({status_phrase(result.status, result.reason)})"
    out(line + (f" on {result.short}" if result.short else ""))
    if result.status != FAILED:
        return
    if result.violations:
        sentence = result.violations[0].split("\n")[0]  # its term table, if any, follows aligned
        out(f"    {_clip(sentence)}")
    if result.terms:  # the formula term by term: where the candidate's number goes wrong
        out(table(result.terms, indent="      "))
    if saved:
        out(f"    replay: {replay_command(saved)}")


def status_phrase(status: str, reason: str | None) -> str:
    """A result's status and reason as a report says them: an expected failure of ours is
    a check that shows where the paper is wrong (its finding), never a failure."""
    if status == XFAIL:
        return f"shows where the paper is wrong: {reason or 'its finding is not named'}"
    return status + (f": {reason}" if reason else "")


def _shown(results) -> bool:
    return any(r.status not in (PASSED, NOT_APPLICABLE) or r.listed for r in results)


def print_short_header(results, out=print) -> None:
    if _shown(results):
        out("\nwhere the paper is wrong, and failures (full reproducers: --verbose, --json):")


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
        floats = [r.name for r in results if r.status == FAILED and any(_looks_float(v) for v in r.violations)]
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
        if _looks_float(" ".join([v.message, *map(str, v.values.values())]))
    ]
    if not floats:
        return []
    return [
        f"hint: {len(floats)} failing run(s) show float values, but the candidate declares exact arithmetic (or "
        'nothing): if it computes in floating point, declare it -- ARITHMETIC = "float64" in the module (or '
        '"arithmetic": "float64" in a program\'s describe) -- and it is compared within tolerances'
    ]


# Evidence of float arithmetic: a value the candidate reported that is
# exactly a float64 (a power-of-two denominator and at most 53 significant bits), lying
# within a rounding error (relative 2^-40) of a value in the same violation that is not a
# float64 -- the exact one it approximates. A power-of-two denominator alone is no
# evidence: a certified enclosure (lo < hi) has one too, so the endpoints of such an
# enclosure are never the candidate's float; a point enclosure [x, x] may be.
ROUNDING = Fraction(1, 1 << 40)
MAX_NUMBERS = 64  # numbers of one violation looked at (pairs are compared)
_NUMBER = r"-?\d+"
_RATIONAL = re.compile(rf"Fraction\(({_NUMBER}), ({_NUMBER})\)|(?<![\w.])({_NUMBER})/({_NUMBER})(?![\w.])")
_ENCLOSURE = re.compile(r"Enclosure\(lo=(Fraction\([^)]*\)|[-\d/]+), hi=(Fraction\([^)]*\)|[-\d/]+)\)")
# an exact candidate returned a float (reference/serialization.py, properties/core/contract.py)
_FLOAT_RETURNED = "got the float "


def _rationals(text: str) -> list[Fraction]:
    found = []
    for match in _RATIONAL.finditer(text):
        numerator, denominator = match.group(1, 2) if match.group(1) else match.group(3, 4)
        if int(denominator) != 0:
            found.append(Fraction(int(numerator), int(denominator)))
        if len(found) >= MAX_NUMBERS:
            break
    return found


def is_float64(value: Fraction) -> bool:
    """Whether `value` is exactly a double (finite)."""
    d = value.denominator
    if d & (d - 1):
        return False
    try:
        return Fraction(float(value)) == value
    except OverflowError:
        return False


def float_like(candidate: Fraction, exact: Fraction) -> bool:
    """`candidate` looks like `exact` rounded to float64."""
    return (
        candidate != exact
        and exact != 0
        and is_float64(candidate)
        and not is_float64(exact)
        and abs(candidate - exact) <= ROUNDING * abs(exact)
    )


def _looks_float(text: str) -> bool:
    """Whether a violation's text shows float arithmetic (see ROUNDING above)."""
    if _FLOAT_RETURNED in text:
        return True
    certified = set()  # endpoints of enclosures lo < hi: certified, not a float
    for match in _ENCLOSURE.finditer(text):
        lo, hi = (_rationals(group) for group in match.groups())
        if lo and hi and lo[0] != hi[0]:
            certified.update((lo[0], hi[0]))
    numbers = _rationals(text)
    doubles = [v for v in numbers if v not in certified and is_float64(v)]
    return any(float_like(c, e) for c in doubles for e in numbers)


def write_json_file(report: dict, path: str, indent: int | None) -> None:
    """--json-file (its path and --json-indent were checked before the run)."""
    try:
        Path(path).write_text(json.dumps(report, indent=indent) + "\n")
    except OSError as error:
        raise UsageError(f"--json-file {path}: {error.strerror}") from None


def check_report_file(option: str, path: str | None) -> None:
    """Before a run of minutes (--json-file, --junitxml): a report file that cannot be
    written is bad input now, not a lost report at the end."""
    if path is None:
        return
    if not path.strip():
        raise UsageError(f"{option} is empty: give a file path")
    if Path(path).is_dir():
        raise UsageError(f"{option} {path}: is a folder, give a file path")
    if not Path(path).resolve().parent.is_dir():
        raise UsageError(f"{option} {path}: its folder does not exist")


__all__ = [
    "arithmetic_lines",
    "check_report_file",
    "crosscheck_arithmetic_lines",
    "current_folder_hint",
    "file_path_hint",
    "normalised_lines",
    "print_short",
    "print_short_header",
    "status_phrase",
    "write_json_file",
]
