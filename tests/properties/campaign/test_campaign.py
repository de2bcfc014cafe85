"""Campaigns on Dask: results that do not depend on the number of workers, a
kill followed by a resume that runs only the missing tasks, a time budget, a failure a
fuzz worker finds replayed first through a real Redis server, and bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from properties.campaign import experiments, fuzz
from properties.campaign.results import ResultsFile, read_results
from properties.campaign.seeds import task_seed
from properties.cli import main
from teeth.broken.mutants import BY_NAME
from teeth.reference_copies import build, importable
from tests.support import REPO_ROOT
from tests.support.redis_server import redis_server

ROOT = REPO_ROOT
# counts mode below CALruption's first epoch and RobustCAL at small n: every task well
# under a second, so these tests measure the campaign machinery, not the algorithms
SMALL_CURVES = {
    "experiment": "curves",
    "master_seed": 7,
    "points": 64,
    "hypotheses": 16,
    "delta": "1/10",
    "algorithms": ["passive", "RobustCAL"],
    "adversaries": ["clean", "early_burst"],
    "n": [1000, 3162, 10000],
    "replicates": 3,
}


def _spec_file(tmp_path, spec, name="small") -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(spec))
    return path


def _rows_without_timing(path) -> list[dict]:
    rows = read_results(path)[1]
    return sorted(
        ({k: v for k, v in row.items() if k not in ("seconds", "code_version")} for row in rows),
        key=lambda row: row["task"],
    )


def test_task_seed_depends_on_master_seed_and_key_only():
    seed = task_seed(3, "curves/passive/clean/n=1000/replicate=0")
    assert seed == task_seed(3, "curves/passive/clean/n=1000/replicate=0")
    assert seed != task_seed(4, "curves/passive/clean/n=1000/replicate=0")
    assert seed != task_seed(3, "curves/passive/clean/n=1000/replicate=1")
    assert 0 <= seed < 2**64
    with pytest.raises(ValueError, match="task key"):
        task_seed(3, "")


def test_one_and_two_workers_give_the_same_rows_and_summary(tmp_path, capsys):
    spec = _spec_file(tmp_path, SMALL_CURVES)
    outputs = {}
    for workers in (1, 2):
        results = tmp_path / f"w{workers}.jsonl"
        assert (
            main(
                [
                    "campaign",
                    "experiment",
                    str(spec),
                    "--workers",
                    str(workers),
                    "--results",
                    str(results),
                    "--json",
                    "--quiet",
                ]
            )
            == 0
        )
        outputs[workers] = (json.loads(capsys.readouterr().out), _rows_without_timing(results))
    summary, rows = outputs[1]
    assert len(rows) == len(experiments.tasks(SMALL_CURVES)) == 2 * 2 * 3 * 3
    assert outputs[2] == outputs[1], "two workers changed the results of the same spec"
    assert summary["finished"] == summary["tasks"] == len(rows) and not summary["errors"]
    # passive ERM pays every label; the summary's interval contains its mean
    for row in summary["rows"]:
        assert row["labels_ci_low"] <= row["labels_mean"] <= row["labels_ci_high"], row
        if row["algorithm"] == "passive":
            assert row["labels_min"] == row["labels_max"] == row["n"], row


def _campaign_command(spec, results, *extra) -> list[str]:
    return [
        sys.executable,
        "-m",
        "properties",
        "campaign",
        "experiment",
        str(spec),
        "--results",
        str(results),
        "--workers",
        "1",
        *extra,
    ]


# waiting for rows is waiting for an event; this only ends a test that would otherwise
# wait forever (a campaign that never writes a row), it bounds no speed
HANG_GUARD_S = 900


def _wait_for_rows(process, results, count: int) -> None:
    guard = time.monotonic() + HANG_GUARD_S
    while not (results.exists() and results.read_text().count("\n") >= 1 + count):
        assert process.poll() is None, f"the campaign ended early: {process.stderr.read()[-2000:]}"
        assert time.monotonic() < guard, f"no {count} rows after {HANG_GUARD_S} s"
        time.sleep(0.05)


def _session_of(pid: int) -> int | None:
    try:
        return os.getsid(pid)
    except (ProcessLookupError, PermissionError):
        return None


def _listening_sockets(pid: int) -> list[tuple[str, int]]:
    """(address, port) of every listening TCP socket of process `pid` and its descendants."""
    import psutil

    root = psutil.Process(pid)
    found = []
    for process in [root, *root.children(recursive=True)]:
        try:
            found += [
                (c.laddr.ip, c.laddr.port)
                for c in process.net_connections(kind="inet")
                if c.status == psutil.CONN_LISTEN
            ]
        except psutil.NoSuchProcess:
            pass
    return found


def test_a_killed_campaign_resumes_with_only_the_missing_tasks(tmp_path, capsys):
    spec_data = dict(SMALL_CURVES, replicates=12, algorithms=["RobustCAL"], n=[10000, 31623])
    spec, results = _spec_file(tmp_path, spec_data), tmp_path / "killed.jsonl"
    total = len(experiments.tasks(spec_data))
    # its own session: the kill reaches the Dask workers as well
    process = subprocess.Popen(
        _campaign_command(spec, results, "--quiet"),
        cwd=ROOT,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        _wait_for_rows(process, results, 5)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    before = [line for line in results.read_text().splitlines(keepends=True) if line.endswith("\n")]
    finished_before = {json.loads(line)["task"] for line in before[1:]}
    assert 5 <= len(finished_before) < total, "the kill must land mid-run"

    assert main(["campaign", "experiment", str(spec), "--results", str(results), "--workers", "1", "--json"]) == 0
    err = capsys.readouterr().err
    assert f"{len(finished_before)} already done" in err, err
    assert f"running {total - len(finished_before)} on" in err, err
    lines = results.read_text().splitlines(keepends=True)
    assert lines[: len(before)] == before, "rows written before the kill were changed"
    rerun = [json.loads(line)["task"] for line in lines[len(before) :]]
    assert len(rerun) == len(set(rerun)) == total - len(finished_before)
    assert set(rerun) | finished_before == {task.key for task in experiments.tasks(spec_data)}
    assert not set(rerun) & finished_before, "a finished task ran again"
    # and a third run has nothing left to do
    assert main(["campaign", "experiment", str(spec), "--results", str(results), "--workers", "1", "--quiet"]) == 0
    assert results.read_text().splitlines(keepends=True) == lines


def test_the_time_budget_stops_with_exit_3_and_keeps_the_rows(tmp_path, monkeypatch, capsys):
    """The budget's clock is moved past its end once two rows are written (an event, not
    a race against the machine's speed): the campaign stops, exits 3 and keeps them."""
    from properties.campaign import cluster

    spec_data = dict(SMALL_CURVES, replicates=5000, algorithms=["RobustCAL"], adversaries=["clean"], n=[31623])
    spec, results = _spec_file(tmp_path, spec_data), tmp_path / "budget.jsonl"

    def clock():
        rows = results.read_text().count("\n") - 1 if results.exists() else 0
        return 0.0 if rows < 2 else 60.0 * 1000

    monkeypatch.setattr(cluster, "clock", clock)
    assert (
        main(
            [
                "campaign",
                "experiment",
                str(spec),
                "--results",
                str(results),
                "--workers",
                "1",
                "--minutes",
                "1000",
                "--quiet",
            ]
        )
        == 3
    )
    err = capsys.readouterr().err
    assert "time budget spent" in err and "run the same command again" in err, err
    kept = read_results(results)[1]
    assert 2 <= len(kept) < 5000, len(kept)
    assert len({row["task"] for row in kept}) == len(kept)
    assert f"time budget spent: {len(kept)} of 5000 tasks done" in err, err


def test_a_results_file_of_another_spec_is_refused(tmp_path, capsys):
    spec, results = _spec_file(tmp_path, SMALL_CURVES), tmp_path / "r.jsonl"
    ResultsFile(results, "other", {"experiment": "curves"}, "0" * 16).append(
        {"task": "x", "spec": "0" * 16, "params": {}, "result": {}}
    )
    assert main(["campaign", "experiment", str(spec), "--results", str(results), "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "another spec" in err, err


@pytest.mark.parametrize(
    "spec, field",
    [
        ({**SMALL_CURVES, "replicates": 0}, "spec.replicates"),
        ({**SMALL_CURVES, "hypotheses": 24}, "spec.hypotheses"),
        ({**SMALL_CURVES, "algorithms": ["passive", "passive"]}, "spec.algorithms"),
        ({**SMALL_CURVES, "n": [1000, 1000]}, "spec.n"),
        ({**SMALL_CURVES, "delta": "3/2"}, "spec.delta"),
        ({**SMALL_CURVES, "colour": "red"}, "unknown fields ['colour']"),
    ],
)
def test_bad_specs_are_one_line_errors(tmp_path, capsys, spec, field):
    assert main(["campaign", "experiment", str(_spec_file(tmp_path, spec)), "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and field in err, err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--database", "ftp://example.org/db"], "unsupported URL scheme"),
        (["--database", "redis://127.0.0.1:1/0"], "cannot use this Redis server"),
        (["--checks", "check_no_such_thing"], "unknown checks"),
        (["--impl", "no_such_module_here"], "no_such_module_here"),
        (["--blocks", "0"], "--blocks"),
    ],
)
def test_bad_fuzz_options_are_one_line_errors(tmp_path, capsys, argv, message):
    assert main(["campaign", "fuzz", "--results", str(tmp_path / "f.jsonl"), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_prefixed_databases_keep_each_checks_examples_apart():
    from hypothesis.database import InMemoryExampleDatabase

    shared = InMemoryExampleDatabase()
    one, two = fuzz.PrefixedDatabase(shared, "check_one"), fuzz.PrefixedDatabase(shared, "check_two")
    one.save(b"key", b"a")
    two.save(b"key", b"b")
    one.move(b"key", b"other", b"a")
    assert list(one.fetch(b"key")) == [] and list(one.fetch(b"other")) == [b"a"]
    assert list(two.fetch(b"key")) == [b"b"]
    two.delete(b"key", b"b")
    assert list(two.fetch(b"key")) == []
    assert {key for key, values in shared.data.items() if values} == {b"check_one:other"}


def test_a_failure_a_fuzz_worker_finds_goes_to_redis_and_is_replayed_first(tmp_path, capsys):
    """A planted broken implementation (passive ERM ignoring the labels at x0): a worker
    finds the failure and shrinks it; the example is in Redis; a fresh campaign with
    another master seed and a new results file replays it before generating anything."""
    import redis

    check = BY_NAME["passive_ignores_labels_at_x0"].caught_by
    (tmp_path / "copies").mkdir()
    with redis_server(tmp_path) as url, importable(tmp_path / "copies", "broken_"):
        name = build(BY_NAME["passive_ignores_labels_at_x0"], tmp_path / "copies")
        found = {}
        for run, seed in (("first", "1"), ("fresh", "2")):
            results = tmp_path / f"{run}.jsonl"
            assert (
                main(
                    [
                        "campaign",
                        "fuzz",
                        "--impl",
                        name,
                        "--checks",
                        check,
                        "--blocks",
                        "1",
                        "--examples",
                        "100",
                        "--seed",
                        seed,
                        "--database",
                        url,
                        "--workers",
                        "1",
                        "--results",
                        str(results),
                        "--json",
                        "--quiet",
                    ]
                )
                == 1
            )
            summary = json.loads(capsys.readouterr().out)
            assert summary["failing_checks"] == [check], summary
            found[run] = read_results(results)[1][0]["result"]
            if run == "first":
                keys = redis.Redis.from_url(url).keys(f"hypothesis-example:{check}:*".encode())
                assert keys, "the failure was not written to Redis"
    first, fresh = found["first"]["statistics"], found["fresh"]["statistics"]
    assert first.get("generate", {}).get("failing", 0) >= 1, first
    assert fresh.get("reuse", {}).get("failing", 0) >= 1 and "generate" not in fresh, fresh
    assert found["fresh"]["counterexample"] == found["first"]["counterexample"]


def test_an_existing_dask_cluster_is_used_through_scheduler_and_summary_reads_its_rows(tmp_path, capsys):
    from distributed import LocalCluster

    spec = _spec_file(tmp_path, dict(SMALL_CURVES, replicates=1))
    results = tmp_path / "remote.jsonl"
    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0"
    ) as cluster:  # loopback only, as every server of ours
        argv = ["campaign", "experiment", str(spec), "--results", str(results), "--json", "--quiet"]
        assert main(argv + ["--scheduler", cluster.scheduler_address, "--workers", "2"]) == 2
        assert "--workers applies to the local cluster only" in capsys.readouterr().err
        assert main(argv + ["--scheduler", cluster.scheduler_address]) == 0
        printed = json.loads(capsys.readouterr().out)
    assert printed["finished"] == printed["tasks"] == len(experiments.tasks(dict(SMALL_CURVES, replicates=1)))
    assert (
        main(
            [
                "campaign",
                "summary",
                str(results),
                "--json",
                "--plot",
                str(tmp_path / "fig"),
                "--csv",
                str(tmp_path / "fig.csv"),
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out) == printed
    assert (tmp_path / "fig.png").stat().st_size > 0 and (tmp_path / "fig.svg").stat().st_size > 0
    assert (tmp_path / "fig.csv").read_text().startswith("algorithm,adversary,n,seeds,labels_mean")


@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_stops_cleanly_with_exit_130_and_keeps_the_rows(tmp_path, signum, status):
    spec_data = dict(SMALL_CURVES, replicates=2000, algorithms=["RobustCAL"], adversaries=["clean"], n=[31623])
    spec, results = _spec_file(tmp_path, spec_data), tmp_path / "interrupted.jsonl"
    process = subprocess.Popen(
        _campaign_command(spec, results, "--quiet"),
        cwd=ROOT,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    _wait_for_rows(process, results, 3)
    # while it runs: every server it started (scheduler, workers, nannies, dashboard)
    # listens on loopback only
    listening = _listening_sockets(process.pid)
    assert listening, "no listening socket found: the listing does not see the cluster"
    assert all(address in ("127.0.0.1", "::1") for address, port in listening), listening
    # a terminal's Ctrl-C: SIGINT to the whole foreground process group, workers included
    # (or a CI runner's SIGTERM)
    os.killpg(process.pid, signum)
    try:
        err = process.communicate(timeout=HANG_GUARD_S)[1]
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == status, err[-2000:]
    # nothing of it runs on: multiprocessing's resource tracker ends when it sees the
    # campaign's end (so it is waited for: an event, with a guard); a killed process not
    # yet reaped is no process
    import psutil

    guard = time.monotonic() + HANG_GUARD_S
    while True:
        left = [
            p.info
            for p in psutil.process_iter(["pid", "status", "cmdline"])
            if _session_of(p.info["pid"]) == process.pid and p.info["status"] != psutil.STATUS_ZOMBIE
        ]
        if not left:
            break
        assert time.monotonic() < guard, f"processes of the campaign still running: {left}"
        time.sleep(0.05)
    assert "interrupted:" in err and "run the same command again" in err, err[-2000:]
    assert "Traceback" not in err, err[-2000:]
    kept = read_results(results)[1]
    assert 3 <= len(kept) < 2000 and all("result" in row for row in kept)


def test_a_deferred_database_writes_nothing_until_commit_and_then_the_net_change():
    from hypothesis.database import InMemoryExampleDatabase

    shared = InMemoryExampleDatabase()
    shared.save(b"k", b"old")
    run = fuzz.DeferredDatabase(shared)
    run.save(b"k", b"big")
    run.move(b"k", b"k.secondary", b"big")  # a shrink step: the larger example moves aside
    run.save(b"k", b"small")
    run.delete(b"k", b"old")
    assert list(shared.fetch(b"k")) == [b"old"] and list(shared.fetch(b"k.secondary")) == []
    assert sorted(run.fetch(b"k")) == [b"small"] and list(run.fetch(b"k.secondary")) == [b"big"]
    run.commit()
    assert list(shared.fetch(b"k")) == [b"small"] and list(shared.fetch(b"k.secondary")) == [b"big"]


def test_every_fuzz_block_replays_the_known_examples(tmp_path, monkeypatch):
    from hypothesis.database import InMemoryExampleDatabase

    check = "check_passive_learning_lemma_c1"
    monkeypatch.setattr(fuzz, "database_for", lambda location: InMemoryExampleDatabase())
    spec = fuzz.fuzz_spec(
        master_seed=0, impl="reference", cmd=None, checks=[check], blocks=3, examples=2, profile="ci", timeout=None
    )
    for block in (1, 2):
        found = fuzz.run_fuzz_task(spec, {"check": check, "block": block}, 5, "unused")
        assert found["status"] == "expected failure", (block, found["status"])


def test_a_fuzz_block_writes_its_failure_to_the_shared_database_only_after_shrinking(tmp_path, monkeypatch):
    """A planted broken implementation fails; Hypothesis saves (and replaces) examples
    while it shrinks, but the shared database sees no write until the check has ended,
    and then exactly the minimal failure."""
    from hypothesis.database import InMemoryExampleDatabase

    import properties.run.runner as runner

    writes = []

    class Watched(InMemoryExampleDatabase):
        def save(self, key, value):
            writes.append(running[0])
            super().save(key, value)

    shared, running = Watched(), [False]
    real_run_check = runner.run_check

    def watched_run_check(*args, **kwargs):
        running[0] = True
        try:
            return real_run_check(*args, **kwargs)
        finally:
            running[0] = False

    monkeypatch.setattr(runner, "run_check", watched_run_check)
    monkeypatch.setattr(fuzz, "database_for", lambda location: shared)
    mutant = BY_NAME["passive_ignores_labels_at_x0"]
    (tmp_path / "copies").mkdir()
    with importable(tmp_path / "copies", "broken_"):
        name = build(mutant, tmp_path / "copies")
        spec = fuzz.fuzz_spec(
            master_seed=0,
            impl=name,
            cmd=None,
            checks=[mutant.caught_by],
            blocks=1,
            examples=100,
            profile="fuzz",
            timeout=None,
        )
        try:
            found = fuzz.run_fuzz_task(spec, {"check": mutant.caught_by, "block": 0}, 5, "unused")
        finally:
            fuzz._close_candidates()
    assert found["status"] == "failed", found["status"]
    assert found["statistics"].get("shrink", {}).get("examples", 0) >= 1, found["statistics"]
    assert writes and not any(writes), f"{writes.count(True)} writes while the check was running"
    primary = [key for key, values in shared.data.items() if values and not key.endswith((b".secondary", b".pareto"))]
    assert len(primary) == 1 and len(shared.data[primary[0]]) == 1, shared.data.keys()


def _fuzz_row(check, block, status, counterexample=None):
    return {
        "task": f"fuzz/{check}/block={block}",
        "params": {"check": check, "block": block},
        "result": {"status": status, "examples": 5, "counterexample": counterexample, "violations": []},
    }


def test_an_expected_failure_is_judged_over_the_whole_campaign():
    from properties.campaign.cli import summary_text

    found, lost, fine = (
        "check_passive_learning_lemma_c1",
        "check_calruption_estimation_lemma",
        "check_passive_output_is_erm",
    )
    spec = fuzz.fuzz_spec(
        master_seed=0,
        impl="reference",
        cmd=None,
        checks=[found, lost, fine],
        blocks=2,
        examples=5,
        profile="ci",
        timeout=None,
    )
    rows = [
        _fuzz_row(found, 0, "unexpectedly passed"),
        _fuzz_row(found, 1, "expected failure", "Case(...)"),
        _fuzz_row(lost, 0, "unexpectedly passed"),
        _fuzz_row(lost, 1, "unexpectedly passed"),
        _fuzz_row(fine, 0, "passed"),
        _fuzz_row(fine, 1, "passed"),
    ]
    assert not any(fuzz.is_failing_row(spec, row) for row in rows), "a block's XPASS is no verdict"
    summary = fuzz.summarize_fuzz(spec, rows)
    verdicts = {row["check"]: row["verdict"] for row in summary["rows"]}
    assert verdicts == {found: "expected failure", lost: "unexpectedly passed", fine: "passed"}, verdicts
    # on the reference, an expected failure that no block found is stale: it fails the campaign
    assert summary["failing_checks"] == [lost], summary
    text = summary_text(summary)
    assert "None" not in text, text
    assert f"{lost} unexpectedly passed in every finished block (2 blocks, 10 examples)" in text, text
    # on another implementation it is no failure (as `properties check` judges)
    other = dict(spec, impl="someone_else")
    assert fuzz.summarize_fuzz(other, rows)["failing_checks"] == []
    # one failing block fails the check, whatever the others say
    rows.append(_fuzz_row(fine, 2, "failed", "Case(x)"))
    summary = fuzz.summarize_fuzz(dict(spec, blocks=3), rows)
    assert summary["failing_checks"] == [lost, fine] and "failed in block 2 on Case(x)" in summary_text(summary)


def test_fuzz_on_the_reference_passes_with_expected_failures_in_several_blocks(tmp_path, capsys):
    checks = [
        "check_calruption_layer_disagreement_bound",
        "check_lemma_c1_corruption_term",
        "check_passive_output_is_erm",
    ]
    assert (
        main(
            [
                "campaign",
                "fuzz",
                "--checks",
                *checks,
                "--blocks",
                "3",
                "--examples",
                "5",
                "--profile",
                "ci",
                "--database",
                str(tmp_path / "db"),
                "--workers",
                "1",
                "--results",
                str(tmp_path / "f.jsonl"),
                "--json",
                "--quiet",
            ]
        )
        == 0
    ), capsys.readouterr().err
    summary = json.loads(capsys.readouterr().out)
    assert summary["failing_checks"] == [] and summary["finished"] == 9, summary
    verdicts = {row["check"]: (row["verdict"], row["statuses"]) for row in summary["rows"]}
    assert verdicts[checks[0]] == ("expected failure", {"expected failure": 3}), verdicts
    assert verdicts[checks[1]] == ("expected failure", {"expected failure": 3}), verdicts
