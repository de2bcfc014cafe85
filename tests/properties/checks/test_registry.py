"""The registry's claims about what each check exercises: every mode is a target.

Every mode of properties.core.contract.MODES -- each public name, and RobustCAL's modified and
vanilla forms -- is covered by at least one check; and what a check declares it covers
is what it calls: a recording candidate (the reference, in-process) logs every call a
check makes on a few examples (slow; the default run checks the same claim on the loaded
profile's examples in tests/properties/checks/test_every_check.py)."""

from __future__ import annotations

import pytest
from hypothesis import Phase, settings

from properties.checks.registry import all_checks
from properties.core.contract import MODES, PUBLIC_NAMES, REQUIRED, function_of
from properties.run.runner import run_check
from tests.support.recording import Recording

CHECKS = all_checks()


def test_every_mode_and_public_name_has_a_check():
    covered = {mode for check in CHECKS.values() for mode in check.covers}
    assert set(MODES) - covered == set()
    assert {function_of(mode) for mode in covered} >= set(PUBLIC_NAMES) >= set(REQUIRED)


def test_each_rule_of_robust_cal_has_every_trace_check_of_the_other():
    """The vanilla rule gets every deterministic RobustCAL trace check (FINDINGS R6)."""

    def names(mode):
        return {
            n.replace("check_robust_cal_vanilla_", "check_robust_cal_")
            for n, c in CHECKS.items()
            if c.covers == (mode,) and c.kind == "deterministic"
        }

    assert names("robust_cal") == names("robust_cal_vanilla") and names("robust_cal")


# slow: the default run holds the same claim in tests/properties/checks/test_every_check.py,
# where every check runs on a recording reference with the loaded profile's examples
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CHECKS))
def test_a_check_calls_what_it_declares(name):
    check = CHECKS[name]
    recording = Recording()
    profile = settings(
        settings.default, max_examples=4, derandomize=True, database=None, phases=(Phase.explicit, Phase.generate)
    )
    settings.register_profile("registry-meta", profile)
    run_check(check, recording, profile="registry-meta")
    assert recording.modes <= set(check.covers), f"{name} calls {sorted(recording.modes - set(check.covers))}"
    assert recording.modes == set(check.covers), f"{name} never called {sorted(set(check.covers) - recording.modes)}"
