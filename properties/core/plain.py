"""Plain data: what crosses the boundary between a candidate and the judge.

Whatever a candidate's function returns is turned into plain data (JSON's types: dict
with str keys, list, str, int, finite float, bool, None) *on the candidate's side*, by
`encode_result`, before the judge looks at it. Fractions become "p/q" strings, tuples
lists, dataclasses objects with one key per field (the reference's, or the candidate's
own with the same fields), numpy scalars and arrays Python numbers and lists. The judge
only ever decodes plain data (properties/core/contract.py), so no object the candidate built
-- or could still change -- reaches a check.

This module is imported by the worker process that hosts a candidate (properties/
worker.py), so it depends on nothing but the standard library."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

MAX_DEPTH = 64
# the algorithms whose result is a trace: a trace that is not already a JSON dict gets the
# trace header that reference.trace_to_json writes (format "cral-trace", version 1)
TRACE_FUNCTIONS = ("passive", "robust_cal", "calruption")
TRACE_HEADER = {"format": "cral-trace", "version": 1}


class NotPlain(ValueError):
    """The value cannot be written as plain data; the message names where."""


def to_plain(value, path: str = "result", depth: int = 0):
    if depth > MAX_DEPTH:
        raise NotPlain(f"{path} is nested more than {MAX_DEPTH} levels deep")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotPlain(f"{path} is {value!r}, not a finite number")
        return value
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if hasattr(value, "dtype") and callable(getattr(value, "tolist", None)):  # numpy scalars and arrays
        return to_plain(value.tolist(), path, depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: to_plain(getattr(value, f.name), f"{path}.{f.name}", depth + 1) for f in dataclasses.fields(value)
        }
    if isinstance(value, Mapping):
        plain = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotPlain(f"{path} has a key {key!r} that is not a string")
            plain[key] = to_plain(item, f"{path}.{key}", depth + 1)
        return plain
    if isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        return [to_plain(item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value)]
    raise NotPlain(f"{path} is a {type(value).__name__}, not plain data")


def encode_result(function: str, value):
    """The plain form of what `function` returned (a trace gets its header unless the
    candidate already returned the JSON dict of reference.trace_to_json)."""
    plain = to_plain(value)
    if function in TRACE_FUNCTIONS and not isinstance(value, Mapping) and isinstance(plain, dict):
        plain = {**TRACE_HEADER, **plain}
    return plain
