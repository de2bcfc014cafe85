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


class _Found(Exception):
    pass


def reach(strategy, predicate, count=1000):
    """The first of `count` generated draws (fixed seed, no shrinking: some cases cost
    ~30 ms to generate) that satisfies `predicate`; fails the test if none does."""

    @settings(max_examples=count, derandomize=True, phases=[Phase.generate], **QUIET)
    @given(strategy)
    def search(value):
        if predicate(value):
            raise _Found(value)

    try:
        search()
    except _Found as found:
        return found.args[0]
    raise AssertionError(f"no draw of {count} satisfies {predicate.__name__}")
