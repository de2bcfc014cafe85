"""No module of the repository imports a private module of a third-party package
(`scipy.optimize._highspy._core`, say): any release of the package may rename or remove
such a module. Decided on the syntax tree of every tracked .py file, so
an import inside a function or a try block counts too."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support import REPO_ROOT
from tests.support.imports import imports_in

REPO = REPO_ROOT
# the project's own top-level packages and scripts: their _private modules are ours to use
FIRST_PARTY = {
    "reference",
    "fast",
    "properties",
    "proofs_check",
    "tests",
    "bench",
    "examples",
    "_report",
    "_instances",
    "_rates",
    "_theory_figures",
    "_theory_text",
    "conftest",
    "redis_server",
    "reference_copies",
    "sampling",
    "my_cral",
    "mycral",
    "mutants",
    "fast_mutants",
    "variants",
    "float_variants",
}


def private_imports(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """(line, dotted name) of every import naming a `_private` module of a package that is
    not the project's own; a relative import is always the project's."""
    names = []
    for imported in imports_in(source, filename):
        if imported.level:
            continue
        # `from pkg import _mod` imports a private module too (or a private name: refused alike)
        names.append((imported.line, imported.module))
        if imported.name is not None:
            names.append((imported.line, imported.stands_for))
    found = []
    for line, name in dict.fromkeys(names):  # a module named by one statement once
        parts = name.split(".")
        if parts[0] in FIRST_PARTY:
            continue
        if any(part.startswith("_") and not part.startswith("__") for part in parts):
            found.append((line, name))
    return found


def tracked_python_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z", "*.py"], cwd=REPO, capture_output=True, check=True).stdout
    return [REPO / name for name in filter(None, listed.decode().split("\0")) if (REPO / name).is_file()]


def test_no_module_imports_a_private_module_of_a_dependency():
    files = tracked_python_files()
    assert len(files) > 100  # the scan saw the tree
    offenders = [
        f"{path.relative_to(REPO)}:{line}: {name}"
        for path in files
        for line, name in private_imports(path.read_text(encoding="utf-8"), str(path))
    ]
    assert not offenders, "private modules of third-party packages imported:\n" + "\n".join(offenders)


@pytest.mark.parametrize(
    "source, expected",
    [
        ("from scipy.optimize._highspy import _core", ["scipy.optimize._highspy", "scipy.optimize._highspy._core"]),
        ("import scipy.optimize._highspy._core as core", ["scipy.optimize._highspy._core"]),
        ("def f():\n    try:\n        from numpy import _core\n    except ImportError:\n        pass", ["numpy._core"]),
        ("from scipy.optimize import _linprog_util", ["scipy.optimize._linprog_util"]),
        ("import highspy\nfrom scipy.optimize import linprog", []),
        ("from . import _report\nfrom reference import _private_helper\nfrom __future__ import annotations", []),
    ],
)
def test_the_scan_sees_private_imports(source, expected):
    assert [name for _, name in private_imports(source)] == expected
