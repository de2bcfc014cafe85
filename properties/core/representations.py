"""Representations are not verdicts: what a candidate returns is read
for its meaning, by one rule for both routes (a Python module's plain data, a program's
JSON result document, properties/judge/command.py), before the contract's decoders
(properties/core/contract.py) and the published schemas see it.

Where the contract wants a rational (a Fraction field of the reference's dataclasses):
  * an integer (Python int; a numpy integer arrives as one, properties/core/plain.py) is that
    rational -- it is exact, whatever the candidate's arithmetic;
  * a float is the exact rational value of that double (Fraction(float) is lossless),
    but only from a candidate that declares a floating-point ARITHMETIC; from an exact
    candidate a float stays a float, and the decoder refuses it (an exact candidate must
    be exact: that is meaning, not spelling);
  * a bool is not a number: it is left for the decoder, which refuses it by name;
    NaN and infinities never get here (plain data and JSON have no such numbers).
A field of a result object the contract does not name is ignored, and its path is
reported ("trace.x_note", "trace.epochs[].x_note": list indices written []); a required
field that is missing still fails, and where an ignored field looks like it (difflib)
the message says so: a misspelling is not an extra.

Everything else is left as it is, for the decoders and the schemas to judge."""

from __future__ import annotations

import dataclasses
import difflib
import math
import types
import typing
from fractions import Fraction
from functools import cache

from properties.core.contract import TRACE_MODES
from reference.calruption import EpochState
from reference.certified import Enclosure
from reference.trace import TRACE_TYPES, CALruptionEpoch

TRACE_HEADER_FIELDS = frozenset({"format", "version"})  # a trace's fields beyond its dataclass's
DOCUMENT_HEADER_FIELDS = frozenset({"format", "version"})  # a result document's envelope
RESULT_ALGORITHMS = TRACE_MODES + ("calruption_epoch", "catoni_root")  # what accept_document reads


class MissingField(ValueError):
    """A required field is missing while an unknown one that looks like it was ignored."""


def floats_accepted(arithmetic: str) -> bool:
    """Whether a candidate of this declared arithmetic may write floats for rationals."""
    return arithmetic != "exact"


def _rational(data, floats: bool):
    if isinstance(data, bool):
        return data  # not a number: the decoder names it
    if isinstance(data, int):
        return f"{data}/1"
    if floats and isinstance(data, float) and math.isfinite(data):
        value = Fraction(data)
        return f"{value.numerator}/{value.denominator}"
    return data


@cache
def _fields(tp) -> dict:
    hints = typing.get_type_hints(tp)
    return {f.name: hints[f.name] for f in dataclasses.fields(tp)}


def _union_option(options, data):
    """Of a union of dataclasses (Params' ScaledLog | Rational constants), the one whose
    fields are all present in `data`; None where no single one fits."""
    fitting = [
        o for o in options if dataclasses.is_dataclass(o) and isinstance(data, dict) and set(_fields(o)) <= set(data)
    ]
    return fitting[0] if len(fitting) == 1 else None


def read(tp, data, path: str, ignored: set, floats: bool, header=frozenset()):
    """`data` (plain data meant as `tp`) with its rationals written "p/q" where they are
    integers (or floats, `floats`), and the fields of its objects that `tp` does not name
    dropped, their paths added to `ignored`. `header`: extra field names allowed at the
    top (a trace's format and version). The reading is compiled once per type
    (`_reader`): a result document is tens of thousands of values."""
    if header and dataclasses.is_dataclass(tp) and isinstance(data, dict):
        return _record_reader(tp, frozenset(header))(data, path, ignored, floats)
    return _reader(tp)(data, path, ignored, floats)


def _as_is(data, path, ignored, floats):
    return data


def _rational_reader(data, path, ignored, floats):
    return _rational(data, floats)


@cache
def _reader(tp):
    """The reading of `read` for the type `tp`, as a function of (data, path, ignored,
    floats); None is None for every type."""
    if tp is Fraction:
        return _rational_reader
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = [o for o in typing.get_args(tp) if o is not type(None)]
        if len(options) == 1:
            only = _reader(options[0])
            return lambda data, path, ignored, floats: None if data is None else only(data, path, ignored, floats)

        def one_of(data, path, ignored, floats):
            option = None if data is None else _union_option(options, data)
            return data if option is None else _reader(option)(data, path, ignored, floats)

        return one_of
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            element = _reader(args[0])
            if element is _rational_reader:  # the common case, a list of rationals: one comprehension

                def rationals(data, path, ignored, floats):
                    if not isinstance(data, list):
                        return data
                    return [v if type(v) is str or v is None else _rational(v, floats) for v in data]

                return rationals

            def sequence(data, path, ignored, floats):
                if not isinstance(data, list):
                    return data
                inner = f"{path}[]"
                return [element(v, inner, ignored, floats) for v in data]

            return sequence
        elements = [_reader(a) for a in args]

        def fixed(data, path, ignored, floats):
            if not isinstance(data, list):
                return data
            inner = f"{path}[]"
            return [e(v, inner, ignored, floats) for e, v in zip(elements, data)] + data[len(elements) :]

        return fixed
    if dataclasses.is_dataclass(tp):
        return _record_reader(tp, frozenset())
    return _as_is


@cache
def _record_reader(tp, header: frozenset):
    fields = _fields(tp)
    readers = {name: _reader(field) for name, field in fields.items()}
    allowed = set(fields) | header

    def record(data, path, ignored, floats):
        if data is None:
            return None
        if not isinstance(data, dict):
            return data
        if not data.keys() <= allowed:
            unknown = [k for k in data if k not in allowed]
            missing = [name for name in fields if name not in data]
            close = {name: difflib.get_close_matches(name, unknown, n=1) for name in missing}
            for name, like in close.items():
                if like:
                    raise MissingField(
                        f"{path} is missing field {name!r} (it has the unknown field {like[0]!r}: misspelt?)"
                    )
            ignored.update(f"{path}.{k}" for k in unknown)
        return {
            k: (readers[k](v, f"{path}.{k}", ignored, floats) if v is not None else None) if k in readers else v
            for k, v in data.items()
            if k in allowed
        }

    return record


def _pair(data, floats: bool, ignored: set, path: str):
    """catoni_root's (lo, hi): a pair, or an object with fields lo and hi."""
    if isinstance(data, dict):
        return read(Enclosure, data, path, ignored, floats)
    if isinstance(data, list):
        return [_rational(v, floats) for v in data]
    return data


def accept(function: str, plain, arithmetic: str) -> tuple[object, set]:
    """What a Python candidate's `function` returned (plain data), read by this module's
    rule: (the plain data the decoders take, the paths of the ignored fields). Raises
    MissingField (a ValueError) for a required field misspelt."""
    ignored: set = set()
    floats = floats_accepted(arithmetic)
    if function in TRACE_MODES:
        if isinstance(plain, dict) and isinstance(plain.get("algorithm"), str) and plain["algorithm"] in TRACE_TYPES:
            plain = read(TRACE_TYPES[plain["algorithm"]], plain, "trace", ignored, floats, TRACE_HEADER_FIELDS)
    elif function == "calruption_epoch":
        if isinstance(plain, list) and len(plain) == 2:
            plain = [
                read(CALruptionEpoch, plain[0], "record", ignored, floats),
                read(EpochState, plain[1], "state", ignored, floats),
            ]
    elif function == "catoni_root":
        plain = _pair(plain, floats, ignored, "catoni_root")
    elif function == "loss_difference_samples":
        if isinstance(plain, list) and len(plain) == 2 and isinstance(plain[0], list):
            plain = [[_rational(v, floats) for v in plain[0]], plain[1]]
    return plain, ignored


def accept_document(algorithm: str, document: dict, arithmetic: str) -> tuple[dict, set]:
    """A program's result document (docs/protocol.md) read by the same rule, before it
    is validated against its schema: the document's envelope (format, version) is known,
    the rest is read as the contract's dataclasses."""
    ignored: set = set()
    floats = floats_accepted(arithmetic)
    if algorithm in TRACE_MODES:
        if isinstance(document.get("algorithm"), str) and document["algorithm"] in TRACE_TYPES:
            document = read(TRACE_TYPES[document["algorithm"]], document, "trace", ignored, floats, TRACE_HEADER_FIELDS)
    elif algorithm == "calruption_epoch":
        document = _envelope(document, ("record", "state"), "epoch_result", ignored)
        for field, tp in (("record", CALruptionEpoch), ("state", EpochState)):
            if field in document:
                document[field] = read(tp, document[field], field, ignored, floats)
    elif algorithm == "catoni_root":
        document = _envelope(document, ("lo", "hi"), "catoni_root", ignored)
        document.update({k: _rational(document[k], floats) for k in ("lo", "hi") if k in document})
    return document, ignored


def _envelope(document: dict, fields: tuple, path: str, ignored: set) -> dict:
    known = DOCUMENT_HEADER_FIELDS | set(fields)
    unknown = [k for k in document if k not in known]
    for name in fields:
        like = difflib.get_close_matches(name, unknown, n=1) if name not in document else []
        if like:
            raise MissingField(f"{path} is missing field {name!r} (it has the unknown field {like[0]!r}: misspelt?)")
    ignored.update(f"{path}.{k}" for k in unknown)
    return {k: v for k, v in document.items() if k in known}


def ignored_line(counts) -> str | None:
    """The report's line on ignored fields ("ignored unknown fields: trace.x_note (12
    calls), ..."), or None when none was ignored."""
    if not counts:
        return None
    parts = [f"{path} ({n} call{'s' if n != 1 else ''})" for path, n in sorted(counts.items())]
    return "ignored unknown fields: " + ", ".join(parts)


__all__ = ["MissingField", "accept", "accept_document", "floats_accepted", "ignored_line", "read"]
