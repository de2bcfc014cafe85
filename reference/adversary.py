"""Oblivious adversaries (Section 2, "Oblivious adversary model").

An adversary fixes eta_t for t = 1..n before the game. We store it as
piecewise-constant segments; each segment says how eta_t relates to eta*, so the
same adversary can be bound to any instance with the right number of points:

    eta_t^x = eta*^x                                 if target is None or target[x] is None
    eta_t^x = (1 - gamma) * eta*^x + gamma * target[x]   otherwise

This one rule covers the paper's models: clean (no target), gamma-misspecification
(a full target eta~, mixing weight gamma), an early burst (gamma = 1 up to tau) and the
counter-example (gamma = 1 on x1 only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .exact import as_int, as_probability, fraction_text
from .instance import Instance


@dataclass(frozen=True)
class Segment:
    start: int
    end: int
    gamma: Fraction = Fraction(0)
    target: tuple[Fraction | None, ...] | None = None

    def eta(self, eta_star: Sequence[Fraction]) -> tuple[Fraction, ...]:
        if self.target is None:
            return tuple(eta_star)
        return tuple(e if t is None else (1 - self.gamma) * e + self.gamma * t for e, t in zip(eta_star, self.target))


def _segment(raw, i: int) -> Segment:
    field = f"segments[{i}]"
    if isinstance(raw, Segment):
        raw = {"start": raw.start, "end": raw.end, "gamma": raw.gamma, "target": raw.target}
    if not isinstance(raw, dict):
        raise ValueError(f"{field} must be a Segment or an object, got {type(raw).__name__}")
    unknown = set(raw) - {"start", "end", "gamma", "target"}
    if unknown:
        raise ValueError(f"{field} has unknown field {sorted(unknown)[0]!r}")
    start = as_int(raw.get("start"), f"{field}.start", minimum=1)
    end = as_int(raw.get("end"), f"{field}.end", minimum=start)
    gamma = as_probability(raw.get("gamma", 0), f"{field}.gamma")
    target = raw.get("target")
    if target is not None:
        if isinstance(target, (str, bytes)) or not isinstance(target, Sequence):
            raise ValueError(f"{field}.target must be a sequence of probabilities or nulls, got {target!r}")
        target = tuple(None if v is None else as_probability(v, f"{field}.target[{x}]") for x, v in enumerate(target))
    if target is None and gamma != 0:
        raise ValueError(f"{field}.gamma is {gamma} but the segment has no target to mix in")
    return Segment(start, end, gamma, target)


@dataclass(frozen=True)
class Adversary:
    """eta_t for t = 1..n as segments covering 1..n without gaps or overlaps."""

    n: int
    segments: tuple[Segment, ...]

    def __init__(self, n, segments):
        n = as_int(n, "n", minimum=1)
        if isinstance(segments, (str, bytes)) or not isinstance(segments, Sequence) or not segments:
            raise ValueError(f"segments must be a non-empty sequence, got {segments!r}")
        segs = tuple(_segment(s, i) for i, s in enumerate(segments))
        expected = 1
        for i, s in enumerate(segs):
            if s.start != expected:
                what = "a gap" if s.start > expected else "an overlap"
                raise ValueError(f"segments[{i}].start is {s.start}, expected {expected} ({what} in 1..{n})")
            expected = s.end + 1
        if segs[-1].end != n:
            raise ValueError(f"segments[{len(segs) - 1}].end is {segs[-1].end}, expected n = {n}")
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "segments", segs)

    # -- quantities relative to an instance (all exact) -----------------------------
    def eta(self, instance: Instance, t: int) -> tuple[Fraction, ...]:
        """eta_t (a vector over X)."""
        return _bound(self, instance)[self._segment_index(t)][2]

    def corruption(self, instance: Instance, t: int) -> Fraction:
        """c_t = max_x |eta*^x - eta_t^x| (Section 2; the paper's max over "I" is over X)."""
        return _bound(self, instance)[self._segment_index(t)][3]

    def total(self, instance: Instance, start: int, end: int) -> Fraction:
        """C_I = sum_{t in I} c_t for I = [start, end] (empty if end < start).

        The paper writes C_[0,t] for the first t rounds; rounds start at 1, so that is
        total(instance, 1, t)."""
        start = as_int(start, "start", minimum=1)
        end = as_int(end, "end", maximum=self.n)
        total = Fraction(0)
        for seg_start, seg_end, _, c in _bound(self, instance):
            lo, hi = max(start, seg_start), min(end, seg_end)
            if lo <= hi:
                total += (hi - lo + 1) * c
        return total

    def bind(self, instance: Instance) -> tuple[tuple[int, int, tuple[Fraction, ...], Fraction], ...]:
        """(start, end, eta_t, c_t) per segment, for this instance."""
        return _bound(self, instance)

    def _segment_index(self, t: int) -> int:
        t = as_int(t, "t", minimum=1, maximum=self.n)
        lo, hi = 0, len(self.segments) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self.segments[mid].end < t:
                lo = mid + 1
            else:
                hi = mid
        return lo

    # -- JSON ------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "n": self.n,
            "segments": [
                {
                    "start": s.start,
                    "end": s.end,
                    "gamma": fraction_text(s.gamma),
                    "target": None if s.target is None else [None if v is None else fraction_text(v) for v in s.target],
                }
                for s in self.segments
            ],
        }

    @classmethod
    def from_json(cls, data) -> Adversary:
        if not isinstance(data, dict):
            raise ValueError(f"adversary must be a JSON object, got {type(data).__name__}")
        unknown = set(data) - {"n", "segments"}
        if unknown:
            raise ValueError(f"adversary has unknown field {sorted(unknown)[0]!r}")
        for key in ("n", "segments"):
            if key not in data:
                raise ValueError(f"adversary is missing field {key!r}")
        return cls(data["n"], data["segments"])


@lru_cache(maxsize=64)
def _bound(adversary: Adversary, instance: Instance):
    m = instance.num_points
    result = []
    for i, s in enumerate(adversary.segments):
        if s.target is not None and len(s.target) != m:
            raise ValueError(f"segments[{i}].target has {len(s.target)} entries, the instance has {m} points")
        eta_t = s.eta(instance.eta)
        c = max(abs(a - b) for a, b in zip(eta_t, instance.eta))
        result.append((s.start, s.end, eta_t, c))
    return tuple(result)


# -- the paper's models ----------------------------------------------------------------
def clean(n) -> Adversary:
    """No corruption: eta_t = eta* for every t."""
    n = as_int(n, "n", minimum=1)
    return Adversary(n, [Segment(1, n)])


def misspecification(gamma, eta_tilde, n) -> Adversary:
    """gamma-misspecification (Section 2): eta_t = (1 - gamma) eta* + gamma eta~ for all t,
    with a fixed eta~ (time-varying eta~ is a `piecewise` adversary)."""
    n = as_int(n, "n", minimum=1)
    gamma = as_probability(gamma, "gamma")
    target = _full_vector(eta_tilde, "eta_tilde")
    return Adversary(n, [Segment(1, n, gamma, target)])


def early_burst(eta_burst, tau, n) -> Adversary:
    """Corrupt every round t <= tau with eta_t = eta_burst (entries may be None: that
    point stays clean), then stop (the Section 4 discussion's early poisoning)."""
    n = as_int(n, "n", minimum=1)
    tau = as_int(tau, "tau", minimum=0, maximum=n)
    if isinstance(eta_burst, (str, bytes)) or not isinstance(eta_burst, Sequence):
        raise ValueError(f"eta_burst must be a sequence of probabilities or nulls, got {eta_burst!r}")
    target = tuple(None if v is None else as_probability(v, f"eta_burst[{x}]") for x, v in enumerate(eta_burst))
    segments = []
    if tau >= 1:
        segments.append(Segment(1, tau, Fraction(1), target))
    if tau < n:
        segments.append(Segment(tau + 1, n))
    return Adversary(n, segments)


COUNTEREXAMPLE_ETA_X1 = Fraction(15, 32)


def counterexample(tau, n) -> Adversary:
    """The appendix's adversary for `instances.counterexample`: eta^{x1} = 15/32 for
    t <= tau (instead of 1/2), x2 and x3 untouched, clean afterwards. c_t = 1/32 while
    it corrupts, so C_[0,t] <= t/32 <= t/8 (Theorem 4.1's condition) holds for every t."""
    return early_burst((COUNTEREXAMPLE_ETA_X1, None, None), tau, n)


def piecewise(n, segments) -> Adversary:
    """Any schedule: `segments` as Segment objects or dicts {start, end, gamma, target}."""
    return Adversary(n, segments)


def _full_vector(values, field: str) -> tuple[Fraction, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
        raise ValueError(f"{field} must be a non-empty sequence of probabilities, got {values!r}")
    return tuple(as_probability(v, f"{field}[{x}]") for x, v in enumerate(values))
