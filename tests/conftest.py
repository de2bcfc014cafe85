"""pytest wiring: the Hypothesis profile (registered in properties/profiles.py) and the
implementation under test (--impl or $CRAL_IMPL, default `reference`), both shown in
the pytest header. Any implementation but the reference runs in a worker process
(properties/isolation.py); --cral-timeout, --cral-memory-limit and --cral-in-process
are the command line's --timeout, --memory-limit and --in-process."""
import os

import pytest

from properties import impl as harness
from properties import profiles
from properties.cli import parse_size
from properties.impl import DEFAULT_MEMORY_LIMIT, ENV_VAR, impl_path, load_impl

PROFILE = profiles.load()


CANDIDATE_ENV_VAR = "CRAL_CANDIDATE"


def pytest_addoption(parser):
    parser.addoption("--impl", default=None, help=f"import path of the implementation under test (default ${ENV_VAR} or 'reference')")
    parser.addoption("--candidate", default=None,
                     help=f"import path of the candidate the cross-check holds against the reference (default ${CANDIDATE_ENV_VAR} or 'fast')")
    parser.addoption("--cral-timeout", type=float, default=harness.DEFAULT_TIMEOUT_S,
                     help="seconds one call of the implementation may take")
    parser.addoption("--cral-memory-limit", default=None, help="the worker's address space, e.g. 4G or 'none' (default 16G)")
    parser.addoption("--cral-in-process", action="store_true",
                     help="run the implementation in pytest's own process (for a debugger; the verdict is not protected)")


def _candidate(config) -> str:
    return config.getoption("--candidate") or os.environ.get(CANDIDATE_ENV_VAR) or "fast"


def pytest_report_header(config):
    path = impl_path(config.getoption("--impl"))
    where = "in-process" if path == harness.DEFAULT_IMPL or config.getoption("--cral-in-process") else "worker process"
    return [f"implementation under test: {path} ({where})",
            f"cross-check candidate: {_candidate(config)}", f"hypothesis profile: {PROFILE}"]


@pytest.fixture(scope="session")
def candidate_name(request):
    return _candidate(request.config)


@pytest.fixture(scope="session")
def impl(request):
    """The implementation under test: in a worker process unless it is the reference."""
    config = request.config
    limit = config.getoption("--cral-memory-limit")
    with load_impl(config.getoption("--impl"), isolate=False if config.getoption("--cral-in-process") else None,
                   timeout=config.getoption("--cral-timeout"),
                   memory_limit=DEFAULT_MEMORY_LIMIT if limit is None else parse_size(limit)) as candidate:
        yield candidate
