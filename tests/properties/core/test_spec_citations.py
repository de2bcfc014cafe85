"""Failures cite docs/spec.md: every registered check has its conventions, every cited S-id is
an anchor of the spec with the title the table gives it, every S-id cited anywhere (docs,
schemas, messages) exists, and every FINDINGS id a message may carry has its meaning."""

from __future__ import annotations

import re

from properties.checks.registry import all_checks
from properties.core.spec_citations import (
    CHECK_CONVENTIONS,
    CONVENTIONS,
    FINDINGS,
    READINGS,
    cite_failure,
    cite_field,
    explain_ids,
)
from tests.support import REPO_ROOT

ROOT = REPO_ROOT
SPEC = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
ANCHORS = set(re.findall(r'<a id="(S\d+)"></a>', SPEC))
# an S-id cited as such: "S7", "spec S25", "S1-S49" (not "S_l", "S1.5" or a word)
CITED = re.compile(r"(?<![\w/^_{.-])S(\d{1,2})(?![\w.^_])")


def test_every_registered_check_has_conventions():
    checks = all_checks()
    assert set(checks) == set(CHECK_CONVENTIONS), (
        f"missing: {sorted(set(checks) - set(CHECK_CONVENTIONS))}; unknown: {sorted(set(CHECK_CONVENTIONS) - set(checks))}"
    )
    assert all(CHECK_CONVENTIONS.values())


def test_a_check_of_no_mode_cites_only_the_paper_convention():
    for name, check in all_checks().items():
        if not check.covers:
            assert CHECK_CONVENTIONS[name] == ("S49",), name


def test_every_cited_convention_is_an_anchor_with_its_title():
    cited = {i for ids in CHECK_CONVENTIONS.values() for i in ids} | {i for ids in READINGS.values() for i in ids}
    assert cited <= set(CONVENTIONS)
    assert set(CONVENTIONS) == ANCHORS
    for key, title in CONVENTIONS.items():
        anchor = SPEC.index(f'<a id="{key}"></a>')
        heading = " ".join(SPEC[anchor : anchor + 400].split())
        assert f"**{key}. {title}.**" in heading, (key, title, heading[:200])


def test_the_anchors_are_numbered_in_order():
    numbers = [int(n) for n in re.findall(r'<a id="S(\d+)"></a>', SPEC)]
    assert numbers == list(range(1, len(numbers) + 1))


def _cited_ids(text: str) -> set[str]:
    return {f"S{m.group(1)}" for m in CITED.finditer(text)}


def test_every_S_id_cited_in_the_docs_and_schemas_exists():
    sources = [ROOT / "CONTRACT.md", ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    sources += [ROOT / "reference" / "schemas" / "build.py", *(ROOT / "reference" / "schemas" / "v1").glob("*.json")]
    sources += list((ROOT / "properties").rglob("*.py"))
    sources += list((ROOT / "examples").rglob("*.js")) + list((ROOT / "tests").glob("test_spec*.py"))
    missing = {}
    for path in sources:
        unknown = _cited_ids(path.read_text(encoding="utf-8")) - ANCHORS
        if unknown:
            missing[str(path.relative_to(ROOT))] = sorted(unknown)
    assert missing == {}


def test_every_findings_id_has_its_heading():
    text = (ROOT / "FINDINGS.md").read_text(encoding="utf-8")
    headings = {m.group(1): m.group(2).strip() for m in re.finditer(r"^### ([RF]\d+)\. (.+)$", text, re.M)}
    assert set(FINDINGS) == set(headings)
    for key, meaning in FINDINGS.items():
        assert re.sub(r"\s*\([^()]*\)$", "", headings[key]) == meaning, key
    assert set(READINGS) == {k for k in headings if k.startswith("R")}


def test_a_failure_cites_its_conventions_and_explains_ids():
    lines = cite_failure("check_calruption_recomputed_from_trace", ["W computed for a pair with min q = 0 (R11)", "b"])
    assert lines[0].startswith("W computed for a pair with min q = 0 (R11 (FINDINGS: Zero query probabilities")
    assert "S26: min q is taken over Dis(h, h') ∩ S_l" in lines[0] and lines[1] == "b"
    assert (
        "S48" not in lines[0] and "S48" in cite_failure("check_calruption_recomputed_from_trace", ["x"], "float64")[0]
    )
    # only ids of FINDINGS, as words: R_D, F(z), S_l and an unknown R99 stay as they are
    assert explain_ids("R_D and F(z) and R99") == "R_D and F(z) and R99"
    assert explain_ids("R3-R5, R3").count("FINDINGS") == 2
    # a failure as a program (a hang, a crash) names no convention
    assert cite_failure("check_passive_output_is_erm", ["hung after 1 s (in passive)"], conventions=False) == [
        "hung after 1 s (in passive)"
    ]


def test_a_check_run_cites_the_spec_in_its_failure():
    from fractions import Fraction

    import reference
    from properties.checks.registry import all_checks as checks
    from properties.run.runner import run_check

    class WrongRisks:
        """The reference, with passive's empirical risks off by 1/n (S10 broken)."""

        def __getattr__(self, name):
            return getattr(reference, name)

        @staticmethod
        def passive(hypotheses, tape, params):
            trace = reference.passive(hypotheses, tape, params)
            shifted = tuple(r + Fraction(1, tape.n) for r in trace.empirical_risk)
            return type(trace)(**{**trace.__dict__, "empirical_risk": shifted})

    result = run_check(checks()["check_passive_empirical_risks_recomputed"], WrongRisks(), max_examples=5, seed=1)
    assert result.status == "failed", result
    assert "[spec S7: The tape" in result.violations[0] and "S10: Passive" in result.violations[0]


def test_a_cross_check_mismatch_cites_its_field():
    assert cite_field("epoch 2 min_q[0]") == " [spec S26: min q is taken over Dis(h, h') ∩ S_l]"
    assert cite_field("checkpoint t = 4 threshold[1]").startswith(" [spec S3: Enclosures")
    assert cite_field("somewhere else") == ""
