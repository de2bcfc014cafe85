"""Lossless JSON for the plain-data records of the project (traces, params).

Fractions are written "p/q"; tuples become lists; dataclasses become objects with
one key per field. Decoding is driven by the dataclass type hints and refuses
anything that does not fit, naming the path of the offending field."""

from __future__ import annotations

import dataclasses
import functools
import re
import types
import typing
from fractions import Fraction

from .exact import as_fraction, fraction_text


def to_jsonable(value):
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, (tuple, list)):
        return [to_jsonable(v) for v in value]
    if dataclasses.is_dataclass(value):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def from_jsonable(tp, data, path: str):
    """`data` decoded as `tp`, refusing anything that does not fit with a ValueError naming
    the path of the offending field. Decoders are compiled once per type (`_decoder`); a
    value the compiled path does not see as plainly valid is handed to `_decode`, the
    general decoder, which accepts it or names the field (the same errors either way)."""
    return _decoder(tp)(data, path)


_PLAIN_RATIONAL = re.compile(r"-?[0-9]+(?:/[1-9][0-9]*)?")


@functools.cache
def _decoder(tp):
    origin = typing.get_origin(tp)

    def general(data, path):
        return _decode(tp, data, path)

    if tp is Fraction:

        def fraction(data, path):
            if type(data) is str and _PLAIN_RATIONAL.fullmatch(data):
                numerator, _, denominator = data.partition("/")
                return Fraction(int(numerator), int(denominator)) if denominator else Fraction(int(numerator))
            return _decode(tp, data, path)

        return fraction
    if tp in (int, str):

        def exactly(data, path):
            return data if type(data) is tp else _decode(tp, data, path)

        return exactly
    if origin in (typing.Union, types.UnionType):
        options = [option for option in typing.get_args(tp) if option is not type(None)]
        if len(options) != 1:
            return general
        only = _decoder(options[0])
        nullable = len(typing.get_args(tp)) == 2

        def union(data, path):
            return None if data is None and nullable else only(data, path)

        return union
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            element = _decoder(args[0])

            def sequence(data, path):
                if type(data) is not list:
                    return _decode(tp, data, path)
                return tuple([element(v, f"{path}[{i}]") for i, v in enumerate(data)])

            return sequence
        return general
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        fields = [(f.name, _decoder(hints[f.name])) for f in dataclasses.fields(tp)]
        names = {name for name, _ in fields}

        def record(data, path):
            if type(data) is not dict or data.keys() != names:
                return _decode(tp, data, path)
            return tp(**{name: decode(data[name], f"{path}.{name}") for name, decode in fields})

        return record
    return general


def _has_fields_of(tp, data) -> bool:
    """Whether `data` is an object whose keys are exactly the fields of the dataclass `tp`."""
    return (
        dataclasses.is_dataclass(tp)
        and isinstance(data, dict)
        and set(data) == {f.name for f in dataclasses.fields(tp)}
    )


def _decode(tp, data, path: str):
    origin = typing.get_origin(tp)
    if tp is type(None):
        if data is not None:
            raise ValueError(f"{path} must be null, got {data!r}")
        return None
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(tp)
        if data is None and type(None) in options:
            return None
        errors, shaped = [], []
        for option in options:
            if option is type(None):
                continue
            try:
                return _decode(option, data, path)
            except ValueError as error:
                errors.append(str(error))
                if _has_fields_of(option, data):
                    # a constructor's check names its own field ("argument must be ..."): put it under path
                    text = str(error)
                    field = text.split(" ", 1)[0]
                    shaped.append(f"{path}.{text}" if field in data else text)
        if len(shaped) == 1:  # the object has exactly one option's fields: that option's error names the value
            raise ValueError(shaped[0])
        raise ValueError(errors[0] if len(errors) == 1 else f"{path} fits none of {options}: {data!r}")
    if tp is bool:
        if not isinstance(data, bool):
            raise ValueError(f"{path} must be true or false, got {data!r}")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise ValueError(f"{path} must be an integer, got {data!r}")
        return data
    if tp is str:
        if not isinstance(data, str):
            raise ValueError(f"{path} must be a string, got {data!r}")
        return data
    if tp is Fraction:
        # an integer is an exact rational, however written (a representation is not a
        # verdict); a bool is not a number, and a float is not exact (a float candidate's
        # floats are read as their exact values before they get here, properties/core/representations.py)
        if isinstance(data, bool):
            raise ValueError(f"{path} must be a rational, got the bool {data!r} (not a number)")
        if isinstance(data, int):
            return Fraction(data)
        if isinstance(data, float):
            raise ValueError(
                f"{path} must be an exact rational ('p/q' or an integer), got the float {data!r} "
                "(from a candidate declaring exact arithmetic)"
            )
        if not isinstance(data, str):
            raise ValueError(f"{path} must be a rational written 'p/q', got {data!r}")
        return as_fraction(data, path)
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(data, list):
            raise ValueError(f"{path} must be a list, got {type(data).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v, f"{path}[{i}]") for i, v in enumerate(data))
        if len(data) != len(args):
            raise ValueError(f"{path} must have {len(args)} entries, got {len(data)}")
        return tuple(_decode(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, data)))
    if dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise ValueError(f"{path} must be an object, got {type(data).__name__}")
        hints = typing.get_type_hints(tp)
        names = [f.name for f in dataclasses.fields(tp)]
        unknown = set(data) - set(names)
        if unknown:
            raise ValueError(f"{path} has unknown field {sorted(unknown)[0]!r}")
        missing = [name for name in names if name not in data]
        if missing:
            raise ValueError(f"{path} is missing field {missing[0]!r}")
        return tp(**{name: _decode(hints[name], data[name], f"{path}.{name}") for name in names})
    raise TypeError(f"no JSON decoding for {tp!r} at {path}")
