"""Scale-only bugs planted in copies of fast/: each is invisible at small
sizes and shows at the size named by `shows_at`, where the judge at scale
(properties/scale/, `crosscheck --counts`) must catch it; `hidden_at` is a size where the
bug changes nothing, so the judge must pass it there (the bug does not show, and the
judge does not fail a run for what it cannot see).

Same mechanism as teeth/broken/fast_mutants.py (a textual patch of one file of a copy of
fast/, built by its `build`). A size is (|H| = |X|, n)."""

from __future__ import annotations

from dataclasses import dataclass

from .fast_mutants import FastMutant

PREFIX = "scale_fast_"


@dataclass(frozen=True)
class ScaleMutant:
    mutant: FastMutant
    hidden_at: tuple[int, int]
    shows_at: tuple[int, int]
    slow: bool = False  # shows only at a size behind @pytest.mark.slow


N = 10**12
MUTANTS = [
    ScaleMutant(
        FastMutant(
            "float32_counts",
            "the per-point seen counts behind line 7's rho^ |I_l| held in float32 (the prefix sums of a nested "
            "class, fast/pairs_device.py; the judge's thresholds are one): the counts of an epoch of 10^12 rounds "
            "exceed 2^24 and round",
            "pairs_device.py",
            "    prefix = np.concatenate([[0], np.cumsum(np.asarray(seen_host, np.int64)[nested.order])])\n",
            "    held = np.asarray(seen_host).astype(np.float32).astype(np.int64)  # held in float32\n"
            "    prefix = np.concatenate([[0], np.cumsum(held[nested.order])])\n",
            "-",
        ),
        hidden_at=(64, 10**7),
        shows_at=(64, N),
    ),
    ScaleMutant(
        FastMutant(
            "int16_pair_index",
            "W (line 8) stored through a flat pair index h |H| + h' in int16, standing in for int32 past "
            "|H|^2 = 2^31: it wraps once |H|^2 > 2^15 (|H| >= 182), as int32 does once |H| >= 46341 (at |H| = 256 the "
            "wrap is exactly the array's 2^16 entries, and a negative index lands on the right entry: 192 shows it)",
            "calruption.py",
            "        W[ai, aj], W[aj, ai] = roots, -roots\n",
            "        flat = W.reshape(-1)  # a view: W is contiguous\n"
            "        flat[ai.astype(np.int16) * np.int16(num_h) + aj.astype(np.int16)] = roots\n"
            "        flat[aj.astype(np.int16) * np.int16(num_h) + ai.astype(np.int16)] = -roots\n",
            "-",
        ),
        hidden_at=(128, N),
        shows_at=(192, N),
    ),
    ScaleMutant(
        FastMutant(
            "last_block_dropped",
            "line 8's per-pair Catoni data go in row blocks; the block count is rounded down, so the last, partial "
            "block of rows is never solved once there is more than one block",
            "pair_stats.py",
            "    blocks = [(r0, min(num_h, r0 + rows_per_block)) for r0 in range(0, num_h, rows_per_block)]\n",
            "    blocks = [\n"
            "        (r0, min(num_h, r0 + rows_per_block))\n"
            "        for r0 in range(0, max(1, num_h // rows_per_block) * rows_per_block, rows_per_block)\n"
            "    ]\n",
            "-",
        ),
        hidden_at=(64, N),
        shows_at=(256, N),
    ),
]

BY_NAME = {m.mutant.name: m for m in MUTANTS}
