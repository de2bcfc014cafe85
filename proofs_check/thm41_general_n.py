"""Theorem 4.1's accuracy at an n that is not a checkpoint: a realisable run that violates it.

Theorem 4.1 assumes C_[0,t] <= t/8 only at the checkpoints t = 2^k <= n, and its proof applies
Lemma C.1 at t = n, a checkpoint only when n is a power of two. The output (FINDINGS R5) is
argmin over V_{n+1} of L^_n, and V_{n+1} = V_{T+1} with T = 2^floor(log2 n) the last checkpoint,
so nothing constrains the corruption of rounds T+1..n. With R^* = 0 the theorem's
O(R^* C_total/n) term is 0 whatever constant it hides, so the printed statement reads
Delta(h_out) <= eps.

The run (|H| = 2, n = 2^13 - 1 = 8191, delta = 10^-6): X = {a, b}, nu(a) = p = 3/32,
h^* = 0 everywhere, h = 1 on a only, eta_* = 0 (R^* = 0, Delta_h = rho_*(h, h^*) = p). The
adversary sets eta_t^a = 1 (c_t = 1) on FLIPPED = [1793, 2048], [3841, 4096] and [4097, 8191]:
C_[0,t] = 0 up to t = 1024, 256 = 2048/8 at t = 2048 and 512 = 4096/8 at t = 4096, so the
premise holds at every checkpoint. The sample condition holds at eps = 1/16
(8191 >= 22 * 16 * ln(13 * 4 / delta), with log n <= 13 under either reading of log), yet
Delta(h_out) = 3/32 > eps whenever h survives every checkpoint and the output prefers it:
h's a-points are clean in 3584 rounds and flipped in 4607, so L^_n(h) < L^_n(h^*) as soon
as the flipped a-points outnumber the clean ones.

`violation_lower_bound()` is a certified lower bound on the probability of that event: one
minus a union bound over the ways it can fail, each an exact binomial sum with p = 3/32
(integers C(m, k) 3^k 29^(m-k) over 32^m), and each survival test at a checkpoint decided
with a certified enclosure of beta_t (`reference.certified`); a test it cannot decide counts
as a failure, so the bound only errs low."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

from reference.certified import ln_enclosure

N_ROUNDS = 2**13 - 1
P_A = Fraction(3, 32)  # nu(a) = Delta_h = rho_*(h, h^*)
DELTA = Fraction(1, 10**6)
NUM_HYPOTHESES = 2
EPS = Fraction(1, 16)  # an eps the sample condition allows at n = 8191 (checked below)
LOG_N_UPPER = 13  # log n <= 13 for log2 8191 = 12.9998 and ln 8191 = 9.01
FLIPPED = ((1793, 2048), (3841, 4096), (4097, N_ROUNDS))  # eta_t^a = 1 there (c_t = 1)
CHECKPOINTS = tuple(2**k for k in range(1, 13))  # t = 2^k <= n, k >= 1 (FINDINGS R3)


def flipped_rounds(start: int, end: int) -> int:
    return sum(max(0, min(end, b) - max(start, a) + 1) for a, b in FLIPPED)


def premise_holds() -> bool:
    """C_[0,t] <= t/8 at every checkpoint t <= n (c_t = 1 on flipped rounds, 0 elsewhere)."""
    return all(flipped_rounds(1, t) <= Fraction(t, 8) for t in CHECKPOINTS)


def sample_condition_holds(eps: Fraction = EPS) -> bool:
    """n >= (8 R^*/eps^2 + 22/eps) log(log(n) |H|^2/delta) at R^* = 0, log n bounded by 13."""
    log_term = ln_enclosure(Fraction(LOG_N_UPPER * NUM_HYPOTHESES**2) / DELTA).hi
    return N_ROUNDS >= Fraction(22) / eps * log_term


def smallest_eps_upper() -> Fraction:
    """A rational >= the smallest eps the sample condition allows (so P_A over it is a forced factor)."""
    return Fraction(22) * ln_enclosure(Fraction(LOG_N_UPPER * NUM_HYPOTHESES**2) / DELTA).hi / N_ROUNDS


def _beta(t: int):
    """Algorithm 1, line 9: beta_t = ln(3 k |H|^2/delta), k = log2 t (FINDINGS R3), enclosed."""
    k = t.bit_length() - 1
    return ln_enclosure(Fraction(3 * k * NUM_HYPOTHESES**2) / DELTA)


def _certainly_survives(clean: int, flipped: int, beta_lo: Fraction) -> bool:
    """h stays in V_{t+1} (Algorithm 1, line 10) whatever beta_t in its enclosure: with S = A + F
    a-points seen, t (L^_t(h) - L^_t(h^*)) = A - F and t rho^_t = S, so h survives iff
    A - F <= sqrt(2 beta S) + 3 beta/2 + S/2 (the right side grows with beta: beta_lo decides).
    When F > A, h is the argmin and survives trivially; the same inequality then holds."""
    s = clean + flipped
    excess = Fraction(clean - flipped) - Fraction(s, 2) - Fraction(3, 2) * beta_lo
    return excess <= 0 or excess * excess <= 2 * beta_lo * s


def _largest_surviving_clean(flipped: int, t: int, clean_max: int) -> int:
    """The largest A <= clean_max such that every A' <= A certainly survives at t with F = flipped.
    Below A + F = 2 beta the left side is < beta and h survives; above, the left side grows by 1/2
    per unit of A and the right side by less, so the surviving A form an initial segment."""
    beta_lo = _beta(t).lo
    low, high = -1, clean_max  # invariant: every A <= low survives
    while low < high:
        mid = (low + high + 1) // 2
        if _certainly_survives(mid, flipped, beta_lo):
            low = mid
        else:
            high = mid - 1
    return low


@cache
def _weights(m: int) -> tuple[int, ...]:
    """C(m, k) 3^k 29^(m-k) for k = 0..m: P(Bin(m, 3/32) = k) times 32^m."""
    assert P_A == Fraction(3, 32)
    return tuple(comb(m, k) * 3**k * 29 ** (m - k) for k in range(m + 1))


@cache
def _upper_tails(m: int) -> tuple[int, ...]:
    """tails[k] = 32^m P(Bin(m, p) >= k), k = 0..m+1."""
    w = _weights(m)
    tails = [0] * (m + 2)
    for k in range(m, -1, -1):
        tails[k] = tails[k + 1] + w[k]
    return tuple(tails)


def _prob_above(m: int, a: int) -> Fraction:
    """P(Bin(m, p) > a)."""
    if a >= m:
        return Fraction(0)
    return Fraction(_upper_tails(m)[max(a + 1, 0)], 32**m)


def failure_terms() -> dict[str, Fraction]:
    """The union bound's terms: P(h eliminated at t) for each checkpoint, and P(L^_n(h) >= L^_n(h^*))."""
    terms: dict[str, Fraction] = {}
    for t in CHECKPOINTS:
        f_rounds = flipped_rounds(1, t)
        c_rounds = t - f_rounds
        if f_rounds == 0:
            terms[f"eliminated at t = {t}"] = _prob_above(c_rounds, _largest_surviving_clean(0, t, c_rounds))
            continue
        wf, tails = _weights(f_rounds), _upper_tails(c_rounds)
        num = 0
        for f in range(f_rounds + 1):
            a = _largest_surviving_clean(f, t, c_rounds)
            num += wf[f] * (tails[a + 1] if a < c_rounds else 0)
        terms[f"eliminated at t = {t}"] = Fraction(num, 32 ** (f_rounds + c_rounds))
    clean_n, flipped_n = N_ROUNDS - flipped_rounds(1, N_ROUNDS), flipped_rounds(1, N_ROUNDS)
    # P(F <= A) = sum_a P(A = a) P(F <= a): the output may then be h^* (a tie counts against the run)
    wa, tf = _weights(clean_n), _upper_tails(flipped_n)
    num = sum(wa[a] * (tf[0] - tf[min(a + 1, flipped_n + 1)]) for a in range(clean_n + 1))
    terms["output h^* (flipped a-points <= clean ones)"] = Fraction(num, 32 ** (clean_n + flipped_n))
    return terms


def violation_lower_bound() -> Fraction:
    """P(Delta(h_out) = 3/32 > eps = 1/16) >= 1 - sum of the failure terms."""
    return 1 - sum(failure_terms().values())


def forced_factor_lower() -> Fraction:
    """Delta(h_out)/eps at the smallest allowed eps, from below: the factor on eps this run forces."""
    return P_A / smallest_eps_upper()


def clean_and_flipped_rounds() -> tuple[int, int]:
    flipped = flipped_rounds(1, N_ROUNDS)
    return N_ROUNDS - flipped, flipped


def reference_run(seed: int):
    """The same run with the reference implementation (Monte Carlo; tests/proofs_check/test_thm41_general_n.py, slow)."""
    import reference as R

    instance = R.Instance(nu=(P_A, 1 - P_A), eta=(Fraction(0), Fraction(0)), hypotheses=((0, 0), (1, 0)))
    segments, start = [], 1
    for a, b in FLIPPED:
        if start < a:
            segments.append({"start": start, "end": a - 1})
        segments.append({"start": a, "end": b, "gamma": 1, "target": (1, None)})
        start = b + 1
    adversary = R.adversary.piecewise(N_ROUNDS, segments)
    params = R.Params.paper(N_ROUNDS, NUM_HYPOTHESES, DELTA)
    tape = R.sample_tape(instance, adversary, seed)
    return instance, adversary, R.robust_cal(instance.hypotheses, tape, params)
