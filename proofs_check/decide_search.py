"""A Hypothesis search for a counterexample over bounded rationals.

Each variable is drawn within the numeric bounds the premises give it (x >= c, x < c,
...), from small denominators and the edges of its range, since that is where
inequalities of this kind break. Every candidate is checked exactly (exact.py); the
search can refute a claim, never prove one. derandomize=True: the same examples on
every run, so the committed report is stable."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample, Unsatisfiable

from .exact import is_counterexample
from .parse import free_names, relation

MAX_EXAMPLES = 300
DEFAULT_RANGE = (Fraction(-64), Fraction(64))
MAX_DENOMINATOR = 64


def _bounds(premises, integers):
    """name -> [low, high] from premises comparing a symbol with a number."""
    bounds: dict[str, list] = {}
    for p in premises:
        r = relation(p, integers)
        if not isinstance(r, (sp.Le, sp.Lt, sp.Ge, sp.Gt)):
            continue
        lhs, rhs = r.lhs, r.rhs
        if lhs.is_Symbol and rhs.is_Rational:
            sym, value, upper = lhs, rhs, isinstance(r, (sp.Le, sp.Lt))
        elif rhs.is_Symbol and lhs.is_Rational:
            sym, value, upper = rhs, lhs, isinstance(r, (sp.Ge, sp.Gt))
        else:
            continue
        low, high = bounds.setdefault(sym.name, [None, None])
        v = Fraction(int(value.p), int(value.q))
        if upper:
            bounds[sym.name][1] = v if high is None else min(high, v)
        else:
            bounds[sym.name][0] = v if low is None else max(low, v)
    return bounds


def _values(name, bounds, integers):
    low, high = bounds.get(name, [None, None])
    low = DEFAULT_RANGE[0] if low is None else low
    high = max(low, DEFAULT_RANGE[1]) if high is None else high
    if high < low:
        return st.just(low)
    if name in integers:
        lo, hi = int(-((-low.numerator) // low.denominator)), int(high.numerator // high.denominator)
        return st.integers(lo, max(lo, hi)).map(Fraction)
    edges = [low, high, low + (high - low) / 2, low + (high - low) / 1024, high - (high - low) / 1024]
    # a bound's own denominator may exceed MAX_DENOMINATOR; Hypothesis refuses such a range otherwise
    denominator = max(MAX_DENOMINATOR, low.denominator, high.denominator)
    return st.one_of(st.sampled_from(edges), st.fractions(low, high, max_denominator=denominator))


def decide(premises, claim, integers=frozenset(), max_examples: int = MAX_EXAMPLES):
    """("candidate", point) or ("unknown", reason)."""
    names = free_names([*premises, claim], integers)
    bounds = _bounds(premises, integers)
    points = st.fixed_dictionaries({n: _values(n, bounds, integers) for n in names})
    try:
        point = find(
            points,
            lambda pt: is_counterexample(list(premises), claim, pt, integers),
            settings=settings(
                max_examples=max_examples,
                derandomize=True,
                database=None,
                deadline=None,
                phases=[Phase.generate, Phase.shrink],
                suppress_health_check=list(HealthCheck),
            ),
        )
    except (NoSuchExample, Unsatisfiable):
        return "unknown", f"search: no counterexample among {max_examples} bounded rational points"
    return "candidate", point
