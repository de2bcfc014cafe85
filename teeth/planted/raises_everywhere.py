"""Every public name raises: every check that calls the implementation must report
"crashed: RuntimeError", and the run must end with exit 1 in the usual time."""


def _raise(*args, **kwargs):
    raise RuntimeError("not implemented yet")


passive = robust_cal = calruption = calruption_epoch = catoni_root = sample_tape = loss_difference_samples = _raise
