"""Every registered check of the property suite against the implementation under test
(--impl / $CRAL_IMPL, default the reference). Expected failures come from
properties.registry.EXPECTED_FAILURES, each naming its FINDINGS.md entry."""
import pytest

from properties.registry import EXPECTED_FAILURES, all_checks
from properties.runner import PASSED, run_check

CHECKS = all_checks()


def _param(name):
    reason = EXPECTED_FAILURES.get(name)
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("name", [_param(name) for name in CHECKS])
def test_check(name, impl):
    result = run_check(CHECKS[name], impl)
    assert result.status in (PASSED, "unexpectedly passed"), (
        f"{name} ({result.cites}) failed after {result.examples} examples:\n  "
        + "\n  ".join(result.violations[:3]) + f"\nreproduce: {result.counterexample}"
    )
