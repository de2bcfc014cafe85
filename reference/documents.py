"""Reading the project's JSON documents strictly: parse, validate against the published
schemas (reference/schemas/v1/, docs/protocol.md), build the reference's objects.

Every way a document can be wrong ends in one `DocumentError` (a ValueError) whose
message is one line naming the source and, where there is one, the JSON path:

    tape file run/tape.json: at $.u[3]: must lie in [0, 1), got 1

`parse_json` is stricter than `json.loads`: UTF-8 only, exactly one document, no
duplicate object keys, no NaN/Infinity (nor numbers that overflow to them), no integer
too long for Python's int conversion limit, no nesting beyond MAX_DEPTH, no lone
surrogate in a string. `validate` holds a parsed document to its kind's schema, with
one difference from a bare JSON Schema validator: an integer must be a JSON integer
(1.0 is refused where JSON Schema's "integer" would take it). The loaders then build the
reference's objects, whose own rules (nu sums to 1, a coin lies in [0, 1), lo <= hi ...)
come out as DocumentErrors naming the path too."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import sys
import types
import typing
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path

import referencing
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from jsonschema.validators import extend

from .adversary import Adversary
from .calruption import EpochState
from .certified import Enclosure
from .document_messages import CLIP, DocumentError, _digits, _schema_message, json_path, shown  # noqa: F401 (public here too)
from .exact import fraction_text
from .instance import Instance
from .params import Params
from .schema_check import compile_schema
from .serialization import from_jsonable
from .tape import Tape
from .tape_npy import NPY_FILES, npy_header, points_array, read_tape_npy
from .trace import TRACE_TYPES, CALruptionEpoch, trace_from_json

SCHEMA_VERSION = 1
KINDS = (
    "instance",
    "adversary",
    "params",
    "tape",
    "tape-npy",
    "run-request",
    "trace",
    "epoch-result",
    "catoni-root",
    "samples",
    "describe",
    "error",
)
RESULT_KINDS = ("trace", "epoch-result", "catoni-root", "samples")  # the kinds with a float variant
ARITHMETICS = ("exact", "float64", "float32")
MAX_DEPTH = 64  # the deepest real document (a CALruption trace's W entries) has depth 6


# -- the schemas -----------------------------------------------------------------------
def schema_dir() -> Path:
    """The folder of the installed schemas (package data, so also in a wheel)."""
    return Path(__file__).resolve().parent / "schemas" / f"v{SCHEMA_VERSION}"


def _file_name(kind: str, arithmetic: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {list(KINDS)}, got {kind!r}")
    if arithmetic not in ARITHMETICS:
        raise ValueError(f"arithmetic must be one of {list(ARITHMETICS)}, got {arithmetic!r}")
    # only results have a float form (float32 and float64 both write JSON numbers, so they
    # share it); inputs (and describe, error) are the same for every arithmetic
    if arithmetic == "exact" or kind not in RESULT_KINDS:
        return f"{kind}.schema.json"
    return f"{kind}.float64.schema.json"


@lru_cache(maxsize=1)
def _schemas() -> dict[str, dict]:
    """file name -> schema, every file of the folder."""
    return {path.name: json.loads(path.read_text(encoding="utf-8")) for path in sorted(schema_dir().glob("*.json"))}


@lru_cache(maxsize=1)
def _registry() -> referencing.Registry:
    """The schemas by $id, so that `$ref`s between files resolve without fetching."""
    return referencing.Registry().with_resources(
        (contents["$id"], referencing.Resource.from_contents(contents)) for contents in _schemas().values()
    )


def schema(kind: str, arithmetic: str = "exact") -> dict:
    """The JSON Schema of a document kind (a copy). arithmetic "float64" selects the
    variant of a result kind (trace, epoch-result, catoni-root) in which a rational may
    also be a JSON number; the other kinds have one form for both."""
    return json.loads(json.dumps(_schemas()[_file_name(kind, arithmetic)]))


def _is_integer(checker, value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(checker, value) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


# JSON integers only (1.0 is not an integer here), and only finite numbers
_Validator = extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine_many({"integer": _is_integer, "number": _is_number}),
)


@cache
def _validator(kind: str, arithmetic: str):
    return _Validator(_schemas()[_file_name(kind, arithmetic)], registry=_registry())


class _Cycle(Exception):
    pass


def _inlined(node, here: str, stack: tuple = ()):
    """The schema with every $ref replaced by its target (`{"allOf": [target], ...}` where
    the $ref has siblings: the same meaning in draft 2020-12). Looking $refs up through
    the registry is most of jsonschema's time on a trace; the inlined schema is used only
    to decide validity, the original one names what is wrong."""
    if isinstance(node, list):
        return [_inlined(v, here, stack) for v in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in ("$id", "$defs", "$schema"):
            continue
        if key == "$ref":
            continue
        out[key] = (
            {name: _inlined(sub, here, stack) for name, sub in value.items()}
            if key == "properties"
            else _inlined(value, here, stack)
        )
    if "$ref" not in node:
        return out
    file, _, pointer = node["$ref"].partition("#")
    file = file or here
    if (file, pointer) in stack:
        raise _Cycle(node["$ref"])
    target = _schemas()[file]
    for part in pointer.strip("/").split("/") if pointer.strip("/") else ():
        target = target[part]
    resolved = _inlined(target, file, stack + ((file, pointer),))
    return {"allOf": [resolved], **out} if out else resolved


@cache
def _fast_validator(kind: str, arithmetic: str):
    """A validator of the inlined schema (None if the schema refers to itself)."""
    file = _file_name(kind, arithmetic)
    try:
        schema = _inlined(_schemas()[file], file)
    except _Cycle:
        return None
    return compile_schema(schema) or _Validator(schema)  # plain Python closures where the keywords allow


@lru_cache(maxsize=1)
def _coin_pattern() -> re.Pattern:
    """The schema's own pattern of a coin (definitions: nonnegative-rational)."""
    return re.compile(_schemas()["definitions.schema.json"]["$defs"]["nonnegative-rational"]["pattern"])


def _tape_arrays_valid(tape) -> bool:
    """Whether an inline tape's x, y and u hold only what the schema allows in them
    (definitions: count, label, nonnegative-rational): the same rules, checked by plain
    Python at ~0.1 µs per round instead of jsonschema's ~30 µs."""
    if not isinstance(tape, dict) or tape.get("format") != "cral-tape":
        return False
    x, y, u = tape.get("x"), tape.get("y"), tape.get("u")
    if not (isinstance(x, list) and isinstance(y, list) and isinstance(u, list) and x and y and u):
        return False
    match = _coin_pattern().match
    return (
        all(type(v) is int and v >= 0 for v in x)
        and all(type(v) is int and 0 <= v <= 1 for v in y)
        and all(type(v) is str and match(v) for v in u)
    )


def _without_long_tape(document, kind: str):
    """The document with a long inline tape's arrays cut to their first entry, when every
    entry is of the kind the schema allows (so the verdict is the same); else as it is, for
    jsonschema to find and name the bad entry."""
    if kind == "tape":
        tape = document
    elif kind == "run-request" and isinstance(document, dict):
        tape = document.get("tape")
    else:
        return document
    arrays = [tape.get(k) for k in ("x", "y", "u")] if isinstance(tape, dict) else []
    if not arrays or not all(isinstance(a, list) and len(a) > 64 for a in arrays):
        return document
    if not _tape_arrays_valid(tape):
        return document
    short = {**tape, **{k: tape[k][:1] for k in ("x", "y", "u")}}
    return short if kind == "tape" else {**document, "tape": short}


def validate(document, kind: str, *, arithmetic: str = "exact", source: str = "document"):
    """Raise DocumentError (one line: source, JSON path, what is wrong, the value) unless
    `document` (parsed JSON) is a valid document of `kind`; returns it otherwise."""
    _file_name(kind, arithmetic)
    document_to_check = _without_long_tape(document, kind)
    fast = _fast_validator(kind, arithmetic)
    try:
        if fast is not None and fast.is_valid(document_to_check):
            return document
        error = best_match(_validator(kind, arithmetic).iter_errors(document_to_check))
    except RecursionError:  # a document not from parse_json, nested beyond reason
        raise DocumentError(f"{source}: nested too deeply to validate") from None
    except ValueError:  # jsonschema's repr of an int beyond Python's int-to-text limit
        parts = _find(document, lambda v: isinstance(v, int) and _digits(v) > _int_limit())
        where = "" if parts is None else f"at {json_path(parts)}: "
        raise DocumentError(
            f"{source}: {where}an integer too long to check, got {shown(_resolve(document, parts or ()))}"
        ) from None
    if error is not None:
        raise DocumentError(_schema_message(source, error))
    return document


def conforms(document, kind: str, *, arithmetic: str = "exact") -> bool:
    """Whether `document` is valid against the schema of `kind`, as `validate` decides it
    (the inlined schema's check, reference/schema_check.py), without a message: False also
    where only validate can tell (it then names what is wrong)."""
    fast = _fast_validator(kind, arithmetic)
    try:
        return fast is not None and fast.is_valid(document)
    except (RecursionError, ValueError):
        return False


def schema_errors(document, kind: str, *, arithmetic: str = "exact", source: str = "document") -> list[str]:
    """Every way `document` breaks the schema of `kind`, one line each (JSON path, what is
    wrong, the value), in document order; [] for a valid document (the conformance kit,
    properties/judge/conformance.py, lists them all where `validate` stops at the first)."""
    _file_name(kind, arithmetic)
    errors = sorted(_validator(kind, arithmetic).iter_errors(document), key=lambda e: [str(p) for p in e.absolute_path])
    return [_schema_message(source, error) for error in errors]


# -- strict parsing --------------------------------------------------------------------
class _Bad:
    """A parsed value that is not allowed, kept in place so its path can be named."""

    def __init__(self, what: str):
        self.what = what


def _int_limit() -> int:
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    return limit or 1_000_000


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def parse_json(data: bytes | str, source: str = "document"):
    """Exactly one JSON document from UTF-8 bytes (or text), or DocumentError."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        data = bytes(data)
        if data.startswith(b"\xef\xbb\xbf"):
            raise DocumentError(f"{source}: starts with a byte order mark (write UTF-8 without one)")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DocumentError(f"{source}: not UTF-8: byte {data[error.start]:#04x} at offset {error.start}") from None
    elif isinstance(data, str):
        text = data
    else:
        raise TypeError(f"parse_json takes bytes or str, got {type(data).__name__}")

    duplicates: dict[int, str] = {}
    flagged = False

    def pairs(items):
        nonlocal flagged
        obj = {}
        for key, value in items:
            if key in obj and id(obj) not in duplicates:
                duplicates[id(obj)] = key
                flagged = True
            obj[key] = value
        return obj

    def bad(what: str) -> _Bad:
        nonlocal flagged
        flagged = True
        return _Bad(what)

    limit = _int_limit()

    def number_int(text_: str):
        digits = len(text_.lstrip("-"))
        return bad(f"an integer of {digits} digits (at most {limit} are read)") if digits > limit else int(text_)

    def number_float(text_: str):
        value = float(text_)
        return value if math.isfinite(value) else bad(f"{text_[:40]} overflows a float64")

    try:
        document = json.loads(
            text,
            object_pairs_hook=pairs,
            parse_constant=lambda name: bad(f"{name} (not JSON)"),
            parse_int=number_int,
            parse_float=number_float,
        )
    except json.JSONDecodeError as error:
        if error.msg == "Extra data":
            raise DocumentError(
                f"{source}: more than one JSON document (more data at line {error.lineno} column {error.colno})"
            ) from None
        early = error.pos >= len(text.rstrip()) or error.msg.startswith("Unterminated string")
        ends = " (the text ends early)" if early else ""
        raise DocumentError(
            f"{source}: not valid JSON{ends}: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        raise DocumentError(f"{source}: not valid JSON here: nested more than {MAX_DEPTH} levels deep") from None
    surrogates = bool(_SURROGATE_ESCAPE.search(text))
    if not surrogates and not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # text given as str, holding a lone surrogate
            surrogates = True
    if not flagged and not surrogates and _within_depth(document):
        return document  # nothing else _first_problem looks for can be there
    problem = _first_problem(document, duplicates if flagged else {}, surrogates)
    if problem is not None:
        parts, what, value = problem
        raise DocumentError(f"{source}: at {json_path(parts)}: {what}" + ("" if value is None else f", got {value}"))
    return document


class _NotPlainJSON(Exception):
    """Something parse_json refuses or names (or might): parse_plain gives up."""


def _unique_pairs(items):
    obj = dict(items)
    if len(obj) != len(items):
        raise _NotPlainJSON
    return obj


def _refused(text_: str):
    raise _NotPlainJSON


def _finite(text_: str) -> float:
    value = float(text_)
    if not math.isfinite(value):
        raise _NotPlainJSON
    return value


def parse_plain(data: bytes):
    """The document parse_json returns for UTF-8 `data`, when it holds nothing that
    parse_json refuses; None where it might hold something (parse_json names it). One
    difference: the depth is not checked, so a caller takes the document only once it has
    bounded its depth itself (a trace decoded as the reference's types is at most 6 deep).
    The C parser's own integer reading stands in for parse_json's digit limit (the same
    limit: int() refuses what parse_json calls too long), and a plain dict per object for
    its duplicate-key bookkeeping."""
    if not isinstance(data, bytes) or data.startswith(b"\xef\xbb\xbf"):
        return None
    if not (sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0):
        return None  # no limit in int(): parse_json's own limit decides
    try:
        text = data.decode("utf-8")  # strict: a lone surrogate's bytes are refused here already
        document = json.loads(text, object_pairs_hook=_unique_pairs, parse_constant=_refused, parse_float=_finite)
    except (ValueError, RecursionError, _NotPlainJSON):  # UnicodeDecodeError, JSONDecodeError: ValueErrors
        return None
    if _SURROGATE_ESCAPE.search(text):
        return None
    return document


def _within_depth(document) -> bool:
    """Whether no value lies deeper than MAX_DEPTH: level by level over the containers
    only, without the paths _first_problem builds for its messages."""
    level = [document] if isinstance(document, (dict, list)) else []
    for _ in range(MAX_DEPTH):
        if not level:
            return True
        children = []
        for container in level:
            values = container.values() if isinstance(container, dict) else container
            children += [value for value in values if isinstance(value, (dict, list))]
        level = children
    return not any(level)  # a container at MAX_DEPTH may hold nothing


def _first_problem(document, duplicates: dict, surrogates: bool):
    """(path, what, shown value) of the first problem in document order, or None: too
    deep, a duplicate key, a refused number, a lone surrogate."""
    stack = [((), document)]
    while stack:
        parts, value = stack.pop()
        if len(parts) > MAX_DEPTH:
            return parts, f"nested more than {MAX_DEPTH} levels deep", None
        if isinstance(value, dict):
            if id(value) in duplicates:
                key = duplicates[id(value)]
                return (*parts, key), "duplicate key", None
            for key in reversed(list(value)):
                if surrogates and _has_surrogate(key):
                    return (*parts, key), "the key holds a lone surrogate (not Unicode text)", None
                stack.append(((*parts, key), value[key]))
        elif isinstance(value, list):
            stack.extend(((*parts, i), item) for i, item in reversed(list(enumerate(value))))
        elif isinstance(value, _Bad):
            return parts, f"{value.what} is not allowed", None
        elif surrogates and isinstance(value, str) and _has_surrogate(value):
            return parts, "the string holds a lone surrogate (not Unicode text)", shown(value)
    return None


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def read_document(path, kind: str, arithmetic: str = "exact", *, source: str | None = None):
    """Read, parse and validate the document in the file `path`."""
    source = source or f"{kind} file {os.fspath(path)}"
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise DocumentError(f"{source}: cannot read: {error.strerror or error}") from None
    return validate(parse_json(data, source), kind, arithmetic=arithmetic, source=source)


# -- building the reference's objects --------------------------------------------------
_FIELD = re.compile(
    r"(?P<field>[A-Za-z_][A-Za-z0-9_]*(?:\[[0-9]+\]|\.[A-Za-z_][A-Za-z0-9_]*)*)\s+(?P<rest>\S.*)", re.DOTALL
)
_PART = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[([0-9]+)\]")


def _resolve(document, parts):
    for part in parts:
        if isinstance(part, int) and isinstance(document, list) and part < len(document):
            document = document[part]
        elif isinstance(part, str) and isinstance(document, dict) and part in document:
            document = document[part]
        else:
            raise LookupError(part)
    return document


def _find(document, predicate):
    """The path of the first value (document order) for which predicate holds, or None."""
    stack = [((), document)]
    while stack:
        parts, value = stack.pop()
        if predicate(value):
            return parts
        if isinstance(value, dict):
            stack.extend(((*parts, k), value[k]) for k in reversed(list(value)))
        elif isinstance(value, list):
            stack.extend(((*parts, i), v) for i, v in reversed(list(enumerate(value))))
    return None


def _too_long(value) -> bool:
    return isinstance(value, str) and max(map(len, value.lstrip("-").split("/"))) > _int_limit()


def _upside_down(value) -> bool:
    if not (isinstance(value, dict) and set(value) == {"lo", "hi"}):
        return False
    try:
        return Fraction(value["lo"]) > Fraction(value["hi"])
    except (TypeError, ValueError):
        return False


def _built_error(source: str, error: Exception, document) -> DocumentError:
    """The reference's ValueError about a validated document, with the JSON path of the
    field it names ("eta[0] must lie in [0, 1], got 3/2" -> at $.eta[0]) when that field
    is in the document (tried as named, then without its first part: "tape.u[3]")."""
    message = " ".join(str(error).split())
    if "digits" in message and "limit" in message:  # Python's int-to-text limit, from a rational
        parts = _find(document, _too_long)
        if parts is not None:
            return DocumentError(
                f"{source}: at {json_path(parts)}: a rational with more than {_int_limit()} "
                f"digits is beyond this reader, got {shown(_resolve(document, parts))}"
            )
    if message.startswith("enclosure lo"):
        parts = _find(document, _upside_down)
        if parts is not None:
            return DocumentError(
                f"{source}: at {json_path(parts)}: lo must be <= hi, got {shown(_resolve(document, parts))}"
            )
    match = _FIELD.fullmatch(message)
    if match:
        parts = [name if name else int(index) for name, index in _PART.findall(match["field"])]
        for attempt in (parts, parts[1:]):
            try:
                _resolve(document, attempt)
            except LookupError:
                continue
            return DocumentError(f"{source}: at {json_path(attempt)}: {match['rest']}")
    return DocumentError(f"{source}: {message}")


def _prepare(document, kind: str, arithmetic: str, source: str | None):
    """(validated document, source, folder of relative paths): `document` is a path
    (str or os.PathLike) or an already parsed document."""
    if isinstance(document, (str, os.PathLike)):
        source = source or f"{kind} file {os.fspath(document)}"
        return read_document(document, kind, arithmetic, source=source), source, Path(document).resolve().parent
    source = source or "document"
    return validate(document, kind, arithmetic=arithmetic, source=source), source, Path.cwd()


def _build(source: str, document, make):
    try:
        return make()
    except (ValueError, TypeError, ArithmeticError) as error:
        raise _built_error(source, error, document) from None


def load_instance(document, *, source: str | None = None) -> Instance:
    """A reference.Instance from an instance document (or the path of one)."""
    document, source, _ = _prepare(document, "instance", "exact", source)
    return _build(source, document, lambda: Instance.from_json(document))


def load_adversary(document, *, source: str | None = None) -> Adversary:
    """A reference.adversary.Adversary from an adversary document (or the path of one)."""
    document, source, _ = _prepare(document, "adversary", "exact", source)
    return _build(source, document, lambda: Adversary.from_json(document))


def load_params(document, *, source: str | None = None) -> Params:
    """A reference.Params from a params document (or the path of one)."""
    document, source, _ = _prepare(document, "params", "exact", source)
    return _build(source, document, lambda: from_jsonable(Params, document, "params"))


def load_tape(document, *, source: str | None = None) -> Tape:
    """A reference.Tape from a tape document of either form (or the path of one):
    cral-tape (inline) or cral-tape-npy (three .npy files; a relative path is taken
    from the document's folder, or the working directory for a parsed document)."""
    if isinstance(document, (str, os.PathLike)):
        source = source or f"tape file {os.fspath(document)}"
        path = document
        try:
            data = Path(path).read_bytes()
        except OSError as error:
            raise DocumentError(f"{source}: cannot read: {error.strerror or error}") from None
        document, folder = parse_json(data, source), Path(path).resolve().parent
    else:
        source, folder = source or "document", Path.cwd()
    npy = isinstance(document, dict) and document.get("format") == "cral-tape-npy"
    validate(document, "tape-npy" if npy else "tape", source=source)
    if npy:
        return read_tape_npy(document, source, folder)
    return _plain_inline_tape(document) or _build(source, document, lambda: Tape.from_json(document))


def _plain_inline_tape(document: dict) -> Tape | None:
    """Tape.from_json(document) for a valid inline tape every value of which is as the
    sampler writes it (integers, "p/q" of decimal digits), built without Tape's checks of
    each entry (~4x faster), which it makes itself on plain ints; None where anything is
    otherwise, for Tape.from_json to judge and name."""
    x, y, u = document.get("x"), document.get("y"), document.get("u")
    seed, generator = document.get("seed"), document.get("generator")
    if not (type(x) is list and type(y) is list and type(u) is list and x and len(x) == len(y) == len(u)):
        return None
    if set(document) - {"format", "version", "generator", "seed", "x", "y", "u"}:
        return None
    if seed is not None and not (type(seed) is int and 0 <= seed < 1 << 64):
        return None
    if not (generator is None or type(generator) is str):
        return None
    if set(map(type, x)) != {int} or min(x) < 0 or set(map(type, y)) != {int} or not set(y) <= {0, 1}:
        return None
    coins = []
    for text in u:
        if type(text) is not str:
            return None
        numerator, slash, denominator = text.partition("/")
        if not (numerator.isascii() and numerator.isdigit() and denominator.isascii()):
            return None
        if slash and not denominator.isdigit():
            return None
        try:
            p, q = int(numerator), int(denominator) if slash else 1
        except ValueError:  # beyond Python's int-to-text limit
            return None
        if not 0 <= p < q:  # u_t in [0, 1), q > 0
            return None
        coins.append(Fraction(p, q))
    return Tape._trusted(tuple(x), tuple(y), tuple(coins), seed, generator)


def write_tape_npy(tape: Tape, directory) -> dict:
    """Write the tape as x.npy, y.npy and u_words.npy (format 1.0, C order, <i8 / |u1 /
    <u8) into `directory` (created if missing) and return its cral-tape-npy document
    (absolute paths). ValueError if a coin is not a multiple of 2^-64 (the binary form
    holds u_t = u_words[t] / 2^64 only)."""
    import numpy as np

    if not isinstance(tape, Tape):
        raise ValueError(f"tape must be a reference.Tape, got {type(tape).__name__}")
    words = tape.coin_words()
    try:  # fromiter refuses a None word and an x beyond int64 in C, without a Python pass first
        arrays = {
            "x": points_array(tape.x, tape.n),
            "y": np.frombuffer(bytes(tape.y), dtype=NPY_FILES["y"][1]),
            "u_words": np.fromiter(words, dtype=NPY_FILES["u_words"][1], count=tape.n),
        }
    except (TypeError, OverflowError):
        if None in words:
            t = words.index(None)
            raise ValueError(
                f"tape.u[{t}] = {tape.u[t]} is not a multiple of 2^-64, so the npy form cannot hold it"
            ) from None
        raise ValueError(f"tape.x holds {max(tape.x)}, beyond int64") from None
    folder = Path(directory).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    document = {"format": "cral-tape-npy", "version": 1, "n": tape.n}
    for field, (name, dtype) in NPY_FILES.items():
        with open(folder / name, "wb") as handle:  # the bytes np.save writes, its header made once per shape
            handle.write(npy_header(dtype, tape.n))
            handle.write(arrays[field].data)
        document[field] = str(folder / name)
    document.update(seed=tape.seed, generator=tape.generator)
    return validate(document, "tape-npy", source="write_tape_npy")


# -- results ---------------------------------------------------------------------------
def numbers_as_text(tp, data):
    """A float64 result with its numbers in rational places written "p/q" (the exact value
    of the double), so that the reference's exact decoders read it; driven by the
    dataclasses' type hints, as reference.serialization.from_jsonable is."""
    if data is None:
        return None
    if tp is Fraction:
        if isinstance(data, (int, float)) and not isinstance(data, bool):
            return fraction_text(Fraction(data))
        return data
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = [o for o in typing.get_args(tp) if o is not type(None)]
        for option in options:  # ScaledLog | Rational: the one whose fields are there
            if len(options) == 1 or (
                dataclasses.is_dataclass(option)
                and isinstance(data, dict)
                and set(data) == {f.name for f in dataclasses.fields(option)}
            ):
                return numbers_as_text(option, data)
        return data
    if origin is tuple and isinstance(data, list):
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return [numbers_as_text(args[0], v) for v in data]
        return [numbers_as_text(a, v) for a, v in zip(args, data)] + data[len(args) :]
    if dataclasses.is_dataclass(tp) and isinstance(data, dict):
        hints = _hints(tp)
        return {k: numbers_as_text(hints[k], v) if k in hints else v for k, v in data.items()}
    return data


@cache
def _hints(tp) -> dict:
    return typing.get_type_hints(tp)


def load_trace(document, *, arithmetic: str = "exact", source: str | None = None):
    """The reference's trace (PassiveTrace, RobustCALTrace or CALruptionTrace) from a
    cral-trace document (or the path of one). With a float arithmetic a number where a
    rational belongs is read as the exact value of that double."""
    document, source, _ = _prepare(document, "trace", arithmetic, source)
    if arithmetic != "exact":
        body = numbers_as_text(TRACE_TYPES[document["algorithm"]], document)
    else:
        body = document
    return _build(source, document, lambda: trace_from_json(body))


def load_epoch_result(document, *, arithmetic: str = "exact", source: str | None = None):
    """(CALruptionEpoch, EpochState) from a cral-epoch-result document (or its path)."""
    document, source, _ = _prepare(document, "epoch-result", arithmetic, source)
    record, state = document["record"], document["state"]
    if arithmetic != "exact":
        record, state = numbers_as_text(CALruptionEpoch, record), numbers_as_text(EpochState, state)
    return _build(
        source,
        document,
        lambda: (from_jsonable(CALruptionEpoch, record, "record"), from_jsonable(EpochState, state, "state")),
    )


def load_catoni_root(document, *, arithmetic: str = "exact", source: str | None = None) -> Enclosure:
    """The Enclosure of a cral-catoni-root document (or its path)."""
    document, source, _ = _prepare(document, "catoni-root", arithmetic, source)
    body = {"lo": document["lo"], "hi": document["hi"]}
    if arithmetic != "exact":
        body = numbers_as_text(Enclosure, body)
    return _build(source, document, lambda: from_jsonable(Enclosure, body, "catoni_root"))


__all__ = [
    "ARITHMETICS",
    "CLIP",
    "conforms",
    "DocumentError",
    "KINDS",
    "MAX_DEPTH",
    "NPY_FILES",
    "RESULT_KINDS",
    "SCHEMA_VERSION",
    "json_path",
    "load_adversary",
    "load_catoni_root",
    "load_epoch_result",
    "load_instance",
    "load_params",
    "load_tape",
    "load_trace",
    "numbers_as_text",
    "parse_json",
    "parse_plain",
    "read_document",
    "schema",
    "schema_dir",
    "schema_errors",
    "shown",
    "validate",
    "write_tape_npy",
]
