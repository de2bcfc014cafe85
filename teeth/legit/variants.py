"""Legitimate variants of the reference: each makes, where the paper leaves a choice open
(properties/checks/free_choices.py, status free), another choice than the reference, by a
one-snippet patch of a copy of the reference (teeth/reference_copies.py, the machinery of
the broken copies; the copy is the package legit_<name>). Every registered check must
accept each of them (tests/teeth/test_legit_pass.py), and the cross-check must report no mismatch.

`choices` names the table entries the variant exercises; `modes` the modes of
properties.core.contract.MODES whose results the patch can change (the copy runs the
reference's own code everywhere else)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from properties.checks.free_choices import choice
from properties.core.contract import MODES
from properties.strategies import fixed_crosscheck_cases
from teeth.reference_copies import Patch, build, patched_source

PREFIX = "legit_"
# the fixed cases on which the tests look for a variant's differences (the cross-check's)
FIXED_CASES = fixed_crosscheck_cases(50)
# generated examples per check when a variant runs through properties.run.runner.run_check in
# the default test run (tests/teeth/test_legit_pass.py); tests/properties/checks/test_free_choices.py shows that this many
# are enough for a check to reject a variant once the table pins its choice
CHECK_EXAMPLES = 5


@dataclass(frozen=True)
class Variant(Patch):
    prefix: ClassVar[str] = PREFIX
    choices: tuple[str, ...]  # the free choices of properties/checks/free_choices.py it makes otherwise
    modes: tuple[str, ...]  # the modes whose results it can change

    def __post_init__(self):
        super().__post_init__()
        for choice_id in self.choices:
            if not choice(choice_id).free:
                raise ValueError(f"variant {self.name}: {choice_id} is not a free choice of the table")
        if not self.modes or set(self.modes) - set(MODES):
            raise ValueError(f"variant {self.name}: modes must be some of {MODES}, got {self.modes}")


VARIANTS: list[Variant] = [
    Variant(
        "passive_erm_highest_index",
        "passive ERM breaks ties towards the highest index",
        "passive.py",
        "        output=argmin_lowest_index(risks, everyone),",
        "        output=min(reversed(everyone), key=lambda h: risks[h]),",
        ("passive.erm_tie",),
        ("passive",),
    ),
    Variant(
        "robust_cal_highest_index",
        "RobustCAL's h^_t (line 8) and output break ties towards the highest index",
        "robust_cal.py",
        "from .empirical import argmin_lowest_index, check_run_inputs, empirical_risks\n",
        "from .empirical import check_run_inputs, empirical_risks\n\n\n"
        "def argmin_lowest_index(values, members):\n"
        '    """Legitimate variant: line 8\'s and the output\'s argmin, ties towards the HIGHEST index."""\n'
        "    return min(sorted(members, reverse=True), key=lambda h: values[h])\n",
        ("robust_cal.h_hat_tie", "robust_cal.output_tie"),
        ("robust_cal", "robust_cal_vanilla"),
    ),
    Variant(
        "calruption_output_highest_member",
        "CALruption outputs the highest-index member of the last completed epoch's top layer V_{L+1}^L "
        "(the last hypothesis if no epoch completed)",
        "calruption.py",
        "        output=records[-1].h_star_hat if records else 0,",
        "        output=max(records[-1].layers[-1]) if records else len(H) - 1,",
        ("calruption.output",),
        ("calruption",),
    ),
    Variant(
        "calruption_h_star_highest_index",
        "CALruption's h^*_l (line 10) breaks ties towards the highest index (so does the output, h^*_L)",
        "calruption.py",
        "    h_star = penalised.index(min(penalised))",
        "    h_star = max(h for h, v in enumerate(penalised) if v == min(penalised))",
        ("calruption.h_star_tie",),
        ("calruption", "calruption_epoch"),
    ),
    Variant(
        "calruption_fit_midpoint",
        "CALruption's D^_l (line 9) is the midpoint of two optimal vertices, those maximising and minimising "
        "sum eta^ among the optimal D^ (two more LPs with s capped at the optimum): optimal by convexity, and no "
        "vertex where the two differ",
        "calruption.py",
        "    return tuple(solution.x[:k]), solution.objective, solution.method",
        "    lower, upper = [Fraction(0)] * k + [None], [Fraction(1)] * k + [solution.objective]\n"
        "    most = solve_lp([Fraction(-1)] * k + [Fraction(0)], A, b, lower, upper)\n"
        "    least = solve_lp([Fraction(1)] * k + [Fraction(0)], A, b, lower, upper)\n"
        "    middle = tuple((u + v) / 2 for u, v in zip(most.x[:k], least.x[:k]))\n"
        "    return middle, solution.objective, solution.method",
        ("calruption.fit",),
        ("calruption", "calruption_epoch"),
    ),
    Variant(
        "calruption_fit_without_rows_zero",
        "CALruption's D^_l (line 9) is eta^ = 0 on S_l when no pair gives a row (every D^ is optimal then)",
        "calruption.py",
        '        return (Fraction(1, 2),) * k, Fraction(0), "no-rows"',
        '        return (Fraction(0),) * k, Fraction(0), "no-rows"',
        ("calruption.fit_without_rows",),
        ("calruption", "calruption_epoch"),
    ),
    Variant(
        "catoni_alpha_rounded_up",
        "Catoni's alpha (line 8) is the upper end of its enclosure rounded up to 64 significant bits: above the "
        "lemma's value, within relative 2^-62",
        "catoni.py",
        "    shift = 63 - _floor_log2(lo, den)\n"
        "    if shift >= 0:\n"
        "        return Fraction((lo << shift) // den, 1 << shift)\n"
        "    return Fraction(lo // (den << -shift) << -shift)\n",
        "    shift = 63 - _floor_log2(hi, den)  # the upper end hi/den, rounded up\n"
        "    if shift >= 0:\n"
        "        return Fraction(-((-hi << shift) // den), 1 << shift)\n"
        "    return Fraction(-(-hi // (den << -shift)) << -shift)\n",
        ("calruption.alpha_rounding",),
        ("calruption", "calruption_epoch"),
    ),
    Variant(
        "calruption_weights_rounded_up",
        "line 9's weight sqrt(min q / rho^) is rounded up: a / sqrt_lower(a, 66) for a = min q / rho^, within "
        "relative 2^-65 above",
        "calruption.py",
        "            w = sqrt_lower(mq / r)",
        "            w = (mq / r) / sqrt_lower(mq / r, 66)",
        ("calruption.weight_rounding",),
        ("calruption", "calruption_epoch"),
    ),
]

# catoni_root given a count of 0 (FINDINGS R16): the reference refuses it, fast ignores it
VARIANTS.append(
    Variant(
        "catoni_root_ignores_zero_counts",
        "catoni_root ignores an entry whose count is 0 instead of refusing it",
        "catoni.py",
        '            c = as_int(c, f"counts[{i}]", minimum=1)\n'
        "        key = (v.numerator, v.denominator)\n"
        "        entry = merged.get(key)\n"
        "        if entry is None:\n"
        "            merged[key] = [v, c]\n"
        "        else:\n"
        "            entry[1] += c\n"
        "    return [(v, c) for v, c in sorted(merged.values(), key=lambda entry: entry[0])]\n",
        '            c = as_int(c, f"counts[{i}]", minimum=0)\n'
        "        if c == 0:  # legitimate variant: a count of 0 is ignored, not refused (FINDINGS R16)\n"
        "            continue\n"
        "        key = (v.numerator, v.denominator)\n"
        "        entry = merged.get(key)\n"
        "        if entry is None:\n"
        "            merged[key] = [v, c]\n"
        "        else:\n"
        "            entry[1] += c\n"
        "    if not merged:\n"
        '        raise ValueError(f"counts must not all be 0, got {list(counts)}")\n'
        "    return [(v, c) for v, c in sorted(merged.values(), key=lambda entry: entry[0])]\n",
        ("catoni.zero_count",),
        ("catoni_root",),
    )
)

BY_NAME = {v.name: v for v in VARIANTS}
assert len(BY_NAME) == len(VARIANTS), "variant names must be unique"

__all__ = ["BY_NAME", "CHECK_EXAMPLES", "FIXED_CASES", "PREFIX", "VARIANTS", "Variant", "build", "patched_source"]
