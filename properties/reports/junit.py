"""JUnit XML of a `python -m properties check` or `crosscheck` run (`--junitxml PATH`), for
CI systems that show test results from it, without going through pytest.

The shape follows what pytest's own --junitxml writes for the plugin's items
(properties/pytest_plugin.py), so a CI sees the same thing either way: one <testcase> per
check, classname "cral", its time, properties (status, cites, kind, examples, and the
candidate's list line if one applied); a failing check has a <failure> with its
violations and reproducer; an expected failure (ours or the candidate's), a skip and a
check that does not apply have a <skipped> with the reason; an XPASS that does not fail the
run is a pass with a property saying so.

A cross-check's JUnit XML (testsuite "cral-crosscheck") has one <testcase> per algorithm,
`crosscheck_<algorithm>`, with the same conventions: a failed algorithm's <failure> lists
its failing runs (the first mismatches of each, the reproducer, the saved replay file),
its properties the cases, agreements, runs not made and divergence counts."""

from __future__ import annotations

import socket
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

from properties.core.outcomes import NOT_APPLICABLE, XFAIL
from properties.reports.report import CROSSCHECK_FORMAT
from properties.reports.xfails_file import YOUR_SKIP, YOUR_XFAIL

CLASSNAME = "cral"
_SKIPPED = (XFAIL, YOUR_XFAIL, YOUR_SKIP, NOT_APPLICABLE)
_RUNS_SHOWN = 5  # failing runs of one algorithm written out in its <failure>


def _failure_text(check: dict) -> str:
    lines = list(check["violations"]) or [check["reason"] or check["status"]]
    if check["counterexample"]:
        lines.append(f"reproduce: {check['counterexample']}")
    return "\n".join(lines)


def _listed(entry: dict) -> list:
    return [("listed", f"{entry['listed']['file']}:{entry['listed']['line']}")] if entry["listed"] else []


def _check_case(check: dict) -> dict:
    """One check of a check report: what its <testcase> says."""
    message = check["violations"][0] if check["violations"] else (check["reason"] or check["status"])
    return {
        "name": check["name"],
        "seconds": check["seconds"],
        "status": check["status"],
        "failing": check["failing"],
        "reason": check["reason"],
        "properties": [
            ("status", check["status"]),
            ("cites", check["cites"]),
            ("kind", check["kind"]),
            ("examples", check["examples"]),
            *_listed(check),
        ],
        "message": message,
        "text": _failure_text(check),
    }


def _mismatch_text(mismatch: dict) -> str:
    shown = ", ".join(f"{k} = {v}" for k, v in mismatch["values"].items())
    return mismatch["message"] + (f" ({shown})" if shown else "")


def _crosscheck_case(entry: dict) -> dict:
    """One algorithm of a cross-check report (properties/reports/crosscheck_report.py): its failing
    runs, each with its first mismatches and its reproducer, are the failure's text."""
    runs = entry["failing_runs"]
    lines = []
    for run in runs[:_RUNS_SHOWN]:
        lines.append(f"case {run['case']}: {len(run['mismatches'])} mismatches")
        lines += [f"  {_mismatch_text(m)}" for m in run["mismatches"][:3]]
        lines.append(f"  reproduce: {run['reproduce']}")
        if run["replay_file"]:
            lines.append(f"  replay: python -m properties replay {run['replay_file']}")
    if len(runs) > _RUNS_SHOWN:  # the JSON report has them all
        lines.append(f"... and {len(runs) - _RUNS_SHOWN} more failing runs")
    message = (
        f"case {runs[0]['case']}: {_mismatch_text(runs[0]['mismatches'][0])}"
        if runs
        else (entry["reason"] or entry["status"])
    )
    counted = ", ".join(f"{kind} {n}" for kind, n in entry["divergences"].items() if n) or "none"
    return {
        "name": entry["name"],
        "seconds": entry["seconds"],
        "status": entry["status"],
        "failing": entry["failing"],
        "reason": entry["reason"],
        "properties": [
            ("status", entry["status"]),
            ("algorithm", entry["algorithm"]),
            ("cases", entry["cases"]),
            ("agreed", entry["agreed"]),
            ("not_run", entry["not_run"]),
            ("divergences", counted),
            *_listed(entry),
        ],
        "message": message,
        "text": "\n".join(lines) or message,
    }


def _value(value) -> str:
    """A property's value as the JSON report writes it (true/false, not Python's True/False)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def junit_xml(report: dict) -> ET.ElementTree:
    """The report (properties/reports/report.py: check_report, or a cross-check's:
    properties/reports/crosscheck_report.py) as JUnit XML."""
    if report["format"] == CROSSCHECK_FORMAT:
        name, cases = "cral-crosscheck", [_crosscheck_case(entry) for entry in report["checks"]]
        settings = (
            ("candidate", report["candidate"]),
            ("seed", report["seed"]),
            ("cases", report["cases"]),
            ("large", report["large"]),
        )
    else:
        name, cases = "cral", [_check_case(check) for check in report["checks"]]
        settings = (
            ("candidate", report["candidate"]["path"]),
            ("profile", report["profile"]),
            ("seed", report["seed"]),
        )
    failures = sum(c["failing"] for c in cases)
    skipped = sum(c["status"] in _SKIPPED and not c["failing"] for c in cases)
    suites = ET.Element("testsuites")
    suite = ET.SubElement(
        suites,
        "testsuite",
        {
            "name": name,
            "errors": "0",
            "failures": str(failures),
            "skipped": str(skipped),
            "tests": str(len(cases)),
            "time": f"{sum(c['seconds'] for c in cases):.3f}",
            "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
            "hostname": socket.gethostname(),
        },
    )
    props = ET.SubElement(suite, "properties")
    for key, value in (
        *settings,
        ("package", report["code_version"]["package"]),
        ("commit", report["code_version"]["commit"]),
    ):
        ET.SubElement(props, "property", {"name": key, "value": _value(value)})
    for found in cases:
        case = ET.SubElement(
            suite, "testcase", {"classname": CLASSNAME, "name": found["name"], "time": f"{found['seconds']:.3f}"}
        )
        props = ET.SubElement(case, "properties")
        for key, value in found["properties"]:
            ET.SubElement(props, "property", {"name": key, "value": _value(value)})
        if found["failing"]:
            # a reason that already starts with the status ("not run: the time budget ...") is not repeated
            message = (
                found["message"]
                if found["message"].startswith(f"{found['status']}:")
                else f"{found['status']}: {found['message']}"
            )
            failure = ET.SubElement(case, "failure", {"message": message[:1000]})
            failure.text = found["text"]
        elif found["status"] in _SKIPPED:
            tag = "xfail" if found["status"] in (XFAIL, YOUR_XFAIL) else "skip"
            ET.SubElement(case, "skipped", {"type": f"pytest.{tag}", "message": found["reason"] or found["status"]})
    ET.indent(suites)
    return ET.ElementTree(suites)


def write(report: dict, path) -> None:
    """Write the JUnit XML; an unwritable path is a ValueError naming it."""
    try:
        junit_xml(report).write(Path(path), encoding="utf-8", xml_declaration=True)
    except OSError as error:
        raise ValueError(f"--junitxml {path}: cannot be written: {error.strerror or error}") from None


__all__ = ["CLASSNAME", "junit_xml", "write"]
