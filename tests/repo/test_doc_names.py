"""Every name a page gives in code font or in a fenced block exists: a repository path (`reference/trace.py`,
`docs/spec.md#s7`, `tests/repo/test_layout.py::test_x`) names a tracked file or folder, and a
dotted name of one of the project's packages (`properties.core.case.Case`,
`python -m proofs_check.corrigendum`) names a module, or a module and a name it defines.
A reader follows these names into the tree; a stale one sends them nowhere. The schemas'
descriptions are pages too."""

from __future__ import annotations

import ast
import json
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

from tests.support import REPO_ROOT

PACKAGES = ("reference", "properties", "fast", "proofs_check", "teeth", "bench", "tests", "examples")
CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
# a path: two or more components of a path's characters, or one with a file extension
PATHLIKE = re.compile(r"^[\w.-]+(?:/[\w.-]*)+$|^[\w-]+\.(?:py|md|json|toml|cff|txt|rs|js|cpp|sh)$")
DOTTED = re.compile(r"^(?:" + "|".join(PACKAGES) + r")(?:\.\w+)+$")


@cache
def tracked() -> frozenset[str]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True, check=True).stdout
    files = set(filter(None, listed.decode().split("\0")))
    folders = {str(Path(f).parents[i]) for f in files for i in range(len(Path(f).parts) - 1)}
    return frozenset(files | folders)


def pages() -> list[Path]:
    # CHANGELOG.md names what the tree had then
    names = [
        p for p in tracked() if p.endswith(".md") and p != "CHANGELOG.md" and not p.startswith(("teeth/", "examples/"))
    ]
    return sorted(REPO_ROOT / p for p in names if "/" not in p or p.startswith(("docs/", "tests/", "bench/")))


def schema_texts() -> list[tuple[Path, str]]:
    out = []
    for path in sorted((REPO_ROOT / "reference" / "schemas" / "v1").glob("*.json")):
        texts = []

        def walk(node):
            if isinstance(node, dict):
                for key, value in node.items():
                    if key == "description" and isinstance(value, str):
                        texts.append(value)
                    else:
                        walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        walk(json.loads(path.read_text(encoding="utf-8")))
        out.append((path, "\n".join(texts)))
    return out


def spans(text: str):
    """(line number, token, whether in a fenced block) of every whitespace-separated token of
    every inline code span and every fenced block."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        for span in [line] if fenced else CODE_SPAN.findall(line):
            for token in span.split():
                yield number, token.strip(",;:()[]\"'"), fenced


def path_of(token: str) -> str | None:
    """The repository path `token` names, or None when it names none (a URL, a glob, an output
    folder outside the tree, an option)."""
    token = token.split("#")[0].split("::")[0]
    token = re.sub(r":\d+(?:-\d+)?$", "", token).rstrip("/")
    if not token or not PATHLIKE.match(token) or token.startswith(("/", "-", "~", ".")) or "//" in token:
        return None
    first = token.split("/")[0]
    if "/" in token and first not in tracked():
        return None  # a folder the run writes (cral-results/...) or a path on the reader's machine
    if "/" not in token and token not in tracked():
        return None  # a bare file name: a file the reader writes (x.txt), checked only with its folder
    return token


@cache
def definitions(module_file: Path) -> frozenset[str]:
    """The names a module defines or imports at its top level, and `__all__`'s."""
    tree = ast.parse(module_file.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):  # `A = ...` and `A, B = ...`
            names |= {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    for node in tree.body:  # what `__all__` exports (a package's lazily imported names)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            names |= {e.value for e in getattr(node.value, "elts", ()) if isinstance(e, ast.Constant)}
    return frozenset(names)


def resolves(dotted: str) -> bool:
    """Whether `dotted` is a module of the tree, or a module followed by a name it defines
    (or hands out from its module `__getattr__`; deeper attributes, a class's methods, are
    the class's own business)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        base = REPO_ROOT.joinpath(*parts[:cut])
        module = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        if module.is_file():
            if cut == len(parts):
                return True
            rest = parts[cut]
            lazily = "__getattr__" in definitions(module) and f'"{rest}"' in module.read_text(encoding="utf-8")
            return rest in definitions(module) or lazily or (base / f"{rest}.py").is_file() or (base / rest).is_dir()
    return False


@cache
def ignored(path: str) -> bool:
    """Whether git ignores `path`: a place a command writes (bench/results/..., cral-results/)."""
    return subprocess.run(["git", "check-ignore", "-q", path], cwd=REPO_ROOT).returncode == 0


def exists(path: str) -> bool:
    """A tracked file or folder, or the stem of tracked files (`--out docs/label_curves`
    writes docs/label_curves.csv, .png, .svg)."""
    return path in tracked() or any(name.startswith(path + ".") for name in tracked())


def stale_names(text: str) -> list[str]:
    found = []
    for number, token, fenced in spans(text):
        path = None if fenced else path_of(token)  # a block's paths are often what a command writes
        if path is not None and not exists(path) and not ignored(path):
            found.append(f"{number}: path {token}")
        name = re.sub(r"\(.*$", "", token)
        if DOTTED.match(name) and not resolves(name):
            found.append(f"{number}: name {token}")
    return found


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_every_inline_path_and_module_name_of_a_page_exists(page):
    found = stale_names(page.read_text(encoding="utf-8"))
    assert not found, f"{page.relative_to(REPO_ROOT)}: names that the tree does not have:\n" + "\n".join(found)


def test_every_inline_path_and_module_name_of_a_schema_description_exists():
    found = [f"{path.name}: {line}" for path, text in schema_texts() for line in stale_names(text)]
    assert not found, "schema descriptions name what the tree does not have:\n" + "\n".join(found)


def test_a_stale_path_and_a_stale_module_name_are_found():
    text = (
        "See `reference/trace.py` and `docs/spec.md#s7`, `properties.core.case.Case`, "
        "`python -m proofs_check`, `cral-results/x.json`, `x.txt`, `--json`.\n"
        "Then `reference/no_such_file.py`, `properties.invariants`, `properties.core.case.NoSuchName`.\n"
        "```\ncandidate -> properties.judge.load -> properties.invariants\n```\n"
    )
    assert stale_names(text) == [
        "2: path reference/no_such_file.py",
        "2: name properties.invariants",
        "2: name properties.core.case.NoSuchName",
        "4: name properties.invariants",
    ]
