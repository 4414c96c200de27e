"""The profile as ``profile.md``, ``index.html`` and ``profile.json``, and the figure.

One page: the summary table (one row per model, one column per mode: estimate, 95%
interval, chance level) and the figure with the same information, then the paired
differences between models, then a section per mode with the cells behind it (each
linking to its log), then the cells not measured. Every string from data, options or
models is escaped by :mod:`inspect_plural._escape` (``html`` and ``markdown``); the
page has no script and no external asset. With demo logs every page, table title and
the figure's file name say DEMO.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote

from inspect_plural._escape import html
from inspect_plural.profile._cells import MODES
from inspect_plural.profile._figure import draw_summary
from inspect_plural.profile._results import Profile
from inspect_plural.profile._sections import (
    differences_table,
    not_measured_table,
    section_tables,
)
from inspect_plural.profile._text import (
    DEMO_BANNER,
    MODE_TITLES,
    Link,
    TextCell,
    TextTable,
    md_escape,
    summary_table,
)

__all__ = ["figure_name", "render_html", "render_markdown", "write_profile"]

STYLE = """
body { font-family: sans-serif; margin: 1.5em; max-width: 1400px; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #eee; }
.demo { background: #ffe9a8; border: 2px solid #d9a400; padding: 0.6em; font-weight: bold; }
.note { color: #555; font-size: 0.85em; }
"""


def figure_name(profile: Profile) -> str:
    """The figure's file name (it says DEMO on demo data)."""
    return "profile-DEMO.png" if profile.demo else "profile.png"


def _title(profile: Profile) -> str:
    return ("DEMO - " if profile.demo else "") + "Pluralism profile"


def _tables(profile: Profile, out: Path) -> list[tuple[str | None, TextTable]]:
    """(section heading or None, table), in page order."""
    demo = "DEMO: " if profile.demo else ""
    found: list[tuple[str | None, TextTable]] = [(None, summary_table(profile))]
    if profile.differences:
        found.append((None, differences_table(profile.differences)))
    for mode in MODES:
        tables = section_tables(profile, mode, out)
        heading = demo + MODE_TITLES[mode]
        if not tables:
            empty = TextTable("No cell of this mode measured", ["cell", "why"])
            tables = [empty]
        for i, table in enumerate(tables):
            found.append((heading if i == 0 else None, table))
    if profile.not_measured:
        found.append((None, not_measured_table(profile)))
    for _, table in found:
        table.title = demo + table.title
    return found


def _href(target: str) -> str:
    """A relative link target, percent-encoded (no markup can survive in it)."""
    return quote(target, safe="/.-_~")


def _md_cell(cell: TextCell) -> str:
    links = [cell] if isinstance(cell, Link) else cell if isinstance(cell, list) else None
    if links is None:
        return md_escape(cell)
    return ", ".join(f"[{md_escape(x.text)}]({_href(x.target)})" for x in links)


def _md_table(table: TextTable) -> list[str]:
    lines = [f"### {md_escape(table.title)}", ""]
    lines.append("| " + " | ".join(md_escape(h) for h in table.header) + " |")
    lines.append("|" + "---|" * len(table.header))
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in table.rows]
    lines += ["", *(f"*{md_escape(n)}*" for n in table.notes), ""]
    return lines


def render_markdown(profile: Profile, out: Path) -> str:
    """The profile as Markdown (``profile.md``)."""
    lines = [f"# {_title(profile)}", ""]
    if profile.demo:
        lines += [f"**{md_escape(DEMO_BANNER)}**", ""]
    lines += [
        f"Models: {md_escape(', '.join(profile.models))}. "
        f"Budget: {md_escape(', '.join(profile.budgets))}.",
        "",
        f"![summary figure]({figure_name(profile)})",
        "",
    ]
    for heading, table in _tables(profile, out):
        if heading:
            lines += [f"## {md_escape(heading)}", ""]
        lines += _md_table(table)
    lines += [f"- {md_escape(n)}" for n in profile.notes]
    return "\n".join(lines).rstrip() + "\n"


def _html_cell(cell: TextCell) -> str:
    links = [cell] if isinstance(cell, Link) else cell if isinstance(cell, list) else None
    if links is None:
        return html(cell)
    return ", ".join(f'<a href="{html(_href(x.target))}">{html(x.text)}</a>' for x in links)


def _html_table(table: TextTable) -> list[str]:
    parts = [f"<h3>{html(table.title)}</h3>", "<table>", "<tr>"]
    parts += [f"<th>{html(h)}</th>" for h in table.header] + ["</tr>"]
    for row in table.rows:
        parts.append("<tr>" + "".join(f"<td>{_html_cell(c)}</td>" for c in row) + "</tr>")
    parts.append("</table>")
    parts += [f'<p class="note">{html(n)}</p>' for n in table.notes]
    return parts


def render_html(profile: Profile, out: Path) -> str:
    """The profile as one HTML page (``index.html``): no script, every string escaped."""
    title = html(_title(profile))
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{title}</title><style>{STYLE}</style></head><body>",
        f"<h1>{title}</h1>",
    ]
    if profile.demo:
        parts.append(f'<p class="demo">{html(DEMO_BANNER)}</p>')
    parts.append(
        f"<p>Models: {html(', '.join(profile.models))}. "
        f"Budget: {html(', '.join(profile.budgets))}.</p>"
    )
    tables = _tables(profile, out)
    parts += _html_table(tables[0][1])
    figure = html(figure_name(profile))
    parts.append(f'<p><img src="{figure}" alt="summary figure" style="max-width:100%"></p>')
    for heading, table in tables[1:]:
        if heading:
            parts.append(f"<h2>{html(heading)}</h2>")
        parts += _html_table(table)
    parts += [f'<p class="note">{html(n)}</p>' for n in profile.notes]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_profile(profile: Profile, out: str | Path) -> Sequence[Path]:
    """Write ``index.html``, ``profile.md``, ``profile.json`` and the figure into ``out``."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = [
        draw_summary(profile, folder / figure_name(profile)),
    ]
    for name, text in (
        ("index.html", render_html(profile, folder)),
        ("profile.md", render_markdown(profile, folder)),
        ("profile.json", json.dumps(profile_json(profile), indent=2, allow_nan=False)),
    ):
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def profile_json(profile: Profile) -> dict[str, object]:
    """``profile.json``: per mode its summary (per model) and cells, then the rest."""
    data = profile.model_dump(mode="json")
    return {
        "demo": data["demo"],
        "models": data["models"],
        "budgets": data["budgets"],
        "modes": {
            mode: {"summary": data["summary"].get(mode, {}), "cells": data["cells"].get(mode, [])}
            for mode in MODES
        },
        "differences": data["differences"],
        "not_measured": data["not_measured"],
        "notes": data["notes"],
    }
