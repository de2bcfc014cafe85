"""The pieces of the HTML reports (properties/reports/html_report.py): escaping, the page
with its inline style sheet, tables, a failure's term table and its values.

Plain Python strings, not a template engine: every piece of text enters the page through
`esc` (html.escape, quotes included), so what the candidate controls -- a check message,
a value, its output, its name -- is text, never markup (tests/properties/reports/test_html_report.py fills
every string of a report with markup and finds none of it in the page). One file, no
network: the style sheet is inline, the fonts are the system's, there is no script."""

from __future__ import annotations

import html
import re
from fractions import Fraction

CSS = """
:root { --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --pass: #1a7f37; --fail: #cf222e;
  --paper: #8250df; --na: #6e7781; --bg: #ffffff; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 78rem; padding: 1.25rem 1.5rem 3rem; color: var(--ink); background: var(--bg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 1.35rem; margin: 0 0 .5rem; }
h2 { font-size: 1.1rem; margin: 1.75rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
h3 { font-size: 1rem; margin: 1rem 0 .35rem; }
.verdict { font-size: 1.1rem; padding: .75rem 1rem; border-radius: 6px; border-left: 6px solid var(--pass);
  background: #dafbe1; margin: .5rem 0 1rem; }
.verdict.fail { border-left-color: var(--fail); background: #ffebe9; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0; color: var(--muted);
  font-size: .9rem; }
dl.meta dt { font-weight: 600; } dl.meta dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; font-size: .88rem; margin: .35rem 0 .75rem; }
th, td { border-bottom: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
.scroll { overflow-x: auto; }
td.name { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .82rem;
  white-space: nowrap; }
td.name .muted { font-family: system-ui, sans-serif; white-space: normal; }
.status { display: inline-block; padding: .05rem .45rem; border-radius: 1rem; font-size: .78rem; font-weight: 600;
  white-space: nowrap; color: #fff; background: var(--na); }
.status.passed { background: var(--pass); } .status.failed, .status.not-run { background: var(--fail); }
.status.paper { background: var(--paper); } .status.yours { background: #9a6700; }
tr.failing td { background: #fff5f5; }
details { border: 1px solid var(--line); border-radius: 6px; margin: .5rem 0; background: var(--bg); }
details > summary { cursor: pointer; padding: .45rem .75rem; background: var(--soft); border-radius: 6px; }
details[open] > summary { border-bottom: 1px solid var(--line); border-radius: 6px 6px 0 0; }
details > .body { padding: .5rem .9rem .75rem; }
details.failure > summary { border-left: 5px solid var(--fail); }
details.paper > summary { border-left: 5px solid var(--paper); }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: .5rem .65rem; margin: .35rem 0;
  font: .8rem/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap;
  overflow-wrap: anywhere; max-height: 24rem; overflow: auto; }
.message { overflow-wrap: anywhere; border-left: 3px solid var(--fail); padding: .1rem 0 .1rem .6rem; margin: .5rem 0; }
table.terms td { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .8rem;
  overflow-wrap: anywhere; }
table.terms tr.differs td { background: #fff1c2; font-weight: 600; }
.muted { color: var(--muted); }
figure { margin: .5rem 0; } figcaption { color: var(--muted); font-size: .85rem; }
svg { max-width: 100%; height: auto; }
@media print {
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  .verdict, .verdict.fail, tr.failing td, table.terms tr.differs td { background: none; }
  details { border: none; }
  details::details-content { content-visibility: visible; display: block; }
  details > summary { background: none; list-style: none; font-weight: 600; }
  pre { max-height: none; overflow: visible; }
  tr, details, figure { break-inside: avoid; }
  .status { color: var(--ink); background: none; border: 1px solid var(--ink); }
}
"""


def esc(value) -> str:
    """Any value as HTML text (None: empty)."""
    return "" if value is None else html.escape(str(value), quote=True)


def page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        # nothing may be fetched: no network, whatever the page holds
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        'img-src data:">\n'
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def status_class(status: str) -> str:
    """The badge colour of a status."""
    if status == "passed":
        return "passed"
    if status == "failed":
        return "failed"
    if status == "not run":
        return "not-run"
    if status == "expected failure":
        return "paper"
    if "(yours)" in status:
        return "yours"
    return "other"


def badge(status: str, label: str | None = None) -> str:
    return f'<span class="status {status_class(status)}">{esc(label or status)}</span>'


def table(headers, rows, classes=(), row_classes=None, css: str = "") -> str:
    """`rows`: lists of cells already escaped (HTML); `classes`: a class per column;
    `row_classes`: a class per row; `css`: the table's own class."""
    classes = list(classes) + [""] * (len(headers) - len(classes))
    head = "".join(f'<th class="{c}">{esc(h)}</th>' for h, c in zip(headers, classes))
    body = []
    for i, row in enumerate(rows):
        cls = f' class="{row_classes[i]}"' if row_classes and row_classes[i] else ""
        body.append(f"<tr{cls}>" + "".join(f'<td class="{c}">{cell}</td>' for cell, c in zip(row, classes)) + "</tr>")
    own = f' class="{css}"' if css else ""
    # a narrow window scrolls the table, not the page
    return f'<div class="scroll"><table{own}><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def meta(pairs) -> str:
    return (
        '<dl class="meta">'
        + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in pairs if v is not None)
        + "</dl>"
    )


def pre(text) -> str:
    return f"<pre>{esc(text)}</pre>"


_TERM_COLUMNS = ("term", "candidate", "exact", "difference")
_NO_DIFFERENCE = {"", "0", "0/1", "0.0", "-0.0", "+0", "0e0"}


def _differs(row: dict) -> bool:
    difference = row.get("difference")
    if difference is None:
        return str(row.get("candidate")) != str(row.get("exact"))
    text = str(difference).strip()
    head = text.split()[0] if text else ""
    return head not in _NO_DIFFERENCE and text.split(" (")[0] not in _NO_DIFFERENCE


def terms_table(terms) -> str:
    """A failure's term table (a list of {term, candidate, exact, difference}); rows whose
    difference is not zero stand out. Anything else it holds is shown as text."""
    if not terms:
        return ""
    if isinstance(terms, list) and terms and all(isinstance(t, list) for t in terms):  # one table per violation
        return "".join(terms_table(t) for t in terms)
    if not isinstance(terms, list) or not all(isinstance(row, dict) for row in terms):
        return pre(terms)
    extra = [k for row in terms for k in row if k not in _TERM_COLUMNS]
    columns = list(_TERM_COLUMNS) + list(dict.fromkeys(extra))
    rows = [[esc(row.get(c, "")) for c in columns] for row in terms]
    marks = ["differs" if _differs(row) else "" for row in terms]
    return table(columns, rows, row_classes=marks, css="terms")


_RATIONAL = re.compile(r"Fraction\((-?\d+), (\d+)\)|(?<![\w.])(-?\d+)/(\d+)(?![\w.])")
DIGITS = 10  # significant digits of a decimal beside an exact rational
MAX_DECIMALS = 4  # rationals of one value given as decimals


def decimals(text) -> str:
    """The rationals written in a value ("a/b", "Fraction(a, b)"; an enclosure's two ends)
    as decimals of DIGITS significant digits, or "" when it holds none (or too many)."""
    found = []
    for match in _RATIONAL.finditer(str(text)):
        numerator, denominator = match.group(1, 2) if match.group(1) else match.group(3, 4)
        if int(denominator) == 0:
            return ""
        found.append(Fraction(int(numerator), int(denominator)))
        if len(found) > MAX_DECIMALS:
            return ""
    out = []
    for value in found:
        try:
            out.append(f"{float(value):.{DIGITS}g}")
        except OverflowError:
            out.append("(beyond float range)")
    return ", ".join(out)


def values_table(values) -> str:
    """A violation's values ({name: text}), each exact rational beside its decimal."""
    if not values:
        return ""
    if not isinstance(values, dict):
        return pre(values)
    rows = [
        [f'<span class="name">{esc(k)}</span>', f"<code>{esc(decimals(v))}</code>", f"<code>{esc(v)}</code>"]
        for k, v in values.items()
    ]
    return table(("value", "decimal", "exactly as reported"), rows, classes=("name", "num", ""))


def output_block(output) -> str:
    """What the candidate wrote to stdout and stderr during a check."""
    if not isinstance(output, dict):
        return ""
    parts = []
    for stream in ("stdout", "stderr"):
        total = output.get(f"{stream}_bytes", 0)
        if total:
            parts.append(f"<h3>candidate {esc(stream)}, {esc(total)} bytes</h3>{pre(output.get(stream, ''))}")
    return "".join(parts)


__all__ = ["CSS", "badge", "esc", "meta", "output_block", "page", "pre", "status_class", "table", "terms_table"]
