"""The small things a newcomer meets at the front door. A way to list
the check ids; not-applicable rows that say why in the text table; `pytest --cral-impl M`
with M in the current folder saying how to make it importable; and a base install
(without the proofs and campaign extras) naming the extra a command needs in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from properties.checks.registry import all_checks
from properties.reports.import_hints import current_folder_hint
from reference.command_line import MissingExtra, require
from tests.support import REPO_ROOT

REPO = REPO_ROOT
SKELETON = REPO / "examples" / "skeleton"


def run(*args, cwd=REPO, env=None, flags=()):
    existing = os.environ.get("PYTHONPATH")
    merged = {**os.environ, "PYTHONPATH": str(REPO) + (os.pathsep + existing if existing else ""), **(env or {})}
    return subprocess.run(
        [sys.executable, *flags, *args], capture_output=True, text=True, env=merged, cwd=cwd, timeout=900
    )


def test_check_list_names_every_check_with_its_citation():
    result = run("-m", "properties", "check", "--list")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    checks = all_checks()
    assert [line.split()[0] for line in lines] == list(checks)
    for line, check in zip(lines, checks.values()):
        assert line.split(None, 1)[1] == check.cites
    listed = json.loads(run("-m", "properties", "check", "--list", "--json").stdout)
    assert [(c["name"], c["cites"]) for c in listed["checks"]] == [(c.name, c.cites) for c in checks.values()]


def test_not_applicable_rows_say_why_in_the_table():
    """A statement about the paper (Lemma A.1 on the instance) calls no implementation: not
    applicable to a candidate, and the row says so."""
    name = "check_corruption_effect_lemma_1"
    result = run(
        "-m",
        "properties",
        "check",
        "--impl",
        "my_cral",
        "--only",
        name,
        "check_passive_output_is_erm",
        env={"PYTHONPATH": f"{SKELETON}{os.pathsep}{REPO}", "CI": "true"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    row = next(line for line in result.stdout.splitlines() if line.startswith(name))
    assert "not applicable" in row and "(not applicable: " in row, row
    reason = row.split("(not applicable: ", 1)[1].rstrip(")")
    assert len(reason) > 10, row


def test_a_module_of_the_current_folder_that_pytest_cannot_import_gets_the_advice(tmp_path, monkeypatch):
    (tmp_path / "my_cral.py").write_text((SKELETON / "my_cral.py").read_text())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    hint = current_folder_hint("my_cral", "--cral-impl", "pytest")
    assert hint and hint.endswith("e.g. PYTHONPATH=. pytest --cral-impl my_cral"), hint
    assert current_folder_hint("no_such_module", "--cral-impl", "pytest") is None  # not here: nothing to advise
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    assert current_folder_hint("my_cral", "--cral-impl", "pytest") is None  # importable: no advice


def test_pytest_cral_impl_from_the_current_folder_says_how(tmp_path):
    """The `pytest` program (here: python -P, which does not put the current folder on
    sys.path either) with a module that sits in the current folder."""
    (tmp_path / "my_cral.py").write_text((SKELETON / "my_cral.py").read_text())
    result = run("-m", "pytest", "-q", "-p", "no:cacheprovider", "--cral-impl", "my_cral", cwd=tmp_path, flags=("-P",))
    assert result.returncode == pytest.ExitCode.USAGE_ERROR, result.stdout + result.stderr
    assert "PYTHONPATH=. pytest --cral-impl my_cral" in result.stderr, result.stderr


def test_require_names_the_extra():
    with pytest.raises(
        MissingExtra,
        match=r"needs some-package, which is not installed: pip install "
        r"'corruption-robust-active-learning\[proofs\]'",
    ):
        require("no_such_module_for_this_test", package="some-package", extra="proofs", needed_by="this test")
    assert require("json", package="json", extra="none", needed_by="this test").dumps([]) == "[]"


@pytest.mark.parametrize(
    "module, argv, extra",
    [
        ("z3", ["proofs_check", "--only", "passive.thm31"], "proofs"),
        ("distributed", ["properties", "campaign", "experiment", "curves-quick"], "campaign"),
    ],
)
def test_a_command_without_its_extra_says_which_to_install(module, argv, extra, tmp_path):
    """As a base install meets it: the module made unimportable, the command run."""
    code = (
        f"import sys, runpy; sys.modules[{module!r}] = None; sys.argv = {argv!r}; "
        f"runpy.run_module({argv[0]!r}, run_name='__main__', alter_sys=True)"
    )
    result = run("-c", code, cwd=tmp_path, env={"CRAL_RESULTS_DIR": str(tmp_path)})
    assert result.returncode == 2, result.stdout + result.stderr
    error = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(error) == 1 and f"[{extra}]" in error[0], result.stderr
    assert result.stderr.splitlines()[0] == error[0], f"printed before the missing extra was named: {result.stderr}"
    assert "Traceback" not in result.stderr, result.stderr
