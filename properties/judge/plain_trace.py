"""The one-pass reading of an exact program's trace written as the reference writes it
(docs/protocol.md section 6): the parse, the schema's compiled check and the compiled
decoder, with no intermediate document; anything else is left to the general reading of
properties/judge/command.py (CommandCandidate._read), which judges and names it."""

from __future__ import annotations

import collections
import dataclasses
import gc
import types
import typing

from properties.core.contract import Decoded
from properties.judge.either_forms import read_either_forms
from reference import documents
from reference.trace import TRACE_TYPES, trace_from_json


def _nesting(tp) -> int:
    """How many levels of JSON objects and arrays a value of the type `tp` spans."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return max(_nesting(option) for option in typing.get_args(tp))
    if origin is tuple:
        return 1 + max((_nesting(a) for a in typing.get_args(tp) if a is not Ellipsis), default=0)
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        return 1 + max(_nesting(hints[f.name]) for f in dataclasses.fields(tp))
    return 0


_TRACE_NESTING = max(_nesting(tp) for tp in TRACE_TYPES.values())
_ONE_PASS = _TRACE_NESTING <= documents.MAX_DEPTH  # else parse_json's depth check must run (_plain_trace)


def plain_trace(data: bytes) -> tuple[Decoded, collections.Counter] | None:
    """An exact program's trace written as the reference writes it, read in one pass over
    its values after the parse: held to its schema, docs/protocol.md section 6's *either*
    forms read (read_either_forms, with how often), decoded; None for anything else, for
    the general reading (CommandCandidate._read) to judge and name. What this takes, the
    general reading takes too, to the same trace: the compiled decoder takes no integer
    for a rational and no unknown field, so representations.accept_document would leave
    the document as it is, and a document it takes nests no deeper than the trace's types
    (_TRACE_NESTING), so parse_json's depth check passes."""
    if not _ONE_PASS:
        return None
    # the parse and the decoding make tens of thousands of containers and no cycle: the
    # cyclic collector would only walk them (and, as they live through the call, the
    # whole heap now and then), so it waits until the trace is read
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _read_plain_trace(data)
    finally:
        if collecting:
            gc.enable()


def _read_plain_trace(data: bytes) -> tuple[Decoded, collections.Counter] | None:
    document = documents.parse_plain(data)
    if not (
        isinstance(document, dict) and document.get("format") == "cral-trace" and documents.conforms(document, "trace")
    ):
        return None
    document, read = read_either_forms(document, None, "exact")  # exact: the request's params are not read
    try:
        trace = trace_from_json(document, plain_only=True)
    except (ValueError, TypeError, AttributeError):
        return None
    if trace is None:
        return None
    return Decoded(document, trace), read
