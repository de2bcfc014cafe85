"""The house as its imports draw it: no import circle anywhere in
the repository, no module over 800 lines, and imports that run the way the parts of
`properties/` say they may (each part's `__init__.py`).

The graph is built from the source with `ast`, module-level and function-level imports
alike: a lazy import that only hides a circle is still a circle. Nothing is imported or
run, so the test takes well under a second. Above the parts, the top-level packages import
one another the way TOP_LEVEL_MAY_IMPORT says, with no exception."""

from __future__ import annotations

import ast
import sys
import tomllib

import pytest

from tests.support import REPO_ROOT
from tests.support.imports import PACKAGES, import_graph, imports_in

ROOT = REPO_ROOT
MAX_LINES = 800
SIZE_CHECKED = ("properties", "bench", "fast", "reference", "proofs_check")
# Files over MAX_LINES that other work is splitting now. Empty since reference/lp.py and
# proofs_check's two long step files were split; no file joins it.
TOO_LONG_FOR_NOW: set[str] = set()

# The parts of properties/ and what each may import of the others (its own part always);
# the docstring of each part's __init__.py says the same in words.
PARTS = ("core", "strategies", "checks", "judge", "reports", "run", "scale", "campaign")
MAY_IMPORT = {
    "core": set(),
    "strategies": {"core"},
    "checks": {"core", "strategies"},
    "judge": {"core"},
    "reports": {"core"},
    "run": {"core", "strategies", "checks", "judge", "reports"},
    # the judge at scale: the cross-check's comparisons and the judge's worker, never a strategy
    "scale": {"core", "checks", "judge", "reports"},
    "campaign": {"core", "strategies", "checks", "judge", "reports", "run"},
}
# What reports may read of the checks: the list of check ids and the table of free choices
# (data, not a check's internals).
REPORTS_MAY_READ = {"properties.checks.registry", "properties.checks.free_choices"}
# the modules on top: the package itself, the CLI, the plugin and the Python API
TOP = {"properties", "properties.__main__", "properties.cli", "properties.pytest_plugin", "properties.api"}

# Which top-level package may import which (its own modules always). The ground floor,
# reference, imports nothing of the project; proofs_check and fast stand on it alone; the judge
# (properties) on all three. The campaign (properties/campaign) counts as a package of its own
# here: a leaf that only properties' modules on top (TOP: the command line gives it its
# subcommand), bench and tests import. The candidates the suite must catch or pass (teeth/) are
# taken by tests and bench only; bench and examples/ are leaves only tests take from.
BELOW_THE_LEAVES = {"reference", "fast", "proofs_check", "properties"}
TOP_LEVEL_MAY_IMPORT = {
    "reference": set(),
    "fast": {"reference"},
    "proofs_check": {"reference"},
    "properties": {"reference", "fast", "proofs_check", "properties.campaign"},
    "properties.campaign": BELOW_THE_LEAVES,
    "teeth": BELOW_THE_LEAVES,
    "examples": BELOW_THE_LEAVES,
    "bench": BELOW_THE_LEAVES | {"properties.campaign", "teeth"},
    "tests": BELOW_THE_LEAVES | {"properties.campaign", "teeth", "bench", "examples"},
}


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph()


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], 0
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_circle_finder_finds_a_circle():
    # the finder itself can fail: a three-module circle and a tail off it
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert circles(edges) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles(graph):
    found = circles(graph)
    assert not found, "import circles (module- and function-level imports):\n" + "\n".join(
        " <-> ".join(component) for component in found
    )


def test_no_module_over_800_lines():
    too_long = {}
    for package in SIZE_CHECKED:
        for path in (ROOT / package).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if ".venv" in path.parts or relative in TOO_LONG_FOR_NOW:
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_LINES:
                too_long[relative] = lines
    assert not too_long, f"modules over {MAX_LINES} lines: {too_long}"


def test_the_exceptions_are_still_needed():
    """A file split below the limit leaves the exception list (it only shrinks)."""
    for relative in TOO_LONG_FOR_NOW:
        path = ROOT / relative
        if path.exists():
            assert len(path.read_text(encoding="utf-8").splitlines()) > MAX_LINES, (
                f"{relative} is within {MAX_LINES} lines now: take it off TOO_LONG_FOR_NOW"
            )


def part_of(name: str) -> str | None:
    parts = name.split(".")
    if parts[0] != "properties" or name in TOP:
        return None
    return parts[1] if len(parts) > 1 and parts[1] in PARTS else "flat"


def test_properties_is_laid_out_in_parts(graph):
    """Every module of properties/ is in a part, or is one of the few on top."""
    flat = sorted(name for name in graph if part_of(name) == "flat")
    assert not flat, f"modules of properties/ outside its parts (and not on top): {flat}"
    for part in PARTS:
        doc = ast.get_docstring(ast.parse((ROOT / "properties" / part / "__init__.py").read_text(encoding="utf-8")))
        assert doc and "import" in doc, f"properties/{part}/__init__.py must say what the part is and may import"


def wrong_imports(edges: dict[str, set[str]]) -> list[str]:
    wrong = []
    for name, targets in edges.items():
        part = part_of(name)
        if part is None or part == "flat":
            continue
        for target in targets:
            if not target.startswith("properties"):
                continue
            other = part_of(target)
            if other == part:
                continue
            if other is None:
                wrong.append(f"{name} imports {target}, which sits on top of every part")
            elif other not in MAY_IMPORT[part] and not (part == "reports" and target in REPORTS_MAY_READ):
                wrong.append(f"{name} ({part}) imports {target} ({other})")
    return sorted(wrong)


def test_imports_run_the_way_the_parts_allow(graph):
    wrong = wrong_imports(graph)
    assert not wrong, "imports against the direction of the parts:\n" + "\n".join(wrong)


def test_the_direction_rules_can_fail():
    edges = {
        "properties.checks.sampler": {"properties.judge.isolation"},  # a check reaching into the judge's processes
        "properties.judge.command": {"properties.checks.registry"},  # the judge importing a check
        "properties.reports.junit": {"properties.checks.crosscheck", "properties.checks.registry"},
        "properties.core.case": {"properties.cli"},  # the bottom importing the top
        "properties.run.runner": {"properties.checks.registry", "properties.judge.load"},  # allowed
    }
    assert wrong_imports(edges) == [
        "properties.checks.sampler (checks) imports properties.judge.isolation (judge)",
        "properties.core.case imports properties.cli, which sits on top of every part",
        "properties.judge.command (judge) imports properties.checks.registry (checks)",
        "properties.reports.junit (reports) imports properties.checks.crosscheck (checks)",
    ]


def package_of(name: str) -> str:
    """The row of TOP_LEVEL_MAY_IMPORT a module belongs to."""
    if name == "properties.campaign" or name.startswith("properties.campaign."):
        return "properties.campaign"
    return name.split(".")[0]


def wrong_directions(edges: dict[str, set[str]]) -> list[str]:
    wrong = []
    for name, targets in edges.items():
        package = package_of(name)
        for target in targets:
            other = package_of(target)
            if other == package:
                continue
            if other not in TOP_LEVEL_MAY_IMPORT[package]:
                wrong.append(f"{name} ({package}) imports {target} ({other})")
            elif other == "properties.campaign" and package == "properties" and name not in TOP:
                wrong.append(f"{name} imports {target}: of properties, only the modules on top import the campaign")
    return sorted(wrong)


def test_the_table_has_a_row_for_every_package():
    assert set(TOP_LEVEL_MAY_IMPORT) == {*PACKAGES, "properties.campaign"}
    for package, allowed in TOP_LEVEL_MAY_IMPORT.items():
        assert allowed <= set(TOP_LEVEL_MAY_IMPORT) - {package}, package


def test_top_level_packages_import_the_way_the_table_allows(graph):
    assert {package_of(name) for name in graph} == set(TOP_LEVEL_MAY_IMPORT)  # the scan saw every package
    wrong = wrong_directions(graph)
    assert not wrong, "imports against the top-level table:\n" + "\n".join(wrong)


def test_the_top_level_rules_can_fail():
    edges = {
        "reference.bounds": {"proofs_check.step", "reference.exact"},  # the ground floor importing upward
        "fast.tape": {"reference.tape", "properties.core.case"},  # fast importing the judge
        "proofs_check.cli": {"fast.api"},
        "properties.run.runner": {"properties.campaign.cli", "teeth.broken.mutants"},
        "properties.cli": {"properties.campaign.cli", "proofs_check.report"},  # allowed: the command line on top
        "teeth.broken.mutants": {"tests.support"},
        "bench.float_check": {"teeth.reference_copies", "properties.campaign.sweeps"},  # allowed
        "examples.skeleton.my_cral": {"bench._report"},
    }
    assert wrong_directions(edges) == [
        "examples.skeleton.my_cral (examples) imports bench._report (bench)",
        "fast.tape (fast) imports properties.core.case (properties)",
        "proofs_check.cli (proofs_check) imports fast.api (fast)",
        "properties.run.runner (properties) imports teeth.broken.mutants (teeth)",
        "properties.run.runner imports properties.campaign.cli: of properties, only the modules on top import the campaign",
        "reference.bounds (reference) imports proofs_check.step (proofs_check)",
        "teeth.broken.mutants (teeth) imports tests.support (tests)",
    ]


def test_the_command_line_plumbing_is_a_leaf(graph):
    """reference/command_line.py, which every package's command line takes its plumbing from,
    imports the standard library only: nothing of the project, no dependency."""
    assert graph["reference.command_line"] == set()
    imported = {
        entry.module.split(".")[0] for entry in imports_in((ROOT / "reference" / "command_line.py").read_text())
    }
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, sorted(imported - set(sys.stdlib_module_names))


def test_every_package_is_installed():
    """A non-editable install finds every part, and nothing else: pyproject.toml's package
    patterns, as setuptools applies them, give each package folder of the four and no folder of
    the tests, candidates, scripts or examples (.ci/wheel runs the commands from the wheel)."""
    from setuptools import find_packages

    find = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    listed = set(find_packages(str(ROOT), include=find["find"]["include"]))
    folders = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for package in ("reference", "fast", "properties", "proofs_check")
        for path in (ROOT / package).rglob("__init__.py")
        if ".venv" not in path.parts
    }
    assert folders == listed, f"packages missing: {sorted(folders - listed)}, not ours: {sorted(listed - folders)}"
