"""The property suite: strategies, checks of what the paper states, and a harness that
runs them against any implementation chosen by import path (default `reference`) or by
command (docs/protocol.md). From Python: `properties.check_implementation(...)`
(properties/api.py); from pytest: the `cral` plugin (properties/pytest_plugin.py)."""

import importlib


def check_modules():
    """The modules that define checks (properties.checks.registry.CHECK_MODULES), imported."""
    from properties.checks.registry import check_modules

    return check_modules()


# The Python API (properties/api.py), imported when first used: importing the package
# (as pytest does for the plugin, properties/pytest_plugin.py) stays light.
_LAZY = {
    # lazy too: `python -m properties` imports this package before anything of its own
    # runs, and Ctrl-C is one line only from reference's import on (reference/command_line.py)
    "Violation": "properties.core.violation",
    "check_implementation": "properties.api",
    "CheckFailureWarning": "properties.api",
    "ImplementationCheckFailed": "properties.api",
    "load_candidate": "properties.judge.load",
}


def __getattr__(name):
    if name == "__version__":  # pyproject.toml's version, the one source (reference/version.py)
        from reference.version import package_version

        return package_version()
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'properties' has no attribute {name!r}")


__all__ = [
    "CheckFailureWarning",
    "ImplementationCheckFailed",
    "Violation",
    "check_implementation",
    "check_modules",
    "load_candidate",
]
