"""The commit this code runs from: `git rev-parse HEAD` when it runs from a git checkout of
this repository (with whether tracked files have changes); else the one recorded when its
sdist or wheel was built (reference/_build_info.py, which setup.py writes into both); else
None. A package installed inside another project's repository never reports that project's
commit: the checkout must be this package's own.

It imports the standard library only: setup.py loads it by path to record the commit, in a
build environment that has nothing else."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # the checkout, when this code runs from one


def _git(*args: str) -> str | None:
    """A git command's output in ROOT, None when git is missing or fails."""
    try:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def checkout_commit() -> tuple[str, bool | None] | None:
    """(HEAD, whether tracked files differ from it) when ROOT is the top of a git checkout,
    else None. setup.py records the same pair into a build."""
    top = _git("rev-parse", "--show-toplevel")
    if top is None or Path(top).resolve() != ROOT:
        return None
    head = _git("rev-parse", "HEAD")
    if not head:
        return None
    status = _git("status", "--porcelain", "--untracked-files=no")
    return head, (bool(status) if status is not None else None)


def build_info_text(commit: str, dirty: bool | None) -> str:
    """The text of reference/_build_info.py for a build of `commit` (setup.py writes it)."""
    return (
        '"""Written by setup.py when this sdist or wheel was built: the commit it was built from\n'
        '(reference/commit.py reads it where no git checkout is)."""\n\n'
        f"COMMIT = {commit!r}\nDIRTY = {dirty!r}\n"
    )


def recorded_commit() -> tuple[str, bool | None] | None:
    """The (commit, dirty) pair a build recorded, None in a checkout or a copy without one."""
    try:
        from reference import _build_info  # in an sdist and a wheel only
    except ImportError:
        return None
    return _build_info.COMMIT, _build_info.DIRTY


def commit() -> tuple[str | None, bool | None]:
    """(commit, dirty) of this code, (None, None) when unknown."""
    return checkout_commit() or recorded_commit() or (None, None)


__all__ = ["ROOT", "build_info_text", "checkout_commit", "commit", "recorded_commit"]
