"""pytest wiring: the Hypothesis profile (registered in properties/profiles.py) and the
implementation under test (--impl or $CRAL_IMPL, default `reference`), both shown in
the pytest header."""
import pytest

from properties import profiles
from properties.impl import ENV_VAR, impl_path, load_impl

PROFILE = profiles.load()


def pytest_addoption(parser):
    parser.addoption("--impl", default=None, help=f"import path of the implementation under test (default ${ENV_VAR} or 'reference')")


def pytest_report_header(config):
    return [f"implementation under test: {impl_path(config.getoption('--impl'))}", f"hypothesis profile: {PROFILE}"]


@pytest.fixture(scope="session")
def impl(request):
    return load_impl(request.config.getoption("--impl"))
