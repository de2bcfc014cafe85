"""fast/tape.py: the vectorised cral-tape-v1 generator is the reference's, round for
round, including its 2^64 edges and its lazy fallback; conversions and coins are exact."""

import math
import random
from array import array
from fractions import Fraction as F

import numpy as np
import pytest

import reference as R
import reference.tape as RT
from fast import tape as FT
from fast.tape import TapeArrays, coins, from_tape, query_thresholds, sample_tape_arrays

SCALE = 2**64


def assert_same_tape(arrays, tape):
    assert arrays.n == tape.n
    assert arrays.x.dtype == np.int64 and arrays.y.dtype == np.uint8 and arrays.u_words.dtype == np.uint64
    assert tuple(arrays.x.tolist()) == tape.x
    assert tuple(arrays.y.tolist()) == tape.y
    assert tuple(F(w, SCALE) for w in arrays.u_words.tolist()) == tape.u
    assert (arrays.seed, arrays.generator) == (tape.seed, tape.generator)


def _four_points():
    # nu with zero entries and eta with 0 and 1 (floor(eta 2^64) = 2^64 does not fit a uint64).
    return R.Instance(
        [F(1, 3), F(0), F(1, 2), F(1, 6), F(0)], [F(0), F(1, 2), F(1), F(1, 3), F(1)], [(0,) * 5, (1,) * 5]
    )


CASES = {
    "golden-setup": lambda: (R.instances.thresholds(8), R.adversary.misspecification(F(1, 8), [F(1, 2)] * 8, 3000)),
    "zeros-and-extremes": lambda: (_four_points(), R.adversary.clean(2500)),
    "single-point-of-mass-1": lambda: (
        R.Instance([F(0), F(1), F(0)], [F(1, 3), F(1), F(0)], [(0, 0, 0)]),
        R.adversary.clean(1030),
    ),
    "one-point-space": lambda: (R.Instance([F(1)], [F(2, 7)], [(0,)]), R.adversary.clean(700)),
    "misspecification-to-0-and-1": lambda: (
        _four_points(),
        R.adversary.misspecification(F(1, 3), [F(1), F(0), F(1, 7), F(1), F(0)], 5000),
    ),
    "early-burst": lambda: (
        R.instances.thresholds(6),
        R.adversary.early_burst([F(1), None, F(0), F(1, 3), None, F(5, 9)], 1500, 4097),
    ),
    "counterexample": lambda: (
        R.instances.counterexample(F(1, 2), F(1, 128)),
        R.adversary.counterexample(700, 3100),
    ),
    "many-segments": lambda: (R.instances.intervals(5), _many_segments(3001)),
}


def _many_segments(n):
    """Segments of 97 rounds (so they straddle blocks and chunks), alternating clean ones
    with mixtures whose eta vectors repeat."""
    segments = []
    for k, start in enumerate(range(1, n + 1, 97)):
        segment = {"start": start, "end": min(start + 96, n)}
        if k % 3:
            segment.update(gamma=F(k % 5, 4), target=[F(j, 4) for j in range(5)])
        segments.append(segment)
    return R.adversary.piecewise(n, segments)


def _case(name):
    return CASES[name]()


@pytest.mark.parametrize("name", sorted(CASES))
def test_equals_reference_tape(name):
    inst, adv = _case(name)
    for seed in (0, 12345):
        assert_same_tape(sample_tape_arrays(inst, adv, seed), R.sample_tape(inst, adv, seed))


@pytest.mark.parametrize("chunk_blocks", [1, 2, 3])
@pytest.mark.parametrize("name", ["many-segments", "early-burst", "counterexample"])
def test_chunking_does_not_change_the_tape(monkeypatch, name, chunk_blocks):
    inst, adv = _case(name)
    expected = sample_tape_arrays(inst, adv, 2**64 - 1)
    monkeypatch.setattr(FT, "_CHUNK_BLOCKS", chunk_blocks)
    assert sample_tape_arrays(inst, adv, 2**64 - 1) == expected


def test_golden_prefix_of_the_reference_suite():
    # tests/reference/test_tape.py's golden values of cral-tape-v1, seed 0.
    inst, adv = CASES["golden-setup"]()
    arrays = sample_tape_arrays(inst, adv, 0)
    assert tuple(arrays.x[:12].tolist()) == (7, 0, 7, 1, 7, 1, 6, 7, 7, 1, 7, 0)
    assert tuple(arrays.y[:12].tolist()) == (1, 0, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0)
    assert int(arrays.u_words[0]) == 5417349548491820305


# -- words on the edges: the exact and the lazy paths -------------------------------------
# cdf = 1/3, 1/3, 10/21, 1 - 2^-70, 1: non-dyadic cells, a repeated value (nu = 0), and
# cdf 2^64 in (2^64 - 1, 2^64) (floor 2^64 - 1, ceil 2^64). eta has the same kinds of
# values: non-dyadic, 1 (floor 2^64), 1 - 2^-65 (ceil 2^64), 0, dyadic.
EDGE_NU = [F(1, 3), F(0), F(1, 7), 1 - F(1, 3) - F(1, 7) - F(1, 2**70), F(1, 2**70)]
EDGE_ETA = [F(1, 3), F(1, 2), F(1), 1 - F(1, 2**65), F(0)]


def _scaled(p):
    s = p * SCALE
    return s.numerator // s.denominator, -((-s.numerator) // s.denominator)


def _edge_words(values):
    out = set()
    for v in values:
        for d in (-1, 0, 1):
            if 0 <= v + d < SCALE:
                out.add(v + d)
    return sorted(out | {0, 1, SCALE - 1, 2**63})


def _fake_block_words(rounds):
    """A replacement for reference.tape.block_words serving the given (w_x, w_y, w_u)."""

    def block_words(seed, block):
        words = array("Q")
        for r in range(RT.BLOCK_ROUNDS):
            t = block * RT.BLOCK_ROUNDS + r
            words.extend(rounds[t] if t < len(rounds) else (0, 0, 0))
        return words

    return block_words


def test_edge_words_take_the_exact_and_lazy_paths_like_the_reference(monkeypatch):
    inst = R.Instance(EDGE_NU, EDGE_ETA, [(0,) * 5])
    rng = random.Random(4)
    cdf = [sum(EDGE_NU[: i + 1]) for i in range(5)]
    x_words = _edge_words([v for c in cdf for v in _scaled(c)])
    y_edges = [_edge_words(_scaled(e)) for e in EDGE_ETA]
    # Pass 1 fixes w_x (x does not depend on w_y) to learn x_t; pass 2 puts w_y on the
    # edges of eta^{x_t}. 2100 rounds: three blocks, the last one partial.
    n = 2100
    wx = [x_words[t % len(x_words)] if t % 3 else rng.randrange(SCALE) for t in range(n)]
    wu = [rng.randrange(SCALE) for _ in range(n)]
    monkeypatch.setattr(RT, "block_words", _fake_block_words([(a, 0, c) for a, c in zip(wx, wu)]))
    adv = R.adversary.early_burst([F(1, 5), F(1), None, None, F(1, 2**64 + 1)], 1100, n)
    xs = R.sample_tape(inst, adv, 9).x
    wy = [y_edges[x][t % len(y_edges[x])] if t % 4 else rng.randrange(SCALE) for t, x in enumerate(xs)]
    monkeypatch.setattr(RT, "block_words", _fake_block_words(list(zip(wx, wy, wu))))

    calls = []
    lazy = RT.lazy_inverse_cdf

    def counting(word, cdf, seed, t, j):
        calls.append(j)
        return lazy(word, cdf, seed, t, j)

    monkeypatch.setattr(RT, "lazy_inverse_cdf", counting)
    tape = R.sample_tape(inst, adv, 9)
    reference_calls, calls[:] = list(calls), []
    for chunk_blocks in (1, 16):
        monkeypatch.setattr(FT, "_CHUNK_BLOCKS", chunk_blocks)
        assert_same_tape(sample_tape_arrays(inst, adv, 9), tape)
        # Same rounds decided lazily, for x (j = 0) and for y (j = 1).
        assert sorted(calls) == sorted(reference_calls) and {0, 1} <= set(calls)
        calls.clear()
    assert set(tape.x) == {0, 2, 3, 4} and set(tape.y) == {0, 1}


def test_per_round_fallbacks_match_the_lazy_rule():
    seed, t = 3, 77
    for p in (F(1, 3), F(2, 7), 1 - F(1, 2**65), F(1, 2**64 + 1)):
        below, not_below = _scaled(p)
        assert not_below == below + 1  # non-dyadic at 64 bits: the word `below` is unsettled
        expected = 1 if RT.lazy_inverse_cdf(below, (p, F(2)), seed, t, 1) == 0 else 0
        assert FT._exact_y(below, RT.Comparator(p), seed, t) == expected
        assert FT._exact_y(below - 1, RT.Comparator(p), seed, t) == 1
        assert FT._exact_y(not_below, RT.Comparator(p), seed, t) == 0 or not_below == SCALE
    assert FT._exact_y(SCALE - 1, RT.Comparator(F(1)), seed, t) == 1
    cdf, ceil, floor = RT.cdf_table([F(1, 3), F(1, 3), F(1, 3)])
    for i in range(2):
        expected = RT.lazy_inverse_cdf(floor[i], cdf, seed, t, 0)
        assert expected in (i, i + 1)
        assert FT._exact_x(floor[i], cdf, ceil, floor, seed, t) == expected
        assert FT._exact_x(floor[i] - 1, cdf, ceil, floor, seed, t) == i


def test_block_words_are_the_contract_digest():
    # The generator reads reference.tape.block_words; pin that to the contract's hash.
    import hashlib

    digest = hashlib.shake_256(b"cral-tape-v1/block" + (5).to_bytes(8, "little") + (2).to_bytes(8, "little"))
    words = np.frombuffer(digest.digest(3 * 1024 * 8), dtype="<u8")
    assert np.array_equal(np.frombuffer(RT.block_words(5, 2), dtype=np.uint64), words)


# -- validation ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [-1, 2**64, 1.0, True, "3"])
def test_bad_seed_is_refused_like_the_reference(seed):
    inst, adv = R.instances.thresholds(3), R.adversary.clean(5)
    with pytest.raises(ValueError) as ref:
        R.sample_tape(inst, adv, seed)
    with pytest.raises(ValueError) as fast:
        sample_tape_arrays(inst, adv, seed)
    assert str(fast.value) == str(ref.value)


def test_bad_instance_or_adversary_is_refused_like_the_reference():
    inst, adv = R.instances.thresholds(3), R.adversary.clean(5)
    for args in ((None, adv, 0), (inst, 5, 0)):
        with pytest.raises(ValueError) as ref:
            R.sample_tape(*args)
        with pytest.raises(ValueError) as fast:
            sample_tape_arrays(*args)
        assert str(fast.value) == str(ref.value)
    bad_target = R.adversary.misspecification(F(1, 2), [F(1, 2)] * 4, 5)
    with pytest.raises(ValueError, match="target has 4 entries"):
        sample_tape_arrays(inst, bad_target, 0)


# -- conversions --------------------------------------------------------------------------
def test_from_tape_and_to_tape_round_trip():
    inst, adv = _case("early-burst")
    tape = R.sample_tape(inst, adv, 8)
    arrays = from_tape(tape)
    assert arrays == sample_tape_arrays(inst, adv, 8)
    assert arrays.to_tape() == tape
    assert from_tape(arrays.to_tape()) == arrays
    hand = R.Tape([0, 2], [1, 0], [F(0), 1 - F(1, SCALE)])
    assert from_tape(hand).u_words.tolist() == [0, SCALE - 1]
    assert from_tape(hand).to_tape() == hand and from_tape(hand).seed is None


def test_from_tape_keeps_coins_that_are_not_64_bit_dyadic_exactly():
    for u in (F(1, 3), F(1, 2**65)):
        hand = R.Tape([0, 0], [0, 0], [F(1, 2), u])
        arrays = from_tape(hand)
        assert arrays.u_exact == ((1, u),)
        assert arrays.u_words.tolist() == [SCALE // 2, int(u * SCALE)]
        assert arrays.to_tape() == hand
    with pytest.raises(ValueError, match="reference.Tape"):
        from_tape(sample_tape_arrays(R.instances.thresholds(2), R.adversary.clean(3), 0))
    with pytest.raises(ValueError, match="u_words"):
        TapeArrays(np.array([0]), np.array([0]), np.array([5], dtype=np.uint64), u_exact=((0, F(1, 3)),))


def test_non_dyadic_coins_are_decided_exactly_in_tape_mode():
    """q = 1/3 is not a float: its float lies just below or above 1/3; a coin u between the
    float and 1/3 must follow the float (the fast path's own q), exactly."""
    from fast.tape import exact_coins

    q = np.array([1 / 3])
    between = (F(1, 3) + F(q[0])) / 2
    hand = R.Tape([0, 0, 0], [0, 0, 0], [between, F(1, 3), F(0)])
    arrays = from_tape(hand)
    asked = exact_coins(arrays, 1, 3, arrays.x, q, coins(arrays.u_words, arrays.x, q))
    assert asked.tolist() == [between < F(q[0]), F(1, 3) < F(q[0]), True]


def test_tape_arrays_validate_and_are_read_only():
    ok = TapeArrays(np.array([0, 1]), np.array([1, 0]), np.array([0, SCALE - 1], dtype=np.uint64))
    assert ok.y.dtype == np.uint8 and ok.n == 2
    with pytest.raises(ValueError):
        ok.x[0] = 3
    for x, y, u, field in (
        ([0], [2], np.array([0], dtype=np.uint64), "y"),
        ([-1], [0], np.array([0], dtype=np.uint64), "x"),
        ([0, 1], [0], np.array([0], dtype=np.uint64), "differ in length"),
        ([0], [0], np.array([0.5]), "u_words"),
        ([], [], np.array([], dtype=np.uint64), "empty"),
    ):
        with pytest.raises(ValueError, match=field):
            TapeArrays(np.array(x, dtype=np.int64), np.array(y, dtype=np.int64), u)
    assert ok != TapeArrays(ok.x, ok.y, ok.u_words, seed=1)


# -- the query coin -----------------------------------------------------------------------
Q_VALUES = [0.0, 1.0, 0.5, 2.0**-70, 1 - 2.0**-53, 1 / 3, 5e-324, 2.0**-64, 3 * 2.0**-66, 0.9999999999]


def test_coins_are_exact_at_the_threshold_boundaries():
    rng = np.random.default_rng(0)
    q = np.array(Q_VALUES + rng.random(40).tolist() + (rng.random(10) * 2.0**-60).tolist())
    thresholds = query_thresholds(q)
    xs, ws = [], []
    for i, value in enumerate(q.tolist()):
        exact = F(value) * SCALE
        T = SCALE - 1 if value == 1 else math.ceil(exact)
        assert int(thresholds.threshold[i]) == T and bool(thresholds.always[i]) == (value == 1)
        for w in {0, 1, T - 1, T, T + 1, SCALE - 2, SCALE - 1}:
            if 0 <= w < SCALE:
                xs.append(i)
                ws.append(w)
    x = np.array(xs, dtype=np.int64)
    w = np.array(ws, dtype=np.uint64)
    expected = [F(wi, SCALE) < F(q[xi]) for xi, wi in zip(xs, ws)]
    assert coins(w, x, q).tolist() == expected
    assert coins(w, x, thresholds).tolist() == expected
    # The threshold is non-decreasing in q, 1 included.
    order = np.argsort(q, kind="stable")
    assert np.all(np.diff(thresholds.threshold[order].astype(object)) >= 0)


def test_coins_on_a_sampled_tape_match_the_fraction_rule():
    inst, adv = _case("zeros-and-extremes")
    arrays = sample_tape_arrays(inst, adv, 1)
    tape = arrays.to_tape()
    q = np.array([0.25, 1.0, 1 / 3, 0.0, 0.7])
    assert coins(arrays.u_words, arrays.x, q).tolist() == [u < F(q[x]) for x, u in zip(tape.x, tape.u)]


@pytest.mark.parametrize(
    "q, match",
    [
        ([0.5, np.nan], r"q\[1\]"),
        ([1.5], r"q\[0\]"),
        ([-0.25], r"q\[0\]"),
        (np.array([0.5], dtype=np.longdouble), "float64"),
        ([[0.5]], "one-dimensional"),
    ],
)
def test_query_thresholds_refuse_bad_q(q, match):
    if np.dtype(np.longdouble).itemsize <= 8 and match == "float64":
        pytest.skip("longdouble is float64 on this platform")
    with pytest.raises(ValueError, match=match):
        query_thresholds(q)


def test_coins_refuse_inexact_inputs():
    w = np.array([1, 2], dtype=np.uint64)
    with pytest.raises(ValueError, match="uint64"):
        coins(w.astype(np.int64), np.array([0, 0]), [0.5])
    with pytest.raises(ValueError, match=r"x\[1\] is 1"):
        coins(w, np.array([0, 1]), [0.5])
