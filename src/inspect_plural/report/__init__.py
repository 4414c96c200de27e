"""Logs -> paper-shaped tables and figures: the ``inspect-plural report`` command.

:func:`build_report` reads every log under a directory with ``inspect_ai.analysis``,
keeps one log per run configuration (a repeat or a cache replay is set aside with a
note), recomputes each metric from the per-sample score values with a seeded 95%
bootstrap interval, and builds one section per family of logs with the tables the
papers print; :func:`write_report` draws the figures and writes Markdown, CSV and one
HTML page with a table of contents.
"""

from inspect_plural.report._bootstrap import FLAG_SHARE, MIN_UNITS, Bootstrap, Estimate
from inspect_plural.report._figures import has_debate
from inspect_plural.report._grouping import Grouped, flat_configuration, group_runs, label_logs
from inspect_plural.report._load import NoLogsError, load_logs
from inspect_plural.report._logs import FAMILIES, LEWIDI_METRICS, LoadResult, LogData, SkippedLog
from inspect_plural.report._paths import shown_path
from inspect_plural.report._read import DEFAULT_ROLE
from inspect_plural.report._render import (
    FLAG,
    Document,
    format_cell,
    render_csv,
    render_markdown,
    render_results_csv,
    render_table_markdown,
)
from inspect_plural.report._render_html import render_html
from inspect_plural.report._render_latex import render_latex
from inspect_plural.report._replay import SampleCalls, replay_reason, sample_calls
from inspect_plural.report._report import (
    DEFAULT_FORMATS,
    FORMATS,
    Report,
    build_report,
    parse_formats,
    write_report,
)
from inspect_plural.report._tables import (
    FigureFile,
    FigureSpec,
    Metric,
    Row,
    Section,
    Table,
    grid_table,
    slug,
    wide_table,
)
from inspect_plural.report.metrics import (
    HEADLINE,
    INTERVALS,
    DistributionRows,
    MetricValue,
    ShuffleSpread,
    annotator_accuracy,
    class_f1,
    class_f1_statistic,
    distribution_rows,
    ece_statistic,
    group_macro_f1,
    kendall,
    log_metrics,
    macro_f1_statistic,
    mean_of_group_means,
    pearson,
    shuffle_spread,
    spearman,
    trait_accuracy,
)

__all__ = [
    "DEFAULT_FORMATS",
    "DEFAULT_ROLE",
    "FAMILIES",
    "FLAG",
    "FLAG_SHARE",
    "FORMATS",
    "HEADLINE",
    "INTERVALS",
    "LEWIDI_METRICS",
    "MIN_UNITS",
    "Bootstrap",
    "DistributionRows",
    "Document",
    "Estimate",
    "FigureFile",
    "FigureSpec",
    "Grouped",
    "LoadResult",
    "LogData",
    "Metric",
    "MetricValue",
    "NoLogsError",
    "Report",
    "Row",
    "SampleCalls",
    "Section",
    "ShuffleSpread",
    "SkippedLog",
    "Table",
    "annotator_accuracy",
    "build_report",
    "class_f1",
    "class_f1_statistic",
    "distribution_rows",
    "ece_statistic",
    "flat_configuration",
    "format_cell",
    "grid_table",
    "group_macro_f1",
    "group_runs",
    "has_debate",
    "kendall",
    "label_logs",
    "load_logs",
    "log_metrics",
    "macro_f1_statistic",
    "mean_of_group_means",
    "parse_formats",
    "pearson",
    "render_csv",
    "render_html",
    "render_latex",
    "render_markdown",
    "render_results_csv",
    "render_table_markdown",
    "replay_reason",
    "sample_calls",
    "shown_path",
    "shuffle_spread",
    "slug",
    "spearman",
    "trait_accuracy",
    "wide_table",
    "write_report",
]
