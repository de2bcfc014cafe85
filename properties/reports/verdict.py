"""The verdict sentence that ends a report: what the run means, in one sentence a person
can act on (the text table's last line, the `verdict` field of the JSON report and the
heading of the HTML report all carry the same one).

Built from the JSON report itself (properties/reports/report.py, crosscheck_report.py), so
every form of the report says the same thing. An expected failure of ours is a check that
shows where the paper itself is wrong (its finding in FINDINGS.md): it is named as such and
never counted with the candidate's failures."""

from __future__ import annotations

import re

from properties.core.outcomes import NOT_APPLICABLE, NOT_RUN, XFAIL, XPASS
from properties.reports.xfails_file import YOUR_SKIP, YOUR_XFAIL, YOUR_XPASS

NAMED = 5  # failing checks named in the sentence; the rest are counted
_FINDING = re.compile(r"FINDINGS (F\d+)")
# a reason a check does not apply, in the few words the sentence gives it
_SHORT_REASONS = (
    (re.compile(r"does not provide (.+?) \(optional\)"), r"\1 not provided"),
    (re.compile(r"does not implement (.+?) \(not among"), r"\1 not implemented"),
    (re.compile(r"^a statement about the paper"), "statements about the paper, checked on the reference"),
)


def finding_of(reason: str | None) -> str | None:
    """The FINDINGS.md entry an expected failure's reason names ("F2"), or None."""
    match = _FINDING.search(reason or "")
    return match.group(1) if match else None


def short_reason(reason: str | None) -> str:
    text = " ".join((reason or "no reason given").split())
    for pattern, replacement in _SHORT_REASONS:
        match = pattern.search(text)
        if match:
            return match.expand(replacement)
    return text if len(text) <= 80 else text[:77] + "..."


def _findings(entries) -> list[str]:
    found = {finding_of(e.get("reason")) for e in entries} - {None}
    return sorted(found, key=lambda f: int(f[1:]))


def _names(entries) -> str:
    names = [e["name"] for e in entries[:NAMED]]
    more = len(entries) - NAMED
    return ", ".join(names) + (f" and {more} more" if more > 0 else "")


def _checks(n: int) -> str:
    return f"{n} check{'s' if n != 1 else ''}"


def _not_applicable(entries) -> str:
    reasons: dict[str, int] = {}
    for e in entries:
        key = "skipped by your skips file" if e["status"] == YOUR_SKIP else short_reason(e.get("reason"))
        reasons[key] = reasons.get(key, 0) + 1
    ordered = sorted(reasons.items(), key=lambda kv: -kv[1])
    return (
        f"{len(entries)} do not apply ({'; '.join(f'{n}: {why}' if len(ordered) > 1 else why for why, n in ordered)})"
    )


def check_verdict(report: dict) -> str:
    """The sentence for a `check` report."""
    name = report["candidate"]["path"]
    checks = report["checks"]
    ours = [c for c in checks if c["status"] == XFAIL]
    absent = [c for c in checks if c["status"] in (NOT_APPLICABLE, YOUR_SKIP)]
    applies = [c for c in checks if c not in ours and c not in absent]
    not_run = [c for c in applies if c["status"] == NOT_RUN]
    failing = [c for c in applies if c["failing"] and c["status"] != NOT_RUN]
    yours = [c for c in applies if c["status"] == YOUR_XFAIL]
    # on a candidate an expected failure of ours that passes is not its fault: the paper's
    # counterexample did not arise on its run (other checks judge the run itself)
    unseen = [c for c in applies if c["status"] == XPASS and not c["failing"]]
    judged = len(applies) - len(not_run)
    parts = []
    if failing:
        parts.append(f"{name} fails {len(failing)} of {len(applies)} checks that apply: {_names(failing)}")
    elif not_run:
        parts.append(f"{name} passes {judged} of {len(applies)} checks that apply")
    elif applies:
        parts.append(f"{name} passes every check that applies to it ({len(applies)} of {len(applies)})")
    else:
        parts.append(f"no check applies to {name}")
    if not_run:
        parts.append(
            f"{_checks(len(not_run))} not run (the time budget was spent): no verdict on them, so the run is not a pass"
        )
    if yours:
        parts.append(f"{len(yours)} of them {'are' if len(yours) != 1 else 'is'} in your expected failures")
    if unseen:
        parts.append(f"{len(unseen)} of the paper's counterexamples did not arise on {name}'s runs (not its fault)")
    if ours:
        findings = _findings(ours)
        cited = f" (FINDINGS {', '.join(findings)})" if findings else ""
        parts.append(f"{_checks(len(ours))} show{'s' if len(ours) == 1 else ''} where the paper itself is wrong{cited}")
    if absent:
        parts.append(_not_applicable(absent))
    return "; ".join(parts) + "."


def crosscheck_verdict(report: dict) -> str:
    """The sentence for a `crosscheck` report: per algorithm, agreement with the reference."""
    name = report["candidate"]
    entries = report["checks"]
    absent = [e for e in entries if e["status"] == YOUR_SKIP]
    compared = [e for e in entries if e not in absent]
    failing = [e for e in compared if e["failing"] and e["status"] != NOT_RUN]
    not_run = [e for e in compared if e["status"] == NOT_RUN]
    runs = sum(e["cases"] - e["not_run"] for e in compared)
    divergences = sum(sum(e["divergences"].values()) for e in compared)
    counted = f", {divergences} legitimate divergences counted by class" if divergences else ""
    parts = []
    if failing:
        detail = ", ".join(
            f"{e['algorithm']} ({len(e['failing_runs'])} of {e['cases'] - e['not_run']} runs)" for e in failing
        )
        parts.append(f"{name} disagrees with the reference on {len(failing)} of {len(compared)} algorithms: {detail}")
    elif compared and not not_run:
        parts.append(
            f"{name} agrees with the reference on every algorithm compared ({len(compared)} of {len(compared)}; "
            f"{runs} runs{counted})"
        )
    elif compared:
        parts.append(
            f"{name} agrees with the reference on {len(compared) - len(not_run)} of {len(compared)} algorithms"
        )
    else:
        parts.append(f"no algorithm of {name} was compared")
    if not_run:
        parts.append(
            f"{len(not_run)} not run ({_names(not_run)}; {short_reason(not_run[0].get('reason'))}): "
            "no verdict on them, so the run is not a pass"
        )
    yours = [e for e in compared if e["status"] in (YOUR_XFAIL, YOUR_XPASS)]
    if yours:
        parts.append(f"{len(yours)} in your expected failures ({_names(yours)})")
    if absent:
        parts.append(f"{len(absent)} skipped by your skips file ({_names(absent)})")
    return "; ".join(parts) + "."


def arithmetic_source(candidate) -> str:
    """How the judge knows the candidate's arithmetic, for the `arithmetic:` line: the
    module's ARITHMETIC or the program's describe said it, or (a module without the
    attribute) the judge assumed exact."""
    declared = getattr(candidate, "arithmetic_declared", None)
    if declared is None:
        return "declared, or assumed where no ARITHMETIC attribute is given"
    return "declared" if declared else "assumed: the module has no ARITHMETIC attribute"


__all__ = ["arithmetic_source", "check_verdict", "crosscheck_verdict", "finding_of", "short_reason"]
