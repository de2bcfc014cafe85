"""Run parameters: the paper's constants by default, scaled constants for small tests.

A trace records the Params it ran with (DESIGN.md, "Parameters")."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .certified import ScaledLog
from .exact import as_fraction, as_int

REGIMES = ("paper", "scaled")


@dataclass(frozen=True)
class Params:
    """n: rounds; num_hypotheses: |H|; delta: confidence in (0, 1).

    beta_scale multiplies the confidence width of Algorithm 1:
    beta_t = beta_scale * ln(3 log2(t) |H|^2 / delta). The paper's value is 1;
    `scaled` parameter sets use a smaller rational so that small instances eliminate
    within a few thousand rounds."""

    regime: str
    n: int
    num_hypotheses: int
    delta: Fraction
    beta_scale: Fraction = Fraction(1)

    def __post_init__(self):
        if self.regime not in REGIMES:
            raise ValueError(f"params.regime must be one of {REGIMES}, got {self.regime!r}")
        object.__setattr__(self, "n", as_int(self.n, "params.n", minimum=1))
        object.__setattr__(self, "num_hypotheses", as_int(self.num_hypotheses, "params.num_hypotheses", minimum=1))
        delta = as_fraction(self.delta, "params.delta")
        if not 0 < delta < 1:
            raise ValueError(f"params.delta must lie in (0, 1), got {delta}")
        object.__setattr__(self, "delta", delta)
        beta_scale = as_fraction(self.beta_scale, "params.beta_scale")
        if beta_scale <= 0:
            raise ValueError(f"params.beta_scale must be > 0, got {beta_scale}")
        object.__setattr__(self, "beta_scale", beta_scale)
        if self.regime == "paper" and beta_scale != 1:
            raise ValueError(f"params.beta_scale must be 1 in the paper regime, got {beta_scale}")

    @classmethod
    def paper(cls, n, num_hypotheses, delta) -> "Params":
        """The constants as printed in the paper."""
        return cls("paper", n, num_hypotheses, delta)

    @classmethod
    def scaled(cls, n, num_hypotheses, delta=Fraction(1, 10), beta_scale=Fraction(1, 4)) -> "Params":
        """Smaller confidence widths for small, fast instances (not the paper's)."""
        return cls("scaled", n, num_hypotheses, delta, beta_scale)

    def robust_cal_beta(self, t: int) -> ScaledLog:
        """beta_t of Algorithm 1, line 9, at a checkpoint t = 2^k, k >= 1.

        The paper's log(t) inside beta_t is read as log2 t = k, the index of the
        checkpoint (the union bound runs over checkpoints); t = 1 = 2^0 is not a
        checkpoint because beta_1 = ln 0 is undefined (FINDINGS.md R3)."""
        t = as_int(t, "t", minimum=2)
        k = t.bit_length() - 1
        if t != 1 << k:
            raise ValueError(f"t must be a power of two, got {t}")
        return ScaledLog(self.beta_scale, Fraction(3 * k * self.num_hypotheses**2) / self.delta)
