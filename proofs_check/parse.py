"""Strings to sympy: every identifier that is not one of FUNCTIONS is a real symbol.

sympy's own namespace would read `beta`, `gamma`, `E`, `N`, `S`, `I` as functions or
constants; the paper uses them as variables, so names are bound explicitly."""

from __future__ import annotations

import re
from functools import cache

import sympy as sp

FUNCTIONS = {
    "sqrt": sp.sqrt,
    "log": sp.log,
    "exp": sp.exp,
    "Abs": sp.Abs,
    "Max": sp.Max,
    "Min": sp.Min,
    "Eq": sp.Eq,
    "Ne": sp.Ne,
    "floor": sp.floor,
    "ceiling": sp.ceiling,
    "Rational": sp.Rational,
    "pi": sp.pi,
    "And": sp.And,
    "Or": sp.Or,
    "Not": sp.Not,
    "True": sp.true,
    "False": sp.false,
}
RELATIONS = (sp.Eq, sp.Le, sp.Lt, sp.Ge, sp.Gt, sp.Ne)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


@cache
def symbol(name: str, integer: bool = False) -> sp.Symbol:
    return sp.Symbol(name, integer=True) if integer else sp.Symbol(name, real=True)


def _namespace(text: str, integers: frozenset[str]) -> dict:
    names = {}
    for name in _IDENTIFIER.findall(text):
        if name not in FUNCTIONS:
            names[name] = symbol(name, name in integers)
    return {**FUNCTIONS, **names}


@cache
def expression(text: str, integers: frozenset[str] = frozenset()):
    try:
        value = sp.parse_expr(text, local_dict=_namespace(text, integers), evaluate=True)
    except Exception as exc:  # sympy raises many types; the message is what matters
        raise ValueError(f"expression: cannot parse {text!r}: {exc}") from None
    return value


def relation(text: str, integers: frozenset[str] = frozenset()):
    """A relation (Eq, <=, <, >=, >, or a boolean combination of them). A relation
    that sympy evaluates on parsing (to True/False) is returned as that constant."""
    value = expression(text, integers)
    if isinstance(value, bool):  # a relation sympy settled on parsing, e.g. after a definition
        value = sp.true if value else sp.false
    if value in (sp.true, sp.false) or isinstance(value, RELATIONS) or isinstance(value, (sp.And, sp.Or, sp.Not)):
        return value
    raise ValueError(f"relation: expected a relation such as 'a <= b' or 'Eq(a, b)', got {text!r}")


def free_names(texts, integers=frozenset()) -> list[str]:
    names = set()
    for text in texts:
        names |= {s.name for s in relation(text, integers).free_symbols}
    return sorted(names)
