"""The one wording of the hint that a candidate is named by its import path, not a file:
check --impl, crosscheck --candidate, replay and pytest --cral-impl all give it."""

from __future__ import annotations

import os
from pathlib import Path

from reference.command_line import UsageError


def importable_advice(folder, name: str, option: str, command_line: str) -> str:
    """How to make a module importable: the one wording of check --impl, crosscheck
    --candidate, replay and pytest --cral-impl."""
    return (
        f"put its folder on PYTHONPATH and give the module's name, e.g. PYTHONPATH={folder or '.'} "
        f"{command_line} {option} {name}"
    )


def file_path_hint(path: str, option: str, command: str = "check", command_line: str | None = None) -> None:
    """`--impl path/to/file.py` (or a folder): one line saying an import name is needed and
    how to get one. `command_line` is the program the advice names (default `python -m
    properties COMMAND`)."""
    looks_like_file = path.endswith(".py") or os.sep in path or "/" in path
    if not looks_like_file:
        return
    target = Path(path)
    folder, name = (target.parent, target.stem) if path.endswith(".py") else (target.parent, target.name)
    raise UsageError(
        f"{option} takes an import name, not a file path ({path!r}): "
        + importable_advice(folder, name, option, command_line or f"python -m properties {command}")
    )


def current_folder_hint(name: str, option: str, command_line: str) -> str | None:
    """A module name that is a file or folder of the current folder but cannot be imported
    from here (the `pytest` program, unlike `python -m`, does not put the current folder on
    sys.path): one line saying how to make it importable; None otherwise."""
    import importlib.util

    top = name.split(".")[0]
    here = Path.cwd()
    if not ((here / f"{top}.py").is_file() or (here / top).is_dir()):
        return None
    try:
        if importlib.util.find_spec(top) is not None:
            return None
    except (ImportError, ValueError):
        pass
    return f"{option} {name}: {top!r} is in the current folder but not importable from here: " + importable_advice(
        ".", name, option, command_line
    )


__all__ = [
    "current_folder_hint",
    "file_path_hint",
    "importable_advice",
]
