"""HiGHS with rows added to a live model: each solve starts from the last optimal basis.

Row generation (line 9 of Algorithm 2) solves a sequence of LPs, each the last plus a few
rows. After adding rows the previous basis stays dual feasible, so the dual simplex goes on
from it instead of starting over; through `scipy.optimize.linprog` every round rebuilds and
re-solves the whole working set (measured on the 256 x 256 thresholds LPs at the paper's
constants: 0.14 s warm against 47 s cold in fast's formulation; linprog's own overhead is
~1.2 ms per call against 0.08 ms).

The live model comes from `highspy`, HiGHS's own public Python bindings (a dependency; the
same solver scipy bundles, but scipy's copy is the private module
`scipy.optimize._highspy._core`, which any scipy release may rename or remove). Without
highspy (an install that skipped it), `ColdLP` re-solves through scipy's public linprog,
slower but the same answers. Either way the result is floats: the reference only takes
proposals from it (which rows to add, which basis to certify); fast uses its point.
"""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass

import numpy as np

# HiGHS's primal and dual feasibility tolerances. Its default 1e-7 is the size of line 9's
# optimum itself at the paper's constants (measured 1e-6 .. 3e-8 at 256 x 256): a basis
# guessed at that tolerance can be wrong, and the vertex HiGHS returns was up to 5x the
# optimum when evaluated exactly; at 1e-10 they agree.
TOLERANCE = 1e-10


_STDOUT_LOCK = threading.Lock()


def _quiet_highs(highspy):
    """highspy.Highs(), without the banner its constructor prints.

    HiGHS writes "Running HiGHS ...: Copyright ..." to the process's stdout (file
    descriptor 1, from C++) when the first model object of a process is built, before any
    option (output_flag) can be set on it; it would land in the middle of `--json`
    output and of a command-route answer. So descriptor 1 points at /dev/null while the
    object is built (microseconds; Python's own buffer is flushed first, and nothing else
    of ours writes to stdout from another thread then)."""
    with _STDOUT_LOCK:
        try:
            sys.stdout.flush()
        except (AttributeError, ValueError, OSError):  # a closed or replaced stdout
            pass
        try:
            saved = os.dup(1)
        except OSError:  # no descriptor 1 at all: nothing to protect
            return highspy.Highs()
        try:
            with open(os.devnull, "wb") as null:
                os.dup2(null.fileno(), 1)
            return highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)


@dataclass(frozen=True)
class Solved:
    """A solve's point, and its basis where the solver reports one: per column and per row
    "lower", "upper", "basic" (or "zero" for a free nonbasic column); None from linprog."""

    x: np.ndarray
    column_status: tuple[str, ...] | None
    row_status: tuple[str, ...] | None


class WarmLP:
    """min cost.x s.t. lower <= x <= upper, equality rows (optional, CSR: indptr, indices,
    data, rhs), and <= rows added by `add`."""

    def __init__(self, core, cost, lower, upper, equalities=None):
        self.core = core  # the highspy module: its Highs, HighsLp and status enums
        self.highs = _quiet_highs(core)
        for name, value in (
            ("output_flag", False),
            ("presolve", "off"),
            ("solver", "simplex"),
            ("simplex_strategy", 1),
            ("threads", 1),
            ("primal_feasibility_tolerance", TOLERANCE),
            ("dual_feasibility_tolerance", TOLERANCE),
        ):
            self.highs.setOptionValue(name, value)
        lp = core.HighsLp()
        n = len(cost)
        lp.num_col_ = lp.a_matrix_.num_col_ = n
        lp.col_cost_, lp.col_lower_, lp.col_upper_ = (
            np.asarray(cost, float),
            np.asarray(lower, float),
            np.asarray(upper, float),
        )
        if equalities is not None:
            from scipy.sparse import csr_matrix

            indptr, indices, data, rhs = equalities
            csc = csr_matrix((data, indices, indptr), shape=(len(rhs), n)).tocsc()
            lp.num_row_ = lp.a_matrix_.num_row_ = len(rhs)
            lp.a_matrix_.format_ = core.MatrixFormat.kColwise
            lp.a_matrix_.start_ = csc.indptr.astype(np.int32)
            lp.a_matrix_.index_ = csc.indices.astype(np.int32)
            lp.a_matrix_.value_ = csc.data
            lp.row_lower_ = lp.row_upper_ = np.asarray(rhs, float)
        else:
            lp.a_matrix_.start_ = np.zeros(n + 1, dtype=np.int32)
        self._check(self.highs.passModel(lp), "passModel")

    def _check(self, status, what):
        if status == self.core.HighsStatus.kError:
            raise RuntimeError(f"HiGHS failed in {what}")

    def add(self, indptr, indices, data, upper) -> None:
        """Rows (CSR arrays) with right-hand sides `upper`: row . x <= upper."""
        count = len(upper)
        self._check(
            self.highs.addRows(
                count,
                np.full(count, -np.inf),
                np.asarray(upper, float),
                len(data),
                np.asarray(indptr[:-1], np.int32),
                np.asarray(indices, np.int32),
                np.asarray(data, float),
            ),
            "addRows",
        )

    def solve(self, basis: bool = True) -> Solved:
        """basis=False skips reading the basis back (per column and row, in Python: at
        |H| = 1024 it took a third of the solves' time), for callers that use only x."""
        self._check(self.highs.run(), "run")
        status = self.highs.getModelStatus()
        if status != self.core.HighsModelStatus.kOptimal:
            # should the tight tolerances be out of reach numerically: HiGHS's defaults
            for name in ("primal_feasibility_tolerance", "dual_feasibility_tolerance"):
                self.highs.setOptionValue(name, 1e-7)
            self._check(self.highs.run(), "run")
            status = self.highs.getModelStatus()
        if status != self.core.HighsModelStatus.kOptimal:
            raise RuntimeError(f"HiGHS could not solve the LP: {self.highs.modelStatusToString(status)}")
        if not basis:
            return Solved(np.array(self.highs.getSolution().col_value), None, None)
        basis = self.highs.getBasis()
        names = {
            self.core.HighsBasisStatus.kLower: "lower",
            self.core.HighsBasisStatus.kUpper: "upper",
            self.core.HighsBasisStatus.kBasic: "basic",
            self.core.HighsBasisStatus.kZero: "zero",
        }
        return Solved(
            np.array(self.highs.getSolution().col_value),
            tuple(names.get(v, "other") for v in basis.col_status),
            tuple(names.get(v, "other") for v in basis.row_status),
        )


class ColdLP:
    """The same interface through scipy.optimize.linprog, re-solving every time."""

    def __init__(self, cost, lower, upper, equalities=None):
        self.cost, self.bounds = (
            np.asarray(cost, float),
            [
                (None if not np.isfinite(lo) else lo, None if not np.isfinite(up) else up)
                for lo, up in zip(lower, upper)
            ],
        )
        self.equalities = equalities
        self.parts: list = []

    def add(self, indptr, indices, data, upper) -> None:
        self.parts.append((np.asarray(indptr), np.asarray(indices), np.asarray(data, float), np.asarray(upper, float)))

    def solve(self, basis: bool = True) -> Solved:
        from scipy.optimize import linprog
        from scipy.sparse import csr_matrix, vstack

        n = len(self.cost)
        blocks = [csr_matrix((d, i, p), shape=(len(u), n)) for p, i, d, u in self.parts]
        A_eq = b_eq = None
        if self.equalities is not None:
            indptr, indices, data, rhs = self.equalities
            A_eq, b_eq = csr_matrix((data, indices, indptr), shape=(len(rhs), n)), np.asarray(rhs, float)
        result = linprog(
            self.cost,
            A_ub=vstack(blocks) if blocks else None,
            b_ub=np.concatenate([u for *_, u in self.parts]) if blocks else None,
            A_eq=A_eq,
            b_eq=b_eq,
            bounds=self.bounds,
            method="highs-ds",
            options={
                "presolve": False,
                "primal_feasibility_tolerance": TOLERANCE,
                "dual_feasibility_tolerance": TOLERANCE,
            },
        )
        if result.status != 0:
            raise RuntimeError(f"HiGHS could not solve the LP: {result.message}")
        return Solved(result.x, None, None)


def new_lp(cost, lower, upper, equalities=None, *, warm: bool = True):
    """A WarmLP when highspy is installed (and `warm`), else a ColdLP."""
    if warm:
        try:
            import highspy
        except ImportError:
            pass
        else:
            return WarmLP(highspy, cost, lower, upper, equalities)
    return ColdLP(cost, lower, upper, equalities)
