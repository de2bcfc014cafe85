"""Broken copies of the reference: each mutant is a named textual patch of one file of
the `reference` package, and names the registered check that must catch it.

The copying and patching (a copy under the top-level name broken_<name>, input-type
modules shared with the reference, a snippet that must occur exactly once) is
tests/reference_copies.py, shared with the legitimate variants of tests/legit/variants.py.
`build(mutant, directory)` returns the importable name; the caller puts `directory` on
sys.path and loads it with `properties.impl.load_impl(name)`.

`expect` says how the suite must see the mutant: "violation" (the check's own logic
reports it; a crash or a timeout of the copy does not count), "crash" (the copy raises)
or "timeout" (the copy runs forever and the harness's per-call limit stops it).
`xfail` is None, or why the suite does not catch the mutant yet (a missing check); the
test is then a strict expected failure, so it flips to an error once the check exists.

A choice the paper leaves open (properties/free_choices.py) is never a mutant: ties
broken towards the highest index, for instance, are legitimate variants
(tests/legit/variants.py), which every check must accept.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tests.reference_copies import Patch, build, copy_reference, patched_source

PREFIX = "broken_"
EXPECTS = ("violation", "crash", "timeout")


@dataclass(frozen=True)
class Mutant(Patch):
    prefix: ClassVar[str] = PREFIX
    caught_by: str  # the registered check expected to catch it
    expect: str = "violation"  # one of EXPECTS
    xfail: str | None = None  # "not caught yet: <what is missing>", or None

    def __post_init__(self):
        super().__post_init__()
        if self.expect not in EXPECTS:
            raise ValueError(f"mutant {self.name}: expect must be one of {EXPECTS}, got {self.expect!r}")


__all__ = ["EXPECTS", "MUTANTS", "Mutant", "PREFIX", "build", "copy_reference", "patched_source"]


# -- the mutants ----------------------------------------------------------------------------
MUTANTS: list[Mutant] = [
    # RobustCAL (Algorithm 1) -----------------------------------------------------------------
    Mutant(
        "robust_cal_vanilla_threshold",
        "RobustCAL's modified rule (line 10) uses the vanilla threshold: the rho^/2 term is dropped",
        "robust_cal.py",
        "    return bound if vanilla else bound + Enclosure.point(rho / 2)",
        "    return bound",
        "check_counterexample_vanilla_loses_best",
    ),
    Mutant(
        "robust_cal_threshold_constant_one",
        "RobustCAL's line-10 threshold uses beta_t / t instead of 3 beta_t / (2t) (eliminates too eagerly)",
        "robust_cal.py",
        "    bound = root + beta.scale(Fraction(3, 2 * t))",
        "    bound = root + beta.scale(Fraction(1, t))",
        "check_robust_cal_elimination_recomputed",
    ),
    Mutant(
        "robust_cal_queries_everywhere",
        "RobustCAL queries every label (line 4 ignores Dis(V_t))",
        "robust_cal.py",
        "        if x in dis:  # line 4: query iff x_t in Dis(V_t)",
        "        if True:  # line 4: query iff x_t in Dis(V_t)",
        "check_robust_cal_queries_iff_in_disagreement_region",
    ),
    Mutant(
        "robust_cal_first_checkpoint_at_4",
        "RobustCAL reads 'log t in N' as k >= 2: no update at t = 2 (checkpoints 4, 8, ...)",
        "robust_cal.py",
        "    next_checkpoint = 2\n",
        "    next_checkpoint = 4\n",
        "check_robust_cal_checkpoints_at_powers_of_two",
    ),
    Mutant(
        "robust_cal_flips_even_labels",
        "RobustCAL records 1 - y_t instead of y_t for queried labels of even rounds",
        "robust_cal.py",
        "            queried[x][y] += 1",
        "            queried[x][y if t % 2 else 1 - y] += 1",
        "check_robust_cal_empirical_risks_and_output",
    ),
    Mutant(
        "robust_cal_crash_unseen_point",
        "RobustCAL raises ZeroDivisionError at a checkpoint when some point was never seen",
        "robust_cal.py",
        "    beta = params.robust_cal_beta(t)  # line 9",
        "    beta = params.robust_cal_beta(t * min(seen) // min(seen))  # line 9",
        "check_robust_cal_checkpoints_at_powers_of_two",
        expect="crash",
    ),
    Mutant(
        "robust_cal_hang_small_version_space",
        "RobustCAL loops forever once the version space has at most two hypotheses at a checkpoint "
        "(the next checkpoint is scaled by min(2, |V| - 1))",
        "robust_cal.py",
        "            next_checkpoint *= 2\n",
        "            while next_checkpoint <= t:\n"
        "                next_checkpoint *= min(2, len(version_space) - 1)\n",
        "check_robust_cal_version_space_only_shrinks",
        expect="timeout",
    ),
    # passive ERM (Theorem 3.1) ----------------------------------------------------------------
    Mutant(
        "passive_ignores_labels_at_x0",
        "passive ERM drops the labels of the rounds with x_t = 0 (its empirical risks and, often, its output)",
        "passive.py",
        "        counts[x][y] += 1",
        "        counts[x][y] += x != 0",
        "check_passive_output_is_erm",
    ),
    Mutant(
        "passive_risk_over_n_plus_one",
        "passive ERM reports R^_[1,n](h) as mistakes / (n + 1) (same argmin, wrong empirical risks in the trace)",
        "passive.py",
        "    risks = empirical_risks(H, counts, tape.n, everyone)",
        "    risks = empirical_risks(H, counts, tape.n + 1, everyone)",
        "check_passive_empirical_risks_recomputed",
    ),
    Mutant(
        "passive_flips_labels_at_x0",
        "passive ERM reads 1 - y_t instead of y_t in the rounds with x_t = 0",
        "passive.py",
        "        counts[x][y] += 1",
        "        counts[x][1 - y if x == 0 else y] += 1",
        "check_passive_output_is_erm",
    ),
    # CALruption (Algorithm 2) -----------------------------------------------------------------
    Mutant(
        "calruption_epoch_length_plus_one",
        "CALruption's epochs have |I_l| = ceil(N_l) + 1 rounds (line 1)",
        "calruption.py",
        "    return certified_ceil(params.beta1, 4**l)",
        "    return certified_ceil(params.beta1, 4**l) + 1",
        "check_calruption_epoch_schedule",
    ),
    Mutant(
        "calruption_unfinished_rounds_off_by_one",
        "CALruption reports one round too few in the unfinished last epoch (n - tau_L instead of n - tau_L + 1)",
        "calruption.py",
        "        unfinished_rounds=tape.n - state.tau + 1,",
        "        unfinished_rounds=tape.n - state.tau,",
        "check_calruption_epoch_schedule",
    ),
    Mutant(
        "calruption_no_importance_weight",
        "CALruption's loss estimate drops the importance weight: l^ = 1{h(x) != y} Q instead of ... Q / q",
        "calruption.py",
        "                value = Fraction(int(a != y) - int(b != y)) / q[x]",
        "                value = Fraction(int(a != y) - int(b != y))",
        "check_calruption_catoni_enclosures_certified",
    ),
    Mutant(
        "catoni_negative_branch_sign",
        "Catoni's psi: the negative branch -ln(1 - y + y^2/2) enters the certified f(z) with the wrong sign",
        "catoni.py",
        "            lo -= c * h\n            hi -= c * l\n",
        "            lo += c * l\n            hi += c * h\n",
        "check_calruption_catoni_enclosures_certified",
    ),
    Mutant(
        "calruption_q_without_layer_factor",
        "CALruption's q_{l+1}^x = max rho^_l(h,h') without the 4^(k - l - 1) factor (line 13)",
        "calruption.py",
        "                    best = max(best, rho[h][h2] * Fraction(4**k, 4 ** (l + 1)))",
        "                    best = max(best, rho[h][h2])",
        "check_calruption_query_probabilities_bounded",
    ),
    Mutant(
        "calruption_gap_without_eps_floor",
        "CALruption's Delta^^l_h lacks the max with eps_l (line 11)",
        "calruption.py",
        "    return tuple(max(epsilon(l), r - best_penalised) for r in risk_hat)",
        "    return tuple(r - best_penalised for r in risk_hat)",
        "check_calruption_recomputed_from_trace",
    ),
    Mutant(
        "calruption_drops_beta2_penalty",
        "CALruption drops the beta2 Delta^^{l-1} term: h^*_l (line 10) minimises R_D^(h) alone, and line 11, "
        "which reuses that penalised risk of h^*_l, loses its - beta2 Delta^^{l-1}_{h^*} too",
        "calruption.py",
        "    return [r + beta2 * g for r, g in zip(risk_hat, gap_prev)]",
        "    return list(risk_hat)",
        "check_calruption_recomputed_from_trace",
    ),
    Mutant(
        "calruption_fit_returns_half",
        "CALruption's D^_l (line 9) is eta^ = 1/2 on S_l instead of the LP's solution",
        "calruption.py",
        "    return tuple(solution.x[:k]), solution.objective, solution.method",
        "    return (Fraction(1, 2),) * k, solution.objective, solution.method",
        "check_calruption_fit_is_optimal",
    ),
    Mutant(
        "calruption_hard_eliminates",
        "CALruption's q_{l+1}^x counts only pairs inside the top layer V_{l+1}^l: points where only "
        "other pairs disagree get q = 0 (hard elimination)",
        "calruption.py",
        "                    best = max(best, rho[h][h2] * Fraction(4**k, 4 ** (l + 1)))",
        "                    best = max(best, rho[h][h2] * Fraction(4**k, 4 ** (l + 1)) if k == l else 0)",
        "check_calruption_never_hard_eliminates",
    ),
]

BY_NAME = {m.name: m for m in MUTANTS}
assert len(BY_NAME) == len(MUTANTS), "mutant names must be unique"
