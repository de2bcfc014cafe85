"""The seed of a run and of each check in it.

A run has one base seed: DEFAULT_SEED under the profiles a user gets by default (dev, ci),
so two runs of one candidate draw the same examples on any machine; a fresh one under
`fuzz`, or when asked for (`--seed random`); or the one given (`--seed N`). Each check's
Hypothesis seed is `check_seed(base seed, check id)` and nothing else: not the order the
checks run in, not which process runs them, not what ran before. A parallel runner that
hands checks to workers in any order gets the same examples for each check as a serial
run does."""

from __future__ import annotations

import hashlib
import secrets
from contextlib import contextmanager

DEFAULT_SEED = 0  # the base seed of dev and ci
SEED_LIMIT = 2**64  # base seeds are integers in [0, 2^64)
RANDOM = "random"  # `--seed random`: a fresh base seed, printed with the report


def check_seed(base_seed: int, check_id: str) -> int:
    """The Hypothesis seed of check `check_id` in a run of base seed `base_seed`: the first
    8 bytes of SHA-256 over "base/check id" (the campaign's task_seed construction,
    properties/campaign/seeds.py), so distinct checks draw independent examples."""
    _valid(base_seed)
    if not isinstance(check_id, str) or not check_id:
        raise ValueError(f"check id must be a non-empty str, got {check_id!r}")
    digest = hashlib.sha256(f"{base_seed}/{check_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def fresh_seed() -> int:
    """A new base seed, for a run that explores (`--seed random`, the fuzz profile)."""
    return secrets.randbits(64)


def parse_seed(text) -> int | str:
    """`--seed`'s value: an integer in [0, 2^64) or "random"; ValueError naming the value."""
    if isinstance(text, str) and text.strip().lower() == RANDOM:
        return RANDOM
    try:
        value = int(str(text).strip(), 10)
    except ValueError:
        raise ValueError(f"--seed must be an integer in [0, 2^64) or 'random', got {text!r}") from None
    if not 0 <= value < SEED_LIMIT:
        raise ValueError(f"--seed must be an integer in [0, 2^64) or 'random', got {text!r}")
    return value


def resolve_seed(seed, explores: bool) -> int:
    """The base seed of a run: `seed` (an int, "random" or None); None means the profile's
    own, fresh for a profile that explores (fuzz) and DEFAULT_SEED otherwise."""
    if seed is None:
        return fresh_seed() if explores else DEFAULT_SEED
    if isinstance(seed, str):
        seed = parse_seed(seed)
    return fresh_seed() if seed == RANDOM else _valid(seed)


def _valid(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"seed must be an integer in [0, 2^64), got {seed!r}")
    return seed


@contextmanager
def seed_alone():
    """While it lasts, Hypothesis draws from the seed alone. Without it, Hypothesis (6.13x
    and later) mixes into its draws constants it collects from every "local" module in
    sys.modules (any file outside site-packages and the standard library): the examples of
    one seed then change with what the process imported before (a check module imported
    late, the candidate's own module run in-process) and with where the suite is installed
    (a checkout is local, a pip install is not). Measured: importing `fast` and
    `proofs_check` before a run changed the examples of 2 of 3 checks under one seed. The
    hook is Hypothesis's internal `providers._get_local_constants`; where a version lacks
    it, nothing is patched (tests/properties/core/test_deterministic_verdicts.py would then show the drift)."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - a Hypothesis without it
        yield
        return
    collect = getattr(providers, "_get_local_constants", None)
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if collect is None or not hasattr(providers, "Constants"):  # pragma: no cover
        yield
        return
    empty = providers.Constants()

    def _clear():
        if cache is not None and hasattr(cache, "cache"):
            cache.cache.clear()  # (kind, constraints) -> constants, filled from the local ones

    _clear()
    providers._get_local_constants = lambda: empty
    try:
        yield
    finally:
        providers._get_local_constants = collect
        _clear()


__all__ = [
    "DEFAULT_SEED",
    "RANDOM",
    "SEED_LIMIT",
    "check_seed",
    "fresh_seed",
    "parse_seed",
    "resolve_seed",
    "seed_alone",
]
