"""bench/label_curves.py end to end on its --quick campaign (n up to 10^5, two seeds, one
local Dask worker): every (algorithm, adversary, n) is in the CSV, passive ERM pays n
labels, the active learners at most n, the confidence band holds the mean, and the PNG
(1200 x 450) and SVG are well formed and the same bytes when drawn twice; the figures of
the docs are not touched."""

from __future__ import annotations

import csv
import importlib.util
import itertools
import json
import os
import struct
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from tests.support import REPO_ROOT

SCRIPT = REPO_ROOT / "bench" / "label_curves.py"


@pytest.fixture
def label_curves(monkeypatch):
    # the script puts bench/ on sys.path and pins the BLAS thread variables on import;
    # both are undone after the test so the rest of the session is unaffected
    monkeypatch.setattr(sys, "path", list(sys.path))
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(var, os.environ.get(var, "1"))
    spec = importlib.util.spec_from_file_location("label_curves", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_quick_run_writes_all_curves_a_png_and_an_svg(label_curves, tmp_path):
    docs = {path: path.read_bytes() for path in (SCRIPT.parent.parent / "docs").glob("label_curves.*")}
    out, results, report = tmp_path / "figure" / "curves", tmp_path / "curves.jsonl", tmp_path / "report.json"
    argv = ["--quick", "--workers", "1", "--out", str(out), "--results", str(results), "--report", str(report)]
    assert label_curves.main(argv) == 0
    assert {path: path.read_bytes() for path in docs} == docs, "a quick run must not overwrite docs/"

    from properties.campaign import experiments

    spec = experiments.BUILTIN_SPECS["curves-quick"]
    with open(out.with_name("curves.csv"), newline="") as handle:
        rows = list(csv.DictReader(handle))
    combos = {(r["algorithm"], r["adversary"]) for r in rows}
    assert combos == set(itertools.product(spec["algorithms"], spec["adversaries"]))
    for algorithm, adversary in combos:
        mine = [r for r in rows if (r["algorithm"], r["adversary"]) == (algorithm, adversary)]
        assert [int(r["n"]) for r in mine] == spec["n"]
    for r in rows:
        n, seeds = int(r["n"]), int(r["seeds"])
        mean, low, high = float(r["labels_mean"]), int(r["labels_min"]), int(r["labels_max"])
        assert seeds == spec["replicates"]
        assert float(r["labels_ci_low"]) <= mean <= float(r["labels_ci_high"])
        assert 0 <= float(r["output_is_best_fraction"]) <= 1
        assert (r["every_seed_best"] == "True") == (float(r["output_is_best_fraction"]) == 1)
        if r["algorithm"] == "passive":
            assert mean == low == high == n
        else:
            assert 0 < low <= mean <= high <= n
    assert json.loads(report.read_text())["summary"]["finished"] == len(experiments.tasks(spec))

    png, svg = out.with_name("curves.png"), out.with_name("curves.svg")
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    assert struct.unpack(">II", data[16:24]) == (1200, 450)
    assert ElementTree.fromstring(svg.read_bytes()).tag.endswith("svg")
    # resumed from the results file (nothing to run) and drawn again: the same bytes
    first = (data, svg.read_bytes())
    assert label_curves.main(argv) == 0
    assert (png.read_bytes(), svg.read_bytes()) == first


@pytest.mark.parametrize("argv", [["--workers", "0"], ["--workers", "two"], ["--colour", "red"]])
def test_bad_input_exits_2_with_one_line(label_curves, tmp_path, capsys, argv):
    assert label_curves.main(argv + ["--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert not list(tmp_path.iterdir())
