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
is not 1 modulo a large prime is disproved at once (modular powers, cheap for counts of
10^9), and a product that passes is decided by unique factorization over a coprime base
of the numerators and denominators, so the cost does not depend on the counts. If z is
not a root, P doubles up to 2^13 bits; past that `catoni_sign_exact` decides by integer
comparison. That last step is slow for large counts (see `catoni_sign_exact`); it would
need |f(z)| below about 2^-8000 N and is not reached in practice.

Search. A float Newton iteration (safeguarded by bisection) gives a seed; floats only
propose points, they never decide a sign. The certified evaluation at the seed (rounded
to the grid 2^-m, the largest power of two with 2 * 2^-m <= width) yields a sign and a
value of f accurate to about 2^-P; one Newton step from that value lands far closer than
2^-m to the root, and the grid points g - 2^-m and g + 2^-m around it are certified.
When they bracket the root they are the answer (width 2 * 2^-m <= width): three
certified evaluations in all, the usual case. Otherwise the loop goes on with Newton
steps from the latest certified value, and bisects whenever two rounds in a row fail to
halve the bracket, so it ends for any seed. Data or alpha outside the range of doubles
get no seed and are bisected (certified, but ~1 ms per halving).

Cost. With <= 8 distinct values, any counts up to 10^9 and width 2^-64, a root takes
0.35-0.75 ms (median) on the 2-core development machine; bench/catoni_bench.py measures it.

Grouping. Equal values are merged (their counts summed) before anything else: every
evaluation costs one ln per distinct value, whatever the counts.

Exact roots. The root is returned as a point when it is proved rational:
* constant data (the root is the value) and data symmetric about c with matching counts
  (psi is odd, so f(c) = 0 term by term): decided from the grouped data;
* in general: after bracketing, the simplest rational s of [lo, hi] (smallest
  denominator, by continued fractions) is tested with `_is_exact_root` when
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
from functools import lru_cache

from .certified import MAX_BITS, Enclosure, ln_enclosure, sqrt_enclosure
from .exact import as_fraction, as_int, shown

DEFAULT_WIDTH = Fraction(1, 2**64)
_TABLE_BITS = 6  # ln(1 + i/64) for i < 64: the series argument stays below 1/129
_PREC_STEP = 32  # precisions are rounded up to a multiple of this, so the table cache stays small
_MIN_PREC = 64
_MAX_PREC = 1 << 13
_SEED_STEPS = 200
_FILTER_PRIMES = (2**61 - 1, 2**89 - 1)  # Mersenne primes


# -- validation and grouping -----------------------------------------------------------
def _sequence(value, field: str) -> Sequence:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise ValueError(f"{field} must be a sequence, got {shown(value)}")
    if len(value) == 0:
        raise ValueError(f"{field} must not be empty, got {shown(value)}")
    return value


def _positive(value, field: str) -> Fraction:
    x = as_fraction(value, field)
    if x <= 0:
        raise ValueError(f"{field} must be > 0, got {x}")
    return x


def _grouped(values, counts) -> list[tuple[Fraction, int]]:
    """The data as sorted (value, total count) pairs, validated."""
    values = _sequence(values, "values")
    counts = _sequence(counts, "counts")
    if len(values) != len(counts):
        raise ValueError(f"values and counts must have the same length, got {len(values)} and {len(counts)}")
    merged: dict[Fraction, int] = {}
    for i, (v, c) in enumerate(zip(values, counts)):
        v = as_fraction(v, f"values[{i}]")
        c = as_int(c, f"counts[{i}]", minimum=1)
        merged[v] = merged.get(v, 0) + c
    return sorted(merged.items())


# -- exact evaluation ------------------------------------------------------------------
def _log_terms(groups, alpha: Fraction, z: Fraction):
    """(num, den, e) per value with y = alpha (v - z) != 0: r = num/den = 1 + |y| + y^2/2
    and e = +c (y > 0) or -c (y < 0), so that f(z) = sum_j e_j ln r_j."""
    terms = []
    for v, c in groups:
        y = alpha * (v - z)
        if y == 0:
            continue
        n, d = abs(y.numerator), y.denominator
        # 1 + |y| + y^2/2 = (2d^2 + 2nd + n^2) / (2d^2)
        num, den = 2 * d * d + 2 * n * d + n * n, 2 * d * d
        g = math.gcd(num, den)
        terms.append((num // g, den // g, c if y > 0 else -c))
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
    terms = _log_terms(groups, alpha, z)
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


@lru_cache(maxsize=None)
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


def _ln_bounds(num: int, den: int, prec: int) -> tuple[int, int]:
    """Integers lo <= 2^prec ln(num/den) <= hi for integers num >= den > 0.

    With x = num/(den 2^k) in [1, 2) and X = floor(2^prec x): ln(num/den) = k ln 2 + ln x,
    ln(X/2^prec) <= ln x < ln(X/2^prec) + 2^-prec. With t = 1 + i/64 <= X/2^prec < t + 1/64,
    ln(X/2^prec) = ln t + 2 atanh(u), u = (64X - (64+i)2^prec)/(64X + (64+i)2^prec) in [0, 1/129).

    2 atanh(u) = sum_j 2 u^(2j+1)/(2j+1). T_j approximates 2^prec u^(2j+1) from below,
    T_0 = floor(2^prec u), T_{j+1} = floor(T_j u^2), so its deficit e_j obeys
    e_{j+1} < 1 + u^2 e_j, e_j < 1/(1 - u^2) < 1.0001. Each term floor(2 T_j/(2j+1)) is
    below the true term by less than 2 e_j + 1 < 4 units. The loop stops at the first
    T_J = 0, where 2^prec u^(2J+1) < e_J; the tail is then < 2 e_J/(1 - u^2) < 3 units.
    So the sum S of the J computed terms satisfies S <= 2^prec 2 atanh(u) < S + 4J + 3."""
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
    (ln2_lo, ln2_hi), table = _constants(prec)
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


def _f_bounds(problem: "_Problem", z: Fraction, prec: int) -> tuple[int, int]:
    """Integers lo <= 2^prec f(z) <= hi."""
    zn, zd = z.numerator, z.denominator
    A, B = problem.alpha_num, problem.alpha_den
    lo = hi = 0
    for p, q, c in problem.ints:
        n = A * (p * zd - zn * q)  # y = alpha (v - z) = n / d
        if n == 0:
            continue
        d = B * q * zd
        an = abs(n)
        l, h = _ln_bounds((an + d) * (an + d) + d * d, 2 * d * d, prec)
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
        self.ints = [(v.numerator, v.denominator, c) for v, c in groups]
        self.total = sum(c for _, c in groups)
        try:
            self.floats = [(float(v), float(c)) for v, c in groups]
            self.alpha_float = float(alpha)
        except OverflowError:
            self.floats = None
        self.prec = _MIN_PREC

    # float model of f and f' (candidates only; never a decision)
    def float_f(self, z: float) -> tuple[float, float]:
        a = self.alpha_float
        value = slope = 0.0
        for v, c in self.floats:
            y = a * (v - z)
            ay = abs(y)
            if ay > 1e6:  # avoid overflow in y^2: ln(1 + t + t^2/2) = 2 ln t - ln 2 + ln(1 + 2/t + 2/t^2)
                psi = 2 * math.log(ay) - math.log(2) + math.log1p(2 / ay + 2 / (ay * ay))
                dpsi = (1 / ay + 1) / (1 / ay + 1 + ay / 2)
            else:
                psi = math.log1p(ay + ay * ay / 2)
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

    def slope(self, z: Fraction) -> float | None:
        if self.floats is None:
            return None
        try:
            _, slope = self.float_f(float(z))
        except OverflowError:
            return None
        return slope if math.isfinite(slope) and slope > 0 else None

    def certified_sign(self, z: Fraction) -> tuple[int, Fraction | None]:
        """(sign of f(z), a rational within the enclosure of f(z) or None if exact)."""
        prec = self.prec
        tested_exact = False
        while prec <= _MAX_PREC:
            lo, hi = _f_bounds(self, z, prec)
            if lo > 0 or hi < 0:
                return (1 if lo > 0 else -1), Fraction(lo + hi, 1 << (prec + 1))
            if not tested_exact:
                tested_exact = True
                if _is_exact_root(self.groups, self.alpha, z):
                    return 0, None
            prec *= 2
        return _sign_exact(self.groups, self.alpha, z), None


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
    if a <= 0 <= b:
        return Fraction(0)
    if b < 0:
        return -_simplest_between(-b, -a)
    fl = a.numerator // a.denominator
    if fl == a or fl + 1 <= b:
        return Fraction(fl if fl == a else fl + 1)
    # a, b in (fl, fl + 1): the simplest is fl + 1/(simplest in [1/(b - fl), 1/(a - fl)])
    return fl + 1 / _simplest_between(1 / (b - fl), 1 / (a - fl))


def _grid_exponent(width: Fraction) -> int:
    """m with 2^-m <= width/2 < 2^(1-m)."""
    half = width / 2
    e = half.numerator.bit_length() - half.denominator.bit_length()
    if Fraction(2) ** e > half:
        e -= 1
    return -e


# -- the estimator ---------------------------------------------------------------------
def catoni_root(values, counts, alpha, *, width=DEFAULT_WIDTH) -> Enclosure:
    """A rational enclosure [lo, hi] of Catoni's estimate of the data (values[i] repeated
    counts[i] times) with parameter alpha: f(lo) >= 0 >= f(hi) is certified and
    hi - lo <= width; lo == hi when the root is proved rational (see the module notes)."""
    groups = _grouped(values, counts)
    alpha = _positive(alpha, "alpha")
    width = _positive(width, "width")

    # exact roots from the data alone: constant data, and symmetry about the centre
    vmin, vmax = groups[0][0], groups[-1][0]
    centre = (vmin + vmax) / 2
    if all(v + w == 2 * centre and c == d for (v, c), (w, d) in zip(groups, reversed(groups))):
        return Enclosure.point(centre)

    problem = _Problem(groups, alpha)
    m = _grid_exponent(width)
    step = Fraction(2) ** -m  # the grid 2^-m, with 2 step <= width

    def on_grid(x: Fraction, how=round) -> Fraction:
        return how(x / step) * step

    a, b = vmin, vmax  # f(vmin) > 0 > f(vmax): the data are not constant
    seed = problem.float_seed()
    candidate = None if seed is None else Fraction(seed)
    # P resolves |f| ~ |f'| step/2 (a probe's distance to the root) against a rounding
    # loss of up to ~2^8 units of 2^-P per ln and count
    slope = None if candidate is None else problem.slope(candidate)
    if slope:
        log_slope = math.floor(math.log2(slope))
    else:  # no float model: take |f'| ~ alpha, which errs towards more bits
        log_slope = problem.alpha_num.bit_length() - problem.alpha_den.bit_length()
    problem.prec = _round_prec(m + problem.total.bit_length() + 14 - log_slope)
    trusted = False  # the candidate came from a Newton step on a certified value
    failures = 0
    while b - a > width:
        before = b - a
        if candidate is None or not a < candidate < b or failures >= 2:
            probes = [on_grid((a + b) / 2, math.floor)]  # strictly inside: b - a > 2 step
            failures = 0
        elif trusted:
            g = on_grid(candidate)
            probes = [p for p in (g - step, g + step) if a < p < b] or [on_grid((a + b) / 2, math.floor)]
        else:
            g = on_grid(candidate)
            probes = [g] if a < g < b else [on_grid((a + b) / 2, math.floor)]
        best = None
        for z in probes:
            if not a < z < b:
                continue  # the first probe of a pair already moved this end past z
            sign, value = problem.certified_sign(z)
            if sign == 0:
                return Enclosure.point(z)
            if sign > 0:
                a = z
            else:
                b = z
            slope = problem.slope(z)
            if value is not None and slope is not None:
                delta = value / Fraction(slope)
                if best is None or abs(delta) < abs(best[1]):
                    best = (z, delta)
        if best is None:
            candidate, trusted = None, False
        else:
            z, delta = best
            candidate = z + delta
            # pair-probe around the Newton point only when its error (the float slope's
            # relative error, allowed up to 2^-36, times delta, plus curvature
            # ~alpha delta^2) is far below the grid; otherwise one probe refines it first
            trusted = abs(delta) * Fraction(1, 2**36) + alpha * delta * delta * 4 <= step / 8
        failures = failures + 1 if (b - a) * 2 > before else 0

    # a rational root with a small denominator: the simplest rational of the bracket
    s = _simplest_between(a, b)
    if a < s < b and s.denominator**2 * (b - a) <= 1 and _is_exact_root(groups, alpha, s):
        return Enclosure.point(s)
    return Enclosure(a, b)


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
    dyadic alpha keeps the integers of `catoni_root` small."""
    min_q = _positive(min_q, "min_q")
    rho_hat = _positive(rho_hat, "rho_hat")
    n = as_int(n, "n", minimum=1)
    if not callable(getattr(log_term, "enclosure", None)):
        raise ValueError(f"log_term must have an enclosure(bits) method, got {shown(log_term)}")
    ratio = 2 * min_q / (5 * n * rho_hat)
    bits = 64
    while bits <= MAX_BITS:
        log_enclosure = log_term.enclosure(bits)
        if log_enclosure.hi <= 0:
            raise ValueError(f"log_term must be > 0, got an enclosure [{log_enclosure.lo}, {log_enclosure.hi}]")
        if log_enclosure.lo > 0:
            root = sqrt_enclosure(log_enclosure.scale(ratio), bits)
            if root.lo > 0 and root.width * 2**64 <= root.lo:
                break
        bits *= 2
    else:
        raise ArithmeticError(f"could not enclose alpha to relative 2^-64 at {MAX_BITS} bits")
    lo = root.lo
    e = lo.numerator.bit_length() - lo.denominator.bit_length()  # 2^(e-1) < lo < 2^(e+1)
    if Fraction(2) ** e > lo:
        e -= 1
    scaled = lo * Fraction(2) ** (63 - e)  # in [2^63, 2^64)
    return Fraction(scaled.numerator // scaled.denominator) / Fraction(2) ** (63 - e)
