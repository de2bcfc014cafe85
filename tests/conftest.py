"""pytest wiring: the Hypothesis profile (registered in properties/core/profiles.py) and the
implementation under test (--impl or $CRAL_IMPL, default `reference`), both shown in
the pytest header. Any implementation but the reference runs in a worker process
(properties/judge/isolation.py); --cral-timeout, --cral-memory-limit and --cral-in-process
(the command line's --timeout, --memory-limit and --in-process) are options of the
`cral` plugin (properties/pytest_plugin.py), which the `impl` fixture reads."""

import os

import pytest

from properties import pytest_plugin
from properties.core import candidate as harness
from properties.core import profiles
from properties.core.candidate import CMD_ENV_VAR, ENV_VAR, env_cmd, impl_path
from properties.judge.load import load_candidate

PROFILE = profiles.load()


CANDIDATE_ENV_VAR = "CRAL_CANDIDATE"


def pytest_addoption(parser, pluginmanager):
    # The package's pytest11 entry point loads the plugin; an install made before the entry
    # point existed (an older editable install) does not, so it is loaded here, under the
    # entry point's name (which keeps the two from both registering it).
    if not pluginmanager.has_plugin(pytest_plugin.PLUGIN_NAME) and not pluginmanager.is_blocked(
        pytest_plugin.PLUGIN_NAME
    ):
        pluginmanager.register(pytest_plugin, pytest_plugin.PLUGIN_NAME)
    parser.addoption(
        "--impl", default=None, help=f"import path of the implementation under test (default ${ENV_VAR} or 'reference')"
    )
    parser.addoption(
        "--candidate",
        default=None,
        help=f"import path of the candidate the cross-check holds against the reference (default ${CANDIDATE_ENV_VAR} or 'fast')",
    )


def _candidate(config) -> str:
    return config.getoption("--candidate") or os.environ.get(CANDIDATE_ENV_VAR) or "fast"


def pytest_configure(config):
    # failing cases that `properties check` saves (cral-results/) go to a temporary folder, not
    # into the working directory (many tests run the CLI with the repository as cwd)
    if not os.environ.get("CRAL_RESULTS_DIR"):
        import tempfile

        os.environ["CRAL_RESULTS_DIR"] = tempfile.mkdtemp(prefix="cral-results-")
    # `properties check` run by a test is serial unless the test asks for -j: the test run
    # already keeps every core busy (pytest -n), and a worker process per core per command
    # would pay the suite's imports again for each
    os.environ.setdefault("CRAL_JOBS", "1")
    try:
        if config.getoption("--impl") is None and env_cmd() is not None:
            return
        impl_path(config.getoption("--impl"))
    except (
        ValueError
    ) as error:  # --impl "", CRAL_IMPL="" or CRAL_CMD="": one line before any test, not an error per test
        raise pytest.UsageError(str(error)) from None


def pytest_report_header(config):
    if config.getoption("--impl") is None and env_cmd() is not None:
        under_test = f"command {os.environ[CMD_ENV_VAR]!r} (${CMD_ENV_VAR}; a process of its own per call)"
    else:
        path = impl_path(config.getoption("--impl"))
        in_process = path == harness.DEFAULT_IMPL or config.getoption("--cral-in-process")
        under_test = f"{path} ({'in-process' if in_process else 'worker process'})"
    return [
        f"implementation under test: {under_test}",
        f"cross-check candidate: {_candidate(config)}",
        f"hypothesis profile: {PROFILE}",
    ]


@pytest.fixture(scope="session")
def candidate_name(request):
    return _candidate(request.config)


@pytest.fixture(scope="session")
def impl(request):
    """The implementation under test (--impl, $CRAL_CMD, $CRAL_IMPL, or the reference): in a
    worker process unless it is the reference; a command runs in a process per call."""
    with load_candidate(
        request.config.getoption("--impl"), **pytest_plugin.candidate_options(request.config)
    ) as candidate:
        yield candidate
