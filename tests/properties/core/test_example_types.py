"""The example types' stable type tags (properties/core/example_types.py): every example
type with a JSON form has one tag of the vocabulary, a saved example names its tag and no
Python path, and it rebuilds to the same example; the reproducer runs in a fresh
interpreter."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys

import pytest

from properties import strategies as S
from properties.core.case import Case
from properties.core.example_types import EXAMPLE_TYPES, tagged
from properties.reports.saved import decode_example, encode_example
from reference.report_vocabulary import CASE_TAG, EXAMPLE_TAGS, PICKLE_TAG


def test_every_example_type_with_a_json_form_has_a_tag_of_the_vocabulary():
    with_json = {
        kind
        for _, kind in inspect.getmembers(S, inspect.isclass)
        if hasattr(kind, "to_json") and hasattr(kind, "from_json") and kind.__module__.startswith("properties.")
    } | {Case}
    assert set(EXAMPLE_TYPES.values()) == with_json
    assert sorted(EXAMPLE_TYPES) == sorted(EXAMPLE_TAGS) and EXAMPLE_TYPES[CASE_TAG] is Case


def test_a_tag_outside_the_vocabulary_is_refused():
    with pytest.raises(ValueError, match="'cral-thing/v1' is not one of"):
        tagged("cral-thing/v1")


def test_a_case_is_saved_under_its_tag_and_rebuilds():
    case = S.fixed_crosscheck_cases(1)[0]
    saved = json.loads(json.dumps(encode_example(case)))
    assert saved["type"] == "cral-case/v1" and ":" not in json.dumps(saved["type"])
    assert decode_example(saved, "saved") == case


def test_an_example_without_a_json_form_is_a_pickle():
    saved = encode_example({"a": 1})
    assert saved["type"] == PICKLE_TAG and decode_example(saved, "saved") == {"a": 1}
    with pytest.raises(ValueError, match='saved: field "case.type" is "pickle", expected "cral-case/v1"'):
        decode_example(saved, "saved", (CASE_TAG,))


@pytest.mark.parametrize(
    "doc, message",
    [
        ({"type": "properties.core.case:Case", "data": {}}, 'field "case.type" is "properties.core.case:Case"'),
        ({"data": {}}, 'field "case.type" missing, expected one of "cral-case/v1", '),
        ({"type": "cral-case/v1"}, 'field "case" must be an object with "type" and "data"'),
        ({"type": "cral-case/v1", "data": {"seed": 1}}, "case.data does not rebuild a cral-case/v1"),
    ],
)
def test_a_missing_or_unknown_tag_is_a_value_error_naming_the_field(doc, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        decode_example(doc, "f.json")


def test_a_reproducer_runs_in_a_fresh_interpreter():
    case = S.fixed_crosscheck_cases(1)[0]
    script = f"import json, properties.core.case; print(json.dumps({case.reproducer()}.to_json()))"
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout) == case.to_json()


def test_the_calling_reproducer_runs_in_a_fresh_interpreter():
    from properties.checks.registry import all_checks
    from properties.reports.reproducer import calling_reproducer

    case = S.fixed_crosscheck_cases(1)[0]
    line = calling_reproducer(all_checks()["check_passive_output_is_erm"], "reference", case, case.reproducer())
    shown = subprocess.run([sys.executable, "-c", line], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("PassiveTrace("), shown.stdout[:200]
