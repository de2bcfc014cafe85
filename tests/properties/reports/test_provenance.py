"""Every report names the judge that gave the verdict: the package version, the commit,
and the profile and seed (reference/version.py). One `check` run writes the four reports
(text, JSON, JUnit, HTML); the schemas require the fields and refuse a commit that is not
a full git id."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from jsonschema import Draft202012Validator

from properties.reports.report import SCHEMAS, ReportError, validate
from reference import documents
from reference.version import DISTRIBUTION, code_version, suite_line, suite_text
from tests.properties.reports.test_report_and_replay import properties_cli
from tests.support.report_samples import check_sample

CHECKS = ("check_passive_output_is_erm",)


@pytest.fixture(scope="module")
def one_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("provenance")
    files = {"json": folder / "r.json", "junit": folder / "r.xml", "html": folder / "r.html"}
    result = properties_cli(
        "check", "--only", *CHECKS, "-j", "1", "--json-file", files["json"], "--junitxml", files["junit"],
        "--html", files["html"], cwd=folder,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    return result, files


def test_the_json_report_names_version_commit_profile_and_seed(one_run):
    _, files = one_run
    report = json.loads(files["json"].read_text())
    assert report["code_version"] == code_version()  # the same code: this checkout
    assert report["code_version"]["package"] and report["profile"] == "ci" and report["seed"] == 0
    validate(report, "r.json")


def test_the_text_names_the_judge_just_above_the_verdict(one_run):
    result, files = one_run
    report = json.loads(files["json"].read_text())
    lines = result.stdout.rstrip().splitlines()
    assert lines[-1] == report["verdict"] and lines[-2] == ""
    assert lines[-3] == suite_line(report["code_version"], "ci", 0), lines[-3]
    assert lines[-3].startswith(f"suite: {DISTRIBUTION} {report['code_version']['package']}, ")


def test_the_junit_properties_name_version_commit_profile_and_seed(one_run):
    _, files = one_run
    report = json.loads(files["json"].read_text())
    suite = ET.parse(files["junit"]).getroot().find("testsuite")
    found = {p.get("name"): p.get("value") for p in suite.find("properties")}
    code = report["code_version"]
    assert found["package"] == code["package"] and found["commit"] == (code["commit"] or "")
    assert found["dirty"] in ("true", "false", "") and (found["profile"], found["seed"]) == ("ci", "0")


def test_the_html_page_names_the_suite(one_run):
    _, files = one_run
    report = json.loads(files["json"].read_text())
    assert suite_text(report["code_version"]) in files["html"].read_text()


@pytest.mark.parametrize("fmt", SCHEMAS)
def test_the_schemas_require_the_version_and_a_full_commit(fmt):
    schema = json.loads((documents.schema_dir() / SCHEMAS[fmt]).read_text(encoding="utf-8"))
    assert "code_version" in schema["required"]
    field = schema["properties"]["code_version"]
    assert set(field["required"]) == {"package", "commit", "dirty"}
    validator = Draft202012Validator(field)
    for good in (
        {"package": "0.1.0", "commit": "ab" * 20, "dirty": False},
        {"package": "0.1.0", "commit": "ab" * 32, "dirty": True},  # a SHA-256 repository
        {"package": None, "commit": None, "dirty": None},  # unknown: a copy with neither git nor a build record
    ):
        assert validator.is_valid(good), good
    for bad in (
        {"package": "0.1.0", "dirty": False},
        {"commit": None, "dirty": None},
        {"package": "0.1.0", "commit": "1497af8", "dirty": False},  # abbreviated
        {"package": "0.1.0", "commit": "ab" * 20 + "\n", "dirty": False},
        {"package": "", "commit": None, "dirty": None},
        {"package": "0.1.0", "commit": None, "dirty": None, "extra": 1},
    ):
        assert not validator.is_valid(bad), bad


def test_a_sample_report_with_a_code_version_validates():
    report = check_sample()
    report["code_version"] = {"package": "0.1.0", "commit": "ab" * 20, "dirty": False}
    validate(report, "sample")
    report["code_version"]["commit"] = "ab"
    with pytest.raises(ReportError, match=r"at \.code_version\.commit"):
        validate(report, "sample")
