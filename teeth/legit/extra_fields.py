"""A legitimate representation: the reference's results as JSON dicts carrying fields
the contract does not name (a note on the trace, on each checkpoint or epoch, on the
epoch record). The judge ignores unknown fields and says which it ignored
(properties/core/representations.py); the values it judges are the reference's, so every check must pass it
(tests/properties/checks/test_representations.py)."""

from __future__ import annotations

import reference
from reference import loss_difference_samples, sample_tape  # noqa: F401 (public names, unchanged)
from reference.serialization import to_jsonable
from teeth.legit.wrapping import traces

ARITHMETIC = "exact"
NOTE = "x_note"


def _noted(trace) -> dict:
    document = reference.trace_to_json(trace)
    document[NOTE] = "written by teeth/legit/extra_fields.py"
    for part in document.get("checkpoints", []) + document.get("epochs", []):
        part[NOTE] = part.get("t", part.get("l"))
    return document


passive, robust_cal, calruption = traces(reference, _noted)


def calruption_epoch(hypotheses, state, counts, params):
    record, state = reference.calruption_epoch(hypotheses, state, counts, params)
    return {**to_jsonable(record), NOTE: "epoch"}, to_jsonable(state)


def catoni_root(values, counts, alpha):
    enclosure = reference.catoni_root(values, counts, alpha)
    return {"lo": enclosure.lo, "hi": enclosure.hi, NOTE: "certified"}
