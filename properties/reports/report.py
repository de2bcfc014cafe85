"""The JSON report of `python -m properties check --json`, its versioned schema
(reference/schemas/v1/check-report.schema.json, written by reference/schemas/build.py) and
the code version it records; reading and validating it and the cross-check's report
(`crosscheck --json`, crosscheck-report.schema.json, built by properties/reports/crosscheck_report.py).

The report is what `python -m properties compare OLD.json NEW.json` reads: a team that runs
the suite in its CI keeps each run's report as an artefact and compares it with the last
one. Each check records its status, whether it makes the run fail (`failing`: the same rule
as the exit status, properties/reports/xfails_file.py: is_failure), the examples tried, its seconds and
its minimal failing example (`counterexample`, a line of Python that rebuilds it)."""

from __future__ import annotations

import json
import subprocess
from functools import cache, lru_cache
from pathlib import Path

from properties.core.jsonfile import read_json

FORMAT = "cral-check-report"
CROSSCHECK_FORMAT = "cral-crosscheck-report"
VERSION = 1  # of both formats (the schemas' folder is v1)
SCHEMAS = {FORMAT: "check-report.schema.json", CROSSCHECK_FORMAT: "crosscheck-report.schema.json"}
DISTRIBUTION = "corruption-robust-active-learning"
_ROOT = Path(__file__).resolve().parents[2]


class ReportError(ValueError):
    """A report that cannot be read or is not a valid check report: one line naming the file."""


@lru_cache(maxsize=1)
def code_version() -> dict:
    """The suite's package version and, when it runs from a git checkout of this
    repository, the commit and whether the tree has changes (null otherwise: an installed
    package inside another project's repository must not report that project's commit)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        package = version(DISTRIBUTION)
    except PackageNotFoundError:
        package = None
    commit = dirty = None
    try:

        def git(*args):
            return subprocess.run(["git", "-C", str(_ROOT), *args], capture_output=True, text=True, timeout=10)

        top = git("rev-parse", "--show-toplevel")
        if top.returncode == 0 and Path(top.stdout.strip()).resolve() == _ROOT:
            head = git("rev-parse", "HEAD")
            if head.returncode == 0:
                commit = head.stdout.strip()
                status = git("status", "--porcelain", "--untracked-files=no")
                dirty = bool(status.stdout.strip()) if status.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):  # no git: the commit is unknown
        pass
    return {"package": package, "commit": commit, "dirty": dirty}


def check_report(
    candidate, profile: str, seed: int | None, seconds: float, results, lists, quick: bool = False
) -> dict:
    """The report of one run (`lists`: the candidate's xfails_file.CandidateLists; `quick`:
    `check --quick`, few examples per check)."""
    from properties.reports.verdict import check_verdict
    from properties.reports.xfails_file import is_failure

    checks = [{**r.to_json(), "failing": is_failure(r, candidate.path, lists.strict_xfail)} for r in results]
    report = {
        "format": FORMAT,
        "version": VERSION,
        "code_version": code_version(),
        "candidate": {
            "path": candidate.path,
            "runs_in": candidate.runs_in,
            "isolated": candidate.isolated,
            "arithmetic": candidate.arithmetic,
            "arithmetic_declared": getattr(candidate, "arithmetic_declared", None),
        },
        # the fields of the report before it had a schema, kept for the scripts that read them
        "impl": candidate.path,
        "isolated": candidate.isolated,
        "profile": profile,
        "seed": seed,
        "quick": quick,
        "seconds": round(seconds, 2),
        "candidate_lists": lists.to_json(),
        "checks": checks,
        # the unknown fields of its results that were ignored (properties/core/representations.py)
        "ignored_fields": dict(sorted((candidate.ignored_fields or {}).items())),
    }
    report["verdict"] = check_verdict(report)  # what the run means (properties/reports/verdict.py)
    return report


@cache
def _validator(fmt: str = FORMAT):
    from jsonschema import Draft202012Validator

    from reference import documents

    schema = json.loads((documents.schema_dir() / SCHEMAS[fmt]).read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def validate(report, source: str = "report", fmt: str = FORMAT) -> dict:
    """The report, if it is valid against the schema of `fmt`; else ReportError naming
    `source` and the JSON path of the first problem."""
    from jsonschema.exceptions import best_match

    error = best_match(_validator(fmt).iter_errors(report))
    if error is not None:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path) or "(top)"
        message = error.message if len(error.message) <= 200 else error.message[:200] + "..."
        raise ReportError(f"{source}: not a {fmt} v{VERSION} report: at {where}: {message}")
    return report


def load(path, formats=(FORMAT,)) -> dict:
    """A report file of one of `formats`, read and validated against its own schema
    (ReportError: one line naming the file). A document that names none of them is judged
    against the first, whose schema then says what is wrong."""
    data = read_json(path, ReportError)
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt is None and isinstance(data, dict) and "algorithms" in data and "mismatches" in data:
        raise ReportError(
            f"{path}: a crosscheck --json from before the versioned report (no 'format'): re-run "
            f"crosscheck --json with this suite to compare it"
        )
    if fmt not in formats:
        if len(formats) > 1 and fmt is not None:
            raise ReportError(f"{path}: not a report of this suite: format {fmt!r} is not one of {', '.join(formats)}")
        fmt = formats[0]
    elif data.get("version") != VERSION:
        raise ReportError(f"{path}: a {fmt} of version {data.get('version')!r}; this suite reads version {VERSION}")
    report = validate(data, str(path), fmt)
    _check_entries(report, str(path))
    return report


def _check_entries(report: dict, source: str) -> None:
    """What a schema does not say: each check is listed once (else a comparison would
    silently take the last entry), and a cross-check entry's name is its algorithm's."""
    seen = set()
    for i, entry in enumerate(report["checks"]):
        if entry["name"] in seen:
            raise ReportError(f"{source}: check {entry['name']!r} is listed twice (at .checks[{i}])")
        seen.add(entry["name"])
        if "algorithm" in entry and entry["name"] != f"crosscheck_{entry['algorithm']}":
            raise ReportError(
                f"{source}: at .checks[{i}]: name {entry['name']!r} is not crosscheck_{entry['algorithm']}"
            )


__all__ = [
    "CROSSCHECK_FORMAT",
    "FORMAT",
    "ReportError",
    "SCHEMAS",
    "VERSION",
    "check_report",
    "code_version",
    "load",
    "validate",
]
