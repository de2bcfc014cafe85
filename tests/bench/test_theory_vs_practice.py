"""bench/theory_vs_practice.py --tiny: the report and its figures from one command."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from tests.support import REPO_ROOT

ROOT = REPO_ROOT


def _load(name):
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tiny_report(tmp_path):
    pytest.importorskip("matplotlib")
    bench = _load("theory_vs_practice")
    results = tmp_path / "rows.jsonl"
    assert bench.main(["--tiny", "--serial", "--out", str(tmp_path), "--results", str(results)]) == 0
    report = (tmp_path / "theory_vs_practice.md").read_text()
    for needle in (
        "## Measured against each bound",
        "| 3.1 | excess_risk | corrected |",
        "| 4.1 | labels | corrected |",
        "## The strongest adversary found",
        "theory_vs_practice_ratios.png",
    ):
        assert needle in report
    assert (tmp_path / "theory_vs_practice_ratios.png").stat().st_size > 0
    assert (tmp_path / "theory_vs_practice_best.png").stat().st_size > 0
    summary = json.loads((tmp_path / "theory-tiny.json").read_text())["summary"]
    assert summary["finished"] == summary["tasks"] and not summary["errors"]
    for row in summary["rows"]:
        assert 0 <= row["labels_min"] <= row["labels_max"] <= row["n"]
        if row["algorithm"] == "passive":
            assert row["labels_min"] == row["n"]  # ERM asks for every label
        for bound in row["bounds"]:
            assert bound["value"] is None or bound["value"] > 0
    # a second run resumes: every task is in the results file already
    lines = results.read_text().count("\n")
    assert bench.main(["--tiny", "--serial", "--out", str(tmp_path), "--results", str(results), "--no-search"]) == 0
    assert results.read_text().count("\n") == lines


def test_bad_flags_exit_2(capsys):
    bench = _load("theory_vs_practice")
    assert bench.main(["--tiny", "--quick"]) == 2
    assert bench.main(["--workers", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "--workers" in err
