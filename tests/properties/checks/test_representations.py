"""Representations are not verdicts (properties/core/representations.py), and the float hint
fires on float evidence only.

An exact candidate that returns ints (and numpy integers) for integral rationals
(teeth/legit/int_rationals.py), one whose results carry fields the contract does not name
(teeth/legit/extra_fields.py), and a float64 one that returns Python floats
(teeth/legit/floats_of_fast.py) are read for their values, by the same rule on the import
route and on the command route (`python -m properties answer --impl M`); a misspelt
required field, a bool where a number belongs and an exact candidate's float still fail,
naming the field."""

from __future__ import annotations

import json
import math
import shlex
import subprocess
import sys
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

import fast
import reference
from properties.checks.crosscheck import crosscheck
from properties.checks.registry import all_checks
from properties.core import representations
from properties.core.candidate import CallFailed, as_candidate, call, run_algorithm
from properties.judge.load import load_candidate, load_impl
from properties.reports.declared_arithmetic import arithmetic_lines, crosscheck_arithmetic_lines
from properties.reports.float_evidence import float_like, is_float64
from properties.reports.report import validate
from properties.run.runner import FAILED, run_check
from properties.strategies import fixed_crosscheck_cases
from reference.certified import Enclosure
from reference.serialization import to_jsonable
from reference.trace import trace_to_json

ANSWER = f"{shlex.quote(sys.executable)} -m properties answer --impl"
CASES = fixed_crosscheck_cases(3)
MODES = ("passive", "robust_cal", "robust_cal_vanilla", "calruption")
CHECKS = all_checks()
# one check per mode the representation variants change (few examples: each command call
# starts a Python process); teeth/legit/*'s full runs are tests/teeth/test_legit_float_pass.py's
ROUTE_CHECKS = (
    "check_passive_output_is_erm",
    "check_robust_cal_elimination_recomputed",
    "check_robust_cal_vanilla_empirical_risks_and_output",
    "check_calruption_one_epoch_query_probabilities",
    "check_catoni_root_certified",
)
TRACE_PATHS = {"trace.x_note", "trace.checkpoints[].x_note", "trace.epochs[].x_note"}


def _reference_traces():
    return [(case, mode, run_algorithm("ref", reference, mode, case)) for case in CASES for mode in MODES]


@pytest.fixture(scope="module")
def reference_traces():
    return _reference_traces()


def _routes(module: str):
    return {"import": load_impl(module), "command": load_candidate(cmd=f"{ANSWER} {module}")}


# -- exact candidates: ints and unknown fields ------------------------------------------------
def _ints_for_rationals(ours, theirs) -> int:
    """How many places hold an int in `ours` where the reference's plain data `theirs` holds "p/q"."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        return sum(_ints_for_rationals(ours[k], theirs[k]) for k in theirs if k in ours)
    if isinstance(ours, list) and isinstance(theirs, list):
        return sum(_ints_for_rationals(a, b) for a, b in zip(ours, theirs))
    return int(type(ours) is int and isinstance(theirs, str) and "/" in theirs)


def test_the_int_candidate_really_returns_ints():
    """The variant has teeth: its plain results hold ints where the reference's hold "p/q"."""
    found = 0
    with load_impl("teeth.legit.int_rationals") as candidate:
        for case in CASES:
            arguments = (case.instance.hypotheses, case.tape, case.params)
            for name in ("passive", "robust_cal", "calruption"):
                theirs = trace_to_json(getattr(reference, name)(*arguments))
                found += _ints_for_rationals(candidate.invoke(name, arguments, {}, 60), theirs)
    assert found > 0


@pytest.mark.parametrize("module", ["teeth.legit.int_rationals", "teeth.legit.extra_fields"])
def test_an_exact_representation_gives_the_references_traces_on_both_routes(module, reference_traces):
    routes = _routes(module)
    try:
        for route, candidate in routes.items():
            for case, mode, expected in reference_traces:
                assert run_algorithm("t", candidate, mode, case) == expected, (route, mode)
            statuses = {name: run_check(CHECKS[name], candidate, max_examples=2).status for name in ROUTE_CHECKS}
            assert FAILED not in statuses.values(), (route, statuses)
        if module.endswith("extra_fields"):
            for route, candidate in routes.items():
                assert set(candidate.ignored_fields) == TRACE_PATHS | {"record.x_note", "catoni_root.x_note"}, route
        else:
            assert all(c.ignored_fields is None for c in routes.values())
    finally:
        for candidate in routes.values():
            candidate.close()


def test_the_check_report_names_the_ignored_fields(tmp_path):
    report_file = tmp_path / "report.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "properties",
            "check",
            "--impl",
            "teeth.legit.extra_fields",
            "--only",
            "check_passive_output_is_erm",
            "--json-file",
            str(report_file),
            "--results-dir",
            str(tmp_path / "results"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("ignored unknown fields: "))
    assert "trace.x_note (" in line and " calls)" in line, line
    report = validate(json.loads(report_file.read_text()))
    assert set(report["ignored_fields"]) == {"trace.x_note"} and report["ignored_fields"]["trace.x_note"] >= 1


def test_the_crosscheck_report_names_the_ignored_fields(tmp_path):
    report_file = tmp_path / "report.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "properties",
            "crosscheck",
            "--candidate",
            "teeth.legit.extra_fields",
            "--cases",
            "2",
            "--algorithms",
            "robust_cal",
            "--json-file",
            str(report_file),
            "--results-dir",
            str(tmp_path / "results"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ignored unknown fields: trace.checkpoints[].x_note (2 calls), trace.x_note (2 calls)" in done.stdout
    report = json.loads(report_file.read_text())
    assert report["ignored_fields"] == {"trace.checkpoints[].x_note": 2, "trace.x_note": 2}
    assert not report["mismatches"]


# -- float candidates ---------------------------------------------------------------------------
def test_a_float64_module_returning_python_floats_gets_the_values_of_fast_on_both_routes():
    """The floats are read as their exact values: the traces equal fast's own (whose
    Fractions are those doubles); the command route reads the same JSON numbers alike."""
    case = CASES[0]
    with load_impl("fast", isolate=True) as own:
        expected = {mode: run_algorithm("t", own, mode, case) for mode in MODES}
        root = call("t", own, "catoni_root", [Fraction(-1), Fraction(1, 3), Fraction(1)], [1, 2, 1], Fraction(1, 2))
    routes = _routes("teeth.legit.floats_of_fast")
    try:
        raw = routes["import"].invoke("robust_cal", (case.instance.hypotheses, case.tape, case.params), {}, 60)
        assert isinstance(raw["checkpoints"][0]["beta"]["lo"], float), raw["checkpoints"][0]  # teeth: real floats
        for route, candidate in routes.items():
            assert {mode: run_algorithm("t", candidate, mode, case) for mode in MODES} == expected, route
            assert (
                call(
                    "t",
                    candidate,
                    "catoni_root",
                    [Fraction(-1), Fraction(1, 3), Fraction(1)],
                    [1, 2, 1],
                    Fraction(1, 2),
                )
                == root
            ), route
    finally:
        for candidate in routes.values():
            candidate.close()


@pytest.mark.parametrize("arithmetic", ["float64", "float32"])
def test_floats_are_accepted_from_a_declared_float_arithmetic_only(arithmetic):
    case = CASES[0]

    def floaty(hypotheses, tape, params):
        plain = trace_to_json(reference.passive(hypotheses, tape, params))
        # Python floats and numpy floating scalars alike (properties/core/plain.py writes the latter as the former)
        floats = [float(Fraction(v)) for v in plain["empirical_risk"]]
        return {**plain, "empirical_risk": [np.float64(v) if i % 2 else v for i, v in enumerate(floats)]}

    declared = as_candidate(SimpleNamespace(passive=floaty, ARITHMETIC=arithmetic), "floaty")
    trace = run_algorithm("t", declared, "passive", case)
    expected = reference.passive(case.instance.hypotheses, case.tape, case.params).empirical_risk
    assert trace.empirical_risk == tuple(Fraction(float(v)) for v in expected)
    undeclared = as_candidate(SimpleNamespace(passive=floaty), "floaty")
    with pytest.raises(CallFailed, match=r"trace\.empirical_risk\[0\] must be an exact rational .*got the float"):
        run_algorithm("t", undeclared, "passive", case)


def test_nan_from_a_float64_module_is_malformed():
    case = CASES[0]

    def nan_risk(hypotheses, tape, params):
        plain = trace_to_json(reference.passive(hypotheses, tape, params))
        return {**plain, "empirical_risk": [math.nan] + plain["empirical_risk"][1:]}

    candidate = as_candidate(SimpleNamespace(passive=nan_risk, ARITHMETIC="float64"), "nan")
    with pytest.raises(CallFailed, match=r"empirical_risk\[0\] is nan, not a finite number"):
        run_algorithm("t", candidate, "passive", case)


# -- what still fails ---------------------------------------------------------------------------
def _renamed(plain: dict) -> dict:
    return {("empirical_risks" if k == "empirical_risk" else k): v for k, v in plain.items()}


MISSPELT = (
    "import reference\n"
    "from reference import catoni_root, robust_cal, calruption  # noqa: F401\n"
    "from reference.trace import trace_to_json\n"
    "def passive(hypotheses, tape, params):\n"
    "    plain = trace_to_json(reference.passive(hypotheses, tape, params))\n"
    "    return {('empirical_risks' if k == 'empirical_risk' else k): v for k, v in plain.items()}\n"
)


def test_a_misspelt_required_field_fails_naming_it_on_both_routes(tmp_path):
    case = CASES[0]
    (tmp_path / "misspelt.py").write_text(MISSPELT)
    importable = as_candidate(SimpleNamespace(passive=lambda *a: _renamed(trace_to_json(reference.passive(*a)))), "m")
    command = load_candidate(cmd=f"PYTHONPATH={shlex.quote(str(tmp_path))} {ANSWER} misspelt")
    try:
        for candidate in (importable, command):
            with pytest.raises(CallFailed) as failed:
                run_algorithm("t", candidate, "passive", case)
            message = failed.value.violation.message
            assert "missing field 'empirical_risk'" in message and "'empirical_risks'" in message, message
            assert candidate.ignored_fields is None  # a misspelling is not an ignored extra
    finally:
        command.close()


def test_a_missing_field_without_a_look_alike_still_fails():
    case = CASES[0]

    def short(hypotheses, tape, params):
        plain = trace_to_json(reference.passive(hypotheses, tape, params))
        return {**{k: v for k, v in plain.items() if k != "labels_requested"}, "x_note": 1}

    with pytest.raises(CallFailed, match="missing field 'labels_requested'"):
        run_algorithm("t", as_candidate(SimpleNamespace(passive=short), "short"), "passive", case)


def test_a_bool_is_not_a_number():
    case = CASES[0]

    def boolean(hypotheses, tape, params):
        trace = reference.passive(hypotheses, tape, params)
        return {**trace_to_json(trace), "empirical_risk": [True] * len(trace.empirical_risk)}

    with pytest.raises(CallFailed, match=r"empirical_risk\[0\] must be a rational, got the bool True"):
        run_algorithm("t", as_candidate(SimpleNamespace(passive=boolean, ARITHMETIC="float64"), "b"), "passive", case)


def test_the_rule_reads_params_constants_and_epoch_pairs():
    """The union of Params' constants and calruption_epoch's pair are read by the same rule."""
    params = to_jsonable(CASES[0].params)
    params["beta1"] = {**params["beta1"], "x_note": 1}
    record_state = [{"x": 1}, {"y": 2}]
    ignored: set = set()
    read = representations.read(type(CASES[0].params), params, "params", ignored, floats=False)
    assert "x_note" not in read["beta1"] and ignored == {"params.beta1.x_note"}
    plain, ignored = representations.accept("calruption_epoch", record_state, "exact")
    assert ignored == {"record.x", "state.y"} and plain == [{}, {}]


# -- item 7: the float hint ------------------------------------------------------------------
def _wrong_threshold(hypotheses, tape, params, vanilla=False):
    """An exact candidate whose line-10 threshold is half the reference's: certified
    enclosures with power-of-two denominators (2^81), but not float values."""
    trace = reference.robust_cal(hypotheses, tape, params, vanilla=vanilla)
    plain = trace_to_json(trace)
    for checkpoint in plain["checkpoints"]:
        checkpoint["threshold"] = [
            None if e is None else to_jsonable(Enclosure(Fraction(e["lo"]) / 2, Fraction(e["hi"]) / 2))
            for e in checkpoint["threshold"]
        ]
    return plain


def test_an_exact_candidate_with_a_wrong_threshold_gets_no_float_hint():
    names = dict(
        passive=reference.passive,
        robust_cal=_wrong_threshold,
        calruption=reference.calruption,
        catoni_root=reference.catoni_root,
    )
    candidate = as_candidate(SimpleNamespace(**names), "wrong_threshold")
    result = run_check(CHECKS["check_robust_cal_elimination_recomputed"], candidate, max_examples=10)
    assert result.status == FAILED, result
    text = " ".join(result.violations)
    assert "/" in text and any(
        int(d) & (int(d) - 1) == 0 and int(d) >= 1 << 40 for d in __import__("re").findall(r"/(\d{13,})", text)
    )  # a power-of-two denominator alone, which is no float evidence
    lines = arithmetic_lines(candidate, [result])
    assert not any("hint" in line for line in lines), lines
    summary = crosscheck(candidate, "wrong_threshold", CASES, ("robust_cal",))
    assert summary.mismatches and crosscheck_arithmetic_lines(summary) == []


def test_an_undeclared_float_candidate_still_gets_the_hint():
    names = dict(
        passive=fast.passive, robust_cal=fast.robust_cal, calruption=fast.calruption, catoni_root=fast.catoni_root
    )  # no ARITHMETIC: held to exact comparison
    candidate = as_candidate(SimpleNamespace(**names), "floaty")
    result = run_check(CHECKS["check_robust_cal_elimination_recomputed"], candidate, max_examples=10)
    assert result.status == FAILED, result
    assert any('declare it: ARITHMETIC = "float64"' in line for line in arithmetic_lines(candidate, [result]))
    summary = crosscheck(candidate, "floaty", CASES, ("robust_cal",))
    assert any("show float values" in line for line in crosscheck_arithmetic_lines(summary))


def test_float_like_means_a_double_within_rounding_of_a_value_that_is_not_one():
    third = Fraction(1, 3)
    assert is_float64(Fraction(float(third))) and not is_float64(third)
    assert float_like(Fraction(float(third)), third)
    assert not float_like(Fraction(3, 8), third)  # a wrong exact value: too far
    assert not float_like(Fraction(1, 2), Fraction(1, 2))  # equal
    assert not float_like(Fraction(2**60 + 1, 2**62), Fraction(1, 4))  # 61 significant bits: no double


def test_an_exact_candidate_returning_floats_gets_the_hint():
    def floaty_root(values, counts, alpha):
        enclosure = reference.catoni_root(values, counts, alpha)
        return float(enclosure.lo), float(enclosure.hi)

    candidate = as_candidate(SimpleNamespace(catoni_root=floaty_root), "floaty_root")
    result = run_check(CHECKS["check_catoni_root_certified"], candidate, max_examples=3)
    assert result.status == FAILED and "got the float" in result.violations[0], result
    assert any('declare it: ARITHMETIC = "float64"' in line for line in arithmetic_lines(candidate, [result]))
