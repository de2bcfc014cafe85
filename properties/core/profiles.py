"""Hypothesis profiles, registered in one place.

dev (local runs) and ci (the same examples, and Hypothesis's reproduction blobs; the
suite's own `ci` replaces the one Hypothesis would otherwise load when CI is set) are the
profiles a user gets by default: both are deterministic, with no example database, so
two runs of one candidate give the same report on any machine, whatever ran there
before (the checks' seeds: properties/core/seeds.py). fuzz: long runs from a fresh seed
that keep an example database per candidate (`fuzz_database`) and search past the
counterexamples an expected failure explains, for `HYPOTHESIS_PROFILE=fuzz` or
`python -m properties check --profile fuzz`."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

PROFILES = ("dev", "ci", "fuzz")
# Profiles whose search goes on past a counterexample its expected failure explains
# (properties/checks/causes.py), looking for one it does not: long runs only, since each
# explained counterexample costs its classification and the search does not stop
EXPLORES_PAST_EXPLAINED = frozenset({"fuzz"})
_loaded: list[str] = []
_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]


# Profiles whose runs draw fresh examples unless a seed is given (properties/core/seeds.py);
# every other profile runs seeds.DEFAULT_SEED
EXPLORES = frozenset({"fuzz"})
# Profiles that keep an example database (one per candidate: fuzz_database)
KEEPS_DATABASE = frozenset({"fuzz"})
QUICK_EXAMPLES = 2  # `check --quick`: generated examples per check (after its known examples)


def database_dir() -> Path:
    """Where the fuzz profile keeps Hypothesis's example database: one folder per user
    ($XDG_CACHE_HOME or ~/.cache, under cral-hypothesis), not `.hypothesis/` in whatever
    directory a command runs from. $CRAL_HYPOTHESIS_DIR overrides it."""
    if os.environ.get("CRAL_HYPOTHESIS_DIR"):
        return Path(os.environ["CRAL_HYPOTHESIS_DIR"])
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "cral-hypothesis" / "examples"


class PrefixedDatabase(ExampleDatabase):
    """`database` with every key prefixed by `prefix`: one share of a database that several
    runs use (a candidate's failures of one check; a campaign's check)."""

    def __init__(self, database: ExampleDatabase, prefix: str):
        super().__init__()
        self.database, self.prefix = database, prefix.encode() + b":"

    def __repr__(self) -> str:
        return f"PrefixedDatabase({self.database!r}, {self.prefix[:-1].decode()!r})"

    def save(self, key: bytes, value: bytes) -> None:
        self.database.save(self.prefix + key, value)

    def fetch(self, key: bytes):
        yield from self.database.fetch(self.prefix + key)

    def delete(self, key: bytes, value: bytes) -> None:
        self.database.delete(self.prefix + key, value)

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        self.database.move(self.prefix + src, self.prefix + dest, value)


def candidate_database(database: ExampleDatabase, candidate: str, check: str) -> PrefixedDatabase:
    """`database` seen by one candidate (its import path or command line) and one check: a
    candidate replays only its own failures of that check, never another candidate's (nor
    another check's: run_check's inner test function, and so Hypothesis's own key, is the
    same for every check)."""
    return PrefixedDatabase(database, hashlib.sha256(f"{candidate}\0{check}".encode()).hexdigest()[:32])


def fuzz_database(candidate: str, check: str) -> ExampleDatabase:
    """The fuzz profile's database, seen by one (candidate, check)."""
    return candidate_database(DirectoryBasedExampleDatabase(str(database_dir())), candidate, check)


# derandomize: a plain @given test under dev or ci (not run through run_check, which seeds
# every check itself) draws the same examples every run too
settings.register_profile(
    "dev", max_examples=25, derandomize=True, deadline=None, database=None, suppress_health_check=_SLOW_OK
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
# the database is handed to each check by run_check (fuzz_database), keyed by its candidate
settings.register_profile("fuzz", max_examples=2000, deadline=None, database=None, suppress_health_check=_SLOW_OK)


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


def explores(name: str | None = None) -> bool:
    """Whether the profile draws fresh examples when no seed is given."""
    return (name or active()) in EXPLORES


def keeps_database(name: str | None = None) -> bool:
    return (name or active()) in KEEPS_DATABASE
