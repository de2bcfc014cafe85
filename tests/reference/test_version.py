"""reference/version.py and reference/commit.py: the one version source (pyproject.toml) and
the commit a report names, from a checkout (git), from a build's record
(reference/_build_info.py, written by setup.py), or unknown; never the commit of another
project's repository."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib

import pytest

import properties
import reference
from reference import commit, version
from tests.support import REPO_ROOT

PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
HAS_GIT = shutil.which("git") is not None
SHA = "0123456789abcdef" * 2 + "01234567"


def test_the_version_is_pyprojects_everywhere_it_is_read():
    assert version.DISTRIBUTION == PYPROJECT["name"]
    assert version.package_version() == PYPROJECT["version"]
    assert properties.__version__ == reference.__version__ == version.__version__ == PYPROJECT["version"]


@pytest.mark.skipif(not HAS_GIT or not (REPO_ROOT / ".git").exists(), reason="needs a git checkout and git")
def test_a_checkout_names_its_head():
    head = subprocess.run(["git", "-C", str(REPO_ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    found = version.code_version()
    assert found["commit"] == head.stdout.strip() and isinstance(found["dirty"], bool), found
    assert found["package"] == PYPROJECT["version"]


def _copy(into, recorded: tuple[str, bool] | None):
    """reference/version.py and the standard-library modules it imports, as a package of their
    own at `into` (as a wheel installs them), with a build's record or without."""
    package = into / "reference"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for name in ("version.py", "commit.py", "command_line.py"):
        shutil.copy(REPO_ROOT / "reference" / name, package / name)
    if recorded is not None:
        (package / "_build_info.py").write_text(commit.build_info_text(*recorded))
    return into


def _code_version(root, path=None) -> dict:
    env = {**os.environ, "PYTHONPATH": str(root)}
    if path is not None:
        env["PATH"] = path
    code = "import json; from reference.version import code_version; print(json.dumps(code_version()))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=root, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_an_installed_copy_names_the_commit_its_build_recorded(tmp_path):
    found = _code_version(_copy(tmp_path / "site", (SHA, False)))
    assert (found["commit"], found["dirty"]) == (SHA, False), found


def test_a_copy_without_a_record_says_the_commit_is_unknown(tmp_path):
    found = _code_version(_copy(tmp_path / "site", None))
    assert (found["commit"], found["dirty"]) == (None, None), found


@pytest.mark.skipif(not HAS_GIT, reason="needs git")
def test_a_package_inside_another_projects_repository_never_names_that_projects_commit(tmp_path):
    """A virtual environment inside a project's clone: that project's HEAD is not the suite's."""
    outer = tmp_path / "their_project"
    outer.mkdir()
    git = ["git", "-C", str(outer), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    (outer / "file").write_text("x")
    subprocess.run([*git, "add", "file"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "theirs"], check=True)
    theirs = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    recorded = _code_version(_copy(outer / "venv" / "site", (SHA, True)))
    assert recorded["commit"] == SHA and recorded["dirty"] is True, recorded
    bare = _code_version(_copy(outer / "venv2" / "site", None))
    assert bare["commit"] is None and theirs not in json.dumps(bare), bare


@pytest.mark.skipif(not (REPO_ROOT / ".git").exists(), reason="needs a git checkout")
def test_a_checkout_without_git_on_the_path_gives_no_commit_and_no_error(tmp_path):
    found = _code_version(REPO_ROOT, path=str(tmp_path))  # an empty folder: no git program
    assert found["commit"] is None and found["package"] == PYPROJECT["version"], found


def test_the_suite_line_names_version_commit_profile_and_seed():
    line = version.suite_line({"package": "1.2.3", "commit": SHA, "dirty": True}, "ci", 0)
    assert line == f"suite: {version.DISTRIBUTION} 1.2.3, commit {SHA} with uncommitted changes; profile ci, seed 0"
    unknown = version.suite_line({"package": None, "commit": None, "dirty": None}, seed=7)
    assert unknown == f"suite: {version.DISTRIBUTION} (version unknown), commit unknown; seed 7"
