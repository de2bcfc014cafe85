"""The figures of docs/theory_vs_practice.md (bench/theory_vs_practice.py draws them): small
multiples in a grid, titled, axes labelled with units, budgets in order of size, at most 8
legend entries a figure, the Okabe-Ito palette, saved with bbox_inches="tight" (nothing cut).
CALruption points that complete no epoch are never drawn as outputs: a grey span marks them."""

from __future__ import annotations

from pathlib import Path

# -- figures --------------------------------------------------------------------------------------
# Okabe-Ito (colour-blind safe), without its yellow (too pale on white); markers tell lines apart in grey too
OKABE_ITO = ("#000000", "#56B4E9", "#0072B2", "#009E73", "#E69F00", "#D55E00", "#CC79A7")
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
ALGORITHM_STYLE = {
    "passive": ("#000000", "o"),
    "RobustCAL": ("#0072B2", "s"),
    "RobustCAL-vanilla": ("#56B4E9", "^"),
    "CALruption": ("#D55E00", "D"),
    "uncertainty": ("#CC79A7", "v"),
}
NO_EPOCH_SHADE = "0.9"
SLOPE_TOLERANCE = 0.01


def budget_order(spec) -> list[str]:
    """The spec's budgets by their C_total at its largest n (zero < n^1/4 < n^1/2 < n/32 <
    n/log n < n/8 up to n ~ 8e13), not by name."""
    from properties.campaign.sweeps import budget_value

    top = max(spec["n"])
    return sorted(spec["budgets"], key=lambda b: (budget_value(b, top), spec["budgets"].index(b)))


def budget_styles(budgets) -> dict:
    return {b: (OKABE_ITO[i % len(OKABE_ITO)], MARKERS[i % len(MARKERS)]) for i, b in enumerate(budgets)}


def _bound(row, theorem, quantity, form):
    for b in row["bounds"]:
        if b["theorem"] == theorem and b["quantity"] == quantity and b["form"] == form:
            return b
    return None


def _grid(rows_n: int, cols_n: int, width: float = 3.3, height: float = 2.7):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(
        rows_n, cols_n, figsize=(width * cols_n, height * rows_n + 0.9), squeeze=False, layout="constrained"
    )
    return fig, axes


def _save(fig, out: Path, suffix: str, title: str, handles, ncol: int) -> Path:
    """One legend (at most 8 entries) under the grid, the title above; bbox_inches="tight"
    keeps every label and the legend inside the PNG."""
    import matplotlib.pyplot as plt

    if len(handles) > 8:
        raise ValueError(f"a figure's legend has at most 8 entries, got {len(handles)}")
    fig.suptitle(title, fontsize=12)
    fig.legend(handles=handles, loc="outside lower center", ncol=min(ncol, len(handles)), fontsize=9, frameon=False)
    path = out.with_name(out.name + suffix)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return path


def _handles(styles: dict, extra=()):
    from matplotlib.lines import Line2D

    return [Line2D([], [], color=c, marker=m, markersize=5, label=k) for k, (c, m) in styles.items()] + list(extra)


def _empty(ax, why: str) -> None:
    """A panel with nothing to draw says why instead of showing blank axes."""
    if not ax.lines and not ax.collections:
        ax.text(0.5, 0.5, why, transform=ax.transAxes, ha="center", va="center", fontsize=8, color="0.3", wrap=True)


def _shade_no_epoch(ax, first_n, ns):
    """Grey where CALruption completes no epoch (n below its first epoch's length)."""
    if first_n and min(ns) < first_n:
        ax.axvspan(min(ns) / 1.5, first_n, color=NO_EPOCH_SHADE, zorder=0, linewidth=0)


def figure_ratios(summary, out: Path, spec, first_epoch) -> Path:
    """Measured / corrected bound against n: one row per (theorem, quantity), one column per
    family, one line per budget. Labels: the mean over seeds (bootstrap band); excess risk: the
    worst seed (a run at h^* has ratio 0, drawn at 1e-6)."""
    from matplotlib.patches import Patch

    panels = [
        ("RobustCAL", "4.1", "labels", "labels (mean) / bound"),
        ("CALruption", "5.1", "labels", "labels (mean) / bound"),
        ("passive", "3.1", "excess_risk", "max excess risk / bound"),
        ("RobustCAL", "4.1", "excess_risk", "max excess risk / bound"),
        ("CALruption", "5.1", "excess_risk", "max excess risk / bound"),
    ]
    families = spec["families"]
    budgets = budget_order(spec)
    styles = budget_styles(budgets)
    fig, axes = _grid(len(panels), len(families))
    for r, (algorithm, theorem, quantity, what) in enumerate(panels):
        for c, fam in enumerate(families):
            ax = axes[r][c]
            ns = []
            for budget in budgets:
                colour, marker = styles[budget]
                pts = []
                for row in summary["rows"]:
                    if (row["family"], row["algorithm"], row["budget"]) != (fam, algorithm, budget):
                        continue
                    b = _bound(row, theorem, quantity, "corrected")
                    if not b or not b["value"] or row.get("no_epoch"):
                        continue
                    if quantity == "labels":
                        v = b["value"]
                        pts.append(
                            (row["n"], row["labels_mean"] / v, row["labels_ci_low"] / v, row["labels_ci_high"] / v)
                        )
                    else:
                        ratio = max(row["excess_risk_max"] / b["value"], 1e-6)
                        pts.append((row["n"], ratio, ratio, ratio))
                    ns.append(row["n"])
                if not pts:
                    continue
                pts.sort()
                xs = [p[0] for p in pts]
                ax.plot(xs, [p[1] for p in pts], color=colour, marker=marker, markersize=3, linewidth=1.1)
                if quantity == "labels":
                    ax.fill_between(xs, [p[2] for p in pts], [p[3] for p in pts], color=colour, alpha=0.12)
            if algorithm == "CALruption" and ns:
                _shade_no_epoch(ax, first_epoch.get(fam), ns + [min(spec["n"])])
            _empty(ax, "no epoch completed\nat these n" if algorithm == "CALruption" else "no finite bound")
            ax.axhline(1.0, color="black", linewidth=0.8, linestyle=":")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(f"{fam}: Thm {theorem} ({algorithm})", fontsize=9)
            ax.set_xlabel("n (rounds)", fontsize=8)
            ax.set_ylabel(what, fontsize=8)
            ax.tick_params(labelsize=7)
    extra = [Patch(color=NO_EPOCH_SHADE, label="CALruption: no epoch completed")]
    return _save(
        fig,
        out,
        "_ratios.png",
        "Measured / corrected bound (below the dotted line 1: the bound holds); colour = C_total budget",
        _handles(styles, extra),
        ncol=7,
    )


def figure_best(summary, out: Path, spec, delta: float, first_epoch) -> Path:
    """The fraction of runs that output h^* (Wilson band) against n: one row per algorithm, one
    column per family, one line per budget; dashed: 1 - delta. CALruption points that complete
    no epoch are not drawn (no output of the algorithm's to judge): the grey span."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from properties.campaign.sweeps import THEOREM

    families = spec["families"]
    algorithms = spec["algorithms"]
    budgets = budget_order(spec)
    styles = budget_styles(budgets)
    fig, axes = _grid(len(algorithms), len(families), height=2.4)
    for r, algorithm in enumerate(algorithms):
        for c, fam in enumerate(families):
            ax = axes[r][c]
            for budget in budgets:
                colour, marker = styles[budget]
                pts = sorted(
                    (
                        row["n"],
                        row["output_is_best_fraction"],
                        row["output_is_best_ci_low"],
                        row["output_is_best_ci_high"],
                    )
                    for row in summary["rows"]
                    if (row["family"], row["algorithm"], row["budget"]) == (fam, algorithm, budget)
                    and not row.get("no_epoch")
                )
                if not pts:
                    continue
                xs = [p[0] for p in pts]
                ax.plot(xs, [p[1] for p in pts], color=colour, marker=marker, markersize=3, linewidth=1.1)
                # six overlapping bands are unreadable: the interval as a bar where some seed missed h*
                # (at fraction 1 its lower end depends only on the seeds: the caption says it)
                missed = [p for p in pts if p[1] < 1]
                if missed:
                    ax.errorbar(
                        [p[0] for p in missed],
                        [p[1] for p in missed],
                        # max(0, .): the interval's ends, as floats, may sit a rounding error inside the point
                        yerr=[[max(0.0, p[1] - p[2]) for p in missed], [max(0.0, p[3] - p[1]) for p in missed]],
                        color=colour,
                        linestyle="none",
                        capsize=2,
                        linewidth=0.8,
                    )
            _empty(ax, "no epoch completed\nat these n")
            if algorithm == "CALruption":
                _shade_no_epoch(ax, first_epoch.get(fam), spec["n"])
            ax.axhline(1 - delta, color="black", linewidth=0.8, linestyle="--")
            ax.set_xscale("log")
            ax.set_xlim(min(spec["n"]) / 1.5, max(spec["n"]) * 1.5)
            ax.set_ylim(-0.03, 1.03)
            theorem = f"Thm {THEOREM[algorithm]}" if algorithm in THEOREM else "no theorem"
            ax.set_title(f"{fam}: {algorithm} ({theorem})", fontsize=9)
            ax.set_xlabel("n (rounds)", fontsize=8)
            ax.set_ylabel("fraction h_out = h*", fontsize=8)
            ax.tick_params(labelsize=7)
    extra = [
        Line2D([], [], color="black", linestyle="--", label=f"1 - delta = {1 - delta:g}"),
        Patch(color=NO_EPOCH_SHADE, label="no epoch completed"),
    ]
    return _save(
        fig,
        out,
        "_best.png",
        "Fraction of seeds whose output is h* (Wilson 95% bars where some seed missed it); colour = C_total budget",
        _handles(styles, extra),
        ncol=8,
    )


def _real_grid(rows, families, columns, column_of, column_title, algorithms, first_epoch, ns, out, suffix, title):
    """Two rows per family (labels requested, log scale; the fraction of seeds with h_out = h*),
    one column per `columns` entry, one line per algorithm; no-epoch points not drawn."""
    from matplotlib.patches import Patch

    styles = {a: ALGORITHM_STYLE[a] for a in algorithms}
    fig, axes = _grid(2 * len(families), len(columns), width=3.0, height=2.5)
    for f, fam in enumerate(families):
        for c, column in enumerate(columns):
            top, bottom = axes[2 * f][c], axes[2 * f + 1][c]
            for algorithm, (colour, marker) in styles.items():
                pts = sorted(
                    (row["n"], row["labels_mean"], row["output_is_best_fraction"])
                    for row in rows
                    if (row["family"], column_of(row), row["algorithm"]) == (fam, column, algorithm)
                    and not row.get("no_epoch")
                )
                if pts:
                    xs = [p[0] for p in pts]
                    top.plot(xs, [p[1] for p in pts], color=colour, marker=marker, markersize=3, linewidth=1.1)
                    bottom.plot(xs, [p[2] for p in pts], color=colour, marker=marker, markersize=3, linewidth=1.1)
            for ax in (top, bottom):
                _shade_no_epoch(ax, first_epoch.get(fam), ns)
                ax.set_xscale("log")
                ax.set_xlim(min(ns) / 1.5, max(ns) * 1.5)
                ax.set_xlabel("n (rounds)", fontsize=8)
                ax.set_title(f"{fam}, {column_title(column)}", fontsize=9)
                ax.tick_params(labelsize=7)
            top.set_yscale("log")
            top.set_ylabel("labels requested", fontsize=8)
            bottom.set_ylim(-0.03, 1.03)
            bottom.set_ylabel("fraction h_out = h*", fontsize=8)
    extra = [Patch(color=NO_EPOCH_SHADE, label="CALruption: no epoch completed")]
    return _save(fig, out, suffix, title, _handles(styles, extra), ncol=6)


def figure_real(summary, out: Path, spec, real_families, first_epoch) -> Path | None:
    """Real data (semi-synthetic) in the sweep: one column per budget in order of size."""
    families = [f for f in spec["families"] if f in real_families]
    if not families:
        return None
    return _real_grid(
        summary["rows"],
        families,
        budget_order(spec),
        lambda row: row["budget"],
        lambda budget: f"C_total = {budget}",
        spec["algorithms"],
        first_epoch,
        spec["n"],
        out,
        "_real.png",
        "Real features, semi-synthetic labels: labels requested and fraction of seeds with h_out = h* "
        "(C_total spent evenly)",
    )


def figure_real_adversaries(real_rows, out: Path, spec, first_epoch) -> Path | None:
    """Real data under the project's shipped adversaries: one column per adversary."""
    if not real_rows:
        return None
    families = list(dict.fromkeys(r["family"] for r in real_rows))
    titles = {r["adversary"]: r["adversary_title"] for r in real_rows}
    return _real_grid(
        real_rows,
        families,
        list(titles),
        lambda row: row["adversary"],
        lambda name: titles[name],
        spec["algorithms"],
        first_epoch,
        sorted({r["n"] for r in real_rows}),
        out,
        "_real_adversaries.png",
        "Real features, semi-synthetic labels, under the shipped adversaries (the early burst breaks Theorem 4.1's "
        "premise)",
    )


def figure_rates(rate_rows, out: Path, spec) -> Path | None:
    """Fitted exponents with their bootstrap 95% intervals (filled) beside the slope of the
    theorem's corrected bound over the same points (hollow): one column per family; rows:
    labels vs n and excess risk vs n (x = budget, in order of size), labels vs C_total (x =
    algorithm)."""
    from matplotlib.lines import Line2D

    budgets = budget_order(spec)
    families = spec["families"]
    algorithms = [a for a in spec["algorithms"]]
    styles = {a: ALGORITHM_STYLE[a] for a in algorithms}
    if not rate_rows:
        return None
    fig, axes = _grid(3, len(families), width=3.6, height=2.8)
    offsets = {a: (i - (len(algorithms) - 1) / 2) * 0.14 for i, a in enumerate(algorithms)}
    for c, fam in enumerate(families):
        for r, (quantity, against) in enumerate((("labels", "n"), ("excess_risk", "n"), ("labels", "c_total"))):
            ax = axes[r][c]
            for entry in rate_rows:
                if (entry["family"], entry["quantity"], entry["against"]) != (fam, quantity, against):
                    continue
                colour, marker = styles[entry["algorithm"]]
                x = (
                    budgets.index(entry["budget"]) + offsets[entry["algorithm"]]
                    if against == "n"
                    else algorithms.index(entry["algorithm"])
                )
                fit = entry["fit"]
                if fit:
                    low = fit["slope"] - fit["ci_low"] if fit["ci_low"] is not None else 0
                    high = fit["ci_high"] - fit["slope"] if fit["ci_high"] is not None else 0
                    ax.errorbar(
                        [x],
                        [fit["slope"]],
                        yerr=[[max(low, 0)], [max(high, 0)]],
                        color=colour,
                        marker=marker,
                        markersize=4,
                        capsize=2,
                        linewidth=1,
                    )
                if entry["bound_slope"] is not None:
                    ax.plot(
                        [x],
                        [entry["bound_slope"]],
                        marker=marker,
                        markersize=7,
                        markerfacecolor="none",
                        markeredgecolor=colour,
                        linestyle="none",
                    )
            _empty(
                ax,
                {"labels": "nothing to fit", "excess_risk": "no series with two n of\npositive mean excess risk"}[
                    quantity
                ]
                if against == "n"
                else "fewer than two budgets with C_total > 0",
            )
            ax.axhline(0, color="0.6", linewidth=0.6)
            ax.set_xlim(-0.5, (len(budgets) if against == "n" else len(algorithms)) - 0.5)
            if against == "n":
                ax.set_xticks(range(len(budgets)), budgets, fontsize=7, rotation=30)
                ax.set_xlabel("C_total budget", fontsize=8)
            else:
                ax.set_xticks(range(len(algorithms)), algorithms, fontsize=7, rotation=30)
                ax.set_xlabel("algorithm", fontsize=8)
            what = {"labels": "labels", "excess_risk": "mean excess risk"}[quantity]
            ax.set_ylabel(f"exponent of {what}" + (" in n" if against == "n" else " in C_total"), fontsize=8)
            ax.set_title(
                f"{fam}: {what} ~ " + ("n^a" if against == "n" else f"C_total^a at n = {max(spec['n']):.0e}"),
                fontsize=9,
            )
            ax.tick_params(axis="y", labelsize=7)
    extra = [
        Line2D([], [], color="0.3", marker="o", linestyle="none", label="fitted (bootstrap 95% CI)"),
        Line2D(
            [], [], color="0.3", marker="o", markerfacecolor="none", linestyle="none", label="corrected bound's slope"
        ),
    ]
    return _save(
        fig,
        out,
        "_rates.png",
        "Growth exponents, fitted (filled; labels: upper half of the n grid, excess risk: the n where it is > 0) "
        "against the corrected bound's slope there (hollow)",
        [Line2D([], [], color=c, marker=m, linestyle="none", label=a) for a, (c, m) in styles.items()] + extra,
        ncol=7,
    )
