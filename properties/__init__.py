"""The property suite: strategies, checks of what the paper states, and a harness that
runs them against any implementation chosen by import path (default `reference`) or by
command (docs/protocol.md). From Python: `properties.check_implementation(...)`
(properties/api.py); from pytest: the `cral` plugin (properties/pytest_plugin.py)."""
import importlib

# The modules that define checks; registry.all_checks() collects their CHECKS.
CHECK_MODULES = (
    "properties.checks_robust_cal",
    "properties.checks_calruption",
    "properties.checks_lemmas",
    "properties.checks_conditional",
    "properties.checks_calruption_events",
    "properties.checks_sampler",
    "properties.checks_catoni",
    "properties.checks_boundary",
    "properties.checks_corruption_population",
    "properties.checks_corrected_theorems",  # issue 29: corrected Theorems 4.1 and 5.1
)


def check_modules():
    return [importlib.import_module(name) for name in CHECK_MODULES]


# The Python API (properties/api.py), imported when first used: importing the package
# (as pytest does for the plugin, properties/pytest_plugin.py) stays light.
_LAZY = {
    # lazy too: `python -m properties` imports this package before anything of its own
    # runs, and Ctrl-C is one line only from reference's import on (reference/interrupts.py)
    "Violation": "properties.violation",
    "check_implementation": "properties.api",
    "CheckFailureWarning": "properties.api",
    "ImplementationCheckFailed": "properties.api",
    "load_candidate": "properties.impl",
}


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'properties' has no attribute {name!r}")


__all__ = ["CheckFailureWarning", "ImplementationCheckFailed", "Violation", "check_implementation", "check_modules",
           "load_candidate"]
