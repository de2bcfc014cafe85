"""What passive ERM and RobustCAL share: input checks and per-point aggregation.

Both algorithms see the stream only through per-point counts between updates, so
the reference aggregates by point (a count per (x, y)) instead of re-scanning the
stream at every checkpoint; the sums below are exactly the paper's averages."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .instance import Hypothesis, validate_hypotheses
from .params import Params
from .tape import Tape


def check_run_inputs(hypotheses, tape, params) -> tuple[Hypothesis, ...]:
    """Validate what every algorithm receives; returns H as label tuples."""
    H = validate_hypotheses(hypotheses)
    if not isinstance(tape, Tape):
        raise ValueError(f"tape must be a reference.Tape, got {type(tape).__name__}")
    if not isinstance(params, Params):
        raise ValueError(f"params must be a reference.Params, got {type(params).__name__}")
    check_params_match(params, tape.n, len(H))
    m = len(H[0])
    top = max(tape.x)
    if top >= m:
        raise ValueError(f"tape.x[{tape.x.index(top)}] is {top}, but the hypotheses label only points 0..{m - 1}")
    return H


def check_params_match(params, n: int, num_hypotheses: int, source: str = "the tape") -> None:
    """The run's Params must be for this many rounds and hypotheses (shared with fast/)."""
    if params.n != n:
        raise ValueError(f"params.n is {params.n} but {source} has n = {n} rounds")
    if params.num_hypotheses != num_hypotheses:
        raise ValueError(f"params.num_hypotheses is {params.num_hypotheses} but {num_hypotheses} hypotheses were given")


def empirical_risks(
    H: Sequence[Hypothesis], label_counts: Sequence[Sequence[int]], t: int, members: Sequence[int]
) -> tuple[Fraction | None, ...]:
    """(1/t) * #{recorded rounds s <= t with h(x_s) != y_s} for h in members, None for
    the others. label_counts[x][y] counts the recorded rounds with (x_s, y_s) = (x, y)."""
    wanted = set(members)
    result = []
    for h, labels in enumerate(H):
        if h not in wanted:
            result.append(None)
            continue
        mistakes = sum(label_counts[x][1 - label] for x, label in enumerate(labels))
        result.append(Fraction(mistakes, t))
    return tuple(result)


def argmin_lowest_index(values: Sequence[Fraction | None], members: Sequence[int]) -> int:
    """argmin over members, ties broken towards the lowest index."""
    return min(sorted(members), key=lambda h: values[h])
