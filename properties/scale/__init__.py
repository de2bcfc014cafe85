"""The judge at scale: counts-mode CALruption runs at sizes the exact reference cannot
replay (|H| = |X| = 1024..4096, n = 10^12), checked epoch by epoch from the counts the
candidate drew (docs/scale_judge.md).

    python -m properties crosscheck --candidate fast --counts --sizes 1024,4096

`run.py` runs the candidate's `calruption_counts_record` (fast/scale_record.py: its
record format) in the worker process of properties/judge/isolation.py and drives the judge;
`epoch.py` judges one epoch: the pair statistics recomputed exactly in integers (for a
nested class from prefix sums, `nested.py`), every Catoni root certified by a sign test at
the candidate's W +/- the tolerance (`catoni.py`: vectorised in float64, then longdouble,
each with a rigorous error bound, exact fallback), the D^ fit checked for feasibility and
against a dual lower bound verified in exact integers (`lp.py`), its multipliers from one
cycle of binding constraints for a nested class (`lp_cycle.py`) or else from HiGHS, the
risks, gaps, h^*, layers and next q recomputed. Mismatches
and divergences are those of the small cross-check (properties/checks/crosscheck.py), in its
report format.

What this package may import: the reference's exact arithmetic and modules (reference/),
the cross-check's report types and tolerance table (properties/checks/crosscheck.py,
properties/checks/tolerances.py, properties/checks/free_choices.py, properties/checks/catoni_sign.py), the
candidate-isolation route (properties/core/candidate.py, properties/judge/isolation.py), numpy/scipy, and
the record format of fast/scale_record.py, restated in run.py (tests/properties/scale/test_scale_judge.py
holds the two equal: the judge never imports the candidate's code, which runs only in its
worker). Never a Hypothesis strategy: the sizes and seeds are fixed, not generated."""
