"""How far a float64 candidate may be from the exact value, one entry per quantity of a
trace, each with its reason (the cross-check, properties/checks/crosscheck.py, uses this table).

A candidate value c passes against the exact value e when
    |c - e| <= rel * |e| + abs * scale,
where `scale` is the quantity's natural size, named in the entry (1 for probabilities
and risks). Exact candidates (ARITHMETIC = "exact") get zero tolerance on rational
quantities, 2^-60 relative on rational stand-ins for irrational ones, and their W (a
certified enclosure) must meet the reference's enclosure.

The figures were set from the error analysis in each reason and then checked against
measurement: `python -m properties crosscheck --candidate fast` prints the largest
error / tolerance seen per entry on the fixed cases (all below 0.2 for fast; docs/fast.md, "The cross-check")."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

EPS = 2.0**-52  # float64 unit roundoff times 2


@dataclass(frozen=True)
class Tolerance:
    rel: float
    abs: float
    scale: str  # what `abs` is relative to
    reason: str

    @cached_property
    def _exact_terms(self) -> tuple[Fraction, Fraction]:
        return Fraction(self.rel), Fraction(self.abs)

    def bound(self, exact: Fraction, scale: Fraction = Fraction(1)) -> Fraction:
        rel, absolute = self._exact_terms
        return rel * abs(exact) + absolute * scale

    def judge(self, candidate: Fraction, exact: Fraction, scale: Fraction = Fraction(1)) -> tuple[bool, float]:
        """(accepted, |c - e| over the allowed bound): one subtraction and one bound for both."""
        error = abs(candidate - exact)
        if error == 0:
            return True, 0.0
        bound = self.bound(exact, scale)
        return error <= bound, (float(error / bound) if bound else float("inf"))


FLOAT64 = {
    "empirical_risk": Tolerance(
        2 * EPS, 0.0, "1", "a count over t rounds: one division, one rounding (exact if the candidate keeps counts)"
    ),
    "disagreement": Tolerance(
        2 * EPS,
        2 * EPS,
        "the points seen times the largest rho^_t of the checkpoint",
        "rho^_t: a count over t (one rounding; (1/t) count two), or the sum of the rounded marginals seen[x] / t "
        "over the points of Dis(h, h^_t) seen: (k + 1) u rho^ for k points",
    ),
    "empirical_x": Tolerance(2 * EPS, 0.0, "1", "seen[x] / |I_l|: one rounding"),
    "rho": Tolerance(
        2 * EPS,
        2 * EPS,
        "|S_l| times the largest rho^_l of the row",
        "rho^_l: a count over |I_l| (one rounding; (1/|I_l|) count two), or the sum of the rounded marginals "
        "seen[x] / |I_l| over the points of Dis(h,h') on S_l: (k + 1) u rho^ for k points",
    ),
    "N": Tolerance(64 * EPS, 0.0, "1", "N_l = beta1 4^l: beta1 (a log) rounded once, an exact power of 4"),
    "beta": Tolerance(
        64 * EPS, 0.0, "1", "beta_t = c ln(3 k |H|^2 / delta): a float quotient (delta is rounded), a log and a product"
    ),
    "threshold": Tolerance(
        256 * EPS,
        0.0,
        "1",
        "sqrt(2 beta rho / t) + 3 beta / (2t) + rho / 2: beta's error plus a square root, products and two sums",
    ),
    "alpha": Tolerance(
        256 * EPS,
        0.0,
        "1",
        "sqrt(2 beta3 min_q / (5 |I| rho^)): beta3 and rho^ rounded, a product chain and a square root; the exact "
        "alpha is itself rounded down by up to 2^-62 relative",
    ),
    "weight": Tolerance(64 * EPS, 0.0, "1", "sqrt(min_q / rho^): rho^ rounded, one quotient, one square root"),
    "W": Tolerance(
        0.0,
        1e-12,
        "max(1, 1 / min q): bounds max |loss difference| of the pair",
        "the Catoni root by safeguarded Newton: fast/catoni.py's error bound is 64 eps max|X| (1 + ln(1 + 2 alpha "
        "max|X|)) for the solver (measured: <= 13 eps max|X|); alpha's rounding moves the root by less than that "
        "again; 1e-12 leaves room for the log factor up to alpha max|X| ~ 10^20",
    ),
    "lp_objective": Tolerance(
        1e-7,
        1e-7,
        "max over rows of w (|W| + 1)",
        "HiGHS's primal/dual feasibility tolerance is 1e-7; its rows carry W's and w's errors",
    ),
    "lp_optimality": Tolerance(
        1e-7,
        1e-7,
        "max over rows of w (|W| + 1)",
        "the candidate's D^ evaluated on the exact LP may exceed the exact optimum by the LP solver's tolerance "
        "plus the error of its own rows (W and w as above)",
    ),
    "eta_hat": Tolerance(
        0.0,
        1e-7,
        "1",
        "used only to tell whether the candidate's D^ is the reference's: within HiGHS's tolerance of it counts as "
        "the same; anything else must pass lp_optimality and is classified as a non-unique optimum",
    ),
    "risk_hat": Tolerance(
        0.0,
        64 * EPS,
        "1 (times support_sum_scale(|S_l|) beyond 123 points)",
        "R_D(h) from the candidate's own D^: a dot product of |S_l| terms in [0,1], summed in any order",
    ),
    "penalised": Tolerance(
        0.0,
        256 * EPS,
        "1 + beta2",
        "R_D(h) + beta2 Delta^_h: risk_hat's error plus a product and a sum; two hypotheses whose exact penalised risks "
        "differ by less than this may be taken for each other in line 10's argmin",
    ),
    "gap_hat": Tolerance(0.0, 512 * EPS, "1 + beta2", "a difference of two penalised risks, floored at eps_l (exact)"),
    "next_q": Tolerance(
        4 * EPS,
        2 * EPS,
        "|S_l| times the largest q_{l+1}",
        "q_{l+1} = beta1 rho^ / N_{l+1} eps_k^-2 (line 13): rho^ within its own tolerance (2 EPS, plus (k + 1) u "
        "as a sum of k marginals), then at most two roundings (beta1 rho^, the quotient by N_{l+1}; beta1 / N_{l+1} "
        "and eps_k^-2 are exact powers of 4): (1 + 2 EPS)(1 + EPS / 2)^2 - 1 < 4 EPS, in the printed order and every "
        "regrouping",
    ),
}

# An exact candidate must agree exactly on every rational quantity. Where the paper's
# quantity is irrational (alpha and the weights: square roots; beta_t, N_l and the
# threshold: logs; W: the Catoni root) each exact implementation picks its own rational
# stand-in within a certified error, so those entries allow the reference's own
# rounding (relative 2^-60) and so do the LP values built from them. Where the trace
# reports an enclosure (W, beta_t, the threshold, N_l) an exact candidate's enclosure must
# meet the reference's instead: how tight a certified enclosure is, is its own choice.
_IRRATIONAL = 2.0**-60
_EXACT_ROUNDING = {"N", "beta", "threshold", "alpha", "weight", "lp_objective", "lp_optimality"}
EXACT = {
    name: (
        Tolerance(
            _IRRATIONAL,
            _IRRATIONAL if name.startswith("lp_") else 0.0,
            t.scale,
            "exact candidate: a rational stand-in for an irrational may round differently, by 2^-60",
        )
        if name in _EXACT_ROUNDING
        else Tolerance(0.0, 0.0, t.scale, "exact candidate: must agree exactly")
    )
    for name, t in FLOAT64.items()
}


# float32 (GPU implementations): every entry above is a multiple of the unit roundoff
# but the LP solver's tolerance, so the same analysis with float32's unit roundoff
# (2^29 times float64's) gives the table; the LP entries keep the solver's 1e-7 and add
# the rounding of eta^ and of the rows into float32 (8 u, properties/checks/judgement.py "lp").
_FLOAT32_FACTOR = 2.0**29
_SOLVER = {"lp_objective", "lp_optimality", "eta_hat"}
FLOAT32 = {
    name: (
        Tolerance(
            t.rel and 1e-7 + 8 * 2.0**-24,
            t.abs and 1e-7 + 8 * 2.0**-24,
            t.scale,
            t.reason + "; float32: the solver's 1e-7 plus 8 u (u = 2^-24)",
        )
        if name in _SOLVER
        else Tolerance(
            t.rel * _FLOAT32_FACTOR,
            t.abs * _FLOAT32_FACTOR,
            t.scale,
            t.reason + "; float32: the same analysis with u = 2^-24",
        )
    )
    for name, t in FLOAT64.items()
}


def support_sum_scale(support_size: int) -> Fraction:
    """The factor on the abs tolerance of the entries derived from R_D(h) (risk_hat,
    penalised, gap_hat), for a dot product over |S_l| points: max(1, 1.01 (|S_l| + 3) / 128).

    Why: risk_hat's 64 EPS = 128 u covers a sum of up to 123 terms in any order. A longer
    one, summed in any order (a sequential loop, a GPU's tree, a blocked BLAS), may be off
    by up to gamma_{|S_l| - 1} = (|S_l| - 1) u / (1 - (|S_l| - 1) u) times the terms' total
    (the mass of S_l, 1), plus ~3 u from each term's own roundings: (|S_l| + 3) u while
    |S_l| u <= 1% (the 1.01). Float32's entries are float64's times 2^29, so the same
    factor holds there in its own u. Measured: a sequential float64 sum over 16384 points
    was off by 0.25 of the unscaled 64 EPS on random data, its worst case is 64x that."""
    return max(Fraction(1), Fraction(101, 100) * Fraction(support_size + 3, 128))


def table(arithmetic: str) -> dict[str, Tolerance]:
    if arithmetic == "exact":
        return EXACT
    if arithmetic == "float64":
        return FLOAT64
    if arithmetic == "float32":
        return FLOAT32
    raise ValueError(f"ARITHMETIC must be 'exact', 'float64' or 'float32', got {arithmetic!r}")
