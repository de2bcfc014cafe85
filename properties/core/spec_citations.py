"""Which conventions of docs/spec.md each check enforces, and the one place a failure cites them.

A failing check's first line ends with the spec conventions it enforces, by number and
title ("spec S25: ρ̂_l is divided by |I_l| = ⌈N_l⌉ (line 7)"), so an implementer who has
read only docs/spec.md can follow the message; and an internal id of FINDINGS.md in a
message (R11, F2) is followed by its one-line meaning, and for a reading decision R<n> the
spec conventions that state it. `cite_failure` is applied by the runner when it formats a
failing result; the check functions' own messages stay as they are.

tests/properties/core/test_spec_citations.py keeps the tables honest: every registered check has an entry,
every cited id is an anchor of docs/spec.md with this title, and every FINDINGS id here is a
heading of FINDINGS.md with this meaning."""

from __future__ import annotations

import re

SPEC_PAGE = "docs/spec.md"

# S-id -> the convention's title, as docs/spec.md states it (bold, after the number)
CONVENTIONS: dict[str, str] = {
    "S1": 'Rationals are strings `"p/q"`',
    "S2": "A float where a rational belongs is refused (the number rule)",
    "S3": "Enclosures: lo <= value <= hi",
    "S4": "Unknown fields are ignored, missing ones fail",
    "S5": "Lists: indexed by hypothesis, point or pair; sets sorted",
    "S6": "Points, hypotheses, Dis(V)",
    "S7": "The tape: x_t, y_t and the coin u_t in [0, 1)",
    "S8": "Parameters: the constants come from params",
    "S9": "A trace echoes the request's algorithm and params",
    "S10": "Passive: R̂ over all n labels, output any minimiser",
    "S11": "RobustCAL's checkpoints are t = 2^k, k >= 1 (line 7)",
    "S12": "RobustCAL queries iff x_t ∈ Dis(V_t) (line 4)",
    "S13": "L̂_t counts unqueried rounds as 0 and divides by t (line 8)",
    "S14": "ρ̂_t(h, ĥ_t) runs over all t rounds, queried or not (line 9)",
    "S15": "β_t = beta_scale · ln(3 k |H|^2 / δ) at t = 2^k (line 9)",
    "S16": "The thresholds (line 10), enlarged and vanilla",
    "S17": "Elimination keeps h iff L̂_t(h) - L̂_t(ĥ_t) <= T_t(h), decided exactly (line 10)",
    "S18": "RobustCAL's empirical_risk, disagreement and threshold are null outside V_t",
    "S19": "RobustCAL's output minimises L̂_n over the final version space",
    "S20": "β1, β2, β3 come from params; β3 = coefficient · ln(argument)",
    "S21": "Epoch l has |I_l| = ⌈N_l⌉ = ⌈β1 4^l⌉ rounds",
    "S22": "Q_t = 1 iff u_t < q_l^{x_t} (line 4)",
    "S23": "Epoch counts: seen[x] and queried[x] = [label-0, label-1]",
    "S24": "The support S_l is the seen points; p̂_x = seen[x] / |I_l|",
    "S25": "ρ̂_l is divided by |I_l| = ⌈N_l⌉ (line 7)",
    "S26": "min q is taken over Dis(h, h') ∩ S_l",
    "S27": "The loss-difference samples: ±1/q at queried rounds in Dis(h, h'), else 0 (lines 5 and 8)",
    "S28": "Catoni's α = sqrt(2 β3 min q / (5 |I_l| ρ̂_l)), within relative 2^-62",
    "S29": "W is the root of Catoni's f over the pair's samples (line 8)",
    "S30": "W: an enclosure at most 2^-64 wide, W^{h',h} = -W^{h,h'}, 0 where ρ̂_l = 0",
    "S31": "The weight is sqrt(min q / ρ̂_l), within relative 2^-64 (line 9)",
    "S32": "Line 9's LP runs over ordered pairs with a non-null weight, W at its midpoint",
    "S33": "D̂: any optimum of line 9's LP",
    "S34": "R_D̂(h) = Σ_{x ∈ S_l} p̂_x P_D̂(y != h(x) | x)",
    "S35": "ĥ*_l minimises R_D̂ + β2 Δ̂^{l-1}; any minimiser (line 10)",
    "S36": "Δ̂^l_h = max(ε_l, R_D̂(h) - R_D̂(ĥ*_l) - β2 Δ̂^{l-1}_{ĥ*_l}) (line 11)",
    "S37": "Layers V^i_{l+1} = {h : Δ̂^l_h <= ε_i}, i = 0..l (line 12)",
    "S38": "q_{l+1}^x = max over pairs disagreeing at x of ρ̂_l 4^(min level - l - 1), exactly (line 13)",
    "S39": "The next state (line 14) and calruption_epoch's request",
    "S40": "The epoch record's fields",
    "S41": "The CALruption trace: final_epoch, unfinished_rounds, output, also when no epoch completes",
    "S42": "catoni_root encloses the root of Σ c_i ψ(α (v_i - z)), at most 2^-64 wide",
    "S43": "catoni_root refuses bad input, naming the field",
    "S44": "loss_difference_samples answers each call with S27's grouped samples",
    "S45": "sample_tape's instance, adversary and η_t",
    "S46": "cral-tape-v1, byte for byte",
    "S47": "describe, bad input and errors",
    "S48": "Float programs: derived bounds for every evaluation order; decisions near a tie either way",
    "S49": "Checks that call no mode are statements about the paper",
}

# FINDINGS.md id -> its heading (without the trailing "(where in the paper)")
FINDINGS: dict[str, str] = {
    "F1": 'The choice of α in "Concentration inequality in our case" does not give the stated width',
    "F2": 'Lemma C.1 ("passive learning", Appendix C.1) is false as printed: lines 1 and 2',
    "F3": "Theorem 3.1 needs C_total < n/4, which it does not state",
    "F4": "The direction of an inequality in the counter-example",
    "F5": "The appendix's CALruption lemmas do not hold on the events they name: a sampling event is missing",
    "F6": "The last step of Theorem 5.1's correctness chain",
    "F7": "The union bound of Theorem 4.1's events sums to δ(1 + 1/2 + … + 1/K), not δ",
    "F8": "Theorem 4.1's last display gives accuracy only (5/4)ε at the printed sample size; at n = 2^k the statement holds with ε on its event (F18)",
    "F9": "The label-complexity chain of Theorem 4.1 loses a term and miscounts constants",
    "F10": "The large-corruption branch (2C_l/N_l > 1/16) of the gap lemmas' chains",
    "F11": "The query sums of Theorem 5.1's proof",
    "F12": "The total query bound takes the last epoch's θ\\* for every epoch",
    "F13": "Lemma A.2's proof bounds a pointwise corruption by a change of risk",
    "F14": "Theorem 3.1's quadratic is solved with the constant 5, where (1 + √2)² = 3 + 2√2 is needed",
    "F15": 'Theorem 3.1\'s "This implies" holds only up to constant factors',
    "F16": "Printed lines that are false as printed, whose repaired reading holds",
    "F17": "The estimation lemma's corruption term is exceeded by the corruption itself",
    "F18": "Corrected theorems, end to end: the constants for which each theorem follows from its repaired links",
    "F19": "Theorem 4.1's accuracy fails when n is not a power of two",
    "R1": "The counter-example's labels",
    "R2": "Dis(V)",
    "R3": "RobustCAL's checkpoints and β_t",
    "R4": "RobustCAL's update",
    "R5": "RobustCAL's output",
    "R6": "The vanilla elimination rule",
    "R7": "c_t",
    "R8": "β1: the algorithm box and Theorem 5.1 disagree",
    "R9": "β3's log",
    "R10": "Epoch lengths and the query probabilities",
    "R11": "Zero query probabilities and zero disagreements",
    "R12": "The fit of D̂",
    "R13": "CALruption's output and ties",
    "R14": "Epochs cut by n",
    "R15": "The per-pair confidence of condition",
    "R16": "Zero counts in `catoni_root`",
}

# a reading decision of FINDINGS.md -> the spec conventions that state what it decided
READINGS: dict[str, tuple[str, ...]] = {
    "R1": ("S49",),
    "R2": ("S6", "S12"),
    "R3": ("S11", "S15"),
    "R4": ("S13", "S17"),
    "R5": ("S19",),
    "R6": ("S16",),
    "R7": ("S45",),
    "R8": ("S8", "S20"),
    "R9": ("S8", "S20"),
    "R10": ("S21", "S25", "S38"),
    "R11": ("S26", "S27", "S30", "S31", "S32"),
    "R12": ("S30", "S32", "S33"),
    "R13": ("S35", "S41"),
    "R14": ("S41",),
    "R15": ("S28",),
    "R16": ("S43",),
}

_ROBUST_CAL_ELIMINATION = ("S14", "S15", "S16", "S17", "S18")
_ROBUST_CAL_QUERIES = ("S6", "S12")
_ROBUST_CAL_RISKS = ("S13", "S18", "S19")
_CALRUPTION_LINES = ("S24", "S25", "S26", "S34", "S35", "S36", "S37", "S38")
_CATONI = ("S27", "S28", "S29", "S30")
_FIT = ("S31", "S32", "S33")
_PAPER = ("S49",)

# check name -> the spec conventions it enforces
CHECK_CONVENTIONS: dict[str, tuple[str, ...]] = {
    # passive
    "check_passive_output_is_erm": ("S10",),
    "check_passive_empirical_risks_recomputed": ("S7", "S10"),
    "check_passive_on_erm_ties": ("S10",),
    # RobustCAL, both rules
    "check_robust_cal_elimination_recomputed": _ROBUST_CAL_ELIMINATION,
    "check_robust_cal_vanilla_elimination_recomputed": _ROBUST_CAL_ELIMINATION,
    "check_robust_cal_checkpoints_at_powers_of_two": ("S11",),
    "check_robust_cal_vanilla_checkpoints_at_powers_of_two": ("S11",),
    "check_robust_cal_version_space_only_shrinks": ("S5", "S17"),
    "check_robust_cal_vanilla_version_space_only_shrinks": ("S5", "S17"),
    "check_robust_cal_queries_iff_in_disagreement_region": _ROBUST_CAL_QUERIES,
    "check_robust_cal_vanilla_queries_iff_in_disagreement_region": _ROBUST_CAL_QUERIES,
    "check_robust_cal_empirical_risks_and_output": _ROBUST_CAL_RISKS,
    "check_robust_cal_vanilla_empirical_risks_and_output": _ROBUST_CAL_RISKS,
    "check_robust_cal_on_boundary_streams": ("S11", "S12", "S13", "S19"),
    "check_robust_cal_vanilla_on_boundary_streams": ("S11", "S12", "S13", "S19"),
    "check_robust_cal_elimination_on_boundary_streams": ("S16", "S17"),
    "check_robust_cal_vanilla_elimination_on_boundary_streams": ("S16", "S17"),
    # CALruption, whole runs
    "check_calruption_query_probabilities_bounded": ("S22", "S38"),
    "check_calruption_epoch_schedule": ("S21", "S39", "S41"),
    "check_calruption_recomputed_from_trace": (*_CALRUPTION_LINES, "S41"),
    "check_calruption_catoni_enclosures_certified": _CATONI,
    "check_calruption_fit_is_optimal": _FIT,
    "check_calruption_importance_weights_unbiased": ("S22", "S23", "S27", "S44"),
    "check_calruption_never_hard_eliminates": ("S38",),
    "check_calruption_on_boundary_tapes": ("S21", "S22", "S38", "S41"),
    "check_calruption_recomputed_on_boundary_tapes": (*_CATONI, *_CALRUPTION_LINES),
    # CALruption, one epoch
    "check_calruption_one_epoch_query_probabilities": ("S38", "S39"),
    "check_calruption_one_epoch_recomputed": (*_CALRUPTION_LINES, "S39"),
    "check_calruption_one_epoch_catoni_certified": _CATONI,
    "check_calruption_one_epoch_fit_is_optimal": _FIT,
    "check_calruption_one_epoch_never_hard_eliminates": ("S38",),
    # catoni_root and sample_tape
    "check_catoni_root_certified": ("S3", "S42"),
    "check_catoni_root_invariant_under_reordering_and_splitting": ("S42",),
    "check_catoni_root_rejects_bad_arguments": ("S2", "S43", "S47"),
    "check_sample_tape_matches_cral_tape_v1": ("S45", "S46"),
    "check_sample_tape_law": ("S45", "S46"),
    "check_sample_tape_prefix": ("S46",),
    # conditional and statistical checks: a statement of the paper tested on a mode's runs
    "check_robust_cal_keeps_best_under_theorem_41": (*_PAPER, "S17"),
    "check_passive_learning_lemma_c1": (*_PAPER, "S13"),
    "check_passive_learning_lemma_c1_corrected": (*_PAPER, "S13"),
    "check_passive_bound_theorem_31_on_event": (*_PAPER, "S10"),
    "check_passive_bound_theorem_31": (*_PAPER, "S10"),
    "check_counterexample_vanilla_loses_best": (*_PAPER, "S16", "S17", "S41"),
    "check_robust_cal_accuracy_theorem_41_corrected": (*_PAPER, "S19"),
    "check_calruption_fit_error_on_event": (*_PAPER, "S33", "S34"),
    "check_calruption_estimation_lemma": (*_PAPER, "S33", "S34"),
    "check_calruption_estimation_lemma_corrected": (*_PAPER, "S33", "S34"),
    "check_calruption_gap_bounds_lemma_51": (*_PAPER, "S35", "S36"),
    "check_calruption_gap_bounds_lemma_51_with_sampling_events": (*_PAPER, "S35", "S36"),
    "check_calruption_layer_disagreement_bound": (*_PAPER, "S37"),
    "check_calruption_layer_disagreement_bound_from_lower_bound": (*_PAPER, "S37"),
    "check_calruption_correctness_theorem_51": (*_PAPER, "S41"),
    "check_calruption_correctness_from_lower_bound": (*_PAPER, "S41"),
    "check_calruption_accuracy_theorem_51_corrected": (*_PAPER, "S41"),
    "check_calruption_estimation_lemma_one_epoch": (*_PAPER, "S33", "S34", "S39"),
    "check_calruption_fit_error_one_epoch": (*_PAPER, "S33", "S34", "S39"),
    "check_calruption_estimation_lemma_corrected_one_epoch": (*_PAPER, "S33", "S34", "S39"),
    "check_calruption_gap_bounds_one_epoch": (*_PAPER, "S35", "S36", "S39"),
    "check_calruption_gap_bounds_one_epoch_with_sampling_events": (*_PAPER, "S35", "S36", "S39"),
    "check_catoni_condition_1_frequency": (*_PAPER, "S28", "S29"),
    # statements about the paper alone (they call no mode)
    **{
        name: _PAPER
        for name in (
            "check_corruption_effect_lemma_1",
            "check_corruption_effect_lemma_2",
            "check_disagreement_bounded_by_risks",
            "check_counterexample_instance_values",
            "check_counterexample_corruption_favours_h2",
            "check_theta_star_is_a_supremum",
            "check_calruption_correctness_final_step",
            "check_calruption_correctness_final_step_corrected",
            "check_estimation_lemma_corruption_term",
            "check_estimation_lemma_corruption_term_corrected",
            "check_gap_upper_corruption_term_small_branch",
            "check_gap_upper_corruption_term_large_branch",
            "check_gap_lower_corruption_term_small_branch",
            "check_gap_lower_corruption_term_large_branch",
            "check_gap_upper_line8_corruption_term",
            "check_gap_upper_corruption_bookkeeping",
            "check_gap_lower_corruption_bookkeeping",
            "check_gap_lower_corruption_bookkeeping_corrected",
            "check_corruption_budget_per_epoch",
            "check_catoni_condition_corruption_term",
            "check_lemma_a2_middle_line",
            "check_passive_proof_corruption_terms",
            "check_lemma_c1_corruption_term",
            "check_lemma_c1_corruption_term_corrected",
            "check_robust_cal_proof_corruption_terms",
        )
    },
}

# a field of a result document -> the conventions that define it (the conformance kit's messages)
FIELD_CONVENTIONS: dict[str, tuple[str, ...]] = {
    "params": ("S9",),
    "algorithm": ("S9",),
    "empirical_risk": ("S10", "S13", "S18"),
    "labels_requested": ("S12", "S22", "S41"),
    "output": ("S10", "S19", "S41"),
    "checkpoints": ("S11",),
    "t": ("S11",),
    "version_space": ("S5", "S17"),
    "next_version_space": ("S5", "S17"),
    "h_hat": ("S13",),
    "disagreement": ("S14", "S18"),
    "beta": ("S3", "S15"),
    "threshold": ("S3", "S16", "S18"),
    "final_version_space": ("S19",),
    "final_empirical_risk": ("S19",),
    "epochs": ("S41",),
    "final_epoch": ("S41",),
    "unfinished_rounds": ("S41",),
    "l": ("S21", "S39"),
    "tau": ("S21", "S39"),
    "length": ("S21", "S39"),
    "N": ("S3", "S21"),
    "q": ("S22",),
    "support": ("S5", "S24"),
    "empirical_x": ("S24",),
    "rho": ("S25",),
    "min_q": ("S26",),
    "alpha": ("S28",),
    "W": ("S30",),
    "weight": ("S31",),
    "eta_hat": ("S33",),
    "lp_objective": ("S32", "S33"),
    "risk_hat": ("S34",),
    "h_star_hat": ("S35",),
    "gap_hat": ("S36", "S39"),
    "layers": ("S37",),
    "next_q": ("S38",),
    "record": ("S40",),
    "state": ("S39",),
    "lo": ("S3",),
    "hi": ("S3",),
    "results": ("S44",),
    "values": ("S27", "S44"),
    "counts": ("S27", "S44"),
    "x": ("S46",),
    "y": ("S46",),
    "u": ("S46",),
}


def cite_field(where: str) -> str:
    """ " [spec S25: ...]" for the last field a cross-check location names ("epoch 2 rho[0][1]"),
    or "" when it names none the table knows."""
    names = [name for name in re.findall(r"[A-Za-z_]\w*", where) if name in FIELD_CONVENTIONS]
    return f" [{cite(FIELD_CONVENTIONS[names[-1]])}]" if names else ""


def conventions_at(path) -> tuple[str, ...]:
    """The conventions of the innermost named field of a JSON path (keys and indices)."""
    for part in reversed(tuple(path)):
        if isinstance(part, str) and part in FIELD_CONVENTIONS:
            return FIELD_CONVENTIONS[part]
    return ()


FLOAT_CONVENTION = "S48"  # cited too when the candidate declares a floating-point arithmetic
# an internal id as a word of its own: R11, F2 (not R_D, F(z), x_R1 or a hex digest)
_INTERNAL_ID = re.compile(r"(?<![\w/^_{.])([RF])(\d{1,2})(?![\w/])")


def cite(ids) -> str:
    """ "spec S25: <title>; S26: <title>" for the given convention ids (docs/spec.md#S25 ...)."""
    return "spec " + "; ".join(f"{i}: {CONVENTIONS[i]}" for i in ids)


def conventions_of(check: str, arithmetic: str = "exact") -> tuple[str, ...]:
    """The conventions a failure of `check` cites (S48 added for a float candidate of a check
    that calls a mode)."""
    ids = CHECK_CONVENTIONS.get(check, ())
    if arithmetic != "exact" and ids and ids != _PAPER and FLOAT_CONVENTION not in ids:
        ids = (*ids, FLOAT_CONVENTION)
    return ids


def explain_ids(text: str) -> str:
    """`text` with the first mention of each FINDINGS id followed by its meaning:
    "R11" -> "R11 (FINDINGS: Zero query probabilities and zero disagreements; spec S26, ...)"."""
    seen: set[str] = set()

    def expand(match: re.Match) -> str:
        key = match.group(1) + match.group(2)
        if key in seen or key not in FINDINGS:
            return match.group(0)
        seen.add(key)
        where = f"; spec {', '.join(READINGS[key])}" if key in READINGS else ""
        return f"{key} (FINDINGS: {FINDINGS[key]}{where})"

    return _INTERNAL_ID.sub(expand, text)


def cite_failure(check: str, lines: list[str], arithmetic: str = "exact", *, conventions: bool = True) -> list[str]:
    """A failing result's lines as a report shows them: internal ids explained, and (unless
    `conventions` is false: the candidate failed as a program, by a crash, a hang or a
    malformed result) the first line followed by the spec conventions the check enforces."""
    shown = [explain_ids(line) for line in lines]
    ids = conventions_of(check, arithmetic) if conventions else ()
    if shown and ids:
        shown[0] = f"{shown[0]} [{cite(ids)}]"
    return shown


__all__ = [
    "CHECK_CONVENTIONS",
    "CONVENTIONS",
    "FIELD_CONVENTIONS",
    "FINDINGS",
    "READINGS",
    "SPEC_PAGE",
    "cite",
    "cite_failure",
    "cite_field",
    "conventions_at",
    "conventions_of",
    "explain_ids",
]
