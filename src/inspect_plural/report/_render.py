"""Sections and tables -> Markdown and CSV (HTML: :mod:`._render_html`).

- ``report.md``: a table of contents, then every section with its tables (and links to
  the figures); ``tables/<id>.md`` holds each table on its own.
- ``tables/<id>.csv``: each table in the same shape, an estimate spread over six columns
  (``<column>``, ``low``, ``high``, ``n``, ``failed``, ``samples``); ``results.csv``:
  every estimate in long form, with its flag.

Numbers in Markdown and HTML are rounded to 3 decimals; the CSV files hold full
precision. A cell reads ``0.512 [0.431, 0.590] n=40, 3 failed (7.5%)``; ``†`` after the value
flags failures above 10% of the cell's samples, ``*`` a footnote; a blank cell is a run
or metric that does not apply.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass

from inspect_plural._escape import csv_cell, markdown
from inspect_plural.report._bootstrap import FLAG, FLAG_SHARE, Estimate
from inspect_plural.report._tables import Cell, Section, Table

__all__ = [
    "FLAG",
    "Document",
    "cell_parts",
    "failure_text",
    "footnotes",
    "format_cell",
    "format_number",
    "render_csv",
    "render_markdown",
    "render_results_csv",
    "render_table_markdown",
]


@dataclass(frozen=True)
class Document:
    """Everything one report shows.

    Attributes:
        title: The report's heading.
        summary: Lines under the heading (runs, how to read a cell, bootstrap).
        sections: The sections, in page order.
        skipped: ``(log, reason)`` for each log left out.
        notes: Other notes (which file was kept for which, figures not drawn).
        intervals: ``metric(s) -> how its interval is made``.
    """

    title: str
    summary: list[str]
    sections: list[Section]
    skipped: list[tuple[str, str]]
    notes: list[str]
    intervals: dict[str, str]

    @property
    def tables(self) -> list[Table]:
        """Every table, in page order."""
        return [table for section in self.sections for table in section.tables]


def format_number(value: float, digits: int = 3) -> str:
    """A number as text: 3 decimals; ``undefined`` for NaN."""
    if math.isnan(value):
        return "undefined"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = f"{value:.{digits}f}"
    # a value that rounds to zero reads 0.000, not -0.000
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def failure_text(cell: Estimate) -> str:
    """``3 failed (7.5%)`` of the n samples, or ``3/80 failed (3.8%)`` when n counts other units."""
    if cell.total is None:
        return ""
    count = str(cell.failed) if cell.total == cell.n else f"{cell.failed}/{cell.total}"
    share = f" ({100 * cell.failed / cell.total:.1f}%)" if cell.failed and cell.total else ""
    return f"{count} failed{share}"


def cell_parts(cell: Estimate) -> tuple[str, str, str]:
    """(value with its marks, interval, ``n=…, … failed``) of an estimate."""
    marks = (FLAG if cell.flagged else "") + ("*" if cell.note else "")
    interval = (
        f"[{format_number(cell.low)}, {format_number(cell.high)}]"
        if cell.low is not None and cell.high is not None
        else ""
    )
    failures = failure_text(cell)
    counts = f"n={cell.n}" + (f", {failures}" if failures else "")
    return format_number(cell.value) + marks, interval, counts


def format_cell(cell: Cell) -> str:
    """A cell as one line of text: ``0.512 [0.431, 0.590] n=40, 3 failed (7.5%)``; blank: ``""``."""
    if cell is None:
        return ""
    if isinstance(cell, Estimate):
        return " ".join(part for part in cell_parts(cell) if part)
    if isinstance(cell, bool):
        return str(cell)
    if isinstance(cell, int):
        return str(cell)
    if isinstance(cell, float):
        return format_number(cell)
    return str(cell)


def _where(table: Table, i: int, j: int) -> str:
    return " / ".join([*table.rows[i].labels, table.flat_columns[j]])


def footnotes(table: Table) -> list[str]:
    """The table's flags and cell notes as footnote lines (after its own notes)."""
    flagged: list[str] = []
    by_note: dict[str, list[str]] = {}
    for i, row in enumerate(table.rows):
        for j, cell in enumerate(row.cells):
            if not isinstance(cell, Estimate):
                continue
            if cell.flagged:
                flagged.append(f"{_where(table, i, j)} ({cell.failed}/{cell.total})")
            if cell.note:
                by_note.setdefault(cell.note, []).append(_where(table, i, j))
    lines = list(table.notes)
    if flagged:
        lines.append(
            f"{FLAG} failed answers exceed {FLAG_SHARE:.0%} of the cell's samples, so the "
            "cell is not compared with others (rows are never ranked by score): "
            + _shorten(flagged)
        )
    for note, places in by_note.items():
        lines.append(f"* {note}: {_shorten(places)}")
    return lines


def _shorten(items: Sequence[str], most: int = 6) -> str:
    shown = "; ".join(items[:most])
    return shown + (f"; and {len(items) - most} more" if len(items) > most else "")


def render_table_markdown(table: Table, level: int = 3) -> str:
    """One table as Markdown: heading, pipe table, caption and footnotes."""
    header = [*table.row_header, *table.flat_columns]
    lines = [
        f"{'#' * level} {markdown(table.title)}",
        "",
        "| " + " | ".join(markdown(h) for h in header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
    ]
    for row in table.rows:
        cells = [*row.labels, *(format_cell(c) for c in row.cells)]
        lines.append("| " + " | ".join(markdown(c) for c in cells) + " |")
    lines.append("")
    if table.caption:
        lines += [markdown(table.caption), ""]
    notes = footnotes(table)
    lines += [f"- {markdown(note)}" for note in notes]
    if notes:
        lines.append("")
    return "\n".join(lines)


def _anchor(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")


def render_markdown(document: Document) -> str:
    """The whole report as one Markdown file (figures linked)."""
    summary = [markdown(line) for line in document.summary]
    parts = [f"# {markdown(document.title)}", "", *_paragraphs(summary), "## Contents", ""]
    for section in document.sections:
        parts.append(f"- [{markdown(section.title)}](#{_anchor(section.title)})")
    parts.append("")
    for section in document.sections:
        parts += [f"## {markdown(section.title)}", ""]
        parts += [*(markdown(p) for p in section.intro), ""] if section.intro else []
        for figure in section.figures:
            parts += [f"![{markdown(figure.title)}]({figure.path})", ""]
        for table in section.tables:
            parts.append(render_table_markdown(table))
    parts += _md_list("Logs left out", [f"{log}: {why}" for log, why in document.skipped])
    parts += _md_list("Notes", document.notes)
    parts += _md_list("Methods", [f"{m}: {how}" for m, how in document.intervals.items()])
    return "\n".join(parts).rstrip() + "\n"


def _paragraphs(lines: Sequence[str]) -> list[str]:
    return [part for line in lines for part in (line, "")]


def _md_list(title: str, items: Sequence[str]) -> list[str]:
    if not items:
        return []
    return [f"## {title}", "", *(f"- {markdown(item)}" for item in items), ""]


def _csv_text(rows: Sequence[Sequence[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows([csv_cell(cell) for cell in row] for row in rows)
    return buffer.getvalue()


def _raw(value: float | None) -> str:
    return "" if value is None else repr(float(value))


def render_csv(table: Table) -> str:
    """One table as CSV in the same shape, estimates spread over six columns."""
    columns = table.flat_columns
    wide = [
        any(isinstance(row.cells[j], Estimate) for row in table.rows) for j in range(len(columns))
    ]
    header: list[str] = list(table.row_header)
    for column, is_estimate in zip(columns, wide):
        header += (
            [column, *(f"{column} {x}" for x in ("low", "high", "n", "failed", "samples"))]
            if is_estimate
            else [column]
        )
    rows: list[list[object]] = [list(header)]
    for row in table.rows:
        line: list[object] = list(row.labels)
        for cell, is_estimate in zip(row.cells, wide):
            if is_estimate:
                if isinstance(cell, Estimate):
                    total = "" if cell.total is None else cell.total
                    line += [
                        _raw(cell.value),
                        _raw(cell.low),
                        _raw(cell.high),
                        cell.n,
                        cell.failed,
                        total,
                    ]
                else:
                    line += ["", "", "", "", "", ""]
            elif isinstance(cell, float):
                line.append(_raw(cell))
            else:
                line.append("" if cell is None else cell)
        rows.append(line)
    return _csv_text(rows)


RESULTS_HEADER = [
    "table",
    "task",
    "title",
    "row",
    "column",
    "estimate",
    "low",
    "high",
    "n",
    "failed",
    "samples",
    "flagged",
    "source",
    "note",
]


def render_results_csv(tables: Sequence[Table]) -> str:
    """Every estimate of every table in long form."""
    rows: list[list[object]] = [list(RESULTS_HEADER)]
    for table in tables:
        for row in table.rows:
            for column, cell in zip(table.flat_columns, row.cells):
                if isinstance(cell, Estimate):
                    rows.append(
                        [
                            table.id,
                            table.task,
                            table.title,
                            " / ".join(row.labels),
                            column,
                            _raw(cell.value),
                            _raw(cell.low),
                            _raw(cell.high),
                            cell.n,
                            cell.failed,
                            "" if cell.total is None else cell.total,
                            int(cell.flagged),
                            cell.source,
                            cell.note or "",
                        ]
                    )
    return _csv_text(rows)
