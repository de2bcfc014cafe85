"""Optional dependencies, imported where they are needed and named when they are missing.

Judging an implementation needs only the core install (`pip install -e .`). z3-solver
(proofs_check), Dask distributed and redis (campaigns) are extras, `proofs` and
`campaign`; the `test` extra installs all of them. A module that needs one imports it
through `require`, so a base install gets one line naming the extra to install instead
of a traceback (the command lines print it and exit with status 2, reference/cli.py)."""

from __future__ import annotations

import importlib

DISTRIBUTION = "corruption-robust-active-learning"


class MissingExtra(ImportError):
    """An optional dependency is not installed; the message says which extra installs it."""


def require(module: str, *, package: str, extra: str, needed_by: str):
    """`module`, imported; MissingExtra naming `package` and `extra` when it is not installed.
    An ImportError from inside an installed package (a broken install) is not hidden."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name is None or error.name.split(".")[0] != module.split(".")[0]:
            raise
        raise MissingExtra(
            f"{needed_by} needs {package}, which is not installed: pip install "
            f"'{DISTRIBUTION}[{extra}]' (in a clone: pip install -e '.[{extra}]')"
        ) from None
