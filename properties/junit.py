"""JUnit XML of a `python -m properties check` run (`--junitxml PATH`), for CI systems that
show test results from it, without going through pytest.

The shape follows what pytest's own --junitxml writes for the plugin's items
(properties/pytest_plugin.py), so a CI sees the same thing either way: one <testcase> per
check, classname "cral", its time, properties (status, cites, kind, examples, and the
candidate's list line if one applied); a failing check has a <failure> with its
violations and reproducer; an expected failure (ours or the candidate's), a skip and a
check that does not apply have a <skipped> with the reason; an XPASS that does not fail the
run is a pass with a property saying so."""
from __future__ import annotations

import socket
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from pathlib import Path

from .runner import NOT_APPLICABLE, XFAIL
from .xfails_file import YOUR_SKIP, YOUR_XFAIL

CLASSNAME = "cral"
_SKIPPED = (XFAIL, YOUR_XFAIL, YOUR_SKIP, NOT_APPLICABLE)


def _failure_text(check: dict) -> str:
    lines = list(check["violations"]) or [check["reason"] or check["status"]]
    if check["counterexample"]:
        lines.append(f"reproduce: {check['counterexample']}")
    return "\n".join(lines)


def junit_xml(report: dict) -> ET.ElementTree:
    """The report (properties/report.check_report) as JUnit XML."""
    checks = report["checks"]
    failures = sum(c["failing"] for c in checks)
    skipped = sum(c["status"] in _SKIPPED and not c["failing"] for c in checks)
    suites = ET.Element("testsuites")
    suite = ET.SubElement(suites, "testsuite", {
        "name": "cral", "errors": "0", "failures": str(failures), "skipped": str(skipped),
        "tests": str(len(checks)), "time": f"{sum(c['seconds'] for c in checks):.3f}",
        "timestamp": datetime.now(timezone.utc).isoformat(timespec="seconds"), "hostname": socket.gethostname()})
    props = ET.SubElement(suite, "properties")
    for name, value in (("candidate", report["candidate"]["path"]), ("profile", report["profile"]),
                        ("seed", report["seed"]), ("package", report["code_version"]["package"]),
                        ("commit", report["code_version"]["commit"])):
        ET.SubElement(props, "property", {"name": name, "value": "" if value is None else str(value)})
    for check in checks:
        case = ET.SubElement(suite, "testcase", {"classname": CLASSNAME, "name": check["name"],
                                                 "time": f"{check['seconds']:.3f}"})
        props = ET.SubElement(case, "properties")
        found = [("status", check["status"]), ("cites", check["cites"]), ("kind", check["kind"]),
                 ("examples", check["examples"])]
        if check["listed"]:
            found.append(("listed", f"{check['listed']['file']}:{check['listed']['line']}"))
        for name, value in found:
            ET.SubElement(props, "property", {"name": name, "value": str(value)})
        if check["failing"]:
            message = check["violations"][0] if check["violations"] else (check["reason"] or check["status"])
            failure = ET.SubElement(case, "failure", {"message": f"{check['status']}: {message}"[:1000]})
            failure.text = _failure_text(check)
        elif check["status"] in _SKIPPED:
            tag = "xfail" if check["status"] in (XFAIL, YOUR_XFAIL) else "skip"
            ET.SubElement(case, "skipped", {"type": f"pytest.{tag}", "message": check["reason"] or check["status"]})
    ET.indent(suites)
    return ET.ElementTree(suites)


def write(report: dict, path) -> None:
    """Write the JUnit XML; an unwritable path is a ValueError naming it."""
    try:
        junit_xml(report).write(Path(path), encoding="utf-8", xml_declaration=True)
    except OSError as error:
        raise ValueError(f"--junitxml {path}: cannot be written: {error.strerror or error}") from None


__all__ = ["CLASSNAME", "junit_xml", "write"]
