"""Copies of the reference with a one-snippet patch: the machinery shared by the broken
copies (teeth/broken/mutants.py, which the suite must catch) and the legitimate variants
(teeth/legit/variants.py, which it must accept).

`build(patch, directory)` copies the whole reference package into
`directory/<prefix><name>/` (a different top-level name, so it never clashes with
`reference`; the package's relative imports keep working), applies the patch and
returns the importable name; the caller puts `directory` on sys.path and loads it with
`properties.judge.load.load_impl(name)`. `build_combined` applies several patches to one copy.

Shared input types. The suite hands every implementation the reference's own objects
(`reference.Tape`, `reference.Params`), and the reference validates its inputs with
`isinstance` (reference/empirical.py). A verbatim copy would have its own Tape and
Params classes and reject every input, so every copy would "fail" by a crash, whatever
its patch. The copy's `tape` and `params` modules are therefore aliases of the
reference's (SHARED_MODULES): the copy takes the same inputs as the reference and,
unpatched, returns the same traces (tests/teeth/test_broken_caught.py checks this). Patches may not
touch those modules.

A patch's `old` snippet (each of them, for a patch of several) must occur exactly once in its file: a refactor of the reference
that removes or duplicates it makes the copy fail loudly instead of silently becoming
the reference."""

from __future__ import annotations

import importlib
import shutil
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

REFERENCE_DIR = Path(__file__).resolve().parents[1] / "reference"
# modules of the copy replaced by the reference's own: they define the input types
SHARED_MODULES = ("tape", "params")

_ALIAS = '''"""Alias of reference.{module}: the copy takes the reference's input types
(see teeth/reference_copies.py)."""
import importlib
import sys

sys.modules[__name__] = importlib.import_module("reference.{module}")
'''


@dataclass(frozen=True)
class Patch:
    """A named one-snippet patch of one file of the reference."""

    prefix: ClassVar[str] = "copy_"  # the copy is the package <prefix><name>
    name: str  # an identifier
    description: str  # what the patch changes, in the paper's terms
    file: str  # path inside reference/, e.g. "robust_cal.py"
    old: str | tuple[str, ...]  # exact snippet(s), each occurs exactly once in the file
    new: str | tuple[str, ...]  # the replacement(s), one per snippet

    def __post_init__(self):
        if not self.name.isidentifier():
            raise ValueError(f"patch name {self.name!r} is not an identifier")
        if self.old == self.new:
            raise ValueError(f"patch {self.name}: it changes nothing")
        if isinstance(self.old, tuple) != isinstance(self.new, tuple) or (
            isinstance(self.old, tuple) and len(self.old) != len(self.new)
        ):
            raise ValueError(f"patch {self.name}: old and new must pair up snippet by snippet")
        if self.file.removesuffix(".py") in SHARED_MODULES:
            raise ValueError(f"patch {self.name}: {self.file} is shared with the reference, a patch has no effect")

    @property
    def package(self) -> str:
        return self.prefix + self.name

    @property
    def snippets(self) -> list[tuple[str, str]]:
        """(old, new) pairs."""
        return list(zip(self.old, self.new)) if isinstance(self.old, tuple) else [(self.old, self.new)]


def patched_source(patch: Patch) -> tuple[str, str]:
    """(the reference file's text, the patched text); the snippet must occur exactly once."""
    path = REFERENCE_DIR / patch.file
    original = path.read_text()
    patched = original
    for old, new in patch.snippets:
        occurrences = original.count(old)
        assert occurrences == 1, (
            f"patch {patch.name}: the snippet occurs {occurrences} times in reference/{patch.file} (expected "
            f"once); update it to the current reference:\n{old}"
        )
        patched = patched.replace(old, new)
    assert patched != original
    return original, patched


def copy_reference(directory, package: str) -> str:
    """An unpatched copy of the reference as the top-level package `package` under
    `directory` (input-type modules shared with the reference); returns `package`."""
    target = Path(directory) / package
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(REFERENCE_DIR, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for module in SHARED_MODULES:
        (target / f"{module}.py").write_text(_ALIAS.format(module=module))
    importlib.invalidate_caches()
    return package


def build_combined(patches, directory, package: str) -> str:
    """One copy, `package`, with every patch applied in turn: each snippet must occur
    exactly once in the reference and still once after the patches before it."""
    copy_reference(directory, package)
    for patch in patches:
        patched_source(patch)
        path = Path(directory) / package / patch.file
        text = path.read_text()
        for old, new in patch.snippets:
            assert text.count(old) == 1, f"patch {patch.name}: an earlier patch of {patch.file} touched its snippet"
            text = text.replace(old, new)
        path.write_text(text)
    importlib.invalidate_caches()
    return package


def build(patch: Patch, directory) -> str:
    """The patched copy under `directory`; returns its importable name."""
    _, patched = patched_source(patch)
    package = copy_reference(directory, patch.package)
    (Path(directory) / package / patch.file).write_text(patched)
    importlib.invalidate_caches()
    return package


@contextmanager
def importable(directory, prefix: str):
    """`directory` on sys.path while the block runs (a worker started then inherits it);
    afterwards the copies named `prefix`* are forgotten by this process too."""
    sys.path.insert(0, str(directory))
    try:
        yield directory
    finally:
        sys.path.remove(str(directory))
        for name in [m for m in sys.modules if m.startswith(prefix)]:
            del sys.modules[name]
