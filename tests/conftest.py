"""pytest wiring: the Hypothesis profile (registered in properties/profiles.py) and the
implementation under test (--impl or $CRAL_IMPL, default `reference`), both shown in
the pytest header."""
import os

import pytest

from properties import profiles
from properties.impl import ENV_VAR, impl_path, load_impl

PROFILE = profiles.load()


CANDIDATE_ENV_VAR = "CRAL_CANDIDATE"


def pytest_addoption(parser):
    parser.addoption("--impl", default=None, help=f"import path of the implementation under test (default ${ENV_VAR} or 'reference')")
    parser.addoption("--candidate", default=None,
                     help=f"import path of the candidate the cross-check holds against the reference (default ${CANDIDATE_ENV_VAR} or 'fast')")


def _candidate(config) -> str:
    return config.getoption("--candidate") or os.environ.get(CANDIDATE_ENV_VAR) or "fast"


def pytest_report_header(config):
    return [f"implementation under test: {impl_path(config.getoption('--impl'))}",
            f"cross-check candidate: {_candidate(config)}", f"hypothesis profile: {PROFILE}"]


@pytest.fixture(scope="session")
def candidate_name(request):
    return _candidate(request.config)


@pytest.fixture(scope="session")
def impl(request):
    """The implementation under test: in a worker process unless it is the reference."""
    with load_impl(request.config.getoption("--impl")) as candidate:
        yield candidate
