"""Meta-tests of properties/checks/catoni.py: catoni_problems() is valid and reaches the
edge cases it claims, the sign decisions the checks rest on are right, each check fails
on a hand-broken catoni_root (and passes on the reference and on fast), and a candidate's
own ValueError subclass crosses the worker boundary as a ValueError."""

from __future__ import annotations

import sys
import types
from collections import Counter
from fractions import Fraction as F

import pytest

import fast
import reference as R
from properties.checks import catoni as C
from properties.checks.catoni_sign import EXACT_SIGN_MAX_BITS, catoni_sign, exact_cost_bits
from properties.checks.tolerances import FLOAT64
from properties.core import candidate as harness
from properties.core.candidate import as_candidate, call
from properties.core.violation import CallFailed
from properties.judge.load import load_impl
from properties.strategies import CATONI_KINDS, CATONI_MAX_COUNT, CATONI_MAX_ENTRIES, CatoniProblem, catoni_problems
from reference.catoni import catoni_sign_certified, catoni_sign_exact
from tests.support.sampling import reach, sample

TWO_40 = F(2**40)


# -- the strategy --------------------------------------------------------------------------
def test_problems_are_valid_by_construction():
    for p in sample(catoni_problems(), 80):
        assert p.kind in CATONI_KINDS and 1 <= len(p.values) == len(p.counts) <= CATONI_MAX_ENTRIES
        assert all(isinstance(v, F) for v in p.values) and isinstance(p.alpha, F) and p.alpha > 0
        assert all(type(c) is int and 1 <= c <= CATONI_MAX_COUNT for c in p.counts)
        assert sorted(p.permutation) == list(range(len(p.values)))
        R.catoni_root(list(p.values), list(p.counts), p.alpha)  # the reference accepts it
        assert eval(p.reproducer(), {"properties": __import__("properties"), "Fraction": F}) == p


def _unsorted(p):
    return (
        len(p.values) >= 3
        and min(p.values) not in (p.values[0], p.values[-1])
        and max(p.values) not in (p.values[0], p.values[-1])
    )


EDGE_CASES = [
    ("unsorted: neither extreme at an end", _unsorted),
    (
        "a value repeated over entries among other values",
        lambda p: len(set(p.values)) >= 2 and len(set(p.values)) < len(p.values),
    ),
    ("a single entry", lambda p: len(p.values) == 1),
    ("zero spread over several entries", lambda p: len(p.values) >= 2 and len(set(p.values)) == 1),
    (
        "magnitudes <= 2^-37 and >= 2^37 in one problem",
        lambda p: any(0 < abs(v) <= 1 / F(2**37) for v in p.values) and any(abs(v) >= 2**37 for v in p.values),
    ),
    ("an integer beyond 2^53 (not a float)", lambda p: any(v.denominator == 1 and abs(v) > 2**53 for v in p.values)),
    ("counts 1 and 10^12 together", lambda p: 1 in p.counts and CATONI_MAX_COUNT in p.counts),
    ("alpha <= 2^-40", lambda p: p.alpha <= 1 / TWO_40),
    ("alpha >= 2^40", lambda p: p.alpha >= TWO_40),
    ("a non-symmetric rational root", lambda p: p.kind == "rational_root" and len(set(p.counts)) >= 2),
    ("symmetric data with a point at the centre", lambda p: p.kind == "symmetric" and len(p.values) % 2 == 1),
]


@pytest.mark.parametrize("what, predicate", EDGE_CASES, ids=[w for w, _ in EDGE_CASES])
def test_problems_reach(what, predicate):
    reach(catoni_problems(), predicate)


@pytest.mark.parametrize("kind", CATONI_KINDS)
def test_every_kind_is_drawn(kind):
    reach(catoni_problems(), lambda p: p.kind == kind)


@pytest.mark.parametrize("exact", [True, False], ids=["rational root", "irrational root"])
def test_roots_are_rational_and_irrational(exact):
    def root_is(p):
        return len(set(p.values)) >= 2 and R.catoni_root(list(p.values), list(p.counts), p.alpha).exact == exact

    reach(catoni_problems(), root_is)


def test_rational_root_kind_has_its_root_exactly():
    p = reach(catoni_problems(), lambda p: p.kind == "rational_root" and len(p.values) == 3)
    centre = sorted(p.values)[1]  # c between c - 6s and c + 2s
    assert catoni_sign_exact(p.values, p.counts, p.alpha, centre) == 0


def test_variants_are_the_same_multiset():
    for p in sample(catoni_problems(), 60):
        totals = []
        for label, values, counts in C.variants(p):
            grouped = Counter()
            for v, c in zip(values, counts):
                grouped[v] += c
            totals.append(grouped)
            if label == "split" and max(p.counts) >= 2:
                assert len(values) > len(p.values)
        assert all(t == totals[0] for t in totals)


# -- the sign decisions ----------------------------------------------------------------------
def test_certified_sign_agrees_with_the_exact_one():
    for p in sample(catoni_problems(), 40):
        counts = [1 + c % 7 for c in p.counts]  # small counts: the exact route is cheap
        e = R.catoni_root(list(p.values), counts, p.alpha)
        for z in (e.lo, e.hi, (e.lo + e.hi) / 2, min(p.values) - 1, max(p.values) + F(1, 3)):
            assert catoni_sign_certified(p.values, counts, p.alpha, z) == catoni_sign_exact(
                p.values, counts, p.alpha, z
            )


def test_catoni_sign_takes_the_exact_route_only_when_cheap():
    assert catoni_sign([0, 1], [1, 2], 1, F(1, 2)) == (catoni_sign_exact([0, 1], [1, 2], 1, F(1, 2)), "exact")
    assert catoni_sign([0, 1], [1, 10**12], 1, F(1, 2))[1] == "certified"
    z = F(1, 3) + F(1, 2**2048)  # 4096 rounds at ~8000 bits per factor: too big for integers
    assert exact_cost_bits([0, 1], [2048, 2047], F(3, 7), z) > EXACT_SIGN_MAX_BITS
    assert catoni_sign([0, 1], [2048, 2047], F(3, 7), z) == (1, "certified")
    assert exact_cost_bits([0, 1], [100, 100], F(3, 7), z) < EXACT_SIGN_MAX_BITS  # the gcd of the counts divides


def test_float_tolerance_is_absolute():
    # float_bound relies on it: a relative part would need the root itself
    assert FLOAT64["W"].rel == 0 and FLOAT64["W"].abs > 0
    assert C.float_bound([F(-3), F(2)]) == 3 * F(FLOAT64["W"].abs)
    assert C.float_bound([F(1, 2)]) == F(FLOAT64["W"].abs)


# -- the checks on right and wrong candidates -------------------------------------------------
PROBLEM = CatoniProblem((F(3), F(-1), F(0), F(3)), (1, 2, 5, 2), F(1, 2), "small", (2, 0, 3, 1))
DISTINCT = CatoniProblem((F(3), F(-1), F(0)), (3, 2, 5), F(1, 2), "small", (1, 2, 0))
CHECK_FUNCTIONS = (
    C.check_catoni_root_certified,
    C.check_catoni_root_invariant_under_reordering_and_splitting,
    C.check_catoni_root_rejects_bad_arguments,
)


def reference_enclosure(values, counts, alpha):
    e = R.catoni_root(values, counts, alpha)
    return e.lo, e.hi


def candidate(catoni_root, arithmetic="exact"):
    names = {name: getattr(R, name) for name in ("passive", "robust_cal", "calruption")}
    return as_candidate(types.SimpleNamespace(catoni_root=catoni_root, ARITHMETIC=arithmetic, **names), "fake")


def messages(found):
    return " | ".join(v.message for v in found)


@pytest.mark.parametrize("check", CHECK_FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("impl", [R, fast], ids=["reference", "fast"])
def test_checks_pass_on_the_reference_and_fast(check, impl):
    for problem in (PROBLEM, DISTINCT) + tuple(sample(catoni_problems(), 8)):
        assert check(as_candidate(impl), problem) == [], problem


def test_a_reversed_enclosure_is_caught():
    def reversed_pair(values, counts, alpha):
        lo, hi = reference_enclosure(values, counts, alpha)
        return hi + F(1, 2**70), lo - F(1, 2**70)

    assert "reversed enclosure" in messages(C.check_catoni_root_certified(candidate(reversed_pair), PROBLEM))


def test_a_wide_enclosure_is_caught():
    def wide(values, counts, alpha):
        lo, hi = reference_enclosure(values, counts, alpha)
        return lo - F(1, 2**64), hi

    assert "wider than 2^-64" in messages(C.check_catoni_root_certified(candidate(wide), PROBLEM))


def test_a_point_next_to_the_root_is_caught():
    def beside(values, counts, alpha):
        _, hi = reference_enclosure(values, counts, alpha)
        return hi + F(1, 2**66), hi + F(1, 2**66)

    found = C.check_catoni_root_certified(candidate(beside), PROBLEM)
    assert "does not enclose the root" in messages(found) and found[0].values["sign_f_lo"] == "-1"


def test_a_root_of_the_sorted_ends_is_caught():
    # the mutant's idea: the bracket of the first and last entries
    def ends(values, counts, alpha):
        a, b = sorted((values[0], values[-1]))
        e = R.catoni_root(list(values), list(counts), alpha)
        return max(a, min(e.lo, b)), max(a, min(e.hi, b))

    assert "does not enclose the root" in messages(C.check_catoni_root_certified(candidate(ends), PROBLEM))


def test_floats_from_an_exact_candidate_are_malformed():
    def floaty(values, counts, alpha):
        lo, hi = reference_enclosure(values, counts, alpha)
        return float(lo), float(hi)

    with pytest.raises(CallFailed, match="must be a rational"):
        C.check_catoni_root_certified(candidate(floaty), PROBLEM)


def _float_candidate(offset_in_bounds, width_in_bounds=F(0)):
    def answer(values, counts, alpha):
        lo, hi = reference_enclosure(values, counts, alpha)
        bound = C.float_bound(values)
        mid = (lo + hi) / 2 + offset_in_bounds * bound
        return float(mid - width_in_bounds * bound / 2), float(mid + width_in_bounds * bound / 2)

    return candidate(answer, "float64")


def test_float_candidates_are_held_to_the_tolerance():
    big = CatoniProblem((F(3), F(-1), F(1000)), (1, 2, 5), F(1, 2), "small", (0, 1, 2))
    check = C.check_catoni_root_certified
    for problem in (PROBLEM, big):
        assert check(_float_candidate(F(1, 2)), problem) == []
        assert check(_float_candidate(F(-9, 10), F(1, 10)), problem) == []
        assert "farther than the float tolerance" in messages(check(_float_candidate(F(2)), problem))
        assert "farther than the float tolerance" in messages(check(_float_candidate(F(-1), F(1, 5)), problem))
        assert "wider than twice" in messages(check(_float_candidate(F(0), F(21, 10)), problem))


def test_lost_duplicate_counts_are_caught_by_splitting():
    def last_count_wins(values, counts, alpha):  # dict(zip(...)) keeps one count per value
        table = dict(zip(values, counts))
        return reference_enclosure(list(table), list(table.values()), alpha)

    fake = candidate(last_count_wins)
    assert C.check_catoni_root_certified(fake, DISTINCT) == []  # distinct values: right
    found = C.check_catoni_root_invariant_under_reordering_and_splitting(fake, DISTINCT)
    assert "of the data split does not enclose the root" in messages(found)


def test_order_dependent_float_answers_are_caught():
    def by_order(values, counts, alpha):
        lo, hi = reference_enclosure(values, counts, alpha)
        side = F(9, 10) if list(values) == sorted(values) else F(-9, 10)
        z = float((lo + hi) / 2 + side * C.float_bound(values))
        return z, z

    fake = candidate(by_order, "float64")
    assert C.check_catoni_root_certified(fake, DISTINCT) == []  # each answer within the tolerance
    found = C.check_catoni_root_invariant_under_reordering_and_splitting(fake, DISTINCT)
    assert "differ by more than the float tolerance" in messages(found)


# -- bad arguments --------------------------------------------------------------------------
def test_accepting_a_negative_count_is_caught():
    def lenient(values, counts, alpha):
        return reference_enclosure(values, [abs(c) for c in counts], alpha)

    found = C.check_catoni_root_rejects_bad_arguments(candidate(lenient), PROBLEM)
    assert [v.message for v in found] == ["catoni_root accepted a negative count (counts[2] = -5) and returned a value"]


def test_another_exception_type_is_caught_naming_the_argument():
    def picky(values, counts, alpha):
        if alpha <= 0:
            raise TypeError("alpha")
        return R.catoni_root(values, counts, alpha)

    found = C.check_catoni_root_rejects_bad_arguments(candidate(picky), PROBLEM)
    assert len(found) == 2 and all("must raise ValueError, but: crashed: TypeError" in v.message for v in found)
    assert "alpha = 0" in found[0].message and "alpha < 0" in found[1].message


def test_floats_are_bad_arguments_for_exact_candidates_only():
    def floats_welcome(values, counts, alpha):
        return reference_enclosure([F(v) for v in values], counts, F(alpha))

    found = C.check_catoni_root_rejects_bad_arguments(candidate(floats_welcome), PROBLEM)
    assert [v.message.split(" (")[0] for v in found] == [
        "catoni_root accepted a float value",
        "catoni_root accepted a float alpha",
    ]
    names = {"values", "counts", "alpha"}
    assert all(n in "".join(w for w, _, _ in C.bad_arguments(PROBLEM, False)) for n in names)
    assert not any("float" in w for w, _, _ in C.bad_arguments(PROBLEM, True))


def test_a_value_error_must_name_the_field():
    def vague(values, counts, alpha):
        try:
            return R.catoni_root(values, counts, alpha)
        except ValueError:
            raise ValueError("bad input") from None

    found = C.check_catoni_root_rejects_bad_arguments(candidate(vague), PROBLEM)
    assert len(found) == 9 and all("raised ValueError without naming" in v.message for v in found)
    assert "a zero count raised ValueError without naming counts" in found[-1].message
    assert "without naming alpha" in found[1].message and "without naming values or counts" in found[3].message


class SpecialValueError(ValueError):
    pass


def test_a_value_error_subclass_is_accepted():
    def strict(values, counts, alpha):
        try:
            return R.catoni_root(values, counts, alpha)
        except ValueError as error:
            raise SpecialValueError(str(error)) from None

    assert C.check_catoni_root_rejects_bad_arguments(candidate(strict), PROBLEM) == []


def test_zero_counts_may_be_refused_or_ignored_but_not_counted():
    def ignores(values, counts, alpha):
        if len(values) != len(counts):
            raise ValueError("values and counts must have the same length")
        kept = [(v, c) for v, c in zip(values, counts) if c != 0]
        return reference_enclosure([v for v, _ in kept], [c for _, c in kept], alpha)

    def counts_as_one(values, counts, alpha):
        if any(c < 0 for c in counts):
            raise ValueError("counts")
        return reference_enclosure(values, [max(c, 1) for c in counts], alpha)

    def refuses_oddly(values, counts, alpha):
        if 0 in counts:
            raise ZeroDivisionError("0 count")
        return R.catoni_root(values, counts, alpha)

    check = C.check_catoni_root_rejects_bad_arguments
    assert check(candidate(ignores), PROBLEM) == []  # what fast does
    assert check(as_candidate(R), PROBLEM) == []  # the reference refuses it
    assert "of count 0 (it must be ignored) does not enclose the root" in messages(
        check(candidate(counts_as_one), PROBLEM)
    )
    assert "zero count must either raise ValueError or ignore" in messages(check(candidate(refuses_oddly), PROBLEM))


def test_a_hang_on_bad_arguments_ends_the_check_naming_the_argument(monkeypatch):
    def hangs_on_empty(values, counts, alpha):
        while not values:
            pass
        return R.catoni_root(values, counts, alpha)

    monkeypatch.setattr(harness, "DEFAULT_TIMEOUT_S", 0.3)
    with pytest.raises(CallFailed) as raised:
        C.check_catoni_root_rejects_bad_arguments(candidate(hangs_on_empty), PROBLEM)
    assert raised.value.fatal and "given empty values (and counts) must raise ValueError, but: hung after" in str(
        raised.value
    )


# -- a ValueError subclass across the worker boundary ------------------------------------------
CANDIDATE_SOURCE = """
from reference import passive, robust_cal, calruption
from reference import catoni_root as _root


class RefusedInput(ValueError):
    pass


class OddError(Exception):
    pass


def catoni_root(values, counts, alpha):
    if alpha == 0:
        raise OddError("alpha")
    try:
        return _root(values, counts, alpha)
    except ValueError as error:
        raise RefusedInput(str(error)) from None
"""


def test_exception_bases_cross_the_worker(tmp_path, monkeypatch):
    (tmp_path / "catoni_subclass_candidate.py").write_text(CANDIDATE_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    with load_impl("catoni_subclass_candidate") as isolated:
        assert isolated.isolated
        with pytest.raises(CallFailed) as refused:
            call("meta", isolated, "catoni_root", [F(1)], [-1], F(1))
        assert refused.value.violation.values["exception"] == "RefusedInput"
        assert refused.value.violation.values["builtin_base"] == "ValueError"
        with pytest.raises(CallFailed) as odd:
            call("meta", isolated, "catoni_root", [F(1)], [1], F(0))
        assert odd.value.violation.values["builtin_base"] == "Exception"
        found = C.check_catoni_root_rejects_bad_arguments(isolated, PROBLEM)
        assert [v.message.split(",")[0] for v in found] == ["catoni_root given alpha = 0 must raise ValueError"]
    sys.modules.pop("catoni_subclass_candidate", None)


def test_builtin_exceptions_carry_no_base():
    with pytest.raises(CallFailed) as raised:
        call("meta", as_candidate(R), "catoni_root", [F(1)], [-1], F(1))
    assert raised.value.violation.values["exception"] == "ValueError"
    assert "builtin_base" not in raised.value.violation.values
