"""The generated-example types by their stable type tag (reference/report_vocabulary.py:
EXAMPLE_TAGS), for the files that hold an example: a saved failure file and a check
report write `{"type": TAG, "data": example.to_json()}` (properties/reports/saved.py), and
`replay` rebuilds the example from the type its tag names. Each type registers itself with
`@tagged(TAG)` where it is defined (Case here in core, the others in properties.strategies),
so a module that reads files needs only the types' modules imported."""

from __future__ import annotations

from reference.report_vocabulary import EXAMPLE_TAGS

EXAMPLE_TYPES: dict[str, type] = {}


def tagged(tag: str):
    """Class decorator: `kind` is the example type of `tag` (one of EXAMPLE_TAGS); it gets
    the class attribute TYPE_TAG."""
    if tag not in EXAMPLE_TAGS:
        raise ValueError(f"type tag {tag!r} is not one of reference.report_vocabulary.EXAMPLE_TAGS")

    def register(kind: type) -> type:
        kind.TYPE_TAG = tag
        EXAMPLE_TYPES[tag] = kind
        return kind

    return register


def type_tag(kind: type) -> str | None:
    """The tag of a registered example type, else None."""
    tag = getattr(kind, "TYPE_TAG", None)
    return tag if EXAMPLE_TYPES.get(tag) is kind else None


__all__ = ["EXAMPLE_TYPES", "tagged", "type_tag"]
