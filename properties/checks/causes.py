"""What each expected failure explains, and the classification of a counterexample by it.

An expected failure (registry.EXPECTED_FAILURES) says that a statement of the paper is
false, for a reason its FINDINGS.md entry states. A counterexample to the same check may
have another reason: then it is a new finding, and reporting it as the old expected
failure would hide it. So every expected failure names its cause here, as a predicate on
the events of the counterexample (which of the lemma's named events hold, whether the
missing event holds, whether there is corruption), and the runner classifies every
counterexample it finds: one the cause does not explain is reported as a failure
("not explained by ..."), never as the expected one (properties/run/runner.py). With the
`fuzz` profile the search goes on past the explained counterexamples (the known example
first among them), so a second cause cannot hide behind the first.

A classifier recomputes its events from the example (re-running the implementation where
the events depend on its trace) and the violations; it must not rely on anything the
check did not already establish."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from properties.core.violation import Violation


@dataclass(frozen=True)
class Cause:
    finding: str  # the FINDINGS.md entry, e.g. "F5"
    text: str  # the cause, in words
    events: Callable  # (impl, example, violations) -> dict[str, bool]
    explains: Callable[[dict], bool]  # events -> whether the cause explains the counterexample


@dataclass(frozen=True)
class Verdict:
    finding: str
    cause: str
    explained: bool
    events: dict  # event name -> bool; or {"classification failed": ...}

    def to_json(self) -> dict:
        return {
            "finding": self.finding,
            "cause": self.cause,
            "explained": self.explained,
            "events": {k: v for k, v in self.events.items()},
        }

    def describe(self) -> str:
        shown = ", ".join(f"{k}: {'yes' if v is True else 'no' if v is False else v}" for k, v in self.events.items())
        return f"FINDINGS {self.finding} ({self.cause}); events of this counterexample: {shown}"


def classify(cause: Cause, impl, example, violations) -> Verdict:
    """The counterexample's events and whether `cause` explains it; a classifier that
    raises leaves the counterexample unexplained (it is then reported, not hidden)."""
    try:
        events = dict(cause.events(impl, example, violations))
        return Verdict(cause.finding, cause.text, bool(cause.explains(events)), events)
    except Exception as error:  # the events could not be decided: do not call it the known finding
        return Verdict(cause.finding, cause.text, False, {"classification failed": f"{type(error).__name__}: {error}"})


# -- F5: the events the lemmas name hold, the sampling event E_bern does not ------------
def _epochs_of(violations) -> set[int] | None:
    """The epochs the violations name (the estimation lemma's carry l), or None."""
    found = {int(v.values["l"]) for v in violations if "l" in v.values}
    return found or None


def _run_sampling_events(impl, case, violations, inductive: bool) -> dict:
    """The estimation lemma is a statement per epoch: E_bern of the violating epoch is what
    its proof needs. Lemma 5.1, Lemma 5.2 and the correctness chain are inductions over the
    epochs: E_bern of any epoch up to the violating one can be behind the failure."""
    from properties.checks.calruption_truth import run_events, run_view

    view = run_view("classification of a counterexample", impl, case)
    events = run_events(view)
    epochs = _epochs_of(violations)
    failing_bern = {t.l for t, reason in zip(view.truths, events.bern) if reason is not None}
    if epochs is None:
        where, scope = failing_bern, "in every completed epoch"
    elif inductive:
        where, scope = {l for l in failing_bern if l <= max(epochs)}, f"in every epoch up to {max(epochs)}"
    else:
        where, scope = failing_bern & epochs, f"in the violating epoch{'s' * (len(epochs) > 1)} {sorted(epochs)}"
    return {
        "the named events (E_gap, and E_dis1, E_dis2 where named) hold": True,  # the check reports only then
        f"E_bern holds {scope}": not where,
        "C > 0": case.adversary.total(case.instance, 1, case.tape.n) > 0,
    }


def _one_epoch_sampling_events(impl, example, violations) -> dict:
    from properties.checks.calruption_truth import e_bern_epoch, truth_of_one_epoch

    truth = truth_of_one_epoch(example)
    return {
        "condition (1) holds for every pair of the epoch (E_gap)": True,  # the check reports only then
        f"E_bern holds in epoch {truth.l}": e_bern_epoch(example.instance.hypotheses, truth, example.params.beta3)
        is None,
        "C_l > 0": truth.corruption > 0,
    }


def _bern_fails(events: dict) -> bool:
    return not next(v for k, v in events.items() if k.startswith("E_bern holds"))


# -- F2: Lemma C.1's corruption term ---------------------------------------------------
def _lemma_c1_events(impl, case, violations) -> dict:
    from properties.checks.conditional import check_passive_learning_lemma_c1_corrected
    from properties.core.candidate import run_algorithm

    trace = run_algorithm("classification of a counterexample", impl, "robust_cal", case)
    return {
        "Theorem 4.1's assumption, h* in V_t and E_B(t) hold at the checkpoint": True,  # the check reports only then
        "only lines 1-2 fail (line 3 holds)": all("line 3" not in v.message for v in violations),
        "C_t > 0 at every violating checkpoint": all(v.values.get("C_t") not in (None, "0", "0/1") for v in violations),
        "the corrected statement holds (Theorem 3.1's bound at t)": not check_passive_learning_lemma_c1_corrected(
            case, trace
        ),
    }


# -- F6: the constant 24 of the correctness chain's last step --------------------------
def _final_step_events(impl, case, violations) -> dict:
    from properties.checks.calruption_events import _final_step, c_bar_total

    return {
        "C-bar_total > 0": c_bar_total(case) > 0,
        "the step with 64 C-bar_total/n holds": not _final_step(
            "classification of a counterexample", case, 64
        ).violations,
    }


# -- population-level corruption terms (properties/checks/corruption_population.py) -----
def _population_events(corrected: str, extra=None):
    """Events of a population counterexample: there is corruption, the corrected statement
    (a check of that module, or a function returning rows) holds, and `extra`'s."""

    def events(impl, case, violations) -> dict:
        from properties.checks import corruption_population as P

        fixed = getattr(P, corrected)(case)
        holds = not fixed if not fixed or isinstance(fixed[0], Violation) else all(r[0] <= 0 for r in fixed)
        found = {
            "C > 0": case.adversary.total(case.instance, 1, case.adversary.n) > 0,
            f"the corrected statement holds ({corrected})": holds,
        }
        found.update(extra(case, violations) if extra else {})
        return found

    return events


def _lines_1_2_only(case, violations) -> dict:
    return {"only lines 1-2 fail (line 3 holds)": all(v.values.get("line") != "line 3" for v in violations)}


def _all(events: dict) -> bool:
    return all(v is True for v in events.values())


SAMPLING_EVENT = "a sampling event is missing: E_bern (the proof's Bernstein step) fails"
F5_RUN_PER_EPOCH = Cause(
    "F5", SAMPLING_EVENT, lambda impl, case, found: _run_sampling_events(impl, case, found, False), _bern_fails
)
F5_RUN_INDUCTIVE = Cause(
    "F5", SAMPLING_EVENT, lambda impl, case, found: _run_sampling_events(impl, case, found, True), _bern_fails
)
F5_ONE_EPOCH = Cause("F5", SAMPLING_EVENT, _one_epoch_sampling_events, _bern_fails)

CAUSES: dict[str, Cause] = {
    "check_passive_learning_lemma_c1": Cause(
        "F2",
        "the corruption term of lines 1-2 is too small (R*/2, 4(C_t/n)R*): only those lines fail, with "
        "corruption, and the corrected statement holds",
        _lemma_c1_events,
        _all,
    ),
    "check_calruption_estimation_lemma": F5_RUN_PER_EPOCH,
    "check_calruption_estimation_lemma_one_epoch": F5_ONE_EPOCH,
    "check_calruption_gap_bounds_lemma_51": F5_RUN_INDUCTIVE,
    "check_calruption_gap_bounds_one_epoch": F5_ONE_EPOCH,
    "check_calruption_layer_disagreement_bound": F5_RUN_INDUCTIVE,
    "check_calruption_correctness_theorem_51": F5_RUN_INDUCTIVE,
    "check_calruption_correctness_final_step": Cause(
        "F6",
        "24 C-bar_total/n is too small: there is corruption, and the step holds with 64 C-bar_total/n",
        _final_step_events,
        _all,
    ),
    "check_estimation_lemma_corruption_term": Cause(
        "F17",
        "the corruption term is half of Lemma A.2's: there is corruption and 2 (C_l/N_l) rho*(h, h') holds",
        _population_events("check_estimation_lemma_corruption_term_corrected"),
        _all,
    ),
    "check_gap_upper_corruption_term_small_branch": Cause(
        "F17",
        "the estimation lemma's halved corruption term: there is corruption and 2 (C_l/N_l) rho*(h, h') holds",
        _population_events("check_estimation_lemma_corruption_term_corrected"),
        _all,
    ),
    "check_gap_lower_corruption_term_large_branch": Cause(
        "F10",
        "C_l/N_l where Lemma A.2 gives 2 (C_l/N_l) rho*(h, h*): there is corruption and the latter holds",
        _population_events("check_estimation_lemma_corruption_term_corrected"),
        _all,
    ),
    "check_gap_upper_line8_corruption_term": Cause(
        "F10",
        "line 8 keeps only the small branch: R* < 1/2, and the bookkeeping with the Corruption Term kept holds",
        _population_events(
            "check_gap_upper_corruption_bookkeeping",
            lambda case, found: {"R* < 1/2": case.instance.best_risk < Fraction(1, 2)},
        ),
        _all,
    ),
    "check_gap_lower_corruption_bookkeeping": Cause(
        "F10",
        "line 6's extra 4R* C_l/N_l: R* > 7/8, and the bookkeeping without it holds",
        _population_events(
            "check_gap_lower_corruption_bookkeeping_corrected",
            lambda case, found: {"R* > 7/8": case.instance.best_risk > Fraction(7, 8)},
        ),
        _all,
    ),
    "check_lemma_c1_corruption_term": Cause(
        "F2",
        "the corruption term of lines 1-2 is too small: only those lines fail, with corruption, and the "
        "corrected statement (8 (C_t/t) R*) holds",
        _population_events("check_lemma_c1_corruption_term_corrected", _lines_1_2_only),
        _all,
    ),
    "check_lemma_a2_middle_line": Cause(
        "F13",
        "the middle line uses max_h (R_t(h) - R*(h)), not c_t: there is corruption and Lemma A.2's conclusion holds",
        _population_events("lemma_a2_conclusion_rows"),
        _all,
    ),
}
