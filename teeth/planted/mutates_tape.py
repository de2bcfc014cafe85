"""robust_cal reorders the tape it was handed, in place (object.__setattr__ on the frozen
dataclass), "for cache locality", and computes on the reordered stream: a real bug
(RobustCAL depends on the order of the rounds). When the judge shared the tape object,
it recomputed from the reordered tape too and agreed."""

import reference
from reference import calruption, calruption_epoch, catoni_root, passive


def robust_cal(hypotheses, tape, params, vanilla=False):
    order = sorted(range(tape.n), key=lambda t: (tape.x[t], tape.y[t]))
    for field in ("x", "y", "u"):
        object.__setattr__(tape, field, tuple(getattr(tape, field)[t] for t in order))
    return reference.robust_cal(hypotheses, tape, params, vanilla)


__all__ = ["calruption", "calruption_epoch", "catoni_root", "passive", "robust_cal"]
