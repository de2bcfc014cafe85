"""The verdict sentence (properties/reports/verdict.py) and the HTML report
(properties/reports/html_report.py): what they say, that every string the candidate
controls is escaped, that the page is self-contained, that it renders failures with and
without a term table, and the command lines' --html (a folder that does not exist is
refused before the run, exit 2, one line)."""

from __future__ import annotations

import copy
import json
import os
import re

import pytest

from properties.reports.first_difference import first_difference
from properties.reports.html_figure import figure
from properties.reports.html_parts import decimals, terms_table
from properties.reports.html_report import check_html, crosscheck_html, report_html
from properties.reports.report import CROSSCHECK_FORMAT, validate
from properties.reports.verdict import check_verdict, crosscheck_verdict
from tests.properties.reports.test_report_and_replay import properties_cli
from tests.support.report_samples import FAILING, TERM_VALUE, TERMS, check_sample, crosscheck_sample

MARKUP = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def _poisoned(value):
    """Every string of a report with markup appended (keys that a report's code reads
    stay as they are: statuses, formats and names drive the page, not its text)."""
    if isinstance(value, dict):
        return {k: v if k in ("status", "format") else _poisoned(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_poisoned(v) for v in value]
    if isinstance(value, str):
        return value + MARKUP
    return value


# -- the verdict sentence ---------------------------------------------------------------------
def test_the_verdict_of_a_failing_run_names_its_failures_and_sets_findings_apart():
    verdict = check_sample()["verdict"]
    assert verdict.startswith(f"mypkg fails 1 of 2 checks that apply: {FAILING};"), verdict
    assert "1 check shows where the paper itself is wrong (FINDINGS F2)" in verdict
    assert "1 do not apply (sample_tape not provided)" in verdict
    assert "expected failure" not in verdict


def test_the_verdict_of_a_passing_run_says_every_check_that_applies_passes():
    verdict = check_sample(failing=False)["verdict"]
    assert verdict.startswith("mypkg passes every check that applies to it (1 of 1);"), verdict
    assert verdict.endswith("1 do not apply (sample_tape not provided).")


def test_the_verdict_counts_checks_the_budget_left_undone_as_no_pass():
    report = check_sample(failing=False)
    report["checks"][0].update(status="not run", failing=True)
    verdict = check_verdict(report)
    assert verdict.startswith("mypkg passes 0 of 1 checks that apply; 1 check not run"), verdict
    assert "the run is not a pass" in verdict


def test_the_crosscheck_verdict_names_the_algorithm_that_disagrees():
    report = crosscheck_sample()
    assert (
        crosscheck_verdict(report)
        == "mypkg disagrees with the reference on 1 of 2 algorithms: robust_cal (1 of 6 runs)."
    )
    report["checks"] = report["checks"][:1]
    assert crosscheck_verdict(report) == (
        "mypkg agrees with the reference on every algorithm compared (1 of 1; 6 runs, 2 legitimate divergences "
        "counted by class)."
    )


def test_the_json_reports_carry_the_verdict_and_stay_valid():
    report = check_sample(terms=None)
    assert validate(report)["verdict"] == check_verdict(report)
    assert report["candidate"]["arithmetic_declared"] is True
    cross = crosscheck_sample()
    for entry in cross["checks"]:
        for run in entry["failing_runs"]:
            for mismatch in run["mismatches"]:
                mismatch.pop("terms")  # the term table's field is the message builders' (not in this schema)
    assert validate(cross, fmt=CROSSCHECK_FORMAT)["verdict"] == crosscheck_verdict(cross)


# -- the page ---------------------------------------------------------------------------------
def _visible_text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_the_check_page_puts_the_verdict_first_and_expands_the_failure_with_its_terms():
    report = check_sample()
    page = check_html(report)
    assert page.index('id="verdict"') < page.index("<h2>Failures (1)</h2>") < page.index("<h2>Every check (4)</h2>")
    assert '<details class="failure" open>' in page
    text = _visible_text(page)
    assert report["verdict"].replace("'", "&#x27;") in text
    assert "the reported threshold misses the threshold" in text and FAILING in text
    assert "properties.core.case.Case.from_json(...)" in text  # the reproducer
    assert "where the paper is wrong (F2)" in text
    # the wrong term's row stands out, the right one does not
    assert f'<tr class="differs"><td class="">3 beta / (2 t)</td><td class="">{TERM_VALUE}</td>' in page
    assert '<tr><td class="">sqrt(2 beta rho / t)</td>' in page


@pytest.mark.parametrize("terms", [None, [], "a term table that is not a list", [["not", "rows"]], [{"term": "t"}]])
def test_a_failure_without_a_well_formed_term_table_still_renders(terms):
    page = check_html(check_sample(terms=terms))
    assert "the reported threshold misses the threshold" in page


def test_violations_given_as_mappings_render_their_values_and_terms():
    report = check_sample(terms=None)
    entry = next(e for e in report["checks"] if e["name"] == FAILING)
    entry["violations"] = [{"message": "beta_t is off", "values": {"beta": "3/2"}, "terms": TERMS}]
    page = check_html(report)
    assert "beta_t is off" in page and '<td class="num"><code>1.5</code></td>' in page and TERM_VALUE in page


@pytest.mark.parametrize("build", [check_sample, crosscheck_sample], ids=["check", "crosscheck"])
def test_every_string_the_candidate_controls_is_text_not_markup(build):
    page = report_html(_poisoned(build()))
    assert "<script" not in page.lower() and "<img" not in page.lower()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


@pytest.mark.parametrize("build", [check_sample, crosscheck_sample], ids=["check", "crosscheck"])
def test_the_page_is_self_contained(build):
    page = report_html(build())
    # the only URL is SVG's namespace name, which is never fetched
    assert re.findall(r"https?://[^\s\"'<>]+", page) in ([], ["http://www.w3.org/2000/svg"])
    for fetches in ("<link", "<script", " src=", "@import", "url("):
        assert fetches not in page
    assert "@media print" in page and "Content-Security-Policy" in page


def test_the_crosscheck_page_has_the_agreement_table_the_classes_and_the_figure():
    page = crosscheck_html(crosscheck_sample())
    assert "<h2>Agreement per algorithm</h2>" in page and "<h2>Divergence classes</h2>" in page
    assert "<svg" in page and "first mismatch: checkpoint t 2" in page
    assert "values on a log scale" in page  # 1/2 down to 1/256: more than two decades
    assert "threshold[0] at every checkpoint t" in page
    assert "<code>-0.25</code>" in page  # a value's decimal


def test_a_malformed_series_draws_no_figure():
    for series in (None, {}, {"points": []}, {"quantity": "q", "axis": "t", "points": [{"x": "a"}]}):
        assert figure(series) == ""


def test_decimals_of_rationals_fractions_and_enclosures():
    assert decimals("1/3") == "0.3333333333"
    assert decimals("Enclosure(lo=Fraction(1, 4), hi=Fraction(1, 2))") == "0.25, 0.5"
    assert decimals("[0, 1, 2]") == "" and decimals("1/0") == ""


def test_terms_table_marks_only_rows_that_differ():
    table = terms_table(TERMS)
    assert table.count('class="differs"') == 1


# -- the first differing quantity ---------------------------------------------------------------
def test_first_difference_follows_the_first_mismatch_over_the_checkpoints():
    from fractions import Fraction

    from properties.checks.crosscheck import AlgorithmReport
    from properties.core.violation import Violation

    report = AlgorithmReport(0, "robust_cal")
    report.compared = [
        (f"checkpoint t = {t} threshold[{h}]", (Fraction(h + 1, t),), (Fraction(h + 2, t),))
        for t in (2, 4, 8)
        for h in (0, 1)
    ] + [("checkpoint t = 2 empirical_risk", (Fraction(1, 2), Fraction(1, 3)), (Fraction(1, 2), Fraction(1, 3)))]
    report.mismatches = [Violation.of("crosscheck", "robust_cal, checkpoint t = 2 threshold[1]: is outside")]
    series = first_difference(report)
    assert series["quantity"] == "threshold[1]" and series["axis"] == "checkpoint t"
    assert [p["x"] for p in series["points"]] == [2, 4, 8]
    assert series["points"][0] == {"x": 2, "candidate": 1.0, "exact": 1.5} and series["at"] == 2
    report.mismatches = [Violation.of("crosscheck", "robust_cal, checkpoint t = 2 empirical_risk[1]: differs")]
    assert [p["x"] for p in first_difference(report)["points"]] == [2]
    report.mismatches = [Violation.of("crosscheck", "robust_cal, trace: crashed: TypeError")]
    assert first_difference(report) is None


# -- the command lines ---------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["check", "crosscheck"])
def test_html_into_a_missing_folder_is_refused_before_the_run(tmp_path, command):
    target = tmp_path / "absent" / "report.html"
    args = ["--candidate", "reference"] if command == "crosscheck" else []
    result = properties_cli(command, *args, "--html", target, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [f"error: --html {target}: its folder does not exist"]


def test_check_html_writes_the_page_and_the_text_ends_with_the_verdict(tmp_path):
    page, report = tmp_path / "report.html", tmp_path / "report.json"
    result = properties_cli(
        "check", "--only", "check_passive_output_is_erm", "check_passive_learning_lemma_c1",
        "--html", page, "--json-file", report, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    verdict = json.loads(report.read_text())["verdict"]
    assert verdict == (
        "reference passes every check that applies to it (1 of 1); 1 check shows where the paper itself is "
        "wrong (FINDINGS F2)."
    )
    assert result.stdout.rstrip().splitlines()[-1] == verdict
    assert "arithmetic: exact (declared)" in result.stdout
    assert "check_passive_learning_lemma_c1 (shows where the paper is wrong: FINDINGS F2" in result.stdout
    assert verdict.replace("'", "&#x27;") in page.read_text()


def test_the_verdict_copy_is_independent_of_the_report_it_reads():
    report = check_sample()
    before = copy.deepcopy(report)
    check_verdict(report)
    check_html(report)
    assert report == before


def test_a_check_violation_is_split_into_its_message_and_values():
    from properties.reports.html_report import split_values

    text = "check_x: misses the threshold (t = 2, reported = Enclosure(lo=Fraction(1, 3), hi=Fraction(2, 3)), lo = 1/3)"
    assert split_values(text) == (
        "check_x: misses the threshold",
        {"t": "2", "reported": "Enclosure(lo=Fraction(1, 3), hi=Fraction(2, 3))", "lo": "1/3"},
    )
    for unsplit in ("check_x: crashed (in passive)", "check_x: no values", "(a = 1)", "check_x: odd (a = 1))"):
        assert split_values(unsplit) == (unsplit, None)
    page = check_html(check_sample(terms=None))
    assert '<p class="message">the reported threshold misses the threshold</p>' in page
    assert '<span class="name">h</span>' in page  # its values, as a table


@pytest.mark.parametrize("isolate", [False, True], ids=["in-process", "isolated"])
def test_the_arithmetic_line_says_whether_it_was_declared_or_assumed(tmp_path, monkeypatch, isolate):
    from properties.judge.load import load_candidate
    from properties.reports.declared_arithmetic import arithmetic_lines

    (tmp_path / "undeclared_cand.py").write_text(
        "from reference import passive, robust_cal, calruption, catoni_root  # noqa\n"
    )
    (tmp_path / "declared_cand.py").write_text(
        'from reference import passive, robust_cal, calruption, catoni_root  # noqa\nARITHMETIC = "exact"\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", f"{tmp_path}:{os.environ.get('PYTHONPATH', '')}")
    for name, said in (
        ("undeclared_cand", "exact (assumed: the module has no ARITHMETIC attribute)"),
        ("declared_cand", "exact (declared)"),
    ):
        with load_candidate(name, isolate=isolate) as candidate:
            assert candidate.arithmetic_declared is (name == "declared_cand")
            assert arithmetic_lines(candidate, [])[0].startswith(f"arithmetic: {said}:")
