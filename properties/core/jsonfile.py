"""Reading a JSON document a user names on the command line (a report, a saved failure):
every way it can be unreadable becomes one line naming the file, in the caller's error type."""

from __future__ import annotations

import json
from pathlib import Path


def read_json(path, error: type[Exception], shown: str | None = None):
    """The parsed document at `path`; `error(message)` with `shown` (default: the path) first
    when the file is missing, unreadable, not UTF-8 text or not JSON."""
    shown = str(path) if shown is None else shown
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{shown}: no such file") from None
    except UnicodeDecodeError as bad:
        raise error(f"{shown}: not a text file (not UTF-8: byte {bad.start})") from None
    except OSError as bad:
        raise error(f"{shown}: cannot be read: {bad.strerror or bad}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as bad:
        raise error(f"{shown}:{bad.lineno}: not JSON: {bad.msg}") from None
