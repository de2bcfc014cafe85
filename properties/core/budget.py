"""A total time budget for a run of `check` or `crosscheck` (--budget SECONDS).

The per-call --timeout bounds one call of the candidate; a slow but not hanging
candidate (every call just under the timeout) can still make a run take hours. The
budget bounds the run: once it is spent no further work starts, and what did not run is
reported as not run -- never as passed, so the exit status is then 1 (incomplete is not a
verdict of success).

Where it is looked at: `check` before each check and before each example of a check
(properties/run/runner.py; a check stopped with a failure in hand reports that failure,
unshrunk); `crosscheck` before each run of an algorithm on a case. Work in flight is not
cut short -- cutting a call would make it look hung -- so a run can overrun the budget by
one example's calls, each at most --timeout."""

from __future__ import annotations

import time


class BudgetSpent(BaseException):
    """Raised between examples once the budget is spent. A BaseException, as
    runner._FatalCall: Hypothesis then neither shrinks nor retries, it stops."""


def deadline_in(seconds: float | None) -> float | None:
    """The deadline `seconds` from now on the monotonic clock (None: no budget, no deadline)."""
    return None if seconds is None else time.monotonic() + seconds


def spent(deadline: float | None) -> bool:
    """Whether a deadline (time.monotonic() seconds, None: none) has passed."""
    return deadline is not None and time.monotonic() >= deadline


def check_budget(deadline: float | None) -> None:
    """A checkpoint between examples: BudgetSpent once the deadline has passed."""
    if spent(deadline):
        raise BudgetSpent()


__all__ = ["BudgetSpent", "check_budget", "deadline_in", "spent"]
