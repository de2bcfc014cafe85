"""One judgement of a candidate's numbers, for every arithmetic it may declare.

A check recomputes a quantity of the paper exactly (from the tape, the parameters or the
candidate's own earlier numbers) and must decide whether the candidate's value is that
quantity. For an exact candidate the answer is equality (or, for an irrational quantity,
enclosure meets enclosure). For a float candidate (ARITHMETIC "float64" or "float32") it
is: the candidate's value lies within the error that a *correct* computation of the
paper's formula in that arithmetic may make. That error is not a fixed fudge: it is
derived here, operation by operation, by forward error analysis of the formula, on the
case's own data (how many terms a sum has, how large its terms are, alpha max|X| in
Catoni), in exact rationals.

`Bounded(lo, hi, err)` is a quantity as a correct computation may report it: the exact
value lies in the rational interval [lo, hi] (an enclosure when it is irrational, a
point when it is rational), and a correct computation in the candidate's arithmetic
returns a value within `err` of it. The operations of `Judgement` build such bounds the
way the standard model of floating-point arithmetic does (Higham, "Accuracy and
Stability of Numerical Algorithms", ch. 2-4): every operation is exact then rounded,
fl(a op b) = (a op b)(1 + d), |d| <= u, with u = 2^-53 (float64) or 2^-24 (float32);
inputs carry the errors of their own computation. The bound of each operation:

* a * b:  |a| e_b + |b| e_a + e_a e_b, then one rounding u (|ab| + that);
* a / b:  e_a / (|b| - e_b) + |a| e_b / (|b| (|b| - e_b)), then one rounding;
* a +- b: e_a + e_b, then one rounding;
* sum of k terms, in any order (pairwise or blocked included): sum e_i + gamma_{k-1}
  sum (|t_i| + e_i), gamma_k = k u / (1 - k u);
* sqrt a: min(sqrt e_a, e_a / sqrt a), then one rounding;
* ln a: e_a / (a - e_a), then 2u (a faithful libm log: within one ulp);
* max(a, b): max(e_a, e_b), no rounding; a power of two times a: exact.
Where |a| appears it is the largest |value| of a's enclosure, so every bound holds for
the true value wherever it lies in the enclosure. Every operation is allowed two
roundings (`ROUNDINGS_PER_OPERATION`), not one: a correct program may evaluate the same
formula in another order or with an extra intermediate (ln a - ln b for ln(a/b),
sqrt(a) sqrt(b), a product regrouped), which changes the first-order error by a small
factor; a count over |I_l| may also be summed from the rounded marginals (`ratio`'s
`terms`). Real bugs are orders of magnitude beyond these bounds. Each derivation admits
the formula as printed, evaluated left to right, and its cancelled, factored and
regrouped forms; tests/properties/checks/test_float_bounds_orders.py lists the orders of every entry of
DERIVATIONS and evaluates them in float64 and float32.

Inputs come in three kinds: `value` (known exactly to both sides: integers below 2^p,
powers of two, eps_l), `stored` (an exact rational the candidate must hold in its
format: one rounding unless representable), and `given` (a number the candidate itself
reported, which it may hold unrounded inside, e.g. a float64 alpha reported as float32:
u / (1 - u) relative).

Discrete decisions (an elimination test, an argmin, a coin against q, a ceiling) are
taken by a correct float computation from its rounded numbers; where the exact margin of
the decision lies within its bound (`undecided`), either branch is legitimate, and the
checks go on from the branch the candidate took (its own trace is the state). The
cross-check (properties/checks/crosscheck.py) takes its coin decisions from `coin_undecided`
too, so `check` and `crosscheck` call one rule legitimate.

The arithmetic of the candidate under judgement is set by the registry around each
check (`judging`), so a check function reads it with `current()`; called by hand, a check
judges exactly unless wrapped in `with judging("float64"):`."""

from __future__ import annotations

import contextvars
import math
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from reference.certified import Enclosure, Rational, ScaledLog, ln_enclosure, sqrt_enclosure

ARITHMETICS = ("exact", "float64", "float32")
SIGNIFICAND_BITS = {"float64": 53, "float32": 24}
BITS = 128  # precision of the enclosures of irrational exact values (far below any float error)
ROUNDINGS_PER_OPERATION = 2  # module notes: another evaluation order of the same formula

# What each derived bound covers, shown with every failure (the tolerance table's reasons
# for `check`; properties/checks/tolerances.py holds the cross-check's table).
DERIVATIONS = {
    "count_ratio": "a count over a count (R^, rho^, the x-marginal): both integers exact below 2^p, one division "
    "rounded (counts above 2^p: each rounded once more); a count over k points may also be summed from "
    "the k rounded marginals: gamma_{k+1} |value|",
    "beta_t": "beta_t = c ln(3 k |H|^2 / delta): delta and c stored (one rounding each), the argument's product and "
    "quotient rounded, a faithful ln (one ulp), the product by c rounded",
    "threshold": "sqrt(2 beta_t rho^ / t) + 3 beta_t / (2t) (+ rho^ / 2): beta_t's bound and rho^'s, then each "
    "product, quotient, square root and sum rounded once",
    "elimination": "L^_t(h) - L^_t(h^_t) against the threshold: both sides' bounds added; within them either "
    "decision is a correct float computation's",
    "N_l": "N_l = beta1 4^l: beta1 evaluated in the format (a ln if it is the paper's constant), times an exact "
    "power of 4; |I_l| is its ceiling, either integer when N_l is within that bound of one",
    "risk_hat": "R_D(h) = sum over S_l of p^_x (eta^_x or 1 - eta^_x): the candidate's reported p^ and eta^ "
    "(each possibly held unrounded: u/(1-u)), one subtraction and one product per term, a sum of |S_l| "
    "terms in any order (gamma_{|S_l|-1}); or regrouped (sum p^ eta^ + sum_{h(x)=1} p^ (1 - 2 eta^), "
    "p^ - p^ eta^), whose partial sums reach sum p^ (1 + eta^): gamma_{|S_l|+1} of that",
    "penalised": "R_D(h) + beta2 Delta^_h: R_D's bound, beta2 stored, one product and one sum rounded; h^*_l may "
    "be any hypothesis whose penalised value is within the bounds of the minimum",
    "gap_hat": "max(eps_l, R_D(h) - R_D(h^*) - beta2 Delta^_{h^*}): the penalised bounds, one subtraction, max "
    "adds nothing",
    "next_q": "q_{l+1} = beta1 rho^_l / N_{l+1} eps_k^-2 (line 13) with rho^ as reported (possibly held unrounded: "
    "u/(1-u)), then two roundings: the product beta1 rho^ and the quotient by N_{l+1}; beta1 / N_{l+1} is exactly "
    "4^-(l+1) (one float beta1, times a power of 4) and eps_k^-2 an exact power of 4, so the printed order, the "
    "cancelled rho^ 4^(k-l-1) and every regrouping lie within",
    "alpha": "sqrt(2 beta3 min q / (5 |I_l| rho^)): beta3 evaluated in the format (a ln), min q and rho^ as "
    "reported, each product, quotient and the square root rounded once",
    "weight": "sqrt(min q / rho^): min q and rho^ as reported, one quotient, one square root",
    "W": "Catoni's root: the samples +-1/q rounded once (the root moves by at most the largest sample shift: "
    "u max|X|), alpha as reported (a relative change r of alpha moves the root by <= 2r max|X| / (1-r)), and "
    "the solver's residual: an error k u sum c |psi| in f moves the root by <= k u max|X - z| "
    "(1 + ln(1 + alpha max|X - z|)) (fast/catoni.py's analysis, k = 64 for f summed over the distinct values; "
    "line 8 as printed sums psi over the |I_l| rounds one by one: k = 2 (|I_l| + 16) where larger): in all "
    "u max(1, max|X|) (k (1 + ln(1 + 2 alpha max|X|)) + 4)",
    "lp": "line 9's LP solved by a float solver: its feasibility / optimality tolerance (1e-7, HiGHS's default) "
    "plus twice a row's rounding, 4 (|S_l| + 2) u (each risk a sum of |S_l| terms, the difference, W, the "
    "product by w, eta^ reported from a wider solver), relative to the rows' scale max(1, max w (|W| + 1))",
    "coin": "Q_t = 1 iff u_t < q: a float candidate compares its rounding of u_t with its q; when u_t is not "
    "representable in the format and q lies within one ulp of u_t, either decision is correct",
    "query_bound": "q_{l+1} <= 1/4 max rho^_l with rho^ as reported: line 13 with k = l + 1 evaluated as next_q "
    "derives it (rho^ possibly held unrounded, two roundings)",
    "layer": "V^i = {h : Delta^_h <= eps_i} from the reported Delta^: exact (a reported Delta^ = eps_i is in V^i), "
    "unless the candidate decided on an unrounded Delta^ within u/(1-u) of eps_i",
}


@dataclass(frozen=True)
class Bounded:
    """The exact value lies in [lo, hi]; a correct computation returns it within err."""

    lo: Fraction
    hi: Fraction
    err: Fraction = Fraction(0)

    @property
    def magnitude(self) -> Fraction:
        return max(abs(self.lo), abs(self.hi))

    @property
    def low(self) -> Fraction:
        return self.lo - self.err

    @property
    def high(self) -> Fraction:
        return self.hi + self.err

    def accepts(self, candidate) -> bool:
        return self.low <= candidate <= self.high

    def excess(self, candidate) -> Fraction:
        """How far the candidate lies outside the exact enclosure (0 inside it)."""
        return max(self.lo - candidate, candidate - self.hi, Fraction(0))

    def shown(self) -> str:
        return str(self.lo) if self.lo == self.hi else f"[{self.lo}, {self.hi}]"


def _sqrt_hi(x: Fraction) -> Fraction:
    return sqrt_enclosure(Enclosure.point(x), BITS).hi


def _sqrt_lo(x: Fraction) -> Fraction:
    return sqrt_enclosure(Enclosure.point(x), BITS).lo


@dataclass(frozen=True)
class Judgement:
    arithmetic: str

    def __post_init__(self):
        if self.arithmetic not in ARITHMETICS:
            raise ValueError(f"arithmetic must be one of {ARITHMETICS}, got {self.arithmetic!r}")

    @property
    def exact(self) -> bool:
        return self.arithmetic == "exact"

    @cached_property
    def u(self) -> Fraction:
        """The unit roundoff (0 for exact arithmetic)."""
        return Fraction(0) if self.exact else Fraction(1, 2 ** SIGNIFICAND_BITS[self.arithmetic])

    def gamma(self, k: int) -> Fraction:
        """gamma_k = k u' / (1 - k u'), u' = ROUNDINGS_PER_OPERATION u."""
        unit = ROUNDINGS_PER_OPERATION * self.u
        k = max(k, 0)
        return k * unit / (1 - k * unit)

    # -- inputs ----------------------------------------------------------------------
    @staticmethod
    def value(v) -> Bounded:
        v = Fraction(v)
        return Bounded(v, v)

    def representable(self, v: Fraction) -> bool:
        """Whether v is a number of the format (ignoring the exponent range)."""
        if self.exact:
            return True
        d = v.denominator
        if d & (d - 1):
            return False
        n = abs(v.numerator)
        while n and n % 2 == 0:
            n //= 2
        return n.bit_length() <= SIGNIFICAND_BITS[self.arithmetic]

    def stored(self, v) -> Bounded:
        v = Fraction(v)
        return Bounded(v, v, Fraction(0) if self.representable(v) else self.u * abs(v))

    def count(self, k: int) -> Bounded:
        return self.stored(Fraction(k))

    def given(self, r) -> Bounded:
        r = Fraction(r)
        return Bounded(r, r, self.u / (1 - self.u) * abs(r))

    def constant(self, c) -> Bounded:
        """A parameter constant (beta1, beta3, ...) as the candidate evaluates it: a stored
        rational, or coefficient * ln(argument) with both stored."""
        if isinstance(c, Rational):
            return self.stored(c.value)
        if isinstance(c, ScaledLog):
            if c.argument == 1:
                return self.value(0)
            return self.mul(self.stored(c.coefficient), self.ln(self.stored(c.argument)))
        return self.stored(Fraction(c))

    # -- operations ------------------------------------------------------------------
    def rounded(self, a: Bounded, operations: int = 1) -> Bounded:
        """a after `operations` more roundings of its value (a product or quotient by a
        factor that cancels exactly, as beta1 against N_{l+1} in line 13)."""
        for _ in range(operations):
            a = self._round(a.lo, a.hi, a.err)
        return a

    def _round(self, lo: Fraction, hi: Fraction, err: Fraction, ulps: int = 1) -> Bounded:
        unit = ROUNDINGS_PER_OPERATION * ulps * self.u
        return Bounded(lo, hi, err + unit * (max(abs(lo), abs(hi)) + err))

    def mul(self, a: Bounded, b: Bounded) -> Bounded:
        products = (a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi)
        err = a.magnitude * b.err + b.magnitude * a.err + a.err * b.err
        return self._round(min(products), max(products), err)

    def div(self, a: Bounded, b: Bounded) -> Bounded:
        if b.lo <= 0 <= b.hi:
            raise ValueError(f"division by an enclosure that contains 0: [{b.lo}, {b.hi}]")
        smallest = min(abs(b.lo), abs(b.hi))
        if b.err >= smallest:
            raise ValueError(f"the divisor's error {b.err} reaches its size {smallest}")
        quotients = (a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi)
        err = a.err / (smallest - b.err) + a.magnitude * b.err / (smallest * (smallest - b.err))
        return self._round(min(quotients), max(quotients), err)

    def add(self, a: Bounded, b: Bounded) -> Bounded:
        return self._round(a.lo + b.lo, a.hi + b.hi, a.err + b.err)

    def sub(self, a: Bounded, b: Bounded) -> Bounded:
        return self._round(a.lo - b.hi, a.hi - b.lo, a.err + b.err)

    def sum(self, terms) -> Bounded:
        terms = list(terms)
        if not terms:
            return self.value(0)
        lo = sum((t.lo for t in terms), Fraction(0))
        hi = sum((t.hi for t in terms), Fraction(0))
        errors = sum((t.err for t in terms), Fraction(0))
        size = sum((t.magnitude + t.err for t in terms), Fraction(0))
        return Bounded(lo, hi, errors + self.gamma(len(terms) - 1) * size)

    def sqrt(self, a: Bounded) -> Bounded:
        if a.lo < 0:
            raise ValueError(f"square root of an enclosure below 0: [{a.lo}, {a.hi}]")
        root = sqrt_enclosure(Enclosure(a.lo, a.hi), BITS)
        err = _sqrt_hi(a.err) if a.err else Fraction(0)
        if a.err and a.lo > 0:
            err = min(err, a.err / _sqrt_lo(a.lo))
        return self._round(root.lo, root.hi, err)

    def ln(self, a: Bounded) -> Bounded:
        if a.lo - a.err <= 0:
            raise ValueError(f"ln of an enclosure that may reach 0: [{a.lo}, {a.hi}] +- {a.err}")
        lo, hi = ln_enclosure(a.lo, BITS).lo, ln_enclosure(a.hi, BITS).hi
        return self._round(lo, hi, a.err / (a.lo - a.err), ulps=2)

    @staticmethod
    def maximum(a: Bounded, b: Bounded) -> Bounded:
        return Bounded(max(a.lo, b.lo), max(a.hi, b.hi), max(a.err, b.err))

    @staticmethod
    def scaled(a: Bounded, factor: Fraction) -> Bounded:
        """a times a power of two (exact in binary floating point)."""
        factor = abs(Fraction(factor))
        return Bounded(a.lo * factor, a.hi * factor, a.err * factor)

    def ratio(self, count: int, total: int, terms: int = 1) -> Bounded:
        """count / total of two integers (DERIVATIONS["count_ratio"]); with terms > 1 the
        count is a sum over that many points, which a program may also sum from the rounded
        marginals seen[x] / total (gamma_terms more)."""
        quotient = self.div(self.count(count), self.count(total))
        if terms <= 1:
            return quotient
        return Bounded(quotient.lo, quotient.hi, max(quotient.err, self.gamma(terms + 1) * quotient.magnitude))

    # -- decisions -------------------------------------------------------------------
    def undecided(self, margin: Bounded) -> bool:
        """Whether a correct computation in this arithmetic may see the sign of `margin`
        either way (its bounds straddle 0). Never for exact arithmetic, which decides
        the sign from ever tighter enclosures."""
        return not self.exact and margin.low <= 0 <= margin.high

    def coin_undecided(self, coin: Fraction, q: Fraction) -> bool:
        """Q_t = 1 iff u_t < q (Algorithm 2, line 4) as a float candidate decides it: with
        its own rounding of u_t, so when u_t is not a number of the format and q lies
        within one ulp of u_t, either decision is correct. An exact candidate, and a
        representable coin, must decide exactly."""
        if self.exact or self.representable(coin):
            return False
        ulp = 2 * self.u * abs(coin) if coin else self.u
        return abs(q - coin) <= ulp

    def lp_tolerance(self, support_size: int = 1) -> Fraction:
        """DERIVATIONS["lp"], relative to the rows' scale max(1, max w (|W| + 1)): the
        solver's 1e-7 plus twice a row's rounding (the candidate's objective on its rows
        and the exact one on the exact rows). A row w (R_D(h) - R_D(h') - W) as printed
        sums |S_l| terms p^ (eta^ or 1 - eta^) per risk (gamma_{|S_l|+1} of each risk, at
        most 1), then the difference, the W and the product by w round once each; on the
        difference form sum_{Dis} p^ sgn (1 - 2 eta^) - W it is less; eta^ reported from a
        wider solver moves a row by <= 2u w: in all 2 (|S_l| + 2) u w (1 + |W|) per row."""
        if self.exact:
            return Fraction(0)
        return Fraction(1, 10**7) + 4 * (max(support_size, 1) + 2) * self.u

    def catoni_bound(self, values, alpha, rounds: int = 0) -> Fraction:
        """DERIVATIONS["W"]: how far a correct float Catoni root may lie from the exact root
        of the exact samples `values` with the candidate's `alpha`.

        An error k u sum c |psi| in f moves the root by at most k u max|X - z|
        (1 + ln(1 + alpha max|X - z|)) (fast/catoni.py's analysis). k = 64 covers f summed
        over the distinct values (count times psi, at most 128 slots: k <= 29, doubled).
        Line 8 as printed sums psi(alpha (X_t - z)) over the `rounds` t of I_l one by one:
        a sequential sum of that many terms adds gamma_{rounds - 1} ~ (rounds - 1) u to
        the ~15 u of each term's and the stopping rules' roundings, so k = 2 (rounds + 16)
        where that is larger."""
        if self.exact:
            return Fraction(0)
        largest = max((abs(Fraction(v)) for v in values), default=Fraction(0))
        scale = max(Fraction(1), largest)
        log_factor = Fraction(math.log1p(float(2 * Fraction(alpha) * largest))) * (1 + Fraction(1, 2**20))
        k = max(64, 2 * (rounds + 16))
        return self.u * scale * (k * (1 + log_factor) + 4)

    # -- verdicts --------------------------------------------------------------------
    def off(self, candidate, bounded: Bounded) -> bool:
        """Whether the candidate's value is not the quantity (None never is)."""
        return candidate is None or not bounded.accepts(candidate)

    def meets(self, reported, bounded: Bounded) -> bool:
        """Whether a reported enclosure (lo, hi) -- a float candidate's may be a point --
        meets the quantity's: exact candidates' certified enclosures must intersect the
        exact one, float ones lie within the bound of it."""
        return reported is not None and reported.lo <= bounded.high and reported.hi >= bounded.low

    def describe(self, candidate, bounded: Bounded, derivation: str) -> dict:
        """The values a failure shows: the exact value and the candidate's (exact), the
        error beyond the exact enclosure and the bound (to 3 digits, with the bound
        relative to the value's size), the arithmetic and the bound's derivation."""
        from properties.core.terms import decimal, mismatch_values

        # decimals of any size: a candidate's value may be a huge integer, past a float's range
        bound = decimal(bounded.err)
        if bounded.err and bounded.magnitude:
            bound += f" ({decimal(bounded.err / bounded.magnitude)} relative)"
        exact = Enclosure(bounded.lo, bounded.hi)
        return {
            "exact": bounded.shown(),
            "candidate": str(candidate),
            **mismatch_values(candidate, exact),
            "error": decimal(bounded.excess(candidate)) if candidate is not None else "undefined",
            "bound": bound,
            "arithmetic": self.arithmetic,
            "derivation": DERIVATIONS.get(derivation, derivation),
        }


EXACT = Judgement("exact")
_CURRENT: contextvars.ContextVar[Judgement] = contextvars.ContextVar("cral_judgement", default=EXACT)


def current() -> Judgement:
    """The judgement of the candidate the running check judges (exact unless set)."""
    return _CURRENT.get()


@contextmanager
def judging(arithmetic: str):
    """Run the checks inside with the candidate's declared arithmetic."""
    token = _CURRENT.set(Judgement(arithmetic))
    try:
        yield _CURRENT.get()
    finally:
        _CURRENT.reset(token)


__all__ = ["ARITHMETICS", "Bounded", "DERIVATIONS", "EXACT", "Judgement", "current", "judging"]
