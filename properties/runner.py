"""Run a check against an implementation without pytest: Hypothesis drives the
examples, shrinks a failure to a minimal one, and the result is plain data."""
from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given, settings

from .impl import CallFailed
from .registry import EXPECTED_FAILURES, Check

PASSED, FAILED, XFAIL, XPASS = "passed", "failed", "expected failure", "unexpectedly passed"


class CheckFailed(AssertionError):
    pass


@dataclass
class CheckResult:
    name: str
    cites: str
    kind: str
    status: str
    examples: int
    counterexample: str | None = None
    violations: list[str] = field(default_factory=list)
    reason: str | None = None  # for expected failures

    def to_json(self) -> dict:
        return {
            "name": self.name, "cites": self.cites, "kind": self.kind, "status": self.status,
            "examples": self.examples, "counterexample": self.counterexample,
            "violations": self.violations, "reason": self.reason,
        }


def violations_of(check: Check, impl, example) -> list:
    try:
        return check.execute(impl, example)
    except CallFailed as failure:
        return [failure.violation]


def run_check(check: Check, impl, *, max_examples: int | None = None) -> CheckResult:
    """Run one check under the loaded Hypothesis profile (optionally fewer examples)."""
    seen = {"examples": 0, "last": None}

    def body(example):
        seen["examples"] += 1
        found = violations_of(check, impl, example)
        if found:
            seen["last"] = (example, found)
            raise CheckFailed("; ".join(map(str, found[:3])))

    options = {} if max_examples is None else {"max_examples": max_examples}
    test = settings(**options)(given(example=check.strategy)(body))
    reason = EXPECTED_FAILURES.get(check.name)
    try:
        test()
    except CheckFailed:
        example, found = seen["last"]
        reproducer = example.reproducer() if hasattr(example, "reproducer") else repr(example)
        return CheckResult(check.name, check.cites, check.kind, XFAIL if reason else FAILED, seen["examples"],
                           reproducer, [str(v) for v in found], reason)
    return CheckResult(check.name, check.cites, check.kind, XPASS if reason else PASSED, seen["examples"],
                       reason=reason)
