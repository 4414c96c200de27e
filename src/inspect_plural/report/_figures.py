"""PNG figures drawn with matplotlib's Agg canvas (no display, no global pyplot state).

- :func:`reliability`: accuracy of the top option against its probability, in the ECE
  bins of the task's preset, each point labelled with its bin's count, and the counts
  as bars below.
- :func:`annotator_spread`: each annotator's accuracy per run: a box with the points,
  or the points alone (and a note on the figure) with fewer than 5 annotators.
- :func:`debate`: MAJ-Eval's scores per stakeholder group and dimension before the
  debate (the mean of the group's personas) and after it (the group's score), from the
  per-sample score values.
- :func:`forest`: a headline metric per run, grouped by dataset or track, as points
  with 95% interval lines (grows in height with the runs); a point without an interval
  is an open marker, and the figure says why.

Every title is wrapped to the figure's width, so none is clipped. Each function draws
its figure, writes it when given a path, and returns it (None: nothing to draw).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from inspect_plural.report._bootstrap import FLAG, FLAG_SHARE, MIN_UNITS, Estimate
from inspect_plural.report._logs import LogData
from inspect_plural.report.metrics import (
    annotator_accuracy,
    distribution_rows,
    rating_dimensions,
    rating_groups,
)

__all__ = ["annotator_spread", "debate", "forest", "has_debate", "reliability", "save", "wrap"]

_FLAGGED = "#c0392b"
_CHAR_INCHES = 0.105
"""Approximate width of one character of the title font (12 pt), in inches."""


def wrap(text: str, width_inches: float, scale: float = 1.0) -> str:
    """A title broken into lines that fit a figure (or axes) of this width."""
    chars = max(20, int(width_inches / (_CHAR_INCHES * scale)))
    return "\n".join(textwrap.wrap(text, chars)) or text


def save(figure: Figure, path: Path) -> None:
    """Write a figure as PNG (no timestamp in the file, so reports are reproducible)."""
    FigureCanvasAgg(figure)
    figure.savefig(path, format="png", dpi=100, metadata={"Software": None})


def _label(log: LogData) -> str:
    return f"{log.label} / {log.model}"


def _note(ax: Axes, text: str) -> None:
    """A visible caveat above the plot (laid out with it, so it covers nothing)."""
    figure = ax.get_figure(root=True)
    width = figure.get_figwidth() if isinstance(figure, Figure) else 6.0
    ax.set_title(wrap(text, width, 0.85), fontsize="small", color="#8a3b00")


def reliability(title: str, logs: Sequence[LogData], path: Path | None) -> Figure | None:
    """Reliability diagram of the logs' probability answers; False when none has any."""
    data = [(log, rows) for log in logs if (rows := distribution_rows(log)) is not None]
    data = [(log, rows) for log, rows in data if len(rows.confidence)]
    if not data:
        return None
    figure = Figure(figsize=(6.4, 6.0), layout="constrained")
    top, bottom = figure.subplots(2, 1, height_ratios=[3, 1], sharex=True)
    top.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1, label="calibrated")
    width = 0.8 / max(1, len(data))
    for position, (log, rows) in enumerate(data):
        edges = np.linspace(0.0, 1.0, rows.n_bins + 1)
        bins = np.clip(np.searchsorted(edges, rows.confidence, side="left") - 1, 0, rows.n_bins - 1)
        used = np.unique(bins)
        counts = [int((bins == b).sum()) for b in used]
        confidence = [float(rows.confidence[bins == b].mean()) for b in used]
        accuracy = [float(rows.top1[bins == b].mean()) for b in used]
        line = top.plot(confidence, accuracy, marker="o", label=f"{_label(log)} (n={len(bins)})")
        for x, y, count in zip(confidence, accuracy, counts):
            top.annotate(
                str(count),
                (x, y),
                textcoords="offset points",
                xytext=(4, 4),
                fontsize="x-small",
                color=line[0].get_color(),
            )
        centres = (edges[used] + edges[used + 1]) / 2
        offset = (position - (len(data) - 1) / 2) * width / rows.n_bins
        bottom.bar(centres + offset, counts, width=width / rows.n_bins, color=line[0].get_color())
    top.set_xlim(0, 1)
    top.set_ylim(0, 1.05)
    top.set_ylabel("accuracy of the top answer")
    top.legend(fontsize="x-small", loc="upper left")
    bottom.set_xlabel("probability of the top answer (bin mean; numbers: answers per bin)")
    bottom.set_ylabel("answers")
    figure.suptitle(wrap(title, 6.4))
    if path is not None:
        save(figure, path)
    return figure


def _run_rows(ax: Axes, labels: Sequence[str]) -> np.ndarray:
    """Runs as rows from the top (y positions), labelled."""
    y = np.arange(len(labels))[::-1].astype(float)
    ax.set_yticks(y, [wrap(label, 3.2, 0.7) for label in labels], fontsize="x-small")
    ax.set_ylim(-0.7, len(labels) - 0.3)
    return y


def annotator_spread(title: str, logs: Sequence[LogData], path: Path | None) -> Figure | None:
    """Each annotator's accuracy per run (a row per run); False without annotator logs."""
    data = [(log, annotator_accuracy(log)) for log in logs]
    data = [(log, values) for log, values in data if len(values)]
    if not data:
        return None
    figure = Figure(figsize=(8.5, 1.6 + 0.42 * len(data)), layout="constrained")
    ax = figure.add_subplot()
    y = _run_rows(ax, [f"{_label(log)} ({len(v)} annotators)" for log, v in data])
    few = [i for i, (_, values) in enumerate(data) if len(values) < MIN_UNITS]
    boxed = [i for i in range(len(data)) if i not in few]
    if boxed:
        ax.boxplot(
            [data[i][1] for i in boxed],
            positions=[y[i] for i in boxed],
            orientation="horizontal",
            showmeans=True,
            widths=0.5,
            manage_ticks=False,
        )
    rng = np.random.default_rng(0)
    for i, (_, values) in enumerate(data):
        jitter = rng.uniform(-0.15, 0.15, size=len(values))
        ax.scatter(values, np.full(len(values), y[i]) + jitter, s=10, alpha=0.6, color="#333")
    ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel("accuracy per annotator")
    ax.grid(axis="x", color="#eee")
    figure.suptitle(wrap(title, 8.5))
    if few:
        _note(ax, f"Points only, no box, where fewer than {MIN_UNITS} annotators.")
    if path is not None:
        save(figure, path)
    return figure


def _panel_means(log: LogData) -> dict[tuple[str, str, str], float]:
    """(group, dimension, phase) -> the group's mean score over samples.

    Initial: ``group_initial/{g}/{dim}`` (the mean of the group's personas before the
    debate); final: ``group/{g}/{dim}`` (the group's score after it). The whole panel
    is the group ``(panel)``: ``pred_initial/{dim}`` and ``pred/{dim}``.
    """
    means: dict[tuple[str, str, str], float] = {}
    dims = rating_dimensions(log)
    groups = [("(panel)", "pred_initial/{d}", "pred/{d}")] + [
        (g, f"group_initial/{g}/{{d}}", f"group/{g}/{{d}}") for g in rating_groups(log)
    ]
    for group, initial, final in groups:
        for dim in dims:
            for phase, pattern in (("initial", initial), ("final", final)):
                key = pattern.format(d=dim)
                if key in log.values:
                    values = log.values[key].to_numpy(dtype=float, na_value=np.nan)
                    if np.isfinite(values).any():
                        means[(group, dim, phase)] = float(np.nanmean(values))
    return means


def has_debate(log: LogData) -> bool:
    """Whether a rating log holds scores from before and after a debate."""
    return log.scorer == "rating_scorer" and {p for (_, _, p) in _panel_means(log)} == {
        "initial",
        "final",
    }


def debate(title: str, log: LogData, path: Path | None) -> Figure | None:
    """Persona scores per group and dimension before and after the debate."""
    means = _panel_means(log)
    if {phase for (_, _, phase) in means} != {"initial", "final"}:
        return None
    groups = list(dict.fromkeys(g for (g, _, _) in means))
    dims = list(dict.fromkeys(d for (_, d, _) in means))
    cols = min(3, len(dims))
    rows = math.ceil(len(dims) / cols)
    width = 4.4 * cols
    figure = Figure(figsize=(width, 3.8 * rows + 0.8), layout="constrained")
    axes = figure.subplots(rows, cols, squeeze=False)
    x = np.arange(len(groups))
    for i, dim in enumerate(dims):
        ax: Axes = axes[i // cols][i % cols]
        for offset, phase in ((-0.2, "initial"), (0.2, "final")):
            heights = [means.get((g, dim, phase), math.nan) for g in groups]
            ax.bar(x + offset, heights, width=0.4, label=phase)
        ax.set_xticks(
            x,
            [wrap(g, 0.9, 0.7) for g in groups],
            fontsize="x-small",
            rotation=35,
            ha="right",
            rotation_mode="anchor",
        )
        ax.set_title(dim, fontsize="small")
        ax.set_ylabel("mean score", fontsize="small")
    for j in range(len(dims), rows * cols):
        axes[j // cols][j % cols].set_visible(False)
    # one legend for every panel, below them: inside a panel it covered bars
    handles, labels = axes[0][0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncols=2, fontsize="small")
    figure.suptitle(wrap(title, width))
    if path is not None:
        save(figure, path)
    return figure


def forest(
    title: str,
    metric: str,
    groups: Sequence[str],
    series: Sequence[tuple[str, Sequence[Estimate | None]]],
    path: Path | None,
) -> Figure | None:
    """A metric per run, a panel per dataset or track: points with 95% interval lines.

    Panels sit two to a row; each lists the runs that have a value there, so the figure
    grows in height with the runs, never in width. A run without an interval is an open
    marker, and the figure says why.

    Args:
        title: The figure's title.
        metric: The x axis label.
        groups: The groups (datasets, tracks), in order.
        series: Per run, its label and one estimate per group (None: not run).
        path: Where to write (None: only draw).

    Returns:
        The figure, or None when there was nothing to draw.
    """
    panels = [
        (group, [(label, cells[j]) for label, cells in series if cells[j] is not None])
        for j, group in enumerate(groups)
    ]
    panels = [(group, rows) for group, rows in panels if rows]
    if not panels:
        return None
    cols = 1 if len(panels) == 1 else 2
    grid_rows = math.ceil(len(panels) / cols)
    heights = [
        max(len(rows) for _, rows in panels[r * cols : (r + 1) * cols]) + 2
        for r in range(grid_rows)
    ]
    ends = [
        x
        for _, rows in panels
        for _, cell in rows
        if cell is not None
        for x in (cell.value, cell.low, cell.high)
        if x is not None and math.isfinite(x)
    ]
    pad = 0.05 * ((max(ends) - min(ends)) or 1.0) if ends else 0.05
    width = 7.0 * cols
    figure = Figure(figsize=(width, 1.0 + 0.34 * sum(heights)), layout="constrained")
    spec = figure.add_gridspec(grid_rows, cols, height_ratios=heights)
    open_marker = flagged = False
    first: Axes | None = None
    for k, (group, rows) in enumerate(panels):
        ax = figure.add_subplot(spec[k // cols, k % cols])
        first = first or ax
        labels = [f"{label} {FLAG}" if c is not None and c.flagged else label for label, c in rows]
        y = _run_rows(ax, labels)
        for position, (_, cell) in zip(y, rows):
            assert cell is not None
            color = _FLAGGED if cell.flagged else "#1f77b4"
            flagged = flagged or cell.flagged
            if cell.low is not None and cell.high is not None:
                ax.plot([cell.low, cell.high], [position] * 2, color=color, linewidth=1.5)
                ax.plot([cell.value], [position], "o", color=color, markersize=4)
            else:
                open_marker = True
                ax.plot([cell.value], [position], "o", mfc="white", color=color, markersize=4)
        ax.set_title(group, fontsize="small", fontweight="bold", loc="left")
        ax.set_xlabel(metric, fontsize="small")
        if ends:
            ax.set_xlim(min(ends) - pad, max(ends) + pad)
        ax.grid(axis="x", color="#eee")
    figure.suptitle(wrap(title, width))
    notes = []
    if open_marker:
        notes.append(
            f"Open markers: no interval (fewer than {MIN_UNITS} units, an undefined "
            "resample, or the log's own value)."
        )
    if flagged:
        notes.append(
            f"{FLAG} and red: failed answers exceed {FLAG_SHARE:.0%}; not comparable with "
            "the other runs. Runs are in name order, not ranked."
        )
    if notes:
        figure.supxlabel(wrap(" ".join(notes), width, 0.85), fontsize="small", color="#8a3b00")
    if path is not None:
        save(figure, path)
    return figure
