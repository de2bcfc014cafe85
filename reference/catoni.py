"""Catoni's robust mean as a certified rational enclosure, and the alpha of CALruption.

The paper's appendix lemma "Concentration inequality for Catoni's estimator" defines the
estimate as the unique root z of

    f(z) = sum_i psi(alpha (X_i - z)),   psi(y) = ln(1 + y + y^2/2)    (y >= 0)
                                                 = -ln(1 - y + y^2/2)   (y < 0),

and the lemma "Concentration inequality in our case" applies it, with
alpha = sqrt(2 log(1/delta) min_q / (5 N rho^)), to the importance-weighted loss
differences of line 8 of Algorithm 2. The root is irrational in general, so
`catoni_root` returns a rational interval [lo, hi] that provably contains it.

Certificate. psi is odd and increasing, so f is continuous and strictly decreasing, and
f(min X) >= 0 >= f(max X). A rational lo with f(lo) >= 0 and a rational hi with
f(hi) <= 0 therefore bracket the root: that pair of signs is the whole certificate, and
the only thing ever decided. Every returned enclosure satisfies f(lo) >= 0 >= f(hi) and
hi - lo <= width (the requested width, 2^-64 by default); it is a single point exactly
when the root was proved rational (below).

Signs, fast path. At a rational z every term of f is +-c ln r with a rational r >= 1.
Each ln r is enclosed by integer arithmetic at a fixed-point scale 2^-P: r = 2^k x with
x in [1, 2), x = (1 + i/64)(1 + e) with 0 <= e < 1/64, and
ln r = k ln 2 + ln(1 + i/64) + 2 atanh(u), u = e/(2 + e) < 1/129. ln 2 and the 64 table
entries come from `reference.certified.ln_enclosure` (computed once per process at a
power-of-two precision >= 256 and rounded outwards to each P; the first call pays
~15-20 ms for it); 2 atanh(u) is a fixed-point series whose terms are rounded down, with
a proven bound on the rounding loss and the tail (see `_ln_bounds`), so each ln gets a
lower and an upper integer. Summing c times them encloses f(z), and the sign is settled
when that enclosure excludes 0. P starts where a probe at distance 2^-m/2 from the root
(below) is resolved: P ~ m + log2(N) + 14 - log2 |f'|, with |f'| from floats (a wrong
guess only costs time). We do not call `ln_enclosure` on the terms themselves: on the
~400-bit rationals that arise here (alpha = A/2^64, z = G/2^65) it measured 0.75 ms per
ln at 64 bits and 2.5 ms at 128 bits, because its series works on exact powers of the
argument; the fixed-point kernel takes 2.5-3 us at P = 96-128. We do not use `mpmath.iv`
either: its interval log rests on mpmath's `mpf_log` with directed rounding, and
mpmath's documentation does not state that this is rigorous for every input.

Signs, fallback. If the enclosure contains 0 the first time, we test f(z) = 0 exactly
(`_is_exact_root`): f(z) = 0 iff prod_j r_j^(e_j) = 1 with e_j = +-c_j; a product that
is not 1 modulo a prime is disproved at once (modular powers, cheap for counts of
10^9; first modulo a prime below 2^30, whose residues are single machine digits, then
modulo two large ones), and a product that passes is decided by unique factorization
over a coprime base of the numerators and denominators, so the cost does not depend on
the counts. If z is not a root, P doubles up to 2^13 bits; past that `catoni_sign_exact`
decides by integer comparison. That last step is slow for large counts (see
`catoni_sign_exact`); it would need |f(z)| below about 2^-8000 N and is not reached in
practice.

Search. A float Newton iteration (safeguarded by bisection) gives a seed; floats only
propose points, they never decide a sign. The certified evaluation at the seed (rounded
to the grid 2^-m, the largest power of two with 2 * 2^-m <= width) yields a sign and a
value of f accurate to about 2^-P; one Newton step from that value lands far closer than
2^-m to the root, and the grid points g - 2^-m and g + 2^-m around it are certified.
When they bracket the root they are the answer (width 2 * 2^-m <= width): three
certified evaluations in all, the usual case. Otherwise the loop goes on with Newton
steps from the latest certified value, and bisects whenever two rounds in a row fail to
halve the bracket, so it ends for any seed. Data or alpha outside the range of doubles
get no seed and are bisected (certified, but ~0.2-1.5 ms per halving).

The search works in grid units: the probes are the integers k (the reals k 2^-m), the
ends of the bracket and the Newton candidates are integers or (numerator, denominator)
pairs, and every comparison, rounding (round half to even, as `round` of a Fraction) and
bisection is done by cross-multiplying integers. This makes exactly the decisions the
same search on Fractions makes (tests/reference/test_catoni_integer.py holds it to them), without
their gcds and type dispatch, which cost about three quarters of a root before (the ln
kernel is unchanged, and so are the enclosures of f). mpmath as the proposer instead of
floats was measured and not taken: a 6-step Newton solve at 96 bits costs ~0.4 ms, several
certified roots, and different candidates would change the probes and so the enclosures.

Cost. With <= 8 distinct values, any counts up to 10^9 and width 2^-64, a root takes
0.05-0.11 ms (median; 0.24-0.36 ms before the integer search) on the 2-core development
machine; at 3 distinct values about 20 us of it are the three certified evaluations of f.
On the 6,048 pairs of three real CALruption epochs (64 hypotheses, 256 points) it is
0.06 ms per root (0.26 ms before), and `catoni_alpha` 7.5 us (0.14 ms before: the beta3
enclosure is now cached and the square root taken with isqrt). bench/catoni_bench.py
measures roots, alpha and weight.

Grouping. Equal values are merged (their counts summed) before anything else: every
evaluation costs one ln per distinct value, whatever the counts.

Exact roots. The root is returned as a point when it is proved rational:
* constant data (the root is the value) and data symmetric about c with matching counts
  (psi is odd, so f(c) = 0 term by term): decided from the grouped data;
* in general: after bracketing, the simplest rational s of [lo, hi] (smallest
  denominator, by continued fractions on integers) is tested with `_is_exact_root` when
  den(s)^2 (hi - lo) <= 1. This finds every rational root p/q with q^2 (hi - lo) <= 1:
  s has a denominator <= q, and if s != p/q then |s - p/q| >= 1/(q den(s)) >= hi - lo,
  so both would be ends of [lo, hi]; but the ends are data extremes or probes whose sign
  was certified non-zero. For the default width that is every root with q <= 2^32;
* a probe whose enclosure straddles 0 is tested the same way (see the fallback).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import cache, lru_cache
from math import isqrt

from .certified import MAX_BITS, Enclosure, Rational, ScaledLog, ln_enclosure
from .exact import as_fraction, as_int, shown

DEFAULT_WIDTH = Fraction(1, 2**64)
_TABLE_BITS = 6  # ln(1 + i/64) for i < 64: the series argument stays below 1/129
_PREC_STEP = 32  # precisions are rounded up to a multiple of this, so the table cache stays small
_MIN_PREC = 64
_MAX_PREC = 1 << 13
_SEED_STEPS = 200
_FILTER_PRIMES = (2**61 - 1, 2**89 - 1)  # Mersenne primes
_QUICK_PRIME = 2**30 - 35  # the largest prime below 2^30: its residues are one CPython digit
_LN2_FLOAT = math.log(2)


# -- validation and grouping -----------------------------------------------------------
def _sequence(value, field: str) -> Sequence:
    if type(value) not in (list, tuple) and (isinstance(value, (str, bytes)) or not isinstance(value, Sequence)):
        raise ValueError(f"{field} must be a sequence, got {shown(value)}")
    if len(value) == 0:
        raise ValueError(f"{field} must not be empty, got {shown(value)}")
    return value


def _positive(value, field: str) -> Fraction:
    x = value if type(value) is Fraction else as_fraction(value, field)
    if x <= 0:
        raise ValueError(f"{field} must be > 0, got {x}")
    return x


def _grouped(values, counts) -> list[tuple[Fraction, int]]:
    """The data as sorted (value, total count) pairs, validated."""
    values = _sequence(values, "values")
    counts = _sequence(counts, "counts")
    if len(values) != len(counts):
        raise ValueError(f"values and counts must have the same length, got {len(values)} and {len(counts)}")
    # keyed by (numerator, denominator), unique for a Fraction in lowest terms: hashing a
    # Fraction costs a modular inverse
    merged: dict[tuple[int, int], list] = {}
    for i, (v, c) in enumerate(zip(values, counts)):
        # exact types skip the generic checks (and the field names built for their messages)
        if type(v) is not Fraction:
            v = as_fraction(v, f"values[{i}]")
        if type(c) is not int or c < 1:
            c = as_int(c, f"counts[{i}]", minimum=1)
        key = (v.numerator, v.denominator)
        entry = merged.get(key)
        if entry is None:
            merged[key] = [v, c]
        else:
            entry[1] += c
    return [(v, c) for v, c in sorted(merged.values(), key=lambda entry: entry[0])]


# -- exact evaluation ------------------------------------------------------------------
def _log_terms(groups, alpha: Fraction, z: Fraction):
    """(num, den, e) per value with y = alpha (v - z) != 0: r = num/den = 1 + |y| + y^2/2
    in lowest terms and e = +c (y > 0) or -c (y < 0), so that f(z) = sum_j e_j ln r_j."""
    ints = [(v.numerator, v.denominator, c) for v, c in groups]
    return _log_terms_int(ints, alpha.numerator, alpha.denominator, z.numerator, z.denominator)


def _log_terms_int(ints, A: int, B: int, zn: int, zd: int):
    """`_log_terms` for alpha = A/B and z = zn/zd (B, zd > 0, not necessarily in lowest
    terms: r is reduced at the end, so the terms are the same)."""
    terms = []
    for p, q, c in ints:
        n = A * (p * zd - zn * q)  # y = alpha (v - z) = n / d
        if n == 0:
            continue
        d = B * q * zd
        an = -n if n < 0 else n
        # 1 + |y| + y^2/2 = (2d^2 + 2|n|d + n^2) / (2d^2)
        num, den = (an + d) * (an + d) + d * d, 2 * d * d
        g = math.gcd(num, den)
        terms.append((num // g, den // g, c if n > 0 else -c))
    return terms


def _sign_exact(groups, alpha: Fraction, z: Fraction) -> int:
    terms = _log_terms(groups, alpha, z)
    if not terms:
        return 0
    # P^g vs M^g has the sign of P vs M: divide every exponent by their gcd first.
    g = 0
    for _, _, e in terms:
        g = math.gcd(g, e)
    p_num = p_den = m_num = m_den = 1
    for num, den, e in terms:
        e //= g
        if e > 0:
            p_num *= num**e
            p_den *= den**e
        else:
            m_num *= num ** (-e)
            m_den *= den ** (-e)
    diff = p_num * m_den - m_num * p_den  # P - M, times the positive p_den m_den
    return (diff > 0) - (diff < 0)


def catoni_sign_exact(values, counts, alpha, z) -> int:
    """The sign (-1, 0 or 1) of f(z), decided on integers alone.

    With y_i = alpha (v_i - z), f(z) = ln(P / M), P = prod_{y_i >= 0} (1 + y_i + y_i^2/2)^c_i,
    M = prod_{y_i < 0} (1 - y_i + y_i^2/2)^c_i, so sign f(z) = sign(P - M), compared after
    clearing denominators (exponents first divided by their gcd). The integers have about
    (total count) x (bits per factor) bits: fine for counts in the hundreds, hopeless for
    10^9. `catoni_root` uses it only as a last resort; it is the independent check of
    the tests."""
    groups = _grouped(values, counts)
    alpha = _positive(alpha, "alpha")
    z = as_fraction(z, "z")
    return _sign_exact(groups, alpha, z)


def _coprime_base(numbers) -> list[int]:
    """Pairwise coprime integers > 1 over which every given number factors.

    Splitting a pair (a, b) with g = gcd(a, b) > 1 into a/g, b/g and g keeps every number
    a product of members and divides the product of all members by g, so it ends."""
    base: list[int] = []
    pending = [n for n in numbers if n > 1]
    while pending:
        x = pending.pop()
        for idx, b in enumerate(base):
            g = math.gcd(x, b)
            if g > 1:
                del base[idx]
                pending.extend(n for n in (x // g, b // g, g) if n > 1)
                break
        else:
            base.append(x)
    return base


def _valuation(n: int, b: int) -> int:
    k = 0
    while n % b == 0:
        n //= b
        k += 1
    return k


def _is_exact_root(groups, alpha: Fraction, z: Fraction) -> bool:
    """Whether f(z) = 0, i.e. prod_j r_j^e_j = 1, without forming the powers: over a coprime
    base (b_1, ..., b_s) each r_j = prod_b b^(a_jb), and by unique factorization the
    product is 1 iff sum_j e_j a_jb = 0 for every b. The cost depends on the bit sizes of
    the r_j, not on the counts."""
    ints = [(v.numerator, v.denominator, c) for v, c in groups]
    return _is_exact_root_int(ints, alpha.numerator, alpha.denominator, z.numerator, z.denominator)


def _is_exact_root_int(ints, A: int, B: int, zn: int, zd: int) -> bool:
    """`_is_exact_root` for alpha = A/B, z = zn/zd (see `_log_terms_int`)."""
    # A quicker disproof first: prod_j r_j^e_j = 1 with r_j = num_j/den_j means
    # prod_{e>0} num^e prod_{e<0} den^-e = prod_{e>0} den^e prod_{e<0} num^-e as integers,
    # hence modulo any prime. With one-digit residues the powers are cheap, and the
    # reduced terms (gcds of ~200-bit integers) are only formed for the rare z that pass.
    P = _QUICK_PRIME
    left = right = 1
    for p, q, c in ints:
        n = A * (p * zd - zn * q)  # y = alpha (v - z) = n / d, as in `_log_terms_int`
        if n == 0:
            continue
        d = B * q * zd % P
        n_abs = (-n if n < 0 else n) % P
        num, den = ((n_abs + d) * (n_abs + d) + d * d) % P, 2 * d * d % P
        if n > 0:
            left, right = left * pow(num, c, P) % P, right * pow(den, c, P) % P
        else:
            left, right = left * pow(den, c, P) % P, right * pow(num, c, P) % P
    if left != right:
        return False
    terms = _log_terms_int(ints, A, B, zn, zd)
    if not terms:
        return True
    if all(e > 0 for _, _, e in terms) or all(e < 0 for _, _, e in terms):
        return False  # every r_j > 1, so the logs cannot cancel
    # A quick disproof: if the product is 1 it is 1 modulo every prime dividing no num or
    # den. Modular powers cost nothing for counts of 10^9; a non-root almost never passes.
    for prime in _FILTER_PRIMES:
        if any(num % prime == 0 or den % prime == 0 for num, den, _ in terms):
            continue
        product = 1
        for num, den, e in terms:
            product = product * pow(num, e, prime) * pow(den, -e, prime) % prime
        if product != 1:
            return False
    base = _coprime_base([x for num, den, _ in terms for x in (num, den)])
    for b in base:
        if sum(e * (_valuation(num, b) - _valuation(den, b)) for num, den, e in terms):
            return False
    return True


# -- certified fixed-point evaluation --------------------------------------------------
def _fixed(enclosure: Enclosure, prec: int) -> tuple[int, int]:
    """Integers lo <= 2^prec x <= hi for every x in the enclosure."""
    lo, hi = enclosure.lo * (1 << prec), enclosure.hi * (1 << prec)
    return lo.numerator // lo.denominator, -((-hi.numerator) // hi.denominator)


@cache
def _constants_at(top: int):
    ln2 = _fixed(ln_enclosure(2, top + 4), top)
    table = tuple(_fixed(ln_enclosure(Fraction(64 + i, 64), top + 4), top) for i in range(1 << _TABLE_BITS))
    return ln2, table


@lru_cache(maxsize=64)
def _constants(prec: int):
    """ln 2 and ln(1 + i/64), i < 64, as (lo, hi) integer pairs at scale 2^prec.

    Computed once at a power-of-two precision >= max(prec, 256) and rounded outwards to
    2^-prec, so a new precision costs a few shifts instead of 65 series (~10 ms)."""
    top = max(256, 1 << (prec - 1).bit_length())
    (l2_lo, l2_hi), table = _constants_at(top)
    drop = top - prec

    def outward(lo: int, hi: int) -> tuple[int, int]:
        return lo >> drop, -((-hi) >> drop)

    return outward(l2_lo, l2_hi), tuple(outward(lo, hi) for lo, hi in table)


def _ln_bounds(num: int, den: int, prec: int, constants=None) -> tuple[int, int]:
    """Integers lo <= 2^prec ln(num/den) <= hi for integers num >= den > 0.

    With x = num/(den 2^k) in [1, 2) and X = floor(2^prec x): ln(num/den) = k ln 2 + ln x,
    ln(X/2^prec) <= ln x < ln(X/2^prec) + 2^-prec. With t = 1 + i/64 <= X/2^prec < t + 1/64,
    ln(X/2^prec) = ln t + 2 atanh(u), u = (64X - (64+i)2^prec)/(64X + (64+i)2^prec) in [0, 1/129).

    2 atanh(u) = sum_j 2 u^(2j+1)/(2j+1). T_j approximates 2^prec u^(2j+1) from below,
    T_0 = floor(2^prec u), T_{j+1} = floor(T_j u^2), so its deficit e_j obeys
    e_{j+1} < 1 + u^2 e_j, e_j < 1/(1 - u^2) < 1.0001. Each term floor(2 T_j/(2j+1)) is
    below the true term by less than 2 e_j + 1 < 4 units. The loop stops at the first
    T_J = 0, where 2^prec u^(2J+1) < e_J; the tail is then < 2 e_J/(1 - u^2) < 3 units.
    So the sum S of the J computed terms satisfies S <= 2^prec 2 atanh(u) < S + 4J + 3.

    `constants` is `_constants(prec)`, passed by callers that evaluate many logs at one
    precision."""
    if num == den:
        return 0, 0
    k = num.bit_length() - den.bit_length()
    if num < den << k:
        k -= 1
    shift = prec - k
    if shift >= 0:
        X, rem = divmod(num << shift, den)
    else:
        X, rem = divmod(num, den << -shift)
    (ln2_lo, ln2_hi), table = constants or _constants(prec)
    i = (X >> (prec - _TABLE_BITS)) - (1 << _TABLE_BITS)
    t = (64 + i) << prec
    a, b = 64 * X - t, 64 * X + t
    a2, b2 = a * a, b * b
    term = (a << prec) // b
    s = 0
    j = 0
    while term:
        s += (2 * term) // (2 * j + 1)
        term = term * a2 // b2
        j += 1
    t_lo, t_hi = table[i]
    lo = k * ln2_lo + t_lo + s
    hi = k * ln2_hi + t_hi + s + 4 * j + 3 + (1 if rem else 0)
    return lo, hi


def _f_bounds(problem: _Problem, zn: int, zd: int, prec: int) -> tuple[int, int]:
    """Integers lo <= 2^prec f(z) <= hi at z = zn/zd (zd > 0; the ln arguments depend only
    on the value of z, so z need not be in lowest terms)."""
    A, B = problem.alpha_num, problem.alpha_den
    constants = _constants(prec)
    lo = hi = 0
    for p, q, c in problem.ints:
        n = A * (p * zd - zn * q)  # y = alpha (v - z) = n / d
        if n == 0:
            continue
        d = B * q * zd
        an = -n if n < 0 else n
        l, h = _ln_bounds((an + d) * (an + d) + d * d, 2 * d * d, prec, constants)
        if n > 0:
            lo += c * l
            hi += c * h
        else:
            lo -= c * h
            hi -= c * l
    return lo, hi


def _round_prec(prec: int) -> int:
    prec = max(_MIN_PREC, prec)
    return -(-prec // _PREC_STEP) * _PREC_STEP


class _Problem:
    """The grouped data, alpha, and what the search needs to remember between probes."""

    def __init__(self, groups, alpha: Fraction):
        self.groups = groups
        self.alpha = alpha
        self.alpha_num, self.alpha_den = alpha.numerator, alpha.denominator
        self.ints = ints = [(v.numerator, v.denominator, c) for v, c in groups]
        self.total = sum(c for _, _, c in ints)
        try:  # p / q is float(Fraction(p, q)): one correctly rounded division
            self.floats = [(p / q, float(c)) for p, q, c in ints]
            self.alpha_float = self.alpha_num / self.alpha_den
        except OverflowError:
            self.floats = None
        self.prec = _MIN_PREC

    # float model of f and f' (candidates only; never a decision)
    def float_f(self, z: float) -> tuple[float, float]:
        a = self.alpha_float
        value = slope = 0.0
        log, log1p = math.log, math.log1p
        for v, c in self.floats:
            y = a * (v - z)
            ay = abs(y)
            if ay > 1e6:  # avoid overflow in y^2: ln(1 + t + t^2/2) = 2 ln t - ln 2 + ln(1 + 2/t + 2/t^2)
                psi = 2 * log(ay) - _LN2_FLOAT + log1p(2 / ay + 2 / (ay * ay))
                dpsi = (1 / ay + 1) / (1 / ay + 1 + ay / 2)
            else:
                psi = log1p(ay + ay * ay / 2)
                dpsi = (1 + ay) / (1 + ay + ay * ay / 2)
            value += c * psi if y >= 0 else -c * psi
            slope += c * dpsi
        return value, a * slope  # f(z), |f'(z)|

    def float_seed(self) -> float | None:
        """Safeguarded Newton in floats from the weighted mean."""
        if self.floats is None:
            return None
        lo, hi = self.floats[0][0], self.floats[-1][0]
        z = sum(v * c for v, c in self.floats) / sum(c for _, c in self.floats)
        if not (math.isfinite(z) and lo <= z <= hi):
            z = (lo + hi) / 2
        for _ in range(_SEED_STEPS):
            value, slope = self.float_f(z)
            if not (math.isfinite(value) and math.isfinite(slope)):
                return None
            if value == 0:
                return z
            if value > 0:
                lo = z
            else:
                hi = z
            step = z + value / slope if slope > 0 else math.nan
            if not lo < step < hi:
                step = (lo + hi) / 2
            if step == z or hi - lo <= 0:
                break
            z = step
        return z

    def slope(self, z) -> float | None:
        """|f'(z)| in floats for a Fraction or float z, or None where floats fail."""
        if self.floats is None:
            return None
        try:
            _, slope = self.float_f(float(z))
        except OverflowError:
            return None
        return slope if math.isfinite(slope) and slope > 0 else None

    def certified_sign(self, z: Fraction) -> tuple[int, Fraction | None]:
        """(sign of f(z), a rational within the enclosure of f(z) or None if exact)."""
        sign, total, prec = self.sign_at(z.numerator, z.denominator)
        return sign, None if total is None else Fraction(total, 1 << (prec + 1))

    def sign_at(self, zn: int, zd: int) -> tuple[int, int | None, int | None]:
        """(sign of f(z), lo + hi, P) at z = zn/zd, zd > 0: the enclosure lo <= 2^P f(z) <= hi
        that settled the sign, whose midpoint (lo + hi)/2^(P+1) the search's Newton step
        uses, or (sign, None, None) when the sign was decided exactly."""
        prec = self.prec
        tested_exact = False
        while prec <= _MAX_PREC:
            lo, hi = _f_bounds(self, zn, zd, prec)
            if lo > 0 or hi < 0:
                return (1 if lo > 0 else -1), lo + hi, prec
            if not tested_exact:
                tested_exact = True
                if _is_exact_root_int(self.ints, self.alpha_num, self.alpha_den, zn, zd):
                    return 0, None, None
            prec *= 2
        return _sign_exact(self.groups, self.alpha, Fraction(zn, zd)), None, None


def catoni_sign_certified(values, counts, alpha, z) -> int:
    """The sign (-1, 0 or 1) of f(z), certified, for any counts (up to 10^12 and beyond).

    The search's own test (module notes, "Signs"): the fixed-point enclosure of f(z) at
    2^-64, 2^-128, ... up to 2^-8192, with the exact-root test (`_is_exact_root`, cost
    independent of the counts) the first time the enclosure contains 0, and
    `catoni_sign_exact` past that. Same inputs and validation as `catoni_root` (counts
    >= 1); z any rational. Use `catoni_sign_exact` when the counts are small: it shares
    nothing with this code but the grouping."""
    groups = _grouped(values, counts)
    alpha = _positive(alpha, "alpha")
    z = as_fraction(z, "z")
    return _Problem(groups, alpha).certified_sign(z)[0]


def _simplest_between(a: Fraction, b: Fraction) -> Fraction:
    """The rational with the smallest denominator in [a, b] (a <= b), by continued fractions."""
    n, d = _simplest_between_int(a.numerator, a.denominator, b.numerator, b.denominator)
    return Fraction(n, d)


def _simplest_between_int(an: int, ad: int, bn: int, bd: int) -> tuple[int, int]:
    """(n, d), d > 0, coprime: the rational with the smallest denominator in [an/ad, bn/bd]
    (ad, bd > 0, an/ad <= bn/bd, neither necessarily in lowest terms; a reversed interval is
    refused, as the continued fraction of one would not end).

    The continued-fraction recursion simplest[a, b] = 0 if a <= 0 <= b; -simplest[-b, -a]
    if b < 0; a if a is an integer; else fl + 1 if fl + 1 <= b (fl = floor a); else
    fl + 1/simplest[1/(b - fl), 1/(a - fl)] -- unrolled: the partial quotients fl are
    composed into the Moebius map x -> (p1 x + p0)/(q1 x + q0), applied to the integer
    that ends it. Its determinant is +-1, so the result is in lowest terms."""
    if an * bd > bn * ad:
        raise ValueError(f"_simplest_between needs a <= b, got a = {an}/{ad} > b = {bn}/{bd}")
    if an <= 0 <= bn:
        return 0, 1
    sign = 1
    if bn < 0:
        an, ad, bn, bd, sign = -bn, bd, -an, ad, -1
    p1, p0, q1, q0 = 1, 0, 0, 1
    while True:
        fl, rem = divmod(an, ad)
        if rem == 0:
            x = fl
            break
        if (fl + 1) * bd <= bn:
            x = fl + 1
            break
        # a, b in (fl, fl + 1): continue on [1/(b - fl), 1/(a - fl)]
        an, ad, bn, bd = bd, bn - fl * bd, ad, rem
        p1, p0 = p1 * fl + p0, p1
        q1, q0 = q1 * fl + q0, q1
    return sign * (p1 * x + p0), q1 * x + q0


def _grid_exponent(width: Fraction) -> int:
    """m with 2^-m <= width/2 < 2^(1-m)."""
    wn, wd = width.numerator, 2 * width.denominator  # width/2 = wn/wd
    e = wn.bit_length() - wd.bit_length()
    if (wd << e > wn) if e >= 0 else (wd > wn << -e):  # 2^e > width/2
        e -= 1
    return -e


def _round_half_even(n: int, d: int) -> int:
    """round(n/d) for d > 0, ties to even, as Python's round of a Fraction."""
    fl, rem = divmod(n, d)
    twice = 2 * rem
    if twice < d or (twice == d and fl % 2 == 0):
        return fl
    return fl + 1


# -- the estimator ---------------------------------------------------------------------
def catoni_root(values, counts, alpha, *, width=DEFAULT_WIDTH) -> Enclosure:
    """A rational enclosure [lo, hi] of Catoni's estimate of the data (values[i] repeated
    counts[i] times) with parameter alpha: f(lo) >= 0 >= f(hi) is certified and
    hi - lo <= width; lo == hi when the root is proved rational (see the module notes)."""
    groups = _grouped(values, counts)
    alpha = _positive(alpha, "alpha")
    width = _positive(width, "width")

    # exact roots from the data alone: constant data, and symmetry about the centre
    problem = _Problem(groups, alpha)
    ints = problem.ints
    vmin, vmax = groups[0][0], groups[-1][0]
    # v + w = vmin + vmax = T/U for the pairs (v, w) from both ends, with equal counts
    T, U = ints[0][0] * ints[-1][1] + ints[-1][0] * ints[0][1], ints[0][1] * ints[-1][1]
    if all(c == e and (p * s + r * q) * U == T * q * s for (p, q, c), (r, s, e) in zip(ints, reversed(ints))):
        return Enclosure.point(Fraction(T, 2 * U))

    m = _grid_exponent(width)
    # The search runs in grid units, where the grid 2^-m (2 * 2^-m <= width) is the integers:
    # a real x is x GN/GD, the grid point k is the real k GD/GN. Every end, probe and
    # candidate is an integer or a pair (numerator, positive denominator), compared by
    # cross-multiplication: the same decisions as on Fractions, without their gcds.
    GN, GD = (1 << m, 1) if m >= 0 else (1, 1 << -m)

    def real(k: int):  # the grid point k for problem.slope: a float, or a Fraction beyond floats
        try:
            return (k * GD) / GN  # correctly rounded, as float(Fraction(k GD, GN))
        except OverflowError:
            return Fraction(k * GD, GN)  # problem.slope's float() overflows and gives None

    an, ad = vmin.numerator * GN, vmin.denominator * GD  # a = vmin, b = vmax: f(a) > 0 > f(b),
    bn, bd = vmax.numerator * GN, vmax.denominator * GD  # as the data are not constant
    wn, wd = width.numerator * GN, width.denominator * GD
    seed = problem.float_seed()
    candidate = None
    if seed is not None:
        num, den = seed.as_integer_ratio()  # exactly Fraction(seed)
        candidate = (num * GN, den * GD)
    # P resolves |f| ~ |f'| step/2 (a probe's distance to the root) against a rounding
    # loss of up to ~2^8 units of 2^-P per ln and count
    slope = None if candidate is None else problem.slope(seed)
    if slope:
        log_slope = math.floor(math.log2(slope))
    else:  # no float model: take |f'| ~ alpha, which errs towards more bits
        log_slope = problem.alpha_num.bit_length() - problem.alpha_den.bit_length()
    problem.prec = _round_prec(m + problem.total.bit_length() + 14 - log_slope)
    A, B = problem.alpha_num, problem.alpha_den
    trusted = False  # the candidate came from a Newton step on a certified value
    failures = 0
    while True:
        before_n, before_d = bn * ad - an * bd, ad * bd  # b - a
        if before_n * wd <= wn * before_d:  # b - a <= width
            break
        probes = None  # bisect, unless a candidate strictly inside proposes probes
        if candidate is not None and failures < 2:
            cn, cd = candidate
            if an * cd < cn * ad and cn * bd < bn * cd:  # a < candidate < b
                g = _round_half_even(cn, cd)  # round(candidate), as on Fractions
                if trusted:
                    probes = [k for k in (g - 1, g + 1) if an < k * ad and k * bd < bn]
                else:
                    probes = [g] if an < g * ad and g * bd < bn else []
        if probes is None:
            failures = 0
        if not probes:  # floor((a + b)/2): strictly inside, as b - a > width >= 2 steps
            probes = [(an * bd + bn * ad) // (2 * before_d)]
        best = None
        for k in probes:
            if not (an < k * ad and k * bd < bn):
                continue  # the first probe of a pair already moved this end past k
            sign, total, prec = problem.sign_at(k * GD, GN)
            if sign == 0:
                return Enclosure.point(Fraction(k * GD, GN))
            if sign > 0:
                an, ad = k, 1
            else:
                bn, bd = k, 1
            slope = problem.slope(real(k))
            if total is not None and slope is not None:
                # delta = f(z)/|f'(z)| = (total/2^(P+1)) / slope, in grid units dn/dd
                sn, sd = slope.as_integer_ratio()
                dn, dd = total * sd * GN, (sn << (prec + 1)) * GD
                if best is None or abs(dn) * best[2] < abs(best[1]) * dd:
                    best = (k, dn, dd)
        if best is None:
            candidate, trusted = None, False
        else:
            k, dn, dd = best
            candidate = (k * dd + dn, dd)
            # pair-probe around the Newton point only when its error (the float slope's
            # relative error, allowed up to 2^-36, times delta, plus curvature
            # ~alpha delta^2) is far below the grid: |delta| 2^-36 + 4 alpha delta^2 <= step/8.
            # With delta = (dn/dd) step, step = GD/GN, alpha = A/B, divided by step and
            # multiplied by 2^39 B dd^2 GN:
            trusted = ((abs(dn) * B * dd * GN) << 3) + ((A * dn * dn * GD) << 41) <= (B * dd * dd * GN) << 36
        failures = failures + 1 if (bn * ad - an * bd) * 2 * before_d > before_n * ad * bd else 0

    # a rational root with a small denominator: the simplest rational of the bracket
    a_num, a_den, b_num, b_den = an * GD, ad * GN, bn * GD, bd * GN  # the ends as reals
    sn, sd = _simplest_between_int(a_num, a_den, b_num, b_den)
    if (
        a_num * sd < sn * a_den
        and sn * b_den < b_num * sd  # a < s < b
        and sd * sd * (b_num * a_den - a_num * b_den) <= a_den * b_den  # den(s)^2 (b - a) <= 1
        and _is_exact_root_int(problem.ints, A, B, sn, sd)
    ):
        return Enclosure.point(Fraction(sn, sd))
    return Enclosure(Fraction(a_num, a_den), Fraction(b_num, b_den))


@lru_cache(maxsize=256)
def _log_enclosure(log_term, bits: int) -> Enclosure:
    """log_term.enclosure(bits) for the project's frozen constants (ScaledLog, Rational),
    whose enclosures are pure functions of their fields: CALruption asks for the same
    beta3 at the same precisions for every pair of hypotheses."""
    return log_term.enclosure(bits)


def _floor_log2(num: int, den: int) -> int:
    """floor(log2(num/den)) for integers num, den > 0."""
    e = num.bit_length() - den.bit_length()  # 2^(e-1) < num/den < 2^(e+1)
    if (den << e > num) if e >= 0 else (den > num << -e):
        e -= 1
    return e


def catoni_alpha(log_term, min_q, n, rho_hat) -> Fraction:
    """The alpha of the lemma "Concentration inequality in our case",
    alpha = sqrt(2 L min_q / (5 n rho_hat)) with L = log(1/delta) (CALruption uses beta3),
    rounded to a rational.

    `log_term.enclosure(bits)` must enclose L > 0 (a `ScaledLog` or `Rational`). The square
    root is irrational in general; we return the lower end of a certified enclosure of it of
    relative width <= 2^-64, rounded down to a dyadic rational with 64 significant bits.
    So 0 < alpha <= the true value and alpha >= (1 - 2^-62) times it. Any fixed alpha > 0
    defines a valid Catoni estimator (the lemma for Catoni's estimator holds for every
    alpha > 0; only the constant of the bound moves, by a relative 2^-62 here), and a
    dyadic alpha keeps the integers of `catoni_root` small.

    The enclosure is `sqrt_enclosure(log_term.enclosure(bits).scale(ratio), bits)` at the
    first bits = 64, 128, ... where it is that narrow, computed on integers (isqrt of the
    floor and ceiling of its ends times 4^bits, or the exact root of a rational square)."""
    min_q = _positive(min_q, "min_q")
    rho_hat = _positive(rho_hat, "rho_hat")
    n = as_int(n, "n", minimum=1)
    if not callable(getattr(log_term, "enclosure", None)):
        raise ValueError(f"log_term must have an enclosure(bits) method, got {shown(log_term)}")
    # ratio = 2 min_q / (5 n rho_hat) = rn / rd, rn, rd > 0
    rn = 2 * min_q.numerator * rho_hat.denominator
    rd = 5 * n * min_q.denominator * rho_hat.numerator
    cached = type(log_term) in (ScaledLog, Rational)
    bits = 64
    while bits <= MAX_BITS:
        log_enclosure = _log_enclosure(log_term, bits) if cached else log_term.enclosure(bits)
        if log_enclosure.hi <= 0:
            raise ValueError(f"log_term must be > 0, got an enclosure [{log_enclosure.lo}, {log_enclosure.hi}]")
        if log_enclosure.lo > 0:
            lo_num, lo_den = log_enclosure.lo.numerator * rn, log_enclosure.lo.denominator * rd
            if log_enclosure.exact:  # a rational square has its root exactly
                value = Fraction(lo_num, lo_den)
                root_num, root_den = isqrt(value.numerator), isqrt(value.denominator)
                if root_num * root_num == value.numerator and root_den * root_den == value.denominator:
                    lo, hi, den = root_num, root_num, root_den  # the root is [lo, hi] / den, width 0
                    break
            hi_num, hi_den = log_enclosure.hi.numerator * rn, log_enclosure.hi.denominator * rd
            lo = isqrt((lo_num << 2 * bits) // lo_den)
            hi = isqrt(-((-hi_num << 2 * bits) // hi_den)) + 1
            den = 1 << bits
            if lo > 0 and (hi - lo) << 64 <= lo:  # relative width <= 2^-64
                break
        bits *= 2
    else:
        raise ArithmeticError(f"could not enclose alpha to relative 2^-64 at {MAX_BITS} bits")
    # the lower end lo/den rounded down to 64 significant bits: floor(lo/den 2^(63-e)) / 2^(63-e)
    shift = 63 - _floor_log2(lo, den)
    if shift >= 0:
        return Fraction((lo << shift) // den, 1 << shift)
    return Fraction(lo // (den << -shift) << -shift)
