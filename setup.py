"""The build steps beyond pyproject.toml: the commit a build is made from, recorded as
reference/_build_info.py in the sdist and the wheel, so that a report of an installed package
names the commit that judged (reference/commit.py reads it where no git checkout is); and
FINDINGS.md, which lives at the top of the repository, copied into the wheel's proofs_check/
for `proofs_check --errata`.

From a checkout the commit is `git rev-parse HEAD`; a wheel built from an unpacked sdist (as
`python -m build` does) takes the file the sdist carries. An editable install records nothing:
its reports ask git at run time."""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
INFO = Path("reference", "_build_info.py")


def _commit_module():
    """reference/commit.py, loaded by path: it imports the standard library only, and the
    build environment has nothing else (importing `reference` would need numpy and more)."""
    spec = importlib.util.spec_from_file_location("_cral_commit", ROOT / "reference" / "commit.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_info() -> str | None:
    """The text of reference/_build_info.py: this checkout's commit, else the file an sdist
    carries, else None (a source tree with neither: the reports will say the commit is unknown)."""
    commit = _commit_module()
    found = commit.checkout_commit()
    if found is not None:
        return commit.build_info_text(*found)
    carried = ROOT / INFO
    return carried.read_text(encoding="utf-8") if carried.is_file() else None


def _write(target: Path, text: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)  # the sdist's tree holds hard links to the sources
    target.write_text(text, encoding="utf-8")


class BuildPy(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        text = build_info()
        if text is not None:
            _write(Path(self.build_lib) / INFO, text)
        # proofs_check --errata names each finding by its FINDINGS.md heading (proofs_check/errata.py)
        _write(
            Path(self.build_lib) / "proofs_check" / "FINDINGS.md", (ROOT / "FINDINGS.md").read_text(encoding="utf-8")
        )


class Sdist(sdist):
    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        text = build_info()
        if text is not None:
            _write(Path(base_dir) / INFO, text)


setup(cmdclass={"build_py": BuildPy, "sdist": Sdist})
