"""Hypothesis profiles, registered in one place.

dev: quick local runs; ci: derandomised, no deadline, no database (Hypothesis would
otherwise auto-load its own `ci` profile when CI is set); fuzz: long runs that keep the
example database and search past the counterexamples an expected failure explains, for
`HYPOTHESIS_PROFILE=fuzz` or `python -m properties check --profile fuzz`."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

PROFILES = ("dev", "ci", "fuzz")
# Profiles whose search goes on past a counterexample its expected failure explains
# (properties/checks/causes.py), looking for one it does not: long runs only, since each
# explained counterexample costs its classification and the search does not stop
EXPLORES_PAST_EXPLAINED = frozenset({"fuzz"})
_loaded: list[str] = []
_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]


def dev_database_dir() -> Path:
    """Where the dev profile keeps Hypothesis's example database: one folder per user
    ($XDG_CACHE_HOME or ~/.cache, under cral-hypothesis), not `.hypothesis/` in whatever
    directory a command runs from. $CRAL_HYPOTHESIS_DIR overrides it."""
    if os.environ.get("CRAL_HYPOTHESIS_DIR"):
        return Path(os.environ["CRAL_HYPOTHESIS_DIR"])
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "cral-hypothesis" / "examples"


settings.register_profile(
    "dev",
    max_examples=25,
    deadline=None,
    suppress_health_check=_SLOW_OK,
    database=DirectoryBasedExampleDatabase(str(dev_database_dir())),
)
settings.register_profile(
    "ci",
    max_examples=25,
    derandomize=True,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=_SLOW_OK,
)
settings.register_profile("fuzz", max_examples=2000, deadline=None, suppress_health_check=_SLOW_OK)


# values of CI that mean "not under CI" (CI=false in a shell profile, CI=0 in a Makefile)
_FALSE = frozenset({"", "0", "false", "no", "off"})


def under_ci(environ=os.environ) -> bool:
    """Whether $CI says the run is under CI: set and not one of 0/false/no/off."""
    return environ.get("CI", "").strip().lower() not in _FALSE


def default_profile() -> str:
    return os.environ.get("HYPOTHESIS_PROFILE", "ci" if under_ci() else "dev")


def load(name: str | None = None) -> str:
    name = name or default_profile()
    if name not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {name!r}")
    settings.load_profile(name)
    _loaded[:] = [name]
    return name


def active() -> str:
    """The profile loaded last by `load` (the default one if none was)."""
    return _loaded[0] if _loaded else default_profile()


def explores_past_explained(name: str | None = None) -> bool:
    return (name or active()) in EXPLORES_PAST_EXPLAINED
