"""Each check's own Hypothesis seed, from a base seed and the check's id.

A check's seed depends on nothing but the two: not on which checks run before it, on how
many run at once (`check -j N`) or on the worker that runs it, so a run's examples and
counterexamples are the same whatever the order or the number of workers."""

from __future__ import annotations

import hashlib

SEED_BITS = 64


def check_seed(base: int, check_id: str) -> int:
    """A stable 64-bit seed for `check_id` under `base` (the first 8 bytes of the SHA-256
    of "base:check_id"; Python's hash() of a string changes from process to process)."""
    digest = hashlib.sha256(f"{int(base)}:{check_id}".encode()).digest()
    return int.from_bytes(digest[: SEED_BITS // 8], "big")


__all__ = ["check_seed"]
