"""Task randomness from (master seed, task key) only.

A task's seed is the first 8 bytes of SHA-256 over "master/key": it does not depend on
which worker runs the task, when, or what ran before, so a campaign gives the same results
on one worker or fifty, in any order, and a re-run of one task reproduces it exactly."""

from __future__ import annotations

import hashlib

from reference.exact import as_int


def task_seed(master_seed: int, key: str) -> int:
    """A 64-bit seed for the task `key` of the campaign seeded by `master_seed`."""
    as_int(master_seed, "master_seed", minimum=0)
    if not isinstance(key, str) or not key:
        raise ValueError(f"task key must be a non-empty str, got {key!r}")
    digest = hashlib.sha256(f"{master_seed}/{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
