"""One broken copy of the reference (teeth/broken/mutants.py), built and loaded for a test
that needs a candidate with one named bug: the same copies the teeth run catches."""

from __future__ import annotations

import importlib
from contextlib import contextmanager

from teeth.broken.mutants import BY_NAME, PREFIX, build
from teeth.reference_copies import importable


@contextmanager
def broken_copy(name: str, directory):
    """The mutant `name` as a candidate module, importable while the block runs."""
    with importable(directory, PREFIX):
        yield importlib.import_module(build(BY_NAME[name], directory))
