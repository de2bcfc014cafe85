"""Failures are listed in the order of the algorithm's computation, the root cause first
(properties/reports/root_cause.py). On the planted copy whose later epochs' first coin uses
the previous epoch's q (teeth/broken/mutants.py, calruption_stale_q_at_epoch_start), both the coin's check (Algorithm
2, line 4) and the Catoni root's (line 8) fail in epoch 2; the registry lists Catoni's
first, the report must lead with the coin."""

from __future__ import annotations

import dataclasses
import json

from hypothesis import strategies as st

from properties.checks.registry import all_checks
from properties.core.outcomes import FAILED, PASSED, CheckResult
from properties.reports.root_cause import LATE, position, root_cause_order
from properties.run.runner import run_check
from properties.strategies.cases import Case
from tests.support.broken_copies import broken_copy

# one point, two hypotheses, 20 rounds: epoch 1 is rounds 1-4 (q_1 = 1), epoch 2 starts at round 5
# with q_2 < 1, and the stale coin queries round 5 with q_1
STALE_Q_CASE = (
    '{"instance": {"nu": ["1/1"], "eta": ["0/1"], "hypotheses": [[1], [0]]}, "adversary": {"n": 20, "segments": '
    '[{"start": 1, "end": 20, "gamma": "0/1", "target": null}]}, "seed": 0, "params": {"regime": "scaled", "n": 20, '
    '"num_hypotheses": 2, "delta": "1/20", "beta_scale": "1/4", "beta1": {"value": "1/1"}, "beta2": "5/32", '
    '"beta3": {"coefficient": "2/1", "argument": "480/1"}}}'
)
COIN, CATONI = "check_calruption_importance_weights_unbiased", "check_calruption_catoni_enclosures_certified"


def test_the_stale_coin_is_listed_before_the_catoni_root_it_spoils(tmp_path):
    with broken_copy("calruption_stale_q_at_epoch_start", tmp_path) as module:
        _stale_coin_listed_first(module)


def _stale_coin_listed_first(module):
    case = Case.from_json(json.loads(STALE_Q_CASE))
    registered = [name for name in all_checks() if name in (COIN, CATONI)]
    assert registered == [CATONI, COIN]  # the registry's order blames Catoni's root first
    results = []
    for name in registered:
        check = dataclasses.replace(all_checks()[name], strategy=st.just(case))
        results.append(run_check(check, module, known=False, database=None, max_examples=1))
    assert [r.status for r in results] == [FAILED, FAILED], [r.violations for r in results]
    assert [r.name for r in root_cause_order(results)] == [COIN, CATONI]
    assert position(results[1]) == (2, 2, 4) and position(results[0]) == (2, 2, 8)


def _failed(name, cites, violation, status=FAILED):
    return CheckResult(name, cites, "deterministic", status, 1, violations=[violation])


def test_positions_follow_rounds_then_lines_and_lemmas_come_last():
    query = _failed("check_robust_cal_queries", "Algorithm 1, line 4", "x: labels differ (t = 8, trace = 3)")
    threshold = _failed("check_robust_cal_elim", "Algorithm 1, lines 9-10", "x: misses (t = 4, h = 1)")
    v_next = _failed("check_robust_cal_elim2", "Algorithm 1, lines 9-10", "x: V_{t+1} is not line 10's set (t = 4)")
    lemma = _failed("check_calruption_lemma", "Lemma 5.1; Appendix D", "x: bound fails (l = 1)")
    root = _failed("check_catoni_root_certified", "Appendix D.2", "x: not an enclosure")
    passed = _failed("check_passed", "Algorithm 1, line 7", "", status=PASSED)
    assert position(threshold) == (1, 4, 9) and position(v_next) == (1, 4, 10) and position(query) == (1, 8, 4)
    assert position(lemma) == (LATE, 1, LATE) and position(root) == (2, LATE, 8)
    ordered = root_cause_order([lemma, passed, query, v_next, root, threshold])
    assert [r.name for r in ordered] == [
        "check_robust_cal_elim",
        "check_robust_cal_elim2",
        "check_robust_cal_queries",
        "check_catoni_root_certified",
        "check_calruption_lemma",
        "check_passed",
    ]
