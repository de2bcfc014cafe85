"""Teeth under the fixed seed: the default `check` catches every broken copy in teeth/broken.

The default test run holds this per copy, cheaply: tests/teeth/test_broken_caught.py (copies of the
reference) and tests/teeth/test_float_broken_caught.py (copies of fast) run, for each copy, the check
its `caught_by` records in the configuration of a default `check` run (the profile's
examples, the fixed seed, the known and targeted examples), so a copy that a default run
would miss fails there. Here:

* the targeted examples (properties/strategies/targeted.py) reach their bug class: the
  reference passes each check on them and the broken copy of that class fails;
* slow: the whole default command, `python -m properties check --impl <copy>`, on every
  copy of the reference and of fast, exits 1 with the recorded check failed.

teeth/broken/scale_mutants.py holds bugs that show only at sizes `check` does not draw;
the judge at scale (`crosscheck --counts`, tests/properties/scale/test_scale_judge.py) is theirs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import reference
from properties import strategies as S
from properties.checks.registry import TARGETED_EXAMPLES, all_checks
from properties.judge.load import load_impl
from properties.run.runner import violations_of
from teeth.broken import fast_mutants, mutants
from teeth.reference_copies import importable
from tests.support import REPO_ROOT

ROOT = REPO_ROOT
# each targeted example and the broken copies (family, name) of the classes it reaches
CLASS_OF = {
    S.robust_cal_argmin_outside_version_space_case: (("reference", "robust_cal_h_hat_over_all_hypotheses"),),
    S.calruption_second_epoch_case: (
        ("reference", "calruption_stale_q_at_epoch_start"),
        ("fast", "argmin_without_penalty"),
    ),
}
TARGETED = [(name, build) for name, builders in TARGETED_EXAMPLES.items() for build in builders]


@pytest.fixture(scope="module")
def broken_dirs(tmp_path_factory):
    with (
        importable(tmp_path_factory.mktemp("broken"), mutants.PREFIX) as ours,
        importable(tmp_path_factory.mktemp("broken_fast"), fast_mutants.PREFIX) as fasts,
    ):
        yield {"reference": ours, "fast": fasts}


def _copy(family: str, name: str, dirs) -> str:
    if family == "reference":
        return mutants.build(mutants.BY_NAME[name], dirs[family])
    return fast_mutants.build(next(m for m in fast_mutants.MUTANTS if m.name == name), dirs[family])


def test_every_targeted_example_names_its_bug_classes():
    assert {build for _, build in TARGETED} == set(CLASS_OF)
    fast_names = {m.name for m in fast_mutants.MUTANTS}
    for classes in CLASS_OF.values():
        for family, name in classes:
            assert name in (mutants.BY_NAME if family == "reference" else fast_names), (family, name)


@pytest.mark.parametrize("name, build", TARGETED, ids=[f"{n}-{b.__name__}" for n, b in TARGETED])
def test_a_targeted_example_passes_the_reference_and_catches_a_bug_class(name, build, broken_dirs):
    """The check passes the reference on the example, and at least one copy of the classes
    the example reaches fails it (each copy fails the check its caught_by records)."""
    check = all_checks()[name]
    example = build()
    assert violations_of(check, reference, example) == []
    caught = []
    for family, copy in CLASS_OF[build]:
        with load_impl(_copy(family, copy, broken_dirs), isolate=False) as broken:
            if violations_of(check, broken, example):
                caught.append(copy)
    assert caught, f"{name} sees none of {CLASS_OF[build]} on {build.__name__}()"


def _default_check(impl: str, path: Path, cwd: Path) -> tuple[int, dict]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "HYPOTHESIS_PROFILE")}
    env["PYTHONPATH"] = os.pathsep.join([str(path), str(ROOT)])
    result = subprocess.run(
        [sys.executable, "-m", "properties", "check", "--impl", impl, "--json", "--timeout", "20"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    return result.returncode, json.loads(result.stdout)


@pytest.mark.slow
@pytest.mark.parametrize(
    "family, mutant",
    [("reference", m) for m in mutants.MUTANTS if not m.xfail] + [("fast", m) for m in fast_mutants.MUTANTS],
    ids=[f"reference-{m.name}" for m in mutants.MUTANTS if not m.xfail]
    + [f"fast-{m.name}" for m in fast_mutants.MUTANTS],
)
def test_the_default_check_command_catches_every_broken_copy(family, mutant, tmp_path):
    module = mutants if family == "reference" else fast_mutants
    copies = tmp_path / "copies"
    copies.mkdir()
    with importable(copies, module.PREFIX) as directory:
        name = module.build(mutant, directory)
        code, report = _default_check(name, directory, tmp_path)
    statuses = {c["name"]: c["status"] for c in report["checks"]}
    caught_by = (mutant.caught_by,) if isinstance(mutant.caught_by, str) else mutant.caught_by
    assert code == 1 and report["seed"] == 0
    assert [c for c in caught_by if statuses[c] != "failed"] == [], (mutant.name, statuses)
