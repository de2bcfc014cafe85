"""reference/schema_check.py must answer "valid?" exactly as jsonschema does (with the
project's type checker), on valid documents of every kind the judge reads and on
thousands of seeded mutations of them: a value of another type or sign, a key removed
or added, a list emptied or extended. Where it could only be stricter the judge would
merely ask jsonschema again; where it were more lenient a bad result would pass -- both
are caught here."""

from __future__ import annotations

import copy
import json
import random

import pytest

import reference as R
from properties.strategies import fixed_crosscheck_cases
from reference import documents
from reference.schema_check import compile_schema
from teeth.planted_cmd.misbehave import floats as _floats  # every "p/q" as the nearest float

CASES = fixed_crosscheck_cases(6, 20261127)
SMALL = sorted(CASES, key=lambda c: c.tape.n)[:3]


def _documents():
    """(kind, arithmetic, document): valid documents the judge validates."""
    out = []
    for case in SMALL:
        hypotheses = case.instance.hypotheses
        for algorithm in ("passive", "robust_cal", "calruption"):
            trace = R.trace_to_json(getattr(R, algorithm)(hypotheses, case.tape, case.params))
            out.append(("trace", "exact", trace))
            out.append(("trace", "float64", _floats(trace)))
        vanilla = R.trace_to_json(R.robust_cal(hypotheses, case.tape, case.params, vanilla=True))
        out.append(("trace", "exact", vanilla))
        out.append(("tape", "exact", case.tape.to_json()))
        out.append(
            (
                "run-request",
                "exact",
                {
                    "format": "cral-run-request",
                    "version": 1,
                    "algorithm": "robust_cal",
                    "output": "/tmp/x/result.json",
                    "hypotheses": [list(h) for h in hypotheses],
                    "tape": case.tape.to_json(),
                    "params": R.serialization.to_jsonable(case.params),
                },
            )
        )
    out.append(
        (
            "describe",
            "exact",
            {
                "format": "cral-describe",
                "version": 1,
                "implements": ["passive", "robust_cal"],
                "arithmetic": "exact",
                "tape_formats": ["json", "npy"],
                "name": "x",
                "serve": True,
            },
        )
    )
    out.append(("catoni-root", "exact", {"format": "cral-catoni-root", "version": 1, "lo": "-1/3", "hi": "2/3"}))
    out.append(("catoni-root", "float64", {"format": "cral-catoni-root", "version": 1, "lo": -0.25, "hi": 0.5}))
    out.append(("error", "exact", {"format": "cral-error", "version": 1, "error": "ValueError", "message": "m"}))
    return out


DOCUMENTS = _documents()
REPLACEMENTS = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    1.0,
    1.5,
    -0.5,
    float("nan"),
    float("inf"),
    2**70,
    "",
    "x",
    "1/2",
    "-1/2",
    "1/0",
    "3",
    "0/1",
    "1.5",
    [],
    [0],
    ["1/2"],
    {},
    {"a": 1},
]


def _paths(node, here=()):
    yield here
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, here + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node[:6]):  # the first entries of a list stand for the rest
            yield from _paths(value, here + (index,))


def _mutated(document, rng: random.Random):
    document = copy.deepcopy(document)
    paths = list(_paths(document))
    path = rng.choice(paths[1:])
    parent = document
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    operation = rng.randrange(5)
    if operation == 0 and isinstance(parent, dict):
        del parent[last]
    elif operation == 1 and isinstance(parent, dict):
        parent[rng.choice(["extra", "output", "name", "serve", "version"])] = rng.choice(REPLACEMENTS)
    elif operation == 2 and isinstance(parent[last], list):
        parent[last] = [] if rng.random() < 0.5 else parent[last] + parent[last][:1]
    else:
        parent[last] = copy.deepcopy(rng.choice(REPLACEMENTS))
    return document


def _verdicts(kind, arithmetic, document):
    compiled = documents._fast_validator(kind, arithmetic)
    return compiled.is_valid(document), documents._validator(kind, arithmetic).is_valid(document)


def test_every_published_schema_the_judge_reads_compiles():
    for kind in ("trace", "tape", "run-request", "describe", "catoni-root", "epoch-result", "error"):
        for arithmetic in ("exact", "float64"):
            assert type(documents._fast_validator(kind, arithmetic)).__name__ == "CompiledSchema", (kind, arithmetic)


def _shape(node, here=()) -> frozenset:
    """Every path of `node` (list entries as "*") with the type found there."""
    out = {(here, type(node).__name__)}
    if isinstance(node, dict):
        for key, value in node.items():
            out |= _shape(value, here + (key,))
    elif isinstance(node, list):
        for value in node:
            out |= _shape(value, here + ("*",))
    return frozenset(out)


# the default run's mutations of a document: the first of its seeded stream; -m slow runs
# the whole stream (MUTATIONS) on every document
DEFAULT_MUTATIONS, MUTATIONS = 50, 100


def _params():
    """(document, mutations): the default run takes each document whose kind, arithmetic
    and shape (paths and types) no earlier one has, with the first DEFAULT_MUTATIONS of its
    stream; -m slow takes every document with all MUTATIONS. A document of an earlier one's
    shape meets the same schema branches and the same kinds of mutation as it does."""
    first: dict = {}
    out = []
    for index, (kind, arithmetic, document) in enumerate(DOCUMENTS):
        twin = first.setdefault((kind, arithmetic, _shape(document)), index)
        if twin == index:
            out.append(pytest.param(index, DEFAULT_MUTATIONS, id=str(index)))
        long_id = f"{index}-all" if twin == index else f"{index}-all-twin-of-{twin}"
        out.append(pytest.param(index, MUTATIONS, marks=[pytest.mark.slow], id=long_id))
    return out


@pytest.mark.parametrize("index, mutations", _params())
def test_the_compiled_check_agrees_with_jsonschema_on_valid_documents_and_their_mutations(index, mutations):
    kind, arithmetic, document = DOCUMENTS[index]
    assert _verdicts(kind, arithmetic, document) == (True, True)
    rng = random.Random(index)
    invalid = 0
    for _ in range(mutations):
        bad = _mutated(document, rng)
        compiled, reference = _verdicts(kind, arithmetic, bad)
        assert compiled == reference, (kind, arithmetic, json.dumps(bad)[:2000])
        invalid += not reference
    assert invalid > 20  # not vacuous: most mutations break the document


def test_unknown_keywords_are_left_to_jsonschema():
    assert compile_schema({"type": "string", "format": "date"}) is None
    assert compile_schema({"type": "object", "patternProperties": {"a": {}}}) is None
    assert compile_schema({"type": "integer", "minimum": 0}).is_valid(3)
    assert not compile_schema({"type": "integer"}).is_valid(1.0)  # a JSON integer is an int here
    assert not compile_schema({"type": "number"}).is_valid(float("nan"))
    assert not compile_schema({"const": 1}).is_valid(True)
