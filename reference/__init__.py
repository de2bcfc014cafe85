"""Exact reference implementation of "Corruption Robust Active Learning" (Chen, Du,
Jamieson, NeurIPS 2021). Rationals throughout; see CONTRACT.md for the contracts."""

# first: importing it makes Ctrl-C while a command line's modules load one line, not a
# traceback (command_line.stop_early_in_a_command)
from . import command_line  # noqa: F401  (isort: skip)
from . import adversary, instances
from .adversary import Adversary, Segment
from .calruption import calruption, calruption_epoch, loss_difference_samples
from .catoni import catoni_root
from .certified import Enclosure
from .instance import Instance
from .params import Params
from .passive import passive
from .robust_cal import robust_cal
from .tape import Tape, sample_tape
from .trace import (
    CALruptionEpoch,
    CALruptionTrace,
    PassiveTrace,
    RobustCALCheckpoint,
    RobustCALTrace,
    trace_from_json,
    trace_to_json,
)


def __getattr__(name):
    """`reference.documents` (schema-validated loading) is imported on first use: it
    brings in jsonschema, which the algorithms do not need."""
    if name == "__version__":  # pyproject.toml's version, the one source (reference/version.py)
        from .version import package_version

        return package_version()
    if name == "documents":
        import importlib

        return importlib.import_module(".documents", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Declared for the cross-check (properties/checks/crosscheck.py): held to exact agreement.
ARITHMETIC = "exact"

__all__ = [
    "ARITHMETIC",
    "CALruptionEpoch",
    "CALruptionTrace",
    "calruption",
    "calruption_epoch",
    "catoni_root",
    "loss_difference_samples",
    "Adversary",
    "Enclosure",
    "Instance",
    "Params",
    "PassiveTrace",
    "RobustCALCheckpoint",
    "RobustCALTrace",
    "Segment",
    "Tape",
    "adversary",
    "documents",
    "instances",
    "passive",
    "robust_cal",
    "sample_tape",
    "trace_from_json",
    "trace_to_json",
]
