"""The dtype of fast's float quantities: float64 here.

Everything the paper computes in reals is held in FLOAT: CALruption's rho^, min q,
alpha, the weights, the Catoni root W (its Newton iteration too), eta^ and the LP's
rows, the risks R_D^, the penalised risks, Delta^, q; RobustCAL's rho^, beta_t and
threshold. Integer counts (seen, queried, mistakes, disagreement counts, the schedule)
stay exact in int64 whatever FLOAT is, and HiGHS solves the LP in float64 from FLOAT
coefficients, as a GPU implementation would call a CPU solver.

teeth/legit/float_variants.py builds a float32 copy of fast by patching the one line
below; the package declares ARITHMETIC = the dtype's name (fast/__init__.py)."""

import numpy as np

FLOAT = np.float64
