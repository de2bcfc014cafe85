"""The reproducer that calls the candidate's own function: one line of Python that rebuilds
the failing example and calls the implementation under test on it, as the check did
(`import json, properties.core.case, my_cral; example = ...; print(my_cral.robust_cal(...))`), so a
person can paste it into a shell or a debugger and step into their own code.

Only for a candidate named by an import path and a check that calls one function on
arguments the example holds; a program's reproducers are its request files
(docs/protocol.md), and a check that calls several functions, or one on arguments it
derives, has the line that rebuilds the example only."""

from __future__ import annotations

import re

from properties.core.contract import function_of

# mode -> the call's arguments, as attributes of the example (one-epoch cases hold the
# instance: their hypotheses are example.instance.hypotheses)
ARGUMENTS = {
    "passive": ("instance.hypotheses", "tape", "params"),
    "robust_cal": ("instance.hypotheses", "tape", "params"),
    "robust_cal_vanilla": ("instance.hypotheses", "tape", "params"),
    "calruption": ("instance.hypotheses", "tape", "params"),
    "calruption_epoch": ("hypotheses", "state", "counts", "params"),
    "catoni_root": ("values", "counts", "alpha"),
    "sample_tape": ("instance", "adversary", "seed"),
}
_IMPORT_PATH = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def _has(example, dotted: str) -> bool:
    value = example
    for part in dotted.split("."):
        if not hasattr(value, part):
            return False
        value = getattr(value, part)
    return True


def calling_reproducer(check, candidate_path: str | None, example, rebuilt: str) -> str | None:
    """The line that rebuilds `example` (`rebuilt`, its reproducer) and calls the candidate
    at `candidate_path` as `check` calls it; None where no single such call exists."""
    modes = [mode for mode in check.covers if mode in ARGUMENTS]
    if len(modes) != 1 or not candidate_path or not _IMPORT_PATH.fullmatch(candidate_path):
        return None
    mode = modes[0]
    arguments = ARGUMENTS[mode]
    if mode == "calruption_epoch" and not _has(example, "hypotheses"):
        arguments = ("instance.hypotheses", "state", "counts", "params")
    if not all(_has(example, a) for a in arguments):
        return None
    call = ", ".join(f"example.{a}" for a in arguments) + (", vanilla=True" if mode == "robust_cal_vanilla" else "")
    # the module that defines the example's type: importing it binds the package path the
    # reproducer names (properties.core.case.Case, properties.strategies.CraftedCase)
    home = type(example).__module__
    return (
        f"from fractions import Fraction; import json, {home}, {candidate_path}; example = {rebuilt}; "
        f"print({candidate_path}.{function_of(mode)}({call}))"
    )


__all__ = ["ARGUMENTS", "calling_reproducer"]
