"""Catoni's roots on an array backend's device: the one-step rule of
fast/catoni.py written against the array API standard, with the host's full search for
the few problems the rule does not settle.

Why a second form: CALruption's line 8 solves one Catoni problem per disagreeing pair,
|H|^2 / 2 of them an epoch (1.3e8 at |H| = 16384), and almost all of them stop at the
Newton point of their first evaluation (fast/catoni.py, "One step": 1.00 to 1.01
evaluations per problem at paper constants). That evaluation is elementwise work and sums
over a handful of slots, which a GPU does in milliseconds; the host's safeguarded Newton
search (`catoni._solve`, frexp/ldexp scaling, outside the standard) is kept for the rest.

Same arithmetic as `catoni._one_step`: the same operations in the same order on the same
float64 values, so the roots agree with the host's bit for bit wherever the backend's
log1p and sums round as numpy's do; elsewhere (a GPU's log1p may differ in the last ulp,
its sums are ordered otherwise) they differ by a few eps max|X|, inside
`catoni.root_tolerance`, whose error analysis (the module notes of fast/catoni.py) does
not depend on the order of the sum over slots. The rule itself (when a Newton point is
taken) is the host's, so every root is held to the same bound."""

from __future__ import annotations

import numpy as np

from .catoni import DEFAULT_RTOL, catoni_roots, newton_point


def one_step(xp, V, C, A, rtol: float = DEFAULT_RTOL):
    """(roots, done) of P problems on the device: `catoni._one_step` in standard calls.
    V, C: (P, K) float64 values and counts (count 0: padding, its value finite), A: (P,)
    alpha. done is False where the rule does not settle a problem (its root is then
    only a point of its bracket). Constant data (min X = max X, e.g. a pair whose
    samples are all 0) give that value, done: what the host's search returns for them."""
    used = C > 0
    lo = xp.min(xp.where(used, V, xp.inf), axis=1)
    hi = xp.max(xp.where(used, V, -xp.inf), axis=1)
    constant = lo == hi
    scale_abs = xp.maximum(xp.abs(lo), xp.abs(hi))
    total = xp.sum(C, axis=1)
    # min/max, not xp.clip: array_api_compat's CuPy clip indexes by boolean masks (a device
    # sync each); the same value for these non-nan bounds
    z = xp.minimum(xp.maximum(xp.sum(C * V, axis=1) / total, lo), hi)
    d = V - z[:, None]
    t = xp.abs(d) * A[:, None]
    tt = (t * t) * 0.5  # halving is exact: the host's t*t then *= 0.5
    f = xp.sum(C * xp.copysign(xp.log1p(t + tt), d), axis=1)
    t1 = t + 1
    slope = t1 / (tt + t1)  # psi'(t) = (1 + t) / ((1 + t) + t^2/2), associated as the host does
    g = A * xp.sum(C * slope, axis=1)
    roots, done = newton_point(xp, A, lo, hi, z, f, g, total, scale_abs, rtol)
    return xp.where(constant, lo, roots), done | constant


def catoni_roots_device(b, V, C, A, valid=None, rtol: float = DEFAULT_RTOL):
    """Roots of P problems on backend b's device, (P,) float64 there. V, C, A as in
    `one_step` (device arrays, every value finite); `valid` (P,) bool or None: problems
    outside it are not solved (their root is left as computed by the rule, garbage
    included: the caller masks them). Problems the rule does not settle, typically none
    to 1%, go to the host (`catoni.catoni_roots`, trusted: the arrays are valid by
    construction) and their roots come back."""
    xp = b.xp
    roots, done = one_step(xp, V, C, A, rtol)
    rest = ~done if valid is None else (~done) & valid
    if bool(xp.any(rest)):
        host = catoni_roots(
            b.to_numpy(V[rest]),
            b.to_numpy(C[rest]),
            b.to_numpy(A[rest]),
            rtol=rtol,
            trusted=True,
        )
        roots[rest] = b.asarray(np.ascontiguousarray(host), xp.float64)
    return roots
