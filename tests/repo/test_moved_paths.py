"""The short module paths that documents or saved files name (properties.MOVED) work: each
imports as the module that holds its code, a failure file naming a short path replays,
and a reproducer runs."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

import properties
from properties import strategies as S
from properties.reports.saved import decode_example, encode_example


@pytest.mark.parametrize("old", sorted(properties.MOVED))
def test_an_old_path_imports_as_the_module_that_holds_it_now(old):
    assert importlib.import_module(old) is importlib.import_module(properties.MOVED[old])


def test_the_documented_names_are_there():
    from properties.command import CommandCandidate
    from properties.crosscheck import crosscheck
    from properties.impl import call, run_algorithm
    from properties.registry import Check

    assert CommandCandidate.__module__ == "properties.judge.command"
    assert {call.__module__, run_algorithm.__module__} == {"properties.core.candidate"}
    assert Check.__module__ == "properties.checks.registry" and crosscheck.__module__ == "properties.checks.crosscheck"


def test_a_case_saved_before_the_move_decodes():
    case = S.fixed_crosscheck_cases(1)[0]
    saved = {**encode_example(case), "type": "properties.case:Case"}  # as a pre-issue-32 file has it
    assert decode_example(saved, "old file") == case


def test_a_reproducer_runs_in_a_fresh_interpreter():
    case = S.fixed_crosscheck_cases(1)[0]
    script = f"import json, properties.case; print(json.dumps({case.reproducer()}.to_json()))"
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout) == case.to_json()


def test_an_unknown_old_path_is_still_an_import_error():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("properties.checks_calruption")
