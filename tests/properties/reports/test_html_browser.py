"""The HTML report in a real browser: headless Chromium (Debian's `chromium`, driven
directly, no driver library) loads a report of a failing candidate, and the page it
renders shows the verdict, the failing check's name and the wrong term's value; its
screenshot is decoded (PNG, with zlib) and is not one colour.

Under CI ($CI set) the browser must be there (.ci/run installs it): the test fails
rather than skips. Elsewhere it skips when no browser is found."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from html import unescape

import pytest

from properties.core.profiles import under_ci
from properties.reports.html_report import report_html
from tests.support.report_samples import FAILING, TERM_VALUE, check_sample, crosscheck_sample

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
WINDOW = (1280, 900)  # a laptop screen
TOP = 160  # rows of the screenshot decoded (pure Python: a second per 150 rows): the heading and the verdict


def browser() -> str:
    found = next((path for path in map(shutil.which, BROWSERS) if path), None)
    if found is None:
        message = f"no headless browser found (looked for {', '.join(BROWSERS)})"
        if under_ci():
            pytest.fail(f"{message}: under CI the browser test must run (.ci/run installs chromium)")
        pytest.skip(message)
    return found


def render(page_path, png_path, tmp_path) -> str:
    """Chromium's DOM of the loaded page (its text as rendered), and its screenshot written."""
    command = [
        browser(),
        "--headless",
        "--no-sandbox",  # CI runs as root, where Chromium's sandbox refuses to start
        "--disable-gpu",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'profile'}",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
        f"--screenshot={png_path}",
        "--dump-dom",
        page_path.as_uri(),
    ]
    found = subprocess.run(
        command, capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(tmp_path)}
    )
    assert found.returncode == 0, found.stderr[-2000:]
    return found.stdout


def png_pixels(data: bytes, rows: int | None = None) -> tuple[int, int, list[bytes]]:
    """(width, height, pixels) of an 8-bit RGB or RGBA PNG, filters undone: the pixels of its
    first `rows` rows (a row's filter reads only the rows above it), all by default."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, chunks, header = 8, [], None
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    size = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * size
    decoded, previous = [], bytearray(stride)
    for y in range(height if rows is None else min(rows, height)):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        if kind == 2:  # the common filter, at once
            line = bytearray((a + b) & 0xFF for a, b in zip(line, previous))
        for i in range(stride if kind in (1, 3, 4) else 0):
            left = line[i - size] if i >= size else 0
            up, corner = previous[i], previous[i - size] if i >= size else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        decoded.append(bytes(line))
        previous = line
    return width, height, [r[i : i + 3] for r in decoded for i in range(0, stride, size)]


def test_png_pixels_reads_what_zlib_wrote():
    """The decoder itself, on a 2 x 2 RGB image with one red pixel, filters 0 and 1."""
    rows = [b"\x00" + bytes([255, 0, 0, 255, 255, 255]), b"\x01" + bytes([255, 255, 255, 0, 0, 0])]
    ihdr = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"".join(rows)))
        + chunk(b"IEND", b"")
    )
    assert png_pixels(png) == (2, 2, [b"\xff\x00\x00", b"\xff\xff\xff", b"\xff\xff\xff", b"\xff\xff\xff"])


@pytest.mark.parametrize("build", [check_sample, crosscheck_sample], ids=["check", "crosscheck"])
def test_the_report_renders_in_chromium_with_its_verdict_failure_and_terms(tmp_path, build):
    report = build()
    page, png = tmp_path / "report.html", tmp_path / "report.png"
    page.write_text(report_html(report), encoding="utf-8")
    text = " ".join(unescape(render(page, png, tmp_path)).split())
    assert report["verdict"] in text
    assert (FAILING if build is check_sample else "robust_cal, case 0") in text
    assert TERM_VALUE in text  # the wrong term's value, in the expanded failure's term table
    width, height, pixels = png_pixels(png.read_bytes(), rows=TOP)
    assert (width, height) == WINDOW
    colours = set(pixels)  # of the top of the page, where the heading and the verdict are
    assert len(colours) > 16, f"the screenshot is blank: {len(colours)} colours"
    # the verdict's box of a failing run is tinted red (#ffebe9): it was drawn, not only laid out
    assert b"\xff\xeb\xe9" in colours


def test_under_ci_a_missing_browser_fails_rather_than_skips(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="under CI the browser test must run"):
        browser()
    monkeypatch.setenv("CI", "false")
    with pytest.raises(pytest.skip.Exception):
        browser()
