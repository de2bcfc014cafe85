"""`python -m properties answer --impl MODULE [REQUEST | --serve]`: answer one run
request (docs/protocol.md) with a Python module's functions, or -- with `--serve` --
serve one request per line of stdin, one result per line of stdout, until stdin ends
(docs/protocol.md, "Serve mode"). Its describe declares `"serve": true`, so the judge
serves it that way; `--one-shot` leaves that out (one process per call).

This is the program side of the protocol for a Python implementation: with it,
`--candidate-cmd 'python -m properties answer --impl fast'` judges `fast` through the
command route, and anyone can read it as a worked example of the protocol. It runs in
the candidate's process (the judge started it), so it imports the module.

A ValueError raised by the module (bad input) becomes a `cral-error` document and exit
status 2; any other exception propagates (a traceback on stderr, exit status 1), which
the judge reports as the program exiting with 1. Serving, a request line that is not a
valid request gets a `cral-error` document and the next line is read; whatever the
module prints goes to stderr (stdout is the results' channel)."""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Mapping

from properties.core.contract import ARITHMETICS, PROTOCOL_ALGORITHMS, TRACE_MODES, decode_tape, function_of
from properties.core.plain import encode_result, to_plain
from reference import documents
from reference.calruption import EpochCounts, EpochState
from reference.exact import as_fraction
from reference.serialization import from_jsonable


def describe(module, path: str, *, serve: bool = True) -> dict:
    arithmetic = getattr(module, "ARITHMETIC", "exact")
    if arithmetic not in ARITHMETICS:
        raise ValueError(f"module {path!r} declares ARITHMETIC = {arithmetic!r}, not one of {ARITHMETICS}")
    implements = [a for a in PROTOCOL_ALGORITHMS if callable(getattr(module, function_of(a), None))]
    document = {
        "format": "cral-describe",
        "version": 1,
        "implements": implements,
        "arithmetic": arithmetic,
        "tape_formats": ["json", "npy"],
        "name": path,
    }
    if serve:
        document["serve"] = True
    return document


def _exact_or_as_is(value):
    """A request's rational text as a Fraction; anything else (a bad-input check's float,
    say) as it came, for the module to refuse."""
    if isinstance(value, str):
        try:
            return as_fraction(value, "value")
        except ValueError:
            return value
    return value


def answer(module, path: str, request: dict, *, serve: bool = True):
    """The result document for one validated request (`serve`: whether describe declares
    serve mode)."""
    algorithm = request["algorithm"]
    if algorithm == "describe":
        return describe(module, path, serve=serve)
    function = getattr(module, function_of(algorithm), None)
    if not callable(function):
        raise ValueError(f"request.algorithm: module {path!r} does not implement {algorithm!r}")
    if algorithm in TRACE_MODES:
        hypotheses = tuple(tuple(h) for h in request["hypotheses"])
        tape = documents.load_tape(request["tape"])
        params = documents.load_params(request["params"])
        extra = {"vanilla": algorithm == "robust_cal_vanilla"} if function_of(algorithm) == "robust_cal" else {}
        return encode_result(function_of(algorithm), function(hypotheses, tape, params, **extra))
    if algorithm == "calruption_epoch":
        hypotheses = tuple(tuple(h) for h in request["hypotheses"])
        state = from_jsonable(EpochState, request["state"], "request.state")
        counts = from_jsonable(EpochCounts, request["counts"], "request.counts")
        record, next_state = function(hypotheses, state, counts, documents.load_params(request["params"]))
        return {
            "format": "cral-epoch-result",
            "version": 1,
            "record": to_plain(record, "record"),
            "state": to_plain(next_state, "state"),
        }
    if algorithm == "catoni_root":
        values = request.get("values")
        values = [_exact_or_as_is(v) for v in values] if isinstance(values, list) else values
        arguments = [values, request.get("counts"), _exact_or_as_is(request.get("alpha"))]
        result = function(*arguments)
        # the object form {"lo", "hi", ...} goes as it came, fields the contract does not name
        # included: the judge ignores and reports them as on the import route (properties/core/representations.py)
        extra = to_plain(dict(result), "result") if isinstance(result, Mapping) else {}
        lo, hi = _pair(result)
        return {**extra, "format": "cral-catoni-root", "version": 1, "lo": to_plain(lo, "lo"), "hi": to_plain(hi, "hi")}
    if algorithm == "sample_tape":
        instance = documents.load_instance(request["instance"])
        adversary = documents.load_adversary(request["adversary"])
        plain = encode_result("sample_tape", function(instance, adversary, request["seed"]))
        return decode_tape("sample_tape", plain).to_json()  # u or u_words, as the module gave them
    if algorithm == "loss_difference_samples":
        hypotheses = tuple(tuple(h) for h in request["hypotheses"])
        results = []
        for i, call in enumerate(request["calls"]):
            q = tuple(as_fraction(v, f"request.calls[{i}].q") for v in call["q"])
            counts = from_jsonable(EpochCounts, call["counts"], f"request.calls[{i}].counts")
            values, multiplicities = function(hypotheses, call["h"], call["h2"], q, counts, call["length"])
            results.append(
                {
                    "values": [to_plain(v, "values") for v in values],
                    "counts": [to_plain(c, "counts") for c in multiplicities],
                }
            )
        return {"format": "cral-samples", "version": 1, "results": results}
    raise ValueError(f"request.algorithm: unknown algorithm {algorithm!r}")


def _pair(result):
    if isinstance(result, Mapping) and "lo" in result and "hi" in result:  # not its keys, unpacked
        return result["lo"], result["hi"]
    if hasattr(result, "lo") and hasattr(result, "hi"):
        return result.lo, result.hi
    lo, hi = result
    return lo, hi


def _error_document(error: ValueError) -> dict:
    kind = next(c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins")
    return {"format": "cral-error", "version": 1, "error": kind, "message": str(error)}


def _respond(module, impl_path: str, request: dict, serve: bool) -> tuple[dict, int]:
    try:
        return answer(module, impl_path, request, serve=serve), 0
    except ValueError as error:  # the module refused the input: the protocol's error document
        return _error_document(error), 2


def main(impl_path: str, request_path: str | None, *, serve: bool = True) -> int:
    module = importlib.import_module(impl_path)
    if request_path is None:
        data, source = sys.stdin.buffer.read(), "the request on stdin"
    else:
        with open(request_path, "rb") as handle:
            data = handle.read()
        source = request_path
    request = documents.parse_json(data, source)
    documents.validate(request, "run-request", source=source)
    output = request.get("output")
    result, code = _respond(module, impl_path, request, serve)
    text = json.dumps(result, separators=(",", ":"))
    if output:
        with open(output, "w") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    return code


def serve(impl_path: str) -> int:
    """Serve mode: one request per line of stdin, one result document per line of stdout
    (flushed at once), until stdin ends. Blank lines are skipped; a line that is not a
    valid request, or one the module refuses, gets a `cral-error` document."""
    results = os.fdopen(os.dup(sys.stdout.fileno()), "wb")  # the results' channel
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # what the module (or a library) prints goes to stderr
    sys.stdout = sys.stderr
    module = importlib.import_module(impl_path)
    for number, line in enumerate(sys.stdin.buffer, 1):
        if not line.strip():
            continue
        source = f"request line {number}"
        try:
            request = documents.parse_json(line, source)
            documents.validate(request, "run-request", source=source)
        except ValueError as error:
            result = _error_document(error)
        else:
            result, _ = _respond(module, impl_path, request, True)
        results.write(json.dumps(result, separators=(",", ":")).encode() + b"\n")
        results.flush()
    return 0


def command_line(argv: list[str]) -> int:
    """`answer --impl MODULE [REQUEST | --serve] [--one-shot]`; bad input is one line on
    stderr and exit 2 (the judge reports the program as exiting with 2)."""
    import argparse

    class _Parser(argparse.ArgumentParser):
        def error(self, message):
            raise ValueError(message)

    parser = _Parser(
        prog="python -m properties answer",
        add_help=True,
        description="answer one run request (docs/protocol.md) with a Python module",
    )
    parser.add_argument("--impl", required=True, help="import path of the module that answers")
    parser.add_argument("request", nargs="?", help="the request file (default: read the request from stdin)")
    parser.add_argument(
        "--serve",
        action="store_true",
        help="serve requests, one JSON line each way, until stdin ends (docs/protocol.md, Serve mode)",
    )
    parser.add_argument(
        "--one-shot",
        action="store_true",
        help="describe does not declare serve mode: the judge runs one process per call",
    )
    parser.add_argument(
        "--backend",
        help="fast's array backend, NAME[:DEVICE] (numpy, array-api-strict, torch, cupy; "
        "fast/backends.py): sets $CRAL_FAST_BACKEND for the module",
    )
    try:
        args = parser.parse_args(argv)
        if args.backend is not None:
            from fast.backends import ENVIRONMENT, get_backend

            get_backend(args.backend)  # a bad or missing backend: one line, exit 2
            os.environ[ENVIRONMENT] = args.backend
        if args.serve and args.request is not None:
            raise ValueError("--serve reads its requests from stdin: give no request file")
        if args.serve and args.one_shot:
            raise ValueError("--serve and --one-shot exclude each other")
        if args.serve:
            return serve(args.impl)
        return main(args.impl, args.request, serve=not args.one_shot)
    except (ValueError, OSError, ImportError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


__all__ = ["answer", "command_line", "describe", "main", "serve"]
