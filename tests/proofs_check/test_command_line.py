"""proofs_check's command line as a newcomer meets it: an unwritable
--markdown path fails first, in one line, before any step is decided; progress on a
non-terminal stderr is whole lines (no carriage returns), and --json keeps it."""

from __future__ import annotations

import json
import subprocess
import sys
import time

from tests.support import REPO_ROOT

ROOT = REPO_ROOT


def _run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "proofs_check", *argv], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_a_markdown_path_in_a_missing_folder_fails_first_in_one_line(tmp_path):
    started = time.monotonic()
    found = _run("--markdown", str(tmp_path / "missing" / "report.md"))
    assert found.returncode == 2 and found.stdout == ""
    assert found.stderr.count("\n") == 1 and "--markdown" in found.stderr and "does not exist" in found.stderr
    assert time.monotonic() - started < 8, "the path must be checked before deciding the steps"


def test_progress_on_a_log_is_whole_lines_and_json_keeps_it():
    found = _run("--json", "--only", "passive")
    assert found.returncode == 0, found.stderr[-2000:]
    assert "\r" not in found.stderr
    lines = found.stderr.splitlines()
    assert lines and lines[-1].startswith("[") and lines[-1].endswith("steps decided"), lines
    steps = json.loads(found.stdout)
    assert lines[-1] == f"[{len(steps)}/{len(steps)}] steps decided"
