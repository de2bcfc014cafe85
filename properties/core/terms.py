"""What a failure shows of a number that differs: the exact rationals, their decimals (10
significant digits), the difference (absolute and relative), and for a value computed by a
formula of the paper each term of the formula, on the candidate's inputs and on the exact
ones, so that the term that is wrong stands out.

`mismatch(name, candidate, exact)` is the one line of a value against its exact one;
`*_terms(...)` give a formula's breakdown as rows {"term", "candidate", "exact",
"difference"} (all text: a report prints them or writes them as JSON), attached to a
Violation as its `terms` (properties/core/violation.py) and printed by `table` as an aligned
text table. Where the formula is a sum and the candidate reports only the total, the total
is read back onto the terms (`_implied_term`): when exactly one term times a small rational
(1/2, 2, 0, ...) accounts for the whole difference, the table says which term that is and
what the candidate's total implies for it, e.g. "rho^ / 2 as the reported total implies:
rho^ / 4"."""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction

DIGITS = 10  # significant digits of a decimal
_WORK_DIGITS = 40  # of the square roots and logarithms behind a breakdown (display only)
SHORT_RATIONAL = 21  # a rational up to this many characters is shown beside its decimal
# a term times one of these explains a difference (denominators and numerators up to 12)
_SIMPLE_DENOMINATOR = 12
_MATCH = Fraction(1, 10**9)  # relative closeness that counts as "explains" (far above 2^-64 enclosures)


def point(value) -> Fraction | None:
    """A number as one rational (an enclosure's midpoint: an object with lo and hi), or None
    for what is not one (a list, even of two numbers, is not an enclosure: it may be a
    version space)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(value) if math.isfinite(value) else None
    lo, hi = point(getattr(value, "lo", None)), point(getattr(value, "hi", None))
    if lo is None or hi is None:
        return None
    return (lo + hi) / 2


def decimal(value, digits: int = DIGITS) -> str:
    """About `digits` (DIGITS) significant digits of a number (a rational of any size, an
    enclosure's midpoint); the value's repr when it is not a number."""
    x = point(value)
    if x is None:
        return repr(value)
    if x == 0:
        return "0"
    with localcontext() as context:
        context.prec = digits + 2
        text = f"{Decimal(x.numerator) / Decimal(x.denominator):.{digits}g}"
    mantissa, e, exponent = text.partition("e")
    if "." in mantissa:  # 0.2500000000 -> 0.25: the digits shown are the digits there are
        mantissa = mantissa.rstrip("0").rstrip(".")
    return mantissa + e + exponent


def shown(value) -> str:
    """A table cell: a short rational with its decimal ("1/4 = 0.25"), else the decimal."""
    x = point(value)
    if x is None:
        return repr(value)
    exact_enough = isinstance(value, (Fraction, int)) and not isinstance(value, bool)
    text = str(x)
    if exact_enough and len(text) <= SHORT_RATIONAL:
        return text if x.denominator == 1 else f"{text} = {decimal(x)}"
    return f"{decimal(x)}" if exact_enough else f"~ {decimal(x)}"


def difference(candidate, exact) -> str:
    """candidate - exact, absolute and relative to |exact|."""
    c, e = point(candidate), point(exact)
    if c is None or e is None:
        return "undefined (not a number)"
    if _meets(candidate, exact) or c == e:
        return "0 (agrees)"
    d = c - e
    text = f"{'+' if d > 0 else ''}{decimal(d)}"
    if e != 0:
        text += f" ({'+' if d > 0 else ''}{decimal(100 * d / abs(e), 4)}%)"
    return text


def _bounds(value):
    lo, hi = getattr(value, "lo", None), getattr(value, "hi", None)
    if isinstance(lo, Fraction) and isinstance(hi, Fraction):
        return lo, hi
    x = point(value)
    return (x, x) if x is not None else None


def _meets(a, b) -> bool:
    """Whether two numbers or enclosures overlap (then they agree: neither is wrong)."""
    first, second = _bounds(a), _bounds(b)
    if first is None or second is None:
        return False
    return first[0] <= second[1] and second[0] <= first[1]


def mismatch(name: str, candidate, exact) -> str:
    """One line: name, the candidate's value and the exact one (rationals and decimals),
    and their difference."""

    def both(v):
        x = point(v)
        if x is None:
            return repr(v)
        rational = str(x) if isinstance(v, (Fraction, int)) else f"[{_bounds(v)[0]}, {_bounds(v)[1]}]"
        return f"{rational} (~ {decimal(x)})"

    return f"{name}: candidate {both(candidate)}, exact {both(exact)}, difference {difference(candidate, exact)}"


def mismatch_values(candidate, exact) -> dict:
    """The decimals and the difference of a value against its exact one, as values of a
    Violation (beside the exact rationals the check shows)."""
    return {
        "candidate_decimal": decimal(candidate),
        "exact_decimal": decimal(exact),
        "difference": difference(candidate, exact),
    }


def row(term: str, candidate, exact) -> dict:
    """One row of a breakdown."""
    return {
        "term": term,
        "candidate": shown(candidate),
        "exact": shown(exact),
        "difference": difference(candidate, exact),
    }


def table(terms, indent: str = "    ") -> str:
    """The rows as an aligned text table (an empty string without rows)."""
    if not terms:
        return ""
    header = {"term": "term", "candidate": "candidate", "exact": "exact", "difference": "difference"}
    lines = [header, *terms]
    widths = {k: max(len(str(line.get(k, ""))) for line in lines) for k in header}
    out = []
    for line in lines:
        cells = [f"{str(line.get(k, '')):<{widths[k]}}" for k in ("term", "candidate", "exact")]
        out.append(indent + "  ".join(cells) + "  " + str(line.get("difference", "")))
    return "\n".join(out)


# -- numbers for the breakdowns (display only: DIGITS of 40 computed) ---------------------
def _sqrt(x: Fraction) -> Fraction:
    if x <= 0:
        return Fraction(0)
    with localcontext() as context:
        context.prec = _WORK_DIGITS
        return Fraction((Decimal(x.numerator) / Decimal(x.denominator)).sqrt())


def _ln(x: Fraction) -> Fraction | None:
    if x <= 0:
        return None
    with localcontext() as context:
        context.prec = _WORK_DIGITS
        return Fraction((Decimal(x.numerator) / Decimal(x.denominator)).ln())


def _exp(x: Fraction) -> Fraction | None:
    with localcontext() as context:
        context.prec = _WORK_DIGITS
        try:
            return Fraction((Decimal(x.numerator) / Decimal(x.denominator)).exp())
        except ArithmeticError:
            return None


def _simple(ratio: Fraction) -> Fraction | None:
    """The small rational (numerator and denominator up to 12) `ratio` is, if any."""
    near = ratio.limit_denominator(_SIMPLE_DENOMINATOR)
    if abs(near.numerator) > _SIMPLE_DENOMINATOR or abs(ratio - near) > _MATCH * max(1, abs(ratio)):
        return None
    return near


def _implied_term(addends, reported, exact_total) -> list[dict]:
    """For a sum whose candidate reports only the total: where the reported total differs
    from the sum of its terms on the candidate's inputs by exactly a simple multiple of one
    term (and of no other), the row of that term as the total implies it."""
    total, shown_total = point(reported), Fraction(sum(c for _, c, _ in addends))
    if total is None or _meets(reported, shown_total):
        return []
    residual = total - shown_total
    if abs(residual) <= _MATCH * max(1, abs(shown_total)):
        return []
    explained = []
    for label, c, e in addends:
        if c == 0:
            continue
        factor = _simple((c + residual) / c)
        if factor is not None and factor != 1:
            explained.append((label, c * factor, e, factor))
    if len(explained) != 1:
        return []
    label, implied, e, factor = explained[0]
    return [row(f"{label} as the reported total implies ({factor} x the formula's)", implied, e)]


def threshold_terms(beta, rho, t: int, vanilla: bool, reported, beta_exact, rho_exact) -> list[dict]:
    """Algorithm 1, line 10's right-hand side sqrt(2 beta_t rho^ / t) + 3 beta_t / (2t)
    (+ rho^ / 2 unless vanilla), term by term: on the candidate's beta_t and rho^ as it
    reported them, against the exact ones; then the reported total against the exact."""
    be, re = point(beta_exact), point(rho_exact)
    # an input that meets its exact value is that value: the terms then differ only where the formula does
    b = be if _meets(beta, beta_exact) else point(beta)
    r = re if _meets(rho, rho_exact) else point(rho)
    rows = [row("beta_t", beta, beta_exact), row("rho^_t(h, h^_t)", rho, rho_exact)]
    if None in (b, r, be, re):
        return rows + [row("threshold", reported, None)]
    addends = [
        ("sqrt(2 beta_t rho^ / t)", _sqrt(2 * b * r / t), _sqrt(2 * be * re / t)),
        ("3 beta_t / (2t)", b * Fraction(3, 2 * t), be * Fraction(3, 2 * t)),
    ]
    if not vanilla:
        addends.append(("rho^ / 2", r / 2, re / 2))
    rows += [row(label, c, e) for label, c, e in addends]
    exact_total = sum(e for _, _, e in addends)
    rows.append(row("threshold (the sum)", reported, exact_total))
    return rows + _implied_term(addends, reported, exact_total)


def beta_terms(params, t: int, reported) -> list[dict]:
    """beta_t = beta_scale ln(3 k |H|^2 / delta), k = log2 t (Algorithm 1, line 9): the
    argument, its logarithm and the product; and the argument the reported beta_t implies
    (exp(beta_t / beta_scale)), where a wrong k, |H| or delta shows."""
    k = t.bit_length() - 1
    argument = Fraction(3 * k * params.num_hypotheses**2) / Fraction(params.delta)
    scale = Fraction(params.beta_scale)
    logarithm = _ln(argument)
    rows = [
        row("k = log2 t", k, k),
        row("3 k |H|^2 / delta", argument, argument),
        row("ln(3 k |H|^2 / delta)", logarithm, logarithm),
        row("beta_scale", scale, scale),
        row("beta_t", reported, scale * logarithm if logarithm is not None else None),
    ]
    got = point(reported)
    if got is not None and scale > 0 and logarithm is not None and not _meets(reported, scale * logarithm):
        implied = _exp(got / scale)
        if implied is not None:
            rows.append(row("3 k |H|^2 / delta as the reported beta_t implies", implied, argument))
    return rows


def alpha_terms(beta3, length: int, min_q, rho, reported, min_q_exact=None, rho_exact=None) -> list[dict]:
    """Catoni's alpha = sqrt(2 beta3 min q / (5 |I_l| rho^)) (Algorithm 2, line 8; FINDINGS
    R10): its inputs as the candidate reported them and exact, the quotient under the
    root, and alpha itself."""
    min_q_exact = min_q if min_q_exact is None else min_q_exact
    rho_exact = rho if rho_exact is None else rho_exact
    b3 = point(beta3)
    mq, r, mqe, re = point(min_q), point(rho), point(min_q_exact), point(rho_exact)
    rows = [
        row("min q over Dis(h, h')", min_q, min_q_exact),
        row("rho^_l(h, h')", rho, rho_exact),
        row("|I_l|", length, length),
        row("beta3", b3, b3),
    ]
    if None in (b3, mq, r, mqe, re) or r == 0 or re == 0:
        return rows + [row("alpha", reported, None)]
    quotient, quotient_exact = 2 * b3 * mq / (5 * length * r), 2 * b3 * mqe / (5 * length * re)
    rows.append(row("2 beta3 min q / (5 |I_l| rho^)", quotient, quotient_exact))
    rows.append(row("alpha", reported, _sqrt(quotient_exact)))
    got = point(reported)
    if got is not None and got > 0 and not _meets(reported, _sqrt(quotient_exact)):
        rows.append(row("2 beta3 min q / (5 |I_l| rho^) as the reported alpha implies", got * got, quotient_exact))
    return rows


def gap_terms(l: int, risk, best_risk, beta2, best_prev_gap, reported) -> list[dict]:
    """Algorithm 2, line 11: Delta^^l_h = max(eps_l, R_D^(h) - R_D^(h^*_l) - beta2
    Delta^^{l-1}_{h^*_l}), term by term from the record's own R_D^ and the previous
    Delta^ (so the rows are the same numbers on both sides; the last one differs)."""
    eps = Fraction(1, 2**l)
    r, rb, b2, g = point(risk), point(best_risk), point(beta2), point(best_prev_gap)
    if None in (r, rb, b2, g):
        return [row("Delta^^l_h", reported, None)]
    penalty = b2 * g
    difference_ = r - rb - penalty
    exact = max(eps, difference_)
    return [
        row("eps_l", eps, eps),
        row("R_D^(h)", r, r),
        row("R_D^(h^*_l)", rb, rb),
        row("beta2 Delta^^{l-1}_{h^*_l}", penalty, penalty),
        row("R_D^(h) - R_D^(h^*) - beta2 Delta^^{l-1}_{h^*}", difference_, difference_),
        row("Delta^^l_h = max(eps_l, that)", reported, exact),
    ]


def next_q_terms(l: int, rho, level: int, reported) -> list[dict]:
    """Algorithm 2, line 13: q_{l+1}^x = max over Z(x) of rho^_l(h, h') 4^(k - l - 1), for
    the pair that attains the max: its rho^, its k, the factor, and q."""
    factor = Fraction(4**level, 4 ** (l + 1))
    r = point(rho)
    rows = [row("rho^_l(h, h') of the maximising pair", rho, rho), row("k (the pair's common layer)", level, level)]
    rows.append(row("4^(k - l - 1)", factor, factor))
    exact = r * factor if r is not None else None
    rows.append(row("q_{l+1}^x", reported, exact))
    got = point(reported)
    if got is not None and r and exact is not None and got != exact:
        rows.append(row("4^(k - l - 1) as the reported q implies", got / r, factor))
    return rows


def catoni_terms(alpha, values, counts, reported, root) -> list[dict]:
    """Algorithm 2, line 8's W: the root of f(z) = sum_i c_i psi(alpha (X_i - z)) of the
    samples recomputed from the tape, with the candidate's alpha: alpha, how many samples,
    their mean (the root for small alpha), and W against the exact root."""
    total = sum(counts)
    mean = sum((Fraction(v) * c for v, c in zip(values, counts)), Fraction(0)) / total if total else None
    return [
        row("alpha (the candidate's)", alpha, alpha),
        row("samples X_t (recomputed: |I_l|)", total, total),
        row("their mean", mean, mean),
        row("W, the root of sum psi(alpha (X_t - z))", reported, root),
    ]


__all__ = [
    "alpha_terms",
    "beta_terms",
    "catoni_terms",
    "decimal",
    "difference",
    "gap_terms",
    "mismatch",
    "mismatch_values",
    "next_q_terms",
    "point",
    "row",
    "shown",
    "table",
    "threshold_terms",
]
