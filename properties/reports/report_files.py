"""The report files a run writes (--json-file, --junitxml, --html). Each is checked before
a run of minutes by reference/command_line.py's output_file (the one rule for output files
on every command line), so that a file that cannot be written is bad input now, not a lost
report at the end; a write that still fails is one line."""

from __future__ import annotations

import json
from pathlib import Path

from reference.command_line import UsageError


def write_json_file(report: dict, path: str, indent: int | None) -> None:
    """--json-file (its path and --json-indent were checked before the run)."""
    try:
        Path(path).write_text(json.dumps(report, indent=indent) + "\n")
    except OSError as error:
        raise UsageError(f"--json-file {path}: {error.strerror}") from None


__all__ = [
    "write_json_file",
]
