"""Hypothesis's `event` and `target` for checks that may also be called directly (by a
third party, or by a meta-test) outside a Hypothesis test, where both would raise."""

from __future__ import annotations

import math

from hypothesis import currently_in_test_context, event, target


def note(text: str) -> None:
    """Record why an example was skipped or what it reached (shown in --hypothesis-show-statistics)."""
    if currently_in_test_context():
        event(text)


def steer(score, label: str) -> None:
    """Push the search toward larger `score` (e.g. a negated slack: toward the edge of a
    bound, used by the fuzz profile). target() takes floats only; infinite scores are
    dropped (Hypothesis's target() accepts only finite floats)."""
    value = float(score)
    if currently_in_test_context() and math.isfinite(value):
        target(value, label=label)
