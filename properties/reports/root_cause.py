"""Failures in the order of the algorithm's computation, so that the check naming the root
cause comes first: a wrong coin in epoch 2 (Algorithm 2, line 4) makes epoch 2's Catoni
root (line 8) and everything after it differ too, and the report should lead with the coin.

A failed check's place is that of its first mismatch: the algorithm (Algorithm 1, then
Algorithm 2 and Catoni's estimator, its line 8), then when in the run it happens (the
checkpoint round `t` of RobustCAL, the epoch `l` of CALruption, as the first violation
names them; a mismatch that names neither comes after those that do), then the line of the
algorithm it concerns (the line its message names, else the first line its citation
names; a check of a lemma or theorem, a consequence of the whole run, after every line).
Ties keep the registry's order. Only failures move; the other results keep their order
after them."""

from __future__ import annotations

import re

from properties.core.outcomes import FAILED

LATE = 10**9  # after every round, epoch and line
_ALGORITHM = re.compile(r"Algorithm (\d)")
_LINE = re.compile(r"\blines? (\d+)")
_ROUND = re.compile(r"(?:\(|, )t = (\d+)[,)]")  # a Violation's values: "(t = 4, h = 1)"
_EPOCH = re.compile(r"(?:\(|, )l = (\d+)[,)]")
# what a check of a subroutine or a quantity without a line belongs to: (algorithm, line)
_BY_NAME = (("check_catoni_root", (2, 8)), ("check_sample_tape", (0, 0)), ("check_passive", (0, LATE)))


def position(result) -> tuple[int, int, int]:
    """(algorithm, round or epoch, line) of a failed check's first mismatch."""
    first = (result.violations or [""])[0].split("\n")[0]
    algorithm_match = _ALGORITHM.search(result.cites)
    algorithm, line = (int(algorithm_match.group(1)), LATE) if algorithm_match else (LATE, LATE)
    for prefix, (named_algorithm, named_line) in _BY_NAME:
        if result.name.startswith(prefix):
            algorithm, line = named_algorithm, named_line
    cited = _LINE.search(result.cites) if algorithm_match and result.cites.startswith("Algorithm") else None
    if cited:
        line = int(cited.group(1))
    said = _LINE.search(first.split(": ", 1)[-1])
    if said and algorithm != LATE:
        line = int(said.group(1))
    when = _ROUND.search(first) if algorithm == 1 else _EPOCH.search(first)
    return algorithm, int(when.group(1)) if when else LATE, line


def root_cause_order(results) -> list:
    """The failures by position (the root cause first), then the other results as given."""
    indexed = list(enumerate(results))
    failed = sorted((r for r in indexed if r[1].status == FAILED), key=lambda r: (position(r[1]), r[0]))
    return [r for _, r in failed] + [r for _, r in indexed if r.status != FAILED]


__all__ = ["position", "root_cause_order"]
