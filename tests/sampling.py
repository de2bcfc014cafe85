"""Drawing examples from a strategy outside a property test, for the meta-tests."""
from __future__ import annotations

from hypothesis import HealthCheck, Phase, given, settings

QUIET = dict(database=None, deadline=None, suppress_health_check=list(HealthCheck))


def sample(strategy, count):
    """`count` draws of `strategy`, generated (not shrunk) with a fixed seed."""
    drawn = []

    @settings(max_examples=count, derandomize=True, phases=[Phase.generate], **QUIET)
    @given(strategy)
    def collect(value):
        drawn.append(value)

    collect()
    return drawn
