"""examples/js_cral/cral.mjs, a JavaScript program written from docs/spec.md alone (describe,
passive, sample_tape, loss_difference_samples), answers as the reference does: the worked passive example, every tape
of the cral-tape-v1 vectors (a seed of 2^64 - 1 included, read from the raw text as spec S2
advises), and the conformance kit reads all its documents. Skipped where Node is absent."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "examples" / "js_cral" / "cral.mjs"
EXAMPLES = ROOT / "docs" / "examples"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")


def _answer(request: dict) -> dict:
    request = {k: v for k, v in request.items() if k != "output"}  # the answer on stdout
    result = subprocess.run([NODE, str(PROGRAM)], input=json.dumps(request), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_passive_answers_the_worked_example():
    request = json.loads((EXAMPLES / "passive.request.json").read_text())
    assert _answer(request) == json.loads((EXAMPLES / "passive.result.json").read_text())


def test_loss_difference_samples_answers_the_worked_example():
    request = json.loads((EXAMPLES / "loss_difference_samples.request.json").read_text())
    assert _answer(request) == json.loads((EXAMPLES / "loss_difference_samples.result.json").read_text())


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
    result = subprocess.run(
        [sys.executable, "-m", "properties", "conformance", "--candidate-cmd", f"{NODE} {PROGRAM}", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["ok"]
    assert {d["request"] for d in report["documents"]} == {
        "describe",
        "passive",
        "sample_tape",
        "loss_difference_samples",
    }
