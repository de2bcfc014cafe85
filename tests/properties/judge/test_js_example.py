"""examples/js_cral/cral.js, a JavaScript program written from the public pages alone (every
mode, exact BigInt rationals, serve mode), is judged like any outside program: it answers
the worked examples whose answer has no free choice exactly as the reference does (passive,
loss_difference_samples, every tape of the cral-tape-v1 vectors, a seed of 2^64 - 1
included), the conformance kit reads every document it sends, and `crosscheck` on two
cases agrees on every algorithm. Skipped where Node is absent; the full `check` is not run
here (minutes)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from properties.judge.conformance import REQUESTS
from tests.support import REPO_ROOT

ROOT = REPO_ROOT
PROGRAM = ROOT / "examples" / "js_cral" / "cral.js"
EXAMPLES = ROOT / "docs" / "examples"
NODE = shutil.which("node")
COMMAND = f"{NODE} {PROGRAM}"
MODES = {
    "passive",
    "robust_cal",
    "robust_cal_vanilla",
    "calruption",
    "calruption_epoch",
    "catoni_root",
    "sample_tape",
    "loss_difference_samples",
}
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")


def _answer(request: dict) -> dict:
    request = {k: v for k, v in request.items() if k != "output"}  # the answer on stdout
    result = subprocess.run([NODE, str(PROGRAM)], input=json.dumps(request), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _properties(*arguments: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "properties", *arguments, "--candidate-cmd", COMMAND, "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return json.loads(result.stdout)


def test_describe_declares_every_mode_exactly():
    described = _answer({"format": "cral-run-request", "version": 1, "algorithm": "describe"})
    assert set(described["implements"]) == MODES, described
    assert described["arithmetic"] == "exact", described
    assert described.get("serve") is True, described


@pytest.mark.parametrize("mode", ["passive", "loss_difference_samples"])
def test_answers_a_worked_example_without_free_choices(mode):
    request = json.loads((EXAMPLES / f"{mode}.request.json").read_text())
    assert _answer(request) == json.loads((EXAMPLES / f"{mode}.result.json").read_text())


def test_sample_tape_reproduces_the_vectors():
    vectors = json.loads((EXAMPLES / "tape_vectors.json").read_text())
    for case in vectors["tapes"]:
        request = {
            "format": "cral-run-request",
            "version": 1,
            "algorithm": "sample_tape",
            "instance": case["instance"],
            "adversary": case["adversary"],
            "seed": case["seed"],
        }
        assert _answer(request) == case["tape"], case["name"]


def test_the_kit_reads_every_document():
    report = _properties("conformance")
    assert report["ok"], [d for d in report["documents"] if d["problems"]]
    # every mode declared, exact arithmetic: the kit's whole list, bad inputs included
    assert [d["request"] for d in report["documents"]] == [label for label, _ in REQUESTS]


def test_crosscheck_agrees_on_two_cases():
    report = _properties("crosscheck", "--cases", "2")
    assert report["mismatches"] == [], report["mismatches"]
    for algorithm in ("passive", "robust_cal", "robust_cal_vanilla", "calruption"):
        counts = report["algorithms"][algorithm]
        assert counts["agreed"] == counts["cases"] == 2, (algorithm, counts)
