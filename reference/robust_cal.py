"""RobustCAL (Algorithm 1) with the enlarged elimination threshold, and its vanilla form.

Reading of the pseudo-code (see FINDINGS.md R3-R5 for the typos resolved here):
* checkpoints are t = 2^k for k >= 1 ("log(t) in N" with N = {1, 2, ...});
* l^_s(h) = 1{h(x_s) != y_s} if round s was queried and 0 otherwise, so
  L^_t(h) = (1/t) sum_{s <= t} l^_s(h). Unqueried rounds have x_s outside Dis(V_s),
  where all of V_s (a superset of V_t) agree, so differences L^_t(h) - L^_t(h') between
  members of V_t equal those of the full-information empirical risks;
* line 10 filters V_t (the paper prints V_{log(t)});
* the output is argmin_{h in V_{n+1}} L^_n(h), ties towards the lowest index.

Thresholds (line 10), with rho = rho^_t(h, h^_t):
    modified: sqrt(2 beta_t rho / t) + 3 beta_t / (2t) + rho / 2
    vanilla:  sqrt(2 beta_t rho / t) + 3 beta_t / (2t)
The vanilla form is the same rule without the corruption term 1/2 rho^, as the
remark after Theorem 4.1 describes it (its displayed O(sqrt(2 beta rho/t) + beta/t)).
Keeping the 3/(2t) constant makes the two rules differ in exactly one term, so any
difference in behaviour is due to that term. Every comparison is decided exactly
(`certified.decide_le`).
"""

from __future__ import annotations

from fractions import Fraction

from .certified import Enclosure, decide_le, sqrt_enclosure
from .empirical import argmin_lowest_index, check_run_inputs, empirical_risks
from .instance import disagreement_region
from .trace import RobustCALCheckpoint, RobustCALTrace


def threshold_enclosure(beta: Enclosure, rho: Fraction, t: int, vanilla: bool, bits: int) -> Enclosure:
    """Enclosure of the right-hand side of line 10 given an enclosure of beta_t."""
    root = sqrt_enclosure(beta.scale(2 * rho / t), bits)
    bound = root + beta.scale(Fraction(3, 2 * t))
    return bound if vanilla else bound + Enclosure.point(rho / 2)


def robust_cal(hypotheses, tape, params, vanilla=False) -> RobustCALTrace:
    if not isinstance(vanilla, bool):
        raise ValueError(f"vanilla must be True or False, got {vanilla!r}")
    H = check_run_inputs(hypotheses, tape, params)
    m = len(H[0])
    version_space = tuple(range(len(H)))  # V_1 = H
    dis = disagreement_region(H, version_space)
    seen = [0] * m  # unlabeled rounds per point, for rho^_t (line 9)
    queried = [[0, 0] for _ in range(m)]  # queried labels per (x, y), for L^_t (line 8)
    labels = 0
    checkpoints = []
    next_checkpoint = 2
    for t, (x, y) in enumerate(zip(tape.x, tape.y), start=1):
        seen[x] += 1
        if x in dis:  # line 4: query iff x_t in Dis(V_t)
            queried[x][y] += 1
            labels += 1
        if t == next_checkpoint:  # line 7: log t in N
            checkpoint = checkpoint_update(H, version_space, seen, queried, labels, t, params, vanilla)
            checkpoints.append(checkpoint)
            version_space = checkpoint.next_version_space
            dis = disagreement_region(H, version_space)
            next_checkpoint *= 2
    final_risks = empirical_risks(H, queried, tape.n, version_space)
    return RobustCALTrace(
        algorithm="robust_cal_vanilla" if vanilla else "robust_cal",
        vanilla=vanilla,
        params=params,
        n=tape.n,
        checkpoints=tuple(checkpoints),
        final_version_space=version_space,
        final_empirical_risk=final_risks,
        labels_requested=labels,
        output=argmin_lowest_index(final_risks, version_space),
    )


def checkpoint_update(H, version_space, seen, queried, labels, t, params, vanilla, h_hat=None) -> RobustCALCheckpoint:
    """Lines 8-10 at checkpoint t. `h_hat` overrides the lowest-index argmin of line 8
    with another minimiser (the cross-check continues from a candidate's tie-break)."""
    risks = empirical_risks(H, queried, t, version_space)  # line 8
    if h_hat is None:
        h_hat = argmin_lowest_index(risks, version_space)
    beta = params.robust_cal_beta(t)  # line 9
    rho = [None] * len(H)
    thresholds = [None] * len(H)
    kept = []
    for h in version_space:
        rho[h] = Fraction(sum(c for c, a, b in zip(seen, H[h], H[h_hat]) if a != b), t)
        keep, enclosure = decide_le(
            risks[h] - risks[h_hat],
            lambda bits, r=rho[h]: threshold_enclosure(beta.enclosure(bits), r, t, vanilla, bits),
        )
        thresholds[h] = enclosure
        if keep:  # line 10
            kept.append(h)
    return RobustCALCheckpoint(
        t=t,
        version_space=version_space,
        labels_requested=labels,
        h_hat=h_hat,
        empirical_risk=risks,
        disagreement=tuple(rho),
        beta=beta.enclosure(),
        threshold=tuple(thresholds),
        next_version_space=tuple(kept),
    )
