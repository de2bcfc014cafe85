"""The trace functions of an implementation with each result passed through a function:
how the representation variants (int_rationals, extra_fields, tests/properties/checks/test_representations.py's
float64 wrapper of fast) change only how a result is written, never what it says."""

from __future__ import annotations


def traces(implementation, rewrite):
    """(passive, robust_cal, calruption) of `implementation`, results rewritten."""

    def passive(hypotheses, tape, params):
        return rewrite(implementation.passive(hypotheses, tape, params))

    def robust_cal(hypotheses, tape, params, vanilla=False):
        return rewrite(implementation.robust_cal(hypotheses, tape, params, vanilla=vanilla))

    def calruption(hypotheses, tape, params):
        return rewrite(implementation.calruption(hypotheses, tape, params))

    return passive, robust_cal, calruption
