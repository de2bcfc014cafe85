"""A candidate that logs every mode a check calls: the reference, in-process, behind
the registry's claim that what a check declares it covers is what it calls
(tests/properties/checks/test_registry.py, tests/properties/checks/test_every_check.py)."""

from __future__ import annotations

import reference
from properties.core.candidate import InProcessCandidate


class Recording(InProcessCandidate):
    def __init__(self, timeout: float | None = None):
        super().__init__(reference, "reference", timeout)
        self.modes: set[str] = set()

    def invoke(self, name, args, kwargs, timeout):
        self.modes.add("robust_cal_vanilla" if name == "robust_cal" and kwargs.get("vanilla") else name)
        return super().invoke(name, args, kwargs, timeout)


def recording_of(impl) -> Recording | None:
    """A recording twin of `impl` when it is the reference in-process (the default run),
    else None: any other candidate is judged as it is."""
    if type(impl) is InProcessCandidate and impl.module is reference:
        return Recording(impl.timeout)
    return None
