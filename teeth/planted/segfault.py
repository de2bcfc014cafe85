"""calruption crashes the interpreter (as a C extension or a ctypes call can)."""

import ctypes

from reference import calruption_epoch, catoni_root, passive, robust_cal


def calruption(hypotheses, tape, params):
    ctypes.string_at(0)  # reads address 0: SIGSEGV


__all__ = ["calruption", "calruption_epoch", "catoni_root", "passive", "robust_cal"]
