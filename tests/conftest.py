"""Hypothesis profiles, registered in this one place.

dev: quick local runs; ci: derandomised, no deadline (Hypothesis would otherwise
auto-load its own `ci` profile when CI is set); fuzz: long runs, use with -m slow or
HYPOTHESIS_PROFILE=fuzz. Choose with HYPOTHESIS_PROFILE; default ci under CI, else dev."""
import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=30, deadline=None)
settings.register_profile(
    "ci", max_examples=30, derandomize=True, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("fuzz", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def pytest_report_header(config):
    return f"hypothesis profile: {settings.get_current_profile_name()}"
