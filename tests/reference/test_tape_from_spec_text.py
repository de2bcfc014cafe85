"""cral-tape-v1 re-implemented from docs/spec.md's text alone (S45-S46), as an outsider would.

This file imports nothing of the project: the generator below is written from the spec's
six steps with the standard library and fractions only. It must reproduce the published
test vectors (docs/examples/tape_vectors.json) and the reference's tapes on drawn seeds,
which it asks for through the run protocol (`python -m properties answer --impl reference
--serve`), as a program in another language would be compared, never by importing the
sampler."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from fractions import Fraction

from tests.support import REPO_ROOT

ROOT = REPO_ROOT
VECTORS = json.loads((ROOT / "docs" / "examples" / "tape_vectors.json").read_text())


# -- the generator, from S46 -----------------------------------------------------------------
def le8(k: int) -> bytes:
    return k.to_bytes(8, "little")


def words_of(data: bytes) -> list[int]:
    return [int.from_bytes(data[i : i + 8], "little") for i in range(0, len(data), 8)]


def block(seed: int, b: int) -> list[int]:
    """Step 1: the 3 * 1024 words of block b."""
    return words_of(hashlib.shake_256(b"cral-tape-v1/block" + le8(seed) + le8(b)).digest(3 * 1024 * 8))


def extension(seed: int, t: int, j: int, count: int) -> list[int]:
    """Step 2: the first `count` words of round t's extension stream j (digits 65, 66, ...)."""
    return words_of(hashlib.shake_256(b"cral-tape-v1/ext" + le8(seed) + le8(t) + bytes([j])).digest(8 * count))


class Uniform:
    """Step 2's real U, read 64 digits at a time: [P / 2^d, (P + 1) / 2^d)."""

    def __init__(self, word: int, seed: int, t: int, j: int):
        self.prefix, self.digits = word, 64
        self.seed, self.t, self.j, self.read = seed, t, j, 0

    def interval(self) -> tuple[Fraction, Fraction]:
        return Fraction(self.prefix, 2**self.digits), Fraction(self.prefix + 1, 2**self.digits)

    def more(self) -> None:
        self.read += 1
        word = extension(self.seed, self.t, self.j, self.read)[-1]
        self.prefix, self.digits = self.prefix * 2**64 + word, self.digits + 64


def below(u: Uniform, c: Fraction) -> bool:
    """Step 3: whether U < c."""
    while True:
        lo, hi = u.interval()
        if hi <= c:
            return True
        if lo >= c:
            return False
        u.more()


def inverse_cdf(u: Uniform, cdf: list[Fraction]) -> int:
    """Step 4: min{i : U < c_i}."""
    while True:
        lo, hi = u.interval()
        i = sum(1 for c in cdf if c <= lo)
        if i < len(cdf) and hi <= cdf[i]:
            return i
        u.more()


def eta_at(instance: dict, adversary: dict, t: int) -> list[Fraction]:
    """S45: eta_t from the segment covering t."""
    eta_star = [Fraction(v) for v in instance["eta"]]
    segment = next(s for s in adversary["segments"] if s["start"] <= t <= s["end"])
    if segment["target"] is None:
        return eta_star
    gamma = Fraction(segment["gamma"])
    return [e if v is None else (1 - gamma) * e + gamma * Fraction(v) for e, v in zip(eta_star, segment["target"])]


def sample(instance: dict, adversary: dict, seed: int) -> dict:
    cdf, total = [], Fraction(0)
    for mass in instance["nu"]:
        total += Fraction(mass)
        cdf.append(total)
    xs, ys, us = [], [], []
    words, current = None, None
    for t in range(1, adversary["n"] + 1):
        b, r = divmod(t - 1, 1024)
        if b != current:
            words, current = block(seed, b), b
        wx, wy, wu = words[3 * r : 3 * r + 3]
        x = inverse_cdf(Uniform(wx, seed, t, 0), cdf)  # step 4
        y = 1 if below(Uniform(wy, seed, t, 1), eta_at(instance, adversary, t)[x]) else 0  # step 5
        u = Fraction(wu, 2**64)  # step 6
        xs.append(x)
        ys.append(y)
        us.append(f"{u.numerator}/{u.denominator}")
    return {"x": xs, "y": ys, "u": us}


# -- the vectors -----------------------------------------------------------------------------
def test_block_words_match_the_vectors():
    assert VECTORS["block_words"]
    for entry in VECTORS["block_words"]:
        got = block(int(entry["seed"]), entry["block"])[: len(entry["words"])]
        assert [str(w) for w in got] == entry["words"], entry


def test_extension_words_match_the_vectors():
    assert VECTORS["extension_words"]
    for entry in VECTORS["extension_words"]:
        got = extension(int(entry["seed"]), entry["t"], entry["j"], len(entry["words"]))
        assert [str(w) for w in got] == entry["words"], entry


def test_tapes_match_the_vectors():
    for case in VECTORS["tapes"]:
        tape = case["tape"]
        assert sample(case["instance"], case["adversary"], case["seed"]) == {k: tape[k] for k in "xyu"}, case["name"]


def test_a_vector_needs_the_extension_stream():
    """The vectors exercise steps 2-3 past the first word (else they would not test them)."""
    case = next(c for c in VECTORS["tapes"] if "extension" in c["name"])
    seed, first = case["seed"], block(case["seed"], 0)
    cdf0 = Fraction(case["instance"]["nu"][0])
    lo, hi = Fraction(first[0], 2**64), Fraction(first[0] + 1, 2**64)
    assert lo < cdf0 < hi  # x_1 is not settled by 64 digits
    u = Uniform(first[0], seed, 1, 0)
    inverse_cdf(u, [cdf0, Fraction(1)])
    assert u.read >= 1


# -- drawn seeds, against the reference through the run protocol ----------------------------
def _reference_tapes(requests: list[dict]) -> list[dict]:
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    result = subprocess.run(
        [sys.executable, "-m", "properties", "answer", "--impl", "reference", "--serve"],
        input=lines,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def _drawn_case(rng: random.Random) -> tuple[dict, dict, int]:
    m = rng.randint(1, 5)
    weights = [rng.randint(0, 6) for _ in range(m)]
    weights[rng.randrange(m)] += 1
    nu = [f"{w}/{sum(weights)}" for w in weights]
    eta = [f"{rng.randint(0, 9)}/9" for _ in range(m)]
    n = rng.randint(1, 1100)
    cut = rng.randint(1, n)
    segments = [{"start": 1, "end": cut, "gamma": "0/1", "target": None}]
    if cut < n:
        target = [None if rng.random() < 0.3 else f"{rng.randint(0, 3)}/3" for _ in range(m)]
        segments.append({"start": cut + 1, "end": n, "gamma": f"{rng.randint(0, 4)}/4", "target": target})
    seed = rng.choice([0, 1, 2**64 - 1, rng.randrange(2**64)])
    instance = {"nu": nu, "eta": eta, "hypotheses": [[0] * m]}
    return instance, {"n": n, "segments": segments}, seed


def test_drawn_seeds_match_the_reference():
    rng = random.Random(20211206)
    cases = [_drawn_case(rng) for _ in range(12)]
    requests = [
        {
            "format": "cral-run-request",
            "version": 1,
            "algorithm": "sample_tape",
            "instance": instance,
            "adversary": adversary,
            "seed": seed,
        }
        for instance, adversary, seed in cases
    ]
    answers = _reference_tapes(requests)
    assert len(answers) == len(cases)
    for (instance, adversary, seed), answer in zip(cases, answers):
        assert answer["generator"] == "cral-tape-v1" and answer["seed"] == seed
        assert sample(instance, adversary, seed) == {k: answer[k] for k in "xyu"}, (instance, adversary, seed)
