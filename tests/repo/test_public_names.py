"""properties/ and fast/ use only public names of `reference`.

The judge (properties/) and the fast implementation rely on the reference through its
documented names only, so the reference may change its internals without breaking them
silently. Every module of both packages is parsed with `ast` (never imported) and each
use of an underscore-prefixed name of a `reference` module is reported:

* `import reference._x` and `from reference._x import y` (a private module);
* `from reference.m import _y`;
* `alias._y` (also deeper, `alias.m._y`) where `alias` is bound by an import from
  `reference` (a module, or a class such as `Tape`, whose private methods count too);
* `getattr(alias, "_y")` with a literal name.

Dunder names (`__file__`, `__name__`) are public by convention. An alias bound inside a
function is scoped as if it were module-wide (stricter, never looser)."""

from __future__ import annotations

import ast

import pytest

from tests.support import REPO_ROOT
from tests.support.imports import imports_in

ROOT = REPO_ROOT
PACKAGES = ("properties", "fast")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_reference(module: str | None) -> bool:
    return module is not None and (module == "reference" or module.startswith("reference."))


def private_uses(source: str, filename: str = "<source>") -> list[str]:
    """'line: what' for every use of a private name of `reference` in `source`."""
    tree = ast.parse(source, filename)
    aliases: dict[str, str] = {}  # local name -> what it stands for in reference
    found: list[str] = []
    for imported in imports_in(tree):
        if imported.level or not _is_reference(imported.module):
            continue
        if imported.name is None:
            # `import reference.tape` binds `reference`; `import reference.tape as t` binds t
            if any(_private(part) for part in imported.module.split(".")):
                found.append(f"{imported.line}: import {imported.module}")
        else:
            if any(_private(part) for part in imported.module.split(".")):
                found.append(f"{imported.line}: from {imported.module} import ...")
            if _private(imported.name):
                found.append(f"{imported.line}: from {imported.module} import {imported.name}")
                continue
            if imported.name == "*":
                continue
        aliases[imported.bound] = imported.stands_for
    found = list(dict.fromkeys(found))  # a private module named by one statement once
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            chain, base = [node.attr], node.value
            while isinstance(base, ast.Attribute):
                chain.append(base.attr)
                base = base.value
            # report each private attribute once: at the node that names it
            if isinstance(base, ast.Name) and base.id in aliases and _private(node.attr):
                path = ".".join([base.id, *reversed(chain)])
                found.append(f"{node.lineno}: {path} ({aliases[base.id]})")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and _private(node.args[1].value)
        ):
            target = node.args[0]
            while isinstance(target, ast.Attribute):
                target = target.value
            if isinstance(target, ast.Name) and target.id in aliases:
                found.append(f"{node.lineno}: {node.func.id}({target.id}, {node.args[1].value!r})")
    return found


def _modules():
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


def test_there_are_modules_to_scan():
    names = {p.relative_to(ROOT).as_posix() for p in _modules()}
    assert {"properties/checks/calruption.py", "fast/tape.py", "fast/catoni.py"} <= names


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_module_uses_only_public_names_of_reference(path):
    assert private_uses(path.read_text(), str(path)) == []


# -- the scanner finds what it claims to (so the test above can fail) -------------------------
@pytest.mark.parametrize(
    "source",
    [
        "from reference.tape import BLOCK_ROUNDS, _cdf_table",
        "from reference.catoni import _grouped, _Problem",
        "import reference._private",
        "from reference._private import thing",
        "import reference.tape as _ref_tape\nwords = _ref_tape._block_words(1, 2)",
        "import reference.tape\nx = reference.tape._block_words(1, 2)",
        "import reference\nx = reference.catoni._Problem",
        "from reference import tape\nx = tape._Comparator",
        "from reference import tape as t\nx = t._lazy_inverse_cdf",
        "from reference.tape import Tape\nx = Tape._trusted(1, 2, 3, 4, 5)",
        "from reference import catoni\nf = getattr(catoni, '_grouped')",
        "def f():\n    from reference.catoni import _grouped\n    return _grouped",
    ],
)
def test_scanner_reports_private_uses(source):
    assert private_uses(source), source


@pytest.mark.parametrize(
    "source",
    [
        "from reference.tape import BLOCK_ROUNDS, Comparator, cdf_table",
        "import reference.tape as _ref_tape\nwords = _ref_tape.block_words(1, 2)",
        "from reference import instances as _instances\nx = _instances.counterexample",
        "import reference\nx = reference.__file__",
        "import numpy as np\nx = np._internal",  # not reference
        "from . import _local\nx = _local._thing",  # the package's own private names are its own business
        "from reference.catoni import catoni_sign_certified\nx = catoni_sign_certified",
    ],
)
def test_scanner_accepts_public_uses(source):
    assert private_uses(source) == [], source
