"""Theorem 3.1 for n/8 < C_total < n/4 decided by proof, the three verdicts per
result with route and statement intervals in ERRATA and in `--json`, and guards so that the project does
not call a true statement false or leave a decided one undecided."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from proofs_check.decide import PROVED, REFUTED
from proofs_check.errata import VERDICTS, result_verdicts, statement_sharp
from proofs_check.report import run_steps
from proofs_check.step import MECHANICAL
from proofs_check.steps import all_steps, select
from tests.support import REPO_ROOT

REPO = REPO_ROOT
QUARTER = (
    "corrected.thm31.quarter_quadratic",
    "corrected.thm31.quarter_scale",
    "corrected.thm31.quarter_event",
    "corrected.thm31.quarter_combine",
    "corrected.thm31.quarter_unscale",
    "corrected.thm31.sharp_bound_quarter",
)


@pytest.fixture(scope="module")
def thm31():
    return {s.id: (s, v) for s, v in run_steps(select(all_steps(), "corrected.thm31"))}


def test_regression_theorem31_quarter_regime_is_proved_not_left_to_a_grid(thm31):
    """For n/8 < C_total < n/4 the printed bound (sqrt 8, 8, 5) is proved by z3 link by link, not left to
    numeric evidence on a grid."""
    for step_id in QUARTER:
        step, verdict = thm31[step_id]
        assert step.kind == MECHANICAL and verdict.status == PROVED, (step_id, verdict.status, verdict.reason)
    final = thm31["corrected.thm31.sharp_bound_quarter"][0]
    assert "8*c > 1" in final.premises and final.claim.endswith("+ 5*l")
    # the chain is one: each link uses the one before it, and the first rests on the sharp event line
    assert final.uses == ("corrected.thm31.quarter_unscale",)
    assert "corrected.thm31.sharp_event" in thm31["corrected.thm31.quarter_event"][0].uses


def test_the_quarter_chain_can_fail():
    """The chain's key link is not vacuous: with the last constant 4 in place of 5 (below 2 + 2 sqrt 2 at c -> 1/8,
    where the regimes meet) the quadratic's discriminant is positive somewhere and z3 refutes it."""
    from proofs_check.decide import decide_claim

    step = next(s for s in all_steps() if s.id == "corrected.thm31.quarter_quadratic")
    assert decide_claim(step.premises, step.claim.replace("+ 5*m**2", "+ 4*m**2")).status == REFUTED


def test_errata_summary_calls_no_proved_statement_false_or_undecided():
    """Theorem 3.1's bound is reported true for every C_total < n/4 (not 'not decided');
    a row calls a statement false only with a finding that names its counterexample."""
    rows = {row["result"]: row for row in VERDICTS}
    bound = rows["Theorem 3.1, bound"]["statement"]
    assert bound.startswith("true for every C_total < n/4") and "not decided" not in bound
    for row in VERDICTS:
        if row["statement"].startswith("false"):
            assert "(F" in row["statement"], row["result"]
    text = (REPO / "ERRATA.md").read_text(encoding="utf-8")
    assert "n/8 < C_total < n/4 not decided" not in text and "numeric evidence only" not in text


def test_statement_intervals_are_sharp_only_where_a_forced_value_is_named():
    """Sharp as a statement only where a realisable run forces the proved constant: none of the rows does (the
    forced values named are points of the proofs' event lines, or runs forcing less than what is proved), and
    a value forced only on an event line says "not known as a statement"."""
    assert {row["result"] for row in VERDICTS if statement_sharp(row)} == set()
    event_only = {row["result"] for row in VERDICTS if "event line only" in row["forced"]}
    assert event_only >= {
        "Theorem 3.1, bound",
        "Theorem 3.1, 'This implies'",
        "Lemma C.1, lines 1-2",
        "Theorem 4.1, accuracy",
    }
    for row in VERDICTS:
        assert "event line only" not in row["forced"] or "not known as a statement" in row["forced"], row["result"]
        assert row["proved"] and row["forced"]
        assert row["interval"] in {s.id for s in all_steps()}, row["interval"]


def test_result_verdicts_carry_the_route_interval_of_the_run(thm31):
    by_label = result_verdicts(thm31)
    rows = {r["result"]: r for r in by_label["them: passive learning"]}
    bound = rows["Theorem 3.1, bound"]
    forced, proved = (Fraction(bound["route_interval"][k]) for k in ("forced", "proved"))
    assert forced < Fraction(4828427, 10**6) < proved < 5 and bound["route_interval"]["sharp"]
    assert (
        not bound["statement_interval"]["sharp"] and "not known as a statement" in bound["statement_interval"]["forced"]
    )
    # a result whose step was not decided in this run has no route interval, and is not called sharp
    accuracy = next(
        r for r in result_verdicts({})["prop: robust cal for known C"] if r["result"] == "Theorem 4.1, accuracy"
    )
    assert accuracy["route_interval"] is None and not accuracy["statement_interval"]["sharp"]


def test_cli_json_has_the_three_verdict_field():
    out = subprocess.run(
        [sys.executable, "-m", "proofs_check", "--json", "--only", "corrected.thm41.accuracy"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    data = json.loads(out.stdout)
    assert [d["id"] for d in data] == ["corrected.thm41.accuracy"]
    verdicts = {r["result"]: r for r in data[0]["result_verdicts"]}
    assert set(verdicts) >= {"Theorem 4.1, accuracy", "Theorem 4.1, label complexity"}
    accuracy = verdicts["Theorem 4.1, accuracy"]
    assert set(accuracy) == {"result", "statement", "proof", "constant", "route_interval", "statement_interval"}
    low, high = (Fraction(accuracy["route_interval"][k]) for k in ("forced", "proved"))
    assert low < Fraction(5, 4) <= high
    assert verdicts["Theorem 4.1, label complexity"]["route_interval"] is None  # its step was not run here


def test_regression_theorem41_accuracy_factor_one_on_its_event():
    """Theorem 4.1's printed eps + O(R^* C/n) holds on its event with factor 1 and O(.) = 8(C/n)R^*
    at n = 2^k; 999/1000 is refuted on the event line, which forces 1 there (not as a statement)."""
    steps = [s for s in all_steps() if s.id.startswith("corrected.thm41.accuracy")]
    by_id = {s.id: (s, v) for s, v in run_steps(steps)}
    assert by_id["corrected.thm41.accuracy_event"][1].status == PROVED
    assert by_id["corrected.thm41.accuracy_event_roots"][1].status == PROVED
    forced = by_id["corrected.thm41.accuracy_event_forced"][1]
    assert forced.status == REFUTED and forced.counterexample["p"] ** 2 <= 2  # R^* = p^2/2 <= 1
    assert forced.sharp is not None and forced.sharp[1] == 1 and forced.sharp[0] >= Fraction(999, 1000)
    row = next(
        r for r in result_verdicts(by_id)["prop: robust cal for known C"] if r["result"] == "Theorem 4.1, accuracy"
    )
    # the factor 1 is forced only on the event line (not a run), and for n not a power of two the statement is
    # false (FINDINGS F19, tests/proofs_check/test_thm41_general_n.py)
    assert not row["statement_interval"]["sharp"] and row["statement"].startswith("false for general n")
    assert "n = 2^k" in row["statement"] and "true on its event" in row["statement"]
