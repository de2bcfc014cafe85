"""A real bug hidden by replacing the judge's functions at import.

The bug: the modified RobustCAL runs the vanilla rule (line 10 without 1/2 rho^, FINDINGS
R6) but reports itself as the modified one. To hide it, the module replaces, at import,
the functions the judge recomputes line 10 with -- the check's threshold and the
cross-check's checkpoint update -- by versions that apply the vanilla rule too. In the
judge's own process (--in-process) that fooled both routes; in a worker process it can
only change the worker's copies."""

from dataclasses import replace

import reference
from reference import calruption, calruption_epoch, catoni_root, passive
from reference.robust_cal import checkpoint_update

try:  # the judge's modules, if they are loaded in this process
    import properties.checks.crosscheck as _crosscheck
    import properties.checks.robust_cal as _checks

    _threshold = _checks._threshold
    _checks._threshold = lambda beta, rho, t, vanilla, bits: _threshold(beta, rho, t, True, bits)
    _crosscheck.checkpoint_update = lambda *args, **kwargs: checkpoint_update(*args[:7], True, *args[8:], **kwargs)
except ImportError:
    pass


def robust_cal(hypotheses, tape, params, vanilla=False):
    trace = reference.robust_cal(hypotheses, tape, params, vanilla=True)
    return trace if vanilla else replace(trace, vanilla=False, algorithm="robust_cal")


__all__ = ["calruption", "calruption_epoch", "catoni_root", "passive", "robust_cal"]
