"""The cral-tape-npy form of a tape (docs/protocol.md): x.npy, y.npy and u_words.npy, read
with every entry checked, and the arrays and headers reference/documents.py's
write_tape_npy writes. Split from reference/documents.py, which reads and writes the
document itself."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from .document_messages import DocumentError
from .tape import Tape

_WORD_SCALE = 1 << 64
# the files of a cral-tape-npy document: field -> (file name written, dtype)
NPY_FILES = {"x": ("x.npy", "<i8"), "y": ("y.npy", "|u1"), "u_words": ("u_words.npy", "<u8")}


def _shown_path(name) -> str:
    """A document's file name for a one-line message: as written, or as its repr when it
    holds a newline or another unprintable character (drawn from the schema, found so)."""
    return name if isinstance(name, str) and name.isprintable() else repr(name)


def read_tape_npy(document: dict, source: str, folder: Path) -> Tape:
    """The Tape of a cral-tape-npy document already held to its schema (reference/documents.py
    load_tape): its three files read and checked, a relative path taken from `folder`."""
    import numpy as np  # here: reading JSON documents does not need numpy's import time

    n = document["n"]
    arrays = {
        field: _read_npy(folder / document[field], dtype, n, f"{source}: at $.{field}: {_shown_path(document[field])}")
        for field, (_, dtype) in NPY_FILES.items()
    }
    negative = np.flatnonzero(arrays["x"] < 0)
    if negative.size:
        i = int(negative[0])
        raise DocumentError(
            f"{source}: at $.x: {_shown_path(document['x'])}: entry {i} must be >= 0, got {int(arrays['x'][i])}"
        )
    not_label = np.flatnonzero(arrays["y"] > 1)
    if not_label.size:
        i = int(not_label[0])
        raise DocumentError(
            f"{source}: at $.y: {_shown_path(document['y'])}: entry {i} must be 0 or 1, got {int(arrays['y'][i])}"
        )
    coin_words = tuple(arrays["u_words"].tolist())
    u = tuple(Fraction(w, _WORD_SCALE) for w in coin_words)
    # every field was checked above (x >= 0, y in {0, 1}, 0 <= u < 1 by construction,
    # seed by the schema), so the per-entry checks of Tape() are skipped for speed
    return Tape._trusted(
        tuple(arrays["x"].tolist()),
        tuple(arrays["y"].tolist()),
        u,
        document.get("seed"),
        document.get("generator"),
        coin_words,
    )


def _read_npy(path: Path, dtype: str, n: int, where: str):
    """The one-dimensional C-order array of n entries of `dtype` in the .npy file."""
    import numpy as np

    fmt, dtype = np.lib.format, np.dtype(dtype)
    try:
        with open(path, "rb") as handle:
            version = fmt.read_magic(handle)
            if version == (1, 0):
                shape, fortran, found = fmt.read_array_header_1_0(handle)
            elif version == (2, 0):
                shape, fortran, found = fmt.read_array_header_2_0(handle)
            else:
                raise DocumentError(f"{where}: .npy format version {version[0]}.{version[1]}, expected 1.0")
            if found != dtype:  # equal for the native little-endian spellings ("=i8", "int64") too
                raise DocumentError(f"{where}: holds dtype {found.str}, expected {dtype.str}")
            if len(shape) != 1:
                raise DocumentError(f"{where}: has shape {tuple(shape)}, expected one dimension")
            if shape[0] != n:
                raise DocumentError(f"{where}: has {shape[0]} entries, expected n = {n}")
            if fortran:
                raise DocumentError(f"{where}: is stored in Fortran order, expected C order")
            body = handle.read(n * dtype.itemsize + 1)
    except OSError as error:
        raise DocumentError(f"{where}: cannot read: {error.strerror or error}") from None
    except ValueError as error:  # a malformed magic string or header
        if isinstance(error, DocumentError):
            raise
        raise DocumentError(f"{where}: not a .npy file: {' '.join(str(error).split())}") from None
    if len(body) != n * dtype.itemsize:
        raise DocumentError(
            f"{where}: holds {len(body)} bytes of data, expected {n * dtype.itemsize} ({n} entries of {dtype.str})"
        )
    return np.frombuffer(body, dtype=dtype)


def points_array(x, n: int):
    """A tape's points as <i8: through bytes where every point is below 256 (a C loop
    over small ints, half fromiter's time), else by fromiter."""
    import numpy as np

    try:
        return np.frombuffer(bytes(x), dtype=np.uint8).astype(NPY_FILES["x"][1])
    except (ValueError, TypeError):  # a point of 256 or more (or below 0): fromiter decides
        return np.fromiter(x, dtype=NPY_FILES["x"][1], count=n)


@lru_cache(maxsize=64)
def npy_header(dtype: str, n: int) -> bytes:
    """The .npy format 1.0 header of a one-dimensional C-order array of n entries of dtype."""
    import io

    import numpy as np

    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": dtype, "fortran_order": False, "shape": (n,)})
    return buffer.getvalue()
