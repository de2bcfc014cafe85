"""Built-in instances: the appendix's counter-example, thresholds and intervals on a line."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .exact import as_fraction, as_int, as_probability, shown
from .instance import Instance


def counterexample(xi1, xi2) -> Instance:
    """The 3-point instance of Appendix "Why vanilla Robust CAL does not work?".

    nu* = (xi1, xi2, 1 - xi1 - xi2), eta* = (1/2, 1, 1), h1 = (1, 1, 1) (index 0) and
    h2 = (0, 0, 1) (index 1). The paper prints "eta_*^{x2} = eta_*^{x2} = 1"; we read it
    as eta*^{x2} = eta*^{x3} = 1, the only reading under which its stated values
    R*(h1) = xi1/2, R*(h2) = xi1/2 + xi2 hold (FINDINGS.md R1).

    The proposition assumes xi1 >> 0 and xi2 <= xi1/64; this constructor only demands a
    valid distribution (xi1 > 0, xi2 >= 0, xi1 + xi2 <= 1) so that the suite can also
    probe the instance outside the proposition's regime."""
    xi1 = as_fraction(xi1, "xi1")
    xi2 = as_fraction(xi2, "xi2")
    if xi1 <= 0:
        raise ValueError(f"xi1 must be > 0, got {xi1}")
    if xi2 < 0:
        raise ValueError(f"xi2 must be >= 0, got {xi2}")
    if xi1 + xi2 > 1:
        raise ValueError(f"xi1 + xi2 must be <= 1, got {xi1 + xi2}")
    return Instance(
        nu=(xi1, xi2, 1 - xi1 - xi2),
        eta=(Fraction(1, 2), Fraction(1), Fraction(1)),
        hypotheses=((1, 1, 1), (0, 0, 1)),
    )


def _uniform(m: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(1, m) for _ in range(m))


def _eta_or_default(eta, m: int, field: str = "eta") -> tuple[Fraction, ...]:
    if eta is None:
        # A noisy threshold at the middle: label 1 is likely on the right half.
        return tuple(Fraction(1, 10) if x < m // 2 else Fraction(9, 10) for x in range(m))
    if isinstance(eta, (str, bytes)) or not isinstance(eta, Sequence):
        raise ValueError(f"{field} must be a sequence of probabilities, got {shown(eta)}")
    if len(eta) != m:
        raise ValueError(f"{field} has {len(eta)} entries, expected {m}")
    return tuple(as_probability(v, f"{field}[{x}]") for x, v in enumerate(eta))


def thresholds(m=8, eta=None, nu=None) -> Instance:
    """Points 0..m-1 on a line; H = {h_k(x) = 1[x >= k] : k = 0..m} (m + 1 hypotheses,
    h_0 all ones, h_m all zeros). Default nu uniform; default eta 1/10 left of m//2, 9/10
    from m//2 on, so h* = h_{m//2} and Delta_h = 4/5 rho*(h, h*): the modified rule of
    Algorithm 1 can only eliminate h when Delta_h exceeds about rho/2, so a noisier
    default would make it eliminate nothing."""
    m = as_int(m, "m", minimum=1)
    nu = _uniform(m) if nu is None else nu
    hypotheses = tuple(tuple(1 if x >= k else 0 for x in range(m)) for k in range(m + 1))
    return Instance(nu, _eta_or_default(eta, m), hypotheses)


def intervals(m=6, eta=None, nu=None) -> Instance:
    """Points 0..m-1; H = {h_{a,b}(x) = 1[a <= x < b] : 0 <= a < b <= m} plus the
    all-zero hypothesis (index 0), each labelling listed once. Default nu uniform;
    default eta 9/10 on the middle third, 1/10 elsewhere."""
    m = as_int(m, "m", minimum=1)
    nu = _uniform(m) if nu is None else nu
    if eta is None:
        eta = tuple(Fraction(9, 10) if m // 3 <= x < m - m // 3 else Fraction(1, 10) for x in range(m))
    hypotheses = [tuple(0 for _ in range(m))]
    for a in range(m):
        for b in range(a + 1, m + 1):
            hypotheses.append(tuple(1 if a <= x < b else 0 for x in range(m)))
    return Instance(nu, _eta_or_default(eta, m), tuple(hypotheses))


BUILTIN = {
    "counterexample": lambda: counterexample(Fraction(1, 2), Fraction(1, 128)),
    "thresholds": thresholds,
    "intervals": intervals,
}
