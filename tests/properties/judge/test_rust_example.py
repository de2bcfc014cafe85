"""The Rust example (examples/rust_cral): a program in another language, judged through
the run protocol (docs/protocol.md).

The example is built once per session (examples/rust_cral/build.sh, offline, no crates),
with its deliberately broken variant beside it. Without cargo (on PATH or in
~/.cargo/bin) every test here is skipped, and says so. The program is judged through the
harness's command route (`--candidate-cmd`) and, independently of it, compared with the
reference by examples/rust_cral/compare.py."""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support import REPO_ROOT

ROOT = REPO_ROOT
EXAMPLE = ROOT / "examples" / "rust_cral"
# examples/rust_cral/compare.py, loaded by path under a name that cannot shadow anything
_spec = importlib.util.spec_from_file_location("rust_cral_compare", EXAMPLE / "compare.py")
compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare)

# The bug of the broken build (README there): the modified threshold lacks its rho^/2
# term. These checks recompute line 10's modified threshold and must catch it; their
# vanilla twins recompute the vanilla rule, which the broken build still gets right.
CATCHING_CHECKS = ("check_robust_cal_elimination_recomputed", "check_robust_cal_elimination_on_boundary_streams")
VANILLA_TWINS = (
    "check_robust_cal_vanilla_elimination_recomputed",
    "check_robust_cal_vanilla_elimination_on_boundary_streams",
)


def _cargo() -> str | None:
    found = shutil.which("cargo")
    if found:
        return found
    home = Path.home() / ".cargo" / "bin" / "cargo"
    return str(home) if home.is_file() else None


@pytest.fixture(scope="module")
def binaries() -> dict:
    cargo = _cargo()
    if cargo is None:
        pytest.skip("cargo not found on PATH or in ~/.cargo/bin: the Rust example (examples/rust_cral) cannot be built")
    env = {**os.environ, "PATH": f"{Path(cargo).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    built = {}
    for variant, args in (("good", []), ("broken", ["--broken"])):
        proc = subprocess.run(
            ["sh", str(EXAMPLE / "build.sh"), *args], capture_output=True, text=True, env=env, timeout=900
        )
        # a build that fails is a failure of the example, not a reason to skip
        assert proc.returncode == 0, f"build.sh {' '.join(args)} failed:\n{proc.stderr[-3000:]}"
        built[variant] = proc.stdout.strip().splitlines()[-1]
        assert Path(built[variant]).is_file(), built[variant]
    assert built["good"] != built["broken"]
    return built


def _properties(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "properties", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "CI": "true"},
        timeout=timeout,
    )


def _check(binary: str, *only: str) -> dict:
    with tempfile.TemporaryDirectory() as kept:  # the request files of failing checks
        args = ["check", "--candidate-cmd", shlex.quote(binary), "--json", "--keep-requests", kept]
        if only:
            args += ["--only", *only]
        proc = _properties(*args)
    assert proc.returncode in (0, 1), f"exit {proc.returncode}: {proc.stderr[-3000:]}"
    return {c["name"]: c for c in json.loads(proc.stdout)["checks"]}


# -- (1)-(3): through the harness's command route ------------------------------------------
def test_crosscheck_through_the_command_route_has_no_mismatch(binaries):
    proc = _properties(
        "crosscheck",
        "--candidate-cmd",
        shlex.quote(binaries["good"]),
        "--cases",
        "50",
        "--algorithms",
        *compare.ALGORITHMS,
        "--json",
    )
    assert proc.returncode == 0, f"exit {proc.returncode}: {proc.stdout[-3000:]} {proc.stderr[-3000:]}"
    summary = json.loads(proc.stdout)
    assert summary["mismatches"] == []
    assert summary["arithmetic"] == "exact"
    for algorithm in compare.ALGORITHMS:
        assert summary["algorithms"][algorithm]["agreed"] == 50, summary["algorithms"][algorithm]


@pytest.mark.slow  # every registered check through the program (~20 s); the default run keeps the
# 50-case cross-check and the broken build's checks through the same route
def test_every_check_passes_or_does_not_apply(binaries):
    checks = _check(binaries["good"])
    failed = {name: c["violations"][:1] for name, c in checks.items() if c["status"] == "failed"}
    assert not failed
    # not vacuous: the checks of what the program implements ran and passed
    for name in ("check_passive_output_is_erm", *CATCHING_CHECKS, *VANILLA_TWINS):
        assert checks[name]["status"] == "passed", checks[name]
    # and the ones of what it does not implement were not applicable (not failed, not run)
    assert checks["check_catoni_root_rejects_bad_arguments"]["status"] == "not applicable"


def test_the_broken_build_is_caught_by_the_threshold_checks(binaries):
    checks = _check(binaries["broken"], *CATCHING_CHECKS, *VANILLA_TWINS)
    for name in CATCHING_CHECKS:
        assert checks[name]["status"] == "failed", checks[name]
        assert "threshold" in " ".join(checks[name]["violations"])
    for name in VANILLA_TWINS:  # the bug is in the modified rule only
        assert checks[name]["status"] == "passed", checks[name]


@pytest.mark.slow
def test_the_broken_build_fails_exactly_the_threshold_checks(binaries):
    checks = _check(binaries["broken"])
    failed = sorted(name for name, c in checks.items() if c["status"] == "failed")
    assert failed == sorted(CATCHING_CHECKS)


# -- (4): against the reference without the harness (examples/rust_cral/compare.py) --------
def test_compare_script_agrees_with_the_reference(binaries, capsys):
    # six cases: the .npy tape layout on every third, the counter-example instance (case 9 of
    # the fixed set) included
    status = compare.main(["--binary", binaries["good"], "--cases", "10", "--npy-every", "3", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0, report
    for algorithm in compare.ALGORITHMS:
        assert report["algorithms"][algorithm]["agree"] == 10, report["algorithms"][algorithm]
    assert report["enclosures"] > 0


def test_compare_script_sees_the_broken_build_disagree(binaries, capsys):
    status = compare.main(["--binary", binaries["broken"], "--cases", "10", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 1
    assert report["algorithms"]["robust_cal"]["disagree"] > 0
    assert report["algorithms"]["robust_cal_vanilla"]["disagree"] == 0
    assert report["algorithms"]["passive"]["disagree"] == 0


# -- bad input: an error document naming the field, exit status 2 ---------------------------
def _good_request(tmp_path: Path, algorithm: str = "robust_cal") -> dict:
    from properties.strategies import fixed_crosscheck_cases

    case = fixed_crosscheck_cases(1)[0]
    return compare.request_for(case, algorithm, tmp_path, npy=False)


def _run(binary: str, request, tmp_path: Path):
    path = tmp_path / "request.json"
    path.write_text(request if isinstance(request, str) else json.dumps(request))
    proc = subprocess.run([binary, str(path)], capture_output=True, text=True, timeout=60)
    out = tmp_path / "result.json"
    document = json.loads(out.read_text() if out.exists() else proc.stdout)
    if out.exists():
        out.unlink()
    return proc.returncode, document


def _mutations(request: dict):
    """(what is wrong, the bad request, a text the message must contain)."""

    def changed(path, value):
        bad = json.loads(json.dumps(request))
        target = bad
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return bad

    m = len(request["hypotheses"][0])
    yield "label 2 in H", changed(("hypotheses", 0, 0), 2), "hypotheses[0][0]"
    yield "label 2 on the tape", changed(("tape", "y", 3), 2), "tape.y[3]"
    yield "a short row of H", changed(("hypotheses", 1), [0] * (m - 1)), "hypotheses[1]"
    yield "tape fields of different lengths", changed(("tape", "u"), request["tape"]["u"][:-1]), "differ in length"
    yield "a coin of 1", changed(("tape", "u", 0), "1/1"), "tape.u[0]"
    yield "a point outside X", changed(("tape", "x", 5), m), "tape.x[5]"
    yield "a float delta", changed(("params", "delta"), 0.1), "params.delta"
    yield "params for another n", changed(("params", "n"), request["params"]["n"] + 1), "params.n"
    yield "an unknown params field", changed(("params", "extra"), 1), "params has unknown field 'extra'"
    yield "a wrong request format", changed(("format",), "cral-run"), "request.format"


def test_bad_input_gets_an_error_document_naming_the_field(binaries, tmp_path):
    request = _good_request(tmp_path)
    code, document = _run(binaries["good"], request, tmp_path)
    assert code == 0 and document["format"] == "cral-trace", document
    for what, bad, named in _mutations(request):
        code, document = _run(binaries["good"], bad, tmp_path)
        assert code == 2, (what, document)
        assert document["format"] == "cral-error" and document["error"] == "ValueError", (what, document)
        assert named in document["message"], (what, document["message"])
    for text in ("{", '{"format": "cral-run-request", "format": "x"}', "[1, 2]"):
        code, document = _run(binaries["good"], text, tmp_path)
        assert code == 2 and document["format"] == "cral-error", (text, document)


def test_describe_declares_what_it_implements(binaries, tmp_path):
    for variant in ("good", "broken"):
        code, document = _run(
            binaries[variant],
            {
                "format": "cral-run-request",
                "version": 1,
                "algorithm": "describe",
                "output": str(tmp_path / "result.json"),
            },
            tmp_path,
        )
        assert code == 0
        assert document["implements"] == ["passive", "robust_cal", "robust_cal_vanilla"]
        assert document["arithmetic"] == "exact" and document["tape_formats"] == ["json", "npy"]
        assert document["serve"] is True


def test_serve_mode_answers_a_line_for_each_request_line(binaries, tmp_path):
    good = {key: value for key, value in _good_request(tmp_path).items() if key != "output"}
    bad = next(_mutations(good))[1]
    lines = [json.dumps(good), "", "{not json", json.dumps(bad), json.dumps(good)]
    proc = subprocess.run(
        [binaries["good"], "--serve"], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a["format"] for a in answers] == ["cral-trace", "cral-error", "cral-error", "cral-trace"]
    assert answers[0] == answers[3] and "hypotheses[0][0]" in answers[2]["message"]


@pytest.mark.slow  # 22 s: the default run keeps the serving program's own tests (tests/properties/judge/test_serve.py)
def test_serving_and_one_process_per_call_get_the_same_verdicts(binaries):
    from properties.checks.registry import all_checks
    from properties.judge.command import CommandCandidate
    from properties.run.runner import run_check

    checks = all_checks()
    verdicts = {}
    for serve in (True, False):
        with CommandCandidate(shlex.quote(binaries["broken"]), serve=serve) as candidate:
            assert candidate.serving is serve
            verdicts[serve] = {
                name: run_check(checks[name], candidate, max_examples=5, seed=20261127, database=None).status
                for name in (*CATCHING_CHECKS, *VANILLA_TWINS)
            }
            assert candidate.server_starts == (1 if serve else 0)
    assert verdicts[True] == verdicts[False]
    assert [verdicts[True][name] for name in CATCHING_CHECKS] == ["failed"] * len(CATCHING_CHECKS)
