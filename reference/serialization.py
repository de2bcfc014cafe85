"""Lossless JSON for the plain-data records of the project (traces, params).

Fractions are written "p/q"; tuples become lists; dataclasses become objects with
one key per field. Decoding is driven by the dataclass type hints and refuses
anything that does not fit, naming the path of the offending field."""

from __future__ import annotations

import dataclasses
import functools
import inspect
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
    the path of the offending field. A decoder compiled once per type (`_plain_decoder`)
    takes the documents a correct writer writes, building no path; where it meets
    anything else it gives up, and `_decode`, the general decoder, decodes the whole value
    again: it accepts what fits or names the field, so the result and the errors are the
    general decoder's either way."""
    try:
        return _plain_decoder(tp)(data)
    except _NotPlain:
        return _decode(tp, data, path)


def decode_plain(tp, data):
    """`data` decoded as `tp` by the compiled decoder alone (see from_jsonable), or None
    where it gives up -- on anything but what a correct writer writes; a value beyond
    Python's int-to-text limit still raises its ValueError."""
    try:
        return _plain_decoder(tp)(data)
    except _NotPlain:
        return None


class _NotPlain(Exception):
    """A value the plain decoder does not take: the general decoder decides."""


_PLAIN_RATIONAL = re.compile(r"-?[0-9]+(?:/[1-9][0-9]*)?")
# the rationals a document repeats (0, 1, 1/2, a threshold's value), decoded once: a
# Fraction is immutable, so one object may stand in every place it is read
_KNOWN_RATIONALS_MAX = 4096


def _give_up(data):
    raise _NotPlain


@functools.cache
def _plain_decoder(tp):
    origin = typing.get_origin(tp)
    if tp is Fraction:
        known: dict[str, Fraction] = {}

        def fraction(data):
            if type(data) is not str:
                raise _NotPlain
            value = known.get(data)
            if value is not None:
                return value
            if not _PLAIN_RATIONAL.fullmatch(data):
                raise _NotPlain
            numerator, _, denominator = data.partition("/")
            value = Fraction(int(numerator), int(denominator)) if denominator else Fraction(int(numerator))
            if len(known) < _KNOWN_RATIONALS_MAX:
                known[data] = value
            return value

        fraction.known = known  # for the sequences of rationals below: one look-up per entry, no call
        return fraction
    if tp in (int, str, bool):

        def exactly(data):
            if type(data) is not tp:
                raise _NotPlain
            return data

        return exactly
    if origin in (typing.Union, types.UnionType):
        options = [option for option in typing.get_args(tp) if option is not type(None)]
        nullable = len(options) < len(typing.get_args(tp))
        if len(options) == 1:
            only = _plain_decoder(options[0])

            def optional(data):
                return None if data is None and nullable else only(data)

            return optional
        if not all(dataclasses.is_dataclass(option) for option in options):
            return _give_up
        # records: only the option whose fields are the object's keys can fit (the general
        # decoder refuses an unknown or a missing field)
        by_fields = {}
        for option in options:
            by_fields.setdefault(frozenset(f.name for f in dataclasses.fields(option)), []).append(option)
        decoders = {keys: _plain_decoder(found[0]) for keys, found in by_fields.items() if len(found) == 1}

        def one_of_records(data):
            if data is None and nullable:
                return None
            if type(data) is not dict:
                raise _NotPlain
            decode = decoders.get(frozenset(data))
            if decode is None:
                raise _NotPlain
            return decode(data)

        return one_of_records
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            element = _plain_decoder(args[0])
            rational = _plain_decoder(Fraction)
            if args[0] is Fraction or args[0] == Fraction | None:
                known, nullable = rational.known, args[0] is not Fraction

                def rationals(data):
                    if type(data) is not list:
                        raise _NotPlain
                    try:  # each entry a rational decoded before (or null, where allowed)
                        if nullable:
                            return tuple([None if v is None else known[v] for v in data])
                        return tuple([known[v] for v in data])
                    except (KeyError, TypeError):  # one not seen yet, or not a string: one by one
                        return tuple([element(v) for v in data])

                return rationals
            if args[0] is int:

                def integers(data):
                    if type(data) is not list:
                        raise _NotPlain
                    if data and set(map(type, data)) != {int}:
                        raise _NotPlain
                    return tuple(data)

                return integers

            def sequence(data):
                if type(data) is not list:
                    raise _NotPlain
                return tuple([element(v) for v in data])

            return sequence
        elements = [_plain_decoder(arg) for arg in args]

        def fixed(data):
            if type(data) is not list or len(data) != len(elements):
                raise _NotPlain
            return tuple([decode(v) for decode, v in zip(elements, data)])

        return fixed
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        fields = [(f.name, _plain_decoder(hints[f.name])) for f in dataclasses.fields(tp)]
        names_in_order = [name for name, _ in fields]
        names = set(names_in_order)
        # the fields in their order, where the constructor takes them so by position
        positional = list(inspect.signature(tp).parameters) == names_in_order and all(
            f.init and not getattr(f, "kw_only", False) for f in dataclasses.fields(tp)
        )

        def record(data):
            if type(data) is not dict or data.keys() != names:
                raise _NotPlain
            values = [decode(data[name]) for name, decode in fields]
            try:
                return tp(*values) if positional else tp(**dict(zip(names_in_order, values)))
            except (ValueError, TypeError):  # its own check: the general decoder says where
                raise _NotPlain from None

        return record
    return _give_up


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
