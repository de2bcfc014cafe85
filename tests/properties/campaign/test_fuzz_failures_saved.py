"""A fuzz campaign saves each failing check's failure as a replay file, as `check` does
(properties/reports/saved.py): the summary names the file, `replay` re-runs exactly that
case and still fails, and running the same campaign again (to resume it) writes no second
copy. A planted broken copy (RobustCAL's modified rule, Algorithm 1 line 10, adding rho^/4
instead of rho^/2) is the candidate: its check fails it at a fraction of the cost of
shrinking a passive learner's failing case."""

from __future__ import annotations

import json

from properties.campaign.results import read_results
from properties.cli import main
from properties.reports.saved import load_failure
from teeth.broken.mutants import BY_NAME
from teeth.reference_copies import build, importable

MUTANT = BY_NAME["robust_cal_threshold_rho_quarter"]


def _fuzz(name: str, tmp_path, *extra: str) -> list[str]:
    return [
        "campaign",
        "fuzz",
        "--impl",
        name,
        "--checks",
        MUTANT.caught_by,
        "--blocks",
        "2",
        "--examples",
        "50",
        "--database",
        str(tmp_path / "examples"),
        "--workers",
        "1",
        "--results",
        str(tmp_path / "fuzz.jsonl"),
        "--results-dir",
        str(tmp_path / "saved"),
        "--quiet",
        *extra,
    ]


def test_a_fuzz_failure_is_saved_for_replay_and_the_summary_names_it(tmp_path, capsys):
    check = MUTANT.caught_by
    (tmp_path / "copies").mkdir()
    with importable(tmp_path / "copies", "broken_"):
        name = build(MUTANT, tmp_path / "copies")
        assert main(_fuzz(name, tmp_path)) == 1
        text = capsys.readouterr().out
        saved = sorted((tmp_path / "saved").iterdir())
        assert len(saved) == 1 and saved[0].name.startswith(f"{check}-fuzz-"), (saved, text)
        assert f"replay: python -m properties replay {saved[0]}" in text, text

        # the file is `check`'s own kind of failure file, of the block the summary shows
        document = load_failure(str(saved[0]))
        assert document["kind"] == "check" and document["check"] == check, document
        assert document["verdict"] == "failed" and document["candidate"]["impl"] == name, document
        rows = read_results(tmp_path / "fuzz.jsonl")[1]
        failing = sorted(r["params"]["block"] for r in rows if r["result"]["status"] == "failed")
        assert failing and saved[0].name.endswith(f"-block{failing[0]}.json"), (failing, saved)
        assert document["case"] == next(r["result"]["case"] for r in rows if r["params"]["block"] == failing[0]), (
            "the saved case is not the failing block's"
        )

        # replay re-runs that check on that case: still failing (exit 1)
        assert main(["replay", str(saved[0])]) == 1
        assert f"{check} on {name}" in capsys.readouterr().out

        # the same command again resumes a finished campaign: the same file, no second copy
        assert main(_fuzz(name, tmp_path, "--json")) == 1
        summary = json.loads(capsys.readouterr().out)
        entry = next(r for r in summary["rows"] if r["check"] == check)
        assert entry["failure"]["replay_file"] == str(saved[0]), entry
        assert sorted((tmp_path / "saved").iterdir()) == saved


def test_a_fuzz_campaign_without_failures_writes_no_results_folder(tmp_path, capsys):
    assert main(_fuzz("reference", tmp_path)) == 0, capsys.readouterr()
    assert not (tmp_path / "saved").exists()
    assert "replay:" not in capsys.readouterr().out
