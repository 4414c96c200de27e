"""The report as one self-contained HTML page: contents, sections, tables, figures.

A table of contents links every section and table (anchors are the table ids); wide
tables scroll sideways inside their box; long breakdowns and the per-dataset
per-annotator figures are folded (``<details>``). A cell shows its value (``†`` when
failures exceed 10%), its interval and, on a second line, n and failed answers; a
flagged cell is tinted. Every text is escaped (:func:`inspect_plural._escape.html`);
no external assets.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from inspect_plural._escape import html
from inspect_plural.report._bootstrap import Estimate
from inspect_plural.report._render import Document, cell_parts, footnotes, format_cell
from inspect_plural.report._tables import Cell, FigureFile, Section, Table

__all__ = ["render_html"]

_STYLE = """
body{font-family:system-ui,sans-serif;margin:0;color:#222;line-height:1.4}
main{max-width:84em;margin:0 auto;padding:1.5em 2em}
nav.toc{background:#f6f6f6;border:1px solid #ddd;padding:.6em 1.2em;margin:1em 0}
nav.toc ul{margin:.2em 0;padding-left:1.2em}nav.toc li{margin:.1em 0}
h1{margin-top:.3em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}
h3{margin:1.4em 0 .4em}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.3em 0;font-size:88%}
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top;
overflow-wrap:anywhere}
tbody th{font-weight:normal;min-width:6em;max-width:16em}
td{max-width:24em}
thead th{background:#eee}th.group{text-align:center;background:#e4e4ee}
td.num{text-align:right;white-space:nowrap}
td.flag{background:#fde2e0}
.ci{color:#555;font-size:90%;display:block}
.n{color:#666;font-size:80%;display:block;white-space:normal}
.n.bad{color:#a40000;font-weight:600}
p.caption{font-size:85%;color:#444;margin:.2em 0 .6em}
ul.notes{font-size:85%;color:#444;margin:.2em 0 1em}
.summary p{margin:.3em 0}
.figures{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}
figure{margin:.5em 0;flex:0 1 auto;max-width:100%}
figure img{max-width:100%;border:1px solid #eee}
figcaption{font-size:85%;color:#444}
details{margin:.6em 0}summary{cursor:pointer;font-weight:600}
"""


_e = html

_LONG_TOKEN = re.compile(r"[^\s<>]{25,}")
_SEPARATOR = re.compile(r"([_/.\-])")


def _breakable(escaped: str) -> str:
    """Escaped text whose long tokens (log names, hashes) may break after ``_ / . -``.

    A narrow column otherwise breaks them at any letter (``.ev`` / ``al``); ``<wbr>``
    offers the separators first. Applied after escaping: no entity holds a separator.
    """
    return _LONG_TOKEN.sub(lambda m: _SEPARATOR.sub(r"\1<wbr>", m.group(0)), escaped)


def _cell(cell: Cell) -> str:
    if not isinstance(cell, Estimate):
        text = format_cell(cell)
        numeric = isinstance(cell, int | float) and not isinstance(cell, bool)
        return f'<td class="num">{_e(text)}</td>' if numeric else f"<td>{_breakable(_e(text))}</td>"
    value, interval, counts = cell_parts(cell)
    classes = "num flag" if cell.flagged else "num"
    bad = " bad" if cell.flagged else ""
    ci = f' <span class="ci">{_e(interval)}</span>' if interval else ""
    return f'<td class="{classes}">{_e(value)}{ci}<span class="n{bad}">{_e(counts)}</span></td>'


def _header(table: Table) -> str:
    labels = len(table.row_header)
    if not table.groups:
        cells = "".join(f"<th>{_e(h)}</th>" for h in [*table.row_header, *table.columns])
        return f"<thead><tr>{cells}</tr></thead>"
    top = "".join(f'<th rowspan="2">{_e(h)}</th>' for h in table.row_header)
    top += "".join(
        f'<th class="group" colspan="{span}">{_e(text)}</th>' for text, span in table.groups
    )
    bottom = "".join(f"<th>{_e(h)}</th>" for h in table.columns)
    del labels
    return f"<thead><tr>{top}</tr><tr>{bottom}</tr></thead>"


def _grid(table: Table) -> str:
    body = []
    for row in table.rows:
        cells = "".join(f'<th scope="row">{_e(label)}</th>' for label in row.labels)
        cells += "".join(_cell(cell) for cell in row.cells)
        body.append(f"<tr>{cells}</tr>")
    return "".join(
        [
            '<div class="scroll"><table>',
            _header(table),
            "<tbody>" + "".join(body) + "</tbody>",
            "</table></div>",
        ]
    )


def html_table(table: Table) -> str:
    """One table: heading (anchored), its grid, caption, footnotes.

    A table wider than :data:`~._tables.MAX_COLUMNS` cell columns is shown transposed
    (few runs over many datasets: a row per dataset) or as several grids one under the
    other (column groups kept whole, row labels repeated), so the page needs no
    sideways scrolling at 1,400 px.
    """
    inner = [_grid(part) for part in table.layout()]
    if table.caption:
        inner.append(f'<p class="caption">{_e(table.caption)}</p>')
    notes = footnotes(table)
    if notes:
        inner.append('<ul class="notes">' + "".join(f"<li>{_e(n)}</li>" for n in notes) + "</ul>")
    heading = f'<h3 id="{_e(table.id)}">{_e(table.title)}</h3>'
    if table.collapsed:
        return (
            f'<details id="{_e(table.id)}"><summary>{_e(table.title)} '
            f"({len(table.rows)} row{'s' if len(table.rows) != 1 else ''})</summary>"
            + "\n".join(inner)
            + "</details>"
        )
    return heading + "\n" + "\n".join(inner)


def _toc(document: Document) -> str:
    items = []
    for section in document.sections:
        tables = "".join(
            f'<li><a href="#{_e(t.id)}">{_e(t.title)}</a></li>'
            for t in section.tables
            if not t.collapsed
        )
        folded = sum(1 for t in section.tables if t.collapsed)
        extra = f"<li>{folded} folded breakdown tables</li>" if folded else ""
        sub = f"<ul>{tables}{extra}</ul>" if tables or extra else ""
        items.append(f'<li><a href="#{_e(section.id)}">{_e(section.title)}</a>{sub}</li>')
    tail = [("left-out", "Logs left out", document.skipped), ("notes", "Notes", document.notes)]
    for anchor, title, entries in tail:
        if entries:
            items.append(f'<li><a href="#{anchor}">{_e(title)}</a></li>')
    items.append('<li><a href="#methods">Methods</a></li>')
    return '<nav class="toc"><strong>Contents</strong><ul>' + "".join(items) + "</ul></nav>"


FOLDED_FIGURES = frozenset({"annotators"})
"""Figure kinds shown folded (one per dataset: long on a page with many datasets)."""


def _figure(figure: FigureFile) -> str:
    return (
        f'<figure><img src="{_e(figure.path)}" alt="{_e(figure.title)}">'
        f"<figcaption>{_e(figure.title)}</figcaption></figure>"
    )


def _section(section: Section) -> list[str]:
    parts = [f'<section><h2 id="{_e(section.id)}">{_e(section.title)}</h2>']
    parts += [f"<p>{_e(p)}</p>" for p in section.intro]
    for table in section.tables:
        parts.append(html_table(table))
    shown = [f for f in section.figures if f.kind not in FOLDED_FIGURES]
    folded = [f for f in section.figures if f.kind in FOLDED_FIGURES]
    if shown:
        parts += ['<div class="figures">', *(_figure(f) for f in shown), "</div>"]
    if folded:
        count = f"{len(folded)} figure{'s' if len(folded) != 1 else ''}"
        parts += [
            f"<details><summary>Accuracy of each annotator, per dataset ({count})</summary>",
            '<div class="figures">',
            *(_figure(f) for f in folded),
            "</div></details>",
        ]
    parts.append("</section>")
    return parts


def _list(anchor: str, title: str, items: Sequence[str]) -> list[str]:
    if not items:
        return []
    return [
        f'<h2 id="{anchor}">{_e(title)}</h2>',
        "<ul>",
        *(f"<li>{_e(i)}</li>" for i in items),
        "</ul>",
    ]


def render_html(document: Document) -> str:
    """The report as one HTML page: contents, sections, tables and figures, all escaped."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(document.title)}</title>",
        f"<style>{_STYLE}</style></head>",
        "<body><main>",
        f"<h1>{_e(document.title)}</h1>",
        '<div class="summary">',
        *(f"<p>{_e(line)}</p>" for line in document.summary),
        "</div>",
        _toc(document),
    ]
    for section in document.sections:
        parts += _section(section)
    parts += _list("left-out", "Logs left out", [f"{log}: {why}" for log, why in document.skipped])
    parts += _list("notes", "Notes", document.notes)
    parts += _list("methods", "Methods", [f"{m}: {how}" for m, how in document.intervals.items()])
    parts += ["</main></body>", "</html>"]
    return "\n".join(parts) + "\n"
