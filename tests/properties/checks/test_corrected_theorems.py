"""Meta-tests of properties/checks/corrected_theorems.py: the corrected Theorem 4.1 and 5.1
accuracy checks pass on the reference where their premises hold, and fail on a planted wrong run."""

from __future__ import annotations

import dataclasses
import types
from dataclasses import replace
from fractions import Fraction as F

import reference as R
from properties import strategies as S
from properties.checks import conditional as CC
from properties.checks import corrected_theorems as T
from properties.core.candidate import run_algorithm
from properties.core.case import Case
from properties.judge.load import load_impl
from properties.run.runner import PASSED, run_check
from reference import adversary as A
from reference.calruption import calruption_epoch
from reference.certified import ScaledLog

CHECKS = {check.name: check for check in T.CHECKS}
REFERENCE = load_impl("reference")


def _trace(case):
    return run_algorithm("meta", REFERENCE, "robust_cal", case)


def test_smallest_eps_solves_the_sample_size_exactly():
    """At eps = smallest_eps_41, (8R*/eps^2 + 22/eps) L = t (L a point: log(e^k) via a rational argument is not
    exact, so check the quadratic's residual is inside the enclosure's rounding)."""
    log_term = ScaledLog(F(1), F(7))
    for R_star, t in ((F(0), 64), (F(1, 4), 1024), (F(1, 2), 5)):
        e = T.smallest_eps_41(log_term, R_star, t, 200)
        L = log_term.enclosure(200)
        assert e.lo > 0 and e.width < F(1, 10**40)
        # t eps^2 - 22 L eps - 8 R* L changes sign across the enclosure
        assert (
            t * e.lo**2 - 22 * L.hi * e.lo - 8 * R_star * L.hi
            <= 0
            <= t * e.hi**2 - 22 * L.lo * e.hi - 8 * R_star * L.lo
        )


def test_theorem41_corrected_passes_on_the_reference_and_fails_on_a_bad_h_hat():
    instance = R.instances.thresholds(4)
    case = Case(instance, A.clean(1024), 5, R.Params.paper(1024, instance.num_hypotheses, F(1, 10)))
    trace = _trace(case)
    assert T.check_robust_cal_accuracy_theorem_41_corrected(case, trace) == []
    gaps = [instance.gap(h) for h in range(instance.num_hypotheses)]
    worst = gaps.index(max(gaps))
    fake = replace(
        trace, checkpoints=tuple(replace(c, h_hat=worst, version_space=tuple(range(5))) for c in trace.checkpoints)
    )
    found = T.check_robust_cal_accuracy_theorem_41_corrected(case, fake)
    assert any(v.values["t"] == "1024" for v in found)


def test_theorem41_corrected_holds_on_f2s_run_where_the_printed_lemma_c1_fails():
    """F2's realised run breaks Lemma C.1's printed lines 1-2 (the display Theorem 4.1's accuracy is read from);
    the corrected statement (5/4) eps + 8 (C/n) R* holds there."""
    case = S.finding_f2_lemma_c1_case()
    trace = _trace(case)
    assert CC._lemma_c1_premises(case, trace)  # the premises hold somewhere: the pass is not vacuous
    assert T.check_robust_cal_accuracy_theorem_41_corrected(case, trace) == []


def _crafted_51():
    # nu = (1, 0), eta* = (0, 0): h0 = (0, 0) is perfect, h1 = (1, 1) always wrong (Delta = 1)
    return S.crafted_case(
        R.Instance([F(1), F(0)], [F(0), F(0)], ((0, 0), (1, 1))), S.premise_params(84, 2, F(1), F(1, 20480)), [0] * 84
    )


def _shim(calruption):
    return types.SimpleNamespace(
        passive=R.passive,
        robust_cal=R.robust_cal,
        catoni_root=R.catoni_root,
        calruption=calruption,
        calruption_epoch=calruption_epoch,
    )


def test_theorem51_corrected_passes_on_the_reference_and_fails_on_a_planted_output():
    name = "check_calruption_accuracy_theorem_51_corrected"
    case = _crafted_51()
    out = T.OUTCOMES[name](name, REFERENCE, case)
    assert out.premises is None and out.violations == []
    worst = _shim(lambda H, tape, params: dataclasses.replace(R.calruption(H, tape, params), output=1))
    out = T.OUTCOMES[name](name, worst, case)
    assert out.premises is None and out.violations


def test_theorem51_corrected_check_passes_on_generated_runs():
    result = run_check(CHECKS["check_calruption_accuracy_theorem_51_corrected"], REFERENCE, max_examples=20)
    assert result.status == PASSED, result


def test_theorem41_corrected_check_passes_on_generated_runs():
    """The planted wrong run is test_theorem41_corrected_passes_on_the_reference_and_fails_on_a_bad_h_hat."""
    result = run_check(CHECKS["check_robust_cal_accuracy_theorem_41_corrected"], REFERENCE, max_examples=20)
    assert result.status == PASSED, result
