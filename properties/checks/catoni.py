"""catoni_root called directly, not only inside the algorithms: the public name every implementation
provides (CONTRACT.md, "Public entry points"), on the arguments its contract allows.

The estimate is the unique root z of f(z) = sum_i counts[i] psi(alpha (values[i] - z)),
psi(y) = ln(1 + y + y^2/2) for y >= 0 and -ln(1 - y + y^2/2) for y < 0 (appendix,
lemma "Concentration inequality for Catoni's estimator"). psi is odd and strictly
increasing, so f is strictly decreasing and a pair of signs decides where the root is:
[lo, hi] contains it iff f(lo) >= 0 >= f(hi). Every decision here is such a pair of
signs, decided by properties/checks/catoni_sign.py (exact integer comparison when cheap,
otherwise the reference's certified evaluation; never floats).

The algorithms only ever pass catoni_root sorted, grouped data; an implementation that
relies on that passes every trace check. The problems here (strategies.catoni_problems)
are unsorted, repeat values over entries, and reach the extremes of magnitude, count and
alpha, so such an implementation is caught here.

What an answer must satisfy:
* exact candidates (ARITHMETIC "exact", the default): (lo, hi) rationals, lo <= hi,
  f(lo) >= 0 >= f(hi), and hi - lo <= 2^-64 (MAX_WIDTH). The width is the contract the
  reference pins and CALruption relies on: FINDINGS R12 takes W~, the midpoint of W's
  enclosure, within 2^-65 of W, which holds for every enclosure of width <= 2^-64.
* float candidates (ARITHMETIC "float64" or "float32"): every point of [lo, hi] within the
  tolerance table's "W" entry for its arithmetic (properties/checks/tolerances.py; 1e-12 absolute
  for float64, 2^29 times that for float32) times max(1, max|X|) of the root, i.e.
  f(hi - tol) >= 0 >= f(lo + tol). Decided exactly, like the certificate.

Zero counts. The paper's estimator is over samples, so a count is a multiplicity >= 1;
a zero count is not covered by it. The reference refuses it (ValueError, "counts[i]
must be >= 1"), fast ignores the entry. Both readings are legitimate here: a candidate
given a zero count must either raise ValueError or answer for the data without that
entry -- it must not count it."""

from __future__ import annotations

import builtins
from fractions import Fraction

from properties.checks.catoni_sign import root_within
from properties.checks.free_choices import zero_count_behaviours
from properties.checks.judgement import current
from properties.checks.registry import custom_check
from properties.checks.tolerances import FLOAT64, table
from properties.core.candidate import as_candidate, call, call_many
from properties.core.contract import decode_enclosure
from properties.core.steering import note, steer
from properties.core.violation import CallFailed, Violation
from properties.strategies import CatoniProblem, catoni_problems
from reference.catoni import catoni_root as reference_catoni_root

MAX_WIDTH = Fraction(1, 2**64)  # FINDINGS R12: |W~ - W| <= 2^-65 for the midpoint W~
FLOAT_TOLERANCE = FLOAT64["W"]  # absolute (rel = 0): scale max(1, max|X|)


def _floats(impl) -> bool:
    """Whether the candidate declares a float arithmetic (float64 or float32; exact
    candidates are held to the exact contract)."""
    return as_candidate(impl).arithmetic != "exact"


def float_bound(values) -> Fraction:
    """The allowed distance of a float candidate's answer from the root: the "W" entry of
    the float64 tolerance table at scale max(1, max|X|). The entry is absolute (rel = 0,
    pinned by tests/properties/checks/test_catoni.py), so the root itself is not needed."""
    scale = max(Fraction(1), max(abs(Fraction(v)) for v in values))
    arithmetic = current().arithmetic
    tolerance = FLOAT_TOLERANCE if arithmetic == "exact" else table(arithmetic)["W"]
    return tolerance.bound(Fraction(0), scale)


def enclosure_violations(
    name: str, values, counts, alpha, lo: Fraction, hi: Fraction, floats: bool, what: str = "catoni_root"
) -> list[Violation]:
    """Whether (lo, hi) answers catoni_root(values, counts, alpha): the exact contract
    (certificate and width) or, for a float candidate, the tolerance (module notes)."""
    data = dict(values=[str(v) for v in values], counts=list(counts), alpha=alpha)
    if lo > hi:
        return [Violation.of(name, f"{what} returned lo > hi (a reversed enclosure)", lo=lo, hi=hi, **data)]
    if not floats:
        found = []
        holds, sign_lo, sign_hi, how = root_within(values, counts, alpha, lo, hi)
        if not holds:
            found.append(
                Violation.of(
                    name,
                    f"{what} does not enclose the root: need f(lo) >= 0 >= f(hi)",
                    lo=lo,
                    hi=hi,
                    sign_f_lo=sign_lo,
                    sign_f_hi=sign_hi,
                    decided=how,
                    **data,
                )
            )
        width = hi - lo
        if width > MAX_WIDTH:
            found.append(
                Violation.of(name, f"{what} is wider than 2^-64 (FINDINGS R12)", lo=lo, hi=hi, width=width, **data)
            )
        return found
    bound = float_bound(values)
    if hi - lo > 2 * bound:
        return [
            Violation.of(
                name,
                f"{what} is wider than twice the float tolerance: not every point of it can be "
                f"within the tolerance of the root",
                lo=lo,
                hi=hi,
                tolerance=bound,
                **data,
            )
        ]
    holds, sign_lo, sign_hi, how = root_within(values, counts, alpha, hi - bound, lo + bound)
    if holds:
        return []
    exact = reference_catoni_root(list(values), list(counts), alpha)  # for the report only
    return [
        Violation.of(
            name,
            f"{what} is farther than the float tolerance (tolerances W, scale max(1, max|X|)) "
            f"from the root: need f(hi - tol) >= 0 >= f(lo + tol)",
            lo=lo,
            hi=hi,
            tolerance=bound,
            sign_f_hi_minus_tol=sign_lo,
            sign_f_lo_plus_tol=sign_hi,
            decided=how,
            root_enclosure=(exact.lo, exact.hi),
            **data,
        )
    ]


def _steer_float_error(values, counts, alpha, lo: Fraction, hi: Fraction) -> None:
    """Toward float answers far from the root, in units of the tolerance (fuzz profile).
    The reference's root only steers; it decides nothing."""
    exact = reference_catoni_root(list(values), list(counts), alpha)
    mid = (lo + hi) / 2
    error = max(exact.lo - mid, mid - exact.hi, Fraction(0))
    steer(error / float_bound(values), "catoni_root error / float tolerance")


def check_catoni_root_certified(impl, problem: CatoniProblem) -> list[Violation]:
    """Appendix D.2, lemma "Concentration inequality for Catoni's estimator" (the root of
    f); CONTRACT.md, catoni_root -> (lo, hi), an exact enclosure; FINDINGS R12 (width
    2^-64). On unsorted data with repeated values, one entry, all-equal data, magnitudes
    2^-40 .. 2^40 and integers beyond 2^53, counts up to 10^12 and alpha from 2^-40 to
    2^40: lo <= hi and f(lo) >= 0 >= f(hi), decided exactly, with hi - lo <= 2^-64; a
    float64 candidate's answer instead within the "W" tolerance of the root."""
    name = "check_catoni_root_certified"
    floats = _floats(impl)
    note(f"catoni kind: {problem.kind}")
    plain = call(name, impl, "catoni_root", list(problem.values), list(problem.counts), problem.alpha)
    lo, hi = decode_enclosure(name, plain, floats=floats)
    note(f"catoni answer: {'a point' if lo == hi else 'an interval'}")
    found = enclosure_violations(name, problem.values, problem.counts, problem.alpha, lo, hi, floats)
    if not found:  # steer within the contract only (a wild answer could overflow a float)
        if floats:
            _steer_float_error(problem.values, problem.counts, problem.alpha, lo, hi)
        else:
            steer((hi - lo) / MAX_WIDTH, "catoni_root width / 2^-64")
    return found


def variants(problem: CatoniProblem) -> list[tuple[str, tuple, tuple]]:
    """The same data written four ways, each (label, values, counts): as drawn; permuted;
    every count c >= 2 split into c - c//2 in place and c//2 in an entry appended at the
    end (those in reverse order); merged (one entry per distinct value, decreasing)."""
    values, counts = problem.values, problem.counts
    permuted = ([values[i] for i in problem.permutation], [counts[i] for i in problem.permutation])
    split_values, split_counts = list(values), [c - c // 2 for c in counts]
    for v, c in reversed(list(zip(values, counts))):
        if c >= 2:
            split_values.append(v)
            split_counts.append(c // 2)
    merged: dict[Fraction, int] = {}
    for v, c in zip(values, counts):
        merged[v] = merged.get(v, 0) + c
    by_value = sorted(merged, reverse=True)
    return [
        ("as drawn", tuple(values), tuple(counts)),
        ("permuted", tuple(permuted[0]), tuple(permuted[1])),
        ("split", tuple(split_values), tuple(split_counts)),
        ("merged", tuple(by_value), tuple(merged[v] for v in by_value)),
    ]


def check_catoni_root_invariant_under_reordering_and_splitting(impl, problem: CatoniProblem) -> list[Violation]:
    """Appendix D.2, lemma "Concentration inequality for Catoni's estimator": f is a sum
    over the samples, so the root depends only on the multiset of values, not on the order
    of the entries nor on how a value's count is spread over entries. The same data
    permuted, split and merged (see `variants`) must each give an answer that passes
    check_catoni_root_certified's test, and the answers must intersect (they enclose the
    same unique root); a float64 candidate's midpoints must lie within the "W" tolerance
    of each other."""
    name = "check_catoni_root_invariant_under_reordering_and_splitting"
    floats = _floats(impl)
    forms = variants(problem)
    plains = call_many(name, impl, "catoni_root", [((list(v), list(c), problem.alpha), {}) for _, v, c in forms])
    answers = [decode_enclosure(name, plain, floats=floats) for plain in plains]
    found = []
    for (label, values, counts), (lo, hi) in zip(forms, answers):
        found += enclosure_violations(
            name, values, counts, problem.alpha, lo, hi, floats, what=f"catoni_root of the data {label}"
        )
    if found:
        return found
    shown = {label: (lo, hi) for (label, _, _), (lo, hi) in zip(forms, answers)}
    if not floats:
        # each contains the root once the certificates hold; kept as the statement itself
        if max(lo for lo, _ in answers) > min(hi for _, hi in answers):
            found.append(
                Violation.of(name, "the enclosures of the same data written differently are disjoint", **shown)
            )
    else:
        mids = [(lo + hi) / 2 for lo, hi in answers]
        spread, bound = max(mids) - min(mids), float_bound(problem.values)
        steer(spread / bound, "catoni_root spread over reorderings / float tolerance")
        if spread > bound:
            found.append(
                Violation.of(
                    name,
                    "the answers for the same data written differently differ by more than the float tolerance",
                    spread=spread,
                    tolerance=bound,
                    **shown,
                )
            )
    return found


def _raised_value_error(violation: Violation) -> bool:
    """Whether a failed call raised ValueError or a subclass of it: the exception's name
    if it is built in, else the built-in class it derives from (properties/core/candidate.py
    fault_of_exception)."""
    if not violation.message.startswith("crashed: "):
        return False
    builtin = violation.values.get("builtin_base") or violation.values.get("exception")
    cls = getattr(builtins, builtin or "", None)
    return isinstance(cls, type) and issubclass(cls, ValueError)


def bad_arguments(problem: CatoniProblem, floats: bool) -> list[tuple[str, tuple, tuple[str, ...]]]:
    """(what is wrong, arguments, fields) derived from a valid problem; each must raise
    ValueError naming one of `fields` (CONTRACT.md, "Instance": invalid input raises
    ValueError naming the field, floats where exact values are required included). The
    float entries are for exact candidates only: a float64 candidate may take floats."""
    values, counts, alpha = list(problem.values), list(problem.counts), problem.alpha
    i = problem.permutation[0]  # which entry to spoil: varies with the example
    negative = list(counts)
    negative[i] = -counts[i]
    cases = [
        (f"a negative count (counts[{i}] = {-counts[i]})", (values, negative, alpha), ("counts",)),
        ("alpha = 0", (values, counts, Fraction(0)), ("alpha",)),
        (f"alpha < 0 (alpha = {-alpha})", (values, counts, -alpha), ("alpha",)),
        ("empty values (and counts)", ([], [], alpha), ("values", "counts")),
        ("more counts than values", (values, counts + [1], alpha), ("values", "counts")),
        ("more values than counts", (values + [values[i]], counts, alpha), ("values", "counts")),
    ]
    if not floats:
        float_values = list(values)
        float_values[i] = float(values[i])
        cases += [
            (f"a float value (values[{i}] = {float(values[i])!r})", (float_values, counts, alpha), ("values",)),
            (f"a float alpha ({float(alpha)!r})", (values, counts, float(alpha)), ("alpha",)),
        ]
    return cases


def zero_count_arguments(problem: CatoniProblem) -> tuple:
    """The problem with one more entry of count 0, at a value far above the data (so that
    counting it would move the root)."""
    far = 2 * problem.max_abs + 1
    return list(problem.values) + [far], list(problem.counts) + [0], problem.alpha


def check_catoni_root_rejects_bad_arguments(impl, problem: CatoniProblem) -> list[Violation]:
    """CONTRACT.md, "Instance" and catoni_root: bad input raises ValueError naming the field
    (a subclass of ValueError counts). A negative count, alpha <= 0, empty data, lengths
    that differ and, for exact candidates, a float value or alpha: each must raise
    ValueError whose message names the field (values, counts or alpha); returning a value,
    hanging or raising another exception is reported naming the argument. A zero count is outside the paper's estimator (module notes): refusing it
    (ValueError) and ignoring the entry are both accepted, counting it is not."""
    name = "check_catoni_root_rejects_bad_arguments"
    floats = _floats(impl)
    found = []
    for what, args, fields in bad_arguments(problem, floats):
        try:
            result = call(name, impl, "catoni_root", *args)
        except CallFailed as failure:
            if _raised_value_error(failure.violation):
                if not any(field in failure.violation.message for field in fields):
                    found.append(
                        Violation(
                            name,
                            f"catoni_root given {what} raised ValueError without naming "
                            f"{' or '.join(fields)}: {failure.violation.message}",
                            dict(failure.violation.values),
                        )
                    )
                continue
            violation = Violation(
                name,
                f"catoni_root given {what} must raise ValueError, but: {failure.violation.message}",
                dict(failure.violation.values),
            )
            if failure.fatal:  # its worker is gone: end the check here, naming the argument
                raise CallFailed(violation, fatal=True) from None
            found.append(violation)
            continue
        found.append(Violation.of(name, f"catoni_root accepted {what} and returned a value", result=result))
    values, counts, alpha = zero_count_arguments(problem)
    try:
        plain = call(name, impl, "catoni_root", values, counts, alpha)
    except CallFailed as failure:
        if _raised_value_error(failure.violation):
            note("catoni_root refuses a zero count")
            if "counts" not in failure.violation.message:
                found.append(
                    Violation(
                        name,
                        "catoni_root given a zero count raised ValueError without naming counts: "
                        f"{failure.violation.message}",
                        dict(failure.violation.values),
                    )
                )
            return found
        violation = Violation(
            name,
            "catoni_root given a zero count must either raise ValueError or ignore the "
            f"entry, but: {failure.violation.message}",
            dict(failure.violation.values),
        )
        if failure.fatal:
            raise CallFailed(violation, fatal=True) from None
        return found + [violation]
    note("catoni_root ignores a zero count")
    if "ignore" not in zero_count_behaviours():  # the table pins refusing (FINDINGS R16)
        return found + [
            Violation.of(name, "catoni_root must refuse a zero count (catoni.zero_count is pinned)", result=plain)
        ]
    lo, hi = decode_enclosure(name, plain, floats=floats)
    found += enclosure_violations(
        name,
        problem.values,
        problem.counts,
        alpha,
        lo,
        hi,
        floats,
        what=f"catoni_root with an extra entry {values[-1]} of count 0 (it must be ignored)",
    )
    return found


_CITES = 'Appendix D.2, lemma "Concentration inequality for Catoni\'s estimator"; CONTRACT.md catoni_root'
CHECKS = (
    custom_check(
        check_catoni_root_certified,
        _CITES + "; FINDINGS R12",
        "deterministic",
        catoni_problems(),
        covers=("catoni_root",),
    ),
    custom_check(
        check_catoni_root_invariant_under_reordering_and_splitting,
        _CITES,
        "deterministic",
        catoni_problems(),
        covers=("catoni_root",),
    ),
    custom_check(
        check_catoni_root_rejects_bad_arguments,
        "CONTRACT.md, Contracts (ValueError on bad input) and catoni_root; " + _CITES,
        "deterministic",
        catoni_problems(),
        covers=("catoni_root",),
    ),
)
