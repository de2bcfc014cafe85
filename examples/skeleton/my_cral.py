"""A skeleton candidate implementation: copy this file, rename it, and replace each body
with your own code. As shipped, every function delegates to the exact reference, so the
suite passes on it:

    PYTHONPATH=examples/skeleton python -m properties check --impl my_cral

The contract (names, signatures, the tape, the trace, ARITHMETIC) is CONTRACT.md at the
root of this repository. In short: an implementation sees only the hypotheses, the tape
and the parameters -- never nu*, eta* or the adversary -- and returns a trace (the
reference's dataclasses, or their plain-data/JSON form: `reference.trace_to_json`).
Replace one function at a time and re-run the checks of that mode, e.g.
`--only check_passive_output_is_erm check_passive_empirical_risks_recomputed`."""

from __future__ import annotations

import reference
from reference.calruption import calruption_epoch as _reference_epoch

# "exact" (results are Fractions and certified enclosures; the default when absent) or
# "float64" (results may be floats: Catoni's root and the cross-check are then held to
# the float64 tolerances of properties/checks/tolerances.py). CONTRACT.md, "Arithmetic".
ARITHMETIC = "exact"


def passive(hypotheses, tape, params):
    """ERM over all n labels (Theorem 3.1). hypotheses: tuple of tuples of 0/1 labels, one
    per point; tape: reference.Tape (tape.x, tape.y, tape.u, tape.n); params:
    reference.Params. Returns a trace with .output (the output hypothesis's index)."""
    return reference.passive(hypotheses, tape, params)


def robust_cal(hypotheses, tape, params, vanilla=False):
    """Algorithm 1: the modified elimination rule, or the vanilla one with vanilla=True
    (its trace must then say algorithm "robust_cal_vanilla")."""
    return reference.robust_cal(hypotheses, tape, params, vanilla=vanilla)


def calruption(hypotheses, tape, params):
    """Algorithm 2: one record per completed epoch, then the unfinished epoch's index and
    length."""
    return reference.calruption(hypotheses, tape, params)


def calruption_epoch(hypotheses, state, counts, params):
    """One epoch's update of Algorithm 2 (lines 7-14) as a pure function:
    (reference.calruption.EpochState, EpochCounts) -> (the epoch's record, the next
    state). The one-epoch checks call it; without it they fail."""
    return _reference_epoch(hypotheses, state, counts, params)


def catoni_root(values, counts, alpha):
    """Catoni's estimator on the multiset {values[i] repeated counts[i] times}: an
    enclosure (lo, hi) of the root with f(lo) >= 0 >= f(hi) (an exact implementation
    certifies it; width <= 2^-64 in the reference)."""
    return reference.catoni_root(values, counts, alpha)


# Optional: sample_tape(instance, adversary, seed) -> a tape equal to the reference's
# (generator cral-tape-v1) and loss_difference_samples(...): checked only when present.
