r"""The report's headline tables as LaTeX (``--format latex``): one booktabs table per file.

Each paper-shaped table becomes ``tables/<id>.tex``: a ``table`` float with a
``tabular`` per part of at most :data:`LATEX_COLUMNS` cell columns (column
groups under ``\cmidrule``), each cell its estimate and 95% interval
(``0.512 [0.431, 0.590]``, ``\dag`` when failures exceed 10%), and a note under it with
n and the failed answers of each run and column group, then the table's footnotes.
Every text is escaped (:func:`inspect_plural._escape.latex`). The file needs
``\usepackage{booktabs}`` (and, for accented names, ``\usepackage[T1]{fontenc}``) in
the document that ``\input``s it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from inspect_plural._escape import latex
from inspect_plural.report._bootstrap import Estimate
from inspect_plural.report._render import footnotes, format_cell, format_number
from inspect_plural.report._tables import Cell, Table

__all__ = ["HEADLINE_KINDS", "PREAMBLE", "render_latex"]

HEADLINE_KINDS = frozenset({"paper"})
"""Table kinds written as LaTeX: the tables the papers print."""

LATEX_COLUMNS = 4
"""Cell columns per ``tabular``: four estimates with intervals fit a page's text width."""

PREAMBLE = "\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n"
"""What a document needs before ``\\input``-ing a table."""


def _number(value: float) -> str:
    if math.isnan(value):
        return "undef."
    text = format_number(value)
    return f"$-${text[1:]}" if text.startswith("-") else text


def _cell(cell: Cell) -> str:
    if cell is None or cell == "":
        return "--"
    if not isinstance(cell, Estimate):
        return latex(format_cell(cell))
    mark = r"\textsuperscript{\dag}" if cell.flagged else ""
    mark += "*" if cell.note else ""
    if cell.low is None or cell.high is None:
        return _number(cell.value) + mark
    interval = f"[{_number(cell.low)}, {_number(cell.high)}]"
    # the interval under the value, smaller: four columns and the labels fit a page
    return rf"\begin{{tabular}}[t]{{@{{}}c@{{}}}}{_number(cell.value)}{mark}\\[-2pt]" + (
        rf"{{\scriptsize {interval}}}\end{{tabular}}"
    )


def _header(table: Table, labels: int) -> list[str]:
    lines: list[str] = []
    if table.groups:
        cells = [""] * labels
        rules: list[str] = []
        start = labels + 1
        for text, span in table.groups:
            cells.append(f"\\multicolumn{{{span}}}{{c}}{{{latex(text)}}}")
            rules.append(f"\\cmidrule(lr){{{start}-{start + span - 1}}}")
            start += span
        lines += [" & ".join(cells) + r" \\", " ".join(rules)]
    names = [latex(h) for h in [*table.row_header, *table.columns]]
    lines.append(" & ".join(names) + r" \\")
    return lines


def _tabular(table: Table) -> list[str]:
    labels = len(table.row_header)
    spec = "l" * labels + "c" * len(table.columns)
    lines = [f"\\begin{{tabular}}{{{spec}}}", r"\toprule", *_header(table, labels), r"\midrule"]
    for row in table.rows:
        cells = [latex(label) for label in row.labels] + [_cell(c) for c in row.cells]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return lines


def _count_text(cells: Sequence[Estimate]) -> str:
    n = "/".join(str(x) for x in sorted({c.n for c in cells}))
    first = cells[0]
    if first.total is None:
        return f"n={n}"
    share = 100 * first.failed / first.total if first.total else 0.0
    return f"n={n}, {first.failed} of {first.total} failed ({share:.1f}%)"


def _counts(table: Table) -> list[str]:
    """Each row's n and failed answers (per column group where they differ)."""
    parts: list[str] = []
    for row in table.rows:
        texts: list[tuple[str, str]] = []
        for group, columns in table.column_groups():
            cells = [c for c in (row.cells[i] for i in columns) if isinstance(c, Estimate)]
            if cells:
                texts.append((group, _count_text(cells)))
        if not texts:
            continue
        where = ", ".join(row.labels)
        if len({text for _, text in texts}) == 1:
            parts.append(f"{where}: {texts[0][1]}")
        else:
            parts += [f"{where}, {group}: {text}" for group, text in texts]
    return parts


def _note(table: Table) -> str:
    lines = [
        "Each cell: estimate [95\\% bootstrap interval]; "
        "\\textsuperscript{\\dag}: failed answers exceed 10\\% of the cell's samples "
        "(not compared with other rows; rows are never ranked by score).",
    ]
    if table.caption:
        lines.append(latex(table.caption))
    counts = _counts(table)
    if counts:
        lines.append(latex("n (units behind each cell) and failed answers: " + "; ".join(counts)))
    lines += [latex(note) for note in footnotes(table)]
    return "\\par\\smallskip\n{\\raggedright\\footnotesize " + "\n".join(lines) + "\\par}"


def render_latex(table: Table, source: str = "") -> str:
    """One table as LaTeX ``table`` floats (booktabs): one float per part when wide.

    A table wider than :data:`LATEX_COLUMNS` cell columns is transposed when that fits
    (a row per dataset), else written as one float per part (a float cannot break
    across pages; ``part 2 of 3`` in its caption, labels ``tab:<id>``, ``tab:<id>-2``...),
    the note under the last.

    Args:
        table: The table.
        source: Where it comes from (a comment line: the report's title).

    Returns:
        The ``.tex`` text.
    """
    parts = table.layout(LATEX_COLUMNS)
    lines = [
        f"% {latex(source or 'inspect_plural report')}: {latex(table.title)}",
        "% written by inspect-plural report; needs " + " ".join(PREAMBLE.split()),
    ]
    for i, part in enumerate(parts, 1):
        caption = latex(table.title) + (f" (part {i} of {len(parts)})" if len(parts) > 1 else "")
        label = table.id if i == 1 else f"{table.id}-{i}"
        lines += [
            r"\begin{table}[htbp]",
            r"\centering",
            r"\small",
            f"\\caption{{{caption}}}",
            f"\\label{{tab:{label}}}",
            *_tabular(part),
        ]
        if i == len(parts):
            lines.append(_note(table))
        lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def latex_files(tables: Sequence[Table]) -> list[Table]:
    """The tables written as LaTeX (:data:`HEADLINE_KINDS`)."""
    return [t for t in tables if t.kind in HEADLINE_KINDS and t.rows]
