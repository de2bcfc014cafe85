"""The paper's standing assumptions, by symbol name (issue 29, item 2).

A refutation is a claim about the paper only if its witness is a situation the paper
allows: a risk gap above 1, beta_2 = 0 or eps_l = 1 is not one. Every name below means the
same quantity in every step that uses it (checked by tests/test_proofs_check.py against
the encoded steps), so its range is a standing assumption of every step it appears in.

`decide.decide_claim` rejects a counter-model outside these ranges: it decides the step
again with the ranges of the names it uses added as premises (`Verdict.standing` lists
them), so a refutation either has a witness inside the domain or is not reported."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Range:
    low: Fraction | None
    high: Fraction | None
    low_open: bool = False
    high_open: bool = False
    why: str = ""

    def contains(self, value: Fraction) -> bool:
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            return False
        if self.high is not None and (value > self.high or (self.high_open and value == self.high)):
            return False
        return True

    def premises(self, name: str) -> tuple[str, ...]:
        out = []
        if self.low is not None:
            out.append(f"{name} {'>' if self.low_open else '>='} {_rational(self.low)}")
        if self.high is not None:
            out.append(f"{name} {'<' if self.high_open else '<='} {_rational(self.high)}")
        return tuple(out)

    def text(self, name: str) -> str:
        low = "" if self.low is None else f"{self.low} {'<' if self.low_open else '<='} "
        high = "" if self.high is None else f" {'<' if self.high_open else '<='} {self.high}"
        return f"{low}{name}{high}"


def _rational(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"Rational({value.numerator}, {value.denominator})"


_ZERO, _ONE, _HALF = Fraction(0), Fraction(1), Fraction(1, 2)
_GAP = Range(_ZERO, _ONE, why="an excess risk R_*(h) - R^* lies in [0, 1]")
_RISK = Range(_ZERO, _ONE, why="a risk lies in [0, 1]")
_MASS = Range(_ZERO, _ONE, why="rho_*(h, h') is a probability (nu_* of a disagreement region)")
_EPS_L = Range(_ZERO, _HALF, low_open=True, why="eps_l = 2^-l with l >= 1 (Algorithm 2, line 1)")
_EPS_PREV = Range(_ZERO, _ONE, low_open=True, why="eps_j = 2^-j with j >= 0 (Algorithm 2, line 1)")
_Q = Range(_ZERO, _ONE, low_open=True, why="a query probability lies in (0, 1] (Algorithm 2, line 13)")

STANDING: dict[str, Range] = {
    # Algorithm 2, line 1 sets beta_2 = 5/32; the upper-bound lemma uses beta_2 >= 5/32 (tex l. 957)
    "beta2": Range(Fraction(5, 32), None, why="beta_2 >= 5/32 (Algorithm 2 sets 5/32; tex l. 957)"),
    "delta": Range(_ZERO, _ONE, low_open=True, high_open=True, why="the confidence delta lies in (0, 1)"),
    "eps": Range(_ZERO, _ONE, low_open=True, why="a target accuracy lies in (0, 1] (every excess risk is <= 1)"),
    "eps_l": _EPS_L,
    "eps_i": _EPS_L,
    "eps_k": _EPS_L,
    "eps_Lm1": _EPS_L,
    "eps_prev": _EPS_PREV,
    "eps_lm1": _EPS_PREV,
    "eps_j": _EPS_PREV,
    "R_star": _RISK,
    "Rstar": _RISK,
    "Delta": _GAP,
    "Delta_h": _GAP,
    "Delta_s": _GAP,
    "Delta_hp": _GAP,
    "Delta_hat": _GAP,
    "Delta_out": _GAP,
    "Dh": _GAP,
    "Ds": _GAP,
    "rho": _MASS,
    "rho_h": _MASS,
    "rho_hp": _MASS,
    "rho_star": _MASS,
    "q_x": _Q,
    "q_min": _Q,  # not "q": several steps name a root q = sqrt(4 rho l)
    "c": Range(_ZERO, _ONE, why="a corruption rate C/n: c_t = max_x |eta_t^x - eta_*^x| <= 1 each round"),
    "g_prev": Range(_ZERO, None, why="g_{l-1} is a weighted corruption, >= 0"),
    "gp": Range(_ZERO, None, why="g_{l-1} is a weighted corruption, >= 0"),
}

_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def names_in(texts) -> set[str]:
    return {n for t in texts for n in _NAME.findall(t) if n in STANDING}


def standing_premises(texts) -> tuple[str, ...]:
    """The standing ranges of the names the relations `texts` use, as premises."""
    return tuple(p for n in sorted(names_in(texts)) for p in STANDING[n].premises(n))


def violations(point: dict) -> list[str]:
    """The standing assumptions a point (name -> Fraction or its string) breaks, in words."""
    out = []
    for name, value in sorted(point.items()):
        rng = STANDING.get(name)
        if rng is not None and not rng.contains(Fraction(value)):
            out.append(f"{name} = {Fraction(value)} outside {rng.text(name)} ({rng.why})")
    return out
