"""Which code gave a verdict: the package's version and the commit it was built from, as
every report names them (the JSON reports' `code_version`, the text's `suite:` line,
the JUnit properties, the HTML page).

The version has one source, pyproject.toml's static `version` (bumped with a tag on each
release, CHANGELOG.md). It is read from the source tree's pyproject.toml when this code runs
from a checkout, since an editable install's metadata keeps the version it was installed
with; else from the installed distribution's metadata. The commit: reference/commit.py (a
checkout's HEAD, else the one its build recorded)."""

from __future__ import annotations

from functools import lru_cache

from reference.command_line import DISTRIBUTION
from reference.commit import ROOT, commit

PYPROJECT = ROOT / "pyproject.toml"


def _source_version() -> str | None:
    """pyproject.toml's version, when ROOT is this distribution's source tree."""
    import tomllib

    try:
        project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8")).get("project", {})
    except (OSError, ValueError):
        return None
    return project.get("version") if project.get("name") == DISTRIBUTION else None


@lru_cache(maxsize=1)
def package_version() -> str | None:
    """The version of this code: the source tree's, else the installed distribution's
    (None: neither, e.g. a copy of the modules alone)."""
    found = _source_version()
    if found is not None:
        return found
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return None


@lru_cache(maxsize=1)
def code_version() -> dict:
    """{"package": version, "commit": sha or None, "dirty": bool or None}: what the reports
    record (reference/schemas: code_version)."""
    sha, dirty = commit()
    return {"package": package_version(), "commit": sha, "dirty": dirty}


def suite_text(code: dict) -> str:
    """Which code judged, from a report's code_version: "cral-verify 0.1.0, commit 1497af8..."."""
    sha = code.get("commit")
    where = f"commit {sha}" if sha else "commit unknown"
    if sha and code.get("dirty"):
        where += " with uncommitted changes"
    return f"{DISTRIBUTION} {code.get('package') or '(version unknown)'}, {where}"


def suite_line(code: dict, profile: str | None = None, seed: int | None = None) -> str:
    """The text reports' `suite:` line: which code judged, and with what profile and seed."""
    settings = ([f"profile {profile}"] if profile else []) + ([f"seed {seed}"] if seed is not None else [])
    return f"suite: {suite_text(code)}" + (f"; {', '.join(settings)}" if settings else "")


def __getattr__(name):
    if name == "__version__":
        return package_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DISTRIBUTION",
    "code_version",
    "package_version",
    "suite_line",
    "suite_text",
]
