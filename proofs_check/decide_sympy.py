"""sympy for identities: an `Eq` claim is proved when lhs - rhs simplifies to exactly 0
after substituting the premises that are definitions (`Eq(symbol, expression)`).

An identity proved this way holds wherever both sides are defined, whatever the other
premises; inequalities are left to z3 (sympy's `is_nonnegative` answers None too often
to be worth a second code path: a measured property of sympy, recorded in the project's tooling notes)."""

from __future__ import annotations

import sympy as sp

from .parse import relation


def definitions(premises, integers=frozenset()) -> dict:
    """symbol -> expression for each premise Eq(symbol, expression), applied until none
    is left (a definition may use earlier ones); cyclic definitions are not expanded."""
    subs = {}
    for p in premises:
        r = relation(p, integers)
        if isinstance(r, sp.Eq) and r.lhs.is_Symbol and r.lhs not in r.rhs.free_symbols:
            subs[r.lhs] = r.rhs
    for _ in range(len(subs)):
        subs = {k: v.xreplace(subs) for k, v in subs.items()}
    return subs


def decide(premises, claim, integers=frozenset()):
    """("proved", method) or ("unknown", reason)."""
    r = relation(claim, integers)
    if r is sp.true:
        return "proved", "sympy (the claim evaluates to True)"
    if not isinstance(r, sp.Eq):
        return "unknown", "sympy: only identities are decided here"
    subs = definitions(premises, integers)
    difference = (r.lhs - r.rhs).xreplace(subs)
    for simplifier in (sp.expand, sp.simplify):
        if simplifier(difference) == 0:
            return "proved", f"sympy ({simplifier.__name__}: lhs - rhs = 0" + (
                " after the definitions)" if subs else ")"
            )
    return "unknown", "sympy: lhs - rhs does not simplify to 0"
