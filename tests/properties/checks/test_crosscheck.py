"""The cross-check (properties/checks/crosscheck.py) of a candidate against the reference.

* the candidate (default `fast`; --candidate or $CRAL_CANDIDATE) agrees with the reference
  on the fixed set of generated cases, with its divergences counted by class;
* the reference against itself agrees exactly, with no divergence at all;
* every broken copy of fast (teeth/broken/fast_mutants.py) is caught as a mismatch, also
  those built to look like a legitimate divergence;
* every legitimate variant (another tie-break, another optimal D^) passes and is counted
  in its class; a coin between the float q and the exact q is counted as a coin;
* a candidate that crashes or returns garbage is reported, and the run goes on."""

from __future__ import annotations

import json
import sys
import types
from fractions import Fraction

import pytest
from hypothesis import given

import fast
import reference
from properties.checks.crosscheck import DIVERGENCE_KINDS, crosscheck, crosscheck_case, summary_text
from properties.core.case import Case
from properties.judge.load import load_impl
from properties.strategies import calruption_cases, fixed_crosscheck_cases
from reference import Params
from teeth.broken.fast_mutants import MUTANTS, VARIANTS, build

CASES = fixed_crosscheck_cases(50)


@pytest.fixture(scope="module")
def candidate(candidate_name):
    """One worker process of the candidate for the module: a pure function of each call's
    arguments, so the generated cases need not start one each."""
    with load_impl(candidate_name) as loaded:
        yield loaded


@pytest.fixture(scope="module")
def fixed_summary(candidate, candidate_name):
    return crosscheck(candidate, candidate_name, CASES)


def test_candidate_agrees_with_the_reference_on_50_fixed_cases(fixed_summary):
    counts = fixed_summary.divergence_counts()
    print("\n" + summary_text(fixed_summary))
    assert len(CASES) >= 50
    assert set(counts) == {"passive", "robust_cal", "robust_cal_vanilla", "calruption"}
    assert all(set(kinds) == set(DIVERGENCE_KINDS) for kinds in counts.values())
    assert not fixed_summary.mismatches, summary_text(fixed_summary)
    assert len(fixed_summary.reports) == 4 * len(CASES)


def test_fixed_cases_reach_what_the_cross_check_must_see():
    """The fixed set has completed CALruption epochs (several per case on most), inexact
    rho^ (epoch lengths that are not powers of two), and RobustCAL eliminations."""
    epochs = [len(reference.calruption(c.instance.hypotheses, c.tape, c.params).epochs) for c in CASES[:20]]
    assert sum(e >= 3 for e in epochs) >= 10, epochs
    lengths = {
        reference.calruption(c.instance.hypotheses, c.tape, c.params).epochs[0].length
        for c in CASES[:20]
        if c.params.regime == "scaled"
    }
    assert any(length & (length - 1) for length in lengths), lengths
    shrunk = [
        len(reference.robust_cal(c.instance.hypotheses, c.tape, c.params).final_version_space)
        < c.instance.num_hypotheses
        for c in CASES[:20]
    ]
    assert sum(shrunk) >= 5


def test_reference_against_itself_agrees_exactly():
    summary = crosscheck(reference, "reference", CASES[:20])
    assert summary.arithmetic == "exact"
    assert not summary.mismatches, summary_text(summary)
    assert all(count == 0 for kinds in summary.divergence_counts().values() for count in kinds.values())


# the first 14 mutants (the cross-check's own) in the default run; the 17 added for
# check's float teeth (tests/teeth/test_float_broken_caught.py runs all 31 through check) in the slow run
CROSSCHECK_DEFAULT_MUTANTS = 14


@pytest.mark.parametrize(
    "mutant",
    [m if i < CROSSCHECK_DEFAULT_MUTANTS else pytest.param(m, marks=pytest.mark.slow) for i, m in enumerate(MUTANTS)],
    ids=[m.name for m in MUTANTS],
)
def test_broken_fast_is_caught(mutant, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    broken = load_impl(build(mutant, tmp_path))
    for index, case in enumerate(CASES):
        reports = crosscheck_case(broken, case, index)
        if any(r.mismatches for r in reports):
            return
    pytest.fail(f"broken copy {mutant.name} ({mutant.description}) passed the cross-check on all {len(CASES)} cases")


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.name for v in VARIANTS])
def test_legitimate_variant_is_classified_not_reported(variant, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    summary = crosscheck(load_impl(build(variant, tmp_path)), variant.name, CASES, algorithms=("calruption",))
    assert not summary.mismatches, summary_text(summary)
    assert summary.divergence_counts()["calruption"][variant.hides_behind] > 0, summary_text(summary)


def _coin_case():
    """A case whose epoch-2 q^x is not a float (|I_1| = 12: rho^ in twelfths)."""
    instance = reference.Instance(
        [Fraction(1, 3)] * 3, [Fraction(1, 10), Fraction(1, 2), Fraction(9, 10)], [(0, 0, 1), (0, 1, 1), (1, 1, 1)]
    )
    n = 12 + 48
    params = Params.scaled(n, 3, Fraction(1, 10), Fraction(1, 4), Fraction(3))
    return Case(instance, reference.adversary.clean(n), 7, params)


def test_a_coin_between_float_q_and_exact_q_is_a_coin_divergence():
    case = _coin_case()
    exact = reference.calruption(case.instance.hypotheses, case.tape, case.params)
    q = exact.epochs[0].next_q
    x = next(i for i, v in enumerate(q) if Fraction(float(v)) != v)
    lo, hi = sorted((Fraction(float(q[x])), q[x]))
    word = int(hi * 2**64) - 1 if (hi * 2**64).denominator == 1 else int(hi * 2**64)
    u_between = Fraction(word, 2**64)
    assert lo <= u_between < hi
    tape = case.tape
    start = exact.epochs[0].length  # 0-based index of epoch 2's first round
    rounds = [t for t in range(start, tape.n) if tape.x[t] == x]
    assert rounds, "epoch 2 never sees the point"
    u = list(tape.u)
    for t in rounds:
        u[t] = u_between
    crafted_case = types.SimpleNamespace(
        instance=case.instance,
        params=case.params,
        tape=reference.Tape(tape.x, tape.y, u),
        reproducer=lambda: "crafted coin tape",
    )
    (report,) = crosscheck_case(fast, crafted_case, algorithms=("calruption",))
    assert not report.mismatches, report.mismatches
    assert report.divergence_counts()["coin"] == len(rounds)


def _candidate(**functions):
    module = types.ModuleType("scratch_candidate")
    module.ARITHMETIC = "float64"
    for name in ("passive", "robust_cal", "calruption", "catoni_root"):
        setattr(module, name, getattr(fast, name))
    for name, function in functions.items():
        setattr(module, name, function)
    return module


def test_a_crashing_or_garbage_candidate_is_reported_and_the_run_goes_on():
    def crash(*args, **kwargs):
        raise ZeroDivisionError("boom")

    def garbage(*args, **kwargs):
        return {"format": "cral-trace", "version": 1, "algorithm": "passive", "output": "seven"}

    summary = crosscheck(_candidate(calruption=crash, passive=garbage), "scratch", CASES[:3])
    by_algorithm = {
        a: [r for r in summary.reports if r.algorithm == a] for a in ("passive", "calruption", "robust_cal")
    }
    assert all(
        r.mismatches and "crashed: ZeroDivisionError" in r.mismatches[0].message for r in by_algorithm["calruption"]
    )
    assert all(r.mismatches and "malformed" in r.mismatches[0].message for r in by_algorithm["passive"])
    assert all(r.ok for r in by_algorithm["robust_cal"])


def test_the_cli_reports_and_exits_by_mismatches(capsys):
    from properties.cli import main

    assert main(["crosscheck", "--candidate", "fast", "--cases", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["arithmetic"] == "float64" and data["cases"] == 2 and not data["mismatches"]
    assert set(data["algorithms"]["calruption"]["divergences"]) == set(DIVERGENCE_KINDS)
    assert main(["crosscheck", "--candidate", "no.such.module"]) == 2
    assert main(["crosscheck", "--candidate", "fast", "--cases", "0"]) == 2
    assert "error:" in capsys.readouterr().err
    assert sys.modules["fast"] is fast


def _rounding_case():
    """Epoch 1 on a crafted tape where the float R_D^ of the all-ones hypothesis rounds to
    1 + ulp (found in review): Delta^ must stay <= 1, so V^0 = H and q is not cut by 4."""
    m = 10
    instance = reference.Instance([Fraction(1, m)] * m, [Fraction(0)] * m, [(0,) * m, (1,) * m])
    seen = [2, 0, 1, 0, 5, 1, 1, 0, 0, 2]
    x = [i for i, c in enumerate(seen) for _ in range(c)] + [t % m for t in range(48)]
    tape = reference.Tape(tuple(x), (0,) * len(x), (Fraction(0),) * len(x))
    params = Params.scaled(len(x), 2, Fraction(1, 10), Fraction(1, 4), Fraction(3))
    return types.SimpleNamespace(
        instance=instance, params=params, tape=tape, reproducer=lambda: "crafted rounding tape"
    )


def test_a_risk_rounded_above_one_keeps_every_hypothesis_in_V0(tmp_path, monkeypatch):
    case = _rounding_case()
    (report,) = crosscheck_case(fast, case, algorithms=("calruption",))
    assert report.ok, report.mismatches
    from teeth.broken.fast_mutants import FastMutant

    # the 1 + ulp comes from the vertex row generation returns here; the cycle route of a
    # nested class (fast/line9_chain.py) returns another optimal D^, so the broken copy
    # takes row generation, where the rounding is
    unclipped = FastMutant(
        "gap_unclipped",
        "Delta^ not clipped at 1",
        "epoch_types.py",
        "    gap_hat = np.clip(risk_hat - penalised[h_star], 2.0**-l, 1.0)",
        "    gap_hat = np.maximum(2.0**-l, risk_hat - penalised[h_star])",
        "layer_boundary",
        more=(
            (
                "calruption.py",
                "        nested=nested.on(support) if nested is not None else True,",
                "        nested=False,",
            ),
        ),
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    (report,) = crosscheck_case(load_impl(build(unclipped, tmp_path)), case, algorithms=("calruption",))
    assert any("V^0 = H" in v.message for v in report.mismatches), report.mismatches


def test_index_sets_must_be_canonical():
    import dataclasses

    def shuffled(hypotheses, tape, params, vanilla=False):
        trace = fast.robust_cal(hypotheses, tape, params, vanilla)
        checkpoints = tuple(
            dataclasses.replace(c, next_version_space=tuple(reversed(c.next_version_space))) for c in trace.checkpoints
        )
        return dataclasses.replace(trace, checkpoints=checkpoints)

    (report,) = crosscheck_case(_candidate(robust_cal=shuffled), CASES[0], algorithms=("robust_cal",))
    assert any("increasing order" in v.message for v in report.mismatches), report.mismatches


@given(case=calruption_cases())
def test_candidate_agrees_on_generated_cases(case, candidate):
    """The cross-check on Hypothesis-generated CALruption cases (every adversary kind of
    the suite, n at and around epoch ends): the loaded profile's number of examples, so
    `HYPOTHESIS_PROFILE=fuzz` fuzzes the candidate against the reference for long runs."""
    reports = crosscheck_case(candidate, case)
    bad = [r for r in reports if r.mismatches]
    assert not bad, f"{bad[0].algorithm}: {bad[0].mismatches[0]}\nreproduce: {bad[0].reproducer}"


def _enclosures_moved(widen: Fraction, shift: Fraction):
    """The reference, but RobustCAL's and CALruption's enclosures of irrationals (beta_t,
    line 10's thresholds, N_l) widened by `widen` on each side and shifted by `shift`."""
    from dataclasses import replace

    from reference.certified import Enclosure

    def moved(e):
        return None if e is None else Enclosure(e.lo - widen + shift, e.hi + widen + shift)

    def robust_cal(H, tape, params, vanilla=False):
        trace = reference.robust_cal(H, tape, params, vanilla=vanilla)
        checkpoints = tuple(
            replace(c, beta=moved(c.beta), threshold=tuple(map(moved, c.threshold))) for c in trace.checkpoints
        )
        return replace(trace, checkpoints=checkpoints)

    def calruption(H, tape, params):
        trace = reference.calruption(H, tape, params)
        return replace(trace, epochs=tuple(replace(e, N=moved(e.N)) for e in trace.epochs))

    return types.SimpleNamespace(
        passive=reference.passive,
        robust_cal=robust_cal,
        calruption=calruption,
        catoni_root=reference.catoni_root,
        ARITHMETIC="exact",
    )


def test_an_exact_candidates_wider_enclosures_are_accepted_disjoint_ones_are_not():
    """How tightly a correct exact implementation encloses beta_t, the thresholds and N_l
    is its own choice (the property checks ask only that the enclosure contain the value):
    a wider enclosure agrees, one that misses the value does not."""
    wide = crosscheck(_enclosures_moved(Fraction(1, 2**40), Fraction(0)), "wide", CASES[:12])
    assert not wide.mismatches, wide.mismatches[:3]
    off = crosscheck(
        _enclosures_moved(Fraction(0), Fraction(1, 2**30)), "off", CASES[:12], ("robust_cal", "calruption")
    )
    missed = [m.message for m in off.mismatches]
    # each names the rule it breaks: an enclosure must contain the value (spec S3)
    assert missed and all("enclosure is disjoint from the reference's certified one [spec S3: " in m for m in missed), (
        missed[:3]
    )
    for where in (" beta:", " threshold[", " N:"):
        assert any(where in m for m in missed), (where, missed[:3])


@pytest.mark.slow
def test_candidate_agrees_with_the_reference_on_10_large_cases(candidate_name):
    """At |H| >= 256 (where the reference fits line 9 by row generation) the
    candidate's CALruption still agrees, divergences counted by class (-m slow: minutes)."""
    from properties.strategies import fixed_large_crosscheck_cases

    cases = fixed_large_crosscheck_cases(10)
    assert len(cases) >= 10 and all(c.instance.num_hypotheses >= 256 for c in cases)
    summary = crosscheck(load_impl(candidate_name), candidate_name, cases, ("calruption",))
    print("\n" + summary_text(summary))
    assert not summary.mismatches, summary_text(summary)
    assert all(c.params.n >= 64 + 256 for c in cases)  # beta1 = 16: two completed epochs at least
