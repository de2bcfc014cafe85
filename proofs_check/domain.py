"""The paper's standing assumptions, by symbol name.

A refutation is a claim about the paper only if its witness is a situation the paper
allows: a risk gap above 1, beta_2 = 0 or eps_l = 1 is not one. Every name below means the
same quantity in every step that uses it (checked by tests/proofs_check/test_deciders_and_pipeline.py against
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
    dyadic: bool = False  # a power of 1/2 (checked on counter-models; z3 cannot express it)

    def contains(self, value: Fraction) -> bool:
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            return False
        if self.high is not None and (value > self.high or (self.high_open and value == self.high)):
            return False
        if self.dyadic and not (value.numerator == 1 and value.denominator & (value.denominator - 1) == 0):
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
        return f"{low}{name}{high}" + (", a power of 1/2" if self.dyadic else "")


def _rational(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"Rational({value.numerator}, {value.denominator})"


_ZERO, _ONE, _HALF = Fraction(0), Fraction(1), Fraction(1, 2)
_GAP = Range(_ZERO, _ONE, why="an excess risk R_*(h) - R^* lies in [0, 1]")
_RISK = Range(_ZERO, _ONE, why="a risk lies in [0, 1]")
_MASS = Range(_ZERO, _ONE, why="rho_*(h, h') is a probability (nu_* of a disagreement region)")
_EPS_L = Range(_ZERO, _HALF, low_open=True, why="eps_l = 2^-l with l >= 1 (Algorithm 2, line 1)", dyadic=True)
_EPS_PREV = Range(_ZERO, _ONE, low_open=True, why="eps_j = 2^-j with j >= 0 (Algorithm 2, line 1)", dyadic=True)
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


@dataclass(frozen=True)
class Relation:
    """A standing assumption between several names: it applies to every step that uses all of
    `names` (each means one quantity in every step, as for STANDING). `premises` are relations
    plain sympify reads (added as premises when a counter-model breaks them); `dyadic` names
    must also be powers of 1/2 relative to the first name (checked on every counter-model, not
    expressible to z3: a model that breaks it is rejected, never reported)."""

    names: tuple[str, ...]
    premises: tuple[str, ...]
    why: str
    dyadic: bool = False

    def holds(self, point: dict) -> bool:
        import sympy as sp

        values = {sp.Symbol(n, real=True): sp.Rational(str(Fraction(point[n]))) for n in self.names}
        for text in self.premises:
            relation = sp.sympify(text, locals={n: sp.Symbol(n, real=True) for n in self.names})
            if not bool(relation.subs(values)):
                return False
        if self.dyadic:
            ratio = Fraction(point[self.names[1]]) / Fraction(point[self.names[0]])
            if ratio <= 0 or ratio.denominator != 1 or ratio.numerator & (ratio.numerator - 1):
                return False
        return True


_GAP_NAMES = ("Delta", "Delta_h", "Delta_s", "Delta_hp", "Delta_hat", "Delta_out", "Dh", "Ds")
_RISK_NAMES = ("R_star", "Rstar")
_WHY_RISK = "R^* + Delta_h = R_*(h) <= 1 (Section 2, 'Other notations', tex l. 216: Delta_h = R_*(h) - R^*)"
_WHY_RHO = (
    "|R_*(h) - R^*| <= rho_*(h, h^*) <= R_*(h) + R^* (Section 2, tex l. 191 and 216: h and h^* "
    "differ only where they disagree, and one of them errs there)"
)
_WHY_FLOOR = (
    "D^_h^{l-1} >= eps_{l-1} = 2 eps_l for l >= 2 (Algorithm 2, tex l. 360: D^_h^l = max{eps_l, ...}); "
    "at l = 1, D^_h^0 = 0 (tex l. 333)"
)
_WHY_EPS_J = (
    "eps_j = 2^-j with j <= l - 1 (Algorithm 2, tex l. 333; the estimation lemma's j, tex l. 835): "
    "eps_j / eps_l is a power of 2, at least 2, and eps_j <= 1"
)
_WHY_CORRUPTION = (
    "c_t <= 1 each round (Section 2, tex l. 201: eta_t^x in [0, 1]), so a corruption over m rounds is at most m"
)


def _floor(name: str, eps: str) -> Relation:
    return Relation(
        (eps, name),
        (f"Or({name} >= 2*{eps}, And(Eq({eps}, Rational(1, 2)), Eq({name}, 0)))", f"{name} <= 1"),
        _WHY_FLOOR,
    )


RELATIONS: tuple[Relation, ...] = (
    *(Relation((r, g), (f"{r} + {g} <= 1",), _WHY_RISK) for r in _RISK_NAMES for g in _GAP_NAMES),
    # rho_h is rho_*(h, h^*) wherever it appears with Delta_h (calruption_gap.est.*, corrected.thm41.labels.*)
    *(
        Relation((r, rho, g), (f"{rho} >= {g}", f"{rho} <= 2*{r} + {g}"), _WHY_RHO)
        for r in _RISK_NAMES
        for rho, g in (("rho_h", "Delta_h"), ("rho_hp", "Delta_hp"))
    ),
    # D^^{l-1} of the gap lemmas (calruption_gap: Dp_*, eps_l) and of their corrected chains (Ph, Ps, Pst, e)
    *(_floor(name, "eps_l") for name in ("Dp_h", "Dp_s", "Dp_hp", "Dp_star")),
    _floor("M", "eps_l"),  # M = max of a pair's D^^{l-1} (calruption_gap.est.statement, the only step with both)
    *(_floor(name, "e") for name in ("Ph", "Ps", "Pst")),
    Relation(("eps_Lm1", "Dhat"), ("Dhat >= eps_Lm1", "Dhat <= 1"), _WHY_FLOOR),
    Relation(("eps_l", "eps_j"), ("eps_j >= 2*eps_l", "eps_j <= 1"), _WHY_EPS_J, dyadic=True),
    Relation(("e", "ej"), ("ej >= 2*e", "ej <= 1"), _WHY_EPS_J, dyadic=True),  # corrected.lemma51.dyadic.*
    Relation(("eps_l", "eps_prev"), ("Eq(eps_prev, 2*eps_l)",), "eps_{l-1} = 2 eps_l (Algorithm 2, tex l. 333)"),
    Relation(("t", "C"), ("C <= t",), _WHY_CORRUPTION),
    Relation(("n", "C_total"), ("C_total <= n",), _WHY_CORRUPTION),
    Relation(("N_l", "C_l"), ("C_l <= N_l",), _WHY_CORRUPTION),
    # C-bar_total weighs each epoch's corruption by R^* or 1 (Theorem 5.1, tex l. 413), so it is at most C_total <= n
    Relation(("n", "Cbar"), ("Cbar <= n",), _WHY_CORRUPTION),
)
_RELATION_NAMES = {n for r in RELATIONS for n in r.names}


def names_in(texts) -> set[str]:
    return {n for t in texts for n in _NAME.findall(t) if n in STANDING}


def _all_names(texts) -> set[str]:
    return {n for t in texts for n in _NAME.findall(t)}


def relations_in(names) -> tuple[Relation, ...]:
    names = set(names)
    return tuple(r for r in RELATIONS if set(r.names) <= names)


def standing_premises(texts) -> tuple[str, ...]:
    """The standing ranges of the names the relations `texts` use, and the standing relations
    among them, as premises."""
    ranges = tuple(p for n in sorted(names_in(texts)) for p in STANDING[n].premises(n))
    return ranges + tuple(p for r in relations_in(_all_names(texts)) for p in r.premises)


def violations(point: dict) -> list[str]:
    """The standing assumptions a point (name -> Fraction or its string) breaks, in words."""
    out = []
    for name, value in sorted(point.items()):
        rng = STANDING.get(name)
        if rng is not None and not rng.contains(Fraction(value)):
            out.append(f"{name} = {Fraction(value)} outside {rng.text(name)} ({rng.why})")
    for relation in relations_in(point):
        if not relation.holds(point):
            values = ", ".join(f"{n} = {Fraction(point[n])}" for n in relation.names)
            dyadic = " or a ratio that is not a power of 2" if relation.dyadic else ""
            out.append(f"{values} breaks {'; '.join(relation.premises)}{dyadic} ({relation.why})")
    return out
