"""Targeted examples: fixed cases that reach a class of bug the generated draws reach
rarely, run explicitly (before the generated ones) by the checks that would see it
(properties/checks/registry.py, TARGETED_EXAMPLES), under every seed.

Each was found by searching the check's own strategy for a case on which a broken copy of
that class (teeth/broken/mutants.py) differs from the reference, then shrunk; so each is
of its check's type and within its strategy's bounds, and
tests/teeth/test_broken_caught_default_seed.py shows the copy is caught on it and the reference passes."""

from __future__ import annotations

from properties.core.case import Case

# Algorithm 1, line 8: h^_t = argmin_{h in V_t} L^_t(h). A copy taking the argmin over all
# of H differs only where an eliminated hypothesis has the lowest L^_t, which needs an
# elimination first and then an eliminated h that collects fewer mistakes on the queried
# rounds than every member: a search of `cases()` (25 draws a run under the default seed)
# first reached one at its 2270th draw.
_ARGMIN_OUTSIDE_V = {
    "instance": {
        "nu": ["0/1", "2/9", "1/3", "2/9", "2/9"],
        "eta": ["0/1", "1/2", "0/1", "1/2", "0/1"],
        "hypotheses": [[0, 0, 0, 0, 1], [0, 0, 0, 1, 1], [0, 1, 0, 0, 1]],
    },
    "adversary": {"n": 64, "segments": [{"start": 1, "end": 64, "gamma": "0/1", "target": None}]},
    "seed": 50,
    "params": {
        "regime": "scaled",
        "n": 64,
        "num_hypotheses": 3,
        "delta": "1/3",
        "beta_scale": "1/16",
        "beta1": {"value": "1/1"},
        "beta2": "5/32",
        "beta3": {"coefficient": "2/1", "argument": "243/1"},
    },
}


def robust_cal_argmin_outside_version_space_case() -> Case:
    """RobustCAL with the global argmin of L^_t outside V_t: H = {00001, 00011, 01001} on 5
    points (x0 of mass 0), 64 clean rounds, tape seed 50, scaled constants (beta_scale
    1/16, delta 1/3). The modified rule eliminates h0 at t = 16 (the vanilla one at t = 4);
    afterwards only x1 and x3 (where h1 and h2 differ) are queried, and h0, which agrees
    with h1 at x1 and with h2 at x3, makes neither's mistakes there: at t = 64, L^_64(h0) <
    L^_64(h1) = 7/32, the lowest over V_64 = {h1, h2}."""
    return Case.from_json(_ARGMIN_OUTSIDE_V)


# Algorithm 2 past epoch 1: line 4's coin with the epoch's own q, and line 10's penalty
# beta2 Delta^^{l-1}. A copy whose coin lags one round (epoch l's q at the first round of
# epoch l + 1) differs only where that round's coin lies between the two q's; one that
# drops the penalty, only where it changes h^*_l (Delta^^0 = 0 hides it in epoch 1).
_SECOND_EPOCH = {
    "instance": {"nu": ["1/1"], "eta": ["0/1"], "hypotheses": [[1], [0]]},
    "adversary": {"n": 20, "segments": [{"start": 1, "end": 20, "gamma": "0/1", "target": None}]},
    "seed": 0,
    "params": {
        "regime": "scaled",
        "n": 20,
        "num_hypotheses": 2,
        "delta": "1/20",
        "beta_scale": "1/4",
        "beta1": {"value": "1/1"},
        "beta2": "5/32",
        "beta3": {"coefficient": "2/1", "argument": "480/1"},
    },
}


def calruption_second_epoch_case() -> Case:
    """CALruption where epoch 2's first coin and line 10's penalty both decide something:
    one point, H = {1, 0}, eta* = 0, 20 clean rounds, tape seed 0, scaled constants (beta1
    = 1). Epoch 1 is rounds 1-4 with q_1 = 1; q_2 = 1/16, and round 5, epoch 2's first,
    has u_5 = 0.88...: not a query under q_2, a query under a stale q_1 = 1. In epoch 2 the
    penalised risks R_D^(h) + beta2 Delta^^1_h are 21/32 and 37/64, so h^*_2 = 1, while
    R_D^ alone would pick 0."""
    return Case.from_json(_SECOND_EPOCH)


__all__ = ["calruption_second_epoch_case", "robust_cal_argmin_outside_version_space_case"]
