"""Build a report from a log directory and write it in the chosen formats.

The report is a list of sections, one per family of logs present (annotator-level
prediction, PersonaEval, MAJ-Eval, PERSE, LeWiDi, persona panels, other scorers), then
every logged metric, cost, and the runs behind it with the files set aside.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from inspect_plural.report._bootstrap import FLAG_SHARE, MIN_UNITS, Bootstrap
from inspect_plural.report._grouping import MARKS, marks
from inspect_plural.report._load import load_logs
from inspect_plural.report._logs import LogData, SkippedLog
from inspect_plural.report._parallel import default_jobs, run_all
from inspect_plural.report._paths import shown_path
from inspect_plural.report._render import (
    Document,
    render_csv,
    render_markdown,
    render_results_csv,
    render_table_markdown,
)
from inspect_plural.report._render_html import render_html
from inspect_plural.report._render_latex import latex_files, render_latex
from inspect_plural.report._tables import FigureFile, FigureSpec, Section, Table
from inspect_plural.report.metrics import INTERVALS, MetricValue, log_metrics
from inspect_plural.report.sections import (
    annotator_section,
    cost_table,
    failures_section,
    lewidi_section,
    metrics_section,
    other_section,
    panel_section,
    perse_section,
    personaeval_section,
    ratings_section,
    runs_table,
)

__all__ = ["DEFAULT_FORMATS", "FORMATS", "Report", "build_report", "parse_formats", "write_report"]

logger = logging.getLogger("inspect_plural.report")

FORMATS: tuple[str, ...] = ("md", "csv", "html", "latex")
"""Output formats, in the order they are written."""
DEFAULT_FORMATS: tuple[str, ...] = ("md", "csv", "html")
"""What ``inspect-plural report`` writes unless told (``--format``)."""

Warn = Callable[[str], None]


@dataclass
class Report:
    """A report built from a log directory, ready to write.

    Attributes:
        log_dir: The directory read.
        bootstrap: The bootstrap settings (seed, resamples).
        logs: The logs shown (one per configuration).
        values: ``id(log)`` -> that log's metric values.
        sections: The sections, in page order.
        skipped: Logs left out (unfinished, unreadable, repeats, replays) and why.
        notes: Other notes (which file was kept for which; figure notes when written).
    """

    log_dir: str
    bootstrap: Bootstrap
    logs: list[LogData]
    values: dict[int, list[MetricValue]]
    sections: list[Section]
    skipped: list[SkippedLog] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def tables(self) -> list[Table]:
        """Every table, in page order."""
        return [table for section in self.sections for table in section.tables]


def _log_warning(message: str) -> None:
    logger.warning(message)


def parse_formats(text: str | Iterable[str]) -> list[str]:
    """``md,csv`` -> ``["md", "csv"]`` (in :data:`FORMATS` order).

    Raises:
        ValueError: On an unknown or empty format list.
    """
    items = text.split(",") if isinstance(text, str) else list(text)
    chosen = {item.strip().lower() for item in items if item.strip()}
    unknown = sorted(chosen - set(FORMATS))
    if unknown:
        raise ValueError(
            f"unknown format(s) {', '.join(unknown)}; choose from {', '.join(FORMATS)}"
        )
    if not chosen:
        raise ValueError(f"no format given; choose from {', '.join(FORMATS)}")
    return [f for f in FORMATS if f in chosen]


def _sections(
    logs: Sequence[LogData], values: dict[int, list[MetricValue]], boot: Bootstrap
) -> list[Section]:
    found = [
        annotator_section(logs, values),
        personaeval_section(logs, values),
        ratings_section(logs, values),
        perse_section(logs, values),
        lewidi_section(logs, values),
        panel_section(logs, boot),
        other_section(logs, values),
        metrics_section(logs, values),
        failures_section(logs),
        Section("cost", "Cost", tables=[cost_table(logs)]),
        Section("runs", "Runs", tables=[runs_table(logs)]),
    ]
    sections = [s for s in found if s is not None]
    _unique_ids([t for s in sections for t in s.tables])
    return sections


def build_report(
    log_dir: str | Path,
    *,
    seed: int = 42,
    resamples: int = 2000,
    warn: Warn | None = None,
    jobs: int | None = None,
    include_demo: bool = False,
) -> Report:
    """Read a log directory and compute every section.

    Args:
        log_dir: The directory (searched recursively).
        seed: Bootstrap seed (each cell's generator is seeded from it and the cell).
        resamples: Bootstrap resamples per cell.
        warn: Called with a message for each log left out (default: logged as a warning).
        jobs: Worker processes for the cells (default: the CPUs, at most 4; 1: none).
        include_demo: Show demo runs beside real-data runs (in rows of their own,
            marked DEMO); by default a folder with real-data runs shows only those.

    Returns:
        The report.

    Raises:
        NoLogsError: When there is no finished log.
        ValueError: When ``resamples`` is not positive.
    """
    if resamples < 1:
        raise ValueError("resamples must be at least 1")
    say = warn or _log_warning
    loaded = load_logs(log_dir, say, include_demo)
    boot = Bootstrap(seed=seed, resamples=resamples)
    logs = loaded.logs

    def cells(i: int) -> tuple[list[MetricValue], list[str]]:
        messages: list[str] = []  # said here, not in a worker
        return log_metrics(logs[i], boot, messages.append), messages

    found = run_all(cells, len(logs), jobs or default_jobs())
    values = {id(log): cells for log, (cells, _) in zip(logs, found)}
    for _, messages in found:
        for message in messages:
            say(message)
    return Report(
        log_dir=str(log_dir),
        bootstrap=boot,
        logs=loaded.logs,
        values=values,
        sections=_sections(loaded.logs, values, boot),
        skipped=loaded.skipped,
        notes=list(loaded.notes),
    )


def _unique_ids(tables: list[Table]) -> None:
    """Make table ids (anchors, file stems) unique, case-insensitively, by numbering."""
    seen: set[str] = set()
    for table in tables:
        base, number = table.id, 1
        while table.id.lower() in seen:
            number += 1
            table.id = f"{base}_{number}"
        seen.add(table.id.lower())


def _summary(report: Report) -> list[str]:
    flagged = sum(
        1
        for table in report.tables
        for row in table.rows
        for cell in row.cells
        if getattr(cell, "flagged", False)
    )
    lines = [
        f"{len(report.logs)} runs from {shown_path(report.log_dir)}"
        + (
            f"; {len(report.skipped)} logs left out (listed under Runs)." if report.skipped else "."
        ),
        "Each cell: estimate [95% interval], then n (units behind it: samples, or "
        "annotators / items) and failed answers with their rate. "
        f"† marks a cell whose failed answers exceed {FLAG_SHARE:.0%} of its samples"
        + (f" ({flagged} cells)." if flagged else " (none here)."),
        f"No interval where fewer than {MIN_UNITS} units (the cell says so); a blank cell: "
        "not run, or the metric does not apply.",
        f"Bootstrap: seed {report.bootstrap.seed}, {report.bootstrap.resamples} resamples "
        "per cell (percentile intervals; how each metric is resampled: Methods).",
    ]
    return lines


TITLE = "inspect_plural report"


def title(logs: Sequence[LogData]) -> str:
    """The report's title: says DEMO when any run read the demo data."""
    demo = sum(1 for log in logs if log.demo)
    if demo and demo == len(logs):
        return f"{TITLE}: DEMO data only"
    if demo:
        return f"{TITLE} (includes DEMO runs, marked)"
    return TITLE


def _marks_notes(logs: Sequence[LogData]) -> list[str]:
    """What each mark on a row label means (the marks present), and which runs are partial."""
    present = {mark for log in logs for mark in marks(log)}
    notes = [f"[{mark}]: {meaning}." for mark, meaning in MARKS.items() if mark in present]
    notes += [f"{log.name} is partial: {log.partial}." for log in logs if log.partial]
    notes += [f"{log.name}: {log.cached_panels}." for log in logs if log.cached_panels]
    return notes


def _document(report: Report, figure_notes: list[str]) -> Document:
    return Document(
        title=title(report.logs),
        summary=_summary(report),
        sections=report.sections,
        skipped=[(s.path, s.reason) for s in report.skipped],
        notes=[*_marks_notes(report.logs), *report.notes, *figure_notes],
        intervals=dict(INTERVALS),
    )


def _draw_one(spec: FigureSpec, path: Path) -> str | None:
    """Draw one figure: None when drawn, ``""`` when empty, else the error."""
    try:
        return None if spec.draw(path) is not None else ""
    except Exception as ex:  # a figure must never stop the report
        return f"{type(ex).__name__}: {ex}"


def _draw(report: Report, folder: Path, warn: Warn, jobs: int) -> list[str]:
    """Draw every section's figures (in parallel); notes on the ones that failed."""
    target = folder / "figures"
    target.mkdir(parents=True, exist_ok=True)
    specs = [(section, spec) for section in report.sections for spec in section.figure_specs]
    outcomes = run_all(
        lambda i: _draw_one(specs[i][1], target / f"{specs[i][1].name}.png"), len(specs), jobs
    )
    notes: list[str] = []
    for section in report.sections:
        section.figures = []
    for (section, spec), outcome in zip(specs, outcomes):
        if outcome is None:
            path = f"figures/{spec.name}.png"
            section.figures.append(FigureFile(spec.kind, spec.task, spec.title, path))
        elif outcome:
            message = f"figure {spec.name}.png was not drawn: {outcome}"
            notes.append(message)
            warn(message)
    return notes


def write_report(
    report: Report,
    out: str | Path,
    formats: Iterable[str] = FORMATS,
    warn: Warn | None = None,
    jobs: int | None = None,
) -> list[Path]:
    """Draw the figures and write the report.

    Args:
        report: The report.
        out: The output folder (created if missing).
        formats: Any of ``md``, ``csv``, ``html``, ``latex`` (``latex``: a booktabs
            ``tables/<id>.tex`` per headline table, with its CSV beside it).
        warn: Called with a message for each figure that fails.
        jobs: Worker processes for the figures (default: the CPUs, at most 4).

    Returns:
        The files written.
    """
    chosen = parse_formats(formats)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    say = warn or _log_warning
    draw = "md" in chosen or "html" in chosen
    figure_notes = _draw(report, folder, say, jobs or default_jobs()) if draw else []
    document = _document(report, figure_notes)
    written = [folder / figure.path for section in report.sections for figure in section.figures]

    def put(relative: str, text: str) -> None:
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)

    if "md" in chosen:
        put("report.md", render_markdown(document))
        for table in report.tables:
            put(f"tables/{table.id}.md", render_table_markdown(table, 1))
    if "csv" in chosen:
        put("results.csv", render_results_csv(report.tables))
        for table in report.tables:
            put(f"tables/{table.id}.csv", render_csv(table))
    if "html" in chosen:
        put("index.html", render_html(document))
    if "latex" in chosen:
        for table in latex_files(report.tables):
            put(f"tables/{table.id}.tex", render_latex(table, document.title))
            if "csv" not in chosen:
                put(f"tables/{table.id}.csv", render_csv(table))
    return written
