"""Exact quantities of CALruption's epochs that the strategies (to build valid states)
and the checks (to decide events and bounds) both need. They live here so that
properties/strategies/ never imports a check module."""

from __future__ import annotations

from fractions import Fraction


def eps(i: int) -> Fraction:
    return Fraction(1, 2**i)


def rho_matrix(H, seen, length: int):
    """rho^(h, h') = (1/length) #{rounds at a point where h and h' disagree} (line 7), from
    the epoch's x-counts."""
    num_h = len(H)
    return tuple(
        tuple(Fraction(sum(s for s, a, b in zip(seen, H[h], H[h2]) if a != b), length) for h2 in range(num_h))
        for h in range(num_h)
    )


def g_weight(C: Fraction, length: int, R_star: Fraction) -> Fraction:
    """C_s (2R* 1{2C_s/N_s <= 1/16} + 1{2C_s/N_s > 1/16}) (Lemma 5.1's g_l)."""
    return C * (2 * R_star if 2 * C / length <= Fraction(1, 16) else 1)


def g_value(corruptions, lengths, R_star) -> Fraction:
    """g_l = (2/beta1) eps_l^2 sum_{s<=l} C_s (...) = (2/N_l) sum_{s<=l} C_s (...), N_l = |I_l|
    (l = len(lengths); g_0 = 0)."""
    if not lengths:
        return Fraction(0)
    return Fraction(2, lengths[-1]) * sum((g_weight(C, n, R_star) for C, n in zip(corruptions, lengths)), Fraction(0))
