"""The property suite: strategies, checks of what the paper states, and a harness that
runs them against any implementation chosen by import path (default `reference`) or by
command (docs/protocol.md). From Python: `properties.check_implementation(...)`
(properties/api.py); from pytest: the `cral` plugin (properties/pytest_plugin.py)."""

import sys

if sys.argv[:1] == ["-m"]:
    # `python -m properties` starting (argv[0] is "-m" while the package imports): reference
    # first, so that Ctrl-C from here on is one line and 130 (reference.command_line.
    # stop_early_in_a_command); otherwise importing the package stays light (the plugin)
    import reference.command_line  # noqa: F401

import importlib  # noqa: E402


def check_modules():
    """The modules that define checks (properties.checks.registry.CHECK_MODULES), imported."""
    from properties.checks.registry import check_modules

    return check_modules()


# The Python API (properties/api.py), imported when first used: importing the package
# (as pytest does for the plugin, properties/pytest_plugin.py) stays light.
_LAZY = {
    # lazy too: `python -m properties` imports this package before anything of its own
    # runs (and reference.command_line first, above)
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
