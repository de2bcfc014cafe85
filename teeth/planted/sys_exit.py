"""passive calls sys.exit(4): a SystemExit, which the worker reports (and survives)."""

import sys

from reference import calruption, calruption_epoch, catoni_root, robust_cal


def passive(hypotheses, tape, params):
    sys.exit(4)


__all__ = ["calruption", "calruption_epoch", "catoni_root", "passive", "robust_cal"]
