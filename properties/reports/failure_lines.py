"""The short form of each result after `check`'s table: one line per expected failure,
unexpected pass or listed result, with a failure's first violation, its term table and the
replay command (--verbose prints the full blocks instead)."""

from __future__ import annotations

from properties.core.outcomes import FAILED, NOT_APPLICABLE, PASSED, XFAIL
from properties.core.terms import table

CLIP = 160  # a short line's violation, clipped


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= CLIP else text[: CLIP - 3] + "..."


def print_short(result, saved: str | None, out=print) -> None:
    """One line per expected failure, unexpected pass or listed result (two more for a
    failure: its first violation and the replay command); --verbose prints the full blocks
    instead."""
    from properties.reports.saved import replay_command

    if result.status in (PASSED, NOT_APPLICABLE) and not result.listed:
        return
    # the same heading as --verbose's block, "name (status: reason)", then the example
    line = f"  {result.name} ({status_phrase(result.status, result.reason)})"
    out(line + (f" on {result.short}" if result.short else ""))
    if result.status != FAILED:
        return
    if result.violations:
        sentence = result.violations[0].split("\n")[0]  # its term table, if any, follows aligned
        out(f"    {_clip(sentence)}")
    if result.terms:  # the formula term by term: where the candidate's number goes wrong
        out(table(result.terms, indent="      "))
    if saved:
        out(f"    replay: {replay_command(saved)}")


def status_phrase(status: str, reason: str | None) -> str:
    """A result's status and reason as a report says them: an expected failure of ours is
    a check that shows where the paper is wrong (its finding), never a failure."""
    if status == XFAIL:
        return f"shows where the paper is wrong: {reason or 'its finding is not named'}"
    return status + (f": {reason}" if reason else "")


def _shown(results) -> bool:
    return any(r.status not in (PASSED, NOT_APPLICABLE) or r.listed for r in results)


def print_short_header(results, out=print) -> None:
    if _shown(results):
        out("\nwhere the paper is wrong, and failures (full reproducers: --verbose, --json):")


__all__ = [
    "print_short",
    "print_short_header",
    "status_phrase",
]
