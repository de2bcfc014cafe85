"""Exact truth of a relation at a rational point: the re-verification of every
counterexample before it is reported.

After substitution a side is a closed-form real number (rationals, +, *, powers, sqrt,
log, exp, Abs, Max, Min, floor). Its sign is decided by rigorous interval arithmetic
(mpmath.iv: outward rounding, so the true value lies in the interval) at doubling
precision; a value whose interval keeps straddling 0 is tested for being exactly 0 by
sympy (`minimal_polynomial` for algebraic numbers). Nothing here trusts a float."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp
from mpmath import iv

from .parse import relation

PRECISIONS = (64, 128, 256, 512, 1024, 2048)


class Undecided(Exception):
    """The sign of a value could not be certified (reason in the message)."""


def _interval(expr, ctx):
    if expr.is_Integer:
        return ctx.mpf(int(expr))
    if expr.is_Rational:
        return ctx.mpf(int(expr.p)) / ctx.mpf(int(expr.q))
    if expr is sp.pi:
        return ctx.pi
    if expr is sp.E:
        return ctx.e
    if expr.is_Add:
        total = ctx.mpf(0)
        for a in expr.args:
            total = total + _interval(a, ctx)
        return total
    if expr.is_Mul:
        total = ctx.mpf(1)
        for a in expr.args:
            total = total * _interval(a, ctx)
        return total
    if expr.is_Pow:
        base, e = expr.args
        b = _interval(base, ctx)
        if e.is_Integer:
            k = int(e)
            result = ctx.mpf(1)
            for _ in range(abs(k)):
                result = result * b
            return result if k >= 0 else ctx.mpf(1) / result
        if e == sp.Rational(1, 2):
            return _sqrt(b, ctx)
        if e == sp.Rational(-1, 2):
            return ctx.mpf(1) / _sqrt(b, ctx)
        if b.a <= 0:
            raise Undecided(f"power {expr} of a base not provably positive")
        return ctx.exp(_interval(e, ctx) * ctx.log(b))
    if isinstance(expr, sp.log):
        b = _interval(expr.args[0], ctx)
        if not b.a > 0:
            raise Undecided(f"log of a value not provably positive: {expr}")
        return ctx.log(b)
    if isinstance(expr, sp.exp):
        return ctx.exp(_interval(expr.args[0], ctx))
    if isinstance(expr, sp.Abs):
        v = _interval(expr.args[0], ctx)
        if v.a >= 0:
            return v
        if v.b <= 0:
            return -v
        return ctx.mpf([0, max(-v.a, v.b)])
    if isinstance(expr, (sp.Max, sp.Min)):
        values = [_interval(a, ctx) for a in expr.args]
        pick = max if isinstance(expr, sp.Max) else min
        return ctx.mpf([pick(v.a for v in values), pick(v.b for v in values)])
    if isinstance(expr, (sp.floor, sp.ceiling)):
        v = _interval(expr.args[0], ctx)
        f = mpmath.floor if isinstance(expr, sp.floor) else mpmath.ceil
        lo, hi = f(v.a), f(v.b)
        if lo != hi:
            raise Undecided(f"{expr}: the argument's enclosure straddles an integer")
        return ctx.mpf(lo)
    raise Undecided(f"no certified evaluation for {type(expr).__name__}: {expr}")


def _sqrt(b, ctx):
    if b.b < 0:
        raise Undecided("square root of a negative value")
    if b.a < 0:
        b = ctx.mpf([0, b.b])
    return ctx.sqrt(b)


def sign(expr) -> int:
    """-1, 0 or 1: the certified sign of a closed-form real number."""
    expr = sp.sympify(expr)
    if expr.is_Rational:
        return (expr.p > 0) - (expr.p < 0)
    for bits in PRECISIONS:
        iv.prec = bits
        try:
            v = _interval(expr, iv)
        except ZeroDivisionError:
            continue
        if v.a > 0:
            return 1
        if v.b < 0:
            return -1
    try:
        if expr.is_algebraic and sp.minimal_polynomial(expr, sp.Symbol("_z")) == sp.Symbol("_z"):
            return 0
    except (NotImplementedError, ValueError):
        pass
    if sp.simplify(expr) == 0:
        return 0
    raise Undecided(f"sign of {expr} not certified at {PRECISIONS[-1]} bits")


def holds(rel, point: dict) -> bool:
    """Whether a relation (sympy) is exactly true at `point` (symbol name -> Fraction)."""
    subs = {s: sp.Rational(point[s.name].numerator, point[s.name].denominator) for s in rel.free_symbols}
    return _truth(rel, subs)


def _truth(rel, subs) -> bool:
    if rel is sp.true:
        return True
    if rel is sp.false:
        return False
    if isinstance(rel, sp.And):
        return all(_truth(a, subs) for a in rel.args)
    if isinstance(rel, sp.Or):
        return any(_truth(a, subs) for a in rel.args)
    if isinstance(rel, sp.Not):
        return not _truth(rel.args[0], subs)
    lhs = rel.lhs.xreplace(subs) if subs else rel.lhs
    rhs = rel.rhs.xreplace(subs) if subs else rel.rhs
    s = sign(lhs - rhs)
    return {sp.Eq: s == 0, sp.Ne: s != 0, sp.Le: s <= 0, sp.Lt: s < 0, sp.Ge: s >= 0, sp.Gt: s > 0}[type(rel)]


def is_counterexample(premises: list[str], claim: str, point: dict, integers=frozenset()) -> bool:
    """Every premise exactly true and the claim exactly false at `point`."""
    if any(name in integers and point[name].denominator != 1 for name in point):
        return False
    try:
        return all(holds(relation(p, integers), point) for p in premises) and not holds(
            relation(claim, integers), point
        )
    except (Undecided, KeyError, ZeroDivisionError):
        return False


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"
