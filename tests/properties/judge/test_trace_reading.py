"""A program's trace is read in one pass when it is written as the reference writes it
(properties/judge/plain_trace.py); anything else goes the general way (parse,
read for its meaning, schema, decode). The two must agree on every result: the same
trace, document, notes -- or the same failure, word for word. Held here on the
reference's traces and on seeded mutations of them (a value of another type, a key
removed or added, a list emptied or extended) and on what only the text can hold
(a duplicate key, NaN, a number beyond a double, a byte order mark, nesting beyond
MAX_DEPTH, an integer beyond Python's int-to-text limit, a lone surrogate)."""

from __future__ import annotations

import copy
import json
import random
from fractions import Fraction

import pytest

import reference as R
from properties.core.candidate import CallFailed, CandidateFault
from properties.core.contract import Decoded, decode_trace
from properties.judge import command, plain_trace
from properties.judge.command import CommandCandidate
from properties.judge.conformance import _small_case
from properties.strategies import fixed_crosscheck_cases
from reference import documents
from tests.reference.test_schema_check import _mutated

CASES = [_small_case(), *((c.instance, c.params, c.tape) for c in fixed_crosscheck_cases(3, 20261204))]
MODES = ("passive", "robust_cal", "robust_cal_vanilla", "calruption")


def _traces():
    out = []
    for instance, params, tape in CASES:
        for mode in MODES:
            extra = {"vanilla": True} if mode == "robust_cal_vanilla" else {}
            function = "robust_cal" if mode == "robust_cal_vanilla" else mode
            trace = getattr(R, function)(instance.hypotheses, tape, params, **extra)
            out.append((mode, R.trace_to_json(trace), R.serialization.to_jsonable(params)))
    return out


TRACES = _traces()


@pytest.fixture(scope="module")
def candidate(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reading")
    describe = folder / "describe.json"
    describe.write_text(
        json.dumps(
            {"format": "cral-describe", "version": 1, "implements": list(MODES), "arithmetic": "exact"},
        )
    )
    with CommandCandidate(f"cat {describe} < {{request}}", keep_dir=str(folder)) as made:
        yield made


def _outcome(candidate, data: bytes, mode: str, params, folder, one_pass: bool, monkeypatch):
    """What the judge makes of `data` as the answer to a `mode` call: ("trace", trace,
    document, notes) or ("failure", message)."""
    monkeypatch.setattr(plain_trace, "_ONE_PASS", one_pass)
    candidate.normalised.clear()
    candidate.ignored_fields = None
    directory = str(folder)
    try:
        document = candidate._read(data, "stdout", mode, "", 0, directory, f"in {mode}", {"request": "r"})
        if mode in command.TRACE_MODES and document.get("format") == "cral-trace":
            if type(document) is not Decoded:
                document = candidate._normalised(document, {"params": params})
        document = candidate._plain_result(mode, mode, document)
        trace = decode_trace("test", document, mode)
    except (CandidateFault, CallFailed) as error:
        message = error.message if isinstance(error, CandidateFault) else error.violation.message
        return ("failure", message.replace(directory, "DIR"))
    notes = (dict(candidate.normalised), dict(candidate.ignored_fields or {}))
    return ("trace", trace, dict(document), notes)


def _same(candidate, data, mode, params, folder, monkeypatch):
    general = _outcome(candidate, data, mode, params, folder, False, monkeypatch)
    one_pass = _outcome(candidate, data, mode, params, folder, True, monkeypatch)
    assert one_pass == general, data[:2000]
    return general


@pytest.mark.parametrize("index", range(len(TRACES)))
def test_the_one_pass_reading_agrees_with_the_general_one(candidate, index, tmp_path, monkeypatch):
    mode, trace, params = TRACES[index]
    data = json.dumps(trace, separators=(",", ":")).encode()
    assert type(candidate._plain_trace(data)) is Decoded  # the reference's own trace: one pass
    assert _same(candidate, data, mode, params, tmp_path, monkeypatch)[0] == "trace"
    rng = random.Random(index)
    failures = 0
    for _ in range(60):
        bad = json.dumps(_mutated(trace, rng), separators=(",", ":"), allow_nan=True).encode()
        failures += _same(candidate, bad, mode, params, tmp_path, monkeypatch)[0] == "failure"
    assert failures > 10  # not vacuous: most mutations are failures


def _text_variants(text: str) -> list[str]:
    """What only the text of a document can hold, each in a trace's place."""
    at = text.index('"output":')
    deep = "[" * (documents.MAX_DEPTH + 2) + "]" * (documents.MAX_DEPTH + 2)
    return [
        text[:at] + '"output":0,' + text[at:],  # a duplicate key
        text[:at] + '"x_note":' + deep + "," + text[at:],  # too deep, in a field that would be ignored
        text[:at] + '"x_note":NaN,' + text[at:],
        text[:at] + '"x_note":1e400,' + text[at:],
        text[:at] + '"x_note":' + "7" * 5000 + "," + text[at:],
        text[:at] + '"x_note":"\\ud800",' + text[at:],  # a lone surrogate
        text[:at] + '"x_note":"\\ud83d\\ude00",' + text[at:],  # a pair: one character
        text[:at] + '"x_note":"note",' + text[at:],  # an unknown field: ignored, and noted
        text.replace('"n":', '"n":0,"n":', 1),
        text + " ",
        text + " {}",
        text[:-1],
    ]


@pytest.mark.parametrize("index", range(0, len(TRACES), 3))
def test_what_only_the_text_holds_is_judged_as_before(candidate, index, tmp_path, monkeypatch):
    mode, trace, params = TRACES[index]
    text = json.dumps(trace, separators=(",", ":"))
    outcomes = []
    for variant in _text_variants(text):
        for data in (variant.encode(), b"\xef\xbb\xbf" + variant.encode()):
            outcomes.append(_same(candidate, data, mode, params, tmp_path, monkeypatch)[0])
    assert outcomes.count("failure") >= 10 and "trace" in outcomes


def test_integers_for_rationals_are_read_the_general_way_to_the_same_trace(candidate, tmp_path, monkeypatch):
    mode, trace, params = next(t for t in TRACES if t[0] == "calruption" and t[1]["epochs"])
    written = copy.deepcopy(trace)
    for epoch in written["epochs"]:  # rho^(h, h) = 0, written as the integer 0
        for h, row in enumerate(epoch["rho"]):
            assert Fraction(row[h]) == 0
            row[h] = 0
    data = json.dumps(written).encode()
    assert candidate._plain_trace(data) is None
    outcome = _same(candidate, data, mode, params, tmp_path, monkeypatch)
    assert outcome[0] == "trace" and outcome[1] == R.trace_from_json(trace)


@pytest.mark.parametrize("tape_format", ["json", "npy"])
def test_a_request_on_a_cached_tape_is_the_bytes_json_writes(tmp_path, tape_format):
    describe = tmp_path / "describe.json"
    describe.write_text(
        json.dumps(
            {
                "format": "cral-describe",
                "version": 1,
                "implements": list(MODES),
                "arithmetic": "exact",
                "tape_formats": ["json", "npy"],
            }
        )
    )
    instance, params, tape = CASES[1]
    with CommandCandidate(f"cat {describe} < {{request}}", keep_dir=str(tmp_path), tape_format=tape_format) as made:
        inputs = made._inputs("calruption", (instance.hypotheses, tape, params), {})
        assert inputs["tape"]["format"] == ("cral-tape" if tape_format == "json" else "cral-tape-npy")
        request = {"format": "cral-run-request", "version": 1, "algorithm": "calruption", "output": "o\u00e9", **inputs}
        assert made._request_bytes(request) == json.dumps(request, separators=(",", ":")).encode()
        assert made._inputs("passive", (instance.hypotheses, tape, params), {})["tape"] is inputs["tape"]
