"""The words of the suite's reports: a check's statuses and kinds, the cross-check's statuses
and what it counts instead of reporting. The published schemas take their enums from here
(reference/schemas/build.py writes reference/schemas/v1/) and the judge (properties/) writes
its reports with these values, so a report and its schema name the same words."""

# the suite's own statuses of a check
PASSED, FAILED, XFAIL, XPASS = "passed", "failed", "expected failure", "unexpectedly passed"
NOT_APPLICABLE = "not applicable"
NOT_RUN = "not run"  # the run's time budget ended before the check could say anything
STATUSES = (PASSED, FAILED, XFAIL, XPASS, NOT_APPLICABLE, NOT_RUN)

# the candidate's own statuses (its xfails and skips files), shown apart from the suite's
YOUR_XFAIL = "expected failure (yours)"
YOUR_XPASS = "unexpectedly passed (yours)"
YOUR_SKIP = "skipped (yours)"
YOUR_STATUSES = (YOUR_XFAIL, YOUR_XPASS, YOUR_SKIP)

CHECK_STATUSES = (*STATUSES, *YOUR_STATUSES)  # `python -m properties check --json`
CHECK_KINDS = ("deterministic", "lemma", "conditional", "statistical", "counterexample")
CROSSCHECK_STATUSES = (PASSED, FAILED, NOT_RUN, *YOUR_STATUSES)  # `python -m properties crosscheck --json`

# What the cross-check counts instead of reporting: float rounding at a boundary (coin,
# threshold_boundary, layer_boundary) and the classes of the paper's free choices, in the
# order of the table of free choices (properties/checks/free_choices.py, whose classes a
# test holds to this tuple).
DIVERGENCE_KINDS = ("coin", "argmin_tie", "lp_non_unique", "output_member", "threshold_boundary", "layer_boundary")

# The type tags of the examples that a saved failure file and a check report hold (their
# `case.type`): a tag says what the data is, not where its code lives, so a file stays
# readable when the code moves. `pickle` marks the few example types without a JSON form.
CASE_TAG = "cral-case/v1"  # a whole run: instance, adversary, seed and parameters (the tape follows)
EXAMPLE_TAGS = (
    CASE_TAG,
    "cral-crafted-case/v1",  # a whole run whose tape the strategy chose
    "cral-epoch-example/v1",  # one epoch's input: H, the state at its start, its counts, parameters
    "cral-one-epoch-case/v1",  # one epoch of Algorithm 2 generated directly
    "cral-population-case/v1",  # an instance and an oblivious adversary over whole epochs
    "cral-sampler-case/v1",  # what sample_tape receives
    "cral-sampler-prefix-case/v1",  # a tape and a shorter horizon over the same seed
)
PICKLE_TAG = "pickle"
