"""Catoni problems (catoni_root called directly; properties/checks/catoni.py)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

# -- Catoni problems (catoni_root called directly; properties/checks/catoni.py) ------------
# catoni_root(values, counts, alpha) encloses the root of f(z) = sum_i counts[i] psi(alpha
# (values[i] - z)) (appendix lemma "Concentration inequality for Catoni's estimator").
# The algorithms only ever pass it sorted, grouped data of moderate size; these problems
# are what the contract allows beyond that: entries in any order, a value repeated over
# several entries, one entry, all entries equal, magnitudes from 2^-40 to 2^40 and
# integers beyond 2^53 (not floats), counts up to 10^12, alpha from ~2^-40 to ~2^40, and
# data whose root is rational (so an exact implementation may return a point).
CATONI_MAX_ENTRIES = 8
CATONI_MAX_COUNT = 10**12
CATONI_EXPONENT = 40  # the extreme magnitudes: 2^-40 .. 2^40
CATONI_KINDS = ("small", "single", "constant", "symmetric", "rational_root", "extreme", "large_integers")


@dataclass(frozen=True)
class CatoniProblem:
    """One call catoni_root(values, counts, alpha) with valid arguments (counts >= 1),
    the kind of data it is, and a reordering of its entries (for the invariance check)."""

    values: tuple[Fraction, ...]
    counts: tuple[int, ...]
    alpha: Fraction
    kind: str
    permutation: tuple[int, ...]

    @property
    def max_abs(self) -> Fraction:
        return max(abs(v) for v in self.values)

    def reproducer(self) -> str:
        values = ", ".join(f"Fraction('{v}')" for v in self.values)
        return (
            f"properties.strategies.CatoniProblem(values=({values},), counts={self.counts!r}, "
            f"alpha=Fraction('{self.alpha}'), kind={self.kind!r}, permutation={self.permutation!r})"
        )

    def __repr__(self) -> str:
        return self.reproducer()


def _catoni_counts(draw, k: int) -> list[int]:
    """Counts from 1 to 10^12, the ends themselves included often."""
    return [
        draw(
            st.one_of(st.sampled_from((1, 2, CATONI_MAX_COUNT)), st.integers(1, 50), st.integers(1, CATONI_MAX_COUNT)),
            label=f"count_{i}",
        )
        for i in range(k)
    ]


def _catoni_alpha(draw) -> Fraction:
    scale = draw(st.sampled_from(("moderate", "tiny", "huge")), label="alpha_scale")
    base = draw(st.fractions(Fraction(1, 16), 16, max_denominator=16), label="alpha_base")
    if scale == "tiny":
        return base / 2 ** draw(st.integers(CATONI_EXPONENT - 4, CATONI_EXPONENT), label="alpha_exponent")
    if scale == "huge":
        return base * 2 ** draw(st.integers(CATONI_EXPONENT - 4, CATONI_EXPONENT), label="alpha_exponent")
    return base


def _catoni_value(draw, label: str, kind: str) -> Fraction:
    if kind == "extreme":
        # +-m 2^e over the whole range of exponents: tiny and huge values in one problem
        mantissa = draw(st.fractions(Fraction(-8), 8, max_denominator=7), label=f"{label}_mantissa")
        exponent = draw(
            st.one_of(
                st.sampled_from((-CATONI_EXPONENT, CATONI_EXPONENT)), st.integers(-CATONI_EXPONENT, CATONI_EXPONENT)
            ),
            label=f"{label}_exponent",
        )
        return mantissa * Fraction(2) ** exponent
    if kind == "large_integers":
        # around 10^18 and 2^64: beyond 2^53, so float64 cannot hold them exactly
        centre = draw(st.sampled_from((10**18, 2**64, -(2**62))), label=f"{label}_centre")
        return Fraction(centre + draw(st.integers(-1000, 1000), label=f"{label}_offset"))
    return draw(st.fractions(Fraction(-8), 8, max_denominator=16), label=label)


@st.composite
def catoni_problems(draw):
    """Valid catoni_root arguments of the kinds of CATONI_KINDS (see the section notes).
    Entries come in draw order (unsorted), and values are drawn from a small pool so that
    the same value often fills several entries; "symmetric" data (values c +- d_j with
    matching counts) and "rational_root" data (c + 2s, c - 6s with counts 2k, k and
    alpha = 1/s: 2 ln(1 + 2 + 2) = ln(1 + 6 + 18), plus entries at c) have the rational
    root c."""
    kind = draw(st.sampled_from(CATONI_KINDS), label="catoni_kind")
    if kind == "single":
        values = [
            _catoni_value(
                draw, "value", draw(st.sampled_from(("small", "extreme", "large_integers")), label="single_scale")
            )
        ]
        counts = _catoni_counts(draw, 1)
        alpha = _catoni_alpha(draw)
    elif kind == "constant":
        k = draw(st.integers(2, CATONI_MAX_ENTRIES), label="entries")
        value = _catoni_value(
            draw, "value", draw(st.sampled_from(("small", "extreme", "large_integers")), label="constant_scale")
        )
        values, counts, alpha = [value] * k, _catoni_counts(draw, k), _catoni_alpha(draw)
    elif kind == "symmetric":
        centre = _catoni_value(draw, "centre", "small")
        pairs = draw(st.integers(1, (CATONI_MAX_ENTRIES - 1) // 2), label="pairs")
        values, counts = [], []
        for j, count in enumerate(_catoni_counts(draw, pairs)):
            d = draw(st.fractions(Fraction(1, 16), 8, max_denominator=16), label=f"offset_{j}")
            values += [centre + d, centre - d]
            counts += [count, count]
        if draw(st.booleans(), label="entry_at_centre"):
            values.append(centre)
            counts += _catoni_counts(draw, 1)
        alpha = _catoni_alpha(draw)
    elif kind == "rational_root":
        centre = _catoni_value(draw, "centre", draw(st.sampled_from(("small", "extreme")), label="centre_scale"))
        s = draw(
            st.sampled_from(
                (
                    Fraction(1),
                    Fraction(1, 3),
                    Fraction(1, 2**CATONI_EXPONENT),
                    Fraction(2**CATONI_EXPONENT),
                    Fraction(5, 7),
                )
            ),
            label="root_scale",
        )
        k = draw(st.integers(1, CATONI_MAX_COUNT // 2), label="root_count")
        values, counts, alpha = [centre + 2 * s, centre - 6 * s], [2 * k, k], 1 / s
        if draw(st.booleans(), label="entry_at_centre"):
            values.append(centre)
            counts += _catoni_counts(draw, 1)
    else:  # small, extreme, large_integers: a pool of values spread over the entries
        k = draw(st.integers(2, CATONI_MAX_ENTRIES), label="entries")
        pool = [_catoni_value(draw, f"pool_{j}", kind) for j in range(draw(st.integers(2, k), label="distinct_values"))]
        values = [pool[draw(st.integers(0, len(pool) - 1), label=f"entry_{i}")] for i in range(k)]
        counts, alpha = _catoni_counts(draw, k), _catoni_alpha(draw)
        if len(set(values)) >= 3 and draw(st.booleans(), label="extremes_inside"):
            # the first and the last entry strictly between the data's minimum and maximum: an
            # implementation that brackets or groups by position rather than by value is wrong here
            lo, hi = min(values), max(values)
            last = len(values) - 1
            for end, middle in ((0, range(1, last)), (last, range(last - 1, 0, -1))):
                i = next((i for i in middle if lo < values[i] < hi), None)
                if i is not None and not lo < values[end] < hi:
                    values[end], values[i] = values[i], values[end]
                    counts[end], counts[i] = counts[i], counts[end]
    if kind in ("symmetric", "rational_root"):
        order = draw(st.permutations(range(len(values))), label="entry_order")  # not sorted by construction
        values, counts = [values[i] for i in order], [counts[i] for i in order]
    permutation = draw(st.permutations(range(len(values))), label="permutation")
    return CatoniProblem(tuple(values), tuple(counts), alpha, kind, tuple(permutation))
