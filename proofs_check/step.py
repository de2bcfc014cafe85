"""A proof step as data: where it is in the paper, what it assumes, what it claims.

Premises and claims are strings sympy can parse (`parse.relation`), so the JSON report
carries exactly what was decided. Every symbol is real; domains (positivity, ranges)
are premises like any other, so a reader sees every assumption a verdict rests on."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

MECHANICAL = "algebra"
NOT_MECHANICAL = "not mechanical"
# A printed line that is not a relation between defined quantities (an undefined symbol,
# a misprinted index): its verdict says so, and its repaired reading is a separate step.
ILL_FORMED = "not well-formed as printed"
REPAIR_SUFFIX = "#repair"  # in `uses`: "ID#repair" relies on step ID's Repair, not its claim


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
    sharp_steps: int = 0  # bisection steps; 0 = decide.SHARP_STEPS (fewer where each z3 probe is slow)


@dataclass(frozen=True)
class Step:
    """One `<=` / `=` link of a chain in the paper.

    id: unique, "<part>.<lemma>.<n>" in lowercase; lemma: the paper's \\label of the
    result the step belongs to (or "unlabeled: <title>"); location: section, proof and
    displayed line, with a brief quote; premises: relations assumed (domains, the
    lemma's assumptions, earlier links); claim: the relation asserted; justification:
    the paper's reason, in a few words. A step of kind NOT_MECHANICAL (Bernstein, union
    bounds, ...) carries the reason it is out of reach in `reason` and is not decided; a
    step of kind ILL_FORMED is a printed line that is not a relation (its `reason` says
    why) and is not decided either.

    Literal first: `claim` is the printed line, so a verdict is about what the paper says. A corrected reading of a printed
    line is its own step whose `reading_of` names the literal step. `uses` names the steps
    whose claims this step takes as premises (a chain's previous link, the lemmas a proof
    cites); "ID#repair" names step ID's Repair instead of its claim. The report marks a
    proved step that rests, through `uses`, on a refuted claim."""

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
    uses: tuple[str, ...] = ()
    reading_of: str = ""  # the literal step this step is a repaired reading of

    def __post_init__(self):
        if not self.id or self.id != self.id.strip() or " " in self.id:
            raise ValueError(f"id: expected a non-empty identifier without spaces, got {self.id!r}")
        if self.kind not in (MECHANICAL, NOT_MECHANICAL, ILL_FORMED):
            raise ValueError(
                f"kind: expected {MECHANICAL!r}, {NOT_MECHANICAL!r} or {ILL_FORMED!r}, "
                f"got {self.kind!r} (step {self.id})"
            )
        if self.kind in (NOT_MECHANICAL, ILL_FORMED) and not self.reason:
            raise ValueError(f"reason: a {self.kind!r} step needs a reason (step {self.id})")
        if isinstance(self.uses, str):
            raise ValueError(f"uses: expected a tuple of step ids, got the string {self.uses!r} (step {self.id})")
        if self.id in (u.removesuffix(REPAIR_SUFFIX) for u in self.uses) or self.reading_of == self.id:
            raise ValueError(f"uses: step {self.id} names itself")
        if isinstance(self.premises, str):
            raise ValueError(
                f"premises: expected a tuple of relations, got the string {self.premises!r} (step {self.id})"
            )
        for text in (*self.premises, self.claim, *((self.repair.claim, *self.repair.premises) if self.repair else ())):
            _check_plain_names(text, self.id)


def _check_plain_names(text: str, step_id: str) -> None:
    """The report promises strings plain `sympy.sympify` reads as we do: a variable
    named like a sympy function or constant (beta, gamma, E, N, S, I, ...) is refused."""
    from .parse import _IDENTIFIER, FUNCTIONS

    for name in _IDENTIFIER.findall(text):
        if name not in FUNCTIONS and not _plain_symbol(name):
            raise ValueError(
                f"claim/premises of step {step_id}: the variable name {name!r} is bound by sympy "
                f"(sympify would not read it as a symbol); rename it, e.g. {name}_"
            )


@cache
def _plain_symbol(name: str) -> bool:
    import sympy

    try:
        return isinstance(sympy.sympify(name), sympy.Symbol)
    except (sympy.SympifyError, TypeError, SyntaxError):
        return False


def split_literal(steps, literals: dict[str, dict]) -> tuple[Step, ...]:
    """Literal first: for each id in `literals`, the step as encoded so far becomes the
    repaired reading "<id>.repaired" (reading_of = id), and "<id>" becomes the printed line.
    `literals[id]` gives the printed line: `claim` (and optionally `premises`, `finding`,
    `integers`), or `ill_formed` (the reason it is not a relation as printed); `note` says
    what the repaired reading changes. The literal step takes the repaired one's place."""
    import dataclasses

    out = []
    for step in steps:
        spec = literals.get(step.id)
        if spec is None:
            out.append(step)
            continue
        unknown = set(spec) - {"claim", "premises", "finding", "integers", "ill_formed", "note", "justification"}
        if unknown or "note" not in spec or ("claim" in spec) == ("ill_formed" in spec):
            raise ValueError(
                f"literals[{step.id!r}]: expected a note and exactly one of claim/ill_formed, got {sorted(spec)}"
            )
        repaired = dataclasses.replace(
            step,
            id=step.id + ".repaired",
            reading_of=step.id,
            notes=(*step.notes, "Repaired reading of the printed line " + step.id + ": " + spec["note"]),
        )
        common = dict(
            repair=None,
            notes=("As printed. " + spec["note"],),
            finding=spec.get("finding", ""),
            justification=spec.get("justification", step.justification),
        )
        if "ill_formed" in spec:
            literal = dataclasses.replace(
                step, kind=ILL_FORMED, reason=spec["ill_formed"], claim="", premises=(), integers=(), **common
            )
        else:
            literal = dataclasses.replace(
                step,
                kind=MECHANICAL,
                reason="",
                claim=spec["claim"],
                premises=tuple(spec.get("premises", step.premises)),
                integers=tuple(spec.get("integers", step.integers)),
                **common,
            )
        out += [literal, repaired]
    missing = set(literals) - {s.id for s in steps}
    if missing:
        raise ValueError(f"literals: no step with id {sorted(missing)}")
    return tuple(out)
