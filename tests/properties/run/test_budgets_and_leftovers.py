"""A budget bounds the whole run at any --cases, and a green run leaves nothing behind.
The budget's stop points are tested on a clock moved by the run's own
steps (a case generated), never against the machine's speed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from properties import strategies
from properties.checks.crosscheck import BUDGET_SKIP, crosscheck
from properties.judge.load import load_candidate
from tests.support import REPO_ROOT

ROOT = REPO_ROOT


class _StepClock:
    def __init__(self):
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now


def test_a_spent_budget_stops_generating_cases_whatever_the_number_asked_for(monkeypatch):
    import properties.core.budget

    clock = _StepClock()
    monkeypatch.setattr(properties.core.budget, "time", clock)
    generated = []

    def stream():
        for case in strategies.crosscheck_case_stream(None):
            clock.now += 1.0  # generating a case is a step of the run
            generated.append(case)
            yield case

    total = 10**12
    with load_candidate("reference") as reference:
        summary = crosscheck(reference, "reference", stream(), ("passive",), deadline=2.5, total=total)
    # cases 0 and 1 ran, case 2 was generated at t = 3 and skipped, no fourth was generated
    assert len(generated) == 3, len(generated)
    row = summary.to_json()["algorithms"]["passive"]
    assert row == {**row, "cases": total, "agreed": 2, "skipped": total - 2}, row
    assert summary.to_json()["skipped"] == {BUDGET_SKIP: total - 2}


def test_crosscheck_with_a_budget_ends_at_any_number_of_cases(tmp_path):
    """10**11 cases under --budget 1: it ends (within the subprocess' limit, which is a
    guard against a hang, not a speed claim) and counts every case asked for."""
    total = 10**11
    found = subprocess.run(
        [
            sys.executable,
            "-m",
            "properties",
            "crosscheck",
            "--candidate",
            "reference",
            "--algorithms",
            "passive",
            "--cases",
            str(total),
            "--budget",
            "1",
            "--json",
        ],
        cwd=tmp_path,
        env={**os.environ, "CI": "true", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert found.returncode == 1, found.stderr[-2000:]  # not everything ran: no verdict of success
    report = json.loads(found.stdout)
    row = report["algorithms"]["passive"]
    assert row["cases"] == total and row["agreed"] + row["skipped"] == total and row["skipped"] > 0, row
    assert report["checks"][0]["status"] == "not run", report["checks"]


def test_a_green_command_run_leaves_no_request_files(tmp_path):
    """An expected failure on right answers (the paper's finding) is no failing call:
    nothing is kept, nothing is said to be kept."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    found = subprocess.run(
        [
            sys.executable,
            "-m",
            "properties",
            "check",
            "--candidate-cmd",
            f"{sys.executable} -m properties answer --impl reference",
            "--only",
            "check_passive_learning_lemma_c1",
            "check_passive_output_is_erm",
            "--json",
        ],
        cwd=tmp_path,
        env={**os.environ, "CI": "true", "PYTHONPATH": str(ROOT), "TMPDIR": str(temporary)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert found.returncode == 0, found.stderr[-2000:]
    statuses = [check["status"] for check in json.loads(found.stdout)["checks"]]
    assert statuses == ["expected failure", "passed"], statuses
    assert list(temporary.iterdir()) == [], list(temporary.rglob("*"))[:5]
    assert "kept under" not in found.stderr, found.stderr[-2000:]
