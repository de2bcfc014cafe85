"""The campaign's summaries and figure: Clopper-Pearson intervals against their closed
forms at the edges, the coverage verdict, and the plot's input checks (one ValueError
naming the field, an install hint when matplotlib is missing)."""

from __future__ import annotations

import math
import sys

import pytest

from properties.campaign import experiments, plots

ROW = {
    "algorithm": "RobustCAL",
    "adversary": "clean",
    "n": 1000,
    "seeds": 3,
    "labels_mean": 900.0,
    "labels_ci_low": 850.0,
    "labels_ci_high": 950.0,
    "labels_min": 880,
    "labels_max": 920,
    "output_is_best_fraction": 1.0,
    "every_seed_best": True,
}


@pytest.mark.parametrize("trials", [1, 7, 1000])
@pytest.mark.parametrize("level", [0.9, 0.99995])
def test_clopper_pearson_edges_match_their_closed_forms(trials, level):
    tail = (1 - level) / 2
    low, high = experiments.clopper_pearson(0, trials, level)
    assert low == 0 and math.isclose(high, 1 - tail ** (1 / trials), rel_tol=1e-9)
    low, high = experiments.clopper_pearson(trials, trials, level)
    assert high == 1 and math.isclose(low, tail ** (1 / trials), rel_tol=1e-9)


def test_clopper_pearson_contains_the_frequency_and_narrows_with_trials():
    wide, narrow = experiments.clopper_pearson(5, 50, 0.95), experiments.clopper_pearson(500, 5000, 0.95)
    assert wide[0] < 0.1 < wide[1] and narrow[0] < 0.1 < narrow[1]
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_coverage_summary_flags_a_slot_only_when_its_interval_lies_above_delta():
    spec = experiments.validate_spec(dict(experiments.BUILTIN_SPECS["coverage"], replicates=2))
    # delta_pair is 1/16 here: 400 of 1000 is far above it, 60 of 1000 is not
    rows = [
        {"task": "a", "params": {}, "result": {"tallies": [[1, 0, 1, 500, 200], [1, 0, 2, 500, 30]]}},
        {"task": "b", "params": {}, "result": {"tallies": [[1, 0, 1, 500, 200], [1, 0, 2, 500, 30]]}},
    ]
    summary = experiments.summarize(spec, rows)
    assert summary["delta_pair"] == "1/16"
    by_pair = {tuple(r["pair"]): r for r in summary["rows"]}
    assert by_pair[(0, 1)]["trials"] == 1000 and by_pair[(0, 1)]["violations"] == 400
    assert by_pair[(0, 1)]["exceeds_delta"] and not by_pair[(0, 2)]["exceeds_delta"]
    assert summary["slots_exceeding_delta"] == 1


@pytest.mark.parametrize(
    "change, field",
    [
        ({"labels_ci_low": 990.0}, "labels_ci_low"),
        ({"every_seed_best": False}, "every_seed_best"),
        ({"n": 0}, "n"),
        ({"labels_mean": float("nan")}, "labels_mean"),
        ({"algorithm": ""}, "algorithm"),
    ],
)
def test_plot_rows_are_checked_field_by_field(change, field, tmp_path):
    with pytest.raises(ValueError, match=rf"rows\[0\]\.{field}"):
        plots.plot_label_curves([{**ROW, **change}], tmp_path / "x")
    assert not list(tmp_path.iterdir())


def test_a_missing_matplotlib_is_one_line_with_the_install_hint(monkeypatch, tmp_path):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r"pip install .*\[plots\]"):
        plots.plot_label_curves([ROW], tmp_path / "x")


def test_intervals_of_two_seeds_stay_in_range_and_name_their_method(tmp_path):
    """2 seeds whose label counts differ tenfold: a Student t interval reaches far below 0
    (a figure that clipped it at 1 without saying so would mislead); the bootstrap interval stays in
    [0, n], contains the mean, and its method is in the row, the CSV and the legend.
    The h* fraction gets a Wilson interval in [0, 1]."""
    import csv

    from properties.campaign import experiments
    from properties.campaign.cli import write_csv
    from properties.campaign.plots import label_curves_figure

    spec = {
        "experiment": "curves",
        "master_seed": 7,
        "points": 64,
        "hypotheses": 16,
        "delta": "1/10",
        "algorithms": ["RobustCAL"],
        "adversaries": ["clean"],
        "n": [100000],
        "replicates": 2,
    }
    rows = [
        {
            "task": f"t{i}",
            "params": {"algorithm": "RobustCAL", "adversary": "clean", "n": 100000, "replicate": i},
            "result": {"labels": labels, "output_is_best": best},
        }
        for i, (labels, best) in enumerate([(3000, True), (30000, False)])
    ]
    row = experiments.summarize(spec, rows)["rows"][0]
    assert row["seeds"] == 2 and row["labels_mean"] == 16500
    assert 0 <= row["labels_ci_low"] <= row["labels_mean"] <= row["labels_ci_high"] <= 100000, row
    assert (row["labels_ci_low"], row["labels_ci_high"]) == (3000, 30000), row  # 2 seeds: their range
    assert row["labels_ci_method"] == experiments.LABELS_CI_METHOD and "bootstrap" in row["labels_ci_method"]
    assert 0 < row["output_is_best_ci_low"] < 0.5 < row["output_is_best_ci_high"] < 1, row
    assert row["output_is_best_ci_method"].startswith("Wilson")
    write_csv([row], tmp_path / "s.csv")
    with open(tmp_path / "s.csv", newline="") as handle:
        assert next(csv.DictReader(handle))["labels_ci_method"] == experiments.LABELS_CI_METHOD
    figure = label_curves_figure([row])
    legend = [text.get_text() for text in figure.legends[0].get_texts()]
    assert f"95% CI ({experiments.LABELS_CI_METHOD}) over 2 seeds" in legend, legend
    assert not any("drawn at" in text for text in legend), legend  # nothing below 1 here
    zero = dict(row, labels_ci_low=0.0, labels_min=0)
    legend = [text.get_text() for text in label_curves_figure([zero]).legends[0].get_texts()]
    assert "values below 1 drawn at 1" in legend, legend


def test_the_figure_has_a_title_its_legend_fits_and_no_epoch_points_are_crosses():
    """Five algorithms, the long interval name, values below 1 and no-epoch points: the legend
    (every entry) stays inside the canvas, the figure is titled, and a no-epoch point is drawn
    as a cross with its own legend entry, not as a hollow (wrong-output) marker."""
    pytest.importorskip("matplotlib")
    from properties.campaign.plots import label_curves_figure

    rows = []
    for algorithm in ("passive", "RobustCAL", "CALruption", "uncertainty", "RobustCAL-vanilla"):
        rows.append(
            dict(
                ROW,
                algorithm=algorithm,
                labels_ci_low=0.0,
                labels_min=0,
                labels_ci_method=experiments.LABELS_CI_METHOD,
                no_epoch=algorithm == "CALruption",
                output_is_best_fraction=0.0 if algorithm == "CALruption" else 1.0,
                every_seed_best=algorithm != "CALruption",
            )
        )
    figure = label_curves_figure(rows)
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    box = figure.legends[0].get_window_extent(renderer)
    assert 0 <= box.x0 and box.x1 <= figure.bbox.width and 0 <= box.y0, (box, figure.bbox)
    assert figure.get_suptitle()
    legend = [text.get_text() for text in figure.legends[0].get_texts()]
    assert any("no epoch completed" in text for text in legend), legend
    markers = [line.get_marker() for line in figure.axes[0].lines if line.get_linestyle() == "None"]
    assert "x" in markers, markers
    hollow = [
        line
        for line in figure.axes[0].lines
        if line.get_linestyle() == "None" and line.get_marker() == "o" and line.get_markerfacecolor() == "white"
    ]
    assert not hollow, "a no-epoch point drawn as a wrong output"


def test_the_summary_text_says_no_epoch_instead_of_a_wrong_output():
    """A curves summary row of CALruption below its first epoch's length (completes_no_epoch)
    prints "no epoch" in the h* column and a line saying why, not an h* fraction of 0.00."""
    from properties.campaign.cli import summary_text

    first = experiments.first_epoch_n(16, "1/10")
    row = dict(
        ROW,
        algorithm="CALruption",
        n=first - 1,
        output_is_best_fraction=0.0,
        every_seed_best=False,
        labels_ci_method=experiments.LABELS_CI_METHOD,
        output_is_best_ci_method=experiments.RATE_CI_METHOD,
        no_epoch=experiments.completes_no_epoch("CALruption", first - 1, 16, "1/10"),
    )
    text = summary_text({"experiment": "curves", "finished": 1, "tasks": 1, "errors": [], "rows": [row]})
    line = next(x for x in text.splitlines() if x.startswith("CALruption"))
    assert line.rstrip().endswith("no epoch") and "0.00" not in line, line
    assert "not a wrong output" in text
