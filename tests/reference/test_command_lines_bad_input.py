"""Every command line's bad input, run through the real commands: one line on stderr
naming the option (or spec field) and the value, exit status 2 (pytest's own 4 for the
plugin, in pytest's usage-error form `ERROR: ...`), nothing on stdout (for the plugin:
nothing but pytest's header) and no file written -- before any work, so each row costs a
start-up. The shared rules live in reference/command_line.py:
`output_file` (a folder where a file is wanted, an output file's folder that does not
exist: never made), `within_limit` (a size above its stated limit, refused with the
estimate unless --yes) and `run` (one line, exit 2).

Each command (`python -m properties`, `-m proofs_check`, `-m reference`, `-m pytest`) has
rows run as a real process, which also holds its `__main__` and exit status to the rule;
the other rows call the same `main(argv)` the `__main__` module calls, in this process,
with the same working folder and environment: what they test is the parser's and the
command's refusal, not the process boundary."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO_ROOT
from tests.support.in_process import MAINS, main_in_process

HUGE = 10**12


def _spec(folder: Path, **changes) -> str:
    """A curves spec file (the built-in curves-quick with `changes`)."""
    from properties.campaign.experiments import BUILTIN_SPECS

    path = folder / "spec.json"
    path.write_text(json.dumps({**BUILTIN_SPECS["curves-quick"], **changes}))
    return path.name


# (id, argv after `python`, what the line must name besides the value, the value, status);
# argv may hold "DIR" (a folder that exists) and callables of the working folder
ROWS = [
    ("summary --csv folder", ["-m", "properties", "campaign", "summary", "r.jsonl", "--csv", "DIR"], "--csv", "DIR", 2),
    (
        "summary --csv missing folder",
        ["-m", "properties", "campaign", "summary", "r.jsonl", "--csv", "nosuch/s.csv"],
        "--csv",
        "nosuch/s.csv",
        2,
    ),
    (
        "summary --plot missing folder",
        ["-m", "properties", "campaign", "summary", "r.jsonl", "--plot", "nosuch/curves"],
        "--plot",
        "nosuch/curves",
        2,
    ),
    (
        "experiment --results folder",
        ["-m", "properties", "campaign", "experiment", "curves-quick", "--results", "DIR"],
        "--results",
        "DIR",
        2,
    ),
    (
        "experiment --results missing folder",
        ["-m", "properties", "campaign", "experiment", "curves-quick", "--results", "nosuch/r.jsonl"],
        "--results",
        "nosuch/r.jsonl",
        2,
    ),
    ("proofs_check --errata folder", ["-m", "proofs_check", "--errata", "DIR"], "--errata", "DIR", 2),
    ("proofs_check --markdown folder", ["-m", "proofs_check", "--markdown", "DIR"], "--markdown", "DIR", 2),
    (
        "proofs_check --markdown missing folder",
        ["-m", "proofs_check", "--markdown", "nosuch/r.md"],
        "--markdown",
        "nosuch/r.md",
        2,
    ),
    (
        "check --junitxml missing folder",
        ["-m", "properties", "check", "--junitxml", "nosuch/j.xml"],
        "--junitxml",
        "nosuch/j.xml",
        2,
    ),
    ("check --html folder", ["-m", "properties", "check", "--html", "DIR"], "--html", "DIR", 2),
    (
        "spec.replicates 10^12",
        ["-m", "properties", "campaign", "experiment", lambda f: _spec(f, replicates=HUGE)],
        "spec.replicates",
        str(HUGE),
        2,
    ),
    (
        "spec.n 10^40",
        ["-m", "properties", "campaign", "experiment", lambda f: _spec(f, n=[10**40])],
        "spec.n",
        str(10**40),
        2,
    ),
    (
        "spec.points 10^9",
        ["-m", "properties", "campaign", "experiment", lambda f: _spec(f, points=10**9)],
        "spec.points",
        str(10**9),
        2,
    ),
    (
        "fuzz --blocks 10^12",
        ["-m", "properties", "campaign", "fuzz", "--blocks", str(HUGE), "--results", "f.jsonl"],
        "--blocks",
        str(HUGE),
        2,
    ),
    (
        "crosscheck --sizes 10^8",
        ["-m", "properties", "crosscheck", "--counts", "--sizes", "100000000"],
        "--sizes",
        "100000000",
        2,
    ),
    (
        "crosscheck --n 10^40",
        ["-m", "properties", "crosscheck", "--counts", "--n", str(10**40)],
        "--n",
        str(10**40),
        2,
    ),
    ("tape --n 10^12", ["-m", "reference", "tape", "--n", str(HUGE)], "--n", str(HUGE), 2),
    ("demo --n 10^12", ["-m", "reference", "demo", "--n", str(HUGE)], "--n", str(HUGE), 2),
    (
        "check --memory-limit 1K",
        ["-m", "properties", "check", "--impl", "fast", "--memory-limit", "1K"],
        "--memory-limit",
        "1K",
        2,
    ),
    (
        "plugin --cral-impl not importable",
        ["-m", "pytest", "-p", "no:cacheprovider", "--cral-impl", "no_such_module_here"],
        "--cral-impl",  # named by the message's "implementation 'X'"
        "no_such_module_here",
        4,
    ),
    (
        "plugin --cral-memory-limit 1K",
        ["-m", "pytest", "-p", "no:cacheprovider", "--cral-impl", "fast", "--cral-memory-limit", "1K"],
        "--cral-memory-limit",
        "1K",
        4,
    ),
    (
        "plugin --cral-html folder",
        ["-m", "pytest", "-p", "no:cacheprovider", "--cral-impl", "reference", "--cral-html", "DIR"],
        "--cral-html",
        "DIR",
        4,
    ),
]


def _listing(folder: Path) -> set[str]:
    # (.hypothesis/ is Hypothesis's own cache folder, made by any import of it)
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if ".hypothesis" not in p.parts}


# the rows run as a real process: one per command at least (each `__main__` module's exit
# status and stderr), and every row of the plugin (pytest's own start-up reads the options)
SUBPROCESS = {
    "summary --csv folder",
    "proofs_check --errata folder",
    "tape --n 10^12",
    "plugin --cral-impl not importable",
    "plugin --cral-memory-limit 1K",
    "plugin --cral-html folder",
}
assert SUBPROCESS <= {row[0] for row in ROWS}
assert {row[1][1] for row in ROWS if row[0] not in SUBPROCESS} <= set(MAINS)
assert {row[1][1] for row in ROWS if row[0] in SUBPROCESS} == {*MAINS, "pytest"}


def _in_subprocess(argv, folder):
    return subprocess.run(
        [sys.executable, *argv],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,  # a guard against a hang, not a speed bound
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT), "CI": "true"},
    )


def _in_process(argv, folder, monkeypatch, capsys):
    assert argv[0] == "-m", argv
    return main_in_process(argv[1], argv[2:], cwd=folder, env={"CI": "true"}, monkeypatch=monkeypatch, capsys=capsys)


@pytest.mark.parametrize(
    "name, argv, option, value, status", [(row[0], *row[1:]) for row in ROWS], ids=[row[0] for row in ROWS]
)
def test_bad_input_is_one_line_naming_the_option_and_value_and_nothing_written(
    name, argv, option, value, status, tmp_path, monkeypatch, capsys
):
    (tmp_path / "DIR").mkdir()
    argv = [item(tmp_path) if callable(item) else item for item in argv]
    before = _listing(tmp_path)
    if name in SUBPROCESS:
        found = _in_subprocess(argv, tmp_path)
    else:
        found = _in_process(argv, tmp_path, monkeypatch, capsys)
    shown = (
        f"python {' '.join(argv)} -> {found.returncode}\nstdout: {found.stdout[-1000:]}\nstderr: {found.stderr[-2000:]}"
    )
    assert found.returncode == status, shown
    lines = [line for line in found.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, shown
    line = lines[0]
    assert line.startswith("ERROR: " if status == 4 else "error: "), shown
    assert value in line, shown
    if option != "--cral-impl":
        assert option in line, shown
    else:
        assert f"implementation {value!r}" in line, shown
    if status == 4:  # pytest's header may be on stdout already (the candidate loads after collection)
        assert not any(word in found.stdout for word in ("Traceback", "_pytest.outcomes.Exit", "ERROR")), shown
    else:
        assert found.stdout == "", shown
    assert _listing(tmp_path) == before, shown
