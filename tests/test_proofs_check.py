"""proofs_check: each decider on known-true and known-false claims, the pipeline's
guarantees (no refutation without an exactly verified counterexample), the encoded
steps (well-formed, consistent premises, refutations cross-linked), the committed
report kept current, and coverage of the paper's results."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp

from proofs_check import coverage, decide_search, decide_sympy, decide_z3
from proofs_check.decide import NOT_MECH, PROVED, REFUTED, UNKNOWN, decide_claim, decide_step
from proofs_check.exact import Undecided, is_counterexample, sign
from proofs_check.parse import relation
from proofs_check.report import decider_versions, markdown, run_steps
from proofs_check.step import NOT_MECHANICAL, Repair, Step
from proofs_check.steps import all_steps

REPO = Path(__file__).resolve().parent.parent
REPORT = REPO / "proofs_check" / "REPORT.md"
FINDINGS = REPO / "FINDINGS.md"


# -- each decider: rejects a known-false claim, accepts a known-true one ------------------
def test_sympy_decider_proves_an_identity_and_not_a_false_one():
    assert decide_sympy.decide(["a >= 0"], "Eq((a + 1)**2, a**2 + 2*a + 1)")[0] == "proved"
    assert decide_sympy.decide([], "Eq((a + 1)**2, a**2 + 1)")[0] == "unknown"
    # definitions are substituted before simplifying
    assert decide_sympy.decide(["Eq(s, a - b)"], "Eq(s*(a + b), a**2 - b**2)")[0] == "proved"


def test_z3_decider_proves_am_gm_and_refutes_a_false_root_bound():
    assert decide_z3.decide(["a >= 0", "b >= 0"], "sqrt(a*b) <= (a + b)/2")[0] == "proved"
    status, point = decide_z3.decide(["x > 0"], "sqrt(x) <= x")
    assert status == "candidate" and 0 < point["x"] < 1, point
    assert decide_z3.decide(["x > 0"], "log(x) <= x")[0] == "unknown"  # out of nlsat's reach


def test_search_decider_finds_a_counterexample_and_none_for_a_true_claim():
    status, point = decide_search.decide(["x > 0"], "log(x) <= x - 2")
    assert status == "candidate" and is_counterexample(["x > 0"], "log(x) <= x - 2", point)
    assert decide_search.decide(["x > 0"], "log(x) <= x - 1")[0] == "unknown"


def test_exact_sign_is_certified():
    assert sign(sp.sqrt(2) - sp.Rational(99, 70)) == -1  # 99/70 = 1.41428... > sqrt 2
    assert sign(sp.sqrt(2) - sp.Rational(140, 99)) == 1  # 140/99 = 1.41414... < sqrt 2
    assert sign(sp.sqrt(8) - 2 * sp.sqrt(2)) == 0
    assert sign(sp.log(3) - 1) == 1
    with pytest.raises(Undecided):
        sign(sp.sqrt(-1 - sp.sqrt(2)))


def test_is_counterexample_requires_every_premise():
    assert is_counterexample(["x > 0"], "sqrt(x) <= x", {"x": Fraction(1, 4)})
    assert not is_counterexample(["x > 1"], "sqrt(x) <= x", {"x": Fraction(1, 4)})  # premise false
    assert not is_counterexample(["x > 0"], "sqrt(x) <= x", {"x": Fraction(4)})  # claim true


def test_a_bad_z3_model_is_never_reported(monkeypatch):
    """A refutation needs an exactly verified point: a wrong model from z3 is dropped."""
    monkeypatch.setattr(decide_z3, "decide", lambda *a, **k: ("candidate", {"x": Fraction(2)}))
    verdict = decide_claim(["x > 0"], "x**3 + x > 0")
    assert verdict.status == UNKNOWN and "re-verification" in verdict.reason, verdict


def test_definitions_keep_irrational_quantities_exact():
    """alpha = sqrt(...) is irrational at rational points; the counterexample is over the
    free variables and re-verified with alpha substituted (FINDINGS F1's shape)."""
    verdict = decide_claim(["X > 0", "Eq(alpha, sqrt(2*X/5))"], "Eq(alpha + 5*X/(2*alpha), sqrt(10*X))")
    assert verdict.status == REFUTED and set(verdict.counterexample) == {"X"}, verdict


def test_inconsistent_premises_are_flagged_not_proved():
    verdict = decide_claim(["x > 1", "x < 0"], "x <= 5")
    assert verdict.status == UNKNOWN and "inconsistent" in verdict.reason


def test_sharp_constant_bisection_brackets_sqrt_98_over_5():
    step = Step("t.sharp", "test", "here", ("X > 0",), "sqrt(98*X/5) <= sqrt(10*X)", "F1's shape",
                repair=Repair("sqrt(98*X/5) <= K*sqrt(X)", sharp=("K", "1", "10")))
    verdict = decide_step(step)
    low, high = verdict.sharp
    assert verdict.status == REFUTED and verdict.repair.status == PROVED
    assert low < high and high - low <= Fraction(1, 2**20) and low**2 <= Fraction(98, 5) <= high**2, verdict.sharp


def test_step_validation_names_the_field():
    with pytest.raises(ValueError, match="reason"):
        Step("a.b", "l", "loc", (), "True", "j", kind=NOT_MECHANICAL)
    with pytest.raises(ValueError, match="premises"):
        Step("a.b", "l", "loc", "x > 0", "True", "j")
    with pytest.raises(ValueError, match="relation"):
        relation("x + 1")


# -- the encoded steps, decided once for the whole module ---------------------------------
@pytest.fixture(scope="module")
def results():
    return run_steps(all_steps())


def test_steps_parse_and_ids_are_unique():
    steps = all_steps()
    assert len({s.id for s in steps}) == len(steps)
    for s in steps:
        for text in (*s.premises, s.claim):
            relation(text, frozenset(s.integers))


def test_plain_sympify_reads_every_step_the_same():
    """The JSON promises strings sympy can parse: no variable may be a name sympy binds
    (beta, gamma, E, N, S, I, ...), or `sympy.sympify` would read a function instead."""
    for s in all_steps():
        for text in (*s.premises, s.claim):
            ours = relation(text, frozenset(s.integers))
            plain = sp.sympify(text)
            assert {x.name for x in plain.free_symbols} == {x.name for x in ours.free_symbols}, (s.id, text)


def test_every_verdict_is_justified(results):
    for step, verdict in results:
        if verdict.status == PROVED:
            assert verdict.method, step.id
        elif verdict.status == REFUTED:
            assert is_counterexample(list(step.premises), step.claim, verdict.counterexample, frozenset(step.integers)) \
                or verdict.method.startswith(("z3", "Hypothesis")), step.id
        elif verdict.status in (UNKNOWN, NOT_MECH):
            assert verdict.reason, step.id
        assert "inconsistent" not in verdict.reason, (step.id, verdict.reason)


def test_refuted_steps_are_cross_linked_in_findings(results):
    findings = FINDINGS.read_text(encoding="utf-8")
    for step, verdict in results:
        if verdict.status == REFUTED or step.repair is not None:
            assert re.fullmatch(r"[FR]\d+", step.finding), f"{step.id}: refuted without a finding ({step.finding!r})"
            section = findings.split(f"### {step.finding}.")[1].split("\n### ")[0]
            assert step.id in section, f"FINDINGS.md {step.finding} does not name step {step.id}"


def test_committed_report_is_current(results):
    """REPORT.md is what `python -m proofs_check --markdown proofs_check/REPORT.md`
    writes. With other decider versions than the report's, the verdicts must still agree."""
    committed = REPORT.read_text(encoding="utf-8")
    fresh = markdown(results)
    if f"Deciders: {decider_versions()}." in committed:
        assert committed == fresh, "proofs_check/REPORT.md is stale: regenerate it"
    else:
        def statuses(text):
            return re.findall(r"^\| (\S+) \|.*\| (proved|refuted|unknown|not mechanical) \|", text, re.M)
        assert statuses(committed) == statuses(fresh), "verdicts differ from the committed report"


# -- coverage of the paper's results --------------------------------------------------------
def test_snapshot_matches_the_paper():
    if not coverage.paper_path().exists():
        pytest.skip(f"the paper is not at {coverage.paper_path()} (set CRAL_PAPER); the committed snapshot is used")
    assert (coverage.paper_results(), coverage.paper_labels()) == coverage.snapshot(), \
        "the paper changed: run python -m proofs_check.coverage"


def test_every_result_of_the_paper_has_steps_or_a_reason():
    encoded = {s.lemma for s in all_steps()}
    results, labels = coverage.snapshot()
    keys = {r.key for r in results}
    missing = [k for k in keys if k not in encoded and k not in coverage.NO_STEPS]
    assert not missing, f"results with no encoded step and no reason: {missing}"
    stale = [k for k in coverage.NO_STEPS if k in encoded or k not in keys]
    assert not stale, f"NO_STEPS entries that have steps or are not results of the paper: {stale}"
    strays = sorted(encoded - keys - set(labels))
    assert not strays, f"steps whose lemma is neither a result nor a label of the paper: {strays}"


def test_coverage_reads_labels_and_unlabeled_results():
    text = r"""\begin{lemma}[Title]\label{lem: a}x\end{lemma} \begin{theorem} No label here at all\end{theorem}"""
    results = coverage.paper_results(text)
    assert [r.key for r in results] == ["lem: a", "unlabeled: No label here at all"]


# -- the command line ---------------------------------------------------------------------
def _cli(*args):
    return subprocess.run([sys.executable, "-m", "proofs_check", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=300)


def test_cli_json_one_step():
    step = all_steps()[0]
    out = _cli("--json", "--only", step.id)
    data = json.loads(out.stdout)
    assert [d["id"] for d in data] == [step.id]
    assert set(data[0]) >= {"id", "location", "premises", "claim", "status", "counterexample", "repair"}
    for text in (*data[0]["premises"], data[0]["claim"]):
        sp.sympify(text)  # strings plain sympy parses


def test_cli_bad_only_is_one_line_exit_2():
    out = _cli("--only", "no.such.step")
    assert out.returncode == 2 and out.stdout == "" and len(out.stderr.strip().splitlines()) == 1
    assert "no.such.step" in out.stderr
