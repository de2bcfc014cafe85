"""Catoni's estimate in float64, vectorised over many problems at once.

The estimate is the one of the paper's appendix lemma "Concentration inequality for
Catoni's estimator": the unique root z of

    f(z) = sum_i c_i psi(alpha (X_i - z)),  psi(y) = sign(y) ln(1 + |y| + y^2/2),

for values X_i with integer multiplicities c_i and alpha > 0 (`reference.catoni` has the
certified version and the proof that the root exists and is unique: psi is odd and
strictly increasing, so f is strictly decreasing with f(min X) >= 0 >= f(max X)).

`catoni_roots` solves P problems of K slots each at once (numpy arrays, no Python loop
over problems; only the unfinished problems are carried into the next iteration);
`catoni_root` is the single-problem form with the reference's name and return shape.
Nothing here is certified: the result is a float root, to be held to the reference's
enclosure within `root_tolerance`.

Search. A safeguarded Newton iteration on the bracket [min X, max X], started from the
count-weighted mean (psi(y) = y + O(y^3), so the mean is the root to first order when
alpha |X - z| is small, CALruption's usual case). Each evaluation of f moves one end of
the bracket (f is decreasing); a Newton step that leaves the bracket, or that failed to
halve |f| the time before, is replaced by a bisection: each iteration either bisects,
follows a bisection, or has halved |f|, and |f| can halve only ~60 times before it is
below its rounding noise, so ~2 x 52 + 60 iterations bound the search (the default
max_iter is 200; measured: median 3, at most 14 on +-1/q data with q uniform in
(0, 1]; median 6, at most 38 with q down to 1e-12 and alpha up to 10; 51 with
alpha max|X| ~ 1e300). A problem stops when f == 0, the bracket is below
rtol max(1, max|X|), a Newton step is that small, or |f| is below the rounding noise of
its own sum (then the float sign of f no longer says which side the root is on).

One step. A problem also stops at the Newton point z + s of an evaluation when its
truncation error is below the tolerance: with alpha |s| <= 1 the root z* is within 2|s|
of z (the bound quoted at `small` in `_solve`), and Taylor's theorem at z gives
|z + s - z*| = |f''(xi)| (z* - z)^2 / (2 |f'(z)|) <= 2 alpha^2 N max|psi''| s^2 / |f'(z)|,
N = sum c_i, the max of |psi''(y)| = |y| (1 + |y|/2) / (1 + |y| + y^2/2)^2 taken over
|y| <= T = alpha (max|X - z| + 2|s|), at most min(1/4, T (1 + T/2)) (1/4 is its sup, at
|y| = sqrt(3) - 1). CALruption's data have alpha |X - z| small, where the mean is within
~alpha^2 max|X|^3 of the root and the first step's truncation is far below the
tolerance: one evaluation of f instead of two (thresholds at |H| = 1024, paper constants,
n = 10^12: 2.00 evaluations per problem in every epoch before the rule, 1.00 to 1.01
after). The point's error from rounding is the evaluation's, as below. Measured with the
rule against the certified enclosure (2026-11-27, tests/fast/test_catoni.py's generators
and CALruption-like data with up to 19 slots: 7000 problems): largest error 10.5 eps
max(1, max|X|), 1.8% of `root_tolerance`.

Accuracy. The computed f(z) carries rounding from the difference X_i - z and the product
by alpha (relative ~2 eps in y, eps = 2^-53; as t psi'(t) <= psi(t) for t >= 0, psi
being concave there, that is <= 2 eps |psi| per term), from ln1p of 1 + |y| + y^2/2
(~3 eps), the product by c_i (eps) and the sum over the slots (numpy's blocked pairwise
sum: <= (K/8 + 3) eps of sum |c psi| for K <= 128), plus what the stopping rules leave
(<= 8 eps of that sum, or 2 rtol max(1, max|X|)). Divided by
|f'(z)| = alpha sum c psi'(y), an error k eps sum c |psi| in f moves the root by

    |dz| <= k eps sum c |psi(y)| / (alpha sum c psi'(y))
         <= k eps max|X - z| (1 + ln(1 + alpha max|X - z|)),

because psi(t)/psi'(t) <= t (1 + ln(1 + t)) for t >= 0 (~t for t <~ 1, ~t (ln t - 0.35)
for large t; checked on a grid up to 1e150) and a ratio of sums is at most the largest
ratio of terms. With k <= 29 (K <= 128) and |X - z| <= 2 max|X| this is
`root_tolerance`: 64 eps max(1, max|X|) (1 + ln(1 + 2 alpha max|X|)). The ln factor only
matters for data many 1/alpha away from the root; CALruption's alpha is usually small
against 1/q, and then it is near 1. Measured against the certified enclosure
(tests/fast/test_catoni.py and 5500 further problems): the largest error was 5.4 eps
max(1, max|X|) on CALruption-like data (0, +-1/q, q down to 1e-12, counts up to 1e9,
alpha 1e-6..10) and 12.6 eps max(1, max|X|) on data spread over up to 1e12 / alpha,
i.e. at most 1.5% of `root_tolerance`; the rounding errors mostly cancel, so the worst
case above is far from typical.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np

from .precision import FLOAT

__all__ = ["DEFAULT_RTOL", "TOL_RTOL", "catoni_root", "catoni_roots", "root_tolerance"]

# rtol 1e-15 ~ 4.5 eps: below a few eps max|X| the sign of the computed f is decided by
# rounding (that of X_i - z alone blurs it over ~2 eps max|X - z|), so a narrower bracket
# would cost iterations without gaining accuracy, and a wider one would add to the
# root's error, itself a few eps max|X| (module notes).
DEFAULT_RTOL = 1e-15
DEFAULT_MAX_ITER = 200  # above the bound of the module notes; after it, the best point so far
TOL_RTOL = 64 * 2.0**-53  # see the module notes and root_tolerance

_LN2 = math.log(2.0)
# Each term c psi of f is rounded by several eps (module notes), so |f| below _NOISE
# sum |c psi| may be rounding alone: its sign, and so the bracket update, is noise there.
_NOISE = 2 * float(np.finfo(FLOAT).eps)  # 4 * 2^-53 in float64
# Above this |y|, y^2 would overflow near 1e154: psi and psi' switch to u = 1/|y|.
_BIG = 1e150 if FLOAT == np.float64 else 1e18  # float32's t^2 overflows near 1.8e19


def root_tolerance(max_abs: float, alpha: float) -> float:
    """The absolute error we allow the float root (see the module notes): a float root z
    agrees with a certified enclosure [lo, hi] when |z - (lo + hi)/2| <= (hi - lo)/2 +
    root_tolerance(max|X|, alpha). The ln term covers data far (in units of 1/alpha)
    from the root, where sum c |psi| / (alpha sum c psi') grows like ln(alpha |X - z|)."""
    return TOL_RTOL * max(1.0, max_abs) * (1.0 + math.log1p(2.0 * alpha * max_abs))


def _psi_and_slope(d: np.ndarray, a: np.ndarray, log_a: np.ndarray, inf_alpha: bool):
    """psi(a d) and psi'(a d) elementwise, for d = X - z (scaled) and a = alpha (scaled,
    possibly inf, then log_a = ln alpha is used instead), with no inf or nan."""
    with np.errstate(all="ignore"):
        t = np.abs(d) * a
        if inf_alpha:
            t = np.where(d == 0, 0.0, t)  # inf * 0: the term at the data point is 0
        big = t > _BIG
        if big.any():
            small_t = np.where(big, 0.0, t)
            psi = np.log1p(small_t + small_t * small_t / 2)
            slope = (1 + small_t) / (1 + small_t + small_t * small_t / 2)
            # ln(1 + t + t^2/2) = 2 ln t - ln 2 + ln(1 + 2/t + 2/t^2) and
            # psi'(t) = (u + u^2)/(1/2 + u + u^2) with u = 1/t, both exact identities
            log_t = np.where(np.isinf(t), log_a + np.log(np.abs(d)), np.log(t))
            u = np.where(big, 1.0 / t, 0.0)
            psi = np.where(big, 2 * log_t - _LN2 + np.log1p(2 * u + 2 * u * u), psi)
            slope = np.where(big, (u + u * u) / (0.5 + u + u * u), slope)
        else:
            tt = t * t / 2
            psi = np.log1p(t + tt)
            slope = (1 + t) / (1 + t + tt)
    return np.copysign(psi, d), slope


def _as_float_array(x, field: str, ndim: int) -> np.ndarray:
    try:
        arr = np.asarray(x, dtype=FLOAT)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ValueError(f"{field} must be a numeric array, got {type(x).__name__}: {exc}") from None
    if arr.ndim != ndim:
        raise ValueError(f"{field} must have {ndim} dimension(s), got shape {arr.shape}")
    return arr


def _validated(values, counts, alpha):
    V = _as_float_array(values, "values", 2)
    C = _as_float_array(counts, "counts", 2)
    A = _as_float_array(alpha, "alpha", 1)
    if V.shape != C.shape:
        raise ValueError(f"values and counts must have the same shape, got {V.shape} and {C.shape}")
    if A.shape != (V.shape[0],):
        raise ValueError(f"alpha must have shape ({V.shape[0]},), got {A.shape}")
    if V.shape[1] == 0 and V.shape[0] > 0:
        raise ValueError("values must have at least one slot per problem (empty data)")
    if not np.all(np.isfinite(C)):
        raise ValueError("counts must be finite")
    if np.any(C < 0):
        raise ValueError("counts must be >= 0")
    if np.any(C != np.floor(C)):
        raise ValueError("counts must be integers")
    used = C > 0
    empty = ~used.any(axis=1)
    if empty.any():
        raise ValueError(f"counts of problem {int(np.argmax(empty))} are all 0 (empty data)")
    if not np.all(np.isfinite(V) | ~used):
        raise ValueError("values must be finite where the count is > 0")
    if not np.all(np.isfinite(A) & (A > 0)):
        raise ValueError("alpha must be finite and > 0")
    return V, C, A, used


def catoni_roots(
    values,
    counts,
    alpha,
    *,
    rtol: float = DEFAULT_RTOL,
    max_iter: int = DEFAULT_MAX_ITER,
    return_iterations: bool = False,
    trusted: bool = False,
):
    """Float64 Catoni roots of P problems at once.

    values, counts: shape (P, K); a slot with count 0 is padding and is ignored whatever
    its value (even inf or nan). Counts are non-negative integers (as floats or ints; up
    to ~1e13 and beyond, exact below 2^53). alpha: shape (P,), finite and > 0.
    Returns the roots, shape (P,) float64 (and, with return_iterations, the number of
    evaluations of f per problem, shape (P,) int). Constant data give the value exactly.
    Every root lies in [min X, max X] of its problem and is within `root_tolerance` of
    the true root (module notes). Each problem is solved on its own, so a root does not
    depend on the rest of the batch, nor on the padding values; the number and place of
    the slots can change its last bits (the order of the sum over slots).
    Raises ValueError naming the bad field. trusted=True skips the checks (and the
    padding's cleanup) for callers that build valid float64 arrays themselves, every value
    finite (fast.calruption's blocks), without ~8 passes; a padding value then stays in
    the one-step bound's max|X - z| (a larger T, a stricter bound), so the last bits of a
    root can differ from the checked call's, both within `root_tolerance`."""
    if trusted:
        V, C, A = values, counts, alpha
        used = C > 0
        with np.errstate(all="ignore"):
            roots, done = _one_step(V, C, A, used, rtol)
            iterations = np.ones(len(roots), dtype=np.int64)
            rest = np.flatnonzero(~done)
            if len(rest):
                roots[rest], iterations[rest] = _solve(V[rest], C[rest], A[rest], used[rest], rtol, max_iter, True)
                iterations[rest] += 1  # the lean evaluation came first
        return (roots, iterations) if return_iterations else roots
    V, C, A, used = _validated(values, counts, alpha)
    with np.errstate(all="ignore"):  # under- and overflow are handled where they arise
        roots, iterations = _solve(V, C, A, used, rtol, max_iter)
    return (roots, iterations) if return_iterations else roots


_LEAN_LIMIT = 2.0**100  # max|X| and alpha max|X| below this: t^2 cannot overflow unscaled


def _one_step(V, C, A, used, rtol: float):
    """(roots, done): `_solve`'s first evaluation, at the count-weighted mean, without its
    scaling by 2^-e and without its other stopping rules, for the problems where the
    one-step rule (module notes) holds: their roots, the Newton points. Scaling by a power
    of two commutes with every operation here unless something over- or underflows, so
    these are the Newton points of `_solve`'s first evaluation (the rule's max|X - z| is
    over the used slots here, over every slot there: here it may settle a few more rows);
    rows with max|X| or alpha max|X| above _LEAN_LIMIT, and rows the rule does not
    settle, are left (done False) to `_solve`."""
    lo = np.where(used, V, np.inf).min(axis=1)
    hi = np.where(used, V, -np.inf).max(axis=1)
    scale_abs = np.maximum(np.abs(lo), np.abs(hi))
    total = np.sum(C, axis=1)
    z = np.clip(np.sum(C * V, axis=1) / total, lo, hi)
    d = V - z[:, None]
    t = np.abs(d)
    t *= A[:, None]
    tt = t * t
    tt *= 0.5  # t^2/2 (halving is exact), and below the sums associated as _psi_and_slope does
    f = np.sum(C * np.copysign(np.log1p(t + tt), d), axis=1)
    t += 1
    tt += t
    t /= tt  # psi'(t) = (1 + t) / ((1 + t) + t^2/2)
    g = A * np.sum(C * t, axis=1)
    return newton_point(np, A, lo, hi, z, f, g, total, scale_abs, rtol)


def newton_point(xp, A, lo, hi, z, f, g, total, scale_abs, rtol: float):
    """(roots, done) from one evaluation of f at z (f, g = |f'(z)|, per problem) on the
    bracket [lo, hi]: the one-step rule (module notes) and the Newton point clipped to the
    bracket it leaves. In array API calls (xp: numpy here, the device's namespace in
    fast/catoni_device.py), so both routes settle a problem by the same rule."""
    step = f / g
    # max over the used slots of |X - z|: fl is monotone, so it is fl(hi - z) or fl(z - lo)
    reach = A * (xp.maximum(hi - z, z - lo) + 2 * xp.abs(step))
    curvature = xp.minimum(reach * (1 + reach / 2), xp.full_like(reach, 0.25))  # min(1/4, .)
    tol = rtol * xp.maximum(scale_abs, xp.ones_like(scale_abs))
    done = (
        (lo < hi)
        & (scale_abs <= _LEAN_LIMIT)
        & (A * scale_abs <= _LEAN_LIMIT)
        & xp.isfinite(step)
        & (A * xp.abs(step) <= 1)
        & (2 * A * A * total * curvature * step * step <= tol * g)
    )
    lo = xp.where(f > 0, z, lo)  # f is decreasing: the root is above z where f(z) > 0
    hi = xp.where(f < 0, z, hi)
    # min/max, not clip: array_api_compat's CuPy clip indexes by boolean masks (a device
    # sync each); the same value within a bracket
    roots = xp.where(f == 0, z, xp.minimum(xp.maximum(z + step, lo), hi))
    return roots, done


def _solve(V, C, A, used, rtol: float, max_iter: int, finite_padding: bool = False):
    P = V.shape[0]
    roots = np.empty(P)
    iterations = np.zeros(P, dtype=np.int64)
    if P == 0:
        return roots, iterations

    if not finite_padding:
        V = np.where(used, V, 0.0)  # padding becomes a harmless finite value; its count is 0
    lo = np.where(used, V, np.inf).min(axis=1)
    hi = np.where(used, V, -np.inf).max(axis=1)
    roots[lo == hi] = lo[lo == hi]
    active = np.flatnonzero(lo < hi)
    if active.size == 0:
        return roots, iterations

    # Work in units of 2^e >= max|X| (only ever scaling down): X - z cannot overflow and
    # the power of two is exact; alpha scales up by the same 2^e, so f is unchanged.
    V, C, A, lo, hi = V[active], C[active], A[active], lo[active], hi[active]
    scale_abs = np.maximum(np.abs(lo), np.abs(hi))
    e = np.maximum(np.frexp(scale_abs)[1], 0)
    V = np.ldexp(V, -e[:, None])
    lo, hi = np.ldexp(lo, -e), np.ldexp(hi, -e)
    a = np.ldexp(A, e)  # inf when alpha max|X| > ~1e308; then ln alpha serves
    log_a = np.log(A) + e * _LN2
    tol = np.ldexp(rtol * np.maximum(1.0, scale_abs), -e)

    # psi(y) ~ y near 0, so the weighted mean is the root's first-order approximation
    total = np.sum(C, axis=1)
    z = np.sum(C * V, axis=1) / total
    z = np.where(np.isfinite(z), np.clip(z, lo, hi), (lo + hi) / 2)

    f_prev = np.full(z.shape, np.inf)
    newton_prev = np.zeros(z.shape, dtype=bool)
    idx = active  # original problem index of each working row
    for it in range(1, max_iter + 1):
        d = V - z[:, None]
        psi, slope = _psi_and_slope(d, a[:, None], log_a[:, None], not np.all(np.isfinite(a)))
        terms = C * psi
        f = np.sum(terms, axis=1)
        # |f| below this is rounding noise (module notes: t psi'(t) <= psi(t) since psi is
        # concave on t >= 0, so the argument rounding is covered by the same sum)
        noise = _NOISE * np.sum(np.abs(terms), axis=1)
        g = a * np.sum(C * slope, axis=1)  # |f'(z)|
        step = f / g
        lo = np.where(f > 0, z, lo)
        hi = np.where(f < 0, z, hi)
        newton = z + step
        inside = np.isfinite(newton) & (lo < newton) & (newton < hi)
        stalled = newton_prev & (np.abs(f) > 0.5 * np.abs(f_prev))
        use_newton = inside & ~stalled
        mid = lo + (hi - lo) / 2
        z_next = np.where(use_newton, newton, mid)
        # A small Newton step s = f/|f'| ends the search only when alpha |s| <= 1: as
        # psi'(t)/psi'(t') <= 1 + |t - t'|/2 (largest at t = 0; checked on a grid), a root
        # at distance r has |f(z)| >= r |f'(z)| / (1 + alpha r/2), so r <= 2|s|; with a
        # larger alpha |s|, |f'| may fall steeply towards the root and a small step proves
        # nothing. The same bound holds with |f| <= noise in place of |f| = |f'| |s|.
        # The step need not land strictly inside the bracket: converging from one side,
        # z is an end and z + s may round back onto it.
        small = np.isfinite(step) & (np.abs(step) <= tol) & (a * np.abs(step) <= 1)
        quiet = (np.abs(f) <= noise) & (a * noise <= g)
        # One step (module notes): the Newton point is within tol of the root when
        # 2 alpha^2 N max|psi''| s^2 / |f'(z)| <= tol, max|psi''| over |y| <= T taken as
        # min(1/4, T (1 + T/2)), T = alpha (max_i |X_i - z| + 2|s|) (padding slots, V = 0,
        # only make T larger)
        reach = a * (np.max(np.abs(d), axis=1) + 2 * np.abs(step))
        curvature = np.minimum(0.25, reach * (1 + reach / 2))
        one_step = (
            np.isfinite(step) & (a * np.abs(step) <= 1) & (2 * a * a * total * curvature * step * step <= tol * g)
        )
        done = quiet | (hi - lo <= tol) | small | one_step | (z_next == z)
        if it == max_iter:
            done[:] = True
        if done.any():
            best = np.where(f == 0, z, np.where(np.isfinite(newton), np.clip(newton, lo, hi), mid))
            roots[idx[done]] = np.ldexp(best[done], e[done])
            iterations[idx[done]] = it
            keep = ~done
            if not keep.any():
                break
            V, C, a, log_a, e, tol, idx = V[keep], C[keep], a[keep], log_a[keep], e[keep], tol[keep], idx[keep]
            total = total[keep]
            lo, hi, f, z_next, use_newton = lo[keep], hi[keep], f[keep], z_next[keep], use_newton[keep]
        f_prev, newton_prev, z = f, use_newton, z_next
    return roots, iterations


def _real(value, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{field} must be a real number, got {type(value).__name__} {value!r}")
    try:
        x = float(value)
    except OverflowError:
        raise ValueError(f"{field} must be finite as a float64, got {value!r}") from None
    if not math.isfinite(x):
        raise ValueError(f"{field} must be finite, got {value!r}")
    return x


def catoni_root(values, counts, alpha) -> tuple[Fraction, Fraction]:
    """Catoni's estimate of one data set, with the name and return shape of
    `reference.catoni_root`: (lo, hi), here the float root z as the point (Fraction(z),
    Fraction(z)). NOT certified, unlike the reference's enclosure: the true root is only
    within `root_tolerance` of z (module notes).

    values: a non-empty sequence of finite reals (ints, floats, Fractions); counts: as
    many non-negative integers (ints or integral floats; a 0 count is ignored, whereas
    the reference refuses it), at least one > 0; alpha: a finite real > 0. A bad input
    raises ValueError naming the field."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise ValueError(f"values must be a sequence, got {type(values).__name__}")
    if isinstance(counts, (str, bytes)) or not hasattr(counts, "__len__"):
        raise ValueError(f"counts must be a sequence, got {type(counts).__name__}")
    if len(values) == 0:
        raise ValueError("values must not be empty (empty data)")
    if len(values) != len(counts):
        raise ValueError(f"values and counts must have the same length, got {len(values)} and {len(counts)}")
    xs = [_real(v, f"values[{i}]") for i, v in enumerate(values)]
    cs = []
    for i, c in enumerate(counts):
        x = _real(c, f"counts[{i}]")
        if x != math.floor(x):
            raise ValueError(f"counts[{i}] must be an integer, got {c!r}")
        if x < 0:
            raise ValueError(f"counts[{i}] must be >= 0, got {c!r}")
        cs.append(x)
    if not any(cs):
        raise ValueError("counts must contain a count > 0 (empty data)")
    a = _real(alpha, "alpha")
    if not a > 0:
        raise ValueError(f"alpha must be > 0 (as a float64), got {alpha!r}")
    z = float(catoni_roots(np.array([xs]), np.array([cs]), np.array([a]))[0])
    return Fraction(z), Fraction(z)
