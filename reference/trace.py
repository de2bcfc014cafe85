"""Traces: what an implementation reports, as plain data with a lossless JSON form.

`trace.output` is the index of the output hypothesis (DESIGN.md, "Trace")."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .certified import Enclosure
from .params import Params
from .serialization import from_jsonable, to_jsonable

TRACE_FORMAT = "cral-trace"
TRACE_VERSION = 1


@dataclass(frozen=True)
class PassiveTrace:
    """Passive ERM (Theorem 3.1): every label is requested."""

    algorithm: str
    params: Params
    n: int
    empirical_risk: tuple[Fraction, ...]  # R^_[1,n](h) for every h
    labels_requested: int
    output: int


@dataclass(frozen=True)
class RobustCALCheckpoint:
    """The update of Algorithm 1 at a checkpoint t = 2^k (lines 7-10).

    Tuples indexed by hypothesis hold None for h not in V_t."""

    t: int
    version_space: tuple[int, ...]  # V_t
    labels_requested: int  # queries in rounds 1..t
    h_hat: int  # argmin_{h in V_t} L^_t(h), ties -> lowest index
    empirical_risk: tuple[Fraction | None, ...]  # L^_t(h)
    disagreement: tuple[Fraction | None, ...]  # rho^_t(h, h_hat)
    beta: Enclosure  # beta_t
    threshold: tuple[Enclosure | None, ...]  # right-hand side of line 10
    next_version_space: tuple[int, ...]  # V_{t+1}


@dataclass(frozen=True)
class RobustCALTrace:
    algorithm: str  # "robust_cal" or "robust_cal_vanilla"
    vanilla: bool
    params: Params
    n: int
    checkpoints: tuple[RobustCALCheckpoint, ...]
    final_version_space: tuple[int, ...]  # V_{n+1}
    final_empirical_risk: tuple[Fraction | None, ...]  # L^_n(h) for h in V_{n+1}
    labels_requested: int
    output: int


TRACE_TYPES = {
    "passive": PassiveTrace,
    "robust_cal": RobustCALTrace,
    "robust_cal_vanilla": RobustCALTrace,
}


def trace_to_json(trace) -> dict:
    return {"format": TRACE_FORMAT, "version": TRACE_VERSION, **to_jsonable(trace)}


def trace_from_json(data):
    if not isinstance(data, dict):
        raise ValueError(f"trace must be a JSON object, got {type(data).__name__}")
    if data.get("format") != TRACE_FORMAT:
        raise ValueError(f"trace.format must be {TRACE_FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != TRACE_VERSION:
        raise ValueError(f"trace.version must be {TRACE_VERSION}, got {data.get('version')!r}")
    algorithm = data.get("algorithm")
    if algorithm not in TRACE_TYPES:
        raise ValueError(f"trace.algorithm must be one of {sorted(TRACE_TYPES)}, got {algorithm!r}")
    body = {k: v for k, v in data.items() if k not in ("format", "version")}
    return from_jsonable(TRACE_TYPES[algorithm], body, "trace")
