"""Catoni roots certified in bulk: the sign of f(z) = sum_i c_i psi(alpha (v_i - z)),
psi(y) = sign(y) ln(1 + |y| + y^2/2) (Algorithm 2, line 8; reference/catoni.py), for many
pairs at once.

f is strictly decreasing, so f(lo) >= 0 >= f(hi) certifies that [lo, hi] holds the root
(properties/checks/catoni_sign.py). Here f is evaluated for every pair at once in numpy's
longdouble (x87 extended: unit roundoff u = 2^-64 on x86-64), with an a-priori bound E on
the evaluation error, and a sign is taken only where |f| > E; the rest (rare: f within
~1e-18 relative of 0 at a point 1e-12 away from the root) go to the exact route of
properties/checks/catoni_sign.py one by one. So every sign is rigorous.

The bound E (standard model, |delta| <= u per operation; Higham ch. 3). The samples
v = +-1/q are rounded once, z is exact (the judge's own longdouble number), y = alpha (v - z)
then carries u (alpha |v| + 2 |y|); psi's slope is at most 1, so psi carries that too;
t = |y| + y^2/2 two roundings, and ln(1 + t (1 + 2u)) - ln(1 + t) <= 2u t/(1+t) <= 2u psi;
log1p itself within LOG1P_ULPS ulps (glibc's log1pl: 1-2); c psi one rounding (c < 2^64 is
exact); a sum of k terms gamma_k sum |c psi|. In all

    |f_computed - f| <= u sum_i c_i (alpha |v_i| + 2 |y_i| + (k + 4 + LOG1P_ULPS) |psi_i|) (1 + O(u)),

and E is twice that (the O(u) terms, and E's own rounding).

A float64 filter goes first (longdouble's log1p costs ~30 ns an element,
float64's ~2 ns). The same analysis with u64 = 2^-53, two differences: z (a longdouble) is
rounded to float64 once more, |fl(z) - z| <= u64 |z|, which adds alpha |z| to y's error;
and numpy's float64 log1p may be a SIMD routine (SVML on AVX-512) rather than glibc's, so
its error is taken as F64_LOG1P_U units of u64 (numpy's own accuracy tests hold these
routines to a few ulps; tests/properties/scale/test_scale_judge_routes.py measures it here against
longdouble and requires at most 1/8 of F64_LOG1P_U). The counts c must be exact in float64
(c < 2^53; else every row goes to longdouble). So

    |f64 - f| <= u64 sum_i c_i (alpha |v_i| + alpha |z| + 2 |y_i| + (k + 4 + F64_LOG1P_U) |psi_i|) (1 + O(u64)),

E64 twice that, plus sum_i c_i 1e-300 for underflow (the standard model holds above
float64's normal range; below it each operation errs by at most 2^-1075 absolute, a few
per term). A sign is taken where |f64| > E64; the rest go to the longdouble
evaluation, and what that leaves to the exact route."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from properties.checks.catoni_sign import catoni_sign

LD = np.longdouble
U = float(np.finfo(LD).eps) / 2  # unit roundoff of the format the judge evaluates in
LOG1P_ULPS = 4
U64 = float(np.finfo(np.float64).eps) / 2
F64_LOG1P_U = 32  # in units of u64 (16 ulps): numpy's SIMD log1p is tested to a few ulps
UNDERFLOW = 1e-300  # per unit of count: covers the absolute errors below the normal range
EXACT_COUNTS = 2**53  # counts at most this are exact in float64


def catoni_f(values: np.ndarray, counts: np.ndarray, alpha: np.ndarray, z: np.ndarray):
    """(f(z), E) per row: values (k,) as longdouble, counts (P, k), alpha (P,), z (P,)."""
    y = alpha[:, None] * (values[None, :] - z[:, None])
    ay = np.abs(y)
    psi = np.log1p(ay + ay * ay / 2)
    c = counts.astype(LD)
    f = np.sum(c * np.copysign(psi, y), axis=1)
    k = values.shape[0]
    err = np.sum(c * (alpha[:, None] * np.abs(values)[None, :] + 2 * ay + (k + 4 + LOG1P_ULPS) * psi), axis=1)
    return f, 2 * U * err


def catoni_f64(values: np.ndarray, counts: np.ndarray, alpha: np.ndarray, z: np.ndarray):
    """(f(z), E64) per row in float64 (module notes): values (k,) as Fractions' float64
    roundings, counts (P, k) int64 below 2^53, alpha (P,) float64, z (P,) longdouble."""
    zf = z.astype(np.float64)
    y = alpha[:, None] * (values[None, :] - zf[:, None])
    ay = np.abs(y)
    psi = np.log1p(ay + ay * ay / 2)
    c = counts.astype(np.float64)
    f = np.sum(c * np.copysign(psi, y), axis=1)
    k = values.shape[0]
    slack = alpha[:, None] * (np.abs(values)[None, :] + np.abs(zf)[:, None]) + 2 * ay + (k + 4 + F64_LOG1P_U) * psi
    return f, 2 * U64 * np.sum(c * slack, axis=1) + UNDERFLOW * np.sum(c, axis=1)


def _exact_sign(values_exact, counts_row, alpha: float, z) -> int:
    pairs = [(v, int(c)) for v, c in zip(values_exact, counts_row) if c > 0]
    sign, _ = catoni_sign(
        [v for v, _ in pairs], [c for _, c in pairs], Fraction(alpha), Fraction(*np.longdouble(z).as_integer_ratio())
    )
    return sign


def signs(values: np.ndarray, values_exact, counts: np.ndarray, alpha: np.ndarray, z: np.ndarray, f64=True):
    """Certified sign of f(z) per row (-1, 0, +1), and how many rows took the exact route:
    float64 where its bound decides, longdouble for the rest where its bound does, exact
    (properties/checks/catoni_sign.py) for what is left."""
    result = np.zeros(len(z), np.int64)
    todo = np.arange(len(z))
    if f64 and len(todo) and int(counts.max(initial=0)) < EXACT_COUNTS:
        values64 = np.array([float(v) for v in values_exact])  # each Fraction rounded once
        f, err = catoni_f64(values64, counts, np.asarray(alpha, np.float64), z)
        result = np.where(f > err, 1, np.where(f < -err, -1, 0))
        todo = np.flatnonzero(result == 0)  # within the bound, or a nan / inf: not decided here
    if len(todo):
        f, err = catoni_f(values, counts[todo], alpha[todo].astype(LD), z[todo])
        decided = np.where(f > err, 1, np.where(f < -err, -1, 0))
        result[todo] = decided
        todo = todo[decided == 0]
    for r in todo:
        result[r] = _exact_sign(values_exact, counts[r], float(alpha[r]), z[r])
    return result, len(todo)


def roots_within(
    values: np.ndarray,
    values_exact,
    counts: np.ndarray,
    alpha: np.ndarray,
    W: np.ndarray,
    bound: np.ndarray,
    f64: bool = True,
):
    """Per row, whether the root of f lies in [W - bound, W + bound] (taken in longdouble:
    the interval the judge certifies is that one, within 2^-64 relative of it); the signs
    at both ends; how many signs took the exact route."""
    lo = W.astype(LD) - bound.astype(LD)
    hi = W.astype(LD) + bound.astype(LD)
    s_lo, n_lo = signs(values, values_exact, counts, alpha, lo, f64)
    s_hi, n_hi = signs(values, values_exact, counts, alpha, hi, f64)
    return (s_lo >= 0) & (s_hi <= 0), s_lo, s_hi, n_lo + n_hi
