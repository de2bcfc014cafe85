"""The judge never crashes on what a candidate returns: every field of every mode's result,
replaced by a malformed or unexpected value (None, a string, NaN, a list of the wrong
length, an object missing its fields, a huge integer, a negative index), is the
candidate's failure, named as such -- never the judge's own TypeError or KeyError.

Each row runs the reference on a small fixed example, breaks one field of its result and
hands that to the checks of the mode, through the route of a Python module (plain data,
properties/core/plain.py) and of a program (a JSON result document,
properties/judge/command.py). A check may accept a value (a None where the contract allows
one); what it may never do is report "crashed: ... (in the check ...)", the runner's word
for the judge's own exception (properties/run/runner.py)."""

from __future__ import annotations

import copy
import importlib
import json
from types import SimpleNamespace

import pytest
from hypothesis import Phase, find, settings

import reference
from properties.checks.registry import all_checks
from properties.core.plain import encode_result
from properties.judge.answer import answer
from properties.judge.command import CommandCandidate
from properties.run.runner import violations_of
from properties.strategies.cases import Case
from tests.support.broken_copies import broken_copy

MODES = (
    "passive",
    "robust_cal",
    "calruption",
    "calruption_epoch",
    "catoni_root",
    "loss_difference_samples",
    "sample_tape",
)
BAD_VALUES = {
    "None": None,
    "a string": "garbage",
    "NaN": float("nan"),
    "an empty list": [],
    "a list of three": [1, 2, 3],
    "an object missing its fields": {},
    "a huge integer": 10**400,
    "a negative index": -1,
}
JUDGE_CRASH = "(in the check, recomputing"


# one check per mode: the one that reads the most fields of its result
CHECK_OF = {
    "passive": "check_passive_empirical_risks_recomputed",
    "robust_cal": "check_robust_cal_elimination_recomputed",
    "calruption": "check_calruption_recomputed_from_trace",
    "calruption_epoch": "check_calruption_one_epoch_recomputed",
    "catoni_root": "check_catoni_root_certified",
    "loss_difference_samples": "check_calruption_importance_weights_unbiased",
    "sample_tape": "check_sample_tape_prefix",
}
# bad values per field, taken in turn, so every value meets fields of every kind; a program's
# documents take the module's route after their schema, so one value per field shows its own part
PER_FIELD = 2
PER_FIELD_OF_A_PROGRAM = 1


def _reference_function(name):
    if name == "calruption_epoch":
        return importlib.import_module("reference.calruption").calruption_epoch
    return getattr(reference, name)


def _paths(plain, prefix=()):
    """Every field of a result: each object key and each list's first entry (its last
    too for the outermost list of a trace: the checkpoints and epochs)."""
    yield prefix
    if isinstance(plain, dict):
        for key, value in plain.items():
            if key not in ("format", "version"):
                yield from _paths(value, (*prefix, key))
    elif isinstance(plain, list) and plain:
        for index in sorted({0, len(plain) - 1} if len(prefix) <= 1 else {0}):
            yield from _paths(plain[index], (*prefix, index))


def _replaced(plain, path, value):
    if not path:
        return copy.deepcopy(value)
    plain = copy.deepcopy(plain)
    where = plain
    for step in path[:-1]:
        if isinstance(where, dict) and step in where or isinstance(where, list) and -len(where) <= step < len(where):
            where = where[step]
        else:
            return plain
    if isinstance(where, dict) and path[-1] in where or isinstance(where, list) and path[-1] < len(where):
        where[path[-1]] = copy.deepcopy(value)
    return plain


def _rich(example) -> bool:
    """An example with something to break: two hypotheses or more, two values or more."""
    instance = getattr(example, "instance", None)
    hypotheses = getattr(example, "hypotheses", None) or (instance.hypotheses if instance else ())
    return len(hypotheses) >= 2 or len(getattr(example, "values", ())) >= 2


def _example(check):
    """The first example the check's strategy draws under a fixed seed that has something to
    break (not shrunk: cheap)."""
    return find(
        check.strategy,
        _rich,
        settings=settings(database=None, derandomize=True, max_examples=200, phases=[Phase.generate]),
    )


def _mutations(plain, per_field=PER_FIELD):
    """(path, name of the bad value, value): every field, `per_field` bad values each in turn."""
    names = list(BAD_VALUES)
    for i, path in enumerate(dict.fromkeys(_paths(plain))):
        for j in range(per_field):
            name = names[(i * per_field + j) % len(names)]
            yield path, name, BAD_VALUES[name]


def _judge_crashes(check, example, candidate_of, mutations) -> list[str]:
    crashes = []
    for path, what, value in mutations:
        found = violations_of(check, candidate_of(path, value), example)
        shown = ".".join(map(str, path)) or "(the result)"
        crashes += [f"{shown} = {what}: {v}" for v in found if JUDGE_CRASH in v.message]
    return crashes


_RESULTS: dict = {}  # the reference's results, computed once per example (and its inputs kept alive)
_DOCUMENTS: dict = {}


def _python_candidate(mode, path, value):
    """A module whose `mode` returns the reference's result with one field replaced."""
    function = _reference_function(mode)

    def broken(*args, **kwargs):
        key = (mode, tuple(map(id, args)), tuple(sorted(kwargs.items())))  # the example's inputs live on
        if key not in _RESULTS:
            _RESULTS[key] = (args, encode_result(mode, function(*args, **kwargs)))
        return _replaced(_RESULTS[key][1], path, value)

    names = {name: getattr(reference, name) for name in ("passive", "robust_cal", "calruption", "catoni_root")}
    names.update(calruption_epoch=_reference_function("calruption_epoch"), sample_tape=reference.sample_tape)
    names["loss_difference_samples"] = reference.loss_difference_samples
    names[mode] = broken
    return SimpleNamespace(**names)


class _Program(CommandCandidate):
    """A program answering through the run protocol (docs/protocol.md): the reference's
    result document with one field replaced. Its process is this one (the request and
    the result document take the same route as a program's; only the spawning is left
    out, which tests/properties/judge/test_command.py tests)."""

    def __init__(self, mode, path, value):
        self.broken = (mode, path, value)
        super().__init__("in-process-program")

    def _execute(self, command, payload, directory, timeout, where, extra_env):
        request = json.loads(payload)
        key = json.dumps({k: v for k, v in request.items() if k != "output"}, sort_keys=True)
        if key not in _DOCUMENTS:
            _DOCUMENTS[key] = answer(reference, "reference", request)
        document = _DOCUMENTS[key]
        mode, path, value = self.broken
        if request["algorithm"] == "describe":
            document = {**document, "serve": False}
        elif request["algorithm"] in (mode, "robust_cal_vanilla" if mode == "robust_cal" else mode):
            document = _replaced(document, path, value)
        return 0, json.dumps(document).encode(), ""


def _reference_plain(check, example, mode):
    """The reference's result of the mode's first call in the check, as plain data."""
    function, results = _reference_function(mode), []

    def recording(*args, **kwargs):
        value = function(*args, **kwargs)
        results.append(encode_result(mode, value))
        return value

    candidate = _python_candidate(mode, (), None)
    setattr(candidate, mode, recording)
    violations_of(check, candidate, example)
    assert results, f"{check.name} does not call {mode}"
    return results[0]


@pytest.mark.parametrize("mode", MODES)
def test_every_field_of_a_python_modules_result(mode):
    check = all_checks()[CHECK_OF[mode]]
    example = _example(check)
    mutations = list(_mutations(_reference_plain(check, example, mode)))
    crashes = _judge_crashes(check, example, lambda path, value: _python_candidate(mode, path, value), mutations)
    assert not crashes, f"{len(crashes)} judge crashes in {len(mutations)} results, e.g.\n" + "\n".join(crashes[:10])


@pytest.mark.parametrize("mode", MODES)
def test_every_field_of_a_programs_result_document(mode):
    check = all_checks()[CHECK_OF[mode]]
    example = _example(check)
    mutations = list(_mutations(_reference_plain(check, example, mode), PER_FIELD_OF_A_PROGRAM))
    program = _Program(mode, (), None)

    def broken(path, value):  # one program, its answer broken anew for each row
        program.broken = (mode, path, value)
        return program

    try:
        crashes = _judge_crashes(check, example, broken, mutations)
    finally:
        program.close()
    assert not crashes, f"{len(crashes)} judge crashes in {len(mutations)} results, e.g.\n" + "\n".join(crashes[:10])


# the case on which a RobustCAL whose h^_t is the argmin over all of H (teeth/broken/mutants.py,
# robust_cal_h_hat_over_all_hypotheses) picks a hypothesis eliminated before: h^_t lies outside V_t
ARGMIN_CASE = (
    '{"instance": {"nu": ["0/1", "1/2", "1/2", "0/1", "0/1"], "eta": ["0/1", "0/1", "0/1", "0/1", "0/1"], '
    '"hypotheses": [[0, 0, 0, 0, 0], [1, 1, 0, 0, 0], [0, 0, 1, 0, 0]]}, "adversary": {"n": 64, "segments": '
    '[{"start": 1, "end": 16, "gamma": "1/1", "target": ["1/1", "1/1", "1/1", "1/1", "1/1"]}, {"start": 17, '
    '"end": 64, "gamma": "0/1", "target": null}]}, "seed": 0, "params": {"regime": "scaled", "n": 64, '
    '"num_hypotheses": 3, "delta": "1/20", "beta_scale": "1/16", "beta1": {"value": "1/1"}, "beta2": "5/32", '
    '"beta3": {"coefficient": "2/1", "argument": "1620/1"}}}'
)


def test_a_robust_cal_whose_h_hat_is_outside_v_t_is_named_not_crashed_on(tmp_path):
    check = all_checks()["check_robust_cal_elimination_recomputed"]
    case = Case.from_json(json.loads(ARGMIN_CASE))
    with broken_copy("robust_cal_h_hat_over_all_hypotheses", tmp_path) as module:
        found = violations_of(check, module, case)
    assert found and not any(JUDGE_CRASH in v.message for v in found), found
    # the wrong value named (its risk left null, as outside V_t, is a consequence of it)
    assert "h^_t lies outside V_t" in found[0].message and "Algorithm 1, line 8" in found[0].message, found
    assert {"t", "h_hat", "version_space"} <= set(found[0].values), found


def test_the_judges_own_exception_is_still_that_checks_failure():
    """The last line of defence (properties/run/runner.py): a check whose own code raises
    reports it as its failing result, marked as a fault, and the run goes on."""
    import dataclasses

    def raising(impl, example):
        raise TypeError("a check's bug")

    check = dataclasses.replace(all_checks()["check_catoni_root_certified"], execute=raising)
    (found,) = violations_of(check, reference, None)
    assert found.fault and found.message.startswith("crashed: TypeError: a check's bug " + JUDGE_CRASH)


def _deterministic_checks():
    for mode in MODES:
        for check in all_checks().values():
            if check.kind == "deterministic" and mode in check.covers and check.name != CHECK_OF[mode]:
                yield pytest.param(mode, check.name, id=f"{mode}-{check.name}")


@pytest.mark.parametrize("mode, check_name", list(_deterministic_checks()))
def test_every_field_of_a_python_modules_result_in_every_deterministic_check(mode, check_name):
    """The default test's matrix through each of the mode's other deterministic checks."""
    check = all_checks()[check_name]
    example = _example(check)
    try:
        plain = _reference_plain(check, example, mode)
    except AssertionError:
        pytest.skip(f"{check_name} does not call {mode} on its first rich example")
    mutations = list(_mutations(plain))
    crashes = _judge_crashes(check, example, lambda path, value: _python_candidate(mode, path, value), mutations)
    assert not crashes, f"{len(crashes)} judge crashes in {len(mutations)} results, e.g.\n" + "\n".join(crashes[:10])
