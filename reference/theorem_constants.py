"""The corrected theorems' constants, named, in one place, so that every chain and report reads the same value.

`proofs_check/steps/corrected.py` re-runs each theorem's chain from its repaired links and
bisects the constants that do not follow from the repaired links (FINDINGS F18). Two kinds of constant live here:

* CARRIED: a value the corrected chain takes as a premise or writes into a claim (an integer
  above a solved constant, a ratio a premise needs). corrected.py imports these; changing
  one here changes what proofs_check decides.
* SHARP: the closed form a bisection converges to (the step's `Repair.sharp` bisects it at
  run time; ERRATA.md prints the interval [forced, proved]). They are stated here so that
  `reference.bounds` (the theorems as functions of an instance) evaluates the corrected
  bounds with the constant proofs_check decided, and tests/reference/test_bounds.py checks each
  against ERRATA.md's interval, so a changed bisection cannot leave a stale copy.

Values are exact: a Fraction, or a closed form a + b*sqrt(c) as the triple
`Surd(a, b, c)` (a, b Fractions, c a positive integer), whose float and certified
rational upper bound `reference.bounds` computes. A printed constant sits next to each.
They live in `reference`, which imports nothing of the project above it: proofs_check reads
them from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import isqrt


@dataclass(frozen=True)
class Surd:
    """a + b sqrt(c), exactly (a, b rational, c a positive integer)."""

    a: Fraction
    b: Fraction
    c: int

    def __float__(self) -> float:
        return float(self.a) + float(self.b) * self.c**0.5

    def upper(self, denominator: int = 10**12) -> Fraction:
        """A rational >= the value, within 2/denominator of it (b >= 0): sqrt(c) rounded up."""
        root = Fraction(isqrt(self.c * denominator**2) + 1, denominator)  # > sqrt(c)
        return self.a + self.b * root

    def text(self) -> str:
        return f"{self.a} + {self.b}*sqrt({self.c})"


# -- Theorem 3.1 (passive ERM; corrected.thm31.*) -----------------------------------------------
THM31_CORRUPTION = Fraction(8)  # 8 (C_total/n) R^*: printed 8, proved (C_total <= n/8)
THM31_LAST_TERM_PRINTED = Fraction(5)  # 5 (L/n)/(1 - 4C/n)^2 as printed
THM31_LAST_TERM = Surd(Fraction(2), Fraction(2), 2)  # SHARP 2 + 2 sqrt 2 (corrected.thm31.sharp_bound)
THM31_PROVED_BUDGET = Fraction(1, 8)  # proved for C_total <= n/8; needs C_total < n/4 (F3)
THM31_NEEDED_BUDGET = Fraction(1, 4)
# "This implies": Delta <= K eps + 8 (C/n) R^* (printed K = 1 and coefficient 1 on (C/n)R^*)
THM31_IMPLIES_EPS = Surd(Fraction(44, 18), Fraction(16, 18), 7)  # SHARP (44 + 16 sqrt 7)/18 (corrected.thm31.implies)
THM31_IMPLIES_CORRUPTION = Fraction(8)

# -- Lemma C.1 and Theorem 4.1 (RobustCAL; corrected.lemc1.*, corrected.thm41.*) --------------
LEMC1_CORRUPTION = Fraction(8)  # Lemma C.1 line 1: printed 4 (F2), proved 8
THM41_BUDGET = Fraction(1, 8)  # C_[0,t] <= t/8 at every checkpoint (the theorem's premise)
THM41_ACCURACY_EPS = Fraction(5, 4)  # SHARP along the route (corrected.thm41.accuracy; printed 1, F8)
# the statement's constant: the printed 1 holds on the theorem's event (corrected.thm41.accuracy_event),
# and no smaller one does (corrected.thm41.accuracy_event_forced); 5/4 is only the route's through Lemma C.1
THM41_ACCURACY_EPS_STATEMENT = Fraction(1)  # at n = 2^k, or any n with C_[0,n] <= n/8 (FINDINGS F19)
# at n = 2^13 - 1 a realisable run (R^* = 0, corruption after the last checkpoint) forces a factor above this on eps
THM41_GENERAL_N_FORCED = Fraction(196, 100)  # proofs_check/thm41_general_n.py: 3/32 over the least eps, 1.9646
THM41_ACCURACY_CORRUPTION = Fraction(8)  # 8 (C_total/n) R^* (printed O(R^* C_total/n))
THM41_RADIUS_BETA = 604  # CARRIED: Delta_h <= 604 beta_t/t + 21 R^* (above 30179/50)
THM41_RADIUS_RSTAR = 21  # CARRIED: above 1007/50
THM41_RADIUS_FACTOR = Fraction(126, 25)  # CARRIED: m = 5.04 >= max(604/120, 23/14) = 151/30
THM41_LABELS = 120 * THM41_RADIUS_FACTOR  # SHARP J = 120 m = 604.8 (corrected.thm41.labels.sum; printed O(.))
THM41_THETA_RADIUS = (Fraction(14), Fraction(120))  # theta^*(14 R^* + 120 beta/n), as printed and kept

# -- Lemma 5.1, Theorem 5.1, Corollary 5.1 (CALruption; corrected.lemma51.*, corrected.thm51.*) ---
# Lemma 5.1's induction closes iff beta1 >= 40960 beta3 (corrected.lemma51.split_ratio: the estimation lemma's two
# coefficients kept apart, as its proof derives them; eps_j dyadic and D^^{l-1} >= eps_{l-1} do not move it)
BETA1_OVER_BETA3_NEEDED = 40960  # CARRIED into Theorem 5.1's chain (corrected.thm51.labels.query_dis2)
BETA1_OVER_BETA3_SHARP = Fraction(40960)  # SHARP (corrected.lemma51.split_ratio)
# the same with the printed lemma's merged coefficient (4 sqrt 10 + 2)(max D^ + eps_l): a loose intermediate
BETA1_OVER_BETA3_MERGED = Surd(Fraction(41984), Fraction(4096), 10)  # corrected.lemma51.beta1_ratio, 54936.7
# at Algorithm 2's beta1 = 20480 beta3 the induction closes iff beta2 >= (3 + 2 sqrt 2)/32 (printed 5/32)
BETA2_AT_20480 = Surd(Fraction(3, 32), Fraction(2, 32), 2)  # corrected.lemma51.at_20480.*
THM51_ACCURACY_SQRT = Fraction(6)  # 6 sqrt(2 beta1/n) = sqrt(72 beta1/n): n >= 72 beta1/eps^2
THM51_ACCURACY_CORRUPTION_PRINTED = Fraction(24)
THM51_ACCURACY_CORRUPTION = Fraction(64)  # SHARP (corrected.thm51.accuracy, corrected.coro51.accuracy)
CORO51_EPOCH_BUDGET = Fraction(1, 32)  # C_epoch l / N_l <= 1/32 for every epoch (the corollary's premise)
THM51_EPOCH_CORRUPTION = 84  # CARRIED: per-epoch corruption constant, above 83.1923
# the corrected total (corrected.thm51.labels.total):
#   theta (A_R2 R*^2 n + A_R R* sqrt(n beta1) + A_LAYER beta1 (lgnb + 2)(lgnb + 4) + A_CBAR (lgnb + 2) Cbar)
#   + A_BETA1 beta1 (lgnb + 2),  theta = theta^*(2 R^* + 3 sqrt(beta1/n)), lgnb = log2(n/beta1)
THM51_TOTAL_R2 = Fraction(160)
THM51_TOTAL_R = Fraction(480)
THM51_TOTAL_LAYER = Fraction(45, 4)
THM51_TOTAL_CBAR = Fraction(20 * 2 * THM51_EPOCH_CORRUPTION, 2)  # 3360 L Cbar with L < lgnb/2 + 1: 1680
THM51_TOTAL_BETA1 = Fraction(4)
THM51_THETA_RADIUS = (Fraction(2), Fraction(3))  # theta^*(2 R^* + 3 sqrt(beta1/n)) (F12's repair)
