"""Run parameters: the paper's constants by default, scaled constants for small tests.

A trace records the Params it ran with (CONTRACT.md, "Parameters"). Log constants are
kept symbolically (coefficient * ln(argument)) and enclosed on demand, so no rounding
happens before a comparison needs it."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .certified import Rational, ScaledLog
from .exact import as_fraction, as_int

REGIMES = ("paper", "scaled")
Constant = ScaledLog | Rational

# Algorithm 2, line 1: beta_1 = 32 * 640 * beta_3 with beta_3 = 2 log(...), so
# beta_1 = 40960 log(...). Theorem 5.1 prints beta_1 = 16 * 640 log(...) instead, a
# factor 4 smaller; we follow the algorithm box (FINDINGS.md R8).
BETA1_OVER_BETA3 = 32 * 640
PAPER_BETA2 = Fraction(5, 32)


def _constant(value, field: str, *, positive: bool) -> Constant:
    if not isinstance(value, (ScaledLog, Rational)):
        value = Rational(as_fraction(value, field))
    small = value.value <= 0 if isinstance(value, Rational) else value.coefficient == 0 or value.argument == 1
    if positive and small:
        raise ValueError(f"{field} must be > 0, got {value.describe()}")
    return value


def calruption_log_argument(n: int, num_hypotheses: int, delta: Fraction) -> Fraction:
    """The argument of beta_3 = 2 log(3/2 floor(log n) |H|^2 / delta) (Algorithm 2, line 1).

    log n is read as log2 n (the union bound runs over the ~(1/2) log2 n epochs); for
    n = 1, floor(log2 n) = 0 would make the log -infinity, so it is taken as 1 there
    (FINDINGS.md R9)."""
    return Fraction(3, 2) * max(1, n.bit_length() - 1) * num_hypotheses**2 / delta


@dataclass(frozen=True)
class Params:
    """n: rounds; num_hypotheses: |H|; delta: confidence in (0, 1).

    RobustCAL: beta_t = beta_scale * ln(3 log2(t) |H|^2 / delta) (Algorithm 1, line 9;
    the paper's beta_scale is 1).
    CALruption: beta1, beta2, beta3 of Algorithm 2, line 1; epoch l has
    N_l = beta1 * 4^l (eps_l = 2^-l)."""

    regime: str
    n: int
    num_hypotheses: int
    delta: Fraction
    beta_scale: Fraction
    beta1: Constant
    beta2: Fraction
    beta3: Constant

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
        object.__setattr__(self, "beta1", _constant(self.beta1, "params.beta1", positive=True))
        beta2 = as_fraction(self.beta2, "params.beta2")
        if beta2 < 0:
            raise ValueError(f"params.beta2 must be >= 0, got {beta2}")
        object.__setattr__(self, "beta2", beta2)
        object.__setattr__(self, "beta3", _constant(self.beta3, "params.beta3", positive=True))
        if self.regime == "paper":
            expected = _paper_constants(self.n, self.num_hypotheses, delta)
            for name, value in expected.items():
                if getattr(self, name) != value:
                    raise ValueError(
                        f"params.{name} must be the paper's value in the paper regime, got {getattr(self, name)}"
                    )

    @classmethod
    def paper(cls, n, num_hypotheses, delta) -> Params:
        """The constants as printed in the paper (Algorithms 1 and 2)."""
        n = as_int(n, "params.n", minimum=1)
        num_hypotheses = as_int(num_hypotheses, "params.num_hypotheses", minimum=1)
        delta = as_fraction(delta, "params.delta")
        if not 0 < delta < 1:
            raise ValueError(f"params.delta must lie in (0, 1), got {delta}")
        return cls("paper", n, num_hypotheses, delta, **_paper_constants(n, num_hypotheses, delta))

    @classmethod
    def scaled(
        cls,
        n,
        num_hypotheses,
        delta=Fraction(1, 10),
        beta_scale=Fraction(1, 4),
        beta1=Fraction(16),
        beta2=PAPER_BETA2,
        beta3=None,
    ) -> Params:
        """Smaller constants for small, fast instances (not the paper's): RobustCAL's
        widths times beta_scale; CALruption's epochs N_l = beta1 * 4^l with beta1 = 16 by
        default (64, 256, 1024, ... rounds); beta3 (the width of condition (1) and the
        Catoni alpha) defaults to the paper's value."""
        if beta3 is None:
            n_ = as_int(n, "params.n", minimum=1)
            h_ = as_int(num_hypotheses, "params.num_hypotheses", minimum=1)
            d_ = as_fraction(delta, "params.delta")
            if not 0 < d_ < 1:
                raise ValueError(f"params.delta must lie in (0, 1), got {d_}")
            beta3 = ScaledLog(Fraction(2), calruption_log_argument(n_, h_, d_))
        return cls("scaled", n, num_hypotheses, delta, beta_scale, beta1, beta2, beta3)

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


def _paper_constants(n: int, num_hypotheses: int, delta: Fraction) -> dict:
    argument = calruption_log_argument(n, num_hypotheses, delta)
    return {
        "beta_scale": Fraction(1),
        "beta1": ScaledLog(Fraction(2 * BETA1_OVER_BETA3), argument),
        "beta2": PAPER_BETA2,
        "beta3": ScaledLog(Fraction(2), argument),
    }
