"""The report's building blocks: cells, rows, tables, sections, and the wide-table builder.

A paper's table has runs as rows (method, model) and a column group per dataset, track,
dimension or ``k``, each holding a few metrics. :func:`wide_table` builds one from the
logs and their metric values; a column no row fills is left out and a row with no cell
is left out, so a table never shows a column or row of empty cells.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_plural.report._bootstrap import Estimate
from inspect_plural.report._logs import LogData
from inspect_plural.report.metrics import MetricValue

__all__ = [
    "Cell",
    "Entry",
    "FigureFile",
    "FigureSpec",
    "Metric",
    "Row",
    "Section",
    "Table",
    "Values",
    "slug",
    "grid_table",
    "value_of",
    "wide_table",
]

Cell = Estimate | str | int | float | None
"""A table cell: an estimate with its interval, a number, a text, or empty."""

Values = Mapping[int, Sequence[MetricValue]]
"""``id(log)`` -> that log's metric values."""


@dataclass(frozen=True)
class FigureFile:
    """A figure written by the report.

    Attributes:
        kind: ``reliability``, ``annotators``, ``debate``, ``forest``...
        task: The task (empty for a figure across tasks).
        title: What it shows (the figure's own full title).
        path: Path relative to the output folder (``figures/<name>.png``).
    """

    kind: str
    task: str
    title: str
    path: str


@dataclass(frozen=True)
class FigureSpec:
    """A figure to draw when the report is written.

    Attributes:
        kind: What it is (``reliability``, ``annotators``, ``debate``, ``forest``...).
        task: The task (empty for a figure across tasks).
        title: Its full title (drawn on the figure and used as its caption).
        name: File stem under ``figures/``.
        draw: Draws it to the path given; None when there was nothing to draw.
    """

    kind: str
    task: str
    title: str
    name: str
    draw: Callable[[Path], object]


@dataclass(frozen=True)
class Metric:
    """A metric column of a wide table.

    Attributes:
        name: The metric's name in the log (or breakdown).
        header: The column header (``acc``, ``ρ``, ``|ρ|``).
    """

    name: str
    header: str


@dataclass(frozen=True)
class Row:
    """One table row.

    Attributes:
        labels: The row's label cells (e.g. method and model).
        cells: One cell per column.
    """

    labels: tuple[str, ...]
    cells: tuple[Cell, ...]


@dataclass
class Table:
    """A table of the report.

    Attributes:
        id: Unique anchor and file stem.
        title: Heading.
        row_header: Headers of the label columns.
        columns: Headers of the cell columns.
        rows: The rows.
        groups: Spanning headers over the cell columns: (text, number of columns).
        caption: What the numbers are and how the intervals were made.
        notes: Footnotes.
        task: The task, when the table is about one.
        kind: What it is (``paper``, ``breakdown``, ``metrics``, ``cost``, ``runs``...).
        collapsed: Shown folded in the HTML page (long breakdowns).
    """

    id: str
    title: str
    row_header: list[str]
    columns: list[str]
    rows: list[Row]
    groups: list[tuple[str, int]] = field(default_factory=list)
    caption: str = ""
    notes: list[str] = field(default_factory=list)
    task: str = ""
    kind: str = "paper"
    collapsed: bool = False

    @property
    def flat_columns(self) -> list[str]:
        """Cell column headers with their group (``brexit / acc``), for Markdown and CSV."""
        if not self.groups:
            return list(self.columns)
        flat: list[str] = []
        position = 0
        for text, span in self.groups:
            for column in self.columns[position : position + span]:
                flat.append(f"{text} / {column}" if text else column)
            position += span
        return flat


@dataclass
class Section:
    """A part of the report: a heading, some text, tables and figures.

    Attributes:
        id: Anchor.
        title: Heading.
        intro: Paragraphs under the heading.
        tables: Its tables.
        figure_specs: Its figures, to draw.
        figures: Its figures, once drawn.
    """

    id: str
    title: str
    intro: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    figure_specs: list[FigureSpec] = field(default_factory=list)
    figures: list[FigureFile] = field(default_factory=list)


def slug(text: str) -> str:
    """A file-name- and anchor-safe form of a name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "table"


def value_of(values: Values, log: LogData, name: str) -> MetricValue | None:
    """A log's value of one metric, or None."""
    return next((v for v in values.get(id(log), ()) if v.name == name), None)


Entry = tuple[tuple[str, ...], str, Mapping[str, Estimate]]
"""One row's cells in one column group: (row labels, group, metric name -> estimate)."""


def grid_table(
    *,
    table_id: str,
    title: str,
    entries: Iterable[Entry],
    metrics: Callable[[str], Sequence[Metric]],
    row_header: list[str],
    caption: str = "",
    group_order: Sequence[str] | None = None,
    row_order: Callable[[tuple[str, ...]], Any] | None = None,
) -> Table | None:
    """A table from cells keyed by row, column group and metric.

    Args:
        table_id: The table's id.
        title: Its heading.
        entries: The cells.
        metrics: The metric columns of a group, in order.
        row_header: The label columns' headers.
        caption: What the numbers are.
        group_order: The groups' order (default: sorted).
        row_order: Sort key of the rows (default: their labels).

    Returns:
        The table (columns and rows without any cell left out), or None when empty.
    """
    cells: dict[tuple[tuple[str, ...], str, str], Estimate] = {}
    for row, group, found in entries:
        for metric in metrics(group):
            if metric.name in found:
                cells[(row, group, metric.name)] = found[metric.name]
    if not cells:
        return None
    present = {g for (_, g, _) in cells}
    order = [g for g in (group_order or sorted(present)) if g in present]
    filled = {(g, name) for (_, g, name) in cells}
    columns = [(g, m) for g in order for m in metrics(g) if (g, m.name) in filled]
    row_keys = sorted({r for (r, _, _) in cells}, key=row_order or (lambda r: r))
    rows = [Row(r, tuple(cells.get((r, g, m.name)) for g, m in columns)) for r in row_keys]
    groups: list[tuple[str, int]] = []
    for g, _ in columns:
        if groups and groups[-1][0] == g:
            groups[-1] = (g, groups[-1][1] + 1)
        else:
            groups.append((g, 1))
    return Table(
        id=slug(table_id),
        title=title,
        row_header=row_header,
        columns=[m.header for _, m in columns],
        rows=rows,
        groups=groups if any(text for text, _ in groups) else [],
        caption=caption,
    )


def wide_table(
    *,
    table_id: str,
    title: str,
    logs: Sequence[LogData],
    values: Values,
    group_of: Callable[[LogData], str],
    metrics: Callable[[str], Sequence[Metric]],
    row_of: Callable[[LogData], tuple[str, ...]],
    row_header: list[str],
    caption: str = "",
    group_order: Sequence[str] | None = None,
) -> Table | None:
    """A paper-shaped table: one row per run, a column group per dataset / track / k.

    Args:
        table_id: The table's id.
        title: Its heading.
        logs: The logs it shows.
        values: Their metric values.
        group_of: A log's column group (its dataset, track, ``k=3``...).
        metrics: The metric columns of a group.
        row_of: A log's row labels (e.g. method and model).
        row_header: The label columns' headers.
        caption: What the numbers are.
        group_order: The groups' order (default: sorted).

    Returns:
        The table, or None when no log has any of its metrics.
    """
    entries = [
        (row_of(log), group_of(log), {v.name: v.estimate for v in values.get(id(log), ())})
        for log in logs
    ]
    return grid_table(
        table_id=table_id,
        title=title,
        entries=entries,
        metrics=metrics,
        row_header=row_header,
        caption=caption,
        group_order=group_order,
    )
