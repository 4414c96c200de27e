"""The report's building blocks: cells, rows, tables, sections, and the wide-table builder.

A paper's table has runs as rows (method, model) and a column group per dataset, track,
dimension or ``k``, each holding a few metrics. :func:`wide_table` builds one from the
logs and their metric values; a column no row fills is left out and a row with no cell
is left out, so a table never shows a column or row of empty cells.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from inspect_plural.report._bootstrap import Estimate
from inspect_plural.report._logs import LogData
from inspect_plural.report.metrics import MetricValue

__all__ = [
    "MAX_COLUMNS",
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

MAX_COLUMNS = 6
"""Cell columns a table shows side by side (HTML, LaTeX): six estimates with their
intervals and the row labels fit a 1,400 px page and a landscape page."""


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
        group_header: What the column groups are (``dataset``, ``track``, ``dimension``),
            the label column's header when the table is shown transposed.
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
    group_header: str = "group"

    def column_groups(self) -> list[tuple[str, list[int]]]:
        """Each column group's text and its cell column positions (one group when none)."""
        if not self.groups:
            return [("", list(range(len(self.columns))))]
        found: list[tuple[str, list[int]]] = []
        position = 0
        for text, span in self.groups:
            found.append((text, list(range(position, position + span))))
            position += span
        return found

    def chunks(self, most: int = MAX_COLUMNS) -> list[list[int]]:
        """Cell column positions split into parts of at most ``most`` columns.

        Column groups (a dataset, a dimension) stay whole where they fit; a group wider
        than ``most`` is split on its own. A page or a paper shows each part as a table
        of its own, with the row labels repeated, so no table is wider than ``most``.
        """
        parts: list[list[int]] = []
        for _, columns in self.column_groups():
            pieces = [columns[i : i + most] for i in range(0, len(columns), most)] or [[]]
            for piece in pieces:
                if parts and len(parts[-1]) + len(piece) <= most and len(pieces) == 1:
                    parts[-1] += piece
                else:
                    parts.append(list(piece))
        return [part for part in parts if part] or [[]]

    def part(self, columns: Sequence[int]) -> Table:
        """The table restricted to some cell columns (rows left empty there dropped)."""
        keep = list(columns)
        groups: list[tuple[str, int]] = []
        for text, positions in self.column_groups():
            span = sum(1 for i in positions if i in keep)
            if span and self.groups:
                groups.append((text, span))
        rows = [Row(row.labels, tuple(row.cells[i] for i in keep)) for row in self.rows]
        return replace(
            self,
            columns=[self.columns[i] for i in keep],
            rows=[row for row in rows if any(c is not None and c != "" for c in row.cells)],
            groups=groups,
        )

    def transposed(self) -> Table:
        """The column groups as rows and the runs as column groups (same cells).

        A table of a few runs over many datasets reads better down the page: a row per
        dataset, a column group per run with its metrics.
        """
        metrics = list(dict.fromkeys(self.columns))
        groups = self.column_groups()
        rows: list[Row] = []
        for text, positions in groups:
            cells: list[Cell] = []
            for row in self.rows:
                by_metric = {self.columns[i]: row.cells[i] for i in positions}
                cells += [by_metric.get(m) for m in metrics]
            rows.append(Row((text,), tuple(cells)))
        return replace(
            self,
            row_header=[self.group_header],
            columns=[m for _ in self.rows for m in metrics],
            rows=rows,
            groups=[(" / ".join(row.labels), len(metrics)) for row in self.rows],
        )

    def layout(self, most: int = MAX_COLUMNS) -> list[Table]:
        """How to show the table at most ``most`` cell columns wide.

        As it is when it fits; transposed when it has few runs over many column groups
        and the transposed table fits; else in parts (:meth:`chunks`).
        """
        chunks = self.chunks(most)
        if len(chunks) <= 1:
            return [self]
        if self.groups and len(self.rows) * len(set(self.columns)) <= most:
            return [self.transposed()]
        return [self.part(columns) for columns in chunks]

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
    group_header: str = "group",
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
        group_header: What the column groups are (``dataset``...).

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
        group_header=group_header,
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
    group_header: str = "group",
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
        group_header: What the column groups are (``dataset``, ``track``, ``k``).

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
        group_header=group_header,
    )
