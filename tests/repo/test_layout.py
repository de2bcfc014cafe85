"""The house as its imports draw it: no import circle anywhere in
the repository, no module over 800 lines, and imports that run the way the parts of
`properties/` say they may (each part's `__init__.py`).

The graph is built from the source with `ast`, module-level and function-level imports
alike: a lazy import that only hides a circle is still a circle. Nothing is imported or
run, so the test takes well under a second."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from tests.support import REPO_ROOT

ROOT = REPO_ROOT
# every top-level package of the repository, and the loose scripts of bench/ (which import
# each other by their bare names, bench/ being on their sys.path)
PACKAGES = ("reference", "properties", "fast", "proofs_check", "bench", "tests")
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


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def source_files() -> dict[str, Path]:
    files = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if ".venv" not in path.parts and "results" not in path.relative_to(ROOT).parts:
                files[module_name(path)] = path
    return files


def imports_of(name: str, path: Path, modules: dict) -> set[str]:
    """The repository's modules that `name` imports anywhere in its body, resolved to the
    deepest module that exists (`from properties import strategies` imports
    properties.strategies, not the package's __init__)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[: len(up) - (node.level - 1)] if node.level > 1 else up
                base = ".".join(up + ([base] if base else []))
            found = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in modules]
            targets += found if len(found) == len(node.names) else [base, *found]
    if name.startswith("bench"):  # bench's scripts import each other as top-level modules
        targets += [f"bench.{target}" for target in targets]
    resolved = set()
    for target in targets:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            resolved.add(target)
    return resolved


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = source_files()
    edges = {name: imports_of(name, path, modules) for name, path in modules.items()}
    # a module importing its own package's __init__ (a relative `from . import x` of a
    # name that is not a module) is no circle: the package is imported before it anyway
    for name in edges:
        edges[name] = {t for t in edges[name] if not (modules[t].name == "__init__.py" and name.startswith(t + "."))}
    return edges


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


def test_every_package_is_installed():
    """A non-editable install finds every part: pyproject.toml lists each package folder."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    folders = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for package in ("reference", "fast", "properties", "proofs_check")
        for path in (ROOT / package).rglob("__init__.py")
        if ".venv" not in path.parts
    }
    assert folders <= listed, f"packages missing from [tool.setuptools] packages: {sorted(folders - listed)}"
