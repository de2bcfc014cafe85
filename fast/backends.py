"""Array backends of the fast path: one code path written against the Python
array API standard through `array_api_compat`, run on numpy (the default and what CI
runs), array-api-strict (CI's check that nothing outside the standard is used; its
stand-in devices "device1", "device2" check device placement without a GPU), PyTorch
(CPU or CUDA) and CuPy when they are installed.

What runs where. Two ways (fast/calruption.py's `calruption_run(..., resident=)`):
* the host epoch (`epoch_update`; the default on the CPU, and for a class that is not
  nested): the per-pair integer statistics of lines 7, 8 and 13 (fast/pair_kernel.py,
  fast/pair_stats.py: |H|^2 x (number of q groups) work) run on the chosen backend and
  device; the rest on the host in numpy: the Catoni roots (fast/catoni.py needs
  frexp/ldexp, outside the standard), the LP of line 9 (a minimum cycle ratio for a
  nested class, else HiGHS, a CPU solver), line 13;
* the resident epoch (fast/epoch_device.py; the default on a GPU, `accelerator`, for a
  nested class): every |H| x |H| pass on the device (fast/pairs_device.py,
  fast/catoni_device.py, fast/line9_device.py); on the host only vectors of length |H|
  or |X|, Howard's iteration on line 9's sparse graph and the few Catoni problems the
  one-step rule does not settle.
Either way the counts mode's random draws stay on the host (numpy's Generator, so a seed
gives the same counts on every backend), and the record is numpy arrays, whatever the
backend (its shape and meaning do not depend on it).

Exactness. Counts are int64 on every backend, and every pair statistic is an exact
integer: prefix sums and gathers in int64 (the interval kernel), or a float64 product
whose terms are non-negative integers summing below 2^53 (the general kernel; exact
because every partial sum is an integer below 2^53). A backend that cannot keep a count
exact falls back as the table says, or refuses with a ValueError; nothing is rounded
silently.

The one table of what a backend lacks and what is done instead (LIMITS below):

| backend           | lacks                                        | fallback                                 |
|-------------------|----------------------------------------------|------------------------------------------|
| numpy             | nothing used here                            | -                                        |
| array-api-strict  | anything outside the standard                | to_numpy: np.from_dlpack                 |
| torch (CPU)       | correctly rounded sqrt, log1p (last ulp)     | floats within tolerance, not bitwise     |
| torch (CUDA)      | integer matmul (int64 @ int64 unsupported)   | general kernel above 2^53: host numpy    |
| torch (MPS)       | float64                                      | refused (ValueError): no exact float64   |
| cupy              | integer matmul through cuBLAS (slow path)    | general kernel above 2^53: host numpy    |
| any               | unique_counts with a device sync             | q groups are formed on the host (numpy)  |
| any               | frexp/ldexp (Catoni's scaled full search)    | one-step rule on the device, rest: host  |

The interval kernel needs only int64 cumulative_sum, take, maximum/minimum and
arithmetic, all in the 2023.12 standard, so it runs everywhere above."""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

BACKENDS = ("numpy", "array-api-strict", "torch", "cupy")
# the environment variable that `python -m properties answer --backend` and the benches set:
# the default backend of fast's entry points ("NAME" or "NAME:DEVICE")
ENVIRONMENT = "CRAL_FAST_BACKEND"
# whether CALruption's epochs keep a nested class's pair arrays on the device
# (fast/epoch_device.py) when a call does not say: "auto" (unset: on a GPU), "yes", "no"
RESIDENT_ENVIRONMENT = "CRAL_FAST_RESIDENT"

LIMITS = {
    "numpy": {},
    "array-api-strict": {"non-standard conversions": "to_numpy goes through np.from_dlpack"},
    "torch": {
        "correctly rounded sqrt and log1p on the CPU": "floats within the tolerance table, not bit for bit",
        "integer matmul on CUDA": "the general kernel computes on the host (numpy) when float64 is not exact",
        "float64 on MPS": "refused: ValueError",
    },
    "cupy": {"integer matmul": "the general kernel computes on the host (numpy) when float64 is not exact"},
    "any": {
        "unique_counts": "q groups are formed on the host (numpy)",
        "frexp/ldexp": "Catoni's one-step rule runs on the device, the problems it leaves on the host",
    },
}


@dataclass(frozen=True)
class Backend:
    """An array namespace and a device; `xp` is array_api_compat's namespace."""

    name: str
    xp: object
    device: object = None
    # whether int64 @ int64 is available on this device (the general kernel's exact fallback)
    integer_matmul: bool = True

    def asarray(self, values, dtype=None):
        """A numpy array (or anything array-like) on this backend's device."""
        xp = self.xp
        if isinstance(values, np.ndarray) and not values.flags.c_contiguous:
            values = np.ascontiguousarray(values)  # torch.asarray refuses negative strides
        if self.device is None:
            return xp.asarray(values, dtype=dtype)
        return xp.asarray(values, dtype=dtype, device=self.device)

    def to_numpy(self, array) -> np.ndarray:
        if isinstance(array, np.ndarray):
            return array
        if self.name == "torch":
            return array.detach().cpu().numpy()
        if self.name == "cupy":
            return array.get()
        if self.name == "array-api-strict":
            return np.from_dlpack(array)
        return np.asarray(array)

    @property
    def accelerator(self) -> bool:
        """Whether arrays live on a device other than the host's memory (a GPU): then
        CALruption keeps a nested class's pair arrays there (fast/epoch_device.py)."""
        if self.name == "cupy":
            return True
        return self.name == "torch" and getattr(self.device, "type", "cpu") != "cpu"

    def synchronize(self) -> None:
        """Wait for queued device work (for timings)."""
        if self.name == "torch" and str(self.device).startswith("cuda"):
            import torch

            torch.cuda.synchronize()
        elif self.name == "cupy":
            import cupy

            cupy.cuda.Device().synchronize()


def _parse(spec: str):
    name, _, device = spec.partition(":")
    return name, (device or None)


def get_backend(backend=None, device=None) -> Backend:
    """The Backend for a name ("numpy", "array-api-strict", "torch", "cupy", optionally
    "name:device"), a Backend (returned as is), or None: $CRAL_FAST_BACKEND, else numpy.
    A backend that is not installed, an unknown name or a device without float64 is a
    ValueError naming the field."""
    if isinstance(backend, Backend):
        return backend
    if backend is None:
        backend = os.environ.get(ENVIRONMENT) or "numpy"
    if not isinstance(backend, str):
        raise ValueError(f"backend must be one of {BACKENDS} (a string), got {backend!r}")
    name, spec_device = _parse(backend)
    device = device if device is not None else spec_device
    if name not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {name!r}")
    if name == "numpy":
        if device not in (None, "cpu"):
            raise ValueError(f"device must be 'cpu' for the numpy backend, got {device!r}")
        import array_api_compat.numpy as xp

        return Backend("numpy", xp, None)
    if name == "array-api-strict":
        try:
            import array_api_strict as xp
        except ImportError:
            raise ValueError("backend 'array-api-strict' is not installed (pip install array-api-strict)") from None
        if device in (None, "CPU_DEVICE"):
            return Backend("array-api-strict", xp, None)
        if device not in ("device1", "device2"):
            raise ValueError(
                f"device must be unset, 'device1' or 'device2' for the array-api-strict backend, got {device!r}"
            )
        # array-api-strict's stand-in devices refuse to combine with arrays on its default
        # one: an array the fast path makes without device= fails there as on a GPU
        return Backend("array-api-strict", xp, xp.Device(device))
    if name == "torch":
        try:
            import array_api_compat.torch as xp
            import torch
        except ImportError:
            raise ValueError("backend 'torch' is not installed") from None
        dev = torch.device(device or "cpu")
        if dev.type == "mps":
            raise ValueError(f"device {device!r} has no float64: the fast path's floats and exact counts need it")
        if dev.type == "cuda" and not torch.cuda.is_available():
            raise ValueError(f"device {device!r}: CUDA is not available to torch")
        return Backend("torch", xp, dev, integer_matmul=dev.type == "cpu")
    try:
        import array_api_compat.cupy as xp
        import cupy
    except ImportError:
        raise ValueError("backend 'cupy' is not installed") from None
    dev = cupy.cuda.Device(int(device)) if device not in (None, "cuda") else cupy.cuda.Device()
    return Backend("cupy", xp, dev, integer_matmul=False)


def resident_default() -> bool | None:
    """$CRAL_FAST_RESIDENT as calruption_run's `resident`: None (auto) when unset or
    "auto", True for "yes", False for "no"; anything else is a ValueError naming it."""
    value = os.environ.get(RESIDENT_ENVIRONMENT, "auto") or "auto"
    choices = {"auto": None, "yes": True, "no": False}
    if value not in choices:
        raise ValueError(f"{RESIDENT_ENVIRONMENT} must be one of auto, yes, no, got {value!r}")
    return choices[value]


def available() -> list[str]:
    """The backends that import here (numpy always)."""
    found = []
    for name in BACKENDS:
        try:
            get_backend(name)
        except ValueError:
            continue
        found.append(name)
    return found


def gpu_backend():
    """(name, device) of a GPU backend that works here: torch with CUDA first, then CuPy;
    None when there is none."""
    try:
        import torch

        if torch.cuda.is_available():
            return "torch", "cuda"
    except ImportError:
        pass
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() > 0:
            return "cupy", "0"
    except Exception:  # not installed, or no driver: no GPU here
        pass
    return None
