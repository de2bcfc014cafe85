"""A proof step as data: where it is in the paper, what it assumes, what it claims.

Premises and claims are strings sympy can parse (`parse.relation`), so the JSON report
carries exactly what was decided. Every symbol is real; domains (positivity, ranges)
are premises like any other, so a reader sees every assumption a verdict rests on."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

MECHANICAL = "algebra"
NOT_MECHANICAL = "not mechanical"


@dataclass(frozen=True)
class Repair:
    """A corrected statement of a refuted step, decided like the step itself.

    `sharp` optionally names a constant symbol of `claim` and a rational search range
    (symbol, low, high): the decider bisects for the smallest value it can prove (or
    the largest when `sharp_direction` is "max")."""

    claim: str
    premises: tuple[str, ...] = ()
    note: str = ""
    sharp: tuple[str, str, str] | None = None
    sharp_direction: str = "min"


@dataclass(frozen=True)
class Step:
    """One `<=` / `=` link of a chain in the paper.

    id: unique, "<part>.<lemma>.<n>" in lowercase; lemma: the paper's \\label of the
    result the step belongs to (or "unlabeled: <title>"); location: section, proof and
    displayed line, with a brief quote; premises: relations assumed (domains, the
    lemma's assumptions, earlier links); claim: the relation asserted; justification:
    the paper's reason, in a few words. A step of kind NOT_MECHANICAL (Bernstein, union
    bounds, ...) carries the reason it is out of reach in `reason` and is not decided."""

    id: str
    lemma: str
    location: str
    premises: tuple[str, ...]
    claim: str
    justification: str
    kind: str = MECHANICAL
    reason: str = ""
    integers: tuple[str, ...] = ()
    repair: Repair | None = None
    finding: str = ""  # FINDINGS.md entry this step is cross-linked to, e.g. "F1"
    notes: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self):
        if not self.id or self.id != self.id.strip() or " " in self.id:
            raise ValueError(f"id: expected a non-empty identifier without spaces, got {self.id!r}")
        if self.kind not in (MECHANICAL, NOT_MECHANICAL):
            raise ValueError(f"kind: expected {MECHANICAL!r} or {NOT_MECHANICAL!r}, got {self.kind!r} (step {self.id})")
        if self.kind == NOT_MECHANICAL and not self.reason:
            raise ValueError(f"reason: a {NOT_MECHANICAL!r} step needs a reason (step {self.id})")
        if isinstance(self.premises, str):
            raise ValueError(f"premises: expected a tuple of relations, got the string {self.premises!r} (step {self.id})")
        for text in (*self.premises, self.claim, *((self.repair.claim, *self.repair.premises) if self.repair else ())):
            _check_plain_names(text, self.id)


def _check_plain_names(text: str, step_id: str) -> None:
    """The report promises strings plain `sympy.sympify` reads as we do: a variable
    named like a sympy function or constant (beta, gamma, E, N, S, I, ...) is refused."""
    from .parse import _IDENTIFIER, FUNCTIONS

    for name in _IDENTIFIER.findall(text):
        if name not in FUNCTIONS and not _plain_symbol(name):
            raise ValueError(f"claim/premises of step {step_id}: the variable name {name!r} is bound by sympy "
                             f"(sympify would not read it as a symbol); rename it, e.g. {name}_")


@lru_cache(maxsize=None)
def _plain_symbol(name: str) -> bool:
    import sympy

    try:
        return isinstance(sympy.sympify(name), sympy.Symbol)
    except (sympy.SympifyError, TypeError, SyntaxError):
        return False
