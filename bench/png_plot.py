"""Log-log line charts written as PNG with numpy and the standard library only.

The bench figures must not add a dependency (matplotlib is not one of the project's), so
this module rasterises what they need and nothing more: side-by-side panels sharing
log-scaled axes, polylines with min..max bars, a marker per point (a filled square, or
a cross for a flagged point), a legend, and text in a built-in 5x7 bitmap font drawn at
twice its size. `render` returns an RGB array; `encode_png` turns it into PNG bytes.
"""
from __future__ import annotations

import math
import struct
import zlib
from dataclasses import dataclass
from typing import Sequence

import numpy as np

# 5 columns x 7 rows above the baseline, 2 more rows for descenders (g, j, p, q, y, ",").
_GLYPHS = {
    " ": "", "0": ".###. #...# #..## #.#.# ##..# #...# .###.", "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
    "2": ".###. #...# ....# ...#. ..#.. .#... #####", "3": "##### ...#. ..#.. ...#. ....# #...# .###.",
    "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.", "5": "##### #.... ####. ....# ....# #...# .###.",
    "6": "..##. .#... #.... ####. #...# #...# .###.", "7": "##### ....# ...#. ..#.. .#... .#... .#...",
    "8": ".###. #...# #...# .###. #...# #...# .###.", "9": ".###. #...# #...# .#### ....# ...#. .##..",
    "A": ".###. #...# #...# ##### #...# #...# #...#", "B": "####. #...# #...# ####. #...# #...# ####.",
    "C": ".###. #...# #.... #.... #.... #...# .###.", "D": "###.. #..#. #...# #...# #...# #..#. ###..",
    "E": "##### #.... #.... ####. #.... #.... #####", "F": "##### #.... #.... ####. #.... #.... #....",
    "G": ".###. #...# #.... #.### #...# #...# .####", "H": "#...# #...# #...# ##### #...# #...# #...#",
    "I": ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.", "J": "..### ...#. ...#. ...#. ...#. #..#. .##..",
    "K": "#...# #..#. #.#.. ##... #.#.. #..#. #...#", "L": "#.... #.... #.... #.... #.... #.... #####",
    "M": "#...# ##.## #.#.# #.#.# #...# #...# #...#", "N": "#...# #...# ##..# #.#.# #..## #...# #...#",
    "O": ".###. #...# #...# #...# #...# #...# .###.", "P": "####. #...# #...# ####. #.... #.... #....",
    "Q": ".###. #...# #...# #...# #.#.# #..#. .##.#", "R": "####. #...# #...# ####. #.#.. #..#. #...#",
    "S": ".#### #.... #.... .###. ....# ....# ####.", "T": "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "U": "#...# #...# #...# #...# #...# #...# .###.", "V": "#...# #...# #...# #...# #...# .#.#. ..#..",
    "W": "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.", "X": "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
    "Y": "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..", "Z": "##### ....# ...#. ..#.. .#... #.... #####",
    "a": "..... ..... .###. ....# .#### #...# .####", "b": "#.... #.... #.##. ##..# #...# #...# ####.",
    "c": "..... ..... .###. #.... #.... #...# .###.", "d": "....# ....# .##.# #..## #...# #...# .####",
    "e": "..... ..... .###. #...# ##### #.... .###.", "f": "..##. .#..# .#... ###.. .#... .#... .#...",
    "g": "..... ..... .#### #...# #...# #...# .#### ....# .###.", "h": "#.... #.... #.##. ##..# #...# #...# #...#",
    "i": "..#.. ..... .##.. ..#.. ..#.. ..#.. .###.", "j": "...#. ..... ..##. ...#. ...#. ...#. ...#. #..#. .##..",
    "k": "#.... #.... #..#. #.#.. ##... #.#.. #..#.", "l": ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
    "m": "..... ..... ##.#. #.#.# #.#.# #.#.# #.#.#", "n": "..... ..... #.##. ##..# #...# #...# #...#",
    "o": "..... ..... .###. #...# #...# #...# .###.", "p": "..... ..... ####. #...# #...# #...# ####. #.... #....",
    "q": "..... ..... .#### #...# #...# #...# .#### ....# ....#", "r": "..... ..... #.##. ##..# #.... #.... #....",
    "s": "..... ..... .###. #.... .###. ....# ####.", "t": ".#... .#... ###.. .#... .#... .#..# ..##.",
    "u": "..... ..... #...# #...# #...# #..## .##.#", "v": "..... ..... #...# #...# #...# .#.#. ..#..",
    "w": "..... ..... #...# #...# #.#.# #.#.# .#.#.", "x": "..... ..... #...# .#.#. ..#.. .#.#. #...#",
    "y": "..... ..... #...# #...# #...# #...# .#### ....# .###.", "z": "..... ..... ##### ...#. ..#.. .#... #####",
    ".": "..... ..... ..... ..... ..... .##.. .##..", ",": "..... ..... ..... ..... ..... .##.. .##.. ..#.. .#...",
    ":": "..... .##.. .##.. ..... .##.. .##.. .....", "=": "..... ..... ##### ..... ##### ..... .....",
    "(": "...#. ..#.. .#... .#... .#... ..#.. ...#.", ")": ".#... ..#.. ...#. ...#. ...#. ..#.. .#...",
    "/": "..... ....# ...#. ..#.. .#... #.... .....", "-": "..... ..... ..... ##### ..... ..... .....",
    "+": "..... ..#.. ..#.. ##### ..#.. ..#.. .....", "*": "..... ..#.. #.#.# .###. #.#.# ..#.. .....",
    "|": "..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#..", "!": "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..",
    "<": "...#. ..#.. .#... #.... .#... ..#.. ...#.", ">": ".#... ..#.. ...#. ....# ...#. ..#.. .#...",
    "_": "..... ..... ..... ..... ..... ..... #####", "%": "##... ##..# ...#. ..#.. .#... #..## ...##",
    "'": "..#.. ..#.. ..... ..... ..... ..... .....", "^": "..#.. .#.#. #...# ..... ..... ..... .....",
}
_ROWS, _COLS, _SCALE = 9, 5, 2
CHAR_WIDTH = (_COLS + 1) * _SCALE
TEXT_HEIGHT = _ROWS * _SCALE


def _glyph(char: str) -> np.ndarray:
    if char not in _GLYPHS:
        raise ValueError(f"the built-in font has no glyph for {char!r}")
    rows = [[c == "#" for c in row] for row in _GLYPHS[char].split()]
    rows += [[False] * _COLS] * (_ROWS - len(rows))
    return np.array(rows, dtype=bool)


def text_mask(text: str) -> np.ndarray:
    """The pixels of `text` at the drawing scale, one column of space after each glyph."""
    mask = np.zeros((_ROWS, (_COLS + 1) * len(text)), dtype=bool)
    for i, char in enumerate(text):
        mask[:, (_COLS + 1) * i:(_COLS + 1) * i + _COLS] = _glyph(char)
    return np.kron(mask, np.ones((_SCALE, _SCALE), dtype=bool))


def text_width(text: str) -> int:
    return CHAR_WIDTH * len(text) - _SCALE


def _paste(image: np.ndarray, mask: np.ndarray, x: int, y: int, color) -> None:
    h, w = mask.shape
    y0, x0 = max(y, 0), max(x, 0)
    y1, x1 = min(y + h, image.shape[0]), min(x + w, image.shape[1])
    if y0 < y1 and x0 < x1:
        image[y0:y1, x0:x1][mask[y0 - y:y1 - y, x0 - x:x1 - x]] = color


def draw_text(image, text: str, x: int, y: int, color=(0, 0, 0), align: str = "left", vertical: bool = False) -> None:
    """Text with its top-left corner at (x, y); align shifts it along its own direction
    ("center", "right"). vertical: rotated a quarter turn, reading bottom to top."""
    mask = text_mask(text)
    if vertical:
        mask = np.rot90(mask)
        shift = {"left": 0, "center": mask.shape[0] // 2, "right": mask.shape[0]}[align]
        _paste(image, mask, x, y - mask.shape[0] + shift, color)
    else:
        shift = {"left": 0, "center": mask.shape[1] // 2, "right": mask.shape[1]}[align]
        _paste(image, mask, x - shift, y, color)


def draw_line(image, x0, y0, x1, y1, color, width: int = 1, clip=None) -> None:
    """A straight segment stamped with a width x width square every half pixel, clipped to
    clip = (left, top, right, bottom) inclusive (the whole image by default)."""
    left, top, right, bottom = clip or (0, 0, image.shape[1] - 1, image.shape[0] - 1)
    steps = int(2 * max(abs(x1 - x0), abs(y1 - y0))) + 1
    t = np.linspace(0.0, 1.0, steps + 1)
    xs = np.rint(x0 + (x1 - x0) * t).astype(int)
    ys = np.rint(y0 + (y1 - y0) * t).astype(int)
    for dx in range(-((width - 1) // 2), width // 2 + 1):
        for dy in range(-((width - 1) // 2), width // 2 + 1):
            px, py = xs + dx, ys + dy
            keep = (px >= left) & (px <= right) & (py >= top) & (py <= bottom)
            image[py[keep], px[keep]] = color


def draw_marker(image, x, y, color, crossed: bool, clip=None) -> None:
    x, y = int(round(x)), int(round(y))
    if crossed:
        draw_line(image, x - 4, y - 4, x + 4, y + 4, color, 2, clip)
        draw_line(image, x - 4, y + 4, x + 4, y - 4, color, 2, clip)
    else:
        for dy in range(-3, 4):
            draw_line(image, x - 3, y + dy, x + 3, y + dy, color, 1, clip)


@dataclass(frozen=True)
class Series:
    """One line: y against x with a min..max bar at each point; a point whose `flagged`
    entry is true is drawn as a cross instead of a filled square. A wide, pale line
    stays visible under a narrow one that coincides with it."""

    label: str
    color: tuple[int, int, int]
    x: Sequence[float]
    y: Sequence[float]
    low: Sequence[float]
    high: Sequence[float]
    flagged: Sequence[bool]
    width: int = 2


@dataclass(frozen=True)
class Panel:
    title: str
    series: Sequence[Series]


def _decades(values) -> tuple[int, int]:
    positive = [v for v in values if v > 0]
    if not positive:
        raise ValueError("a log axis needs at least one positive value")
    lo, hi = math.floor(math.log10(min(positive))), math.ceil(math.log10(max(positive)))
    return lo, max(hi, lo + 1)


def _tick_label(decade: int) -> str:
    return "1" if decade == 0 else f"1e{decade}"


def render(panels: Sequence[Panel], *, title: str, x_label: str, y_label: str, note: str = "",
           width: int = 1200, height: int = 450) -> np.ndarray:
    """The panels side by side on shared log-log axes, a legend of the first panel's
    series (plus `note`) under the title. Non-positive values cannot be placed on a log
    axis and are skipped."""
    image = np.full((height, width, 3), 255, dtype=np.uint8)
    every = [s for p in panels for s in p.series]
    x_lo, x_hi = _decades([v for s in every for v in s.x])
    y_lo, y_hi = _decades([v for s in every for v in list(s.low) + list(s.high) + list(s.y)])
    # at most ~4 labelled decades per axis so "1e12" labels never touch; the top one is always labelled
    x_step, y_step = max(1, math.ceil((x_hi - x_lo) / 4)), max(1, math.ceil((y_hi - y_lo) / 5))

    draw_text(image, title, width // 2, 8, align="center")
    legend = list(panels[0].series) if panels else []
    item_widths = [34 + text_width(s.label) for s in legend] + ([text_width(note)] if note else [])
    x = (width - sum(item_widths) - 30 * (len(item_widths) - 1)) // 2
    for s, w in zip(legend, item_widths):
        draw_line(image, x + 2, 44, x + 24, 44, s.color, max(s.width, 3))
        draw_text(image, s.label, x + 34, 36, color=s.color)
        x += w + 30
    if note:
        draw_text(image, note, x, 36, color=(80, 80, 80))

    panel_width = width // max(len(panels), 1)
    top, bottom = 96, height - 64
    for i, panel in enumerate(panels):
        left, right = i * panel_width + 84, (i + 1) * panel_width - 18
        clip = (left, top, right, bottom)
        inset = 10  # keeps markers on the first and last decade off the frame

        def px(v, left=left, right=right):
            return left + inset + (math.log10(v) - x_lo) / (x_hi - x_lo) * (right - left - 2 * inset)

        def py(v):
            return bottom - inset - (math.log10(v) - y_lo) / (y_hi - y_lo) * (bottom - top - 2 * inset)

        draw_text(image, panel.title, (left + right) // 2, top - 26, align="center")
        for d in range(x_lo, x_hi + 1):
            draw_line(image, px(10.0**d), top, px(10.0**d), bottom, (225, 225, 225))
            if (x_hi - d) % x_step == 0:
                draw_line(image, px(10.0**d), bottom, px(10.0**d), bottom + 5, (0, 0, 0))
                draw_text(image, _tick_label(d), int(px(10.0**d)), bottom + 9, align="center")
        for d in range(y_lo, y_hi + 1):
            draw_line(image, left, py(10.0**d), right, py(10.0**d), (225, 225, 225))
            if (y_hi - d) % y_step == 0:
                draw_line(image, left - 5, py(10.0**d), left, py(10.0**d), (0, 0, 0))
                draw_text(image, _tick_label(d), left - 9, int(py(10.0**d)) - TEXT_HEIGHT // 2 + 2, align="right")
        for a, b, c, d in ((left, top, right, top), (left, bottom, right, bottom), (left, top, left, bottom),
                           (right, top, right, bottom)):
            draw_line(image, a, b, c, d, (0, 0, 0))
        draw_text(image, x_label, (left + right) // 2, bottom + 34, align="center")
        draw_text(image, y_label, i * panel_width + 6, (top + bottom) // 2, align="center", vertical=True)

        for s in panel.series:
            points = [(px(x), py(y)) for x, y in zip(s.x, s.y) if x > 0 and y > 0]
            for (x0, y0), (x1, y1) in zip(points, points[1:]):
                draw_line(image, x0, y0, x1, y1, s.color, s.width, clip)
            for x, y, lo, hi, flagged in zip(s.x, s.y, s.low, s.high, s.flagged):
                if x <= 0 or y <= 0:
                    continue
                if lo > 0 and hi > lo:
                    draw_line(image, px(x), py(lo), px(x), py(hi), s.color, 1, clip)
                    for end in (lo, hi):
                        draw_line(image, px(x) - 3, py(end), px(x) + 3, py(end), s.color, 1, clip)
                draw_marker(image, px(x), py(y), s.color, bool(flagged), clip)
    return image


def encode_png(image: np.ndarray) -> bytes:
    """8-bit RGB PNG, one zlib stream, filter type 0 on every row."""
    image = np.ascontiguousarray(image, dtype=np.uint8)
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"image must be height x width x 3, got shape {image.shape}")
    height, width, _ = image.shape
    rows = np.concatenate([np.zeros((height, 1), dtype=np.uint8), image.reshape(height, 3 * width)], axis=1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # bit depth 8, colour type 2 (RGB)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows.tobytes(), 9))
            + chunk(b"IEND", b""))
