"""ERRATA.md's ranked page (proofs_check/corrigendum.py): its size, its rows, and one value per
corrected constant across ERRATA.md, FINDINGS.md and reference.theorem_constants (reference.bounds)."""

import math
import re

import pytest

from proofs_check import corrigendum as C
from reference import theorem_constants as K
from tests.support import REPO_ROOT

REPO = REPO_ROOT
ERRATA = (REPO / "ERRATA.md").read_text(encoding="utf-8")
FINDINGS = (REPO / "FINDINGS.md").read_text(encoding="utf-8")


def _page() -> str:
    start = ERRATA.index("## Corrigendum")
    return ERRATA[start : ERRATA.index(C.PAGE_END)]


def test_errata_opens_with_the_ranked_page():
    assert ERRATA.split("\n")[2] == "## Corrigendum", "the ranked page must open ERRATA.md"
    assert "\n".join(C.ranked_page()) in ERRATA, "ERRATA.md's ranked page differs from proofs_check/corrigendum.py"


def test_ranked_page_is_at_most_1500_words():
    words = len(_page().split())
    assert words <= 1500, f"the ranked page has {words} words"


@pytest.mark.parametrize("row", C.RATE + C.THEOREM + C.LEMMA, ids=lambda r: r.where)
def test_every_row_has_printed_and_corrected_formulas(row):
    formula = re.compile(r"[=≤≥<>+√/·*^]|\d")
    assert row.printed and row.corrected and row.printed != row.corrected, row
    assert formula.search(row.printed) and formula.search(row.corrected), row
    assert row.why and row.witness and re.fullmatch(r"F\d+(, F\d+)*", row.finding), row
    assert "tex l." in row.where or "App." in row.where, f"no location in the paper: {row.where}"
    page = _page()
    assert row.corrected in page and row.printed in page


def test_no_machine_detail_on_the_ranked_page():
    page = _page()
    for machine in ("Eq(", "Rational(", "corrected.", "calruption_", "robust_cal.", "passive.", "**"):
        assert machine not in page, f"{machine!r} on the ranked page"


def _value(text: str) -> float:
    expression = re.sub(r"(\d+)√(\d+)", r"\1*math.sqrt(\2)", text)
    expression = re.sub(r"√(\d+)", r"math.sqrt(\1)", expression)
    return eval(expression, {"math": math})  # the page's own arithmetic, digits and sqrt only


@pytest.mark.parametrize("statement, name, text, route", C.CONSTANTS, ids=lambda x: str(x)[:40])
def test_each_corrected_constant_has_one_value_everywhere(statement, name, text, route):
    page = _page()
    assert f"| {statement} | {text} | {route} |" in page, statement
    assert text in FINDINGS or text.replace("√", "√") in FINDINGS, f"FINDINGS.md does not state {text} ({statement})"
    value = getattr(K, name)
    assert math.isclose(_value(text), float(value), rel_tol=1e-9), (statement, text, float(value))
    import reference.bounds as B

    assert B.K is K, "reference.bounds must evaluate reference.theorem_constants"


def test_superseded_values_appear_only_as_named_routes():
    """Lemma 5.1's merged route (54936.7) and the point-of-the-line F15 factor (221/21) are named as what
    they are wherever they appear, and never on the ranked page."""
    page = _page()
    for old in ("54937", "54936", "221/21", "10.52"):
        assert old not in page, old
    for old in ("54936.7", "54937"):
        for match in re.finditer(re.escape(old), FINDINGS):
            around = FINDINGS[max(0, match.start() - 500) : match.end() + 200]
            assert "erg" in around or "loose" in around, f"FINDINGS states {old} without naming its merged route"
    assert K.BETA1_OVER_BETA3_NEEDED == K.BETA1_OVER_BETA3_SHARP == 40960
