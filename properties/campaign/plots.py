"""Label-complexity curves from a campaign summary, drawn with matplotlib (the optional
`plots` extra): labels requested against n on log-log axes, one panel per adversary.

A summary row is one (algorithm, adversary, n) with the keys of `FIELDS`. Each algorithm
is a line through labels_mean with a shaded band over its 95% confidence interval
(labels_ci_low..labels_ci_high); its marker at each n is filled when every seed output
h* (every_seed_best) and hollow when some seed did not, and a cross where the row says
no_epoch (optional key: CALruption completed no epoch, so its output, hypothesis 0, is no
verdict on the algorithm and is not drawn as a wrong one).

matplotlib is imported only when a figure is made, so the rest of the campaign works
without it. The Figure API is used with the Agg canvas, never pyplot: no global figure
state and no interactive backend, whatever the caller's environment.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from numbers import Integral, Real
from pathlib import Path

from reference.version import DISTRIBUTION

FIELDS = (
    "algorithm",
    "adversary",
    "n",
    "seeds",
    "labels_mean",
    "labels_ci_low",
    "labels_ci_high",
    "labels_min",
    "labels_max",
    "output_is_best_fraction",
    "every_seed_best",
)
FORMATS = ("png", "svg")
INSTALL_HINT = f"plotting needs matplotlib: pip install '{DISTRIBUTION}[plots]'"

# the colours of the earlier hand-drawn figure, so the docs keep their look
COLORS = {"passive": "#969696", "RobustCAL": "#1f64c8", "CALruption": "#dc5a14"}
LABELS = {"passive": "passive ERM"}
# passive's labels = n coincide with CALruption's before its first epoch completes: a
# wide pale line underneath keeps both visible
LINE_WIDTHS = {"passive": 5.0}
LINE_WIDTH = 1.8
BAND_ALPHA = 0.25
LABEL_FLOOR = 1  # log axes cannot show 0 labels
WIDTH_IN, HEIGHT_IN, DPI = 12.0, 4.5, 100  # 1200 x 450 px
LEGEND_COLUMNS = 4  # at most; fewer while the legend is wider than the figure (it would be clipped)
DEFAULT_TITLE = "Labels requested against n (log-log), one panel per adversary"
RC = {
    # a figure in the docs should not change with the SVG viewer's fonts, but its text
    # should stay text (searchable, small files); "none" keeps <text> elements
    "svg.fonttype": "none",
    # SVG ids (clip paths, markers) are random unless salted: salted, the file is the same every run
    "svg.hashsalt": "corruption-robust-active-learning",
}
# no date (SVG) and no matplotlib version (PNG): the same rows give the same bytes
METADATA = {"png": {"Software": None}, "svg": {"Date": None}}


def _matplotlib():
    """The matplotlib pieces used here, or ImportError with the one-line install hint."""
    try:
        import matplotlib
        import matplotlib.style
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
    except ImportError as error:
        raise ImportError(INSTALL_HINT) from error
    return matplotlib, FigureCanvasAgg, Figure, Line2D, Patch


def _is_int(value) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


def _is_real(value) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value)


def _check_row(i: int, row) -> None:
    """ValueError naming the field and its value for anything the figure cannot show honestly.
    Keys beyond FIELDS are ignored (a summary may carry timings)."""
    if not isinstance(row, Mapping):
        raise ValueError(f"rows[{i}] must be a mapping, got {row!r}")
    missing = [f for f in FIELDS if f not in row]
    if missing:
        raise ValueError(f"rows[{i}] has no {missing[0]!r} (keys: {sorted(row)})")

    def bad(field: str, why: str):
        return ValueError(f"rows[{i}].{field} {why}, got {row[field]!r}")

    for field in ("algorithm", "adversary"):
        if not isinstance(row[field], str) or not row[field]:
            raise bad(field, "must be a non-empty string")
    for field, least in (("n", 1), ("seeds", 1), ("labels_min", 0), ("labels_max", 0)):
        if not _is_int(row[field]) or row[field] < least:
            raise bad(field, f"must be an integer >= {least}")
    for field in ("labels_mean", "labels_ci_low", "labels_ci_high", "output_is_best_fraction"):
        if not _is_real(row[field]):
            raise bad(field, "must be a finite number")
    # a normal-approximation interval may dip below 0 on few seeds, so only the mean must be >= 0
    if row["labels_mean"] < 0:
        raise bad("labels_mean", "must be >= 0")
    if row["labels_ci_low"] > row["labels_ci_high"]:
        raise bad("labels_ci_low", f"must be <= labels_ci_high = {row['labels_ci_high']!r}")
    if row["labels_min"] > row["labels_max"]:
        raise bad("labels_min", f"must be <= labels_max = {row['labels_max']!r}")
    if not 0 <= row["output_is_best_fraction"] <= 1:
        raise bad("output_is_best_fraction", "must be in [0, 1]")
    if not isinstance(row["every_seed_best"], bool):
        raise bad("every_seed_best", "must be a bool")
    if "no_epoch" in row and not isinstance(row["no_epoch"], bool):
        raise bad("no_epoch", "must be a bool")
    # the two say the same thing; disagreeing, one of them is wrong and the markers would lie
    if row["every_seed_best"] != (row["output_is_best_fraction"] == 1):
        raise bad(
            "every_seed_best",
            f"must be (output_is_best_fraction == 1), output_is_best_fraction = {row['output_is_best_fraction']!r}",
        )


def _checked(rows) -> list[Mapping]:
    rows = list(rows)
    if not rows:
        raise ValueError("rows must not be empty, got []")
    seen = set()
    for i, row in enumerate(rows):
        _check_row(i, row)
        key = (row["algorithm"], row["adversary"], row["n"])
        if key in seen:
            raise ValueError(f"rows[{i}] repeats (algorithm, adversary, n) = {key!r}")
        seen.add(key)
    return rows


def _seeds_text(rows) -> str:
    low, high = min(r["seeds"] for r in rows), max(r["seeds"] for r in rows)
    if low == high:
        return f"{low} seed" if low == 1 else f"{low} seeds"
    return f"{low}..{high} seeds"


def _interval_text(rows) -> str:
    """The band's legend: the interval's method as the rows name it (labels_ci_method;
    rows without one, from before it was recorded, say only "95% CI")."""
    methods = sorted({r.get("labels_ci_method") or "" for r in rows})
    if methods == [""]:
        return "95% CI"
    return "95% CI (" + "; ".join(m or "unnamed" for m in methods) + ")"


def _colors(algorithms: Sequence[str], matplotlib) -> dict[str, str]:
    # matplotlib's default cycle (not the caller's rcParams, so the figure is the same
    # everywhere), from its third colour on: its first two are near RobustCAL's blue and
    # CALruption's orange
    cycle = matplotlib.rcParamsDefault["axes.prop_cycle"].by_key()["color"][2:]
    others = [a for a in algorithms if a not in COLORS]
    return {a: COLORS.get(a) or cycle[others.index(a) % len(cycle)] for a in algorithms}


def label_curves_figure(rows: Iterable[Mapping], titles: Mapping[str, str] | None = None, *, title: str | None = None):
    """The matplotlib Figure (Agg canvas) of `rows`: one log-log panel per adversary in
    order of first appearance, panel titles from `titles` (default: the adversary name),
    `title` above the legend if given. Label counts below 1 (0 labels, or a confidence
    interval reaching below 1) are drawn at 1, since a log axis cannot show 0, and the
    legend then says so. Without `title`, a generic one (a figure is never untitled)."""
    matplotlib, FigureCanvasAgg, Figure, Line2D, Patch = _matplotlib()
    rows = _checked(rows)
    titles = dict(titles or {})
    for key, value in titles.items():
        if not isinstance(value, str):
            raise ValueError(f"titles[{key!r}] must be a string, got {value!r}")
    adversaries = list(dict.fromkeys(r["adversary"] for r in rows))
    algorithms = list(dict.fromkeys(r["algorithm"] for r in rows))
    colors = _colors(algorithms, matplotlib)

    # the default style, not the caller's matplotlibrc: the same rows give the same figure
    with matplotlib.style.context("default"), matplotlib.rc_context(RC):
        figure = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI, layout="constrained")
        FigureCanvasAgg(figure)
        axes = figure.subplots(1, len(adversaries), sharex=True, sharey=True, squeeze=False)[0]
        floored = False  # whether a value below LABEL_FLOOR was drawn at it: the legend then says so
        no_epoch = False  # whether a no-epoch point was drawn: the legend then says what the cross means
        for ax, adversary in zip(axes, adversaries):
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(titles.get(adversary, adversary))
            ax.set_xlabel("n (rounds)")
            ax.grid(True, which="major", color="0.9")
            for algorithm in algorithms:
                mine = sorted(
                    (r for r in rows if (r["algorithm"], r["adversary"]) == (algorithm, adversary)),
                    key=lambda r: r["n"],
                )
                if not mine:
                    continue
                color, width = colors[algorithm], LINE_WIDTHS.get(algorithm, LINE_WIDTH)
                n = [r["n"] for r in mine]
                mean, low, high = (
                    [max(float(r[f]), LABEL_FLOOR) for r in mine]
                    for f in ("labels_mean", "labels_ci_low", "labels_ci_high")
                )
                floored |= any(
                    float(r[f]) < LABEL_FLOOR for r in mine for f in ("labels_mean", "labels_ci_low", "labels_ci_high")
                )
                ax.fill_between(n, low, high, color=color, alpha=BAND_ALPHA, linewidth=0)
                ax.plot(n, mean, color=color, linewidth=width, label=LABELS.get(algorithm, algorithm))
                for kind in ("filled", "hollow", "no epoch"):
                    points = [(x, y) for x, y, r in zip(n, mean, mine) if _marker_kind(r) == kind]
                    if points:
                        ax.plot(
                            *zip(*points),
                            linestyle="none",
                            marker="x" if kind == "no epoch" else "o",
                            markersize=7 if kind == "no epoch" else 5,
                            markeredgecolor=color,
                            markerfacecolor={"filled": color, "hollow": "white"}.get(kind, "none"),
                        )
                        no_epoch |= kind == "no epoch"
        axes[0].set_ylabel("labels requested")

        handles = [
            Line2D([], [], color=colors[a], linewidth=LINE_WIDTHS.get(a, LINE_WIDTH), label=LABELS.get(a, a))
            for a in algorithms
        ]
        handles += [
            Patch(facecolor="0.5", alpha=BAND_ALPHA, label=f"{_interval_text(rows)} over {_seeds_text(rows)}"),
            Line2D([], [], linestyle="none", marker="o", color="0.2", label="every seed output h*"),
            Line2D(
                [], [], linestyle="none", marker="o", color="0.2", markerfacecolor="white", label="some seed did not"
            ),
        ]
        if no_epoch:
            handles.append(
                Line2D(
                    [], [], linestyle="none", marker="x", color="0.2", label="no epoch completed (output: hypothesis 0)"
                )
            )
        if floored:  # a log axis cannot show 0: never drawn at 1 without saying so
            handles.append(
                Patch(facecolor="none", edgecolor="none", label=f"values below {LABEL_FLOOR} drawn at {LABEL_FLOOR}")
            )
        _fitted_legend(figure, handles)
        figure.suptitle(DEFAULT_TITLE if title is None else title)
    return figure


def _fitted_legend(figure, handles) -> None:
    """The legend below the panels with as many columns (up to LEGEND_COLUMNS) as fit the
    figure's width: a legend wider than the canvas is cut off at both edges."""
    renderer = figure.canvas.get_renderer()
    for ncols in range(min(len(handles), LEGEND_COLUMNS), 0, -1):
        legend = figure.legend(handles=handles, loc="outside lower center", ncols=ncols, frameon=False)
        if legend.get_window_extent(renderer).width <= figure.bbox.width or ncols == 1:
            return
        legend.remove()


def _marker_kind(row) -> str:
    if row.get("no_epoch"):
        return "no epoch"
    return "filled" if row["every_seed_best"] else "hollow"


def _output_paths(path, formats) -> list[Path]:
    formats = list(dict.fromkeys([formats] if isinstance(formats, str) else formats))
    if not formats:
        raise ValueError("formats must name at least one of ('png', 'svg'), got ()")
    for fmt in formats:
        if fmt not in FORMATS:
            raise ValueError(f"formats: unknown format {fmt!r}, expected one of {FORMATS}")
    path = Path(path)
    # strip only a suffix that is one of ours: "curves.v2" is a name, not a format
    if path.suffix.lower() in {f".{f}" for f in FORMATS}:
        path = path.with_suffix("")
    return [path.with_name(f"{path.name}.{fmt}") for fmt in formats]


def plot_label_curves(
    rows: Iterable[Mapping],
    path,
    *,
    titles: Mapping[str, str] | None = None,
    formats: Sequence[str] = FORMATS,
    title: str | None = None,
) -> list[Path]:
    """Write label_curves_figure(rows, titles, title=title) to `path` once per format
    (`path` with or without a suffix: docs/label_curves.png or docs/label_curves give
    docs/label_curves.png and docs/label_curves.svg), 1200 x 450 px, creating missing
    directories; return the paths written. Label counts below 1 are drawn at 1 (log
    axes). The bytes depend on the rows (and matplotlib's version) only: no dates,
    salted SVG ids. ImportError if matplotlib is missing; ValueError naming the field
    and value for bad rows, titles or formats."""
    outputs = _output_paths(path, formats)
    matplotlib = _matplotlib()[0]
    figure = label_curves_figure(rows, titles, title=title)
    with matplotlib.style.context("default"), matplotlib.rc_context(RC):  # svg.* is read when saving
        for out in outputs:
            out.parent.mkdir(parents=True, exist_ok=True)
            fmt = out.suffix[1:]
            figure.savefig(out, format=fmt, dpi=DPI, metadata=METADATA[fmt])
    return outputs
