"""The HTML report of `check --html PATH`, `crosscheck --html PATH` and the pytest plugin's
`--cral-html PATH`: one self-contained file (inline style sheet, no script, nothing
fetched) built from the JSON report (properties/reports/report.py, crosscheck_report.py).

What a person debugging an implementation wants first comes first: the verdict sentence
(properties/reports/verdict.py), then each failure expanded with its message, the values
and the term table that show the wrong term, its reproducer and the candidate's output;
then every check in one table (status, the paper's line or lemma, time). A cross-check adds
the per-algorithm agreement table, the divergence classes and, for each failing run, a
figure of its first differing quantity over the checkpoints or epochs
(properties/reports/html_figure.py). Every string the candidate controls is escaped
(properties/reports/html_parts.py)."""

from __future__ import annotations

import re
from pathlib import Path

from properties.checks.free_choices import DIVERGENCE_KINDS
from properties.reports.html_figure import figure
from properties.reports.html_parts import badge, esc, meta, output_block, page, pre, table, terms_table, values_table
from properties.reports.verdict import check_verdict, crosscheck_verdict, finding_of
from reference.command_line import UsageError
from reference.version import suite_text

SHOWN_MISMATCHES = 3  # of a failing run, in full (the rest: their messages, folded)
# what each class of legitimate divergence means (properties/checks/crosscheck.py)
DIVERGENCE_MEANINGS = {
    "coin": "a coin u_t between the candidate's q and the exact q (the candidate's q within tolerance)",
    "argmin_tie": "another minimiser of the same exact objective, within tolerance (a free choice)",
    "lp_non_unique": "another optimal D^ of line 9's LP (a free choice)",
    "output_member": "another member of the top layer as CALruption's output (a free choice)",
    "threshold_boundary": "a keep decision of line 10 at a near tie, following the candidate's own numbers",
    "layer_boundary": "a layer membership of line 12 at a near boundary, following the candidate's own Delta^",
}


_NAMED_VALUE = re.compile(r"^([A-Za-z_][\w]*) = (.*)$", re.S)


def split_values(text: str) -> tuple[str, dict | None]:
    """A violation as the check report writes it, "check: message (name = value, ...)"
    (properties/core/violation.Violation.__str__), split into its message and its values;
    (text, None) when its end is not such a list."""
    if not text.endswith(")"):
        return text, None
    depth = 0
    for start in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[start], 0)
        if depth == 0:
            break
    if depth != 0 or start == 0 or text[start - 1] != " ":
        return text, None
    pieces = re.split(r", (?=[A-Za-z_]\w* = )", text[start + 1 : -1])
    matches = [_NAMED_VALUE.match(piece) for piece in pieces]
    if not all(matches):
        return text, None
    return text[: start - 1], {m.group(1): m.group(2) for m in matches}


def _violation_parts(violation, check: str | None) -> tuple[str, object, object]:
    """(message, values, terms) of a violation: text, or a mapping carrying them."""
    if isinstance(violation, dict):
        return str(violation.get("message", "")), violation.get("values"), violation.get("terms")
    message, values = split_values(str(violation))
    if check and message.startswith(f"{check}: "):  # the check's name heads its block already
        message = message[len(check) + 2 :]
    return message, values, getattr(violation, "terms", None)


def _violations(violations, terms=None, check: str | None = None) -> str:
    parts = []
    for i, violation in enumerate(violations or ()):
        message, values, own_terms = _violation_parts(violation, check)
        parts.append(f'<p class="message">{esc(message)}</p>')
        parts.append(values_table(values))
        parts.append(terms_table(own_terms if own_terms is not None else (terms if i == 0 else None)))
    if not violations and terms:
        parts.append(terms_table(terms))
    return "".join(parts)


def _reproducer(entry: dict) -> str:
    parts = []
    if entry.get("counterexample"):
        unshrunk = f" ({esc(entry['unshrunk'])})" if entry.get("unshrunk") else ""
        parts.append(f"<h3>reproduce{unshrunk}</h3>{pre(entry['counterexample'])}")
    for path in entry.get("requests") or ():
        parts.append(f'<p class="muted">request file: <code>{esc(path)}</code></p>')
    if entry.get("replay_file"):
        parts.append(f"<h3>replay</h3>{pre('python -m properties replay ' + str(entry['replay_file']))}")
    return "".join(parts)


def _seconds(entry: dict) -> str:
    try:
        return f"{float(entry.get('seconds') or 0):.2f} s"
    except (TypeError, ValueError):
        return esc(entry.get("seconds"))


def _label(entry: dict) -> str | None:
    """An expected failure of ours is named for what it is: where the paper is wrong."""
    if entry["status"] != "expected failure":
        return None
    finding = finding_of(entry.get("reason"))
    return f"where the paper is wrong ({finding})" if finding else "where the paper is wrong"


def _check_details(entry: dict, kind: str) -> str:
    opened = " open" if kind == "failure" else ""
    heading = (
        f"{badge(entry['status'], _label(entry))} <b>{esc(entry['name'])}</b> "
        f'<span class="muted">{esc(entry.get("cites"))}</span>'
    )
    body = []
    if kind == "paper":
        body.append(f"<p>Shows where the paper is wrong: {esc(entry.get('reason'))}</p>")
        cause = entry.get("cause")
        if isinstance(cause, dict) and cause.get("explained"):
            events = ", ".join(f"{k}: {'yes' if v else 'no'}" for k, v in (cause.get("events") or {}).items())
            body.append(
                f'<p class="muted">explained by FINDINGS {esc(cause.get("finding"))} ({esc(cause.get("cause"))}): '
                f"{esc(events)}</p>"
            )
    elif entry.get("reason"):
        body.append(f'<p class="muted">{esc(entry["reason"])}</p>')
    if entry.get("short"):
        body.append(f'<p class="muted">on {esc(entry["short"])}</p>')
    body.append(_violations(entry.get("violations"), entry.get("terms"), entry["name"]))
    body.append(_reproducer(entry))
    body.append(output_block(entry.get("candidate_output")))
    return (
        f'<details class="{kind}"{opened}><summary>{heading}</summary><div class="body">{"".join(body)}</div></details>'
    )


def check_html(report: dict) -> str:
    """The page of a `check` report."""
    checks = report["checks"]
    verdict = report.get("verdict") or check_verdict(report)
    failing = [c for c in checks if c.get("failing")]
    paper = [c for c in checks if c["status"] == "expected failure"]
    candidate = report["candidate"]
    declared = candidate.get("arithmetic_declared")
    arithmetic = f"{candidate.get('arithmetic')} ({'declared' if declared else 'assumed' if declared is False else 'declared or assumed'})"
    version = report.get("code_version") or {}
    body = [
        f"<h1>Property suite: {esc(candidate['path'])}</h1>",
        f'<p class="verdict{" fail" if failing else ""}" id="verdict">{esc(verdict)}</p>',
        meta(
            [
                ("implementation", f"{candidate['path']} ({candidate.get('runs_in')})"),
                ("profile", report.get("profile")),
                ("seed", report.get("seed") if report.get("seed") is not None else "the profile's"),
                ("arithmetic", arithmetic),
                ("time", f"{report.get('seconds')} s"),
                ("suite", suite_text(version)),
            ]
        ),
    ]
    if failing:
        body.append(f"<h2>Failures ({len(failing)})</h2>")
        body += [_check_details(c, "failure") for c in failing]
    rows, marks = [], []
    for c in checks:
        why = c.get("reason") if c["status"] in ("not applicable", "skipped (yours)") else None
        rows.append(
            [
                badge(c["status"], _label(c)),
                esc(c["name"]) + (f'<div class="muted">{esc(why)}</div>' if why else ""),
                esc(c.get("cites")),
                esc(c.get("examples")),
                _seconds(c),
            ]
        )
        marks.append("failing" if c.get("failing") else "")
    body.append(f"<h2>Every check ({len(checks)})</h2>")
    body.append(
        table(("status", "check", "the paper's line", "examples", "time"), rows, ("", "name", "", "num", "num"), marks)
    )
    if paper:
        body.append(f"<h2>Where the paper is wrong ({len(paper)})</h2>")
        body.append(
            '<p class="muted">Checks of the paper\'s statements as printed that fail on the reference too: '
            "findings recorded in FINDINGS.md, not failures of the implementation.</p>"
        )
        body += [_check_details(c, "paper") for c in paper]
    return page(f"cral check: {candidate['path']}", "\n".join(body))


def _agreement(report: dict) -> str:
    rows, marks = [], []
    for e in report["checks"]:
        runs = e["cases"] - e["not_run"]
        rows.append(
            [
                badge(e["status"]),
                esc(e["algorithm"]),
                f"{esc(e['agreed'])} / {esc(runs)}",
                esc(e["not_run"]),
                *(esc(e["divergences"].get(k, 0)) for k in DIVERGENCE_KINDS),
                _seconds(e),
            ]
        )
        marks.append("failing" if e.get("failing") else "")
    headers = ("status", "algorithm", "agreed", "not run", *(k.replace("_", " ") for k in DIVERGENCE_KINDS), "time")
    classes = ("", "name", "num", "num", *("num" for _ in DIVERGENCE_KINDS), "num")
    return table(headers, rows, classes, marks)


def _divergence_classes(report: dict) -> str:
    totals = {k: sum(e["divergences"].get(k, 0) for e in report["checks"]) for k in DIVERGENCE_KINDS}
    rows = [[f"<code>{esc(k)}</code>", esc(totals[k]), esc(DIVERGENCE_MEANINGS.get(k, ""))] for k in DIVERGENCE_KINDS]
    return table(("class", "count", "what it is"), rows, ("", "num", ""))


def _failing_run(algorithm: str, run: dict, opened: bool) -> str:
    mismatches = run.get("mismatches") or []
    first = mismatches[0]["message"] if mismatches and isinstance(mismatches[0], dict) else ""
    heading = (
        f"{badge('failed')} <b>{esc(algorithm)}, case {esc(run.get('case'))}</b>: "
        f"{esc(len(mismatches))} mismatch{'es' if len(mismatches) != 1 else ''}"
        f' <span class="muted">{esc(first[:140])}</span>'
    )
    shown, rest = mismatches[:SHOWN_MISMATCHES], mismatches[SHOWN_MISMATCHES:]
    body = [figure(run.get("series")), _violations(shown)]
    if rest:
        messages = "\n".join(m.get("message", "") if isinstance(m, dict) else str(m) for m in rest)
        body.append(
            f"<details><summary>{len(rest)} more mismatch{'es' if len(rest) != 1 else ''} of this run</summary>"
            f'<div class="body">{pre(messages)}</div></details>'
        )
    if run.get("reproduce"):
        body.append(f"<h3>reproduce</h3>{pre(run['reproduce'])}")
    if run.get("replay_file"):
        body.append(f"<h3>replay</h3>{pre('python -m properties replay ' + str(run['replay_file']))}")
    return (
        f'<details class="failure"{" open" if opened else ""}><summary>{heading}</summary>'
        f'<div class="body">{"".join(body)}</div></details>'
    )


def crosscheck_html(report: dict) -> str:
    """The page of a `crosscheck` report."""
    verdict = report.get("verdict") or crosscheck_verdict(report)
    failing = [e for e in report["checks"] if e.get("failing")]
    version = report.get("code_version") or {}
    body = [
        f"<h1>Cross-check: {esc(report['candidate'])} against the reference</h1>",
        f'<p class="verdict{" fail" if failing else ""}" id="verdict">{esc(verdict)}</p>',
        meta(
            [
                ("candidate", f"{report['candidate']} ({report.get('runs_in')})"),
                ("arithmetic", report.get("arithmetic")),
                (
                    "cases",
                    f"{report.get('cases')} fixed cases, seed {report.get('seed')}"
                    + (" (large)" if report.get("large") else ""),
                ),
                ("time", f"{report.get('seconds')} s"),
                ("suite", suite_text(version)),
            ]
        ),
    ]
    body.append("<h2>Agreement per algorithm</h2>")
    body.append(_agreement(report))
    runs = [(e["algorithm"], run) for e in report["checks"] for run in e.get("failing_runs") or ()]
    if runs:
        body.append(f"<h2>Failing runs ({len(runs)})</h2>")
        body += [_failing_run(algorithm, run, i == 0) for i, (algorithm, run) in enumerate(runs)]
    body.append("<h2>Divergence classes</h2>")
    body.append(
        '<p class="muted">Legitimate divergences: counted, not failed; each is granted only where the '
        "exact values show the ambiguity.</p>"
    )
    body.append(_divergence_classes(report))
    worst = report.get("worst_error_over_tolerance") or {}
    if worst:
        body.append("<h2>Largest error / tolerance</h2>")
        body.append(
            table(("quantity", "ratio"), [[esc(k), esc(f"{v:.3g}")] for k, v in worst.items()], ("name", "num"))
        )
    body.append(output_block(report.get("candidate_output")))
    return page(f"cral crosscheck: {report['candidate']}", "\n".join(body))


def report_html(report: dict) -> str:
    """The page of either kind of report."""
    return crosscheck_html(report) if report.get("format") == "cral-crosscheck-report" else check_html(report)


def write_html(report: dict, path: str, option: str = "--html") -> None:
    """`option` PATH (checked before the run by reference/command_line.py's output_file)."""
    try:
        Path(path).write_text(report_html(report), encoding="utf-8")
    except OSError as error:
        raise UsageError(f"{option} {path}: {error.strerror}") from None


__all__ = ["check_html", "crosscheck_html", "report_html", "write_html"]
