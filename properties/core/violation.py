"""What a check returns: a list of Violation records (empty = the property holds)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

MAX_TEXT = 2000  # characters of a message or value kept in a report


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """At most `limit` characters (a candidate's exception text or returned data can be
    any size; a report must stay readable and bounded)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters in all)"


def _text(value) -> str:
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    return clip(repr(value) if not isinstance(value, str) else value)


@dataclass(frozen=True)
class Violation:
    """One failure of one check: the check's name, a sentence, and the values that
    show it (as strings, so a report can be printed or written as JSON)."""

    check: str
    message: str
    values: dict[str, str] = field(default_factory=dict)
    # True for a failure of the candidate as a program (it crashed, hung, exited, or
    # returned something the contract does not allow) rather than a property the check
    # decided false: never the finding behind an expected failure (properties/run/runner.py)
    fault: bool = field(default=False, compare=False)
    # a formula's breakdown, term by term (properties/core/terms.py): rows {"term", "candidate",
    # "exact", "difference"}, printed under the message and written to the JSON report
    terms: tuple = field(default=(), compare=False)

    @classmethod
    def of(cls, check: str, message: str, **values) -> Violation:
        return cls.with_values(check, message, values)

    @classmethod
    def with_values(cls, check: str, message: str, values, *, fault: bool = False) -> Violation:
        """From a mapping of values (any names, e.g. a candidate's), clipped to MAX_TEXT."""
        return cls(check, clip(message), {str(k): _text(v) for k, v in values.items()}, fault)

    def with_terms(self, terms) -> Violation:
        """The same violation with a formula's breakdown (properties/core/terms.py)."""
        return replace(self, terms=tuple(dict(t) for t in terms))

    def __str__(self) -> str:
        from properties.core.terms import table

        shown = ", ".join(f"{k} = {v}" for k, v in self.values.items())
        text = f"{self.check}: {self.message}" + (f" ({shown})" if shown else "")
        return text + ("\n" + table(self.terms) if self.terms else "")


class CallFailed(Exception):
    """The candidate raised, hung, died or returned something that breaks the contract:
    carries the Violation. `fatal` means the call cost the candidate its worker process
    (it hung, crashed or ran out of memory): the check ends at once rather than shrinking
    by running the candidate again (properties/run/runner.py)."""

    def __init__(self, violation: Violation, fatal: bool = False):
        super().__init__(str(violation))
        self.violation = violation
        self.fatal = fatal
