"""The same verdict every run by default (docs/judging.md, "Seeds and the example database").

* each check's seed is a function of (the run's base seed, the check's id) alone;
* two `check` runs of one candidate, the reference and a broken copy, give identical JSON
  reports once the time fields are removed, also when another candidate failed in
  between (under the fuzz profile, which keeps an example database) and when the process
  imported more of the suite's modules in between (Hypothesis mixes constants of loaded
  local modules into its draws unless properties.core.seeds.seed_alone stops it);
  `compare` of the two runs shows no change;
* `--seed random` prints the fresh seed it drew, and `--seed N` repeats that run;
* the Python API gives the same results call after call; the fuzz profile keeps its
  database per candidate, in $CRAL_HYPOTHESIS_DIR.

Cheap: a few checks, --quick (the point is the seed, not the search), in this process."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json

import pytest

import properties
import reference
from properties import cli
from properties.core import profiles, seeds
from properties.run.runner import FAILED, run_check
from teeth.broken.mutants import BY_NAME, PREFIX, build
from teeth.reference_copies import importable

ELIMINATION = "check_robust_cal_elimination_recomputed"
ERM = "check_passive_output_is_erm"
CATONI = "check_catoni_root_certified"
RISKS = "check_passive_empirical_risks_recomputed"
ONLY = [RISKS, ERM, ELIMINATION, CATONI]
BROKEN = "passive_risk_over_n_plus_one"  # caught by RISKS on its first generated example
# in this process: the candidate's own module is then among the local modules whose
# constants Hypothesis would mix into its draws (properties.core.seeds.seed_alone)
RUN = ["--quick", "--in-process", "--only", *ONLY]
TIME_FIELDS = ("seconds", "statistics", "replay_file")  # wall-clock, and file names stamped with it


@pytest.fixture(scope="module")
def broken_copy(tmp_path_factory):
    with importable(tmp_path_factory.mktemp("broken"), PREFIX) as directory:
        yield build(BY_NAME[BROKEN], directory)


@pytest.fixture
def isolated_env(tmp_path, monkeypatch):
    """dev (not CI), an example database folder of this test's own, results in tmp_path."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("HYPOTHESIS_PROFILE", raising=False)
    monkeypatch.setenv("CRAL_HYPOTHESIS_DIR", str(tmp_path / "examples"))
    return tmp_path


def without_time(report: dict) -> dict:
    report = {k: v for k, v in report.items() if k not in TIME_FIELDS}
    report["checks"] = [{k: v for k, v in c.items() if k not in TIME_FIELDS} for c in report["checks"]]
    return report


def check_json(capsys, tmp_path, *args) -> dict:
    code = cli.main(["check", "--json", "--results-dir", str(tmp_path / "results"), *args])
    report = json.loads(capsys.readouterr().out)
    assert code == (1 if any(c["failing"] for c in report["checks"]) else 0)
    return report


# -- the seed of a check -------------------------------------------------------------------
def test_a_checks_seed_is_a_function_of_the_base_seed_and_its_id_only():
    digest = hashlib.sha256(f"0/{ERM}".encode()).digest()
    assert seeds.check_seed(0, ERM) == int.from_bytes(digest[:8], "big")
    assert seeds.check_seed(0, ERM) != seeds.check_seed(0, CATONI) != seeds.check_seed(1, CATONI)
    assert seeds.resolve_seed(None, explores=False) == seeds.DEFAULT_SEED == 0
    assert seeds.resolve_seed("17", explores=True) == 17
    assert seeds.resolve_seed("Random", explores=False) != seeds.resolve_seed("random", explores=False)
    for bad in ("-1", "x", str(2**64)):
        with pytest.raises(ValueError, match="--seed must be an integer in"):
            seeds.parse_seed(bad)
    with pytest.raises(ValueError, match="seed must be an integer in"):
        seeds.check_seed(True, ERM)
    assert profiles.explores("fuzz") and not profiles.explores("dev") and not profiles.explores("ci")


def test_the_default_profiles_fix_the_seed_and_keep_no_database():
    from hypothesis import settings

    for name in ("dev", "ci"):
        assert settings.get_profile(name).database is None
        assert not profiles.explores(name) and not profiles.keeps_database(name)
    assert profiles.keeps_database("fuzz")


# -- two runs, one report ------------------------------------------------------------------
def test_two_check_runs_give_identical_reports_whatever_ran_in_between(capsys, isolated_env, broken_copy):
    tmp = isolated_env
    first = {name: check_json(capsys, tmp / f"{name}1", "--impl", name, *RUN) for name in ("reference", broken_copy)}
    assert first[broken_copy]["checks"][0]["status"] == FAILED and first[broken_copy]["checks"][0]["counterexample"]
    assert first["reference"]["seed"] == first[broken_copy]["seed"] == seeds.DEFAULT_SEED
    # in between: the broken copy fails under fuzz (its example database is filled), and the
    # process imports modules of the suite it had not (their constants must not reach the draws)
    fuzzed = check_json(
        capsys, tmp / "fuzz", "--impl", broken_copy, "--profile", "fuzz", "--in-process", "--only", RISKS
    )
    assert fuzzed["checks"][0]["status"] == FAILED and fuzzed["seed"] != seeds.DEFAULT_SEED
    assert any((tmp / "examples").rglob("*")), "the fuzz run kept no example"
    for module in ("fast", "proofs_check", "properties.campaign.fuzz"):
        importlib.import_module(module)
    for name in ("reference", broken_copy):
        again = check_json(capsys, tmp / f"{name}2", "--impl", name, *RUN)
        assert without_time(again) == without_time(first[name]), name
        old, new = tmp / f"{name}-old.json", tmp / f"{name}-new.json"
        old.write_text(json.dumps(first[name]))
        new.write_text(json.dumps(again))
        assert cli.main(["compare", str(old), str(new), "--json"]) == 0
        comparison = json.loads(capsys.readouterr().out)
        changed = {k: v for k, v in comparison.items() if isinstance(v, list) and v}
        assert set(changed) <= {"still_failing"}, changed


def test_a_checks_result_does_not_depend_on_the_checks_before_it(capsys, isolated_env, broken_copy):
    """What a parallel runner relies on: each check's entry is the same run alone, first
    or last."""
    forward = check_json(capsys, isolated_env / "f", "--impl", broken_copy, *RUN)
    backward = check_json(
        capsys, isolated_env / "b", "--impl", broken_copy, "--quick", "--in-process", "--only", *ONLY[::-1]
    )
    alone = check_json(capsys, isolated_env / "a", "--impl", broken_copy, "--quick", "--in-process", "--only", CATONI)

    def entries(report):
        return {c["name"]: c for c in without_time(report)["checks"]}

    assert entries(forward) == entries(backward)
    assert entries(alone)[CATONI] == entries(forward)[CATONI]


def test_the_draws_ignore_constants_of_modules_loaded_in_between(tmp_path, monkeypatch):
    """A module imported between two runs (here one full of constants, as any candidate's
    or the suite's own modules are) does not change a seed's examples."""
    check = properties.checks.registry.all_checks()[CATONI]

    def drawn() -> list[str]:
        seen = []

        def execute(impl, example):
            seen.append(repr(example))
            return check.execute(impl, example)

        run_check(dataclasses.replace(check, execute=execute), reference, profile="dev", max_examples=25)
        return seen

    before = drawn()
    # constants Hypothesis keeps (integers with |v| >= 100, floats) within the ranges the
    # Catoni problems draw from: without seed_alone they change this check's examples
    values = [101, 137, 250, 333, 640, 777, 1500, 2999, 4095, 9999, 0.125, 0.3, 1e-10, 3.5, 12345.0]
    constants = [f"C{i} = {value!r}" for i, value in enumerate(values)]
    (tmp_path / "many_constants.py").write_text("\n".join(constants) + "\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("many_constants")
    assert drawn() == before


def test_seed_random_is_printed_and_repeats_with_seed_n(capsys, isolated_env):
    fresh = check_json(capsys, isolated_env / "a", "--quick", "--only", ERM, CATONI, "--seed", "random")
    assert fresh["seed"] != seeds.DEFAULT_SEED  # 1 in 2^64 to be wrong
    assert fresh["quick"] is True
    repeated = check_json(capsys, isolated_env / "b", "--quick", "--only", ERM, CATONI, "--seed", str(fresh["seed"]))
    assert without_time(repeated) == without_time(fresh)
    assert cli.main(["check", "--quick", "--only", ERM, "--seed", str(fresh["seed"])]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert f"seed {fresh['seed']}" in header and "--quick" in header


def test_the_text_report_names_the_fixed_seed(capsys, isolated_env):
    assert cli.main(["check", "--quick", "--only", ERM]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert "profile dev, seed 0 (fixed: the same examples every run; --seed random explores)" in header


def test_a_bad_seed_is_one_line_and_exit_2(capsys):
    assert cli.main(["check", "--seed", "soon"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--seed must be an integer in [0, 2^64) or 'random', got 'soon'" in err


# -- the Python API and the fuzz profile's database -----------------------------------------
def test_the_api_gives_the_same_results_call_after_call(isolated_env, broken_copy):
    def run():
        results = properties.check_implementation(
            broken_copy, profile="dev", checks=[RISKS, CATONI], on_fail="collect", isolate=False, quick=True
        )
        return [(r.status, r.counterexample, r.violations, r.examples) for r in results]

    first = run()
    assert first[0][0] == FAILED
    assert run() == first


def test_fuzz_keeps_its_database_per_candidate_in_the_cache_folder(isolated_env, broken_copy):
    folder = isolated_env / "examples"
    assert profiles.database_dir() == folder
    mine, theirs = profiles.fuzz_database("mypkg", ERM), profiles.fuzz_database("other", ERM)
    assert mine.prefix != theirs.prefix != profiles.fuzz_database("mypkg", CATONI).prefix
    check = properties.checks.registry.all_checks()[RISKS]
    with properties.load_candidate(broken_copy, isolate=False) as candidate:
        result = run_check(check, candidate, profile="fuzz", seed=5, quick=True)
    assert result.status == FAILED
    assert any(folder.rglob("*")), "the fuzz profile kept nothing"


# -- check --quick ---------------------------------------------------------------------------
def test_quick_runs_each_fixed_experiment_on_the_first_of_its_seeds():
    """--quick changes a fixed experiment's seed set only (a prefix of it), never its
    settings or its thresholds beyond what fewer seeds need."""
    from dataclasses import replace

    from tests.support.sampling import sample

    quick = {c.name: c for c in properties.checks.registry.all_checks().values() if c.quick_strategy is not None}
    assert sorted(quick) == [
        "check_catoni_condition_1_frequency",
        "check_counterexample_vanilla_loses_best",
        "check_passive_bound_theorem_31",
    ]
    for check in quick.values():
        (full,) = set(sample(check.strategy, 1))
        (short,) = set(sample(check.quick_strategy, 1))
        assert 0 < len(short.seeds) < len(full.seeds) and short.seeds == full.seeds[: len(short.seeds)]
        changed = {"seeds", "min_vanilla_eliminations"}
        assert replace(short, **{k: getattr(full, k) for k in changed if hasattr(full, k)}) == full, check.name
