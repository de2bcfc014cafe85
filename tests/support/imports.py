"""The repository's imports as its syntax trees state them, for the tests that hold imports to a
rule (tests/repo: the directions of the layout, private modules of dependencies, private names
of `reference`). Nothing is imported or run: every file is parsed with `ast`, and an import
anywhere in it counts (inside a function, a try block, an `if`), so a lazy import cannot hide.

`imports_in` lists one `Imported` per name an import statement binds; `import_graph` turns the
files of the repository into edges between its modules."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from tests.support import REPO_ROOT

# the repository's top-level packages, and bench/'s loose scripts (which import each other by
# their bare names, bench/ being on their sys.path)
PACKAGES = ("reference", "fast", "proofs_check", "properties", "teeth", "examples", "bench", "tests")


@dataclass(frozen=True)
class Imported:
    """One name an import statement binds.

    module: the module the statement names, made absolute when the importing module's package
    is known (`from ..x import y` in properties.checks.a: properties.x), else as written
    (without the dots; `level` keeps them); name: the name taken from it (`from m import name`),
    None for `import m`; bound: the local name the statement binds; stands_for: the dotted name
    the bound name means (`import a.b` binds a for a, `import a.b as c` binds c for a.b,
    `from a import b` binds b for a.b)."""

    line: int
    module: str
    name: str | None
    bound: str
    stands_for: str
    level: int


def _absolute(module: str, level: int, package: str | None) -> str:
    if not level or package is None:
        return module
    parts = package.split(".")
    parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join(parts + ([module] if module else []))


def imports_in(source: str | ast.AST, filename: str = "<source>", package: str | None = None) -> list[Imported]:
    """Every import of `source` (text or a parsed tree), one entry per bound name, in the order
    `ast.walk` meets them. `package`: the importing module's package, to resolve relative imports."""
    tree = ast.parse(source, filename) if isinstance(source, str) else source
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound, stands_for = (alias.asname, alias.name) if alias.asname else (alias.name.split(".")[0],) * 2
                found.append(Imported(node.lineno, alias.name, None, bound, stands_for, 0))
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node.module or "", node.level, package)
            for alias in node.names:
                stands_for = f"{module}.{alias.name}" if module else alias.name
                found.append(
                    Imported(node.lineno, module, alias.name, alias.asname or alias.name, stands_for, node.level)
                )
    return found


def module_name(path: Path, root: Path = REPO_ROOT) -> str:
    """reference/tape.py -> reference.tape; properties/checks/__init__.py -> properties.checks."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def source_files(packages=PACKAGES, root: Path = REPO_ROOT) -> dict[str, Path]:
    """The .py files of `packages`, by module name (a virtual environment and bench's results aside)."""
    files = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root).parts
            if ".venv" not in relative and "results" not in relative:
                files[module_name(path, root)] = path
    return files


def imports_of(name: str, path: Path, modules: dict) -> set[str]:
    """The repository's modules that module `name` (file `path`) imports anywhere in its body,
    each resolved to the deepest module that exists (`from properties import strategies` imports
    properties.strategies, not the package's __init__)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = []
    for imported in imports_in(path.read_text(encoding="utf-8"), str(path), package):
        deeper = f"{imported.module}.{imported.name}" if imported.name is not None and imported.module else None
        targets.append(deeper if deeper in modules else imported.module)
    if name.startswith("bench."):  # bench's scripts import each other as top-level modules
        targets += [f"bench.{target}" for target in targets]
    resolved = set()
    for target in targets:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            resolved.add(target)
    return resolved


def import_graph(packages=PACKAGES, root: Path = REPO_ROOT) -> dict[str, set[str]]:
    """module -> the repository's modules it imports. A module importing its own package's
    __init__ (a relative `from . import x` of a name that is not a module) is no edge: the package
    is imported before it anyway."""
    modules = source_files(packages, root)
    edges = {name: imports_of(name, path, modules) for name, path in modules.items()}
    return {
        name: {t for t in targets if not (modules[t].name == "__init__.py" and name.startswith(t + "."))}
        for name, targets in edges.items()
    }
