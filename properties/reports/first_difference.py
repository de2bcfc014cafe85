"""The first quantity of a failing cross-check run that differs from the exact computation,
followed over the run's checkpoints (RobustCAL) or epochs (CALruption), candidate against
exact: the data of the HTML report's figure (properties/reports/html_figure.py).

The cross-check (properties/checks/crosscheck.py) keeps, for a run with a mismatch, every
numeric comparison it made as (where, candidate values, exact values), `where` being
"checkpoint t = 40 empirical_risk", "epoch 2 rho[1]", ... . The first mismatch names its
place the same way ("robust_cal, checkpoint t = 40 threshold[3]: ..."): the series is that
quantity (that entry of it) at every checkpoint or epoch. A run without steps (passive ERM)
gives the quantity over its index instead."""

from __future__ import annotations

import math
import re

MAX_POINTS = 200  # of one figure
_STEP = re.compile(r"^(?:checkpoint t = (?P<t>\d+)|epoch (?P<l>\d+)) (?P<rest>.*)$")


def _float(value) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _place(message: str, algorithm: str, compared) -> tuple[str, int | None] | None:
    """The comparison the mismatch message names: (its where, the entry's index or None)."""
    prefix = f"{algorithm}, "
    if not message.startswith(prefix):
        return None
    said = message[len(prefix) :]
    best = None
    for where, _, _ in compared:
        if said.startswith(f"{where}: "):
            found = (where, None)
        elif said.startswith(f"{where}["):
            match = re.match(r"\[(\d+)\]: ", said[len(where) :])
            if not match:
                continue
            found = (where, int(match.group(1)))
        else:
            continue
        if best is None or len(found[0]) > len(best[0]):
            best = found
    return best


def _step(where: str) -> tuple[str | None, int | None, str]:
    match = _STEP.match(where)
    if not match:
        return None, None, where
    if match.group("t") is not None:
        return "checkpoint t", int(match.group("t")), match.group("rest")
    return "epoch", int(match.group("l")), match.group("rest")


def first_difference(report) -> dict | None:
    """The series of `report`'s (an AlgorithmReport) first differing quantity, or None when
    its first mismatch is not a numeric comparison (a crash, a version space, ...)."""
    compared = getattr(report, "compared", None)
    if not compared or not report.mismatches:
        return None
    place = _place(report.mismatches[0].message, report.algorithm, compared)
    if place is None:
        return None
    where, index = place
    axis, at, rest = _step(where)
    points = []
    if axis is None:  # no steps: the quantity over its index
        for w, candidates, exacts in compared:
            if w == where:
                for x, (c, e) in enumerate(zip(candidates, exacts)):
                    pair = (_float(c), _float(e))
                    if None not in pair:
                        points.append({"x": x, "candidate": pair[0], "exact": pair[1]})
                break
        quantity, axis = rest, "index"
    else:
        entry = 0 if index is None else index
        for w, candidates, exacts in compared:
            w_axis, x, w_rest = _step(w)
            if w_axis != axis or w_rest != rest or entry >= min(len(candidates), len(exacts)):
                continue
            pair = (_float(candidates[entry]), _float(exacts[entry]))
            if None not in pair:
                points.append({"x": x, "candidate": pair[0], "exact": pair[1]})
        quantity = rest if index is None else f"{rest}[{index}]"
    if not points:
        return None
    # where the first mismatch is (a float candidate's values differ everywhere, within tolerance)
    at = index if axis == "index" else at
    return {"quantity": quantity, "axis": axis, "points": points[:MAX_POINTS], "at": at}


__all__ = ["MAX_POINTS", "first_difference"]
