"""Run a check against an implementation without pytest: Hypothesis drives the
examples (the check's known examples first, see registry.KNOWN_EXAMPLES), shrinks a
failure to a minimal one, and the result is plain data."""
from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import example as explicit_example
from hypothesis import given, seed as fixed_seed, settings

from .impl import CallFailed
from .registry import EXPECTED_FAILURES, Check, known_examples

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


def run_check(check: Check, impl, *, max_examples: int | None = None, profile: str | None = None,
              seed: int | None = None, known: bool = True) -> CheckResult:
    """Run one check under the loaded Hypothesis profile (or the named one), optionally with
    fewer examples or a fixed random seed. Its known examples run first (unless `known` is
    false: the strategy alone); a failure there ends the run, as any failure does."""
    seen = {"examples": 0, "last": None}

    def body(example):
        seen["examples"] += 1
        found = violations_of(check, impl, example)
        if found:
            seen["last"] = (example, found)
            raise CheckFailed("; ".join(map(str, found[:3])))

    options = {} if max_examples is None else {"max_examples": max_examples}
    test = given(example=check.strategy)(body)
    for known_example in reversed(known_examples(check.name) if known else ()):
        test = explicit_example(example=known_example)(test)  # the last applied runs first
    if seed is not None:
        test = fixed_seed(seed)(test)
    parent = settings.get_profile(profile) if profile else settings.default
    test = settings(parent, **options)(test)
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
