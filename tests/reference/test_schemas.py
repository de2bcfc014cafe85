"""The published JSON Schemas (reference/schemas/v1/) and the validating loaders
(reference/documents.py).

* the committed schema files are what reference/schemas/build.py generates, each a valid
  draft 2020-12 schema, and their objects have exactly the reference's fields;
* (a) every writer of the reference produces documents that validate and load back equal:
  traces of all four algorithms, epoch results, Catoni roots, tapes in both forms,
  instances, adversaries, params (paper and scaled), run requests;
* the rational pattern accepts exactly the strings the readers take (without white space);
* (b) documents drawn from the schemas themselves (hypothesis-jsonschema) validate, and each
  loader returns an object or raises DocumentError, never anything else;
* (c) broken documents (a missing field, a wrong type, eta = 3/2, a coin u = 1, a
  5001-digit integer, non-ASCII text, duplicate keys, truncated JSON, a float where a
  rational belongs, random replacements and renamed keys) give one DocumentError line
  naming the JSON path;
* (d) the float64 result schemas take numbers where the exact ones refuse them;
* (e) the .npy tape form round-trips, and bad .npy files are refused naming the field.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import utils as conjecture_utils
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

import reference
from properties.strategies import fixed_crosscheck_cases
from reference import adversary as adversaries
from reference import documents, instances
from reference.calruption import EpochCounts, EpochState, calruption_epoch, initial_state
from reference.documents import DocumentError
from reference.exact import as_fraction, fraction_text
from reference.serialization import to_jsonable
from reference.trace import CALruptionEpoch, CALruptionTrace, PassiveTrace, RobustCALCheckpoint, RobustCALTrace
from tests.support import REPO_ROOT

REPO = REPO_ROOT
ALGORITHMS = ("passive", "robust_cal", "robust_cal_vanilla", "calruption")
FUZZ = settings(
    max_examples=15,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# hypothesis-jsonschema 0.23.1 (the latest release) draws objects with
# `conjecture.utils.many(...).more()`, which newer Hypothesis releases replaced by
# iteration (`with many(...) as e: for _ in e:`). Until it catches up, `more` is
# provided on top of the iteration protocol, only where it is missing.
if not hasattr(conjecture_utils.many, "more"):

    def _more(self) -> bool:
        if self._depth is None:
            self.__enter__()
            self._compat_iterator = iter(self)
        try:
            next(self._compat_iterator)
        except StopIteration:
            self.__exit__(None, None, None)
            return False
        return True

    conjecture_utils.many.more = _more


def _load_build():
    spec = importlib.util.spec_from_file_location("schema_build", REPO / "reference" / "schemas" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILD = _load_build()


# -- the reference's documents ----------------------------------------------------------
CASES = fixed_crosscheck_cases(3)


def run(case, algorithm):
    H = case.instance.hypotheses
    if algorithm == "passive":
        return reference.passive(H, case.tape, case.params)
    if algorithm == "calruption":
        return reference.calruption(H, case.tape, case.params)
    return reference.robust_cal(H, case.tape, case.params, vanilla=algorithm == "robust_cal_vanilla")


@pytest.fixture(scope="module")
def traces():
    return [(case, algorithm, run(case, algorithm)) for case in CASES for algorithm in ALGORITHMS]


def epoch_steps(case, limit: int = 2):
    """(state, counts, record, next state) of the first epochs of CALruption on the case's
    tape, each epoch's counts read off the tape with the coins (Q_t = 1 iff u_t < q)."""
    H, tape, params = case.instance.hypotheses, case.tape, case.params
    m = case.instance.num_points
    state, steps = initial_state(m, len(H), params), []
    while len(steps) < limit and state.tau + state.length - 1 <= tape.n:
        seen, queried = [0] * m, [[0, 0] for _ in range(m)]
        for t in range(state.tau - 1, state.tau - 1 + state.length):
            x = tape.x[t]
            seen[x] += 1
            if tape.u[t] < state.q[x]:
                queried[x][tape.y[t]] += 1
        counts = EpochCounts(tuple(seen), tuple(tuple(pair) for pair in queried))
        record, following = calruption_epoch(H, state, counts, case.params)
        steps.append((state, counts, record, following))
        state = following
    return steps


def epoch_result_document(record, state) -> dict:
    return {"format": "cral-epoch-result", "version": 1, "record": to_jsonable(record), "state": to_jsonable(state)}


def catoni_document(enclosure) -> dict:
    return {
        "format": "cral-catoni-root",
        "version": 1,
        "lo": fraction_text(enclosure.lo),
        "hi": fraction_text(enclosure.hi),
    }


DESCRIBE = {
    "format": "cral-describe",
    "version": 1,
    "implements": ["passive", "catoni_root"],
    "arithmetic": "float64",
    "tape_formats": ["json", "npy"],
    "name": "mine",
}
ERROR = {"format": "cral-error", "version": 1, "error": "ValueError", "message": "counts[2] must be >= 0, got -1"}


def requests(case, tape_document) -> list[dict]:
    """One run request per algorithm of the protocol's table, for this case."""
    head = {"format": "cral-run-request", "version": 1, "output": "/tmp/d/result.json"}
    H = [list(h) for h in case.instance.hypotheses]
    params = to_jsonable(case.params)
    state, counts, _, _ = epoch_steps(case, 1)[0]
    out = [{**head, "algorithm": "describe"}]
    out += [{**head, "algorithm": a, "hypotheses": H, "tape": tape_document, "params": params} for a in ALGORITHMS]
    out.append(
        {
            **head,
            "algorithm": "calruption_epoch",
            "hypotheses": H,
            "state": to_jsonable(state),
            "counts": to_jsonable(counts),
            "params": params,
        }
    )
    out.append({**head, "algorithm": "catoni_root", "values": ["1/2", "-3"], "counts": [2, 1], "alpha": "1/8"})
    out.append(
        {
            **head,
            "algorithm": "sample_tape",
            "instance": case.instance.to_json(),
            "adversary": case.adversary.to_json(),
            "seed": case.seed,
        }
    )
    return out


# -- the schema files ----------------------------------------------------------------------
def test_committed_schemas_are_what_build_py_generates():
    wanted = BUILD.generate()
    folder = documents.schema_dir()
    present = {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.json")}
    assert set(present) == set(wanted), "run python reference/schemas/build.py"
    for name, text in wanted.items():
        assert present[name] == text, f"{name} differs from build.py's output: run python reference/schemas/build.py"
    assert BUILD.main(["--check"]) == 0


def test_every_schema_is_draft_2020_12_with_an_id_in_the_versioned_folder():
    for path in sorted(documents.schema_dir().glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["$id"].endswith(f"/v{documents.SCHEMA_VERSION}/{path.name}")
    for kind in documents.KINDS:
        for arithmetic in documents.ARITHMETICS:
            name = documents.schema(kind, arithmetic)["$id"].rsplit("/", 1)[1]
            variant = arithmetic != "exact" and kind in documents.RESULT_KINDS  # float32 shares the float form
            assert name == (f"{kind}.float64.schema.json" if variant else f"{kind}.schema.json")
    with pytest.raises(ValueError, match="kind"):
        documents.schema("nosuch")
    with pytest.raises(ValueError, match="arithmetic"):
        documents.schema("trace", "float16")


def _fields(cls) -> set[str]:
    import dataclasses

    return {f.name for f in dataclasses.fields(cls)}


@pytest.mark.parametrize("arithmetic", ["exact", "float64"])
def test_schema_objects_have_exactly_the_reference_fields_all_required(arithmetic):
    defs = json.loads((documents.schema_dir() / BUILD.definitions_file(arithmetic)).read_text())["$defs"]
    expected = {
        "passive-trace": _fields(PassiveTrace) | {"format", "version"},
        "robust-cal-trace": _fields(RobustCALTrace) | {"format", "version"},
        "robust-cal-checkpoint": _fields(RobustCALCheckpoint),
        "calruption-trace": _fields(CALruptionTrace) | {"format", "version"},
        "calruption-epoch": _fields(CALruptionEpoch),
        "epoch-state": _fields(EpochState),
        "params": _fields(reference.Params),
        "enclosure": _fields(reference.Enclosure),
    }
    if arithmetic == "exact":
        expected["epoch-counts"] = _fields(EpochCounts)
        expected["instance"] = set(instances.thresholds().to_json())
        expected["tape"] = set(CASES[0].tape.to_json())
        expected["adversary"] = set(CASES[0].adversary.to_json())
        expected["segment"] = set(CASES[0].adversary.to_json()["segments"][0])
    for name, fields in expected.items():
        assert set(defs[name]["properties"]) == fields, name
        assert defs[name]["additionalProperties"] is False, name
    for name in ("passive-trace", "robust-cal-trace", "calruption-trace", "calruption-epoch", "params"):
        assert set(defs[name]["required"]) == expected[name], name


# -- (a) the reference's writers --------------------------------------------------------------
def test_traces_of_every_algorithm_validate_and_load_back_equal(traces):
    seen = set()
    for _, algorithm, trace in traces:
        document = reference.trace_to_json(trace)
        parsed = documents.parse_json(json.dumps(document).encode(), "trace")
        assert parsed == document
        documents.validate(parsed, "trace")
        documents.validate(parsed, "trace", arithmetic="float64")  # a string is a rational there too
        assert documents.load_trace(parsed) == trace
        assert documents.load_trace(parsed, arithmetic="float64") == trace
        seen.add(algorithm)
    assert seen == set(ALGORITHMS)
    calruption_traces = [t for _, a, t in traces if a == "calruption"]
    assert any(e.W[0][0] is None for t in calruption_traces for e in t.epochs)  # nulls really occur


def test_epoch_results_validate_and_load_back_equal():
    steps = [step for case in CASES for step in epoch_steps(case)]
    assert len(steps) >= 3
    for _, _, record, following in steps:
        document = epoch_result_document(record, following)
        documents.validate(document, "epoch-result")
        assert documents.load_epoch_result(document) == (record, following)
        assert documents.load_epoch_result(document, arithmetic="float64") == (record, following)


def test_catoni_roots_validate_and_load_back_equal():
    for values, counts, alpha in ((["1/2", "-3"], [2, 1], "1/8"), ([5, 5], [1, 3], 1), (["7/3"], [4], "1/1000")):
        root = reference.catoni_root([Fraction(v) for v in values], counts, Fraction(alpha))
        document = catoni_document(root)
        documents.validate(document, "catoni-root")
        assert documents.load_catoni_root(document) == root


def _adversaries(n: int):
    return [
        adversaries.clean(n),
        adversaries.counterexample(n // 4, n),
        adversaries.misspecification(Fraction(1, 8), ["1/4", "1/2", "0"], n),
        adversaries.early_burst([Fraction(3, 4), None, 1], n // 2, n),
    ]


def test_instances_adversaries_params_and_tapes_validate_and_load_back_equal(tmp_path):
    for make in instances.BUILTIN.values():
        instance = make()
        assert documents.load_instance(documents.validate(instance.to_json(), "instance")) == instance
    for adversary in _adversaries(40) + [case.adversary for case in CASES]:
        assert documents.load_adversary(adversary.to_json()) == adversary
    for params in (
        reference.Params.paper(1000, 7, Fraction(1, 20)),
        reference.Params.scaled(64, 3),
        reference.Params.scaled(64, 3, beta1=Fraction(5, 2), beta3=Fraction(1, 2)),
    ):
        assert documents.load_params(to_jsonable(params)) == params
    for case in CASES:
        inline = case.tape.to_json()
        assert documents.load_tape(inline) == case.tape
        npy = documents.write_tape_npy(case.tape, tmp_path / str(case.seed))
        documents.validate(npy, "tape-npy")
        assert documents.load_tape(npy) == case.tape
        for tape_document in (inline, npy):
            for request in requests(case, tape_document):
                documents.validate(request, "run-request")
    hand = reference.Tape([0, 1], [1, 0], [Fraction(1, 3), 0])  # hand-written: no seed, no generator
    assert documents.load_tape(hand.to_json()) == hand
    documents.validate(DESCRIBE, "describe")
    documents.validate({k: v for k, v in DESCRIBE.items() if k not in ("tape_formats", "name")}, "describe")
    documents.validate(ERROR, "error")


def test_loaders_read_files_and_name_them(tmp_path):
    case = CASES[0]
    files = {
        "instance": case.instance.to_json(),
        "adversary": case.adversary.to_json(),
        "params": to_jsonable(case.params),
        "tape": case.tape.to_json(),
    }
    loaders = {
        "instance": documents.load_instance,
        "adversary": documents.load_adversary,
        "params": documents.load_params,
        "tape": documents.load_tape,
    }
    expected = {"instance": case.instance, "adversary": case.adversary, "params": case.params, "tape": case.tape}
    for kind, document in files.items():
        path = tmp_path / f"{kind}.json"
        path.write_text(json.dumps(document, indent=1))
        assert loaders[kind](path) == expected[kind]
        assert loaders[kind](str(path)) == expected[kind]
        assert documents.read_document(path, kind) == document
        with pytest.raises(DocumentError, match=rf"^{kind} file \S*missing\.json: cannot read"):
            loaders[kind](tmp_path / "missing.json")
    trace = run(case, "passive")
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(reference.trace_to_json(trace)))
    assert documents.load_trace(path) == trace


# -- rationals ---------------------------------------------------------------------------------
def _schema_takes(pattern_name: str, text: str) -> bool:
    schema = {"type": "string", "pattern": getattr(BUILD, pattern_name)}
    return Draft202012Validator(schema).is_valid(text)


def _reader_takes(text: str, nonnegative: bool) -> bool:
    try:
        value = as_fraction(text, "x")
    except ValueError:
        return False
    return text == text.strip() and (value >= 0 or not nonnegative)


@given(st.text(alphabet="0123456789/-+ .e\n\t\u0663x", max_size=10))
def test_rational_patterns_take_exactly_what_the_reader_takes_without_white_space(text):
    assert _schema_takes("RATIONAL_PATTERN", text) == _reader_takes(text, nonnegative=False)
    assert _schema_takes("NONNEGATIVE_PATTERN", text) == _reader_takes(text, nonnegative=True)


@given(st.fractions())
def test_rational_pattern_takes_what_the_writer_writes(value):
    assert _schema_takes("RATIONAL_PATTERN", fraction_text(value))
    assert _schema_takes("NONNEGATIVE_PATTERN", fraction_text(value)) == (value >= 0)


@pytest.mark.parametrize(
    "text, ok",
    [
        ("3", True),
        ("-1/2", True),
        ("0/1", True),
        ("007/010", True),
        ("-0", True),
        ("12345678901234567890/3", True),
        ("1/0", False),
        ("1/00", False),
        ("0x10", False),
        (" 1/2", False),
        ("1/2 ", False),
        ("1/2\n", False),
        ("1.5", False),
        ("1e3", False),
        ("+1", False),
        ("", False),
        ("1/", False),
        ("/2", False),
        ("1/-2", False),
        ("\u00bd", False),
        ("\u0661/\u0662", False),
        ("\uff11/\uff12", False),
        ("1_000", False),
        ("--1", False),
    ],
)
def test_rational_pattern_examples(text, ok):
    assert _schema_takes("RATIONAL_PATTERN", text) is ok


# -- (b) documents drawn from the schemas -------------------------------------------------------
def inline(node, here: str):
    """The schema with every $ref replaced by its target, annotations dropped:
    hypothesis-jsonschema reads drafts 4-7 and fetches no other file."""
    if isinstance(node, list):
        return [inline(v, here) for v in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in ("$schema", "$id", "$defs", "$comment", "title", "description"):
            continue
        if key == "$ref":
            file, _, pointer = value.partition("#")
            file = file or here
            target = json.loads((documents.schema_dir() / file).read_text(encoding="utf-8"))
            for part in pointer.strip("/").split("/"):
                target = target[part]
            resolved = inline(target, file)
            assert not set(resolved) & set(out), (value, out)  # no keyword met twice
            out.update(resolved)
        elif key == "properties":
            out[key] = {name: inline(sub, here) for name, sub in value.items()}
        else:
            out[key] = inline(value, here)
    return out


def bounded(node, most: int = 3):
    """The schema with every list held to `most` entries (small documents, fast draws)."""
    if isinstance(node, list):
        return [bounded(v, most) for v in node]
    if not isinstance(node, dict):
        return node
    out = {key: bounded(value, most) for key, value in node.items()}
    if "items" in node and "maxItems" not in node:
        out["maxItems"] = max(most, node.get("minItems", 0))
    return out


def drawn(kind: str, arithmetic: str = "exact", definition: str | None = None, **extra):
    """Documents of the kind (or of one of its shared definitions: one branch of a
    schema with a branch per algorithm, which from_schema draws far faster)."""
    if definition is None:
        file = documents.schema(kind, arithmetic)["$id"].rsplit("/", 1)[1]
        schema = inline(json.loads((documents.schema_dir() / file).read_text(encoding="utf-8")), file)
    else:
        file = BUILD.definitions_file(arithmetic)
        schema = inline({"$ref": f"{file}#/$defs/{definition}"}, file)
    for key, value in extra.items():
        schema["properties"][key] = value
    return from_schema(bounded(schema))


def _request_branch(algorithm: str):
    full = json.loads((documents.schema_dir() / "run-request.schema.json").read_text(encoding="utf-8"))
    branch = next(b["then"] for b in full["allOf"] if b["if"]["properties"]["algorithm"]["const"] == algorithm)
    branch = inline(branch, "run-request.schema.json")
    branch["properties"]["algorithm"] = {"const": algorithm}
    return from_schema(bounded(branch))


LOADERS = {
    "instance": documents.load_instance,
    "adversary": documents.load_adversary,
    "params": documents.load_params,
    "tape": documents.load_tape,
    "tape-npy": documents.load_tape,
    "trace": documents.load_trace,
    "epoch-result": documents.load_epoch_result,
    "catoni-root": documents.load_catoni_root,
}
DRAWN = [
    ("instance", "exact", lambda: drawn("instance")),
    ("adversary", "exact", lambda: drawn("adversary")),
    ("params", "exact", lambda: drawn("params")),
    ("tape", "exact", lambda: drawn("tape")),
    ("tape-npy", "exact", lambda: drawn("tape-npy")),
    ("describe", "exact", lambda: drawn("describe")),
    ("error", "exact", lambda: drawn("error")),
    ("catoni-root", "exact", lambda: drawn("catoni-root")),
    ("catoni-root", "float64", lambda: drawn("catoni-root", "float64")),
    ("epoch-result", "exact", lambda: drawn("epoch-result")),
    ("epoch-result", "float64", lambda: drawn("epoch-result", "float64")),
    *[
        ("trace", arithmetic, lambda arithmetic=arithmetic, d=d, e=e: drawn("trace", arithmetic, d, **e))
        for arithmetic in ("exact", "float64")
        for d, e in (
            ("passive-trace", {}),
            ("calruption-trace", {}),
            ("robust-cal-trace", {"algorithm": {"const": "robust_cal"}, "vanilla": {"const": False}}),
            ("robust-cal-trace", {"algorithm": {"const": "robust_cal_vanilla"}, "vanilla": {"const": True}}),
        )
    ],
    *[
        ("run-request", "exact", lambda a=a: _request_branch(a))
        for a in ("describe", "passive", "calruption_epoch", "catoni_root", "sample_tape")
    ],
]


DRAWN_IDS = [f"{k}-{a}-{i}" for i, (k, a, _) in enumerate(DRAWN)]


# from_schema's draws of nested documents are slow: the default run draws a few documents of
# each of the 24 schemas, the slow run many more of the same
@pytest.mark.parametrize("kind, arithmetic, strategy", DRAWN, ids=DRAWN_IDS)
@settings(FUZZ, max_examples=3)
@given(data=st.data())
def test_documents_drawn_from_the_schemas_validate_and_load_or_are_refused(kind, arithmetic, strategy, data):
    _drawn_document_validates_and_loads_or_is_refused(kind, arithmetic, strategy, data)


@pytest.mark.slow
@pytest.mark.parametrize("kind, arithmetic, strategy", DRAWN, ids=DRAWN_IDS)
@settings(FUZZ, max_examples=25)
@given(data=st.data())
def test_many_documents_drawn_from_the_schemas_validate_and_load_or_are_refused(kind, arithmetic, strategy, data):
    _drawn_document_validates_and_loads_or_is_refused(kind, arithmetic, strategy, data)


# each schema's strategy is built once (from_schema's work on the schema) and drawn from by
# every example: the same strategy draws the same documents from the same choices
_STRATEGIES: dict = {}


def _drawn_document_validates_and_loads_or_is_refused(kind, arithmetic, strategy, data):
    if strategy not in _STRATEGIES:
        _STRATEGIES[strategy] = strategy()
    document = data.draw(_STRATEGIES[strategy], label=f"{kind} document ({arithmetic})")
    documents.validate(document, kind, arithmetic=arithmetic)
    assert documents.parse_json(json.dumps(document, ensure_ascii=False).encode("utf-8")) == document
    loader = LOADERS.get(kind)
    if loader is None:
        return
    keywords = {"arithmetic": arithmetic} if kind in documents.RESULT_KINDS else {}
    try:
        loader(document, **keywords)
    except DocumentError as error:
        assert "\n" not in str(error) and str(error).startswith("document: ")


# -- (c) broken documents ------------------------------------------------------------------------
def _valid(kind: str) -> dict:
    case = CASES[0]
    return {
        "instance": case.instance.to_json(),
        "adversary": case.adversary.to_json(),
        "params": to_jsonable(case.params),
        "tape": case.tape.to_json(),
        "trace": reference.trace_to_json(run(case, "robust_cal")),
        "calruption": reference.trace_to_json(run(case, "calruption")),
    }[kind]


def _set(document, path, value):
    target = document
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return document


BIG = "1" + "0" * 5000
MUTATIONS = [
    # (id, kind, loader kind, the broken JSON text, the path the message must name, more it must say)
    (
        "missing-field",
        "instance",
        lambda d: json.dumps({k: v for k, v in d.items() if k != "eta"}),
        "$",
        'missing required field "eta"',
    ),
    ("wrong-type-n", "adversary", lambda d: json.dumps({**d, "n": "8"}), "$.n", "integer"),
    ("eta-3/2", "instance", lambda d: json.dumps(_set(d, ["eta", 1], "3/2")), "$.eta[1]", "got 3/2"),
    ("coin-u-1", "tape", lambda d: json.dumps(_set(d, ["u", 2], "1/1")), "$.u[2]", "[0, 1)"),
    ("coin-u-2/2", "tape", lambda d: json.dumps(_set(d, ["u", 0], "2/2")), "$.u[0]", "got 1"),
    ("nu-sums-to-2", "instance", lambda d: json.dumps({**d, "nu": ["1/1"] * len(d["nu"])}), "$.nu", "sum"),
    (
        "huge-integer",
        "adversary",
        lambda d: json.dumps(d).replace(f'"n": {d["n"]}', f'"n": {BIG}'),
        "$.n",
        "5001 digits",
    ),
    ("huge-rational", "tape", lambda d: json.dumps(_set(d, ["u", 1], BIG + "/3")), "$.u[1]", "digits"),
    (
        "non-ascii-digits",
        "instance",
        lambda d: json.dumps(_set(d, ["nu", 0], "\uff11/\uff12"), ensure_ascii=False),
        "$.nu[0]",
        "rational",
    ),
    ("non-ascii-format", "tape", lambda d: json.dumps({**d, "format": "cral\u2010tape"}), "$.format", '"cral-tape"'),
    ("non-ascii-key", "params", lambda d: json.dumps({**d, "d\u00e9lta": "1/2"}), '$["d\u00e9lta"]', "unknown field"),
    ("duplicate-key", "adversary", lambda d: json.dumps(d)[:-1] + ', "n": 3}', "$.n", "duplicate key"),
    (
        "nested-duplicate",
        "params",
        lambda d: json.dumps(d).replace('"beta1": {', '"beta1": {"value": "1", '),
        "$.beta1.value",
        "duplicate key",
    ),
    (
        "float-rational",
        "trace",
        lambda d: json.dumps(_set(d, ["checkpoints", 0, "beta", "lo"], 0.5)),
        "$.checkpoints[0].beta.lo",
        "got 0.5",
    ),
    ("float-integer", "trace", lambda d: json.dumps({**d, "n": float(d["n"])}), "$.n", "integer"),
    ("float-version", "tape", lambda d: json.dumps({**d, "version": 1.0}), "$.version", "integer"),
    ("nan", "tape", lambda d: json.dumps(_set(d, ["u", 0], float("nan"))), "$.u[0]", "NaN"),
    ("infinity", "instance", lambda d: json.dumps(d).replace('"nu": [', '"nu": [1e400, '), "$.nu[0]", "overflows"),
    (
        "upside-down-enclosure",
        "trace",
        lambda d: json.dumps(_set(d, ["checkpoints", 1, "beta"], {"lo": "2", "hi": "1"})),
        "$.checkpoints[1].beta",
        "lo must be <= hi",
    ),
    ("vanilla-mismatch", "trace", lambda d: json.dumps({**d, "vanilla": True}), "$.vanilla", "false"),
    ("unknown-algorithm", "trace", lambda d: json.dumps({**d, "algorithm": "robust"}), "$.algorithm", "one of"),
    (
        "null-where-none-is-written",
        "calruption",
        lambda d: json.dumps(_set(d, ["epochs", 0, "rho", 0, 0], None)),
        "$.epochs[0].rho[0][0]",
        "got null",
    ),
    (
        "negative-index",
        "calruption",
        lambda d: json.dumps(_set(d, ["epochs", 0, "support", 0], -1)),
        "$.epochs[0].support[0]",
        ">= 0",
    ),
    (
        "segment-gap",
        "adversary",
        lambda d: json.dumps(_set(d, ["segments", 0, "start"], 2)),
        "$.segments[0].start",
        "expected 1",
    ),
]


@pytest.mark.parametrize("kind, mutate, path, says", [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_broken_documents_give_one_line_naming_the_json_path(kind, mutate, path, says, tmp_path):
    text = mutate(_valid(kind))
    loader = {
        "instance": documents.load_instance,
        "adversary": documents.load_adversary,
        "params": documents.load_params,
        "tape": documents.load_tape,
        "trace": documents.load_trace,
        "calruption": documents.load_trace,
    }[kind]
    file = tmp_path / "broken.json"
    file.write_bytes(text.encode("utf-8"))
    for given_ in (file, None):
        with pytest.raises(DocumentError) as caught:
            loader(file) if given_ else loader(documents.parse_json(text.encode("utf-8"), "it"), source="it")
        message = str(caught.value)
        assert "\n" not in message and len(message) < 600, message
        assert message.startswith(f"{kind if kind != 'calruption' else 'trace'} file {file}: " if given_ else "it: ")
        assert f"at {path}:" in message or f"at {path}," in message, message
        assert says in message, message


def test_truncated_and_malformed_json_is_one_line_with_line_and_column():
    text = json.dumps(_valid("tape"))
    for cut in (0, 1, len(text) // 2, len(text) - 1):
        with pytest.raises(
            DocumentError, match=r"^t: not valid JSON \(the text ends early\): .* at line 1 column \d+$"
        ):
            documents.parse_json(text[:cut].encode(), "t")
    cases = [
        (text + " " + text, "more than one JSON document"),
        ("\ufeff" + text, "byte order mark"),
        (b"\xff" + text.encode(), "not UTF-8"),
        (text.encode("utf-16"), "not UTF-8"),
        ('{"a": "\\ud800"}', "lone surrogate"),
        ('{"\\udfff": 1}', "lone surrogate"),
        ("[" * 100000 + "]" * 100000, "nested"),
        ("[" * 70 + "]" * 70, "nested more than 64"),
        ("Infinity", "Infinity"),
        ("-Infinity", "Infinity"),
        ("{'a': 1}", "not valid JSON"),
    ]
    for data, says in cases:
        with pytest.raises(DocumentError) as caught:
            documents.parse_json(data.encode() if isinstance(data, str) and data.startswith("\ufeff") else data, "t")
        assert says in str(caught.value) and "\n" not in str(caught.value)


@FUZZ
@given(data=st.data())
def test_arbitrary_bytes_parse_or_give_document_error(data):
    raw = data.draw(
        st.one_of(
            st.binary(max_size=40),
            st.text(max_size=40).map(str.encode),
            st.text(alphabet='{}[]",:0123456789.eE+-nulltrfaseNI\\ud8', max_size=40),
        ),
        label="bytes",
    )
    try:
        documents.parse_json(raw, "b")
    except DocumentError:
        pass


def _nodes(document, path=()):
    yield path
    if isinstance(document, dict):
        for key, value in document.items():
            yield from _nodes(value, (*path, key))
    elif isinstance(document, list):
        for i, value in enumerate(document):
            yield from _nodes(value, (*path, i))


def _mutable_documents():
    case = CASES[1]
    out = [(kind, _valid(kind)) for kind in ("instance", "adversary", "params", "tape")]
    out += [("trace", reference.trace_to_json(run(case, a))) for a in ALGORITHMS]
    out += [("run-request", r) for r in requests(case, case.tape.to_json())]
    out += [("describe", DESCRIBE), ("error", ERROR)]
    return out


MUTABLE = _mutable_documents()


@FUZZ
@given(data=st.data())
def test_a_replaced_node_or_renamed_key_is_refused_at_a_path_on_the_way_to_it(data):
    """No object with an unknown key is valid anywhere, nor is a key renamed: the error
    names the changed node or one of its ancestors (jsonschema reports the shallowest)."""
    kind, original = data.draw(st.sampled_from(MUTABLE), label="document")
    document = json.loads(json.dumps(original))
    paths = list(_nodes(document))
    path = data.draw(st.sampled_from(paths), label="path")
    rename = bool(path) and isinstance(path[-1], str) and data.draw(st.booleans(), label="rename the key")
    if rename:
        parent = document
        for part in path[:-1]:
            parent = parent[part]
        parent["\u00e9" + path[-1]] = parent.pop(path[-1])
        path = (*path[:-1], "\u00e9" + path[-1])
    elif path:
        _set(document, list(path), {"\u00e9x": [0.5]})
    else:
        document = {"\u00e9x": [0.5]}
    with pytest.raises(DocumentError) as caught:
        documents.validate(document, kind, source="m")
    message = str(caught.value)
    named = re.match(r"m: at (\$\S*): ", message)
    assert named, message
    assert named[1] in {documents.json_path(path[:i]) for i in range(len(path) + 1)}, (message, path)
    loader = LOADERS.get(kind)
    if loader is not None:
        with pytest.raises(DocumentError):
            loader(document)


@FUZZ
@given(data=st.data())
def test_the_inlined_validator_decides_as_the_published_schema(data):
    """reference.documents decides validity with the schema's $refs inlined (fast) and
    names errors with the published schema: both must agree on every document, valid or
    not (a node replaced by a value of another kind, or a key removed)."""
    kind, original = data.draw(st.sampled_from(MUTABLE), label="document")
    document = json.loads(json.dumps(original))
    path = data.draw(st.sampled_from(list(_nodes(document))), label="path")
    value = data.draw(st.sampled_from([None, 0, -1, 1, 2, 0.5, "", "1/2", "x", [], [0], {}, True]), label="value")
    remove = bool(path) and isinstance(path[-1], str) and data.draw(st.booleans(), label="remove the key")
    if remove:
        parent = document
        for part in path[:-1]:
            parent = parent[part]
        del parent[path[-1]]
    elif path:
        _set(document, list(path), value)
    for arithmetic in ("exact", "float64"):
        fast = documents._fast_validator(kind, arithmetic)
        assert fast is not None, kind
        published = documents._validator(kind, arithmetic)
        assert fast.is_valid(document) == published.is_valid(document), (kind, arithmetic, path, value, remove)


def test_a_long_value_is_clipped_and_non_printable_text_escaped():
    tape = _valid("tape")
    tape["u"] = "\x00" + "9" * 5000
    with pytest.raises(DocumentError) as caught:
        documents.load_tape(tape)
    message = str(caught.value)
    assert "at $.u: must be a list" in message and len(message) < 400 and '"\\u0000999' in message
    assert message.endswith("...")
    assert documents.shown(10**5000).startswith("<an integer of 5001 digits")
    nested = []
    for _ in range(10000):
        nested = [nested]
    assert len(documents.shown(nested)) <= documents.CLIP
    with pytest.raises(DocumentError, match="nested"):
        documents.validate(nested, "tape")
    adversary = _valid("adversary")  # a document built in Python, not parsed: jsonschema would repr the int
    with pytest.raises(DocumentError, match=r"^document: at \$\.n: an integer too long to check, got <an integer"):
        documents.validate({**adversary, "n": -(10**5000)}, "adversary")


# -- (d) float64 results ------------------------------------------------------------------------
def _as_floats(value):
    """Every "p/q" rational of a document as the nearest double."""
    if isinstance(value, dict):
        return {
            k: v if k in ("format", "algorithm", "lp_method", "regime") else _as_floats(v) for k, v in value.items()
        }
    if isinstance(value, list):
        return [_as_floats(v) for v in value]
    if isinstance(value, str) and "/" in value:
        return float(Fraction(value))
    return value


def test_float64_results_take_numbers_where_exact_ones_refuse_them(traces):
    for _, algorithm, trace in traces[:4]:
        document = _as_floats(reference.trace_to_json(trace))
        with pytest.raises(DocumentError, match=r"at \$\.[a-z_]+.*: must be a string"):
            documents.validate(document, "trace")
        documents.validate(document, "trace", arithmetic="float64")
        loaded = documents.load_trace(document, arithmetic="float64")
        assert loaded.output == trace.output and loaded.params.regime == trace.params.regime
        if algorithm == "passive":
            assert loaded.empirical_risk == tuple(Fraction(float(r)) for r in trace.empirical_risk)
    record, following = epoch_steps(CASES[0], 1)[0][2:]
    document = _as_floats(epoch_result_document(record, following))
    with pytest.raises(DocumentError, match=r"at \$\.record\."):
        documents.validate(document, "epoch-result")
    loaded, _ = documents.load_epoch_result(document, arithmetic="float64")
    assert loaded.rho == tuple(tuple(Fraction(float(v)) for v in row) for row in record.rho)
    root = {"format": "cral-catoni-root", "version": 1, "lo": -0.25, "hi": 3}
    with pytest.raises(DocumentError, match=r"at \$\.lo: must be a string"):
        documents.validate(root, "catoni-root")
    assert documents.load_catoni_root(root, arithmetic="float64") == reference.Enclosure(Fraction(-1, 4), Fraction(3))
    for bad in (float("nan"), float("inf"), True, "0.5"):
        with pytest.raises(DocumentError, match=r"at \$\.hi: "):
            documents.validate({**root, "hi": bad}, "catoni-root", arithmetic="float64")
    # integers stay integers, and inputs have one (exact) form
    with pytest.raises(DocumentError, match=r"at \$\.n: must be an integer"):
        documents.validate(
            {**_as_floats(reference.trace_to_json(traces[0][2])), "n": 3.0}, "trace", arithmetic="float64"
        )
    assert documents.schema("tape", "float64") == documents.schema("tape")


# -- (e) the .npy tape form ------------------------------------------------------------------------
def test_npy_tape_round_trips_with_relative_paths_from_the_document_folder(tmp_path):
    tape = CASES[0].tape
    document = documents.write_tape_npy(tape, tmp_path / "t")
    for field, (name, dtype) in documents.NPY_FILES.items():
        path = Path(document[field])
        assert path.is_absolute() and path.name == name
        array = np.load(path, allow_pickle=False)
        assert array.dtype == np.dtype(dtype) and array.shape == (tape.n,) and array.flags.c_contiguous
    assert documents.load_tape(document) == tape
    relative = {**document, **{field: f"t/{name}" for field, (name, _) in documents.NPY_FILES.items()}}
    (tmp_path / "tape.json").write_text(json.dumps(relative))
    assert documents.load_tape(tmp_path / "tape.json") == tape
    with pytest.raises(ValueError, match=r"tape\.u\[0\] = 1/3 is not a multiple of 2\^-64"):
        documents.write_tape_npy(reference.Tape([0], [1], [Fraction(1, 3)]), tmp_path / "no")
    with pytest.raises(ValueError, match=r"tape\.x holds 9223372036854775808, beyond int64"):
        documents.write_tape_npy(reference.Tape([2**63], [1], [Fraction(1, 2)]), tmp_path / "big")


@pytest.mark.parametrize("points", [[0, 1, 2], [0, 300, 2**40]])  # below 256 (through bytes) and beyond
def test_npy_tape_files_are_the_bytes_np_save_writes(tmp_path, points):
    tape = reference.Tape(points, [1, 0, 1], [Fraction(1, 2), Fraction(0), Fraction(3, 2**64)])
    document = documents.write_tape_npy(tape, tmp_path / "t")
    for field, (name, dtype) in documents.NPY_FILES.items():
        saved = tmp_path / f"saved-{name}"
        np.save(saved, np.load(document[field]).astype(dtype), allow_pickle=False)
        assert Path(document[field]).read_bytes() == saved.read_bytes(), field
    assert documents.load_tape(document) == tape


def _spoil_header(path: Path, descr: str, fortran: bool, shape):
    data = np.load(path).tobytes()
    with open(path, "wb") as handle:
        np.lib.format.write_array_header_1_0(handle, {"descr": descr, "fortran_order": fortran, "shape": shape})
        handle.write(data)


BAD_NPY = [
    ("x-int32", "x", lambda p, n: np.save(p, np.zeros(n, dtype="<i4")), "holds dtype <i4, expected <i8"),
    ("x-big-endian", "x", lambda p, n: np.save(p, np.zeros(n, dtype=">i8")), "holds dtype >i8"),
    ("u-float", "u_words", lambda p, n: np.save(p, np.zeros(n)), "holds dtype <f8"),
    ("y-2d", "y", lambda p, n: np.save(p, np.zeros((n, 1), dtype="|u1")), "expected one dimension"),
    ("y-short", "y", lambda p, n: np.save(p, np.zeros(n - 1, dtype="|u1")), "expected n = "),
    ("x-missing", "x", lambda p, n: p.unlink(), "cannot read"),
    ("x-fortran", "x", lambda p, n: _spoil_header(p, "<i8", True, (n,)), "Fortran order"),
    ("u-truncated", "u_words", lambda p, n: p.write_bytes(p.read_bytes()[:-3]), "bytes of data"),
    ("u-trailing", "u_words", lambda p, n: p.write_bytes(p.read_bytes() + b"\0"), "bytes of data"),
    ("y-not-npy", "y", lambda p, n: p.write_text("hello"), "not a .npy file"),
    ("y-label-2", "y", lambda p, n: np.save(p, np.full(n, 2, dtype="|u1")), "entry 0 must be 0 or 1, got 2"),
    ("x-negative", "x", lambda p, n: np.save(p, np.full(n, -1, dtype="<i8")), "entry 0 must be >= 0, got -1"),
    ("x-object", "x", lambda p, n: np.save(p, np.array([None] * n, dtype=object), allow_pickle=True), "dtype |O"),
]


@pytest.mark.parametrize("field, spoil, says", [b[1:] for b in BAD_NPY], ids=[b[0] for b in BAD_NPY])
def test_bad_npy_files_are_refused_naming_the_field(field, spoil, says, tmp_path):
    tape = CASES[0].tape
    document = documents.write_tape_npy(tape, tmp_path)
    spoil(Path(document[field]), tape.n)
    with pytest.raises(DocumentError) as caught:
        documents.load_tape(document, source="req")
    message = str(caught.value)
    assert message.startswith(f"req: at $.{field}: {document[field]}"), message
    assert says in message and "\n" not in message, message


def test_npy_document_with_a_wrong_n_or_format_is_refused(tmp_path):
    document = documents.write_tape_npy(CASES[0].tape, tmp_path)
    with pytest.raises(DocumentError, match=r"at \$\.x: .* entries, expected n = 7$"):
        documents.load_tape({**document, "n": 7})
    with pytest.raises(DocumentError, match=r"at \$\.n: must be >= 1"):
        documents.load_tape({**document, "n": 0})
    with pytest.raises(DocumentError, match=r"at \$: missing required field \"u\""):
        documents.load_tape({**document, "format": "cral-tape"})


# -- the command line ----------------------------------------------------------------------------
def _cli(*args):
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run(
        [sys.executable, "-m", "reference", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=900,
    )


def test_cli_reads_an_npy_tape_and_refuses_a_bad_file_in_one_line(tmp_path):
    instance = instances.thresholds()
    tape = reference.sample_tape(instance, adversaries.clean(40), 3)
    (tmp_path / "instance.json").write_text(json.dumps(instance.to_json()))
    (tmp_path / "tape.json").write_text(json.dumps(documents.write_tape_npy(tape, tmp_path)))
    result = _cli(
        "run", "passive", "--instance", tmp_path / "instance.json", "--tape", tmp_path / "tape.json", "--json"
    )
    assert result.returncode == 0, result.stderr
    assert reference.trace_from_json(json.loads(result.stdout)) == reference.passive(
        instance.hypotheses, tape, reference.Params.paper(40, instance.num_hypotheses, Fraction(1, 20))
    )
    (tmp_path / "bad.json").write_text(json.dumps(instance.to_json())[:-1] + ', "nu": ["1/1"]}')
    result = _cli("run", "passive", "--instance", tmp_path / "bad.json")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"error: instance file {tmp_path / 'bad.json'}: at $.nu: duplicate key\n"


def test_a_file_name_with_a_newline_gives_a_one_line_message(tmp_path):
    """Found by the schema-drawn documents above: a file name "\\n" put a newline in the
    message. Names are shown as written, or as their repr when not printable."""
    document = documents.write_tape_npy(CASES[0].tape, tmp_path)
    with pytest.raises(DocumentError) as caught:
        documents.load_tape({**document, "x": "\n"}, source="req")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("req: at $.x: '\\n': cannot read"), message


def _inline_variants(tape) -> list:
    document = tape.to_json()
    out = [document]
    for field, index, value in [
        ("u", 0, "1/1"),
        ("u", 0, "-0"),
        ("u", 0, "0"),
        ("u", 0, "007/16"),
        ("u", 0, "3/2"),
        ("u", 0, "1/0"),
        ("u", 0, " 1/2"),
        ("u", 0, "\u0661/2"),
        ("u", 0, "1/" + "7" * 5000),
        ("u", 0, 0),
        ("x", 0, -1),
        ("x", 0, True),
        ("x", 0, 2**70),
        ("y", 0, 2),
        ("y", 0, False),
    ]:
        changed = json.loads(json.dumps(document))
        changed[field][index] = value
        out.append(changed)
    out.append({**document, "seed": 2**64})
    out.append({**document, "seed": -1})
    out.append({**document, "generator": 3})
    out.append({**document, "u": document["u"][:-1]})
    out.append({**document, "extra": 1})
    return out


def test_an_inline_tape_loads_as_tape_from_json_takes_it(monkeypatch):
    """load_tape builds a plain inline tape without Tape's checks of each entry; on
    anything else Tape.from_json decides: the same tape or the same message."""

    def outcome(document):
        try:
            return documents.load_tape(document)
        except ValueError as error:
            return str(error)

    # the shortest tape: the variants change its first entries and its keys, whatever its length
    variants = _inline_variants(min((case.tape for case in CASES), key=lambda tape: tape.n))
    quick = [outcome(v) for v in variants]
    monkeypatch.setattr(documents, "_plain_inline_tape", lambda document: None)
    assert quick == [outcome(v) for v in variants]
    assert isinstance(quick[0], reference.Tape) and sum(isinstance(q, str) for q in quick) >= 12
