"""bench/theory_vs_practice.py --tiny: the report and its figures from one command; its rates
(bench/_rates.py), its no-epoch marking, the real-data adversaries and the search's baselines."""

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
    findings = report.split("## Findings", 1)[1].split("\n## ", 1)[0]
    from reference.params import BETA1_OVER_BETA3
    from reference.theorem_constants import BETA1_OVER_BETA3_NEEDED

    # the page opens with what was learned, the regime finding first, its numbers computed
    first = findings.strip().splitlines()[0]
    assert first.startswith("1. ") and f"{BETA1_OVER_BETA3} beta3" in first, first
    assert f"{BETA1_OVER_BETA3_NEEDED} beta3" in first, first
    assert report.index("## Findings") < report.index("## What was run")
    for needle in (
        "## Rates",
        "no epoch completed",
        "theory_vs_practice_rates.png",
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
    from properties.campaign.experiments import first_epoch_n

    first_n = first_epoch_n(16, "1/10")  # thresholds-noisy has 16 hypotheses
    for row in summary["rows"]:
        assert row["no_epoch"] == (row["algorithm"] == "CALruption" and row["n"] < first_n), row
        if row["no_epoch"]:
            assert row["labels_min"] == row["n"]  # no epoch: every round queried
    # the search never answers with an adversary weaker than a baseline (the clean run, the shipped ones)
    found = json.loads((tmp_path / "theory_vs_practice_adversaries.json").read_text())["found"]
    assert found
    for entry in found:
        assert set(entry["baselines"]) == {"clean", "misspecified", "early_burst"}, entry["baselines"]
        assert entry["objective"] >= max(b["objective"] for b in entry["baselines"].values()), entry
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


def test_the_first_epoch_starts_at_the_fixed_point_of_its_length():
    """CALruption completes an epoch from n = |I_1|(n) on, not one round before (the run's own
    count of completed epochs says so), and |I_1| depends on |H| through beta3."""
    import fast
    import reference as R
    from properties.campaign.experiments import completes_no_epoch, first_epoch_n, thresholds_instance
    from reference.calruption import epoch_length

    n0 = first_epoch_n(16, "1/10")
    assert epoch_length(R.Params.paper(n0, 16, "1/10"), 1) == n0
    assert completes_no_epoch("CALruption", n0 - 1, 16, "1/10") and not completes_no_epoch("CALruption", n0, 16, "1/10")
    assert not completes_no_epoch("RobustCAL", 10, 16, "1/10")
    assert first_epoch_n(64, "1/10") > n0
    instance = thresholds_instance(64, 16)
    for n, epochs in ((n0 - 1, 0), (n0, 1)):
        run = fast.calruption_counts(instance, R.adversary.clean(n), R.Params.paper(n, 16, "1/10"), 1)
        assert len(run.epochs) == epochs, (n, run.epochs)


def test_rates_recover_a_known_exponent_and_say_when_there_is_none():
    rates = _load("_rates")
    points = [(n, [3.0 * n**0.5 * f for f in (0.9, 1.0, 1.1)]) for n in (10**4, 10**6, 10**8)]
    fit = rates.bootstrap_slope(points)
    assert abs(fit["slope"] - 0.5) < 1e-9 and fit["ci_low"] <= 0.5 <= fit["ci_high"], fit
    assert fit["ci_high"] - fit["ci_low"] < 0.1, fit  # 10% noise on 4 decades: a narrow interval
    assert rates.bootstrap_slope([(n, [7, 7]) for n in (10, 100)])["slope"] == 0
    assert rates.bootstrap_slope([(10, [0, 0]), (100, [1, 2])]) is None  # a mean of 0 has no log
    assert rates.bootstrap_slope([(10, [1, 2])]) is None
    assert rates.fit_grid([10**k for k in range(3, 13)]) == [10**k for k in range(8, 13)]
    assert rates.fit_grid([10**3, 10**4]) == [10**3, 10**4]


def test_budgets_in_order_of_size_and_real_data_under_the_burst(tmp_path):
    pytest.importorskip("matplotlib")
    bench = _load("theory_vs_practice")
    spec = {"budgets": ["n/8", "zero", "n/log n", "n^1/2", "n/32", "n^1/4"], "n": [10**3, 10**12]}
    assert bench.budget_order(spec) == ["zero", "n^1/4", "n^1/2", "n/32", "n/log n", "n/8"]
    spec = {"delta": "1/10", "algorithms": ["RobustCAL-vanilla", "CALruption"]}
    rows = bench.run_real_adversaries(spec, ["digits-3v8"], "tiny")
    assert {r["adversary"] for r in rows} == {"clean", "misspecified", "early_burst"}
    for row in rows:
        assert row["no_epoch"] == (row["algorithm"] == "CALruption"), row  # n <= 10^4: no epoch
        # the burst spends 4/5 of every round up to n/10: outside Theorem 4.1's premise
        assert row["theorem41_premise"] == (row["adversary"] != "early_burst"), row
    figure = bench.figure_real_adversaries(rows, tmp_path / "tvp", spec, {"digits-3v8": 10**6})
    assert figure.name == "tvp_real_adversaries.png" and figure.stat().st_size > 0
