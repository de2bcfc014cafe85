"""A scripted newcomer session: a fresh copy of the repository (the files git
tracks), and the commands of the README and its manual (docs/) run in order from it, with the existing interpreter
(no reinstall; the copy comes first on sys.path). Exit codes and first lines asserted.
The README's first-screen job (`python -m properties check`, minutes on 2 cores) and the test run are
the slow ones: the first runs here on a few checks, the second is this suite itself."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO_ROOT

REPO = REPO_ROOT


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    root = tmp_path_factory.mktemp("clone")
    for name in filter(None, listed.decode().split("\0")):
        if (REPO / name).is_file():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, root / name)
    return root


def sh(copy: Path, line: str, timeout=120) -> subprocess.CompletedProcess:
    """Run a README line: `python` is this interpreter, the copy is the working directory
    and the only project source on the path; `> FILE` redirects as in a shell."""
    env = {**os.environ, "PYTHONPATH": str(copy), "CI": "true"}
    env.pop("CRAL_RESULTS_DIR", None)  # these runs check the default folder
    command = line.replace("python ", f"{shlex.quote(sys.executable)} ", 1) if line.startswith("python ") else line
    return subprocess.run(command, shell=True, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout)


def readme_block(copy: Path, heading: str, page: str = "README.md") -> list[str]:
    text = (copy / page).read_text()
    section = text[text.index(heading) :]
    block = section[section.index("```bash\n") + 8 :]
    block = block[: block.index("```")]
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


def test_first_screen_has_two_commands(copy):
    text = (copy / "README.md").read_text()
    block = text[text.index("```bash\n") + 8 :]
    commands = block[: block.index("```")].strip().splitlines()
    assert len(commands) == 2
    # the main job needs the core alone; the tests install the test extra
    assert commands[0].endswith("pip install -e . && python -m properties check"), commands[0]
    install, test = commands[1].split(" && ")
    assert install == "pip install -e '.[test]'" and test.startswith("python -m pytest -q"), commands[1]
    # CI runs the README's lines as written (pip's -q aside): the first, then the test extra's
    # install before the test command, its last line
    ci_run = [
        line.replace("pip install -q ", "pip install ") for line in (REPO_ROOT / ".ci" / "run").read_text().splitlines()
    ]
    assert commands[0] in ci_run and install in ci_run[ci_run.index(commands[0]) :], ci_run
    assert ci_run[-1] == test and ci_run.index(install) < len(ci_run) - 1, (ci_run[-1], test)
    assert "CONTRACT.md" in text and "../shared/DESIGN.md" not in text
    assert (copy / "CONTRACT.md").is_file()


def test_the_main_job_on_a_few_checks(copy):
    result = sh(copy, "python -m properties check --only check_passive_output_is_erm check_passive_learning_lemma_c1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert re.match(
        r"implementation reference \(in-process\), profile ci, seed 0 \(fixed: the same examples every run; "
        r"--seed random explores\), [\d.]+ s$",
        lines[0],
    ), lines[0]
    assert lines[1].split() == ["check", "status", "examples", "cites"]
    assert not (copy / "cral-results").exists()


def test_no_subcommand_prints_usage(copy):
    for module in ("reference", "properties"):
        result = sh(copy, f"python -m {module}")
        assert result.returncode == 2 and result.stderr.startswith(f"usage: python -m {module}")


def test_command_line_section_in_order(copy):
    lines = readme_block(copy, "## Command line", "docs/reference.md")
    assert lines[0].startswith("python -m reference demo")
    for line in lines:
        if line.startswith("python -m reference demo"):
            line += " --seeds 1 --n 4096 --tau 512"  # the full demo is ~25 s
        line = line.replace("--n 65536", "--n 4096").replace("--tau 8192", "--tau 512")
        result = sh(copy, line)
        assert result.returncode == 0, (line, result.stderr)
        first = result.stdout.splitlines()[0] if result.stdout else ""
        if " run " in line and "--json" not in line:
            assert first.startswith("algorithm "), (line, first)
        elif "> " in line:
            assert result.stdout == ""  # redirected to the file the next line reads
        elif " demo" in line:
            assert first.startswith("Appendix counter-example"), first
    assert (copy / "adv.json").is_file() and (copy / "trace.json").is_file()


def test_skeleton_candidate_passes(copy):
    """The README's first look, `check --impl mypkg --quick`, on the skeleton: every check."""
    result = sh(
        copy,
        "PYTHONPATH=examples/skeleton:. " + shlex.quote(sys.executable) + " -m properties check --impl my_cral --quick",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("implementation my_cral (isolated worker process), profile ci, seed 0")
    assert "--quick" in result.stdout.splitlines()[0]
    summary = next(line for line in result.stdout.splitlines() if line.endswith(" passed"))
    assert "failed" not in summary and "arithmetic: exact" in result.stdout, summary
