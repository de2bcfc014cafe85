"""A finite, exact problem instance (Section 2): X = {0..m-1}, nu*, eta*, H."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from .exact import as_fraction, as_int, as_label, as_probability, fraction_text, shown

Hypothesis = tuple[int, ...]


def validate_hypotheses(hypotheses, num_points: int | None = None, field: str = "hypotheses") -> tuple[Hypothesis, ...]:
    """H as a tuple of 0/1 label tuples of one common length (that of X when given)."""
    if isinstance(hypotheses, (str, bytes)) or not isinstance(hypotheses, Sequence):
        raise ValueError(f"{field} must be a sequence of label sequences, got {shown(hypotheses)}")
    if len(hypotheses) == 0:
        raise ValueError(f"{field} must not be empty")
    result = []
    for i, h in enumerate(hypotheses):
        if isinstance(h, (str, bytes)) or not isinstance(h, Sequence):
            raise ValueError(f"{field}[{i}] must be a sequence of labels, got {h!r}")
        if num_points is None:
            num_points = len(h)
        if len(h) != num_points:
            raise ValueError(f"{field}[{i}] has {len(h)} labels, expected {num_points}")
        result.append(tuple(as_label(v, f"{field}[{i}][{x}]") for x, v in enumerate(h)))
    if num_points == 0:
        raise ValueError(f"{field} must label at least one point")
    return tuple(result)


def validate_distribution(nu, eta) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """(nu*, eta*) as exact probabilities: nu a non-empty distribution over X summing to
    exactly 1, eta one P(y = 1 | x) per point."""
    for name, seq in (("nu", nu), ("eta", eta)):
        if isinstance(seq, (str, bytes)) or not isinstance(seq, Sequence):
            raise ValueError(f"{name} must be a sequence of rationals, got {shown(seq)}")
    if len(nu) == 0:
        raise ValueError("nu must not be empty")
    nu_ = tuple(as_probability(v, f"nu[{x}]") for x, v in enumerate(nu))
    if sum(nu_) != 1:
        raise ValueError(f"nu must sum to exactly 1, sums to {sum(nu_)}")
    if len(eta) != len(nu_):
        raise ValueError(f"eta has {len(eta)} entries, expected {len(nu_)} (one per point of nu)")
    return nu_, tuple(as_probability(v, f"eta[{x}]") for x, v in enumerate(eta))


def disagreement_region(hypotheses: Sequence[Hypothesis], members) -> frozenset[int]:
    """Dis(V): the points on which two members of V disagree (Section 2; the paper's
    display quantifies over H, which is a typo for V, see FINDINGS.md R2)."""
    members = list(members)
    if len(members) < 2:
        return frozenset()
    first = hypotheses[members[0]]
    return frozenset(x for x in range(len(first)) if any(hypotheses[h][x] != first[x] for h in members[1:]))


@dataclass(frozen=True)
class Instance:
    """nu[x] = nu*(x), eta[x] = P(y = 1 | x) under D*, hypotheses[h][x] = h(x).

    Hypotheses are referred to by their index in `hypotheses` everywhere."""

    nu: tuple[Fraction, ...]
    eta: tuple[Fraction, ...]
    hypotheses: tuple[Hypothesis, ...]

    def __init__(self, nu, eta, hypotheses):
        nu_, eta_ = validate_distribution(nu, eta)
        object.__setattr__(self, "nu", nu_)
        object.__setattr__(self, "eta", eta_)
        object.__setattr__(self, "hypotheses", validate_hypotheses(hypotheses, len(nu_)))

    @property
    def num_points(self) -> int:
        return len(self.nu)

    @property
    def num_hypotheses(self) -> int:
        return len(self.hypotheses)

    def _index(self, h) -> int:
        return as_int(h, "h", minimum=0, maximum=self.num_hypotheses - 1)

    def risk(self, h) -> Fraction:
        """R*(h) = P_{D*}(h(x) != y)."""
        labels = self.hypotheses[self._index(h)]
        return sum(
            (p * (1 - e) if label == 1 else p * e for p, e, label in zip(self.nu, self.eta, labels)),
            Fraction(0),
        )

    def disagreement(self, h, h2) -> Fraction:
        """rho*(h, h') = nu*(h(x) != h'(x))."""
        a, b = self.hypotheses[self._index(h)], self.hypotheses[self._index(h2)]
        return sum((p for p, u, v in zip(self.nu, a, b) if u != v), Fraction(0))

    # cached: the instance is immutable, and R* of every hypothesis is |H| exact sums over X
    @cached_property
    def best(self) -> int:
        """h* = argmin R*, ties broken towards the lowest index."""
        risks = [self.risk(h) for h in range(self.num_hypotheses)]
        return risks.index(min(risks))

    @cached_property
    def best_risk(self) -> Fraction:
        """R* = R*(h*)."""
        return self.risk(self.best)

    def gap(self, h) -> Fraction:
        """Delta_h = R*(h) - R*."""
        return self.risk(h) - self.best_risk

    def ball(self, r) -> tuple[int, ...]:
        """B(h*, r) = {h : rho*(h, h*) <= r} (closed ball)."""
        r = as_fraction(r, "r")
        return tuple(h for h in range(self.num_hypotheses) if self.disagreement(h, self.best) <= r)

    def disagreement_mass(self, members) -> Fraction:
        """nu*(Dis(V))."""
        return sum((self.nu[x] for x in disagreement_region(self.hypotheses, members)), Fraction(0))

    def disagreement_coefficient(self, r0) -> Fraction:
        """theta*(r0) = sup_{r >= r0} nu*(Dis(B(h*, r))) / r (Section 2), exactly.

        Reduction to finitely many r: the numerator g(r) = nu*(Dis(B(h*, r))) is a
        non-decreasing step function of r that changes value only at the distances
        d in {rho*(h, h*) : h in H} (the ball is closed, so g is right-continuous).
        On each piece [d_k, d_{k+1}) intersected with [r0, inf) g is constant and g/r
        decreases, so the supremum over that piece is attained at its left end. Hence
        the sup is a max over r in {r0} U {d : d >= r0}. r0 must be positive: at r = 0
        the ratio is 0/0."""
        r0 = as_fraction(r0, "r0")
        if r0 <= 0:
            raise ValueError(f"r0 must be > 0, got {r0}")
        h_star = self.best
        distances = {self.disagreement(h, h_star) for h in range(self.num_hypotheses)}
        candidates = {r0} | {d for d in distances if d >= r0}
        return max(self.disagreement_mass(self.ball(r)) / r for r in candidates)

    def to_json(self) -> dict:
        return {
            "nu": [fraction_text(v) for v in self.nu],
            "eta": [fraction_text(v) for v in self.eta],
            "hypotheses": [list(h) for h in self.hypotheses],
        }

    @classmethod
    def from_json(cls, data) -> Instance:
        if not isinstance(data, dict):
            raise ValueError(f"instance must be a JSON object, got {type(data).__name__}")
        unknown = set(data) - {"nu", "eta", "hypotheses"}
        if unknown:
            raise ValueError(f"instance has unknown field {sorted(unknown)[0]!r}")
        missing = {"nu", "eta", "hypotheses"} - set(data)
        if missing:
            raise ValueError(f"instance is missing field {sorted(missing)[0]!r}")
        return cls(data["nu"], data["eta"], data["hypotheses"])
