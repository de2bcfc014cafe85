"""The decision pipeline for one step: sympy (identities), z3 (inequalities under
premises), Hypothesis search (counterexamples), in that order. A refutation is reported
only after the counterexample is re-verified exactly against every premise and the claim.

Statuses: proved (with the method), refuted (with the exact counterexample), unknown
(with the reasons each decider gave), not mechanical (with the step's reason), not
well-formed as printed (with the step's reason). The report adds "proved from a refuted
premise" after propagating verdicts through the steps' `uses` (report.propagate)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import hypothesis
import sympy as sp

from . import decide_search, decide_sympy, decide_z3
from .domain import standing_premises, violations
from .exact import is_counterexample
from .parse import relation
from .step import ILL_FORMED, NOT_MECHANICAL, Repair, Step

PROVED, REFUTED, UNKNOWN, NOT_MECH = "proved", "refuted", "unknown", "not mechanical"
NOT_WELL_FORMED = ILL_FORMED  # a status as well as a kind
PROVED_FROM_REFUTED = "proved from a refuted premise"
SHARP_STEPS = 24  # bisection steps for a sharp constant: the interval shrinks by 2^-24


@dataclass
class Verdict:
    status: str
    method: str = ""
    counterexample: dict[str, Fraction] | None = None
    reason: str = ""
    repair: Verdict | None = None
    refuted_premises: tuple[str, ...] = ()  # refuted steps this one rests on (report.propagate)
    sharp: tuple[Fraction, Fraction] | None = None  # (refuted at, proved at) for a Repair.sharp
    # the standing assumptions (domain.STANDING) added after a counter-model fell outside them, and that
    # rejected model's violations in words: a refutation never rests on a model outside the paper's domain
    standing: tuple[str, ...] = ()
    rejected: tuple[str, ...] = ()


def reduce_definitions(premises, claim, integers=frozenset()):
    """Premises Eq(symbol, expression) are definitions: the defined symbol is replaced by
    its expression everywhere and the definition dropped. A counterexample is then a
    point of the free variables only, so a defined quantity that is irrational there (a
    square root) never has to be rounded."""
    subs = decide_sympy.definitions(premises, integers)
    if not subs:
        return tuple(premises), claim
    kept = []
    for p in premises:
        r = relation(p, integers)
        if isinstance(r, sp.Eq) and r.lhs in subs:
            continue
        kept.append(sp.sstr(r.xreplace(subs)))
    return tuple(kept), sp.sstr(relation(claim, integers).xreplace(subs))


def decide_claim(premises, claim, integers=frozenset()) -> Verdict:
    """Decide `claim` under `premises`. A counter-model outside the paper's standing assumptions
    (domain.STANDING: beta2 >= 5/32, eps_l <= 1/2, gaps and masses in [0, 1], ...) is rejected: the
    claim is decided again with the ranges of the names it uses added as premises (listed in
    `Verdict.standing`), and a witness still outside them is never reported as a refutation."""
    verdict = _decide_claim(premises, claim, integers)
    if verdict.status != REFUTED or not violations(verdict.counterexample):
        return verdict
    rejected = tuple(violations(verdict.counterexample))
    present = set(premises)
    extra = tuple(p for p in standing_premises((*premises, claim)) if p not in present)
    again = _decide_claim((*premises, *extra), claim, integers)
    again.standing, again.rejected = extra, rejected
    if again.status == REFUTED and violations(again.counterexample):
        again = _dyadic_retry(premises, extra, claim, integers, again)
    if again.status == REFUTED and violations(again.counterexample):
        return Verdict(
            UNKNOWN,
            reason="every counter-model found lies outside the standing assumptions: "
            + "; ".join(violations(again.counterexample)),
            standing=extra,
            rejected=rejected,
        )
    return again


def _dyadic_retry(premises, extra, claim, integers, verdict: Verdict) -> Verdict:
    """A model that breaks only a dyadic relation (eps_j / eps_l a power of 2): decide again with the ratio
    fixed at each power of 2 in range (a refutation found with a value fixed is a refutation; a proof there
    proves nothing, so only refutations are kept)."""
    from .domain import RELATIONS

    point = verdict.counterexample
    for rule in RELATIONS:
        if not rule.dyadic or not set(rule.names) <= set(point) or rule.holds(point):
            continue
        base, name = rule.names
        for k in range(1, 21):
            fixed = (f"Eq({name}, {2**k}*{base})",)
            trial = _decide_claim((*premises, *extra, *fixed), claim, integers)
            if trial.status == REFUTED and not violations(trial.counterexample):
                trial.standing, trial.rejected = (*extra, *fixed), verdict.rejected
                return trial
    return verdict


@lru_cache(maxsize=4096)
def _consistent(premises: tuple[str, ...], integers: frozenset) -> bool | None:
    """decide_z3.consistent, once per premise set: a bisection asks it again at every probe of
    a constant that sits in the claim only, with the same premises. z3 runs under a resource limit, not a
    clock, so the answer is the same each time and caching it changes no verdict."""
    return decide_z3.consistent(premises, integers)


def _decide_claim(premises, claim, integers=frozenset()) -> Verdict:
    integers = frozenset(integers)
    status, info = decide_sympy.decide(premises, claim, integers)
    if status == "proved":
        return Verdict(PROVED, method=info)
    reasons = [info]
    premises, claim = reduce_definitions(premises, claim, integers)
    if _consistent(tuple(premises), integers) is False:
        return Verdict(UNKNOWN, reason="premises are inconsistent: the claim would hold vacuously (an encoding error)")
    status, info = decide_z3.decide(premises, claim, integers)
    if status == "proved":
        return Verdict(PROVED, method=info)
    if status == "candidate":
        if is_counterexample(list(premises), claim, info, integers):
            return Verdict(REFUTED, method="z3 model, re-verified exactly", counterexample=info)
        reasons.append("z3: its model did not survive exact re-verification")
    else:
        reasons.append(info)
    status, info = decide_search.decide(premises, claim, integers)
    if status == "candidate":  # decide_search only returns exactly verified points
        return Verdict(REFUTED, method="Hypothesis search, re-verified exactly", counterexample=info)
    reasons.append(info)
    return Verdict(UNKNOWN, reason="; ".join(reasons))


def _sharp(repair: Repair, premises, integers) -> tuple[Fraction, Fraction] | None:
    """Bisect the constant `repair.sharp[0]` over [low, high] for the boundary between
    refuted and proved values (z3 decides each probe; refuted probes are re-verified)."""
    name, low_text, high_text = repair.sharp
    low, high = Fraction(low_text), Fraction(high_text)
    want_min = repair.sharp_direction == "min"

    def verdict_at(value):
        # the constant may sit in a premise too (a condition such as beta1 >= B beta3)
        at = {sp.Symbol(name, real=True): sp.Rational(value.numerator, value.denominator)}
        claim = str(relation(repair.claim, integers).xreplace(at))
        return decide_claim([str(relation(p, integers).xreplace(at)) for p in premises], claim, integers).status

    good, bad = (high, low) if want_min else (low, high)
    if verdict_at(good) != PROVED or verdict_at(bad) != REFUTED:
        return None
    for _ in range(repair.sharp_steps or SHARP_STEPS):
        middle = (good + bad) / 2
        status = verdict_at(middle)
        if status == PROVED:
            good = middle
        elif status == REFUTED:
            bad = middle
        else:
            break
    return bad, good


def decide_step(step: Step) -> Verdict:
    if step.kind == NOT_MECHANICAL:
        return Verdict(NOT_MECH, reason=step.reason)
    if step.kind == ILL_FORMED:
        return Verdict(NOT_WELL_FORMED, reason=step.reason)
    integers = frozenset(step.integers)
    verdict = decide_claim(step.premises, step.claim, integers)
    if step.repair is not None:
        premises = step.repair.premises or step.premises
        if step.repair.sharp:
            verdict.sharp = _sharp(step.repair, premises, integers)
            verdict.repair = Verdict(
                PROVED if verdict.sharp else UNKNOWN,
                method="bisection on the constant with z3" if verdict.sharp else "",
                reason="" if verdict.sharp else "the range given does not bracket the constant",
            )
        else:
            verdict.repair = decide_claim(premises, step.repair.claim, integers)
    return verdict


def decider_versions() -> str:
    """The verdicts (z3 under an rlimit, a derandomized search) are deterministic for
    fixed versions of the deciders; the report names them."""
    return f"z3 {decide_z3.z3.get_version_string()}, sympy {sp.__version__}, hypothesis {hypothesis.__version__}"
