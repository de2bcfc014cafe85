"""Arrays reused from one epoch to the next at |H| in the thousands.

Why: a fresh |H| x |H| float64 array is 128 MiB at |H| = 4096, and on a virtual machine that
hands freed memory back to its host, touching such an array the first time costs page
faults by the page (measured on the 2-core development VM: ~0.35 s per fresh 128 MiB
array, against ~0.02 s to refill one already touched; a whole counts-mode run at 4096
spent ~30% of its CPU time so, 22.1 s against 31.2 s for three epochs with glibc told to
keep freed memory). An epoch allocates a dozen such arrays; a Workspace hands the same
ones back the next epoch.

An array is handed back only while nothing else refers to it (its reference count), so a
record an on_epoch hook keeps, or a caller's view, is never overwritten: a new array is
made instead."""

from __future__ import annotations

import sys

import numpy as np


class Workspace:
    """get(name, shape, dtype): an uninitialised array, the one of the last call under that
    name when it has the shape and dtype and nothing else holds it."""

    def __init__(self):
        self._arrays: dict[str, np.ndarray] = {}

    def get(self, name: str, shape: tuple[int, ...], dtype) -> np.ndarray:
        array = self._arrays.get(name)
        # references: the dict's, `array` here and getrefcount's argument; one more: someone kept it
        if array is None or array.shape != shape or array.dtype != np.dtype(dtype) or sys.getrefcount(array) > 3:
            array = np.empty(shape, dtype)
            self._arrays[name] = array
        return array


def array(workspace: Workspace | None, name: str, shape: tuple[int, ...], dtype) -> np.ndarray:
    """From the workspace, or a fresh np.empty without one."""
    return np.empty(shape, dtype) if workspace is None else workspace.get(name, shape, dtype)
