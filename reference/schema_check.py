"""A schema compiled into plain Python closures that answer one question: is this
document valid? -- the same answer as jsonschema's Draft 2020-12 validator with the
project's type checker (reference/documents.py: a JSON integer is an int, not 1.0; a
number is finite), ~20x faster on a trace. It takes an inlined schema (no $ref) and
only the keywords the published schemas use; a schema with any other keyword is not
compiled (`compile_schema` returns None) and jsonschema decides. Where it says
"invalid", reference/documents.py asks jsonschema for the message, so it never names
what is wrong itself; tests/reference/test_schema_check.py holds it to jsonschema's verdicts on
valid documents and on mutations of them."""

from __future__ import annotations

import math
import re


def equal(one, two) -> bool:
    """JSON Schema's equality (const, enum, uniqueItems): as ==, except that a boolean
    never equals a number (True == 1 in Python, not in JSON), at any depth. The semantics
    of jsonschema's own helper, which lives in its private module `jsonschema._utils`."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, (list, tuple)) and isinstance(two, (list, tuple)):
        return len(one) == len(two) and all(equal(a, b) for a, b in zip(one, two))
    if isinstance(one, dict) and isinstance(two, dict):
        return len(one) == len(two) and all(key in two and equal(value, two[key]) for key, value in one.items())
    if isinstance(one, bool) or isinstance(two, bool):
        return isinstance(one, bool) and isinstance(two, bool) and one == two
    return one == two


ANNOTATIONS = frozenset({"description", "title", "$comment", "default", "examples", "$schema", "$id"})


class _Unsupported(Exception):
    pass


def _is_integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


_MATCHED_MAX = 4096  # strings remembered per pattern

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": _is_integer,
    "number": _is_number,
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _all(checks):
    # closures and a plain loop rather than all() over a generator: a trace's validation is
    # a few hundred thousand of these calls, and the generator's frames were most of its time
    checks = tuple(checks)
    if not checks:
        return lambda value: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda value: first(value) and second(value)

    def every(value):
        for check in checks:
            if not check(value):
                return False
        return True

    return every


def _compile(schema):
    if schema is True:
        return lambda value: True
    if schema is False:
        return lambda value: False
    if not isinstance(schema, dict):
        raise _Unsupported(f"a schema that is a {type(schema).__name__}")
    shaped = _shaped(schema)
    if shaped is not None:
        return shaped
    checks = []
    for key, argument in schema.items():
        if key in ANNOTATIONS or key in ("then", "else", "additionalProperties"):
            continue
        checks.append(_keyword(key, argument, schema))
    if "additionalProperties" in schema and "properties" not in schema:
        checks.append(_additional(schema["additionalProperties"], ()))
    return _all(checks)


def _types(schema: dict) -> tuple:
    argument = schema.get("type", ())
    return (argument,) if isinstance(argument, str) else tuple(argument)


def _shaped(schema: dict):
    """One closure for the shapes a trace is made of (most of its values), where the
    keyword-by-keyword closures would make several calls per value: a rational (a string
    of a pattern, maybe null), an integer with a minimum, an array of one item schema, an
    object of known properties and no others (maybe null). The same answers as the
    keywords' closures; None for any other schema."""
    keys = set(schema) - ANNOTATIONS
    types = _types(schema)
    nullable = "null" in types
    if keys == {"type", "pattern"} and set(types) - {"null"} == {"string"}:
        return _rational_check(schema["pattern"], nullable)
    if keys == {"type", "minimum"} and types == ("integer",) and _is_number(schema["minimum"]):
        bound = schema["minimum"]
        return lambda value: (type(value) is int or _is_integer(value)) and value >= bound
    if keys == {"type", "items"} and types == ("array",) and isinstance(schema["items"], (dict, bool)):
        item = _compile(schema["items"])
        known = getattr(item, "known", None)  # the strings (and null) the item's pattern was seen to take

        def array(value):
            if not isinstance(value, list):
                return False
            if known is not None:
                try:
                    if known.issuperset(value):
                        return True
                except TypeError:  # an object or array among them: one by one
                    pass
            for entry in value:
                if not item(entry):
                    return False
            return True

        return array
    if (
        keys == {"type", "properties", "required", "additionalProperties"}
        and set(types) - {"null"} == {"object"}
        and schema["additionalProperties"] is False
        and isinstance(schema["properties"], dict)
    ):
        compiled = {name: _compile(sub) for name, sub in schema["properties"].items()}
        required = tuple(schema["required"])
        get = compiled.get

        def record(value):
            if not isinstance(value, dict):
                return nullable and value is None
            for name in required:
                if name not in value:
                    return False
            for name, entry in value.items():
                check = get(name)
                if check is None or not check(entry):  # a property not named: additionalProperties false
                    return False
            return True

        return record
    return None


def _rational_check(argument: str, nullable: bool):
    """{"type": "string" (or ["string", "null"]), "pattern": argument} as one closure,
    with the strings seen to match (and null, where it is allowed) in its `known` set."""
    search = re.compile(argument).search
    known = {None} if nullable else set()

    def rational(value):
        try:
            if value in known:
                return True
        except TypeError:  # an unhashable value (an object, an array): not a string
            return False
        if not isinstance(value, str) or search(value) is None:
            return False
        if len(known) < _MATCHED_MAX:
            known.add(value)
        return True

    rational.known = known
    return rational


def _keyword(key: str, argument, schema: dict):
    if key == "type":
        names = [argument] if isinstance(argument, str) else list(argument)
        if not all(name in _TYPES for name in names):
            raise _Unsupported(f"type {argument!r}")
        tests = tuple(_TYPES[name] for name in names)
        if len(tests) == 1:
            return tests[0]
        if len(tests) == 2:
            one, two = tests
            return lambda value: one(value) or two(value)
        return lambda value: any(test(value) for test in tests)
    if key == "properties":
        compiled = {name: _compile(sub) for name, sub in argument.items()}
        extra = _additional(schema["additionalProperties"], compiled) if "additionalProperties" in schema else None

        def properties(value):
            if not isinstance(value, dict):
                return True
            for name, check in compiled.items():
                if name in value and not check(value[name]):
                    return False
            return extra is None or extra(value)

        return properties
    if key == "required":
        names = tuple(argument)
        return lambda value: not isinstance(value, dict) or all(name in value for name in names)
    if key == "const":
        return lambda value: equal(value, argument)
    if key == "enum":
        options = tuple(argument)
        return lambda value: any(equal(value, option) for option in options)
    if key == "items":
        if not isinstance(argument, (dict, bool)):
            raise _Unsupported("items that is not one schema")
        item = _compile(argument)

        def items(value):
            if isinstance(value, list):
                for entry in value:
                    if not item(entry):
                        return False
            return True

        return items
    if key in ("minimum", "maximum"):
        bound = argument
        if key == "minimum":
            return lambda value: not _is_number(value) or value >= bound
        return lambda value: not _is_number(value) or value <= bound
    if key == "pattern":
        search = re.compile(argument).search
        matched = set()  # strings seen to match: a trace repeats its rationals (0, 1, 1/2, ...)

        def pattern(value):
            if not isinstance(value, str) or value in matched:
                return True
            if search(value) is None:
                return False
            if len(matched) < _MATCHED_MAX:
                matched.add(value)
            return True

        return pattern
    if key == "minLength":
        return lambda value: not isinstance(value, str) or len(value) >= argument
    if key == "minItems":
        return lambda value: not isinstance(value, list) or len(value) >= argument
    if key == "maxItems":
        return lambda value: not isinstance(value, list) or len(value) <= argument
    if key == "uniqueItems":
        if not argument:
            return lambda value: True
        return lambda value: not isinstance(value, list) or _unique(value)
    if key == "propertyNames":
        name_check = _compile(argument)
        return lambda value: not isinstance(value, dict) or all(name_check(name) for name in value)
    if key == "allOf":
        return _all(_compile(sub) for sub in argument)
    if key == "anyOf":
        options = tuple(_compile(sub) for sub in argument)
        return lambda value: any(option(value) for option in options)
    if key == "if":
        condition = _compile(argument)
        then = _compile(schema.get("then", True))
        otherwise = _compile(schema.get("else", True))
        return lambda value: then(value) if condition(value) else otherwise(value)
    raise _Unsupported(f"keyword {key!r}")


def _additional(argument, known):
    extra = _compile(argument)
    names = frozenset(known)
    if argument is False:
        return lambda value: not isinstance(value, dict) or all(name in names for name in value)
    return lambda value: not isinstance(value, dict) or all(extra(v) for name, v in value.items() if name not in names)


def _unique(values: list) -> bool:
    return all(not equal(values[i], values[j]) for i in range(len(values)) for j in range(i + 1, len(values)))


class CompiledSchema:
    """`is_valid(document)`, as jsonschema's validator of the same schema answers it."""

    def __init__(self, check):
        self.is_valid = check


def compile_schema(schema) -> CompiledSchema | None:
    """The compiled check of an inlined schema, or None when it uses a keyword (or a form
    of one) not compiled here."""
    try:
        return CompiledSchema(_compile(schema))
    except _Unsupported:
        return None


__all__ = ["CompiledSchema", "compile_schema"]
