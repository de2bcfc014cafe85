"""The report files a run writes (--json-file, --junitxml): checked before a run of minutes,
so that a file that cannot be written is bad input now, not a lost report at the end."""

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


def check_report_file(option: str, path: str | None) -> None:
    """Before a run of minutes (--json-file, --junitxml): a report file that cannot be
    written is bad input now, not a lost report at the end."""
    if path is None:
        return
    if not path.strip():
        raise UsageError(f"{option} is empty: give a file path")
    if Path(path).is_dir():
        raise UsageError(f"{option} {path}: is a folder, give a file path")
    if not Path(path).resolve().parent.is_dir():
        raise UsageError(f"{option} {path}: its folder does not exist")


__all__ = [
    "check_report_file",
    "write_json_file",
]
