"""docs/protocol.md section 6's *either* representations, read as the reference writes
them: the one rule the judge (properties/judge/command.py) and the conformance kit share."""

from __future__ import annotations

import collections
from fractions import Fraction


def read_either_forms(document: dict, request_params, arithmetic: str) -> tuple[dict, collections.Counter]:
    """A trace document with docs/protocol.md section 6's *either* representations read as
    the reference writes them, and how often each was read: a float program's params
    echoed as the nearest doubles of the request's, and W null where rho^ = 0 (the judge
    and the conformance kit share this one rule)."""
    read: collections.Counter = collections.Counter()
    if (
        arithmetic != "exact"
        and document.get("params") != request_params
        and _as_doubles(document.get("params")) == _as_doubles(request_params)
    ):
        document = {**document, "params": request_params}
        read["params echoed as doubles"] += 1
    epochs = document.get("epochs")
    if isinstance(epochs, list):
        for epoch in epochs:
            try:
                W, rho = epoch["W"], epoch["rho"]
                for h, row in enumerate(W):
                    for h2, value in enumerate(row):
                        if value is None and h != h2 and _is_zero(rho[h][h2]):
                            row[h2] = {"lo": "0", "hi": "0"}
                            read["W null where rho^ = 0"] += 1
            except (KeyError, TypeError, IndexError, AttributeError):
                break  # a malformed trace: the decoders say what is wrong
    return document, read


def _is_zero(value) -> bool:
    return value in (0, "0", "0/1", "-0") or (isinstance(value, float) and value == 0)


def _as_doubles(value):
    """A params document with every rational read as the nearest double (a float
    program's echo of the request's params compares equal to this)."""
    if isinstance(value, dict):
        return {k: _as_doubles(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_doubles(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(Fraction(value))
        except (ValueError, ZeroDivisionError, OverflowError):
            return value
    return value
