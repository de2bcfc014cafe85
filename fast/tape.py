"""Tapes as numpy arrays, sampled by a vectorised generator that reproduces the
reference's generator "cral-tape-v1" (reference/tape.py) bit for bit.

The contract (reference/tape.py, module docstring) fixes, for each round t, three 64-bit
words w_x, w_y, w_u and the integer comparisons that turn them into x_t, y_t, u_t. This
module reads the same words (one SHAKE-256 digest per block of 1024 rounds, through the
reference's own `block_words`) and makes the same comparisons on whole arrays:

* x_t = bisect_right(ceil(cdf 2^64), w_x), settled iff w_x < floor(cdf[x_t] 2^64);
* y_t = 1 if w_y < floor(eta 2^64), 0 if w_y >= ceil(eta 2^64);
* u_t = w_u / 2^64.

Numbers that are exactly 2^64 (cdf = 1, eta = 1) do not fit in a uint64. The arrays hold
them clipped to 2^64 - 1, and every round whose comparison could be affected by the
clipping (w = 2^64 - 1) is among the few rounds that are re-decided one at a time with
the reference's exact rule, as are the unsettled ones (the reference's lazy extension,
`lazy_inverse_cdf`). No float enters the sampling.

`coins` decides the query coin Q_t = 1 iff u_t < q^{x_t} exactly for float64 q.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np

import reference.tape as _ref_tape
from reference.adversary import Adversary
from reference.exact import as_fraction, as_int
from reference.instance import Instance
from reference.tape import BLOCK_ROUNDS, GENERATOR, SEED_LIMIT, WORDS_PER_ROUND, Comparator, Tape, cdf_table

_SCALE = 1 << 64  # a word w stands for U in [w / 2^64, (w + 1) / 2^64)
_TOP = np.uint64(_SCALE - 1)

# Blocks hashed before the numpy passes over them: large enough that the fixed cost of
# the passes (a few µs each) is small per round, small enough (24 KiB of words per block)
# that the words stay in cache between passes. Tests lower it to cross chunk boundaries.
_CHUNK_BLOCKS = 16


# -- the arrays ------------------------------------------------------------------------
def _column(values, field: str, dtype, *, maximum: int | None = None) -> np.ndarray:
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"tape_arrays.{field} must be one-dimensional, got shape {array.shape}")
    if array.dtype.kind not in "biu":
        raise ValueError(f"tape_arrays.{field} must hold integers, got dtype {array.dtype}")
    if array.size:
        # Compare as Python ints: mixing int64 and uint64 arrays in numpy goes through float64.
        low, high = int(array.min()), int(array.max())
        if low < 0:
            raise ValueError(f"tape_arrays.{field}[{int(np.argmin(array))}] is {low}, must be >= 0")
        if maximum is not None and high > maximum:
            raise ValueError(f"tape_arrays.{field}[{int(np.argmax(array))}] is {high}, must be <= {maximum}")
    array = array.astype(dtype, copy=False).view()
    array.flags.writeable = False  # the dataclass is frozen; so are its arrays (through this view)
    return array


@dataclass(frozen=True)
class TapeArrays:
    """The tape as numpy arrays: x (int64, point index), y (uint8), u_words (uint64) with
    u_t = u_words[t-1] / 2^64 exactly. `seed`/`generator` record provenance as in
    reference.Tape. The arrays are read-only views.

    `u_exact` holds the rounds of a hand-written tape whose coin is not a multiple of
    2^-64 (crafted tapes, e.g. properties.strategies.crafted_case): (0-based index, u)
    pairs, with u_words = floor(u 2^64) there; `exact_coins` re-decides those rounds
    exactly. Sampled tapes have none."""

    x: np.ndarray
    y: np.ndarray
    u_words: np.ndarray
    seed: int | None = None
    generator: str | None = None
    u_exact: tuple = ()

    def __post_init__(self):
        x = _column(self.x, "x", np.int64, maximum=np.iinfo(np.int64).max)
        y = _column(self.y, "y", np.uint8, maximum=1)
        u = _column(self.u_words, "u_words", np.uint64, maximum=_SCALE - 1)
        if x.size == 0:
            raise ValueError("tape_arrays.x must not be empty (n >= 1)")
        if not x.size == y.size == u.size:
            raise ValueError(f"tape_arrays fields differ in length: x {x.size}, y {y.size}, u_words {u.size}")
        seed = None if self.seed is None else as_int(self.seed, "tape_arrays.seed", minimum=0, maximum=SEED_LIMIT - 1)
        if self.generator is not None and not isinstance(self.generator, str):
            raise ValueError(f"tape_arrays.generator must be a string, got {self.generator!r}")
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "u_words", u)
        object.__setattr__(self, "seed", seed)
        exact = tuple(
            sorted(
                (
                    as_int(i, "tape_arrays.u_exact index", minimum=0, maximum=x.size - 1),
                    as_fraction(v, f"tape_arrays.u_exact[{i}]"),
                )
                for i, v in self.u_exact
            )
        )
        for i, v in exact:
            if not 0 <= v < 1:
                raise ValueError(f"tape_arrays.u_exact[{i}] is {v}, must lie in [0, 1)")
            if int(u[i]) != (v * _SCALE).numerator // (v * _SCALE).denominator:
                raise ValueError(f"tape_arrays.u_words[{i}] must be floor(u 2^64) for u_exact[{i}] = {v}")
        object.__setattr__(self, "u_exact", exact)

    # The generated __eq__ would compare arrays with `==` and fail on their truth value.
    def __eq__(self, other):
        if not isinstance(other, TapeArrays):
            return NotImplemented
        return (
            self.seed == other.seed
            and self.generator == other.generator
            and np.array_equal(self.x, other.x)
            and np.array_equal(self.y, other.y)
            and np.array_equal(self.u_words, other.u_words)
            and self.u_exact == other.u_exact
        )

    __hash__ = None  # mutable buffers may sit behind the views

    @property
    def n(self) -> int:
        return int(self.x.size)

    def to_tape(self) -> Tape:
        """The reference.Tape with the same rounds (u_t = Fraction(w, 2^64)); slow, for
        tests and cross-checks."""
        u = [Fraction(w, _SCALE) for w in self.u_words.tolist()]
        for i, v in self.u_exact:
            u[i] = v
        return Tape(self.x.tolist(), self.y.tolist(), u, self.seed, self.generator)


def from_tape(tape: Tape) -> TapeArrays:
    """The arrays of a reference.Tape, exactly. A coin u_t that is w / 2^64 for an integer
    w (every sampled tape's) becomes its word; any other rational coin (a hand-written
    tape) is kept exactly in `u_exact`, with its word floor(u 2^64)."""
    if not isinstance(tape, Tape):
        raise ValueError(f"tape must be a reference.Tape, got {type(tape).__name__}")
    words, exact = [], []
    for i, u in enumerate(tape.u):
        d = u.denominator
        # u = a / d in lowest terms is a multiple of 2^-64 iff d is a power of two <= 2^64.
        if d & (d - 1) or d > _SCALE:
            exact.append((i, u))
            scaled = u * _SCALE
            words.append(scaled.numerator // scaled.denominator)
        else:
            words.append(u.numerator * (_SCALE // d))
    for i, x in enumerate(tape.x):
        if x > np.iinfo(np.int64).max:
            raise ValueError(f"tape.x[{i}] is {x}, too large for the fast implementation's int64 point indices")
    return TapeArrays(
        np.array(tape.x, dtype=np.int64),
        np.array(tape.y, dtype=np.uint8),
        np.array(words, dtype=np.uint64),
        tape.seed,
        tape.generator,
        tuple(exact),
    )


# -- the generator ---------------------------------------------------------------------
def _exact_x(word: int, cdf, cdf_ceil, cdf_floor, seed: int, t: int) -> int:
    """x_t from w_x as cral-tape-v1 defines it, one round in Python integers (the
    reference's per-round rule, including its lazy extension)."""
    x = bisect_right(cdf_ceil, word)
    if not word < cdf_floor[x]:
        x = _ref_tape.lazy_inverse_cdf(word, cdf, seed, t, 0)
    return x


def _exact_y(word: int, rule: Comparator, seed: int, t: int) -> int:
    """y_t from w_y for eta_t^{x_t} = rule.p as cral-tape-v1 defines it, one round."""
    if word < rule.certainly_below:
        return 1
    if word >= rule.certainly_not_below:
        return 0
    return 1 if _ref_tape.lazy_inverse_cdf(word, (rule.p, Fraction(2)), seed, t, 1) == 0 else 0


def _clipped(values: Sequence[int]) -> np.ndarray:
    """Integers in [0, 2^64] as uint64, 2^64 stored as 2^64 - 1. Sound where used: for a
    word w, `w < clipped` differs from `w < 2^64` only at w = 2^64 - 1, and the callers
    send every such round (w == clipped value) to the exact per-round rule."""
    return np.array([min(v, _SCALE - 1) for v in values], dtype=np.uint64)


class _Points:
    """x_t = bisect_right(ceil(cdf 2^64), w) over arrays of words.

    A lookup table on the top `bits` bits of w answers directly wherever the answer and
    its settledness are the same for all 2^(64 - bits) words sharing those bits: i.e. for
    every such cell that contains no ceil(cdf[i] 2^64) (x would change inside it) and no
    floor(cdf[i] 2^64) (the only word of a cell that can be unsettled is floor(cdf[x] 2^64),
    when it is ceil - 1). Other cells (at most 2m of 2^bits, so a fraction <= 2m 2^-bits
    of the rounds) are marked -1 and go to searchsorted and the exact settled test."""

    def __init__(self, nu: Sequence[Fraction]):
        self.cdf, self.cdf_ceil, self.cdf_floor = cdf_table(nu)
        m = len(nu)
        # ceil(cdf 2^64) is non-decreasing; entries equal to 2^64 (from cdf = 1, at least
        # the last) are never <= a word, so bisect_right over the table equals
        # searchsorted over the prefix below 2^64, which fits in uint64 exactly.
        self.ceil_words = np.array([c for c in self.cdf_ceil if c < _SCALE], dtype=np.uint64)
        self.floor_words = _clipped(self.cdf_floor)
        self.bits = min(20, max(8, m.bit_length() + 8))
        self.shift = np.uint64(64 - self.bits)
        starts = np.arange(1 << self.bits, dtype=np.uint64) << self.shift
        lut_type = np.int16 if m < 2**15 else np.int32 if m < 2**31 else np.int64
        lut = np.searchsorted(self.ceil_words, starts, side="right").astype(lut_type)
        edges = [v >> (64 - self.bits) for v in list(self.cdf_ceil) + list(self.cdf_floor) if v < _SCALE]
        lut[np.array(edges, dtype=np.int64)] = -1
        self.lut = lut

    def sample(self, wx: np.ndarray, out: np.ndarray, seed: int, first_round: int) -> None:
        x = self.lut[(wx >> self.shift).view(np.int64)]
        out[...] = x
        dirty = np.flatnonzero(x < 0)
        if dirty.size == 0:
            return
        words = wx[dirty]
        xs = np.searchsorted(self.ceil_words, words, side="right")
        out[dirty] = xs
        # Unsettled (w >= floor(cdf[x] 2^64)), or w = 2^64 - 1 against a clipped 2^64.
        for i in dirty[~(words < self.floor_words[xs])].tolist():
            out[i] = _exact_x(int(wx[i]), self.cdf, self.cdf_ceil, self.cdf_floor, seed, first_round + i)


class _Labels:
    """y_t = [w_y < eta_t^{x_t}] over arrays of words, for all segments of the adversary.

    Distinct eta_t vectors are rows of a table of floor(eta 2^64) (clipped). Since
    ceil(eta 2^64) <= floor(eta 2^64) + 1, comparing w with the floor settles every round
    except w == floor (then unsettled if eta 2^64 is not an integer, or the clipped 2^64);
    those rounds, about one in 2^64, are re-decided exactly."""

    def __init__(self, bound, m: int):
        # Segments often share an eta vector (a burst and the clean rounds around it);
        # keyed by integer pairs, as hashing Fractions costs a modular inverse each.
        rows: dict[tuple[int, ...], int] = {}
        seg_row, etas = [], []
        for _, _, eta_t, _ in bound:
            key = tuple(v for e in eta_t for v in (e.numerator, e.denominator))
            if key not in rows:
                rows[key] = len(etas)
                etas.append(eta_t)
            seg_row.append(rows[key])
        self.rules = [[Comparator(e) for e in eta] for eta in etas]
        self.below = np.stack([_clipped([r.certainly_below for r in rules]) for rules in self.rules])
        self.below_flat = self.below.reshape(-1)
        self.m = m
        self.seg_start = np.array([s for s, _, _, _ in bound], dtype=np.int64)
        self.seg_end = np.array([e for _, e, _, _ in bound], dtype=np.int64)
        self.seg_row = np.array(seg_row, dtype=np.int64)

    def sample(self, wy: np.ndarray, x: np.ndarray, out: np.ndarray, seed: int, first_round: int) -> None:
        last_round = first_round + wy.size - 1
        i0 = int(np.searchsorted(self.seg_end, first_round, side="left"))
        i1 = int(np.searchsorted(self.seg_start, last_round, side="right"))
        if i1 - i0 == 1:
            row = int(self.seg_row[i0])
            threshold = self.below[row][x]
            rows = None
        else:
            lengths = np.minimum(self.seg_end[i0:i1], last_round) - np.maximum(self.seg_start[i0:i1], first_round) + 1
            rows = np.repeat(self.seg_row[i0:i1], lengths)
            threshold = self.below_flat[rows * self.m + x]
        y = wy < threshold
        out[...] = y
        for i in np.flatnonzero(wy == threshold).tolist():
            r = row if rows is None else int(rows[i])
            out[i] = _exact_y(int(wy[i]), self.rules[r][int(x[i])], seed, first_round + i)


def sample_tape_arrays(instance: Instance, adversary: Adversary, seed) -> TapeArrays:
    """The tape of reference.sample_tape(instance, adversary, seed), as arrays; equal to it
    round for round (generator cral-tape-v1)."""
    seed = _ref_tape.check_sampling_inputs(instance, adversary, seed)
    n = adversary.n
    points = _Points(instance.nu)
    labels = _Labels(adversary.bind(instance), instance.num_points)
    x = np.empty(n, dtype=np.int64)
    y = np.empty(n, dtype=np.uint8)
    u = np.empty(n, dtype=np.uint64)
    num_blocks = -(-n // BLOCK_ROUNDS)
    buffer = np.empty((_CHUNK_BLOCKS * BLOCK_ROUNDS, WORDS_PER_ROUND), dtype=np.uint64)
    for first_block in range(0, num_blocks, _CHUNK_BLOCKS):
        blocks = range(first_block, min(first_block + _CHUNK_BLOCKS, num_blocks))
        for k, b in enumerate(blocks):
            # cral-tape-v1: block b is rounds 1024 b + 1 .. 1024 b + 1024, words 0, 1, 2
            # (for x, y, u) of each round in turn; block_words returns native uint64.
            words = np.frombuffer(_ref_tape.block_words(seed, b), dtype=np.uint64)
            buffer[k * BLOCK_ROUNDS : (k + 1) * BLOCK_ROUNDS] = words.reshape(BLOCK_ROUNDS, WORDS_PER_ROUND)
        lo = first_block * BLOCK_ROUNDS
        hi = min(n, (first_block + len(blocks)) * BLOCK_ROUNDS)
        words = buffer[: hi - lo]
        u[lo:hi] = words[:, 2]
        points.sample(words[:, 0], x[lo:hi], seed, lo + 1)
        labels.sample(words[:, 1], x[lo:hi], y[lo:hi], seed, lo + 1)
    return TapeArrays(x, y, u, seed, GENERATOR)


# -- the query coin --------------------------------------------------------------------
class QueryThresholds(NamedTuple):
    """Q = 1 iff u < q, for u = w / 2^64, as integer tests: (w < threshold[x]) | always[x].

    threshold = ceil(q 2^64) for q < 1 (w < q 2^64 iff w < ceil(q 2^64) for an integer w);
    for q = 1 the exact threshold 2^64 does not fit, so `always` is set and threshold is
    2^64 - 1 (keeping threshold non-decreasing in q). Use both fields."""

    threshold: np.ndarray  # uint64
    always: np.ndarray  # bool


def query_thresholds(q) -> QueryThresholds:
    """Exact integer thresholds for float query probabilities q (shape (m,), in [0, 1])."""
    q = np.asarray(q)
    if q.ndim != 1:
        raise ValueError(f"q must be one-dimensional, got shape {q.shape}")
    # float16/32 and the integers 0/1 convert to float64 exactly; wider floats would not.
    if not (q.dtype.kind in "biu" or (q.dtype.kind == "f" and q.dtype.itemsize <= 8)):
        raise ValueError(f"q must hold float64 probabilities, got dtype {q.dtype}")
    q = q.astype(np.float64)
    bad = np.flatnonzero(~((q >= 0) & (q <= 1)))  # also catches nan
    if bad.size:
        raise ValueError(f"q[{int(bad[0])}] is {q[bad[0]]!r}, must lie in [0, 1]")
    always = q == 1
    # Scaling by 2^64 is exact for a float in [0, 1) (exponent shift, no overflow), and
    # ceil is exact on floats; the result is an integer float <= 2^64 - 2^11, which
    # converts to uint64 exactly.
    scaled = np.ceil(np.ldexp(np.where(always, 0.0, q), 64))
    threshold = scaled.astype(np.uint64)
    threshold[always] = _TOP
    return QueryThresholds(threshold, always)


def coins(u_words: np.ndarray, x: np.ndarray, q) -> np.ndarray:
    """Q_t = 1 iff u_t < q[x_t] exactly (u_t = u_words / 2^64, q the floats' exact values),
    as a boolean array. q: float probabilities per point, or their query_thresholds."""
    thresholds = q if isinstance(q, QueryThresholds) else query_thresholds(q)
    u_words = np.asarray(u_words)
    x = np.asarray(x)
    # uint64 only: numpy compares int64 with uint64 through float64, which is not exact.
    if u_words.dtype != np.uint64:
        raise ValueError(f"u_words must have dtype uint64, got {u_words.dtype}")
    if x.dtype.kind not in "iu":
        raise ValueError(f"x must hold integer point indices, got dtype {x.dtype}")
    if x.shape != u_words.shape:
        raise ValueError(f"x has shape {x.shape} but u_words has shape {u_words.shape}")
    m = thresholds.threshold.size
    if x.size and (int(x.min()) < 0 or int(x.max()) >= m):
        i = int(np.argmax((x < 0) | (x >= m)))
        raise ValueError(f"x[{i}] is {int(x.flat[i])}, but q has entries for points 0..{m - 1} only")
    return (u_words < thresholds.threshold[x]) | thresholds.always[x]


def exact_coins(tape: TapeArrays, start: int, end: int, x: np.ndarray, q, asked: np.ndarray) -> np.ndarray:
    """`asked` (the coins of rounds start..end, 1-based, from `coins`) with the rounds of
    tape.u_exact re-decided exactly: u < q[x] for the float q's exact value."""
    for i, u in tape.u_exact:
        if start - 1 <= i < end:
            asked[i - start + 1] = u < Fraction(float(q[x[i - start + 1]]))
    return asked
