"""Broken copies of the reference: each mutant is a named textual patch of one file of
the `reference` package, and names the registered check that must catch it.

The copying and patching (a copy under the top-level name broken_<name>, input-type
modules shared with the reference, a snippet that must occur exactly once) is
teeth/reference_copies.py, shared with the legitimate variants of teeth/legit/variants.py.
`build(mutant, directory)` returns the importable name; the caller puts `directory` on
sys.path and loads it with `properties.judge.load.load_impl(name)`.

`expect` says how the suite must see the mutant: "violation" (the check's own logic
reports it; a crash or a timeout of the copy does not count), "crash" (the copy raises)
or "timeout" (the copy runs forever and the harness's per-call limit stops it).
`xfail` is None, or why the suite does not catch the mutant yet (a missing check); the
test is then a strict expected failure, so it flips to an error once the check exists.

A choice the paper leaves open (properties/checks/free_choices.py) is never a mutant: ties
broken towards the highest index, for instance, are legitimate variants
(teeth/legit/variants.py), which every check must accept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from teeth.reference_copies import Patch, build, copy_reference, patched_source

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
        "robust_cal_threshold_rho_quarter",
        "RobustCAL's modified rule (line 10) adds rho^/4 instead of rho^/2 (keeps too much)",
        "robust_cal.py",
        "    return bound if vanilla else bound + Enclosure.point(rho / 2)",
        "    return bound if vanilla else bound + Enclosure.point(rho / 4)",
        "check_robust_cal_elimination_recomputed",
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
        "            while next_checkpoint <= t:\n                next_checkpoint *= min(2, len(version_space) - 1)\n",
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
        "pair_counts.py",  # the epoch's loss differences +-1/q come from here (loss_difference_samples states them)
        "        return tuple(None if v == 0 else 1 / v for v in self.groups)",
        "        return tuple(None if v == 0 else Fraction(1) for v in self.groups)",
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
        "        value = Fraction(key, common * 4 ** (l + 1))",
        "        value = Fraction(key, common * 4 ** (l + 1)) * 4 ** (l + 1 - min(level[h], level[h2]))",
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
        "    positive = [(h, h2) for h in range(num_h) for h2 in range(h + 1, num_h) if rho[h][h2] > 0]",
        "    positive = [(h, h2) for h in range(num_h) for h2 in range(h + 1, num_h) if rho[h][h2] > 0\n"
        "                and min(level[h], level[h2]) == l]",
        "check_calruption_never_hard_eliminates",
    ),
    # tape samplers (the optional public name sample_tape; reference/tape.py is shared, so
    # these patch the copy's __init__.py to wrap the reference's sampler; the clean adversary
    # is built with type(adv), the reference's class the shared sampler accepts) ------------
    Mutant(
        "sampler_ignores_adversary",
        "sample_tape draws every label from eta* (a clean adversary) instead of eta_t, and its tape "
        "still claims generator cral-tape-v1",
        "__init__.py",
        "from .tape import Tape, sample_tape\n",
        "from .tape import Tape\n"
        "from .tape import sample_tape as _exact_sample_tape\n\n\n"
        "def sample_tape(instance, adv, seed):\n"
        "    return _exact_sample_tape(instance, type(adv)(adv.n, [{'start': 1, 'end': adv.n}]), seed)\n",
        "check_sample_tape_matches_cral_tape_v1",
    ),
    Mutant(
        "sampler_ignores_adversary_unclaimed",
        "sample_tape draws every label from eta* instead of eta_t, and its tape claims no generator "
        "(so only the law can catch it)",
        "__init__.py",
        "from .tape import Tape, sample_tape\n",
        "from .tape import Tape\n"
        "from .tape import sample_tape as _exact_sample_tape\n\n\n"
        "def sample_tape(instance, adv, seed):\n"
        "    tape = _exact_sample_tape(instance, type(adv)(adv.n, [{'start': 1, 'end': adv.n}]), seed)\n"
        "    return Tape._trusted(tape.x, tape.y, tape.u, tape.seed, None)\n",
        "check_sample_tape_law",
    ),
    Mutant(
        "sampler_reseeds_by_n",
        "sample_tape hashes the seed with n (an exact cral-tape-v1 tape of seed + n, under a generator "
        "name of its own): the law holds, but a tape is no longer the prefix of a longer one",
        "__init__.py",
        "from .tape import Tape, sample_tape\n",
        "from .tape import Tape\n"
        "from .tape import sample_tape as _exact_sample_tape\n\n\n"
        "def sample_tape(instance, adv, seed):\n"
        "    tape = _exact_sample_tape(instance, adv, (seed + adv.n) % 2**64)\n"
        "    return Tape._trusted(tape.x, tape.y, tape.u, seed, 'cral-tape-v1-reseeded-by-n')\n",
        "check_sample_tape_prefix",
    ),
    # catoni_root called directly (properties/checks/catoni.py) ---------------------------------
    Mutant(
        "catoni_root_brackets_by_first_and_last_entry",
        "catoni_root assumes sorted input: it starts its bracket at the first and last entries of values "
        "instead of the data's minimum and maximum (the algorithms always pass sorted data)",
        "catoni.py",
        "    an, ad = vmin.numerator * GN, vmin.denominator * GD  # a = vmin, b = vmax: f(a) > 0 > f(b),\n"
        "    bn, bd = vmax.numerator * GN, vmax.denominator * GD  # as the data are not constant\n",
        '    a, b = sorted((as_fraction(values[0], "values[0]"), as_fraction(values[-1], "values[-1]")))\n'
        "    an, ad = a.numerator * GN, a.denominator * GD\n"
        "    bn, bd = b.numerator * GN, b.denominator * GD\n",
        "check_catoni_root_certified",
    ),
    Mutant(
        "catoni_root_groups_unsorted",
        "catoni_root's grouping keeps the input order, so vmin and vmax are the first and last distinct values: "
        "on unsorted data a reversed bracket (lo > hi), which the simplest-rational search refuses",
        "catoni.py",
        "    return [(v, c) for v, c in sorted(merged.values(), key=lambda entry: entry[0])]",
        "    return [(v, c) for v, c in merged.values()]",
        "check_catoni_root_certified",
        expect="crash",
    ),
    # boundary tapes (properties/strategies/, "boundary tapes"): caught only on tapes whose
    # coins sit exactly on q, or whose checkpoint rounds leave Dis(V) -------------------------
    Mutant(
        "calruption_queries_at_coin_equal_q",
        "CALruption queries when u_t <= q_l^{x_t} (a coin exactly on q counts as a query; line 4 and DESIGN "
        "say Q_t = 1 iff u_t < q), where q > 0",
        "calruption.py",
        "        if u < state.q[x]:  # line 4: Q_t ~ Ber(q_l^x) through the tape's coin",
        "        if u <= state.q[x] and state.q[x] > 0:  # line 4 with <=",
        "check_calruption_on_boundary_tapes",
    ),
    Mutant(
        "calruption_coin_against_float_q",
        "CALruption decides Q_t by u_t < float(q_l^{x_t}): q rounded to the nearest double, so a coin "
        "exactly on a non-dyadic q is a query whenever the double rounds q up",
        "calruption.py",
        "        if u < state.q[x]:  # line 4: Q_t ~ Ber(q_l^x) through the tape's coin",
        "        if u < float(state.q[x]):  # line 4 against a float q",
        "check_calruption_on_boundary_tapes",
    ),
    Mutant(
        "robust_cal_checkpoint_round_queried_with_next_version_space",
        "RobustCAL applies the update of checkpoint t = 2^k before round t's query: the checkpoint's own "
        "record is line 4-10's, but round t is queried (and enters later L^) iff x_t is in Dis(V_{t+1})",
        "robust_cal.py",
        "        if x in dis:  # line 4: query iff x_t in Dis(V_t)\n"
        "            queried[x][y] += 1\n"
        "            labels += 1\n"
        "        if t == next_checkpoint:  # line 7: log t in N\n"
        "            checkpoint = checkpoint_update(H, version_space, seen, queried, labels, t, params, vanilla)\n",
        "        if t == next_checkpoint:  # line 7, applied before round t's query is recorded\n"
        "            asked = x in dis\n"
        "            queried[x][y] += asked\n"
        "            checkpoint = checkpoint_update(H, version_space, seen, queried, labels + asked, t, params, vanilla)\n"
        "            queried[x][y] -= asked\n"
        "            dis = disagreement_region(H, checkpoint.next_version_space)\n"
        "        if x in dis:  # line 4 with V_{t+1} at t = 2^k\n"
        "            queried[x][y] += 1\n"
        "            labels += 1\n"
        "        if t == next_checkpoint:\n",
        "check_robust_cal_on_boundary_streams",
    ),
    Mutant(
        "robust_cal_version_space_one_round_late",
        "RobustCAL's V_{t+1} takes effect one round late: round t + 1 after a checkpoint t = 2^k is "
        "queried iff x_{t+1} is in Dis(V_t)",
        "robust_cal.py",
        "        if t == next_checkpoint:  # line 7: log t in N\n"
        "            checkpoint = checkpoint_update(H, version_space, seen, queried, labels, t, params, vanilla)\n"
        "            checkpoints.append(checkpoint)\n"
        "            version_space = checkpoint.next_version_space\n"
        "            dis = disagreement_region(H, version_space)\n",
        "        dis = disagreement_region(H, version_space)  # the V of the previous round\n"
        "        if t == next_checkpoint:  # line 7: log t in N\n"
        "            checkpoint = checkpoint_update(H, version_space, seen, queried, labels, t, params, vanilla)\n"
        "            checkpoints.append(checkpoint)\n"
        "            version_space = checkpoint.next_version_space\n",
        "check_robust_cal_on_boundary_streams",
    ),
    Mutant(
        "robust_cal_no_update_at_last_round",
        "RobustCAL skips the checkpoint t = n when n is a power of two (the update loop stops before the "
        "last round): one checkpoint, V_{n+1} and the output's version space missing",
        "robust_cal.py",
        "        if t == next_checkpoint:  # line 7: log t in N\n",
        "        if t == next_checkpoint and t < tape.n:  # line 7, but not at the last round\n",
        "check_robust_cal_on_boundary_streams",
    ),
]

# A candidate's fault inside a check: this copy reports an update at t = 3 (not a
# power of two) and computes its beta_3 without complaint; the check that recomputes line
# 9 from the trace asks Params.robust_cal_beta(3), which refuses t = 3 -- a crash of the
# check's recomputation, which must be that check's failing result, not the end of the run.
MUTANTS.append(
    Mutant(
        "robust_cal_update_at_round_3",
        "RobustCAL also updates at t = 3 (line 7: log t in N), with beta_t taken at the power of two below t",
        "robust_cal.py",
        ("            next_checkpoint *= 2", "    beta = params.robust_cal_beta(t)  # line 9"),
        (
            "            next_checkpoint = 3 if next_checkpoint == 2 else 2 ** next_checkpoint.bit_length()",
            "    beta = params.robust_cal_beta(1 << (t.bit_length() - 1))  # line 9",
        ),
        "check_robust_cal_checkpoints_at_powers_of_two",
    )
)

# The vanilla rule with a wrong threshold (Appendix C.2's vanilla Robust CAL): the trace checks must run
# on the vanilla rule as well as the modified one, or a broken vanilla form passes every check.
# It still loses h* in the appendix's counter-example, so check_counterexample_vanilla_
# loses_best cannot tell (tests/teeth/test_broken_caught.py shows it passes there).
MUTANTS.append(
    Mutant(
        "robust_cal_vanilla_threshold_constant_half",
        "vanilla RobustCAL's threshold (FINDINGS R6) uses beta_t / (2t) instead of 3 beta_t / (2t)",
        "robust_cal.py",
        "    bound = root + beta.scale(Fraction(3, 2 * t))",
        "    bound = root + beta.scale(Fraction(1 if vanilla else 3, 2 * t))",
        "check_robust_cal_vanilla_elimination_recomputed",
    )
)

# The bug classes of an outside implementation judged through serve mode: each shows only
# on a run that reaches it (a global argmin of L^_t outside V_t: an elimination before,
# and an eliminated hypothesis whose queried-round risk is then the lowest; a q that
# changes at an epoch's start, and a coin of that first round between the two q's).
MUTANTS.append(
    Mutant(
        "robust_cal_h_hat_over_all_hypotheses",
        "RobustCAL's h^_t (line 8) is the argmin of L^_t over all of H instead of V_t, and line 10 compares "
        "with that hypothesis",
        "robust_cal.py",
        (
            "    if h_hat is None:\n        h_hat = argmin_lowest_index(risks, version_space)\n",
            "            risks[h] - risks[h_hat],",
        ),
        (
            "    everyone = range(len(H))\n"
            "    all_risks = empirical_risks(H, queried, t, everyone)\n"
            "    if h_hat is None:\n        h_hat = argmin_lowest_index(all_risks, everyone)  # over H, not V_t\n",
            "            risks[h] - all_risks[h_hat],",
        ),
        "check_robust_cal_empirical_risks_and_output",
    )
)
MUTANTS.append(
    Mutant(
        "calruption_stale_q_at_epoch_start",
        "CALruption's coin (line 4) uses the q of the round before: the first round of epoch l + 1 >= 2 is "
        "queried iff u_t < q_l^{x_t}, the previous epoch's q, instead of q_{l+1}^{x_t}",
        "calruption.py",
        (
            "    epoch_end = state.tau + state.length - 1\n    for t, (x, y, u)",
            "        if u < state.q[x]:  # line 4: Q_t ~ Ber(q_l^x) through the tape's coin\n"
            "            queried[x][y] += 1\n            labels += 1\n",
        ),
        (
            "    epoch_end = state.tau + state.length - 1\n    coin_q = state.q\n    for t, (x, y, u)",
            "        if u < coin_q[x]:  # line 4 against the q of round t - 1\n"
            "            queried[x][y] += 1\n            labels += 1\n        coin_q = state.q\n",
        ),
        "check_calruption_importance_weights_unbiased",
    )
)

BY_NAME = {m.name: m for m in MUTANTS}
assert len(BY_NAME) == len(MUTANTS), "mutant names must be unique"
