"""Hypothesis strategies for the suite, valid by construction (no filtering), and the
generated-example types and fixed experiments they produce, split by what they generate:
instances, adversaries and parameters (instances); whole-run cases of RobustCAL,
CALruption and the lemmas (cases); one-epoch states (one_epoch); corruption-population
cases (population); fixed experiments (experiments); the findings' counterexamples
(findings); the cross-check's fixed case sets (crosscheck); tapes for the sampler
(sampler); Catoni problems (catoni); boundary tapes (boundary); the cases that reach a
class of bug the draws reach rarely (targeted). This package re-exports
every public name, so `properties.strategies.X` names any of them.

May import `reference` and `properties.core` only: check modules import strategies,
never the other way round.

Sizes are bounded (points <= 6, hypotheses <= 8, rounds <= MAX_ROUNDS) and every
rational has a bounded denominator, so examples are small and shrink well. Every
`draw` carries a label, so a failing example reads as a list of named choices."""

from __future__ import annotations

from properties.strategies.boundary import (
    BOUNDARY_BETA1_CHOICES,
    BOUNDARY_BETA_SCALES,
    BOUNDARY_MAX_ROUNDS,
    MAX_CHECKPOINT_EXPONENT,
    SIMPLE_COINS,
    allowed_labels,
    calruption_boundary_cases,
    checkpoint_boundary_cases,
    checkpoint_rounds,
    erm_tie_cases,
    spread_instances,
    update_boundary_cases,
)
from properties.strategies.cases import (
    ALL_INTERVALS_MAX_N,
    MAX_LEMMA_ROUNDS,
    THEOREM41_KINDS,
    CraftedCase,
    any_regime_cases,
    balanced_coins,
    burst_then_clean_cases,
    calruption_cases,
    cases,
    crafted_case,
    crafted_tape_cases,
    lemma_c1_cases,
    lemma_cases,
    paper_premise_cases,
    premise_regime_cases,
    scaled_regime_cases,
    sharp_lemma_c1_case,
    sharp_lemma_c1_cases,
    theorem41_cases,
)
from properties.strategies.catoni import (
    CATONI_EXPONENT,
    CATONI_KINDS,
    CATONI_MAX_COUNT,
    CATONI_MAX_ENTRIES,
    CatoniProblem,
    catoni_problems,
)
from properties.strategies.crosscheck import (
    CROSSCHECK_BETA1_CHOICES,
    CROSSCHECK_MAX_ROUNDS,
    CROSSCHECK_SEED,
    LARGE_CROSSCHECK_HYPOTHESES,
    LARGE_CROSSCHECK_SEED,
    crosscheck_case_stream,
    fixed_crosscheck_cases,
    fixed_large_crosscheck_cases,
    large_crosscheck_case_stream,
)
from properties.strategies.experiments import (
    CATONI_EXPERIMENT,
    PASSIVE_EXPERIMENT,
    QUICK_CATONI_EXPERIMENT,
    QUICK_PASSIVE_EXPERIMENT,
    QUICK_VANILLA_EXPERIMENT,
    VANILLA_EXPERIMENT,
    CatoniFrequencyExperiment,
    PassiveExperiment,
    PassiveSetting,
    VanillaExperiment,
)
from properties.strategies.findings import (
    _population_case,
    finding_f2_lemma_c1_case,
    finding_f2_lemma_c1_population_case,
    finding_f5_estimation_lemma_case,
    finding_f5_estimation_lemma_one_epoch_case,
    finding_f5_gap_bounds_one_epoch_case,
    finding_f5_lemma_51_case,
    finding_f6_final_step_case,
    finding_f10_lower_bookkeeping_case,
    finding_f10_lower_large_case,
    finding_f10_upper_line8_case,
    finding_f13_a2_middle_case,
    finding_f17_estimation_term_case,
    finding_f17_gap_upper_small_case,
)

# ruff: noqa: F401 -- the package re-exports its modules' public names
from properties.strategies.instances import (
    ADVERSARY_KINDS,
    BETA1_CHOICES,
    BETA2_CHOICES,
    BETA3_CHOICES,
    CALRUPTION_ADVERSARY_KINDS,
    COROLLARY51_KINDS,
    COROLLARY51_RATE,
    DELTA_CHOICES,
    FRACTIONAL_BETA1_CHOICES,
    FULL_RUN_BETA1_CHOICES,
    MAX_DENOMINATOR,
    MAX_HYPOTHESES,
    MAX_POINTS,
    MAX_ROUNDS,
    SPECIAL_ETAS,
    adversaries_for,
    aligned_adversaries,
    aligned_target,
    beta1_of,
    calruption_params,
    deterministic_adversaries,
    distributions,
    edge_adversaries,
    epoch_blocks,
    epoch_schedule,
    hypothesis_classes,
    instances,
    low_noise_instances,
    params_for,
    premise_params,
    probabilities,
    rational_epoch_length,
    rich_instances,
    room,
)
from properties.strategies.one_epoch import (
    GAP_BOUND_MODES,
    MAX_EPOCH_INDEX,
    MAX_ONE_EPOCH,
    EpochExample,
    OneEpochCase,
    epoch_examples,
    line13_q,
    one_epoch_cases,
)
from properties.strategies.population import (
    CORRUPTION_LEVELS,
    MAX_POPULATION_EPOCHS,
    MAX_POPULATION_HYPOTHESES,
    POPULATION_BETA1,
    POPULATION_EDGE_ETAS,
    POPULATION_INTERIOR_ETAS,
    CounterexampleSetting,
    PopulationCase,
    ThetaExample,
    counterexample_settings,
    disagreement_points,
    epoch_corruption,
    noisy_instances,
    population_cases,
    population_etas,
    theta_examples,
)
from properties.strategies.sampler import (
    BLOCK_EDGE_ROUNDS,
    SAMPLER_LAW_EXPERIMENT,
    SAMPLER_MAX_ROUNDS,
    SEED_EDGES,
    SamplerCase,
    SamplerLawExperiment,
    SamplerLawSetting,
    SamplerPrefixCase,
    prefix_adversary,
    sampler_cases,
    sampler_prefix_cases,
    sampler_rounds,
    sampler_seeds,
)
from properties.strategies.targeted import (
    calruption_second_epoch_case,
    robust_cal_argmin_outside_version_space_case,
)
