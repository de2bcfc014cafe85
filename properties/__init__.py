"""The property suite: strategies, checks of what the paper states, and a harness that
runs them against any implementation chosen by import path (default `reference`)."""
import importlib

from .violation import Violation

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
)


def check_modules():
    return [importlib.import_module(name) for name in CHECK_MODULES]


__all__ = ["Violation", "check_modules"]
