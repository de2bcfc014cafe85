"""Messages about a document's values: where in the document (a JSON path) and what was
there (a compact, clipped rendering that is safe for any size or depth). Split from
reference/documents.py, which re-exports these names; the schema validator's errors are
worded here too."""

from __future__ import annotations

import json
import math
import re

CLIP = 200  # characters of a bad value shown in a message


class DocumentError(ValueError):
    """A document that cannot be read, parsed, validated or built: one line naming the
    source and, where there is one, the JSON path."""


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer (no fraction or exponent)",
    "number": "a finite number",
    "object": "an object",
    "array": "a list",
    "null": "null",
    "boolean": "true or false",
}


def json_path(parts) -> str:
    """`$.checkpoints[3].beta.lo` for the parts ("checkpoints", 3, "beta", "lo")."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _IDENTIFIER.fullmatch(part):
            out += f".{part}"
        else:
            out += f"[{_text(part)}]"
    return out


def _text(value: str) -> str:
    """A string as JSON, non-printable characters (and lone surrogates) escaped."""
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
        for c in json.dumps(value[: CLIP + 1], ensure_ascii=False)
    )


class _Full(Exception):
    pass


def shown(value, limit: int = CLIP) -> str:
    """A value as compact JSON for a message, cut after `limit` characters; safe for any
    size or depth (a huge document is not rendered in full to be clipped)."""
    parts, size = [], 0

    def emit(piece: str):
        nonlocal size
        parts.append(piece)
        size += len(piece)
        if size > limit:
            raise _Full

    def walk(v, depth: int):
        if depth > 16:
            emit("...")
        elif isinstance(v, dict):
            emit("{")
            for i, (k, x) in enumerate(v.items()):
                emit(", " if i else "")
                emit(_text(str(k)) + ": ")
                walk(x, depth + 1)
            emit("}")
        elif isinstance(v, (list, tuple)):
            emit("[")
            for i, x in enumerate(v):
                emit(", " if i else "")
                walk(x, depth + 1)
            emit("]")
        else:
            emit(_scalar(v))

    try:
        walk(value, 0)
    except _Full:
        pass
    text = "".join(parts)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _digits(v: int) -> int:
    """About how many decimal digits |v| has (exact but for rare off-by-ones)."""
    return math.floor(v.bit_length() * math.log10(2)) + 1


def _scalar(v) -> str:
    if v is None or isinstance(v, bool):
        return json.dumps(v)
    if isinstance(v, str):
        return _text(v)
    if isinstance(v, int):
        if v.bit_length() > 3 * CLIP:  # also keeps clear of the int-to-text digit limit
            return f"<an integer of {_digits(v)} digits>"
        return str(v)
    if isinstance(v, float):
        return repr(v)
    return _text(repr(v))


def _schema_message(source: str, error) -> str:
    parts, value = list(error.absolute_path), error.instance
    keyword, schema_ = error.validator, error.schema
    description = schema_.get("description")
    if keyword == "required":
        missing = next(k for k in error.validator_value if k not in value)
        what = f"missing required field {_text(missing)}"
    elif keyword == "additionalProperties":
        allowed = schema_.get("properties", {})
        extra = next(k for k in value if k not in allowed)
        parts.append(extra)
        value = value[extra]
        what = f"unknown field (allowed: {', '.join(allowed)})"
    elif keyword == "type":
        expected = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        what = "must be " + " or ".join(_TYPE_WORDS.get(t, t) for t in expected)
        if description:
            what += f": {description}"
    elif keyword == "pattern":
        what = f"must be {description}" if description else f"must match {error.validator_value}"
    elif keyword == "const":
        what = f"must be {shown(error.validator_value)}"
    elif keyword == "enum":
        what = "must be one of " + ", ".join(shown(v) for v in error.validator_value)
    elif keyword == "minimum":
        what = f"must be >= {error.validator_value}"
    elif keyword == "maximum":
        what = f"must be <= {error.validator_value}"
    elif keyword == "minItems":
        what = f"must have at least {error.validator_value} entr{'y' if error.validator_value == 1 else 'ies'}"
    elif keyword == "maxItems":
        what = f"must have at most {error.validator_value} entr{'y' if error.validator_value == 1 else 'ies'}"
    elif keyword == "minLength":
        what = "must not be empty"
    elif keyword == "uniqueItems":
        what = "must not repeat an entry"
    else:  # a keyword the schemas do not use today: jsonschema's own words
        what = " ".join(error.message.split())
    return f"{source}: at {json_path(parts)}: {what}, got {shown(value)}"
