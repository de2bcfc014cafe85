"""bench/gpu_scaling.py's argument handling and a tiny CPU run, bench/calruption_scaling.py's
floor estimate, and `answer --backend`."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from tests.support import REPO_ROOT

ROOT = REPO_ROOT
SCRIPT = ROOT / "bench" / "gpu_scaling.py"


def _load(name: str):
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(*args, env=None):
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.parametrize(
    "args,field",
    [
        (["--sizes", "12,x"], "--sizes"),
        (["--sizes", "1"], "--sizes"),
        (["--budget", "0"], "--budget"),
        (["--n", "ten"], "--n"),
        (["--compare-sizes", ""], "--compare-sizes"),
        (["--backend", "tensorflow"], "--backend"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args, field):
    result = _run("--backend", "numpy", *args) if "--backend" not in args else _run(*args)
    assert result.returncode == 2, result
    lines = [line for line in result.stderr.splitlines() if line.startswith("error") or "error:" in line]
    assert lines and field in lines[-1], result.stderr


def test_no_gpu_backend_is_one_line_and_exit_2():
    gpu = _load("gpu_scaling")
    from fast.backends import gpu_backend

    if gpu_backend() is not None:
        pytest.skip("a GPU backend is installed here")
    result = _run()
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "no GPU backend" in result.stderr
    assert gpu.SIZES[-1] == 16384


def test_a_tiny_cpu_run_writes_its_figures_and_agrees(tmp_path):
    out = tmp_path / "gpu.json"
    result = _run("--backend", "numpy", "--sizes", "64", "--compare-sizes", "64", "--json", str(out))
    assert result.returncode == 0, result.stderr
    report = json.loads(out.read_text())
    assert report["backend"] == "numpy" and [r["hypotheses"] for r in report["sizes"]] == [64]
    row = report["sizes"][0]
    assert row["seconds"] > 0 and row["cpu_s"] > 0 and row["epochs_completed"] >= 1 and row["output"] == row["best"]
    assert report["agreement"] == [{"hypotheses": 64, "bitwise": True, "within_tolerance": True, "mismatches": []}]


def test_a_tiny_resident_run_on_array_api_strict_agrees_with_the_host(tmp_path):
    """The script's GPU route (fast/epoch_device.py) on array-api-strict, which refuses
    anything outside the array API standard, held against numpy's host epoch."""
    pytest.importorskip("array_api_strict")
    out = tmp_path / "gpu.json"
    result = _run(
        "--backend", "array-api-strict", "--device", "device1", "--resident", "yes", "--sizes", "48",
        "--compare-sizes", "48",
        "--json", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(out.read_text())
    assert report["resident"] == "yes" and report["sizes"][0]["output"] == report["sizes"][0]["best"]
    (agreement,) = report["agreement"]
    assert agreement["within_tolerance"] and not agreement["mismatches"], agreement


def test_compare_reports_a_changed_count_and_a_float_beyond_tolerance():
    import numpy as np

    import fast

    gpu = _load("gpu_scaling")
    instance, adversary, params = gpu.workload(16, 10**8)
    a = fast.calruption_counts(instance, adversary, params, 1, raw=True)
    b = fast.calruption_counts(instance, adversary, params, 1, raw=True)
    assert gpu.compare(a, b)["bitwise"]
    e = b.epochs[-1]
    e.rho_counts[0, 1] += 1
    finite = np.flatnonzero(np.isfinite(e.W.ravel()))
    e.W.ravel()[finite[0]] += 1e-3
    e.risk_hat[0] += 1e-18  # within risk_hat's tolerance: not bitwise, but accepted
    result = gpu.compare(a, b)
    kinds = {(m["field"], m["kind"]) for m in result["mismatches"]}
    assert not result["bitwise"] and not result["within_tolerance"]
    assert ("rho_counts", "integer") in kinds and ("W", "float beyond tolerance") in kinds
    assert not any(m["field"] == "risk_hat" for m in result["mismatches"])


def test_floor_estimate_counts_the_catoni_slots_and_one_pass_over_h():
    scaling = _load("calruption_scaling")
    # 4 hypotheses: 6 pairs; epochs with 1 and 2 groups: 6 x 3 + 6 x 5 slots, plus 2 passes of 4 x 8
    assert scaling.floor_estimate(4, 8, [1, 2], 1.0) == 6 * 3 + 6 * 5 + 2 * 32
    assert scaling.pass_seconds_per_element(1) > 0


def test_answer_backend_flag(tmp_path):
    document = json.loads((ROOT / "docs" / "examples" / "calruption_epoch.request.json").read_text())
    document.pop("output", None)  # the result on stdout
    request = tmp_path / "request.json"
    request.write_text(json.dumps(document))
    outputs = []
    for extra in ([], ["--backend", "array-api-strict"]):
        result = subprocess.run(
            [sys.executable, "-m", "properties", "answer", "--impl", "fast", *extra, str(request)],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=ROOT,
        )
        assert result.returncode == 0, result.stderr
        outputs.append(json.loads(result.stdout))
    assert outputs[0] == outputs[1] and outputs[0]["format"] == "cral-epoch-result"
    bad = subprocess.run(
        [sys.executable, "-m", "properties", "answer", "--impl", "fast", "--backend", "torch:mps", str(request)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and ("backend" in bad.stderr or "device" in bad.stderr)


def test_replay_compares_epoch_by_epoch():
    """The agreement check replays each epoch on numpy's host epoch from its own inputs: a
    tampered W shows in its epoch alone, and an untampered host run is its own replay bit
    for bit."""
    import numpy as np

    from fast.backends import get_backend

    gpu = _load("gpu_scaling")
    run, *_, draws = gpu.run_once(24, 10**9, get_backend("numpy"), record_draws=True)
    assert len(draws[2]) == len(run.epochs) + (run.unfinished_rounds > 0) and len(run.epochs) >= 3
    assert gpu.compare(run, gpu.replay(run, draws))["bitwise"]
    e = run.epochs[2]
    finite = np.flatnonzero(np.isfinite(e.W.ravel()))
    e.W.ravel()[finite[0]] += 1e-3
    result = gpu.compare(run, gpu.replay(run, draws))
    assert {(m["epoch"], m["field"]) for m in result["mismatches"]} == {(e.l, "W")}, result
