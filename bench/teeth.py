"""Whether the suite still has its teeth: every broken copy caught, every legitimate
variant accepted, how many check ids there are.

    python bench/teeth.py [--junit PATH] [--compare BEFORE.json] [--json PATH]

The figures come from the tests that hold them, read from a JUnit XML file of a pytest
run (`--junit`, e.g. the full run's `python -m pytest -q -n 2 --dist loadfile
--junitxml=PATH`), or, without it, from a run of just the files that hold them
(TEETH_FILES, `-n 2 --dist loadfile`):

* broken copies: each test of a deliberately broken copy (a test function whose name
  names a mutant, a broken copy or a planted bug: teeth/broken/mutants.py,
  fast_mutants.py, scale_mutants.py, the broken copies of tests/properties/checks/test_crosscheck.py...)
  passes when its check caught the copy; an expected failure there is a copy the suite
  records as not caught (strict xfail, with its reason);
* legitimate variants (teeth/legit/, tests/teeth/test_legit_pass*.py, the variants of the
  cross-check): each passes when the variant is accepted;
* the number of registered check ids (properties.checks.registry.all_checks).

Prints a table per test function and writes JSON (default bench/results/teeth.json).
With --compare, exits 1 when a test that passed in BEFORE does not pass now, when a
test of BEFORE is missing, or when there are fewer check ids."""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._report import RESULTS, write  # noqa: E402

TEETH_FILES = (
    "tests/teeth/test_broken_caught.py",
    "tests/teeth/test_float_broken_caught.py",
    "tests/teeth/test_legit_pass.py",
    "tests/teeth/test_legit_float_pass.py",
    "tests/properties/scale/test_scale_judge.py",
    "tests/properties/checks/test_crosscheck.py",
    "tests/properties/strategies/test_boundary_tapes.py",
    "tests/properties/checks/test_catoni.py",
    "tests/properties/checks/test_sampler.py",
)
BROKEN = re.compile(r"mutant|broken|planted")
LEGIT = re.compile(r"legit|variant")


def group_of(test_id: str) -> str | None:
    """'broken', 'legit' or None, from the test's file and function name."""
    file, _, name = test_id.partition("::")
    function = name.split("[", 1)[0]
    if BROKEN.search(function):
        return "broken"
    if LEGIT.search(function) or Path(file).name.startswith("test_legit"):
        return "legit"
    return None


def outcomes(junit_path: str) -> dict[str, str]:
    """test id -> passed / failed / xfailed / skipped, from a JUnit XML file."""
    found = {}
    for case in ET.parse(junit_path).getroot().iter("testcase"):
        classname, name = case.get("classname", ""), case.get("name", "")
        parts = classname.split(".")
        # pytest writes tests/test_x.py::Class::test as classname "tests.test_x.Class"
        module = next((i for i in range(len(parts), 0, -1) if (ROOT / Path(*parts[:i])).with_suffix(".py").exists()), 0)
        file = "/".join(parts[:module]) + ".py" if module else classname
        test_id = "::".join([file, *parts[module:], name])
        status = "passed"
        for child in case:
            if child.tag in ("failure", "error"):
                status = "failed"
            elif child.tag == "skipped":
                status = "xfailed" if child.get("type") == "pytest.xfail" else "skipped"
        found[test_id] = status
    return found


def run_teeth_files(junit_path: str) -> int:
    command = [sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadfile", "-p", "no:cacheprovider"]
    command += [f"--junitxml={junit_path}", *TEETH_FILES]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(command, cwd=ROOT, env=env).returncode


def summary(results: dict[str, str]) -> dict:
    from properties.checks.registry import all_checks

    groups: dict = {"broken": {}, "legit": {}}
    for test_id, status in sorted(results.items()):
        group = group_of(test_id)
        if group is not None:
            groups[group][test_id] = status
    per_function: dict = {}
    for group, tests in groups.items():
        counts: dict = collections.defaultdict(collections.Counter)
        for test_id, status in tests.items():
            counts[test_id.split("[", 1)[0]][status] += 1
        per_function[group] = {name: dict(c) for name, c in sorted(counts.items())}
    return {
        "check_ids": len(all_checks()),
        "broken_caught": sum(s == "passed" for s in groups["broken"].values()),
        "broken_recorded_not_caught": sum(s == "xfailed" for s in groups["broken"].values()),
        "broken_tests": len(groups["broken"]),
        "legit_passing": sum(s == "passed" for s in groups["legit"].values()),
        "legit_tests": len(groups["legit"]),
        "per_function": per_function,
        "tests": groups,
    }


def regressions(before: dict, now: dict) -> list[str]:
    lines = []
    if now["check_ids"] < before["check_ids"]:
        lines.append(f"check ids: {before['check_ids']} before, {now['check_ids']} now")
    for group in ("broken", "legit"):
        for test_id, status in before["tests"][group].items():
            after = now["tests"][group].get(test_id)
            if after is None:
                lines.append(f"{test_id}: {status} before, missing now")
            elif status == "passed" and after != "passed":
                lines.append(f"{test_id}: passed before, {after} now")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--junit", help="JUnit XML of a pytest run (default: run TEETH_FILES now)")
    parser.add_argument("--compare", metavar="BEFORE", help="a JSON file this script wrote earlier")
    parser.add_argument("--json", default=str(RESULTS / "teeth.json"), help="where to write the JSON")
    args = parser.parse_args(argv)
    junit = args.junit
    if junit is None:
        junit = os.path.join(tempfile.mkdtemp(prefix="cral-teeth-"), "teeth.xml")
        run_teeth_files(junit)
    report = {"junit": os.path.abspath(junit), **summary(outcomes(junit))}
    print(f"check ids: {report['check_ids']}")
    print(
        f"broken copies caught: {report['broken_caught']} of {report['broken_tests']} tests "
        f"({report['broken_recorded_not_caught']} recorded as not caught, strict xfail)"
    )
    print(f"legitimate variants passing: {report['legit_passing']} of {report['legit_tests']} tests")
    for group in ("broken", "legit"):
        for name, counts in report["per_function"][group].items():
            shown = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
            print(f"  {group:6s} {name}: {shown}")
    status = 0
    if args.compare:
        lost = regressions(json.loads(Path(args.compare).read_text()), report)
        report["compared_with"] = args.compare
        report["regressions"] = lost
        print(f"against {args.compare}: {len(lost)} regression(s)")
        for line in lost:
            print(f"  {line}")
        status = 1 if lost else 0
    write(report, args.json)
    print(f"wrote {args.json}")
    return status


if __name__ == "__main__":
    sys.exit(main())
