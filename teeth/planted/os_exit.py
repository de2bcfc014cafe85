"""passive ends its process with os._exit(3) (no exception, no cleanup)."""

import os

from reference import calruption, calruption_epoch, catoni_root, robust_cal


def passive(hypotheses, tape, params):
    os._exit(3)


__all__ = ["calruption", "calruption_epoch", "catoni_root", "passive", "robust_cal"]
