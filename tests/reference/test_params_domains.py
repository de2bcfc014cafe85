"""docs/spec.md S8: one domain per field of `params`, the same in the spec's table, the
schema and the reference's decoder. Every value the table lists as refused is refused by
the decoder with a ValueError naming the field; the schema refuses every one whose rule is
a sign (δ < 1 and argument > 1 are not expressible as a string pattern); the boundary
values inside the domains are accepted by both."""

from __future__ import annotations

import json
import re

import pytest

from reference import documents
from reference.params import Params
from reference.serialization import from_jsonable
from tests.support import REPO_ROOT

ROOT = REPO_ROOT
PARAMS = json.loads((ROOT / "docs" / "examples" / "calruption.request.json").read_text())["params"]

# (field, value, what the message must name, whether a schema pattern can hold it)
REFUSED = [
    ("delta", "0", "delta", True),
    ("delta", "1", "delta", False),
    ("delta", "3/2", "delta", False),
    ("beta_scale", "0", "beta_scale", True),
    ("beta_scale", "-1", "beta_scale", True),
    ("beta2", "-1/2", "beta2", True),
    ("beta1", {"value": "0"}, "beta1", True),
    ("beta1", {"value": "-1"}, "beta1", True),
    ("beta3", {"value": "0"}, "beta3", True),
    ("beta1", {"coefficient": "0", "argument": "3"}, "beta1", True),
    ("beta3", {"coefficient": "2", "argument": "1"}, "beta3", False),
    ("beta3", {"coefficient": "2", "argument": "1/2"}, "beta3", False),
    ("n", 0, "n", True),
    ("num_hypotheses", 0, "num_hypotheses", True),
]
ACCEPTED = [
    ("beta2", "0"),
    ("delta", "999/1000"),
    ("beta_scale", "1/1000000"),
    ("beta3", {"coefficient": "1/1000", "argument": "1001/1000"}),
    ("beta1", {"value": "1/1000"}),
]


def _with(field, value) -> dict:
    return {**PARAMS, field: value}


def _schema_accepts(params: dict) -> bool:
    try:
        documents.validate(params, "params")
    except documents.DocumentError:
        return False
    return True


@pytest.mark.parametrize(("field", "value", "named", "pattern"), REFUSED, ids=lambda v: json.dumps(v))
def test_a_value_outside_its_domain_is_refused(field, value, named, pattern):
    params = _with(field, value)
    with pytest.raises(ValueError, match=named):
        from_jsonable(Params, params, "params")
    assert _schema_accepts(params) is not pattern, (field, value, "the schema holds exactly the sign rules")


@pytest.mark.parametrize(("field", "value"), ACCEPTED, ids=lambda v: json.dumps(v))
def test_a_value_inside_its_domain_is_accepted(field, value):
    params = _with(field, value)
    assert _schema_accepts(params), (field, value)
    assert isinstance(from_jsonable(Params, params, "params"), Params)


def test_the_spec_table_lists_every_field_once():
    text = (ROOT / "docs" / "spec.md").read_text()
    section = text[text.index('<a id="S8"></a>') : text.index('<a id="S9"></a>')]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    fields = [name for row in rows for name in re.findall(r"`([a-z_0-9]+)`", row.split("|")[1])]
    assert sorted(set(fields)) == sorted(PARAMS.keys() - {"regime"}), rows
