"""The HTML report's figure: a failing cross-check run's first differing quantity over its
checkpoints or epochs, candidate against exact (properties/reports/first_difference.py),
drawn as inline SVG (no plotting library, nothing fetched)."""

from __future__ import annotations

from properties.reports.html_parts import esc

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 84, 16, 28, 44
CANDIDATE, EXACT, MARK = "#cf222e", "#0969da", "#9a6700"


def _number(x: float) -> str:
    return f"{x:.6g}"


def _scale(lo: float, hi: float, a: float, b: float):
    if hi == lo:  # one value: centre it
        lo, hi = lo - 1, hi + 1
    return lambda v: a + (v - lo) * (b - a) / (hi - lo)


def series_svg(series: dict) -> str:
    """The figure of one series ({quantity, axis, points: [{x, candidate, exact}]}); the
    first point where the two differ is marked."""
    points = sorted(series["points"], key=lambda p: p["x"])
    xs = [p["x"] for p in points]
    ys = [v for p in points for v in (p["candidate"], p["exact"])]
    lo, hi = min(ys), max(ys)
    pad = (hi - lo) * 0.08 or abs(hi) * 0.08 or 1.0
    sx = _scale(min(xs), max(xs), LEFT, WIDTH - RIGHT)
    sy = _scale(lo - pad, hi + pad, HEIGHT - BOTTOM, TOP)

    def line(key: str, colour: str, dash: str = "") -> str:
        coords = " ".join(f"{sx(p['x']):.1f},{sy(p[key]):.1f}" for p in points)
        dots = "".join(f'<circle cx="{sx(p["x"]):.1f}" cy="{sy(p[key]):.1f}" r="3" fill="{colour}"/>' for p in points)
        style = f' stroke-dasharray="{dash}"' if dash else ""
        return f'<polyline fill="none" stroke="{colour}" stroke-width="2"{style} points="{coords}"/>{dots}'

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'role="img" aria-label="{esc(series["quantity"])}: candidate against exact">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" stroke="#57606a"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="#57606a"/>',
    ]
    font = 'font-family="system-ui, sans-serif" font-size="11" fill="#57606a"'
    for value in (lo, (lo + hi) / 2, hi) if hi != lo else (lo,):
        y = sy(value)
        parts.append(f'<line x1="{LEFT - 4}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#eaeef2"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" {font}>{esc(_number(value))}</text>')
    for x in dict.fromkeys((xs[0], xs[len(xs) // 2], xs[-1])):
        parts.append(
            f'<text x="{sx(x):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" {font}>{esc(_number(x))}</text>'
        )
    parts.append(
        f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.1f}" y="{HEIGHT - 8}" text-anchor="middle" {font}>'
        f"{esc(series['axis'])}</text>"
    )
    first = next((p for p in points if p["candidate"] != p["exact"]), None)
    if first is not None:
        x = sx(first["x"])
        parts.append(
            f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{HEIGHT - BOTTOM}" stroke="{MARK}" '
            'stroke-dasharray="3 3"/>'
        )
        parts.append(
            f'<text x="{min(x + 4, WIDTH - RIGHT - 90):.1f}" y="{TOP - 8}" font-family="system-ui, sans-serif" '
            f'font-size="11" fill="{MARK}">first difference: {esc(series["axis"])} {esc(_number(first["x"]))}</text>'
        )
    parts.append(line("exact", EXACT, "6 4"))
    parts.append(line("candidate", CANDIDATE))
    legend_y = TOP - 8
    parts.append(
        f'<line x1="{LEFT}" y1="{legend_y - 4}" x2="{LEFT + 22}" y2="{legend_y - 4}" stroke="{CANDIDATE}" '
        f'stroke-width="2"/><text x="{LEFT + 26}" y="{legend_y}" {font}>candidate</text>'
        f'<line x1="{LEFT + 96}" y1="{legend_y - 4}" x2="{LEFT + 118}" y2="{legend_y - 4}" stroke="{EXACT}" '
        f'stroke-width="2" stroke-dasharray="6 4"/><text x="{LEFT + 122}" y="{legend_y}" {font}>exact</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def figure(series) -> str:
    """The figure with its caption, or nothing for a run without a numeric series."""
    if not isinstance(series, dict) or not series.get("points"):
        return ""
    caption = (
        f"{esc(series['quantity'])} at every {esc(series['axis'])}: the candidate's (solid) against the exact "
        "computation from the candidate's own state (dashed)"
    )
    return f"<figure>{series_svg(series)}<figcaption>{caption}</figcaption></figure>"


__all__ = ["figure", "series_svg"]
