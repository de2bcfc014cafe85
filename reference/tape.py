"""Tapes: all the randomness of a run as data (x_t, y_t, u_t), sampled exactly.

Generator "cral-tape-v1" (version-stable; changing any of this is a new version):

* Each round t = 1..n owns three 64-bit words: word 0 for x_t, word 1 for y_t,
  word 2 for u_t. Rounds are grouped in blocks of 1024; block b (rounds 1024 b + 1 ..
  1024 b + 1024) is the first 3 * 1024 * 8 bytes of
  SHAKE-256(b"cral-tape-v1/block" + seed.to_bytes(8, "little") + b.to_bytes(8, "little")),
  read as little-endian uint64 words, round after round, words 0, 1, 2 of each round.
* A word w is the first 64 binary digits of a uniform real U in [0, 1) (U = w / 2^64 +
  later digits). Whenever a comparison of U with a rational is not settled by the digits
  read so far, digits 65, 66, ... come from the stream
  SHAKE-256(b"cral-tape-v1/ext" + seed.to_bytes(8, "little") + t.to_bytes(8, "little")
  + bytes([j])), j the word index, read as little-endian uint64 words, each the next 64
  digits (most significant first); this happens with probability about 2^-63 per
  comparison.
* x_t = min{i : U_x < nu_0 + ... + nu_i}  (inverse CDF: P(x_t = i) = nu_i exactly);
  y_t = 1 iff U_y < eta_t^{x_t}            (P(y_t = 1) = eta_t^{x_t} exactly);
  u_t = w_u / 2^64                        (the query coin: Q_t = 1 iff u_t < q_t).
  Every comparison is between integers; no float is involved.

Consequences a user can rely on: the tape for n rounds is the prefix of the tape for
more rounds; x_t does not depend on the adversary; and for two adversaries, y_t is
monotone in eta_t^{x_t} (a coupling: more label-1 mass never turns a 1 into a 0).
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .adversary import Adversary
from .exact import as_fraction, as_int, as_label, fraction_text, shown
from .instance import Instance

GENERATOR = "cral-tape-v1"
BLOCK_ROUNDS = 1024
WORDS_PER_ROUND = 3
WORD_BITS = 64
_SCALE = 1 << WORD_BITS
SEED_LIMIT = 1 << 64
_POWER_TEXTS = tuple(str(1 << k) for k in range(WORD_BITS + 1))  # the denominators of u = w / 2^64


@dataclass(frozen=True)
class Tape:
    """x[t-1], y[t-1], u[t-1] are x_t, y_t, u_t. `seed`/`generator` record provenance
    (None for a tape written by hand or by another tool)."""

    x: tuple[int, ...]
    y: tuple[int, ...]
    u: tuple[Fraction, ...]
    seed: int | None = None
    generator: str | None = None

    def __init__(self, x, y, u, seed=None, generator=None):
        for name, seq in (("x", x), ("y", y), ("u", u)):
            if isinstance(seq, (str, bytes)) or not isinstance(seq, Sequence):
                raise ValueError(f"tape.{name} must be a sequence, got {shown(seq)}")
        if len(x) == 0:
            raise ValueError("tape.x must not be empty (n >= 1)")
        if not len(x) == len(y) == len(u):
            raise ValueError(f"tape fields differ in length: x {len(x)}, y {len(y)}, u {len(u)}")
        xs = tuple(as_int(v, f"tape.x[{i}]", minimum=0) for i, v in enumerate(x))
        ys = tuple(as_label(v, f"tape.y[{i}]") for i, v in enumerate(y))
        us = tuple(as_fraction(v, f"tape.u[{i}]") for i, v in enumerate(u))
        for i, v in enumerate(us):
            if not 0 <= v < 1:
                raise ValueError(f"tape.u[{i}] must lie in [0, 1), got {v}")
        if seed is not None:
            seed = as_int(seed, "tape.seed", minimum=0, maximum=SEED_LIMIT - 1)
        if generator is not None and not isinstance(generator, str):
            raise ValueError(f"tape.generator must be a string, got {generator!r}")
        self._set(xs, ys, us, seed, generator)

    def _set(self, x, y, u, seed, generator):
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "u", u)
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "generator", generator)

    @classmethod
    def _trusted(cls, x, y, u, seed, generator, coin_words=None) -> Tape:
        """For the sampler, whose output is valid by construction; `coin_words`: the
        64-bit words its coins are (u_t = w_t / 2^64), when the sampler has them."""
        tape = object.__new__(cls)
        tape._set(x, y, u, seed, generator)
        if coin_words is not None:
            object.__setattr__(tape, "_coin_words", coin_words)
        return tape

    def coin_words(self) -> tuple:
        """Each coin u_t as its 64-bit word w_t = u_t 2^64, or None for a coin that is no
        multiple of 2^-64 (a hand-written tape): the binary forms (pickle, .npy) hold
        words. Computed once per tape (u = p / 2^k in lowest terms, k <= 64, is the word
        p 2^(64 - k): a shift), and given by the sampler, which draws the words."""
        words = self.__dict__.get("_coin_words")
        if words is None:
            words = []
            for u in self.u:
                numerator, denominator = u.as_integer_ratio()
                shift = 65 - denominator.bit_length()
                words.append(None if denominator & (denominator - 1) or shift < 0 else numerator << shift)
            words = tuple(words)
            object.__setattr__(self, "_coin_words", words)
        return words

    @property
    def n(self) -> int:
        return len(self.x)

    def __reduce__(self):
        """A compact pickle (the property suite sends tapes to candidates in worker
        processes): x and y as machine arrays, each coin u = w / 2^64 as its 64-bit word w,
        and only the coins that are not such words (hand-written tapes) as Fractions.
        About twice as fast both ways as pickling the Fractions."""
        coin_words = self.coin_words()
        others = tuple((i, self.u[i]) for i, w in enumerate(coin_words) if w is None)
        words = array("Q", (0 if w is None else w for w in coin_words))
        return _tape_from_arrays, (
            array("q", self.x).tobytes(),
            bytes(self.y),
            words.tobytes(),
            others,
            self.seed,
            self.generator,
        )

    def to_json(self) -> dict:
        return {
            "format": "cral-tape",
            "version": 1,
            "generator": self.generator,
            "seed": self.seed,
            "x": list(self.x),
            "y": list(self.y),
            "u": self._coin_texts(),
        }

    def _coin_texts(self) -> list:
        """fraction_text of every coin; from its 64-bit word where the tape has its words
        (the sampler gives them): u = w / 2^64 in lowest terms is (w >> z) / 2^(64 - z), z
        the word's trailing zero bits, text without the Fraction (~1.4x faster)."""
        words = self.__dict__.get("_coin_words")
        if words is None or None in words:
            return [fraction_text(v) for v in self.u]
        texts = []
        for w in words:
            if w:
                z = (w & -w).bit_length() - 1
                texts.append(f"{w >> z}/{_POWER_TEXTS[WORD_BITS - z]}")
            else:
                texts.append("0/1")
        return texts

    @classmethod
    def from_json(cls, data) -> Tape:
        if not isinstance(data, dict):
            raise ValueError(f"tape must be a JSON object, got {type(data).__name__}")
        if data.get("format") != "cral-tape":
            raise ValueError(f"tape.format must be 'cral-tape', got {data.get('format')!r}")
        if data.get("version") != 1:
            raise ValueError(f"tape.version must be 1, got {data.get('version')!r}")
        unknown = set(data) - {"format", "version", "generator", "seed", "x", "y", "u"}
        if unknown:
            raise ValueError(f"tape has unknown field {sorted(unknown)[0]!r}")
        for key in ("x", "y", "u"):
            if key not in data:
                raise ValueError(f"tape is missing field {key!r}")
        return cls(data["x"], data["y"], data["u"], data.get("seed"), data.get("generator"))


def _tape_from_arrays(x: bytes, y: bytes, words: bytes, others, seed, generator) -> Tape:
    """Tape.__reduce__'s inverse (the pickled tape was valid when it was pickled)."""
    xs, ws = array("q"), array("Q")
    xs.frombytes(x)
    ws.frombytes(words)
    u = [Fraction(w, _SCALE) for w in ws]
    coin_words = list(ws)
    for i, value in others:
        u[i] = value
        coin_words[i] = None
    return Tape._trusted(tuple(xs), tuple(y), tuple(u), seed, generator, tuple(coin_words))


# -- the generator ------------------------------------------------------------------------
# block_words, lazy_inverse_cdf, Comparator and cdf_table are public: they are the
# pieces of cral-tape-v1 that another sampler (fast/tape.py) reuses to reproduce this
# generator bit for bit. Their behaviour is the contract of the module docstring.
def block_words(seed: int, block: int) -> array:
    """The 3 * 1024 words of block b (rounds 1024 b + 1 .. 1024 b + 1024, words 0, 1, 2 of
    each round in turn) as an array of native-endian uint64 ("Q")."""
    digest = hashlib.shake_256(b"cral-tape-v1/block" + seed.to_bytes(8, "little") + block.to_bytes(8, "little")).digest(
        BLOCK_ROUNDS * WORDS_PER_ROUND * 8
    )
    words = array("Q")
    words.frombytes(digest)
    if sys.byteorder == "big":
        words.byteswap()
    return words


def _extension_words(seed: int, t: int, j: int) -> Iterator[int]:
    """Binary digits 65, 66, ... of U for word j of round t, 64 at a time."""
    chunk = 8
    produced = 0
    while True:
        chunk *= 2
        digest = hashlib.shake_256(
            b"cral-tape-v1/ext" + seed.to_bytes(8, "little") + t.to_bytes(8, "little") + bytes([j])
        ).digest(chunk * 8)
        for k in range(produced, chunk):
            yield int.from_bytes(digest[8 * k : 8 * k + 8], "little")
        produced = chunk


def lazy_inverse_cdf(word: int, cdf: Sequence[Fraction], seed: int, t: int, j: int) -> int:
    """min{i : U < cdf[i]} for U = 0.word ext1 ext2 ... (binary), reading digits until
    the answer is settled. cdf is non-decreasing and ends with a value > U for sure."""
    prefix, bits = word, WORD_BITS
    extension = _extension_words(seed, t, j)
    while True:
        lo, hi = Fraction(prefix, 1 << bits), Fraction(prefix + 1, 1 << bits)
        # U in [lo, hi): index i is settled once cdf[i-1] <= lo and hi <= cdf[i].
        i = bisect_right(cdf, lo)  # every cdf[k] <= lo is certainly <= U
        if i < len(cdf) and hi <= cdf[i]:
            return i
        prefix = (prefix << WORD_BITS) | next(extension)
        bits += WORD_BITS


class Comparator:
    """Decides U < p for a fixed rational p from the first 64 digits of U (integers
    only), deferring to exact refinement in the rare unsettled case: for a word w,
    U < p for sure iff w < certainly_below, U >= p for sure iff w >= certainly_not_below;
    otherwise `lazy_inverse_cdf(w, (p, 2), ...)` reads more digits."""

    __slots__ = ("p", "certainly_below", "certainly_not_below")

    def __init__(self, p: Fraction):
        self.p = p
        scaled = p * _SCALE
        # U < p for sure iff (w + 1) / 2^64 <= p iff w < floor(p 2^64);
        # U >= p for sure iff w / 2^64 >= p iff w >= ceil(p 2^64).
        self.certainly_below = scaled.numerator // scaled.denominator
        self.certainly_not_below = -((-scaled.numerator) // scaled.denominator)


def cdf_table(nu: Sequence[Fraction]):
    """(cdf, ceil(cdf 2^64), floor(cdf 2^64)) for point masses nu, as lists: x_t =
    bisect_right(ceil, w_x) is settled iff w_x < floor[x_t] (else `lazy_inverse_cdf`)."""
    cdf, acc = [], Fraction(0)
    for p in nu:
        acc += p
        cdf.append(acc)
    ceil_scaled = [-((-(c * _SCALE).numerator) // (c * _SCALE).denominator) for c in cdf]
    floor_scaled = [(c * _SCALE).numerator // (c * _SCALE).denominator for c in cdf]
    return cdf, ceil_scaled, floor_scaled


def check_sampling_inputs(instance, adversary, seed) -> int:
    """What every tape sampler receives (this one and fast.sample_tape); returns the seed."""
    if not isinstance(instance, Instance):
        raise ValueError(f"instance must be a reference.Instance, got {type(instance).__name__}")
    if not isinstance(adversary, Adversary):
        raise ValueError(f"adversary must be a reference.adversary.Adversary, got {type(adversary).__name__}")
    seed = as_int(seed, "seed", minimum=0, maximum=SEED_LIMIT - 1)
    return seed


def sample_tape(instance: Instance, adversary: Adversary, seed) -> Tape:
    """The tape of n = adversary.n rounds: x_t ~ nu*, y_t ~ Ber(eta_t^{x_t}), u_t ~ U[0,1)."""
    seed = check_sampling_inputs(instance, adversary, seed)
    n = adversary.n
    cdf, cdf_ceil, cdf_floor = cdf_table(instance.nu)
    xs, ys, us, coin_words = [], [], [], []
    words, block = None, -1
    for start, end, eta_t, _ in adversary.bind(instance):
        label_rule = [Comparator(e) for e in eta_t]
        for t in range(start, end + 1):
            b, r = divmod(t - 1, BLOCK_ROUNDS)
            if b != block:
                words, block = block_words(seed, b), b
            base = WORDS_PER_ROUND * r
            wx, wy, wu = words[base], words[base + 1], words[base + 2]
            x = bisect_right(cdf_ceil, wx)
            if not wx < cdf_floor[x]:
                x = lazy_inverse_cdf(wx, cdf, seed, t, 0)
            rule = label_rule[x]
            if wy < rule.certainly_below:
                y = 1
            elif wy >= rule.certainly_not_below:
                y = 0
            else:
                y = 1 if lazy_inverse_cdf(wy, (rule.p, Fraction(2)), seed, t, 1) == 0 else 0
            xs.append(x)
            ys.append(y)
            us.append(Fraction(wu, _SCALE))
            coin_words.append(wu)
    assert len(xs) == n
    return Tape._trusted(tuple(xs), tuple(ys), tuple(us), seed, GENERATOR, tuple(coin_words))
