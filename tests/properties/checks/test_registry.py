"""The registry's claims about what each check exercises: every mode is a target.

Every mode of properties.core.contract.MODES -- each public name, and RobustCAL's modified and
vanilla forms -- is covered by at least one check; and what a check declares it covers
is what it calls: a recording candidate (the reference, in-process) logs every call a
check makes on a few examples."""

from __future__ import annotations

import pytest
from hypothesis import Phase, settings

import reference
from properties.checks.registry import all_checks
from properties.core.candidate import InProcessCandidate
from properties.core.contract import MODES, PUBLIC_NAMES, REQUIRED, function_of
from properties.run.runner import run_check

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


class _Recording(InProcessCandidate):
    def __init__(self):
        super().__init__(reference, "reference")
        self.modes = set()

    def invoke(self, name, args, kwargs, timeout):
        self.modes.add("robust_cal_vanilla" if name == "robust_cal" and kwargs.get("vanilla") else name)
        return super().invoke(name, args, kwargs, timeout)


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_a_check_calls_what_it_declares(name):
    check = CHECKS[name]
    recording = _Recording()
    profile = settings(
        settings.default, max_examples=4, derandomize=True, database=None, phases=(Phase.explicit, Phase.generate)
    )
    settings.register_profile("registry-meta", profile)
    run_check(check, recording, profile="registry-meta")
    assert recording.modes <= set(check.covers), f"{name} calls {sorted(recording.modes - set(check.covers))}"
    assert recording.modes == set(check.covers), f"{name} never called {sorted(set(check.covers) - recording.modes)}"
