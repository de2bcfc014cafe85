"""Traces: what an implementation reports, as plain data with a lossless JSON form.

`trace.output` is the index of the output hypothesis (CONTRACT.md, "Trace")."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .certified import Enclosure
from .params import Params
from .serialization import decode_plain, from_jsonable, to_jsonable

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


@dataclass(frozen=True)
class CALruptionEpoch:
    """One completed epoch l of Algorithm 2 (lines 4-14). Matrices are indexed
    [h][h']; None marks a quantity that is undefined for that pair (see
    reference/calruption.py): min_q and alpha where rho^ = 0, alpha/weight/W where
    min q = 0."""

    l: int
    tau: int  # tau_l, first round of the epoch
    length: int  # |I_l| = ceil(N_l)
    N: Enclosure  # N_l = beta1 4^l
    q: tuple[Fraction, ...]  # q_l^x, the query probabilities used during the epoch
    labels_requested: int  # queries during the epoch
    support: tuple[int, ...]  # S_l, the points seen in the epoch
    empirical_x: tuple[Fraction, ...]  # the x-marginal of D^_l (seen[x] / |I_l|)
    rho: tuple[tuple[Fraction, ...], ...]  # rho^_l(h, h') (line 7)
    min_q: tuple[tuple[Fraction | None, ...], ...]  # min_{x in Dis(h,h') on S_l} q_l^x
    alpha: tuple[tuple[Fraction | None, ...], ...]  # Catoni's alpha for the pair
    W: tuple[tuple[Enclosure | None, ...], ...]  # W_l^{h,h'} (line 8)
    weight: tuple[tuple[Fraction | None, ...], ...]  # rational weight ~ sqrt(min q / rho^) (line 9)
    eta_hat: tuple[Fraction | None, ...]  # D^_l: eta^ on S_l, None elsewhere (line 9)
    lp_objective: Fraction
    lp_method: str  # how the LP optimum was certified
    risk_hat: tuple[Fraction, ...]  # R_{D^_l}(h)
    h_star_hat: int  # h^*_l (line 10)
    gap_hat: tuple[Fraction, ...]  # Delta^^l_h (line 11)
    layers: tuple[tuple[int, ...], ...]  # V_{l+1}^i, i = 0..l (line 12)
    next_q: tuple[Fraction, ...]  # q_{l+1}^x (line 13)


@dataclass(frozen=True)
class CALruptionTrace:
    algorithm: str  # "calruption"
    params: Params
    n: int
    epochs: tuple[CALruptionEpoch, ...]  # completed epochs
    final_epoch: int  # the epoch l running when the stream ended (unfinished)
    unfinished_rounds: int  # rounds of that epoch seen before the end
    labels_requested: int
    output: int


TRACE_TYPES = {
    "calruption": CALruptionTrace,
    "passive": PassiveTrace,
    "robust_cal": RobustCALTrace,
    "robust_cal_vanilla": RobustCALTrace,
}


def trace_to_json(trace) -> dict:
    return {"format": TRACE_FORMAT, "version": TRACE_VERSION, **to_jsonable(trace)}


def trace_from_json(data, *, plain_only: bool = False):
    """The trace of a trace document (ValueError naming the field otherwise). With
    `plain_only`, None where the document is not as a correct writer writes it (the
    compiled decoder gives up, reference/serialization.py: decode_plain), for a caller that
    then reads it the general way."""
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
    if plain_only:
        trace = decode_plain(TRACE_TYPES[algorithm], body)
        if trace is None:
            return None
    else:
        trace = from_jsonable(TRACE_TYPES[algorithm], body, "trace")
    if isinstance(trace, RobustCALTrace) and trace.vanilla != (algorithm == "robust_cal_vanilla"):
        raise ValueError(f"trace.vanilla is {trace.vanilla} but trace.algorithm is {algorithm!r}")
    return trace
