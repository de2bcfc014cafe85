"""The HTML report's figure: a failing cross-check run's first differing quantity over its
checkpoints or epochs, candidate against exact (properties/reports/first_difference.py),
drawn as inline SVG (no plotting library, nothing fetched)."""

from __future__ import annotations

import math

from properties.reports.html_parts import esc

WIDTH, HEIGHT = 720, 270
LEFT, RIGHT, TOP, BOTTOM = 84, 16, 34, 44
CANDIDATE, EXACT, MARK = "#cf222e", "#0969da", "#9a6700"


def _number(x: float) -> str:
    return f"{x:.6g}"


def _scale(lo: float, hi: float, a: float, b: float):
    if hi == lo:  # one value: centre it
        lo, hi = lo - 1, hi + 1
    return lambda v: a + (v - lo) * (b - a) / (hi - lo)


def logarithmic(values) -> bool:
    """A log scale where the values are positive and span more than two decades (a
    threshold or a radius falling like 1/t over the checkpoints)."""
    return min(values) > 0 and max(values) / min(values) > 100


def series_svg(series: dict) -> str:
    """The figure of one series ({quantity, axis, points: [{x, candidate, exact}]}): the
    checkpoints or epochs evenly spaced (checkpoints double), the values on a log scale
    where they span decades; the first point where the two differ is marked."""
    points = sorted(series["points"], key=lambda p: p["x"])
    ys = [v for p in points for v in (p["candidate"], p["exact"])]
    log = logarithmic(ys)
    shown = (lambda v: math.log10(v)) if log else (lambda v: v)
    lo, hi = min(map(shown, ys)), max(map(shown, ys))
    pad = (hi - lo) * 0.08 or abs(hi) * 0.08 or 1.0
    sx = _scale(0, max(len(points) - 1, 1), LEFT + 8, WIDTH - RIGHT - 8)
    sy = _scale(lo - pad, hi + pad, HEIGHT - BOTTOM, TOP)

    def at(i: int, p: dict, key: str) -> tuple[float, float]:
        return sx(i), sy(shown(p[key]))

    def line(key: str, colour: str, dash: str = "") -> str:
        xy = [at(i, p, key) for i, p in enumerate(points)]
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
        dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>' for x, y in xy)
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
    decades = list(range(math.ceil(lo), math.floor(hi) + 1)) if log else []
    ticks = decades if 2 <= len(decades) <= 8 else ((lo, (lo + hi) / 2, hi) if hi != lo else (lo,))
    for value in ticks:
        y = sy(value)
        label = _number(10**value if log else value)
        parts.append(f'<line x1="{LEFT - 4}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#eaeef2"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" {font}>{esc(label)}</text>')
    step = max(1, math.ceil(len(points) / 12))
    for i in sorted({*range(0, len(points), step), len(points) - 1}):
        parts.append(
            f'<text x="{sx(i):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" {font}>'
            f"{esc(_number(points[i]['x']))}</text>"
        )
    axis = f"{series['axis']}" + ("  (values on a log scale)" if log else "")
    parts.append(
        f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.1f}" y="{HEIGHT - 8}" text-anchor="middle" {font}>{esc(axis)}</text>'
    )
    mismatch = series.get("at")
    first = next((i for i, p in enumerate(points) if p["x"] == mismatch), None)
    if first is None:  # no mismatch named: the first point where the two differ
        first = next((i for i, p in enumerate(points) if p["candidate"] != p["exact"]), None)
    if first is not None:
        x = sx(first)
        parts.append(
            f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{HEIGHT - BOTTOM}" stroke="{MARK}" '
            'stroke-dasharray="3 3"/>'
        )
        parts.append(
            f'<text x="{min(x + 4, WIDTH - RIGHT - 330):.1f}" y="{TOP - 10}" font-family="system-ui, sans-serif" '
            f'font-size="11" fill="{MARK}">first mismatch: {esc(series["axis"])} '
            f"{esc(_number(points[first]['x']))}</text>"
        )
    parts.append(line("exact", EXACT, "6 4"))
    parts.append(line("candidate", CANDIDATE))
    lx, ly = WIDTH - RIGHT - 150, TOP - 14
    parts.append(
        f'<line x1="{lx}" y1="{ly}" x2="{lx + 22}" y2="{ly}" stroke="{CANDIDATE}" stroke-width="2"/>'
        f'<text x="{lx + 26}" y="{ly + 4}" {font}>candidate</text>'
        f'<line x1="{lx + 86}" y1="{ly}" x2="{lx + 108}" y2="{ly}" stroke="{EXACT}" stroke-width="2" '
        f'stroke-dasharray="6 4"/><text x="{lx + 112}" y="{ly + 4}" {font}>exact</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _well_formed(series) -> bool:
    if not isinstance(series, dict) or not isinstance(series.get("points"), list) or not series["points"]:
        return False
    return all(
        isinstance(p, dict)
        and all(isinstance(p.get(k), (int, float)) and math.isfinite(p[k]) for k in ("x", "candidate", "exact"))
        for p in series["points"]
    )


def figure(series) -> str:
    """The figure with its caption, or nothing for a run without a numeric series."""
    if not _well_formed(series):
        return ""
    caption = (
        f"{esc(series['quantity'])} at every {esc(series['axis'])}: the candidate's (solid) against the exact "
        "computation from the candidate's own state (dashed)"
    )
    return f"<figure>{series_svg(series)}<figcaption>{caption}</figcaption></figure>"


__all__ = ["figure", "series_svg"]
