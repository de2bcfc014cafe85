"""Per worker process: the candidate its tasks run on, loaded on first use and reused
(both kinds of experiment, properties/campaign/experiments.py and fuzz.py, need it; it
lives here, below both, so that neither imports the other)."""

from __future__ import annotations

import atexit

_CANDIDATES: dict = {}


def candidate_for(impl: str | None, cmd: str | None = None, timeout: float | None = None):
    """The worker's candidate for (impl, cmd, timeout), loaded on first use and closed when
    the worker exits: an isolated candidate keeps its own process across tasks."""
    from properties.judge.load import load_candidate

    key = (impl, cmd, timeout)
    if key not in _CANDIDATES:
        if not _CANDIDATES:
            atexit.register(_close_candidates)
        _CANDIDATES[key] = load_candidate(impl, cmd, timeout=timeout)
    return _CANDIDATES[key]


def _close_candidates() -> None:
    for candidate in _CANDIDATES.values():
        candidate.close()
    _CANDIDATES.clear()


__all__ = ["candidate_for"]
