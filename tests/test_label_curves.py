"""bench/label_curves.py end to end on its --quick grid (n up to 10^6, one seed): every
(algorithm, adversary) pair is in the CSV, passive ERM pays n labels, the active learners
at most n, and the PNG is a well-formed PNG of the advertised size."""
from __future__ import annotations

import csv
import importlib.util
import itertools
import os
import struct
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "label_curves.py"


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


def test_quick_run_writes_all_curves_and_a_png(label_curves, tmp_path):
    csv_path, png_path = tmp_path / "results" / "curves.csv", tmp_path / "figure" / "curves.png"
    assert label_curves.main(["--quick", "--csv", str(csv_path), "--png", str(png_path)]) == 0

    with open(csv_path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == label_curves.COLUMNS
    combos = {(r["algorithm"], r["adversary"]) for r in rows}
    assert combos == set(itertools.product(("passive", "RobustCAL", "CALruption"), ("clean", "misspecified", "early_burst")))
    grid = label_curves.grid(6)
    for algorithm, adversary in combos:
        mine = [r for r in rows if (r["algorithm"], r["adversary"]) == (algorithm, adversary)]
        assert [int(r["n"]) for r in mine] == grid
    for r in rows:
        n = int(r["n"])
        mean, low, high = float(r["labels_mean"]), int(r["labels_min"]), int(r["labels_max"])
        assert r["seeds"] == "1"
        assert 0 <= float(r["output_is_best_fraction"]) <= 1
        if r["algorithm"] == "passive":
            assert mean == low == high == n
        else:
            assert 0 < low <= mean <= high <= n
    # the copy beside the figure is the same table
    assert png_path.with_suffix(".csv").read_text() == csv_path.read_text()

    data = png_path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (label_curves.WIDTH, label_curves.HEIGHT) == (1200, 450)


@pytest.mark.parametrize("argv", [["--seeds", "0"], ["--max-exponent", "2"], ["--max-exponent", "twelve"],
                                  ["--png", "figure.jpg"]])
def test_bad_input_exits_2_with_one_line(label_curves, tmp_path, capsys, argv):
    assert label_curves.main(argv + ["--csv", str(tmp_path / "x.csv")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert not (tmp_path / "x.csv").exists()
