"""Legitimate float variants of fast: implementations that compute in
floating point as the paper's algorithms say, whose results differ from the exact
reference only by rounding. `check` judges float candidates by derived error bounds
(properties/checks/judgement.py; "float32" is one of properties.core.contract.ARITHMETICS), and each
must pass every registered check with 0 failures and 0 errors (tests/teeth/test_legit_float_pass.py):

* fast itself, declaring ARITHMETIC = "float64";
* fast as a program through --candidate-cmd ('python -m properties answer --impl fast');
* FLOAT32, a copy of fast computing in float32: fast/precision.py's FLOAT patched to
  np.float32, so every float quantity (rho^, min q, alpha, the weights, Catoni's root and
  its Newton iteration, eta^ and the LP's rows, the risks, penalised risks, Delta^, q;
  RobustCAL's beta_t, rho^ and threshold) is a float32 computed from float32 operands,
  while counts stay int64 and HiGHS solves the LP in float64 from float32 coefficients;
  the copy declares ARITHMETIC = "float32" (fast/__init__.py takes the dtype's name).

The copy is built like the broken copies of fast (teeth/broken/fast_mutants.py: a copy of
fast/ with one snippet patched), under the package name legit_fast_float32."""

from __future__ import annotations

from teeth.broken.fast_mutants import FastMutant, build

PREFIX = "legit_fast_"
COMMAND = "python -m properties answer --impl fast"  # fast as a program (docs/protocol.md)

FLOAT32 = FastMutant(
    "float32",
    "fast computing in float32 (fast/precision.py's FLOAT), counts in int64, HiGHS in float64",
    "precision.py",
    "FLOAT = np.float64\n",
    "FLOAT = np.float32\n",
    "-",
)


PRINTED_LINE13 = FastMutant(
    "printed_line13",
    "fast with line 13 evaluated as printed, left to right: beta1 rho^ / N_{l+1} eps_k^-2 "
    "(N_{l+1} = beta1 4^(l+1)), where fast scales rho^ by an exact power of 4; it reports rho^ "
    "as the double it computed (fast reports the exact count / |I_l|)",
    "calruption.py",
    "        np.ldexp(rho[r0:r1], 2 * (k - l - 1), out=pair_value[r0:r1])",
    "        pair_value[r0:r1] = fparams.beta1 * rho[r0:r1] / (fparams.beta1 * 4.0 ** (l + 1)) * 4.0**k",
    "-",
    more=(
        (
            "convert.py",
            "rho=tuple(tuple(Fraction(v, e.length) for v in row) for row in e.rho_counts.tolist()),",
            "rho=_matrix(e.rho_counts / e.length),",
        ),
    ),
)


def build_printed_line13(directory) -> str:
    """The copy of fast with line 13 in the printed order under `directory`; returns its
    importable name."""
    return build(PRINTED_LINE13, directory, prefix=PREFIX)


def build_float32(directory) -> str:
    """The float32 copy of fast under `directory`; returns its importable name."""
    return build(FLOAT32, directory, prefix=PREFIX)


__all__ = ["COMMAND", "FLOAT32", "PREFIX", "PRINTED_LINE13", "build_float32", "build_printed_line13"]
