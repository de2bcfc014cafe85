"""Every check of the suite, registered in this one place, with its expected failures.

A `Check` pairs a plain check function with the strategy that generates its examples
and the way it runs the implementation. The check modules each list their checks in
a `CHECKS` tuple; this module collects them. Expected failures (statements of the
paper that are false, see FINDINGS.md) are listed in `EXPECTED_FAILURES` with their
reason, never silenced inside a check; each of them has its finding's counterexample in
`KNOWN_EXAMPLES`, run first (an explicit example) so the failure is found in every profile."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, replace

from hypothesis.strategies import SearchStrategy

from properties import strategies as S
from properties.checks.judgement import judging
from properties.core.candidate import as_candidate, run_algorithm
from properties.core.contract import MODES
from properties.core.violation import Violation
from reference.report_vocabulary import CHECK_KINDS as KINDS


@dataclass(frozen=True)
class Check:
    name: str  # check_<what>
    cites: str  # where in the paper
    kind: str  # one of KINDS
    strategy: SearchStrategy  # examples
    execute: Callable  # (impl, example) -> list[Violation]
    description: str = ""
    # the modes of properties.core.contract.MODES the check calls; () for a statement about the
    # paper that calls no implementation
    covers: tuple[str, ...] = ()
    # `check --quick`'s examples when they differ from `strategy`'s: a fixed experiment on
    # fewer seeds (properties/strategies/experiments.py)
    quick_strategy: SearchStrategy | None = None


def trace_check(function, cites: str, kind: str, algorithm: str, strategy, name: str | None = None) -> Check:
    """A check of one mode's trace on a generated Case: run, then inspect. `name`
    registers the same function for another mode under its own name."""
    name = name or function.__name__

    def execute(impl, case):
        trace = run_algorithm(name, impl, algorithm, case)
        with judging(_arithmetic(impl)):
            found = function(case, trace)
        return [replace(v, check=name) if v.check != name else v for v in found]

    return Check(name, cites, kind, strategy, execute, (function.__doc__ or "").strip(), (algorithm,))


def _arithmetic(impl) -> str:
    """The arithmetic the candidate declares ("exact" for a check that runs none)."""
    return "exact" if impl is None else as_candidate(impl).arithmetic


def _judged(function):
    """function(impl, example) run under the candidate's declared arithmetic
    (properties/checks/judgement.py), so its comparisons judge floats by derived bounds."""

    def execute(impl, example):
        with judging(_arithmetic(impl)):
            return function(impl, example)

    execute.__wrapped__ = function
    return execute


def case_check(function, cites: str, kind: str, strategy) -> Check:
    """A check of the instance and adversary themselves (no implementation involved)."""
    return Check(
        function.__name__, cites, kind, strategy, lambda impl, case: function(case), (function.__doc__ or "").strip()
    )


def custom_check(function, cites: str, kind: str, strategy, *, covers: tuple[str, ...], quick=None) -> Check:
    """function(impl, example) -> list[Violation], for checks that call the
    implementation in their own way (one epoch, Catoni, several algorithms); `covers`
    names the modes it calls; `quick`, the strategy of `check --quick` if not `strategy`."""
    return Check(
        function.__name__, cites, kind, strategy, _judged(function), (function.__doc__ or "").strip(), covers, quick
    )


# check name -> reason (a FINDINGS.md entry): the check fails on the reference because the
# paper's statement is false, not because of a bug.
EXPECTED_FAILURES: dict[str, str] = {
    "check_passive_learning_lemma_c1": "FINDINGS F2: Lemma C.1's lines 1-2 are false (corruption term R*/2 too small)",
    "check_calruption_estimation_lemma": "FINDINGS F5: the estimation lemma needs a sampling event E_gap lacks",
    "check_calruption_estimation_lemma_one_epoch": "FINDINGS F5: the estimation lemma needs a sampling event E_gap lacks",
    "check_calruption_gap_bounds_lemma_51": "FINDINGS F5: Lemma 5.1 fails on E_gap, E_dis1, E_dis2 without a sampling event",
    "check_calruption_gap_bounds_one_epoch": "FINDINGS F5: Lemma 5.1's induction step fails on its events",
    "check_calruption_layer_disagreement_bound": "FINDINGS F5: Lemma 5.2 fails on the events it names",
    "check_calruption_correctness_theorem_51": "FINDINGS F5: Theorem 5.1's correctness chain fails on the events it names",
    "check_calruption_correctness_final_step": "FINDINGS F6: 24 C/n is too small in the chain's last step (64 C/n holds)",
    "check_estimation_lemma_corruption_term": "FINDINGS F17: the estimation lemma's corruption term is half of Lemma A.2's, exceeded at population level",
    "check_gap_upper_corruption_term_small_branch": "FINDINGS F17: the upper gap lemma's small branch inherits the estimation lemma's halved corruption term",
    "check_gap_lower_corruption_term_large_branch": "FINDINGS F10: the lower gap lemma's large-branch Corruption Term C_l/N_l is too small (2 c rho* holds)",
    "check_gap_upper_line8_corruption_term": "FINDINGS F10: line 8 replaces the Corruption Term by its small branch 4R* C_l/N_l",
    "check_gap_lower_corruption_bookkeeping": "FINDINGS F10: line 6's extra 4R* C_l/N_l exceeds (18/8) g_l in the large branch when R* > 7/8",
    "check_lemma_c1_corruption_term": "FINDINGS F2: Lemma C.1's lines 1-2 are false (corruption term R*/2 too small)",
    "check_lemma_a2_middle_line": "FINDINGS F13: Lemma A.2's middle line bounds a pointwise corruption by a change of risk",
}


# check name -> builders of examples that run before the generated ones (Hypothesis's
# @example), in every profile: each expected failure's minimal counterexample from its
# FINDINGS.md entry (built when the check runs, not at import), of its strategy's type.
KNOWN_EXAMPLES: dict[str, tuple[Callable[[], object], ...]] = {
    "check_passive_learning_lemma_c1": (S.finding_f2_lemma_c1_case,),
    "check_calruption_estimation_lemma": (S.finding_f5_estimation_lemma_case,),
    "check_calruption_estimation_lemma_one_epoch": (S.finding_f5_estimation_lemma_one_epoch_case,),
    "check_calruption_gap_bounds_lemma_51": (S.finding_f5_lemma_51_case,),
    "check_calruption_gap_bounds_one_epoch": (S.finding_f5_gap_bounds_one_epoch_case,),
    "check_calruption_layer_disagreement_bound": (S.finding_f5_lemma_51_case,),
    "check_calruption_correctness_theorem_51": (S.finding_f5_lemma_51_case,),
    "check_calruption_correctness_final_step": (S.finding_f6_final_step_case,),
    "check_estimation_lemma_corruption_term": (S.finding_f17_estimation_term_case,),
    "check_gap_upper_corruption_term_small_branch": (S.finding_f17_gap_upper_small_case,),
    "check_gap_lower_corruption_term_large_branch": (S.finding_f10_lower_large_case,),
    "check_gap_upper_line8_corruption_term": (S.finding_f10_upper_line8_case,),
    "check_gap_lower_corruption_bookkeeping": (S.finding_f10_lower_bookkeeping_case,),
    "check_lemma_c1_corruption_term": (S.finding_f2_lemma_c1_population_case,),
    "check_lemma_a2_middle_line": (S.finding_f13_a2_middle_case,),
}


# check name -> builders of targeted examples (properties/strategies/targeted.py), run after
# the known ones and before the generated ones, in every profile and under every seed: each
# reaches a class of bug the check's draws reach rarely (tests/teeth/test_broken_caught_default_seed.py).
TARGETED_EXAMPLES: dict[str, tuple[Callable[[], object], ...]] = {
    # line 8's argmin over V_t: an eliminated hypothesis with the lowest L^_t
    "check_robust_cal_empirical_risks_and_output": (S.robust_cal_argmin_outside_version_space_case,),
    "check_robust_cal_elimination_recomputed": (S.robust_cal_argmin_outside_version_space_case,),
    "check_robust_cal_version_space_only_shrinks": (S.robust_cal_argmin_outside_version_space_case,),
    # past epoch 1: line 4's coin at an epoch's first round, line 10's penalty
    "check_calruption_importance_weights_unbiased": (S.calruption_second_epoch_case,),
    "check_calruption_recomputed_from_trace": (S.calruption_second_epoch_case,),
}


def known_examples(name: str) -> tuple:
    """The check's explicit examples, built now: its known examples (KNOWN_EXAMPLES), then
    its targeted ones (TARGETED_EXAMPLES)."""
    return tuple(build() for build in KNOWN_EXAMPLES.get(name, ()) + TARGETED_EXAMPLES.get(name, ()))


# The modules that define checks; all_checks() collects their CHECKS.
CHECK_MODULES = (
    "properties.checks.robust_cal",
    "properties.checks.calruption",
    "properties.checks.lemmas",
    "properties.checks.conditional",
    "properties.checks.calruption_events",
    "properties.checks.sampler",
    "properties.checks.catoni",
    "properties.checks.boundary",
    "properties.checks.corruption_population",
    "properties.checks.corrected_theorems",  # corrected Theorems 4.1 and 5.1 (ERRATA.md)
)


def check_modules():
    # imported by name, when first asked: each check module imports this registry
    return [importlib.import_module(name) for name in CHECK_MODULES]


def all_checks() -> dict[str, Check]:

    checks: dict[str, Check] = {}
    for module in check_modules():
        for check in module.CHECKS:
            if check.name in checks:
                raise ValueError(f"check {check.name!r} is registered twice")
            if check.kind not in KINDS:
                raise ValueError(f"check {check.name!r} has kind {check.kind!r}, not one of {KINDS}")
            unknown_modes = set(check.covers) - set(MODES)
            if unknown_modes:
                raise ValueError(f"check {check.name!r} covers unknown modes {sorted(unknown_modes)}")
            checks[check.name] = check
    for what, names in (
        ("expected failures", EXPECTED_FAILURES),
        ("known examples", KNOWN_EXAMPLES),
        ("targeted examples", TARGETED_EXAMPLES),
    ):
        unknown = set(names) - set(checks)
        if unknown:
            raise ValueError(f"{what} name unknown checks: {sorted(unknown)}")
    return checks


__all__ = [
    "Check",
    "EXPECTED_FAILURES",
    "KNOWN_EXAMPLES",
    "TARGETED_EXAMPLES",
    "Violation",
    "all_checks",
    "case_check",
    "custom_check",
    "known_examples",
    "trace_check",
]
