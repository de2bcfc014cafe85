"""z3's nonlinear real arithmetic (nlsat) on premises AND NOT claim.

unsat: the claim follows from the premises (proved). sat: z3's model is a candidate
counterexample, handed back for exact re-verification (z3 may return algebraic numbers;
they are rounded to nearby rationals and re-checked, so nothing unverified escapes).
Square roots become auxiliary variables s with s >= 0 and s*s == a (and a >= 0 added
as a premise of the encoding: sqrt of a negative is not a real number, so a step using
it presumes a >= 0); Abs, Max and Min become If-terms. log/exp/floor are out of reach
of nlsat: such a step is left to the other deciders, with the reason.

A resource limit (rlimit), not a wall-clock timeout, bounds z3's work, so a verdict is
the same on every machine and the committed report never flaps."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from reference import command_line
from reference.command_line import require

from .parse import relation

# the `proofs` extra: a base install (judging only) has no z3 (reference/command_line.py)
z3 = require("z3", package="z3-solver", extra="proofs", needed_by="proofs_check")

RLIMIT = 2_000_000  # about 0.2-1 s of z3 work, measured when chosen; a resource limit, not a clock


class OutOfReach(Exception):
    """The expression uses a function nlsat cannot express."""


class _Encoder:
    def __init__(self, integers):
        # A fresh context per question: z3's global context keeps state between solves
        # (variable tables, internal seeds), which made a model depend on what was asked
        # earlier in the process; the committed report must not.
        self.ctx = z3.Context()
        self.vars: dict[str, z3.ArithRef] = {}
        self.side: list = []  # side conditions of auxiliary variables
        self.integers = integers
        self._aux = 0

    def var(self, name):
        if name not in self.vars:
            self.vars[name] = z3.Int(name, self.ctx) if name in self.integers else z3.Real(name, self.ctx)
        v = self.vars[name]
        return z3.ToReal(v) if name in self.integers else v

    def fresh(self, hint):
        self._aux += 1
        return z3.Real(f"_{hint}{self._aux}", self.ctx)

    def root(self, radicand):
        s = self.fresh("sqrt")
        self.side += [s >= 0, s * s == radicand, radicand >= 0]
        return s

    def term(self, e):
        if e.is_Symbol:
            return self.var(e.name)
        if e.is_Rational:
            return z3.RealVal(f"{e.p}/{e.q}", self.ctx)
        if e.is_Add:
            return z3.Sum([self.term(a) for a in e.args])
        if e.is_Mul:
            return z3.Product([self.term(a) for a in e.args])
        if e.is_Pow:
            base, k = e.args
            b = self.term(base)
            if k.is_Integer:
                n = int(k)
                power = z3.Product([b] * abs(n)) if n != 0 else z3.RealVal(1, self.ctx)
                return power if n > 0 else 1 / power
            if k.is_Rational and k.q == 2:
                s = self.root(b)
                return z3.Product([s] * abs(int(k.p))) if k.p > 0 else 1 / z3.Product([s] * abs(int(k.p)))
            raise OutOfReach(f"power with exponent {k}")
        if isinstance(e, sp.Abs):
            a = self.term(e.args[0])
            return z3.If(a >= 0, a, -a)
        if isinstance(e, (sp.Max, sp.Min)):
            terms = [self.term(a) for a in e.args]
            result = terms[0]
            for t in terms[1:]:
                result = z3.If(t > result, t, result) if isinstance(e, sp.Max) else z3.If(t < result, t, result)
            return result
        raise OutOfReach(f"{type(e).__name__} ({e})")

    def formula(self, r):
        if r is sp.true:
            return z3.BoolVal(True, self.ctx)
        if r is sp.false:
            return z3.BoolVal(False, self.ctx)
        if isinstance(r, sp.And):
            return z3.And([self.formula(a) for a in r.args])
        if isinstance(r, sp.Or):
            return z3.Or([self.formula(a) for a in r.args])
        if isinstance(r, sp.Not):
            return z3.Not(self.formula(r.args[0]))
        lhs, rhs = self.term(r.lhs), self.term(r.rhs)
        return {
            sp.Eq: lambda: lhs == rhs,
            sp.Ne: lambda: lhs != rhs,
            sp.Le: lambda: lhs <= rhs,
            sp.Lt: lambda: lhs < rhs,
            sp.Ge: lambda: lhs >= rhs,
            sp.Gt: lambda: lhs > rhs,
        }[type(r)]()


def _rational(value) -> Fraction:
    if z3.is_int_value(value):
        return Fraction(value.as_long())
    if z3.is_rational_value(value):
        return Fraction(value.numerator_as_long(), value.denominator_as_long())
    # an algebraic number: a rational approximation; the caller re-verifies it exactly
    return Fraction(value.approx(40).as_fraction()).limit_denominator(10**12)


def _solver(premises, integers, claim=None, rlimit: int = RLIMIT):
    """(encoder, solver) holding the premises, their side conditions and, given a claim,
    its negation. Raises OutOfReach for a function nlsat cannot express."""
    enc = _Encoder(integers)
    facts = [enc.formula(relation(p, integers)) for p in premises]
    if claim is not None:
        facts.append(z3.Not(enc.formula(relation(claim, integers))))
    # nlsat itself, not the QF_NRA logic's default strategy: that strategy is a portfolio whose
    # branches run under wall-clock limits (try_for), so on a loaded machine a probe near the
    # rlimit came back "unknown" where an idle one found its model, and a sharp constant's
    # bisection stopped early (the committed report must be the same on every run)
    solver = z3.SolverFor("QF_NIRA", ctx=enc.ctx) if integers else z3.Tactic("qfnra-nlsat", ctx=enc.ctx).solver()
    solver.set("rlimit", rlimit)
    solver.add(*facts, *enc.side)
    return enc, solver


def consistent(premises, integers=frozenset()) -> bool | None:
    """Whether the premises have a real solution (None: z3 could not tell)."""
    try:
        _, solver = _solver(premises, integers)
    except OutOfReach:
        return None
    answer = _check(solver)
    return None if answer == z3.unknown else answer == z3.sat


def _check(solver):
    """solver.check(), except that a Ctrl-C z3 caught (it answers "unknown", reason
    "interrupted from keyboard" or "canceled") is a KeyboardInterrupt, never a verdict."""
    answer = solver.check()
    if answer == z3.unknown:
        reason = solver.reason_unknown()
        if "interrupted" in reason or "canceled" in reason:
            command_line.note()
            raise KeyboardInterrupt
    return answer


def decide(premises, claim, integers=frozenset(), rlimit: int = RLIMIT):
    """("proved", method) | ("candidate", point) | ("unknown", reason)."""
    try:
        enc, solver = _solver(premises, integers, claim, rlimit)
    except OutOfReach as exc:
        return "unknown", f"z3: out of nlsat's reach: {exc}"
    answer = _check(solver)
    if answer == z3.unsat:
        return "proved", "z3 (nonlinear real arithmetic: premises and the negated claim are unsatisfiable)"
    if answer == z3.sat:
        model = solver.model()
        point = {}
        for name, v in enc.vars.items():
            value = model.eval(v, model_completion=True)
            point[name] = _rational(value)
        return "candidate", point
    return "unknown", f"z3: {solver.reason_unknown()}"
