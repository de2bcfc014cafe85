"""No legitimate reading is a false alarm: the legitimate variants of the reference
(teeth/legit/variants.py), each another choice where the paper leaves one open
(properties/checks/free_choices.py), pass every registered check and the cross-check.

* every free choice of the table is made otherwise by some variant, and each variant
  really differs from the reference (fixed cases where its trace differs), so a pass
  proves something;
* on those very cases, each variant, isolated (properties.judge.load.load_impl), passes every
  full-run check of the mode where it differs (but the expected failures);
* one copy with every variant's patch at once passes every registered check through
  properties.run.runner.run_check (expected failures still fail as expected; a check that
  does not apply is fine), on MAX_EXAMPLES generated examples per check; statistical and
  counter-example checks (Monte-Carlo runs over fixed seeds, about 20 s whatever the number
  of examples) are left to the slow run. MAX_EXAMPLES is enough for the checks to see the
  choices: tests/properties/checks/test_free_choices.py shows that with an entry pinned, the same checks on
  as many examples reject the variant;
* the cross-check reports no mismatch on the cases where the variant differs (and the first
  few fixed cases) and counts the variant's divergence class;
* slow: each variant alone against every registered check with the loaded profile's
  examples (about 35 s each).
"""

from __future__ import annotations

import pytest

from properties.checks.crosscheck import crosscheck, summary_text
from properties.checks.free_choices import CHOICES, divergence_of
from properties.checks.registry import EXPECTED_FAILURES, all_checks
from properties.core.candidate import CallFailed, call, run_algorithm
from properties.core.contract import TRACE_MODES
from properties.judge.load import load_impl
from properties.run.runner import NOT_APPLICABLE, PASSED, XFAIL, run_check, violations_of
from reference.trace import trace_to_json
from teeth.legit.variants import CHECK_EXAMPLES as MAX_EXAMPLES
from teeth.legit.variants import FIXED_CASES as FIXED
from teeth.legit.variants import PREFIX, VARIANTS, build
from teeth.reference_copies import build_combined, importable

DIFFERING_CASES = 2  # per variant: the first fixed cases where its trace differs
CROSSCHECK_CASES = 4  # the first few fixed cases, besides those where the variant differs
SLOW_KINDS = ("statistical", "counterexample")
ZERO_COUNT = ([0, 1], [1, 0], 1)  # catoni_root's arguments with a count of 0


@pytest.fixture(scope="module")
def legit_dir(tmp_path_factory):
    with importable(tmp_path_factory.mktemp("legit"), PREFIX) as directory:
        yield directory


@pytest.fixture(scope="module")
def variants(legit_dir):
    """name -> the isolated candidate of each variant."""
    loaded = {v.name: load_impl(build(v, legit_dir)) for v in VARIANTS}
    yield loaded
    for candidate in loaded.values():
        candidate.close()


def _params(slow: bool = False):
    return [pytest.param(v, id=v.name, marks=[pytest.mark.slow] if slow else []) for v in VARIANTS]


def _expected(name: str, status: str) -> bool:
    return status in ((XFAIL if name in EXPECTED_FAILURES else PASSED), NOT_APPLICABLE)


def test_every_free_choice_is_made_otherwise_by_a_variant():
    exercised = {c for v in VARIANTS for c in v.choices}
    assert {c.id for c in CHOICES if c.free} == exercised


@pytest.fixture(scope="module")
def differences(variants):
    """variant name -> [(case index, mode, differing top-level fields)]: the first
    DIFFERING_CASES fixed cases where the variant's trace differs from the reference's."""
    import reference

    exact = {}

    def theirs(index, mode):
        if (index, mode) not in exact:
            exact[index, mode] = trace_to_json(run_algorithm("legit", reference, mode, FIXED[index]))
        return exact[index, mode]

    found = {}
    for variant in VARIANTS:
        found[variant.name] = []
        if "catoni_root" in variant.modes:  # not a trace: the zero-count input shows the difference
            ours, theirs_ = (_outcome(c, *ZERO_COUNT) for c in (variants[variant.name], reference))
            if ours != theirs_:
                found[variant.name].append(
                    (None, "catoni_root", [f"given counts {ZERO_COUNT[1]}: {ours} instead of {theirs_}"])
                )
        for index, case in enumerate(FIXED):
            for mode in (m for m in variant.modes if m in TRACE_MODES):
                ours = trace_to_json(run_algorithm("legit", variants[variant.name], mode, case))
                if ours != theirs(index, mode):
                    found[variant.name].append(
                        (index, mode, sorted(k for k in ours if ours[k] != theirs(index, mode)[k]))
                    )
            if len(found[variant.name]) >= DIFFERING_CASES:
                break
    return found


def _outcome(candidate, *args) -> str:
    try:
        return repr(call("legit", candidate, "catoni_root", *args))
    except CallFailed as failure:
        return failure.violation.message.split(" (in ")[0]


@pytest.mark.parametrize("variant", _params())
def test_variant_differs_from_the_reference(variant, differences):
    assert differences[variant.name], f"{variant.name} returns the reference's traces on all {len(FIXED)} fixed cases"
    print(f"\n{variant.name}: differs on (case, mode, fields) {differences[variant.name]}")


@pytest.mark.parametrize("variant", _params())
def test_variant_passes_the_checks_where_it_differs(variant, variants, differences):
    """Every full-run check of the mode (its examples are Cases) on the fixed cases where the
    variant's trace differs."""
    found = {}
    for index, mode, _ in differences[variant.name]:
        if mode not in TRACE_MODES:  # its checks generate their own examples: the next test runs them
            continue
        for name, check in all_checks().items():
            if (
                mode in check.covers
                and set(check.covers) <= {mode, "loss_difference_samples"}
                and check.kind not in SLOW_KINDS
                and name not in EXPECTED_FAILURES
            ):
                bad = violations_of(check, variants[variant.name], FIXED[index])
                if bad:
                    found[index, name] = [str(v) for v in bad[:1]]
    assert found == {}


def _run(candidate, checks, max_examples):
    results = {name: run_check(check, candidate, max_examples=max_examples) for name, check in checks.items()}
    return {
        name: (r.status, r.violations[:1], r.counterexample)
        for name, r in results.items()
        if not _expected(name, r.status)
    }


def test_all_variants_at_once_pass_every_check(legit_dir):
    package = build_combined(VARIANTS, legit_dir, PREFIX + "all_choices")
    checks = {name: c for name, c in all_checks().items() if c.kind not in SLOW_KINDS}
    with load_impl(package) as candidate:
        assert _run(candidate, checks, MAX_EXAMPLES) == {}


@pytest.mark.parametrize("variant", _params(slow=True))
def test_variant_passes_every_registered_check(variant, variants):
    assert _run(variants[variant.name], all_checks(), None) == {}


@pytest.mark.parametrize("variant", _params())
def test_crosscheck_accepts_the_variant(variant, variants, differences):
    algorithms = tuple(m for m in variant.modes if m in TRACE_MODES)
    indices = sorted(set(range(CROSSCHECK_CASES)) | {i for i, _, _ in differences[variant.name] if i is not None})
    summary = crosscheck(variants[variant.name], variant.name, [FIXED[i] for i in indices], algorithms=algorithms)
    assert not summary.mismatches, summary_text(summary)
    counts = summary.divergence_counts()
    for choice_id in variant.choices:
        kind = divergence_of(choice_id)
        if kind is not None:
            assert any(counts[a][kind] for a in algorithms), (choice_id, summary_text(summary))
